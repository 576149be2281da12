"""Drakerion kernel, part 1: the work layout and the board primitives every rule uses — decisions and
the trace, zones and their counts, the decks, effective stats, the lines rule, the trigger queue and
the win check. Rules that need a decision get the two strategy functions (f0, f1) and their
parameters (p0, p1) as arguments; nothing here allocates (compiled `_nrt=False`).

Arrays passed around (allocated once per batch by kernel.play_batch):
    w      int64[N_WORK]               configuration, deck orders, trigger queue, scratch, trace cursor
    st     int64[N_STATE]              the state vector strategies read (records.S_* / T_*)
    board  int64[N_INST, BOARD_WIDTH]  one row per physical card (records.B_*)
    opts   int64[MAX_OPTS, OPT_WIDTH]  the pending decision's rows
    cards  int64[n_cards, CARD_WIDTH]  the card table (read only)
    tr     int16[rows, TRACE_WIDTH]    trace rows of the traced games
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.engine.kernel_rows import put_row
from sim.engine.rng import next_u64, shuffle as shuffle_rows
from sim.games.drakerion.shared import FAST, INLINE, below
from sim.games.drakerion.records import (
    AB_AMOUNT, AB_CONDITION, AB_EFFECT, AB_TARGET, AB_TRAITS, AB_TRIGGER, ABIL_WIDTH, B_CARD, B_CB_HP, B_CB_MELEE, B_CB_RANGED,
    B_CB_RIPOSTE, B_DAMAGE, B_ENTERED, B_HOST, B_HP, B_MELEE, B_PRESTIGE, B_RANGED, B_RIPOSTE, B_SHIELD,
    B_TAPPED, B_TB_HP, B_TB_MELEE, B_TB_RANGED, B_TB_RIPOSTE, B_ZONE, CD_ABIL, CD_HP, CD_MELEE,
    CD_KEYWORDS, CD_NABIL, CD_NAMED, CD_PRESTIGE, CD_TYPE, EVENT, CD_RANGED, CD_RIPOSTE, CD_TRAITS, C_ATTACH_PRESTIGE_NONE, C_CHECK, C_EMPTY_DECK_LOSES, C_PRESTIGE_BEATS, C_WIN_PRESTIGE, DRAW,
    EF_HP, EF_MELEE, EF_RANGED, EF_RIPOSTE, END_BOTH, END_DECKED, END_PRESTIGE, END_WIPEOUT, EV_DECIDE, EV_DECK,
    K_F_EMPTY_DECK, K_F_PRESTIGE_BEATS, K_MOVE_UP, KW_IMPREVISIBLE, N_INST, N_STATE, BOARD_WIDTH, M_ATTACHED, M_CHARS, M_DISCARD, M_HAND, MAX_DECK, MAX_INST, MAX_OPTS, S_DECK_N, S_DECKED, S_DISCARD_N, S_END, S_FRONT_N,
    S_GOLD, S_HAND_N, S_MAN_TOP, S_MASK, S_OVER, S_RNG, D_LOOK, S_PRESTIGE, S_SUPPORT_N, S_ACTOR, S_TURN, S_WINNER,
    TG_SELF, TR_PASSIVE, TR_REACTION, T_BAD_CHOICES, T_DECISIONS, T_VIOLATIONS, T_DRAWN, T_KW, Z_ATTACHED, Z_CITY, Z_DECK,
    Z_DISCARD, Z_FRONT, Z_HAND, Z_MAN_TOP, Z_SUPPORT,
)


# ---- the work array ------------------------------------------------------------------------------
N_CFG_ROOM = 24
W_DECK = N_CFG_ROOM                   # 2 x MAX_DECK: deck orders, position 0 the bottom
MAX_Q = 64
Q_WIDTH = 3                           # queue entry: instance, ability, trigger code
W_QUEUE = W_DECK + 2 * MAX_DECK
W_QN = W_QUEUE + MAX_Q * Q_WIDTH      # entries in the queue
W_TROW = W_QN + 1                     # next trace row
W_TRACING = W_TROW + 1                # 1 while the current game is traced
W_TOVER = W_TRACING + 1               # 1 once the trace buffer overflowed
W_DECKN = W_TOVER + 1                 # 2: deck cards per player (rows 0..n-1)
W_SETUP = W_DECKN + 2                 # 2 x 8: set-up rows
W_LOOK = W_SETUP + 16                 # 16: cards being looked at
W_TGT = W_LOOK + 16                   # 128: targets of the effect resolving
W_HURT = W_TGT + 128                  # 128: damage taken by each row since the last sweep
W_PENDING_ATTACK = W_HURT + 128       # 3: an attack an ability made (attacker, defender, ranged), -1
W_PLAYED = W_PENDING_ATTACK + 3       # 128: times each row was played from hand
W_LAST_PRESTIGE = W_PLAYED + 128      # 2: prestige at the last check (check mode)
W_MASK = W_LAST_PRESTIGE + 2          # 2 x 4 bit masks of deck rows by zone: the loops visit set bits only
W_TMASK = W_MASK + 8                  # N_INST: per row, the triggers its card's abilities have (bit TR_*) and
R_COND = 8                            # its reactions' conditions (bit R_COND + WH_*): lists skip the rest
T_NAMED_BIT = 16                      # and whether the card is Named / Imprévisible
T_IMPREV_BIT = 17
T_EVENT_BIT = 18                      # and whether it is an event (read without the card table)
N_TBITS = 19
W_TROWS = W_TMASK + N_INST            # 2 x N_TBITS: per player and bit, the mask of rows whose card has it
W_MODE = W_TROWS + 2 * N_TBITS        # how decisions are answered: PLAIN, or a search's replays (below)
N_WORK = W_MODE + 1

# ---- the search player's replays (kernel_search) --------------------------------------------------
# A game with a searching seat is replayed from its deal: the decisions already made (with more than one
# option) are read from a log, with the game's stream as each left it. GAME mode plays the real game on and
# stops at the searching seat's next decision (the game then ends at once: STOPPED answers row 0); PLAYOUT
# mode replays to that decision, deals what the seat cannot see afresh, takes the option under test and
# lets the heuristics play on. The words below sit past N_WORK: only a search batch's work array has them.
MODE_PLAIN, MODE_GAME, MODE_PLAYOUT, MODE_STOPPED = 0, 1, 2, 3
MAX_LOG = 4096                        # decisions logged per game; past it the seat stops searching
X_IDX = N_WORK                        # decisions (with more than one option) so far in this run
X_LOGN = X_IDX + 1                    # decisions in the log
X_SEEKERS = X_LOGN + 1                # bit per searching seat
X_STOPPING = X_SEEKERS + 1            # 1 while the stop's incumbent is asked
X_STOP_SEAT = X_STOPPING + 1          # at the stop: the seat asked,
X_STOP_N = X_STOP_SEAT + 1            # the decision's options (0: no stop, the game ended),
X_STOP_ANSWER = X_STOP_N + 1          # the seat's function's answer (the incumbent),
X_STOP_RNG = X_STOP_ANSWER + 1        # the game's stream there
X_FORCED = X_STOP_RNG + 1             # the option a playout takes at the stop
X_DEAL = X_FORCED + 1                 # 1: deal the hidden cards afresh (0: a cheat, 2: a leaky deal; the tests)
X_SRNG = X_DEAL + 1                   # the search's own random stream
X_NSEARCH = X_SRNG + 1                # decisions searched in the batch
X_PILE = X_NSEARCH + 1                # MAX_INST: rows being dealt
X_LOG = X_PILE + MAX_INST             # 2 x MAX_LOG: per decision, the answer and the game's stream after it
X_SNAP = X_LOG + 2 * MAX_LOG          # 1: copy the state at the stop to X_SNAPSHOT (the tests)
X_SNAPSHOT = X_SNAP + 1               # w[:N_WORK], st, board
X_SUBST = X_SNAPSHOT + N_WORK + N_STATE + N_INST * BOARD_WIDTH   # 1: at the stop, put X_SNAPSHOT's state in place
N_SEARCH_WORK = X_SUBST + 1           # of the replayed one (the game's stream and mode kept): the no-peeking probe

# ---- trace and decisions -------------------------------------------------------------------------


@njit(**FAST)
def emit(w, tr, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9):
    """Append one trace row when this game is traced; flag an overflow instead of writing past."""
    if w[W_TRACING] == 0:
        return
    r = w[W_TROW]
    if r >= tr.shape[0]:
        w[W_TOVER] = 1
        return
    put_row(tr, r, (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9))
    w[W_TROW] = r + 1


@njit(**FAST)
def row(opts, k, a, b, c, d, e, f):
    opts[k, 0] = a
    opts[k, 1] = b
    opts[k, 2] = c
    opts[k, 3] = d
    opts[k, 4] = e
    opts[k, 5] = f


@njit(**FAST)
def add_row(opts, n, a, b, c, d):
    """Write row n (columns 4, 5 unused) and return n + 1; rows past MAX_OPTS are dropped."""
    if n >= MAX_OPTS:
        return n
    row(opts, n, a, b, c, d, -1, -1)
    return n + 1


@njit(**INLINE)
def decide(w, st, board, opts, cards, tr, f0, f1, p0, p1, p, kind, n):
    """Player p answers a decision of `kind` over opts[:n]; returns the chosen row (traced)."""
    st[S_ACTOR] = p
    c = 0
    if n > 1:
        c = -1
        if w[W_MODE]:
            c = replayed(w, st, board, p, kind, n)
        if c < 0:
            if p == 0:
                c = f0(kind, opts, n, st, board, cards, p0)
            else:
                c = f1(kind, opts, n, st, board, cards, p1)
            if c < 0 or c >= n:          # as in every game: a uniformly random legal row instead, counted
                st[T_BAD_CHOICES] += 1
                c = below(st, n)
            if w[W_MODE]:
                heard(w, st, c)
    st[T_DECISIONS] += 1
    if w[C_CHECK]:
        st[T_VIOLATIONS] += violations(w, st, board)
    if w[W_TRACING]:
        emit(w, tr, EV_DECIDE, kind, p, n, opts[c, 0], opts[c, 1], opts[c, 2], opts[c, 3],
             opts[c, 4], opts[c, 5])
    return c


@njit(**FAST)
def replayed(w, st, board, p, kind, n):
    """A search run's answer to a decision with n > 1 options, or -1 to ask the seat's function (see X_*)."""
    mode = w[W_MODE]
    if mode == MODE_STOPPED:
        return 0
    k = w[X_IDX]
    w[X_IDX] = k + 1
    if k < w[X_LOGN]:
        st[S_RNG] = w[X_LOG + 2 * k + 1]
        return w[X_LOG + 2 * k]
    if mode == MODE_PLAYOUT:
        if k == w[X_LOGN]:
            if w[X_SUBST]:
                substitute(w, st, board)
            if w[X_DEAL]:
                determinise(w, st, board, p, w[X_DEAL] == 2)
            if w[X_SNAP]:
                snapshot(w, st, board, False)
            st[S_RNG] = np.int64(next_u64(w[X_SRNG:X_SRNG + 1]) | np.uint64(1))
            return w[X_FORCED]
    elif (w[X_SEEKERS] >> p) & 1 and kind != D_LOOK and k < MAX_LOG - 1:
        if w[X_SUBST]:
            substitute(w, st, board)
        w[X_STOPPING] = 1             # a decision to search: the seat's function gives the incumbent
        w[X_STOP_SEAT] = p
        w[X_STOP_N] = n
        w[X_STOP_RNG] = st[S_RNG]
    return -1


@njit(**FAST)
def heard(w, st, c):
    """After a seat's function answered c in a search run: log it, or note the incumbent and stop."""
    if w[X_STOPPING]:
        w[X_STOPPING] = 0
        w[X_STOP_ANSWER] = c
        st[S_RNG] = w[X_STOP_RNG]        # the stream as if the function had not been asked
        st[S_OVER] = 1
        w[W_MODE] = MODE_STOPPED
    elif w[W_MODE] == MODE_GAME:
        k = w[X_LOGN]
        if k < MAX_LOG:
            w[X_LOG + 2 * k] = c
            w[X_LOG + 2 * k + 1] = st[S_RNG]
            w[X_LOGN] = k + 1


