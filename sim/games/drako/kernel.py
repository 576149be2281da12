"""Drako's numba kernel: plays whole batches of games and keeps each game's final state.

The rules run as a resumable state machine: `advance` plays on until some side has to choose,
leaves the choices as rows in `opts` and returns who must answer; the batch loop calls that side's
strategy function and writes the chosen row back into the state. Only the batch loop ever holds
the strategy functions, so the rules code passes few arguments and calls stay cheap.

A game is four arrays (see records.py for every offset):
    w     int64[W_SIZE]          configuration, board, decks, cards, scratch, trace cursor
    st    int64[N_STATE]         the state vector strategies read, counters, machine registers
    opts  int64[MAX_OPTS, 8]     the rows of the pending decision
    geo   int64[3H, max(H, 6)]   distances, shared-line directions, neighbours
plus the trace rows `tr`. Everything is compiled without reference counting (`_nrt=False`): no
function here allocates, and skipping the atomic counts on every array argument is most of the
speed. Deals come from their own generator seeded by (seed, game index), so game i gets the same
decks whatever the strategies do: lineups and match legs are compared on the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.games.drako.records import (
    A_DRAW, A_DUD, A_ESCAPE, A_PASS, A_PLAY, AREA_ARMOUR, AREA_FIRE, AREA_FLIGHT, AREA_MOVE,
    C_ACAP, C_ACTIONS, C_CAP, C_CHECK, C_CROSSBOW_MIN, C_DECK_D, C_DRAGON_START, C_DRAW,
    C_FIRE_NEEDS_TARGET, C_FIRE_RANGE, C_FIRST_ACTIONS, C_FREE_PLACEMENT, C_FURY_ACTIONS,
    C_FURY_LETHAL, C_FURY_WOUND, C_HAND_LIMIT, C_HEXES, C_MULLIGAN, C_NET_STAYS, C_NTYPES_D,
    C_OPENING, C_START, C_STUCK_DISCARD, C_THROUGH, C_TURN_CAP, CARD_SYM0, CARD_SYM1,
    CARD_VAL0, CARD_VAL1, DECISION_FN, DRAGON, DWARVES, END_DRAGON_SLAIN, END_DWARVES_SLAIN,
    END_OUT_OF_CARDS, END_STALEMATE, EV_ATTACK, EV_BLOCK, EV_DECK, EV_DISCARD, EV_DRAW, EV_DUD,
    EV_END, EV_ESCAPE, EV_FURY, EV_KILL, EV_MULLIGAN, EV_PASS, EV_PLACE, EV_PLAY, EV_TURN,
    EV_WOUND, F_ACT, F_REACT, F_SETUP, F_TARGET, FIG_ARCHER, FIG_DRAGON, FIG_FURY, FIG_NET,
    K_BLOCK, K_DISCARD, K_DRAGON_MOVE, K_DWARF_MOVE, K_DWARF_MOVE2, K_FIRE, K_FLIGHT, K_FURY,
    K_MAIN, K_MULLIGAN, K_PLACE, K_VICTIM, K_WOUND, MAX_DECK, MAX_HEX, MAX_OPTS, MAX_TYPES,
    N_STATE, N_SYM, OPT_WIDTH, R_ATTACKER, R_CARD, R_FIRE_AT, R_FIRE_DIR, R_FIRE_K, R_IN_FIRE,
    R_INDEX, R_MOVE_FIG, R_MOVE_HEX, R_MOVER, R_NOPTS, R_OPT, R_PHASE, R_ROW, R_SECOND, R_SYM,
    R_TARGET, R_USED, R_VAL, R_WOUNDS_LEFT, S_ACAP, S_ACTIONS, S_AREA, S_CAP, S_DECK_LEN,
    S_DECK_N, S_DECK_TOP, S_END, S_FURY_NOW, S_FURY_USED, S_GONE, S_HAND, S_HAND_N, S_NETTED,
    S_OVER, S_POS, S_SIDE, S_SYM, S_TURN, S_TURN_ACTIONS, S_WINNER, S_WOUND, SYM_ATTACK,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT, SYM_MOVE, SYM_MOVE_TWO,
    SYM_NET, SYM_NONE, T_ATTACKS, T_BAD_CHOICES, T_BLOCKED, T_DISCARDS, T_DRAWS, T_DUDS,
    T_ESCAPES, T_FURY_TURN, T_FURY_WOUNDS, T_MULLIGANS, T_NET_TURNS, T_PASSES, T_USE,
    T_VIOLATIONS, T_WOUNDS_DRAGON, T_WOUNDS_DWARVES, W_BOARD, W_CARDS, W_DECKS, W_GONE, W_RNG,
    W_SCR, W_SIZE, W_TOVER, W_TRACING, W_TROW, WIN_DRAGON, WIN_DWARVES, WIN_NOBODY,
)

FAST = dict(cache=True, _nrt=False)

# ---- machine phases (where `advance` resumes) --------------------------------------------------
(PH_MULLIGAN, PH_MULLIGAN_ANS, PH_PLACE, PH_PLACE_ANS, PH_TURN, PH_FURY_ANS, PH_ACTION,
 PH_MAIN_ANS, PH_DISCARD, PH_DISCARD_ANS, PH_DRAGON_MOVE_ANS, PH_VICTIM_ANS, PH_FIRE_ANS,
 PH_FIRE_NEXT, PH_DWARF_MOVE_ANS, PH_DWARF_MOVE2_ANS, PH_ATTACK_DWARF, PH_BLOCK_DWARF_ANS,
 PH_ATTACK_DRAGON, PH_BLOCK_DRAGON_ANS, PH_WOUND, PH_WOUND_ANS, PH_AFTER_DRAGON_HIT,
 PH_ACTION_END, PH_OVER) = range(25)
GAME_OVER = -1
NO_QUESTION = -2


# ---- the deal generator (splitmix64) -----------------------------------------------------------


@njit(**FAST)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(**FAST)
def deal_seed(w, seed, game):
    z = _mix(np.uint64(seed) * np.uint64(0x100000000) + np.uint64(game) + np.uint64(1))
    w[W_RNG] = np.int64(z)


@njit(**FAST)
def deal_below(w, m):
    z = np.uint64(w[W_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    w[W_RNG] = np.int64(z)
    return np.int64((_mix(z) >> np.uint64(11)) % np.uint64(m))


# ---- trace ------------------------------------------------------------------------------------


@njit(**FAST)
def emit(w, tr, code, a, b, c, d, e, f, g):
    """Append one event row when this game is traced; flag an overflow instead of writing past."""
    if w[W_TRACING] == 0:
        return
    r = w[W_TROW]
    if r >= tr.shape[0]:
        w[W_TOVER] = 1
        return
    tr[r, 0] = code
    tr[r, 1] = a
    tr[r, 2] = b
    tr[r, 3] = c
    tr[r, 4] = d
    tr[r, 5] = e
    tr[r, 6] = f
    tr[r, 7] = g
    w[W_TROW] = r + 1


# ---- small accessors --------------------------------------------------------------------------


@njit(**FAST)
def card(w, side, t, field):
    return w[W_CARDS + (side * MAX_TYPES + t) * 5 + field]


@njit(**FAST)
def has_symbol(w, side, t, sym):
    return card(w, side, t, CARD_SYM0) == sym or card(w, side, t, CARD_SYM1) == sym


@njit(**FAST)
def neighbour(w, geo, h, d):
    return geo[2 * w[C_HEXES] + h, d]


@njit(**FAST)
def area_open(st, area):
    return st[S_AREA + area] < st[S_ACAP + area]


@njit(**FAST)
def set_row(opts, i, a, b, c, d, e, f, g, h):
    opts[i, 0] = a
    opts[i, 1] = b
    opts[i, 2] = c
    opts[i, 3] = d
    opts[i, 4] = e
    opts[i, 5] = f
    opts[i, 6] = g
    opts[i, 7] = h


@njit(**FAST)
def take_row(st, opts, i):
    for k in range(OPT_WIDTH):
        st[R_ROW + k] = opts[i, k]


@njit(**FAST)
def ask(st, opts, side, slot, kind, n, answer_phase):
    """Leave a question for `side`; a single option is taken at once (NO_QUESTION)."""
    st[R_PHASE] = answer_phase
    if n == 1:
        take_row(st, opts, 0)
        return NO_QUESTION
    st[R_NOPTS] = n
    st[S_SIDE] = side
    return (side * 4 + slot) * 16 + kind


# ---- hands and decks --------------------------------------------------------------------------


@njit(**FAST)
def hand_add(w, st, side, t):
    st[S_HAND + side * MAX_TYPES + t] += 1
    st[S_HAND_N + side] += 1
    s0 = card(w, side, t, CARD_SYM0)
    s1 = card(w, side, t, CARD_SYM1)
    st[S_SYM + side * N_SYM + s0] += 1
    if s1 != SYM_NONE and s1 != s0:
        st[S_SYM + side * N_SYM + s1] += 1


@njit(**FAST)
def hand_take(w, st, side, t):
    """A card leaves the hand for good (played, blocked with, discarded)."""
    st[S_HAND + side * MAX_TYPES + t] -= 1
    st[S_HAND_N + side] -= 1
    st[S_GONE + side] += 1
    w[W_GONE + side * MAX_TYPES + t] += 1
    s0 = card(w, side, t, CARD_SYM0)
    s1 = card(w, side, t, CARD_SYM1)
    st[S_SYM + side * N_SYM + s0] -= 1
    if s1 != SYM_NONE and s1 != s0:
        st[S_SYM + side * N_SYM + s1] -= 1


@njit(**FAST)
def shuffle_deck(w, st, tr, side):
    """Lay out a side's whole deck and shuffle it (Fisher-Yates on the deal generator)."""
    base = W_DECKS + side * MAX_DECK
    k = 0
    for t in range(w[C_NTYPES_D + side]):
        for _ in range(card(w, side, t, 0)):
            w[base + k] = t
            k += 1
    for i in range(k - 1, 0, -1):
        j = deal_below(w, i + 1)
        x = w[base + i]
        w[base + i] = w[base + j]
        w[base + j] = x
    st[S_DECK_TOP + side] = 0
    st[S_DECK_LEN + side] = k
    st[S_DECK_N + side] = k
    for i in range(k):
        emit(w, tr, EV_DECK, side, i, w[base + i], 0, 0, 0, 0)


