"""value, Drakerion's default heuristic: its parameters and the decisions it makes its own way (the
action phase, combat responses, Manoeuvres, the mulligan); strategies.drakerion describes its play."""

from __future__ import annotations

from numba import njit

from sim.games.drakerion.records import (
    ACT_ABILITY, ACT_ATTACK, ACT_CYCLE, ACT_INTERCEPT, ACT_NAMED, ACT_PASS, ACT_PASS_GOOD, ACT_PLAY, CD_COST,
    CD_TYPE, CHARACTER, S_DECK_N, S_HAND_N, S_OUT, S_PASSED,
)
from strategies.drakerion.board import (
    FAST, INLINE, NEG, better, combat_tricks, count_chars, find, printed, shortfall, threat,
)
from strategies.drakerion.fights import attack_score, named_delta
from strategies.drakerion.worth import (
    attach_value, char_play_value, manoeuvre_extra, redirect_value, row_value,
)


VALUE = ("kill_weight", "risk_weight", "counter_weight", "damage_weight", "hand_target", "draw_need",
         "mulligan_cost", "min_cheap", "lead_value", "fragile_hp")
VALUE_DEFAULTS = (1.0, 1.0, 0.6, 0.3, 3.0, 0.2, 4.0, 2.0, 0.1, 3.0)
VALUE_BOUNDS = ((0.0, 3.0), (0.0, 3.0), (0.0, 2.0), (0.0, 1.5), (1.0, 8.0), (0.0, 2.0), (1.0, 7.0),
                (0.0, 4.0), (-0.5, 1.5), (0.0, 8.0))
V_KILL, V_RISK, V_COUNTER, V_DAMAGE, V_HAND, V_DRAW, V_MULL, V_CHEAP, V_LEAD, V_FRAGILE = range(10)


@njit(**FAST)
def value_action(opts, n, st, cards, board, me, p):
    """The action worth the most to value: attacks by their trade, characters by stats per gold, attachments on
    their best host, events and abilities by effect less cost, passing for good by the lead it takes."""
    kw, rw, cw, dw = p[V_KILL], p[V_RISK], p[V_COUNTER], p[V_DAMAGE]
    q = 1 - me
    mine_n = count_chars(st, board, me)
    theirs_n = count_chars(st, board, q)
    last = -1                                  # attacks come grouped by attacker: its threat is kept
    t_now = 0
    k = 0
    bv = NEG
    for r in range(n):
        act = opts[r, 0]
        if act == ACT_PASS:
            v = 0.0
        elif act == ACT_PASS_GOOD:
            if st[S_OUT + q] or st[S_PASSED + q]:
                v = -0.01                      # no lead to take (or my pass ends the phase anyway)
            else:
                v = p[V_LEAD] - 0.1 * combat_tricks(st, cards, board, me)
        elif act == ACT_ATTACK:
            att = opts[r, 1]
            if att != last:
                last = att
                t_now = threat(st, cards, board, q, att, -1)
            v = attack_score(st, cards, board, att, opts[r, 2], opts[r, 3], kw, rw, cw, dw, t_now, mine_n,
                             theirs_n)
        elif act == ACT_CYCLE:
            v = 0.12
        elif act == ACT_PLAY and opts[r, 2] < 0:
            i = opts[r, 1]
            if printed(cards, board, i, CD_TYPE) == CHARACTER:
                v = char_play_value(cards, board, i, mine_n)
            else:
                v = attach_value(st, cards, board, me, i, kw, rw)
        elif act == ACT_PLAY or act == ACT_ABILITY:
            v = row_value(st, cards, board, me, opts, r, kw, rw, cw, dw)
        else:
            v = -1.0
        bv, k = better(v, r, bv, k)
    return k


@njit(**INLINE)
def response_value(opts, r, st, cards, board, me, kw, rw, cw, dw):
    """What combat response row r is worth to value: a response must change who dies to be worth its cost."""
    act = opts[r, 0]
    i = opts[r, 1]
    if act == ACT_PASS:
        return 0.0
    if act == ACT_INTERCEPT:
        return redirect_value(st, cards, board, me, i, 0, i, kw, rw) - 0.1
    if act == ACT_NAMED:                       # less a copy that could not be played anyway
        return named_delta(st, board, me, i, opts[r, 3], kw, rw) - 0.15
    if act == ACT_PLAY and opts[r, 2] < 0:     # Imprévisible
        if printed(cards, board, i, CD_TYPE) == CHARACTER:
            return 0.5 * char_play_value(cards, board, i, count_chars(st, board, me))
        return attach_value(st, cards, board, me, i, kw, rw)
    if act == ACT_PLAY or act == ACT_ABILITY:
        return row_value(st, cards, board, me, opts, r, kw, rw, cw, dw) - 0.02
    return -1.0


@njit(**FAST)
def value_combat(opts, n, st, cards, board, me, p):
    """The combat response worth the most to value (the first of equals)."""
    kw, rw, cw, dw = p[V_KILL], p[V_RISK], p[V_COUNTER], p[V_DAMAGE]
    k = 0
    bv = NEG
    for r in range(n):
        bv, k = better(response_value(opts, r, st, cards, board, me, kw, rw, cw, dw), r, bv, k)
    return k


@njit(**FAST)
def value_manoeuvre(opts, n, st, cards, board, me, p):
    """Cards while the hand is below hand_target, gold for what the hand cannot pay for yet, and half the
    Manoeuvre's own abilities."""
    need = max(0.0, p[V_HAND] - st[S_HAND_N + me])
    short = shortfall(st, cards, board, me)
    k = 0
    bv = NEG
    for r in range(n):
        d = min(opts[r, 1], st[S_DECK_N + me])
        g = opts[r, 2]
        v = d * (0.3 + p[V_DRAW] * need) + 0.3 * g + 0.5 * min(g, short)
        v += 0.5 * manoeuvre_extra(st, cards, board, me, opts[r, 0], p[V_KILL], p[V_RISK], p[V_COUNTER],
                                   p[V_DAMAGE])
        bv, k = better(v, r, bv, k)
    return k


@njit(**FAST)
def value_mulligan(opts, n, st, cards, board, me, p):
    """The dearest card costing more than `mulligan_cost`; then, while fewer than `min_cheap` cheap
    characters are in hand (and 4+ cards), the dearest non-character; else done."""
    done = find(opts, n, 0, -1)
    if done < 0:
        done = n - 1
    cheap = 0
    k = done
    top = -1
    for r in range(n):
        i = opts[r, 0]
        if i < 0:
            continue
        cost = printed(cards, board, i, CD_COST)
        if printed(cards, board, i, CD_TYPE) == CHARACTER and cost <= p[V_MULL]:
            cheap += 1
        if cost > p[V_MULL] and cost > top:
            top = cost
            k = r
    if k != done or cheap >= p[V_CHEAP] or st[S_HAND_N + me] < 4:
        return k
    for r in range(n):                         # dig: the dearest non-character goes under
        i = opts[r, 0]
        if i >= 0 and printed(cards, board, i, CD_TYPE) != CHARACTER:
            cost = printed(cards, board, i, CD_COST)
            if cost > top:
                top = cost
                k = r
    return k