@njit(**FAST)
def dealt(w, st, board, p, with_hand, leak):
    """Deal p's deck (and hand) afresh on the search's stream: its rows there, listed in row order (so the
    result does not depend on where they were), shuffled; the hand keeps its size. `leak` (a deliberately wrong
    deal, for the no-peeking tests) leaves the copy of the hand's mask that strategies read as it was."""
    k = 0
    for j in range(w[W_DECKN + p]):
        i = p * MAX_INST + j
        z = board[i, B_ZONE]
        if z == Z_DECK or (with_hand and z == Z_HAND):
            w[X_PILE + k] = i
            k += 1
    shuffle_rows(w[X_SRNG:X_SRNG + 1], w[X_PILE:X_PILE + k], k)
    held = st[S_HAND_N + p] if with_hand else 0
    hand = np.int64(0)
    for j in range(k):
        i = w[X_PILE + j]
        if j < held:
            board[i, B_ZONE] = Z_HAND
            hand |= np.int64(1) << (i & 63)
        else:
            board[i, B_ZONE] = Z_DECK
            w[W_DECK + p * MAX_DECK + j - held] = i
    if with_hand:
        w[W_MASK + 4 * p + M_HAND] = hand
        if not leak:
            st[S_MASK + 4 * p + M_HAND] = hand


