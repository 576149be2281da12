"""Drarkane numba kernel: whole batches of games (normal, Fallen King, solo; teams and Treasures).

`play_batch` plays n games from one seed and fills the games and rounds tables; the first
`trace.shape[0]` games also write their action trace. Game state lives in a few preallocated int64
arrays: `gs` (scalars, GS_*), `ps` (per seat, PS_*), `zone` (dragons in the battle zone: id, damage, Z_*),
`tr` (the trick: card, mode, seat). Nothing is allocated inside the per-game loop.

Speed notes (measured with perf on this kernel):
- numba increments and decrements an array's reference count (an atomic instruction) whenever an array
  enters a function or a variable; that was about 40% of the time. `play_batch_jit` owns the arrays and hands
  `run_batch` *borrowed* views (`borrow`: same data, null meminfo), for which those calls do nothing.
- borrowed views still left calls to NRT_incref/NRT_decref (on a null pointer): every function below
  `play_batch_jit` (except the per-batch table builders) is compiled `_nrt=False`, which drops them (about
  1.3x faster games). Those functions may not allocate.
- the built-in bid, play and placement strategies run inline. `play_batch` (Python) recognises them by
  identity (`INLINE`) and passes `codes[decision, seat]`; such a decision builds no option rows, writes no
  strategy state and makes no indirect call: it computes the same choice from the kernel's own data, with
  the formulas it shares with strategies/drarkane.py (`card_power`, `seeker_aim`, `greedy_key`,
  `spread_key`, `card_worth`, `estimate_contract`) and the same random draws. Any other function (a user's
  strategy) is called as before with its option rows and state. `INLINE_BUILTINS = False` calls every
  function instead; both give the same games (check both after changing a built-in strategy). About 1.9x.
  - play: options are scanned in the order the strategy would see them (hand order, a Mercenary as 14 then
    as 0); the seeker's choice is a max/min over integer keys that hold the power and then the option index
    (first among equals), so no unpredictable branch is taken per card.
  - placement (`place_inline`, also the Fallen King's): the open (card, dragon) pairs are two bit masks,
    built from per-colour masks of the zone slots at the start and after a defeat (where a card no dragon
    can take is discarded); each decision scans their set bits; zone rows carry a copy of the dragon's
    colour, resistance and Terror.
  - no branch depends on a card inside the seeker's and the random player's loops: the seeker's tests are
    sign masks, follow-suit legality is read from `follows` (built once per batch), the random pick is
    found by selects rather than an early exit, and LLVM's x86 cmov converter is off (sim/_numba_cache.py),
    since it turned the seeker's running max back into a branch. Under callgrind (docs/ENGINE-GUIDE.md)
    these took a third of the mispredicted branches out of a seeker game.
  - bids: each seat's card worths and seat factor are tabled once per batch (`build_worths`).
- a table game's tricks run in `play_trick`: the trick's standing (regime, led colour, best key) is updated
  card by card, and card keys are read from a table built once per batch (`build_keys`) instead of
  recomputing the whole trick for every candidate card. `choose_card` / `trick_eval` / `legal_moves` remain
  the reference versions (solo games and the tests use them).
- the cards lying on each dragon are a bit mask (`card_loc[ON_DRAGON + d]`), so a defeat does not scan
  every card; `c & ID_MASK` in the hot loops lets numba drop its negative-index fix-up.
The tiniest helpers (trace rows, card keys) are inlined at numba's IR level (`inline='always'`), and so are
`play_trick`, `place_trick` and `place_inline` (their ~15-20 array arguments cost a few hundred pushes per
call). Inlining the other large ones made compiling several times slower.
Not done yet: hands as bit masks (has-led and legality without a scan), per-seat colour counts; the seeker's
loop still reloads spilled values from the stack on every card (play_round is one large function).
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from sim.engine.rng import mix
from sim.engine.rng import shuffle as rng_shuffle
from strategies import drarkane as builtin
from strategies.drarkane import (
    FOLLOW_CHEAP, LEAD_TRUMPS_LAST, SHORT_FROM, TERROR_WEIGHT, card_power, card_worth, draw, estimate_contract, greedy_key, lead_power,
    rivals_factor, seeker_aim, spread_key,
)

from sim.games.drarkane.records import (
    ARCANA, C_DEFEAT_COLOUR, C_DEFEAT_IN_TRICK, C_DEFEAT_RESISTANCE, C_DRAGON_COLOURS, C_DRAGONS_REACHED,
    C_EXACT_AT_LEAST, C_EXACT_CONTRACT_OF, C_FEWEST_TRICKS, C_MOST_DRAGONS, C_MOST_TERROR, C_MOST_TRICKS,
    C_NO_DRAGON_TRICKS, C_NO_TRICKS, C_OFF_BY, C_TRICKS_REACHED, C_WIN_BOTH_WIZARDS, C_WIN_IN_A_ROW,
    C_WIN_TRICK_NUMBER, C_WIN_WITH_AT_MOST, C_WIN_WITH_TRUMPS, C_WIN_WITH_VALUE, C_WON_LAST_TRICK, CARD_COLS,
    CF_AUTO_CARDS, CF_AUTO_MERC_HIGH, CF_AUTO_TERROR, CF_CHECK, CF_CONTRACT_MAX, CF_DECK_N, CF_EGG_LOW,
    CF_HALF_UP, CF_HAND, CF_MODE, CF_N_DRAGONS, CF_N_OBJECTIVES, CF_NEAR, CF_OBJ_PER_PLAYER, CF_OPEN_EXCHANGE,
    CF_PLAYERS, CF_PTS_DRAGON, CF_PTS_TRICK, CF_RANK_1, CF_ROUNDS, CF_SEATS, CF_START_DRAGONS, CF_TEAMS,
    CF_TREASURES, CF_TRICK_CAP, CF_TRICK_EXCHANGE, CF_TRUMP, CF_ZONE_LIMIT, CTX_OFFER, CTX_OPENING, CTX_REPLY,
    EGG, EV_BID, EV_DECK, EV_DEFEAT, EV_DISCARD, EV_DRAFT, EV_DRAGON_DECK, EV_DRAW, EV_FINAL, EV_GAME_END,
    EV_GIVE, EV_OBJ_DECK, EV_OBJ_DONE, EV_OFFER, EV_OVERFLOW, EV_PLACE, EV_PLAY, EV_REPLY, EV_RESHUFFLE,
    EV_REVEAL, EV_ROUND, EV_ROUND_END, EV_SCORE, EV_TRICK, DECISIONS, G, INSTANT, M_CARD, M_COLOUR, M_KIND, M_MODE,
    M_SLOT, M_VALUE, M_WINS, MAX_CARDS, MAX_DRAGONS, MAX_HAND, MAX_MOVES, MAX_OBJECTIVES, MAX_PAIRS,
    MAX_SEATS, MAX_ZONE, MERCENARY, N_COLOURS, MODE_FALLEN_KING, MODE_SOLO, O_COND, O_ID, O_PARAM, O_POINTS, O_TIMING,
    OBJ_COLS, OBSCURE, P_CARD, P_COLOUR, P_DAMAGE, P_DEFEATS, P_DRAGON, P_LEFT, P_POS, P_RESIST, P_STRENGTH,
    P_TERROR, PLACE_COLS, R, REG_HIGH, REG_LOW, REG_STD, S_BID, S_BIDS_SUM, S_CONTEXT, S_CONTRACT_MAX, S_DEALT, S_DRAGONS,
    S_PARTNER_OBJ_COND, S_PARTNER_OBJ_PARAM,
    S_DRAGONS_LEFT, S_HAND_N, S_LAST, S_LED, S_MODE, S_N_BIDS, S_OFFER, S_PARTNER, S_PARTNER_BID,
    S_PARTNER_TRICKS, S_PLAYERS, S_POOL, S_POS, S_REGIME, S_RNG, S_ROUND, S_SEAT, S_SEATS, S_TRICK, S_TRICKS,
    S_TRUMP, S_WINNER, S_WINNER_PARTNER, S_ZONE_LIMIT, S_ZONE_N, SEAT_FNS, STATE_SIZE, WIZ_HIGH, WIZ_LOW,
    CF_EXCH_RETURN, CF_FK_DRAGONS_COUNT, CF_FK_MAY_LEAD, CF_OBJ_FIRST, CF_SOLO_BOUNDARY, CF_SOLO_EVERY_TRICK,
    CF_SOLO_SPLIT, CF_TRICK_ORDER, F, FIRED, N_OBJ_COUNTERS, S_PARTNER_OBJ, MODE_NORMAL,
)

# ---- scalar game state (gs) -----------------------------------------------------------------------
GS_ZONE_N = 0       # dragons in the zone
GS_POOL = 1         # Terror pool of the round
GS_TRICK = 2        # tricks played this round
GS_DPTR = 3         # next dragon card in the deck
GS_PILE = 4         # solo: next card of the draw pile
GS_PILE_N = 5       # solo: cards in the draw pile
GS_DISC = 6         # solo: cards in the discard pile
GS_AUTO_TERROR = 7  # Terror of dragons the Demon defeated
GS_LOST = 8         # the round ended with a full zone
GS_TS = 9           # trace row
GS_BAD = 10         # strategy answers out of range
GS_VIOL = 11        # invariant failures
GS_AUTO_PTR = 12    # Fallen King: next card of its deck
GS_TN = 13          # cards in the trick
GS_ROUND = 14
GS_FIRST = 15       # first player of the round
GS_TG = 16          # traced game index, -1 when not tracing
GS_BIDS_SUM = 17
GS_N_BIDS = 18
GS_ZOBJ_N = 19      # objectives in the Treasure zone
GS_LAST_WINNER = 20
GS_AUTO_TRICKS = 21
GS_DEF_TRICK = 22   # dragons defeated in this trick
GS_MAXRES_TRICK = 23
GS_COLS_TRICK = 24  # colours (bit mask) defeated in this trick
GS_STALEMATE = 25
GS_OBJ_DONE = 26    # objectives completed in the game
GS_PLAYED = 27      # cards played this round (invariant)
GS_AUTO_DEF = 28    # dragons the Fallen King or the Demon defeated this round
GS_DPILE = 29       # solo with separate piles: next card of the Demon's deck
GS_DPILE_N = 30     # solo with separate piles: cards in the Demon's deck
GS_SINK = 31        # play_trick: where a card without a counter of its own is counted (never read)
GS_ZSLOTS = 32      # the zone slots of each colour as bit masks (ZONE_BITS bits per colour), kept by reveal/defeat
GS_F0 = 33          # rule counters (records.FIRED): gs[GS_F0 + F[name]], copied to the fired_* columns
GS_SIZE = GS_F0 + len(FIRED)

# gs slots of the rule counters
FD_KNIGHT = GS_F0 + F["knight"]     # knight, queen, king follow (strength 11, 12, 13)
FD_MERC = GS_F0 + F["mercenary_high"]   # mercenary_low follows (mode 1)
FD_EGG = GS_F0 + F["egg"]
FD_WIZ_LOW = GS_F0 + F["wizard_low"]
FD_WIZ_HIGH = GS_F0 + F["wizard_high"]
FD_WIZ_CANCEL = GS_F0 + F["wizards_cancel"]
FD_DEFEAT = GS_F0 + F["dragon_defeat"]
FD_DISCARDED = GS_F0 + F["card_discarded"]
FD_DEMON_DEFEAT = GS_F0 + F["demon_defeat"]
FD_RESHUFFLE = GS_F0 + F["solo_reshuffle"]
FD_ZONE_LIMIT = GS_F0 + F["zone_limit"]
FD_NEAR = GS_F0 + F["near_miss"]
FD_HALF = GS_F0 + F["half_terror_rounding"]
FD_EGG_LOW = GS_F0 + F["egg_loses_under_low_wizard"]
FD_AUTO_MERC = GS_F0 + F["automaton_mercenary_high"]
FD_FK = GS_F0 + F["fallen_king"]
FD_FK_TERROR = GS_F0 + F["fallen_king_terror"]
FD_FK_LEAD = GS_F0 + F["fallen_king_may_lead"]
FD_FK_DRAGONS = GS_F0 + F["fallen_king_dragons_count"]
FD_PLACE_ORDER = GS_F0 + F["placement_order"]
FD_TEAMS = GS_F0 + F["teams"]
FD_OPEN_EXCHANGE = GS_F0 + F["team_opening_exchange"]
FD_EXCH_RETURN = GS_F0 + F["team_exchange_may_return"]
FD_TRICK_EXCHANGE = GS_F0 + F["team_trick_exchange"]
FD_TRICK_SWAP = GS_F0 + F["team_trick_swap"]
FD_TREASURES = GS_F0 + F["treasures"]
FD_OBJ_FIRST = GS_F0 + F["objectives_before_contracts"]
FD_PARTNER_OBJ = GS_F0 + F["partner_objective_seen"]
FD_SOLO_EVERY = GS_F0 + F["solo_dragon_every_trick"]
FD_SOLO_PILE = GS_F0 + F["solo_shared_pile"]
FD_SOLO_80 = GS_F0 + F["solo_80_is_legend"]
FD_OBJ0 = GS_F0 + F["objective_00"]
N_FIRED = len(FIRED)

# ---- per seat (ps) ----------------------------------------------------------------------------
PS_BID = 0
PS_TRICKS = 1
PS_DEF = 2          # dragons defeated this round
PS_TERROR = 3       # Terror of those dragons
PS_COLOURS = 4      # colours of those dragons (bit mask)
PS_STREAK = 5       # tricks won in a row
PS_TREASURE = 6     # Treasure points earned this round (paid if the round is not lost)
PS_TOTAL = 7        # game score
PS_OBJ = 8          # personal objective, -1 if none
PS_OBJ_DONE = 9
PS_SCORE = 10       # round score
PS_EXACT = 11       # exact contracts in the game
PS_WON_LAST = 12
PS_OBJ_COND = 13    # personal objective's condition and parameter (what a partner is shown)
PS_OBJ_PARAM = 14
PS_SIZE = 16

# card ids are 0..63: `c & ID_MASK` is the same id, and numba, seeing it cannot be negative, drops its
# negative-index fix-up (three instructions) from every table look-up in the hot loops below
ID_MASK = MAX_CARDS - 1
NO_KEY = -(1 << 50)     # the seeker's composite keys: below any real one
FAR = np.int64(1) << 52  # a rejected option's key is pushed this far out of reach (below NO_KEY, above -NO_KEY)
ZONE_BITS = MAX_ZONE     # place_inline: bits per colour in its mask of zone slots (4 colours x 16 <= 64)
PAIR_SHIFT = 4           # place_inline: 1 << PAIR_SHIFT bits per trick position in its pair masks
PAIR_BITS = 1 << PAIR_SHIFT
assert MAX_ZONE <= PAIR_BITS and MAX_SEATS <= 8     # two 64-bit masks hold every (card, slot) pair of a trick

# card_loc[c]: where card c is (-1 hand or pile, -2 discarded, else the dragon it lies on);
# card_loc[ON_DRAGON + d]: bit mask of the cards lying on dragon d (card ids < MAX_CARDS = 64)
ON_DRAGON = MAX_CARDS

# hx: the hands of a table game as bit masks of card ids and each card's slot in its holder's hand (kept in step
# with `hand` by deal_card / take_slot / the exchanges), and per-batch card masks by colour (build_hx). Following
# suit is then one test of the hand's mask, and the seeker folds only its legal cards.
HX_BITS = 0                         # hx[HX_BITS + s]: the cards in seat s's hand
HX_SLOT = HX_BITS + MAX_SEATS       # hx[HX_SLOT + c]: card c's slot in its holder's hand
HX_COLOUR = HX_SLOT + MAX_CARDS     # hx[HX_COLOUR + colour]: the cards of that colour (arcana)
HX_NONE = HX_COLOUR + N_COLOURS     # the cards without a colour (legal on any lead)
HX_MERC = HX_NONE + 1               # the Mercenaries (a second option each: played as 0)
HX_SIZE = HX_MERC + 1

# zone columns: the dragon, the strength on it, and copies of its colour, resistance and Terror (placement
# reads them in the slot's row instead of after a second, dependent load)
Z_ID, Z_DMG, Z_COL, Z_RES, Z_TERROR = 0, 1, 2, 3, 4
# and the row of the greedy placement's rank table (`build_ranks`) for the resistance left on it:
# dragon * RANK_W + RANK_OFF + resistance - strength on it (a card of value v then reads entry Z_RB - v)
Z_RB = 5
Z_COLS = 6
RANK_W = 64         # entries per dragon in the rank table: resistance left after a card, from -RANK_OFF
RANK_OFF = 16
# trick columns
T_CARD, T_MODE, T_SEAT = 0, 1, 2

BIG_BID = 1000     # solo: the player always wants more tricks

# built-in strategies the kernel runs inline (`codes[decision, seat]`; CALL: call the seat's function).
# Inline, a decision needs no option rows and no indirect call; it makes the same choice from the same
# facts (with the formulas it shares with strategies/drarkane.py) and draws the same random numbers.
D_BID, D_PLAY, D_PLACE = 0, 1, 2
CALL = 0
# rows of `codes` after the decisions': the inline seeker's per-seat habits, known once per batch
C_CHEAP = len(DECISIONS)        # follow_cheap and a short table: a follower takes the trick with its cheapest winner
C_LEAD_TL = C_CHEAP + 1         # lead_trumps_last and a short table: a leader under its contract leads trumps last
CODE_ROWS = C_LEAD_TL + 1
BID_ESTIMATE, BID_RANDOM = 1, 2
PLAY_SEEKER, PLAY_RANDOM = 1, 2
PLACE_GREEDY, PLACE_SPREAD, PLACE_SABOTEUR, PLACE_RANDOM, PLACE_AUTO = 1, 2, 3, 4, 5
INLINE = (
    (D_BID, builtin.bid_estimate, BID_ESTIMATE), (D_BID, builtin.bid_random, BID_RANDOM),
    (D_PLAY, builtin.play_seeker, PLAY_SEEKER), (D_PLAY, builtin.play_random, PLAY_RANDOM),
    (D_PLACE, builtin.place_greedy, PLACE_GREEDY), (D_PLACE, builtin.place_spread, PLACE_SPREAD),
    (D_PLACE, builtin.place_saboteur, PLACE_SABOTEUR), (D_PLACE, builtin.place_random, PLACE_RANDOM),
)
INLINE_BUILTINS = True      # False: every decision calls its strategy function (to check the inline paths)

G_MODE, G_SEATS, G_ROUNDS, G_STALEMATE = G["mode"], G["seats"], G["rounds"], G["stalemate"]
G_CONTRACTS, G_EXACT, G_NEAR, G_MISSED = G["contracts"], G["exact"], G["near"], G["missed"]
G_LOST, G_TRICKS, G_DEFEATED, G_TERROR = G["lost_rounds"], G["tricks"], G["defeated"], G["terror"]
G_TREASURE, G_OBJ_DONE, G_WINNER, G_N_WINNERS = G["treasure"], G["objectives_done"], G["winner"], G["n_winners"]
G_TOP, G_SPREAD, G_TEAM_WINNER, G_AUTO_TRICKS = G["top_score"], G["score_spread"], G["team_winner"], G["automaton_tricks"]
G_SOLO_SCORE, G_SOLO_RANK, G_SOLO_TRICKS = G["solo_score"], G["solo_rank"], G["solo_tricks"]
G_SCORE0, G_RANK0, G_EXACT0 = G["score_s0"], G["rank_s0"], G["exact_s0"]
G_VIOL, G_BAD = G["violations"], G["bad_decisions"]
G_F0 = G["fired_" + FIRED[0]]       # the fired_* columns are contiguous, in FIRED order

R_ROUND, R_SEAT, R_POSITION, R_TEAM, R_DEALT = R["round"], R["seat"], R["position"], R["team"], R["dealt"]
R_BID, R_TRICKS, R_DIFF, R_EXACT, R_NEAR, R_MISSED = R["bid"], R["tricks"], R["diff"], R["exact"], R["near"], R["missed"]
R_DRAGONS, R_TERROR_OWN, R_POOL, R_TERROR_PTS = R["dragons"], R["terror_own"], R["pool"], R["terror_points"]
R_TREASURE, R_SCORE, R_LOST, R_TRICKS_PLAYED = R["treasure"], R["score"], R["lost"], R["tricks_played"]


# ---- small helpers ----------------------------------------------------------------------------------

@intrinsic
def borrow(typingctx, arr):
    """A view of `arr` without a reference count (its meminfo is null).

    numba increments and decrements an array's reference count (atomic operations) every time the array
    enters a function or a variable, which cost more than a third of the kernel's time. The kernel works on
    borrowed views; the caller keeps the owning arrays alive until the batch is done."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, value=args[0])
        dst = context.make_array(sig.return_type)(context, builder)
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
        dst.nitems = src.nitems
        dst.itemsize = src.itemsize
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        return dst._getvalue()

    return arr(arr), codegen


