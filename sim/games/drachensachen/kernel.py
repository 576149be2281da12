"""Drachensachen numba kernel: whole games (rounds until someone has lost enough coins) from one seed.

Layout. Nearly all state lives in one int64 array `st` at the S_* / ST_* offsets below, so helpers take
few arguments. A player's own cards are counted by type in their row of `v` (the row strategies read as
their view); face-down cards stay in deal order in `st[ST_HIDDEN + p * MAX_HIDDEN + i]` and are played
from the end. Strategies are called only from `play_round` and `deal_round`.

Speed and compile time (both measured): helpers are compiled without reference counting (`_nrt=False`;
only `play_batch` allocates), which removes the atomic increments that dominated a turn; every helper has
an explicit signature, so numba compiles it once instead of once per combination of constant arguments;
and only the four turn helpers (`phase_moves`, `settle_counts`, `act`, `apply_play`) and `fill_view` are
inlined into their callers, which saves about 15% of a turn's instructions for a few seconds of compiling.
"""

import numpy as np
from numba import njit, types

from sim.engine import rng as fastrng
from sim.games.drachensachen.records import (
    AB_BALL, AB_ENVY, AB_GOLD, AB_NULLO_QUICK, AB_ONE_ON_NINE, AB_ROUNDABOUT, AB_SECRETS, C_ROUNDS, C_TRACE,
    CURSE_CHAOS, CURSE_MANY, CURSE_UNKNOWING, EXTERMINO, G_BALLS, G_BLIND_FAILS, G_BURNS, G_CHECK_FAILS,
    G_CURSES, G_DISCARDS, G_DRAWN, G_ENVY, G_EXTERMINOS, G_FIRST_STARTER, G_FIVES, G_FOURS, G_LOSER,
    G_LOSER_LOST, G_LOST0, G_MAX_TURNS, G_NULLOS, G_PICKUPS, G_PLAYS, G_POS_LOST0, G_PROTECTOS, G_REVERSALS,
    G_ROUNDS, G_SECRETS, G_SIXES, G_SKIPS, G_STALEMATE, G_STALEMATE_ROUNDS, G_STARTER_OUT, G_THREES,
    G_TURNS, G_VIOLATIONS, G_WINNER, G_WINNER_LOST, K_BLIND, K_DISCARD, K_DRAW, K_KEEP, K_MISS, K_OPTION,
    K_PEEK, K_PLAY, K_SWAP, K_TAKE, MAX_DECK, MAX_HIDDEN, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_ABILITIES,
    N_GAME_COLS, N_RINT, N_TYPES, NULLO, P_LOST, P_OUT, P_PICKUPS, P_WON, PH_BALL, PH_DRAW, PH_PLAY, PH_SECRET,
    PH_SETUP, PH_SKIP, PH_TURN, PRESET_HEAD, PROTECTO, R_ABILITIES_FROM_START, R_ABILITY0, R_CURSE_CHAOS,
    R_CURSE_HAND, R_CURSE_HIDDEN, R_CURSE_MANY, R_CURSE_OPEN, R_CURSE_UNKNOWING, R_DRAGONS_CANCEL,
    R_END_LOSS, R_EXCHANGES, R_HAND, R_HIDDEN, R_HOUSE4, R_HOUSE5, R_HOUSE_PROTECTO, R_MAX_LOSS,
    R_MAX_ROUNDS, R_OPEN, R_PILE, R_REFILL, R_STALEMATE_SCORES, R_THREE_EQUAL, R_TURN_CAP, RD_GAME,
    RD_OUT, RD_PICKUPS, RD_POS_LOST0, RD_ROUND, RD_STARTER, RD_TURNS, SEAT_FNS, T_ABILITY, T_BALL,
    T_BLIND, T_CURSE, T_DECK, T_DISCARD, T_DRAW, T_ENVY, T_GAME_END, T_MISS, T_PEEK, T_PILE, T_PLAY,
    T_REFILL, T_ROUND, T_ROUND_END, T_SECRET, T_SETUP, T_SWAP, T_TAKE, T_TURN, V_BEAT, V_DECK_LEFT,
    V_DIRECTION, V_DRAW, V_FEWEST, V_HAND, V_HAND_N, V_HIDDEN_N, V_LOST, V_LOW3, V_MOST_LOST, V_NEXT_CARDS,
    V_NO_DRAGON, V_NO_NINE, V_OPEN, V_OPEN_N, V_PHASE, V_PILE_N, V_PLAYERS, V_PREV_CARDS, V_ROUND,
    V_RUN_N, V_RUN_TYPE, V_SEAT, V_SKIP, VIEW_LEN, V_STALL, V_MULTI_PROTECTO,
    R_FIVES_SPARE, R_DISCARD_FACING, R_EXTERMINO_STAYS, R_QUICK_MUST_PLAY, R_HOUSE5_PASS, R_HIDDEN_BACK,
    R_BACK_COINS,
    F_OPEN_SET, F_EXCHANGE, F_BLIND, F_DRAW_LIMIT, F_NO_NINE, F_NO_DRAGON, F_HOUSE4, F_HOUSE5, F_HOUSE_PROTECTO,
    F_CURSE_MANY, F_CURSE_UNKNOWING, F_CURSE_CHAOS, F_NULLO_QUICK, F_ENVY, F_ONE_ON_NINE, F_ROUNDABOUT, F_GOLD,
    F_FROM_START, F_THREE_EQUAL, F_DRAGONS_CANCEL, F_REFILL, F_STALEMATE_SCORES, F_FIVES_SPARE,
    F_DISCARD_FACING, F_EXTERMINO_STAYS, F_QUICK_MUST_PLAY, F_HOUSE5_PASS, F_HIDDEN_BACK,
)

# ---- the state array ------------------------------------------------------------------------------
# scalars
S_BEAT, S_LOW3, S_NO_DRAGON, S_NO_NINE, S_DRAW, S_SKIP, S_FORCED, S_RUN_T, S_RUN_N, S_PILE_N = range(10)
S_DRAW_POS, S_DRAW_END, S_DIR, S_PLAYERS, S_ROUND, S_TRACING, S_TPOS, S_DECK_N, S_PENDING, S_QN = range(10, 20)
# who played the 5s now pending; a quick Nullo's extra turn comes next / is this turn; progress marks
S_SKIP_SRC, S_QUICK, S_QUICK_TURN, S_LOWMARK, S_SINCE = range(20, 25)
ST_R = 32                                   # the rule ints (records.R_*)
ST_COUNTS = ST_R + N_RINT                   # the deck's card counts by type
ST_QUEUE = ST_COUNTS + N_TYPES              # trace rows waiting for `flush`, 8 ints each
ST_G = ST_QUEUE + 8 * 8                     # this game's output row (records.G_*)
ST_PILE = ST_G + N_GAME_COLS                # pile by type
ST_OUT = ST_PILE + N_TYPES                  # cards out of the round by type
ST_SCRATCH = ST_OUT + N_TYPES               # invariant check
ST_LOSS = ST_SCRATCH + N_TYPES              # this round's losses by seat
ST_LOST = ST_LOSS + MAX_PLAYERS             # coins lost so far by seat
ST_SIZE = ST_LOST + MAX_PLAYERS             # this round's hand, hidden, open by seat
ST_CURSE = ST_SIZE + 3 * MAX_PLAYERS        # curse for the next round by seat (-1 none)
ST_ACTIVE = ST_CURSE + MAX_PLAYERS          # abilities in play
ST_ORDER = ST_ACTIVE + N_ABILITIES          # order the enabled abilities join in
ST_PICK = ST_ORDER + N_ABILITIES            # pile pick-ups by seat
ST_WENT = ST_PICK + MAX_PLAYERS             # rounds each seat went out first
ST_HIDDEN = ST_WENT + MAX_PLAYERS           # face-down cards by seat
ST_REDRAW = ST_HIDDEN + MAX_PLAYERS * MAX_HIDDEN
ST_DECK = ST_REDRAW + MAX_DECK
ST_LEN = ST_DECK + MAX_DECK