@njit(**FAST)
def words(a, w, k, back):
    """Copy the 1-D array a to w[k:] (or `back` from it); returns the word after."""
    n = a.shape[0]
    src, dst = (w[k:k + n], a) if back else (a, w[k:k + n])
    for i in range(n):
        dst[i] = src[i]
    return k + n


@njit(**FAST)
def snapshot(w, st, board, back):
    """Copy the state to w[X_SNAPSHOT:]: w[:N_WORK], st, board (or `back` from it); for the tests."""
    k = words(w[:N_WORK], w, X_SNAPSHOT, back)
    k = words(st, w, k, back)
    words(board.reshape(N_INST * BOARD_WIDTH), w, k, back)


@njit(**FAST)
def substitute(w, st, board):
    """The state at the stop replaced by the one at X_SNAPSHOT (a probe's arrangement of the same observation),
    keeping the replay's mode and the game's stream."""
    mode = w[W_MODE]
    rng = st[S_RNG]
    snapshot(w, st, board, True)
    w[W_MODE] = mode
    st[S_RNG] = rng


@njit(**FAST)
def determinise(w, st, board, me, leak):
    """What seat `me` cannot see, dealt afresh: the opponent's hand and deck from the rows in either, its own
    deck order. `leak`: the opponent's hand mask as strategies read it (st's copy) left as the true state had
    it, a deliberately leaky deal the no-peeking tests must catch."""
    dealt(w, st, board, 1 - me, True, leak)
    dealt(w, st, board, me, False, False)


