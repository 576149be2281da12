"""Dragonwake kernel, part 2: the advanced game's powers and what artifacts share with them (never reached
with their modules off): asking a player's `power` function, peeks, flips, card swaps and role changes."""

from numba import njit

from sim.engine.rng import below
from sim.games.dragonwake.kernel_base import (
    C_PEEKS, C_VIOLATIONS, F_ORDER, F_POWER, is_legal_target, legal_or_random, random_card_except, random_target,
    record, show,
)
from sim.games.dragonwake.records import (
    ASK_BANDIT, ASK_HUNT, ASK_INQUIRE, ASK_NONE, ASK_PEEK, ASK_PLAYER, ASK_TRICK, BANDIT, BOARD0, B_DOWN, B_FATE,
    CARDS0, CARD_KEYS, CULTIST, DIVINATOR, DOWN0, EV_CARDSWAP, EV_CONVERT, EV_FLIP, EV_ORDER, EV_PEEK, HERO, HUNTER,
    INQUISITOR, K_PEEKS, MAX_HAND, MAX_POWERS, MENTOR, PREACHER, PUB_ROW, PV_NPEEK, PV_PEEK0, PV_POWER0, P_ASK,
    P_FACE_DOWN, P_HUNTED, P_POWER, SHOWN0, TRICKSTER, WITCH,
)


@njit(cache=True, inline='always')
def ask(question, p, role, state, memory, hero_power, cultist_power, hero_params, cultist_params):
    """Player p's `power` function's answer to `question` (in pub[P_ASK] while it answers)."""
    state[PUB_ROW, P_ASK] = question
    if role == HERO:
        answer = hero_power(p, HERO, state, hero_params, memory[p])
    else:
        answer = cultist_power(p, CULTIST, state, cultist_params, memory[p])
    state[PUB_ROW, P_ASK] = ASK_NONE
    return answer


@njit(cache=True, inline='always')
def offer_start(rng, rb, players, contenders, runestone_order, moment, o, trace, g, step):
    """The seat a power is first offered to: the runebearer's, or where a runestone spin points when several
    players could act (flag power_order; `moment` 0 before the reveal, 1 after it, is traced). Returns
    (that seat, the next trace step)."""
    start = rb
    if contenders >= 2:
        o[F_ORDER] += 1
        if runestone_order:
            start = below(rng, players)
            step = record(trace, g, step, EV_ORDER, start, moment, 0, 0)
    return start, step


@njit(cache=True, inline='always')
def power_slot(state, p, power):
    """The column of p's unused `power`, -1 when p does not hold it."""
    for j in range(MAX_POWERS):
        if state[p, PV_POWER0 + j] == power:
            return j
    return -1


@njit(cache=True, inline='always')
def swap_cards(state, p1, s1, p2, s2, players):
    """Two face-down cards change places in public: what anyone saw or peeked of them moves with them."""
    c = state[p1, CARDS0 + s1]
    state[p1, CARDS0 + s1] = state[p2, CARDS0 + s2]
    state[p2, CARDS0 + s2] = c
    v = state[p1, SHOWN0 + s1]
    state[p1, SHOWN0 + s1] = state[p2, SHOWN0 + s2]
    state[p2, SHOWN0 + s2] = v
    k1 = (p1 * MAX_HAND + s1) * 8
    k2 = (p2 * MAX_HAND + s2) * 8
    for p in range(players):
        for i in range(min(state[p, PV_NPEEK], K_PEEKS)):
            e = state[p, PV_PEEK0 + i]
            key = e - e % 8
            if key == k1:
                state[p, PV_PEEK0 + i] = k2 + e % 8
            elif key == k2:
                state[p, PV_PEEK0 + i] = k1 + e % 8


@njit(cache=True, inline='always')
def set_role_card(state, role, t, r, players):
    """Turn player t's role card to r. A Figure of Fate makes two players share a card: t's partner (whose
    role t took) and anyone who took t's role change with it."""
    root = state[t, BOARD0 + B_FATE] - 1
    if root < 0:
        root = t
    role[t] = r
    role[root] = r
    for p in range(players):
        f = state[p, BOARD0 + B_FATE] - 1
        if f == t or f == root:
            role[p] = r


@njit(cache=True, inline='always')
def remember(state, me, p, s):
    """Player `me` now knows the card in p's slot s (a peek entry in me's own row)."""
    n = state[me, PV_NPEEK]
    state[me, PV_PEEK0 + n % K_PEEKS] = (p * MAX_HAND + s) * 8 + state[p, CARDS0 + s]
    state[me, PV_NPEEK] = n + 1


@njit(cache=True, inline='always')
def peek(state, rng, me, target, players, o, trace, g, step):
    """Player `me` peeks at `target` (another player's face-down card; an illegal choice is counted and
    replaced at random). The card goes into me's own row. Returns (next trace step, peeked)."""
    p, s = legal_or_random(target, rng, me, players, state, False, o)
    if p < 0:                                  # nothing left to peek at
        return step, False
    remember(state, me, p, s)
    o[C_PEEKS] += 1
    return record(trace, g, step, EV_PEEK, me, p, s, state[p, CARDS0 + s]), True


