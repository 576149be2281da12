"""Built-in Drachensachen strategies.

Each strategy is three numba functions compiled with `records.SIG`: `play` (a turn, or the answer to a
draw or a missed turn), `setup` (the hand/open exchange) and `choose` (an ability's choice). Each gets
the legal options in `moves[:n]` and returns the index of one; a play row offers the largest legal play
of one card type and may be trimmed (see `sim.games.drachensachen.records`). Parameters come in a
float64 array, so they can be swept.

They are compiled without numba's reference counting (`_nrt=False`): they never allocate, and it keeps
the call cheap when the kernel makes tens of millions of them.
"""

import numpy as np
from numba import njit

from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drachensachen.records import (
    EXTERMINO, K_DISCARD, K_DRAW, K_MISS, K_PEEK, K_PLAY, K_SWAP, K_TAKE, M_HAND, M_KIND, M_OPEN, M_TYPE,
    MAX_PLAYERS, NULLO, PH_DRAW, PH_SKIP, PROTECTO, SIG, V_DRAW, V_MULTI_PROTECTO, V_NEXT_CARDS, V_PHASE,
    V_PILE_N, V_PLAYERS, V_RUN_N, V_RUN_TYPE, V_STALL,
)

REGISTRY = StrategyRegistry("drachensachen")
SEATS = tuple(f"seat{i}" for i in range(MAX_PLAYERS))
FAST = dict(cache=True, _nrt=False)


# ---- helpers -------------------------------------------------------------------------------------

# how useful a card is to keep, by type: monsters by value, dragons above every monster (Extermino first);
# a table rather than tests of the type, which the branch predictor cannot guess
STRENGTH = np.array([float(t) for t in range(NULLO + 1)] + [0.0, 0.0])
STRENGTH[EXTERMINO], STRENGTH[PROTECTO] = 12.0, 11.0


@njit(**FAST)
def find(moves, n, kind):
    """The first option of a kind (-1 if none)."""
    for i in range(n):
        if moves[i, M_KIND] == kind:
            return i
    return -1


@njit(**FAST)
def find_play(moves, n, t):
    """The play row of card type t (-1 if none)."""
    for i in range(n):
        if moves[i, M_KIND] == K_PLAY and moves[i, M_TYPE] == t:
            return i
    return -1


@njit(**FAST)
def just_one(moves, i):
    """Trim play row i to a single card (from the hand when the row has hand cards)."""
    if moves[i, M_HAND] > 0:
        moves[i, M_HAND] = 1
        moves[i, M_OPEN] = 0
    else:
        moves[i, M_OPEN] = 1
    return i


@njit(**FAST)
def careful_turn(moves, n, view, take_limit):
    """Put out sets of four; shed the lowest monster (all copies); spend one dragon only on a pile
    bigger than take_limit, preferring Extermino, then Nullo, then Protecto."""
    best = -1
    for i in range(n):
        kind = moves[i, M_KIND]
        if kind == K_DISCARD:
            return i
        if kind == K_PLAY and moves[i, M_TYPE] < NULLO and (best < 0 or moves[i, M_TYPE] < moves[best, M_TYPE]):
            best = i
    if best >= 0:
        return best
    take = find(moves, n, K_TAKE)
    if take >= 0 and view[V_PILE_N] <= take_limit:
        return take
    for t in (EXTERMINO, NULLO, PROTECTO):
        i = find_play(moves, n, t)
        if i >= 0:
            return just_one(moves, i)
    return take if take >= 0 else 0


@njit(**FAST)
def best_swap(moves, n, margin):
    """Move the strongest hand card to the open row when it beats the weakest open card by `margin`."""
    best = 0
    gain = margin
    for i in range(n):
        if moves[i, M_KIND] == K_SWAP:
            g = STRENGTH[moves[i, M_TYPE]] - STRENGTH[moves[i, M_HAND]]
            if g > gain:
                gain = g
                best = i
    return best


# ---- random --------------------------------------------------------------------------------------

@njit(**FAST)
def random_size(moves, i):
    """Trim play row i (if it is one) to a uniformly random size, hand cards first, then open ones."""
    if moves[i, M_KIND] == K_PLAY:
        nh = moves[i, M_HAND]
        r = np.random.randint(1, nh + moves[i, M_OPEN] + 1)
        if nh == 0:
            moves[i, M_OPEN] = r
        elif r <= nh:
            moves[i, M_HAND] = r
            moves[i, M_OPEN] = 0
        else:
            moves[i, M_OPEN] = r - nh


