"""The entry points Drakerion's kernel calls, one per built-in strategy: value and aggressive share one router
(the loop guard, the decisions both answer alike, then each style's own), random draws from the game's stream."""

from __future__ import annotations

from numba import njit

from sim.engine.strategy import njit_later
from sim.games.drakerion.records import (
    DECISION_SIG, D_ACTION, D_ATTACK, D_COMBAT, D_MANOEUVRE, D_MULLIGAN, S_ACTOR,
)
from sim.games.drakerion.shared import below as draw   # the kernel's own
from strategies.drakerion.aggressive import (
    A_FIRST, A_PRESTIGE, A_RIPOSTE, AC, AD, AK, AR, SHOOTERS_BACK, aggressive_action, aggressive_combat,
    aggressive_manoeuvre, aggressive_mulligan,
)
from strategies.drakerion.board import FAST, INLINE, NEG, better
from strategies.drakerion.choices import shared_choice, stop_row
from strategies.drakerion.fights import attack_value, rush_score
from strategies.drakerion.value import (
    V_COUNTER, V_DAMAGE, V_FRAGILE, V_KILL, V_LEAD, V_RISK, value_action, value_combat, value_manoeuvre,
    value_mulligan,
)

VALUE, AGGRESSIVE = 0, 1       # the heuristics' styles


@njit(**INLINE)
def choose(style, kind, opts, n, st, board, cards, params):
    """A heuristic's row for a decision: stop past the loop guard, answer what both answer alike with the
    style's weights, else the style's own way."""
    if n <= 1:
        return 0
    me = st[S_ACTOR]
    r = stop_row(kind, opts, n, st, me)
    if r >= 0:
        return r
    if style == VALUE:
        kw, rw, cw, dw = params[V_KILL], params[V_RISK], params[V_COUNTER], params[V_DAMAGE]
        fragile_hp, go_first = params[V_FRAGILE], params[V_LEAD] >= 0.0
    else:
        kw, rw, cw, dw = AK, AR, AC, AD
        fragile_hp, go_first = SHOOTERS_BACK, params[A_FIRST] >= 0.5
    r = shared_choice(kind, opts, n, st, cards, board, me, kw, rw, cw, dw, fragile_hp, go_first)
    if r >= 0:
        return r
    if kind == D_ACTION:
        if style == VALUE:
            return value_action(opts, n, st, cards, board, me, params)
        return aggressive_action(opts, n, st, cards, board, me, params)
    if kind == D_COMBAT:
        if style == VALUE:
            return value_combat(opts, n, st, cards, board, me, params)
        return aggressive_combat(opts, n, st, cards, board, me)
    if kind == D_MANOEUVRE:
        if style == VALUE:
            return value_manoeuvre(opts, n, st, cards, board, me, params)
        return aggressive_manoeuvre(opts, n)
    if kind == D_MULLIGAN:
        if style == VALUE:
            return value_mulligan(opts, n, st, cards, board, me, params)
        return aggressive_mulligan(opts, n, cards, board, params)
    if kind == D_ATTACK:                       # an attack an ability makes: the best by the style's measure
        k = 0
        bv = NEG
        for r in range(n):
            if style == VALUE:
                v = attack_value(st, cards, board, opts[r, 0], opts[r, 1], opts[r, 2], kw, rw, cw, dw)
            else:
                v = rush_score(board, opts[r, 0], opts[r, 1], opts[r, 2], params[A_PRESTIGE], params[A_RIPOSTE])
            bv, k = better(v, r, bv, k)
        return k
    return 0


@njit_later(DECISION_SIG, **FAST)
def value_choice(kind, opts, n, st, board, cards, params):
    return choose(VALUE, kind, opts, n, st, board, cards, params)


@njit_later(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, board, cards, params):
    return choose(AGGRESSIVE, kind, opts, n, st, board, cards, params)


@njit_later(DECISION_SIG, **FAST)
def random_choice(kind, opts, n, st, board, cards, params):
    if n <= 1:
        return 0
    return draw(st, n)
