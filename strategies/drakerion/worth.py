"""What an effect, an ability, an attachment or a card to play is worth to a Drakerion heuristic: on a
character (the combat under way included), on a player, as a redirect or a cancel, less what paying its
cost takes; attachments on their best host, characters by stats per gold, Manoeuvres by their abilities."""

from __future__ import annotations

from numba import njit

from sim.games.drakerion.shared import target_ok   # the kernel's own
from sim.games.drakerion.records import (
    AB_AMOUNT, AB_CARD_TYPE, AB_COST, AB_COST_AMOUNT, AB_EFFECT, AB_FILTER, AB_MAX_COST, AB_TARGET, AB_TRAITS,
    AB_TRIGGER, ACT_PLAY, ATTACHMENT, B_CARD, B_DAMAGE, B_HP, B_MELEE, B_PRESTIGE, B_RANGED, B_SHIELD, B_TAPPED,
    B_ZONE, CD_COST, CD_CYCLE, CD_HP, CD_KEYWORDS, CD_MELEE, CD_NABIL, CD_PRESTIGE, CD_RANGED, CD_RIPOSTE,
    CD_TRAITS, CD_TYPE, CHARACTER, CO_DAMAGE_SELF, CO_DESTROY_SELF, CO_DISCARD, CO_GOLD, CO_TAP_SELF, EF_ATTACK,
    EF_CANCEL, EF_DAMAGE, EF_DESTROY, EF_DISCARD, EF_DRAW, EF_GOLD, EF_HEAL, EF_HP, EF_LOOK, EF_MELEE, EF_MILL,
    EF_MOVE, EF_PUT_INTO_PLAY, EF_RANGED, EF_REDIRECT, EF_RIPOSTE, EF_SEARCH, EF_SHIELD, EF_TAP, EF_UNTAP,
    FI_MAX_COST, I_CITY, KW_IMPLACABLE, MAX_INST, S_ATTACKER, S_DECK_N, S_DEFENDER, S_HAND_N, TG_ALL_ENEMY,
    TG_ALL_OWN, TG_ANY, TG_ENEMY, TG_ENEMY_COMBATANT, TG_OPPONENT, TG_OWN, TG_OWN_COMBATANT, TG_SELF, TR_ACTION,
    TR_COMBAT, TR_DEPLOY, TR_PASSIVE, Z_FRONT, Z_HAND,
)
from strategies.drakerion.board import (
    BIG, FAST, INLINE, NEG, abil, chars_of, count_chars, fighting, gold_cost, hand_of, in_play, is_shooter,
    life, pop, printed, subject, threat, worth,
)
from strategies.drakerion.fights import balance, balance_now, best_attack_from, fight_delta, reach_kill