@intrinsic
def popcount(typingctx, x):
    """Number of bits set in an integer (one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline='always', _nrt=False)
def shuffle(state, a, n):
    """Shuffle with the game's own random stream (a cell of `state`, shared with the strategies)."""
    rng_shuffle(state[S_RNG:S_RNG + 1], a, n)


@njit(cache=True, inline='always', _nrt=False)
def rec(trace, gs, code, a, b, c, d):
    """Append one trace row for the traced game (no-op otherwise)."""
    g = gs[GS_TG]
    if g < 0:
        return
    t = gs[GS_TS]
    last = trace.shape[1] - 1
    if t >= last:
        trace[g, last, 0] = EV_OVERFLOW
        return
    trace[g, t, 0] = code
    trace[g, t, 1] = a
    trace[g, t, 2] = b
    trace[g, t, 3] = c
    trace[g, t, 4] = d
    gs[GS_TS] = t + 1


@njit(cache=True, inline='always', _nrt=False)
def regime_of(nlow, nhigh):
    if nlow > 0 and nhigh == 0:
        return REG_LOW
    if nhigh > 0 and nlow == 0:
        return REG_HIGH
    return REG_STD     # no Wizard, or both (they cancel)


@njit(cache=True, inline='always', _nrt=False)
def card_key(c, m, reg, led, kind, colour, value, trump, egg_low):
    """How strongly a played card claims the trick under a regime; -1 when it cannot win."""
    k = kind[c]
    if k == WIZ_LOW or k == WIZ_HIGH:
        return -1
    if k == EGG or (k == MERCENARY and m == 1):
        if reg == REG_LOW and egg_low == 0:
            return 1000     # value 0 is the lowest of all
        return -1
    v = value[c]
    if reg == REG_LOW:
        return 1000 - v
    if reg == REG_HIGH:
        return v
    if k == OBSCURE or k == MERCENARY:
        return 3000 + v
    s = colour[c]
    if s == trump:
        return 2000 + v
    if s == led:
        return 1000 + v
    return -1


@njit(cache=True, _nrt=False)
def trick_eval(tr, tn, kind, colour, value, trump, egg_low):
    """(winner position, best key, first non-Wizard position, regime, led colour) of the trick so far."""
    nlow = 0
    nhigh = 0
    led = -1
    for i in range(tn):
        k = kind[tr[i, T_CARD]]
        if k == WIZ_LOW:
            nlow += 1
        elif k == WIZ_HIGH:
            nhigh += 1
        elif k == ARCANA and led < 0:
            led = colour[tr[i, T_CARD]]
    reg = regime_of(nlow, nhigh)
    best = -1
    bkey = -1
    fnw = -1
    for i in range(tn):
        c = tr[i, T_CARD]
        if fnw < 0 and kind[c] != WIZ_LOW and kind[c] != WIZ_HIGH:
            fnw = i
        key = card_key(c, tr[i, T_MODE], reg, led, kind, colour, value, trump, egg_low)
        if key > bkey:
            bkey = key
            best = i
    if best < 0:
        best = fnw if fnw >= 0 else 0
    return best, bkey, fnw, reg, led


@njit(cache=True, _nrt=False)
def legal_moves(hand, hand_n, s, led, kind, colour, value, moves):
    """Fill `moves` with the cards seat s may play (the Mercenary twice: as 14 and as 0)."""
    has_led = False
    if led >= 0:
        for i in range(hand_n[s]):
            c = hand[s, i]
            if kind[c] == ARCANA and colour[c] == led:
                has_led = True
                break
    n = 0
    for i in range(hand_n[s]):
        c = hand[s, i]
        k = kind[c]
        if has_led and k == ARCANA and colour[c] != led:
            continue
        moves[n, M_CARD] = c
        moves[n, M_MODE] = 0
        moves[n, M_KIND] = k
        moves[n, M_COLOUR] = colour[c]
        moves[n, M_VALUE] = value[c]
        moves[n, M_WINS] = 0
        moves[n, M_SLOT] = i
        n += 1
        if k == MERCENARY:
            moves[n, M_CARD] = c
            moves[n, M_MODE] = 1
            moves[n, M_KIND] = k
            moves[n, M_COLOUR] = -1
            moves[n, M_VALUE] = 0
            moves[n, M_WINS] = 0
            moves[n, M_SLOT] = i
            n += 1
    return n


@njit(cache=True, _nrt=False)
def hand_rows(hand, hand_n, s, kind, colour, value, moves):
    """Seat s's hand as option rows (bids and exchanges)."""
    for i in range(hand_n[s]):
        c = hand[s, i]
        moves[i, M_CARD] = c
        moves[i, M_MODE] = 0
        moves[i, M_KIND] = kind[c]
        moves[i, M_COLOUR] = colour[c]
        moves[i, M_VALUE] = value[c]
        moves[i, M_WINS] = 0
        moves[i, M_SLOT] = i
    return hand_n[s]


@njit(cache=True, inline='always', _nrt=False)
def remove_slot(hand, hand_n, s, i):
    last = hand_n[s] - 1
    hand[s, i] = hand[s, last]
    hand_n[s] = last


@njit(cache=True, inline='always', _nrt=False)
def card_bit(c):
    return np.int64(1) << (c & ID_MASK)


@njit(cache=True, inline='always', _nrt=False)
def deal_card(hand, hand_n, hx, s, c):
    """Card c joins the end of seat s's hand (table games: `hx` kept in step)."""
    i = hand_n[s]
    hand[s, i] = c
    hand_n[s] = i + 1
    hx[HX_SLOT + (c & ID_MASK)] = i
    hx[HX_BITS + s] |= card_bit(c)


@njit(cache=True, inline='always', _nrt=False)
def take_slot(hand, hand_n, hx, s, i):
    """remove_slot for a table game, `hx` kept in step: the last card moves into slot i."""
    last = hand_n[s] - 1
    c = hand[s, i]
    moved = hand[s, last]
    hand[s, i] = moved
    hx[HX_SLOT + (moved & ID_MASK)] = i
    hx[HX_BITS + s] &= ~card_bit(c)
    hand_n[s] = last


@njit(cache=True, inline='always', _nrt=False)
def put_slot(hand, hx, s, i, c):
    """Card c replaces the card in slot i of seat s's hand (a swap of the teams' trick exchange)."""
    old = hand[s, i]
    hand[s, i] = c
    hx[HX_SLOT + (c & ID_MASK)] = i
    hx[HX_BITS + s] = (hx[HX_BITS + s] & ~card_bit(old)) | card_bit(c)


@njit(cache=True, inline='always', _nrt=False)
def imax(a, b):
    return a if a > b else b


@njit(cache=True, inline='always', _nrt=False)
def imin(a, b):
    return a if a < b else b


@njit(cache=True, inline='always', _nrt=False)
def partner_of(cf, s):
    if cf[CF_TEAMS] == 0:
        return -1
    p = s + cf[CF_PLAYERS] // 2           # (s + half) % players, without a division
    return p - cf[CF_PLAYERS] if p >= cf[CF_PLAYERS] else p


