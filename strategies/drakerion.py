"""Built-in Drakerion strategies.

A Drakerion strategy is one numba function with the game's decision signature
(kind, options, n_options, state, board, cards, params) -> chosen row (sim/games/drakerion/records.py,
docs/DRAKERION.md): the kernel lists the legal rows of every decision (manoeuvre, action, combat
response, target, line, mulligan ...) and the strategy picks one. They read the board's effective stats
and allocate nothing (`_nrt=False`).

random      uniform over the legal rows of every decision.
aggressive  attacks whenever it can (kills first, then the most damage), plays its dearest affordable
            character to the front, pumps its own combatant, takes the Manoeuvre with the most gold.
value       the default: weighs every attack by the prestige it takes against the prestige it risks,
            plays the card with the most stats for its gold, picks Manoeuvres by need (cards when the hand
            is short, gold when it holds cards it cannot pay for), keeps shooters and fragile characters
            in support, shields or redirects a combatant that would die, intercepts to save a defender,
            aims damage and destruction at the enemy character worth the most prestige, passes for good
            when nothing is worth doing (to lead the next turn).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.strategy import Strategy, StrategyRegistry
from sim.games.drakerion.records import (
    AB_AMOUNT, AB_COST, AB_COST_AMOUNT, AB_EFFECT, AB_TARGET, ABIL_WIDTH, ACT_ABILITY, ACT_ATTACK, ACT_CYCLE, ACT_INTERCEPT,
    ACT_NAMED, ACT_PASS, ACT_PASS_GOOD, ACT_PLAY, ATTACHMENT, B_CARD, B_DAMAGE, B_HP, B_MELEE, B_PRESTIGE,
    B_RANGED, B_RIPOSTE, B_SHIELD, B_TAPPED, B_ZONE, CD_ABIL, CD_COST, CD_DRAW, CD_GOLD, CD_HP, CD_MELEE,
    CD_PRESTIGE, CD_RANGED, CD_RIPOSTE, CD_TYPE, CHARACTER, CO_DAMAGE_SELF, CO_DESTROY_SELF, CO_DISCARD,
    CO_GOLD, CO_TAP_SELF, DECISION_SIG, D_ACTION, D_ATTACK, D_COMBAT, D_CYCLE, D_DISCARD, D_FIRST, D_LINE,
    D_LOOK, D_MANOEUVRE, D_MULLIGAN, D_SEARCH, D_SETUP, D_TARGET, D_TRIGGER, EF_ATTACK, EF_CANCEL,
    EF_DAMAGE, EF_DESTROY, EF_DISCARD, EF_DRAW, EF_GOLD, EF_HEAL, EF_HP, EF_LOOK, EF_MELEE, EF_MILL,
    EF_MOVE, EF_PUT_INTO_PLAY, EF_RANGED, EF_REDIRECT, EF_RIPOSTE, EF_SEARCH, EF_SHIELD, EF_TAP, EF_UNTAP,
    EVENT, S_ABIL, S_ACTOR, S_ATTACKER, S_DEFENDER, S_GOLD, S_HAND_N, S_IN_COMBAT, S_PENDING, S_RANGED,
    S_RNG, S_SOURCE, TG_ALL_ENEMY, TG_ENEMY, TG_ENEMY_COMBATANT, TG_OPPONENT, Z_FRONT, Z_SUPPORT,
)

FAST = dict(cache=True, _nrt=False)
NEG = -1.0e9
REGISTRY = StrategyRegistry("drakerion")


# ---- shared helpers -------------------------------------------------------------------------------


@njit(inline='always', **FAST)
def draw(st, n):
    """A uniform integer in [0, n) from the game's own stream (sim.core.rng's xorshift64*)."""
    x = np.uint64(st[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[S_RNG] = np.int64(x)
    return np.int64((((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(inline='always', **FAST)
def printed(cards, board, i, field):
    return cards[board[i, B_CARD], field]


@njit(inline='always', **FAST)
def life(board, i):
    """Damage character i can still take (shields included)."""
    return board[i, B_HP] - board[i, B_DAMAGE] + board[i, B_SHIELD]


@njit(inline='always', **FAST)
def in_play(board, i):
    z = board[i, B_ZONE]
    return z == Z_FRONT or z == Z_SUPPORT


@njit(inline='always', **FAST)
def card_stats(cards, c):
    return cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP] + 2 * cards[c, CD_RANGED]


@njit(**FAST)
def best(scores, n):
    k = 0
    for r in range(1, n):
        if scores[r] > scores[k]:
            k = r
    return k


@njit(**FAST)
def attack_score(board, att, dfd, ranged, kill_w, risk_w):
    """Prestige an attack is expected to take minus the prestige it puts at risk."""
    dmg = board[att, B_RANGED] if ranged else board[att, B_MELEE]
    back = 0 if ranged else board[dfd, B_RIPOSTE]
    kills = dmg >= life(board, dfd)
    dies = back >= life(board, att)
    s = 0.15 * min(dmg, life(board, dfd)) - 0.1 * min(back, life(board, att))
    if kills:
        s += kill_w * (1.0 + board[dfd, B_PRESTIGE])
    if dies:
        s -= risk_w * (1.0 + board[att, B_PRESTIGE])
    return s


@njit(**FAST)
def has_enemy(board, me):
    for i in range((1 - me) * 64, (1 - me) * 64 + 48):
        if in_play(board, i):
            return True
    return False


@njit(**FAST)
def wounded_own(board, me):
    for i in range(me * 64, me * 64 + 48):
        if in_play(board, i) and board[i, B_DAMAGE] > 0:
            return True
    return False


@njit(**FAST)
def effect_worth(st, board, cards, me, src, a):
    """Rough worth of using ability a of card src now (before its cost)."""
    c = board[src, B_CARD]
    base = CD_ABIL + a * ABIL_WIDTH
    e = cards[c, base + AB_EFFECT]
    amount = cards[c, base + AB_AMOUNT]
    tg = cards[c, base + AB_TARGET]
    enemy = has_enemy(board, me)
    hostile = tg == TG_ENEMY or tg == TG_ALL_ENEMY or tg == TG_ENEMY_COMBATANT or tg == TG_OPPONENT
    if e == EF_DAMAGE:
        return 1.0 * amount * (2.0 if tg == TG_ALL_ENEMY else 1.0) if enemy else -1.0
    if e == EF_DESTROY:
        return 3.0 if enemy else -1.0
    if e == EF_DRAW:
        return 0.8 * amount
    if e == EF_GOLD:
        return 0.5 * amount
    if e == EF_HEAL:
        return 0.5 * amount if wounded_own(board, me) else -1.0
    if e == EF_DISCARD:
        return 0.7 * amount if hostile else -1.0
    if e == EF_MILL:
        return 0.2 * amount if hostile else -1.0
    if e == EF_LOOK:
        return 0.2
    if e == EF_SEARCH or e == EF_PUT_INTO_PLAY:
        return 1.5
    if e == EF_TAP:
        return 0.8 if hostile and enemy else -1.0
    if e == EF_UNTAP:
        return 0.4
    if e == EF_ATTACK:
        return 1.2 if enemy else -1.0
    if e == EF_MOVE:
        return 0.4 if hostile and enemy else -1.0
    if e == EF_MELEE or e == EF_RANGED or e == EF_RIPOSTE or e == EF_HP or e == EF_SHIELD:
        return 0.2 * amount if st[S_IN_COMBAT] == 0 else 0.5 * amount
    return 0.0


@njit(**FAST)
def cost_penalty(cards, board, src, a):
    c = board[src, B_CARD]
    base = CD_ABIL + a * ABIL_WIDTH
    cost = cards[c, base + AB_COST]
    amount = cards[c, base + AB_COST_AMOUNT]
    if cost == CO_TAP_SELF:
        return 0.3
    if cost == CO_DISCARD:
        return 0.7 * amount
    if cost == CO_GOLD:
        return 0.3 * amount
    if cost == CO_DESTROY_SELF:
        return 1.0 + board[src, B_PRESTIGE]
    if cost == CO_DAMAGE_SELF:                  # never pay with the source's life
        return 0.8 * amount if amount < life(board, src) else 1.0e6
    return 0.0


# ---- combat outlook --------------------------------------------------------------------------------


@njit(**FAST)
def outlook(st, board, me, d_own, d_enemy):
    """Prestige balance of the combat under way for `me` if my combatant's outgoing damage changed by
    d_enemy and the damage it takes by d_own (negative: less)."""
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    if att < 0 or dfd < 0:
        return 0.0
    ranged = st[S_RANGED]
    mine = att if (att >> 6) == me else dfd
    theirs = dfd if mine == att else att
    if mine == att:
        out = (board[att, B_RANGED] if ranged else board[att, B_MELEE]) + d_enemy
        back = (0 if ranged else board[dfd, B_RIPOSTE]) + d_own
    else:
        out = (0 if ranged else board[dfd, B_RIPOSTE]) + d_enemy
        back = (board[att, B_RANGED] if ranged else board[att, B_MELEE]) + d_own
    s = 0.0
    if out >= life(board, theirs):
        s += 1.0 + board[theirs, B_PRESTIGE]
    if back >= life(board, mine):
        s -= 1.0 + board[mine, B_PRESTIGE]
    return s


@njit(**FAST)
def combat_worth(st, board, cards, me, src, a):
    """What a Combat ability of card src changes in the combat under way."""
    c = board[src, B_CARD]
    base = CD_ABIL + a * ABIL_WIDTH
    e = cards[c, base + AB_EFFECT]
    amount = cards[c, base + AB_AMOUNT]
    now = outlook(st, board, me, 0, 0)
    mine_attacks = (st[S_ATTACKER] >> 6) == me
    if e == EF_SHIELD:
        return outlook(st, board, me, -amount, 0) - now
    if e == EF_MELEE:
        return (outlook(st, board, me, 0, amount) - now) if mine_attacks and st[S_RANGED] == 0 else -0.5
    if e == EF_RANGED:
        return (outlook(st, board, me, 0, amount) - now) if mine_attacks and st[S_RANGED] else -0.5
    if e == EF_RIPOSTE:
        return (outlook(st, board, me, 0, amount) - now) if not mine_attacks and st[S_RANGED] == 0 else -0.5
    if e == EF_DAMAGE:
        return outlook(st, board, me, 0, amount) - now + 0.1
    if e == EF_CANCEL or e == EF_REDIRECT:
        return -now - 0.2 if now < 0 else -1.0
    return effect_worth(st, board, cards, me, src, a) - 0.3


# ---- targets ---------------------------------------------------------------------------------------


@njit(**FAST)
def target_score(st, board, cards, me, h):
    """Score of character h as the target of the ability resolving (S_SOURCE, S_ABIL) or as an
    attachment's host (S_PENDING)."""
    own = (h >> 6) == me
    pend = st[S_PENDING]
    if pend >= 0:                                     # an attachment's host
        c = board[pend, B_CARD]
        gift = cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP] + cards[c, CD_RANGED]
        worth = board[h, B_MELEE] + board[h, B_HP] - board[h, B_DAMAGE] + board[h, B_PRESTIGE]
        return worth if (gift >= 0) == own else -worth - 100.0
    src = st[S_SOURCE]
    c = board[src, B_CARD]
    base = CD_ABIL + st[S_ABIL] * ABIL_WIDTH
    e = cards[c, base + AB_EFFECT]
    amount = cards[c, base + AB_AMOUNT]
    if e == EF_DAMAGE or e == EF_DESTROY or e == EF_TAP or e == EF_MOVE:
        if own:
            return -100.0 - board[h, B_PRESTIGE]
        s = 1.0 * board[h, B_PRESTIGE] + 0.1 * board[h, B_MELEE]
        if e == EF_DESTROY or amount >= life(board, h):
            s += 10.0
        if e == EF_TAP and board[h, B_TAPPED]:
            s -= 20.0
        return s
    if e == EF_REDIRECT:                              # the new defender
        defending = (st[S_DEFENDER] >> 6) == me
        dmg = board[st[S_ATTACKER], B_RANGED] if st[S_RANGED] else board[st[S_ATTACKER], B_MELEE]
        if defending:
            return life(board, h) - dmg - 0.5 * board[h, B_PRESTIGE]
        return board[h, B_PRESTIGE] + (10.0 if dmg >= life(board, h) else 0.0)
    if e == EF_HEAL:
        return (board[h, B_DAMAGE] + board[h, B_PRESTIGE]) if own else -100.0
    if e == EF_UNTAP:
        return (board[h, B_TAPPED] * 10.0 + board[h, B_MELEE]) if own else -100.0
    if e == EF_ATTACK:
        return (board[h, B_MELEE] + board[h, B_RANGED]) if own else -100.0
    # shields and stat gains: my most valuable character (the combatant, in a combat)
    if not own:
        return -100.0
    s = board[h, B_PRESTIGE] + 0.1 * board[h, B_MELEE]
    if h == st[S_ATTACKER] or h == st[S_DEFENDER]:
        s += 20.0
    return s