# argument types of the helpers (explicit signatures: compiled once, no per-constant specialisations)
I = types.int64
B = types.boolean
ST = types.int64[::1]            # the state array
M2 = types.int64[:, ::1]         # moves and the view rows
A1 = types.int64[:]
A2 = types.int64[:, :]
A3 = types.int64[:, :, :]
F2 = types.float64[:, :]
TR = types.int16[:, :]
U1 = types.uint64[::1]
PAIR = types.UniTuple(types.int64, 2)

# what an action leads to
R_MORE, R_NEXT, R_EXTRA, R_OUT, R_MISSED = -1, 0, 1, 2, 3

ALL_TYPES = 0b1111111111110          # bits 1..12
PUSH_DRAW = (1 << 4) | (1 << PROTECTO)
CANCEL_DRAW = (1 << NULLO) | (1 << EXTERMINO)
PUSH_SKIP = 1 << PROTECTO
BIG = 1 << 40
MONSTERS = 0b1111111110                # bits 1..9
DRAGONS = (1 << NULLO) | (1 << EXTERMINO) | (1 << PROTECTO)
# index of the single set bit b (a power of two below 2**36) is BIT_INDEX[b % 37]
BIT_INDEX = np.zeros(37, np.int64)
for _i in range(36):
    BIT_INDEX[(1 << _i) % 37] = _i


# ---- small helpers -------------------------------------------------------------------------------

@njit(types.void(TR, ST, I, I, I, I, I, I, I, I), cache=True, _nrt=False)
def rec(tr, st, code, p, a, b, c, d, e, f):
    """Append a trace row when this game is traced (rows past the buffer are only counted)."""
    if st[S_TRACING] == 1:
        i = st[S_TPOS]
        if i < tr.shape[0]:
            tr[i, 0] = code
            tr[i, 1] = p
            tr[i, 2] = a
            tr[i, 3] = b
            tr[i, 4] = c
            tr[i, 5] = d
            tr[i, 6] = e
            tr[i, 7] = f
        st[S_TPOS] = i + 1


@njit(types.void(ST, I, I, I, I, I, I), cache=True, _nrt=False)
def queue(st, code, p, a, b, c, d):
    """Hold a trace row in the state until `flush` (keeps the trace array out of the hot helpers)."""
    if st[S_TRACING] == 1:
        i = ST_QUEUE + 8 * st[S_QN]
        st[i] = code
        st[i + 1] = p
        st[i + 2] = a
        st[i + 3] = b
        st[i + 4] = c
        st[i + 5] = d
        st[S_QN] += 1


@njit(types.void(TR, ST), cache=True, _nrt=False)
def flush(tr, st):
    for r in range(st[S_QN]):
        i = ST_QUEUE + 8 * r
        rec(tr, st, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5], 0, 0)
    st[S_QN] = 0


@njit(I(M2, I), cache=True, _nrt=False)
def cards_left(v, p):
    return v[p, V_HAND_N] + v[p, V_OPEN_N] + v[p, V_HIDDEN_N]


@njit(I(ST), cache=True, _nrt=False)
def legal_mask(st):
    """The card types that may go on the pile now, as bits 1..12."""
    beat = st[S_BEAT]
    if st[S_LOW3] == 1:
        m = 0b110 | (0b1000 if st[ST_R + R_THREE_EQUAL] == 1 else 0)
    else:
        m = MONSTERS & ~((1 << beat) - 1)
        if beat == 9 and st[ST_ACTIVE + AB_ONE_ON_NINE] == 1:
            m |= 0b10
    if st[S_NO_NINE] == 1:
        m &= ~(1 << 9)
    if st[S_NO_DRAGON] == 0:
        m |= DRAGONS
    return m


@njit(B(I, ST), cache=True, _nrt=False)
def fits(t, st):
    return (legal_mask(st) >> t) & 1 == 1


@njit(I(I, ST), cache=True, _nrt=False)
def step(p, st):
    """The next seat in the direction of play."""
    p += st[S_DIR]
    if p >= st[S_PLAYERS]:
        return p - st[S_PLAYERS]
    if p < 0:
        return p + st[S_PLAYERS]
    return p


