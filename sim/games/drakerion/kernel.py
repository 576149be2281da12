"""Drakerion's numba kernel, part 3: the game's flow — set-up and mulligan, the Manoeuvre, Action and
End phases, playing cards, attacks and the combat window — and the batch entry `play_batch`.

The rules run as straight-line code that asks a strategy whenever a player must choose
(kernel_base.decide: the option rows are in `opts`, the answer is traced). Abilities are data read by
one interpreter (kernel_effects). Each game has its own random stream seeded by (seed, game index):
the shuffles come from it first, so game i gets the same decks whatever the strategies do, and
lineups, rule flags and ablations are compared on the same deals. Everything is compiled without
reference counting (`_nrt=False`): nothing in the game loop allocates.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.engine.kernel_rows import start_trace
from sim.engine.rng import mix
from sim.games.drakerion.kernel_base import (
    FAST, INLINE, M_ATTACHED, M_CHARS, M_DISCARD, M_HAND, N_TBITS, W_MASK, W_TMASK, W_TROWS, has_trigger, low_row,
    list_hand, mask, pop_row, N_WORK, T_EVENT_BIT, T_IMPREV_BIT, T_NAMED_BIT, trigger_mask, trigger_rows, W_DECK, W_DECKN, W_HURT, W_LAST_PRESTIGE, W_PENDING_ATTACK, W_PLAYED, W_QN, W_SETUP, W_TOVER,
    W_TRACING, W_TROW, add_row, below, decide, draw, emit, enter_line, in_play_char,
    lines, put_under, push_trigger, refresh, set_zone, setup_stats, shuffle, take_from_deck, win_check,
)
from sim.games.drakerion.kernel_effects import (
    ab, card_of, gain, has_host, hurt, named_clash, payable, queue_reactions,
    resolve_queue, sweep, use_ability, put_into_play,
)
from sim.games.drakerion.records import (
    ACT_ABILITY, ACT_ATTACK, ACT_CYCLE, ACT_INTERCEPT, ACT_NAMED, ACT_PASS, ACT_PASS_GOOD, ACT_PLAY,
    AB_TRIGGER, ATTACHMENT, BOARD_WIDTH, B_CARD, B_CB_HP, B_CB_MELEE, B_CB_RANGED, B_CB_RIPOSTE, B_HOST,
    B_MELEE, B_RANGED, B_RIPOSTE, B_SHIELD, B_TAPPED, B_TB_HP, B_TB_MELEE, B_TB_RANGED, B_TB_RIPOSTE,
    B_ZONE, CD_COST, CD_CYCLE, CD_DRAW, CD_GOLD, CD_INITIATIVE, CD_KEYWORDS, CD_NABIL, CD_NAMED,
    CD_NAME_ID, CD_RANGED, CD_SUBTYPE, CD_TYPE, CHARACTER, C_HAND_SIZE, C_MULL_SHUFFLE_FIRST,
    C_GAINS_IN_PLAY, C_NAMED_FIRST, C_NAMED_SECOND, C_OUT_COMBAT, C_START_GOLD, C_TURN_CAP, DECISION_FN, D_ACTION, D_COMBAT, D_CYCLE, D_FIRST,
    D_MANOEUVRE, D_MULLIGAN, D_SETUP, DRAW, END_CAP, EVENT, EV_END,
    EV_FIRST, EV_TURN, I_BANNER, I_CITY, I_MAN, KW_IMPLACABLE, KW_IMPREVISIBLE, KW_INFILTRATEUR,
    KW_INTERCEPTEUR, K_IMPREVISIBLE_PLAY, K_INFILTRATE, K_INTERCEPT, K_IMPLACABLE_HELD, K_F_NAMED_FIRST, K_F_NAMED_SECOND, T_TRIG,
    K_F_GAINS_IN_PLAY, EF_HP, EF_MELEE, EF_RANGED, EF_RIPOSTE, EF_SHIELD, MAX_ABILITY_ATTACKS,
    K_F_OUT_COMBAT, K_F_SHIELDS, K_F_SHIELDS_TURN, K_F_INTERCEPT_IMPLACABLE, K_F_IMPREV_EVENT, C_SHIELDS_COMBATANTS,
    C_SHIELDS_TURN,
    C_INTERCEPT_IMPLACABLE, C_IMPREV_EVENT_COMBAT_ONLY, ABIL_WIDTH, CD_ABIL, TR_PASSIVE,
    K_PILE_REBUILT, K_RIPOSTE, MAX_DECK, MAX_INST, MAX_OPTS, MAX_SETUP, N_INST, N_MAN, N_STATE,
    OPT_WIDTH, PH_ACTION, PH_COMBAT, PH_END, PH_MANOEUVRE, PH_SETUP, S_ATTACKER, S_CANCELLED,
    S_DECK_N, S_DECK_SIZE, S_DEFENDER, S_END, S_FIRST, S_GOLD, S_HAND_N, S_IN_COMBAT, S_MAN_PILE_N,
    S_MAN_TOP, S_MASKS_KEPT, S_OUT, S_OVER, S_PASSED, S_PENDING, S_PHASE, S_PRESTIGE, S_RANGED, S_RNG,
    S_SEAT_OF_FIRST, S_TURN, S_WINNER, TR_ACTION, TR_ACTION_DISCARD, TR_COMBAT, TR_DEPLOY,
    T_ACTIONS, T_ATTACKS, T_CYCLES, T_GOLD_GAINED, T_GOLD_SPENT, T_INTERCEPTS, T_KW, T_MULLIGAN,
    T_NAMED, T_PASS_GOOD, T_PLAYED, T_RANGED_ATTACKS, WH_ATTACKS, WH_DEFENDS,
    WH_END_OF_TURN, WH_ENEMY_PLAYS, Z_ATTACHED, Z_BANNER, Z_CITY, Z_DECK, Z_DISCARD, Z_FRONT,
    Z_MAN_COVERED, Z_MAN_PILE, Z_MAN_TOP, Z_NONE, Z_RESOLVING, Z_SUPPORT,
)


# ---- set-up ----------------------------------------------------------------------------------------


@njit(**FAST)
def new_game(w, st, board, cards, inst_card, seed, g):
    """Clear the state and board, lay out both players' cards (decks in file order)."""
    st[:] = 0
    st[S_MASKS_KEPT] = 1
    st[S_RNG] = np.int64(mix(seed, g))
    st[S_WINNER] = DRAW
    st[S_ATTACKER] = -1
    st[S_DEFENDER] = -1
    st[S_PENDING] = -1
    w[W_QN] = 0
    w[W_PENDING_ATTACK] = -1
    for k in range(8):
        w[W_MASK + k] = 0
    for k in range(2 * N_TBITS):
        w[W_TROWS + k] = 0
    for i in range(N_INST):
        p = i >> 6
        k = i & 63
        for f in range(BOARD_WIDTH):
            board[i, f] = 0
        board[i, B_CARD] = inst_card[p, k]
        t = trigger_mask(cards, inst_card[p, k])
        w[W_TMASK + i] = t
        while t:
            w[W_TROWS + N_TBITS * p + low_row(t)] |= np.int64(1) << k
            t &= t - 1
        board[i, B_HOST] = -1
        board[i, B_ZONE] = Z_NONE
        w[W_HURT + i] = 0
        w[W_PLAYED + i] = 0
    for p in range(2):
        n = w[W_DECKN + p]
        for k in range(n):
            board[p * MAX_INST + k, B_ZONE] = Z_DECK
            w[W_DECK + p * MAX_DECK + k] = p * MAX_INST + k
        st[S_DECK_N + p] = n
        st[S_DECK_SIZE + p] = n
        for m in range(N_MAN):
            board[p * MAX_INST + I_MAN + m, B_ZONE] = Z_MAN_PILE
        st[S_MAN_PILE_N + p] = N_MAN
        st[S_MAN_TOP + p] = -1
        board[p * MAX_INST + I_CITY, B_ZONE] = Z_CITY
        board[p * MAX_INST + I_BANNER, B_ZONE] = Z_BANNER
        st[S_GOLD + p] = w[C_START_GOLD]
        w[W_LAST_PRESTIGE + p] = 0