@njit(**FAST)
def draw_cards(w, st, side, count):
    """Take up to `count` cards from the top of the deck; returns how many came."""
    got = 0
    while got < count and st[S_DECK_N + side] > 0:
        top = st[S_DECK_TOP + side]
        hand_add(w, st, side, w[W_DECKS + side * MAX_DECK + top])
        st[S_DECK_TOP + side] = top + 1
        st[S_DECK_N + side] -= 1
        got += 1
    return got


# ---- the board --------------------------------------------------------------------------------


@njit(**FAST)
def place(w, st, f, h):
    old = st[S_POS + f]
    if old >= 0:
        w[W_BOARD + old] = -1
    st[S_POS + f] = h
    if h >= 0:
        w[W_BOARD + h] = f


@njit(**FAST)
def reach(w, geo, start, steps, out_at):
    """Hexes a figure on `start` can stop on within `steps` steps (start included), written at
    w[out_at:]; returns how many. Occupied hexes are never a destination and never a way
    through, unless the move_through_figures flag is on."""
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
    nb0 = 2 * h_count
    while head < tail:
        h = w[queue + head]
        head += 1
        dd = w[depth + h]
        if dd >= steps:
            continue
        for d in range(6):
            nb = geo[nb0 + h, d]
            if nb < 0 or w[depth + nb] >= 0:
                continue
            busy = w[W_BOARD + nb] >= 0
            if busy and not through:
                continue
            w[depth + nb] = dd + 1
            w[queue + tail] = nb
            tail += 1
            if not busy:
                w[out_at + k] = nb
                k += 1
    return k


