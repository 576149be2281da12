"""Drakerion kernel, part 2: abilities as data. One interpreter reads a card's ability row (trigger,
condition, cost, effect, target, amount, filters: records.AB_*) and carries it out — there is no code
per card. Also here: damage, destruction and the sweep after it, reactions, and the trigger queue's
resolution in the order the rulebook gives (the initiating player's pending abilities first)."""

from __future__ import annotations

from numba import njit

from sim.games.drakerion.kernel_base import (
    FAST, INLINE, M_ATTACHED, M_CHARS, M_HAND, R_COND, has_trigger, list_hand, mask, pop_row, trigger_rows, Q_WIDTH, W_DECK, W_DECKN, W_HURT, W_PENDING_ATTACK, W_QN, W_QUEUE, W_TGT,
    add_row, decide, draw, enter_line, in_play, in_play_char, lines, push, push_trigger,
    refresh, set_zone, shuffle, subject_matches, take_from_deck, win_check,
)
from sim.games.drakerion.shared import target_ok
from sim.games.drakerion.records import (
    AB_AMOUNT, AB_CARD_TYPE, AB_CONDITION, AB_COST, AB_COST_AMOUNT, AB_EFFECT, AB_FILTER, AB_FORCED,
    AB_MAX_COST, AB_TARGET, AB_TRAITS, AB_TRIGGER, ABIL_WIDTH, ATTACHMENT, B_CARD, B_CB_HP, B_CB_MELEE,
    B_CB_RANGED, B_CB_RIPOSTE, B_DAMAGE, B_HOST, B_HP, B_PRESTIGE, B_SHIELD, B_TAPPED, B_TB_HP,
    B_TB_MELEE, B_TB_RANGED, B_TB_RIPOSTE, B_ZONE, CD_ABIL, CD_ATTACH_EXCEPT, CD_COST, CD_KEYWORDS,
    CD_NABIL, CD_NAMED, CD_NAME_ID, CD_PRESTIGE, CD_RANGED, CD_TRAITS, CD_TYPE, CHARACTER, CO_DAMAGE_SELF, CO_DESTROY_SELF,
    CO_DISCARD, CO_GOLD, CO_NONE, CO_TAP_SELF, C_ABILITY_ATTACK_TAPS, C_COMBAT_GAINS_TIMING, C_PRESTIGE_ANY, D_ATTACK,
    D_DISCARD, D_LINE, D_LOOK, D_SEARCH, D_TARGET, D_TRIGGER, EF_ATTACK, EF_CANCEL, EF_DAMAGE,
    EF_DESTROY, EF_DISCARD, EF_DRAW, EF_GOLD, EF_HEAL, EF_HP, EF_LOOK, EF_MELEE, EF_MILL, EF_MOVE,
    EF_PUT_INTO_PLAY, EF_RANGED, EF_REDIRECT, EF_RIPOSTE, EF_SEARCH, EF_SHIELD, EF_TAP, EF_UNTAP,
    FI_MAX_COST, K_F_ABILITY_ATTACK, K_F_ATTACH_PRESTIGE, K_F_COMBAT_GAINS_TIMING, K_F_PRESTIGE_ANY, K_FOUND, K_HEALED, K_IMPLACABLE_HELD, K_MAN_DEPLOY,
    K_NO_ATTACH_BLOCK, K_SHIELD_ABSORB, TR_PASSIVE, Z_MAN_TOP,
    KW_IMPLACABLE, KW_NO_ATTACHMENT, MAX_DECK, MAX_INST, S_ABIL, S_ATTACKER, S_CANCELLED, S_DECK_N,
    S_DEFENDER, S_GOLD, S_HAND_N, S_IN_COMBAT, S_MAN_TOP, S_OVER, S_PENDING, S_PRESTIGE, S_SOURCE, TG_ALL_ENEMY,
    TG_ALL_OWN, TG_ANY, TG_ENEMY, TG_ENEMY_COMBATANT, TG_OPPONENT, TG_OWN, TG_OWN_COMBATANT, TG_SELF,
    TR_COMBAT, TR_DEPLOY, TR_DESTRUCTION, TR_REACTION, T_ABILITIES, T_DAMAGE_DEALT, T_FIRED,
    T_GOLD_GAINED, T_GOLD_SPENT, T_KILLS, T_KW, T_LOST, T_SHIELD_ABSORBED, T_TRIG,
    WH_DAMAGED, WH_DEFENDS, WH_ENEMY_DESTROYED, WH_FRIEND_DESTROYED, Z_ATTACHED,
    Z_DECK, Z_DISCARD, Z_FRONT, Z_HAND, Z_SUPPORT,
)


