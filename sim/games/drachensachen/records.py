"""Drachensachen data layout: card codes, what strategies see, trace rows, output columns.

Strategies are three numba functions with one signature, `SIG`:

    play(moves, n, view, params)    a turn's decision (also: answer a draw or a missed turn)
    setup(moves, n, view, params)   the hand/open exchange before a round
    choose(moves, n, view, params)  an ability's choice (which open card, which player, reverse or not)

`moves[:n]` lists the legal options (columns M_*), the function returns the index of one. A play row
(K_PLAY) holds one card type with the largest legal play: M_HAND cards from the hand and M_OPEN from the
open Remainders. To play fewer, the strategy lowers the counts in the row it returns (at least one card;
open cards join hand cards only when all the hand's cards go too); the kernel checks them, and restores
the largest play, counting a violation, when they break a rule. A strategy is not asked when there is only
one option and it leaves nothing to choose (a single card, a forced blind card, a forced pick-up).
`view` is the deciding player's row of the table (indices V_*): their own cards by type, the pile's
situation and public counts. `params` is the strategy's float64 parameter row.
"""

import warnings

import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

# first-class function types are what keep the kernel compiled once for every strategy
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

# ---- cards ---------------------------------------------------------------------------------------
NULLO, EXTERMINO, PROTECTO = 10, 11, 12
N_TYPES = 13                      # type codes 1..12; index 0 unused
CARD_NAMES = ("-", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Nullo", "Extermino", "Protecto")
MAX_PLAYERS = 6
MAX_DECK = 256
MAX_HIDDEN = 8
MAX_OPEN = 8
MAX_HAND_DEAL = 20
MAX_MOVES = 128

# ---- moves offered to a strategy ------------------------------------------------------------------
M_KIND, M_TYPE, M_HAND, M_OPEN = 0, 1, 2, 3
MOVE_COLS = 4
K_PLAY = 0        # type, cards from hand, cards from open Remainders (the largest play; may be trimmed)
K_BLIND = 1       # the top face-down card
K_TAKE = 2        # take the pile
K_DRAW = 3        # draw the pending cards (then play on)
K_MISS = 4        # miss the turn
K_DISCARD = 5     # put a set of four of `type` from hand out of the round
K_PEEK = 6        # house rule for 4s: look at a face-down card
K_KEEP = 7        # set-up: no exchange
K_SWAP = 8        # set-up: hand card `type` to the open row, open card `M_HAND` to the hand
K_OPTION = 9      # an ability's option: `type` = the option, `M_HAND` = a fact about it (see PH_*)

# ---- decision phases (view[V_PHASE]) ---------------------------------------------------------------
PH_PLAY = 0       # a normal turn
PH_DRAW = 1       # facing a draw from 4s: push it or draw
PH_SKIP = 2       # about to miss a turn: push it or miss
PH_SETUP = 3      # the exchange before a round
PH_SECRET = 4     # Open Secrets: option type = open card to move to the hand
PH_BALL = 5       # Monsterball: option type = target seat, M_HAND = the target's card count
PH_TURN = 6       # Roundabout: option type 0 keep / 1 reverse, M_HAND = cards of the player who acts next

# ---- the view: one row per player ----------------------------------------------------------------
V_HAND = 0        # 13 entries: own hand cards by type (the kernel keeps them here)
V_OPEN = 13       # 13 entries: own open Remainders by type
V_HAND_N = 26
V_OPEN_N = 27
V_HIDDEN_N = 28
V_SEAT = 29
V_PLAYERS = 30
V_PHASE = 31
V_BEAT = 32       # value to match or beat (0 on an empty pile or after Nullo)
V_LOW3 = 33       # 1 when a 3 demands a lower card
V_NO_DRAGON = 34  # 1 when a 6 forbids dragons
V_NO_NINE = 35    # 1 when a dragon lies on top (no 9)
V_DRAW = 36       # cards pending from 4s
V_SKIP = 37       # missed turns pending from 5s
V_RUN_TYPE = 38   # type of the run of equal cards on top of the pile
V_RUN_N = 39      # its length (a run of four burns the pile)
V_PILE_N = 40
V_DECK_LEFT = 41  # cards left in the redraw pile
V_NEXT_CARDS = 42 # cards held by the next player in turn order
V_PREV_CARDS = 43
V_FEWEST = 44     # fewest cards held by any other player
V_ROUND = 45
V_LOST = 46       # own coins lost so far
V_MOST_LOST = 47  # most coins lost by another player
V_DIRECTION = 48
V_STALL = 49      # turns since any player last reached a new lowest card count this round (a repetition shows here)
V_MULTI_PROTECTO = 50  # 1 when the house rule makes several Protectos push the situation several players on
VIEW_LEN = 51

SIG = types.int64(types.int64[:, :], types.int64, types.int64[:], types.float64[:])
FN = types.FunctionType(SIG)
SEAT_FNS = types.UniTuple(FN, MAX_PLAYERS)
DECISIONS = ("play", "setup", "choose")

# ---- rule values passed to the kernel in one int array ---------------------------------------------
RINT_KEYS = (
    "hand_cards", "hidden_cards", "open_cards", "exchanges", "redraw_pile", "refill_hand",
    "three_allows_three", "dragons_cancel_draw", "max_loss_per_round", "game_end_loss", "turn_cap",
    "stalemate_scores", "max_rounds", "house_fours", "house_fives", "house_protecto",
    "curse_many_monsters", "curse_unknowing", "curse_chaos", "curse_hand_cards", "curse_hidden_cards",
    "curse_open_cards", "abilities_from_start",
    "ability_nullo_quick", "ability_envious_monsters", "ability_one_on_nine", "ability_monsterball",
    "ability_roundabout", "ability_golden_feathers", "ability_open_secrets",
    "fives_spare_player", "discard_facing", "extermino_stays", "nullo_quick_must_play", "house_fives_pass",
    "hidden_gold_from_back", "back_coins",
)
(R_HAND, R_HIDDEN, R_OPEN, R_EXCHANGES, R_PILE, R_REFILL, R_THREE_EQUAL, R_DRAGONS_CANCEL, R_MAX_LOSS,
 R_END_LOSS, R_TURN_CAP, R_STALEMATE_SCORES, R_MAX_ROUNDS, R_HOUSE4, R_HOUSE5, R_HOUSE_PROTECTO,
 R_CURSE_MANY, R_CURSE_UNKNOWING, R_CURSE_CHAOS, R_CURSE_HAND, R_CURSE_HIDDEN, R_CURSE_OPEN,
 R_ABILITIES_FROM_START, R_ABILITY0) = range(24)
ABILITY_NAMES = ("nullo_quick", "envious_monsters", "one_on_nine", "monsterball", "roundabout",
                 "golden_feathers", "open_secrets")
AB_NULLO_QUICK, AB_ENVY, AB_ONE_ON_NINE, AB_BALL, AB_ROUNDABOUT, AB_GOLD, AB_SECRETS = range(7)
N_ABILITIES = 7
(R_FIVES_SPARE, R_DISCARD_FACING, R_EXTERMINO_STAYS, R_QUICK_MUST_PLAY, R_HOUSE5_PASS, R_HIDDEN_BACK,
 R_BACK_COINS) = range(R_ABILITY0 + N_ABILITIES, R_ABILITY0 + N_ABILITIES + 7)
N_RINT = R_BACK_COINS + 1
assert N_RINT == len(RINT_KEYS)
CURSE_NAMES = ("many_monsters", "unknowing", "chaos")
CURSE_MANY, CURSE_UNKNOWING, CURSE_CHAOS = 0, 1, 2

# ---- preset deal (tests): [starter, hand, hidden, open for each seat..., deck...] --------------------
PRESET_HEAD = 1 + 3 * MAX_PLAYERS

# ---- trace rows: TRACE_WIDTH ints, [code, seat, a, b, c, d, e, f] -----------------------------------
T_ROUND = 1       # starter, round index, chaos (redraw pile = every card left), preset deal
T_SETUP = 2       # seat, hand, hidden, open
T_DECK = 3        # offset, then six cards (0 = past the end)
T_PILE = 4        # -, redraw pile size
T_SWAP = 5        # seat, hand type moved to the open row, open type moved to the hand
T_PLAY = 6        # seat, type, from hand, from open
T_BLIND = 7       # seat, card, fits (1) or not (0: the pile is taken with it)
T_TAKE = 8        # seat, cards taken
T_DRAW = 9        # seat, cards due, cards drawn
T_MISS = 10       # seat, 1 when skipped by several Protectos
T_DISCARD = 11    # seat, type
T_PEEK = 12       # seat, card, outcome (0 pushes, 1 played after drawing, 2 taken after drawing), drawn
T_BALL = 13       # seat, target, card given
T_TURN = 14       # seat, reversed
T_SECRET = 15     # seat, type moved to hand
T_ENVY = 16       # seat, drawn
T_REFILL = 17     # seat, drawn
T_ROUND_END = 18  # seat out (-1: stalemate), losses of seats 0..5
T_CURSE = 19      # seat, curse kind
T_ABILITY = 20    # -, ability now active
T_GAME_END = 21   # winner (-1: stalemate game), loser, rounds
TRACE_WIDTH = 8
TRACE_NAMES = {v: k for k, v in list(globals().items()) if k.startswith("T_") and isinstance(v, int)}

# ---- rule counters (games table `fired_<name>`): how often a rule, effect or reading applied ----------
# counted by the kernel; the card effects it already counts (3s, 4s, ... burns) are copied under their
# fired_ names by `game.tables` (FIRED_ALIASES)
KERNEL_FIRED = (
    "open_set",               # last hand cards played together with matching open Remainders
    "exchange",               # hand/open exchanges before a round
    "blind",                  # face-down cards turned up (played or failed)
    "draw_limit",             # a draw cut short because the redraw pile ran out
    "no_nine_on_dragon",      # a player held a 9 while a dragon on top forbade it
    "no_dragon_on_six",       # a player held a dragon while a 6 forbade it
    "house_fours", "house_fives", "house_protecto",
    "curse_many_monsters", "curse_unknowing", "curse_chaos",
    "ability_nullo_quick", "ability_envious_monsters", "ability_one_on_nine", "ability_roundabout",
    "ability_golden_feathers", "abilities_from_start",
    "three_allows_three",     # a player facing a 3 held a 3
    "dragons_cancel_draw",    # a player facing a draw held (or peeked) Nullo or Extermino
    "refill_hand",            # a turn ended with the hand below its size and cards in the redraw pile
    "stalemate_scores",       # a round stopped by the turn cap
    "fives_spare_player",     # misses from 5s came round to the player who played them
    "discard_facing",         # a player facing a draw or a missed turn held a set of four in a hand of 4+
    "extermino_stays",        # an Extermino removed the pile
    "nullo_quick_must_play",  # the extra turn of a quick Nullo began with a play possible and a pile to take
    "house_fives_pass",       # a player about to miss a turn pushed it on with 5s
    "hidden_gold_from_back",  # face-down cards scored at the end of a round
)
FIRED_ALIASES = {"three": "threes", "four": "fours", "five": "fives", "six": "sixes", "nullo": "nullos",
                 "extermino": "exterminos", "protecto": "protectos", "burn": "burns", "discard": "discards",
                 "ability_monsterball": "monsterballs", "ability_open_secrets": "secrets"}

# ---- outputs -------------------------------------------------------------------------------------
GAME_COLUMNS = {
    "rounds": np.int16, "stalemate_rounds": np.int16, "stalemate": np.int8, "winner": np.int8,
    "loser": np.int8, "first_starter": np.int8, "turns": np.int32, "max_round_turns": np.int32,
    "plays": np.int32, "pickups": np.int32, "blind_fails": np.int32, "burns": np.int32,
    "discards": np.int32, "threes": np.int32, "fours": np.int32, "fives": np.int32, "sixes": np.int32,
    "nullos": np.int32, "exterminos": np.int32, "protectos": np.int32, "cards_drawn": np.int32,
    "skips": np.int32, "starter_out": np.int16, "curses": np.int16, "monsterballs": np.int32,
    "reversals": np.int32, "secrets": np.int32, "envy_draws": np.int32, "violations": np.int32,
    "check_fails": np.int32, "winner_lost": np.int16, "loser_lost": np.int16,
    **{f"lost{s}": np.int16 for s in range(MAX_PLAYERS)},
    **{f"pos_lost{k}": np.int32 for k in range(MAX_PLAYERS)},
    **{f"fired_{name}": np.int32 for name in KERNEL_FIRED},
}
(G_ROUNDS, G_STALEMATE_ROUNDS, G_STALEMATE, G_WINNER, G_LOSER, G_FIRST_STARTER, G_TURNS, G_MAX_TURNS,
 G_PLAYS, G_PICKUPS, G_BLIND_FAILS, G_BURNS, G_DISCARDS, G_THREES, G_FOURS, G_FIVES, G_SIXES, G_NULLOS,
 G_EXTERMINOS, G_PROTECTOS, G_DRAWN, G_SKIPS, G_STARTER_OUT, G_CURSES, G_BALLS, G_REVERSALS, G_SECRETS,
 G_ENVY, G_VIOLATIONS, G_CHECK_FAILS, G_WINNER_LOST, G_LOSER_LOST, G_LOST0) = range(33)
G_POS_LOST0 = G_LOST0 + MAX_PLAYERS
G_FIRED0 = G_POS_LOST0 + MAX_PLAYERS
(F_OPEN_SET, F_EXCHANGE, F_BLIND, F_DRAW_LIMIT, F_NO_NINE, F_NO_DRAGON, F_HOUSE4, F_HOUSE5, F_HOUSE_PROTECTO,
 F_CURSE_MANY, F_CURSE_UNKNOWING, F_CURSE_CHAOS, F_NULLO_QUICK, F_ENVY, F_ONE_ON_NINE, F_ROUNDABOUT, F_GOLD,
 F_FROM_START, F_THREE_EQUAL, F_DRAGONS_CANCEL, F_REFILL, F_STALEMATE_SCORES, F_FIVES_SPARE, F_DISCARD_FACING,
 F_EXTERMINO_STAYS, F_QUICK_MUST_PLAY, F_HOUSE5_PASS, F_HIDDEN_BACK) = range(G_FIRED0, G_FIRED0 + 28)
N_GAME_COLS = G_FIRED0 + len(KERNEL_FIRED)
assert F_HIDDEN_BACK == N_GAME_COLS - 1
assert N_GAME_COLS == len(GAME_COLUMNS)

# one row per player and game: coins lost, whether they won, rounds they went out first, pickups
PLAYER_COLUMNS = {"seat": np.int8, "lost": np.int16, "won": np.int8, "went_out": np.int16, "pickups": np.int32}
P_LOST, P_WON, P_OUT, P_PICKUPS = 0, 1, 2, 3
N_PLAYER_COLS = 4

# one row per round: losses by position after the round's starter (position 0 = the starter)
ROUND_COLUMNS = {"round": np.int16, "starter": np.int8, "went_out": np.int8, "turns": np.int32,
                 "pickups": np.int16, **{f"pos_lost{k}": np.int16 for k in range(MAX_PLAYERS)}}
RD_GAME, RD_ROUND, RD_STARTER, RD_OUT, RD_TURNS, RD_PICKUPS, RD_POS_LOST0 = range(7)
N_ROUND_COLS = RD_POS_LOST0 + MAX_PLAYERS

# kernel counters: rounds written (or needed), trace rows written (or needed), decisions searched, determinisations
# in which a seat's hand could not be dealt as its plays say (kernel_search.determinise's beliefs)
C_ROUNDS, C_TRACE, C_SEARCHED, C_FALLBACKS = 0, 1, 2, 3