@njit(**FAST)
def choose_first(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    i0 = cards[board[I_BANNER, B_CARD], CD_INITIATIVE]
    i1 = cards[board[MAX_INST + I_BANNER, B_CARD], CD_INITIATIVE]
    if i0 == i1:
        first = below(st, 2)
        emit(w, tr, EV_FIRST, -1, first, -1, -1, -1, -1, -1, -1, -1)
        return first
    chooser = 0 if i0 > i1 else 1
    n = add_row(opts, 0, 0, -1, -1, -1)
    n = add_row(opts, n, 1, -1, -1, -1)
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, chooser, D_FIRST, n)
    first = chooser if opts[c, 0] == 0 else 1 - chooser
    emit(w, tr, EV_FIRST, chooser, first, -1, -1, -1, -1, -1, -1, -1)
    return first


@njit(**FAST)
def set_up(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    st[S_PHASE] = PH_SETUP
    first = choose_first(w, st, board, opts, cards, tr, f0, f1, p0, p1)
    st[S_FIRST] = first
    st[S_SEAT_OF_FIRST] = first
    for p in (first, 1 - first):
        for s in range(MAX_SETUP):
            k = w[W_SETUP + p * MAX_SETUP + s]
            if k < 0:
                break
            i = p * MAX_INST + k
            take_from_deck(w, st, board, i, Z_NONE)
            n = add_row(opts, 0, i, 0, -1, -1)
            n = add_row(opts, n, i, 1, -1, -1)
            c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_SETUP, n)
            enter_line(w, st, board, i, opts[c, 1])
            st[T_TRIG + TR_PASSIVE] += has_trigger(w, i, TR_PASSIVE)
            setup_stats(w, board, cards)
        lines(w, st, board, p)
    refresh(w, st, board, cards)             # set-up done: the characters' passives apply from now on
    for p in (first, 1 - first):
        shuffle(w, st, tr, p)
        draw(w, st, board, p, w[C_HAND_SIZE])
    for p in (first, 1 - first):
        mulligan(w, st, board, opts, cards, tr, f0, f1, p0, p1, p)
    win_check(w, st)                         # a deck too small for the opening hand (empty_deck_loses)


