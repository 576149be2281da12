"""Drako's numba kernel: plays whole batches of games and keeps each game's final state.

The rules run as a resumable state machine: `advance` plays on until some side has to choose,
leaves the choices as rows in `opts` and returns who must answer; the batch loop calls that side's
strategy function and writes the chosen row back into the state. Only the batch loop ever holds
the strategy functions.

A game lives in one int64 work array `w` (offsets in records.py): configuration, board, decks,
card table, scratch, and three blocks the strategies see as arrays of their own:
    st    w[W_ST:]    int64[N_STATE]         state vector, counters, machine registers
    opts  w[W_OPTS:]  int64[MAX_OPTS, 8]     rows of the pending decision
    geo   w[W_GEO:]   int64[3H, max(H, 6)]   distances, shared-line directions, neighbours
plus the trace rows `tr`. The rules index `w` directly and pass only `w` (and `tr`) around:
passing each array would push dozens of words per call, and rebuilding views costs more than it
saves. The views are made once per batch, for the strategies. Everything is compiled without
reference counting (`_nrt=False`): nothing here allocates, and skipping the atomic counts on
array arguments is a large part of the speed. Each game has its own random stream seeded by
(seed, game index): it deals first, so game i gets the same decks whatever the strategies do, and
strategies that draw from it (rather than from np.random) make the whole game repeatable on its
own. Lineups, rule variants and match legs are compared on the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

from sim.engine.rng import mix
from strategies import drako as builtin
from sim.games.drako.records import (
    AREA_ARMOUR, AREA_FIRE, AREA_FLIGHT, AREA_MOVE, A_DRAW, A_DUD, A_ESCAPE, A_FURY, A_PASS, A_PLAY,
    CARD_SYM0, CARD_SYM1, CARD_VAL0, CARD_VAL1, C_ACAP, C_ACTIONS, C_CAP, C_CHECK, C_CROSSBOW_MIN,
    C_DECK_D, C_DRAGON_START, C_DRAW, C_FIRE_NEEDS_TARGET, C_FIRE_RANGE, C_FIRST_ACTIONS,
    C_FREE_PLACEMENT, C_FURY_ACTIONS, C_FURY_LETHAL, C_FURY_WOUND, C_HAND_LIMIT, C_HEXES,
    C_MULLIGAN, C_NET_STAYS, C_NTYPES_D, C_OPENING, C_START, C_STUCK_DISCARD, C_THROUGH, C_TURN_CAP,
    DECISION_FN, DRAGON, DWARVES, END_DRAGON_SLAIN, END_DWARVES_SLAIN, END_OUT_OF_CARDS,
    END_STALEMATE, EV_ATTACK, EV_BLOCK, EV_DECK, EV_DISCARD, EV_DRAW, EV_DUD, EV_END, EV_ESCAPE,
    EV_FURY, EV_KILL, EV_MULLIGAN, EV_PASS, EV_PLACE, EV_PLAY, EV_TURN, EV_WOUND, FIG_ARCHER,
    FIG_DRAGON, FIG_FURY, FIG_NET, F_ACT, F_REACT, F_SETUP, F_TARGET, K_BLOCK, K_DISCARD,
    K_DRAGON_MOVE, K_DWARF_MOVE, K_DWARF_MOVE2, K_FIRE, K_FLIGHT, K_MAIN, K_MULLIGAN, K_PLACE,
    K_VICTIM, K_WOUND, MAX_DECK, MAX_HEX, MAX_OPTS, MAX_TYPES, N_STATE, N_SYM, OPT_WIDTH, OUT_SLOTS,
    R_ATTACKER, R_CARD, R_FIRE_DIR, R_FIRE_K, R_INDEX, R_IN_FIRE, R_MOVER, R_MOVE_FIG,
    R_MOVE_HEX, R_NOPTS, R_OPT, R_PHASE, R_ROW, R_SECOND, R_SYM, R_TARGET, R_USED, R_VAL,
    R_WOUNDS_LEFT, SYM_ATTACK, SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT,
    SYM_MOVE, SYM_MOVE_TWO, SYM_NET, SYM_NONE, S_ACAP, S_ACTIONS, S_AREA, S_CAP, S_DECK_LEN,
    S_DECK_N, S_DECK_TOP, S_DRAW_COUNT, S_END, S_FURY_NOW, S_FURY_USED, S_GONE, S_HAND,
    S_HAND_LIMIT, S_HAND_MASK, S_HAND_N, S_NETTED, S_OVER, S_POS, S_RNG, S_SIDE, S_SYM, S_TURN,
    S_TURN_ACTIONS, S_WINNER, S_WOUND, T_ATTACKS, T_BAD_CHOICES, T_BLOCKED, T_DISCARDS, T_DRAWS,
    T_DUDS, T_ESCAPES, T_FURY_TURN, T_FURY_WOUNDS, T_MULLIGANS, T_NET_TURNS, T_PASSES, T_USE,
    T_VIOLATIONS, T_WOUNDS_DRAGON, T_WOUNDS_DWARVES, WIN_DRAGON, WIN_DWARVES, WIN_NOBODY, W_BOARD,
    W_CARDS, W_DECKS, W_GEO, W_GEO_COLS, W_GEO_ROWS, W_GONE, W_OPTS, W_RING2, W_SCR, W_ST, W_TOVER,
    W_TRACING, W_TROW, W_RAY_AT,
    C_ATT_CHOSEN, C_FIRE_FAR, C_MULL_FIRST, C_SIMUL, K_ATTACKERS, R_FIRE_J, R_HIT, R_NHIT, R_PEND, R_PW,
    S_NET_BLOWS, T_F_ATTACKERS, T_F_CROSSBOW_MIN, T_F_FIRE_ORDER, T_F_FIRE_TARGET, T_F_FURY_LETHAL,
    T_F_MULL_FIRST, T_F_NET_STAYS, T_F_PLACED, T_F_SIMUL, T_F_STUCK, T_F_THROUGH, T_NET_LAST,
    T_NET_UNSTRUCK,
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


# ---- machine phases (where `advance` resumes) --------------------------------------------------
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
_MUL = np.uint64(0x2545F4914F6CDD1D)


@njit(**FAST)
def deal_seed(w, seed, game):
    w[W_ST + S_RNG] = np.int64(mix(seed, game))


@njit(**FAST)
def deal_below(w, m):
    x = np.uint64(w[W_ST + S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    w[W_ST + S_RNG] = np.int64(x)
    return np.int64((((x * _MUL) >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


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
    tr[r, 0] = code
    tr[r, 1] = a
    tr[r, 2] = b
    tr[r, 3] = c
    tr[r, 4] = d
    tr[r, 5] = e
    tr[r, 6] = f
    tr[r, 7] = g
    put(w, W_TROW, r + 1)


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


# ---- hands and decks --------------------------------------------------------------------------


@njit(**FAST)
def hand_add(w, side, t):
    add(w, W_ST + S_HAND + side * MAX_TYPES + t, 1)
    put(w, W_ST + S_HAND_MASK + side, get(w, W_ST + S_HAND_MASK + side) | 1 << t)
    add(w, W_ST + S_HAND_N + side, 1)
    s0 = card(w, side, t, CARD_SYM0)
    s1 = card(w, side, t, CARD_SYM1)
    add(w, W_ST + S_SYM + side * N_SYM + s0, 1)
    if s1 != SYM_NONE and s1 != s0:
        add(w, W_ST + S_SYM + side * N_SYM + s1, 1)


@njit(**FAST)
def hand_take(w, side, t):
    """A card leaves the hand for good (played, blocked with, discarded)."""
    add(w, W_ST + S_HAND + side * MAX_TYPES + t, -1)
    if get(w, W_ST + S_HAND + side * MAX_TYPES + t) == 0:
        put(w, W_ST + S_HAND_MASK + side, get(w, W_ST + S_HAND_MASK + side) & ~(1 << t))
    add(w, W_ST + S_HAND_N + side, -1)
    add(w, W_ST + S_GONE + side, 1)
    add(w, W_GONE + side * MAX_TYPES + t, 1)
    s0 = card(w, side, t, CARD_SYM0)
    s1 = card(w, side, t, CARD_SYM1)
    add(w, W_ST + S_SYM + side * N_SYM + s0, -1)
    if s1 != SYM_NONE and s1 != s0:
        add(w, W_ST + S_SYM + side * N_SYM + s1, -1)


@njit(**FAST)
def shuffle_deck(w, tr, side):
    """Lay out a side's whole deck and shuffle it (Fisher-Yates on the deal generator)."""
    base = W_DECKS + side * MAX_DECK
    k = 0
    for t in range(w[C_NTYPES_D + side]):
        for _ in range(card(w, side, t, 0)):
            w[base + k] = t
            k += 1
    # deal_below's draws with the generator's state in a register (stored back once)
    x = np.uint64(w[W_ST + S_RNG])
    for i in range(k - 1, 0, -1):
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        j = np.int64((((x * _MUL) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        c = get(w, base + i)
        put(w, base + i, get(w, base + j))
        put(w, base + j, c)
    w[W_ST + S_RNG] = np.int64(x)
    w[W_ST + S_DECK_TOP + side] = 0
    w[W_ST + S_DECK_LEN + side] = k
    w[W_ST + S_DECK_N + side] = k
    for i in range(k):
        emit(w, tr, EV_DECK, side, i, w[base + i], 0, 0, 0, 0)


@njit(**FAST)
def draw_cards(w, side, count):
    """Take up to `count` cards from the top of the deck; returns how many came."""
    got = 0
    while got < count and get(w, W_ST + S_DECK_N + side) > 0:
        top = get(w, W_ST + S_DECK_TOP + side)
        hand_add(w, side, get(w, W_DECKS + side * MAX_DECK + top))
        put(w, W_ST + S_DECK_TOP + side, top + 1)
        add(w, W_ST + S_DECK_N + side, -1)
        got += 1
    return got


# ---- the board --------------------------------------------------------------------------------


@njit(**FAST)
def place(w, f, h):
    old = get(w, W_ST + S_POS + f)
    if old >= 0:
        put(w, W_BOARD + old, -1)
    put(w, W_ST + S_POS + f, h)
    if h >= 0:
        put(w, W_BOARD + h, f)


@njit(**FAST)
def reach(w, start, steps, out_at):
    """Hexes a figure on `start` can stop on within `steps` steps (start included), written at
    w[out_at:]; returns how many. Occupied hexes are never a destination and never a way
    through, unless the move_through_figures flag is on."""
    if steps <= 2:
        return reach_near(w, start, steps, out_at)
    h_count = w[C_HEXES]
    through = w[C_THROUGH] == 1
    depth = W_SCR
    queue = W_SCR + MAX_HEX
    for i in range(h_count):
        w[depth + i] = -1
    w[depth + start] = 0
    w[queue] = start
    head, tail, k = 0, 1, 0
    w[out_at] = start
    k += 1
    met = 0
    while head < tail:
        h = w[queue + head]
        head += 1
        dd = w[depth + h]
        if dd >= steps:
            continue
        for d in range(6):
            nb = neighbour(w, h, d)
            if nb < 0 or w[depth + nb] >= 0:
                continue
            busy = w[W_BOARD + nb] >= 0
            if busy and dd + 1 < steps:
                met = 1           # a figure stands where a longer walk could pass
            if busy and not through:
                continue
            w[depth + nb] = dd + 1
            w[queue + tail] = nb
            tail += 1
            if not busy:
                w[out_at + k] = nb
                k += 1
    w[W_ST + T_F_THROUGH] += met
    return k


@njit(**FAST)
def reach_near(w, start, steps, out_at):
    """`reach` for one or two steps, from the neighbour table and the two-step table (each hex
    two steps away with the one or two hexes a walk can pass through)."""
    through = get(w, C_THROUGH) == 1
    k = 1
    put(w, out_at, start)
    if steps <= 0:
        return k
    for d in range(6):
        nb = neighbour(w, start, d)
        if nb >= 0 and get(w, W_BOARD + nb) < 0:
            put(w, out_at + k, nb)
            k += 1
    if steps == 1:
        return k
    at = W_RING2 + start * 36
    met = 0
    for i in range(12):
        h = get(w, at + 3 * i)
        if h < 0:
            break
        if get(w, W_BOARD + h) >= 0:
            continue
        a, b = get(w, at + 3 * i + 1), get(w, at + 3 * i + 2)
        open_way = get(w, W_BOARD + a) < 0 or (b >= 0 and get(w, W_BOARD + b) < 0)
        if not open_way:
            met = 1               # reachable only through a figure: the flag decides
        if through or open_way:
            put(w, out_at + k, h)
            k += 1
    add(w, W_ST + T_F_THROUGH, met)
    return k


@njit(**FAST)
def fire_hits(w, start, d):
    """Dwarves on the fire line from `start` in direction d."""
    n = 0
    h = start
    k = 0
    rng = get(w, C_FIRE_RANGE)
    while rng == 0 or k < rng:
        h = neighbour(w, h, d)
        if h < 0:
            break
        k += 1
        if get(w, W_BOARD + h) > FIG_DRAGON:
            n += 1
    return n


@njit(**FAST)
def fire_dirs(w, g):
    """For each dwarf, the direction of the fire line from hex g that reaches it (within the fire
    range), or -1 (not on one, or dead): fire_hits(w, g, d) is how many of the three equal d."""
    ray = get(w, W_RAY_AT) + g * get(w, C_HEXES)
    q1, q2, q3 = get(w, W_ST + S_POS + 1), get(w, W_ST + S_POS + 2), get(w, W_ST + S_POS + 3)
    # q >> 63 is -1 for a dead dwarf (position -1), which the | turns into "no line"
    r1 = get(w, ray + max(q1, 0)) | (q1 >> 63)
    r2 = get(w, ray + max(q2, 0)) | (q2 >> 63)
    r3 = get(w, ray + max(q3, 0)) | (q3 >> 63)
    return r1, r2, r3


@njit(**FAST)
def crossbow_clear(w):
    """The archer shares a straight line with the dragon, far enough, with no figure between."""
    a = w[W_ST + S_POS + FIG_ARCHER]
    g = w[W_ST + S_POS + FIG_DRAGON]
    if a < 0 or g < 0:
        return False
    d = w[W_GEO + (w[C_HEXES] + a) * w[W_GEO_COLS] + g]
    if d < 0 or dist(w, a, g) < w[C_CROSSBOW_MIN]:
        return False
    h = a
    while True:
        h = neighbour(w, h, d)
        if h < 0:
            return False
        if h == g:
            return True
        if w[W_BOARD + h] >= 0:
            return False


@njit(**FAST)
def adjacent_dwarves(w):
    g = get(w, W_ST + S_POS + FIG_DRAGON)
    n = 0
    for f in range(1, 4):
        p = get(w, W_ST + S_POS + f)
        if p >= 0 and dist(w, g, p) == 1:
            n += 1
    return n


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


# ---- wounds -----------------------------------------------------------------------------------


@njit(**FAST)
def wound_dwarf(w, tr, f, value, by_dragon):
    room = w[W_ST + S_CAP + f] - w[W_ST + S_WOUND + f]
    m = value if value < room else room
    w[W_ST + S_WOUND + f] += m
    if by_dragon:
        w[W_ST + T_WOUNDS_DWARVES] += m
    else:
        w[W_ST + T_FURY_WOUNDS] += m
    emit(w, tr, EV_WOUND, f, 0, m, 0, 0, 0, 0)
    if w[W_ST + S_WOUND + f] >= w[W_ST + S_CAP + f]:
        place(w, f, -1)
        emit(w, tr, EV_KILL, f, 0, 0, 0, 0, 0, 0)
        if f == FIG_NET and w[W_ST + S_NETTED] == 1:
            w[W_ST + T_F_NET_STAYS] += 1
            if w[C_NET_STAYS] == 0:
                w[W_ST + S_NETTED] = 0
        if w[W_ST + S_POS + 1] < 0 and w[W_ST + S_POS + 2] < 0 and w[W_ST + S_POS + 3] < 0:
            finish(w, WIN_DRAGON, END_DWARVES_SLAIN)


@njit(**FAST)
def mark_dragon(w, tr, area):
    w[W_ST + S_AREA + area] += 1
    w[W_ST + S_WOUND + FIG_DRAGON] += 1
    w[W_ST + T_WOUNDS_DRAGON] += 1
    emit(w, tr, EV_WOUND, FIG_DRAGON, area, 1, 0, 0, 0, 0)
    if w[W_ST + S_WOUND + FIG_DRAGON] >= w[W_ST + S_CAP + FIG_DRAGON]:
        place(w, FIG_DRAGON, -1)
        emit(w, tr, EV_KILL, FIG_DRAGON, 0, 0, 0, 0, 0, 0)
        finish(w, WIN_DWARVES, END_DRAGON_SLAIN)


@njit(**FAST)
def fury_allowed(w):
    """Before the dwarves' first action, while Fury is unused and its dwarf can take the wound."""
    f = FIG_FURY
    return (w[W_ST + S_FURY_USED] == 0 and w[W_ST + S_POS + f] >= 0
            and w[W_ST + S_ACTIONS] == w[W_ST + S_TURN_ACTIONS]
            and (w[C_FURY_LETHAL] == 1
                 or w[W_ST + S_WOUND + f] + w[C_FURY_WOUND] < w[W_ST + S_CAP + f]))


@njit(**FAST)
def declare_fury(w, tr):
    w[W_ST + S_FURY_USED] = 1
    w[W_ST + S_FURY_NOW] = 1
    w[W_ST + T_FURY_TURN] = w[W_ST + S_TURN]
    emit(w, tr, EV_FURY, w[C_FURY_ACTIONS], 0, 0, 0, 0, 0, 0)
    if w[C_FURY_WOUND] > 0:
        wound_dwarf(w, tr, FIG_FURY, w[C_FURY_WOUND], False)
    w[W_ST + S_TURN_ACTIONS] = w[C_FURY_ACTIONS]
    w[W_ST + S_ACTIONS] = w[C_FURY_ACTIONS]


# ---- listing choices --------------------------------------------------------------------------
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(**FAST)
def lowest_bit(low):
    """Index of the single set bit of `low` (< 2**32), without a loop."""
    return _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]



@njit(**FAST)
def list_main(w, side):
    """Rows: action, card kind, option, symbol, value, ways, other symbol, other value."""
    n = 0
    if get(w, W_ST + S_DECK_N + side) > 0:
        set_row(w, n, A_DRAW, -1, -1, 0, 0, 0, 0, 0)
        n += 1
    if side == DRAGON:
        if (get(w, W_ST + S_NETTED) == 1 and get(w, W_ST + S_ACTIONS) == get(w, W_ST + S_TURN_ACTIONS)
                and get(w, W_ST + S_TURN_ACTIONS) >= 2):
            set_row(w, n, A_ESCAPE, -1, -1, 0, 0, 0, 0, 0)
            n += 1
    n_fury = 0
    if (side == DWARVES and get(w, W_ST + S_FURY_USED) == 0 and get(w, W_ST + S_POS + FIG_FURY) >= 0
            and get(w, W_ST + S_ACTIONS) == get(w, W_ST + S_TURN_ACTIONS)
            and get(w, W_ST + S_WOUND + FIG_FURY) + get(w, C_FURY_WOUND) >= get(w, W_ST + S_CAP + FIG_FURY)):
        add(w, W_ST + T_F_FURY_LETHAL, 1)         # Fury would kill its dwarf: the flag decides
    if side == DWARVES and fury_allowed(w):
        set_row(w, n, A_FURY, -1, -1, 0, 0, 0, 0, 0)
        n += 1
        n_fury = 1
    # ways of symbol s: how many ways each option can be used now (0 = not legal), six bits each in one
    # register (a scratch array read back right after it was written made each card wait on a store)
    n_adjacent = adjacent_dwarves(w)
    ways = n_adjacent << (6 * SYM_ATTACK)
    if side == DRAGON:
        if get(w, W_ST + S_NETTED) == 0:
            ways |= (1 if area_open(w, AREA_MOVE) else 0) << (6 * SYM_MOVE)
            ways |= (1 if area_open(w, AREA_FLIGHT) else 0) << (6 * SYM_FLIGHT)
        if get(w, W_ST + S_SYM + SYM_FIRE) > 0 and area_open(w, AREA_FIRE):
            # the most dwarves on one fire line: max over d of fire_hits(w, g, d)
            r1, r2, r3 = fire_dirs(w, get(w, W_ST + S_POS + FIG_DRAGON))
            best = max(max((r1 >= 0) * (1 + (r2 == r1) + (r3 == r1)), (r2 >= 0) * (1 + (r3 == r2))),
                       1 * (r3 >= 0))
            if best == 0:
                add(w, W_ST + T_F_FIRE_TARGET, 1)     # fire in hand, nobody in line: the flag decides
                if get(w, C_FIRE_NEEDS_TARGET) == 0:
                    best = 1      # an empty line is still a legal breath
            ways |= best << (6 * SYM_FIRE)
    else:
        ways |= (1 << (6 * SYM_MOVE)) | (1 << (6 * SYM_MOVE_TWO)) | (n_adjacent << (6 * SYM_ATTACK_TWO))
        if get(w, W_ST + S_SYM + N_SYM + SYM_CROSSBOW) > 0:
            if crossbow_clear(w):
                ways |= 1 << (6 * SYM_CROSSBOW)
            a = get(w, W_ST + S_POS + FIG_ARCHER)
            if a >= 0 and dist(w, a, get(w, W_ST + S_POS + FIG_DRAGON)) == 1:
                add(w, W_ST + T_F_CROSSBOW_MIN, 1)   # a shot from next to the dragon: the flag decides
        if get(w, W_ST + S_POS + FIG_NET) >= 0 and get(w, W_ST + S_NETTED) == 0:
            ways |= 1 << (6 * SYM_NET)
    hand = W_ST + S_HAND + side * MAX_TYPES
    # kinds in hand from the mask; rows are written whatever and kept only when legal (branch-free:
    # which cards are held is random, and mispredicted branches were this loop's main cost)
    m = get(w, W_ST + S_HAND_MASK + side)
    while m != 0:
        low = m & -m
        m ^= low
        t = lowest_bit(low)
        at = W_CARDS + (side * MAX_TYPES + t) * 5
        s0, v0 = get(w, at + CARD_SYM0), get(w, at + CARD_VAL0)
        s1, v1 = get(w, at + CARD_SYM1), get(w, at + CARD_VAL1)
        k = (ways >> (6 * s0)) & 63
        set_row(w, n, A_PLAY, t, 0, s0, v0, k, s1, v1)
        n += k > 0
        k = (ways >> (6 * s1)) & 63
        set_row(w, n, A_PLAY, t, 1, s1, v1, k, s0, v0)
        n += k > 0
    if n == n_fury:        # nothing to draw or play (Fury alone is no way out)
        if get(w, W_ST + S_HAND_N + side) > 0:
            add(w, W_ST + T_F_STUCK, 1)           # stuck with cards: the flag decides
        if get(w, W_ST + S_HAND_N + side) > 0 and get(w, C_STUCK_DISCARD) == 1:
            for t in range(get(w, C_NTYPES_D + side)):
                if get(w, hand + t) > 0:
                    at = W_CARDS + (side * MAX_TYPES + t) * 5
                    set_row(w, n, A_DUD, t, -1, get(w, at + CARD_SYM0), get(w, at + CARD_VAL0), 0,
                            get(w, at + CARD_SYM1), get(w, at + CARD_VAL1))
                    n += 1
        else:
            set_row(w, n, A_PASS, -1, -1, 0, 0, 0, 0, 0)
            n += 1
    return n


@njit(**FAST)
def list_dwarf_moves(w, value, skip):
    """Rows: dwarf figure, hex it can stop on (its own hex = not moving)."""
    n = 0
    out_at = W_SCR + 2 * MAX_HEX
    for f in range(1, 4):
        p = get(w, W_ST + S_POS + f)
        if p < 0 or f == skip:
            continue
        k = reach(w, p, value, out_at)
        for i in range(k):
            set_row(w, n, f, get(w, out_at + i), 0, 0, 0, 0, 0, 0)
            n += 1
    return n


@njit(**FAST)
def list_blocks(w, side, value, target, attacker):
    """Rows: block 0/1, card kind, attack value, target, attacker, the card's other symbol and
    value (none for a pure Defense card); no rows when the side holds no Defense."""
    if w[W_ST + S_SYM + side * N_SYM + SYM_DEFENSE] == 0:
        return 0
    set_row(w, 0, 0, -1, value, target, attacker, SYM_NONE, 0, 0)
    n = 1
    for t in range(w[C_NTYPES_D + side]):
        if w[W_ST + S_HAND + side * MAX_TYPES + t] > 0 and has_symbol(w, side, t, SYM_DEFENSE):
            other = card(w, side, t, CARD_SYM0)
            value_other = card(w, side, t, CARD_VAL0)
            if other == SYM_DEFENSE:
                other = card(w, side, t, CARD_SYM1)
                value_other = card(w, side, t, CARD_VAL1)
            set_row(w, n, 1, t, value, target, attacker, other, value_other, 0)
            n += 1
    return n


@njit(**FAST)
def list_hand(w, side):
    """Rows: card kind, copies in hand, symbol 1, value 1, symbol 2, value 2."""
    n = 0
    for t in range(w[C_NTYPES_D + side]):
        c = w[W_ST + S_HAND + side * MAX_TYPES + t]
        if c > 0:
            set_row(w, n, t, c, card(w, side, t, CARD_SYM0), card(w, side, t, CARD_VAL0),
                    card(w, side, t, CARD_SYM1), card(w, side, t, CARD_VAL1), 0, 0)
            n += 1
    return n


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


# ---- a game -----------------------------------------------------------------------------------


@njit(**FAST)
def start_game(w, tr, seed, game):
    """Reset the state, shuffle and deal; the machine then resumes at mulligans or placement."""
    w[W_ST:W_ST + N_STATE] = 0
    deal_seed(w, seed, game)
    for h in range(MAX_HEX):
        w[W_BOARD + h] = -1
    for i in range(2 * MAX_TYPES):
        w[W_GONE + i] = 0
    for f in range(4):
        w[W_ST + S_POS + f] = -1
        w[W_ST + S_CAP + f] = w[C_CAP + f]
    for a in range(4):
        w[W_ST + S_ACAP + a] = w[C_ACAP + a]
    w[W_ST + S_WINNER] = WIN_NOBODY
    w[W_ST + T_FURY_TURN] = -1
    w[W_ST + S_HAND_LIMIT] = w[C_HAND_LIMIT]
    w[W_ST + S_DRAW_COUNT] = w[C_DRAW]
    place(w, FIG_DRAGON, w[C_DRAGON_START])
    for side in range(2):
        shuffle_deck(w, tr, side)
        draw_cards(w, side, w[C_OPENING])
    w[W_ST + R_INDEX] = 0
    w[W_ST + R_PHASE] = PH_MULLIGAN if w[C_MULLIGAN] else PH_PLACE


@njit(**FAST)
def play_card(w, tr):
    """The chosen card leaves the hand; list its targets (or resolve it). Returns a question code."""
    side = w[W_ST + R_MOVER]
    t = w[W_ST + R_ROW + 1]
    o = w[W_ST + R_ROW + 2]
    sym = w[W_ST + R_ROW + 3]
    w[W_ST + R_CARD] = t
    w[W_ST + R_OPT] = o
    w[W_ST + R_SYM] = sym
    w[W_ST + R_VAL] = w[W_ST + R_ROW + 4]
    hand_take(w, side, t)
    w[W_ST + T_USE + side * N_SYM + sym] += 1
    g = w[W_ST + S_POS + FIG_DRAGON]
    if side == DRAGON:
        if sym == SYM_MOVE:
            out_at = W_SCR + 2 * MAX_HEX
            k = reach(w, g, w[W_ST + R_VAL], out_at)
            for i in range(k):
                set_row(w, i, w[out_at + i], 0, 0, 0, 0, 0, 0, 0)
            return ask(w, DRAGON, F_TARGET, K_DRAGON_MOVE, k, PH_DRAGON_MOVE_ANS)
        if sym == SYM_FLIGHT:
            n = 0
            for h in range(w[C_HEXES]):
                if w[W_BOARD + h] < 0:
                    set_row(w, n, h, 0, 0, 0, 0, 0, 0, 0)
                    n += 1
            return ask(w, DRAGON, F_TARGET, K_FLIGHT, n, PH_DRAGON_MOVE_ANS)
        if sym == SYM_ATTACK:
            n = 0
            for f in range(1, 4):
                p = w[W_ST + S_POS + f]
                if p >= 0 and dist(w, g, p) == 1:
                    set_row(w, n, f, 0, 0, 0, 0, 0, 0, 0)
                    n += 1
            return ask(w, DRAGON, F_TARGET, K_VICTIM, n, PH_VICTIM_ANS)
        # fire
        n = 0
        r1, r2, r3 = fire_dirs(w, g)
        for d in range(6):
            k = (r1 == d) + (r2 == d) + (r3 == d)       # fire_hits(w, g, d)
            first = neighbour(w, g, d)
            if k > 0 or (w[C_FIRE_NEEDS_TARGET] == 0 and first >= 0):
                set_row(w, n, d, k, first, 0, 0, 0, 0, 0)
                n += 1
        return ask(w, DRAGON, F_TARGET, K_FIRE, n, PH_FIRE_ANS)
    if sym == SYM_MOVE or sym == SYM_MOVE_TWO:
        n = list_dwarf_moves(w, w[W_ST + R_VAL], -1)
        return ask(w, DWARVES, F_TARGET, K_DWARF_MOVE, n, PH_DWARF_MOVE_ANS)
    if sym == SYM_NET:
        emit(w, tr, EV_PLAY, DWARVES, t, o, FIG_NET, 0, 0, 0)
        w[W_ST + S_NETTED] = 1
        w[W_ST + S_NET_BLOWS] = 0
        if w[W_ST + S_ACTIONS] == 1:
            w[W_ST + T_NET_LAST] += 1
        w[W_ST + R_PHASE] = PH_ACTION_END
        return NO_QUESTION
    # attacks on the dragon: who strikes never changes the wounds; with more adjacent dwarves than
    # the card lets strike, the dwarf player picks them (attackers_chosen) or the first found do
    first, second = -1, -1
    w[W_ST + R_PEND] = 0
    if sym == SYM_CROSSBOW:
        first = FIG_ARCHER
    else:
        a0, a1, a2, m = -1, -1, -1, 0
        for f in range(1, 4):
            p = w[W_ST + S_POS + f]
            if p >= 0 and dist(w, g, p) == 1:
                if m == 0:
                    a0 = f
                elif m == 1:
                    a1 = f
                else:
                    a2 = f
                m += 1
        need = 2 if sym == SYM_ATTACK_TWO else 1
        if m > need:
            w[W_ST + T_F_ATTACKERS] += 1
            if w[C_ATT_CHOSEN] == 1:
                if need == 1:
                    set_row(w, 0, a0, -1, 0, 0, 0, 0, 0, 0)
                    set_row(w, 1, a1, -1, 0, 0, 0, 0, 0, 0)
                    set_row(w, 2, a2, -1, 0, 0, 0, 0, 0, 0)
                else:
                    set_row(w, 0, a0, a1, 0, 0, 0, 0, 0, 0)
                    set_row(w, 1, a0, a2, 0, 0, 0, 0, 0, 0)
                    set_row(w, 2, a1, a2, 0, 0, 0, 0, 0, 0)
                return ask(w, DWARVES, F_TARGET, K_ATTACKERS, m if need == 1 else 3, PH_ATTACKERS_ANS)
        first = a0
        if need == 2:
            second = a1
            if a1 >= 0:
                w[W_ST + T_F_SIMUL] += 1
    emit(w, tr, EV_PLAY, DWARVES, t, o, first, second, 0, 0)
    w[W_ST + R_ATTACKER] = first
    w[W_ST + R_SECOND] = second
    w[W_ST + R_PHASE] = PH_ATTACK_DRAGON
    return NO_QUESTION


@njit(**FAST)
def on_attackers_ans(w, tr):
    """The dwarf player's pick of strikers."""
    first, second = w[W_ST + R_ROW], w[W_ST + R_ROW + 1]
    if second >= 0:
        w[W_ST + T_F_SIMUL] += 1
    emit(w, tr, EV_PLAY, DWARVES, w[W_ST + R_CARD], w[W_ST + R_OPT], first, second, 0, 0)
    w[W_ST + R_ATTACKER] = first
    w[W_ST + R_SECOND] = second
    w[W_ST + R_PHASE] = PH_ATTACK_DRAGON
    return NO_QUESTION


@njit(**FAST)
def on_mulligan(w, tr):
    """Offer each side in turn (dragon first) to exchange its opening hand."""
    q = NO_QUESTION
    if w[W_ST + R_INDEX] >= 2:
        w[W_ST + R_INDEX] = 0
        w[W_ST + R_PHASE] = PH_PLACE
        return q
    if w[W_ST + R_INDEX] == 0:
        w[W_ST + T_F_MULL_FIRST] += 1
    set_row(w, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    set_row(w, 1, 1, 0, 0, 0, 0, 0, 0, 0)
    q = ask(w, w[W_ST + R_INDEX] ^ w[C_MULL_FIRST], F_SETUP, K_MULLIGAN, 2, PH_MULLIGAN_ANS)
    return q


@njit(**FAST)
def on_mulligan_ans(w, tr):
    """An exchanged hand goes back into a freshly shuffled deck and a new one is dealt."""
    q = NO_QUESTION
    step = w[W_ST + R_INDEX]
    side = step ^ w[C_MULL_FIRST]
    if w[W_ST + R_ROW] == 1:
        for t in range(w[C_NTYPES_D + side]):
            w[W_ST + S_HAND + side * MAX_TYPES + t] = 0
        for s in range(N_SYM):
            w[W_ST + S_SYM + side * N_SYM + s] = 0
        w[W_ST + S_HAND_N + side] = 0
        w[W_ST + S_HAND_MASK + side] = 0
        w[W_ST + T_MULLIGANS + side] += 1
        emit(w, tr, EV_MULLIGAN, side, 0, 0, 0, 0, 0, 0)
        shuffle_deck(w, tr, side)
        draw_cards(w, side, w[C_OPENING])
    w[W_ST + R_INDEX] = step + 1
    w[W_ST + R_PHASE] = PH_MULLIGAN
    return q


@njit(**FAST)
def on_place(w, tr):
    """The dwarves' hexes: the first-game ones, or chosen one by one (not next to the dragon)."""
    q = NO_QUESTION
    i = w[W_ST + R_INDEX]
    if i >= 3:
        if w[C_CHECK]:
            w[W_ST + T_VIOLATIONS] += violations(w)
        w[W_ST + R_PHASE] = PH_TURN
        return q
    if w[C_FREE_PLACEMENT] == 0:
        h = w[C_START + i]
        place(w, 1 + i, h)
        emit(w, tr, EV_PLACE, 1 + i, h, 0, 0, 0, 0, 0)
        w[W_ST + R_INDEX] = i + 1
        return q
    g = w[W_ST + S_POS + FIG_DRAGON]
    n = 0
    for h in range(w[C_HEXES]):
        if w[W_BOARD + h] < 0 and dist(w, g, h) >= 2:
            set_row(w, n, h, 1 + i, 0, 0, 0, 0, 0, 0)
            n += 1
    q = ask(w, DWARVES, F_SETUP, K_PLACE, n, PH_PLACE_ANS)
    return q


@njit(**FAST)
def on_place_ans(w, tr):
    q = NO_QUESTION
    i = w[W_ST + R_INDEX]
    w[W_ST + T_F_PLACED] += 1
    place(w, 1 + i, w[W_ST + R_ROW])
    emit(w, tr, EV_PLACE, 1 + i, w[W_ST + R_ROW], 0, 0, 0, 0, 0)
    w[W_ST + R_INDEX] = i + 1
    w[W_ST + R_PHASE] = PH_PLACE
    return q


@njit(**FAST)
def on_turn(w, tr):
    """Begin the next turn (the dragon's on odd turns), or stop at the turn cap."""
    q = NO_QUESTION
    if w[W_ST + S_TURN] >= w[C_TURN_CAP]:
        finish(w, WIN_NOBODY, END_STALEMATE)
        return q
    w[W_ST + S_TURN] += 1
    turn = w[W_ST + S_TURN]
    side = DRAGON if turn % 2 == 1 else DWARVES
    w[W_ST + R_MOVER] = side
    w[W_ST + S_FURY_NOW] = 0
    actions = w[C_ACTIONS]
    if side == DRAGON and turn == 1:
        actions = w[C_FIRST_ACTIONS]
    emit(w, tr, EV_TURN, side, turn, actions, 0, 0, 0, 0)
    w[W_ST + S_TURN_ACTIONS] = actions
    w[W_ST + S_ACTIONS] = actions
    w[W_ST + R_PHASE] = PH_ACTION
    if side == DRAGON:
        if w[W_ST + S_NETTED]:
            w[W_ST + T_NET_TURNS] += 1
        if w[W_ST + S_HAND_N + DRAGON] == 0 and w[W_ST + S_DECK_N + DRAGON] == 0:
            w[W_ST + T_PASSES + DRAGON] += actions
            emit(w, tr, EV_PASS, DRAGON, 1, 0, 0, 0, 0, 0)
            w[W_ST + R_PHASE] = PH_TURN
    return q


@njit(**FAST)
def on_action(w, tr):
    """Ask the side on turn for its next action, or end the turn."""
    q = NO_QUESTION
    if w[W_ST + S_ACTIONS] <= 0:
        w[W_ST + R_PHASE] = PH_TURN
        return q
    side = w[W_ST + R_MOVER]
    n = list_main(w, side)
    q = ask(w, side, F_ACT, K_MAIN, n, PH_MAIN_ANS)
    return q


@njit(**FAST)
def on_main_ans(w, tr):
    """Carry out the chosen action."""
    q = NO_QUESTION
    side = w[W_ST + R_MOVER]
    action = w[W_ST + R_ROW]
    w[W_ST + R_USED] = 1
    w[W_ST + R_PHASE] = PH_ACTION_END
    if action == A_DRAW:
        got = draw_cards(w, side, w[C_DRAW])
        w[W_ST + T_DRAWS + side] += 1
        emit(w, tr, EV_DRAW, side, got, 0, 0, 0, 0, 0)
        w[W_ST + R_PHASE] = PH_DISCARD
    elif action == A_ESCAPE:
        w[W_ST + S_NETTED] = 0
        w[W_ST + T_ESCAPES] += 1
        if w[W_ST + S_NET_BLOWS] == 0:
            w[W_ST + T_NET_UNSTRUCK] += 1
        w[W_ST + R_USED] = w[W_ST + S_ACTIONS]
        emit(w, tr, EV_ESCAPE, 0, 0, 0, 0, 0, 0, 0)
    elif action == A_FURY:
        declare_fury(w, tr)
        w[W_ST + R_USED] = 0
    elif action == A_PASS:
        w[W_ST + T_PASSES + side] += 1
        emit(w, tr, EV_PASS, side, 0, 0, 0, 0, 0, 0)
    elif action == A_DUD:
        hand_take(w, side, w[W_ST + R_ROW + 1])
        w[W_ST + T_DUDS + side] += 1
        emit(w, tr, EV_DUD, side, w[W_ST + R_ROW + 1], 0, 0, 0, 0, 0)
    else:
        q = play_card(w, tr)
    return q


@njit(**FAST)
def on_discard(w, tr):
    """After a draw: discard down to the hand limit, one question per card."""
    q = NO_QUESTION
    side = w[W_ST + R_MOVER]
    if w[W_ST + S_HAND_N + side] > w[C_HAND_LIMIT]:
        n = list_hand(w, side)
        q = ask(w, side, F_REACT, K_DISCARD, n, PH_DISCARD_ANS)
    else:
        w[W_ST + R_PHASE] = PH_ACTION_END
    return q


@njit(**FAST)
def on_discard_ans(w, tr):
    q = NO_QUESTION
    side = w[W_ST + R_MOVER]
    hand_take(w, side, w[W_ST + R_ROW])
    w[W_ST + T_DISCARDS + side] += 1
    emit(w, tr, EV_DISCARD, side, w[W_ST + R_ROW], 0, 0, 0, 0, 0)
    w[W_ST + R_PHASE] = PH_DISCARD
    return q


@njit(**FAST)
def on_dragon_move_ans(w, tr):
    """The dragon walks or flies to the chosen hex."""
    q = NO_QUESTION
    h = w[W_ST + R_ROW]
    emit(w, tr, EV_PLAY, DRAGON, w[W_ST + R_CARD], w[W_ST + R_OPT], h, 0, 0, 0)
    place(w, FIG_DRAGON, h)
    w[W_ST + R_PHASE] = PH_ACTION_END
    return q


@njit(**FAST)
def on_victim_ans(w, tr):
    """The dragon claws the chosen adjacent dwarf."""
    q = NO_QUESTION
    emit(w, tr, EV_PLAY, DRAGON, w[W_ST + R_CARD], w[W_ST + R_OPT], w[W_ST + R_ROW], 0, 0, 0)
    w[W_ST + R_TARGET] = w[W_ST + R_ROW]
    w[W_ST + R_IN_FIRE] = 0
    w[W_ST + R_PHASE] = PH_ATTACK_DWARF
    return q


@njit(**FAST)
def on_fire_ans(w, tr):
    """Fire along the chosen direction: every dwarf on the line is attacked in turn."""
    q = NO_QUESTION
    emit(w, tr, EV_PLAY, DRAGON, w[W_ST + R_CARD], w[W_ST + R_OPT], w[W_ST + R_ROW], 0, 0, 0)
    d = w[W_ST + R_ROW]
    w[W_ST + R_FIRE_DIR] = d
    # the dwarves on the line, nearest first
    h = w[W_ST + S_POS + FIG_DRAGON]
    k, m = 0, 0
    while w[C_FIRE_RANGE] == 0 or k < w[C_FIRE_RANGE]:
        h = neighbour(w, h, d)
        if h < 0:
            break
        k += 1
        if w[W_BOARD + h] > FIG_DRAGON:
            w[W_ST + R_HIT + m] = w[W_BOARD + h]
            w[W_ST + R_PW + m] = 0
            m += 1
    w[W_ST + R_NHIT] = m
    if m >= 2:
        w[W_ST + T_F_FIRE_ORDER] += 1
        w[W_ST + T_F_SIMUL] += 1
    w[W_ST + R_FIRE_K] = 0
    w[W_ST + R_IN_FIRE] = 1
    w[W_ST + R_PHASE] = PH_FIRE_NEXT
    return q


@njit(**FAST)
def on_fire_next(w, tr):
    """Walk the fire line to the next dwarf; the line's end ends the action."""
    q = NO_QUESTION
    w[W_ST + R_PHASE] = PH_ACTION_END
    j = w[W_ST + R_FIRE_K]
    m = w[W_ST + R_NHIT]
    if j < m:
        w[W_ST + R_FIRE_J] = j
        w[W_ST + R_FIRE_K] = j + 1
        w[W_ST + R_TARGET] = w[W_ST + R_HIT + (m - 1 - j if w[C_FIRE_FAR] == 1 else j)]
        w[W_ST + R_PHASE] = PH_ATTACK_DWARF
    elif w[C_SIMUL] == 1:
        # every Defense decision made: the blows that were not blocked land, in the order struck
        for i in range(m):
            if w[W_ST + S_OVER] == 1:
                break
            v = w[W_ST + R_PW + i]
            if v > 0:
                wound_dwarf(w, tr, w[W_ST + R_HIT + (m - 1 - i if w[C_FIRE_FAR] == 1 else i)], v, True)
    return q


@njit(**FAST)
def dwarf_blow_lands(w, tr):
    """An unblocked blow on a dwarf: wounded now, or (fire, simultaneous_blows) once every
    Defense decision of the line is made."""
    if w[W_ST + R_IN_FIRE] == 1 and w[C_SIMUL] == 1:
        w[W_ST + R_PW + w[W_ST + R_FIRE_J]] = w[W_ST + R_VAL]
    else:
        wound_dwarf(w, tr, w[W_ST + R_TARGET], w[W_ST + R_VAL], True)


@njit(**FAST)
def on_attack_dwarf(w, tr):
    """One attack on a dwarf: the dwarves may block it with a Defense card."""
    q = NO_QUESTION
    f = w[W_ST + R_TARGET]
    emit(w, tr, EV_ATTACK, FIG_DRAGON, f, w[W_ST + R_VAL], 0, 0, 0, 0)
    w[W_ST + T_ATTACKS + DRAGON] += 1
    n = list_blocks(w, DWARVES, w[W_ST + R_VAL], f, FIG_DRAGON)
    if n > 0:
        q = ask(w, DWARVES, F_REACT, K_BLOCK, n, PH_BLOCK_DWARF_ANS)
    else:
        dwarf_blow_lands(w, tr)
        w[W_ST + R_PHASE] = PH_FIRE_NEXT if w[W_ST + R_IN_FIRE] else PH_ACTION_END
    return q


@njit(**FAST)
def on_block_dwarf_ans(w, tr):
    q = NO_QUESTION
    if w[W_ST + R_ROW] == 1:
        hand_take(w, DWARVES, w[W_ST + R_ROW + 1])
        w[W_ST + T_USE + DWARVES * N_SYM + SYM_DEFENSE] += 1
        w[W_ST + T_BLOCKED + DRAGON] += 1
        emit(w, tr, EV_BLOCK, DWARVES, w[W_ST + R_ROW + 1], 0, 0, 0, 0, 0)
        dwarves_out(w)
    else:
        dwarf_blow_lands(w, tr)
    w[W_ST + R_PHASE] = PH_FIRE_NEXT if w[W_ST + R_IN_FIRE] else PH_ACTION_END
    return q


@njit(**FAST)
def on_dwarf_move_ans(w, tr):
    """The first (or only) dwarf moves; a two-dwarf card then asks for a second dwarf."""
    q = NO_QUESTION
    f1 = w[W_ST + R_ROW]
    h1 = w[W_ST + R_ROW + 1]
    place(w, f1, h1)
    w[W_ST + R_PHASE] = PH_ACTION_END
    n = 0
    if w[W_ST + R_SYM] == SYM_MOVE_TWO:
        n = list_dwarf_moves(w, w[W_ST + R_VAL], f1)
    if n > 0:
        w[W_ST + R_MOVE_FIG] = f1
        w[W_ST + R_MOVE_HEX] = h1
        q = ask(w, DWARVES, F_TARGET, K_DWARF_MOVE2, n, PH_DWARF_MOVE2_ANS)
    else:
        emit(w, tr, EV_PLAY, DWARVES, w[W_ST + R_CARD], w[W_ST + R_OPT], f1, h1, -1, -1)
    return q


@njit(**FAST)
def on_dwarf_move2_ans(w, tr):
    q = NO_QUESTION
    f2 = w[W_ST + R_ROW]
    h2 = w[W_ST + R_ROW + 1]
    place(w, f2, h2)
    emit(w, tr, EV_PLAY, DWARVES, w[W_ST + R_CARD], w[W_ST + R_OPT], w[W_ST + R_MOVE_FIG],
         w[W_ST + R_MOVE_HEX], f2, h2)
    w[W_ST + R_PHASE] = PH_ACTION_END
    return q


@njit(**FAST)
def on_attack_dragon(w, tr):
    """One dwarf's attack on the dragon: the dragon may block it with a Defense card."""
    q = NO_QUESTION
    a = w[W_ST + R_ATTACKER]
    emit(w, tr, EV_ATTACK, a, FIG_DRAGON, w[W_ST + R_VAL], 0, 0, 0, 0)
    w[W_ST + T_ATTACKS + DWARVES] += 1
    if w[W_ST + S_NETTED] == 1:
        w[W_ST + S_NET_BLOWS] += 1
    n = list_blocks(w, DRAGON, w[W_ST + R_VAL], FIG_DRAGON, a)
    if n > 0:
        q = ask(w, DRAGON, F_REACT, K_BLOCK, n, PH_BLOCK_DRAGON_ANS)
    else:
        dragon_blow_done(w, 0)
    return q


@njit(**FAST)
def dragon_blow_done(w, blocked):
    """After the dragon's Defense decision on one blow: its wounds are placed now, or (a two-dwarf
    attack under simultaneous_blows) once both blows are decided."""
    if w[C_SIMUL] == 1:
        if blocked == 0:
            w[W_ST + R_PEND] += w[W_ST + R_VAL]
        if w[W_ST + R_SECOND] >= 0:
            w[W_ST + R_ATTACKER] = w[W_ST + R_SECOND]
            w[W_ST + R_SECOND] = -1
            w[W_ST + R_PHASE] = PH_ATTACK_DRAGON
        else:
            w[W_ST + R_WOUNDS_LEFT] = w[W_ST + R_PEND]
            w[W_ST + R_PEND] = 0
            w[W_ST + R_PHASE] = PH_WOUND
    elif blocked == 1:
        w[W_ST + R_PHASE] = PH_AFTER_DRAGON_HIT
    else:
        w[W_ST + R_WOUNDS_LEFT] = w[W_ST + R_VAL]
        w[W_ST + R_PHASE] = PH_WOUND


@njit(**FAST)
def on_block_dragon_ans(w, tr):
    q = NO_QUESTION
    blocked = 0
    if w[W_ST + R_ROW] == 1:
        hand_take(w, DRAGON, w[W_ST + R_ROW + 1])
        w[W_ST + T_USE + DRAGON * N_SYM + SYM_DEFENSE] += 1
        w[W_ST + T_BLOCKED + DWARVES] += 1
        emit(w, tr, EV_BLOCK, DRAGON, w[W_ST + R_ROW + 1], 0, 0, 0, 0, 0)
        blocked = 1
    dragon_blow_done(w, blocked)
    return q


@njit(**FAST)
def on_wound(w, tr):
    """Wounds on the dragon: armour first; beyond it the dwarf player picks an open area per marker."""
    q = NO_QUESTION
    w[W_ST + R_PHASE] = PH_AFTER_DRAGON_HIT
    while w[W_ST + R_WOUNDS_LEFT] > 0 and w[W_ST + S_OVER] == 0:
        if area_open(w, AREA_ARMOUR):
            mark_dragon(w, tr, AREA_ARMOUR)
            w[W_ST + R_WOUNDS_LEFT] -= 1
            continue
        n = 0
        for a in range(AREA_FLIGHT, AREA_MOVE + 1):
            if area_open(w, a):
                set_row(w, n, a, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        if n == 0:
            break
        q = ask(w, DWARVES, F_REACT, K_WOUND, n, PH_WOUND_ANS)
        break
    return q


@njit(**FAST)
def on_wound_ans(w, tr):
    q = NO_QUESTION
    mark_dragon(w, tr, w[W_ST + R_ROW])
    w[W_ST + R_WOUNDS_LEFT] -= 1
    w[W_ST + R_PHASE] = PH_WOUND
    return q


@njit(**FAST)
def on_after_dragon_hit(w, tr):
    """A two-dwarf attack's second blow, or the end of the action."""
    q = NO_QUESTION
    if w[W_ST + R_SECOND] >= 0:
        w[W_ST + R_ATTACKER] = w[W_ST + R_SECOND]
        w[W_ST + R_SECOND] = -1
        w[W_ST + R_PHASE] = PH_ATTACK_DRAGON
    else:
        w[W_ST + R_PHASE] = PH_ACTION_END
    return q


@njit(**FAST)
def on_action_end(w, tr):
    """Count the action; the dwarves lose at once when their hand and deck are both empty."""
    q = NO_QUESTION
    if w[W_ST + R_MOVER] == DWARVES:
        dwarves_out(w)
    w[W_ST + S_ACTIONS] -= w[W_ST + R_USED]
    if w[C_CHECK]:
        w[W_ST + T_VIOLATIONS] += violations(w)
    w[W_ST + R_PHASE] = PH_ACTION
    return q


@njit(inline="always", **FAST)
def advance(w, tr):
    """Play on until a side must choose (returns (side*4 + slot)*16 + kind) or the game ends (-1).

    The answer to a question is the chosen row, copied into w[W_ST + R_ROW:R_ROW+8] by the caller.
    Each phase is a function of its own: one big body made every call zero dozens of locals.
    """
    while True:
        if w[W_ST + S_OVER] == 1:
            if w[W_ST + R_PHASE] != PH_OVER:
                w[W_ST + R_PHASE] = PH_OVER
                if w[C_CHECK]:
                    w[W_ST + T_VIOLATIONS] += violations(w)
                emit(w, tr, EV_END, w[W_ST + S_WINNER], w[W_ST + S_END], w[W_ST + S_TURN], 0, 0, 0, 0)
            return GAME_OVER
        ph = w[W_ST + R_PHASE]
        q = NO_QUESTION
        if ph == PH_MULLIGAN:
            q = on_mulligan(w, tr)
        elif ph == PH_MULLIGAN_ANS:
            q = on_mulligan_ans(w, tr)
        elif ph == PH_PLACE:
            q = on_place(w, tr)
        elif ph == PH_PLACE_ANS:
            q = on_place_ans(w, tr)
        elif ph == PH_TURN:
            q = on_turn(w, tr)
        elif ph == PH_ACTION:
            q = on_action(w, tr)
        elif ph == PH_MAIN_ANS:
            q = on_main_ans(w, tr)
        elif ph == PH_DISCARD:
            q = on_discard(w, tr)
        elif ph == PH_DISCARD_ANS:
            q = on_discard_ans(w, tr)
        elif ph == PH_DRAGON_MOVE_ANS:
            q = on_dragon_move_ans(w, tr)
        elif ph == PH_VICTIM_ANS:
            q = on_victim_ans(w, tr)
        elif ph == PH_FIRE_ANS:
            q = on_fire_ans(w, tr)
        elif ph == PH_FIRE_NEXT:
            q = on_fire_next(w, tr)
        elif ph == PH_ATTACK_DWARF:
            q = on_attack_dwarf(w, tr)
        elif ph == PH_BLOCK_DWARF_ANS:
            q = on_block_dwarf_ans(w, tr)
        elif ph == PH_DWARF_MOVE_ANS:
            q = on_dwarf_move_ans(w, tr)
        elif ph == PH_DWARF_MOVE2_ANS:
            q = on_dwarf_move2_ans(w, tr)
        elif ph == PH_ATTACK_DRAGON:
            q = on_attack_dragon(w, tr)
        elif ph == PH_BLOCK_DRAGON_ANS:
            q = on_block_dragon_ans(w, tr)
        elif ph == PH_WOUND:
            q = on_wound(w, tr)
        elif ph == PH_WOUND_ANS:
            q = on_wound_ans(w, tr)
        elif ph == PH_AFTER_DRAGON_HIT:
            q = on_after_dragon_hit(w, tr)
        elif ph == PH_ACTION_END:
            q = on_action_end(w, tr)
        elif ph == PH_ATTACKERS_ANS:
            q = on_attackers_ans(w, tr)
        if q >= 0:
            return q


# ---- the batch --------------------------------------------------------------------------------

# ---- built-in strategies run inline ------------------------------------------------------------
# A decision slot whose function is one of these built-ins (recognised by identity in `play_batch`)
# runs the same strategy code inlined into the batch loop instead of an indirect call: a call passes
# the option rows, state, geometry and parameters as some thirty words and the callee reloads them,
# about a tenth of a default game. Same code, same answers, same draws from the game's stream.
# INLINE_BUILTINS = False calls every function (to check that both paths give the same games).
CALL, IN_BRAWLER, IN_COORDINATED, IN_RANDOM = 0, 1, 2, 3
INLINE = ((builtin.brawler2_choice, IN_BRAWLER), (builtin.coordinated_choice, IN_COORDINATED),
          (builtin.random_choice, IN_RANDOM))
INLINE_BUILTINS = True


@njit(inline="always", **FAST)
def inline_choice(code, kind, opts, n, st, geo, p):
    """The built-in strategy `code` (not CALL) answering one decision, as its *_choice function would."""
    if code == IN_BRAWLER:
        return builtin.brawler2(kind, opts, n, st, geo, p, 0)
    if code == IN_COORDINATED:
        return builtin.coordinated2(kind, opts, n, st, geo, p, 0)
    return builtin.draw(st, n)


FN = DECISION_FN
BATCH_SIG = types.int64(
    types.int64, types.int64, types.int64[::1], FN, FN, FN, FN, FN, FN, FN, FN,
    types.float64[::1], types.float64[::1],
    types.int32[:, ::1], types.int16[:, ::1], types.int64[::1], types.int64, types.int64[::1])


def inline_codes(functions) -> np.ndarray:
    """codes[slot] for the eight decision slots (dragon's act, target, react, setup, then the dwarves'):
    the built-in strategy run inline there, or CALL."""
    codes = np.zeros(8, dtype=np.int64)
    if INLINE_BUILTINS:
        for slot, fn in enumerate(functions):
            for builtin_fn, code in INLINE:
                if fn is builtin_fn:
                    codes[slot] = code
    return codes


def play_batch(seed, n, w, d_act, d_target, d_react, d_setup,
               w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced):
    """Play n games from `seed`; out[k, g] is game g's final state at records.OUT_SLOTS[k] (one
    row per slot, so the games table's columns come out contiguous).

    The first n_traced games write their events into `trace`, game i's rows starting at
    trace_start[i] (trace_start[n_traced] is the end). Returns 1 if `trace` was too small.
    """
    fns = (d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup)
    return play_batch_jit(seed, n, w, *fns, pd, pw, out, trace, trace_start, n_traced, inline_codes(fns))


@njit(BATCH_SIG, **FAST)
def play_batch_jit(seed, n, w, d_act, d_target, d_react, d_setup,
                   w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced, codes):
    """`play_batch` (Python) with codes[slot]: the built-in strategy a decision slot runs inline."""
    np.random.seed(seed)
    # the blocks strategies see, as arrays of their own (made once: reshaping is not free)
    st = w[W_ST:W_ST + N_STATE]
    opts = w[W_OPTS:W_OPTS + MAX_OPTS * OPT_WIDTH].reshape((MAX_OPTS, OPT_WIDTH))
    geo = w[W_GEO:W_GEO + w[W_GEO_ROWS] * w[W_GEO_COLS]].reshape((w[W_GEO_ROWS], w[W_GEO_COLS]))
    w[W_TROW] = 0
    w[W_TOVER] = 0
    for g in range(n):
        w[W_TRACING] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = w[W_TROW]
        start_game(w, trace, seed, g)
        while True:
            q = advance(w, trace)
            if q < 0:
                break
            who = q >> 4
            kind = q & 15
            k = st[R_NOPTS]
            code = codes[who]
            if code != CALL:
                i = inline_choice(code, kind, opts, k, st, geo, pd if who < 4 else pw)
            elif who == 0:
                i = d_act(kind, opts, k, st, geo, pd)
            elif who == 1:
                i = d_target(kind, opts, k, st, geo, pd)
            elif who == 2:
                i = d_react(kind, opts, k, st, geo, pd)
            elif who == 3:
                i = d_setup(kind, opts, k, st, geo, pd)
            elif who == 4:
                i = w_act(kind, opts, k, st, geo, pw)
            elif who == 5:
                i = w_target(kind, opts, k, st, geo, pw)
            elif who == 6:
                i = w_react(kind, opts, k, st, geo, pw)
            else:
                i = w_setup(kind, opts, k, st, geo, pw)
            if i < 0 or i >= k:
                st[T_BAD_CHOICES] += 1
                i = 0
            take_row(w, i)
        for k in range(OUT_SLOTS.shape[0]):
            out[k, g] = st[OUT_SLOTS[k]]
    if n_traced > 0:
        trace_start[n_traced] = w[W_TROW]
    return w[W_TOVER]


# ---- Python helpers ---------------------------------------------------------------------------


def new_work(rules, check: bool = False) -> np.ndarray:
    """A fresh work array for `rules` (a DrakoRules); `check` verifies invariants after each action."""
    geo = rules.geo()
    h = geo.shape[0] // 3
    w = np.zeros(W_GEO + geo.size + h * h, dtype=np.int64)
    cfg = rules.cfg(check)
    w[:len(cfg)] = cfg
    cards = rules.cards()
    w[W_CARDS:W_CARDS + cards.size] = cards.reshape(-1)
    w[W_BOARD:W_BOARD + MAX_HEX] = -1
    w[W_GEO_ROWS], w[W_GEO_COLS] = geo.shape
    w[W_GEO:W_GEO + geo.size] = geo.reshape(-1)
    w[W_RAY_AT] = W_GEO + geo.size
    w[W_GEO + geo.size:] = ray_table(geo, int(w[C_FIRE_RANGE])).reshape(-1)
    w[W_RING2:W_RING2 + MAX_HEX * 36] = ring2_table(geo).reshape(-1)
    return w


def ray_table(geo: np.ndarray, fire_range: int) -> np.ndarray:
    """table[a, b]: the direction d in which a fire line from hex a (walked neighbour by neighbour, at
    most fire_range hexes, 0 = to the edge) reaches hex b, else -1 (fire_hits in one look-up)."""
    h = geo.shape[0] // 3
    table = np.full((h, h), -1, dtype=np.int64)
    for a in range(h):
        for d in range(6):
            x, k = a, 0
            while fire_range == 0 or k < fire_range:
                x = geo[2 * h + x, d]
                if x < 0:
                    break
                k += 1
                table[a, x] = d
    return table


def ring2_table(geo: np.ndarray) -> np.ndarray:
    """For each hex: up to 12 (hex two steps away, first hex between, second or -1), then -1s."""
    h = geo.shape[0] // 3
    table = np.full((MAX_HEX, 12, 3), -1, dtype=np.int64)
    for a in range(h):
        near = [n for n in geo[2 * h + a, :6] if n >= 0]
        far = [b for b in range(h) if geo[a, b] == 2]
        k = 0
        for b in far:
            via = [n for n in near if geo[n, b] == 1]
            if via:          # two steps on the map, but with no board hex between: not a walk
                table[a, k] = (b, via[0], via[1] if len(via) > 1 else -1)
                k += 1
    return table


def views(w: np.ndarray):
    """(st, opts, geo): the blocks of a work array strategies see."""
    st = w[W_ST:W_ST + N_STATE]
    opts = w[W_OPTS:W_OPTS + MAX_OPTS * OPT_WIDTH].reshape(MAX_OPTS, OPT_WIDTH)
    geo = w[W_GEO:W_GEO + w[W_GEO_ROWS] * w[W_GEO_COLS]].reshape(w[W_GEO_ROWS], w[W_GEO_COLS])
    return st, opts, geo


def decision_of(q: int) -> tuple[int, int, int]:
    """(side, function slot, kind) of a question code returned by `advance`."""
    return (q >> 4) // 4, (q >> 4) % 4, q & 15
