"""Drako kernel, part 4: combat. Wounds and deaths, Fury, the dragon's claws and fire, the dwarves'
attacks on the dragon, Defense blocks and where the dragon's wounds go. Each `on_*` function is one
phase of the machine (see kernel_game.next_question); those that may leave a question return its code."""

from __future__ import annotations

from numba import njit

from sim.games.drako.records import (
    AREA_ARMOUR, AREA_FLIGHT, AREA_MOVE, C_ATT_CHOSEN, C_FIRE_FAR, C_FIRE_RANGE, C_FURY_ACTIONS,
    C_FURY_WOUND, C_NET_STAYS, C_SIMUL, DRAGON, DWARVES, END_DRAGON_SLAIN, END_DWARVES_SLAIN, EV_ATTACK,
    EV_BLOCK, EV_FURY, EV_KILL, EV_WOUND, F_REACT, F_TARGET, FIG_ARCHER, FIG_DRAGON, FIG_FURY, FIG_NET,
    K_ATTACKERS, K_BLOCK, K_WOUND, N_SYM, R_ATTACKER, R_FIRE_DIR, R_FIRE_J, R_FIRE_K, R_HIT, R_IN_FIRE,
    R_NHIT, R_PEND, R_PHASE, R_PW, R_ROW, R_SECOND, R_TARGET, R_VAL, R_WOUNDS_LEFT, S_ACTIONS, S_AREA,
    S_CAP, S_FURY_NOW, S_FURY_USED, S_NET_BLOWS, S_NETTED, S_OVER, S_POS, S_TURN, S_TURN_ACTIONS, S_WOUND,
    SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_DEFENSE, T_ATTACKS, T_BLOCKED, T_F_ATTACKERS, T_F_FIRE_ORDER,
    T_F_NET_STAYS, T_F_SIMUL, T_FURY_TURN, T_FURY_WOUNDS, T_USE, T_WOUNDS_DRAGON, T_WOUNDS_DWARVES,
    W_BOARD, W_ST, WIN_DRAGON, WIN_DWARVES,
)
from sim.games.drako.kernel_base import (
    area_open, ask, dist, dwarves_out, emit, FAST, finish, neighbour, NO_QUESTION, PH_ACTION_END,
    PH_AFTER_DRAGON_HIT, PH_ATTACK_DRAGON, PH_ATTACK_DWARF, PH_ATTACKERS_ANS, PH_BLOCK_DRAGON_ANS,
    PH_BLOCK_DWARF_ANS, PH_FIRE_NEXT, PH_WOUND, PH_WOUND_ANS, played, set_row,
)
from sim.games.drako.kernel_board import place
from sim.games.drako.kernel_cards import hand_take, list_blocks


# ---- wounds -----------------------------------------------------------------------------------


@njit(**FAST)
def wound_dwarf(w, tr, f, value, by_dragon):
    room = w[W_ST + S_CAP + f] - w[W_ST + S_WOUND + f]
    m = value if value < room else room
    w[W_ST + S_WOUND + f] += m
    if by_dragon:
        w[W_ST + T_WOUNDS_DWARVES] += m
    else:
        w[W_ST + T_FURY_WOUNDS] += m
    emit(w, tr, EV_WOUND, f, 0, m, 0, 0, 0, 0)
    if w[W_ST + S_WOUND + f] >= w[W_ST + S_CAP + f]:
        place(w, f, -1)
        emit(w, tr, EV_KILL, f, 0, 0, 0, 0, 0, 0)
        if f == FIG_NET and w[W_ST + S_NETTED] == 1:
            w[W_ST + T_F_NET_STAYS] += 1
            if w[C_NET_STAYS] == 0:
                w[W_ST + S_NETTED] = 0
        if w[W_ST + S_POS + 1] < 0 and w[W_ST + S_POS + 2] < 0 and w[W_ST + S_POS + 3] < 0:
            finish(w, WIN_DRAGON, END_DWARVES_SLAIN)