@njit_later(SIG, **FAST)
def random_play(moves, n, view, params):
    """Uniform over the options, then over the sizes of a play; the pile is taken by choice with
    probability params[0] (always when nothing else is possible)."""
    take = find(moves, n, K_TAKE)
    if take >= 0 and (n == 1 or np.random.random() < params[0]):
        return take
    if take >= 0:
        i = np.random.randint(0, n - 1)
        if i >= take:
            i += 1
    else:
        i = np.random.randint(0, n)
    random_size(moves, i)
    return i


@njit_later(SIG, **FAST)
def random_any(moves, n, view, params):
    return np.random.randint(0, n)


REGISTRY.register(Strategy(
    "random", SEATS, (random_play, random_any, random_any),
    "uniform over legal moves (then over how many cards); takes the pile by choice with probability take_prob",
    ("take_prob",), (0.05,), ((0.0, 1.0),)))


# ---- low-first -----------------------------------------------------------------------------------

@njit_later(SIG, **FAST)
def low_play(moves, n, view, params):
    phase = view[V_PHASE]
    if phase == PH_DRAW:
        # push a draw with 4s; with Protecto only when it is big; else peek or draw
        i = find_play(moves, n, 4)
        if i >= 0:
            return i
        if view[V_DRAW] >= params[1]:
            i = find_play(moves, n, PROTECTO)
            if i >= 0:
                return just_one(moves, i)
        i = find(moves, n, K_PEEK)
        return i if i >= 0 else find(moves, n, K_DRAW)
    if phase == PH_SKIP:
        i = find_play(moves, n, 5)
        return i if i >= 0 else find(moves, n, K_MISS)
    return careful_turn(moves, n, view, params[0])


@njit_later(SIG, **FAST)
def keep_strong_setup(moves, n, view, params):
    return best_swap(moves, n, 0.0)


@njit_later(SIG, **FAST)
def fewest_choose(moves, n, view, params):
    """The option with the smallest fact: the lowest open card to take up, the player with the fewest
    cards to hand a card to, or the direction that makes the player with fewer cards answer my 7."""
    best = 0
    for i in range(1, n):
        if moves[i, M_HAND] < moves[best, M_HAND]:
            best = i
    return best


REGISTRY.register(Strategy(
    "low-first", SEATS, (low_play, keep_strong_setup, fewest_choose),
    "sheds the lowest monster (every copy), puts out sets of four, keeps dragons for piles bigger than "
    "take_limit, pushes draws of protect_draw or more with Protecto",
    ("take_limit", "protect_draw"), (2.0, 4.0), ((0.0, 20.0), (2.0, 16.0))))


# ---- aggressive ----------------------------------------------------------------------------------

@njit_later(SIG, **FAST)
def aggressive_play(moves, n, view, params):
    phase = view[V_PHASE]
    if phase == PH_DRAW or phase == PH_SKIP:
        # always push a draw or a missed turn on: with 4s / 5s, else Protecto
        i = find_play(moves, n, 4 if phase == PH_DRAW else 5)
        if i < 0:
            i = find_play(moves, n, PROTECTO)
            if i >= 0:
                just_one(moves, i)
        if i < 0:
            i = find(moves, n, K_PEEK)
        if i < 0:
            i = find(moves, n, K_DRAW if phase == PH_DRAW else K_MISS)
        return i
    # burn the pile when a play completes four in a row, else dump 4s and 5s on the next player
    for i in range(n):
        if moves[i, M_KIND] == K_PLAY:
            run = view[V_RUN_N] if view[V_RUN_TYPE] == moves[i, M_TYPE] else 0
            if run + moves[i, M_HAND] + moves[i, M_OPEN] >= 4:
                return i
    i = find_play(moves, n, 4)
    if i < 0:
        i = find_play(moves, n, 5)
    if i >= 0:
        return i
    return careful_turn(moves, n, view, params[0])


REGISTRY.register(Strategy(
    "aggressive", SEATS, (aggressive_play, keep_strong_setup, fewest_choose),
    "burns the pile whenever a play makes four in a row, dumps 4s and 5s on the next player, always "
    "pushes draws and missed turns on; otherwise sheds low like low-first",
    ("take_limit",), (2.0,), ((0.0, 20.0),)))


# ---- weighted ------------------------------------------------------------------------------------

WEIGHTS = ("shed", "value", "dragon", "burn", "four", "five", "three", "six", "discard", "take", "draw",
           "miss", "swap_margin")