@njit(cache=True, _nrt=False)
def fill_state(state, s, cf, gs, ps, hand_n, dealt):
    """The public facts every decision sees."""
    state[S_SEAT] = s
    state[S_PLAYERS] = cf[CF_PLAYERS]
    state[S_SEATS] = cf[CF_SEATS]
    state[S_ROUND] = gs[GS_ROUND]
    state[S_TRICK] = gs[GS_TRICK]
    state[S_HAND_N] = hand_n[s]
    state[S_DEALT] = dealt
    state[S_BID] = ps[s, PS_BID]
    state[S_TRICKS] = ps[s, PS_TRICKS]
    state[S_POS] = 0
    state[S_LAST] = 0
    state[S_LED] = -1
    state[S_WINNER] = -1
    state[S_WINNER_PARTNER] = 0
    state[S_REGIME] = REG_STD
    state[S_ZONE_N] = gs[GS_ZONE_N]
    state[S_ZONE_LIMIT] = cf[CF_ZONE_LIMIT]
    state[S_DRAGONS_LEFT] = cf[CF_N_DRAGONS] - gs[GS_DPTR]
    state[S_POOL] = gs[GS_POOL]
    state[S_BIDS_SUM] = gs[GS_BIDS_SUM]
    state[S_N_BIDS] = gs[GS_N_BIDS]
    state[S_CONTEXT] = 0
    state[S_OFFER] = -1
    p = partner_of(cf, s)
    state[S_PARTNER] = p
    state[S_PARTNER_BID] = ps[p, PS_BID] if p >= 0 else -1
    state[S_PARTNER_TRICKS] = ps[p, PS_TRICKS] if p >= 0 else -1
    state[S_PARTNER_OBJ] = ps[p, PS_OBJ] if p >= 0 else -1     # partners show each other their objective
    state[S_PARTNER_OBJ_COND] = ps[p, PS_OBJ_COND] if p >= 0 else 0
    state[S_PARTNER_OBJ_PARAM] = ps[p, PS_OBJ_PARAM] if p >= 0 else 0
    state[S_MODE] = cf[CF_MODE]
    state[S_TRUMP] = cf[CF_TRUMP]
    state[S_DRAGONS] = ps[s, PS_DEF]
    state[S_CONTRACT_MAX] = cf[CF_CONTRACT_MAX]


@njit(cache=True, inline='always', _nrt=False)
def checked(i, lo, hi, gs):
    """A strategy's answer, or `lo` (counted as a bad decision) when out of range."""
    if i < lo or i >= hi:
        gs[GS_BAD] += 1
        return lo
    return i


@njit(cache=True, inline='always', _nrt=False)
def reveal(zone, gs, ddeck, dr, cf, trace):
    """Turn the next dragon into the zone; False when the deck is empty."""
    if gs[GS_DPTR] >= cf[CF_N_DRAGONS]:
        return False
    d = ddeck[gs[GS_DPTR]]
    gs[GS_DPTR] += 1
    z = gs[GS_ZONE_N]
    zone[z, Z_ID] = d
    zone[z, Z_DMG] = 0
    zone[z, Z_COL] = dr[d, 0]
    zone[z, Z_RES] = dr[d, 1]
    zone[z, Z_TERROR] = dr[d, 2]
    zone[z, Z_RB] = d * RANK_W + RANK_OFF + dr[d, 1]
    gs[GS_ZONE_N] = z + 1
    gs[GS_ZSLOTS] |= np.int64(1) << (ZONE_BITS * (dr[d, 0] & 3) + z)
    rec(trace, gs, EV_REVEAL, d, z + 1, 0, 0)
    return True


# ---- placement ------------------------------------------------------------------------------------

@njit(cache=True, inline='always', _nrt=False)
def placeable(c, m, kind):
    k = kind[c]
    return k == ARCANA or k == OBSCURE or (k == MERCENARY and m == 0)


ROWS = np.int64(0x0001000100010001)         # bit 0 of each PAIR_BITS-bit row of a pair mask
LOW_BYTES = np.int64(0x00FF00FF00FF00FF)    # the low half of each row


@njit(cache=True, inline='always', _nrt=False)
def drop_slot(m, z, last):
    """A pair mask after the dragon in zone slot z fell and the last slot's dragon moved into z: in every card's
    row, bit z goes and bit `last` moves to z."""
    zbits = ROWS << z
    lbits = ROWS << last
    return (m & ~(zbits | lbits)) | (((m & lbits & ~zbits) >> (last - z)) & zbits)


@njit(cache=True, inline='always', _nrt=False)
def row_flags(m):
    """Bit i set when row i (PAIR_BITS bits) of a pair mask is not empty, for rows 0-3."""
    t = (m | (m >> 8)) & LOW_BYTES          # each row folded into its low byte, then into its bit 0
    t |= t >> 4
    t |= t >> 2
    t |= t >> 1
    t &= ROWS
    return (t | (t >> 15) | (t >> 30) | (t >> 45)) & 15


@njit(cache=True, inline='always', _nrt=False)
def nth_bit(m, k):
    """Position of the k-th (from 0) set bit of m."""
    for _ in range(k):
        m &= m - 1
    return trailing_zeros(m)


@njit(cache=True, inline='always', _nrt=False)
def place_inline(code, w, auto, tn, cf, kind, colour, value, dr, zone, gs, ps, tr, state, card_loc, discard,
                 params, ranks, trace):
    """place_trick's loop for a built-in placement strategy (or the automaton).

    The open (card, dragon) pairs are bit masks: bit PAIR_BITS * i + z of `lo` (trick positions 0-3) or `hi`
    (positions 4-5) is card i on zone slot z, so the bits in order are the pairs in the order the strategy
    would see them (cards in trick order, dragons in zone order). The masks are built at the start and after a
    defeat (the zone's order changes), where a card with no dragon of its colour left is discarded; a
    placement clears its card's bits. Each decision scans the set bits only: no per-card loop, whose
    exits and skips went either way at random. After a defeat the masks are not rebuilt: the defeated slot's bits
    go and the zone's last slot's bits move into it (`drop_slot`), as the zone's own rows do."""
    tw = 0.0
    rank_row = MAX_SEATS            # the automaton's row of the rank table (no Terror)
    if code == PLACE_SABOTEUR:       # greedy while the contract is open, spread once it is made
        code = PLACE_SPREAD if ps[w, PS_TRICKS] >= ps[w, PS_BID] else PLACE_GREEDY
    if code == PLACE_GREEDY:
        tw = params[w, TERROR_WEIGHT]
        rank_row = w
    elif code == PLACE_AUTO:         # auto_place: the greedy key without Terror
        code = PLACE_GREEDY
    greedy = code == PLACE_GREEDY
    ranked = greedy and ranks.shape[0] > 0
    rbase = rank_row * (MAX_DRAGONS * RANK_W)
    in_order = cf[CF_TRICK_ORDER] != 0
    card_bits = (np.int64(1) << PAIR_BITS) - 1
    # the zone slots of each colour (GS_ZSLOTS: ZONE_BITS bits per colour) and of any colour
    slots = gs[GS_ZSLOTS]
    every = (np.int64(1) << gs[GS_ZONE_N]) - 1
    # each card's pairs, the cards that cannot be placed (the Egg, the Wizards, a Mercenary as 0) and those with
    # no dragon of their colour left, as masks: no branch per card; then the discards (few), in trick order
    lo = 0
    hi = 0
    unplaceable = 0
    nofit = 0
    vals = 0        # the cards' values, a byte each
    for i in range(tn):
        c = tr[i, T_CARD] & ID_MASK
        k = kind[c]
        pl = np.int64((k == ARCANA) | (k == OBSCURE) | ((k == MERCENARY) & (tr[i, T_MODE] == 0)))
        wild = np.int64(k != ARCANA)
        own = (slots >> (ZONE_BITS * (colour[c] & 3))) & every      # (a wild card's colour -1 is masked to 3)
        fit = (own + wild * (every - own)) & -pl
        if i < 4:
            lo |= fit << (PAIR_BITS * i)
        else:
            hi |= fit << (PAIR_BITS * (i - 4))
        unplaceable |= (pl ^ 1) << i
        nofit |= (pl & np.int64(fit == 0)) << i
        vals |= (value[c] & 255) << (8 * i)
    done = unplaceable | nofit
    while unplaceable != 0:
        i = trailing_zeros(unplaceable)
        unplaceable &= unplaceable - 1
        discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)
    while nofit != 0:                   # no dragon of its colour is left: discarded
        i = trailing_zeros(nofit)
        nofit &= nofit - 1
        gs[FD_DISCARDED] += 1
        discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)
    while lo != 0 or hi != 0:
        clo = lo        # the pairs open to this choice: all, or only the first card left in trick order
        chi = hi
        if in_order:
            if lo != 0:
                clo = lo & (card_bits << (PAIR_BITS * (trailing_zeros(lo) >> PAIR_SHIFT)))
                chi = 0
            else:
                chi = hi & (card_bits << (PAIR_BITS * (trailing_zeros(hi) >> PAIR_SHIFT)))
        if ranked:
            # the greedy key's rank (build_ranks: the same order, equal keys equal ranks), then the pair's bit: the
            # lowest is the first lowest key, as place_greedy picks
            bkey = np.int64(1) << 62
            m = clo
            first = 0       # bit of m's bit 0 among all pairs
            for _ in range(2):
                while m != 0:
                    b = trailing_zeros(m) + first
                    m &= m - 1
                    v = (vals >> ((b >> 1) & ~7)) & 255
                    key = (np.int64(ranks[rbase + zone[b & (PAIR_BITS - 1), Z_RB] - v]) << 7) | b
                    bkey = imin(bkey, key)
                m = chi
                first = 4 * PAIR_BITS
            bi = (bkey & 127) >> PAIR_SHIFT
            bz = bkey & (PAIR_BITS - 1)
        elif code == PLACE_RANDOM:
            n_lo = popcount(clo)
            k = draw(state, n_lo + popcount(chi))
            b = nth_bit(clo, k) if k < n_lo else 4 * PAIR_BITS + nth_bit(chi, k - n_lo)
            bi = b >> PAIR_SHIFT
            bz = b & (PAIR_BITS - 1)
        else:
            bi = -1
            bz = -1
            bkey = 1e300 if greedy else -1e300
            m = clo
            first = 0       # trick position of bit 0 of m
            for _ in range(2):
                while m != 0:
                    b = trailing_zeros(m)
                    m &= m - 1
                    i = first + (b >> PAIR_SHIFT)
                    z = b & (PAIR_BITS - 1)
                    left = zone[z, Z_RES] - zone[z, Z_DMG] - value[tr[i, T_CARD] & ID_MASK]
                    if greedy:
                        key = greedy_key(left, zone[z, Z_TERROR], tw)
                        better = key < bkey
                    else:
                        key = spread_key(left, 1 if left <= 0 else 0)
                        better = key > bkey
                    bkey = key if better else bkey
                    bi = i if better else bi
                    bz = z if better else bz
                m = chi
                first = 4
        if bi < 4:
            lo &= ~(card_bits << (PAIR_BITS * bi))
        else:
            hi &= ~(card_bits << (PAIR_BITS * (bi - 4)))
        c = tr[bi, T_CARD]
        d = zone[bz, Z_ID]
        done |= 1 << bi
        rec(trace, gs, EV_PLACE, c, d, 0, 0)
        card_loc[c] = d
        card_loc[ON_DRAGON + d] |= np.int64(1) << c
        zone[bz, Z_DMG] += value[c]
        zone[bz, Z_RB] -= value[c]
        if zone[bz, Z_DMG] >= dr[d, 1]:
            last = gs[GS_ZONE_N] - 1
            defeat(bz, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace)
            if (lo | hi) != 0:
                gs[FD_PLACE_ORDER] += 1     # cards of the trick still to place after a defeat
            # the zone's order changed (its last dragon moved into slot bz) and cards may have lost their dragon
            lo = drop_slot(lo, bz, last)
            hi = drop_slot(hi, bz, last)
            lost = ~done & ((1 << tn) - 1) & ~(row_flags(lo) | (row_flags(hi) << 4))
            while lost != 0:                # discarded, in trick order
                i = trailing_zeros(lost)
                lost &= lost - 1
                done |= 1 << i
                gs[FD_DISCARDED] += 1
                discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)


@njit(cache=True, inline='always', _nrt=False)
def place_trick(w, auto, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                discard, place_fns, params, codes, ranks, trace):
    """The trick winner puts every card it can on a dragon of its colour (wild: any); the rest is discarded."""
    tn = gs[GS_TN]
    gs[GS_DEF_TRICK] = 0
    gs[GS_MAXRES_TRICK] = 0
    gs[GS_COLS_TRICK] = 0
    human = w != auto
    code = codes[D_PLACE, w] if human else PLACE_AUTO
    if code != CALL:
        place_inline(code, w, auto, tn, cf, kind, colour, value, dr, zone, gs, ps, tr, state, card_loc,
                     discard, params, ranks, trace)
        return
    done = 0        # bit mask of trick positions already placed or discarded
    for i in range(tn):
        c = tr[i, T_CARD]
        if not placeable(c, tr[i, T_MODE], kind):
            done |= 1 << i
            discard_card(c, card_loc, discard, gs, trace)
    pw = params[w]
    fill_state(state, w, cf, gs, ps, hand_n, 0)     # facts a defeat changes are refreshed per decision
    in_order = cf[CF_TRICK_ORDER] != 0
    rebuild = True
    n = 0
    while True:
        zn = gs[GS_ZONE_N]
        if rebuild or in_order:
            # every (card, dragon) pair, cards in trick order, dragons in zone order
            n = 0
            for i in range(tn):
                if (done >> i) & 1:
                    continue
                c = tr[i, T_CARD]
                wild = kind[c] != ARCANA
                cc = colour[c]
                v = value[c]
                # placement_order = trick: only the first card left in trick order gets rows (the others are
                # still scanned, so that a card no dragon can take is discarded now, as place_inline does)
                keep = not in_order or n == 0
                fits = 0
                for z in range(zn):
                    d = zone[z, Z_ID]
                    dcol = dr[d, 0]
                    if not wild and cc != dcol:
                        continue
                    fits += 1
                    if not keep:
                        continue
                    res = dr[d, 1]
                    dmg = zone[z, Z_DMG]
                    left = res - dmg - v
                    pairs[n, P_POS] = i
                    pairs[n, P_CARD] = c
                    pairs[n, P_STRENGTH] = v
                    pairs[n, P_DRAGON] = d
                    pairs[n, P_COLOUR] = dcol
                    pairs[n, P_RESIST] = res
                    pairs[n, P_DAMAGE] = dmg
                    pairs[n, P_TERROR] = dr[d, 2]
                    pairs[n, P_LEFT] = left
                    pairs[n, P_DEFEATS] = 1 if left <= 0 else 0
                    n += 1
                if fits == 0:       # no dragon of its colour is left: discarded
                    done |= 1 << i
                    gs[FD_DISCARDED] += 1
                    discard_card(c, card_loc, discard, gs, trace)
        if n == 0:
            break
        state[S_ZONE_N] = zn
        state[S_POOL] = gs[GS_POOL]
        state[S_DRAGONS] = ps[w, PS_DEF]
        k = checked(place_fns[w](pairs, n, state, pw), 0, n, gs)
        i = pairs[k, P_POS]
        c = pairs[k, P_CARD]
        d = pairs[k, P_DRAGON]
        v = value[c]
        done |= 1 << i
        rec(trace, gs, EV_PLACE, c, d, 0, 0)
        card_loc[c] = d
        card_loc[ON_DRAGON + d] |= np.int64(1) << c
        rebuild = False
        for z in range(zn):
            if zone[z, Z_ID] == d:
                zone[z, Z_DMG] += v
                zone[z, Z_RB] -= v
                if zone[z, Z_DMG] >= dr[d, 1]:
                    defeat(z, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace)
                    if done != (1 << tn) - 1:
                        gs[FD_PLACE_ORDER] += 1     # cards of the trick still to place after a defeat
                    rebuild = True      # the zone's order changed and cards may have lost their dragon
                break
        if not rebuild:
            # what a rebuild would give: the card's rows leave, the dragon's rows take the new damage
            j = 0
            for r in range(n):
                if pairs[r, P_POS] == i:
                    continue
                if j != r:
                    for f in range(PLACE_COLS):
                        pairs[j, f] = pairs[r, f]
                if pairs[j, P_DRAGON] == d:
                    dmg = pairs[j, P_DAMAGE] + v
                    left = pairs[j, P_RESIST] - dmg - pairs[j, P_STRENGTH]
                    pairs[j, P_DAMAGE] = dmg
                    pairs[j, P_LEFT] = left
                    pairs[j, P_DEFEATS] = 1 if left <= 0 else 0
                j += 1
            n = j