@njit(cache=True, inline='always')
def flip(state, rng, q, target, players, own_ok, o, trace, g, step):
    """Player q turns `target` face up for everybody (its own cards only when own_ok; an illegal choice is
    counted and replaced at random). Returns the next trace step."""
    p, s = legal_or_random(target, rng, q, players, state, own_ok, o)
    show(state, p, s)
    return record(trace, g, step, EV_FLIP, q, p, s, state[p, CARDS0 + s])


@njit(cache=True, inline='always')
def use_power(state, rng, role, memory, hero_power, cultist_power, hero_params, cultist_params, o, trace, g,
              step, q, power, rb, players, hunter_flips, mentor_peeks):
    """Player q uses `power` before the runebearer's reveal (already checked usable and flipped face up):
    ask for its choices, correct and count illegal ones, apply it. Returns the next trace step."""
    state[PUB_ROW, P_POWER] = power
    others_down = state[PUB_ROW, P_FACE_DOWN] - state[q, BOARD0 + B_DOWN]
    if power == HUNTER:
        state[PUB_ROW, P_HUNTED] = 1
        for f in range(hunter_flips):
            if state[PUB_ROW, P_FACE_DOWN] == 0:
                break
            target = ask(ASK_HUNT, q, role[q], state, memory, hero_power, cultist_power, hero_params,
                         cultist_params)
            step = flip(state, rng, q, target, players, True, o, trace, g, step)
    elif power == DIVINATOR or power == MENTOR:
        for k in range(mentor_peeks if power == MENTOR else 1):
            if state[PUB_ROW, P_FACE_DOWN] - state[q, BOARD0 + B_DOWN] == 0:
                break
            target = ask(ASK_PEEK, q, role[q], state, memory, hero_power, cultist_power, hero_params,
                         cultist_params)
            step, _ = peek(state, rng, q, target, players, o, trace, g, step)
    elif power == INQUISITOR:
        if others_down > 0:
            target = ask(ASK_INQUIRE, q, role[q], state, memory, hero_power, cultist_power, hero_params,
                         cultist_params)
            step = flip(state, rng, q, target, players, False, o, trace, g, step)
    elif power == PREACHER or power == WITCH:
        t = ask(ASK_PLAYER, q, role[q], state, memory, hero_power, cultist_power, hero_params, cultist_params)
        if t < 0 or t >= players or t == q:
            o[C_VIOLATIONS] += 1
            t = below(rng, players - 1)
            t += t >= q
        new = HERO if power == PREACHER else CULTIST
        set_role_card(state, role, t, new, players)
        step = record(trace, g, step, EV_CONVERT, q, t, new, power)
    elif power == BANDIT:
        if others_down > 0:
            a = ask(ASK_BANDIT, q, role[q], state, memory, hero_power, cultist_power, hero_params, cultist_params)
            target = a // MAX_HAND if a >= 0 else -1
            own = a % MAX_HAND if a >= 0 else -1
            p = target // MAX_HAND if target >= 0 else -1
            s = target % MAX_HAND if target >= 0 else -1
            if own < 0 or state[q, DOWN0 + own] != 1 or not is_legal_target(p, s, q, players, state, False):
                o[C_VIOLATIONS] += 1
                target = random_target(rng, q, players, state, False)
                p = target // MAX_HAND
                s = target % MAX_HAND
                k = below(rng, state[q, BOARD0 + B_DOWN])
                for x in range(MAX_HAND):
                    if state[q, DOWN0 + x] == 1:
                        if k == 0:
                            own = x
                        k -= 1
            step = record(trace, g, step, EV_CARDSWAP, p * MAX_HAND + s, q * MAX_HAND + own,
                          state[p, CARDS0 + s], state[q, CARDS0 + own])
            swap_cards(state, p, s, q, own, players)
            remember(state, q, p, s)            # the bandit knows where its own card went
    elif power == TRICKSTER:
        x = ask(ASK_TRICK, q, role[q], state, memory, hero_power, cultist_power, hero_params, cultist_params)
        a = x // CARD_KEYS if x >= 0 else -1
        b = x % CARD_KEYS if x >= 0 else -1
        p1 = a // MAX_HAND if a >= 0 else -1
        s1 = a % MAX_HAND if a >= 0 else -1
        p2 = b // MAX_HAND if b >= 0 else -1
        s2 = b % MAX_HAND if b >= 0 else -1
        if (p1 == p2 or not is_legal_target(p1, s1, q, players, state, False)
                or not is_legal_target(p2, s2, q, players, state, False)):
            o[C_VIOLATIONS] += 1
            a = random_target(rng, q, players, state, False)
            p1 = a // MAX_HAND
            s1 = a % MAX_HAND
            b = random_card_except(rng, q, p1, players, state)
            p2 = b // MAX_HAND
            s2 = b % MAX_HAND
        step = record(trace, g, step, EV_CARDSWAP, p1 * MAX_HAND + s1, p2 * MAX_HAND + s2,
                      state[p1, CARDS0 + s1], state[p2, CARDS0 + s2])
        swap_cards(state, p1, s1, p2, s2, players)
    state[PUB_ROW, P_POWER] = 0
    o[F_POWER + power] += 1
    return step

