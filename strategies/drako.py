"""Built-in Drako strategies.

Every strategy is one numba function with the game's decision signature
(kind, options, n_options, state, geo, params) → chosen row (see sim/games/drako/records.py),
used for all four decision slots (act, target, react, setup); the `kind` says what is asked.
A user's strategy may give four different functions instead.

They are compiled with `_nrt=False` (no reference counting: they allocate nothing), which saves
the atomic counts numba would otherwise do on each array argument of every call. A strategy
compiled without it works the same, just a little slower.

Dragon:   brawler (fights at close range, leaves a crowd; brawler_v1 stays in it), kiter (keeps away, blocks, lets the dwarves' deck run out)
Dwarves:  rush (everyone charges), coordinated (net, then close in, Fury when surrounding, the
          archer holding a line)
Both:     random (uniform over legal options); aggressive (brawler + rush) and patient
          (kiter + coordinated) play either side, for match play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drako.records import (
    AREA_FLIGHT, A_DRAW, A_DUD, A_ESCAPE, A_FURY, A_PASS, A_PLAY, DECISION_SIG, DRAGON, FIG_ARCHER,
    FIG_DRAGON, FIG_FURY, FIG_NET, K_BLOCK, K_DISCARD, K_DRAGON_MOVE, K_DWARF_MOVE, K_DWARF_MOVE2,
    K_FIRE, K_FLIGHT, K_MAIN, K_MULLIGAN, K_PLACE, K_VICTIM, K_WOUND, N_SYM, SYM_ATTACK,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, SYM_FIRE, SYM_FLIGHT, SYM_MOVE, SYM_MOVE_TWO,
    SYM_NET, SYM_NONE, S_CAP, S_DECK_N, S_DRAW_COUNT, S_HAND_LIMIT, S_HAND_N, S_NETTED, S_POS,
    S_RNG, S_SIDE, S_SYM, S_WOUND, K_ATTACKERS, S_ACTIONS,
)

FAST = dict(cache=True, _nrt=False)
INLINE = dict(FAST, inline="always")   # small helpers: numba inlines them into each caller
NEG = -1.0e9

# ---- shared helpers -----------------------------------------------------------------------------


@njit(**INLINE)
def n_hexes(geo):
    return geo.shape[0] // 3


@njit(**INLINE)
def in_line(geo, a, b):
    return geo[n_hexes(geo) + a, b] >= 0


@njit(**INLINE)
def left(st, f):
    """Wound spaces a figure still has."""
    return st[S_CAP + f] - st[S_WOUND + f]


@njit(**INLINE)
def dwarves_next_to(st, geo, h, skip):
    n = 0
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and f != skip and geo[h, p] == 1:
            n += 1
    return n


@njit(**INLINE)
def nearest_dwarf(st, geo, h):
    best = 1000
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and geo[h, p] < best:
            best = geo[h, p]
    return best


@njit(**INLINE)
def weakest_dwarf(st):
    """The living dwarf closest to death (the archer wins ties: it is the one that shoots)."""
    best, who = 1000, -1
    for f in (FIG_ARCHER, FIG_NET, FIG_FURY):
        if st[S_POS + f] >= 0 and left(st, f) < best:
            best, who = left(st, f), f
    return who


@njit(**INLINE)
def dwarves_in_lines(st, geo, h):
    """Dwarves sharing a straight line with hex h (fire targets, ignoring what stands between)."""
    n = 0
    for f in range(1, 4):
        p = st[S_POS + f]
        if p >= 0 and p != h and in_line(geo, h, p):
            n += 1
    return n


@njit(**INLINE)
def archer_aims_at(st, geo, h):
    a = st[S_POS + FIG_ARCHER]
    return a >= 0 and a != h and in_line(geo, a, h)


@njit(**INLINE)
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


@njit(**INLINE)
def cheapest_block(opts, n):
    """Among block rows, the card whose other option is worth least (pure Defense first)."""
    best, pick = 1.0e9, 0
    for i in range(1, n):
        x = card_worth(opts[i, 5], opts[i, 6], SYM_NONE, 0, 0.0)
        if x < best:
            best, pick = x, i
    return pick


@njit(**INLINE)
def worst_card(opts, n, defense):
    """Discard / throw-away: the card kind worth least (rows of K_DISCARD)."""
    best, pick = 1.0e9, 0
    for i in range(n):
        x = card_worth(opts[i, 2], opts[i, 3], opts[i, 4], opts[i, 5], defense)
        if x < best:
            best, pick = x, i
    return pick


@njit(**INLINE)
def dud_score(opts, i, defense):
    """A throw-away (no legal action): the least valuable card goes."""
    return -50.0 - card_worth(opts[i, 3], opts[i, 4], opts[i, 6], opts[i, 7], defense)


@njit(**INLINE)
def argmax_area(opts, n, p, at):
    """Wound placement: the open area with the highest weight p[at + area - 1]."""
    best, pick = NEG, 0
    for i in range(n):
        x = p[at + opts[i, 0] - AREA_FLIGHT]
        if x > best:
            best, pick = x, i
    return pick


@njit(**INLINE)
def keep_defense_cost(row_other, weight):
    return weight if row_other == SYM_DEFENSE else 0.0


@njit(**INLINE)
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


# ---- random ---------------------------------------------------------------------------------------


@njit(**INLINE)
def draw(st, n):
    """A uniform integer in [0, n) from the game's own stream (sim.engine.rng's xorshift64*)."""
    x = np.uint64(st[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[S_RNG] = np.int64(x)
    return np.int64((((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit_later(DECISION_SIG, **FAST)
def random_choice(kind, opts, n, st, geo, p):
    return draw(st, n)


# ---- dragon: brawler -------------------------------------------------------------------------------
BRAWLER = ("hand_target", "attack_weight", "fire_weight", "approach", "keep_defense", "block_min")
BRAWLER_DEFAULTS = (3.0, 3.0, 3.0, 1.5, 1.0, 1.0)
BRAWLER_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 10.0), (0.0, 5.0), (0.0, 5.0), (1.0, 4.0))


@njit(**INLINE)
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
        a = opts[i, 0]
        if a == A_DRAW:
            x = draw_score(st, DRAGON, p[b + 0], 0.0)
        elif a == A_ESCAPE:
            x = 2.0 - 2.0 * adjacent
        elif a == A_DUD:
            x = dud_score(opts, i, 1.0)
        elif a == A_PASS:
            x = -50.0
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


@njit(**INLINE)
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
        # dwarves_in_lines (geo[hx + h, h] is -1: a dwarf is never counted on its own hex)
        lines = ((a1 & (geo[hx + h, c1] >= 0)) + (a2 & (geo[hx + h, c2] >= 0))
                 + (a3 & (geo[hx + h, c3] >= 0)))
        x += 0.5 * lines
        crowd = (a1 & (geo[h, c1] == 1)) + (a2 & (geo[h, c2] == 1)) + (a3 & (geo[h, c3] == 1))
        if crowd > 1:
            x -= crowd_weight * (crowd - 1)
        if x > best:
            best, pick = x, i
    return pick


@njit(**INLINE)
def brawler_rest(kind, opts, n, st, geo, p, b):
    """The brawler's answers besides its main action and its moves (v1 and v2 alike)."""
    if kind == K_VICTIM:
        best, pick = 1000, 0
        for i in range(n):
            x = left(st, opts[i, 0])
            if x < best:
                best, pick = x, i
        return pick
    if kind == K_FIRE:
        best, pick = -1, 0
        for i in range(n):
            if opts[i, 1] > best:
                best, pick = opts[i, 1], i
        return pick
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