@njit(**FAST)
def mulligan(w, st, board, opts, cards, tr, f0, f1, p0, p1, p):
    """Put any number of cards under the deck one at a time, draw as many, shuffle."""
    put = 0
    while True:
        n = add_row(opts, list_hand(w, opts, 0, p), -1, -1, -1, -1)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_MULLIGAN, n)
        if opts[c, 0] < 0:
            break
        put_under(w, st, board, opts[c, 0])
        put += 1
    st[T_MULLIGAN + p] = put
    if put == 0:
        return
    if w[C_MULL_SHUFFLE_FIRST]:
        shuffle(w, st, tr, p)
        draw(w, st, board, p, put)
    else:
        draw(w, st, board, p, put)
        shuffle(w, st, tr, p)
    st[T_MULLIGAN + p] = put


# ---- the Manoeuvre phase ------------------------------------------------------------------------


@njit(**FAST)
def pick_manoeuvre(w, st, board, opts, cards, tr, f0, f1, p0, p1, p):
    n = 0
    for m in range(N_MAN):
        i = p * MAX_INST + I_MAN + m
        if board[i, B_ZONE] == Z_MAN_PILE:
            c = board[i, B_CARD]
            n = add_row(opts, n, i, cards[c, CD_DRAW], cards[c, CD_GOLD], cards[c, CD_SUBTYPE])
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_MANOEUVRE, n)
    return opts[c, 0]


@njit(**FAST)
def manoeuvre_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    st[S_PHASE] = PH_MANOEUVRE
    first = st[S_FIRST]
    for p in (first, 1 - first):
        if st[S_MAN_PILE_N + p] == 0:      # rebuilt from the eight revealed, the visible one included:
            for m in range(N_MAN):         # its passives end at once
                board[p * MAX_INST + I_MAN + m, B_ZONE] = Z_MAN_PILE
            st[S_MAN_PILE_N + p] = N_MAN
            st[S_MAN_TOP + p] = -1
            st[T_KW + K_PILE_REBUILT] += 1
            sweep(w, st, cards, board, False)
            if st[S_OVER]:
                return
    a = pick_manoeuvre(w, st, board, opts, cards, tr, f0, f1, p0, p1, first)
    b = pick_manoeuvre(w, st, board, opts, cards, tr, f0, f1, p0, p1, 1 - first)
    for p, i in ((first, a), (1 - first, b)):
        old = st[S_MAN_TOP + p]
        if old >= 0:
            board[old, B_ZONE] = Z_MAN_COVERED
        board[i, B_ZONE] = Z_MAN_TOP
        st[S_MAN_TOP + p] = i
        st[T_TRIG + TR_PASSIVE] += has_trigger(w, i, TR_PASSIVE)
        st[S_MAN_PILE_N + p] -= 1
    for p in (first, 1 - first):
        c = board[st[S_MAN_TOP + p], B_CARD]
        st[S_GOLD + p] += cards[c, CD_GOLD]
        st[T_GOLD_GAINED + p] += cards[c, CD_GOLD]
        draw(w, st, board, p, cards[c, CD_DRAW])
    sweep(w, st, cards, board, False)         # the covered Manoeuvre's passives end (HP included)
    for p in (first, 1 - first):
        push_trigger(w, cards, board, st[S_MAN_TOP + p], TR_DEPLOY)
    resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, first)
    run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1)


# ---- option lists --------------------------------------------------------------------------------


@njit(**INLINE)
def can_play(w, st, cards, board, p, i):
    """Whether p may play hand card i (not an event: events are played by ability)."""
    c = board[i, B_CARD]
    if st[S_GOLD + p] < cards[c, CD_COST]:
        return False
    t = cards[c, CD_TYPE]
    if t == CHARACTER:
        return not named_clash(w, cards, board, p, i)
    if t == ATTACHMENT:
        return has_host(w, cards, board, i)
    return False