@njit(cache=True, inline='always', _nrt=False)
def discard_card(c, card_loc, discard, gs, trace):
    card_loc[c] = -2
    discard[gs[GS_DISC]] = c
    gs[GS_DISC] += 1
    rec(trace, gs, EV_DISCARD, c, 0, 0, 0)


@njit(cache=True, inline='always', _nrt=False)
def defeat(z, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace):
    """Dragon in slot z falls to seat w: trophy, Terror, its cards to the discard pile. The zone's last dragon
    moves into slot z (inlined: a call passed some sixty words of array arguments)."""
    d = zone[z, Z_ID]
    last = gs[GS_ZONE_N] - 1
    one = np.int64(1)
    cl = zone[last, Z_COL] & 3
    gs[GS_ZSLOTS] = ((gs[GS_ZSLOTS] & ~(one << (ZONE_BITS * (zone[z, Z_COL] & 3) + z))
                      & ~(one << (ZONE_BITS * cl + last))) | ((one << (ZONE_BITS * cl + z)) & -np.int64(z != last)))
    for k in range(Z_COLS):
        zone[z, k] = zone[last, k]
    gs[GS_ZONE_N] = last
    rec(trace, gs, EV_DEFEAT, d, w, 0, 0)
    terror = dr[d, 2]
    gs[FD_DEFEAT] += 1
    king = w == auto and cf[CF_MODE] == MODE_FALLEN_KING
    if king:
        gs[FD_FK_TERROR] += 1
        if cf[CF_TREASURES] != 0:
            gs[FD_FK_DRAGONS] += 1
    if not king or cf[CF_FK_DRAGONS_COUNT] != 0:
        # what the objectives see (the Fallen King's dragons count for them only under fallen_king_dragons_count)
        gs[GS_DEF_TRICK] += 1
        if dr[d, 1] > gs[GS_MAXRES_TRICK]:
            gs[GS_MAXRES_TRICK] = dr[d, 1]
        gs[GS_COLS_TRICK] |= 1 << dr[d, 0]
        ps[w, PS_DEF] += 1
        ps[w, PS_TERROR] += terror
        ps[w, PS_COLOURS] |= 1 << dr[d, 0]
    if w == auto:
        gs[GS_AUTO_DEF] += 1
        if cf[CF_MODE] == MODE_SOLO:
            gs[GS_AUTO_TERROR] += terror
            gs[FD_DEMON_DEFEAT] += 1
        elif cf[CF_AUTO_TERROR] != 0:
            gs[GS_POOL] += terror
    else:
        gs[GS_POOL] += terror
    m = card_loc[ON_DRAGON + d]         # its cards, in increasing id order
    card_loc[ON_DRAGON + d] = 0
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        card_loc[c] = -2
        discard[gs[GS_DISC]] = c
        gs[GS_DISC] += 1


# ---- playing a trick --------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def play_card(s, slot, c, m, hand, hand_n, gs, tr, played, cf, trace):
    tn = gs[GS_TN]
    tr[tn, T_CARD] = c
    tr[tn, T_MODE] = m
    tr[tn, T_SEAT] = s
    gs[GS_TN] = tn + 1
    if slot >= 0:
        remove_slot(hand, hand_n, s, slot)
    rec(trace, gs, EV_PLAY, s, c, m, 0)
    if cf[CF_CHECK] != 0 and cf[CF_MODE] != MODE_SOLO:
        if played[c] != 0:
            gs[GS_VIOL] += 1
        played[c] = 1
        gs[GS_PLAYED] += 1


@njit(cache=True, _nrt=False)
def choose_card(s, cf, kind, colour, value, hand, hand_n, gs, ps, tr, moves, state, play_fns, params, dealt):
    """Ask seat s's play strategy for a legal card; returns the move row."""
    tn = gs[GS_TN]
    trump = cf[CF_TRUMP]
    egg_low = cf[CF_EGG_LOW]
    best, bkey, fnw, reg, led = trick_eval(tr, tn, kind, colour, value, trump, egg_low)
    n = legal_moves(hand, hand_n, s, led, kind, colour, value, moves)
    for i in range(n):
        c = moves[i, M_CARD]
        k = kind[c]
        if tn == 0:
            moves[i, M_WINS] = 1
        elif k == WIZ_LOW or k == WIZ_HIGH:
            moves[i, M_WINS] = 0
        else:
            lc = led if led >= 0 or k != ARCANA else colour[c]
            key = card_key(c, moves[i, M_MODE], reg, lc, kind, colour, value, trump, egg_low)
            moves[i, M_WINS] = 1 if key > bkey or (key == -1 and bkey == -1 and fnw < 0) else 0
    fill_state(state, s, cf, gs, ps, hand_n, dealt)
    state[S_POS] = tn
    state[S_LAST] = 1 if tn == cf[CF_SEATS] - 1 else 0
    state[S_LED] = led
    if tn > 0:
        ws = tr[best, T_SEAT]
        state[S_WINNER] = ws
        state[S_WINNER_PARTNER] = 1 if ws == state[S_PARTNER] else 0
    state[S_REGIME] = reg
    return checked(play_fns[s](moves, n, state, params[s]), 0, n, gs)


@njit(cache=True)
def build_keys(kind, colour, value, trump, egg_low, keys):
    """keys[regime, led + 1, mode, card] = card_key(...): a trick's keys become table look-ups."""
    for reg in range(3):
        for led in range(-1, keys.shape[1] - 1):
            for m in range(2):
                for c in range(kind.shape[0]):
                    key = card_key(c, m, reg, led, kind, colour, value, trump, egg_low)
                    # a Wizard never takes the trick and, unlike the other cards that cannot, never makes a
                    # card played into it "winning" either: -2 (both orders and the -1 tie test still hold)
                    keys[reg, led + 1, m, c] = -2 if kind[c] == WIZ_LOW or kind[c] == WIZ_HIGH else key


@njit(cache=True, inline='always', _nrt=False)
def kix(reg, led, m):
    """Offset of keys[reg, led + 1, m, 0] in the flat key table (rows padded to MAX_CARDS: the offsets are
    shifts, not multiplications by strides read from the array)."""
    return ((reg * (N_COLOURS + 1) + led + 1) * 2 + m) * MAX_CARDS


@njit(cache=True, inline='always', _nrt=False)
def seeker_fold(top, bottom, key, p, sp, legal, j, bound, want_win):
    """play_trick's inline play_seeker when following: fold option j (trick key `key`, power p, sign * power
    sp) into the running choices. `top` = (sign * power, then the first option) of the options with the
    wanted M_WINS, `bottom` = (power, then the first option) of every legal option; kept as single integers
    so each fold is a max/min.

    An option wins when key > bound (play_trick lowers the bound by one for a tie on -1). `legal` and
    `want_win` (M_WINS = 1 wanted, else 0) are masks (-1 true, 0 false) and every test is sign arithmetic:
    written with comparisons and selects, the compiler turned them back into a branch that went either way
    at random, once per card."""
    wins = (bound - key) >> 63
    ok = legal & ~(wins ^ want_win)
    top = imax(top, (sp << 6) + 63 - j - (FAR & ~ok))
    bottom = imin(bottom, (p << 6) + j + (FAR & ~legal))
    return top, bottom


@njit(cache=True, inline='always', _nrt=False)
def follow_row(follows, led, has_led):
    """Follow-suit legality of every card as a mask row: the led colour's row of `follows`, or its last row (all
    legal) for a hand void in the led colour."""
    return follows[led + 1] if has_led else follows[N_COLOURS + 1]


@njit(cache=True, inline='always', _nrt=False)
def random_options(c, frow, kind):
    """play_random's options for card c (frow: its follow-suit row): 0 when it may not be played, else 1, or
    2 for the Mercenary (as 14 and as 0)."""
    return (frow[c] & 1) * (1 + (kind[c] == MERCENARY))


