"""Drako kernel, part 6: the rules of one game, with no strategy in them. `start_game` deals and sets
up a game in a work array; `next_question` runs the rules from whatever state the array holds up to the
next decision (or the game's end). The search player (kernel_search) copies a work array at a decision
and plays on from the copy with these two.
"""

from __future__ import annotations

from numba import njit

from sim.games.drako.records import (
    C_ACAP, C_CAP, C_CHECK, C_DRAGON_START, C_DRAW, C_HAND_LIMIT, C_MULLIGAN, C_OPENING, DRAGON, DWARVES,
    EV_END, FIG_DRAGON, MAX_HEX, MAX_TYPES, N_STATE, R_INDEX, R_PHASE, R_ROW, S_ACAP, S_CAP,
    S_DRAW_COUNT, S_END, S_HAND_LIMIT, S_OVER, S_POS, S_TURN, S_WINNER, T_FURY_TURN,
    T_VIOLATIONS, W_BOARD, W_GONE, W_ST, WIN_NOBODY,
)
from sim.games.drako.kernel_base import (
    deal_seed, emit, FAST, GAME_OVER, NO_QUESTION, PH_ACTION, PH_ACTION_END, PH_AFTER_DRAGON_HIT,
    PH_ATTACK_DRAGON, PH_ATTACK_DWARF, PH_ATTACKERS_ANS, PH_BLOCK_DRAGON_ANS, PH_BLOCK_DWARF_ANS,
    PH_DISCARD, PH_DISCARD_ANS, PH_DRAGON_MOVE_ANS, PH_DWARF_MOVE2_ANS, PH_DWARF_MOVE_ANS, PH_FIRE_ANS,
    PH_FIRE_NEXT, PH_MAIN_ANS, PH_MULLIGAN, PH_MULLIGAN_ANS, PH_OVER, PH_PLACE, PH_PLACE_ANS, PH_TURN,
    PH_VICTIM_ANS, PH_WOUND, PH_WOUND_ANS, violations,
)
from sim.games.drako.kernel_board import place
from sim.games.drako.kernel_cards import draw_cards, shuffle_deck
from sim.games.drako.kernel_combat import (
    block_answer, dragon_blow_done, dwarf_blow_done, on_after_dragon_hit, on_attack, on_fire_ans,
    on_fire_next, on_victim_ans, on_wound, on_wound_ans, strikers,
)
from sim.games.drako.kernel_steps import (
    on_action, on_action_end, on_discard, on_discard_ans, on_dragon_move_ans, on_dwarf_move_ans,
    on_main_ans, on_mulligan, on_mulligan_ans, on_place, on_place_ans, on_turn,
)


@njit(**FAST)
def start_game(w, tr, seed, game):
    """Reset the state, shuffle and deal; the machine then resumes at mulligans or placement."""
    w[W_ST:W_ST + N_STATE] = 0
    deal_seed(w, seed, game)
    for h in range(MAX_HEX):
        w[W_BOARD + h] = -1
    for i in range(2 * MAX_TYPES):
        w[W_GONE + i] = 0
    for f in range(4):
        w[W_ST + S_POS + f] = -1
        w[W_ST + S_CAP + f] = w[C_CAP + f]
    for a in range(4):
        w[W_ST + S_ACAP + a] = w[C_ACAP + a]
    w[W_ST + S_WINNER] = WIN_NOBODY
    w[W_ST + T_FURY_TURN] = -1
    w[W_ST + S_HAND_LIMIT] = w[C_HAND_LIMIT]
    w[W_ST + S_DRAW_COUNT] = w[C_DRAW]
    place(w, FIG_DRAGON, w[C_DRAGON_START])
    for side in range(2):
        shuffle_deck(w, tr, side)
        draw_cards(w, side, w[C_OPENING])
    w[W_ST + R_INDEX] = 0
    w[W_ST + R_PHASE] = PH_MULLIGAN if w[C_MULLIGAN] else PH_PLACE


@njit(inline="always", **FAST)
def next_question(w, tr):
    """Play on until a side must choose (returns (side*4 + slot)*16 + kind) or the game ends (-1).

    The answer to a question is the chosen row, copied into w[W_ST + R_ROW:R_ROW+8] by the caller
    (kernel_base.take_row). Each phase is a function of its own: one big body made every call zero
    dozens of locals.
    """
    while True:
        if w[W_ST + S_OVER] == 1:
            if w[W_ST + R_PHASE] != PH_OVER:
                w[W_ST + R_PHASE] = PH_OVER
                if w[C_CHECK]:
                    w[W_ST + T_VIOLATIONS] += violations(w)
                emit(w, tr, EV_END, w[W_ST + S_WINNER], w[W_ST + S_END], w[W_ST + S_TURN], 0, 0, 0, 0)
            return GAME_OVER
        ph = w[W_ST + R_PHASE]
        q = NO_QUESTION
        # phases that may ask, then those that never do
        if ph == PH_ACTION:
            q = on_action(w, tr)
        elif ph == PH_MAIN_ANS:
            q = on_main_ans(w, tr)
        elif ph == PH_DISCARD:
            q = on_discard(w, tr)
        elif ph == PH_ATTACK_DWARF:
            q = on_attack(w, tr, DWARVES)
        elif ph == PH_ATTACK_DRAGON:
            q = on_attack(w, tr, DRAGON)
        elif ph == PH_DWARF_MOVE_ANS:
            q = on_dwarf_move_ans(w, tr, False)
        elif ph == PH_WOUND:
            q = on_wound(w, tr)
        elif ph == PH_DWARF_MOVE2_ANS:
            q = on_dwarf_move_ans(w, tr, True)
        elif ph == PH_MULLIGAN:
            q = on_mulligan(w, tr)
        elif ph == PH_PLACE:
            q = on_place(w, tr)
        elif ph == PH_TURN:
            on_turn(w, tr)
        elif ph == PH_ACTION_END:
            on_action_end(w, tr)
        elif ph == PH_MULLIGAN_ANS:
            on_mulligan_ans(w, tr)
        elif ph == PH_PLACE_ANS:
            on_place_ans(w, tr)
        elif ph == PH_DISCARD_ANS:
            on_discard_ans(w, tr)
        elif ph == PH_DRAGON_MOVE_ANS:
            on_dragon_move_ans(w, tr)
        elif ph == PH_VICTIM_ANS:
            on_victim_ans(w, tr)
        elif ph == PH_FIRE_ANS:
            on_fire_ans(w, tr)
        elif ph == PH_FIRE_NEXT:
            on_fire_next(w, tr)
        elif ph == PH_WOUND_ANS:
            on_wound_ans(w, tr)
        elif ph == PH_AFTER_DRAGON_HIT:
            on_after_dragon_hit(w, tr)
        elif ph == PH_BLOCK_DWARF_ANS:
            dwarf_blow_done(w, tr, block_answer(w, tr, DWARVES))
        elif ph == PH_BLOCK_DRAGON_ANS:
            dragon_blow_done(w, block_answer(w, tr, DRAGON))
        elif ph == PH_ATTACKERS_ANS:
            strikers(w, tr, w[W_ST + R_ROW], w[W_ST + R_ROW + 1])
        if q >= 0:
            return q