# ---- reading an ability row ----------------------------------------------------------------------


@njit(**FAST)
def ab(cards, board, i, a, field):
    return cards[board[i, B_CARD], CD_ABIL + a * ABIL_WIDTH + field]


@njit(**FAST)
def card_of(cards, board, i, field):
    return cards[board[i, B_CARD], field]


# ---- legality helpers shared with the option lists -----------------------------------------------


@njit(**FAST)
def named_clash(w, cards, board, p, i):
    """Whether p already controls a Named character of the same name as card i."""
    c = board[i, B_CARD]
    if cards[c, CD_NAMED] == 0:
        return False
    name = cards[c, CD_NAME_ID]
    m = mask(w, p, M_CHARS)
    while m:
        j, m = pop_row(p, m)
        if cards[board[j, B_CARD], CD_NAME_ID] == name and cards[board[j, B_CARD], CD_NAMED]:
            return True
    return False


@njit(**FAST)
def may_host(cards, board, x, h):
    """Whether attachment x may be bound to character h (Pas d'Attachement, its 'excepté' trait)."""
    hc = board[h, B_CARD]
    if (cards[hc, CD_KEYWORDS] & KW_NO_ATTACHMENT) == 0:
        return True
    allowed = cards[hc, CD_ATTACH_EXCEPT]
    return allowed != 0 and (cards[board[x, B_CARD], CD_TRAITS] & allowed) != 0


@njit(**FAST)
def list_hosts(w, opts, cards, board, x):
    """One row per character in play that may take attachment x; returns (the rows, characters that refuse
    it)."""
    n = refused = 0
    for p in range(2):
        m = mask(w, p, M_CHARS)
        while m:
            h, m = pop_row(p, m)
            if may_host(cards, board, x, h):
                n = add_row(opts, n, h, -1, -1, -1)
            else:
                refused += 1
    return n, refused


@njit(**FAST)
def has_host(w, cards, board, x):
    for p in range(2):
        m = mask(w, p, M_CHARS)
        while m:
            h, m = pop_row(p, m)
            if may_host(cards, board, x, h):
                return True
    return False


@njit(**INLINE)
def payable(w, st, cards, board, p, i, a, extra_gold):
    """Whether p can pay ability a of card i (extra_gold: an event's own cost, paid with it)."""
    cost = ab(cards, board, i, a, AB_COST)
    amount = ab(cards, board, i, a, AB_COST_AMOUNT)
    if cost == CO_NONE:
        return True
    if cost == CO_TAP_SELF:
        return board[i, B_TAPPED] == 0
    if cost == CO_DISCARD:
        others = st[S_HAND_N + p] - (1 if board[i, B_ZONE] == Z_HAND else 0)
        return others >= amount
    if cost == CO_GOLD:
        return st[S_GOLD + p] >= amount + extra_gold
    return in_play_char(board, i)


# ---- damage, destruction, the sweep --------------------------------------------------------------


@njit(**FAST)
def hurt(w, st, board, i, amount, by):
    """Deal `amount` damage to character i (shields first: absorbed damage still counts as dealt)."""
    if amount <= 0 or not in_play_char(board, i):
        return
    absorbed = min(board[i, B_SHIELD], amount)
    board[i, B_SHIELD] -= absorbed
    board[i, B_DAMAGE] += amount - absorbed
    st[T_SHIELD_ABSORBED + (i >> 6)] += absorbed
    st[T_KW + K_SHIELD_ABSORB] += min(absorbed, 1)
    if by >= 0:
        st[T_DAMAGE_DEALT + by] += amount
    w[W_HURT + i] += amount