@njit(**FAST)
def violations(w, st, board):
    """Invariants checked before every decision (check mode): every card in one zone with the counts
    kept right, each deck order holding exactly its deck's cards, gold never negative, no character in
    play at or past its HP, prestige never falling. Returns the number of failures."""
    bad = 0
    for p in range(2):
        hand = front = support = discard = deck = 0
        for k in range(w[W_DECKN + p]):
            z = board[p * MAX_INST + k, B_ZONE]
            hand += z == Z_HAND
            front += z == Z_FRONT
            support += z == Z_SUPPORT
            discard += z == Z_DISCARD
            deck += z == Z_DECK
            i = p * MAX_INST + k
            if (z == Z_FRONT or z == Z_SUPPORT) and board[i, B_DAMAGE] >= board[i, B_HP]:
                bad += 1
        bad += (hand != st[S_HAND_N + p]) + (front != st[S_FRONT_N + p]) + (support != st[S_SUPPORT_N + p])
        bad += (discard != st[S_DISCARD_N + p]) + (deck != st[S_DECK_N + p])
        base = W_DECK + p * MAX_DECK
        for k in range(st[S_DECK_N + p]):
            i = w[base + k]
            if (i >> 6) != p or board[i, B_ZONE] != Z_DECK:
                bad += 1
            for m in range(k):
                bad += w[base + m] == i
        bad += st[S_GOLD + p] < 0
        bad += st[S_PRESTIGE + p] < w[W_LAST_PRESTIGE + p]
        w[W_LAST_PRESTIGE + p] = st[S_PRESTIGE + p]
    return bad