# ---- the value player -------------------------------------------------------------------------


VALUE = ("kill_weight", "risk_weight", "hand_target", "draw_need", "mulligan_cost", "pass_good", "go_first")
VALUE_DEFAULTS = (1.0, 0.8, 5.0, 0.6, 4.0, 0.05, 1.0)
VALUE_BOUNDS = ((0.0, 3.0), (0.0, 3.0), (2.0, 9.0), (0.0, 2.0), (2.0, 7.0), (-1.0, 1.0), (0.0, 1.0))


@njit(**FAST)
def count_own(board, me):
    n = 0
    for i in range(me * 64, me * 64 + 48):
        n += in_play(board, i)
    return n


@njit(**FAST)
def action_score(st, board, cards, opts, r, me, params):
    act = opts[r, 0]
    if act == ACT_PASS:
        return 0.0
    if act == ACT_PASS_GOOD:
        return params[5]
    few = count_own(board, me) <= 2            # losing the last characters loses the game
    if act == ACT_ATTACK:
        return attack_score(board, opts[r, 1], opts[r, 2], opts[r, 3], params[0], params[1] * (4.0 if few else 1.0))
    if act == ACT_CYCLE:
        return -0.5
    i = opts[r, 1]
    c = board[i, B_CARD]
    if act == ACT_PLAY and opts[r, 2] < 0:
        if cards[c, CD_TYPE] == CHARACTER:
            return 0.5 + 0.25 * card_stats(cards, c) + (2.0 if few else 0.0)
        gift = cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP] + cards[c, CD_RANGED]
        return 0.3 + 0.2 * abs(gift) if (gift >= 0 or has_enemy(board, me)) else -1.0
    a = opts[r, 2]
    s = effect_worth(st, board, cards, me, i, a) - cost_penalty(cards, board, i, a)
    if act == ACT_PLAY:
        s -= 0.25 * cards[c, CD_COST]
    return s


