"""aggressive, Drakerion's attacking heuristic: its parameters, the fixed weights it borrows value's
judgement with, and the decisions it makes its own way (the action phase, combat responses, Manoeuvres, the
mulligan); strategies.drakerion describes its play."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.drakerion.records import (
    AB_EFFECT, ACT_ABILITY, ACT_ATTACK, ACT_NAMED, ACT_PASS, ACT_PASS_GOOD, ACT_PLAY, CD_COST, CD_TYPE,
    CHARACTER, EF_CANCEL, S_ATTACKER,
)
from strategies.drakerion.board import FAST, INLINE, NEG, abil, better, find, printed
from strategies.drakerion.choices import pass_row
from strategies.drakerion.fights import named_delta, rush_score
from strategies.drakerion.worth import attach_value, row_value

AGGRESSIVE = ("mulligan_cost", "prestige_weight", "riposte_weight", "go_first")
AGGRESSIVE_DEFAULTS = (4.0, 1.0, 0.5, 1.0)
AGGRESSIVE_BOUNDS = ((1.0, 7.0), (0.0, 3.0), (0.0, 3.0), (0.0, 1.0))
A_MULL, A_PRESTIGE, A_RIPOSTE, A_FIRST = range(4)
# fixed weights aggressive uses where it borrows value's judgement (targets, triggers, tricks)
AK, AR, AC, AD = 1.0, 0.5, 0.0, 0.3
SHOOTERS_BACK = np.inf    # its line_for fragile_hp: every shooter stays in support


@njit(**FAST)
def aggressive_action(opts, n, st, cards, board, me, p):
    """Attacks first (rush_score), then its dearest character, then attachments, events and abilities that help;
    passes for good only when nothing useful is left."""
    k = 0
    bv = NEG
    for r in range(n):
        act = opts[r, 0]
        i = opts[r, 1]
        if act == ACT_PASS:
            v = 0.0
        elif act == ACT_PASS_GOOD:
            v = 0.5                            # only when nothing useful is left
        elif act == ACT_ATTACK:
            v = rush_score(board, i, opts[r, 2], opts[r, 3], p[A_PRESTIGE], p[A_RIPOSTE])
        elif act == ACT_PLAY and opts[r, 2] < 0:
            if printed(cards, board, i, CD_TYPE) == CHARACTER:
                v = 50.0 + printed(cards, board, i, CD_COST)
            else:
                x = attach_value(st, cards, board, me, i, AK, AR)
                v = 30.0 + x if x > 0.0 else -1.0
        elif act == ACT_PLAY or act == ACT_ABILITY:
            x = row_value(st, cards, board, me, opts, r, AK, AR, AC, AD)
            v = 20.0 + 5.0 * x if x > 0.05 else -1.0
        else:
            v = -1.0                           # cycling is not attacking
        bv, k = better(v, r, bv, k)
    return k


@njit(**INLINE)
def trick_value(opts, r, st, cards, board, me):
    """What combat response row r is worth to aggressive: a Named bonus or an ability, by how it turns the
    fight; it never calls off its own attack."""
    act = opts[r, 0]
    i = opts[r, 1]
    if act == ACT_NAMED:
        return named_delta(st, board, me, i, opts[r, 3], AK, AR)
    if (act == ACT_ABILITY or act == ACT_PLAY) and opts[r, 2] >= 0:
        if abil(cards, board, i, opts[r, 2], AB_EFFECT) == EF_CANCEL and (st[S_ATTACKER] >> 6) == me:
            return 0.0
        return row_value(st, cards, board, me, opts, r, AK, AR, AC, AD)
    return -1.0


@njit(**FAST)
def aggressive_combat(opts, n, st, cards, board, me):
    """Only what turns the fight its combatant's way (worth more than 0.05), else pass; never intercepts."""
    k = pass_row(opts, n, False)
    bv = 0.05
    for r in range(n):
        bv, k = better(trick_value(opts, r, st, cards, board, me), r, bv, k)
    return k


@njit(**FAST)
def aggressive_manoeuvre(opts, n):
    """The most gold, then the most cards."""
    k = 0
    for r in range(1, n):
        if opts[r, 2] > opts[k, 2] or (opts[r, 2] == opts[k, 2] and opts[r, 1] > opts[k, 1]):
            k = r
    return k


@njit(**FAST)
def aggressive_mulligan(opts, n, cards, board, p):
    """The dearest card over the threshold, else done."""
    k = find(opts, n, 0, -1)
    k = k if k >= 0 else n - 1
    top = p[A_MULL]
    for r in range(n):
        i = opts[r, 0]
        if i >= 0 and printed(cards, board, i, CD_COST) > top:
            top = printed(cards, board, i, CD_COST)
            k = r
    return k
