"""Helpers the built-in Drako strategies share: reading the board and hands from the state vector,
what a card is worth, the common picks, and the game's random stream (`draw`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.drako.records import (
    AREA_FLIGHT, A_DRAW, A_DUD, A_ESCAPE, DRAGON, FIG_ARCHER, FIG_FURY, FIG_NET, SYM_ATTACK,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT, SYM_NET, SYM_NONE, S_CAP, S_DECK_N,
    S_DRAW_COUNT, S_HAND_LIMIT, S_HAND_N, S_POS, S_RNG, S_WOUND,
)

FAST = dict(cache=True, _nrt=False)
NEG = -1.0e9

@njit(**FAST)
def n_hexes(geo):
    return geo.shape[0] // 3


@njit(**FAST)
def in_line(geo, a, b):
    return geo[n_hexes(geo) + a, b] >= 0


@njit(**FAST)
def left(st, f):
    """Wound spaces a figure still has."""
    return st[S_CAP + f] - st[S_WOUND + f]


@njit(**FAST)
def dwarves_next_to(st, geo, h, skip):
    n = 0
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and f != skip and geo[h, p] == 1:
            n += 1
    return n


@njit(**FAST)
def nearest_dwarf(st, geo, h):
    best = 1000
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and geo[h, p] < best:
            best = geo[h, p]
    return best


@njit(**FAST)
def weakest_dwarf(st):
    """The living dwarf closest to death (the archer wins ties: it is the one that shoots)."""
    best, who = 1000, -1
    for f in (FIG_ARCHER, FIG_NET, FIG_FURY):
        if st[S_POS + f] >= 0 and left(st, f) < best:
            best, who = left(st, f), f
    return who


@njit(**FAST)
def archer_aims_at(st, geo, h):
    a = st[S_POS + FIG_ARCHER]
    return a >= 0 and a != h and in_line(geo, a, h)


@njit(**FAST)
def card_worth(s0, v0, s1, v1, defense):
    """Rough worth of a card for keeping it: its better option, Defense counted as `defense`."""
    best = 0.0
    for k in range(2):
        s = s0 if k == 0 else s1
        v = v0 if k == 0 else v1
        if s == SYM_NONE:
            continue
        if s == SYM_DEFENSE:
            x = defense
        elif s == SYM_ATTACK or s == SYM_FIRE or s == SYM_CROSSBOW:
            x = 1.0 + v
        elif s == SYM_ATTACK_TWO:
            x = 1.5 + v
        elif s == SYM_NET:
            x = 3.0
        elif s == SYM_FLIGHT:
            x = 1.5
        else:
            x = 0.5 + 0.5 * v
        if x > best:
            best = x
    return best


@njit(**FAST)
def cheapest_block(opts, n):
    """Among block rows, the card whose other option is worth least (pure Defense first)."""
    best, pick = 1.0e9, 0
    for i in range(1, n):
        x = card_worth(opts[i, 5], opts[i, 6], SYM_NONE, 0, 0.0)
        if x < best:
            best, pick = x, i
    return pick


@njit(**FAST)
def worst_card(opts, n, defense):
    """Discard / throw-away: the card kind worth least (rows of K_DISCARD)."""
    best, pick = 1.0e9, 0
    for i in range(n):
        x = card_worth(opts[i, 2], opts[i, 3], opts[i, 4], opts[i, 5], defense)
        if x < best:
            best, pick = x, i
    return pick


@njit(**FAST)
def dud_score(opts, i, defense):
    """A throw-away (no legal action): the least valuable card goes."""
    return -50.0 - card_worth(opts[i, 3], opts[i, 4], opts[i, 6], opts[i, 7], defense)


@njit(**FAST)
def argmax_area(opts, n, p, at):
    """Wound placement: the open area with the highest weight p[at + area - 1]."""
    best, pick = NEG, 0
    for i in range(n):
        x = p[at + opts[i, 0] - AREA_FLIGHT]
        if x > best:
            best, pick = x, i
    return pick


@njit(**FAST)
def keep_defense_cost(row_other, weight):
    return weight if row_other == SYM_DEFENSE else 0.0


@njit(**FAST)
def draw_score(st, side, hand_target, discard_cost):
    """Wanting cards up to `hand_target`; a draw past the hand limit throws cards away, which
    costs `discard_cost` a card (cycling the deck for better cards can be worth it)."""
    hand = st[S_HAND_N + side]
    got = min(st[S_DRAW_COUNT], st[S_DECK_N + side])
    over = hand + got - st[S_HAND_LIMIT]
    x = hand_target - hand
    if over > 0:
        x -= discard_cost * over
    return x


@njit(**FAST)
def dragon_other(st, opts, i, hand_target, draw_bonus, escape, defense):
    """The dragon's worth of a main-action row that plays no card (draw, escape, throw-away, pass)."""
    a = opts[i, 0]
    if a == A_DRAW:
        return draw_score(st, DRAGON, hand_target, 0.0) + draw_bonus
    if a == A_ESCAPE:
        return escape
    if a == A_DUD:
        return dud_score(opts, i, defense)
    return -50.0


@njit(**FAST)
def weakest_victim(opts, n, st):
    """A claw: the row of the dwarf with the fewest wound spaces left."""
    best, pick = 1000, 0
    for i in range(n):
        x = left(st, opts[i, 0])
        if x < best:
            best, pick = x, i
    return pick


@njit(**FAST)
def widest_fire(opts, n):
    """A breath of fire: the row of the line with the most dwarves on it."""
    best, pick = -1, 0
    for i in range(n):
        if opts[i, 1] > best:
            best, pick = opts[i, 1], i
    return pick


# ---- random ---------------------------------------------------------------------------------------


@njit(**FAST)
def draw(st, n):
    """A uniform integer in [0, n) from the game's own stream (sim.engine.rng's xorshift64*)."""
    x = np.uint64(st[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[S_RNG] = np.int64(x)
    return np.int64((((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