@njit(**INLINE)
def list_event(w, st, opts, cards, board, p, i, n, trigger):
    """Rows [PLAY, i, a] for each ability of event i with this trigger that p can afford."""
    c = board[i, B_CARD]
    cost = cards[c, CD_COST]
    if st[S_GOLD + p] < cost or has_trigger(w, i, trigger) == 0:
        return n
    for a in range(cards[c, CD_NABIL]):
        if ab(cards, board, i, a, AB_TRIGGER) == trigger and payable(w, st, cards, board, p, i, a, cost):
            n = add_row(opts, n, ACT_PLAY, i, a, -1)
    return n


@njit(**INLINE)
def list_abilities(w, st, opts, cards, board, p, i, n, trigger):
    if has_trigger(w, i, trigger) == 0:
        return n
    c = board[i, B_CARD]
    for a in range(cards[c, CD_NABIL]):
        if ab(cards, board, i, a, AB_TRIGGER) == trigger and payable(w, st, cards, board, p, i, a, 0):
            n = add_row(opts, n, ACT_ABILITY, i, a, -1)
    return n


@njit(**FAST)
def infiltration_open(w, cards, board, q):
    """Whether q has no front character with Infiltrateur (so enemy Infiltrateurs reach q's support)."""
    m = mask(w, q, M_CHARS)
    while m:
        h, m = pop_row(q, m)
        if board[h, B_ZONE] == Z_FRONT and (card_of(cards, board, h, CD_KEYWORDS) & KW_INFILTRATEUR):
            return False
    return True


@njit(**FAST)
def list_attacks(w, st, opts, cards, board, p, n):
    q = 1 - p
    open_support = infiltration_open(w, cards, board, q)
    mine = mask(w, p, M_CHARS)
    while mine:
        a, mine = pop_row(p, mine)
        za = board[a, B_ZONE]
        if board[a, B_TAPPED]:
            continue
        infiltrator = (card_of(cards, board, a, CD_KEYWORDS) & KW_INFILTRATEUR) != 0
        shooter = card_of(cards, board, a, CD_RANGED) > 0
        theirs = mask(w, q, M_CHARS)
        while theirs:
            d, theirs = pop_row(q, theirs)
            zd = board[d, B_ZONE]
            if za == Z_FRONT and (zd == Z_FRONT or (infiltrator and open_support)):
                n = add_row(opts, n, ACT_ATTACK, a, d, 0)
            if shooter and not (za == Z_SUPPORT and zd == Z_SUPPORT):
                n = add_row(opts, n, ACT_ATTACK, a, d, 1)
    return n


@njit(**FAST)
def list_actions(w, st, opts, cards, board, p):
    n = add_row(opts, 0, ACT_PASS, -1, -1, -1)
    n = add_row(opts, n, ACT_PASS_GOOD, -1, -1, -1)
    m = mask(w, p, M_HAND)
    while m:
        i, m = pop_row(p, m)
        if has_trigger(w, i, T_EVENT_BIT):
            n = list_event(w, st, opts, cards, board, p, i, n, TR_ACTION)
        elif can_play(w, st, cards, board, p, i):
            n = add_row(opts, n, ACT_PLAY, i, -1, -1)
    m = (mask(w, p, M_CHARS) | mask(w, p, M_ATTACHED)) & trigger_rows(w, p, TR_ACTION)
    while m:
        i, m = pop_row(p, m)
        n = list_abilities(w, st, opts, cards, board, p, i, n, TR_ACTION)
    m = mask(w, p, M_DISCARD) & trigger_rows(w, p, TR_ACTION_DISCARD)
    while m:
        i, m = pop_row(p, m)
        n = list_abilities(w, st, opts, cards, board, p, i, n, TR_ACTION_DISCARD)
    city = p * MAX_INST + I_CITY
    n = list_abilities(w, st, opts, cards, board, p, city, n, TR_ACTION)
    top = st[S_MAN_TOP + p]
    if top >= 0:
        n = list_abilities(w, st, opts, cards, board, p, top, n, TR_ACTION)
    if card_of(cards, board, city, CD_CYCLE) and board[city, B_TAPPED] == 0 and st[S_HAND_N + p] > 0:
        n = add_row(opts, n, ACT_CYCLE, city, -1, -1)
    return list_attacks(w, st, opts, cards, board, p, n)


