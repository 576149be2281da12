"""Drarkane data layout: card codes, config slots, what strategies see, trace events, output columns.

Every decision point shares one numba signature, CHOOSE_SIG:

    choose(options, n, state, params) -> int

`options[:n]` are the rows to choose among (legal cards, (card, dragon) placements, objectives...), `state`
holds the public facts of the moment (indices S_* below) and `params` is the strategy's float64 array.
The bid decision returns the contract itself; the others return a row index (or -1 where allowed).
"""

import numpy as np
from numba import types

# ---- cards -------------------------------------------------------------------------------------
ARCANA, OBSCURE, MERCENARY, EGG, WIZ_LOW, WIZ_HIGH = 0, 1, 2, 3, 4, 5
KIND_NAMES = ("arcana", "obscure", "mercenary", "egg", "low wizard", "high wizard")
COLOUR_NAMES = ("blue", "red", "green", "yellow")
NO_COLOUR = -1
N_COLOURS = 4
MAX_CARDS = 64
MAX_SEATS = 6          # seats at the table (players, or players + Fallen King / Demon)
MAX_HAND = 16
MAX_ZONE = 16          # battle zone slots (the limit itself comes from the rules)
MAX_DRAGONS = 32
MAX_OBJECTIVES = 32

# trick regimes
REG_STD, REG_LOW, REG_HIGH = 0, 1, 2

# table modes
MODE_NORMAL, MODE_FALLEN_KING, MODE_SOLO = 0, 1, 2
MODE_NAMES = ("normal", "fallen king", "solo")

# ---- objectives (Treasures) ----------------------------------------------------------------------
INSTANT, END_OF_ROUND = 0, 1
# instant conditions (checked for the trick winner after every trick)
C_WIN_WITH_VALUE = 1        # win a trick with a card of exactly this value
C_WIN_WITH_AT_MOST = 2      # win a trick with a card of at most this value
C_DEFEAT_IN_TRICK = 3       # defeat at least this many dragons in one trick
C_DEFEAT_RESISTANCE = 4     # defeat a dragon of at least this resistance
C_WIN_BOTH_WIZARDS = 5      # win a trick in which both Wizards were played
C_WIN_IN_A_ROW = 6          # win this many tricks in a row
C_WIN_TRICK_NUMBER = 7      # win the trick with this number (1 = the first)
C_WIN_WITH_TRUMPS = 8       # win a trick in which at least this many trumps were played
C_DRAGONS_REACHED = 9       # reach this many defeated dragons in the round
C_TRICKS_REACHED = 10       # reach this many tricks in the round
C_DEFEAT_COLOUR = 11        # defeat a dragon of this colour
# end-of-round conditions (everyone who meets them; ties share)
C_MOST_TRICKS = 20
C_FEWEST_TRICKS = 21
C_EXACT_CONTRACT_OF = 22    # hit a contract of exactly this many tricks
C_EXACT_AT_LEAST = 23       # hit a contract of at least this many tricks
C_MOST_DRAGONS = 24
C_MOST_TERROR = 25
C_NO_DRAGON_TRICKS = 26     # defeat no dragon but take at least this many tricks
C_OFF_BY = 27               # miss the contract by exactly this many tricks
C_WON_LAST_TRICK = 28
C_DRAGON_COLOURS = 29       # defeat dragons of at least this many colours
C_NO_TRICKS = 30
INSTANT_CONDITIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
END_CONDITIONS = (20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30)
OBJECTIVE_NAMES = {
    1: "win a trick with a card of value {p}", 2: "win a trick with a card of value {p} or less",
    3: "defeat {p} dragons in one trick", 4: "defeat a dragon of resistance {p}+",
    5: "win a trick in which both Wizards were played", 6: "win {p} tricks in a row", 7: "win trick number {p}",
    8: "win a trick containing {p}+ trumps", 9: "defeat {p} dragons in the round", 10: "win {p} tricks in the round",
    11: "defeat a dragon of colour {p}",
    20: "take the most tricks", 21: "take the fewest tricks", 22: "hit a contract of exactly {p}",
    23: "hit a contract of {p} or more", 24: "defeat the most dragons", 25: "collect the most Terror",
    26: "take {p}+ tricks without defeating a dragon", 27: "miss the contract by exactly {p}",
    28: "win the last trick", 29: "defeat dragons of {p}+ colours", 30: "take no trick",
}