@njit(**FAST)
def mark_dragon(w, tr, area):
    w[W_ST + S_AREA + area] += 1
    w[W_ST + S_WOUND + FIG_DRAGON] += 1
    w[W_ST + T_WOUNDS_DRAGON] += 1
    emit(w, tr, EV_WOUND, FIG_DRAGON, area, 1, 0, 0, 0, 0)
    if w[W_ST + S_WOUND + FIG_DRAGON] >= w[W_ST + S_CAP + FIG_DRAGON]:
        place(w, FIG_DRAGON, -1)
        emit(w, tr, EV_KILL, FIG_DRAGON, 0, 0, 0, 0, 0, 0)
        finish(w, WIN_DWARVES, END_DRAGON_SLAIN)


@njit(**FAST)
def declare_fury(w, tr):
    w[W_ST + S_FURY_USED] = 1
    w[W_ST + S_FURY_NOW] = 1
    w[W_ST + T_FURY_TURN] = w[W_ST + S_TURN]
    emit(w, tr, EV_FURY, w[C_FURY_ACTIONS], 0, 0, 0, 0, 0, 0)
    if w[C_FURY_WOUND] > 0:
        wound_dwarf(w, tr, FIG_FURY, w[C_FURY_WOUND], False)
    w[W_ST + S_TURN_ACTIONS] = w[C_FURY_ACTIONS]
    w[W_ST + S_ACTIONS] = w[C_FURY_ACTIONS]


# ---- the dragon attacks -----------------------------------------------------------------------


@njit(**FAST)
def on_victim_ans(w, tr):
    """The dragon claws the chosen adjacent dwarf."""
    played(w, tr, DRAGON, w[W_ST + R_ROW], 0, 0, 0)
    w[W_ST + R_TARGET] = w[W_ST + R_ROW]
    w[W_ST + R_IN_FIRE] = 0
    w[W_ST + R_PHASE] = PH_ATTACK_DWARF


@njit(**FAST)
def on_fire_ans(w, tr):
    """Fire along the chosen direction: every dwarf on the line is attacked in turn."""
    played(w, tr, DRAGON, w[W_ST + R_ROW], 0, 0, 0)
    d = w[W_ST + R_ROW]
    w[W_ST + R_FIRE_DIR] = d
    # the dwarves on the line, nearest first
    h = w[W_ST + S_POS + FIG_DRAGON]
    k, m = 0, 0
    while w[C_FIRE_RANGE] == 0 or k < w[C_FIRE_RANGE]:
        h = neighbour(w, h, d)
        if h < 0:
            break
        k += 1
        if w[W_BOARD + h] > FIG_DRAGON:
            w[W_ST + R_HIT + m] = w[W_BOARD + h]
            w[W_ST + R_PW + m] = 0
            m += 1
    w[W_ST + R_NHIT] = m
    if m >= 2:
        w[W_ST + T_F_FIRE_ORDER] += 1
        w[W_ST + T_F_SIMUL] += 1
    w[W_ST + R_FIRE_K] = 0
    w[W_ST + R_IN_FIRE] = 1
    w[W_ST + R_PHASE] = PH_FIRE_NEXT


@njit(**FAST)
def on_fire_next(w, tr):
    """Walk the fire line to the next dwarf; the line's end ends the action."""
    w[W_ST + R_PHASE] = PH_ACTION_END
    j = w[W_ST + R_FIRE_K]
    m = w[W_ST + R_NHIT]
    if j < m:
        w[W_ST + R_FIRE_J] = j
        w[W_ST + R_FIRE_K] = j + 1
        w[W_ST + R_TARGET] = w[W_ST + R_HIT + (m - 1 - j if w[C_FIRE_FAR] == 1 else j)]
        w[W_ST + R_PHASE] = PH_ATTACK_DWARF
    elif w[C_SIMUL] == 1:
        # every Defense decision made: the blows that were not blocked land, in the order struck
        for i in range(m):
            if w[W_ST + S_OVER] == 1:
                break
            v = w[W_ST + R_PW + i]
            if v > 0:
                wound_dwarf(w, tr, w[W_ST + R_HIT + (m - 1 - i if w[C_FIRE_FAR] == 1 else i)], v, True)