@njit(**INLINE)
def brawler(kind, opts, n, st, geo, p, b):
    if kind == K_MAIN:
        return brawler_main(opts, n, st, geo, p, b, False)
    if kind == K_DRAGON_MOVE or kind == K_FLIGHT:
        return brawler_move(opts, n, st, geo, 0.8)
    return brawler_rest(kind, opts, n, st, geo, p, b)


# ---- dragon: brawler v2 ---------------------------------------------------------------------------
# v1 walked into the middle of the dwarves and stayed there, as the rulebook's author warns a dragon
# not to; v2 still closes on the weakest dwarf and claws, but leaves a crowd (two or more dwarves next
# to it) when it can walk or fly, unless a claw kills or a blow or breath is worth more, and weighs a
# crowd at the destination more. flee < 0 plays v1.
BRAWLER2 = BRAWLER + ("flee", "crowd")
BRAWLER2_DEFAULTS = BRAWLER_DEFAULTS + (6.0, 2.0)
BRAWLER2_BOUNDS = BRAWLER_BOUNDS + ((-1.0, 10.0), (0.0, 5.0))


@njit(**INLINE)
def brawler2(kind, opts, n, st, geo, p, b):
    if kind == K_MAIN:
        return brawler_main(opts, n, st, geo, p, b, True)
    if kind == K_DRAGON_MOVE or kind == K_FLIGHT:
        return brawler_move(opts, n, st, geo, p[b + 7])
    return brawler_rest(kind, opts, n, st, geo, p, b)