# ---- kernel configuration: an int64 array, indices CF_* ----------------------------------------------
CF_MODE = 0
CF_PLAYERS = 1          # real players (1 in solo)
CF_SEATS = 2            # seats at the table (players + automaton)
CF_HAND = 3             # cards dealt to each player (solo: the hand size)
CF_AUTO_CARDS = 4       # Fallen King's deck size
CF_DECK_N = 5           # battle cards in play this game
CF_ROUNDS = 6
CF_START_DRAGONS = 7
CF_ZONE_LIMIT = 8
CF_PTS_TRICK = 9
CF_PTS_DRAGON = 10
CF_NEAR = 11
CF_HALF_UP = 12
CF_CONTRACT_MAX = 13
CF_EGG_LOW = 14
CF_AUTO_MERC_HIGH = 15
CF_AUTO_TERROR = 16
CF_TRUMP = 17
CF_TEAMS = 18
CF_OPEN_EXCHANGE = 19
CF_TRICK_EXCHANGE = 20
CF_TREASURES = 21
CF_OBJ_PER_PLAYER = 22
CF_N_DRAGONS = 23
CF_N_OBJECTIVES = 24
CF_TRICK_CAP = 25
CF_CHECK = 26
CF_RANK_1 = 27          # solo rank thresholds (4 values)
CF_SOLO_EVERY_TRICK = 31    # solo: a dragon joins before every trick (else only after a Demon win or a defeat)
CF_SOLO_SPLIT = 32          # solo: separate draw pile and Demon deck (else one shared pile)
CF_FK_MAY_LEAD = 33         # the Fallen King may be the first player of a round
CF_FK_DRAGONS_COUNT = 34    # the Fallen King's dragons count for objectives
CF_TRICK_ORDER = 35         # the trick's cards are placed in the order they were played
CF_EXCH_RETURN = 36         # teams: the second giver of the opening exchange may return the card received
CF_OBJ_FIRST = 37           # Treasures: the objective draft comes before the contracts
CF_SOLO_BOUNDARY = 38       # solo: the score the 80 boundary flag decides (80)
CONFIG_SIZE = 40

# ---- what strategies see ----------------------------------------------------------------------------
# state indices
S_SEAT = 0
S_PLAYERS = 1
S_SEATS = 2
S_ROUND = 3
S_TRICK = 4             # tricks played so far this round
S_HAND_N = 5            # cards in my hand now
S_DEALT = 6             # cards dealt to each player this round
S_BID = 7               # my contract (a large number in solo: always wants tricks)
S_TRICKS = 8            # tricks I took this round
S_POS = 9               # my position in the trick (0 = leading)
S_LAST = 10             # 1 when I play last in this trick
S_LED = 11              # led colour, -1 when none yet
S_WINNER = 12           # seat currently winning the trick, -1 when I lead
S_WINNER_PARTNER = 13   # 1 when that seat is my partner (teams)
S_REGIME = 14           # REG_* of the trick so far
S_ZONE_N = 15           # dragons in the battle zone
S_ZONE_LIMIT = 16
S_DRAGONS_LEFT = 17     # dragon cards still in the deck
S_POOL = 18             # Terror pool of the round so far
S_BIDS_SUM = 19         # sum of contracts taken before mine (bid) / by everyone (later)
S_N_BIDS = 20
S_CONTEXT = 21          # exchange: CTX_*
S_OFFER = 22            # exchange reply: the card offered
S_PARTNER = 23          # my partner's seat, -1 without teams
S_PARTNER_BID = 24
S_PARTNER_TRICKS = 25
S_MODE = 26
S_TRUMP = 27
S_DRAGONS = 28          # dragons I defeated this round
S_CONTRACT_MAX = 29     # highest contract allowed
S_PARTNER_OBJ = 30      # teams with Treasures: my partner's objective card (partners show each other), -1 if none
S_RNG = 31              # the game's random stream (sim.engine.rng): strategies draw with draw()/chance()
S_PARTNER_OBJ_COND = 32     # that objective's condition and parameter (0 when none)
S_PARTNER_OBJ_PARAM = 33
STATE_SIZE = 36

CTX_OPENING, CTX_OFFER, CTX_REPLY = 0, 1, 2

# option rows: a card (bid, play, exchange)
M_CARD = 0
M_MODE = 1              # 1 = Mercenary played as 0
M_KIND = 2
M_COLOUR = 3
M_VALUE = 4             # strength as played (Mercenary 14 or 0)
M_WINS = 5              # 1 when playing it would make me the current winner of the trick
M_SLOT = 6              # slot in my hand
CARD_COLS = 8
MAX_MOVES = 2 * MAX_HAND + 2

