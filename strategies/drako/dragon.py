"""The built-in Drako dragons: brawler (v1 and v2) and kiter, each as a numba function of the
decision signature plus a parameter offset `b` (where its parameters start in p: a two-sided
strategy puts the dwarves' after the dragon's), and its registered `*_choice` function."""

from __future__ import annotations

from numba import njit

from sim.engine.strategy import njit_later
from sim.games.drako.records import (
    A_PLAY, DECISION_SIG, FIG_DRAGON, K_BLOCK, K_DISCARD, K_DRAGON_MOVE, K_FIRE, K_FLIGHT, K_MAIN,
    K_MULLIGAN, K_VICTIM, SYM_ATTACK, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT, SYM_MOVE, S_POS, S_SYM,
)
from strategies.drako.shared import (
    FAST, NEG, archer_aims_at, cheapest_block, dragon_other, dwarves_next_to, keep_defense_cost,
    left, n_hexes, nearest_dwarf, weakest_dwarf, weakest_victim, widest_fire, worst_card,
)


# ---- dragon: brawler -------------------------------------------------------------------------------
BRAWLER = ("hand_target", "attack_weight", "fire_weight", "approach", "keep_defense", "block_min")
BRAWLER_DEFAULTS = (3.0, 3.0, 3.0, 1.5, 1.0, 1.0)
BRAWLER_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 10.0), (0.0, 5.0), (0.0, 5.0), (1.0, 4.0))


@njit(**FAST)
def brawler_main(opts, n, st, geo, p, b, flee):
    """The brawler's main action. With `flee` (brawler2), among two or more dwarves and with
    p[b + 6] >= 0, the best walk or flight out (worth p[b + 6]) wins unless v1's pick kills, or is a
    claw or breath worth more. One pass over the rows works out v1's pick and the way out together;
    the weakest dwarf is looked up once (v1 looked it up for every claw row): same picks."""
    g = st[S_POS + FIG_DRAGON]
    adjacent = dwarves_next_to(st, geo, g, -1)
    leave = flee and not (adjacent < 2 or p[b + 6] < 0)
    kill_at = 1 << 40       # a claw of at least this value kills the weakest dwarf
    if adjacent > 0:        # claw rows are listed only next to a dwarf
        w = weakest_dwarf(st)
        if w >= 0 and geo[g, st[S_POS + w]] == 1:
            kill_at = left(st, w)
    best, pick = NEG, 0
    lbest, lpick = NEG, 0
    for i in range(n):
        if opts[i, 0] != A_PLAY:
            x = dragon_other(st, opts, i, p[b + 0], 0.0, 2.0 - 2.0 * adjacent, 1.0)
        else:
            s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
            if s == SYM_ATTACK:
                x = p[b + 1] * v
                if kill_at <= v:
                    x += 3.0
            elif s == SYM_FIRE:
                x = p[b + 2] * v * ways
            elif s == SYM_MOVE:
                x = p[b + 3] if adjacent == 0 else -1.0
            else:  # flight
                x = 0.8 * p[b + 3] if adjacent == 0 and nearest_dwarf(st, geo, g) > 2 else -1.5
            keep = keep_defense_cost(opts[i, 6], p[b + 4])
            x -= keep
            if leave and (s == SYM_MOVE or s == SYM_FLIGHT):
                y = p[b + 6] - keep
                if y > lbest:
                    lbest, lpick = y, i
        if x > best:
            best, pick = x, i
    if leave and lbest > NEG:
        # compare with v1's pick: leave when that beats what v1 would do
        j = pick
        a = opts[j, 0]
        if a == A_PLAY and opts[j, 3] == SYM_ATTACK:
            v = opts[j, 4]
            if kill_at <= v:
                return j             # a kill now beats leaving
            if p[b + 1] * v > lbest:
                return j
        if a == A_PLAY and opts[j, 3] == SYM_FIRE and p[b + 2] * opts[j, 4] * opts[j, 5] > lbest:
            return j
        return lpick
    return pick


@njit(**FAST)
def brawler_move(opts, n, st, geo, crowd_weight):
    """Where the brawler walks or flies: near the weakest dwarf, on lines with dwarves (fire), not
    among several (each dwarf past the first costs crowd_weight)."""
    target = weakest_dwarf(st)
    tpos = st[S_POS + target] if target >= 0 else 0
    hx = n_hexes(geo)
    q1, q2, q3 = st[S_POS + 1], st[S_POS + 2], st[S_POS + 3]
    a1, a2, a3 = q1 >= 0, q2 >= 0, q3 >= 0
    c1, c2, c3 = max(q1, 0), max(q2, 0), max(q3, 0)     # any hex for a dead dwarf (masked)
    best, pick = NEG, 0
    for i in range(n):
        h = opts[i, 0]
        x = -1.0 * geo[h, tpos] if target >= 0 else 0.0
        # dwarves sharing a straight line with h (geo[hx + h, h] is -1: never a dwarf on h itself)
        lines = ((a1 & (geo[hx + h, c1] >= 0)) + (a2 & (geo[hx + h, c2] >= 0))
                 + (a3 & (geo[hx + h, c3] >= 0)))
        x += 0.5 * lines
        crowd = (a1 & (geo[h, c1] == 1)) + (a2 & (geo[h, c2] == 1)) + (a3 & (geo[h, c3] == 1))
        if crowd > 1:
            x -= crowd_weight * (crowd - 1)
        if x > best:
            best, pick = x, i
    return pick