@njit(**FAST)
def char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw):
    """Worth for `me` of effect e (amount amt) applied to character h, the combat under way included."""
    own = (h >> 6) == me
    sign = 1.0 if own else -1.0
    in_fight = fighting(st) and (h == st[S_ATTACKER] or h == st[S_DEFENDER])
    if e == EF_DAMAGE or e == EF_DESTROY:
        if e == EF_DESTROY or (amt > 0 and amt >= life(board, h)):
            v = -rw * worth(board, h) if own else kw * worth(board, h)
            if count_chars(st, board, h >> 6) == 1:
                v += -BIG if own else BIG
            if in_fight:                       # the combat ends without damage
                v -= balance_now(st, board, me, kw, rw)
            return v
        if amt <= 0:
            return 0.0
        lasting = max(0, amt - board[h, B_SHIELD])
        v = -sign * dw * worth(board, h) * lasting / max(1, board[h, B_HP] - board[h, B_DAMAGE])
        if in_fight:
            v += fight_delta(st, board, me, h, 0, 0, 0, -amt, kw, rw)
        return v
    if e == EF_SHIELD or e == EF_HEAL or e == EF_HP:
        gain = min(amt, board[h, B_DAMAGE]) if e == EF_HEAL else amt
        if gain == 0:
            return -0.02
        v = sign * (0.12 if e == EF_HEAL else 0.04) * gain
        if in_fight:
            v += fight_delta(st, board, me, h, 0, 0, 0, gain, kw, rw)
        elif gain > 0:
            # out of a combat: a character in reach of a killing blow is no longer (an HP gain only
            # lasts the turn, but it makes this turn's attacks on it pointless)
            left = board[h, B_HP] - board[h, B_DAMAGE]
            t = threat(st, cards, board, 1 - (h >> 6), h, -1)
            if t >= left and t < left + gain:
                v += sign * max(cw, 0.1) * worth(board, h)
        return v
    if e == EF_MELEE or e == EF_RANGED or e == EF_RIPOSTE:
        v = 0.0
        if in_fight:
            v += fight_delta(st, board, me, h, amt if e == EF_MELEE else 0, amt if e == EF_RANGED else 0,
                             amt if e == EF_RIPOSTE else 0, 0, kw, rw)
        elif e == EF_RIPOSTE:
            v += sign * 0.04 * amt
        elif board[h, B_TAPPED] == 0 and amt > 0:
            v += sign * (0.04 * amt + 0.5 * reach_kill(st, cards, board, h, e == EF_RANGED, amt, kw))
        return v
    if e == EF_TAP:
        if board[h, B_TAPPED]:
            return -0.02
        return -sign * (0.1 + 0.04 * max(board[h, B_MELEE], board[h, B_RANGED]))
    if e == EF_UNTAP:
        if board[h, B_TAPPED] == 0:
            return -0.02
        return sign * (0.1 + 0.04 * max(board[h, B_MELEE], board[h, B_RANGED]))
    if e == EF_MOVE:
        if own:
            return -0.05
        if board[h, B_ZONE] == Z_FRONT:        # out of melee reach: it cannot attack in melee either
            return 0.02 if is_shooter(cards, board, h) else 0.12 + 0.03 * board[h, B_MELEE]
        return 0.1 + 0.03 * board[h, B_PRESTIGE]   # a back-line character dragged into reach
    if e == EF_ATTACK:
        if not own:
            return -0.05
        return best_attack_from(st, cards, board, h, kw, rw, cw, dw)
    return 0.0


@njit(**FAST)
def hand_match(st, cards, board, me, src, a):
    """The dearest card of my hand an ability may put into play (-1: none)."""
    want = abil(cards, board, src, a, AB_CARD_TYPE)
    traits = abil(cards, board, src, a, AB_TRAITS)
    bounded = (abil(cards, board, src, a, AB_FILTER) & FI_MAX_COST) != 0
    bound = abil(cards, board, src, a, AB_MAX_COST)
    top = -1
    m = hand_of(st, board, me)
    while m:
        i, m = pop(me, m)
        c = board[i, B_CARD]
        t = cards[c, CD_TYPE]
        if (t != CHARACTER and t != ATTACHMENT) or (want >= 0 and t != want):
            continue
        if traits != 0 and (cards[c, CD_TRAITS] & traits) == 0:
            continue
        if bounded and cards[c, CD_COST] > bound:
            continue
        top = max(top, cards[c, CD_COST])
    return top


@njit(**FAST)
def player_value(st, cards, board, me, src, a, e, amt, tg):
    """Worth for `me` of an effect on a player (draw, gold, look, search, discard, mill, put into play)."""
    q = 1 - me if tg == TG_OPPONENT else me
    mine = q == me
    if e == EF_DRAW:
        k = min(amt, st[S_DECK_N + q])
        return 0.35 * k if mine else -0.25 * k
    if e == EF_GOLD:
        return 0.3 * amt if mine else -0.2 * amt
    if e == EF_LOOK:
        return 0.12 if st[S_DECK_N + me] > 1 else 0.0
    if e == EF_SEARCH:
        return 0.6 if st[S_DECK_N + me] > 0 else 0.0
    if e == EF_DISCARD:
        k = min(amt, st[S_HAND_N + q])
        return -0.35 * k if mine else 0.35 * k
    if e == EF_MILL:
        k = min(amt, st[S_DECK_N + q])
        if mine:
            return -0.05 * k
        return 0.08 * k + 0.05 if k > 0 else 0.0
    if e == EF_PUT_INTO_PLAY:
        top = hand_match(st, cards, board, me, src, a)
        return 0.5 + 0.25 * top if top >= 0 else -0.05
    return 0.0