@njit(**FAST)
def list_combat(w, st, opts, cards, board, p, first_action):
    n = add_row(opts, 0, ACT_PASS, -1, -1, -1)
    if st[S_OUT + p]:
        st[T_KW + K_F_OUT_COMBAT] += 1
        if w[C_OUT_COMBAT] == 0:
            return n
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    if first_action and (dfd >> 6) == p and st[S_RANGED] == 0:
        m = mask(w, p, M_CHARS)
        while m:
            i, m = pop_row(p, m)
            if i != dfd and board[i, B_ZONE] == board[dfd, B_ZONE] and board[i, B_TAPPED] == 0 \
                    and (card_of(cards, board, i, CD_KEYWORDS) & KW_INTERCEPTEUR):
                n = add_row(opts, n, ACT_INTERCEPT, i, -1, -1)
        if n > 1 and (card_of(cards, board, att, CD_KEYWORDS) & KW_IMPLACABLE):
            st[T_KW + K_F_INTERCEPT_IMPLACABLE] += 1     # an interceptor could take an Implacable attack
            if w[C_INTERCEPT_IMPLACABLE] == 0:
                st[T_KW + K_IMPLACABLE_HELD] += 1
                n = 1
    # only cards with a Combat ability, Imprévisible cards and Named characters can add rows
    m = mask(w, p, M_HAND) & (trigger_rows(w, p, TR_COMBAT) | trigger_rows(w, p, T_IMPREV_BIT))
    while m:
        i, m = pop_row(p, m)
        t = card_of(cards, board, i, CD_TYPE)
        if t == EVENT:
            n = list_event(w, st, opts, cards, board, p, i, n, TR_COMBAT)
        if card_of(cards, board, i, CD_KEYWORDS) & KW_IMPREVISIBLE:
            if t == EVENT:
                n0 = n
                n = list_event(w, st, opts, cards, board, p, i, n, TR_ACTION)
                if n > n0:                # an Imprévisible event's Action ability, playable in a combat?
                    st[T_KW + K_F_IMPREV_EVENT] += 1
                    if w[C_IMPREV_EVENT_COMBAT_ONLY]:
                        n = n0
            elif can_play(w, st, cards, board, p, i):
                n = add_row(opts, n, ACT_PLAY, i, -1, -1)
    m = (mask(w, p, M_CHARS) | mask(w, p, M_ATTACHED)) \
        & (trigger_rows(w, p, TR_COMBAT) | trigger_rows(w, p, T_NAMED_BIT))
    while m:
        i, m = pop_row(p, m)
        n = list_abilities(w, st, opts, cards, board, p, i, n, TR_COMBAT)
        if board[i, B_ZONE] != Z_ATTACHED and card_of(cards, board, i, CD_NAMED):
            d = named_copy(w, cards, board, p, i)
            if d >= 0:
                n = add_row(opts, n, ACT_NAMED, i, d, EF_SHIELD)
                n = add_row(opts, n, ACT_NAMED, i, d, named_stat(w, 1))
                n = add_row(opts, n, ACT_NAMED, i, d, named_stat(w, 2))
    city = p * MAX_INST + I_CITY
    n = list_abilities(w, st, opts, cards, board, p, city, n, TR_COMBAT)
    top = st[S_MAN_TOP + p]
    if top >= 0:
        n = list_abilities(w, st, opts, cards, board, p, top, n, TR_COMBAT)
    return n


@njit(**FAST)
def named_copy(w, cards, board, p, i):
    """The lowest hand row holding a card of the same name as Named character i, or -1."""
    name = card_of(cards, board, i, CD_NAME_ID)
    m = mask(w, p, M_HAND)
    while m:
        j, m = pop_row(p, m)
        if card_of(cards, board, j, CD_NAME_ID) == name:
            return j
    return -1


# ---- actions -------------------------------------------------------------------------------------


@njit(**FAST)
def play_card(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i, a):
    """Pay for hand card i and bring it in: a character to a line, an attachment to a host, an event's
    ability a carried out, then the event to the discard."""
    c = board[i, B_CARD]
    st[S_GOLD + p] -= cards[c, CD_COST]
    st[T_GOLD_SPENT + p] += cards[c, CD_COST]
    st[T_PLAYED + p] += 1
    w[W_PLAYED + i] += 1
    t = cards[c, CD_TYPE]
    if st[S_IN_COMBAT]:               # in a combat, only Imprévisible lets a non-event or an Action ability in
        if t != EVENT or cards[c, CD_ABIL + a * ABIL_WIDTH + AB_TRIGGER] != TR_COMBAT:
            st[T_KW + K_IMPREVISIBLE_PLAY] += 1
    if t == EVENT:
        set_zone(w, st, board, i, Z_RESOLVING)
        use_ability(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i, a)
        set_zone(w, st, board, i, Z_DISCARD)
        return
    put_into_play(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i)
    if t == CHARACTER:
        queue_reactions(w, st, cards, board, 1 - p, WH_ENEMY_PLAYS, -1)


@njit(**FAST)
def cycle(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, city):
    board[city, B_TAPPED] = 1
    n = list_hand(w, opts, 0, p)
    c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, D_CYCLE, n)
    put_under(w, st, board, opts[c, 0])
    draw(w, st, board, p, 1)
    st[T_CYCLES + p] += 1