# ---- dragon: kiter ----------------------------------------------------------------------------------
KITER = ("hand_target", "safety", "archer_fear", "fire_min", "keep_defense", "escape")
KITER_DEFAULTS = (4.0, 2.0, 1.5, 2.0, 1.5, 3.0)
KITER_BOUNDS = ((0.0, 6.0), (0.0, 5.0), (0.0, 5.0), (1.0, 3.0), (0.0, 5.0), (0.0, 6.0))


@njit(**FAST)
def kiter(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    if kind == K_MAIN:
        adjacent = dwarves_next_to(st, geo, g, -1)
        threat = adjacent + (1 if archer_aims_at(st, geo, g) else 0)
        best, pick = NEG, 0
        for i in range(n):
            a = opts[i, 0]
            if a == A_DRAW:
                x = draw_score(st, DRAGON, p[b + 0], 0.0) + 0.5
            elif a == A_ESCAPE:
                x = p[b + 5] + 2.0 * threat
            elif a == A_DUD:
                x = dud_score(opts, i, 2.5)
            elif a == A_PASS:
                x = -50.0
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
    if kind == K_VICTIM:
        best, pick = 1000, 0
        for i in range(n):
            x = left(st, opts[i, 0])
            if x < best:
                best, pick = x, i
        return pick
    if kind == K_FIRE:
        best, pick = -1, 0
        for i in range(n):
            if opts[i, 1] > best:
                best, pick = opts[i, 1], i
        return pick
    if kind == K_BLOCK:
        return cheapest_block(opts, n)
    if kind == K_DISCARD:
        return worst_card(opts, n, 2.5)
    if kind == K_MULLIGAN:
        return 1 if st[S_SYM + SYM_DEFENSE] == 0 and n > 1 else 0
    return 0


# ---- dwarves: rush ---------------------------------------------------------------------------------
RUSH = ("hand_target", "attack_weight", "crossbow_weight", "net_weight", "advance",
        "fury_adjacent", "wound_flight", "wound_fire", "wound_move")
RUSH_DEFAULTS = (3.0, 4.0, 3.0, 2.5, 2.0, 1.0, 1.0, 3.0, 2.0)
RUSH_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 10.0), (0.0, 10.0), (0.0, 5.0), (1.0, 3.0),
               (0.0, 5.0), (0.0, 5.0), (0.0, 5.0))


@njit(**INLINE)
def attack_cards(st):
    return st[S_SYM + N_SYM + SYM_ATTACK] + st[S_SYM + N_SYM + SYM_ATTACK_TWO]


@njit(**INLINE)
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
def rush(kind, opts, n, st, geo, p, b):
    g = st[S_POS + FIG_DRAGON]
    if kind == K_MAIN:
        far = 0
        for f in range(1, 4):
            q = st[S_POS + f]
            if q >= 0 and geo[g, q] > 1:
                far += 1
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
    if kind == K_BLOCK:
        return cheapest_block(opts, n)
    if kind == K_WOUND:
        return argmax_area(opts, n, p, b + 6)
    if kind == K_DISCARD:
        return worst_card(opts, n, 1.0)
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
    if kind == K_MULLIGAN:
        return 1 if attack_cards(st) + st[S_SYM + N_SYM + SYM_CROSSBOW] == 0 and n > 1 else 0
    return 0


