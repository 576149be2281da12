"""The built-in Drako dwarves: rush, and coordinated (v1 and v2), each as a numba function of the
decision signature plus a parameter offset `b` (where its parameters start in p: a two-sided
strategy puts the dwarves' after the dragon's), and its registered `*_choice` function."""

from __future__ import annotations

from numba import njit

from sim.engine.strategy import njit_later
from sim.games.drako.records import (
    A_DRAW, A_DUD, A_FURY, A_PLAY, DECISION_SIG, FIG_ARCHER, FIG_DRAGON, FIG_NET, K_ATTACKERS, K_BLOCK,
    K_DISCARD, K_DWARF_MOVE, K_DWARF_MOVE2, K_MAIN, K_MULLIGAN, K_PLACE, K_WOUND, N_SYM, SYM_ATTACK,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_MOVE_TWO, SYM_NET, S_ACTIONS, S_NETTED, S_POS, S_SYM,
)
from strategies.drako.shared import (
    FAST, NEG, argmax_area, cheapest_block, draw_score, dud_score, dwarves_next_to, in_line,
    keep_defense_cost, left, n_hexes, worst_card,
)


# ---- dwarves: rush ---------------------------------------------------------------------------------
RUSH = ("hand_target", "attack_weight", "crossbow_weight", "net_weight", "advance",
        "fury_adjacent", "wound_flight", "wound_fire", "wound_move")
RUSH_DEFAULTS = (3.0, 4.0, 3.0, 2.5, 2.0, 1.0, 1.0, 3.0, 2.0)
RUSH_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 10.0), (0.0, 10.0), (0.0, 5.0), (1.0, 3.0),
               (0.0, 5.0), (0.0, 5.0), (0.0, 5.0))


@njit(**FAST)
def attack_cards(st):
    return st[S_SYM + N_SYM + SYM_ATTACK] + st[S_SYM + N_SYM + SYM_ATTACK_TWO]


@njit(**FAST)
def dwarf_hand_action(st, opts, i, p, hand_at):
    """Drawing costs the dwarves nothing on their clock (cards go from deck to hand) unless the
    hand limit makes them throw some away."""
    a = opts[i, 0]
    if a == A_DRAW:
        return draw_score(st, 1, p[hand_at], 0.0)
    if a == A_DUD:
        return dud_score(opts, i, 1.0)
    return -50.0


@njit(**FAST)
def dwarves_away(st, geo, g):
    """Living dwarves not next to the dragon on hex g (no two figures share a hex)."""
    living = (st[S_POS + 1] >= 0) + (st[S_POS + 2] >= 0) + (st[S_POS + 3] >= 0)
    return living - dwarves_next_to(st, geo, g, -1)


