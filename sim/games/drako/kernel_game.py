"""Drako kernel, part 6: one game. `start_game` deals and sets up a game in a work array; `advance`
plays it on from whatever state the array holds to the game's end, asking each side's strategy
functions; `next_question` runs the rules alone up to the next decision. A search player can copy a
work array at a decision and call `advance` on the copy to play out from there.

A decision slot whose function is one of the built-ins in `INLINE_CODES` (kernel.inline_codes gives
each slot's code) runs that strategy inlined into the loop instead of an indirect call: a call passes
the option rows, state, geometry and parameters as some thirty words and the callee reloads them,
about a tenth of a default game. Same code, same answers, same draws from the game's stream.
"""

from __future__ import annotations

from numba import njit

from strategies import drako as builtin
from sim.games.drako.records import (
    C_ACAP, C_CAP, C_CHECK, C_DRAGON_START, C_DRAW, C_HAND_LIMIT, C_MULLIGAN, C_OPENING, DRAGON, DWARVES,
    EV_END, FIG_DRAGON, MAX_HEX, MAX_TYPES, N_STATE, R_INDEX, R_NOPTS, R_PHASE, R_ROW, S_ACAP, S_CAP,
    S_DRAW_COUNT, S_END, S_HAND_LIMIT, S_OVER, S_POS, S_TURN, S_WINNER, T_BAD_CHOICES, T_FURY_TURN,
    T_VIOLATIONS, W_BOARD, W_GONE, W_ST, WIN_NOBODY,
)
from sim.games.drako.kernel_base import (
    deal_seed, emit, FAST, GAME_OVER, NO_QUESTION, PH_ACTION, PH_ACTION_END, PH_AFTER_DRAGON_HIT,
    PH_ATTACK_DRAGON, PH_ATTACK_DWARF, PH_ATTACKERS_ANS, PH_BLOCK_DRAGON_ANS, PH_BLOCK_DWARF_ANS,
    PH_DISCARD, PH_DISCARD_ANS, PH_DRAGON_MOVE_ANS, PH_DWARF_MOVE2_ANS, PH_DWARF_MOVE_ANS, PH_FIRE_ANS,
    PH_FIRE_NEXT, PH_MAIN_ANS, PH_MULLIGAN, PH_MULLIGAN_ANS, PH_OVER, PH_PLACE, PH_PLACE_ANS, PH_TURN,
    PH_VICTIM_ANS, PH_WOUND, PH_WOUND_ANS, take_row, violations,
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

CALL, IN_BRAWLER, IN_COORDINATED, IN_RANDOM = 0, 1, 2, 3


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
def advance(w, tr, st, opts, geo, fns, codes, pd, pw):
    """Play the game in `w` on to its end. st, opts and geo are w's blocks as arrays (kernel.views);
    fns are the eight decision functions (the dragon's act, target, react, setup, then the
    dwarves'), codes[slot] the built-in run inline there or CALL; pd and pw the sides' parameters.
    A choice out of range counts as a bad choice and takes the first row."""
    while True:
        q = next_question(w, tr)
        if q < 0:
            return
        who = q >> 4
        kind = q & 15
        k = st[R_NOPTS]
        p = pd if who < 4 else pw
        code = codes[who]
        if code != CALL:
            i = inline_choice(code, kind, opts, k, st, geo, p)
        else:
            i = fns[who](kind, opts, k, st, geo, p)
        if i < 0 or i >= k:
            st[T_BAD_CHOICES] += 1
            i = 0
        take_row(w, i)


@njit(inline="always", **FAST)
def inline_choice(code, kind, opts, n, st, geo, p):
    """The built-in strategy `code` (not CALL) answering one decision, as its *_choice function would."""
    if code == IN_BRAWLER:
        return builtin.brawler2(kind, opts, n, st, geo, p, 0)
    if code == IN_COORDINATED:
        return builtin.coordinated2(kind, opts, n, st, geo, p, 0)
    return builtin.draw(st, n)


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