@njit(**FAST)
def named_stat(w, k):
    """The effect code of the Named bonus's stat k (1: named_bonus_first, 2: named_bonus_second)."""
    if k == 2:
        return EF_RANGED if w[C_NAMED_SECOND] == 0 else EF_RIPOSTE
    f = w[C_NAMED_FIRST]
    return EF_MELEE if f == 0 else EF_RANGED if f == 1 else EF_RIPOSTE if f == 2 else EF_HP


@njit(**FAST)
def named_bonus(w, st, board, cards, i, d, bonus):
    """Discard a copy of Named character i's name for 1 shield (bonus EF_SHIELD) or +1 of the first or
    the second stat (bonus: its effect code) for the combat."""
    p = i >> 6
    set_zone(w, st, board, d, Z_DISCARD)
    if bonus == EF_SHIELD:
        board[i, B_SHIELD] += 1
    else:
        st[T_KW + (K_F_NAMED_FIRST if bonus == named_stat(w, 1) else K_F_NAMED_SECOND)] += 1
        gain(board, i, bonus, 1, True)
    st[T_NAMED + p] += 1
    refresh(w, st, board, cards)


# ---- combat --------------------------------------------------------------------------------------


@njit(**FAST)
def combat(w, st, board, opts, cards, tr, f0, f1, p0, p1, att, dfd, ranged):
    """One attack: declaration, the combat window, simultaneous damage, its aftermath."""
    ap = att >> 6
    dp = 1 - ap
    st[S_PHASE] = PH_COMBAT
    st[S_IN_COMBAT] = 1
    st[S_ATTACKER] = att
    st[S_DEFENDER] = dfd
    st[S_RANGED] = ranged
    st[S_CANCELLED] = 0
    st[T_ATTACKS + ap] += 1
    st[T_RANGED_ATTACKS + ap] += ranged
    if ranged == 0 and board[dfd, B_ZONE] == Z_SUPPORT and board[att, B_ZONE] == Z_FRONT:
        st[T_KW + K_INFILTRATE] += 1
    queue_reactions(w, st, cards, board, ap, WH_ATTACKS, att)
    queue_reactions(w, st, cards, board, dp, WH_DEFENDS, dfd)
    resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, ap)
    actor = dp
    passes = 0
    first_action = True
    while st[S_OVER] == 0:
        if st[S_CANCELLED] or not in_play_char(board, st[S_ATTACKER]) or not in_play_char(board, st[S_DEFENDER]):
            break
        n = list_combat(w, st, opts, cards, board, actor, first_action)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, D_COMBAT, n)
        first_action = False
        act = opts[c, 0]
        if act == ACT_PASS:
            passes += 1
            if passes >= 2:
                break
        else:
            passes = 0
            combat_action(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, c)
            resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor)
        actor = 1 - actor
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    if st[S_OVER] == 0 and st[S_CANCELLED] == 0 and in_play_char(board, att) and in_play_char(board, dfd):
        if ranged:
            hurt(w, st, board, dfd, board[att, B_RANGED], ap)
        else:
            riposte = board[dfd, B_RIPOSTE]
            hurt(w, st, board, dfd, board[att, B_MELEE], ap)
            if riposte > 0:
                st[T_KW + K_RIPOSTE] += 1
            hurt(w, st, board, att, riposte, dp)
        sweep(w, st, cards, board, True)
    end_combat(w, st, board, cards)
    resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, ap)
    st[S_PHASE] = PH_ACTION
    return dp


@njit(**FAST)
def end_combat(w, st, board, cards):
    """Shields and gains lasting the combat end for every character (a character whose HP gain ends may
    be destroyed then)."""
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    st[S_IN_COMBAT] = 0
    st[S_ATTACKER] = -1
    st[S_DEFENDER] = -1
    st[S_RANGED] = 0
    hp_lost = 0
    for p in range(2):
        m = mask(w, p, M_CHARS)
        while m:
            i, m = pop_row(p, m)
            if board[i, B_SHIELD] > 0 and i != att and i != dfd:   # a bystander's shields
                st[T_KW + K_F_SHIELDS] += 1
                if w[C_SHIELDS_COMBATANTS] == 0:
                    board[i, B_SHIELD] = 0
            else:
                board[i, B_SHIELD] = 0
            board[i, B_CB_MELEE] = 0
            board[i, B_CB_RANGED] = 0
            board[i, B_CB_RIPOSTE] = 0
            hp_lost |= board[i, B_CB_HP]
            board[i, B_CB_HP] = 0
    if hp_lost and st[S_OVER] == 0:
        sweep(w, st, cards, board, False)
    else:
        refresh(w, st, board, cards)


