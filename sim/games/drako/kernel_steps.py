"""Drako kernel, part 5: the steps of a game other than combat. Mulligans, placing the dwarves,
turns and actions, drawing and discarding, playing a card and moving figures. Each `on_*` function is
one phase of the machine (see kernel_game.next_question); those that may leave a question return its code."""

from __future__ import annotations

from numba import njit

from sim.games.drako.records import (
    A_DRAW, A_DUD, A_ESCAPE, A_FURY, A_PASS, C_ACTIONS, C_CHECK, C_DRAW, C_FIRE_NEEDS_TARGET,
    C_FIRST_ACTIONS, C_FREE_PLACEMENT, C_HAND_LIMIT, C_HEXES, C_MULL_FIRST, C_NTYPES_D, C_OPENING,
    C_START, C_TURN_CAP, DRAGON, DWARVES, END_STALEMATE, EV_DISCARD, EV_DRAW, EV_DUD, EV_ESCAPE,
    EV_MULLIGAN, EV_PASS, EV_PLACE, EV_TURN, F_ACT, F_REACT, F_SETUP, F_TARGET, FIG_DRAGON, FIG_NET,
    K_DISCARD, K_DRAGON_MOVE, K_DWARF_MOVE, K_DWARF_MOVE2, K_FIRE, K_FLIGHT, K_MAIN, K_MULLIGAN, K_PLACE,
    K_VICTIM, MAX_HEX, MAX_TYPES, N_SYM, R_CARD, R_INDEX, R_MOVE_FIG, R_MOVE_HEX, R_MOVER, R_OPT, R_PHASE,
    R_ROW, R_SYM, R_USED, R_VAL, S_ACTIONS, S_DECK_N, S_FURY_NOW, S_HAND, S_HAND_MASK, S_HAND_N,
    S_NET_BLOWS, S_NETTED, S_POS, S_SYM, S_TURN, S_TURN_ACTIONS, SYM_ATTACK, SYM_FLIGHT, SYM_MOVE,
    SYM_MOVE_TWO, SYM_NET, T_DISCARDS, T_DRAWS, T_DUDS, T_ESCAPES, T_F_MULL_FIRST, T_F_PLACED,
    T_MULLIGANS, T_NET_LAST, T_NET_TURNS, T_NET_UNSTRUCK, T_PASSES, T_USE, T_VIOLATIONS, W_BOARD, W_SCR,
    W_ST, WIN_NOBODY,
)
from sim.games.drako.kernel_base import (
    ask, dist, dwarves_out, emit, FAST, finish, neighbour, NO_QUESTION, PH_ACTION, PH_ACTION_END,
    PH_DISCARD, PH_DISCARD_ANS, PH_DRAGON_MOVE_ANS, PH_DWARF_MOVE2_ANS, PH_DWARF_MOVE_ANS, PH_FIRE_ANS,
    PH_MAIN_ANS, PH_MULLIGAN, PH_MULLIGAN_ANS, PH_PLACE, PH_PLACE_ANS, PH_TURN, PH_VICTIM_ANS, played,
    set_row, violations,
)
from sim.games.drako.kernel_board import fire_dirs, place, reach
from sim.games.drako.kernel_cards import (
    draw_cards, hand_take, list_dwarf_moves, list_hand, list_main, shuffle_deck,
)
from sim.games.drako.kernel_combat import declare_fury, dwarf_attack


# ---- setting up -------------------------------------------------------------------------------


