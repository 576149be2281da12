"""What Drakerion's heuristics read off the board: the constants they share, small readers of the card
table and the board, the bit masks of a player's characters and hand, and the facts of a hand (what it is
worth keeping, what it still cannot pay for, the combat tricks it holds)."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.games.drakerion.records import (
    AB_TRIGGER, ABIL_WIDTH, ATTACHMENT, B_CARD, B_DAMAGE, B_HOST, B_HP, B_MELEE, B_PRESTIGE, B_RANGED, B_SHIELD,
    B_ZONE, CD_ABIL, CD_COST, CD_HP, CD_KEYWORDS, CD_MELEE, CD_NABIL, CD_RANGED, CD_RIPOSTE, CD_TYPE, CHARACTER,
    EVENT, KW_IMPREVISIBLE, MAX_DECK, MAX_INST, M_CHARS, M_HAND, S_MASK, S_MASKS_KEPT, S_ATTACKER, S_DEFENDER,
    S_GOLD, S_IN_COMBAT, S_TURN, TR_COMBAT, T_ABILITIES, T_ACTIONS, Z_ATTACHED, Z_FRONT, Z_HAND, Z_SUPPORT,
)
from sim.games.drakerion.shared import FAST, INLINE

NEG = -1.0e9
BIG = 50.0             # a win (or a loss) outweighs any trade
WIN_PRESTIGE = 20      # the rules' default `win_prestige` (strategies do not see the rules' config row)
LOOP_GUARD = 100       # own actions + abilities a turn past which the heuristics only pass / decline


# ---- small readers ---------------------------------------------------------------------------------
# Plain functions, not inline='always': LLVM inlines them anyway, while numba's own inlining typed each body
# again at every one of its ~150 call sites (6 s of a cold compile, same speed; docs/ENGINE-GUIDE.md).


@njit(**FAST)
def printed(cards, board, i, field):
    """A printed value (card table column) of instance i."""
    return cards[board[i, B_CARD], field]


@njit(**FAST)
def abil(cards, board, i, a, field):
    """Field AB_* of ability a of instance i's card."""
    return cards[board[i, B_CARD], CD_ABIL + a * ABIL_WIDTH + field]


@njit(**FAST)
def in_play(board, i):
    """A character on the front or support line."""
    z = board[i, B_ZONE]
    return board[i, B_CARD] >= 0 and (z == Z_FRONT or z == Z_SUPPORT)


@njit(**FAST)
def life(board, i):
    """Damage character i can still take this combat (shields included)."""
    return board[i, B_HP] - board[i, B_DAMAGE] + board[i, B_SHIELD]


@njit(**FAST)
def hits(board, i, ranged):
    """Damage character i deals when it attacks (melee or ranged)."""
    return board[i, B_RANGED] if ranged else board[i, B_MELEE]


@njit(**FAST)
def worth(board, i):
    """What losing character i costs its owner: its prestige to the opponent, plus a body."""
    return 1.0 + board[i, B_PRESTIGE]


@njit(**FAST)
def is_shooter(cards, board, i):
    return printed(cards, board, i, CD_RANGED) > 0


@njit(**FAST)
def subject(board, src):
    """The character an ability of src acts on as `self`: src itself, or an attachment's host."""
    z = board[src, B_ZONE]
    if z == Z_FRONT or z == Z_SUPPORT:
        return src
    if z == Z_ATTACHED:
        return board[src, B_HOST]
    return -1


@njit(**FAST)
def fighting(st):
    return st[S_IN_COMBAT] != 0 and st[S_ATTACKER] >= 0 and st[S_DEFENDER] >= 0


@njit(**FAST)
def worn_out(st, me):
    """Past the loop guard: the heuristics stop doing things."""
    return st[T_ACTIONS + me] + st[T_ABILITIES + me] > LOOP_GUARD * (st[S_TURN] + 1)


@njit(**FAST)
def find(opts, n, col, value):
    """The first row whose column `col` holds `value`, or -1."""
    for r in range(n):
        if opts[r, col] == value:
            return r
    return -1


@njit(**FAST)
def better(v, r, bv, k):
    """(score, row) of the best row so far once row r scores v: the first of equal scores stays."""
    if v > bv:
        return v, r
    return bv, k


# ---- the board -------------------------------------------------------------------------------------
# The loops over a player's characters (or hand) visit the set bits of a row mask, lowest row first
# (the order a scan of the rows would take): the kernel keeps the masks in the state vector.


