"""The decisions Drakerion's two heuristics answer alike, given their weights: where a character goes, which
trigger to resolve, which target or host to aim at, which card to discard, cycle, look at or search for,
who goes first, and when to stop acting (the loop guard)."""

from __future__ import annotations

from numba import njit

from sim.games.drakerion.records import (
    AB_AMOUNT, AB_EFFECT, ACT_PASS, ACT_PASS_GOOD, ATTACHMENT, B_CARD, B_PRESTIGE, B_ZONE, CD_COST, CD_HP,
    CD_MELEE, CD_RANGED, CD_TYPE, D_ACTION, D_COMBAT, D_CYCLE, D_DISCARD, D_FIRST, D_LINE, D_LOOK, D_SEARCH,
    D_SETUP, D_TARGET, D_TRIGGER, EF_REDIRECT, FRONT, SUPPORT, S_ABIL, S_GOLD, S_PENDING, S_SOURCE, Z_HAND,
)
from strategies.drakerion.board import FAST, INLINE, NEG, abil, better, card_worth, find, printed, worn_out
from strategies.drakerion.worth import ability_value, char_value, host_value, redirect_value


@njit(**FAST)
def line_for(cards, board, i, fragile_hp):
    """FRONT or SUPPORT for character i: shooters that are fragile, or shoot better than they hit,
    stay back; everyone else goes to the front (support characters without a bow cannot attack)."""
    c = board[i, B_CARD]
    ranged = cards[c, CD_RANGED]
    if ranged > 0 and (cards[c, CD_HP] <= fragile_hp or ranged >= cards[c, CD_MELEE]):
        return SUPPORT
    return FRONT


@njit(**FAST)
def trigger_choice(opts, n, st, cards, board, me, kw, rw, cw, dw):
    """Forced triggers first; then the most useful optional one; decline only what would hurt."""
    decline = -1
    for r in range(n):
        if opts[r, 0] < 0:
            decline = r
        elif opts[r, 2] != 0:
            return r
    k = -1
    bv = NEG
    for r in range(n):
        if opts[r, 0] >= 0:
            v = ability_value(st, cards, board, me, opts[r, 0], opts[r, 1], kw, rw, cw, dw, 0)
            bv, k = better(v, r, bv, k)
    if k < 0 or (bv < -0.03 and decline >= 0):
        return decline if decline >= 0 else 0
    return k


@njit(**FAST)
def target_choice(opts, n, st, cards, board, me, kw, rw, cw, dw):
    """A host for the attachment awaiting one (S_PENDING), or the target of the ability resolving."""
    pend = st[S_PENDING]
    host = pend >= 0 and board[pend, B_CARD] >= 0 and printed(cards, board, pend, CD_TYPE) == ATTACHMENT
    src = st[S_SOURCE]
    if not host and src < 0:
        return 0
    k = 0
    bv = NEG
    for r in range(n):
        h = opts[r, 0]
        if h < 0 or board[h, B_CARD] < 0:
            continue
        if host:
            v = host_value(st, cards, board, me, pend, h, kw, rw)
        else:
            e = abil(cards, board, src, st[S_ABIL], AB_EFFECT)
            if e == EF_REDIRECT:
                v = redirect_value(st, cards, board, me, src, st[S_ABIL], h, kw, rw)
            else:
                v = char_value(st, cards, board, me, e, abil(cards, board, src, st[S_ABIL], AB_AMOUNT), h,
                               kw, rw, cw, dw)
            v += 0.01 * board[h, B_PRESTIGE]          # ties: the more prestigious character
        bv, k = better(v, r, bv, k)
    return k


@njit(**FAST)
def card_choice(kind, opts, n, st, cards, board, me):
    """D_DISCARD / D_CYCLE / D_LOOK: the card least worth keeping (a look puts the worst back first,
    so the best ends on top); D_SEARCH: the card most worth having (one put into play from the hand
    is free, so its cost counts too); [-1] only when nothing is offered."""
    gold = st[S_GOLD + me]
    k = 0
    bv = NEG
    for r in range(n):
        i = opts[r, 0]
        if i < 0 or board[i, B_CARD] < 0:
            v = -100.0                         # "find nothing": the last resort
        elif kind == D_SEARCH:
            v = card_worth(cards, board[i, B_CARD], gold)
            if board[i, B_ZONE] == Z_HAND:
                v += 0.25 * printed(cards, board, i, CD_COST)
        else:
            v = -card_worth(cards, board[i, B_CARD], gold)
        bv, k = better(v, r, bv, k)
    return k


@njit(**FAST)
def pass_row(opts, n, good):
    """The pass-for-good row when `good` and listed, else the pass row, else row 0."""
    if good:
        r = find(opts, n, 0, ACT_PASS_GOOD)
        if r >= 0:
            return r
    r = find(opts, n, 0, ACT_PASS)
    return r if r >= 0 else 0


@njit(**INLINE)
def stop_row(kind, opts, n, st, me):
    """Past the loop guard, the row that stops: pass for good in the action phase, pass in a combat,
    decline a trigger where that is offered; -1 otherwise (and before the guard)."""
    if not worn_out(st, me):
        return -1
    if kind == D_ACTION or kind == D_COMBAT:
        return pass_row(opts, n, kind == D_ACTION)
    if kind == D_TRIGGER:
        return find(opts, n, 0, -1)
    return -1


@njit(**INLINE)
def shared_choice(kind, opts, n, st, cards, board, me, kw, rw, cw, dw, fragile_hp, go_first):
    """The row of a decision both heuristics answer alike (weights kw, rw, cw, dw; shooters with
    `fragile_hp` or less stay in support), -1 for the kinds each answers its own way."""
    if kind == D_TARGET:
        return target_choice(opts, n, st, cards, board, me, kw, rw, cw, dw)
    if kind == D_TRIGGER:
        return trigger_choice(opts, n, st, cards, board, me, kw, rw, cw, dw)
    if kind == D_LINE:
        if st[S_PENDING] < 0 or board[st[S_PENDING], B_CARD] < 0:
            return 0
        r = find(opts, n, 0, line_for(cards, board, st[S_PENDING], fragile_hp))
        return r if r >= 0 else 0
    if kind == D_SETUP:
        r = find(opts, n, 1, line_for(cards, board, opts[0, 0], fragile_hp))
        return r if r >= 0 else 0
    if kind == D_FIRST:
        r = find(opts, n, 0, 0 if go_first else 1)
        return r if r >= 0 else 0
    if kind == D_DISCARD or kind == D_CYCLE or kind == D_LOOK or kind == D_SEARCH:
        return card_choice(kind, opts, n, st, cards, board, me)
    return -1