@njit(cache=True, inline='always', _nrt=False)
def play_trick(leader, auto, cf, kind, colour, value, keys, ptab, follows, hand, hand_n, hx, gs, ps, tr, moves, state,
               played, play_fns, params, codes, call_play, trace, dealt):
    """Every seat plays one card, from the leader on; returns the winning position in the trick.

    The same decisions as `choose_card` + `play_card` for each seat, with the trick's standing (regime, led
    colour, best key) kept up to date card by card and the keys read from the `build_keys` table (flat: `kix`).
    The cards' rule counters are counted as they join the trick (count_trick's counts for a table game)."""
    seats = cf[CF_SEATS]
    players = cf[CF_PLAYERS]
    check = cf[CF_CHECK] != 0 and cf[CF_MODE] != MODE_SOLO
    merc_zero = cf[CF_AUTO_MERC_HIGH] == 0
    counters = ptab[5]
    zero = False
    nlow = 0
    nhigh = 0
    led = -1
    reg = REG_STD
    best = -1
    bkey = -1
    fnw = -1
    tn = 0
    # the public facts that stay the same through the trick, for the seats that call their play function (the
    # rest of fill_state is per seat below)
    if call_play:
        state[S_PLAYERS] = players
        state[S_SEATS] = seats
        state[S_ROUND] = gs[GS_ROUND]
        state[S_TRICK] = gs[GS_TRICK]
        state[S_DEALT] = dealt
        state[S_ZONE_N] = gs[GS_ZONE_N]
        state[S_ZONE_LIMIT] = cf[CF_ZONE_LIMIT]
        state[S_DRAGONS_LEFT] = cf[CF_N_DRAGONS] - gs[GS_DPTR]
        state[S_POOL] = gs[GS_POOL]
        state[S_BIDS_SUM] = gs[GS_BIDS_SUM]
        state[S_N_BIDS] = gs[GS_N_BIDS]
        state[S_CONTEXT] = 0
        state[S_OFFER] = -1
        state[S_MODE] = cf[CF_MODE]
        state[S_TRUMP] = cf[CF_TRUMP]
        state[S_CONTRACT_MAX] = cf[CF_CONTRACT_MAX]
    s = leader
    for k in range(seats):
        if k > 0:
            s += 1
            if s >= seats:      # (leader + k) % seats without a division
                s -= seats
        if s == auto:
            c = hand[s, gs[GS_AUTO_PTR]]
            gs[GS_AUTO_PTR] += 1
            hand_n[s] -= 1
            m = 1 if kind[c] == MERCENARY and merc_zero else 0
            gs[FD_AUTO_MERC] += kind[c] == MERCENARY
        else:
            hn = hand_n[s]
            hb = hx[HX_BITS + s]
            led_bits = hx[HX_COLOUR + (led & 3)] if led >= 0 else 0
            has_led = (hb & led_bits) != 0
            bk = bkey if tn > 0 else -3         # leading: every card takes the trick for now
            tie = tn > 0 and bkey == -1 and fnw < 0
            code = codes[D_PLAY, s]
            if code == PLAY_SEEKER:
                # play_seeker over the same options in the same order (hand order, a Mercenary as 14 then 0):
                # its first choice (`aim`), else its weakest card; the first of equals in both
                want, highest = seeker_aim(tn, tn == seats - 1, ps[s, PS_BID] - ps[s, PS_TRICKS],
                                           codes[C_CHEAP, s] != 0)
                # option j = 2 * slot + mode. With keys that hold the power and then the option, the choice is a
                # plain max/min (no unpredictable branch): `top` = highest sign * power, first among equals;
                # `bottom` = lowest power, first among equals. ptab rows 2-3 hold the powers negated.
                top = NO_KEY
                bottom = -NO_KEY
                pow0 = ptab[0]
                pow1 = ptab[1]
                spow0 = ptab[0] if highest else ptab[2]
                spow1 = ptab[1] if highest else ptab[3]
                if tn == 0:     # leading: every card is legal and every option wanted
                    # lead_trumps_last: a leader under its contract ranks its trumps below its other cards
                    lead_tl = highest and codes[C_LEAD_TL, s] != 0
                    lpow0 = ptab[4] if lead_tl else spow0
                    for i in range(hn):
                        c = hand[s, i] & ID_MASK
                        top = imax(top, (lpow0[c] << 6) + 63 - 2 * i)
                else:
                    # following, the seeker wants M_WINS = want (0 or 1). A tie on -1 (only Wizards so far)
                    # lets every key above -2 win: one bound covers both cases
                    bound = bk - np.int64(tie)
                    win_m = -np.int64(want == 1)
                    if led >= 0:
                        kb = kix(reg, led, 0)
                        # only the legal cards, in card order (each key holds its option: the order does not
                        # matter): the led colour and the colourless cards, or all of a hand void in the colour
                        legal = hb & (led_bits | hx[HX_NONE]) if has_led else hb
                        while legal != 0:
                            c = trailing_zeros(legal)
                            legal &= legal - 1
                            j = 2 * hx[HX_SLOT + c]
                            top, bottom = seeker_fold(top, bottom, keys[kb + c], pow0[c], spow0[c], -1, j, bound,
                                                      win_m)
                    else:           # no colour led yet: every card is legal, and would set the led colour
                        for i in range(hn):
                            c = hand[s, i] & ID_MASK
                            key = keys[kix(reg, colour[c], 0) + c]
                            top, bottom = seeker_fold(top, bottom, key, pow0[c], spow0[c], -1, 2 * i, bound, win_m)
                # a Mercenary's option as 0 (option 2 * slot + 1; always legal, it has no colour), after the loops:
                # no test per card (the keys hold their option, so the order of the folds does not matter)
                mercs = hb & hx[HX_MERC]
                while mercs != 0:
                    c = trailing_zeros(mercs)
                    mercs &= mercs - 1
                    j = 2 * hx[HX_SLOT + c] + 1
                    if tn == 0:
                        top = imax(top, (spow1[c] << 6) + 63 - j)
                    else:       # (led < 0: kix(reg, -1, 1), the row of a card played with no colour led)
                        top, bottom = seeker_fold(top, bottom, keys[kix(reg, led, 1) + c], pow1[c], spow1[c], -1, j,
                                                  bk - np.int64(tie), -np.int64(want == 1))
                pick = 63 - (top & 63) if top > NO_KEY else bottom & 63
                slot = pick >> 1
                m = pick & 1
                c = hand[s, slot]
            elif code == PLAY_RANDOM:
                # play_random: a uniform option, counted and found again in the same order
                frow = follow_row(follows, led, has_led)
                n = 0
                for i in range(hn):
                    n += random_options(hand[s, i] & ID_MASK, frow, kind)
                k = draw(state, n)
                # option k lies in card i's range [first, first + r): found by selects over the whole hand, no
                # early exit (which was mispredicted once a decision)
                slot = 0
                m = 0
                first = 0
                for i in range(hn):
                    r = random_options(hand[s, i] & ID_MASK, frow, kind)
                    hit = (k >= first) & (k < first + r)
                    slot = i if hit else slot
                    m = k - first if hit else m
                    first += r
                c = hand[s, slot]
            else:
                # few data-dependent branches below: every row is written and `n` advances when the card is legal
                n = 0
                for i in range(hn):
                    c = hand[s, i]
                    kc = kind[c]
                    cc = colour[c]
                    li = (led if led >= 0 else cc) + 1
                    key = keys[kix(reg, li - 1, 0) + c]
                    moves[n, M_CARD] = c
                    moves[n, M_MODE] = 0
                    moves[n, M_KIND] = kc
                    moves[n, M_COLOUR] = cc
                    moves[n, M_VALUE] = value[c]
                    moves[n, M_WINS] = (key > bk) | (tie & (key == -1))
                    moves[n, M_SLOT] = i
                    n += (not has_led) | (cc == led) | (cc < 0)
                    if kc == MERCENARY:
                        key = keys[kix(reg, li - 1, 1) + c]
                        moves[n, M_CARD] = c
                        moves[n, M_MODE] = 1
                        moves[n, M_KIND] = kc
                        moves[n, M_COLOUR] = -1
                        moves[n, M_VALUE] = 0
                        moves[n, M_WINS] = (key > bk) | (tie & (key == -1))
                        moves[n, M_SLOT] = i
                        n += 1
                # the public facts of this seat (as fill_state, then the trick's standing)
                state[S_SEAT] = s
                state[S_HAND_N] = hn
                state[S_BID] = ps[s, PS_BID]
                state[S_TRICKS] = ps[s, PS_TRICKS]
                state[S_POS] = tn
                state[S_LAST] = 1 if tn == seats - 1 else 0
                state[S_LED] = led
                p = partner_of(cf, s)
                state[S_PARTNER] = p
                state[S_PARTNER_BID] = ps[p, PS_BID] if p >= 0 else -1
                state[S_PARTNER_TRICKS] = ps[p, PS_TRICKS] if p >= 0 else -1
                state[S_PARTNER_OBJ] = ps[p, PS_OBJ] if p >= 0 else -1
                state[S_PARTNER_OBJ_COND] = ps[p, PS_OBJ_COND] if p >= 0 else 0
                state[S_PARTNER_OBJ_PARAM] = ps[p, PS_OBJ_PARAM] if p >= 0 else 0
                state[S_DRAGONS] = ps[s, PS_DEF]
                if tn > 0:
                    ws = tr[best if best >= 0 else (fnw if fnw >= 0 else 0), T_SEAT]
                    state[S_WINNER] = ws
                    state[S_WINNER_PARTNER] = 1 if ws == p else 0
                else:
                    state[S_WINNER] = -1
                    state[S_WINNER_PARTNER] = 0
                state[S_REGIME] = reg
                i = checked(play_fns[s](moves, n, state, params[s]), 0, n, gs)
                c = moves[i, M_CARD]
                m = moves[i, M_MODE]
                slot = moves[i, M_SLOT]
            take_slot(hand, hand_n, hx, s, slot)
        # the card joins the trick
        tr[tn, T_CARD] = c
        tr[tn, T_MODE] = m
        tr[tn, T_SEAT] = s
        tn += 1
        gs[GS_TN] = tn
        rec(trace, gs, EV_PLAY, s, c, m, 0)
        if check:
            if played[c] != 0:
                gs[GS_VIOL] += 1
            played[c] = 1
            gs[GS_PLAYED] += 1
        # its rule counter (ptab[5]: a Mercenary played as 0 counts one slot further; arcana count in GS_SINK)
        counter = counters[c & ID_MASK] + m
        gs[counter] += 1
        zero |= (counter == FD_EGG) | (counter == FD_MERC + 1)
        kc = kind[c]
        if kc == WIZ_LOW or kc == WIZ_HIGH:
            if kc == WIZ_LOW:
                nlow += 1
            else:
                nhigh += 1
            reg = regime_of(nlow, nhigh)
            best = -1
            bkey = -1
            for j in range(tn):
                key = keys[kix(reg, led, tr[j, T_MODE]) + (tr[j, T_CARD] & ID_MASK)]
                if key > bkey:
                    bkey = key
                    best = j
        else:
            if kc == ARCANA and led < 0:
                led = colour[c]
            if fnw < 0:
                fnw = tn - 1
            key = keys[kix(reg, led, m) + (c & ID_MASK)]
            if key > bkey:
                bkey = key
                best = tn - 1
    # the trick's own counters: both Wizards, or the low Wizard alone with the Egg or a Mercenary as 0
    low = nlow > 0
    high = nhigh > 0
    gs[FD_WIZ_CANCEL] += low & high
    gs[FD_EGG_LOW] += low & (not high) & zero
    if best < 0:
        best = fnw if fnw >= 0 else 0
    return best


@njit(cache=True, _nrt=False)
def count_trick(tr, tn, kind, value, gs, auto):
    """Rule counters of a finished trick: the special cards played, both Wizards, the Egg under the low
    Wizard, the automaton's Mercenary and the Fallen King's tricks."""
    nlow = 0
    nhigh = 0
    zero = 0
    for i in range(tn):
        c = tr[i, T_CARD]
        k = kind[c]
        if k == OBSCURE:
            gs[FD_KNIGHT + min(max(value[c] - 11, 0), 2)] += 1
        elif k == MERCENARY:
            gs[FD_MERC + tr[i, T_MODE]] += 1
            zero += tr[i, T_MODE]
            if tr[i, T_SEAT] == auto:
                gs[FD_AUTO_MERC] += 1
        elif k == EGG:
            gs[FD_EGG] += 1
            zero += 1
        elif k == WIZ_LOW:
            gs[FD_WIZ_LOW] += 1
            nlow += 1
        elif k == WIZ_HIGH:
            gs[FD_WIZ_HIGH] += 1
            nhigh += 1
    if nlow > 0 and nhigh > 0:
        gs[FD_WIZ_CANCEL] += 1
    if nlow > 0 and nhigh == 0 and zero > 0:
        gs[FD_EGG_LOW] += 1


@njit(cache=True, _nrt=False)
def instant_met(cond, p, w, c, m, both_wiz, trumps, gs, ps, value):
    """Whether the trick winner w has just met an instant objective."""
    v = 0 if (m == 1) else value[c]
    if cond == C_WIN_WITH_VALUE:
        return v == p
    if cond == C_WIN_WITH_AT_MOST:
        return v <= p
    if cond == C_DEFEAT_IN_TRICK:
        return gs[GS_DEF_TRICK] >= p
    if cond == C_DEFEAT_RESISTANCE:
        return gs[GS_DEF_TRICK] > 0 and gs[GS_MAXRES_TRICK] >= p
    if cond == C_WIN_BOTH_WIZARDS:
        return both_wiz
    if cond == C_WIN_IN_A_ROW:
        return ps[w, PS_STREAK] >= p
    if cond == C_WIN_TRICK_NUMBER:
        return gs[GS_TRICK] == p
    if cond == C_WIN_WITH_TRUMPS:
        return trumps >= p
    if cond == C_DRAGONS_REACHED:
        return ps[w, PS_DEF] >= p
    if cond == C_TRICKS_REACHED:
        return ps[w, PS_TRICKS] >= p
    if cond == C_DEFEAT_COLOUR:
        return (gs[GS_COLS_TRICK] >> p) & 1 == 1
    return False


@njit(cache=True, _nrt=False)
def check_instant(w, wpos, cf, kind, colour, value, ob, gs, ps, tr, zobj, trace):
    """Instant objectives the trick winner completes now: its own, then those in the Treasure zone."""
    c = tr[wpos, T_CARD]
    m = tr[wpos, T_MODE]
    nlow = 0
    nhigh = 0
    trumps = 0
    for i in range(gs[GS_TN]):
        k = kind[tr[i, T_CARD]]
        if k == WIZ_LOW:
            nlow += 1
        elif k == WIZ_HIGH:
            nhigh += 1
        elif k == ARCANA and colour[tr[i, T_CARD]] == cf[CF_TRUMP]:
            trumps += 1
    both = nlow > 0 and nhigh > 0
    o = ps[w, PS_OBJ]
    if w < cf[CF_PLAYERS] and o >= 0 and ps[w, PS_OBJ_DONE] == 0 and ob[o, 0] == INSTANT:
        if instant_met(ob[o, 1], ob[o, 2], w, c, m, both, trumps, gs, ps, value):
            ps[w, PS_OBJ_DONE] = 1
            ps[w, PS_TREASURE] += ob[o, 3]
            gs[GS_OBJ_DONE] += 1
            if o < N_OBJ_COUNTERS:
                gs[FD_OBJ0 + o] += 1
            rec(trace, gs, EV_OBJ_DONE, w, o, 0, 0)
    for j in range(gs[GS_ZOBJ_N]):
        o = zobj[j, 0]
        if zobj[j, 1] >= 0 or ob[o, 0] != INSTANT:
            continue
        if instant_met(ob[o, 1], ob[o, 2], w, c, m, both, trumps, gs, ps, value):
            zobj[j, 1] = w
            if w < cf[CF_PLAYERS]:
                ps[w, PS_TREASURE] += ob[o, 3]
                gs[GS_OBJ_DONE] += 1
            if o < N_OBJ_COUNTERS:
                gs[FD_OBJ0 + o] += 1
            rec(trace, gs, EV_OBJ_DONE, w, o, 0, 0)


@njit(cache=True, _nrt=False)
def end_met(cond, p, s, cf, ps):
    """Whether seat s meets an end-of-round objective (the Fallen King has no contract)."""
    seats = cf[CF_SEATS]
    real = s < cf[CF_PLAYERS]
    t = ps[s, PS_TRICKS]
    diff = abs(t - ps[s, PS_BID])
    if cond == C_MOST_TRICKS or cond == C_FEWEST_TRICKS or cond == C_MOST_DRAGONS or cond == C_MOST_TERROR:
        col = PS_TRICKS if cond == C_MOST_TRICKS or cond == C_FEWEST_TRICKS else (
            PS_DEF if cond == C_MOST_DRAGONS else PS_TERROR)
        mine = ps[s, col]
        for o in range(seats):
            if cond == C_FEWEST_TRICKS:
                if ps[o, col] < mine:
                    return False
            elif ps[o, col] > mine:
                return False
        return cond == C_FEWEST_TRICKS or mine > 0
    if cond == C_EXACT_CONTRACT_OF:
        return real and diff == 0 and ps[s, PS_BID] == p
    if cond == C_EXACT_AT_LEAST:
        return real and diff == 0 and ps[s, PS_BID] >= p
    if cond == C_NO_DRAGON_TRICKS:
        return ps[s, PS_DEF] == 0 and t >= p
    if cond == C_OFF_BY:
        return real and diff == p
    if cond == C_WON_LAST_TRICK:
        return ps[s, PS_WON_LAST] != 0
    if cond == C_DRAGON_COLOURS:
        n = 0
        for k in range(4):
            n += (ps[s, PS_COLOURS] >> k) & 1
        return n >= p
    if cond == C_NO_TRICKS:
        return t == 0
    return False


@njit(cache=True, _nrt=False)
def check_end_objectives(cf, ob, gs, ps, zobj, trace):
    players = cf[CF_PLAYERS]
    for s in range(players):
        o = ps[s, PS_OBJ]
        if o >= 0 and ps[s, PS_OBJ_DONE] == 0 and ob[o, 0] != INSTANT:
            if end_met(ob[o, 1], ob[o, 2], s, cf, ps):
                ps[s, PS_OBJ_DONE] = 1
                ps[s, PS_TREASURE] += ob[o, 3]
                gs[GS_OBJ_DONE] += 1
                if o < N_OBJ_COUNTERS:
                    gs[FD_OBJ0 + o] += 1
                rec(trace, gs, EV_OBJ_DONE, s, o, 0, 0)
    for j in range(gs[GS_ZOBJ_N]):
        o = zobj[j, 0]
        if ob[o, 0] == INSTANT:
            continue
        for s in range(cf[CF_SEATS]):
            if end_met(ob[o, 1], ob[o, 2], s, cf, ps):
                if s < players:
                    ps[s, PS_TREASURE] += ob[o, 3]
                    gs[GS_OBJ_DONE] += 1
                if o < N_OBJ_COUNTERS:
                    gs[FD_OBJ0 + o] += 1
                rec(trace, gs, EV_OBJ_DONE, s, o, 0, 0)