@njit(**FAST)
def scan_mask(board, p, hand):
    """Rows of p in hand (or characters in play) as a bit mask, read off the board."""
    m = 0
    for k in range(MAX_DECK):
        i = p * MAX_INST + k
        z = board[i, B_ZONE]
        ok = (z == Z_HAND) if hand else (z == Z_FRONT or z == Z_SUPPORT)
        if ok and board[i, B_CARD] >= 0:
            m |= np.int64(1) << k
    return m


@njit(**FAST)
def chars_of(st, board, p):
    """Bit mask of p's characters in play (bit k: row p * MAX_INST + k)."""
    if st[S_MASKS_KEPT]:
        return st[S_MASK + 4 * p + M_CHARS]
    return scan_mask(board, p, False)


@njit(**FAST)
def hand_of(st, board, p):
    """Bit mask of the cards of p's hand."""
    if st[S_MASKS_KEPT]:
        return st[S_MASK + 4 * p + M_HAND]
    return scan_mask(board, p, True)


@njit(**FAST)
def low_bit(m):
    return np.int64(trailing_zeros(m))


@njit(**FAST)
def pop(p, m):
    """The row of the lowest set bit of p's mask m, and m without it: `i, m = pop(p, m)` visits p's rows."""
    return p * MAX_INST + low_bit(m), m & (m - 1)


@njit(**FAST)
def count_chars(st, board, p):
    """Characters player p has in play."""
    n = 0
    m = chars_of(st, board, p)
    while m:
        m &= m - 1
        n += 1
    return n


@njit(**FAST)
def threat(st, cards, board, q, h, skip):
    """The most damage one character of q (other than `skip`) could deal to h in a later attack."""
    top = 0
    h_front = board[h, B_ZONE] == Z_FRONT
    m = chars_of(st, board, q)
    while m:
        k, m = pop(q, m)
        if k == skip:
            continue
        k_front = board[k, B_ZONE] == Z_FRONT
        if k_front and h_front and board[k, B_MELEE] > top:
            top = board[k, B_MELEE]
        if is_shooter(cards, board, k) and (k_front or h_front) and board[k, B_RANGED] > top:
            top = board[k, B_RANGED]
    return top


@njit(**FAST)
def card_worth(cards, c, gold):
    """How much a card in hand is worth keeping (discards, cycling, looks and searches)."""
    t = cards[c, CD_TYPE]
    if t == CHARACTER:
        w = 1.0 + 0.2 * (cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP]
                         + 1.5 * cards[c, CD_RANGED])
    elif t == ATTACHMENT:
        w = 0.6 + 0.15 * abs(cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP]
                             + cards[c, CD_RANGED])
    elif t == EVENT:
        w = 0.9
    else:
        w = 0.3
    if cards[c, CD_COST] > gold + 3:
        w -= 0.4
    return w


@njit(**FAST)
def gold_cost(st, cards, board, me, skip, spend):
    """What spending `spend` gold takes from `me`: much while another card of my hand (not `skip`)
    would then be out of reach, little when the gold is spare (nothing left to pay for)."""
    if spend <= 0:
        return 0.0
    left = st[S_GOLD + me] - spend
    m = hand_of(st, board, me)
    while m:
        i, m = pop(me, m)
        if i != skip and printed(cards, board, i, CD_COST) > left:
            return 0.25 * spend
    return 0.05 * spend


@njit(**FAST)
def shortfall(st, cards, board, me):
    """Gold missing to pay for the dearest card of my hand (0: I can pay for everything)."""
    top = 0
    gold = st[S_GOLD + me]
    m = hand_of(st, board, me)
    while m:
        i, m = pop(me, m)
        t = printed(cards, board, i, CD_TYPE)
        if t == CHARACTER or t == ATTACHMENT or t == EVENT:
            top = max(top, printed(cards, board, i, CD_COST) - gold)
    return top


@njit(**FAST)
def combat_tricks(st, cards, board, me):
    """Hand cards I could use in a combat window now (events with a Combat ability, Imprévisible
    cards), the reason not to pass for good too early."""
    n = 0
    gold = st[S_GOLD + me]
    m = hand_of(st, board, me)
    while m:
        i, m = pop(me, m)
        if printed(cards, board, i, CD_COST) > gold:
            continue
        if printed(cards, board, i, CD_KEYWORDS) & KW_IMPREVISIBLE:
            n += 1
        elif printed(cards, board, i, CD_TYPE) == EVENT:
            for a in range(printed(cards, board, i, CD_NABIL)):
                if abil(cards, board, i, a, AB_TRIGGER) == TR_COMBAT:
                    n += 1
                    break
    return n