# ---- zones ---------------------------------------------------------------------------------------


@njit(**FAST)
def zone_count(st, z, p, d):
    if z == Z_HAND:
        st[S_HAND_N + p] += d
    elif z == Z_FRONT:
        st[S_FRONT_N + p] += d
    elif z == Z_SUPPORT:
        st[S_SUPPORT_N + p] += d
    elif z == Z_DISCARD:
        st[S_DISCARD_N + p] += d


@njit(**FAST)
def mask_kind(z):
    """The bit mask a zone is tracked in (-1: none)."""
    if z == Z_FRONT or z == Z_SUPPORT:
        return M_CHARS
    if z == Z_ATTACHED:
        return M_ATTACHED
    if z == Z_HAND:
        return M_HAND
    if z == Z_DISCARD:
        return M_DISCARD
    return -1


@njit(**FAST)
def set_zone(w, st, board, i, z):
    """Move row i to zone z, keeping the per-player counts and zone masks (decks are counted by the
    deck helpers)."""
    p = i >> 6
    old = board[i, B_ZONE]
    zone_count(st, old, p, -1)
    zone_count(st, z, p, 1)
    bit = np.int64(1) << (i & 63)
    m = mask_kind(old)
    if m >= 0:
        w[W_MASK + 4 * p + m] &= ~bit
        st[S_MASK + 4 * p + m] = w[W_MASK + 4 * p + m]      # the copy strategies read
    m = mask_kind(z)
    if m >= 0:
        w[W_MASK + 4 * p + m] |= bit
        st[S_MASK + 4 * p + m] = w[W_MASK + 4 * p + m]
    board[i, B_ZONE] = z


@njit(**FAST)
def trigger_mask(cards, c):
    """Bit TR_* for each trigger of card c's abilities, bit R_COND + WH_* for each reaction condition."""
    t = 0
    if c < 0:
        return t
    if cards[c, CD_NAMED]:
        t |= np.int64(1) << T_NAMED_BIT
    if cards[c, CD_KEYWORDS] & KW_IMPREVISIBLE:
        t |= np.int64(1) << T_IMPREV_BIT
    if cards[c, CD_TYPE] == EVENT:
        t |= np.int64(1) << T_EVENT_BIT
    for a in range(cards[c, CD_NABIL]):
        base = CD_ABIL + a * ABIL_WIDTH
        trig = cards[c, base + AB_TRIGGER]
        t |= np.int64(1) << trig
        if trig == TR_REACTION:
            t |= np.int64(1) << (R_COND + cards[c, base + AB_CONDITION])
    return t


@njit(**FAST)
def has_trigger(w, i, bit):
    return (w[W_TMASK + i] >> bit) & 1


@njit(**FAST)
def trigger_rows(w, p, bit):
    """Mask of p's rows whose card has this trigger (bit TR_*) or reaction condition (R_COND + WH_*)."""
    return w[W_TROWS + N_TBITS * p + bit]


@njit(**FAST)
def mask(w, p, kind):
    return w[W_MASK + 4 * p + kind]


@njit(**FAST)
def low_row(m):
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(trailing_zeros(m))


@njit(**FAST)
def pop_row(p, m):
    """The row of the lowest set bit of p's mask m, and m without it: `i, m = pop_row(p, m)` visits p's rows
    lowest first (the order a scan of the rows would take)."""
    return p * MAX_INST + low_row(m), m & (m - 1)


