"""Drachensachen numba kernel: whole games (rounds until someone has lost enough coins) from one seed.

State lives in preallocated arrays. A player's own cards are counted by type in their row of `v` (the
same row strategies read as their view); face-down cards are kept in deal order in `hidden` and played
from the end. Scalars (the pile's situation, the redraw pile's position, ...) live in `st` at S_*.
"""

import numpy as np
from numba import njit, types

from sim.games.drachensachen.records import (
    AB_BALL, AB_ENVY, AB_GOLD, AB_NULLO_QUICK, AB_ONE_ON_NINE, AB_ROUNDABOUT, AB_SECRETS, C_ROUNDS, C_TRACE,
    CURSE_CHAOS, CURSE_MANY, CURSE_UNKNOWING, EXTERMINO, FN, G_BALLS, G_BLIND_FAILS, G_BURNS,
    G_CHECK_FAILS, G_CURSES, G_DISCARDS, G_DRAWN, G_ENVY, G_EXTERMINOS, G_FIRST_STARTER, G_FIVES, G_FOURS,
    G_LOSER, G_LOSER_LOST, G_LOST0, G_MAX_TURNS, G_NULLOS, G_PICKUPS, G_PLAYS, G_POS_LOST0, G_PROTECTOS,
    G_REVERSALS, G_ROUNDS, G_SECRETS, G_SIXES, G_SKIPS, G_STALEMATE, G_STALEMATE_ROUNDS, G_STARTER_OUT,
    G_THREES, G_TURNS, G_VIOLATIONS, G_WINNER, G_WINNER_LOST, K_BLIND, K_DISCARD, K_DRAW, K_KEEP, K_MISS,
    K_OPTION, K_PEEK, K_PLAY, K_SWAP, K_TAKE, MAX_DECK, MAX_HIDDEN, MAX_MOVES, MAX_PLAYERS, MOVE_COLS,
    N_ABILITIES, N_TYPES, NULLO, P_LOST, P_OUT, P_PICKUPS, P_WON, PH_BALL, PH_DRAW, PH_PLAY, PH_SECRET,
    PH_SETUP, PH_SKIP, PH_TURN, PRESET_HEAD, PROTECTO, R_ABILITIES_FROM_START, R_ABILITY0, R_CURSE_CHAOS,
    R_CURSE_HAND, R_CURSE_HIDDEN, R_CURSE_MANY, R_CURSE_OPEN, R_CURSE_UNKNOWING, R_DRAGONS_CANCEL,
    R_END_LOSS, R_EXCHANGES, R_HAND, R_HIDDEN, R_HOUSE4, R_HOUSE5, R_HOUSE_PROTECTO, R_MAX_LOSS,
    R_MAX_ROUNDS, R_OPEN, R_PILE, R_REFILL, R_STALEMATE_SCORES, R_THREE_EQUAL, R_TURN_CAP, RD_GAME,
    RD_OUT, RD_PICKUPS, RD_POS_LOST0, RD_ROUND, RD_STARTER, RD_TURNS, SEAT_FNS, T_ABILITY, T_BALL,
    T_BLIND, T_CURSE, T_DECK, T_DISCARD, T_DRAW, T_ENVY, T_GAME_END, T_MISS, T_PEEK, T_PILE, T_PLAY,
    T_REFILL, T_ROUND, T_ROUND_END, T_SECRET, T_SETUP, T_SWAP, T_TAKE, T_TURN, V_BEAT, V_DECK_LEFT,
    V_DIRECTION, V_DRAW, V_FEWEST, V_HAND, V_HAND_N, V_HIDDEN_N, V_LOST, V_LOW3, V_MOST_LOST, V_NEXT_CARDS,
    V_NO_DRAGON, V_NO_NINE, V_OPEN, V_OPEN_N, V_PHASE, V_PILE_N, V_PLAYERS, V_PREV_CARDS, V_ROUND,
    V_RUN_N, V_RUN_TYPE, V_SEAT, V_SKIP, VIEW_LEN,
)

# scalar state
S_BEAT, S_LOW3, S_NO_DRAGON, S_NO_NINE, S_DRAW, S_SKIP, S_FORCED, S_RUN_T, S_RUN_N, S_PILE_N = range(10)
S_DRAW_POS, S_DRAW_END, S_DIR, S_PLAYERS, S_ROUND, S_TRACING, S_TPOS, S_DECK_N = range(10, 18)
N_STATE = 18

# what a play leads to
R_NEXT, R_EXTRA, R_OUT = 0, 1, 2

ALL_TYPES = 0b1111111111110          # bits 1..12
PUSH_DRAW = (1 << 4) | (1 << PROTECTO)
CANCEL_DRAW = (1 << NULLO) | (1 << EXTERMINO)
PUSH_SKIP = 1 << PROTECTO
BIG = 1 << 40


# ---- small helpers -------------------------------------------------------------------------------

