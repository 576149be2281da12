"""Built-in Drachensachen strategies.

Each strategy is three numba functions compiled with `records.SIG`: `play` (a turn, or the answer to a
draw or a missed turn), `setup` (the hand/open exchange) and `choose` (an ability's choice). Each gets
the legal options in `moves[:n]` and returns the index of one; see `sim.games.drachensachen.records`
for the option columns and the view. Parameters come in a float64 array, so they can be swept.
"""

import numpy as np
from numba import njit

from sim.core.strategy import Strategy, StrategyRegistry
from sim.games.drachensachen.records import (
    EXTERMINO, K_DISCARD, K_DRAW, K_MISS, K_PEEK, K_PLAY, K_SWAP, K_TAKE, M_HAND, M_KIND, M_OPEN,
    M_TYPE, MAX_PLAYERS, NULLO, PH_DRAW, PH_SKIP, PROTECTO, SIG, V_DRAW, V_PHASE, V_PILE_N, V_RUN_N,
    V_RUN_TYPE,
)

REGISTRY = StrategyRegistry("drachensachen")
SEATS = tuple(f"seat{i}" for i in range(MAX_PLAYERS))


# ---- helpers -------------------------------------------------------------------------------------

@njit(cache=True, inline='always')
def strength(t):
    """How useful a card is to keep: monsters by value, dragons above every monster."""
    if t == EXTERMINO:
        return 12.0
    if t == PROTECTO:
        return 11.0
    if t == NULLO:
        return 10.0
    return float(t)


@njit(cache=True, inline='always')
def find(moves, n, kind):
    for i in range(n):
        if moves[i, M_KIND] == kind:
            return i
    return -1


@njit(cache=True, inline='always')
def burns(moves, i, view):
    """Whether play i completes a run of four on the pile."""
    t = moves[i, M_TYPE]
    k = moves[i, M_HAND] + moves[i, M_OPEN]
    run = view[V_RUN_N] if view[V_RUN_TYPE] == t else 0
    return run + k >= 4


@njit(cache=True, inline='always')
def lowest_monster(moves, n):
    """The play of the lowest monster, with as many cards as possible (-1 if there is none)."""
    best = -1
    for i in range(n):
        if moves[i, M_KIND] != K_PLAY or moves[i, M_TYPE] >= NULLO:
            continue
        if best < 0 or moves[i, M_TYPE] < moves[best, M_TYPE] or (
                moves[i, M_TYPE] == moves[best, M_TYPE]
                and moves[i, M_HAND] + moves[i, M_OPEN] > moves[best, M_HAND] + moves[best, M_OPEN]):
            best = i
    return best


@njit(cache=True, inline='always')
def most_of(moves, n, t):
    """The play of type t with the most cards (-1 if none)."""
    best = -1
    for i in range(n):
        if moves[i, M_KIND] == K_PLAY and moves[i, M_TYPE] == t:
            if best < 0 or moves[i, M_HAND] + moves[i, M_OPEN] > moves[best, M_HAND] + moves[best, M_OPEN]:
                best = i
    return best


@njit(cache=True, inline='always')
def single_of(moves, n, t):
    for i in range(n):
        if moves[i, M_KIND] == K_PLAY and moves[i, M_TYPE] == t and moves[i, M_HAND] + moves[i, M_OPEN] == 1:
            return i
    return -1


@njit(cache=True, inline='always')
def one_dragon(moves, n):
    """A single dragon, the one that helps most: Extermino, then Nullo, then Protecto."""
    for t in (EXTERMINO, NULLO, PROTECTO):
        i = single_of(moves, n, t)
        if i >= 0:
            return i
    return -1


@njit(cache=True, inline='always')
def careful_turn(moves, n, view, take_limit):
    """Shed the lowest monsters; spend a dragon only when the pile is worth avoiding."""
    i = find(moves, n, K_DISCARD)
    if i >= 0:
        return i
    i = lowest_monster(moves, n)
    if i >= 0:
        return i
    take = find(moves, n, K_TAKE)
    if take >= 0 and view[V_PILE_N] <= take_limit:
        return take
    i = one_dragon(moves, n)
    if i >= 0:
        return i
    return take if take >= 0 else 0


@njit(cache=True, inline='always')
def best_swap(moves, n, margin):
    """Move the strongest hand card to the open row when it beats the weakest open card by `margin`."""
    best = -1
    gain = margin
    for i in range(n):
        if moves[i, M_KIND] == K_SWAP:
            g = strength(moves[i, M_TYPE]) - strength(moves[i, M_HAND])
            if g > gain:
                gain = g
                best = i
    return best if best >= 0 else 0


@njit(cache=True, inline='always')
def fewest_option(moves, n):
    """The option whose fact (M_HAND) is smallest: the open card of least value to take, or the
    player holding the fewest cards to hand a card to / to face my 7."""
    best = 0
    for i in range(1, n):
        if moves[i, M_HAND] < moves[best, M_HAND]:
            best = i
    return best


# ---- random --------------------------------------------------------------------------------------

@njit(SIG, cache=True)
def random_play(moves, n, view, params):
    """Uniform over the legal options; the pile is taken voluntarily with probability params[0]."""
    take = find(moves, n, K_TAKE)
    if take < 0:
        return np.random.randint(0, n)
    if n == 1 or np.random.random() < params[0]:
        return take
    i = np.random.randint(0, n - 1)
    return i if i < take else i + 1