W_SHED, W_VALUE, W_DRAGON, W_BURN, W_FOUR, W_FIVE, W_THREE, W_SIX, W_DISCARD, W_TAKE, W_DRAW, W_MISS, \
    W_SWAP = range(13)
# the current weighted strategy adds: pressure on a next player close to going out, and a way out of loops
WEIGHTS2 = WEIGHTS + ("threat", "patience", "shake", "extermino", "protecto")
W_THREAT, W_PATIENCE, W_SHAKE, W_EXTERMINO, W_PROTECTO = range(13, 18)
# the card types whose plays stop or slow the next player (3s, 4s, 5s, 6s and 9s), as bits
THREAT_TYPES = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 9)


@njit(inline='always', **FAST)
def weighted_best(moves, n, view, params, threat, ext_bonus, prot_bonus):
    """Index of the option with the highest weighted score (a play scored at its best size: one card or
    all), and whether that play should be trimmed to one card. `threat` is added per card to 3s, 4s, 5s,
    6s and 9s (the plays that stop or slow the next player); `ext_bonus` and `prot_bonus` to an Extermino
    and a Protecto card (a Nullo helps the next player, an Extermino gives an extra turn).
    A play's terms are chosen by selects, not branches: the card type of a row is a coin flip for the branch
    predictor (the branches cost this strategy a sixth of its time)."""
    shed, value, dragon, burn = params[W_SHED], params[W_VALUE], params[W_DRAGON], params[W_BURN]
    four, five, three, six = params[W_FOUR], params[W_FIVE], params[W_THREE], params[W_SIX]
    run_t, run_n = view[V_RUN_TYPE], view[V_RUN_N]
    # the other options' scores do not depend on the row
    s_discard = params[W_DISCARD]
    s_take = -params[W_TAKE] * view[V_PILE_N]
    s_draw = -params[W_DRAW] * view[V_DRAW]
    s_peek = -0.5 * params[W_DRAW] * view[V_DRAW]
    s_miss = -params[W_MISS]
    best = 0
    top = -1e300
    single = False
    for i in range(n):
        kind = moves[i, M_KIND]
        one = False
        if kind == K_PLAY:
            t = moves[i, M_TYPE]
            k = moves[i, M_HAND] + moves[i, M_OPEN]
            # each card shed scores, minus its worth kept for later; 4s and 5s hurt the next player
            dragon_unit = shed - dragon + (ext_bonus if t == EXTERMINO else (prot_bonus if t == PROTECTO else 0.0))
            monster_unit = shed - value * t + (four if t == 4 else 0.0) + (five if t == 5 else 0.0) \
                + (threat if (THREAT_TYPES >> t) & 1 else 0.0)
            unit = dragon_unit if t >= NULLO else monster_unit
            flat = three if t == 3 else (six if t == 6 else 0.0)
            run = run_n if run_t == t else 0
            s_all = unit * k + flat + (burn if run + k >= 4 else 0.0)
            s_one = unit + flat + (burn if run + 1 >= 4 else 0.0)
            s = s_all
            if s_one > s_all:
                s = s_one
                one = True
        elif kind == K_DISCARD:
            s = s_discard
        elif kind == K_TAKE:
            s = s_take
        elif kind == K_DRAW:
            s = s_draw
        elif kind == K_PEEK:
            s = s_peek
        elif kind == K_MISS:
            s = s_miss
        else:
            s = 0.0
        if s > top:
            top = s
            best = i
            single = one
    return best, single


@njit_later(SIG, **FAST)
def weighted_play(moves, n, view, params):
    """The option with the highest weighted score (the first version: no threat term, no loop escape)."""
    best, single = weighted_best(moves, n, view, params, 0.0, 0.0, 0.0)
    if single:
        just_one(moves, best)
    return best


@njit_later(SIG, **FAST)
def weighted2_play(moves, n, view, params):
    """weighted, plus: (1) when no player has reached a new lowest card count for `patience` turns, play is
    going round in circles (two players passing the same small pile back and forth), and with probability
    `shake` a random option (taking the pile included) is chosen, at a random size, which breaks the cycle;
    (2) plays of 3s, 4s, 5s, 6s and 9s score `threat` more per card while the next player holds 3 cards or
    fewer; Exterminos score `extermino` less, so Nullo and Protecto are spent first; (3) under the house rule for several Protectos, at 3+ players, a Protecto is played two at a time
    when two are at hand, so the next player is passed over as well."""
    if view[V_STALL] > params[W_PATIENCE] and np.random.random() < params[W_SHAKE]:
        i = np.random.randint(0, n)
        random_size(moves, i)
        return i
    threat = params[W_THREAT] if view[V_NEXT_CARDS] <= 3 else 0.0
    best, single = weighted_best(moves, n, view, params, threat, params[W_EXTERMINO], params[W_PROTECTO])
    if moves[best, M_KIND] == K_PLAY and moves[best, M_TYPE] == PROTECTO and view[V_MULTI_PROTECTO] == 1 \
            and view[V_PLAYERS] >= 3 and moves[best, M_HAND] + moves[best, M_OPEN] >= 2:
        if moves[best, M_HAND] >= 2:
            moves[best, M_HAND] = 2
            moves[best, M_OPEN] = 0
        elif moves[best, M_HAND] == 1:
            moves[best, M_OPEN] = 1
        else:
            moves[best, M_OPEN] = 2
        return best
    if single:
        just_one(moves, best)
    return best