# ---- the dwarves attack -----------------------------------------------------------------------


@njit(**FAST)
def dwarf_attack(w, tr, sym):
    """An attack card on the dragon. Who strikes never changes the wounds; with more adjacent dwarves
    than the card lets strike, the dwarf player picks them (attackers_chosen) or the first found do."""
    w[W_ST + R_PEND] = 0
    if sym == SYM_CROSSBOW:
        strikers(w, tr, FIG_ARCHER, -1)
        return NO_QUESTION
    g = w[W_ST + S_POS + FIG_DRAGON]
    a0, a1, a2, m = -1, -1, -1, 0
    for f in range(1, 4):
        p = w[W_ST + S_POS + f]
        if p >= 0 and dist(w, g, p) == 1:
            if m == 0:
                a0 = f
            elif m == 1:
                a1 = f
            else:
                a2 = f
            m += 1
    need = 2 if sym == SYM_ATTACK_TWO else 1
    if m > need:
        w[W_ST + T_F_ATTACKERS] += 1
        if w[C_ATT_CHOSEN] == 1:
            if need == 1:
                set_row(w, 0, a0, -1, 0, 0, 0, 0, 0, 0)
                set_row(w, 1, a1, -1, 0, 0, 0, 0, 0, 0)
                set_row(w, 2, a2, -1, 0, 0, 0, 0, 0, 0)
            else:
                set_row(w, 0, a0, a1, 0, 0, 0, 0, 0, 0)
                set_row(w, 1, a0, a2, 0, 0, 0, 0, 0, 0)
                set_row(w, 2, a1, a2, 0, 0, 0, 0, 0, 0)
            return ask(w, DWARVES, F_TARGET, K_ATTACKERS, m if need == 1 else 3, PH_ATTACKERS_ANS)
    strikers(w, tr, a0, a1 if need == 2 else -1)
    return NO_QUESTION


@njit(**FAST)
def strikers(w, tr, first, second):
    """The dwarves who strike, in order (second -1 for one): the card's play event, then the blows."""
    if second >= 0:
        w[W_ST + T_F_SIMUL] += 1
    played(w, tr, DWARVES, first, second, 0, 0)
    w[W_ST + R_ATTACKER] = first
    w[W_ST + R_SECOND] = second
    w[W_ST + R_PHASE] = PH_ATTACK_DRAGON


# ---- blows and blocks -------------------------------------------------------------------------


@njit(**FAST)
def on_attack(w, tr, struck):
    """One blow on side `struck` (the dragon's on a dwarf, or a dwarf's on the dragon): that side may
    block it with a Defense card."""
    if struck == DWARVES:
        attacker, target, answer = FIG_DRAGON, w[W_ST + R_TARGET], PH_BLOCK_DWARF_ANS
    else:
        attacker, target, answer = w[W_ST + R_ATTACKER], FIG_DRAGON, PH_BLOCK_DRAGON_ANS
    emit(w, tr, EV_ATTACK, attacker, target, w[W_ST + R_VAL], 0, 0, 0, 0)
    w[W_ST + T_ATTACKS + 1 - struck] += 1
    if struck == DRAGON and w[W_ST + S_NETTED] == 1:
        w[W_ST + S_NET_BLOWS] += 1
    n = list_blocks(w, struck, w[W_ST + R_VAL], target, attacker)
    if n > 0:
        return ask(w, struck, F_REACT, K_BLOCK, n, answer)
    if struck == DWARVES:
        dwarf_blow_done(w, tr, 0)
    else:
        dragon_blow_done(w, 0)
    return NO_QUESTION