@njit(**FAST)
def rush(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    if kind == K_MAIN:
        far = dwarves_away(st, geo, g)
        best, pick = NEG, 0
        for i in range(n):
            a = opts[i, 0]
            if a == A_FURY:
                adjacent = dwarves_next_to(st, geo, g, -1)
                x = 100.0 if adjacent >= p[b + 5] and attack_cards(st) >= 2 else NEG
            elif a != A_PLAY:
                x = dwarf_hand_action(st, opts, i, p, b + 0)
            else:
                s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
                if s == SYM_ATTACK:
                    x = p[b + 1] * v
                elif s == SYM_ATTACK_TWO:
                    x = p[b + 1] * v * (2 if ways >= 2 else 1)
                elif s == SYM_CROSSBOW:
                    x = p[b + 2] * v
                elif s == SYM_NET:
                    x = p[b + 3]
                elif s == SYM_MOVE_TWO:
                    x = p[b + 4] * (1.3 if far >= 2 else 1.0) if far > 0 else -1.0
                else:
                    x = p[b + 4] if far > 0 else -1.0
                x -= keep_defense_cost(opts[i, 6], 0.5)
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_DWARF_MOVE or kind == K_DWARF_MOVE2:
        best, pick = NEG, 0
        for i in range(n):
            f, h = opts[i, 0], opts[i, 1]
            before = geo[g, st[S_POS + f]]
            after = geo[g, h]
            x = 1.0 * (before - after)
            if after == 1:
                x += 2.0
            if f == FIG_ARCHER and in_line(geo, h, g):
                x += 1.0
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_PLACE:
        best, pick = NEG, 0
        for i in range(n):
            h = opts[i, 0]
            x = -1.0 * geo[g, h] - 0.5 * dwarves_next_to(st, geo, h, -1)
            if opts[i, 1] == FIG_ARCHER and in_line(geo, h, g):
                x += 1.0
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_BLOCK:
        return cheapest_block(opts, n)
    if kind == K_WOUND:
        return argmax_area(opts, n, p, b + 6)
    if kind == K_DISCARD:
        return worst_card(opts, n, 1.0)
    if kind == K_MULLIGAN:
        return 1 if attack_cards(st) + st[S_SYM + N_SYM + SYM_CROSSBOW] == 0 and n > 1 else 0
    return 0


@njit_later(DECISION_SIG, **FAST)
def rush_choice(kind, opts, n, st, geo, p):
    return rush(kind, opts, n, st, geo, p, 0)


# ---- dwarves: coordinated --------------------------------------------------------------------------
COORDINATED = ("hand_target", "net_first", "close_in", "attack_weight", "fury_adjacent",
               "fury_attacks", "archer_line", "wound_flight", "wound_fire", "wound_move")
COORDINATED_DEFAULTS = (4.0, 6.0, 2.5, 4.0, 2.0, 2.0, 2.0, 3.0, 1.0, 2.0)
COORDINATED_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 5.0), (0.0, 10.0), (1.0, 3.0), (0.0, 4.0),
                      (0.0, 5.0), (0.0, 5.0), (0.0, 5.0), (0.0, 5.0))


@njit(**FAST)
def wanted_distance(st, f):
    """Fighters close in once the dragon is netted (or no net can come); before that they wait
    two hexes away, out of reach of its claws but ready."""
    if f == FIG_ARCHER:
        return 2
    if st[S_NETTED] == 1 or st[S_POS + FIG_NET] < 0 or st[S_SYM + N_SYM + SYM_NET] == 0:
        return 1
    return 2


@njit(**FAST)
def spot_score(st, geo, f, h, g, p, b):
    """How good hex h is for dwarf f with the dragon on g."""
    d = geo[g, h]
    if f == FIG_ARCHER:
        x = -0.5 * abs(d - 2)
        if in_line(geo, h, g):
            x += p[b + 6]
            # a second dwarf on the same line from the dragon doubles a fire breath
            for o in range(1, 3):
                q = st[S_POS + o]
                if q >= 0 and q != h and geo[n_hexes(geo) + g, q] == geo[n_hexes(geo) + g, h]:
                    x -= 1.0
        if d == 1:
            x -= 1.0
        return x
    return -1.0 * abs(d - wanted_distance(st, f))


@njit(**FAST)
def card_score(opts, i, p, b, misplaced, net):
    """The coordinated dwarves' worth of playing row i's card option (v1 and v2): `net` for the net,
    attacks by their weight, moves by how far the dwarves are from their spots; less a Defense lost."""
    s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
    if s == SYM_NET:
        x = net
    elif s == SYM_ATTACK:
        x = p[b + 3] * v
    elif s == SYM_ATTACK_TWO:
        x = p[b + 3] * v * (2 if ways >= 2 else 1)
    elif s == SYM_CROSSBOW:
        x = 0.8 * p[b + 3] * v
    elif s == SYM_MOVE_TWO:
        x = p[b + 2] * misplaced * 0.7 if misplaced > 0 else -1.0
    else:
        x = p[b + 2] * misplaced * 0.5 if misplaced > 0 else -1.0
    x -= keep_defense_cost(opts[i, 6], 1.0)
    return x