@njit(**FAST)
def fire_hits(w, geo, start, d):
    """Dwarves on the fire line from `start` in direction d."""
    n = 0
    h = start
    k = 0
    rng = w[C_FIRE_RANGE]
    while rng == 0 or k < rng:
        h = neighbour(w, geo, h, d)
        if h < 0:
            break
        k += 1
        if w[W_BOARD + h] > FIG_DRAGON:
            n += 1
    return n


@njit(**FAST)
def crossbow_clear(w, st, geo):
    """The archer shares a straight line with the dragon, far enough, with no figure between."""
    a = st[S_POS + FIG_ARCHER]
    g = st[S_POS + FIG_DRAGON]
    if a < 0 or g < 0:
        return False
    d = geo[w[C_HEXES] + a, g]
    if d < 0 or geo[a, g] < w[C_CROSSBOW_MIN]:
        return False
    h = a
    while True:
        h = neighbour(w, geo, h, d)
        if h < 0:
            return False
        if h == g:
            return True
        if w[W_BOARD + h] >= 0:
            return False


@njit(**FAST)
def adjacent_dwarves(st, geo):
    g = st[S_POS + FIG_DRAGON]
    n = 0
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and geo[g, p] == 1:
            n += 1
    return n


# ---- ending -----------------------------------------------------------------------------------


@njit(**FAST)
def finish(st, winner, mode):
    if st[S_OVER] == 0:
        st[S_OVER] = 1
        st[S_WINNER] = winner
        st[S_END] = mode


@njit(**FAST)
def dwarves_out(st):
    """The dwarves lose the moment their hand and deck are both empty."""
    if st[S_OVER] == 0 and st[S_HAND_N + DWARVES] == 0 and st[S_DECK_N + DWARVES] == 0:
        finish(st, WIN_DRAGON, END_OUT_OF_CARDS)


# ---- wounds -----------------------------------------------------------------------------------


@njit(**FAST)
def wound_dwarf(w, st, tr, f, value, by_dragon):
    room = st[S_CAP + f] - st[S_WOUND + f]
    m = value if value < room else room
    st[S_WOUND + f] += m
    if by_dragon:
        st[T_WOUNDS_DWARVES] += m
    else:
        st[T_FURY_WOUNDS] += m
    emit(w, tr, EV_WOUND, f, 0, m, 0, 0, 0, 0)
    if st[S_WOUND + f] >= st[S_CAP + f]:
        place(w, st, f, -1)
        emit(w, tr, EV_KILL, f, 0, 0, 0, 0, 0, 0)
        if f == FIG_NET and st[S_NETTED] == 1 and w[C_NET_STAYS] == 0:
            st[S_NETTED] = 0
        if st[S_POS + 1] < 0 and st[S_POS + 2] < 0 and st[S_POS + 3] < 0:
            finish(st, WIN_DRAGON, END_DWARVES_SLAIN)


@njit(**FAST)
def mark_dragon(w, st, tr, area):
    st[S_AREA + area] += 1
    st[S_WOUND + FIG_DRAGON] += 1
    st[T_WOUNDS_DRAGON] += 1
    emit(w, tr, EV_WOUND, FIG_DRAGON, area, 1, 0, 0, 0, 0)
    if st[S_WOUND + FIG_DRAGON] >= st[S_CAP + FIG_DRAGON]:
        place(w, st, FIG_DRAGON, -1)
        emit(w, tr, EV_KILL, FIG_DRAGON, 0, 0, 0, 0, 0, 0)
        finish(st, WIN_DWARVES, END_DRAGON_SLAIN)


# ---- listing choices --------------------------------------------------------------------------


@njit(**FAST)
def usable(w, st, side, sym, n_adjacent, best_fire, crossbow):
    """How many ways (> 0 when legal) a card option can be used now."""
    if side == DRAGON:
        if sym == SYM_MOVE:
            return 1 if area_open(st, AREA_MOVE) and st[S_NETTED] == 0 else 0
        if sym == SYM_FLIGHT:
            return 1 if area_open(st, AREA_FLIGHT) and st[S_NETTED] == 0 else 0
        if sym == SYM_ATTACK:
            return n_adjacent
        if sym == SYM_FIRE:
            return best_fire if area_open(st, AREA_FIRE) else 0
        return 0
    if sym == SYM_MOVE or sym == SYM_MOVE_TWO:
        return 1
    if sym == SYM_ATTACK or sym == SYM_ATTACK_TWO:
        return n_adjacent
    if sym == SYM_CROSSBOW:
        return 1 if crossbow else 0
    if sym == SYM_NET:
        return 1 if st[S_POS + FIG_NET] >= 0 and st[S_NETTED] == 0 else 0
    return 0