@njit(**FAST)
def redirect_value(st, cards, board, me, src, a, h, kw, rw):
    """Worth for `me` of making h the defender of the attack under way."""
    if not fighting(st):
        return 0.0
    att = st[S_ATTACKER]
    return balance(st, board, me, att, h, 0, 0, 0, 0, kw, rw) - balance_now(st, board, me, kw, rw)


@njit(**FAST)
def effect_value(st, cards, board, me, src, a, kw, rw, cw, dw):
    """Worth for `me` of carrying out ability a of src now (its cost aside), its best target assumed."""
    e = abil(cards, board, src, a, AB_EFFECT)
    amt = abil(cards, board, src, a, AB_AMOUNT)
    tg = abil(cards, board, src, a, AB_TARGET)
    if e == EF_DRAW or e == EF_GOLD or e == EF_LOOK or e == EF_SEARCH or e == EF_DISCARD or e == EF_MILL \
            or e == EF_PUT_INTO_PLAY:
        return player_value(st, cards, board, me, src, a, e, amt, tg)
    if e == EF_CANCEL or e == EF_REDIRECT:
        if not fighting(st) or (printed(cards, board, st[S_ATTACKER], CD_KEYWORDS) & KW_IMPLACABLE):
            return -0.05
        if e == EF_CANCEL:
            return -balance_now(st, board, me, kw, rw)
        q = st[S_DEFENDER] >> 6
        top = NEG
        m = chars_of(st, board, q)
        while m:
            h, m = pop(q, m)
            if h != st[S_DEFENDER] and target_ok(cards, board, a, src, h):
                top = max(top, redirect_value(st, cards, board, me, src, a, h, kw, rw))
        return top if top > NEG else -0.05
    if tg == TG_SELF:
        h = subject(board, src)
        if h < 0 or not in_play(board, h):
            return -0.05
        return char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
    if tg == TG_OWN_COMBATANT or tg == TG_ENEMY_COMBATANT:
        if not fighting(st):
            return -0.05
        side = me if tg == TG_OWN_COMBATANT else 1 - me
        h = st[S_ATTACKER] if (st[S_ATTACKER] >> 6) == side else st[S_DEFENDER]
        if (h >> 6) != side or not in_play(board, h):
            return -0.05
        return char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
    if tg == TG_ALL_OWN or tg == TG_ALL_ENEMY:
        q = me if tg == TG_ALL_OWN else 1 - me
        total = 0.0
        m = chars_of(st, board, q)
        while m:
            h, m = pop(q, m)
            if target_ok(cards, board, a, src, h):
                total += char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
        return total
    if tg == TG_OWN or tg == TG_ENEMY or tg == TG_ANY:
        top = NEG
        for q in range(2):
            if (tg == TG_OWN and q != me) or (tg == TG_ENEMY and q == me):
                continue
            m = chars_of(st, board, q)
            while m:
                h, m = pop(q, m)
                if target_ok(cards, board, a, src, h):
                    top = max(top, char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw))
        return top if top > NEG else -0.05
    return 0.0


@njit(**INLINE)
def cost_value(st, cards, board, me, src, a, rw, extra_gold):
    """What paying ability a's cost takes from `me` (extra_gold: an event's own cost, paid with it)."""
    cost = abil(cards, board, src, a, AB_COST)
    amt = abil(cards, board, src, a, AB_COST_AMOUNT)
    if cost == CO_GOLD:
        return gold_cost(st, cards, board, me, src, amt + extra_gold)
    paid = gold_cost(st, cards, board, me, src, extra_gold)
    if cost == CO_TAP_SELF:
        # a character's attack is scored as its own action; a City that cycles loses its cycle
        if src == me * MAX_INST + I_CITY and printed(cards, board, src, CD_CYCLE):
            return paid + 0.1
        return paid + 0.02
    if cost == CO_DISCARD:
        return paid + 0.4 * amt
    if cost == CO_DESTROY_SELF or cost == CO_DAMAGE_SELF:
        if not in_play(board, src):
            return paid
        if cost == CO_DAMAGE_SELF and amt < life(board, src):
            return paid + 0.1 * amt - fight_delta(st, board, me, src, 0, 0, 0, -amt, 1.0, rw)
        v = paid + rw * worth(board, src) + 0.3
        if count_chars(st, board, me) == 1:
            v += BIG
        if fighting(st) and (src == st[S_ATTACKER] or src == st[S_DEFENDER]):
            v += balance_now(st, board, me, 1.0, rw)
        return v
    return paid