@njit(**FAST)
def on_mulligan(w, tr):
    """Offer each side in turn (dragon first) to exchange its opening hand."""
    if w[W_ST + R_INDEX] >= 2:
        w[W_ST + R_INDEX] = 0
        w[W_ST + R_PHASE] = PH_PLACE
        return NO_QUESTION
    if w[W_ST + R_INDEX] == 0:
        w[W_ST + T_F_MULL_FIRST] += 1
    set_row(w, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    set_row(w, 1, 1, 0, 0, 0, 0, 0, 0, 0)
    return ask(w, w[W_ST + R_INDEX] ^ w[C_MULL_FIRST], F_SETUP, K_MULLIGAN, 2, PH_MULLIGAN_ANS)


@njit(**FAST)
def on_mulligan_ans(w, tr):
    """An exchanged hand goes back into a freshly shuffled deck and a new one is dealt."""
    step = w[W_ST + R_INDEX]
    side = step ^ w[C_MULL_FIRST]
    if w[W_ST + R_ROW] == 1:
        for t in range(w[C_NTYPES_D + side]):
            w[W_ST + S_HAND + side * MAX_TYPES + t] = 0
        for s in range(N_SYM):
            w[W_ST + S_SYM + side * N_SYM + s] = 0
        w[W_ST + S_HAND_N + side] = 0
        w[W_ST + S_HAND_MASK + side] = 0
        w[W_ST + T_MULLIGANS + side] += 1
        emit(w, tr, EV_MULLIGAN, side, 0, 0, 0, 0, 0, 0)
        shuffle_deck(w, tr, side)
        draw_cards(w, side, w[C_OPENING])
    w[W_ST + R_INDEX] = step + 1
    w[W_ST + R_PHASE] = PH_MULLIGAN


@njit(**FAST)
def on_place(w, tr):
    """The dwarves' hexes: the first-game ones, or chosen one by one (not next to the dragon)."""
    i = w[W_ST + R_INDEX]
    if i >= 3:
        if w[C_CHECK]:
            w[W_ST + T_VIOLATIONS] += violations(w)
        w[W_ST + R_PHASE] = PH_TURN
        return NO_QUESTION
    if w[C_FREE_PLACEMENT] == 0:
        place_dwarf(w, tr, w[C_START + i])
        return NO_QUESTION
    g = w[W_ST + S_POS + FIG_DRAGON]
    n = 0
    for h in range(w[C_HEXES]):
        if w[W_BOARD + h] < 0 and dist(w, g, h) >= 2:
            set_row(w, n, h, 1 + i, 0, 0, 0, 0, 0, 0)
            n += 1
    return ask(w, DWARVES, F_SETUP, K_PLACE, n, PH_PLACE_ANS)


@njit(**FAST)
def place_dwarf(w, tr, h):
    """The next dwarf (by R_INDEX) goes on hex h."""
    i = w[W_ST + R_INDEX]
    place(w, 1 + i, h)
    emit(w, tr, EV_PLACE, 1 + i, h, 0, 0, 0, 0, 0)
    w[W_ST + R_INDEX] = i + 1


@njit(**FAST)
def on_place_ans(w, tr):
    w[W_ST + T_F_PLACED] += 1
    place_dwarf(w, tr, w[W_ST + R_ROW])
    w[W_ST + R_PHASE] = PH_PLACE


# ---- turns and actions ------------------------------------------------------------------------


@njit(**FAST)
def on_turn(w, tr):
    """Begin the next turn (the dragon's on odd turns), or stop at the turn cap."""
    if w[W_ST + S_TURN] >= w[C_TURN_CAP]:
        finish(w, WIN_NOBODY, END_STALEMATE)
        return
    w[W_ST + S_TURN] += 1
    turn = w[W_ST + S_TURN]
    side = DRAGON if turn % 2 == 1 else DWARVES
    w[W_ST + R_MOVER] = side
    w[W_ST + S_FURY_NOW] = 0
    actions = w[C_ACTIONS]
    if side == DRAGON and turn == 1:
        actions = w[C_FIRST_ACTIONS]
    emit(w, tr, EV_TURN, side, turn, actions, 0, 0, 0, 0)
    w[W_ST + S_TURN_ACTIONS] = actions
    w[W_ST + S_ACTIONS] = actions
    w[W_ST + R_PHASE] = PH_ACTION
    if side == DRAGON:
        if w[W_ST + S_NETTED]:
            w[W_ST + T_NET_TURNS] += 1
        if w[W_ST + S_HAND_N + DRAGON] == 0 and w[W_ST + S_DECK_N + DRAGON] == 0:
            w[W_ST + T_PASSES + DRAGON] += actions
            emit(w, tr, EV_PASS, DRAGON, 1, 0, 0, 0, 0, 0)
            w[W_ST + R_PHASE] = PH_TURN


@njit(**FAST)
def on_action(w, tr):
    """Ask the side on turn for its next action, or end the turn."""
    if w[W_ST + S_ACTIONS] <= 0:
        w[W_ST + R_PHASE] = PH_TURN
        return NO_QUESTION
    side = w[W_ST + R_MOVER]
    n = list_main(w, side)
    return ask(w, side, F_ACT, K_MAIN, n, PH_MAIN_ANS)


@njit(**FAST)
def on_main_ans(w, tr):
    """Carry out the chosen action."""
    side = w[W_ST + R_MOVER]
    action = w[W_ST + R_ROW]
    w[W_ST + R_USED] = 1
    w[W_ST + R_PHASE] = PH_ACTION_END
    if action == A_DRAW:
        got = draw_cards(w, side, w[C_DRAW])
        w[W_ST + T_DRAWS + side] += 1
        emit(w, tr, EV_DRAW, side, got, 0, 0, 0, 0, 0)
        w[W_ST + R_PHASE] = PH_DISCARD
    elif action == A_ESCAPE:
        w[W_ST + S_NETTED] = 0
        w[W_ST + T_ESCAPES] += 1
        if w[W_ST + S_NET_BLOWS] == 0:
            w[W_ST + T_NET_UNSTRUCK] += 1
        w[W_ST + R_USED] = w[W_ST + S_ACTIONS]
        emit(w, tr, EV_ESCAPE, 0, 0, 0, 0, 0, 0, 0)
    elif action == A_FURY:
        declare_fury(w, tr)
        w[W_ST + R_USED] = 0
    elif action == A_PASS:
        w[W_ST + T_PASSES + side] += 1
        emit(w, tr, EV_PASS, side, 0, 0, 0, 0, 0, 0)
    elif action == A_DUD:
        hand_take(w, side, w[W_ST + R_ROW + 1])
        w[W_ST + T_DUDS + side] += 1
        emit(w, tr, EV_DUD, side, w[W_ST + R_ROW + 1], 0, 0, 0, 0, 0)
    else:
        return play_card(w, tr)
    return NO_QUESTION


@njit(**FAST)
def on_discard(w, tr):
    """After a draw: discard down to the hand limit, one question per card."""
    side = w[W_ST + R_MOVER]
    if w[W_ST + S_HAND_N + side] > w[C_HAND_LIMIT]:
        n = list_hand(w, side)
        return ask(w, side, F_REACT, K_DISCARD, n, PH_DISCARD_ANS)
    w[W_ST + R_PHASE] = PH_ACTION_END
    return NO_QUESTION


@njit(**FAST)
def on_discard_ans(w, tr):
    side = w[W_ST + R_MOVER]
    hand_take(w, side, w[W_ST + R_ROW])
    w[W_ST + T_DISCARDS + side] += 1
    emit(w, tr, EV_DISCARD, side, w[W_ST + R_ROW], 0, 0, 0, 0, 0)
    w[W_ST + R_PHASE] = PH_DISCARD


@njit(**FAST)
def on_action_end(w, tr):
    """Count the action; the dwarves lose at once when their hand and deck are both empty."""
    if w[W_ST + R_MOVER] == DWARVES:
        dwarves_out(w)
    w[W_ST + S_ACTIONS] -= w[W_ST + R_USED]
    if w[C_CHECK]:
        w[W_ST + T_VIOLATIONS] += violations(w)
    w[W_ST + R_PHASE] = PH_ACTION


# ---- playing a card ---------------------------------------------------------------------------


@njit(**FAST)
def play_card(w, tr):
    """The chosen card leaves the hand; list its targets (or resolve it). Returns a question code."""
    side = w[W_ST + R_MOVER]
    t = w[W_ST + R_ROW + 1]
    sym = w[W_ST + R_ROW + 3]
    w[W_ST + R_CARD] = t
    w[W_ST + R_OPT] = w[W_ST + R_ROW + 2]
    w[W_ST + R_SYM] = sym
    w[W_ST + R_VAL] = w[W_ST + R_ROW + 4]
    hand_take(w, side, t)
    w[W_ST + T_USE + side * N_SYM + sym] += 1
    if side == DRAGON:
        return dragon_card(w, sym)
    if sym == SYM_MOVE or sym == SYM_MOVE_TWO:
        n = list_dwarf_moves(w, w[W_ST + R_VAL], -1)
        return ask(w, DWARVES, F_TARGET, K_DWARF_MOVE, n, PH_DWARF_MOVE_ANS)
    if sym == SYM_NET:
        played(w, tr, DWARVES, FIG_NET, 0, 0, 0)
        w[W_ST + S_NETTED] = 1
        w[W_ST + S_NET_BLOWS] = 0
        if w[W_ST + S_ACTIONS] == 1:
            w[W_ST + T_NET_LAST] += 1
        w[W_ST + R_PHASE] = PH_ACTION_END
        return NO_QUESTION
    return dwarf_attack(w, tr, sym)


@njit(**FAST)
def dragon_card(w, sym):
    """The dragon's card: ask where it walks or flies, whom it claws or where it breathes fire."""
    g = w[W_ST + S_POS + FIG_DRAGON]
    if sym == SYM_MOVE:
        out_at = W_SCR + 2 * MAX_HEX
        k = reach(w, g, w[W_ST + R_VAL], out_at)
        for i in range(k):
            set_row(w, i, w[out_at + i], 0, 0, 0, 0, 0, 0, 0)
        return ask(w, DRAGON, F_TARGET, K_DRAGON_MOVE, k, PH_DRAGON_MOVE_ANS)
    if sym == SYM_FLIGHT:
        n = 0
        for h in range(w[C_HEXES]):
            if w[W_BOARD + h] < 0:
                set_row(w, n, h, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        return ask(w, DRAGON, F_TARGET, K_FLIGHT, n, PH_DRAGON_MOVE_ANS)
    if sym == SYM_ATTACK:
        n = 0
        for f in range(1, 4):
            p = w[W_ST + S_POS + f]
            if p >= 0 and dist(w, g, p) == 1:
                set_row(w, n, f, 0, 0, 0, 0, 0, 0, 0)
                n += 1
        return ask(w, DRAGON, F_TARGET, K_VICTIM, n, PH_VICTIM_ANS)
    # fire
    n = 0
    r1, r2, r3 = fire_dirs(w, g)
    for d in range(6):
        k = (r1 == d) + (r2 == d) + (r3 == d)       # fire_hits(w, g, d)
        first = neighbour(w, g, d)
        if k > 0 or (w[C_FIRE_NEEDS_TARGET] == 0 and first >= 0):
            set_row(w, n, d, k, first, 0, 0, 0, 0, 0)
            n += 1
    return ask(w, DRAGON, F_TARGET, K_FIRE, n, PH_FIRE_ANS)


# ---- moving figures ---------------------------------------------------------------------------


@njit(**FAST)
def on_dragon_move_ans(w, tr):
    """The dragon walks or flies to the chosen hex."""
    h = w[W_ST + R_ROW]
    played(w, tr, DRAGON, h, 0, 0, 0)
    place(w, FIG_DRAGON, h)
    w[W_ST + R_PHASE] = PH_ACTION_END


@njit(**FAST)
def on_dwarf_move_ans(w, tr, second):
    """A dwarf steps to the chosen hex (its own: it stays); after the first dwarf of a two-dwarf
    card, the dwarf player picks the second (`second` = this is its answer)."""
    f = w[W_ST + R_ROW]
    h = w[W_ST + R_ROW + 1]
    place(w, f, h)
    w[W_ST + R_PHASE] = PH_ACTION_END
    if second:
        played(w, tr, DWARVES, w[W_ST + R_MOVE_FIG], w[W_ST + R_MOVE_HEX], f, h)
        return NO_QUESTION
    n = 0
    if w[W_ST + R_SYM] == SYM_MOVE_TWO:
        n = list_dwarf_moves(w, w[W_ST + R_VAL], f)
    if n > 0:
        w[W_ST + R_MOVE_FIG] = f
        w[W_ST + R_MOVE_HEX] = h
        return ask(w, DWARVES, F_TARGET, K_DWARF_MOVE2, n, PH_DWARF_MOVE2_ANS)
    played(w, tr, DWARVES, f, h, -1, -1)
    return NO_QUESTION