@njit(**FAST)
def list_main(w, st, opts, geo, side):
    """Rows: action, card kind, option, symbol, value, ways, other symbol, other value."""
    n = 0
    if st[S_DECK_N + side] > 0:
        set_row(opts, n, A_DRAW, -1, -1, 0, 0, 0, 0, 0)
        n += 1
    if (side == DRAGON and st[S_NETTED] == 1 and st[S_ACTIONS] == st[S_TURN_ACTIONS]
            and st[S_TURN_ACTIONS] >= 2):
        set_row(opts, n, A_ESCAPE, -1, -1, 0, 0, 0, 0, 0)
        n += 1
    n_adjacent = adjacent_dwarves(st, geo)
    best_fire = 0
    crossbow = False
    if side == DRAGON:
        if st[S_SYM + SYM_FIRE] > 0 and area_open(st, AREA_FIRE):
            g = st[S_POS + FIG_DRAGON]
            for d in range(6):
                k = fire_hits(w, geo, g, d)
                if k > best_fire:
                    best_fire = k
            if best_fire == 0 and w[C_FIRE_NEEDS_TARGET] == 0:
                best_fire = 1      # an empty line is still a legal breath
    elif st[S_SYM + N_SYM + SYM_CROSSBOW] > 0:
        crossbow = crossbow_clear(w, st, geo)
    for t in range(w[C_NTYPES_D + side]):
        if st[S_HAND + side * MAX_TYPES + t] == 0:
            continue
        for o in range(2):
            sym = card(w, side, t, CARD_SYM0 + 2 * o)
            if sym == SYM_NONE or sym == SYM_DEFENSE:
                continue
            ways = usable(w, st, side, sym, n_adjacent, best_fire, crossbow)
            if ways > 0:
                other = 1 - o
                set_row(opts, n, A_PLAY, t, o, sym, card(w, side, t, CARD_VAL0 + 2 * o), ways,
                        card(w, side, t, CARD_SYM0 + 2 * other), card(w, side, t, CARD_VAL0 + 2 * other))
                n += 1
    if n == 0:
        if st[S_HAND_N + side] > 0 and w[C_STUCK_DISCARD] == 1:
            for t in range(w[C_NTYPES_D + side]):
                if st[S_HAND + side * MAX_TYPES + t] > 0:
                    set_row(opts, n, A_DUD, t, -1, card(w, side, t, CARD_SYM0), card(w, side, t, CARD_VAL0),
                            0, card(w, side, t, CARD_SYM1), card(w, side, t, CARD_VAL1))
                    n += 1
        else:
            set_row(opts, n, A_PASS, -1, -1, 0, 0, 0, 0, 0)
            n += 1
    return n


@njit(**FAST)
def list_dwarf_moves(w, st, opts, geo, value, skip):
    """Rows: dwarf figure, hex it can stop on (its own hex = not moving)."""
    n = 0
    out_at = W_SCR + 2 * MAX_HEX
    for f in range(1, 4):
        p = st[S_POS + f]
        if p < 0 or f == skip:
            continue
        k = reach(w, geo, p, value, out_at)
        for i in range(k):
            set_row(opts, n, f, w[out_at + i], 0, 0, 0, 0, 0, 0)
            n += 1
    return n


@njit(**FAST)
def list_blocks(w, st, opts, side, value, target, attacker):
    """Rows: block 0/1, card kind, attack value, target, attacker, the card's other symbol and
    value (none for a pure Defense card); no rows when the side holds no Defense."""
    if st[S_SYM + side * N_SYM + SYM_DEFENSE] == 0:
        return 0
    set_row(opts, 0, 0, -1, value, target, attacker, SYM_NONE, 0, 0)
    n = 1
    for t in range(w[C_NTYPES_D + side]):
        if st[S_HAND + side * MAX_TYPES + t] > 0 and has_symbol(w, side, t, SYM_DEFENSE):
            other = card(w, side, t, CARD_SYM0)
            value_other = card(w, side, t, CARD_VAL0)
            if other == SYM_DEFENSE:
                other = card(w, side, t, CARD_SYM1)
                value_other = card(w, side, t, CARD_VAL1)
            set_row(opts, n, 1, t, value, target, attacker, other, value_other, 0)
            n += 1
    return n


@njit(**FAST)
def list_hand(w, st, opts, side):
    """Rows: card kind, copies in hand, symbol 1, value 1, symbol 2, value 2."""
    n = 0
    for t in range(w[C_NTYPES_D + side]):
        c = st[S_HAND + side * MAX_TYPES + t]
        if c > 0:
            set_row(opts, n, t, c, card(w, side, t, CARD_SYM0), card(w, side, t, CARD_VAL0),
                    card(w, side, t, CARD_SYM1), card(w, side, t, CARD_VAL1), 0, 0)
            n += 1
    return n


# ---- invariants (check mode) ------------------------------------------------------------------


@njit(**FAST)
def violations(w, st):
    """Count broken invariants: cards conserved, hands consistent, figures apart, wounds in range."""
    bad = 0
    for side in range(2):
        hand_sum = 0
        for t in range(w[C_NTYPES_D + side]):
            h = st[S_HAND + side * MAX_TYPES + t]
            hand_sum += h
            if h < 0 or h + w[W_GONE + side * MAX_TYPES + t] > card(w, side, t, 0):
                bad += 1
        if hand_sum != st[S_HAND_N + side] or st[S_HAND_N + side] > w[C_HAND_LIMIT]:
            bad += 1
        if st[S_DECK_N + side] != st[S_DECK_LEN + side] - st[S_DECK_TOP + side]:
            bad += 1
        if st[S_HAND_N + side] + st[S_DECK_N + side] + st[S_GONE + side] != w[C_DECK_D + side]:
            bad += 1
        for s in range(N_SYM):
            if st[S_SYM + side * N_SYM + s] < 0:
                bad += 1
    seen = 0
    for f in range(4):
        p = st[S_POS + f]
        if st[S_WOUND + f] < 0 or st[S_WOUND + f] > st[S_CAP + f]:
            bad += 1
        if p >= 0:
            seen += 1
            if p >= w[C_HEXES] or w[W_BOARD + p] != f or st[S_WOUND + f] >= st[S_CAP + f]:
                bad += 1
        elif st[S_WOUND + f] != st[S_CAP + f]:
            bad += 1
    occupied = 0
    for h in range(w[C_HEXES]):
        if w[W_BOARD + h] >= 0:
            occupied += 1
    if occupied != seen:
        bad += 1
    total = 0
    for a in range(4):
        if st[S_AREA + a] < 0 or st[S_AREA + a] > st[S_ACAP + a]:
            bad += 1
        total += st[S_AREA + a]
    if total != st[S_WOUND + FIG_DRAGON]:
        bad += 1
    if total > st[S_AREA + AREA_ARMOUR] and area_open(st, AREA_ARMOUR):
        bad += 1
    return bad