@njit(**FAST)
def combat_action(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, c):
    act = opts[c, 0]
    i = opts[c, 1]
    if act == ACT_INTERCEPT:
        board[i, B_TAPPED] = 1
        st[S_DEFENDER] = i
        st[T_INTERCEPTS + p] += 1
        st[T_KW + K_INTERCEPT] += 1
        queue_reactions(w, st, cards, board, p, WH_DEFENDS, i)
    elif act == ACT_NAMED:
        named_bonus(w, st, board, cards, i, opts[c, 2], opts[c, 3])
    elif act == ACT_PLAY:
        play_card(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i, opts[c, 2])
    elif act == ACT_ABILITY:
        use_ability(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, i, opts[c, 2])


@njit(**FAST)
def run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    """Attacks abilities made, each once the abilities pending when it was made are resolved (an
    attack's own aftermath may make another); returns the last defending player, or -1."""
    last = -1
    chain = 0
    while w[W_PENDING_ATTACK] >= 0 and st[S_OVER] == 0 and chain < MAX_ABILITY_ATTACKS:
        att = w[W_PENDING_ATTACK]
        dfd = w[W_PENDING_ATTACK + 1]
        ranged = w[W_PENDING_ATTACK + 2]
        w[W_PENDING_ATTACK] = -1
        chain += 1
        if in_play_char(board, att) and in_play_char(board, dfd):
            last = combat(w, st, board, opts, cards, tr, f0, f1, p0, p1, att, dfd, ranged)
    w[W_PENDING_ATTACK] = -1
    return last


# ---- the Action phase ----------------------------------------------------------------------------


@njit(**FAST)
def action_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    """Players alternate single actions until every player still in has passed in a row; returns the
    next turn's first player."""
    st[S_PHASE] = PH_ACTION
    for p in range(2):
        st[S_PASSED + p] = 0
        st[S_OUT + p] = 0
    good = -1
    last_pass = st[S_FIRST]
    actor = st[S_FIRST]
    while st[S_OVER] == 0:
        done0 = st[S_OUT] or st[S_PASSED]
        done1 = st[S_OUT + 1] or st[S_PASSED + 1]
        if done0 and done1:
            break
        if st[S_OUT + actor]:
            actor = 1 - actor
        n = list_actions(w, st, opts, cards, board, actor)
        c = decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, D_ACTION, n)
        st[T_ACTIONS + actor] += 1
        act = opts[c, 0]
        nxt = 1 - actor
        if act == ACT_PASS:
            st[S_PASSED + actor] = 1
            last_pass = actor
        elif act == ACT_PASS_GOOD:
            st[S_OUT + actor] = 1
            st[T_PASS_GOOD + actor] += 1
            last_pass = actor
            if good < 0:
                good = actor
        else:
            st[S_PASSED] = 0
            st[S_PASSED + 1] = 0
            if act == ACT_ATTACK:
                board[opts[c, 1], B_TAPPED] = 1
                nxt = combat(w, st, board, opts, cards, tr, f0, f1, p0, p1, opts[c, 1], opts[c, 2], opts[c, 3])
                d = run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1)
                if d >= 0:
                    nxt = d
            else:
                if act == ACT_PLAY:
                    play_card(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, opts[c, 1], opts[c, 2])
                elif act == ACT_ABILITY:
                    use_ability(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, opts[c, 1], opts[c, 2])
                elif act == ACT_CYCLE:
                    cycle(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor, opts[c, 1])
                resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, actor)
                d = run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1)
                if d >= 0:
                    nxt = d
        if st[S_OUT + nxt] == 0:
            actor = nxt
        else:
            actor = 1 - nxt
    return good if good >= 0 else last_pass


# ---- the End phase and the game ----------------------------------------------------------------


@njit(**FAST)
def end_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    st[S_PHASE] = PH_END
    first = st[S_FIRST]
    for p in (first, 1 - first):
        queue_reactions(w, st, cards, board, p, WH_END_OF_TURN, -1)
    resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, first)
    run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1)
    if st[S_OVER]:
        return
    for p in range(2):
        m = mask(w, p, M_CHARS) | mask(w, p, M_ATTACHED)
        while m:
            i, m = pop_row(p, m)
            board[i, B_TAPPED] = 0
            if board[i, B_TB_MELEE] | board[i, B_TB_RANGED] | board[i, B_TB_RIPOSTE] | board[i, B_TB_HP]:
                st[T_KW + K_F_GAINS_IN_PLAY] += 1     # a gain the end of the turn would end
                if w[C_GAINS_IN_PLAY] == 0:
                    board[i, B_TB_MELEE] = 0
                    board[i, B_TB_RANGED] = 0
                    board[i, B_TB_RIPOSTE] = 0
                    board[i, B_TB_HP] = 0
            if board[i, B_SHIELD] > 0:         # a shield no combat ended this turn
                st[T_KW + K_F_SHIELDS_TURN] += 1
                if w[C_SHIELDS_TURN]:
                    board[i, B_SHIELD] = 0
        board[p * MAX_INST + I_CITY, B_TAPPED] = 0
        if st[S_MAN_TOP + p] >= 0:
            board[st[S_MAN_TOP + p], B_TAPPED] = 0
    sweep(w, st, cards, board, False)
    resolve_queue(w, st, board, opts, cards, tr, f0, f1, p0, p1, first)
    run_pending_attacks(w, st, board, opts, cards, tr, f0, f1, p0, p1)