@njit(**FAST)
def queue_reactions(w, st, cards, board, p, condition, subject):
    """Queue p's in-play reactions with this condition (subject: the character concerned, or -1)."""
    m = (mask(w, p, M_CHARS) | mask(w, p, M_ATTACHED)) & trigger_rows(w, p, R_COND + condition)
    while m:
        j, m = pop_row(p, m)
        queue_card_reactions(w, cards, board, j, condition, subject)
    top = st[S_MAN_TOP + p]
    if top >= 0:
        queue_card_reactions(w, cards, board, top, condition, subject)
    city = p * MAX_INST + 56
    if board[city, B_CARD] >= 0:
        queue_card_reactions(w, cards, board, city, condition, subject)


@njit(**INLINE)
def queue_card_reactions(w, cards, board, j, condition, subject):
    if has_trigger(w, j, R_COND + condition) == 0:
        return
    c = board[j, B_CARD]
    for a in range(cards[c, CD_NABIL]):
        base = CD_ABIL + a * ABIL_WIDTH
        if cards[c, base + AB_TRIGGER] == TR_REACTION and cards[c, base + AB_CONDITION] == condition:
            if subject < 0 or subject_matches(board, j, subject):
                push(w, j, a, TR_REACTION)


@njit(**FAST)
def destroy(w, st, cards, board, x, by_combat):
    """Character x leaves play for its owner's discard; its attachments fall to their owners'
    discards; its prestige goes to the opponent (ability kills only under prestige_any_destruction)."""
    q = x >> 6
    prestige = board[x, B_PRESTIGE]
    set_zone(w, st, board, x, Z_DISCARD)
    board[x, B_TAPPED] = 0                    # a card out of play is never tapped
    w[W_HURT + x] = 0
    for p in range(2):
        m = mask(w, p, M_ATTACHED)
        while m:
            j, m = pop_row(p, m)
            if board[j, B_HOST] == x:
                if card_of(cards, board, j, CD_PRESTIGE) != 0:   # attachment_prestige_to_host decides it
                    st[T_KW + K_F_ATTACH_PRESTIGE] += 1
                set_zone(w, st, board, j, Z_DISCARD)
                board[j, B_HOST] = -1
                board[j, B_TAPPED] = 0
    if by_combat or w[C_PRESTIGE_ANY]:
        st[S_PRESTIGE + 1 - q] += max(prestige, 0)
    if not by_combat:
        st[T_KW + K_F_PRESTIGE_ANY] += 1
    st[T_KILLS + 1 - q] += 1
    st[T_LOST + q] += 1
    push_trigger(w, cards, board, x, TR_DESTRUCTION)
    queue_reactions(w, st, cards, board, 1 - q, WH_ENEMY_DESTROYED, -1)
    queue_reactions(w, st, cards, board, q, WH_FRIEND_DESTROYED, -1)


@njit(**FAST)
def sweep(w, st, cards, board, by_combat):
    """After damage or a stat change: destroy every character at or past its HP (in row order, until
    none is left), queue `damaged` reactions for survivors, apply the lines rule and check the win."""
    refresh(w, st, board, cards)
    again = True
    while again:
        again = False
        for p in range(2):
            m = mask(w, p, M_CHARS)
            while m:
                x, m = pop_row(p, m)
                if board[x, B_DAMAGE] >= board[x, B_HP]:
                    destroy(w, st, cards, board, x, by_combat)
                    again = True
        if again:
            refresh(w, st, board, cards)
    for p in range(2):
        m = mask(w, p, M_CHARS)
        while m:
            x, m = pop_row(p, m)
            if w[W_HURT + x] > 0:
                w[W_HURT + x] = 0
                queue_reactions(w, st, cards, board, p, WH_DAMAGED, x)
    lines(w, st, board, 0)
    lines(w, st, board, 1)
    win_check(w, st)


# ---- choosing targets ----------------------------------------------------------------------------


@njit(**FAST)
def combatant_of(st, p):
    if st[S_IN_COMBAT] == 0:
        return -1
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    if att >= 0 and (att >> 6) == p:
        return att
    if dfd >= 0 and (dfd >> 6) == p:
        return dfd
    return -1


@njit(**FAST)
def list_targets(w, st, opts, cards, board, p, src, a, side):
    """Characters in play of `side` (0/1, or 2 for both) passing ability a's filters."""
    n = 0
    for q in range(2):
        if side != 2 and q != side:
            continue
        m = mask(w, q, M_CHARS)
        while m:
            h, m = pop_row(q, m)
            if target_ok(cards, board, a, src, h):
                n = add_row(opts, n, h, -1, -1, -1)
    return n