@njit(**FAST)
def ability_value(st, cards, board, me, src, a, kw, rw, cw, dw, extra_gold):
    """Effect less cost; for an event being played (extra_gold = its cost) the card itself too."""
    v = effect_value(st, cards, board, me, src, a, kw, rw, cw, dw) \
        - cost_value(st, cards, board, me, src, a, rw, extra_gold)
    if board[src, B_ZONE] == Z_HAND:
        v -= 0.1
    return v


@njit(**INLINE)
def row_value(st, cards, board, me, opts, r, kw, rw, cw, dw):
    """ability_value of an action or combat row that plays an event or uses an ability (an event played
    pays its own cost besides its ability's)."""
    act = opts[r, 0]
    i = opts[r, 1]
    extra_gold = printed(cards, board, i, CD_COST) if act == ACT_PLAY else 0
    return ability_value(st, cards, board, me, i, opts[r, 2], kw, rw, cw, dw, extra_gold)


@njit(**FAST)
def host_value(st, cards, board, me, att_i, h, kw, rw):
    """Worth for `me` of attachment att_i bound to character h (a curse on an enemy counts too)."""
    c = board[att_i, B_CARD]
    dm = cards[c, CD_MELEE]
    dr = cards[c, CD_RANGED]
    drp = cards[c, CD_RIPOSTE]
    dh = cards[c, CD_HP]
    own = (h >> 6) == me
    rng = dr if is_shooter(cards, board, h) else 0
    gain = (dm + drp + dh + 1.5 * rng) * (0.3 + 0.04 * (board[h, B_MELEE] + life(board, h))) \
        - 0.3 * cards[c, CD_PRESTIGE]
    v = gain if own else -gain
    if dh < 0 and board[h, B_HP] + dh <= board[h, B_DAMAGE]:      # the host dies of it
        v = -rw * worth(board, h) if own else kw * worth(board, h)
    elif own and board[h, B_ZONE] == Z_FRONT:
        v += 0.1
    return v + fight_delta(st, board, me, h, dm, dr, drp, dh, kw, rw)


@njit(**FAST)
def attach_value(st, cards, board, me, i, kw, rw):
    """Playing attachment i: its best host, less its cost."""
    top = NEG
    for q in range(2):
        m = chars_of(st, board, q)
        while m:
            h, m = pop(q, m)
            top = max(top, host_value(st, cards, board, me, i, h, kw, rw))
    if top <= NEG:
        return -1.0
    return 0.3 + top - 0.15 * printed(cards, board, i, CD_COST)


@njit(**FAST)
def char_play_value(cards, board, i, mine_n):
    """Playing character i: stats per gold, a little for size, less for the prestige it hands over."""
    c = board[i, B_CARD]
    stats = cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP] + 1.5 * cards[c, CD_RANGED]
    v = 0.5 + 0.4 * stats / max(1, cards[c, CD_COST]) + 0.05 * stats - 0.1 * cards[c, CD_PRESTIGE]
    if mine_n <= 1:
        v += 1.0                                  # a wipe-out loses the game
    return v


@njit(**FAST)
def manoeuvre_extra(st, cards, board, me, inst, kw, rw, cw, dw):
    """Worth of a Manoeuvre's own abilities (passives for my characters, its reveal, its actions)."""
    v = 0.0
    for a in range(printed(cards, board, inst, CD_NABIL)):
        trig = abil(cards, board, inst, a, AB_TRIGGER)
        e = abil(cards, board, inst, a, AB_EFFECT)
        if trig == TR_PASSIVE:
            if abil(cards, board, inst, a, AB_TARGET) == TG_ALL_OWN and \
                    (e == EF_MELEE or e == EF_RANGED or e == EF_RIPOSTE or e == EF_HP):
                v += 0.08 * abil(cards, board, inst, a, AB_AMOUNT) * count_chars(st, board, me)
        elif trig == TR_DEPLOY:
            v += effect_value(st, cards, board, me, inst, a, kw, rw, cw, dw)
        elif trig == TR_ACTION or trig == TR_COMBAT:
            v += 0.2
    return v