@njit(SIG, cache=True)
def random_any(moves, n, view, params):
    return np.random.randint(0, n)


REGISTRY.register(Strategy(
    "random", SEATS, (random_play, random_any, random_any),
    "uniform over legal moves; takes the pile by choice with probability take_prob",
    ("take_prob",), (0.05,), ((0.0, 1.0),)))


# ---- low-first -----------------------------------------------------------------------------------

@njit(cache=True, inline='always')
def low_decision(moves, n, view, params, phase):
    if phase == PH_DRAW:
        i = most_of(moves, n, 4)
        if i >= 0:
            return i
        if view[V_DRAW] >= params[1]:
            i = single_of(moves, n, PROTECTO)
            if i >= 0:
                return i
        i = find(moves, n, K_PEEK)
        return i if i >= 0 else find(moves, n, K_DRAW)
    if phase == PH_SKIP:
        i = most_of(moves, n, 5)
        return i if i >= 0 else find(moves, n, K_MISS)
    return careful_turn(moves, n, view, params[0])


@njit(SIG, cache=True)
def low_play(moves, n, view, params):
    return low_decision(moves, n, view, params, view[V_PHASE])


@njit(SIG, cache=True)
def keep_strong_setup(moves, n, view, params):
    return best_swap(moves, n, 0.0)


@njit(SIG, cache=True)
def fewest_choose(moves, n, view, params):
    return fewest_option(moves, n)


REGISTRY.register(Strategy(
    "low-first", SEATS, (low_play, keep_strong_setup, fewest_choose),
    "sheds the lowest monsters (as many as it can), keeps dragons for piles bigger than take_limit, "
    "pushes draws of protect_draw or more with Protecto",
    ("take_limit", "protect_draw"), (2.0, 4.0), ((0.0, 20.0), (2.0, 16.0))))


# ---- aggressive ----------------------------------------------------------------------------------

@njit(SIG, cache=True)
def aggressive_play(moves, n, view, params):
    phase = view[V_PHASE]
    if phase == PH_DRAW:
        i = most_of(moves, n, 4)
        if i < 0:
            i = single_of(moves, n, PROTECTO)
        if i < 0:
            i = find(moves, n, K_PEEK)
        return i if i >= 0 else find(moves, n, K_DRAW)
    if phase == PH_SKIP:
        i = most_of(moves, n, 5)
        if i < 0:
            i = single_of(moves, n, PROTECTO)
        return i if i >= 0 else find(moves, n, K_MISS)
    # burn the pile when a play completes four in a row, else dump 4s and 5s on the next player
    best = -1
    for i in range(n):
        if moves[i, M_KIND] == K_PLAY and burns(moves, i, view):
            if best < 0 or moves[i, M_HAND] + moves[i, M_OPEN] > moves[best, M_HAND] + moves[best, M_OPEN]:
                best = i
    if best >= 0:
        return best
    i = most_of(moves, n, 4)
    if i < 0:
        i = most_of(moves, n, 5)
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


@njit(cache=True, inline='always')
def move_score(moves, i, view, w):
    kind = moves[i, M_KIND]
    if kind == K_PLAY:
        t = moves[i, M_TYPE]
        k = moves[i, M_HAND] + moves[i, M_OPEN]
        s = w[W_SHED] * k
        if t >= NULLO:
            s -= w[W_DRAGON] * k
        else:
            s -= w[W_VALUE] * t * k
        if burns(moves, i, view):
            s += w[W_BURN]
        elif t == 4:
            s += w[W_FOUR] * k
        elif t == 5:
            s += w[W_FIVE] * k
        elif t == 3:
            s += w[W_THREE]
        elif t == 6:
            s += w[W_SIX]
        return s
    if kind == K_DISCARD:
        return w[W_DISCARD]
    if kind == K_TAKE:
        return -w[W_TAKE] * view[V_PILE_N]
    if kind == K_DRAW:
        return -w[W_DRAW] * view[V_DRAW]
    if kind == K_PEEK:
        return -0.5 * w[W_DRAW] * view[V_DRAW]
    if kind == K_MISS:
        return -w[W_MISS]
    return 0.0


@njit(SIG, cache=True)
def weighted_play(moves, n, view, params):
    """The option with the highest weighted score (first one on ties)."""
    best = 0
    top = move_score(moves, 0, view, params)
    for i in range(1, n):
        s = move_score(moves, i, view, params)
        if s > top:
            top = s
            best = i
    return best


@njit(SIG, cache=True)
def weighted_setup(moves, n, view, params):
    return best_swap(moves, n, params[W_SWAP])


REGISTRY.register(Strategy(
    "weighted", SEATS, (weighted_play, weighted_setup, fewest_choose),
    "scores every option: cards shed, minus the value of monsters and the cost of dragons spent, plus "
    "bonuses for burning and for 4s, 5s, 3s and 6s; costs per card taken or drawn and for a missed turn",
    WEIGHTS,
    (1.0, 0.15, 2.5, 2.0, 0.3, 0.3, 0.2, 0.2, 5.0, 0.6, 0.6, 0.5, 0.0),
    ((0.0, 3.0), (0.0, 1.0), (0.0, 6.0), (-2.0, 6.0), (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0),
     (-2.0, 10.0), (0.0, 3.0), (0.0, 3.0), (0.0, 3.0), (-3.0, 6.0))))