# ---- one round of the table game ------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, trace):
    """Deal objectives to the players and draft them in turn order; leftovers form the Treasure zone."""
    players = cf[CF_PLAYERS]
    seats = cf[CF_SEATS]
    no = cf[CF_N_OBJECTIVES]
    for i in range(no):
        odeck[i] = i
    shuffle(state, odeck, no)
    for i in range(no):
        rec(trace, gs, EV_OBJ_DECK, i, odeck[i], 0, 0)
    k = cf[CF_OBJ_PER_PLAYER]
    carry = 0       # objectives passed on, stored in zobj[:carry, 0]
    dealt = 0
    for j in range(seats):
        s = (gs[GS_FIRST] + j) % seats
        if s >= players:
            continue
        n = 0
        for i in range(carry):
            objopt[n, O_ID] = zobj[i, 0]
            n += 1
        for i in range(k):
            objopt[n, O_ID] = odeck[dealt]
            dealt += 1
            n += 1
        for i in range(n):
            o = objopt[i, O_ID]
            objopt[i, O_TIMING] = ob[o, 0]
            objopt[i, O_COND] = ob[o, 1]
            objopt[i, O_PARAM] = ob[o, 2]
            objopt[i, O_POINTS] = ob[o, 3]
        fill_state(state, s, cf, gs, ps, hand_n, cf[CF_HAND])
        pick = checked(draft_fns[s](objopt, n, state, params[s]), 0, n, gs)
        ps[s, PS_OBJ] = objopt[pick, O_ID]
        ps[s, PS_OBJ_COND] = objopt[pick, O_COND]
        ps[s, PS_OBJ_PARAM] = objopt[pick, O_PARAM]
        ps[s, PS_OBJ_DONE] = 0
        rec(trace, gs, EV_DRAFT, s, objopt[pick, O_ID], 0, 0)
        carry = 0
        for i in range(n):
            if i != pick:
                zobj[carry, 0] = objopt[i, O_ID]
                carry += 1
    gs[GS_ZOBJ_N] = carry
    for i in range(carry):
        zobj[i, 1] = -1
    gs[FD_TREASURES] += 1
    gs[FD_OBJ_FIRST] += 1
    if cf[CF_TEAMS] != 0:
        gs[FD_PARTNER_OBJ] += players      # each player sees their partner's objective


@njit(cache=True, _nrt=False)
def opening_exchange(cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params, trace):
    """Partners each pass one card; the one earlier in turn order gives first."""
    players = cf[CF_PLAYERS]
    half = players // 2
    for t in range(half):
        a = t
        b = t + half
        if (a - gs[GS_FIRST]) % players > (b - gs[GS_FIRST]) % players:
            a, b = b, a
        for step in range(2):
            giver = a if step == 0 else b
            taker = b if step == 0 else a
            # the second giver may not hand back the card just received (it sits last), unless
            # team_exchange_may_return
            n = hand_rows(hand, hand_n, giver, kind, colour, value, moves) - step * (1 - cf[CF_EXCH_RETURN])
            gs[FD_OPEN_EXCHANGE] += 1
            gs[FD_EXCH_RETURN] += step
            if n <= 0:
                continue
            fill_state(state, giver, cf, gs, ps, hand_n, cf[CF_HAND])
            state[S_CONTEXT] = CTX_OPENING
            i = checked(give_fns[giver](moves, n, state, params[giver]), 0, n, gs)
            c = hand[giver, i]
            take_slot(hand, hand_n, hx, giver, i)
            deal_card(hand, hand_n, hx, taker, c)
            rec(trace, gs, EV_GIVE, giver, taker, c, 0)


@njit(cache=True, _nrt=False)
def trick_exchange(w, cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params, trace):
    """The trick winner may offer a card; the partner returns it or swaps one of theirs for it."""
    p = partner_of(cf, w)
    if hand_n[w] == 0 or hand_n[p] == 0:
        return
    n = hand_rows(hand, hand_n, w, kind, colour, value, moves)
    fill_state(state, w, cf, gs, ps, hand_n, cf[CF_HAND])
    state[S_CONTEXT] = CTX_OFFER
    i = give_fns[w](moves, n, state, params[w])
    if i < 0:
        rec(trace, gs, EV_OFFER, w, -1, 0, 0)
        return
    i = checked(i, 0, n, gs)
    c = hand[w, i]
    gs[FD_TRICK_EXCHANGE] += 1
    rec(trace, gs, EV_OFFER, w, c, 0, 0)
    n = hand_rows(hand, hand_n, p, kind, colour, value, moves)
    fill_state(state, p, cf, gs, ps, hand_n, cf[CF_HAND])
    state[S_CONTEXT] = CTX_REPLY
    state[S_OFFER] = c
    j = give_fns[p](moves, n, state, params[p])
    if j < 0:
        rec(trace, gs, EV_REPLY, p, -1, 0, 0)
        return
    j = checked(j, 0, n, gs)
    back = hand[p, j]
    gs[FD_TRICK_SWAP] += 1
    rec(trace, gs, EV_REPLY, p, back, 0, 0)
    put_slot(hand, hx, p, j, c)
    put_slot(hand, hx, w, i, back)


@njit(cache=True, inline='always', _nrt=False)
def play_round(cf, tables, work, fns, params, codes, trace):
    """Deal, draft, exchange, bid and play tricks until the hands are empty or the zone is full.

    Inlined into run_batch: a call passed some three hundred words of array arguments, three times a game. The
    arrays come in three tuples because numba inlines only calls of fewer than 30 arguments."""
    kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob = tables
    (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
     played) = work
    bid_fns, play_fns, place_fns, give_fns, draft_fns = fns
    mode = cf[CF_MODE]
    players = cf[CF_PLAYERS]
    seats = cf[CF_SEATS]
    H = cf[CF_HAND]
    auto = 2 if mode == MODE_FALLEN_KING else -1
    first = gs[GS_FIRST]
    rec(trace, gs, EV_ROUND, gs[GS_ROUND], first, H, 0)
    nd = cf[CF_DECK_N]
    tracing = gs[GS_TG] >= 0        # (the per-card trace rows below only then: rec tests it per row)
    for i in range(nd):
        deck[i] = deck_cards[i]
        card_loc[deck_cards[i]] = -1
    if cf[CF_CHECK] != 0:           # `played` is read only by the invariant checks
        for i in range(nd):
            played[deck_cards[i]] = 0
    for d in range(cf[CF_N_DRAGONS]):
        card_loc[ON_DRAGON + d] = 0
    shuffle(state, deck, nd)
    if tracing:
        for i in range(nd):
            rec(trace, gs, EV_DECK, i, deck[i], 0, 0)
    pos = 0
    for s in range(seats):
        cnt = H if s < players else cf[CF_AUTO_CARDS]
        hand_n[s] = 0
        hx[HX_BITS + s] = 0
        for i in range(cnt):
            deal_card(hand, hand_n, hx, s, deck[pos])
            pos += 1
        for k in range(PS_SIZE):
            if k != PS_TOTAL and k != PS_EXACT:
                ps[s, k] = 0
        ps[s, PS_OBJ] = -1
    nd_dr = cf[CF_N_DRAGONS]
    for i in range(nd_dr):
        ddeck[i] = i
    shuffle(state, ddeck, nd_dr)
    if tracing:
        for i in range(nd_dr):
            rec(trace, gs, EV_DRAGON_DECK, i, ddeck[i], 0, 0)
    gs[GS_ZONE_N] = 0
    gs[GS_ZSLOTS] = 0
    gs[GS_DPTR] = 0
    gs[GS_POOL] = 0
    gs[GS_TRICK] = 0
    gs[GS_LOST] = 0
    gs[GS_AUTO_PTR] = 0
    gs[GS_BIDS_SUM] = 0
    gs[GS_N_BIDS] = 0
    gs[GS_ZOBJ_N] = 0
    gs[GS_DISC] = 0
    gs[GS_PLAYED] = 0
    gs[GS_AUTO_DEF] = 0
    for i in range(cf[CF_START_DRAGONS]):
        reveal(zone, gs, ddeck, dr, cf, trace)
    if cf[CF_TREASURES] != 0 and cf[CF_OBJ_FIRST] != 0:
        draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, trace)
    if cf[CF_TEAMS] != 0:
        gs[FD_TEAMS] += 1
    if cf[CF_TEAMS] != 0 and cf[CF_OPEN_EXCHANGE] != 0:
        opening_exchange(cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params, trace)
    # contract phase, in turn order from the first player
    for j in range(seats):
        s = (first + j) % seats
        if s >= players:
            continue
        code = codes[D_BID, s]
        if code == BID_ESTIMATE:        # bid_estimate over the hand, in hand order (worths: build_worths)
            total = 0.0
            for i in range(hand_n[s]):
                total += worths[s, hand[s, i]]
            b = estimate_contract(total, worths[s, -1], cf[CF_CONTRACT_MAX], params[s], gs[GS_N_BIDS], seats)
        elif code == BID_RANDOM:
            b = draw(state, cf[CF_CONTRACT_MAX] + 1)
        else:
            n = hand_rows(hand, hand_n, s, kind, colour, value, moves)
            fill_state(state, s, cf, gs, ps, hand_n, H)
            b = bid_fns[s](moves, n, state, params[s])
        if b < 0 or b > cf[CF_CONTRACT_MAX]:
            gs[GS_BAD] += 1
            b = 0 if b < 0 else cf[CF_CONTRACT_MAX]
        ps[s, PS_BID] = b
        gs[GS_BIDS_SUM] += b
        gs[GS_N_BIDS] += 1
        rec(trace, gs, EV_BID, s, b, 0, 0)
    if cf[CF_TREASURES] != 0 and cf[CF_OBJ_FIRST] == 0:       # the other reading: contracts first
        draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, trace)
    call_play = False       # whether a seat calls its play function (else its choice runs inline)
    for s in range(seats):
        call_play |= s != auto and codes[D_PLAY, s] == CALL
    leader = first
    last_winner = first
    for t in range(H):
        if t > 0:
            reveal(zone, gs, ddeck, dr, cf, trace)
            if gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]:
                gs[GS_LOST] = 1
                gs[FD_ZONE_LIMIT] += 1
                break
        gs[GS_TN] = 0
        wpos = play_trick(leader, auto, cf, kind, colour, value, keys, ptab, follows, hand, hand_n, hx, gs, ps, tr, moves,
                          state, played, play_fns, params, codes, call_play, trace, H)
        w = tr[wpos, T_SEAT]
        gs[GS_TRICK] = t + 1
        if auto >= 0:
            gs[FD_FK] += 1
        # streaks: only the leader (last trick's winner) can have one, so only its streak may end here
        streak = ps[w, PS_STREAK]
        ps[leader, PS_STREAK] = 0
        ps[w, PS_STREAK] = streak + 1
        ps[w, PS_TRICKS] += 1
        if w == auto:
            gs[GS_AUTO_TRICKS] += 1
        rec(trace, gs, EV_TRICK, w, t + 1, 0, 0)
        place_trick(w, auto, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                    discard, place_fns, params, codes, ranks, trace)
        if cf[CF_TREASURES] != 0:
            check_instant(w, wpos, cf, kind, colour, value, ob, gs, ps, tr, zobj, trace)
        if cf[CF_TEAMS] != 0 and cf[CF_TRICK_EXCHANGE] != 0 and t < H - 1:
            trick_exchange(w, cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params,
                           trace)
        if cf[CF_CHECK] != 0:
            check_trick(cf, dr, zone, gs, hand_n, players, auto, H)
        leader = w
        last_winner = w
    ps[last_winner, PS_WON_LAST] = 1
    gs[GS_LAST_WINNER] = last_winner
    if cf[CF_TREASURES] != 0 and gs[GS_LOST] == 0:
        check_end_objectives(cf, ob, gs, ps, zobj, trace)
    score_round(cf, gs, ps, trace)


@njit(cache=True, _nrt=False)
def check_trick(cf, dr, zone, gs, hand_n, players, auto, H):
    """Invariants after a trick: cards conserved, zone below its limit, damage below resistance."""
    left = 0
    for s in range(cf[CF_SEATS]):
        left += hand_n[s]
    dealt = H * players + (cf[CF_AUTO_CARDS] if auto >= 0 else 0)
    if left + gs[GS_PLAYED] != dealt:
        gs[GS_VIOL] += 1
    if gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]:
        gs[GS_VIOL] += 1
    for z in range(gs[GS_ZONE_N]):
        if zone[z, Z_DMG] >= dr[zone[z, Z_ID], 1] or zone[z, Z_DMG] < 0:
            gs[GS_VIOL] += 1


@njit(cache=True, inline='always', _nrt=False)
def terror_share(diff, pool, cf):
    d = abs(diff)
    if d == 0:
        return pool
    if d <= cf[CF_NEAR]:
        return (pool + cf[CF_HALF_UP]) // 2
    return 0