@njit(I(M2, M2, ST, I, I), cache=True, _nrt=False, inline='always')
def phase_moves(moves, v, st, p, phase):
    """The options of a decision in a turn (see records.PH_*) into moves; returns how many."""
    n = 0
    hn = v[p, V_HAND_N]
    on = v[p, V_OPEN_N]
    for i in range(2):
        # rows without a card leave their other columns at 0
        moves[i, 1] = 0
        moves[i, 2] = 0
        moves[i, 3] = 0
    if phase == PH_SKIP:
        # about to miss a turn: miss it, or push it on with Protecto (or 5s under the house rule)
        moves[0, 0] = K_MISS
        n = 1
        mask = PUSH_SKIP | ((1 << 5) if st[ST_R + R_HOUSE5] == 1 else 0)
        if hn + on == 0:
            return n
    elif phase == PH_DRAW:
        # facing a draw: draw it, or push it with 4s / Protecto (peek under the house rule for 4s)
        moves[0, 0] = K_DRAW
        n = 1
        mask = PUSH_DRAW | (CANCEL_DRAW if st[ST_R + R_DRAGONS_CANCEL] == 1 else 0)
        if hn + on == 0:
            if st[ST_R + R_HOUSE4] == 1:
                moves[1, 0] = K_PEEK
                n = 2
            return n
    else:
        if hn + on == 0:
            moves[0, 0] = K_BLIND
            return 1
        mask = ALL_TYPES
    # one row per playable type from the current source (the hand while it has cards, then the open
    # Remainders) with the largest play allowed; a strategy may trim the counts of the row it picks
    base = V_HAND if hn > 0 else V_OPEN
    held = 0
    fours = 0
    for t in range(1, N_TYPES):
        held |= (v[p, base + t] > 0) << t
        fours |= (v[p, V_HAND + t] >= 4) << t
    st[ST_G + F_NO_NINE] += (held >> 9) & st[S_NO_NINE]
    st[ST_G + F_NO_DRAGON] += ((held & DRAGONS) != 0) & (st[S_NO_DRAGON] == 1)
    st[ST_G + F_THREE_EQUAL] += (held >> 3) & st[S_LOW3] & (mask >> 3)
    if phase == PH_DRAW:
        st[ST_G + F_DRAGONS_CANCEL] += (held & CANCEL_DRAW) != 0
    bits = held & mask & legal_mask(st)
    run_t = st[S_RUN_T]
    run_n = st[S_RUN_N]
    while bits != 0:
        low = bits & -bits
        bits ^= low
        t = BIT_INDEX[low % 37]
        c = v[p, base + t]
        room = 4 - run_n if run_t == t else 4
        moves[n, 0] = K_PLAY
        moves[n, 1] = t
        if hn > 0:
            moves[n, 2] = min(c, room)
            # the last hand cards may take matching open Remainders along
            moves[n, 3] = min(v[p, V_OPEN + t], room - c) if c == hn and c < room else 0
        else:
            moves[n, 2] = 0
            moves[n, 3] = min(c, room)
        n += 1
    facing = phase != PH_PLAY
    if facing and hn >= 4 and fours != 0:
        st[ST_G + F_DISCARD_FACING] += 1
    if not facing or st[ST_R + R_DISCARD_FACING] == 1:
        if hn >= 4:
            while fours != 0:
                low = fours & -fours
                fours ^= low
                moves[n, 0] = K_DISCARD
                moves[n, 1] = BIT_INDEX[low % 37]
                moves[n, 2] = 4
                moves[n, 3] = 0
                n += 1
    if phase == PH_PLAY:
        # the extra turn of a quick Nullo: under nullo_quick_must_play, taking the pile only when nothing fits
        quick = st[S_QUICK_TURN] == 1 and n > 0 and st[S_PILE_N] > 0
        st[ST_G + F_QUICK_MUST_PLAY] += quick
        if (st[S_PILE_N] > 0 or n == 0) and not (quick and st[ST_R + R_QUICK_MUST_PLAY] == 1):
            moves[n, 0] = K_TAKE
            moves[n, 1] = 0
            moves[n, 2] = 0
            moves[n, 3] = 0
            n += 1
    return n


@njit(I(M2, I, M2, ST, I), cache=True, _nrt=False, inline='always')
def settle_counts(moves, k, v, st, p):
    """Check the counts a strategy left in its play row; restore the largest play (returns 1) if illegal."""
    t = moves[k, 1]
    nh = moves[k, 2]
    no = moves[k, 3]
    hn = v[p, V_HAND_N]
    have = v[p, V_OPEN + t]
    room = 4 - st[S_RUN_N] if st[S_RUN_T] == t else 4
    if hn > 0:
        top = min(v[p, V_HAND + t], room)
        if no == 0 and 1 <= nh <= top:
            return 0
        whole = v[p, V_HAND + t] == hn and hn < room
        if whole and nh == hn and 1 <= no <= min(have, room - hn):
            return 0
        moves[k, 2] = top
        moves[k, 3] = min(have, room - hn) if whole else 0
        return 1
    if nh == 0 and 1 <= no <= min(have, room):
        return 0
    moves[k, 2] = 0
    moves[k, 3] = min(have, room)
    return 1


@njit(I(M2, M2, ST, I, I), cache=True, _nrt=False)
def ability_moves(moves, v, st, p, phase):
    """The options of an ability's choice (see records.PH_BALL / PH_SECRET / PH_TURN)."""
    n = 0
    if phase == PH_BALL:
        for q in range(st[S_PLAYERS]):
            if q != p:
                moves[n, 0] = K_OPTION
                moves[n, 1] = q
                moves[n, 2] = cards_left(v, q)
                n += 1
    elif phase == PH_SECRET:
        for c in range(1, N_TYPES):
            if v[p, V_OPEN + c] > 0:
                moves[n, 0] = K_OPTION
                moves[n, 1] = c
                moves[n, 2] = c
                n += 1
    else:
        moves[0, 0] = K_OPTION
        moves[0, 1] = 0
        moves[0, 2] = cards_left(v, step(p, st))
        st[S_DIR] = -st[S_DIR]
        moves[1, 0] = K_OPTION
        moves[1, 1] = 1
        moves[1, 2] = cards_left(v, step(p, st))
        st[S_DIR] = -st[S_DIR]
        n = 2
    return n


@njit(types.void(ST), cache=True, _nrt=False)
def reset_pile_state(st):
    for i in range(S_BEAT, S_PILE_N + 1):
        st[i] = 0