@njit(**FAST)
def list_hand(w, opts, n, p):
    """One row per card of p's hand (the instance in column 0) from row n on; returns the new count."""
    m = mask(w, p, M_HAND)
    while m:
        i, m = pop_row(p, m)
        n = add_row(opts, n, i, -1, -1, -1)
    return n


@njit(**FAST)
def in_play_char(board, i):
    z = board[i, B_ZONE]
    return z == Z_FRONT or z == Z_SUPPORT


@njit(**FAST)
def in_play(board, i):
    """A card whose abilities are live: a character, an attachment, the revealed Manoeuvre, the City."""
    z = board[i, B_ZONE]
    return z == Z_FRONT or z == Z_SUPPORT or z == Z_ATTACHED or z == Z_MAN_TOP or z == Z_CITY


@njit(**FAST)
def characters(st, p):
    return st[S_FRONT_N + p] + st[S_SUPPORT_N + p]


# ---- decks ---------------------------------------------------------------------------------------


@njit(**FAST)
def shuffle(w, st, tr, p):
    """Shuffle p's deck with the game's stream and trace its new order (bottom to top)."""
    base = W_DECK + p * MAX_DECK
    n = st[S_DECK_N + p]
    for i in range(n - 1, 0, -1):
        j = below(st, i + 1)
        t = w[base + i]
        w[base + i] = w[base + j]
        w[base + j] = t
    if w[W_TRACING]:
        for k in range(n):
            emit(w, tr, EV_DECK, p, n, k, w[base + k], -1, -1, -1, -1, -1)


@njit(**FAST)
def draw(w, st, board, p, count):
    """Draw up to `count` cards from the top; an empty deck gives nothing (empty_deck_loses: p loses,
    at the next win check)."""
    base = W_DECK + p * MAX_DECK
    for _ in range(count):
        n = st[S_DECK_N + p]
        if n == 0:
            st[T_KW + K_F_EMPTY_DECK] += 1
            if w[C_EMPTY_DECK_LOSES]:
                st[S_DECKED] |= 1 << p
            return
        i = w[base + n - 1]
        st[S_DECK_N + p] = n - 1
        set_zone(w, st, board, i, Z_HAND)
        st[T_DRAWN + p] += 1


@njit(**FAST)
def put_under(w, st, board, i):
    p = i >> 6
    base = W_DECK + p * MAX_DECK
    n = st[S_DECK_N + p]
    for k in range(n, 0, -1):
        w[base + k] = w[base + k - 1]
    w[base] = i
    st[S_DECK_N + p] = n + 1
    set_zone(w, st, board, i, Z_DECK)


@njit(**FAST)
def put_on_top(w, st, board, i):
    p = i >> 6
    n = st[S_DECK_N + p]
    w[W_DECK + p * MAX_DECK + n] = i
    st[S_DECK_N + p] = n + 1
    set_zone(w, st, board, i, Z_DECK)


@njit(**FAST)
def take_from_deck(w, st, board, i, z):
    """Take row i out of its owner's deck (keeping the others' order) into zone z."""
    p = i >> 6
    base = W_DECK + p * MAX_DECK
    n = st[S_DECK_N + p]
    k = 0
    while k < n and w[base + k] != i:
        k += 1
    for m in range(k, n - 1):
        w[base + m] = w[base + m + 1]
    st[S_DECK_N + p] = n - 1
    set_zone(w, st, board, i, z)


# ---- effective stats -----------------------------------------------------------------------------


@njit(**FAST)
def subject_matches(board, src, i):
    """Whether character i is the subject of card src (itself, an attachment's host, or any character
    of a City's / Manoeuvre's controller)."""
    z = board[src, B_ZONE]
    if z == Z_FRONT or z == Z_SUPPORT:
        return src == i
    if z == Z_ATTACHED:
        return board[src, B_HOST] == i
    return (src >> 6) == (i >> 6)