@njit(**FAST)
def brawler_rest(kind, opts, n, st, geo, p, b):
    """The brawler's answers besides its main action and its moves (v1 and v2 alike)."""
    if kind == K_VICTIM:
        return weakest_victim(opts, n, st)
    if kind == K_FIRE:
        return widest_fire(opts, n)
    if kind == K_BLOCK:
        if opts[0, 2] >= p[b + 5]:
            return cheapest_block(opts, n)
        return 0
    if kind == K_DISCARD:
        return worst_card(opts, n, 1.0)
    if kind == K_MULLIGAN:
        strong = st[S_SYM + SYM_ATTACK] + st[S_SYM + SYM_FIRE]
        return 1 if strong == 0 and n > 1 else 0
    return 0


@njit(**FAST)
def brawler(kind, opts, n, st, geo, p, b):
    if kind == K_MAIN:
        return brawler_main(opts, n, st, geo, p, b, False)
    if kind == K_DRAGON_MOVE or kind == K_FLIGHT:
        return brawler_move(opts, n, st, geo, 0.8)
    return brawler_rest(kind, opts, n, st, geo, p, b)


@njit_later(DECISION_SIG, **FAST)
def brawler_choice(kind, opts, n, st, geo, p):
    return brawler(kind, opts, n, st, geo, p, 0)


# ---- dragon: brawler v2 ---------------------------------------------------------------------------
# v1 walked into the middle of the dwarves and stayed there, as the rulebook's author warns a dragon
# not to; v2 still closes on the weakest dwarf and claws, but leaves a crowd (two or more dwarves next
# to it) when it can walk or fly, unless a claw kills or a blow or breath is worth more, and weighs a
# crowd at the destination more. flee < 0 plays v1.
BRAWLER2 = BRAWLER + ("flee", "crowd")
BRAWLER2_DEFAULTS = BRAWLER_DEFAULTS + (6.0, 2.0)
BRAWLER2_BOUNDS = BRAWLER_BOUNDS + ((-1.0, 10.0), (0.0, 5.0))


@njit(**FAST)
def brawler2(kind, opts, n, st, geo, p, b):
    if kind == K_MAIN:
        return brawler_main(opts, n, st, geo, p, b, True)
    if kind == K_DRAGON_MOVE or kind == K_FLIGHT:
        return brawler_move(opts, n, st, geo, p[b + 7])
    return brawler_rest(kind, opts, n, st, geo, p, b)


@njit_later(DECISION_SIG, **FAST)
def brawler2_choice(kind, opts, n, st, geo, p):
    return brawler2(kind, opts, n, st, geo, p, 0)


# ---- dragon: kiter ----------------------------------------------------------------------------------
KITER = ("hand_target", "safety", "archer_fear", "fire_min", "keep_defense", "escape")
KITER_DEFAULTS = (4.0, 2.0, 1.5, 2.0, 1.5, 3.0)
KITER_BOUNDS = ((0.0, 6.0), (0.0, 5.0), (0.0, 5.0), (1.0, 3.0), (0.0, 5.0), (0.0, 6.0))


@njit(**FAST)
def kiter_move(opts, n, st, geo, p, b):
    """Where the kiter walks or flies: away from the dwarves (up to four hexes), off the archer's
    lines, next to none."""
    best, pick = NEG, 0
    for i in range(n):
        h = opts[i, 0]
        near = nearest_dwarf(st, geo, h)
        x = p[b + 1] * (near if near < 4 else 4)
        if archer_aims_at(st, geo, h):
            x -= p[b + 2]
        x -= 3.0 * dwarves_next_to(st, geo, h, -1)
        if x > best:
            best, pick = x, i
    return pick


@njit(**FAST)
def kiter(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    if kind == K_MAIN:
        adjacent = dwarves_next_to(st, geo, g, -1)
        threat = adjacent + (1 if archer_aims_at(st, geo, g) else 0)
        best, pick = NEG, 0
        for i in range(n):
            if opts[i, 0] != A_PLAY:
                x = dragon_other(st, opts, i, p[b + 0], 0.5, p[b + 5] + 2.0 * threat, 2.5)
            else:
                s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
                if s == SYM_MOVE or s == SYM_FLIGHT:
                    x = 3.0 + threat if threat > 0 else -0.5
                    if s == SYM_FLIGHT and adjacent >= 2:
                        x += 1.0
                elif s == SYM_FIRE:
                    x = 3.0 * v * ways if ways >= p[b + 3] else (1.0 * v * ways if threat == 0 else 0.5)
                else:  # attack
                    w = weakest_dwarf(st)
                    x = 0.5 * v
                    if w >= 0 and left(st, w) <= v and geo[g, st[S_POS + w]] == 1:
                        x = 5.0
                x -= keep_defense_cost(opts[i, 6], p[b + 4])
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_DRAGON_MOVE or kind == K_FLIGHT:
        return kiter_move(opts, n, st, geo, p, b)
    if kind == K_VICTIM:
        return weakest_victim(opts, n, st)
    if kind == K_FIRE:
        return widest_fire(opts, n)
    if kind == K_BLOCK:
        return cheapest_block(opts, n)
    if kind == K_DISCARD:
        return worst_card(opts, n, 2.5)
    if kind == K_MULLIGAN:
        return 1 if st[S_SYM + SYM_DEFENSE] == 0 and n > 1 else 0
    return 0


@njit_later(DECISION_SIG, **FAST)
def kiter_choice(kind, opts, n, st, geo, p):
    return kiter(kind, opts, n, st, geo, p, 0)