@njit_later(SIG, **FAST)
def weighted_setup(moves, n, view, params):
    return best_swap(moves, n, params[W_SWAP])


V1_DEFAULTS = (1.4, 0.15, 1.5, 3.0, 0.0, 0.3, 0.8, 0.15, 5.0, 0.6, 0.6, 0.5, 0.0)
V1_BOUNDS = ((0.0, 3.0), (0.0, 1.0), (0.0, 6.0), (-2.0, 6.0), (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0),
             (-2.0, 10.0), (0.0, 3.0), (0.0, 3.0), (0.0, 3.0), (-3.0, 6.0))

DEFAULTS2 = V1_DEFAULTS + (0.5, 100.0, 0.25, -0.3, 0.0)

REGISTRY.register(Strategy(
    "weighted", SEATS, (weighted2_play, weighted_setup, fewest_choose),
    "scores every option: cards shed, minus the value of monsters and the cost of dragons spent, plus "
    "bonuses for burning and for 4s, 5s, 3s and 6s (more while the next player is close to going out); "
    "costs per card taken or drawn and for a missed turn; spends Nullo and Protecto before Extermino; breaks "
    "out of play that goes round in circles with a random move; plays Protectos two at a time under the "
    "house rule",
    WEIGHTS2, DEFAULTS2, V1_BOUNDS + ((-1.0, 3.0), (4.0, 400.0), (0.0, 1.0), (-1.0, 1.0), (-1.0, 1.0))))

REGISTRY.register(Strategy(
    "weighted_v1", SEATS, (weighted_play, weighted_setup, fewest_choose),
    "the first weighted strategy (kept for comparison): the same scores without the pressure on a next "
    "player close to going out, without the loop escape (two of them at 2 players can pass the same small "
    "pile back and forth until the turn cap) and without double Protectos",
    WEIGHTS, V1_DEFAULTS, V1_BOUNDS))


# ---- the search player -------------------------------------------------------------------------------
# The kernel runs it (sim/games/drachensachen/kernel_search.py): it needs the whole game state, which a strategy
# function does not see. A seat whose play function is search_play is asked every decision with more than one
# option (game.seat_functions); every seat plays the playouts as SEARCH_PLAYOUTS at its default weights, or, with
# informed=1, as it really plays in the line-up (a searching seat, the searcher included, as SEARCH_PLAYOUTS:
# game.informed_functions). Its parameters: the budget (playouts per decision), informed (0 or 1) and beliefs (1:
# the others' hands are dealt as their plays say: a pick-up while holding cards means none of them fitted).
SEARCH_PLAYOUTS = "weighted"
SEARCH, SEARCH_DEFAULTS = ("budget", "informed", "beliefs"), (200.0, 0.0, 0.0)


@njit_later(SIG, **FAST)
def search_play(moves, n, view, params):
    """Recognised by identity (game.seat_functions) and never called there (nor are its other two functions: every
    decision of the seat with more than one option is searched); called anywhere else, it sheds low."""
    return careful_turn(moves, n, view, 2.0)


REGISTRY.register(Strategy(
    "search", SEATS, (search_play, weighted_setup, fewest_choose),
    "plays each option of a decision (a play at its largest size or as one card, a pick-up, an ability's choice, "
    "the exchange) on to the end of the round, the rest of the game valued, with the cards it cannot see dealt "
    "afresh each time (but those a player was seen to pick up stay in its hand) (budget: playouts per decision, "
    "spread over the options by sequential halving), and keeps the one that wins most unless the weighted "
    "heuristic's own answer does as well within the noise; every seat plays out as weighted, or with informed=1 as "
    "it really plays in this line-up; with beliefs=1 the hands are dealt as the others' plays say",
    SEARCH, SEARCH_DEFAULTS))