@njit(**FAST)
def add_stat(board, i, effect, amount):
    if effect == EF_MELEE:
        board[i, B_MELEE] += amount
    elif effect == EF_RANGED:
        board[i, B_RANGED] += amount
    elif effect == EF_RIPOSTE:
        board[i, B_RIPOSTE] += amount
    elif effect == EF_HP:
        board[i, B_HP] += amount


@njit(**FAST)
def apply_passives(w, board, cards, src):
    """Add card src's passive stat gains to the characters they reach."""
    c = board[src, B_CARD]
    p = src >> 6
    for a in range(cards[c, CD_NABIL]):
        base = CD_ABIL + a * ABIL_WIDTH
        if cards[c, base + AB_TRIGGER] != TR_PASSIVE:
            continue
        effect = cards[c, base + AB_EFFECT]
        amount = cards[c, base + AB_AMOUNT]
        traits = cards[c, base + AB_TRAITS]
        if cards[c, base + AB_TARGET] == TG_SELF and board[src, B_ZONE] != Z_MAN_TOP \
                and board[src, B_ZONE] != Z_CITY:
            i = src if board[src, B_ZONE] != Z_ATTACHED else board[src, B_HOST]
            add_stat(board, i, effect, amount)
            continue
        m = mask(w, p, M_CHARS)
        while m:
            i, m = pop_row(p, m)
            if traits == 0 or (cards[board[i, B_CARD], CD_TRAITS] & traits) != 0:
                add_stat(board, i, effect, amount)


@njit(**INLINE)
def base_stats(w, board, cards):
    """Every character's printed values plus its gains lasting the combat or the turn."""
    for p in range(2):
        m = mask(w, p, M_CHARS)
        while m:
            i, m = pop_row(p, m)
            c = board[i, B_CARD]
            board[i, B_MELEE] = cards[c, CD_MELEE] + board[i, B_CB_MELEE] + board[i, B_TB_MELEE]
            board[i, B_RANGED] = cards[c, CD_RANGED] + board[i, B_CB_RANGED] + board[i, B_TB_RANGED]
            board[i, B_RIPOSTE] = cards[c, CD_RIPOSTE] + board[i, B_CB_RIPOSTE] + board[i, B_TB_RIPOSTE]
            board[i, B_HP] = cards[c, CD_HP] + board[i, B_CB_HP] + board[i, B_TB_HP]
            board[i, B_PRESTIGE] = cards[c, CD_PRESTIGE]


@njit(**INLINE)
def city_passives(w, board, cards, p):
    city = p * MAX_INST + 56
    if has_trigger(w, city, TR_PASSIVE):
        apply_passives(w, board, cards, city)


@njit(**FAST)
def refresh(w, st, board, cards):
    """Recompute every character's effective melee, ranged, riposte, HP and prestige: printed values,
    attachment modifiers, passive abilities, and gains lasting the combat or the turn."""
    base_stats(w, board, cards)
    for p in range(2):
        m = mask(w, p, M_ATTACHED)
        while m:
            i, m = pop_row(p, m)
            c = board[i, B_CARD]
            h = board[i, B_HOST]
            board[h, B_MELEE] += cards[c, CD_MELEE]
            board[h, B_RANGED] += cards[c, CD_RANGED]
            board[h, B_RIPOSTE] += cards[c, CD_RIPOSTE]
            board[h, B_HP] += cards[c, CD_HP]
            if w[C_ATTACH_PRESTIGE_NONE] == 0:      # attachment_prestige_to_host
                board[h, B_PRESTIGE] += cards[c, CD_PRESTIGE]
        m = (mask(w, p, M_CHARS) | mask(w, p, M_ATTACHED)) & trigger_rows(w, p, TR_PASSIVE)
        while m:
            i, m = pop_row(p, m)
            apply_passives(w, board, cards, i)
        top = st[S_MAN_TOP + p]
        if top >= 0 and has_trigger(w, top, TR_PASSIVE):
            apply_passives(w, board, cards, top)
        city_passives(w, board, cards, p)