# option rows: a placement of a trick card on a dragon
P_POS = 0               # the card's position in the trick
P_CARD = 1
P_STRENGTH = 2
P_DRAGON = 3            # dragon card id
P_COLOUR = 4
P_RESIST = 5
P_DAMAGE = 6            # strength already on the dragon
P_TERROR = 7
P_LEFT = 8              # resistance left after this card (<= 0: defeated)
P_DEFEATS = 9
PLACE_COLS = 10
MAX_PAIRS = MAX_SEATS * MAX_ZONE

# option rows: an objective card (draft)
O_ID = 0
O_TIMING = 1
O_COND = 2
O_PARAM = 3
O_POINTS = 4
OBJ_COLS = 5

CHOOSE_SIG = types.int64(types.int64[:, :], types.int64, types.int64[:], types.float64[:])
CHOOSE_FN = types.FunctionType(CHOOSE_SIG)
DECISIONS = ("bid", "play", "place", "exchange", "draft")
SEAT_FNS = types.UniTuple(CHOOSE_FN, MAX_SEATS)

# ---- trace events: rows [code, a, b, c, d] ----------------------------------------------------
EV_ROUND = 1        # round, first seat, cards dealt per player
EV_DECK = 2         # position, card           (the shuffled battle deck, in order)
EV_DRAGON_DECK = 3  # position, dragon          (the shuffled dragon deck)
EV_OBJ_DECK = 4     # position, objective       (the shuffled objective deck)
EV_DRAFT = 5        # seat, objective kept
EV_GIVE = 6         # giver, receiver, card     (opening exchange or an accepted swap)
EV_OFFER = 7        # seat, card (-1: no offer)
EV_REPLY = 8        # seat, card given back for the offer (-1: offer returned)
EV_BID = 9          # seat, contract
EV_REVEAL = 10      # dragon, dragons in the zone after it
EV_PLAY = 11        # seat, card, mode
EV_TRICK = 12       # winner, trick number (1-based)
EV_PLACE = 13       # card, dragon
EV_DISCARD = 14     # card (no dragon could take it)
EV_DEFEAT = 15      # dragon, seat
EV_OBJ_DONE = 16    # seat, objective (an instant objective completed)
EV_ROUND_END = 17   # round, lost to the zone (0/1), tricks played, Terror pool
EV_SCORE = 18       # seat, round score, treasure points
EV_DRAW = 19        # seat, card (solo refill)
EV_RESHUFFLE = 20   # position, card, pile      (solo: the discard pile shuffled into a new pile; pile 1 = the
                    #                            Demon's own deck when the piles are separate, else 0)
EV_GAME_END = 21    # stalemate, solo score, solo rank
EV_FINAL = 22       # seat, total score, rank
EV_OVERFLOW = 99
TRACE_WIDTH = 5