@njit(**FAST)
def combat_score(st, board, cards, opts, r, me):
    act = opts[r, 0]
    if act == ACT_PASS:
        return 0.0
    if act == ACT_INTERCEPT:
        i = opts[r, 1]
        dfd = st[S_DEFENDER]
        dmg = board[st[S_ATTACKER], B_MELEE]
        saves = dmg >= life(board, dfd) and dmg < life(board, i)
        return 1.0 + board[dfd, B_PRESTIGE] if saves else -1.0
    if act == ACT_NAMED:
        b = opts[r, 3]
        if b == 0:
            return outlook(st, board, me, -1, 0) - outlook(st, board, me, 0, 0) - 0.3
        return outlook(st, board, me, 0, 1) - outlook(st, board, me, 0, 0) - 0.3
    i = opts[r, 1]
    a = opts[r, 2]
    if a < 0:
        return 0.1 * card_stats(cards, board[i, B_CARD]) - 1.0
    s = combat_worth(st, board, cards, me, i, a) - cost_penalty(cards, board, i, a)
    if act == ACT_PLAY:
        s -= 0.2 * cards[board[i, B_CARD], CD_COST]
    return s


@njit(**FAST)
def placement(cards, board, i):
    """0 front, 1 support: shooters and fragile characters hold back."""
    c = board[i, B_CARD]
    if cards[c, CD_RANGED] > 0 and cards[c, CD_RANGED] >= cards[c, CD_MELEE]:
        return 1
    return 0