@njit(**FAST)
def targets(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a):
    """Resolve ability a's target kind to characters: their rows go to w[W_TGT:], the count is returned."""
    tg = ab(cards, board, src, a, AB_TARGET)
    if tg == TG_SELF:
        z = board[src, B_ZONE]
        if z == Z_FRONT or z == Z_SUPPORT:
            w[W_TGT] = src
            return 1
        if z == Z_ATTACHED:
            w[W_TGT] = board[src, B_HOST]
            return 1
        return 0
    if tg == TG_OWN_COMBATANT or tg == TG_ENEMY_COMBATANT:
        h = combatant_of(st, p if tg == TG_OWN_COMBATANT else 1 - p)
        if h < 0 or not in_play_char(board, h):
            return 0
        w[W_TGT] = h
        return 1
    if tg == TG_ALL_OWN or tg == TG_ALL_ENEMY:
        q = p if tg == TG_ALL_OWN else 1 - p
        n = 0
        m = mask(w, q, M_CHARS)
        while m:
            h, m = pop_row(q, m)
            if target_ok(cards, board, a, src, h):
                w[W_TGT + n] = h
                n += 1
        return n
    if tg == TG_OWN or tg == TG_ENEMY or tg == TG_ANY:
        side = p if tg == TG_OWN else (1 - p if tg == TG_ENEMY else 2)
        n = list_targets(w, st, opts, cards, board, p, src, a, side)
        if n == 0:
            return 0
        st[S_SOURCE] = src
        st[S_ABIL] = a
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_TARGET, n)
        w[W_TGT] = opts[c, 0]
        return 1
    return 0


# ---- costs ---------------------------------------------------------------------------------------


@njit(**FAST)
def discard_one(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, kind):
    """p discards a card of their choice from hand (kind: D_DISCARD or D_CYCLE asks the same)."""
    n = list_hand(w, opts, 0, p)
    if n == 0:
        return -1
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, kind, n)
    return opts[c, 0]


@njit(**FAST)
def pay(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a):
    """Pay ability a's cost (before its effect)."""
    cost = ab(cards, board, src, a, AB_COST)
    amount = ab(cards, board, src, a, AB_COST_AMOUNT)
    if cost == CO_TAP_SELF:
        board[src, B_TAPPED] = 1
    elif cost == CO_DISCARD:
        for _ in range(amount):
            i = discard_one(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_DISCARD)
            if i >= 0:
                set_zone(w, st, board, i, Z_DISCARD)
    elif cost == CO_GOLD:
        st[S_GOLD + p] -= amount
        st[T_GOLD_SPENT + p] += amount
    elif cost == CO_DESTROY_SELF:
        if in_play_char(board, src):
            destroy(w, st, cards, board, src, False)
            sweep(w, st, cards, board, False)
    elif cost == CO_DAMAGE_SELF:
        hurt(w, st, board, src, amount, -1)
        sweep(w, st, cards, board, False)


# ---- effects -------------------------------------------------------------------------------------


@njit(**FAST)
def gain(board, i, effect, amount, combat):
    """A stat gain (HP too) for this combat when `combat`, otherwise for the turn."""
    if effect == EF_MELEE:
        board[i, B_CB_MELEE if combat else B_TB_MELEE] += amount
    elif effect == EF_RANGED:
        board[i, B_CB_RANGED if combat else B_TB_RANGED] += amount
    elif effect == EF_RIPOSTE:
        board[i, B_CB_RIPOSTE if combat else B_TB_RIPOSTE] += amount
    else:
        board[i, B_CB_HP if combat else B_TB_HP] += amount


