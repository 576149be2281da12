"""Drako kernel, part 2: the board. Figures on hexes, where a figure can walk, fire lines, the
crossbow's line and the dwarves next to the dragon; and the look-up tables (built once per batch in
Python) that make the walks and fire lines cheap."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.drako.records import (
    C_CROSSBOW_MIN, C_FIRE_RANGE, C_HEXES, C_THROUGH, FIG_ARCHER, FIG_DRAGON, MAX_HEX, S_POS, T_F_THROUGH,
    W_BOARD, W_GEO, W_GEO_COLS, W_RAY_AT, W_RING2, W_SCR, W_ST,
)
from sim.games.drako.kernel_base import (
    add, dist, FAST, get, neighbour, put,
)

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


# ---- tables (Python, once per batch) --------------------------------------------------------------


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