@njit(**FAST)
def coordinated_rest(kind, opts, n, st, geo, p, b):
    """The coordinated dwarves' wound placement, discards, free placement and mulligan (v1 and v2)."""
    g = st[S_POS + FIG_DRAGON]
    if kind == K_WOUND:
        return argmax_area(opts, n, p, b + 7)
    if kind == K_DISCARD:
        return worst_card(opts, n, 1.5)
    if kind == K_PLACE:
        best, pick = NEG, 0
        for i in range(n):
            h = opts[i, 0]
            x = spot_score(st, geo, opts[i, 1], h, g, p, b) - 0.3 * dwarves_next_to(st, geo, h, -1)
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_MULLIGAN:
        return 1 if st[S_SYM + N_SYM + SYM_NET] == 0 and attack_cards(st) == 0 and n > 1 else 0
    return 0


@njit(**FAST)
def coordinated(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    if kind == K_MAIN:
        misplaced = 0.0
        for f in range(1, 4):
            q = st[S_POS + f]
            if q >= 0:
                gain = spot_score(st, geo, f, q, g, p, b)
                if gain < 0:
                    misplaced -= gain
        best, pick = NEG, 0
        for i in range(n):
            a = opts[i, 0]
            if a == A_FURY:
                adjacent = dwarves_next_to(st, geo, g, -1)
                x = 100.0 if adjacent >= p[b + 4] and attack_cards(st) >= p[b + 5] else NEG
            elif a != A_PLAY:
                x = dwarf_hand_action(st, opts, i, p, b + 0)
            else:
                x = card_score(opts, i, p, b, misplaced, p[b + 1])
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_DWARF_MOVE or kind == K_DWARF_MOVE2:
        best, pick = NEG, 0
        here_f, here = -1, 0.0
        for i in range(n):
            f, h = opts[i, 0], opts[i, 1]
            if f != here_f:            # rows come grouped by dwarf
                here_f, here = f, spot_score(st, geo, f, st[S_POS + f], g, p, b)
            x = spot_score(st, geo, f, h, g, p, b) - here
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_BLOCK:
        f = opts[0, 3]
        # save blocks for blows that matter: a kill, or anything while Defense is plentiful
        if opts[0, 2] >= left(st, f) or st[S_SYM + N_SYM + SYM_DEFENSE] >= 2 or opts[0, 2] >= 2:
            return cheapest_block(opts, n)
        return 0
    return coordinated_rest(kind, opts, n, st, geo, p, b)


@njit_later(DECISION_SIG, **FAST)
def coordinated_v1_choice(kind, opts, n, st, geo, p):
    return coordinated(kind, opts, n, st, geo, p, 0)


# ---- dwarves: coordinated (v2) ------------------------------------------------------------------
# v1 cast the net as the last action of a turn a quarter of the time (the dragon could shake it off
# before any dwarf used it), kept a small hand and closed in slowly. v2 nets only when another action
# can use the net (or the dragon is already among two dwarves), keeps a full hand (cycling the deck
# for attack cards: the cards this discards matter less than the attacks it finds), values attacks
# higher, closes in readily and rages with one adjacent dwarf and one attack card.
# Tried and measured worse against the brawler (paired, 5,000 games): pricing a draw past the hand
# limit (+5 points of dragon wins), pulling wounded dwarves out of reach (+30), blocking any blow that
# leaves a dwarf within 3 of death (+4); keeping dwarves off a shared fire line changed nothing. They
# stay as parameters (discard_cost, caution, spread, block_margin), off by default.
COORDINATED2 = COORDINATED + ("discard_cost", "caution", "spread", "net_timing", "block_margin")
COORDINATED2_DEFAULTS = (6.0, 6.0, 1.5, 8.0, 1.0, 1.0, 2.0, 3.0, 1.0, 2.0) + (0.0, 0.0, 0.0, 1.0, 0.0)
COORDINATED2_BOUNDS = COORDINATED_BOUNDS + ((0.0, 5.0), (0.0, 6.0), (0.0, 3.0), (0.0, 1.0), (0.0, 5.0))


@njit(**FAST)
def in_danger(st, f):
    """A dwarf the dragon's strongest blow (3) could kill."""
    return left(st, f) <= 3


@njit(**FAST)
def spot_score2(st, geo, f, h, g, p, b):
    """v1's spot, plus: a dwarf in danger keeps out of claw reach and out of the dragon's lines
    (fire), and no two dwarves share a line from the dragon."""
    x = spot_score(st, geo, f, h, g, p, b)
    d = geo[g, h]
    if in_danger(st, f) and st[S_NETTED] == 0:
        if d <= 1:
            x -= p[b + 11]
        if in_line(geo, h, g):
            x -= 0.5 * p[b + 11]
    # sharing a line from the dragon with another dwarf doubles a breath of fire
    line = geo[n_hexes(geo) + g, h]
    if line >= 0:
        for o in range(1, 4):
            q = st[S_POS + o]
            if o != f and q >= 0 and geo[n_hexes(geo) + g, q] == line:
                x -= p[b + 12]
    return x


@njit(**FAST)
def spot2_at(geo, hx, g, f, h, p, b, wd, danger, q1, q2, q3, l1, l2, l3):
    """spot_score2(st, geo, f, h, g, p, b) from what a decision fixes: hx = n_hexes(geo), wd the
    fighters' wanted_distance, danger = in_danger(f) and the dragon not netted, q1..q3 the dwarves'
    hexes and l1..l3 their line from the dragon (geo[hx + g, q], -9 for a dead dwarf: it matches no
    line). The same operations in the same order as spot_score and spot_score2."""
    d = geo[g, h]
    lh = geo[hx + g, h]
    inl = geo[hx + h, g] >= 0
    if f == FIG_ARCHER:
        x = -0.5 * abs(d - 2)
        if inl:
            x += p[b + 6]
            if l1 == lh and q1 != h:
                x -= 1.0
            if l2 == lh and q2 != h:
                x -= 1.0
        if d == 1:
            x -= 1.0
    else:
        x = -1.0 * abs(d - wd)
    if danger:
        if d <= 1:
            x -= p[b + 11]
        if inl:
            x -= 0.5 * p[b + 11]
    if lh >= 0:
        if f != 1 and l1 == lh:
            x -= p[b + 12]
        if f != 2 and l2 == lh:
            x -= p[b + 12]
        if f != 3 and l3 == lh:
            x -= p[b + 12]
    return x


@njit(**FAST)
def line_from(geo, hx, g, q):
    return geo[hx + g, q] if q >= 0 else -9


@njit(**FAST)
def danger_of(st, f):
    return in_danger(st, f) and st[S_NETTED] == 0


@njit(**FAST)
def archer_spot(geo, hx, g, h, p6, q1, q2, l1, l2):
    """spot_score for the archer on hex h, from the hexes q1, q2 of the Fury and Net dwarves and their
    lines l1, l2 from the dragon (line_from): the same operations in the same order."""
    d = geo[g, h]
    x = -0.5 * abs(d - 2)
    if geo[hx + h, g] >= 0:
        x += p6
        lh = geo[hx + g, h]
        x -= 1.0 * ((l1 == lh) & (q1 != h))    # subtracting 0.0 leaves x as it was
        x -= 1.0 * ((l2 == lh) & (q2 != h))
    x -= 1.0 * (d == 1)
    return x


@njit(**FAST)
def coordinated2(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    # with caution and spread 0 (the defaults) spot_score2 is spot_score: its extra terms subtract
    # 0.0, which changes no value; the plain path below works the v1 score out from integers
    plain = p[b + 11] == 0.0 and p[b + 12] == 0.0
    if kind == K_MAIN:
        hx = n_hexes(geo)
        q1, q2, q3 = st[S_POS + 1], st[S_POS + 2], st[S_POS + 3]
        l1, l2 = line_from(geo, hx, g, q1), line_from(geo, hx, g, q2)
        wd = wanted_distance(st, 1)
        d1 = geo[g, max(q1, 0)]
        d2 = geo[g, max(q2, 0)]
        d3 = geo[g, max(q3, 0)]
        adjacent = (q1 >= 0) * (d1 == 1) + (q2 >= 0) * (d2 == 1) + (q3 >= 0) * (d3 == 1)
        if plain:
            # fighters: spot -|d - wd| (gain < 0 adds |d - wd|; small integers add exactly)
            misplaced = 1.0 * ((q1 >= 0) * abs(d1 - wd) + (q2 >= 0) * abs(d2 - wd))
            if q3 >= 0:
                gain = archer_spot(geo, hx, g, q3, p[b + 6], q1, q2, l1, l2)
                if gain < 0:
                    misplaced -= gain
        else:
            misplaced = 0.0
            l3 = line_from(geo, hx, g, q3)
            for f in range(1, 4):
                q = st[S_POS + f]
                if q >= 0:
                    gain = spot2_at(geo, hx, g, f, q, p, b, wd, danger_of(st, f), q1, q2, q3, l1, l2, l3)
                    if gain < 0:
                        misplaced -= gain
        more = st[S_ACTIONS] >= 2          # another action this turn can use what this one sets up
        # a net is worth casting when the dwarves can strike or close in before the dragon's turn, or
        # when it already pins the dragon among several dwarves
        net = p[b + 1] if more or adjacent >= 2 or p[b + 13] < 0.5 else -0.5
        best, pick = NEG, 0
        for i in range(n):
            a = opts[i, 0]
            if a == A_PLAY:
                x = card_score(opts, i, p, b, misplaced, net)
            elif a == A_DRAW:
                x = draw_score(st, 1, p[b + 0], p[b + 10])
            elif a == A_FURY:
                x = 100.0 if adjacent >= p[b + 4] and attack_cards(st) >= p[b + 5] else NEG
            else:
                x = dwarf_hand_action(st, opts, i, p, b + 0)
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_DWARF_MOVE or kind == K_DWARF_MOVE2:
        hx = n_hexes(geo)
        q1, q2, q3 = st[S_POS + 1], st[S_POS + 2], st[S_POS + 3]
        l1, l2, l3 = line_from(geo, hx, g, q1), line_from(geo, hx, g, q2), line_from(geo, hx, g, q3)
        wd = wanted_distance(st, 1)
        best, pick = NEG, 0
        if plain:
            # a fighter's row scores |d(here) - wd| - |d(h) - wd| (exact in floats: small integers)
            archer_here = archer_spot(geo, hx, g, max(q3, 0), p[b + 6], q1, q2, l1, l2)
            for i in range(n):
                f, h = opts[i, 0], opts[i, 1]
                if f == FIG_ARCHER:
                    x = archer_spot(geo, hx, g, h, p[b + 6], q1, q2, l1, l2) - archer_here
                else:
                    x = 1.0 * (abs(geo[g, st[S_POS + f]] - wd) - abs(geo[g, h] - wd))
                if x > best:
                    best, pick = x, i
            return pick
        here_f, here, danger = -1, 0.0, False
        for i in range(n):
            f, h = opts[i, 0], opts[i, 1]
            if f != here_f:            # rows come grouped by dwarf
                danger = danger_of(st, f)
                here_f, here = f, spot2_at(geo, hx, g, f, st[S_POS + f], p, b, wd, danger,
                                           q1, q2, q3, l1, l2, l3)
            x = spot2_at(geo, hx, g, f, h, p, b, wd, danger, q1, q2, q3, l1, l2, l3) - here
            if x > best:
                best, pick = x, i
        return pick
    if kind == K_BLOCK:
        f = opts[0, 3]
        # block a kill, a blow that leaves the dwarf within one more blow of death, any heavy blow,
        # or anything while Defense is plentiful
        hurt = left(st, f) - opts[0, 2]
        if hurt <= p[b + 14] or st[S_SYM + N_SYM + SYM_DEFENSE] >= 2 or opts[0, 2] >= 2:
            return cheapest_block(opts, n)
        return 0
    if kind == K_ATTACKERS:
        return 0
    return coordinated_rest(kind, opts, n, st, geo, p, b)


@njit_later(DECISION_SIG, **FAST)
def coordinated_choice(kind, opts, n, st, geo, p):
    return coordinated2(kind, opts, n, st, geo, p, 0)