@njit(**FAST)
def put_into_play(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i):
    """Card i (a character or an attachment from p's hand) enters play without paying: a line or a
    host is chosen, then its deployment abilities are queued."""
    if card_of(cards, board, i, CD_TYPE) == CHARACTER:
        st[S_PENDING] = i
        n = add_row(opts, 0, 0, -1, -1, -1)
        n = add_row(opts, n, 1, -1, -1, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_LINE, n)
        enter_line(w, st, board, i, opts[c, 0])
    else:
        st[S_PENDING] = i
        n, refused = list_hosts(w, opts, cards, board, i)
        if refused > 0:
            st[T_KW + K_NO_ATTACH_BLOCK] += 1
        if n == 0:
            set_zone(w, st, board, i, Z_DISCARD)
            return
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_TARGET, n)
        set_zone(w, st, board, i, Z_ATTACHED)
        board[i, B_HOST] = opts[c, 0]
        board[i, B_TAPPED] = 0
    st[S_PENDING] = -1
    st[T_TRIG + TR_PASSIVE] += has_trigger(w, i, TR_PASSIVE)
    sweep(w, st, cards, board, False)
    push_trigger(w, cards, board, i, TR_DEPLOY)


@njit(**FAST)
def card_matches(w, cards, board, src, a, i):
    """A searched / put-into-play card: of the ability's card type, traits and cost bound."""
    c = board[i, B_CARD]
    want = ab(cards, board, src, a, AB_CARD_TYPE)
    if want >= 0 and cards[c, CD_TYPE] != want:
        return False
    traits = ab(cards, board, src, a, AB_TRAITS)
    if traits != 0 and (cards[c, CD_TRAITS] & traits) == 0:
        return False
    if (ab(cards, board, src, a, AB_FILTER) & FI_MAX_COST) and cards[c, CD_COST] > ab(cards, board, src, a, AB_MAX_COST):
        return False
    return True


@njit(**FAST)
def player_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a, effect, amount):
    """Effects on a player: draw, gold, look, search, discard, mill, put into play."""
    tg = ab(cards, board, src, a, AB_TARGET)
    q = 1 - p if tg == TG_OPPONENT else p
    if effect == EF_DRAW:
        draw(w, st, board, q, amount)
        win_check(w, st)                     # empty_deck_loses: drawing from an empty deck lost the game
    elif effect == EF_GOLD:
        st[S_GOLD + q] += amount
        st[T_GOLD_GAINED + q] += amount
    elif effect == EF_MILL:
        base = W_DECK + q * MAX_DECK
        for _ in range(amount):
            n = st[S_DECK_N + q]
            if n == 0:
                break
            st[S_DECK_N + q] = n - 1
            set_zone(w, st, board, w[base + n - 1], Z_DISCARD)
    elif effect == EF_DISCARD:
        for _ in range(amount):
            i = discard_one(w, st, board, opts, cards, tr, f0, f1, p0, p1, q, D_DISCARD)
            if i < 0:
                break
            set_zone(w, st, board, i, Z_DISCARD)
    elif effect == EF_LOOK:
        look(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, amount)
    elif effect == EF_SEARCH:
        n = 0
        for k in range(w[W_DECKN + p]):
            i = p * MAX_INST + k
            if board[i, B_ZONE] == Z_DECK and card_matches(w, cards, board, src, a, i):
                n = add_row(opts, n, i, -1, -1, -1)
        n = add_row(opts, n, -1, -1, -1, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_SEARCH, n)
        if opts[c, 0] >= 0:
            take_from_deck(w, st, board, opts[c, 0], Z_HAND)
            st[T_KW + K_FOUND] += 1
        shuffle(w, st, tr, p)
    elif effect == EF_PUT_INTO_PLAY:
        n = 0
        m = mask(w, p, M_HAND)
        while m:
            i, m = pop_row(p, m)
            if card_matches(w, cards, board, src, a, i):
                t = card_of(cards, board, i, CD_TYPE)
                if t == CHARACTER and not named_clash(w, cards, board, p, i):
                    n = add_row(opts, n, i, -1, -1, -1)
                elif t == ATTACHMENT and has_host(w, cards, board, i):
                    n = add_row(opts, n, i, -1, -1, -1)
        n = add_row(opts, n, -1, -1, -1, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_SEARCH, n)
        if opts[c, 0] >= 0:
            put_into_play(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, opts[c, 0])


@njit(**FAST)
def look(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, amount):
    """Look at the top cards of p's deck and put them back one at a time: the first chosen goes lowest,
    the last chosen ends on top. The cards stay in the deck throughout."""
    base = W_DECK + p * MAX_DECK
    n = st[S_DECK_N + p]
    m = min(amount, n)
    for j in range(m):
        at = base + n - m + j               # the next place, from the bottom of the looked-at cards
        left = m - j
        for k in range(left):
            add_row(opts, k, w[at + k], -1, -1, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_LOOK, left)
        t = w[at]
        w[at] = w[at + c]
        w[at + c] = t