@njit(cache=True)
def shuffle(a, n):
    """Fisher-Yates over the first n entries."""
    for i in range(n - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def rec(tr, st, code, p, a, b, c, d, e, f):
    """Append a trace row when this game is traced (rows past the buffer are only counted)."""
    if st[S_TRACING] == 1:
        i = st[S_TPOS]
        if i < tr.shape[0]:
            row = tr[i]
            row[0] = code
            row[1] = p
            row[2] = a
            row[3] = b
            row[4] = c
            row[5] = d
            row[6] = e
            row[7] = f
        st[S_TPOS] = i + 1


@njit(cache=True)
def cards_left(v, p):
    return v[p, V_HAND_N] + v[p, V_OPEN_N] + v[p, V_HIDDEN_N]


@njit(cache=True)
def is_legal(t, st, rint, active):
    """Whether a card of type t may go on the pile as it stands."""
    if t >= NULLO:
        return st[S_NO_DRAGON] == 0
    if t == 9 and st[S_NO_NINE] == 1:
        return False
    if st[S_LOW3] == 1:
        return t < 3 or (t == 3 and rint[R_THREE_EQUAL] == 1)
    if t >= st[S_BEAT]:
        return True
    return t == 1 and st[S_BEAT] == 9 and active[AB_ONE_ON_NINE] == 1


@njit(cache=True)
def room_for(t, st):
    """Cards of type t that fit before a run of four burns the pile."""
    if st[S_RUN_T] == t:
        return 4 - st[S_RUN_N]
    return 4


@njit(cache=True)
def add_move(moves, n, kind, t, h, o):
    m = moves[n]
    m[0] = kind
    m[1] = t
    m[2] = h
    m[3] = o
    return n + 1


@njit(cache=True)
def add_plays(moves, n, v, p, st, rint, active, mask):
    """Every legal play of the types in `mask` from the player's current source (hand, else open)."""
    hn = v[p, V_HAND_N]
    if hn > 0:
        for t in range(1, N_TYPES):
            c = v[p, V_HAND + t]
            if c == 0 or (mask >> t) & 1 == 0 or not is_legal(t, st, rint, active):
                continue
            room = room_for(t, st)
            for k in range(1, min(c, room) + 1):
                n = add_move(moves, n, K_PLAY, t, k, 0)
            if c == hn and c < room:
                # the last hand cards may take matching open Remainders along
                for j in range(1, min(v[p, V_OPEN + t], room - c) + 1):
                    n = add_move(moves, n, K_PLAY, t, c, j)
    elif v[p, V_OPEN_N] > 0:
        for t in range(1, N_TYPES):
            c = v[p, V_OPEN + t]
            if c == 0 or (mask >> t) & 1 == 0 or not is_legal(t, st, rint, active):
                continue
            for k in range(1, min(c, room_for(t, st)) + 1):
                n = add_move(moves, n, K_PLAY, t, 0, k)
    return n


@njit(cache=True)
def turn_moves(moves, v, p, st, rint, active):
    """A normal turn: plays, sets of four to put out, taking the pile; blind when only face-down cards are left."""
    if v[p, V_HAND_N] == 0 and v[p, V_OPEN_N] == 0:
        return add_move(moves, 0, K_BLIND, 0, 0, 0)
    n = add_plays(moves, 0, v, p, st, rint, active, ALL_TYPES)
    if v[p, V_HAND_N] >= 4:
        for t in range(1, N_TYPES):
            if v[p, V_HAND + t] >= 4:
                n = add_move(moves, n, K_DISCARD, t, 4, 0)
    if st[S_PILE_N] > 0 or n == 0:
        n = add_move(moves, n, K_TAKE, 0, 0, 0)
    return n


@njit(cache=True)
def draw_moves(moves, v, p, st, rint, active):
    """Facing a draw: draw it, or push it with 4s / Protecto (peek under the house rule for 4s)."""
    n = add_move(moves, 0, K_DRAW, 0, 0, 0)
    if v[p, V_HAND_N] > 0 or v[p, V_OPEN_N] > 0:
        mask = PUSH_DRAW
        if rint[R_DRAGONS_CANCEL] == 1:
            mask |= CANCEL_DRAW
        n = add_plays(moves, n, v, p, st, rint, active, mask)
    elif v[p, V_HIDDEN_N] > 0 and rint[R_HOUSE4] == 1:
        n = add_move(moves, n, K_PEEK, 0, 0, 0)
    return n


@njit(cache=True)
def skip_moves(moves, v, p, st, rint, active):
    """About to miss a turn: miss it, or push it with Protecto (or 5s under the house rule)."""
    n = add_move(moves, 0, K_MISS, 0, 0, 0)
    mask = PUSH_SKIP
    if rint[R_HOUSE5] == 1:
        mask |= 1 << 5
    return add_plays(moves, n, v, p, st, rint, active, mask)


@njit(cache=True)
def reset_pile_state(st):
    st[S_BEAT] = 0
    st[S_LOW3] = 0
    st[S_NO_DRAGON] = 0
    st[S_NO_NINE] = 0
    st[S_DRAW] = 0
    st[S_SKIP] = 0
    st[S_FORCED] = 0
    st[S_RUN_T] = 0
    st[S_RUN_N] = 0
    st[S_PILE_N] = 0


@njit(cache=True)
def remove_pile(pile, out_cnt, st):
    """The pile leaves the round (burn, Extermino); its effects go with it."""
    for t in range(1, N_TYPES):
        out_cnt[t] += pile[t]
        pile[t] = 0
    reset_pile_state(st)


@njit(cache=True)
def take_pile(v, p, pile, st, row, prow):
    for t in range(1, N_TYPES):
        v[p, V_HAND + t] += pile[t]
        pile[t] = 0
    v[p, V_HAND_N] += st[S_PILE_N]
    reset_pile_state(st)
    row[G_PICKUPS] += 1
    prow[p, P_PICKUPS] += 1


@njit(cache=True)
def draw_cards(v, p, k, redraw, st):
    """Up to k cards from the redraw pile into p's hand; returns how many there were."""
    drawn = 0
    while drawn < k and st[S_DRAW_POS] < st[S_DRAW_END]:
        t = redraw[st[S_DRAW_POS]]
        st[S_DRAW_POS] += 1
        v[p, V_HAND + t] += 1
        v[p, V_HAND_N] += 1
        drawn += 1
    return drawn


@njit(cache=True)
def fill_view(v, p, st, lost, phase):
    """Write the public part of p's view just before a decision (own cards are kept there already)."""
    players = st[S_PLAYERS]
    me = v[p]
    me[V_SEAT] = p
    me[V_PLAYERS] = players
    me[V_PHASE] = phase
    me[V_BEAT] = st[S_BEAT]
    me[V_LOW3] = st[S_LOW3]
    me[V_NO_DRAGON] = st[S_NO_DRAGON]
    me[V_NO_NINE] = st[S_NO_NINE]
    me[V_DRAW] = st[S_DRAW]
    me[V_SKIP] = st[S_SKIP]
    me[V_RUN_TYPE] = st[S_RUN_T]
    me[V_RUN_N] = st[S_RUN_N]
    me[V_PILE_N] = st[S_PILE_N]
    me[V_DECK_LEFT] = st[S_DRAW_END] - st[S_DRAW_POS]
    d = st[S_DIR]
    me[V_DIRECTION] = d
    me[V_NEXT_CARDS] = cards_left(v, (p + d) % players)
    me[V_PREV_CARDS] = cards_left(v, (p - d) % players)
    fewest = BIG
    most = -BIG
    for q in range(players):
        if q != p:
            fewest = min(fewest, cards_left(v, q))
            most = max(most, lost[q])
    me[V_FEWEST] = fewest
    me[V_MOST_LOST] = most
    me[V_ROUND] = st[S_ROUND]
    me[V_LOST] = lost[p]


@njit(cache=True)
def decide(fn, moves, n, v, p, params, st, lost, phase, row):
    """Ask a strategy (only when there is a choice); an out-of-range answer counts and plays move 0."""
    if n == 1:
        return 0
    fill_view(v, p, st, lost, phase)
    k = fn(moves, n, v[p], params[p])
    if k < 0 or k >= n:
        row[G_VIOLATIONS] += 1
        return 0
    return k


# ---- applying a play -----------------------------------------------------------------------------

@njit(cache=True)
def apply_play(v, p, t, nh, no, nb, pile, out_cnt, st, rint, active, redraw, moves, choice_fns, params,
               lost, row, tr):
    """Cards of type t leave p (nh from hand, no open, nb face-down already removed) onto the pile."""
    v[p, V_HAND + t] -= nh
    v[p, V_HAND_N] -= nh
    v[p, V_OPEN + t] -= no
    v[p, V_OPEN_N] -= no
    k = nh + no + nb
    pile[t] += k
    st[S_PILE_N] += k
    row[G_PLAYS] += 1
    if cards_left(v, p) == 0:
        return R_OUT
    if st[S_RUN_T] == t:
        st[S_RUN_N] += k
    else:
        st[S_RUN_T] = t
        st[S_RUN_N] = k
    res = R_NEXT
    if st[S_RUN_N] >= 4:
        remove_pile(pile, out_cnt, st)
        row[G_BURNS] += 1
        res = R_EXTRA
    elif t == EXTERMINO:
        remove_pile(pile, out_cnt, st)
        row[G_EXTERMINOS] += 1
        res = R_EXTRA
    elif t == PROTECTO:
        # the next player faces what this one faced, with a dragon on top
        st[S_NO_NINE] = 1
        row[G_PROTECTOS] += 1
        if rint[R_HOUSE_PROTECTO] == 1 and k > 1:
            st[S_FORCED] = k - 1
    elif t == NULLO:
        st[S_BEAT] = 0
        st[S_LOW3] = 0
        st[S_NO_DRAGON] = 0
        st[S_NO_NINE] = 1
        st[S_DRAW] = 0
        row[G_NULLOS] += 1
        if active[AB_NULLO_QUICK] == 1:
            res = R_EXTRA
    else:
        st[S_BEAT] = t
        st[S_LOW3] = 1 if t == 3 else 0
        st[S_NO_DRAGON] = 1 if t == 6 else 0
        st[S_NO_NINE] = 0
        if t == 4:
            st[S_DRAW] += 2 * k
            row[G_FOURS] += 1
        elif t == 5:
            st[S_SKIP] += k
            row[G_FIVES] += 1
        elif t == 3:
            row[G_THREES] += 1
        elif t == 6:
            row[G_SIXES] += 1
    return abilities_after(v, p, t, res, st, active, redraw, moves, choice_fns, params, lost, row, tr)


@njit(cache=True)
def abilities_after(v, p, t, res, st, active, redraw, moves, choice_fns, params, lost, row, tr):
    players = st[S_PLAYERS]
    if t >= NULLO and active[AB_ENVY] == 1:
        got = draw_cards(v, p, 1, redraw, st)
        row[G_ENVY] += got
        rec(tr, st, T_ENVY, p, got, 0, 0, 0, 0, 0)
    if t == 2 and active[AB_BALL] == 1 and v[p, V_HAND_N] > 0:
        n = 0
        for q in range(players):
            if q != p:
                n = add_move(moves, n, K_OPTION, q, cards_left(v, q), 0)
        target = moves[decide(choice_fns[p], moves, n, v, p, params, st, lost, PH_BALL, row), 1]
        r = np.random.randint(0, v[p, V_HAND_N])
        c = 1
        while r >= v[p, V_HAND + c]:
            r -= v[p, V_HAND + c]
            c += 1
        v[p, V_HAND + c] -= 1
        v[p, V_HAND_N] -= 1
        v[target, V_HAND + c] += 1
        v[target, V_HAND_N] += 1
        row[G_BALLS] += 1
        rec(tr, st, T_BALL, p, target, c, 0, 0, 0, 0)
        if cards_left(v, p) == 0:
            return R_OUT
    if t == 9 and active[AB_SECRETS] == 1 and v[p, V_OPEN_N] > 0:
        n = 0
        for c in range(1, N_TYPES):
            if v[p, V_OPEN + c] > 0:
                n = add_move(moves, n, K_OPTION, c, v[p, V_OPEN + c], 0)
        c = moves[decide(choice_fns[p], moves, n, v, p, params, st, lost, PH_SECRET, row), 1]
        v[p, V_OPEN + c] -= 1
        v[p, V_OPEN_N] -= 1
        v[p, V_HAND + c] += 1
        v[p, V_HAND_N] += 1
        row[G_SECRETS] += 1
        rec(tr, st, T_SECRET, p, c, 0, 0, 0, 0, 0)
    if t == 7 and active[AB_ROUNDABOUT] == 1:
        d = st[S_DIR]
        n = add_move(moves, 0, K_OPTION, 0, cards_left(v, (p + d) % players), 0)
        n = add_move(moves, n, K_OPTION, 1, cards_left(v, (p - d) % players), 0)
        rev = moves[decide(choice_fns[p], moves, n, v, p, params, st, lost, PH_TURN, row), 1]
        rec(tr, st, T_TURN, p, rev, 0, 0, 0, 0, 0)
        if rev == 1:
            row[G_REVERSALS] += 1
            if players == 2:
                res = R_EXTRA
            else:
                st[S_DIR] = -d
    return res


@njit(cache=True)
def play_blind(v, hidden, p, pile, out_cnt, st, rint, active, redraw, moves, choice_fns, params, lost,
               row, prow, tr):
    """The top face-down card: played if it fits, else it goes onto the pile and the pile is taken."""
    hn = v[p, V_HIDDEN_N] - 1
    c = hidden[p, hn]
    v[p, V_HIDDEN_N] = hn
    if is_legal(c, st, rint, active):
        rec(tr, st, T_BLIND, p, c, 1, 0, 0, 0, 0)
        return apply_play(v, p, c, 0, 0, 1, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                          params, lost, row, tr)
    rec(tr, st, T_BLIND, p, c, 0, 0, 0, 0, 0)
    pile[c] += 1
    st[S_PILE_N] += 1
    row[G_BLIND_FAILS] += 1
    take_pile(v, p, pile, st, row, prow)
    return R_NEXT


@njit(cache=True)
def play_peek(v, hidden, p, pile, out_cnt, st, rint, active, redraw, moves, choice_fns, params, lost,
              row, prow, tr):
    """House rule for 4s: look at the top face-down card; push with it, or draw and play it blind."""
    hn = v[p, V_HIDDEN_N] - 1
    c = hidden[p, hn]
    v[p, V_HIDDEN_N] = hn
    pushes = c == 4 or c == PROTECTO or (rint[R_DRAGONS_CANCEL] == 1 and (c == NULLO or c == EXTERMINO))
    if pushes and is_legal(c, st, rint, active):
        rec(tr, st, T_PEEK, p, c, 0, 0, 0, 0, 0)
        return apply_play(v, p, c, 0, 0, 1, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                          params, lost, row, tr)
    got = draw_cards(v, p, st[S_DRAW], redraw, st)
    st[S_DRAW] = 0
    row[G_DRAWN] += got
    if is_legal(c, st, rint, active):
        rec(tr, st, T_PEEK, p, c, 1, got, 0, 0, 0)
        return apply_play(v, p, c, 0, 0, 1, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                          params, lost, row, tr)
    rec(tr, st, T_PEEK, p, c, 2, got, 0, 0, 0)
    pile[c] += 1
    st[S_PILE_N] += 1
    row[G_BLIND_FAILS] += 1
    take_pile(v, p, pile, st, row, prow)
    return R_NEXT


# ---- invariants ----------------------------------------------------------------------------------

@njit(cache=True)
def count_faults(v, hidden, pile, out_cnt, redraw, st, counts, scratch):
    """Every card of the deck is in exactly one place, and the counters agree with the cards."""
    bad = 0
    for t in range(N_TYPES):
        scratch[t] = pile[t] + out_cnt[t]
    pile_n = 0
    for t in range(1, N_TYPES):
        pile_n += pile[t]
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
            scratch[t] += h + o
        bad += hn != v[q, V_HAND_N] or on != v[q, V_OPEN_N]
        for i in range(v[q, V_HIDDEN_N]):
            scratch[hidden[q, i]] += 1
    for i in range(st[S_DRAW_POS], st[S_DRAW_END]):
        scratch[redraw[i]] += 1
    bad += scratch[0] != 0
    for t in range(1, N_TYPES):
        bad += scratch[t] != counts[t]
    bad += st[S_RUN_N] < 0 or st[S_RUN_N] > 3 or st[S_DRAW] < 0 or st[S_SKIP] < 0 or st[S_FORCED] < 0
    return bad


# ---- a round -------------------------------------------------------------------------------------

@njit(cache=True)
def deal_round(rnd, starter, chaos, preset, deck, size, v, hidden, pile, out_cnt, redraw, st, rint, counts,
               setup_fns, params, moves, lost, row, tr):
    players = st[S_PLAYERS]
    deck_n = st[S_DECK_N]
    if rnd == 0 and preset.size > 0:
        for i in range(deck_n):
            deck[i] = preset[PRESET_HEAD + i]
    else:
        shuffle(deck, deck_n)
    rec(tr, st, T_ROUND, starter, rnd, chaos, 1 if (rnd == 0 and preset.size > 0) else 0, 0, 0, 0)
    for p in range(players):
        rec(tr, st, T_SETUP, p, size[p, 0], size[p, 1], size[p, 2], 0, 0, 0)
    if st[S_TRACING] == 1:
        for i in range(0, deck_n, 6):
            c = np.zeros(6, np.int64)
            for j in range(min(6, deck_n - i)):
                c[j] = deck[i + j]
            rec(tr, st, T_DECK, i, c[0], c[1], c[2], c[3], c[4], c[5])
    for t in range(N_TYPES):
        pile[t] = 0
        out_cnt[t] = 0
    reset_pile_state(st)
    pos = 0
    for p in range(players):
        for t in range(VIEW_LEN):
            v[p, t] = 0
        for i in range(size[p, 1]):
            hidden[p, i] = deck[pos]
            pos += 1
        v[p, V_HIDDEN_N] = size[p, 1]
        for i in range(size[p, 2]):
            v[p, V_OPEN + deck[pos]] += 1
            pos += 1
        v[p, V_OPEN_N] = size[p, 2]
        for i in range(size[p, 0]):
            v[p, V_HAND + deck[pos]] += 1
            pos += 1
        v[p, V_HAND_N] = size[p, 0]
    rest = deck_n - pos
    n_pile = rest if chaos == 1 else min(rint[R_PILE], rest)
    for i in range(n_pile):
        redraw[i] = deck[pos]
        pos += 1
    st[S_DRAW_POS] = 0
    st[S_DRAW_END] = n_pile
    rec(tr, st, T_PILE, -1, n_pile, 0, 0, 0, 0, 0)
    while pos < deck_n:
        out_cnt[deck[pos]] += 1
        pos += 1
    st[S_DIR] = 1
    st[S_ROUND] = rnd
    for e in range(rint[R_EXCHANGES]):
        for p in range(players):
            n = add_move(moves, 0, K_KEEP, 0, 0, 0)
            for ht in range(1, N_TYPES):
                if v[p, V_HAND + ht] > 0:
                    for ot in range(1, N_TYPES):
                        if ot != ht and v[p, V_OPEN + ot] > 0:
                            n = add_move(moves, n, K_SWAP, ht, ot, 0)
            k = decide(setup_fns[p], moves, n, v, p, params, st, lost, PH_SETUP, row)
            if moves[k, 0] == K_SWAP:
                ht = moves[k, 1]
                ot = moves[k, 2]
                v[p, V_HAND + ht] -= 1
                v[p, V_OPEN + ht] += 1
                v[p, V_OPEN + ot] -= 1
                v[p, V_HAND + ot] += 1
                rec(tr, st, T_SWAP, p, ht, ot, 0, 0, 0, 0)


@njit(cache=True)
def play_round(starter, v, hidden, size, pile, out_cnt, redraw, st, rint, active, counts, play_fns,
               choice_fns, params, moves, lost, row, prow, tr, check, scratch):
    """Turns until someone has no cards left (returns them) or the turn cap (returns -1)."""
    players = st[S_PLAYERS]
    p = starter
    turns = 0
    while True:
        turns += 1
        if turns > rint[R_TURN_CAP]:
            return -1, turns - 1
        row[G_TURNS] += 1
        if st[S_FORCED] > 0:
            st[S_FORCED] -= 1
            row[G_SKIPS] += 1
            rec(tr, st, T_MISS, p, 1, 0, 0, 0, 0, 0)
            p = (p + st[S_DIR]) % players
            continue
        res = -1
        if st[S_SKIP] > 0:
            n = skip_moves(moves, v, p, st, rint, active)
            k = decide(play_fns[p], moves, n, v, p, params, st, lost, PH_SKIP, row)
            if moves[k, 0] == K_MISS:
                st[S_SKIP] -= 1
                row[G_SKIPS] += 1
                rec(tr, st, T_MISS, p, 0, 0, 0, 0, 0, 0)
                p = (p + st[S_DIR]) % players
                continue
            t, nh, no = moves[k, 1], moves[k, 2], moves[k, 3]
            rec(tr, st, T_PLAY, p, t, nh, no, 0, 0, 0)
            res = apply_play(v, p, t, nh, no, 0, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                             params, lost, row, tr)
        elif st[S_DRAW] > 0:
            n = draw_moves(moves, v, p, st, rint, active)
            k = decide(play_fns[p], moves, n, v, p, params, st, lost, PH_DRAW, row)
            kind = moves[k, 0]
            if kind == K_DRAW:
                due = st[S_DRAW]
                got = draw_cards(v, p, due, redraw, st)
                st[S_DRAW] = 0
                row[G_DRAWN] += got
                rec(tr, st, T_DRAW, p, due, got, 0, 0, 0, 0)
            elif kind == K_PEEK:
                res = play_peek(v, hidden, p, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                                params, lost, row, prow, tr)
            else:
                t, nh, no = moves[k, 1], moves[k, 2], moves[k, 3]
                rec(tr, st, T_PLAY, p, t, nh, no, 0, 0, 0)
                res = apply_play(v, p, t, nh, no, 0, pile, out_cnt, st, rint, active, redraw, moves,
                                 choice_fns, params, lost, row, tr)
        while res < 0:
            n = turn_moves(moves, v, p, st, rint, active)
            k = decide(play_fns[p], moves, n, v, p, params, st, lost, PH_PLAY, row)
            kind = moves[k, 0]
            if kind == K_PLAY:
                t, nh, no = moves[k, 1], moves[k, 2], moves[k, 3]
                rec(tr, st, T_PLAY, p, t, nh, no, 0, 0, 0)
                res = apply_play(v, p, t, nh, no, 0, pile, out_cnt, st, rint, active, redraw, moves,
                                 choice_fns, params, lost, row, tr)
            elif kind == K_BLIND:
                res = play_blind(v, hidden, p, pile, out_cnt, st, rint, active, redraw, moves, choice_fns,
                                 params, lost, row, prow, tr)
            elif kind == K_TAKE:
                rec(tr, st, T_TAKE, p, st[S_PILE_N], 0, 0, 0, 0, 0)
                take_pile(v, p, pile, st, row, prow)
                res = R_NEXT
            else:
                # a set of four from the hand leaves the round; the turn goes on
                t = moves[k, 1]
                v[p, V_HAND + t] -= 4
                v[p, V_HAND_N] -= 4
                out_cnt[t] += 4
                row[G_DISCARDS] += 1
                rec(tr, st, T_DISCARD, p, t, 0, 0, 0, 0, 0)
                if cards_left(v, p) == 0:
                    res = R_OUT
                elif check:
                    row[G_CHECK_FAILS] += count_faults(v, hidden, pile, out_cnt, redraw, st, counts, scratch)
        if res == R_OUT:
            return p, turns
        if rint[R_REFILL] == 1 and v[p, V_HAND_N] < size[p, 0]:
            got = draw_cards(v, p, size[p, 0] - v[p, V_HAND_N], redraw, st)
            if got > 0:
                rec(tr, st, T_REFILL, p, got, 0, 0, 0, 0, 0)
        if check:
            row[G_CHECK_FAILS] += count_faults(v, hidden, pile, out_cnt, redraw, st, counts, scratch)
        if res == R_NEXT:
            p = (p + st[S_DIR]) % players


@njit(cache=True)
def round_loss(v, hidden, q, coins, active, cap):
    """Coins a player pays for the cards they still hold, at most `cap`."""
    s = 0
    for t in range(1, N_TYPES):
        s += (v[q, V_HAND + t] + v[q, V_OPEN + t]) * coins[t]
    for i in range(v[q, V_HIDDEN_N]):
        s += coins[hidden[q, i]]
    if active[AB_GOLD] == 1:
        eights = v[q, V_HAND + 8] + v[q, V_OPEN + 8]
        for i in range(v[q, V_HIDDEN_N]):
            eights += hidden[q, i] == 8
        s -= 2 * eights * coins[8]
    return min(s, cap)


@njit(cache=True)
def pick_starter(rnd, last, lost, players, preset):
    """Random in the first round; then most coins lost, ties to the left of the last starter."""
    if rnd == 0:
        if preset.size > 0:
            return preset[0]
        return np.random.randint(0, players)
    best = -BIG
    who = last
    for i in range(1, players + 1):
        q = (last + i) % players
        if lost[q] > best:
            best = lost[q]
            who = q
    return who


@njit(cache=True)
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
    if rint[R_CURSE_UNKNOWING] == 1:
        if r == 0:
            return CURSE_UNKNOWING
    return CURSE_CHAOS


# ---- a game and a batch --------------------------------------------------------------------------

@njit(cache=True)
def play_game(g, players, rint, counts, coins, preset, deck, v, hidden, size, pile, out_cnt, redraw, st,
              active, order, curse_next, lost, play_fns, setup_fns, choice_fns, params, moves, row, prow,
              rounds_out, counters, tr, check, scratch):
    for q in range(MAX_PLAYERS):
        lost[q] = 0
        curse_next[q] = -1
    n_enabled = 0
    for a in range(N_ABILITIES):
        active[a] = 0
        if rint[R_ABILITY0 + a] == 1:
            order[n_enabled] = a
            n_enabled += 1
    shuffle(order, n_enabled)
    n_active = 0
    if rint[R_ABILITIES_FROM_START] == 1:
        while n_active < n_enabled:
            active[order[n_active]] = 1
            rec(tr, st, T_ABILITY, -1, order[n_active], 0, 0, 0, 0, 0)
            n_active += 1
    rnd = 0
    starter = 0
    fewest = 0
    while True:
        starter = pick_starter(rnd, starter, lost, players, preset)
        if rnd == 0:
            row[G_FIRST_STARTER] = starter
        chaos = 0
        for q in range(players):
            if curse_next[q] == CURSE_CHAOS:
                chaos = 1
        for q in range(players):
            size[q, 0] = rint[R_HAND]
            size[q, 1] = rint[R_HIDDEN]
            size[q, 2] = rint[R_OPEN]
            curse = curse_next[q]
            if chaos == 1:
                curse = draw_curse(rint, False)
                if curse >= 0:
                    rec(tr, st, T_CURSE, q, curse, 0, 0, 0, 0, 0)
            if curse == CURSE_MANY:
                size[q, 0] = rint[R_CURSE_HAND]
            elif curse == CURSE_UNKNOWING:
                size[q, 1] = rint[R_CURSE_HIDDEN]
                size[q, 2] = rint[R_CURSE_OPEN]
            curse_next[q] = -1
        if rnd == 0 and preset.size > 0:
            for q in range(players):
                size[q, 0] = preset[1 + 3 * q]
                size[q, 1] = preset[2 + 3 * q]
                size[q, 2] = preset[3 + 3 * q]
        deal_round(rnd, starter, chaos, preset, deck, size, v, hidden, pile, out_cnt, redraw, st, rint, counts,
                   setup_fns, params, moves, lost, row, tr)
        if check:
            row[G_CHECK_FAILS] += count_faults(v, hidden, pile, out_cnt, redraw, st, counts, scratch)
        pickups_before = row[G_PICKUPS]
        out, turns = play_round(starter, v, hidden, size, pile, out_cnt, redraw, st, rint, active, counts,
                                play_fns, choice_fns, params, moves, lost, row, prow, tr, check, scratch)
        rnd += 1
        row[G_ROUNDS] = rnd
        row[G_MAX_TURNS] = max(row[G_MAX_TURNS], turns)
        scored = out >= 0 or rint[R_STALEMATE_SCORES] == 1
        losses = scratch[N_TYPES:N_TYPES + MAX_PLAYERS]
        losses[:] = 0
        if scored:
            for q in range(players):
                losses[q] = round_loss(v, hidden, q, coins, active, rint[R_MAX_LOSS])
                lost[q] += losses[q]
        if out < 0:
            row[G_STALEMATE_ROUNDS] += 1
        else:
            prow[out, P_OUT] += 1
            if out == starter:
                row[G_STARTER_OUT] += 1
        if scored:
            for k in range(players):
                row[G_POS_LOST0 + k] += losses[(starter + k) % players]
        rec(tr, st, T_ROUND_END, out, losses[0], losses[1], losses[2], losses[3], losses[4], losses[5])
        i = counters[C_ROUNDS]
        if i < rounds_out.shape[0]:
            r = rounds_out[i]
            r[RD_GAME] = g
            r[RD_ROUND] = rnd - 1
            r[RD_STARTER] = starter
            r[RD_OUT] = out
            r[RD_TURNS] = turns
            r[RD_PICKUPS] = row[G_PICKUPS] - pickups_before
            for k in range(players):
                r[RD_POS_LOST0 + k] = losses[(starter + k) % players]
        counters[C_ROUNDS] = i + 1
        # the game ends once someone has lost enough and one player has lost the fewest
        most = -BIG
        fewest = BIG
        for q in range(players):
            most = max(most, lost[q])
            fewest = min(fewest, lost[q])
        n_fewest = 0
        for q in range(players):
            n_fewest += lost[q] == fewest
        if most >= rint[R_END_LOSS] and n_fewest == 1:
            break
        if rnd >= rint[R_MAX_ROUNDS]:
            row[G_STALEMATE] = 1
            break
        if out >= 0:
            curse = draw_curse(rint, True)
            if curse >= 0:
                curse_next[out] = curse
                row[G_CURSES] += 1
                rec(tr, st, T_CURSE, out, curse, 0, 0, 0, 0, 0)
        if n_active < n_enabled:
            active[order[n_active]] = 1
            rec(tr, st, T_ABILITY, -1, order[n_active], 0, 0, 0, 0, 0)
            n_active += 1
    winner = -1
    loser = 0
    for q in range(players):
        if lost[q] > lost[loser]:
            loser = q
        if row[G_STALEMATE] == 0 and lost[q] == fewest:
            winner = q
    row[G_WINNER] = winner
    row[G_LOSER] = loser
    row[G_WINNER_LOST] = lost[winner] if winner >= 0 else -1
    row[G_LOSER_LOST] = lost[loser]
    for q in range(MAX_PLAYERS):
        row[G_LOST0 + q] = lost[q] if q < players else -1
    for q in range(players):
        prow[q, P_LOST] = lost[q]
        prow[q, P_WON] = 1 if q == winner else 0
    rec(tr, st, T_GAME_END, winner, loser, rnd, 0, 0, 0, 0)


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
    np.random.seed(seed)
    deck = np.zeros(MAX_DECK, np.int64)
    deck_n = 0
    for t in range(1, N_TYPES):
        for i in range(counts[t]):
            deck[deck_n] = t
            deck_n += 1
    v = np.zeros((MAX_PLAYERS, VIEW_LEN), np.int64)
    hidden = np.zeros((MAX_PLAYERS, MAX_HIDDEN), np.int64)
    size = np.zeros((MAX_PLAYERS, 3), np.int64)
    pile = np.zeros(N_TYPES, np.int64)
    out_cnt = np.zeros(N_TYPES, np.int64)
    scratch = np.zeros(N_TYPES + MAX_PLAYERS, np.int64)
    redraw = np.zeros(MAX_DECK, np.int64)
    st = np.zeros(32, np.int64)
    active = np.zeros(N_ABILITIES, np.int64)
    order = np.zeros(N_ABILITIES, np.int64)
    curse_next = np.zeros(MAX_PLAYERS, np.int64)
    lost = np.zeros(MAX_PLAYERS, np.int64)
    moves = np.zeros((MAX_MOVES, MOVE_COLS), np.int64)
    st[S_PLAYERS] = players
    st[S_DECK_N] = deck_n
    n_traced = trace_start.shape[0] - 1
    counters[C_ROUNDS] = 0
    for g in range(n):
        st[S_TRACING] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = st[S_TPOS]
        play_game(g, players, rint, counts, coins, preset, deck, v, hidden, size, pile, out_cnt, redraw, st,
                  active, order, curse_next, lost, play_fns, setup_fns, choice_fns, params, moves,
                  games_out[g], players_out[g], rounds_out, counters, trace, check, scratch)
        if g < n_traced:
            trace_start[g + 1] = st[S_TPOS]
    counters[C_TRACE] = st[S_TPOS]