@njit(**FAST)
def setup_stats(w, board, cards):
    """Stats while the Banners' cards are set up: characters' abilities are off then (rulebook), so their
    passives do not count yet; the City's do (no attachment or Manoeuvre is in play yet)."""
    base_stats(w, board, cards)
    for p in range(2):
        city_passives(w, board, cards, p)


# ---- entering play, the lines rule ------------------------------------------------------------


@njit(**FAST)
def reset_char(board, i):
    board[i, B_HOST] = -1
    board[i, B_DAMAGE] = 0
    board[i, B_TAPPED] = 0
    board[i, B_SHIELD] = 0
    board[i, B_CB_MELEE] = 0
    board[i, B_CB_RANGED] = 0
    board[i, B_CB_RIPOSTE] = 0
    board[i, B_CB_HP] = 0
    board[i, B_TB_MELEE] = 0
    board[i, B_TB_RANGED] = 0
    board[i, B_TB_RIPOSTE] = 0
    board[i, B_TB_HP] = 0


@njit(**FAST)
def enter_line(w, st, board, i, line):
    reset_char(board, i)
    board[i, B_ENTERED] = st[S_TURN]
    set_zone(w, st, board, i, Z_FRONT if line == 0 else Z_SUPPORT)


@njit(**FAST)
def lines(w, st, board, p):
    """A player without a character on the front moves the whole support line up."""
    if st[S_FRONT_N + p] > 0 or st[S_SUPPORT_N + p] == 0:
        return
    m = mask(w, p, M_CHARS)
    while m:
        i, m = pop_row(p, m)
        if board[i, B_ZONE] == Z_SUPPORT:
            set_zone(w, st, board, i, Z_FRONT)
    st[T_KW + K_MOVE_UP] += 1


# ---- the trigger queue ---------------------------------------------------------------------------


@njit(**FAST)
def push(w, i, a, trigger):
    n = w[W_QN]
    if n >= MAX_Q:
        return
    b = W_QUEUE + n * Q_WIDTH
    w[b] = i
    w[b + 1] = a
    w[b + 2] = trigger
    w[W_QN] = n + 1


@njit(**FAST)
def push_trigger(w, cards, board, i, trigger):
    """Queue every ability of card i with this trigger."""
    if has_trigger(w, i, trigger) == 0:
        return
    c = board[i, B_CARD]
    for a in range(cards[c, CD_NABIL]):
        if cards[c, CD_ABIL + a * ABIL_WIDTH + AB_TRIGGER] == trigger:
            push(w, i, a, trigger)


# ---- the end -------------------------------------------------------------------------------------


@njit(**FAST)
def win_check(w, st):
    """End the game when a player has the prestige or the opponent has no character left (or, under
    empty_deck_loses, had to draw from an empty deck)."""
    if st[S_OVER]:
        return
    target = w[C_WIN_PRESTIGE]
    pr0 = st[S_PRESTIGE] >= target
    pr1 = st[S_PRESTIGE + 1] >= target
    wipe0 = characters(st, 1) == 0
    wipe1 = characters(st, 0) == 0
    w0 = pr0 or wipe0 or (st[S_DECKED] & 2) != 0
    w1 = pr1 or wipe1 or (st[S_DECKED] & 1) != 0
    if not (w0 or w1):
        return
    st[S_OVER] = 1
    if w0 and w1:
        st[T_KW + K_F_PRESTIGE_BEATS] += pr0 != pr1
        if w[C_PRESTIGE_BEATS] and pr0 != pr1:
            st[S_WINNER] = 0 if pr0 else 1
            st[S_END] = END_PRESTIGE
        else:
            st[S_WINNER] = DRAW
            st[S_END] = END_BOTH
    elif w0:
        st[S_WINNER] = 0
        st[S_END] = END_PRESTIGE if pr0 else (END_WIPEOUT if wipe0 else END_DECKED)
    else:
        st[S_WINNER] = 1
        st[S_END] = END_PRESTIGE if pr1 else (END_WIPEOUT if wipe1 else END_DECKED)