@njit(**FAST)
def combat_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a, effect):
    """Redirect or cancel the attack under way (never against an Implacable attacker)."""
    if st[S_IN_COMBAT] == 0 or st[S_ATTACKER] < 0:
        return
    att = st[S_ATTACKER]
    if card_of(cards, board, att, CD_KEYWORDS) & KW_IMPLACABLE:
        st[T_KW + K_IMPLACABLE_HELD] += 1
        return
    if effect == EF_CANCEL:
        st[S_CANCELLED] = 1
        return
    dfd = st[S_DEFENDER]
    q = dfd >> 6
    n = 0
    m = mask(w, q, M_CHARS)
    while m:
        h, m = pop_row(q, m)
        if h != dfd and target_ok(cards, board, a, src, h):
            n = add_row(opts, n, h, -1, -1, -1)
    if n == 0:
        return
    st[S_SOURCE] = src
    st[S_ABIL] = a
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_TARGET, n)
    st[S_DEFENDER] = opts[c, 0]
    queue_reactions(w, st, cards, board, q, WH_DEFENDS, opts[c, 0])


@njit(**FAST)
def attack_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a):
    """One of p's characters attacks any enemy character (ignoring lines); the combat itself runs when
    the current action's abilities are resolved (kernel.run_pending_attacks): one made during a combat
    runs once that combat is over, as combats do not nest."""
    m = targets(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a)
    if m == 0:
        return
    att = w[W_TGT]
    if (att >> 6) != p:
        return
    st[T_KW + K_F_ABILITY_ATTACK] += 1
    if w[C_ABILITY_ATTACK_TAPS] and board[att, B_TAPPED]:
        return
    n = 0
    shooter = card_of(cards, board, att, CD_RANGED) > 0
    m = mask(w, 1 - p, M_CHARS)
    while m:
        h, m = pop_row(1 - p, m)
        n = add_row(opts, n, att, h, 0, -1)
        if shooter:
            n = add_row(opts, n, att, h, 1, -1)
    if n == 0:
        return
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_ATTACK, n)
    if w[C_ABILITY_ATTACK_TAPS]:
        board[att, B_TAPPED] = 1
    w[W_PENDING_ATTACK] = opts[c, 0]
    w[W_PENDING_ATTACK + 1] = opts[c, 1]
    w[W_PENDING_ATTACK + 2] = opts[c, 2]


@njit(**FAST)
def effect_of(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a):
    """Carry out ability a of card src for player p (its cost already paid)."""
    effect = ab(cards, board, src, a, AB_EFFECT)
    amount = ab(cards, board, src, a, AB_AMOUNT)
    st[T_FIRED + effect] += 1
    if effect == EF_DRAW or effect == EF_GOLD or effect == EF_MILL or effect == EF_DISCARD \
            or effect == EF_LOOK or effect == EF_SEARCH or effect == EF_PUT_INTO_PLAY:
        player_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a, effect, amount)
        return
    if effect == EF_REDIRECT or effect == EF_CANCEL:
        combat_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a, effect)
        return
    if effect == EF_ATTACK:
        attack_effect(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a)
        return
    m = targets(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a)
    # a stat gain lasts the combat when a Combat ability gives it (rulebook), the turn otherwise (assumed);
    # combat_gains_by_timing: any gain resolved while a combat is open lasts that combat
    in_combat = st[S_IN_COMBAT] != 0
    by_combat = ab(cards, board, src, a, AB_TRIGGER) == TR_COMBAT
    if in_combat and not by_combat and m > 0 and effect >= EF_MELEE and effect <= EF_HP:
        st[T_KW + K_F_COMBAT_GAINS_TIMING] += 1
        by_combat = w[C_COMBAT_GAINS_TIMING] != 0
    for t in range(m):
        h = w[W_TGT + t]
        if not in_play_char(board, h):
            continue
        if effect == EF_SHIELD:
            board[h, B_SHIELD] += amount
        elif effect == EF_HEAL:
            st[T_KW + K_HEALED] += min(board[h, B_DAMAGE], 1)
            board[h, B_DAMAGE] -= min(amount, board[h, B_DAMAGE])
        elif effect == EF_DAMAGE:
            hurt(w, st, board, h, amount, p)
        elif effect == EF_DESTROY:
            destroy(w, st, cards, board, h, False)
        elif effect == EF_MOVE:
            set_zone(w, st, board, h, Z_SUPPORT if board[h, B_ZONE] == Z_FRONT else Z_FRONT)
        elif effect == EF_TAP:
            board[h, B_TAPPED] = 1
        elif effect == EF_UNTAP:
            board[h, B_TAPPED] = 0
        else:
            gain(board, h, effect, amount, by_combat)
    sweep(w, st, cards, board, False)