@njit(cache=True, _nrt=False)
def score_round(cf, gs, ps, trace):
    pool = gs[GS_POOL]
    lost = gs[GS_LOST]
    for s in range(cf[CF_PLAYERS]):
        diff = ps[s, PS_TRICKS] - ps[s, PS_BID]
        if diff != 0 and abs(diff) <= cf[CF_NEAR]:
            gs[FD_NEAR] += 1
            gs[FD_HALF] += pool & 1
        treasure = ps[s, PS_TREASURE] if lost == 0 else 0
        ps[s, PS_TREASURE] = treasure
        score = (cf[CF_PTS_TRICK] * ps[s, PS_TRICKS] + cf[CF_PTS_DRAGON] * ps[s, PS_DEF]
                 + terror_share(diff, pool, cf) + treasure)
        ps[s, PS_SCORE] = score
        ps[s, PS_TOTAL] += score
        if diff == 0:
            ps[s, PS_EXACT] += 1
    rec(trace, gs, EV_ROUND_END, gs[GS_ROUND], lost, gs[GS_TRICK], pool)
    for s in range(cf[CF_PLAYERS]):
        rec(trace, gs, EV_SCORE, s, ps[s, PS_SCORE], ps[s, PS_TREASURE], 0)
    if cf[CF_CHECK] != 0:
        tricks = 0
        terror = 0
        defeated = 0
        for s in range(cf[CF_SEATS]):
            tricks += ps[s, PS_TRICKS]
            if s < cf[CF_PLAYERS]:
                terror += ps[s, PS_TERROR]
                defeated += ps[s, PS_DEF]
        if tricks != gs[GS_TRICK] or gs[GS_TRICK] > cf[CF_HAND]:
            gs[GS_VIOL] += 1
        if cf[CF_AUTO_TERROR] == 0 and terror != pool:
            gs[GS_VIOL] += 1
        if defeated + gs[GS_AUTO_DEF] + gs[GS_ZONE_N] != gs[GS_DPTR]:
            gs[GS_VIOL] += 1


# ---- solo against the Demon --------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def solo_next_card(pile, ip, i_n, which, discard, gs, card_loc, state, trace):
    """Top card of a pile (`pile[gs[ip]:gs[i_n]]`), shuffling the discard pile into it when it runs out; -1 if
    none. `which`: 0 the draw pile (shared with the Demon by default), 1 the Demon's own deck."""
    if gs[ip] >= gs[i_n]:
        n = gs[GS_DISC]
        if n == 0:
            return -1
        for i in range(n):
            pile[i] = discard[i]
        shuffle(state, pile, n)
        for i in range(n):
            rec(trace, gs, EV_RESHUFFLE, i, pile[i], which, 0)
            card_loc[pile[i]] = -1
        gs[ip] = 0
        gs[i_n] = n
        gs[GS_DISC] = 0
        gs[FD_RESHUFFLE] += 1
        gs[FD_SOLO_PILE] += 1
    c = pile[gs[ip]]
    gs[ip] += 1
    return c


@njit(cache=True, _nrt=False)
def play_solo(cf, kind, colour, value, ranks, deck_cards, dr, hand, hand_n, zone, gs, ps, tr, moves, pairs, state, deck,
              ddeck, card_loc, discard, played, play_fns, place_fns, params, codes, trace):
    """One solo game: the player (seat 0) against the Demon (seat 1), who plays the top card of the pile.

    `played` (unused in solo) holds the Demon's own deck when the piles are separate (solo_shared_pile off)."""
    H = cf[CF_HAND]
    nd = cf[CF_DECK_N]
    rec(trace, gs, EV_ROUND, 0, 0, H, 0)
    for i in range(nd):
        deck[i] = deck_cards[i]
        card_loc[deck_cards[i]] = -1
    for d in range(cf[CF_N_DRAGONS]):
        card_loc[ON_DRAGON + d] = 0
    shuffle(state, deck, nd)
    for i in range(nd):
        rec(trace, gs, EV_DECK, i, deck[i], 0, 0)
    for i in range(H):
        hand[0, i] = deck[i]
    hand_n[0] = H
    hand_n[1] = 0
    gs[GS_PILE] = H
    gs[GS_PILE_N] = nd
    gs[GS_DISC] = 0
    gs[GS_DPILE] = 0
    gs[GS_DPILE_N] = 0
    split = cf[CF_SOLO_SPLIT] != 0
    if split:
        # the rest is dealt alternately: the player's draw pile (deck[H:]) and the Demon's deck (played[:])
        npile = H
        for i in range(H, nd):
            if (i - H) % 2 == 0:
                deck[npile] = deck[i]
                npile += 1
            else:
                played[gs[GS_DPILE_N]] = deck[i]
                gs[GS_DPILE_N] += 1
        gs[GS_PILE_N] = npile
    dp = GS_DPILE if split else GS_PILE         # the Demon's pile pointers
    dn = GS_DPILE_N if split else GS_PILE_N
    every = cf[CF_SOLO_EVERY_TRICK] != 0
    for s in range(2):
        for k in range(PS_SIZE):
            ps[s, k] = 0
        ps[s, PS_OBJ] = -1
    ps[0, PS_BID] = BIG_BID
    nd_dr = cf[CF_N_DRAGONS]
    for i in range(nd_dr):
        ddeck[i] = i
    shuffle(state, ddeck, nd_dr)
    for i in range(nd_dr):
        rec(trace, gs, EV_DRAGON_DECK, i, ddeck[i], 0, 0)
    gs[GS_ZONE_N] = 0
    gs[GS_ZSLOTS] = 0
    gs[GS_DPTR] = 0
    gs[GS_POOL] = 0
    gs[GS_AUTO_TERROR] = 0
    gs[GS_TRICK] = 0
    gs[GS_LOST] = 0
    for i in range(cf[CF_START_DRAGONS]):
        reveal(zone, gs, ddeck, dr, cf, trace)
    leader = 0
    ended = False
    for t in range(cf[CF_TRICK_CAP]):
        if hand_n[0] == 0 or (gs[dp] >= gs[dn] and gs[GS_DISC] == 0):
            break       # nothing left to play (cards all stuck on dragons): a stalemate
        if every and t > 0:         # the other reading: a dragon before every trick, as in the base game
            if not reveal(zone, gs, ddeck, dr, cf, trace):
                ended = True
                break
            if gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]:
                gs[GS_LOST] = 1
                gs[FD_ZONE_LIMIT] += 1
                ended = True
                break
        gs[GS_TN] = 0
        for k in range(2):
            s = (leader + k) % 2
            if s == 1:
                if split:
                    c = solo_next_card(played, GS_DPILE, GS_DPILE_N, 1, discard, gs, card_loc, state, trace)
                else:
                    c = solo_next_card(deck, GS_PILE, GS_PILE_N, 0, discard, gs, card_loc, state, trace)
                m = 1 if kind[c] == MERCENARY and cf[CF_AUTO_MERC_HIGH] == 0 else 0
                play_card(1, -1, c, m, hand, hand_n, gs, tr, played, cf, trace)
            else:
                i = choose_card(0, cf, kind, colour, value, hand, hand_n, gs, ps, tr, moves, state, play_fns,
                                params, H)
                play_card(0, moves[i, M_SLOT], moves[i, M_CARD], moves[i, M_MODE], hand, hand_n, gs, tr, played,
                          cf, trace)
        wpos = trick_eval(tr, 2, kind, colour, value, cf[CF_TRUMP], cf[CF_EGG_LOW])[0]
        w = tr[wpos, T_SEAT]
        gs[GS_TRICK] = t + 1
        ps[w, PS_TRICKS] += 1
        if w == 1:
            gs[GS_AUTO_TRICKS] += 1
        count_trick(tr, 2, kind, value, gs, 1)
        rec(trace, gs, EV_TRICK, w, t + 1, 0, 0)
        place_trick(w, 1, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                    discard, place_fns, params, codes, ranks, trace)
        c = solo_next_card(deck, GS_PILE, GS_PILE_N, 0, discard, gs, card_loc, state, trace)
        if c >= 0:
            hand[0, hand_n[0]] = c
            hand_n[0] += 1
            rec(trace, gs, EV_DRAW, 0, c, 0, 0)
        if w == 1 or gs[GS_DEF_TRICK] > 0:
            if not every:
                if not reveal(zone, gs, ddeck, dr, cf, trace):
                    ended = True
                    break
                if gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]:
                    gs[GS_LOST] = 1
                    gs[FD_ZONE_LIMIT] += 1
                    ended = True
                    break
        else:
            gs[FD_SOLO_EVERY] += 1      # the readings differ here: a dragon joins only under the other one
        if cf[CF_CHECK] != 0:
            check_solo(cf, dr, zone, gs, hand_n, card_loc, nd, deck_cards)
        leader = w
    if not ended:
        gs[GS_STALEMATE] = 1
    score = ps[0, PS_TERROR] - gs[GS_AUTO_TERROR]
    if score == cf[CF_SOLO_BOUNDARY]:
        gs[FD_SOLO_80] += 1
    rank = 0
    for k in range(4):
        if score >= cf[CF_RANK_1 + k]:
            rank = k + 1
    ps[0, PS_SCORE] = score
    ps[0, PS_TOTAL] = score
    rec(trace, gs, EV_ROUND_END, 0, gs[GS_LOST], gs[GS_TRICK], ps[0, PS_TERROR] + gs[GS_AUTO_TERROR])
    rec(trace, gs, EV_SCORE, 0, score, 0, 0)
    return rank


@njit(cache=True, _nrt=False)
def check_solo(cf, dr, zone, gs, hand_n, card_loc, nd, deck_cards):
    """Every card is in the hand, the pile, the discard pile or on a dragon of the zone."""
    on = 0
    for i in range(nd):
        d = card_loc[deck_cards[i]]
        if d >= 0:
            on += 1
            found = False
            for z in range(gs[GS_ZONE_N]):
                found = found or zone[z, Z_ID] == d
            if not found:
                gs[GS_VIOL] += 1
    if hand_n[0] + (gs[GS_PILE_N] - gs[GS_PILE]) + (gs[GS_DPILE_N] - gs[GS_DPILE]) + gs[GS_DISC] + on != nd:
        gs[GS_VIOL] += 1
    # (with two piles the Demon's reshuffle can take the whole discard pile just before the player draws: the
    # hand then stays a card short, legally)
    if cf[CF_SOLO_SPLIT] == 0 and hand_n[0] != cf[CF_HAND] and gs[GS_PILE_N] - gs[GS_PILE] + gs[GS_DISC] > 0:
        gs[GS_VIOL] += 1
    for z in range(gs[GS_ZONE_N]):
        if zone[z, Z_DMG] >= dr[zone[z, Z_ID], 1]:
            gs[GS_VIOL] += 1


# ---- the batch ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def finish_game(g, cf, gs, ps, games, trace):
    """Final scores, ranks and the game row."""
    players = cf[CF_PLAYERS]
    top = -(1 << 30)
    low = 1 << 30
    for s in range(players):
        top = max(top, ps[s, PS_TOTAL])
        low = min(low, ps[s, PS_TOTAL])
    n_top = 0
    winner = -1
    for s in range(players):
        rank = 1
        for o in range(players):
            if ps[o, PS_TOTAL] > ps[s, PS_TOTAL]:
                rank += 1
        games[g, G_SCORE0 + s] = ps[s, PS_TOTAL]
        games[g, G_RANK0 + s] = rank
        games[g, G_EXACT0 + s] = ps[s, PS_EXACT]
        rec(trace, gs, EV_FINAL, s, ps[s, PS_TOTAL], rank, 0)
        if ps[s, PS_TOTAL] == top:
            n_top += 1
            winner = s
    for s in range(players, MAX_SEATS):
        games[g, G_SCORE0 + s] = -1
        games[g, G_RANK0 + s] = -1
        games[g, G_EXACT0 + s] = -1
    games[g, G_WINNER] = winner if n_top == 1 else -1
    games[g, G_N_WINNERS] = n_top
    games[g, G_TOP] = top
    games[g, G_SPREAD] = top - low
    games[g, G_TEAM_WINNER] = -1
    if cf[CF_TEAMS] != 0:
        half = players // 2
        best = -(1 << 30)
        n_best = 0
        for t in range(half):
            v = ps[t, PS_TOTAL] + ps[t + half, PS_TOTAL]
            if v > best:
                best = v
                n_best = 1
                games[g, G_TEAM_WINNER] = t
            elif v == best:
                n_best += 1
        if n_best > 1:
            games[g, G_TEAM_WINNER] = -1


@njit(cache=True, _nrt=False)
def record_round(row, cf, gs, ps, rounds, s):
    players = cf[CF_PLAYERS]
    diff = ps[s, PS_TRICKS] - ps[s, PS_BID]
    rounds[row, R_ROUND] = gs[GS_ROUND]
    rounds[row, R_SEAT] = s
    pos = s - gs[GS_FIRST]         # (s - first) % seats without a division
    rounds[row, R_POSITION] = pos + cf[CF_SEATS] * (pos < 0)
    rounds[row, R_TEAM] = s % (players // 2) if cf[CF_TEAMS] != 0 else -1
    rounds[row, R_DEALT] = cf[CF_HAND]
    rounds[row, R_TRICKS] = ps[s, PS_TRICKS]
    rounds[row, R_DRAGONS] = ps[s, PS_DEF]
    rounds[row, R_TERROR_OWN] = ps[s, PS_TERROR]
    rounds[row, R_TREASURE] = ps[s, PS_TREASURE]
    rounds[row, R_SCORE] = ps[s, PS_SCORE]
    rounds[row, R_LOST] = gs[GS_LOST]
    rounds[row, R_TRICKS_PLAYED] = gs[GS_TRICK]
    if cf[CF_MODE] == MODE_SOLO:
        rounds[row, R_BID] = -1
        rounds[row, R_DIFF] = 0
        rounds[row, R_EXACT] = 0
        rounds[row, R_NEAR] = 0
        rounds[row, R_MISSED] = 0
        rounds[row, R_POOL] = ps[0, PS_TERROR] + gs[GS_AUTO_TERROR]
        rounds[row, R_TERROR_PTS] = ps[0, PS_SCORE]
        return
    ad = abs(diff)
    rounds[row, R_BID] = ps[s, PS_BID]
    rounds[row, R_DIFF] = diff
    rounds[row, R_EXACT] = 1 if ad == 0 else 0
    rounds[row, R_NEAR] = 1 if 0 < ad <= cf[CF_NEAR] else 0
    rounds[row, R_MISSED] = 1 if ad > cf[CF_NEAR] else 0
    rounds[row, R_POOL] = gs[GS_POOL]
    rounds[row, R_TERROR_PTS] = terror_share(diff, gs[GS_POOL], cf)


# games and rounds: any layout (the caller's are column-major; a one-row table is C-contiguous as well, and numba
# types it as such)
KERNEL_SIG = types.void(
    types.int64, types.int64, types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1],
    types.int64[::1], types.int64[:, ::1], types.int64[:, ::1], SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS,
    types.float64[:, ::1], types.int64[:, ::1], types.int32[:, :], types.int32[:, :], types.int16[:, :, ::1])