# ---- dwarves: coordinated --------------------------------------------------------------------------
COORDINATED = ("hand_target", "net_first", "close_in", "attack_weight", "fury_adjacent",
               "fury_attacks", "archer_line", "wound_flight", "wound_fire", "wound_move")
COORDINATED_DEFAULTS = (4.0, 6.0, 2.5, 4.0, 2.0, 2.0, 2.0, 3.0, 1.0, 2.0)
COORDINATED_BOUNDS = ((0.0, 6.0), (0.0, 10.0), (0.0, 5.0), (0.0, 10.0), (1.0, 3.0), (0.0, 4.0),
                      (0.0, 5.0), (0.0, 5.0), (0.0, 5.0), (0.0, 5.0))


@njit(**INLINE)
def wanted_distance(st, f):
    """Fighters close in once the dragon is netted (or no net can come); before that they wait
    two hexes away, out of reach of its claws but ready."""
    if f == FIG_ARCHER:
        return 2
    if st[S_NETTED] == 1 or st[S_POS + FIG_NET] < 0 or st[S_SYM + N_SYM + SYM_NET] == 0:
        return 1
    return 2


@njit(**INLINE)
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


@njit(**INLINE)
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


@njit(**INLINE)
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
                s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
                if s == SYM_NET:
                    x = p[b + 1]
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


@njit(**INLINE)
def in_danger(st, f):
    """A dwarf the dragon's strongest blow (3) could kill."""
    return left(st, f) <= 3


@njit(**INLINE)
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


@njit(**INLINE)
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


@njit(**INLINE)
def line_from(geo, hx, g, q):
    return geo[hx + g, q] if q >= 0 else -9


@njit(**INLINE)
def danger_of(st, f):
    return in_danger(st, f) and st[S_NETTED] == 0


@njit(**INLINE)
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


@njit(**INLINE)
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
        best, pick = NEG, 0
        for i in range(n):
            a = opts[i, 0]
            if a == A_PLAY:
                s, v, ways = opts[i, 3], opts[i, 4], opts[i, 5]
                if s == SYM_NET:
                    # a net is worth casting when the dwarves can strike or close in before the
                    # dragon's turn, or when it already pins the dragon among several dwarves
                    x = p[b + 1] if more or adjacent >= 2 or p[b + 13] < 0.5 else -0.5
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


# ---- registered functions ---------------------------------------------------------------------