@njit(**FAST)
def use_ability(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a):
    """Pay and carry out ability a of card src for p."""
    st[T_ABILITIES + p] += 1
    trig = ab(cards, board, src, a, AB_TRIGGER)
    st[T_TRIG + trig] += 1
    if trig == TR_DEPLOY and board[src, B_ZONE] == Z_MAN_TOP:
        st[T_KW + K_MAN_DEPLOY] += 1
    pay(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a)
    if st[S_OVER]:
        return
    effect_of(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, src, a)


# ---- the trigger queue ---------------------------------------------------------------------------


@njit(**FAST)
def entry_live(w, st, cards, board, e):
    """A queued ability may still be used: its card where the trigger needs it, its cost payable."""
    b = W_QUEUE + e * Q_WIDTH
    i = w[b]
    a = w[b + 1]
    trig = w[b + 2]
    if trig == TR_DESTRUCTION:
        if board[i, B_ZONE] != Z_DISCARD:
            return False
    elif not in_play(board, i):
        return False
    return payable(w, st, cards, board, i >> 6, i, a, 0)


@njit(**FAST)
def drop_entry(w, e):
    n = w[W_QN]
    for k in range(e, n - 1):
        b = W_QUEUE + k * Q_WIDTH
        w[b] = w[b + Q_WIDTH]
        w[b + 1] = w[b + Q_WIDTH + 1]
        w[b + 2] = w[b + Q_WIDTH + 2]
    w[W_QN] = n - 1


@njit(**FAST)
def resolve_player(w, st, board, opts, cards, tr, f0, f1, p0, p1, p):
    """p resolves their pending abilities one at a time, in the order they choose; optional ones may be
    declined (all the rest at once). Returns whether anything was pending."""
    any_pending = False
    while st[S_OVER] == 0:
        e = 0
        while e < w[W_QN]:              # drop what can no longer be used
            b = W_QUEUE + e * Q_WIDTH
            if (w[b] >> 6) == p and not entry_live(w, st, cards, board, e):
                drop_entry(w, e)
            else:
                e += 1
        n = 0
        forced = 0
        for e in range(w[W_QN]):
            b = W_QUEUE + e * Q_WIDTH
            if (w[b] >> 6) == p:
                f = ab(cards, board, w[b], w[b + 1], AB_FORCED)
                forced += f
                n = add_row(opts, n, w[b], w[b + 1], f, -1)
        if n == 0:
            return any_pending
        any_pending = True
        if forced == 0:
            n = add_row(opts, n, -1, -1, 0, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_TRIGGER, n)
        if opts[c, 0] < 0:
            e = 0
            while e < w[W_QN]:
                if (w[W_QUEUE + e * Q_WIDTH] >> 6) == p:
                    drop_entry(w, e)
                else:
                    e += 1
            return any_pending
        i = opts[c, 0]
        a = opts[c, 1]
        e = 0
        while w[W_QUEUE + e * Q_WIDTH] != i or w[W_QUEUE + e * Q_WIDTH + 1] != a:
            e += 1
        drop_entry(w, e)
        use_ability(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i, a)
    return any_pending


@njit(**FAST)
def resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, initiator):
    """The initiating player's pending abilities, then the opponent's, until none is left."""
    while st[S_OVER] == 0 and w[W_QN] > 0:
        a = resolve_player(w, st, board, opts, cards, tr, f0, f1, p0, p1, initiator)
        b = resolve_player(w, st, board, opts, cards, tr, f0, f1, p0, p1, 1 - initiator)
        if not (a or b):
            w[W_QN] = 0
    if st[S_OVER]:
        w[W_QN] = 0
