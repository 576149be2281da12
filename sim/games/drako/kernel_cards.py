"""Drako kernel, part 3: cards. Hands, decks and draws, and the option rows of each decision a
side takes from its hand: the main action, dwarf moves, blocks and discards."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.drako.records import (
    A_DRAW, A_DUD, A_ESCAPE, A_FURY, A_PASS, A_PLAY, AREA_FIRE, AREA_FLIGHT, AREA_MOVE,
    C_FIRE_NEEDS_TARGET, C_FURY_LETHAL, C_FURY_WOUND, C_NTYPES_D, C_STUCK_DISCARD, CARD_SYM0, CARD_SYM1,
    CARD_VAL0, CARD_VAL1, DRAGON, DWARVES, EV_DECK, FIG_ARCHER, FIG_DRAGON, FIG_FURY, FIG_NET, MAX_DECK,
    MAX_HEX, MAX_TYPES, N_SYM, S_ACTIONS, S_CAP, S_DECK_LEN, S_DECK_N, S_DECK_TOP, S_FURY_USED, S_GONE,
    S_HAND, S_HAND_MASK, S_HAND_N, S_NETTED, S_POS, S_RNG, S_SYM, S_TURN_ACTIONS, S_WOUND, SYM_ATTACK,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT, SYM_MOVE, SYM_MOVE_TWO, SYM_NET,
    SYM_NONE, T_F_CROSSBOW_MIN, T_F_FIRE_TARGET, T_F_FURY_LETHAL, T_F_STUCK, W_CARDS, W_DECKS, W_GONE,
    W_SCR, W_ST,
)
from sim.games.drako.kernel_base import (
    RNG_MUL, add, area_open, card, dist, emit, FAST, get, has_symbol, put, set_row,
)
from sim.games.drako.kernel_board import (
    adjacent_dwarves, crossbow_clear, fire_dirs, reach,
)

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
        j = np.int64((((x * RNG_MUL) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
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


@njit(**FAST)
def fury_allowed(w):
    """Before the dwarves' first action, while Fury is unused and its dwarf can take the wound."""
    f = FIG_FURY
    return (w[W_ST + S_FURY_USED] == 0 and w[W_ST + S_POS + f] >= 0
            and w[W_ST + S_ACTIONS] == w[W_ST + S_TURN_ACTIONS]
            and (w[C_FURY_LETHAL] == 1
                 or w[W_ST + S_WOUND + f] + w[C_FURY_WOUND] < w[W_ST + S_CAP + f]))


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