@njit(**FAST)
def block_answer(w, tr, side):
    """The struck side's answer: 1 when it blocked (the Defense card is spent), else 0."""
    if w[W_ST + R_ROW] != 1:
        return 0
    hand_take(w, side, w[W_ST + R_ROW + 1])
    w[W_ST + T_USE + side * N_SYM + SYM_DEFENSE] += 1
    w[W_ST + T_BLOCKED + 1 - side] += 1
    emit(w, tr, EV_BLOCK, side, w[W_ST + R_ROW + 1], 0, 0, 0, 0, 0)
    return 1


@njit(**FAST)
def dwarf_blow_done(w, tr, blocked):
    """After the dwarves' Defense decision on one blow. An unblocked blow wounds now, or (fire under
    simultaneous_blows) once every Defense decision of the line is made; then the line goes on."""
    if blocked == 1:
        dwarves_out(w)
    elif w[W_ST + R_IN_FIRE] == 1 and w[C_SIMUL] == 1:
        w[W_ST + R_PW + w[W_ST + R_FIRE_J]] = w[W_ST + R_VAL]
    else:
        wound_dwarf(w, tr, w[W_ST + R_TARGET], w[W_ST + R_VAL], True)
    w[W_ST + R_PHASE] = PH_FIRE_NEXT if w[W_ST + R_IN_FIRE] else PH_ACTION_END


@njit(**FAST)
def dragon_blow_done(w, blocked):
    """After the dragon's Defense decision on one blow: its wounds are placed now, or (a two-dwarf
    attack under simultaneous_blows) once both blows are decided."""
    if w[C_SIMUL] == 1:
        if blocked == 0:
            w[W_ST + R_PEND] += w[W_ST + R_VAL]
        if not second_striker(w):
            w[W_ST + R_WOUNDS_LEFT] = w[W_ST + R_PEND]
            w[W_ST + R_PEND] = 0
            w[W_ST + R_PHASE] = PH_WOUND
    elif blocked == 1:
        w[W_ST + R_PHASE] = PH_AFTER_DRAGON_HIT
    else:
        w[W_ST + R_WOUNDS_LEFT] = w[W_ST + R_VAL]
        w[W_ST + R_PHASE] = PH_WOUND


@njit(**FAST)
def second_striker(w):
    """Whether a two-dwarf attack has its second blow to come (the machine then goes to it)."""
    if w[W_ST + R_SECOND] < 0:
        return False
    w[W_ST + R_ATTACKER] = w[W_ST + R_SECOND]
    w[W_ST + R_SECOND] = -1
    w[W_ST + R_PHASE] = PH_ATTACK_DRAGON
    return True


@njit(**FAST)
def on_wound(w, tr):
    """Wounds on the dragon: armour first; beyond it the dwarf player picks an open area per marker."""
    w[W_ST + R_PHASE] = PH_AFTER_DRAGON_HIT
    while w[W_ST + R_WOUNDS_LEFT] > 0 and w[W_ST + S_OVER] == 0:
        if area_open(w, AREA_ARMOUR):
            mark_dragon(w, tr, AREA_ARMOUR)
            w[W_ST + R_WOUNDS_LEFT] -= 1
            continue
        n = 0
        for a in range(AREA_FLIGHT, AREA_MOVE + 1):
            if area_open(w, a):
                set_row(w, n, a, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        if n > 0:
            return ask(w, DWARVES, F_REACT, K_WOUND, n, PH_WOUND_ANS)
        break
    return NO_QUESTION


@njit(**FAST)
def on_wound_ans(w, tr):
    mark_dragon(w, tr, w[W_ST + R_ROW])
    w[W_ST + R_WOUNDS_LEFT] -= 1
    w[W_ST + R_PHASE] = PH_WOUND


@njit(**FAST)
def on_after_dragon_hit(w, tr):
    """A two-dwarf attack's second blow, or the end of the action."""
    if not second_striker(w):
        w[W_ST + R_PHASE] = PH_ACTION_END