@njit(cache=True, _nrt=False)
def run_batch(seed, n, cf, kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob, bid_fns, play_fns,
              place_fns, give_fns, draft_fns, params, codes, games, rounds, trace, hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state,
              deck, ddeck, odeck, zobj, card_loc, discard, played):
    mode = cf[CF_MODE]
    players = cf[CF_PLAYERS]
    n_rounds = cf[CF_ROUNDS]
    n_traced = trace.shape[0]
    tables = (kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob)
    work = (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
            played)
    fns = (bid_fns, play_fns, place_fns, give_fns, draft_fns)
    for g in range(n):
        state[S_RNG] = mix(seed, g)     # each game its own stream: same seed and index, same deals
        gs[:] = 0
        gs[GS_TG] = g if g < n_traced else -1
        for s in range(MAX_SEATS):
            ps[s, PS_TOTAL] = 0
            ps[s, PS_EXACT] = 0
        row = games[g]
        row[:] = 0
        if mode == MODE_SOLO:
            rank = play_solo(cf, kind, colour, value, ranks, deck_cards, dr, hand, hand_n, zone, gs, ps, tr, moves, pairs,
                             state, deck, ddeck, card_loc, discard, played, play_fns, place_fns, params, codes,
                             trace)
            record_round(g, cf, gs, ps, rounds, 0)
            row[G_SOLO_SCORE] = ps[0, PS_SCORE]
            row[G_SOLO_RANK] = rank
            row[G_SOLO_TRICKS] = ps[0, PS_TRICKS]
            row[G_DEFEATED] = ps[0, PS_DEF]
            row[G_TERROR] = ps[0, PS_TERROR]
            row[G_TRICKS] = gs[GS_TRICK]
            row[G_LOST] = gs[GS_LOST]
            row[G_ROUNDS] = 1
            rec(trace, gs, EV_GAME_END, gs[GS_STALEMATE], ps[0, PS_SCORE], rank, 0)
        else:
            for r in range(n_rounds):
                gs[GS_ROUND] = r
                play_round(cf, tables, work, fns, params, codes, trace)
                for s in range(players):
                    record_round((g * n_rounds + r) * players + s, cf, gs, ps, rounds, s)
                    d = abs(ps[s, PS_TRICKS] - ps[s, PS_BID])
                    row[G_CONTRACTS] += 1
                    row[G_EXACT] += d == 0          # (counts, not branches: the outcome goes either way)
                    row[G_NEAR] += (d != 0) & (d <= cf[CF_NEAR])
                    row[G_MISSED] += d > cf[CF_NEAR]
                    row[G_DEFEATED] += ps[s, PS_DEF]
                    row[G_TREASURE] += ps[s, PS_TREASURE]
                row[G_LOST] += gs[GS_LOST]
                row[G_TRICKS] += gs[GS_TRICK]
                row[G_TERROR] += gs[GS_POOL]
                nxt = gs[GS_LAST_WINNER]
                if mode == MODE_FALLEN_KING and nxt >= players and r < n_rounds - 1:
                    gs[FD_FK_LEAD] += 1         # the Fallen King took the last trick
                    if cf[CF_FK_MAY_LEAD] == 0:
                        nxt = 0                 # the other reading: the next real player opens instead
                gs[GS_FIRST] = nxt
            row[G_ROUNDS] = n_rounds
            rec(trace, gs, EV_GAME_END, 0, 0, 0, 0)
            finish_game(g, cf, gs, ps, games, trace)
        row[G_MODE] = mode
        row[G_SEATS] = cf[CF_SEATS]
        row[G_STALEMATE] = gs[GS_STALEMATE]
        row[G_AUTO_TRICKS] = gs[GS_AUTO_TRICKS]
        row[G_OBJ_DONE] = gs[GS_OBJ_DONE]
        row[G_VIOL] = gs[GS_VIOL]
        row[G_BAD] = gs[GS_BAD]
        for k in range(N_FIRED):
            row[G_F0 + k] = gs[GS_F0 + k]


@njit(cache=True)
def build_powers(kind, colour, value, trump, ptab):
    """ptab[mode, card]: the seeker's card_power of each card as an option row shows it (a Mercenary
    played as 0 has value 0 and no colour); ptab[2 + mode, card]: the same negated; ptab[4, card]: its
    lead_power (trumps below every other card) for a seeker that leads trumps last; ptab[5, card]: the gs slot
    of its rule counter (play_trick counts the cards as they are played)."""
    for c in range(kind.shape[0]):
        ptab[0, c] = card_power(kind[c], value[c], 0, colour[c], trump)
        ptab[1, c] = card_power(kind[c], 0, 1, -1, trump)
        ptab[2, c] = -ptab[0, c]
        ptab[3, c] = -ptab[1, c]
        ptab[4, c] = lead_power(kind[c], value[c], 0, colour[c], trump)
        k = kind[c]
        slot = GS_SINK
        if k == OBSCURE:
            slot = FD_KNIGHT + min(max(value[c] - 11, 0), 2)
        elif k == MERCENARY:
            slot = FD_MERC
        elif k == EGG:
            slot = FD_EGG
        elif k == WIZ_LOW:
            slot = FD_WIZ_LOW
        elif k == WIZ_HIGH:
            slot = FD_WIZ_HIGH
        ptab[5, c] = slot


@njit(cache=True)
def build_follows(colour, follows):
    """follows[led + 1, card]: -1 when the card may be played to a trick led in that colour by a hand that holds
    the colour (the colour itself, or a colourless card), else 0; the last row, for a hand void in the led
    colour, is all -1. A mask read from a table: the same test computed in the loop was compiled into a
    branch that went either way at random."""
    for led in range(-1, follows.shape[0] - 2):
        for c in range(colour.shape[0]):
            follows[led + 1, c] = -1 if colour[c] == led or colour[c] < 0 else 0
    follows[-1, :] = -1


@njit(cache=True)
def build_ranks(dr, nd, params, ranks):
    """ranks[row * MAX_DRAGONS * RANK_W + dragon * RANK_W + RANK_OFF + left]: the rank of greedy_key(left, the
    dragon's Terror, that row's terror_weight) among all of that row's keys (equal keys, equal ranks), so the
    greedy placement compares integers and picks what place_greedy picks. Rows: seats 0-5 (their
    terror_weight), then the automaton (no Terror)."""
    n = nd * RANK_W
    keys = np.empty(n, np.float64)
    for row in range(MAX_SEATS + 1):
        tw = params[row, TERROR_WEIGHT] if row < MAX_SEATS and params.shape[1] > TERROR_WEIGHT else 0.0
        for d in range(nd):
            for j in range(RANK_W):
                keys[d * RANK_W + j] = greedy_key(j - RANK_OFF, dr[d, 2], tw)
        order = np.argsort(keys)
        r = 0
        for k in range(n):
            if k > 0 and keys[order[k]] != keys[order[k - 1]]:
                r += 1
            ranks[row * MAX_DRAGONS * RANK_W + order[k]] = r


@njit(cache=True)
def build_hx(kind, colour, hx):
    """hx's per-batch masks: the cards of each colour and the colourless cards (card ids < MAX_CARDS)."""
    for c in range(colour.shape[0]):
        if colour[c] >= 0:
            hx[HX_COLOUR + colour[c]] |= np.int64(1) << c
        else:
            hx[HX_NONE] |= np.int64(1) << c
        if kind[c] == MERCENARY:
            hx[HX_MERC] |= np.int64(1) << c


@njit(cache=True)
def build_worths(kind, colour, value, cf, params, codes, worths):
    """worths[seat, card]: bid_estimate's card_worth for each seat that bids with it; worths[seat, -1]: its
    rivals_factor (the hand's total adds these up in hand order, as bid_estimate does)."""
    for s in range(MAX_SEATS):
        if codes[D_BID, s] == BID_ESTIMATE:
            for c in range(kind.shape[0]):
                worths[s, c] = card_worth(kind[c], value[c], colour[c], cf[CF_TRUMP], params[s])
            worths[s, -1] = rivals_factor(cf[CF_SEATS], params[s])


@njit(KERNEL_SIG, cache=True)
def play_batch_jit(seed, n, cf, kind, colour, value, deck_cards, dr, ob, bid_fns, play_fns, place_fns, give_fns,
                   draft_fns, params, codes, games, rounds, trace):
    np.random.seed(seed)      # for user strategies that draw from np.random
    hand = np.zeros((MAX_SEATS, MAX_HAND + 2), np.int64)
    hand_n = np.zeros(MAX_SEATS, np.int64)
    zone = np.zeros((MAX_ZONE + 1, Z_COLS), np.int64)
    gs = np.zeros(GS_SIZE, np.int64)
    ps = np.zeros((MAX_SEATS, PS_SIZE), np.int64)
    tr = np.zeros((MAX_SEATS, 3), np.int64)
    moves = np.zeros((MAX_MOVES, CARD_COLS), np.int64)
    pairs = np.zeros((MAX_PAIRS, PLACE_COLS), np.int64)
    objopt = np.zeros((MAX_OBJECTIVES, OBJ_COLS), np.int64)
    state = np.zeros(STATE_SIZE, np.int64)
    deck = np.zeros(MAX_CARDS, np.int64)
    ddeck = np.zeros(MAX_DRAGONS, np.int64)
    odeck = np.zeros(MAX_OBJECTIVES, np.int64)
    zobj = np.zeros((MAX_OBJECTIVES, 2), np.int64)
    card_loc = np.full(ON_DRAGON + MAX_DRAGONS, -1, np.int64)
    discard = np.zeros(MAX_CARDS, np.int64)
    played = np.zeros(MAX_CARDS, np.int64)
    keys = np.zeros((3, N_COLOURS + 1, 2, MAX_CARDS), np.int64)     # rows padded: see kix
    build_keys(kind, colour, value, cf[CF_TRUMP], cf[CF_EGG_LOW], keys)
    flat_keys = keys.reshape(keys.size)
    ptab = np.zeros((6, kind.shape[0]), np.int64)
    build_powers(kind, colour, value, cf[CF_TRUMP], ptab)
    follows = np.zeros((N_COLOURS + 2, kind.shape[0]), np.int64)
    build_follows(colour, follows)
    worths = np.zeros((MAX_SEATS, kind.shape[0] + 1), np.float64)
    build_worths(kind, colour, value, cf, params, codes, worths)
    hx = np.zeros(HX_SIZE, np.int64)
    build_hx(kind, colour, hx)
    nd = cf[CF_N_DRAGONS]
    ranked = nd <= MAX_DRAGONS and dr[:nd, 1].max() <= RANK_W - RANK_OFF and value.max() <= RANK_OFF + 1
    ranks = np.zeros((MAX_SEATS + 1) * MAX_DRAGONS * RANK_W if ranked else 0, np.int32)
    if ranked:
        build_ranks(dr, nd, params, ranks)
    run_batch(seed, n, borrow(cf), borrow(kind), borrow(colour), borrow(value), borrow(flat_keys), borrow(ptab),
              borrow(follows), borrow(worths), borrow(ranks), borrow(deck_cards), borrow(dr), borrow(ob), bid_fns, play_fns, place_fns,
              give_fns, draft_fns, borrow(params), borrow(codes), borrow(games), borrow(rounds), borrow(trace), borrow(hand),
              borrow(hand_n), borrow(hx), borrow(zone), borrow(gs), borrow(ps), borrow(tr), borrow(moves), borrow(pairs),
              borrow(objopt), borrow(state), borrow(deck), borrow(ddeck), borrow(odeck), borrow(zobj),
              borrow(card_loc), borrow(discard), borrow(played))
    # the owners stay alive until here: the borrowed views above hold no reference
    keep = (hand[0, 0] + hand_n[0] + zone[0, 0] + gs[0] + ps[0, 0] + tr[0, 0] + moves[0, 0] + pairs[0, 0]
            + objopt[0, 0] + state[0] + deck[0] + ddeck[0] + odeck[0] + zobj[0, 0] + card_loc[0] + discard[0]
            + played[0] + keys[0, 0, 0, 0] + ptab[0, 0] + follows[0, 0] + worths[0, 0] + hx[0]
            + ranks.size)
    gs[1] = keep


def inline_codes(bid_fns, play_fns, place_fns):
    """codes[decision, seat]: which seats' decisions run a built-in strategy inline (CALL: call it)."""
    codes = np.zeros((len(DECISIONS), MAX_SEATS), np.int64)
    if INLINE_BUILTINS:
        fns = {D_BID: bid_fns, D_PLAY: play_fns, D_PLACE: place_fns}
        for decision, fn, code in INLINE:
            for s in range(MAX_SEATS):
                if fns[decision][s] is fn:
                    codes[decision, s] = code
    return codes


def seat_codes(bid_fns, play_fns, place_fns, params, seats):
    """inline_codes, and the inline seeker's per-seat habits (rows C_CHEAP, C_LEAD_TL; the same tests as
    play_seeker: `follow_cheap` / `lead_trumps_last` above 0.5 at a table of `short_from` seats or more)."""
    codes = np.zeros((CODE_ROWS, MAX_SEATS), np.int64)
    codes[:len(DECISIONS)] = inline_codes(bid_fns, play_fns, place_fns)
    if params.shape[1] > max(FOLLOW_CHEAP, LEAD_TRUMPS_LAST, SHORT_FROM):
        short = seats >= params[:, SHORT_FROM]
        codes[C_CHEAP] = (params[:, FOLLOW_CHEAP] > 0.5) & short
        codes[C_LEAD_TL] = (params[:, LEAD_TRUMPS_LAST] > 0.5) & short
    return codes


def play_batch(seed, n, cf, kind, colour, value, deck_cards, dr, ob, bid_fns, play_fns, place_fns, give_fns,
               draft_fns, params, games, rounds, trace):
    """Play n games from `seed` into `games`, `rounds` and the first trace.shape[0] traces."""
    codes = seat_codes(bid_fns, play_fns, place_fns, params, int(cf[CF_SEATS]))
    play_batch_jit(seed, n, cf, kind, colour, value, deck_cards, dr, ob, bid_fns, play_fns, place_fns, give_fns,
                   draft_fns, params, codes, games, rounds, trace)