def trace_steps(mode: int, seats: int, hand: int, trick_cap: int) -> int:
    """Rows a trace of one game needs at most (a little over)."""
    if mode == MODE_SOLO:
        per_trick = 2 + 1 + 3 * 2 + 2 + 1 + 1
        return 200 + trick_cap * per_trick + (trick_cap // 4 + 2) * MAX_CARDS
    per_round = 1 + MAX_CARDS + MAX_DRAGONS + MAX_OBJECTIVES + 2 * seats + 2 * seats + seats
    per_trick = 1 + seats + 1 + 3 * seats + 2 + 3 + 4
    return 16 + 3 * (per_round + hand * per_trick + 2 * seats) + seats + 4


# ---- rule counters: games-table columns fired_<name> -------------------------------------------------
# how many times in a game each card effect, special rule, flag or variant rule applied (see rules.toml)
FIRED = (
    # card effects (cards played)
    "knight", "queen", "king", "mercenary_high", "mercenary_low", "egg", "wizard_low", "wizard_high",
    "wizards_cancel",            # both Wizards in one trick: the normal order holds
    "dragon_defeat", "card_discarded",   # a placeable card no dragon of its colour could take
    "demon_defeat",              # solo: dragons the Demon defeats
    "solo_reshuffle",            # solo: the discard pile becomes a pile again
    # rules and flags (named after the rule key: the situations the rule decides)
    "zone_limit",                # rounds ended by the full battle zone
    "near_miss",                 # contracts missed by one (half the Terror pool)
    "half_terror_rounding",      # a near miss on an odd Terror pool
    "egg_loses_under_low_wizard",    # a trick under the low Wizard alone holding the Egg or a Mercenary as 0
    "automaton_mercenary_high",  # the Fallen King or the Demon turns up the Mercenary
    "fallen_king",               # tricks the Fallen King plays in
    "fallen_king_terror",        # dragons the Fallen King defeats
    "fallen_king_may_lead",      # the Fallen King won a round's last trick, so would open the next round
    "fallen_king_dragons_count", # the Fallen King defeats a dragon in a game with objectives
    "placement_order",           # a dragon falls while cards of the trick are still to place
    "teams",                     # rounds played in teams
    "team_opening_exchange",     # cards given in the opening exchange
    "team_exchange_may_return",  # second gives of the opening exchange (the giver holds the card just received)
    "team_trick_exchange",       # offers made by a trick winner
    "team_trick_swap",           # offers the partner took (a card swapped back)
    "treasures",                 # objective drafts
    "objectives_before_contracts",   # objective drafts (the flag decides whether contracts come first)
    "partner_objective_seen",    # teams with Treasures: objectives a partner shows
    "solo_dragon_every_trick",   # solo: a trick the player won without a defeat (no dragon joins by default)
    "solo_shared_pile",          # solo: a pile ran out (the piles' layout decides which cards come next)
    "solo_80_is_legend",         # solo: a final score of exactly 80
    # objective cards, by their row in `objectives` (completions, by anyone)
    *(f"objective_{i:02d}" for i in range(20)),
)
F = {name: i for i, name in enumerate(FIRED)}
N_OBJ_COUNTERS = 20

# ---- output tables ----------------------------------------------------------------------------
def blocks(columns: dict) -> dict:
    """A table's columns by type, {type: [names]}: the kernel writes each type's columns into one block."""
    return {t: [name for name, c in columns.items() if c == t] for t in dict.fromkeys(columns.values())}


def block_columns(arrays: dict, types: dict) -> dict:
    """A table's columns (`types`: {name: type}, in table order) as views of its blocks (`arrays`: {type: block})."""
    index = {name: i for names in blocks(types).values() for i, name in enumerate(names)}
    return {name: arrays[t][:, index[name]] for name, t in types.items()}


GAME_COLUMNS = {
    "mode": np.int8, "seats": np.int8, "rounds": np.int8, "stalemate": np.int8,
    "contracts": np.int16, "exact": np.int16, "near": np.int16, "missed": np.int16,
    "lost_rounds": np.int8, "tricks": np.int16, "defeated": np.int16, "terror": np.int16,
    "treasure": np.int16, "objectives_done": np.int16,
    "winner": np.int8, "n_winners": np.int8, "top_score": np.int16, "score_spread": np.int16,
    "team_winner": np.int8, "automaton_tricks": np.int16,
    "solo_score": np.int16, "solo_rank": np.int8, "solo_tricks": np.int16,
    **{f"score_s{k}": np.int16 for k in range(MAX_SEATS)},
    **{f"rank_s{k}": np.int8 for k in range(MAX_SEATS)},
    **{f"exact_s{k}": np.int8 for k in range(MAX_SEATS)},
    "violations": np.int16, "bad_decisions": np.int16,
    **{f"fired_{name}": np.int32 for name in FIRED},
}
G = {name: i for i, name in enumerate(GAME_COLUMNS)}       # the kernel's row of a game (kernel.write_game)
# the kernel writes each table straight into one column-major block per type: no wider record to copy from
GAME_BLOCKS = blocks(GAME_COLUMNS)
GAME_SLOTS = {t: np.array([G[name] for name in names], np.int64) for t, names in GAME_BLOCKS.items()}

ROUND_COLUMNS = {
    "round": np.int8, "seat": np.int8, "position": np.int8, "team": np.int8, "dealt": np.int8,
    "bid": np.int8, "tricks": np.int8, "diff": np.int8, "exact": np.int8, "near": np.int8, "missed": np.int8,
    "dragons": np.int8, "terror_own": np.int16, "pool": np.int16, "terror_points": np.int16,
    "treasure": np.int16, "score": np.int16, "lost": np.int8, "tricks_played": np.int8,
}
ROUND_BLOCKS = blocks(ROUND_COLUMNS)
R = {name: i for names in ROUND_BLOCKS.values() for i, name in enumerate(names)}   # index in its type's block
