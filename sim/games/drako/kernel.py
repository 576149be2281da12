"""Drako's numba kernel: plays whole batches of games and fills one int32 row per game.

Everything about one game lives in a few preallocated arrays so the rule functions below can be
called on a hand-built position (the golden tests do):
    st     int64[N_STATE]          the state vector strategies read (layout in records.py)
    board  int64[H]                figure on each hex, -1 when empty
    decks  int64[2, MAX_DECK]      each side's shuffled deck, drawn from st[S_DECK_TOP + side]
    gone   int64[2, MAX_TYPES]     cards of each kind played or discarded (for the conservation check)
    opts   int64[MAX_OPTS, 8]      the option rows of the current decision
    scr    int64[4, H]             scratch for path searches
    rs     uint64[1]               the deal generator (shuffles only; strategies use np.random)
    tr, tp                         trace rows and the trace cursor [row, tracing, overflow]
Deals come from their own generator seeded by (seed, game index), so game i gets the same decks
whatever the strategies do: lineups and match legs are compared on the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.games.drako.records import (
    A_DRAW, A_DUD, A_ESCAPE, A_PASS, A_PLAY, AREA_ARMOUR, AREA_MOVE, AREA_FLIGHT, AREA_FIRE,
    C_ACAP, C_ACTIONS, C_CAP, C_CHECK, C_CROSSBOW_MIN, C_DECK_D, C_DRAGON_START, C_DRAW,
    C_FIRE_NEEDS_TARGET, C_FIRE_RANGE, C_FIRST_ACTIONS, C_FREE_PLACEMENT, C_FURY_ACTIONS,
    C_FURY_LETHAL, C_FURY_WOUND, C_HAND_LIMIT, C_HEXES, C_MULLIGAN, C_NET_STAYS, C_NTYPES_D,
    C_OPENING, C_START, C_STUCK_DISCARD, C_THROUGH, C_TURN_CAP, CARD_SYM0, CARD_SYM1, CARD_VAL0,
    DECISION_FN, DRAGON, DWARVES, END_DRAGON_SLAIN, END_DWARVES_SLAIN, END_OUT_OF_CARDS,
    END_STALEMATE, EV_ATTACK, EV_BLOCK, EV_DECK, EV_DISCARD, EV_DRAW, EV_DUD, EV_END, EV_ESCAPE,
    EV_FURY, EV_KILL, EV_MULLIGAN, EV_PASS, EV_PLACE, EV_PLAY, EV_TURN, EV_WOUND, F_ACT, F_REACT,
    F_SETUP, F_TARGET, FIG_ARCHER, FIG_DRAGON, FIG_FURY, FIG_NET, K_BLOCK, K_DISCARD,
    K_DRAGON_MOVE, K_DWARF_MOVE, K_DWARF_MOVE2, K_FIRE, K_FLIGHT, K_FURY, K_MAIN, K_MULLIGAN,
    K_PLACE, K_VICTIM, K_WOUND, MAX_DECK, MAX_OPTS, MAX_TYPES, N_STATE, N_SYM, OPT_WIDTH,
    S_ACAP, S_ACTIONS, S_AREA, S_CAP, S_DECK_LEN, S_DECK_N, S_DECK_TOP, S_END, S_FURY_NOW,
    S_FURY_USED, S_GONE, S_HAND, S_HAND_N, S_NETTED, S_OVER, S_POS, S_SIDE, S_SYM, S_TURN,
    S_TURN_ACTIONS, S_WINNER, S_WOUND, SYM_ATTACK, SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE,
    SYM_FIRE, SYM_FLIGHT, SYM_MOVE, SYM_MOVE_TWO, SYM_NET, SYM_NONE, T_ATTACKS, T_BAD_CHOICES,
    T_BLOCKED, T_DISCARDS, T_DRAWS, T_DUDS, T_ESCAPES, T_FURY_TURN, T_FURY_WOUNDS, T_MULLIGANS,
    T_NET_TURNS, T_PASSES, T_USE, T_VIOLATIONS, T_WOUNDS_DRAGON, T_WOUNDS_DWARVES, WIN_DRAGON, WIN_DWARVES, WIN_NOBODY,
)

# ---- the deal generator (splitmix64) -----------------------------------------------------------


@njit(cache=True, _nrt=False)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def deal_seed(rs, seed, game):
    rs[0] = _mix(np.uint64(seed) * np.uint64(0x100000000) + np.uint64(game) + np.uint64(1))


@njit(cache=True, _nrt=False)
def deal_below(rs, m):
    rs[0] += np.uint64(0x9E3779B97F4A7C15)
    return np.int64((_mix(rs[0]) >> np.uint64(11)) % np.uint64(m))


# ---- trace ------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def emit(tr, tp, code, a, b, c, d, e, f, g):
    """Append one event row when this game is traced; flag an overflow instead of writing past."""
    if tp[1] == 0:
        return
    r = tp[0]
    if r >= tr.shape[0]:
        tp[2] = 1
        return
    tr[r, 0] = code
    tr[r, 1] = a
    tr[r, 2] = b
    tr[r, 3] = c
    tr[r, 4] = d
    tr[r, 5] = e
    tr[r, 6] = f
    tr[r, 7] = g
    tp[0] = r + 1


# ---- hands and decks --------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def has_symbol(cards, side, t, sym):
    return cards[side, t, CARD_SYM0] == sym or cards[side, t, CARD_SYM1] == sym


@njit(cache=True, _nrt=False)
def hand_add(st, cards, side, t):
    st[S_HAND + side * MAX_TYPES + t] += 1
    st[S_HAND_N + side] += 1
    s0 = cards[side, t, CARD_SYM0]
    s1 = cards[side, t, CARD_SYM1]
    st[S_SYM + side * N_SYM + s0] += 1
    if s1 != SYM_NONE and s1 != s0:
        st[S_SYM + side * N_SYM + s1] += 1


@njit(cache=True, _nrt=False)
def hand_take(st, cards, gone, side, t):
    """A card leaves the hand for good (played, blocked with, discarded)."""
    st[S_HAND + side * MAX_TYPES + t] -= 1
    st[S_HAND_N + side] -= 1
    st[S_GONE + side] += 1
    gone[side, t] += 1
    s0 = cards[side, t, CARD_SYM0]
    s1 = cards[side, t, CARD_SYM1]
    st[S_SYM + side * N_SYM + s0] -= 1
    if s1 != SYM_NONE and s1 != s0:
        st[S_SYM + side * N_SYM + s1] -= 1


@njit(cache=True, _nrt=False)
def shuffle_deck(st, decks, cfg, cards, rs, side, tr, tp):
    """Lay out a side's whole deck and shuffle it (Fisher-Yates on the deal generator)."""
    k = 0
    for t in range(cfg[C_NTYPES_D + side]):
        for _ in range(cards[side, t, 0]):
            decks[side, k] = t
            k += 1
    for i in range(k - 1, 0, -1):
        j = deal_below(rs, i + 1)
        x = decks[side, i]
        decks[side, i] = decks[side, j]
        decks[side, j] = x
    st[S_DECK_TOP + side] = 0
    st[S_DECK_LEN + side] = k
    st[S_DECK_N + side] = k
    for i in range(k):
        emit(tr, tp, EV_DECK, side, i, decks[side, i], 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def draw_cards(st, decks, cards, side, count):
    """Take up to `count` cards from the top of the deck; returns how many came."""
    got = 0
    while got < count and st[S_DECK_N + side] > 0:
        top = st[S_DECK_TOP + side]
        hand_add(st, cards, side, decks[side, top])
        st[S_DECK_TOP + side] = top + 1
        st[S_DECK_N + side] -= 1
        got += 1
    return got


# ---- the board --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def place(st, board, f, h):
    old = st[S_POS + f]
    if old >= 0:
        board[old] = -1
    st[S_POS + f] = h
    if h >= 0:
        board[h] = f


@njit(cache=True, _nrt=False)
def reach(board, geo, h_count, start, steps, through, scr, out):
    """Hexes a figure on `start` can stop on within `steps` steps (start included); returns count.

    Breadth-first over neighbours: occupied hexes are never a destination, and never a way
    through unless `through` (the move_through_figures flag).
    """
    depth = scr[0]
    queue = scr[1]
    for i in range(h_count):
        depth[i] = -1
    depth[start] = 0
    queue[0] = start
    head, tail, k = 0, 1, 0
    out[k] = start
    k += 1
    nb0 = 2 * h_count
    while head < tail:
        h = queue[head]
        head += 1
        dd = depth[h]
        if dd >= steps:
            continue
        for d in range(6):
            nb = geo[nb0 + h, d]
            if nb < 0 or depth[nb] >= 0:
                continue
            busy = board[nb] >= 0
            if busy and not through:
                continue
            depth[nb] = dd + 1
            queue[tail] = nb
            tail += 1
            if not busy:
                out[k] = nb
                k += 1
    return k


@njit(cache=True, _nrt=False)
def fire_hits(board, lines, h_count, start, d, fire_range):
    """Dwarves on the fire line from `start` in direction d."""
    n = 0
    for k in range(h_count):
        if fire_range > 0 and k >= fire_range:
            break
        h = lines[start, d, k]
        if h < 0:
            break
        if board[h] > FIG_DRAGON:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def crossbow_clear(st, board, geo, lines, h_count, min_range):
    """The archer shares a straight line with the dragon, far enough, with no figure between."""
    a = st[S_POS + FIG_ARCHER]
    g = st[S_POS + FIG_DRAGON]
    if a < 0 or g < 0:
        return False
    d = geo[h_count + a, g]
    if d < 0 or geo[a, g] < min_range:
        return False
    for k in range(h_count):
        h = lines[a, d, k]
        if h < 0:
            return False
        if h == g:
            return True
        if board[h] >= 0:
            return False
    return False


@njit(cache=True, _nrt=False)
def adjacent_dwarves(st, geo):
    g = st[S_POS + FIG_DRAGON]
    n = 0
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and geo[g, p] == 1:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def area_open(st, area):
    return st[S_AREA + area] < st[S_ACAP + area]


# ---- decisions --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def set_row(opts, i, a, b, c, d, e, f, g, h):
    opts[i, 0] = a
    opts[i, 1] = b
    opts[i, 2] = c
    opts[i, 3] = d
    opts[i, 4] = e
    opts[i, 5] = f
    opts[i, 6] = g
    opts[i, 7] = h


@njit(cache=True, _nrt=False)
def decide(fns, slot, side, kind, opts, n, st, geo, pd, pw):
    """Ask a side's strategy; one option needs no question. A bad answer becomes option 0."""
    if n <= 1:
        return 0
    st[S_SIDE] = side
    if side == DRAGON:
        i = fns[slot](kind, opts, n, st, geo, pd)
    else:
        i = fns[4 + slot](kind, opts, n, st, geo, pw)
    if i < 0 or i >= n:
        st[T_BAD_CHOICES] += 1
        return 0
    return i


# ---- ending -----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def finish(st, winner, mode):
    if st[S_OVER] == 0:
        st[S_OVER] = 1
        st[S_WINNER] = winner
        st[S_END] = mode


@njit(cache=True, _nrt=False)
def dwarves_out(st):
    """The dwarves lose the moment their hand and deck are both empty."""
    if st[S_OVER] == 0 and st[S_HAND_N + DWARVES] == 0 and st[S_DECK_N + DWARVES] == 0:
        finish(st, WIN_DRAGON, END_OUT_OF_CARDS)


# ---- wounds and attacks -----------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def wound_dwarf(st, board, cfg, f, value, by_dragon, tr, tp):
    room = st[S_CAP + f] - st[S_WOUND + f]
    m = value if value < room else room
    st[S_WOUND + f] += m
    if by_dragon:
        st[T_WOUNDS_DWARVES] += m
    else:
        st[T_FURY_WOUNDS] += m
    emit(tr, tp, EV_WOUND, f, 0, m, 0, 0, 0, 0)
    if st[S_WOUND + f] >= st[S_CAP + f]:
        place(st, board, f, -1)
        emit(tr, tp, EV_KILL, f, 0, 0, 0, 0, 0, 0)
        if f == FIG_NET and st[S_NETTED] == 1 and cfg[C_NET_STAYS] == 0:
            st[S_NETTED] = 0
        if st[S_POS + 1] < 0 and st[S_POS + 2] < 0 and st[S_POS + 3] < 0:
            finish(st, WIN_DRAGON, END_DWARVES_SLAIN)


@njit(cache=True, _nrt=False)
def wound_dragon(st, board, value, fns, opts, geo, pd, pw, tr, tp):
    """Armour first; beyond it the dwarf player picks an open ability area for each marker."""
    for _ in range(value):
        if st[S_OVER]:
            return
        if area_open(st, AREA_ARMOUR):
            area = AREA_ARMOUR
        else:
            n = 0
            for a in range(AREA_FLIGHT, AREA_MOVE + 1):
                if area_open(st, a):
                    set_row(opts, n, a, 0, 0, 0, 0, 0, 0, 0)
                    n += 1
            if n == 0:
                return
            area = opts[decide(fns, F_REACT, DWARVES, K_WOUND, opts, n, st, geo, pd, pw), 0]
        st[S_AREA + area] += 1
        st[S_WOUND + FIG_DRAGON] += 1
        st[T_WOUNDS_DRAGON] += 1
        emit(tr, tp, EV_WOUND, FIG_DRAGON, area, 1, 0, 0, 0, 0)
        if st[S_WOUND + FIG_DRAGON] >= st[S_CAP + FIG_DRAGON]:
            place(st, board, FIG_DRAGON, -1)
            emit(tr, tp, EV_KILL, FIG_DRAGON, 0, 0, 0, 0, 0, 0)
            finish(st, WIN_DWARVES, END_DRAGON_SLAIN)


@njit(cache=True, _nrt=False)
def offer_block(st, cfg, cards, side, value, target, attacker, fns, opts, geo, pd, pw):
    """The defending side may answer an attack with a card showing Defense; returns the kind or -1."""
    if st[S_SYM + side * N_SYM + SYM_DEFENSE] == 0:
        return -1
    set_row(opts, 0, 0, -1, value, target, attacker, 0, 0, 0)
    n = 1
    for t in range(cfg[C_NTYPES_D + side]):
        if st[S_HAND + side * MAX_TYPES + t] > 0 and has_symbol(cards, side, t, SYM_DEFENSE):
            set_row(opts, n, 1, t, value, target, attacker, 0, 0, 0)
            n += 1
    # a lone "no" row must still be asked: pass n >= 2 here always
    i = decide(fns, F_REACT, side, K_BLOCK, opts, n, st, geo, pd, pw)
    if opts[i, 0] == 1:
        return opts[i, 1]
    return -1


@njit(cache=True, _nrt=False)
def attack_dragon(st, board, cfg, cards, gone, attacker, value, fns, opts, geo, pd, pw, tr, tp):
    emit(tr, tp, EV_ATTACK, attacker, FIG_DRAGON, value, 0, 0, 0, 0)
    st[T_ATTACKS + DWARVES] += 1
    t = offer_block(st, cfg, cards, DRAGON, value, FIG_DRAGON, attacker, fns, opts, geo, pd, pw)
    if t >= 0:
        hand_take(st, cards, gone, DRAGON, t)
        st[T_USE + DRAGON * N_SYM + SYM_DEFENSE] += 1
        st[T_BLOCKED + DWARVES] += 1
        emit(tr, tp, EV_BLOCK, DRAGON, t, 0, 0, 0, 0, 0)
        return
    wound_dragon(st, board, value, fns, opts, geo, pd, pw, tr, tp)


@njit(cache=True, _nrt=False)
def attack_dwarf(st, board, cfg, cards, gone, f, value, fns, opts, geo, pd, pw, tr, tp):
    emit(tr, tp, EV_ATTACK, FIG_DRAGON, f, value, 0, 0, 0, 0)
    st[T_ATTACKS + DRAGON] += 1
    t = offer_block(st, cfg, cards, DWARVES, value, f, FIG_DRAGON, fns, opts, geo, pd, pw)
    if t >= 0:
        hand_take(st, cards, gone, DWARVES, t)
        st[T_USE + DWARVES * N_SYM + SYM_DEFENSE] += 1
        st[T_BLOCKED + DRAGON] += 1
        emit(tr, tp, EV_BLOCK, DWARVES, t, 0, 0, 0, 0, 0)
        dwarves_out(st)
        return
    wound_dwarf(st, board, cfg, f, value, True, tr, tp)


# ---- listing the main choices -------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def usable(side, sym, value, st, board, cfg, geo, lines, n_adjacent, best_fire, crossbow):
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


@njit(cache=True, _nrt=False)
def list_main(side, st, board, cfg, geo, lines, cards, opts):
    h_count = cfg[C_HEXES]
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
        g = st[S_POS + FIG_DRAGON]
        for d in range(6):
            k = fire_hits(board, lines, h_count, g, d, cfg[C_FIRE_RANGE])
            if k > best_fire:
                best_fire = k
        if best_fire == 0 and cfg[C_FIRE_NEEDS_TARGET] == 0:
            for d in range(6):
                if lines[g, d, 0] >= 0:
                    best_fire = 1   # an empty line is still a legal breath
    else:
        crossbow = crossbow_clear(st, board, geo, lines, h_count, cfg[C_CROSSBOW_MIN])
    n_plays = 0
    for t in range(cfg[C_NTYPES_D + side]):
        if st[S_HAND + side * MAX_TYPES + t] == 0:
            continue
        for o in range(2):
            sym = cards[side, t, CARD_SYM0 + 2 * o]
            if sym == SYM_NONE or sym == SYM_DEFENSE:
                continue
            value = cards[side, t, CARD_VAL0 + 2 * o]
            ways = usable(side, sym, value, st, board, cfg, geo, lines, n_adjacent, best_fire, crossbow)
            if ways > 0:
                other = 1 - o
                set_row(opts, n, A_PLAY, t, o, sym, value, ways,
                        cards[side, t, CARD_SYM0 + 2 * other], cards[side, t, CARD_VAL0 + 2 * other])
                n += 1
                n_plays += 1
    if n == 0:
        if st[S_HAND_N + side] > 0 and cfg[C_STUCK_DISCARD] == 1:
            for t in range(cfg[C_NTYPES_D + side]):
                if st[S_HAND + side * MAX_TYPES + t] > 0:
                    set_row(opts, n, A_DUD, t, -1, 0, 0, 0, 0, 0)
                    n += 1
        else:
            set_row(opts, n, A_PASS, -1, -1, 0, 0, 0, 0, 0)
            n += 1
    return n


# ---- card effects -------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def list_dwarf_moves(st, board, cfg, geo, value, skip, scr, opts):
    h_count = cfg[C_HEXES]
    n = 0
    dest = scr[2]
    for f in range(1, 4):
        p = st[S_POS + f]
        if p < 0 or f == skip:
            continue
        k = reach(board, geo, h_count, p, value, cfg[C_THROUGH] == 1, scr, dest)
        for i in range(k):
            set_row(opts, n, f, dest[i], 0, 0, 0, 0, 0, 0)
            n += 1
    return n


@njit(cache=True, _nrt=False)
def play_dragon(st, board, cfg, geo, lines, cards, gone, t, o, fns, opts, scr, pd, pw, tr, tp):
    sym = cards[DRAGON, t, CARD_SYM0 + 2 * o]
    value = cards[DRAGON, t, CARD_VAL0 + 2 * o]
    h_count = cfg[C_HEXES]
    g = st[S_POS + FIG_DRAGON]
    hand_take(st, cards, gone, DRAGON, t)
    st[T_USE + DRAGON * N_SYM + sym] += 1
    if sym == SYM_MOVE:
        dest = scr[2]
        k = reach(board, geo, h_count, g, value, cfg[C_THROUGH] == 1, scr, dest)
        for i in range(k):
            set_row(opts, i, dest[i], 0, 0, 0, 0, 0, 0, 0)
        h = opts[decide(fns, F_TARGET, DRAGON, K_DRAGON_MOVE, opts, k, st, geo, pd, pw), 0]
        emit(tr, tp, EV_PLAY, DRAGON, t, o, h, 0, 0, 0)
        place(st, board, FIG_DRAGON, h)
    elif sym == SYM_FLIGHT:
        n = 0
        for h in range(h_count):
            if board[h] < 0:
                set_row(opts, n, h, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        h = opts[decide(fns, F_TARGET, DRAGON, K_FLIGHT, opts, n, st, geo, pd, pw), 0]
        emit(tr, tp, EV_PLAY, DRAGON, t, o, h, 0, 0, 0)
        place(st, board, FIG_DRAGON, h)
    elif sym == SYM_ATTACK:
        n = 0
        for f in range(1, 4):
            p = st[S_POS + f]
            if p >= 0 and geo[g, p] == 1:
                set_row(opts, n, f, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        f = opts[decide(fns, F_TARGET, DRAGON, K_VICTIM, opts, n, st, geo, pd, pw), 0]
        emit(tr, tp, EV_PLAY, DRAGON, t, o, f, 0, 0, 0)
        attack_dwarf(st, board, cfg, cards, gone, f, value, fns, opts, geo, pd, pw, tr, tp)
    elif sym == SYM_FIRE:
        n = 0
        for d in range(6):
            k = fire_hits(board, lines, h_count, g, d, cfg[C_FIRE_RANGE])
            if k > 0 or (cfg[C_FIRE_NEEDS_TARGET] == 0 and lines[g, d, 0] >= 0):
                set_row(opts, n, d, k, lines[g, d, 0], 0, 0, 0, 0, 0)
                n += 1
        d = opts[decide(fns, F_TARGET, DRAGON, K_FIRE, opts, n, st, geo, pd, pw), 0]
        emit(tr, tp, EV_PLAY, DRAGON, t, o, d, 0, 0, 0)
        for k in range(h_count):
            if st[S_OVER] or (cfg[C_FIRE_RANGE] > 0 and k >= cfg[C_FIRE_RANGE]):
                break
            h = lines[g, d, k]
            if h < 0:
                break
            f = board[h]
            if f > FIG_DRAGON:
                attack_dwarf(st, board, cfg, cards, gone, f, value, fns, opts, geo, pd, pw, tr, tp)


@njit(cache=True, _nrt=False)
def play_dwarves(st, board, cfg, geo, lines, cards, gone, t, o, fns, opts, scr, pd, pw, tr, tp):
    sym = cards[DWARVES, t, CARD_SYM0 + 2 * o]
    value = cards[DWARVES, t, CARD_VAL0 + 2 * o]
    g = st[S_POS + FIG_DRAGON]
    hand_take(st, cards, gone, DWARVES, t)
    st[T_USE + DWARVES * N_SYM + sym] += 1
    if sym == SYM_MOVE or sym == SYM_MOVE_TWO:
        n = list_dwarf_moves(st, board, cfg, geo, value, -1, scr, opts)
        i = decide(fns, F_TARGET, DWARVES, K_DWARF_MOVE, opts, n, st, geo, pd, pw)
        f1, h1 = opts[i, 0], opts[i, 1]
        place(st, board, f1, h1)
        f2, h2 = -1, -1
        if sym == SYM_MOVE_TWO:
            n = list_dwarf_moves(st, board, cfg, geo, value, f1, scr, opts)
            if n > 0:
                i = decide(fns, F_TARGET, DWARVES, K_DWARF_MOVE2, opts, n, st, geo, pd, pw)
                f2, h2 = opts[i, 0], opts[i, 1]
                place(st, board, f2, h2)
        emit(tr, tp, EV_PLAY, DWARVES, t, o, f1, h1, f2, h2)
    elif sym == SYM_ATTACK or sym == SYM_ATTACK_TWO:
        # which adjacent dwarves strike makes no difference: the first ones found do
        first, second = -1, -1
        for f in range(1, 4):
            p = st[S_POS + f]
            if p >= 0 and geo[g, p] == 1:
                if first < 0:
                    first = f
                elif second < 0 and sym == SYM_ATTACK_TWO:
                    second = f
        emit(tr, tp, EV_PLAY, DWARVES, t, o, first, second, 0, 0)
        attack_dragon(st, board, cfg, cards, gone, first, value, fns, opts, geo, pd, pw, tr, tp)
        if second >= 0 and st[S_OVER] == 0:
            attack_dragon(st, board, cfg, cards, gone, second, value, fns, opts, geo, pd, pw, tr, tp)
    elif sym == SYM_CROSSBOW:
        emit(tr, tp, EV_PLAY, DWARVES, t, o, FIG_ARCHER, 0, 0, 0)
        attack_dragon(st, board, cfg, cards, gone, FIG_ARCHER, value, fns, opts, geo, pd, pw, tr, tp)
    elif sym == SYM_NET:
        emit(tr, tp, EV_PLAY, DWARVES, t, o, FIG_NET, 0, 0, 0)
        st[S_NETTED] = 1
    dwarves_out(st)


@njit(cache=True, _nrt=False)
def discard_down(st, cfg, cards, gone, side, fns, opts, geo, pd, pw, tr, tp):
    while st[S_HAND_N + side] > cfg[C_HAND_LIMIT]:
        n = 0
        for t in range(cfg[C_NTYPES_D + side]):
            c = st[S_HAND + side * MAX_TYPES + t]
            if c > 0:
                set_row(opts, n, t, c, 0, 0, 0, 0, 0, 0)
                n += 1
        t = opts[decide(fns, F_REACT, side, K_DISCARD, opts, n, st, geo, pd, pw), 0]
        hand_take(st, cards, gone, side, t)
        st[T_DISCARDS + side] += 1
        emit(tr, tp, EV_DISCARD, side, t, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def take_action(side, st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr, pd, pw, tr, tp):
    """One action of the side whose turn it is; returns the actions it used up."""
    n = list_main(side, st, board, cfg, geo, lines, cards, opts)
    i = decide(fns, F_ACT, side, K_MAIN, opts, n, st, geo, pd, pw)
    action, t, o = opts[i, 0], opts[i, 1], opts[i, 2]
    if action == A_DRAW:
        got = draw_cards(st, decks, cards, side, cfg[C_DRAW])
        st[T_DRAWS + side] += 1
        emit(tr, tp, EV_DRAW, side, got, 0, 0, 0, 0, 0)
        discard_down(st, cfg, cards, gone, side, fns, opts, geo, pd, pw, tr, tp)
        return 1
    if action == A_ESCAPE:
        st[S_NETTED] = 0
        st[T_ESCAPES] += 1
        emit(tr, tp, EV_ESCAPE, 0, 0, 0, 0, 0, 0, 0)
        return st[S_ACTIONS]
    if action == A_PASS:
        st[T_PASSES + side] += 1
        emit(tr, tp, EV_PASS, side, 0, 0, 0, 0, 0, 0)
        return 1
    if action == A_DUD:
        hand_take(st, cards, gone, side, t)
        st[T_DUDS + side] += 1
        emit(tr, tp, EV_DUD, side, t, 0, 0, 0, 0, 0)
        if side == DWARVES:
            dwarves_out(st)
        return 1
    if side == DRAGON:
        play_dragon(st, board, cfg, geo, lines, cards, gone, t, o, fns, opts, scr, pd, pw, tr, tp)
    else:
        play_dwarves(st, board, cfg, geo, lines, cards, gone, t, o, fns, opts, scr, pd, pw, tr, tp)
    return 1


@njit(cache=True, _nrt=False)
def offer_fury(st, board, cfg, fns, opts, geo, pd, pw, tr, tp):
    """At the start of a dwarf turn: Fury, once, while its dwarf lives; returns the turn's actions."""
    actions = cfg[C_ACTIONS]
    f = FIG_FURY
    if st[S_FURY_USED] or st[S_POS + f] < 0:
        return actions
    if cfg[C_FURY_LETHAL] == 0 and st[S_WOUND + f] + cfg[C_FURY_WOUND] >= st[S_CAP + f]:
        return actions
    set_row(opts, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    set_row(opts, 1, 1, 0, 0, 0, 0, 0, 0, 0)
    if opts[decide(fns, F_SETUP, DWARVES, K_FURY, opts, 2, st, geo, pd, pw), 0] == 0:
        return actions
    st[S_FURY_USED] = 1
    st[S_FURY_NOW] = 1
    st[T_FURY_TURN] = st[S_TURN]
    emit(tr, tp, EV_FURY, 0, 0, 0, 0, 0, 0, 0)
    if cfg[C_FURY_WOUND] > 0:
        wound_dwarf(st, board, cfg, f, cfg[C_FURY_WOUND], False, tr, tp)
    return cfg[C_FURY_ACTIONS]


@njit(cache=True, _nrt=False)
def play_turn(st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr, pd, pw, tr, tp):
    """One whole turn of the side to move (the dragon on odd turns)."""
    st[S_TURN] += 1
    turn = st[S_TURN]
    side = DRAGON if turn % 2 == 1 else DWARVES
    st[S_SIDE] = side
    st[S_FURY_NOW] = 0
    if side == DRAGON:
        actions = cfg[C_FIRST_ACTIONS] if turn == 1 else cfg[C_ACTIONS]
        if st[S_NETTED]:
            st[T_NET_TURNS] += 1
    else:
        actions = offer_fury(st, board, cfg, fns, opts, geo, pd, pw, tr, tp)
    emit(tr, tp, EV_TURN, side, turn, actions, 0, 0, 0, 0)
    if st[S_OVER]:
        return
    if side == DRAGON and st[S_HAND_N + DRAGON] == 0 and st[S_DECK_N + DRAGON] == 0:
        st[T_PASSES + DRAGON] += actions
        emit(tr, tp, EV_PASS, DRAGON, 1, 0, 0, 0, 0, 0)
        return
    st[S_TURN_ACTIONS] = actions
    left = actions
    while left > 0 and st[S_OVER] == 0:
        st[S_ACTIONS] = left
        left -= take_action(side, st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr,
                            pd, pw, tr, tp)
        if cfg[C_CHECK]:
            st[T_VIOLATIONS] += violations(st, board, cfg, cards, gone)
    st[S_ACTIONS] = 0


# ---- invariants (check mode) ------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def violations(st, board, cfg, cards, gone):
    """Count broken invariants: cards conserved, hands consistent, figures apart, wounds in range."""
    bad = 0
    for side in range(2):
        hand_sum = 0
        for t in range(cfg[C_NTYPES_D + side]):
            h = st[S_HAND + side * MAX_TYPES + t]
            hand_sum += h
            if h < 0:
                bad += 1
        if hand_sum != st[S_HAND_N + side]:
            bad += 1
        if st[S_HAND_N + side] > cfg[C_HAND_LIMIT]:
            bad += 1
        if st[S_DECK_N + side] != st[S_DECK_LEN + side] - st[S_DECK_TOP + side]:
            bad += 1
        if st[S_HAND_N + side] + st[S_DECK_N + side] + st[S_GONE + side] != cfg[C_DECK_D + side]:
            bad += 1
        for t in range(cfg[C_NTYPES_D + side]):
            total = st[S_HAND + side * MAX_TYPES + t] + gone[side, t]
            if total > cards[side, t, 0]:
                bad += 1
        for s in range(N_SYM):
            if st[S_SYM + side * N_SYM + s] < 0:
                bad += 1
    h_count = cfg[C_HEXES]
    seen = 0
    for f in range(4):
        p = st[S_POS + f]
        if st[S_WOUND + f] < 0 or st[S_WOUND + f] > st[S_CAP + f]:
            bad += 1
        if p >= 0:
            seen += 1
            if p >= h_count or board[p] != f or st[S_WOUND + f] >= st[S_CAP + f]:
                bad += 1
        elif st[S_WOUND + f] != st[S_CAP + f]:
            bad += 1
    occupied = 0
    for h in range(h_count):
        if board[h] >= 0:
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


# ---- a whole game -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def setup_game(st, board, decks, cfg, geo, cards, gone, fns, opts, pd, pw, rs, tr, tp):
    """Deal, optional mulligans, then the dwarves' placement (which sees the hand)."""
    st[:] = 0
    board[:] = -1
    gone[:, :] = 0
    for f in range(4):
        st[S_POS + f] = -1
        st[S_CAP + f] = cfg[C_CAP + f]
    for a in range(4):
        st[S_ACAP + a] = cfg[C_ACAP + a]
    st[S_WINNER] = WIN_NOBODY
    st[T_FURY_TURN] = -1
    place(st, board, FIG_DRAGON, cfg[C_DRAGON_START])
    for side in range(2):
        shuffle_deck(st, decks, cfg, cards, rs, side, tr, tp)
        draw_cards(st, decks, cards, side, cfg[C_OPENING])
    if cfg[C_MULLIGAN]:
        for side in range(2):
            set_row(opts, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            set_row(opts, 1, 1, 0, 0, 0, 0, 0, 0, 0)
            if opts[decide(fns, F_SETUP, side, K_MULLIGAN, opts, 2, st, geo, pd, pw), 0] == 1:
                for t in range(cfg[C_NTYPES_D + side]):
                    while st[S_HAND + side * MAX_TYPES + t] > 0:
                        hand_take(st, cards, gone, side, t)
                        gone[side, t] -= 1        # back into the deck, not gone
                        st[S_GONE + side] -= 1
                st[T_MULLIGANS + side] += 1
                emit(tr, tp, EV_MULLIGAN, side, 0, 0, 0, 0, 0, 0)
                shuffle_deck(st, decks, cfg, cards, rs, side, tr, tp)
                draw_cards(st, decks, cards, side, cfg[C_OPENING])
    g = cfg[C_DRAGON_START]
    h_count = cfg[C_HEXES]
    for w in range(3):
        f = 1 + w
        if cfg[C_FREE_PLACEMENT]:
            n = 0
            for h in range(h_count):
                if board[h] < 0 and geo[g, h] >= 2:
                    set_row(opts, n, h, f, 0, 0, 0, 0, 0, 0)
                    n += 1
            h = opts[decide(fns, F_SETUP, DWARVES, K_PLACE, opts, n, st, geo, pd, pw), 0]
        else:
            h = cfg[C_START + w]
        place(st, board, f, h)
        emit(tr, tp, EV_PLACE, f, h, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def play_game(st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr, pd, pw, rs, tr, tp):
    setup_game(st, board, decks, cfg, geo, cards, gone, fns, opts, pd, pw, rs, tr, tp)
    if cfg[C_CHECK]:
        st[T_VIOLATIONS] += violations(st, board, cfg, cards, gone)
    while st[S_OVER] == 0:
        if st[S_TURN] >= cfg[C_TURN_CAP]:
            finish(st, WIN_NOBODY, END_STALEMATE)
            break
        play_turn(st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr, pd, pw, tr, tp)
    emit(tr, tp, EV_END, st[S_WINNER], st[S_END], st[S_TURN], 0, 0, 0, 0)


FN = DECISION_FN
BATCH_SIG = types.int64(
    types.int64, types.int64, types.int64[:], types.int64[:, :], types.int64[:, :, :],
    types.int64[:, :, :], FN, FN, FN, FN, FN, FN, FN, FN, types.float64[:], types.float64[:],
    types.int32[:, :], types.int16[:, :], types.int64[:], types.int64)


@njit(BATCH_SIG, cache=True)
def play_batch(seed, n, cfg, geo, lines, cards, d_act, d_target, d_react, d_setup,
               w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced):
    """Play n games from `seed`; `out[g]` is game g's final state vector (records.S_* / T_*).

    The first n_traced games write their events into `trace`, game i's rows starting at
    trace_start[i] (trace_start[n_traced] is the end). Returns 1 if `trace` was too small.
    """
    np.random.seed(seed)
    fns = (d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup)
    h_count = cfg[C_HEXES]
    st = np.zeros(N_STATE, np.int64)
    board = np.full(h_count, -1, np.int64)
    decks = np.zeros((2, MAX_DECK), np.int64)
    gone = np.zeros((2, MAX_TYPES), np.int64)
    opts = np.zeros((MAX_OPTS, 8), np.int64)
    scr = np.zeros((3, h_count), np.int64)
    rs = np.zeros(1, np.uint64)
    tp = np.zeros(3, np.int64)
    for g in range(n):
        deal_seed(rs, seed, g)
        tp[1] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = tp[0]
        play_game(st, board, decks, cfg, geo, lines, cards, gone, fns, opts, scr, pd, pw, rs, trace, tp)
        for k in range(N_STATE):
            out[g, k] = st[k]
    if n_traced > 0:
        trace_start[n_traced] = tp[0]
    return tp[2]