@njit(types.void(ST), cache=True, _nrt=False)
def remove_pile(st):
    """The pile leaves the round (burn, Extermino); its effects go with it."""
    for t in range(1, N_TYPES):
        st[ST_OUT + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    reset_pile_state(st)


@njit(types.void(M2, ST, I), cache=True, _nrt=False)
def take_pile(v, st, p):
    for t in range(1, N_TYPES):
        v[p, V_HAND + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    v[p, V_HAND_N] += st[S_PILE_N]
    reset_pile_state(st)
    st[ST_G + G_PICKUPS] += 1
    st[ST_PICK + p] += 1


@njit(I(M2, ST, I, I), cache=True, _nrt=False)
def draw_cards(v, st, p, k):
    """Up to k cards from the redraw pile into p's hand; returns how many there were."""
    drawn = 0
    while drawn < k and st[S_DRAW_POS] < st[S_DRAW_END]:
        t = st[ST_REDRAW + st[S_DRAW_POS]]
        st[S_DRAW_POS] += 1
        v[p, V_HAND + t] += 1
        v[p, V_HAND_N] += 1
        drawn += 1
    st[ST_G + F_DRAW_LIMIT] += drawn < k
    return drawn


@njit(types.void(M2, ST, I, I), cache=True, _nrt=False, inline='always')
def fill_view(v, st, p, phase):
    """Write the public part of p's view just before a decision (own cards are kept there already)."""
    players = st[S_PLAYERS]
    v[p, V_SEAT] = p
    v[p, V_PLAYERS] = players
    v[p, V_PHASE] = phase
    v[p, V_BEAT] = st[S_BEAT]
    v[p, V_LOW3] = st[S_LOW3]
    v[p, V_NO_DRAGON] = st[S_NO_DRAGON]
    v[p, V_NO_NINE] = st[S_NO_NINE]
    v[p, V_DRAW] = st[S_DRAW]
    v[p, V_SKIP] = st[S_SKIP]
    v[p, V_RUN_TYPE] = st[S_RUN_T]
    v[p, V_RUN_N] = st[S_RUN_N]
    v[p, V_PILE_N] = st[S_PILE_N]
    v[p, V_DECK_LEFT] = st[S_DRAW_END] - st[S_DRAW_POS]
    v[p, V_DIRECTION] = st[S_DIR]
    v[p, V_STALL] = st[S_SINCE]
    v[p, V_MULTI_PROTECTO] = st[ST_R + R_HOUSE_PROTECTO]
    nxt = step(p, st)
    prv = p - st[S_DIR]
    prv = prv - players if prv >= players else (prv + players if prv < 0 else prv)
    v[p, V_NEXT_CARDS] = v[nxt, V_HAND_N] + v[nxt, V_OPEN_N] + v[nxt, V_HIDDEN_N]
    v[p, V_PREV_CARDS] = v[prv, V_HAND_N] + v[prv, V_OPEN_N] + v[prv, V_HIDDEN_N]
    fewest = BIG
    most = -BIG
    for q in range(players):
        if q != p:
            fewest = min(fewest, v[q, V_HAND_N] + v[q, V_OPEN_N] + v[q, V_HIDDEN_N])
            most = max(most, st[ST_LOST + q])
    v[p, V_FEWEST] = fewest
    v[p, V_MOST_LOST] = most
    v[p, V_ROUND] = st[S_ROUND]
    v[p, V_LOST] = st[ST_LOST + p]


# ---- actions -------------------------------------------------------------------------------------

@njit(I(M2, ST, I, I, I, I, I), cache=True, _nrt=False, inline='always')
def apply_play(v, st, p, t, nh, no, nb):
    """Cards of type t leave p (nh from hand, no open, nb face-down already removed) onto the pile."""
    v[p, V_HAND + t] -= nh
    v[p, V_HAND_N] -= nh
    v[p, V_OPEN + t] -= no
    v[p, V_OPEN_N] -= no
    k = nh + no + nb
    st[ST_PILE + t] += k
    st[S_PILE_N] += k
    st[ST_G + G_PLAYS] += 1
    st[ST_G + F_ONE_ON_NINE] += (t == 1) & (st[S_BEAT] == 9) & (st[S_LOW3] == 0)
    if v[p, V_HAND_N] + v[p, V_OPEN_N] + v[p, V_HIDDEN_N] == 0:
        return R_OUT
    if st[S_RUN_T] == t:
        st[S_RUN_N] += k
    else:
        st[S_RUN_T] = t
        st[S_RUN_N] = k
    res = R_NEXT
    if st[S_RUN_N] >= 4:
        remove_pile(st)
        st[ST_G + G_BURNS] += 1
        res = R_EXTRA
    elif t == EXTERMINO:
        remove_pile(st)
        st[ST_G + G_EXTERMINOS] += 1
        st[ST_G + F_EXTERMINO_STAYS] += 1
        if st[ST_R + R_EXTERMINO_STAYS] == 1:
            # the Extermino cards stay as the new pile (a dragon on top: no 9)
            st[ST_OUT + EXTERMINO] -= k
            st[ST_PILE + EXTERMINO] = k
            st[S_PILE_N] = k
            st[S_RUN_T] = EXTERMINO
            st[S_RUN_N] = k
            st[S_NO_NINE] = 1
        res = R_EXTRA
    elif t == PROTECTO:
        # the next player faces what this one faced, with a dragon on top
        st[S_NO_NINE] = 1
        st[ST_G + G_PROTECTOS] += 1
        if st[ST_R + R_HOUSE_PROTECTO] == 1 and k > 1:
            st[S_FORCED] = k - 1
            st[ST_G + F_HOUSE_PROTECTO] += 1
    elif t == NULLO:
        st[S_BEAT] = 0
        st[S_LOW3] = 0
        st[S_NO_DRAGON] = 0
        st[S_NO_NINE] = 1
        st[S_DRAW] = 0
        st[ST_G + G_NULLOS] += 1
        if st[ST_ACTIVE + AB_NULLO_QUICK] == 1:
            res = R_EXTRA
            st[S_QUICK] = 1
            st[ST_G + F_NULLO_QUICK] += 1
    else:
        st[S_BEAT] = t
        st[S_LOW3] = 1 if t == 3 else 0
        st[S_NO_DRAGON] = 1 if t == 6 else 0
        st[S_NO_NINE] = 0
        if t == 4:
            st[S_DRAW] += 2 * k
            st[ST_G + G_FOURS] += 1
        elif t == 5:
            if st[S_SKIP] > 0:
                # house rule for 5s: a player about to miss a turn pushes it on
                st[ST_G + F_HOUSE5] += 1
                st[ST_G + F_HOUSE5_PASS] += 1
                if st[ST_R + R_HOUSE5_PASS] == 0:
                    st[S_SKIP] += k
            else:
                st[S_SKIP] += k
            st[S_SKIP_SRC] = p
            st[ST_G + G_FIVES] += 1
        elif t == 3:
            st[ST_G + G_THREES] += 1
        elif t == 6:
            st[ST_G + G_SIXES] += 1
    # abilities: Envious Monsters acts at once; the others wait for their player's choice
    if t >= NULLO and st[ST_ACTIVE + AB_ENVY] == 1:
        st[ST_G + F_ENVY] += 1
        got = draw_cards(v, st, p, 1)
        st[ST_G + G_ENVY] += got
        queue(st, T_ENVY, p, got, 0, 0, 0)
    if t == 2 and st[ST_ACTIVE + AB_BALL] == 1 and v[p, V_HAND_N] > 0:
        st[S_PENDING] = PH_BALL
    elif t == 9 and st[ST_ACTIVE + AB_SECRETS] == 1 and v[p, V_OPEN_N] > 0:
        st[S_PENDING] = PH_SECRET
    elif t == 7 and st[ST_ACTIVE + AB_ROUNDABOUT] == 1:
        st[S_PENDING] = PH_TURN
        st[ST_G + F_ROUNDABOUT] += 1
    return res


@njit(I(M2, ST, I, I, I, I), cache=True, _nrt=False)
def resolve_ability(v, st, p, phase, option, res):
    """Carry out an ability's chosen option after the play that triggered it."""
    if phase == PH_BALL:
        r = np.random.randint(0, v[p, V_HAND_N])
        c = 1
        while r >= v[p, V_HAND + c]:
            r -= v[p, V_HAND + c]
            c += 1
        v[p, V_HAND + c] -= 1
        v[p, V_HAND_N] -= 1
        v[option, V_HAND + c] += 1
        v[option, V_HAND_N] += 1
        st[ST_G + G_BALLS] += 1
        queue(st, T_BALL, p, option, c, 0, 0)
        if cards_left(v, p) == 0:
            return R_OUT
    elif phase == PH_SECRET:
        v[p, V_OPEN + option] -= 1
        v[p, V_OPEN_N] -= 1
        v[p, V_HAND + option] += 1
        v[p, V_HAND_N] += 1
        st[ST_G + G_SECRETS] += 1
        queue(st, T_SECRET, p, option, 0, 0, 0)
    else:
        queue(st, T_TURN, p, option, 0, 0, 0)
        if option == 1:
            st[ST_G + G_REVERSALS] += 1
            if st[S_PLAYERS] == 2:
                if res == R_NEXT:
                    res = R_EXTRA
            else:
                st[S_DIR] = -st[S_DIR]
    return res


@njit(I(M2, ST, I), cache=True, _nrt=False)
def face_down(v, st, p):
    """Remove and return p's top face-down card."""
    hn = v[p, V_HIDDEN_N] - 1
    v[p, V_HIDDEN_N] = hn
    return st[ST_HIDDEN + p * MAX_HIDDEN + hn]


@njit(types.void(M2, ST, I, I), cache=True, _nrt=False)
def fail_blind(v, st, p, c):
    """A face-down card that does not fit goes onto the pile, and the pile into the hand."""
    st[ST_PILE + c] += 1
    st[S_PILE_N] += 1
    st[ST_G + G_BLIND_FAILS] += 1
    take_pile(v, st, p)


@njit(I(M2, I, M2, ST, I), cache=True, _nrt=False, inline='always')
def act(moves, k, v, st, p):
    """Carry out option k of a turn's decision; returns what it leads to (R_MORE: decide again)."""
    kind = moves[k, 0]
    t = moves[k, 1]
    nh = 0
    no = 0
    if kind == K_PLAY:
        nh = moves[k, 2]
        no = moves[k, 3]
        st[ST_G + F_OPEN_SET] += (nh > 0) & (no > 0)
        queue(st, T_PLAY, p, t, nh, no, 0)
    elif kind == K_TAKE:
        queue(st, T_TAKE, p, st[S_PILE_N], 0, 0, 0)
        take_pile(v, st, p)
        return R_NEXT
    elif kind == K_DISCARD:
        # a set of four from the hand leaves the round; the turn goes on
        v[p, V_HAND + t] -= 4
        v[p, V_HAND_N] -= 4
        st[ST_OUT + t] += 4
        st[ST_G + G_DISCARDS] += 1
        queue(st, T_DISCARD, p, t, 0, 0, 0)
        return R_OUT if cards_left(v, p) == 0 else R_MORE
    elif kind == K_DRAW:
        due = st[S_DRAW]
        got = draw_cards(v, st, p, due)
        st[S_DRAW] = 0
        st[ST_G + G_DRAWN] += got
        queue(st, T_DRAW, p, due, got, 0, 0)
        return R_MORE
    elif kind == K_MISS:
        st[S_SKIP] -= 1
        st[ST_G + G_SKIPS] += 1
        queue(st, T_MISS, p, 0, 0, 0, 0)
        return R_MISSED
    elif kind == K_BLIND:
        t = face_down(v, st, p)
        st[ST_G + F_BLIND] += 1
        if not fits(t, st):
            queue(st, T_BLIND, p, t, 0, 0, 0)
            fail_blind(v, st, p, t)
            return R_NEXT
        queue(st, T_BLIND, p, t, 1, 0, 0)
    else:
        # K_PEEK, house rule for 4s: push with the card, or draw and then play it blind
        t = face_down(v, st, p)
        st[ST_G + F_HOUSE4] += 1
        st[ST_G + F_DRAGONS_CANCEL] += t == NULLO or t == EXTERMINO
        cancel = st[ST_R + R_DRAGONS_CANCEL] == 1 and (t == NULLO or t == EXTERMINO)
        if (t == 4 or t == PROTECTO or cancel) and fits(t, st):
            queue(st, T_PEEK, p, t, 0, 0, 0)
        else:
            got = draw_cards(v, st, p, st[S_DRAW])
            st[S_DRAW] = 0
            st[ST_G + G_DRAWN] += got
            if not fits(t, st):
                queue(st, T_PEEK, p, t, 2, got, 0)
                fail_blind(v, st, p, t)
                return R_NEXT
            queue(st, T_PEEK, p, t, 1, got, 0)
    nb = 0 if kind == K_PLAY else 1
    return apply_play(v, st, p, t, nh, no, nb)


# ---- invariants ----------------------------------------------------------------------------------

@njit(I(M2, ST), cache=True, _nrt=False)
def count_faults(v, st):
    """Every card of the deck is in exactly one place, and the counters agree with the cards."""
    bad = 0
    pile_n = 0
    for t in range(N_TYPES):
        st[ST_SCRATCH + t] = st[ST_PILE + t] + st[ST_OUT + t]
        pile_n += st[ST_PILE + t]
    bad += pile_n != st[S_PILE_N]
    for q in range(st[S_PLAYERS]):
        hn = 0
        on = 0
        for t in range(1, N_TYPES):
            h = v[q, V_HAND + t]
            o = v[q, V_OPEN + t]
            bad += h < 0 or o < 0
            hn += h
            on += o
            st[ST_SCRATCH + t] += h + o
        bad += hn != v[q, V_HAND_N] or on != v[q, V_OPEN_N]
        for i in range(v[q, V_HIDDEN_N]):
            st[ST_SCRATCH + st[ST_HIDDEN + q * MAX_HIDDEN + i]] += 1
    for i in range(st[S_DRAW_POS], st[S_DRAW_END]):
        st[ST_SCRATCH + st[ST_REDRAW + i]] += 1
    bad += st[ST_SCRATCH] != 0
    for t in range(1, N_TYPES):
        bad += st[ST_SCRATCH + t] != st[ST_COUNTS + t]
    bad += st[S_RUN_N] < 0 or st[S_RUN_N] > 3 or st[S_DRAW] < 0 or st[S_SKIP] < 0 or st[S_FORCED] < 0
    return bad


# ---- a round -------------------------------------------------------------------------------------

@njit(I(ST, I), cache=True, _nrt=False)
def deck_card(st, i):
    """Card i of the shuffled deck (0 past its end)."""
    return st[ST_DECK + i] if i < st[S_DECK_N] else 0


@njit(types.void(I, I, I, A1, M2, ST, M2, A1, SEAT_FNS, F2, TR, U1), cache=True, _nrt=False)
def deal_round(rnd, starter, chaos, preset, v, st, moves, rint, setup_fns, params, tr, state):
    """Shuffle, deal, lay out the redraw pile, and let everyone make their exchanges."""
    players = st[S_PLAYERS]
    deck_n = st[S_DECK_N]
    is_preset = rnd == 0 and preset.size > 0
    if is_preset:
        for i in range(deck_n):
            st[ST_DECK + i] = preset[PRESET_HEAD + i]
    else:
        # only the cards that come into play need a random order: shuffle that many from the front
        used = deck_n if chaos == 1 else 0
        for p in range(players):
            used += st[ST_SIZE + 3 * p] + st[ST_SIZE + 3 * p + 1] + st[ST_SIZE + 3 * p + 2]
        used = min(deck_n - 1, used + rint[R_PILE])
        for i in range(used):
            j = ST_DECK + i + fastrng.below(state, deck_n - i)
            c = st[ST_DECK + i]
            st[ST_DECK + i] = st[j]
            st[j] = c
    rec(tr, st, T_ROUND, starter, rnd, chaos, 1 if is_preset else 0, 0, 0, 0)
    if st[S_TRACING] == 1:
        for p in range(players):
            rec(tr, st, T_SETUP, p, st[ST_SIZE + 3 * p], st[ST_SIZE + 3 * p + 1], st[ST_SIZE + 3 * p + 2],
                0, 0, 0)
        for i in range(0, deck_n, 6):
            rec(tr, st, T_DECK, i, deck_card(st, i), deck_card(st, i + 1), deck_card(st, i + 2),
                deck_card(st, i + 3), deck_card(st, i + 4), deck_card(st, i + 5))
    for t in range(N_TYPES):
        st[ST_PILE + t] = 0
        st[ST_OUT + t] = 0
    reset_pile_state(st)
    pos = ST_DECK
    for p in range(players):
        for t in range(VIEW_LEN):
            v[p, t] = 0
        n_hidden = st[ST_SIZE + 3 * p + 1]
        for i in range(n_hidden):
            st[ST_HIDDEN + p * MAX_HIDDEN + i] = st[pos]
            pos += 1
        v[p, V_HIDDEN_N] = n_hidden
        v[p, V_OPEN_N] = st[ST_SIZE + 3 * p + 2]
        for i in range(v[p, V_OPEN_N]):
            v[p, V_OPEN + st[pos]] += 1
            pos += 1
        v[p, V_HAND_N] = st[ST_SIZE + 3 * p]
        for i in range(v[p, V_HAND_N]):
            v[p, V_HAND + st[pos]] += 1
            pos += 1
    rest = ST_DECK + deck_n - pos
    n_pile = rest if chaos == 1 else min(rint[R_PILE], rest)
    for i in range(n_pile):
        st[ST_REDRAW + i] = st[pos]
        pos += 1
    st[S_DRAW_POS] = 0
    st[S_DRAW_END] = n_pile
    rec(tr, st, T_PILE, -1, n_pile, 0, 0, 0, 0, 0)
    while pos < ST_DECK + deck_n:
        st[ST_OUT + st[pos]] += 1
        pos += 1
    st[S_DIR] = 1
    st[S_ROUND] = rnd
    for e in range(rint[R_EXCHANGES]):
        for p in range(players):
            moves[0, 0] = K_KEEP
            n = 1
            open_types = 0
            for ot in range(1, N_TYPES):
                open_types |= (v[p, V_OPEN + ot] > 0) << ot
            for ht in range(1, N_TYPES):
                if v[p, V_HAND + ht] > 0:
                    others = open_types & ~(1 << ht)
                    while others != 0:
                        low = others & -others
                        others ^= low
                        moves[n, 0] = K_SWAP
                        moves[n, 1] = ht
                        moves[n, 2] = BIT_INDEX[low % 37]
                        n += 1
            k = 0
            if n > 1:
                fill_view(v, st, p, PH_SETUP)
                k = setup_fns[p](moves, n, v[p], params[p])
                if k < 0 or k >= n:
                    st[ST_G + G_VIOLATIONS] += 1
                    k = 0
            if moves[k, 0] == K_SWAP:
                ht = moves[k, 1]
                ot = moves[k, 2]
                v[p, V_HAND + ht] -= 1
                v[p, V_OPEN + ht] += 1
                v[p, V_OPEN + ot] -= 1
                v[p, V_HAND + ot] += 1
                st[ST_G + F_EXCHANGE] += 1
                rec(tr, st, T_SWAP, p, ht, ot, 0, 0, 0, 0)


@njit(PAIR(I, M2, ST, M2, SEAT_FNS, SEAT_FNS, F2, TR, B), cache=True, _nrt=False)
def play_round(starter, v, st, moves, play_fns, choice_fns, params, tr, check):
    """Turns until someone has no cards left (returns them) or the turn cap (returns -1)."""
    p = starter
    turns = 0
    cap = st[ST_R + R_TURN_CAP]
    refill = st[ST_R + R_REFILL] == 1
    st[S_QUICK] = 0
    st[S_LOWMARK] = BIG
    st[S_SINCE] = 0
    while True:
        turns += 1
        if turns > cap:
            return -1, turns - 1
        st[ST_G + G_TURNS] += 1
        st[S_QUICK_TURN] = st[S_QUICK]
        st[S_QUICK] = 0
        if st[S_FORCED] > 0:
            # skipped by several Protectos: no answer possible
            st[S_FORCED] -= 1
            st[ST_G + G_SKIPS] += 1
            rec(tr, st, T_MISS, p, 1, 0, 0, 0, 0, 0)
            p = step(p, st)
            continue
        if st[S_SKIP] > 0 and p == st[S_SKIP_SRC]:
            # the misses from this player's own 5s have come round to them
            st[ST_G + F_FIVES_SPARE] += 1
            if st[ST_R + R_FIVES_SPARE] == 1:
                st[S_SKIP] = 0
        phase = PH_SKIP if st[S_SKIP] > 0 else (PH_DRAW if st[S_DRAW] > 0 else PH_PLAY)
        res = R_MORE
        while res == R_MORE:
            n = phase_moves(moves, v, st, p, phase)
            k = 0
            # a lone play row still leaves a choice when it can take more than one card
            if n > 1 or (moves[0, 0] == K_PLAY and moves[0, 2] + moves[0, 3] > 1):
                fill_view(v, st, p, phase)
                k = play_fns[p](moves, n, v[p], params[p])
                if k < 0 or k >= n:
                    st[ST_G + G_VIOLATIONS] += 1
                    k = 0
                if moves[k, 0] == K_PLAY:
                    st[ST_G + G_VIOLATIONS] += settle_counts(moves, k, v, st, p)
            res = act(moves, k, v, st, p)
            if moves[k, 0] != K_DISCARD:
                phase = PH_PLAY
            if st[S_PENDING] > 0:
                pend = st[S_PENDING]
                st[S_PENDING] = 0
                if res != R_OUT:
                    n = ability_moves(moves, v, st, p, pend)
                    k = 0
                    if n > 1:
                        fill_view(v, st, p, pend)
                        k = choice_fns[p](moves, n, v[p], params[p])
                        if k < 0 or k >= n:
                            st[ST_G + G_VIOLATIONS] += 1
                            k = 0
                    res = resolve_ability(v, st, p, pend, moves[k, 1], res)
            if st[S_QN] > 0:
                flush(tr, st)
        if res == R_OUT:
            return p, turns
        if res != R_MISSED and v[p, V_HAND_N] < st[ST_SIZE + 3 * p] and st[S_DRAW_POS] < st[S_DRAW_END]:
            st[ST_G + F_REFILL] += 1
            if refill:
                got = draw_cards(v, st, p, st[ST_SIZE + 3 * p] - v[p, V_HAND_N])
                rec(tr, st, T_REFILL, p, got, 0, 0, 0, 0, 0)
        # progress: a new lowest card count this round (no new low for long = play is going round in circles)
        c = cards_left(v, p)
        if c < st[S_LOWMARK]:
            st[S_LOWMARK] = c
            st[S_SINCE] = 0
        else:
            st[S_SINCE] += 1
        if check:
            st[ST_G + G_CHECK_FAILS] += count_faults(v, st)
        if res != R_EXTRA:
            p = step(p, st)


@njit(I(M2, I, ST, A1, I), cache=True, _nrt=False)
def round_loss(v, q, st, coins, cap):
    """Coins a player pays for the cards they still hold, at most `cap`."""
    s = 0
    for t in range(1, N_TYPES):
        s += (v[q, V_HAND + t] + v[q, V_OPEN + t]) * coins[t]
    eights = v[q, V_HAND + 8] + v[q, V_OPEN + 8]
    st[ST_G + F_HIDDEN_BACK] += v[q, V_HIDDEN_N]
    if st[ST_R + R_HIDDEN_BACK] == 1:
        # face-down cards pay the coins of the card back, whatever their face
        s += v[q, V_HIDDEN_N] * st[ST_R + R_BACK_COINS]
    else:
        for i in range(v[q, V_HIDDEN_N]):
            c = st[ST_HIDDEN + q * MAX_HIDDEN + i]
            s += coins[c]
            eights += c == 8
    if st[ST_ACTIVE + AB_GOLD] == 1:
        s -= 2 * eights * coins[8]
        st[ST_G + F_GOLD] += eights
    return min(s, cap)


@njit(I(I, I, ST, A1), cache=True, _nrt=False)
def pick_starter(rnd, last, st, preset):
    """Random in the first round; then most coins lost, ties to the left of the last starter."""
    players = st[S_PLAYERS]
    if rnd == 0:
        if preset.size > 0:
            return preset[0]
        return np.random.randint(0, players)
    best = -BIG
    who = last
    for i in range(1, players + 1):
        q = (last + i) % players
        if st[ST_LOST + q] > best:
            best = st[ST_LOST + q]
            who = q
    return who


@njit(I(A1, B), cache=True, _nrt=False)
def draw_curse(rint, include_chaos):
    """A random curse among the enabled ones (-1 if none)."""
    n = rint[R_CURSE_MANY] + rint[R_CURSE_UNKNOWING] + (rint[R_CURSE_CHAOS] if include_chaos else 0)
    if n == 0:
        return -1
    r = np.random.randint(0, n)
    if rint[R_CURSE_MANY] == 1:
        if r == 0:
            return CURSE_MANY
        r -= 1
    if rint[R_CURSE_UNKNOWING] == 1 and r == 0:
        return CURSE_UNKNOWING
    return CURSE_CHAOS


@njit(I(I, ST, A1, A1, TR), cache=True, _nrt=False)
def round_sizes(rnd, st, rint, preset, tr):
    """Hand, hidden and open counts of each seat this round, after curses; returns 1 under Chaos."""
    players = st[S_PLAYERS]
    chaos = 0
    for q in range(players):
        if st[ST_CURSE + q] == CURSE_CHAOS:
            chaos = 1
    st[ST_G + F_CURSE_CHAOS] += chaos
    for q in range(players):
        curse = st[ST_CURSE + q]
        if chaos == 1:
            curse = draw_curse(rint, False)
            if curse >= 0:
                rec(tr, st, T_CURSE, q, curse, 0, 0, 0, 0, 0)
        s = ST_SIZE + 3 * q
        st[ST_G + F_CURSE_MANY] += curse == CURSE_MANY
        st[ST_G + F_CURSE_UNKNOWING] += curse == CURSE_UNKNOWING
        st[s] = rint[R_CURSE_HAND] if curse == CURSE_MANY else rint[R_HAND]
        st[s + 1] = rint[R_CURSE_HIDDEN] if curse == CURSE_UNKNOWING else rint[R_HIDDEN]
        st[s + 2] = rint[R_CURSE_OPEN] if curse == CURSE_UNKNOWING else rint[R_OPEN]
        if rnd == 0 and preset.size > 0:
            st[s] = preset[1 + 3 * q]
            st[s + 1] = preset[2 + 3 * q]
            st[s + 2] = preset[3 + 3 * q]
        st[ST_CURSE + q] = -1
    return chaos


# ---- a game and a batch --------------------------------------------------------------------------

@njit(PAIR(ST, A1, TR), cache=True, _nrt=False)
def start_game(st, rint, tr):
    """Clear the game's counters; put the enabled abilities in a random order (all active if from the start)."""
    for i in range(ST_G, ST_PILE):
        st[i] = 0
    for q in range(MAX_PLAYERS):
        st[ST_LOST + q] = 0
        st[ST_CURSE + q] = -1
        st[ST_PICK + q] = 0
        st[ST_WENT + q] = 0
    n_enabled = 0
    for a in range(N_ABILITIES):
        st[ST_ACTIVE + a] = 0
        if rint[R_ABILITY0 + a] == 1:
            st[ST_ORDER + n_enabled] = a
            n_enabled += 1
    for i in range(n_enabled - 1, 0, -1):
        j = ST_ORDER + np.random.randint(0, i + 1)
        c = st[ST_ORDER + i]
        st[ST_ORDER + i] = st[j]
        st[j] = c
    n_active = 0
    if rint[R_ABILITIES_FROM_START] == 1:
        while n_active < n_enabled:
            st[ST_ACTIVE + st[ST_ORDER + n_active]] = 1
            rec(tr, st, T_ABILITY, -1, st[ST_ORDER + n_active], 0, 0, 0, 0, 0)
            n_active += 1
    st[ST_G + F_FROM_START] = n_active
    return n_enabled, n_active


@njit(types.void(I, I, I, I, I, I, M2, ST, A1, A1, A2, A1, TR), cache=True, _nrt=False)
def score_round(g, rnd, starter, out, turns, pickups_before, v, st, rint, coins, rounds_out, counters, tr):
    """Coins for the round just played; one row of the rounds table."""
    players = st[S_PLAYERS]
    scored = out >= 0 or rint[R_STALEMATE_SCORES] == 1
    for q in range(MAX_PLAYERS):
        st[ST_LOSS + q] = 0
    if scored:
        for q in range(players):
            st[ST_LOSS + q] = round_loss(v, q, st, coins, rint[R_MAX_LOSS])
            st[ST_LOST + q] += st[ST_LOSS + q]
        for k in range(players):
            st[ST_G + G_POS_LOST0 + k] += st[ST_LOSS + (starter + k) % players]
    if out < 0:
        st[ST_G + G_STALEMATE_ROUNDS] += 1
        st[ST_G + F_STALEMATE_SCORES] += 1
    else:
        st[ST_WENT + out] += 1
        if out == starter:
            st[ST_G + G_STARTER_OUT] += 1
    st[ST_G + G_ROUNDS] = rnd + 1
    st[ST_G + G_MAX_TURNS] = max(st[ST_G + G_MAX_TURNS], turns)
    rec(tr, st, T_ROUND_END, out, st[ST_LOSS], st[ST_LOSS + 1], st[ST_LOSS + 2], st[ST_LOSS + 3],
        st[ST_LOSS + 4], st[ST_LOSS + 5])
    i = counters[C_ROUNDS]
    if i < rounds_out.shape[0]:
        rounds_out[i, RD_GAME] = g
        rounds_out[i, RD_ROUND] = rnd
        rounds_out[i, RD_STARTER] = starter
        rounds_out[i, RD_OUT] = out
        rounds_out[i, RD_TURNS] = turns
        rounds_out[i, RD_PICKUPS] = st[ST_G + G_PICKUPS] - pickups_before
        for k in range(players):
            rounds_out[i, RD_POS_LOST0 + k] = st[ST_LOSS + (starter + k) % players]
    counters[C_ROUNDS] = i + 1


@njit(types.void(I, I, ST, A2, A3, TR), cache=True, _nrt=False)
def finish_game(g, rnd, st, games_out, players_out, tr):
    """The winner (fewest coins lost, none after the round cap), the loser, and the output rows."""
    players = st[S_PLAYERS]
    fewest = BIG
    for q in range(players):
        fewest = min(fewest, st[ST_LOST + q])
    winner = -1
    loser = 0
    for q in range(players):
        if st[ST_LOST + q] > st[ST_LOST + loser]:
            loser = q
        if st[ST_G + G_STALEMATE] == 0 and st[ST_LOST + q] == fewest:
            winner = q
    st[ST_G + G_WINNER] = winner
    st[ST_G + G_LOSER] = loser
    st[ST_G + G_WINNER_LOST] = st[ST_LOST + winner] if winner >= 0 else -1
    st[ST_G + G_LOSER_LOST] = st[ST_LOST + loser]
    for q in range(MAX_PLAYERS):
        st[ST_G + G_LOST0 + q] = st[ST_LOST + q] if q < players else -1
    for i in range(N_GAME_COLS):
        games_out[g, i] = st[ST_G + i]
    for q in range(players):
        players_out[g, q, P_LOST] = st[ST_LOST + q]
        players_out[g, q, P_WON] = 1 if q == winner else 0
        players_out[g, q, P_OUT] = st[ST_WENT + q]
        players_out[g, q, P_PICKUPS] = st[ST_PICK + q]
    rec(tr, st, T_GAME_END, winner, loser, rnd, 0, 0, 0, 0)


@njit(B(ST, A1), cache=True, _nrt=False)
def game_over(st, rint):
    """Someone has lost enough, and exactly one player has lost the fewest."""
    most = -BIG
    fewest = BIG
    for q in range(st[S_PLAYERS]):
        most = max(most, st[ST_LOST + q])
        fewest = min(fewest, st[ST_LOST + q])
    n_fewest = 0
    for q in range(st[S_PLAYERS]):
        n_fewest += st[ST_LOST + q] == fewest
    return most >= rint[R_END_LOSS] and n_fewest == 1


@njit(types.void(I, M2, ST, M2, A1, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A3, A2, A1, TR, B, U1), cache=True, _nrt=False)
def play_game(g, v, st, moves, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params,
              games_out, players_out, rounds_out, counters, tr, check, state):
    n_enabled, n_active = start_game(st, rint, tr)
    rnd = 0
    starter = 0
    while True:
        starter = pick_starter(rnd, starter, st, preset)
        if rnd == 0:
            st[ST_G + G_FIRST_STARTER] = starter
        chaos = round_sizes(rnd, st, rint, preset, tr)
        deal_round(rnd, starter, chaos, preset, v, st, moves, rint, setup_fns, params, tr, state)
        if check:
            st[ST_G + G_CHECK_FAILS] += count_faults(v, st)
        pickups_before = st[ST_G + G_PICKUPS]
        out, turns = play_round(starter, v, st, moves, play_fns, choice_fns, params, tr, check)
        if st[S_QN] > 0:
            flush(tr, st)
        score_round(g, rnd, starter, out, turns, pickups_before, v, st, rint, coins, rounds_out, counters, tr)
        rnd += 1
        if game_over(st, rint):
            break
        if rnd >= rint[R_MAX_ROUNDS]:
            st[ST_G + G_STALEMATE] = 1
            break
        if out >= 0:
            curse = draw_curse(rint, True)
            if curse >= 0:
                st[ST_CURSE + out] = curse
                st[ST_G + G_CURSES] += 1
                rec(tr, st, T_CURSE, out, curse, 0, 0, 0, 0, 0)
        if n_active < n_enabled:
            st[ST_ACTIVE + st[ST_ORDER + n_active]] = 1
            rec(tr, st, T_ABILITY, -1, st[ST_ORDER + n_active], 0, 0, 0, 0, 0)
            n_active += 1
    finish_game(g, rnd, st, games_out, players_out, tr)


BATCH_SIG = types.void(
    types.int64,              # seed
    types.int64,              # games
    types.int64,              # players
    types.int64[:],           # rule ints (records.RINT_KEYS)
    types.int64[:],           # card counts by type
    types.int64[:],           # coins by type
    types.int64[:],           # preset deal (empty: shuffle)
    SEAT_FNS, SEAT_FNS, SEAT_FNS,
    types.float64[:, :],      # params by seat
    types.int64[:, :],        # games out
    types.int64[:, :, :],     # players out
    types.int64[:, :],        # rounds out
    types.int16[:, :],        # trace rows
    types.int64[:],           # trace start row of each traced game (+1 end)
    types.int64[:],           # counters (records.C_*)
    types.boolean,            # check invariants
)


@njit(BATCH_SIG, cache=True)
def play_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params,
               games_out, players_out, rounds_out, trace, trace_start, counters, check):
    np.random.seed(seed)              # strategies and rare kernel draws use numba's generator
    state = fastrng.new_state(seed)   # shuffling uses the fast one
    st = np.zeros(ST_LEN, np.int64)
    deck_n = 0
    for t in range(1, N_TYPES):
        for i in range(counts[t]):
            st[ST_DECK + deck_n] = t
            deck_n += 1
    v = np.zeros((MAX_PLAYERS, VIEW_LEN), np.int64)
    moves = np.zeros((MAX_MOVES, MOVE_COLS), np.int64)
    st[S_PLAYERS] = players
    st[S_DECK_N] = deck_n
    for i in range(N_RINT):
        st[ST_R + i] = rint[i]
    for t in range(N_TYPES):
        st[ST_COUNTS + t] = counts[t]
    n_traced = trace_start.shape[0] - 1
    counters[C_ROUNDS] = 0
    for g in range(n):
        st[S_TRACING] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = st[S_TPOS]
        play_game(g, v, st, moves, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params,
                  games_out, players_out, rounds_out, counters, trace, check, state)
        if g < n_traced:
            trace_start[g + 1] = st[S_TPOS]
    counters[C_TRACE] = st[S_TPOS]
