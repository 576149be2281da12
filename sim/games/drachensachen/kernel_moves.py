"""Drachensachen kernel, part 2: a turn's decisions.

The options of a turn and of an ability's choice (records.PH_*), the check of the counts a strategy left in
its play, and carrying out the chosen option: plays (with burns, dragons and abilities), pick-ups,
discards, draws, missed turns and face-down cards.
"""

import numpy as np
from numba import njit, types

from sim.games.drachensachen.records import (
    AB_BALL, AB_ENVY, AB_NULLO_QUICK, AB_ROUNDABOUT, AB_SECRETS, EXTERMINO, F_BLIND, F_DISCARD_FACING, F_DRAGONS_CANCEL,
    F_ENVY, F_EXTERMINO_STAYS, F_HOUSE4, F_HOUSE5, F_HOUSE5_PASS, F_HOUSE_PROTECTO, F_NO_DRAGON, F_NO_NINE,
    F_NULLO_QUICK, F_ONE_ON_NINE, F_OPEN_SET, F_QUICK_MUST_PLAY, F_ROUNDABOUT, F_THREE_EQUAL, G_BALLS, G_BLIND_FAILS,
    G_BURNS, G_DISCARDS, G_DRAWN, G_ENVY, G_EXTERMINOS, G_FIVES, G_FOURS, G_NULLOS, G_PLAYS, G_PROTECTOS, G_REVERSALS,
    G_SECRETS, G_SIXES, G_SKIPS, G_THREES, K_BLIND, K_DISCARD, K_DRAW, K_MISS, K_OPTION, K_PEEK, K_PLAY, K_TAKE,
    MAX_HIDDEN, NULLO, N_TYPES, PH_BALL, PH_DRAW, PH_PLAY, PH_SECRET, PH_SKIP, PH_TURN, PROTECTO, R_DISCARD_FACING,
    R_DRAGONS_CANCEL, R_EXTERMINO_STAYS, R_HOUSE4, R_HOUSE5, R_HOUSE5_PASS, R_HOUSE_PROTECTO, R_QUICK_MUST_PLAY, T_BALL,
    T_BLIND, T_DISCARD, T_DRAW, T_ENVY, T_MISS, T_PEEK, T_PLAY, T_SECRET, T_TAKE, T_TURN, V_HAND, V_HAND_N, V_HIDDEN_N,
    V_OPEN, V_OPEN_N,
)
from sim.games.drachensachen.kernel_base import (
    ALL_TYPES, CANCEL_DRAW, DRAGONS, I, M2, PUSH_DRAW, PUSH_SKIP, R_EXTRA, R_MISSED, R_MORE, R_NEXT, R_OUT,
    ST, ST_ACTIVE, ST_G, ST_HELD, ST_HIDDEN, ST_OUT, ST_PILE, ST_R, S_BEAT, S_DIR, S_DRAW, S_FORCED, S_LOW3,
    S_NO_DRAGON, S_NO_NINE, S_PENDING, S_PILE_N, S_PLAYERS, S_QUICK, S_QUICK_TURN, S_RUN_N, S_RUN_T, S_SKIP,
    S_SKIP_SRC, cards_left, draw_cards, fits, legal_mask, lowest_bit, note, queue, remove_pile, step, take_pile,
    type_bits,
)


@njit(cache=True, _nrt=False, inline='always')
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
    held = st[ST_HELD + 2 * p] if hn > 0 else st[ST_HELD + 2 * p + 1]
    st[ST_G + F_NO_NINE] += (held >> 9) & st[S_NO_NINE]
    st[ST_G + F_NO_DRAGON] += ((held & DRAGONS) != 0) & (st[S_NO_DRAGON] == 1)
    st[ST_G + F_THREE_EQUAL] += (held >> 3) & st[S_LOW3] & (mask >> 3)
    if phase == PH_DRAW:
        st[ST_G + F_DRAGONS_CANCEL] += (held & CANCEL_DRAW) != 0
    bits = held & mask & legal_mask(st)
    run_t = st[S_RUN_T]
    run_n = st[S_RUN_N]
    while bits != 0:
        t = lowest_bit(bits)
        bits &= bits - 1
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
    if hn >= 4:
        # sets of four, in a hand of four cards or more
        fours = type_bits(v, p, V_HAND, 4)
        facing = phase != PH_PLAY
        st[ST_G + F_DISCARD_FACING] += facing & (fours != 0)
        if not facing or st[ST_R + R_DISCARD_FACING] == 1:
            while fours != 0:
                moves[n, 0] = K_DISCARD
                moves[n, 1] = lowest_bit(fours)
                fours &= fours - 1
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


@njit(cache=True, _nrt=False, inline='always')
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


# ---- actions -------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline='always')
def apply_play(v, st, p, t, nh, no, nb):
    """Cards of type t leave p (nh from hand, no open, nb face-down already removed) onto the pile."""
    v[p, V_HAND + t] -= nh
    v[p, V_HAND_N] -= nh
    v[p, V_OPEN + t] -= no
    v[p, V_OPEN_N] -= no
    note(v, st, p, 0, t)
    note(v, st, p, 1, t)
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


@njit(cache=True, _nrt=False, inline='always')
def pass_card(v, st, p, part, c, q):
    """One card of type c from p's hand (part 0) or open row (part 1) into q's hand, the type bits in step."""
    v[p, V_HAND + part * (V_OPEN - V_HAND) + c] -= 1
    v[p, V_HAND_N + part * (V_OPEN_N - V_HAND_N)] -= 1
    note(v, st, p, part, c)
    v[q, V_HAND + c] += 1
    v[q, V_HAND_N] += 1
    st[ST_HELD + 2 * q] |= 1 << c


@njit(I(M2, ST, I, I, I, I), cache=True, _nrt=False)
def resolve_ability(v, st, p, phase, option, res):
    """Carry out an ability's chosen option after the play that triggered it."""
    if phase == PH_BALL:
        r = np.random.randint(0, v[p, V_HAND_N])
        c = 1
        while r >= v[p, V_HAND + c]:
            r -= v[p, V_HAND + c]
            c += 1
        pass_card(v, st, p, 0, c, option)
        st[ST_G + G_BALLS] += 1
        queue(st, T_BALL, p, option, c, 0, 0)
        if cards_left(v, p) == 0:
            return R_OUT
    elif phase == PH_SECRET:
        pass_card(v, st, p, 1, option, p)
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


@njit(cache=True, _nrt=False, inline='always')
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
        note(v, st, p, 0, t)
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