@njit(**FAST)
def generic(kind, opts, n, st, board, cards, me, go_first, mulligan_cost, risk):
    """Decisions both heuristics take the same way (targets, lines, triggers, discards...)."""
    if kind == D_FIRST:
        want = 0 if go_first >= 0.5 else 1
        for r in range(n):
            if opts[r, 0] == want:
                return r
        return 0
    if kind == D_SETUP:
        want = placement(cards, board, opts[0, 0])
        for r in range(n):
            if opts[r, 1] == want:
                return r
        return 0
    if kind == D_LINE:
        want = placement(cards, board, st[S_PENDING])
        for r in range(n):
            if opts[r, 0] == want:
                return r
        return 0
    if kind == D_TRIGGER:
        for r in range(n):
            if opts[r, 0] >= 0 and opts[r, 2]:
                return r
        for r in range(n):
            if opts[r, 0] >= 0:
                return r
        return 0
    if kind == D_DISCARD or kind == D_CYCLE or kind == D_LOOK:
        # discard / look: the cheapest first; cycle: the dearest under the deck
        k = 0
        sign = -1 if kind == D_CYCLE else 1
        for r in range(1, n):
            if sign * printed(cards, board, opts[r, 0], CD_COST) < sign * printed(cards, board, opts[k, 0], CD_COST):
                k = r
        return k
    if kind == D_SEARCH:
        k = n - 1
        top = -1
        for r in range(n):
            if opts[r, 0] >= 0 and printed(cards, board, opts[r, 0], CD_COST) > top:
                top = printed(cards, board, opts[r, 0], CD_COST)
                k = r
        return k
    if kind == D_TARGET:
        k = 0
        bs = NEG
        for r in range(n):
            s = target_score(st, board, cards, me, opts[r, 0])
            if s > bs:
                bs = s
                k = r
        return k
    if kind == D_ATTACK:
        k = 0
        bs = NEG
        for r in range(n):
            s = attack_score(board, opts[r, 0], opts[r, 1], opts[r, 2], 1.0, risk)
            if s > bs:
                bs = s
                k = r
        return k
    if kind == D_MULLIGAN:
        k = n - 1                                     # done
        top = mulligan_cost
        for r in range(n - 1):
            cost = printed(cards, board, opts[r, 0], CD_COST)
            if cost > top:
                top = cost
                k = r
        return k
    return 0


