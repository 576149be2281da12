"""Drako kernel, part 1: the work array's primitives every rule uses.

Unchecked loads and stores, the machine's phases and question codes, the game's random stream, the
trace, small accessors of the card table and the board geometry, the pending decision's rows, the
end of a game and the invariants of check mode. The layout of `w` is in records.py; kernel.py says
how the parts fit together.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

from sim.engine.kernel_rows import put_row
from sim.engine.rng import mix
from sim.games.drako.records import (
    AREA_ARMOUR, C_DECK_D, C_HAND_LIMIT, C_HEXES, C_NTYPES_D, CARD_SYM0, CARD_SYM1, DWARVES,
    END_OUT_OF_CARDS, EV_PLAY, FIG_DRAGON, MAX_TYPES, N_SYM, OPT_WIDTH, R_CARD, R_NOPTS, R_OPT, R_PHASE,
    R_ROW, S_ACAP, S_AREA, S_CAP, S_DECK_LEN, S_DECK_N, S_DECK_TOP, S_END, S_GONE, S_HAND, S_HAND_N,
    S_OVER, S_POS, S_RNG, S_SIDE, S_SYM, S_WINNER, S_WOUND, W_BOARD, W_CARDS, W_GEO, W_GEO_COLS, W_GONE,
    W_OPTS, W_SRNG, W_ST, W_TOVER, W_TRACING, W_TROW, WIN_DRAGON,
)

FAST = dict(cache=True, _nrt=False)


# ---- unchecked access for the hottest helpers ---------------------------------------------------
# numba treats every signed index as possibly negative and adds a wrap-around test to each access.
# Every index into `w` is a non-negative offset, so the few helpers that run in every decision
# use these two instead: a plain load and a plain store.


@intrinsic
def get(typingctx, arr, idx):
    def codegen(context, builder, sig, args):
        a = make_array(sig.args[0])(context, builder, args[0])
        return builder.load(builder.gep(a.data, [args[1]]))
    return arr.dtype(arr, idx), codegen


@intrinsic
def put(typingctx, arr, idx, val):
    def codegen(context, builder, sig, args):
        a = make_array(sig.args[0])(context, builder, args[0])
        v = context.cast(builder, args[2], sig.args[2], sig.args[0].dtype)
        builder.store(v, builder.gep(a.data, [args[1]]))
        return context.get_dummy_value()
    return types.void(arr, idx, val), codegen


@njit(**FAST)
def add(w, i, v):
    put(w, i, get(w, i) + v)


# ---- machine phases (where `next_question` resumes) ----------------------------------------------
(PH_MULLIGAN, PH_MULLIGAN_ANS, PH_PLACE, PH_PLACE_ANS, PH_TURN, PH_ACTION,
 PH_MAIN_ANS, PH_DISCARD, PH_DISCARD_ANS, PH_DRAGON_MOVE_ANS, PH_VICTIM_ANS, PH_FIRE_ANS,
 PH_FIRE_NEXT, PH_DWARF_MOVE_ANS, PH_DWARF_MOVE2_ANS, PH_ATTACK_DWARF, PH_BLOCK_DWARF_ANS,
 PH_ATTACK_DRAGON, PH_BLOCK_DRAGON_ANS, PH_WOUND, PH_WOUND_ANS, PH_AFTER_DRAGON_HIT,
 PH_ACTION_END, PH_OVER, PH_ATTACKERS_ANS) = range(25)
GAME_OVER = -1
NO_QUESTION = -2


# ---- the game's random stream ------------------------------------------------------------------
# xorshift64* in the state vector (the algorithm of sim.engine.rng, on a cell of `w`): seeded from
# (seed, game index), so a game's deal and its strategies' draws depend on nothing else.
RNG_MUL = np.uint64(0x2545F4914F6CDD1D)


@njit(**FAST)
def deal_seed(w, seed, game):
    w[W_ST + S_RNG] = np.int64(mix(seed, game))


SEARCH_SEED = 0x5EA2C4  # mixed into the batch seed: the search player's stream (kernel_search) differs from the game's


@njit(**FAST)
def search_seed(w, seed, game):
    """The search player's stream of game `game` of a batch from `seed` (here, not in kernel_search: the plain
    batch types this call, which it never makes, and kernel_search compiles only when a run searches)."""
    w[W_SRNG] = np.int64(mix(seed ^ SEARCH_SEED, game))


@njit(**FAST)
def deal_below(w, m):
    x = np.uint64(w[W_ST + S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    w[W_ST + S_RNG] = np.int64(x)
    return np.int64((((x * RNG_MUL) >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


# ---- trace ------------------------------------------------------------------------------------


@njit(**FAST)
def emit(w, tr, code, a, b, c, d, e, f, g):
    """Append one event row when this game is traced; flag an overflow instead of writing past."""
    if get(w, W_TRACING) == 0:
        return
    r = get(w, W_TROW)
    if r >= tr.shape[0]:
        put(w, W_TOVER, 1)
        return
    put_row(tr, r, (code, a, b, c, d, e, f, g))
    put(w, W_TROW, r + 1)


@njit(**FAST)
def played(w, tr, side, a, b, c, d):
    """The event of the card being played (w's R_CARD and R_OPT) with what it was played on."""
    emit(w, tr, EV_PLAY, side, w[W_ST + R_CARD], w[W_ST + R_OPT], a, b, c, d)


# ---- small accessors --------------------------------------------------------------------------


@njit(**FAST)
def card(w, side, t, field):
    return get(w, W_CARDS + (side * MAX_TYPES + t) * 5 + field)


@njit(**FAST)
def has_symbol(w, side, t, sym):
    return card(w, side, t, CARD_SYM0) == sym or card(w, side, t, CARD_SYM1) == sym


@njit(**FAST)
def neighbour(w, h, d):
    return get(w, W_GEO + (2 * get(w, C_HEXES) + h) * get(w, W_GEO_COLS) + d)


@njit(**FAST)
def dist(w, a, b):
    return get(w, W_GEO + a * get(w, W_GEO_COLS) + b)


@njit(**FAST)
def area_open(w, area):
    return get(w, W_ST + S_AREA + area) < get(w, W_ST + S_ACAP + area)


@njit(**FAST)
def set_row(w, i, a, b, c, d, e, f, g, h):
    put(w, W_OPTS + i * OPT_WIDTH + 0, a)
    put(w, W_OPTS + i * OPT_WIDTH + 1, b)
    put(w, W_OPTS + i * OPT_WIDTH + 2, c)
    put(w, W_OPTS + i * OPT_WIDTH + 3, d)
    put(w, W_OPTS + i * OPT_WIDTH + 4, e)
    put(w, W_OPTS + i * OPT_WIDTH + 5, f)
    put(w, W_OPTS + i * OPT_WIDTH + 6, g)
    put(w, W_OPTS + i * OPT_WIDTH + 7, h)


@njit(**FAST)
def take_row(w, i):
    for k in range(OPT_WIDTH):
        put(w, W_ST + R_ROW + k, get(w, W_OPTS + i * OPT_WIDTH + k))


@njit(**FAST)
def ask(w, side, slot, kind, n, answer_phase):
    """Leave a question for `side`; a single option is taken at once (NO_QUESTION)."""
    w[W_ST + R_PHASE] = answer_phase
    if n == 1:
        take_row(w, 0)
        return NO_QUESTION
    w[W_ST + R_NOPTS] = n
    w[W_ST + S_SIDE] = side
    return (side * 4 + slot) * 16 + kind


# ---- ending -----------------------------------------------------------------------------------


@njit(**FAST)
def finish(w, winner, mode):
    if w[W_ST + S_OVER] == 0:
        w[W_ST + S_OVER] = 1
        w[W_ST + S_WINNER] = winner
        w[W_ST + S_END] = mode


@njit(**FAST)
def dwarves_out(w):
    """The dwarves lose the moment their hand and deck are both empty."""
    if w[W_ST + S_OVER] == 0 and w[W_ST + S_HAND_N + DWARVES] == 0 and w[W_ST + S_DECK_N + DWARVES] == 0:
        finish(w, WIN_DRAGON, END_OUT_OF_CARDS)


# ---- invariants (check mode) ------------------------------------------------------------------


@njit(**FAST)
def violations(w):
    """Count broken invariants: cards conserved, hands consistent, figures apart, wounds in range."""
    bad = 0
    for side in range(2):
        hand_sum = 0
        for t in range(w[C_NTYPES_D + side]):
            h = w[W_ST + S_HAND + side * MAX_TYPES + t]
            hand_sum += h
            if h < 0 or h + w[W_GONE + side * MAX_TYPES + t] > card(w, side, t, 0):
                bad += 1
        if hand_sum != w[W_ST + S_HAND_N + side] or w[W_ST + S_HAND_N + side] > w[C_HAND_LIMIT]:
            bad += 1
        if w[W_ST + S_DECK_N + side] != w[W_ST + S_DECK_LEN + side] - w[W_ST + S_DECK_TOP + side]:
            bad += 1
        held = w[W_ST + S_HAND_N + side] + w[W_ST + S_DECK_N + side]
        if held + w[W_ST + S_GONE + side] != w[C_DECK_D + side]:
            bad += 1
        for s in range(N_SYM):
            if w[W_ST + S_SYM + side * N_SYM + s] < 0:
                bad += 1
    seen = 0
    for f in range(4):
        p = w[W_ST + S_POS + f]
        if w[W_ST + S_WOUND + f] < 0 or w[W_ST + S_WOUND + f] > w[W_ST + S_CAP + f]:
            bad += 1
        if p >= 0:
            seen += 1
            if p >= w[C_HEXES] or w[W_BOARD + p] != f or w[W_ST + S_WOUND + f] >= w[W_ST + S_CAP + f]:
                bad += 1
        elif w[W_ST + S_WOUND + f] != w[W_ST + S_CAP + f]:
            bad += 1
    occupied = 0
    for h in range(w[C_HEXES]):
        if w[W_BOARD + h] >= 0:
            occupied += 1
    if occupied != seen:
        bad += 1
    total = 0
    for a in range(4):
        if w[W_ST + S_AREA + a] < 0 or w[W_ST + S_AREA + a] > w[W_ST + S_ACAP + a]:
            bad += 1
        total += w[W_ST + S_AREA + a]
    if total != w[W_ST + S_WOUND + FIG_DRAGON]:
        bad += 1
    if total > w[W_ST + S_AREA + AREA_ARMOUR] and area_open(w, AREA_ARMOUR):
        bad += 1
    return bad