@njit_later(DECISION_SIG, **FAST)
def brawler_choice(kind, opts, n, st, geo, p):
    return brawler(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def brawler2_choice(kind, opts, n, st, geo, p):
    return brawler2(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def kiter_choice(kind, opts, n, st, geo, p):
    return kiter(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def rush_choice(kind, opts, n, st, geo, p):
    return rush(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def coordinated_v1_choice(kind, opts, n, st, geo, p):
    return coordinated(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def coordinated_choice(kind, opts, n, st, geo, p):
    return coordinated2(kind, opts, n, st, geo, p, 0)


@njit_later(DECISION_SIG, **FAST)
def aggressive_v1_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return brawler(kind, opts, n, st, geo, p, 0)
    return rush(kind, opts, n, st, geo, p, len(BRAWLER))


@njit_later(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return brawler2(kind, opts, n, st, geo, p, 0)
    return rush(kind, opts, n, st, geo, p, len(BRAWLER2))


@njit_later(DECISION_SIG, **FAST)
def patient_v1_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return kiter(kind, opts, n, st, geo, p, 0)
    return coordinated(kind, opts, n, st, geo, p, len(KITER))


@njit_later(DECISION_SIG, **FAST)
def patient_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return kiter(kind, opts, n, st, geo, p, 0)
    return coordinated2(kind, opts, n, st, geo, p, len(KITER))


def _both(fn):
    return (fn, fn, fn, fn)


def _prefixed(prefix, names):
    return tuple(f"{prefix}_{n}" for n in names)


REGISTRY = StrategyRegistry("drako")
REGISTRY.register(Strategy(
    "random", ("dragon", "dwarves"), _both(random_choice),
    "uniform over the legal options of every decision"))
REGISTRY.register(Strategy(
    "brawler", ("dragon",), _both(brawler2_choice),
    "aggressive dragon: closes on the weakest dwarf, claws and breathes fire whenever it can, but "
    "walks or flies out of a crowd of two or more dwarves",
    BRAWLER2, BRAWLER2_DEFAULTS, BRAWLER2_BOUNDS))
REGISTRY.register(Strategy(
    "brawler_v1", ("dragon",), _both(brawler_choice),
    "the first brawler: closes in and stays among the dwarves (kept for comparison)",
    BRAWLER, BRAWLER_DEFAULTS, BRAWLER_BOUNDS))
REGISTRY.register(Strategy(
    "kiter", ("dragon",), _both(kiter_choice),
    "stalling dragon: keeps away from dwarves and the archer's lines, escapes nets, blocks "
    "everything and lets the dwarves' deck run out",
    KITER, KITER_DEFAULTS, KITER_BOUNDS))
REGISTRY.register(Strategy(
    "rush", ("dwarves",), _both(rush_choice),
    "all three dwarves charge and attack whenever they can; Fury as soon as one is adjacent",
    RUSH, RUSH_DEFAULTS, RUSH_BOUNDS))
REGISTRY.register(Strategy(
    "coordinated", ("dwarves",), _both(coordinated_choice),
    "net when another action can use it, fighters wait two hexes off then close in on a netted "
    "dragon, a full hand, attacks first, Fury with one dwarf adjacent, the archer holds a line",
    COORDINATED2, COORDINATED2_DEFAULTS, COORDINATED2_BOUNDS))
REGISTRY.register(Strategy(
    "coordinated_v1", ("dwarves",), _both(coordinated_v1_choice),
    "the first coordinated dwarves: nets at any time (often as a turn's last action), a hand of "
    "four, Fury only with two dwarves adjacent (kept for comparison)",
    COORDINATED, COORDINATED_DEFAULTS, COORDINATED_BOUNDS))
REGISTRY.register(Strategy(
    "aggressive", ("dragon", "dwarves"), _both(aggressive_choice),
    "brawler as the dragon, rush as the dwarves (for match play)",
    _prefixed("brawler", BRAWLER2) + _prefixed("rush", RUSH), BRAWLER2_DEFAULTS + RUSH_DEFAULTS,
    BRAWLER2_BOUNDS + RUSH_BOUNDS))
REGISTRY.register(Strategy(
    "aggressive_v1", ("dragon", "dwarves"), _both(aggressive_v1_choice),
    "brawler_v1 as the dragon, rush as the dwarves (kept for comparison)",
    _prefixed("brawler", BRAWLER) + _prefixed("rush", RUSH), BRAWLER_DEFAULTS + RUSH_DEFAULTS,
    BRAWLER_BOUNDS + RUSH_BOUNDS))
REGISTRY.register(Strategy(
    "patient", ("dragon", "dwarves"), _both(patient_choice),
    "kiter as the dragon, coordinated as the dwarves (for match play)",
    _prefixed("kiter", KITER) + _prefixed("coordinated", COORDINATED2),
    KITER_DEFAULTS + COORDINATED2_DEFAULTS, KITER_BOUNDS + COORDINATED2_BOUNDS))
REGISTRY.register(Strategy(
    "patient_v1", ("dragon", "dwarves"), _both(patient_v1_choice),
    "kiter as the dragon, coordinated_v1 as the dwarves (kept for comparison)",
    _prefixed("kiter", KITER) + _prefixed("coordinated", COORDINATED),
    KITER_DEFAULTS + COORDINATED_DEFAULTS, KITER_BOUNDS + COORDINATED_BOUNDS))