@njit(DECISION_SIG, **FAST)
def value_choice(kind, opts, n, st, board, cards, params):
    me = st[S_ACTOR]
    if kind == D_MANOEUVRE:
        need = max(0.0, params[2] - st[S_HAND_N + me])
        k = 0
        bs = NEG
        for r in range(n):
            s = opts[r, 2] + opts[r, 1] * (0.5 + params[3] * need)
            if s > bs:
                bs = s
                k = r
        return k
    if kind == D_ACTION or kind == D_COMBAT:
        k = 0
        bs = NEG
        for r in range(n):
            if kind == D_ACTION:
                s = action_score(st, board, cards, opts, r, me, params)
            else:
                s = combat_score(st, board, cards, opts, r, me)
            if s > bs:
                bs = s
                k = r
        return k
    return generic(kind, opts, n, st, board, cards, me, params[6], params[4], params[1])


# ---- the aggressive player -------------------------------------------------------------------


AGGRESSIVE = ("mulligan_cost", "go_first")
AGGRESSIVE_DEFAULTS = (4.0, 1.0)
AGGRESSIVE_BOUNDS = ((2.0, 7.0), (0.0, 1.0))


@njit(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, board, cards, params):
    me = st[S_ACTOR]
    if kind == D_MANOEUVRE:
        k = 0
        for r in range(1, n):
            if opts[r, 2] > opts[k, 2] or (opts[r, 2] == opts[k, 2] and opts[r, 1] > opts[k, 1]):
                k = r
        return k
    if kind == D_ACTION:
        k = 0
        bs = NEG
        for r in range(n):
            act = opts[r, 0]
            if act == ACT_ATTACK:
                s = 100.0 + attack_score(board, opts[r, 1], opts[r, 2], opts[r, 3], 3.0, 0.0)
            elif act == ACT_PLAY and opts[r, 2] < 0 and printed(cards, board, opts[r, 1], CD_TYPE) == CHARACTER:
                s = 50.0 + printed(cards, board, opts[r, 1], CD_COST)
            elif act == ACT_PLAY or act == ACT_ABILITY:
                s = 10.0 * effect_worth(st, board, cards, me, opts[r, 1], max(opts[r, 2], 0)) if opts[r, 2] >= 0 else 1.0
            elif act == ACT_PASS_GOOD:
                s = 0.5
            else:
                s = 0.0
            if s > bs:
                bs = s
                k = r
        return k
    if kind == D_COMBAT:
        k = 0
        bs = 0.0
        for r in range(n):
            act = opts[r, 0]
            if act == ACT_ABILITY or (act == ACT_PLAY and opts[r, 2] >= 0):
                s = combat_worth(st, board, cards, me, opts[r, 1], opts[r, 2])
            elif act == ACT_NAMED:
                s = 0.2 if opts[r, 3] == 1 and (st[S_ATTACKER] >> 6) == me else -1.0
            else:
                s = -1.0
            if s > bs:
                bs = s
                k = r
        return k
    if kind == D_LINE:
        for r in range(n):
            if opts[r, 0] == 0:
                return r
    return generic(kind, opts, n, st, board, cards, me, params[1], params[0], 0.0)


# ---- random ------------------------------------------------------------------------------------


@njit(DECISION_SIG, **FAST)
def random_choice(kind, opts, n, st, board, cards, params):
    return draw(st, n)


REGISTRY.register(Strategy("random", ("seat0", "seat1"), (random_choice,),
                           "uniform over the legal rows of every decision"))
REGISTRY.register(Strategy(
    "aggressive", ("seat0", "seat1"), (aggressive_choice,),
    "attacks whenever it can (kills first), plays its dearest character to the front, pumps its own "
    "combatant, takes the Manoeuvre with the most gold", AGGRESSIVE, AGGRESSIVE_DEFAULTS, AGGRESSIVE_BOUNDS))
REGISTRY.register(Strategy(
    "value", ("seat0", "seat1"), (value_choice,),
    "trades by prestige taken against prestige risked, buys the most stats per gold, chooses Manoeuvres "
    "by need, shields, redirects and intercepts to save a combatant, passes for good to lead",
    VALUE, VALUE_DEFAULTS, VALUE_BOUNDS))
