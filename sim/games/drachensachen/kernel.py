"""Drachensachen numba kernel: whole games (rounds until someone has lost enough coins) from one seed.

Speed notes. Every array passed to a helper or sliced into a view costs atomic reference counting, so
nearly all state lives in one int64 array `st` at the ST_* / S_* offsets below, helpers index 2-D arrays
directly, and strategies are called only from `play_round` and `deal_round`. A player's own cards are
counted by type in their row of `v` (the row strategies read as their view); face-down cards stay in deal
order in `st[ST_HIDDEN + p * MAX_HIDDEN + i]` and are played from the end.
"""

import numpy as np
from numba import njit, types

from sim.core import rng as fastrng
from sim.games.drachensachen.records import (
    AB_BALL, AB_ENVY, AB_GOLD, AB_NULLO_QUICK, AB_ONE_ON_NINE, AB_ROUNDABOUT, AB_SECRETS, C_ROUNDS, C_TRACE,
    CURSE_CHAOS, CURSE_MANY, CURSE_UNKNOWING, EXTERMINO, G_BALLS, G_BLIND_FAILS, G_BURNS, G_CHECK_FAILS,
    G_CURSES, G_DISCARDS, G_DRAWN, G_ENVY, G_EXTERMINOS, G_FIRST_STARTER, G_FIVES, G_FOURS, G_LOSER,
    G_LOSER_LOST, G_LOST0, G_MAX_TURNS, G_NULLOS, G_PICKUPS, G_PLAYS, G_POS_LOST0, G_PROTECTOS, G_REVERSALS,
    G_ROUNDS, G_SECRETS, G_SIXES, G_SKIPS, G_STALEMATE, G_STALEMATE_ROUNDS, G_STARTER_OUT, G_THREES,
    G_TURNS, G_VIOLATIONS, G_WINNER, G_WINNER_LOST, K_BLIND, K_DISCARD, K_DRAW, K_KEEP, K_MISS, K_OPTION,
    K_PEEK, K_PLAY, K_SWAP, K_TAKE, MAX_DECK, MAX_HIDDEN, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_ABILITIES,
    N_GAME_COLS, N_TYPES, NULLO, P_LOST, P_OUT, P_PICKUPS, P_WON, PH_BALL, PH_DRAW, PH_PLAY, PH_SECRET,
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

# ---- the state array ------------------------------------------------------------------------------
# scalars
S_BEAT, S_LOW3, S_NO_DRAGON, S_NO_NINE, S_DRAW, S_SKIP, S_FORCED, S_RUN_T, S_RUN_N, S_PILE_N = range(10)
S_DRAW_POS, S_DRAW_END, S_DIR, S_PLAYERS, S_ROUND, S_TRACING, S_TPOS, S_DECK_N, S_PENDING = range(10, 19)
ST_G = 32                                   # this game's output row (records.G_*)
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

# what an action leads to
R_MORE, R_NEXT, R_EXTRA, R_OUT, R_MISSED = -1, 0, 1, 2, 3

ALL_TYPES = 0b1111111111110          # bits 1..12
PUSH_DRAW = (1 << 4) | (1 << PROTECTO)
CANCEL_DRAW = (1 << NULLO) | (1 << EXTERMINO)
PUSH_SKIP = 1 << PROTECTO
BIG = 1 << 40


# ---- small helpers -------------------------------------------------------------------------------

@njit(cache=True, inline='always')
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


@njit(cache=True, inline='always')
def cards_left(v, p):
    return v[p, V_HAND_N] + v[p, V_OPEN_N] + v[p, V_HIDDEN_N]


@njit(cache=True, inline='always')
def is_legal(t, st, rint):
    """Whether a card of type t may go on the pile as it stands."""
    if t >= NULLO:
        return st[S_NO_DRAGON] == 0
    if t == 9 and st[S_NO_NINE] == 1:
        return False
    if st[S_LOW3] == 1:
        return t < 3 or (t == 3 and rint[R_THREE_EQUAL] == 1)
    if t >= st[S_BEAT]:
        return True
    return t == 1 and st[S_BEAT] == 9 and st[ST_ACTIVE + AB_ONE_ON_NINE] == 1


@njit(cache=True, inline='always')
def add_move(moves, n, kind, t, h, o):
    moves[n, 0] = kind
    moves[n, 1] = t
    moves[n, 2] = h
    moves[n, 3] = o
    return n + 1


@njit(cache=True, inline='always')
def add_plays(moves, n, v, p, st, rint, mask):
    """Every legal play of the types in `mask` from the player's current source (hand, else open)."""
    hn = v[p, V_HAND_N]
    from_hand = hn > 0
    base = V_HAND if from_hand else V_OPEN
    for t in range(1, N_TYPES):
        c = v[p, base + t]
        if c == 0 or (mask >> t) & 1 == 0 or not is_legal(t, st, rint):
            continue
        room = 4 - st[S_RUN_N] if st[S_RUN_T] == t else 4
        top = min(c, room)
        for k in range(1, top + 1):
            if from_hand:
                n = add_move(moves, n, K_PLAY, t, k, 0)
            else:
                n = add_move(moves, n, K_PLAY, t, 0, k)
        if from_hand and c == hn and c < room:
            # the last hand cards may take matching open Remainders along
            for j in range(1, min(v[p, V_OPEN + t], room - c) + 1):
                n = add_move(moves, n, K_PLAY, t, c, j)
    return n


@njit(cache=True, inline='always')
def phase_moves(moves, v, p, st, rint, phase):
    """The options of a decision in a turn (see records.PH_*)."""
    if phase == PH_SKIP:
        # about to miss a turn: miss it, or push it on with Protecto (or 5s under the house rule)
        n = add_move(moves, 0, K_MISS, 0, 0, 0)
        mask = PUSH_SKIP | ((1 << 5) if rint[R_HOUSE5] == 1 else 0)
        if v[p, V_HAND_N] + v[p, V_OPEN_N] > 0:
            n = add_plays(moves, n, v, p, st, rint, mask)
        return n
    if phase == PH_DRAW:
        # facing a draw: draw it, or push it with 4s / Protecto (peek under the house rule for 4s)
        n = add_move(moves, 0, K_DRAW, 0, 0, 0)
        if v[p, V_HAND_N] + v[p, V_OPEN_N] > 0:
            mask = PUSH_DRAW | (CANCEL_DRAW if rint[R_DRAGONS_CANCEL] == 1 else 0)
            n = add_plays(moves, n, v, p, st, rint, mask)
        elif rint[R_HOUSE4] == 1:
            n = add_move(moves, n, K_PEEK, 0, 0, 0)
        return n
    # a normal turn: plays, sets of four to put out, taking the pile; blind with only face-down cards
    if v[p, V_HAND_N] + v[p, V_OPEN_N] == 0:
        return add_move(moves, 0, K_BLIND, 0, 0, 0)
    n = add_plays(moves, 0, v, p, st, rint, ALL_TYPES)
    if v[p, V_HAND_N] >= 4:
        for t in range(1, N_TYPES):
            if v[p, V_HAND + t] >= 4:
                n = add_move(moves, n, K_DISCARD, t, 4, 0)
    if st[S_PILE_N] > 0 or n == 0:
        n = add_move(moves, n, K_TAKE, 0, 0, 0)
    return n


@njit(cache=True)
def ability_moves(moves, v, p, st, phase):
    """The options of an ability's choice (see records.PH_BALL / PH_SECRET / PH_TURN)."""
    players = st[S_PLAYERS]
    n = 0
    if phase == PH_BALL:
        for q in range(players):
            if q != p:
                n = add_move(moves, n, K_OPTION, q, cards_left(v, q), 0)
    elif phase == PH_SECRET:
        for c in range(1, N_TYPES):
            if v[p, V_OPEN + c] > 0:
                n = add_move(moves, n, K_OPTION, c, c, 0)
    else:
        d = st[S_DIR]
        n = add_move(moves, 0, K_OPTION, 0, cards_left(v, (p + d) % players), 0)
        n = add_move(moves, n, K_OPTION, 1, cards_left(v, (p - d) % players), 0)
    return n


@njit(cache=True, inline='always')
def reset_pile_state(st):
    for i in range(S_BEAT, S_PILE_N + 1):
        st[i] = 0


@njit(cache=True, inline='always')
def remove_pile(st):
    """The pile leaves the round (burn, Extermino); its effects go with it."""
    for t in range(1, N_TYPES):
        st[ST_OUT + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    reset_pile_state(st)


@njit(cache=True, inline='always')
def take_pile(v, p, st):
    for t in range(1, N_TYPES):
        v[p, V_HAND + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    v[p, V_HAND_N] += st[S_PILE_N]
    reset_pile_state(st)
    st[ST_G + G_PICKUPS] += 1
    st[ST_PICK + p] += 1


@njit(cache=True, inline='always')
def draw_cards(v, p, k, st):
    """Up to k cards from the redraw pile into p's hand; returns how many there were."""
    drawn = 0
    while drawn < k and st[S_DRAW_POS] < st[S_DRAW_END]:
        t = st[ST_REDRAW + st[S_DRAW_POS]]
        st[S_DRAW_POS] += 1
        v[p, V_HAND + t] += 1
        v[p, V_HAND_N] += 1
        drawn += 1
    return drawn


@njit(cache=True, inline='always')
def fill_view(v, p, st, phase):
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
    d = st[S_DIR]
    v[p, V_DIRECTION] = d
    v[p, V_NEXT_CARDS] = cards_left(v, (p + d) % players)
    v[p, V_PREV_CARDS] = cards_left(v, (p - d) % players)
    fewest = BIG
    most = -BIG
    for q in range(players):
        if q != p:
            fewest = min(fewest, cards_left(v, q))
            most = max(most, st[ST_LOST + q])
    v[p, V_FEWEST] = fewest
    v[p, V_MOST_LOST] = most
    v[p, V_ROUND] = st[S_ROUND]
    v[p, V_LOST] = st[ST_LOST + p]


# ---- actions -------------------------------------------------------------------------------------

@njit(cache=True, inline='always')
def apply_play(v, p, t, nh, no, nb, st, rint, tr):
    """Cards of type t leave p (nh from hand, no open, nb face-down already removed) onto the pile."""
    v[p, V_HAND + t] -= nh
    v[p, V_HAND_N] -= nh
    v[p, V_OPEN + t] -= no
    v[p, V_OPEN_N] -= no
    k = nh + no + nb
    st[ST_PILE + t] += k
    st[S_PILE_N] += k
    st[ST_G + G_PLAYS] += 1
    if cards_left(v, p) == 0:
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
        res = R_EXTRA
    elif t == PROTECTO:
        # the next player faces what this one faced, with a dragon on top
        st[S_NO_NINE] = 1
        st[ST_G + G_PROTECTOS] += 1
        if rint[R_HOUSE_PROTECTO] == 1 and k > 1:
            st[S_FORCED] = k - 1
    elif t == NULLO:
        st[S_BEAT] = 0
        st[S_LOW3] = 0
        st[S_NO_DRAGON] = 0
        st[S_NO_NINE] = 1
        st[S_DRAW] = 0
        st[ST_G + G_NULLOS] += 1
        if st[ST_ACTIVE + AB_NULLO_QUICK] == 1:
            res = R_EXTRA
    else:
        st[S_BEAT] = t
        st[S_LOW3] = 1 if t == 3 else 0
        st[S_NO_DRAGON] = 1 if t == 6 else 0
        st[S_NO_NINE] = 0
        if t == 4:
            st[S_DRAW] += 2 * k
            st[ST_G + G_FOURS] += 1
        elif t == 5:
            st[S_SKIP] += k
            st[ST_G + G_FIVES] += 1
        elif t == 3:
            st[ST_G + G_THREES] += 1
        elif t == 6:
            st[ST_G + G_SIXES] += 1
    # abilities: Envious Monsters acts at once; the others wait for their player's choice
    if t >= NULLO and st[ST_ACTIVE + AB_ENVY] == 1:
        got = draw_cards(v, p, 1, st)
        st[ST_G + G_ENVY] += got
        rec(tr, st, T_ENVY, p, got, 0, 0, 0, 0, 0)
    if t == 2 and st[ST_ACTIVE + AB_BALL] == 1 and v[p, V_HAND_N] > 0:
        st[S_PENDING] = PH_BALL
    elif t == 9 and st[ST_ACTIVE + AB_SECRETS] == 1 and v[p, V_OPEN_N] > 0:
        st[S_PENDING] = PH_SECRET
    elif t == 7 and st[ST_ACTIVE + AB_ROUNDABOUT] == 1:
        st[S_PENDING] = PH_TURN
    return res


@njit(cache=True)
def resolve_ability(v, p, phase, option, res, st, tr):
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
        rec(tr, st, T_BALL, p, option, c, 0, 0, 0, 0)
        if cards_left(v, p) == 0:
            return R_OUT
    elif phase == PH_SECRET:
        v[p, V_OPEN + option] -= 1
        v[p, V_OPEN_N] -= 1
        v[p, V_HAND + option] += 1
        v[p, V_HAND_N] += 1
        st[ST_G + G_SECRETS] += 1
        rec(tr, st, T_SECRET, p, option, 0, 0, 0, 0, 0)
    else:
        rec(tr, st, T_TURN, p, option, 0, 0, 0, 0, 0)
        if option == 1:
            st[ST_G + G_REVERSALS] += 1
            if st[S_PLAYERS] == 2:
                if res == R_NEXT:
                    res = R_EXTRA
            else:
                st[S_DIR] = -st[S_DIR]
    return res


@njit(cache=True, inline='always')
def face_down(v, p, st):
    """Remove and return p's top face-down card."""
    hn = v[p, V_HIDDEN_N] - 1
    v[p, V_HIDDEN_N] = hn
    return st[ST_HIDDEN + p * MAX_HIDDEN + hn]


@njit(cache=True, inline='always')
def fail_blind(v, p, c, st):
    """A face-down card that does not fit goes onto the pile, and the pile into the hand."""
    st[ST_PILE + c] += 1
    st[S_PILE_N] += 1
    st[ST_G + G_BLIND_FAILS] += 1
    take_pile(v, p, st)


@njit(cache=True, inline='always')
def act(moves, k, v, p, st, rint, tr):
    """Carry out option k of a turn's decision; returns what it leads to (R_MORE: decide again)."""
    kind = moves[k, 0]
    t = moves[k, 1]
    nh = 0
    no = 0
    if kind == K_PLAY:
        nh = moves[k, 2]
        no = moves[k, 3]
        rec(tr, st, T_PLAY, p, t, nh, no, 0, 0, 0)
    elif kind == K_TAKE:
        rec(tr, st, T_TAKE, p, st[S_PILE_N], 0, 0, 0, 0, 0)
        take_pile(v, p, st)
        return R_NEXT
    elif kind == K_DISCARD:
        # a set of four from the hand leaves the round; the turn goes on
        v[p, V_HAND + t] -= 4
        v[p, V_HAND_N] -= 4
        st[ST_OUT + t] += 4
        st[ST_G + G_DISCARDS] += 1
        rec(tr, st, T_DISCARD, p, t, 0, 0, 0, 0, 0)
        return R_OUT if cards_left(v, p) == 0 else R_MORE
    elif kind == K_DRAW:
        due = st[S_DRAW]
        got = draw_cards(v, p, due, st)
        st[S_DRAW] = 0
        st[ST_G + G_DRAWN] += got
        rec(tr, st, T_DRAW, p, due, got, 0, 0, 0, 0)
        return R_MORE
    elif kind == K_MISS:
        st[S_SKIP] -= 1
        st[ST_G + G_SKIPS] += 1
        rec(tr, st, T_MISS, p, 0, 0, 0, 0, 0, 0)
        return R_MISSED
    elif kind == K_BLIND:
        t = face_down(v, p, st)
        if not is_legal(t, st, rint):
            rec(tr, st, T_BLIND, p, t, 0, 0, 0, 0, 0)
            fail_blind(v, p, t, st)
            return R_NEXT
        rec(tr, st, T_BLIND, p, t, 1, 0, 0, 0, 0)
    else:
        # K_PEEK, house rule for 4s: push with the card, or draw and then play it blind
        t = face_down(v, p, st)
        pushes = t == 4 or t == PROTECTO or (rint[R_DRAGONS_CANCEL] == 1 and (t == NULLO or t == EXTERMINO))
        if pushes and is_legal(t, st, rint):
            rec(tr, st, T_PEEK, p, t, 0, 0, 0, 0, 0)
        else:
            got = draw_cards(v, p, st[S_DRAW], st)
            st[S_DRAW] = 0
            st[ST_G + G_DRAWN] += got
            if not is_legal(t, st, rint):
                rec(tr, st, T_PEEK, p, t, 2, got, 0, 0, 0)
                fail_blind(v, p, t, st)
                return R_NEXT
            rec(tr, st, T_PEEK, p, t, 1, got, 0, 0, 0)
    nb = 0 if kind == K_PLAY else 1
    return apply_play(v, p, t, nh, no, nb, st, rint, tr)


# ---- invariants ----------------------------------------------------------------------------------

@njit(cache=True)
def count_faults(v, st, counts):
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
        bad += st[ST_SCRATCH + t] != counts[t]
    bad += st[S_RUN_N] < 0 or st[S_RUN_N] > 3 or st[S_DRAW] < 0 or st[S_SKIP] < 0 or st[S_FORCED] < 0
    return bad


# ---- a round -------------------------------------------------------------------------------------

@njit(cache=True)
def deal_round(rnd, starter, chaos, preset, v, st, moves, rint, setup_fns, params, tr, state):
    """Shuffle, deal, lay out the redraw pile, and let everyone make their exchanges."""
    players = st[S_PLAYERS]
    deck_n = st[S_DECK_N]
    is_preset = rnd == 0 and preset.size > 0
    if is_preset:
        for i in range(deck_n):
            st[ST_DECK + i] = preset[PRESET_HEAD + i]
    else:
        for i in range(deck_n - 1, 0, -1):
            j = ST_DECK + fastrng.below(state, i + 1)
            c = st[ST_DECK + i]
            st[ST_DECK + i] = st[j]
            st[j] = c
    rec(tr, st, T_ROUND, starter, rnd, chaos, 1 if is_preset else 0, 0, 0, 0)
    if st[S_TRACING] == 1:
        for p in range(players):
            rec(tr, st, T_SETUP, p, st[ST_SIZE + 3 * p], st[ST_SIZE + 3 * p + 1], st[ST_SIZE + 3 * p + 2],
                0, 0, 0)
        for i in range(0, deck_n, 6):
            c = np.zeros(6, np.int64)
            for j in range(min(6, deck_n - i)):
                c[j] = st[ST_DECK + i + j]
            rec(tr, st, T_DECK, i, c[0], c[1], c[2], c[3], c[4], c[5])
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
            n = add_move(moves, 0, K_KEEP, 0, 0, 0)
            for ht in range(1, N_TYPES):
                if v[p, V_HAND + ht] > 0:
                    for ot in range(1, N_TYPES):
                        if ot != ht and v[p, V_OPEN + ot] > 0:
                            n = add_move(moves, n, K_SWAP, ht, ot, 0)
            k = 0
            if n > 1:
                fill_view(v, p, st, PH_SETUP)
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
                rec(tr, st, T_SWAP, p, ht, ot, 0, 0, 0, 0)


@njit(cache=True)
def play_round(starter, v, st, moves, rint, counts, play_fns, choice_fns, params, tr, check):
    """Turns until someone has no cards left (returns them) or the turn cap (returns -1)."""
    players = st[S_PLAYERS]
    p = starter
    turns = 0
    while True:
        turns += 1
        if turns > rint[R_TURN_CAP]:
            return -1, turns - 1
        st[ST_G + G_TURNS] += 1
        if st[S_FORCED] > 0:
            # skipped by several Protectos: no answer possible
            st[S_FORCED] -= 1
            st[ST_G + G_SKIPS] += 1
            rec(tr, st, T_MISS, p, 1, 0, 0, 0, 0, 0)
            p = (p + st[S_DIR]) % players
            continue
        phase = PH_SKIP if st[S_SKIP] > 0 else (PH_DRAW if st[S_DRAW] > 0 else PH_PLAY)
        res = R_MORE
        while res == R_MORE:
            n = phase_moves(moves, v, p, st, rint, phase)
            k = 0
            if n > 1:
                fill_view(v, p, st, phase)
                k = play_fns[p](moves, n, v[p], params[p])
                if k < 0 or k >= n:
                    st[ST_G + G_VIOLATIONS] += 1
                    k = 0
            res = act(moves, k, v, p, st, rint, tr)
            phase = PH_PLAY
            if st[S_PENDING] > 0 and res != R_OUT:
                pend = st[S_PENDING]
                n = ability_moves(moves, v, p, st, pend)
                k = 0
                if n > 1:
                    fill_view(v, p, st, pend)
                    k = choice_fns[p](moves, n, v[p], params[p])
                    if k < 0 or k >= n:
                        st[ST_G + G_VIOLATIONS] += 1
                        k = 0
                res = resolve_ability(v, p, pend, moves[k, 1], res, st, tr)
            st[S_PENDING] = 0
        if res == R_OUT:
            return p, turns
        if res != R_MISSED and rint[R_REFILL] == 1 and v[p, V_HAND_N] < st[ST_SIZE + 3 * p]:
            got = draw_cards(v, p, st[ST_SIZE + 3 * p] - v[p, V_HAND_N], st)
            if got > 0:
                rec(tr, st, T_REFILL, p, got, 0, 0, 0, 0, 0)
        if check:
            st[ST_G + G_CHECK_FAILS] += count_faults(v, st, counts)
        if res != R_EXTRA:
            p = (p + st[S_DIR]) % players


@njit(cache=True)
def round_loss(v, q, st, coins, cap):
    """Coins a player pays for the cards they still hold, at most `cap`."""
    s = 0
    for t in range(1, N_TYPES):
        s += (v[q, V_HAND + t] + v[q, V_OPEN + t]) * coins[t]
    eights = v[q, V_HAND + 8] + v[q, V_OPEN + 8]
    for i in range(v[q, V_HIDDEN_N]):
        c = st[ST_HIDDEN + q * MAX_HIDDEN + i]
        s += coins[c]
        eights += c == 8
    if st[ST_ACTIVE + AB_GOLD] == 1:
        s -= 2 * eights * coins[8]
    return min(s, cap)


@njit(cache=True)
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
    if rint[R_CURSE_UNKNOWING] == 1 and r == 0:
        return CURSE_UNKNOWING
    return CURSE_CHAOS


@njit(cache=True)
def round_sizes(rnd, st, rint, preset, tr):
    """Hand, hidden and open counts of each seat this round, after curses; returns 1 under Chaos."""
    players = st[S_PLAYERS]
    chaos = 0
    for q in range(players):
        if st[ST_CURSE + q] == CURSE_CHAOS:
            chaos = 1
    for q in range(players):
        curse = st[ST_CURSE + q]
        if chaos == 1:
            curse = draw_curse(rint, False)
            if curse >= 0:
                rec(tr, st, T_CURSE, q, curse, 0, 0, 0, 0, 0)
        s = ST_SIZE + 3 * q
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

@njit(cache=True)
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
    return n_enabled, n_active


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
            st[ST_G + G_CHECK_FAILS] += count_faults(v, st, counts)
        pickups_before = st[ST_G + G_PICKUPS]
        out, turns = play_round(starter, v, st, moves, rint, counts, play_fns, choice_fns, params, tr, check)
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