# ---- a game -----------------------------------------------------------------------------------


@njit(**FAST)
def start_game(w, st, tr, seed, game):
    """Reset the state, shuffle and deal; the machine then resumes at mulligans or placement."""
    deal_seed(w, seed, game)
    st[:] = 0
    for h in range(MAX_HEX):
        w[W_BOARD + h] = -1
    for i in range(2 * MAX_TYPES):
        w[W_GONE + i] = 0
    for f in range(4):
        st[S_POS + f] = -1
        st[S_CAP + f] = w[C_CAP + f]
    for a in range(4):
        st[S_ACAP + a] = w[C_ACAP + a]
    st[S_WINNER] = WIN_NOBODY
    st[T_FURY_TURN] = -1
    place(w, st, FIG_DRAGON, w[C_DRAGON_START])
    for side in range(2):
        shuffle_deck(w, st, tr, side)
        draw_cards(w, st, side, w[C_OPENING])
    st[R_INDEX] = 0
    st[R_PHASE] = PH_MULLIGAN if w[C_MULLIGAN] else PH_PLACE


@njit(**FAST)
def begin_action_end(st):
    st[R_PHASE] = PH_ACTION_END


@njit(**FAST)
def play_card(w, st, opts, geo, tr):
    """The chosen card leaves the hand; list its targets (or resolve it). Returns a question code."""
    side = st[R_MOVER]
    t = st[R_ROW + 1]
    o = st[R_ROW + 2]
    sym = st[R_ROW + 3]
    st[R_CARD] = t
    st[R_OPT] = o
    st[R_SYM] = sym
    st[R_VAL] = st[R_ROW + 4]
    hand_take(w, st, side, t)
    st[T_USE + side * N_SYM + sym] += 1
    g = st[S_POS + FIG_DRAGON]
    if side == DRAGON:
        if sym == SYM_MOVE:
            out_at = W_SCR + 2 * MAX_HEX
            k = reach(w, geo, g, st[R_VAL], out_at)
            for i in range(k):
                set_row(opts, i, w[out_at + i], 0, 0, 0, 0, 0, 0, 0)
            return ask(st, opts, DRAGON, F_TARGET, K_DRAGON_MOVE, k, PH_DRAGON_MOVE_ANS)
        if sym == SYM_FLIGHT:
            n = 0
            for h in range(w[C_HEXES]):
                if w[W_BOARD + h] < 0:
                    set_row(opts, n, h, 0, 0, 0, 0, 0, 0, 0)
                    n += 1
            return ask(st, opts, DRAGON, F_TARGET, K_FLIGHT, n, PH_DRAGON_MOVE_ANS)
        if sym == SYM_ATTACK:
            n = 0
            for f in range(1, 4):
                p = st[S_POS + f]
                if p >= 0 and geo[g, p] == 1:
                    set_row(opts, n, f, 0, 0, 0, 0, 0, 0, 0)
                    n += 1
            return ask(st, opts, DRAGON, F_TARGET, K_VICTIM, n, PH_VICTIM_ANS)
        # fire
        n = 0
        for d in range(6):
            k = fire_hits(w, geo, g, d)
            first = neighbour(w, geo, g, d)
            if k > 0 or (w[C_FIRE_NEEDS_TARGET] == 0 and first >= 0):
                set_row(opts, n, d, k, first, 0, 0, 0, 0, 0)
                n += 1
        return ask(st, opts, DRAGON, F_TARGET, K_FIRE, n, PH_FIRE_ANS)
    if sym == SYM_MOVE or sym == SYM_MOVE_TWO:
        n = list_dwarf_moves(w, st, opts, geo, st[R_VAL], -1)
        return ask(st, opts, DWARVES, F_TARGET, K_DWARF_MOVE, n, PH_DWARF_MOVE_ANS)
    if sym == SYM_NET:
        emit(w, tr, EV_PLAY, DWARVES, t, o, FIG_NET, 0, 0, 0)
        st[S_NETTED] = 1
        st[R_PHASE] = PH_ACTION_END
        return NO_QUESTION
    # attacks on the dragon: which adjacent dwarves strike makes no difference, the first found do
    first, second = -1, -1
    if sym == SYM_CROSSBOW:
        first = FIG_ARCHER
    else:
        for f in range(1, 4):
            p = st[S_POS + f]
            if p >= 0 and geo[g, p] == 1:
                if first < 0:
                    first = f
                elif second < 0 and sym == SYM_ATTACK_TWO:
                    second = f
    emit(w, tr, EV_PLAY, DWARVES, t, o, first, second, 0, 0)
    st[R_ATTACKER] = first
    st[R_SECOND] = second
    st[R_PHASE] = PH_ATTACK_DRAGON
    return NO_QUESTION