@njit(**FAST)
def play_game(w, st, board, opts, cards, tr, f0, f1, p0, p1):
    set_up(w, st, board, opts, cards, tr, f0, f1, p0, p1)
    turn = 0
    while st[S_OVER] == 0:
        turn += 1
        if turn > w[C_TURN_CAP]:
            st[S_OVER] = 1
            st[S_WINNER] = DRAW
            st[S_END] = END_CAP
            turn -= 1
            break
        st[S_TURN] = turn
        emit(w, tr, EV_TURN, turn, st[S_FIRST], st[S_GOLD], st[S_GOLD + 1], st[S_PRESTIGE],
             st[S_PRESTIGE + 1], st[S_HAND_N], st[S_HAND_N + 1], -1)
        manoeuvre_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1)
        if st[S_OVER]:
            break
        nxt = action_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1)
        if st[S_OVER]:
            break
        end_phase(w, st, board, opts, cards, tr, f0, f1, p0, p1)
        st[S_FIRST] = nxt
    st[S_TURN] = turn
    emit(w, tr, EV_END, st[S_WINNER], st[S_END], turn, st[S_PRESTIGE], st[S_PRESTIGE + 1], -1, -1, -1, -1)


@njit(**INLINE)
def record(w, st, out, played, g):
    """Game g's final state slots and plays per row into the batch's outputs."""
    for s in range(out.shape[0]):
        out[s, g] = st[s]
    for p in range(2):                    # only deck rows are ever played (the rest stay 0)
        for k in range(w[W_DECKN + p]):
            played[p * MAX_INST + k, g] = w[W_PLAYED + p * MAX_INST + k]


@njit(**FAST)
def fill_work(w, config, setup, deck_n):
    """A batch's work array: the configuration, deck sizes and set-up rows."""
    for k in range(config.shape[0]):
        w[k] = config[k]
    for p in range(2):
        w[W_DECKN + p] = deck_n[p]
        for s in range(MAX_SETUP):
            w[W_SETUP + p * MAX_SETUP + s] = setup[p, s]


@njit(**INLINE)      # inlined into play_batch: compiled apart, LLVM optimised and emitted the whole kernel twice
def play_games(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, seed, n, out, played, starts,
               n_traced):
    w[W_TROW] = 0
    w[W_TOVER] = 0
    for g in range(n):
        start_trace(w, g, n_traced, starts, W_TRACING, W_TROW)
        new_game(w, st, board, cards, inst_card, seed, g)
        play_game(w, st, board, opts, cards, tr, f0, f1, p0, p1)
        record(w, st, out, played, g)
    if n_traced > 0:
        starts[n_traced] = w[W_TROW]
    return w[W_TOVER]


I64_2D = types.int64[:, ::1]
BATCH_SIG = types.int64(types.int64, types.int64, I64_2D, I64_2D, I64_2D, types.int64[::1], types.int64[::1],
                        DECISION_FN, DECISION_FN, types.float64[::1], types.float64[::1], I64_2D, I64_2D,
                        types.int16[:, ::1], types.int64[::1], types.int64)


@njit(BATCH_SIG, cache=True, nogil=True)
def play_batch(seed, n, cards, inst_card, setup, deck_n, config, f0, f1, p0, p1, out, played, tr, starts,
               n_traced):
    """Play n games from `seed`. out[s, g] is game g's state slot s (records.S_* / T_*: one row per slot,
    so the games table's columns come out contiguous); played[i, g] counts plays of board row i. The
    first n_traced games write their rows into `tr`, game i's from starts[i] (starts[n_traced] is the
    end). Returns 1 if `tr` was too small."""
    w = np.zeros(N_WORK, np.int64)
    st = np.zeros(N_STATE, np.int64)
    board = np.zeros((N_INST, BOARD_WIDTH), np.int64)
    opts = np.zeros((MAX_OPTS, OPT_WIDTH), np.int64)
    fill_work(w, config, setup, deck_n)
    return play_games(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, seed, n, out, played,
                      starts, n_traced)