@njit(**FAST)
def advance(w, st, opts, geo, tr):
    """Play on until a side must choose (returns (side*4 + slot)*16 + kind) or the game ends (-1).

    The answer to a question is the chosen row, copied into st[R_ROW:R_ROW+8] by the caller.
    """
    while True:
        if st[S_OVER] == 1:
            if st[R_PHASE] != PH_OVER:
                st[R_PHASE] = PH_OVER
                if w[C_CHECK]:
                    st[T_VIOLATIONS] += violations(w, st)
                emit(w, tr, EV_END, st[S_WINNER], st[S_END], st[S_TURN], 0, 0, 0, 0)
            return GAME_OVER
        ph = st[R_PHASE]
        q = NO_QUESTION

        # ---- setup: mulligans, then the dwarves' hexes ----
        if ph == PH_MULLIGAN:
            if st[R_INDEX] >= 2:
                st[R_INDEX] = 0
                st[R_PHASE] = PH_PLACE
                continue
            set_row(opts, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            set_row(opts, 1, 1, 0, 0, 0, 0, 0, 0, 0)
            q = ask(st, opts, st[R_INDEX], F_SETUP, K_MULLIGAN, 2, PH_MULLIGAN_ANS)
        elif ph == PH_MULLIGAN_ANS:
            side = st[R_INDEX]
            if st[R_ROW] == 1:
                for t in range(w[C_NTYPES_D + side]):
                    st[S_HAND + side * MAX_TYPES + t] = 0
                for s in range(N_SYM):
                    st[S_SYM + side * N_SYM + s] = 0
                st[S_HAND_N + side] = 0
                st[T_MULLIGANS + side] += 1
                emit(w, tr, EV_MULLIGAN, side, 0, 0, 0, 0, 0, 0)
                shuffle_deck(w, st, tr, side)
                draw_cards(w, st, side, w[C_OPENING])
            st[R_INDEX] = side + 1
            st[R_PHASE] = PH_MULLIGAN
        elif ph == PH_PLACE:
            i = st[R_INDEX]
            if i >= 3:
                if w[C_CHECK]:
                    st[T_VIOLATIONS] += violations(w, st)
                st[R_PHASE] = PH_TURN
                continue
            if w[C_FREE_PLACEMENT] == 0:
                h = w[C_START + i]
                place(w, st, 1 + i, h)
                emit(w, tr, EV_PLACE, 1 + i, h, 0, 0, 0, 0, 0)
                st[R_INDEX] = i + 1
                continue
            g = st[S_POS + FIG_DRAGON]
            n = 0
            for h in range(w[C_HEXES]):
                if w[W_BOARD + h] < 0 and geo[g, h] >= 2:
                    set_row(opts, n, h, 1 + i, 0, 0, 0, 0, 0, 0)
                    n += 1
            q = ask(st, opts, DWARVES, F_SETUP, K_PLACE, n, PH_PLACE_ANS)
        elif ph == PH_PLACE_ANS:
            i = st[R_INDEX]
            place(w, st, 1 + i, st[R_ROW])
            emit(w, tr, EV_PLACE, 1 + i, st[R_ROW], 0, 0, 0, 0, 0)
            st[R_INDEX] = i + 1
            st[R_PHASE] = PH_PLACE

        # ---- turns ----
        elif ph == PH_TURN:
            if st[S_TURN] >= w[C_TURN_CAP]:
                finish(st, WIN_NOBODY, END_STALEMATE)
                continue
            st[S_TURN] += 1
            turn = st[S_TURN]
            side = DRAGON if turn % 2 == 1 else DWARVES
            st[R_MOVER] = side
            st[S_FURY_NOW] = 0
            actions = w[C_ACTIONS]
            if side == DRAGON and turn == 1:
                actions = w[C_FIRST_ACTIONS]
            emit(w, tr, EV_TURN, side, turn, actions, 0, 0, 0, 0)
            st[S_TURN_ACTIONS] = actions
            st[S_ACTIONS] = actions
            st[R_PHASE] = PH_ACTION
            if side == DRAGON:
                if st[S_NETTED]:
                    st[T_NET_TURNS] += 1
                if st[S_HAND_N + DRAGON] == 0 and st[S_DECK_N + DRAGON] == 0:
                    st[T_PASSES + DRAGON] += actions
                    emit(w, tr, EV_PASS, DRAGON, 1, 0, 0, 0, 0, 0)
                    st[R_PHASE] = PH_TURN
            elif (st[S_FURY_USED] == 0 and st[S_POS + FIG_FURY] >= 0
                  and (w[C_FURY_LETHAL] == 1
                       or st[S_WOUND + FIG_FURY] + w[C_FURY_WOUND] < st[S_CAP + FIG_FURY])):
                set_row(opts, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                set_row(opts, 1, 1, 0, 0, 0, 0, 0, 0, 0)
                q = ask(st, opts, DWARVES, F_SETUP, K_FURY, 2, PH_FURY_ANS)
        elif ph == PH_FURY_ANS:
            st[R_PHASE] = PH_ACTION
            if st[R_ROW] == 1:
                st[S_FURY_USED] = 1
                st[S_FURY_NOW] = 1
                st[T_FURY_TURN] = st[S_TURN]
                emit(w, tr, EV_FURY, w[C_FURY_ACTIONS], 0, 0, 0, 0, 0, 0)
                if w[C_FURY_WOUND] > 0:
                    wound_dwarf(w, st, tr, FIG_FURY, w[C_FURY_WOUND], False)
                st[S_TURN_ACTIONS] = w[C_FURY_ACTIONS]
                st[S_ACTIONS] = w[C_FURY_ACTIONS]

        # ---- actions ----
        elif ph == PH_ACTION:
            if st[S_ACTIONS] <= 0:
                st[R_PHASE] = PH_TURN
                continue
            side = st[R_MOVER]
            n = list_main(w, st, opts, geo, side)
            q = ask(st, opts, side, F_ACT, K_MAIN, n, PH_MAIN_ANS)
        elif ph == PH_MAIN_ANS:
            side = st[R_MOVER]
            action = st[R_ROW]
            st[R_USED] = 1
            st[R_PHASE] = PH_ACTION_END
            if action == A_DRAW:
                got = draw_cards(w, st, side, w[C_DRAW])
                st[T_DRAWS + side] += 1
                emit(w, tr, EV_DRAW, side, got, 0, 0, 0, 0, 0)
                st[R_PHASE] = PH_DISCARD
            elif action == A_ESCAPE:
                st[S_NETTED] = 0
                st[T_ESCAPES] += 1
                st[R_USED] = st[S_ACTIONS]
                emit(w, tr, EV_ESCAPE, 0, 0, 0, 0, 0, 0, 0)
            elif action == A_PASS:
                st[T_PASSES + side] += 1
                emit(w, tr, EV_PASS, side, 0, 0, 0, 0, 0, 0)
            elif action == A_DUD:
                hand_take(w, st, side, st[R_ROW + 1])
                st[T_DUDS + side] += 1
                emit(w, tr, EV_DUD, side, st[R_ROW + 1], 0, 0, 0, 0, 0)
            else:
                q = play_card(w, st, opts, geo, tr)
        elif ph == PH_DISCARD:
            side = st[R_MOVER]
            if st[S_HAND_N + side] > w[C_HAND_LIMIT]:
                n = list_hand(w, st, opts, side)
                q = ask(st, opts, side, F_REACT, K_DISCARD, n, PH_DISCARD_ANS)
            else:
                st[R_PHASE] = PH_ACTION_END
        elif ph == PH_DISCARD_ANS:
            side = st[R_MOVER]
            hand_take(w, st, side, st[R_ROW])
            st[T_DISCARDS + side] += 1
            emit(w, tr, EV_DISCARD, side, st[R_ROW], 0, 0, 0, 0, 0)
            st[R_PHASE] = PH_DISCARD

        # ---- the dragon's cards ----
        elif ph == PH_DRAGON_MOVE_ANS:
            h = st[R_ROW]
            emit(w, tr, EV_PLAY, DRAGON, st[R_CARD], st[R_OPT], h, 0, 0, 0)
            place(w, st, FIG_DRAGON, h)
            st[R_PHASE] = PH_ACTION_END
        elif ph == PH_VICTIM_ANS:
            emit(w, tr, EV_PLAY, DRAGON, st[R_CARD], st[R_OPT], st[R_ROW], 0, 0, 0)
            st[R_TARGET] = st[R_ROW]
            st[R_IN_FIRE] = 0
            st[R_PHASE] = PH_ATTACK_DWARF
        elif ph == PH_FIRE_ANS:
            emit(w, tr, EV_PLAY, DRAGON, st[R_CARD], st[R_OPT], st[R_ROW], 0, 0, 0)
            st[R_FIRE_DIR] = st[R_ROW]
            st[R_FIRE_AT] = st[S_POS + FIG_DRAGON]
            st[R_FIRE_K] = 0
            st[R_IN_FIRE] = 1
            st[R_PHASE] = PH_FIRE_NEXT
        elif ph == PH_FIRE_NEXT:
            # walk the line to the next dwarf; the line's end ends the action
            st[R_PHASE] = PH_ACTION_END
            while w[C_FIRE_RANGE] == 0 or st[R_FIRE_K] < w[C_FIRE_RANGE]:
                h = neighbour(w, geo, st[R_FIRE_AT], st[R_FIRE_DIR])
                if h < 0:
                    break
                st[R_FIRE_AT] = h
                st[R_FIRE_K] += 1
                if w[W_BOARD + h] > FIG_DRAGON:
                    st[R_TARGET] = w[W_BOARD + h]
                    st[R_PHASE] = PH_ATTACK_DWARF
                    break
        elif ph == PH_ATTACK_DWARF:
            f = st[R_TARGET]
            emit(w, tr, EV_ATTACK, FIG_DRAGON, f, st[R_VAL], 0, 0, 0, 0)
            st[T_ATTACKS + DRAGON] += 1
            n = list_blocks(w, st, opts, DWARVES, st[R_VAL], f, FIG_DRAGON)
            if n > 0:
                q = ask(st, opts, DWARVES, F_REACT, K_BLOCK, n, PH_BLOCK_DWARF_ANS)
            else:
                wound_dwarf(w, st, tr, f, st[R_VAL], True)
                st[R_PHASE] = PH_FIRE_NEXT if st[R_IN_FIRE] else PH_ACTION_END
        elif ph == PH_BLOCK_DWARF_ANS:
            if st[R_ROW] == 1:
                hand_take(w, st, DWARVES, st[R_ROW + 1])
                st[T_USE + DWARVES * N_SYM + SYM_DEFENSE] += 1
                st[T_BLOCKED + DRAGON] += 1
                emit(w, tr, EV_BLOCK, DWARVES, st[R_ROW + 1], 0, 0, 0, 0, 0)
                dwarves_out(st)
            else:
                wound_dwarf(w, st, tr, st[R_TARGET], st[R_VAL], True)
            st[R_PHASE] = PH_FIRE_NEXT if st[R_IN_FIRE] else PH_ACTION_END

        # ---- the dwarves' cards ----
        elif ph == PH_DWARF_MOVE_ANS:
            f1 = st[R_ROW]
            h1 = st[R_ROW + 1]
            place(w, st, f1, h1)
            st[R_PHASE] = PH_ACTION_END
            n = 0
            if st[R_SYM] == SYM_MOVE_TWO:
                n = list_dwarf_moves(w, st, opts, geo, st[R_VAL], f1)
            if n > 0:
                st[R_MOVE_FIG] = f1
                st[R_MOVE_HEX] = h1
                q = ask(st, opts, DWARVES, F_TARGET, K_DWARF_MOVE2, n, PH_DWARF_MOVE2_ANS)
            else:
                emit(w, tr, EV_PLAY, DWARVES, st[R_CARD], st[R_OPT], f1, h1, -1, -1)
        elif ph == PH_DWARF_MOVE2_ANS:
            f2 = st[R_ROW]
            h2 = st[R_ROW + 1]
            place(w, st, f2, h2)
            emit(w, tr, EV_PLAY, DWARVES, st[R_CARD], st[R_OPT], st[R_MOVE_FIG], st[R_MOVE_HEX], f2, h2)
            st[R_PHASE] = PH_ACTION_END
        elif ph == PH_ATTACK_DRAGON:
            a = st[R_ATTACKER]
            emit(w, tr, EV_ATTACK, a, FIG_DRAGON, st[R_VAL], 0, 0, 0, 0)
            st[T_ATTACKS + DWARVES] += 1
            n = list_blocks(w, st, opts, DRAGON, st[R_VAL], FIG_DRAGON, a)
            st[R_WOUNDS_LEFT] = st[R_VAL]
            if n > 0:
                q = ask(st, opts, DRAGON, F_REACT, K_BLOCK, n, PH_BLOCK_DRAGON_ANS)
            else:
                st[R_PHASE] = PH_WOUND
        elif ph == PH_BLOCK_DRAGON_ANS:
            st[R_PHASE] = PH_WOUND
            if st[R_ROW] == 1:
                hand_take(w, st, DRAGON, st[R_ROW + 1])
                st[T_USE + DRAGON * N_SYM + SYM_DEFENSE] += 1
                st[T_BLOCKED + DWARVES] += 1
                emit(w, tr, EV_BLOCK, DRAGON, st[R_ROW + 1], 0, 0, 0, 0, 0)
                st[R_PHASE] = PH_AFTER_DRAGON_HIT
        elif ph == PH_WOUND:
            # armour first; beyond it the dwarf player picks an open area for each marker
            st[R_PHASE] = PH_AFTER_DRAGON_HIT
            while st[R_WOUNDS_LEFT] > 0 and st[S_OVER] == 0:
                if area_open(st, AREA_ARMOUR):
                    mark_dragon(w, st, tr, AREA_ARMOUR)
                    st[R_WOUNDS_LEFT] -= 1
                    continue
                n = 0
                for a in range(AREA_FLIGHT, AREA_MOVE + 1):
                    if area_open(st, a):
                        set_row(opts, n, a, 0, 0, 0, 0, 0, 0, 0)
                        n += 1
                if n == 0:
                    break
                q = ask(st, opts, DWARVES, F_REACT, K_WOUND, n, PH_WOUND_ANS)
                break
        elif ph == PH_WOUND_ANS:
            mark_dragon(w, st, tr, st[R_ROW])
            st[R_WOUNDS_LEFT] -= 1
            st[R_PHASE] = PH_WOUND
        elif ph == PH_AFTER_DRAGON_HIT:
            if st[R_SECOND] >= 0:
                st[R_ATTACKER] = st[R_SECOND]
                st[R_SECOND] = -1
                st[R_PHASE] = PH_ATTACK_DRAGON
            else:
                st[R_PHASE] = PH_ACTION_END

        elif ph == PH_ACTION_END:
            if st[R_MOVER] == DWARVES:
                dwarves_out(st)
            st[S_ACTIONS] -= st[R_USED]
            if w[C_CHECK]:
                st[T_VIOLATIONS] += violations(w, st)
            st[R_PHASE] = PH_ACTION
        if q >= 0:
            return q


# ---- the batch --------------------------------------------------------------------------------

FN = DECISION_FN
BATCH_SIG = types.int64(
    types.int64, types.int64, types.int64[:], types.int64[:], types.int64[:, :], types.int64[:, :],
    FN, FN, FN, FN, FN, FN, FN, FN, types.float64[:], types.float64[:],
    types.int32[:, :], types.int16[:, :], types.int64[:], types.int64)


@njit(BATCH_SIG, **FAST)
def play_batch(seed, n, w, st, opts, geo, d_act, d_target, d_react, d_setup,
               w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced):
    """Play n games from `seed`; out[g] is game g's final state vector (records.S_* / T_*).

    The first n_traced games write their events into `trace`, game i's rows starting at
    trace_start[i] (trace_start[n_traced] is the end). Returns 1 if `trace` was too small.
    """
    np.random.seed(seed)
    w[W_TROW] = 0
    w[W_TOVER] = 0
    for g in range(n):
        w[W_TRACING] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = w[W_TROW]
        start_game(w, st, trace, seed, g)
        while True:
            q = advance(w, st, opts, geo, trace)
            if q < 0:
                break
            who = q >> 4
            kind = q & 15
            k = st[R_NOPTS]
            if who == 0:
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
            take_row(st, opts, i)
        for k in range(N_STATE):
            out[g, k] = st[k]
    if n_traced > 0:
        trace_start[n_traced] = w[W_TROW]
    return w[W_TOVER]


# ---- Python helpers ---------------------------------------------------------------------------


def new_work(rules, check: bool = False):
    """Fresh (w, st, opts, geo) arrays for `rules` (a DrakoRules)."""
    w = np.zeros(W_SIZE, dtype=np.int64)
    cfg = rules.cfg(check)
    w[:len(cfg)] = cfg
    cards = rules.cards()
    w[W_CARDS:W_CARDS + cards.size] = cards.reshape(-1)
    w[W_BOARD:W_BOARD + MAX_HEX] = -1
    st = np.zeros(N_STATE, dtype=np.int64)
    opts = np.zeros((MAX_OPTS, OPT_WIDTH), dtype=np.int64)
    geo = np.array(rules.geo(), dtype=np.int64)     # a writable copy: the signature wants one
    return w, st, opts, geo


def decision_of(q: int) -> tuple[int, int, int]:
    """(side, function slot, kind) of a question code returned by `advance`."""
    return (q >> 4) // 4, (q >> 4) % 4, q & 15


def answer(st, opts, i: int) -> None:
    """Answer the pending question with row i (what the batch loop does after a strategy call)."""
    take_row(st, opts, i)
