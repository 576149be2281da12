"""Drachensachen kernel, part 3: a round.

Each seat's sizes after curses, the shuffle and deal with the exchanges, the turns until someone is out (or
the turn cap), the starter of the next round and the coins a player pays for the cards left.
"""

import numpy as np
from numba import njit, types
from sim.engine import rng as fastrng
from sim.engine.strategy import njit_later

from sim.games.drachensachen.records import (
    AB_GOLD, CURSE_CHAOS, CURSE_MANY, CURSE_UNKNOWING, F_CURSE_CHAOS, F_CURSE_MANY, F_CURSE_UNKNOWING, F_EXCHANGE,
    F_FIVES_SPARE, F_GOLD, F_HIDDEN_BACK, F_REFILL, G_CHECK_FAILS, G_PICKUPS, G_SKIPS, G_TURNS, G_VIOLATIONS,
    K_BLIND, K_DISCARD, K_KEEP, K_PEEK, K_PLAY, K_SWAP, K_TAKE, MAX_HIDDEN, MAX_PLAYERS, N_TYPES, PH_BALL, PH_DRAW,
    PH_PLAY, PH_SECRET, PH_SETUP, PH_SKIP, PRESET_HEAD, R_BACK_COINS, R_CURSE_CHAOS,
    R_CURSE_HAND, R_CURSE_HIDDEN, R_CURSE_MANY, R_CURSE_OPEN, R_CURSE_UNKNOWING, R_EXCHANGES, R_FIVES_SPARE, R_HAND,
    R_HIDDEN, R_HIDDEN_BACK, R_OPEN, R_PILE, R_REFILL, R_TURN_CAP, SEAT_FNS, T_CURSE, T_DECK, T_MISS, T_PILE, T_REFILL,
    T_ROUND, T_SETUP, T_SWAP, VIEW_LEN, V_HAND, V_HAND_N, V_HIDDEN_N, V_OPEN, V_OPEN_N,
)
from sim.games.drachensachen.kernel_base import (
    A1, ASKED, AT_CHOICE, AT_NONE, AT_PLAY, AT_SETUP, B, BIG, F2, I, M2, PAIR, R_EXTRA, R_MISSED, R_MORE, R_OUT,
    ST, ST_ACTIVE, ST_CURSE, ST_DECK, ST_G, ST_HELD, ST_HIDDEN, ST_KNOWN, ST_LOST, ST_NOT, ST_OUT, ST_PILE, ST_PSNAP,
    ST_R, ST_REDRAW, ST_REST, ST_SIZE, S_ANSWER, S_AT, S_DECK_N, S_DIR, S_DRAW, S_DRAW_END, S_DRAW_POS, S_DRAW_SNAP,
    S_FORCED,
    S_LOWMARK, S_P, S_PEND, S_PENDING, S_PHASE, S_PLAYERS, S_QN, S_QUICK, S_QUICK_TURN, S_RES, S_ROUND, S_SINCE,
    S_SKIP, S_SKIP_SRC, S_TRACING, S_TURNS, TR, U1, asks, cards_left, checked, count_faults, draw_cards, fill_view,
    flush, legal_mask, lowest_bit, rec, reset_pile_state, round_view, set_held, step,
)
from sim.games.drachensachen.kernel_moves import ability_moves, act, phase_moves, resolve_ability, settle_counts


@njit(I(ST, I), cache=True, _nrt=False)
def deck_card(st, i):
    """Card i of the shuffled deck (0 past its end)."""
    return st[ST_DECK + i] if i < st[S_DECK_N] else 0


@njit(types.void(I, I, I, A1, M2, ST, A1, TR, U1), cache=True, _nrt=False)
def deal_round(rnd, starter, chaos, preset, v, st, rint, tr, state):
    """Shuffle, deal and lay out the redraw pile (the exchanges follow: `exchanges`)."""
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
        set_held(v, st, p)
    rest = ST_DECK + deck_n - pos
    n_pile = rest if chaos == 1 else min(rint[R_PILE], rest)
    for i in range(n_pile):
        st[ST_REDRAW + i] = st[pos]
        pos += 1
    st[S_DRAW_POS] = 0
    st[S_DRAW_END] = n_pile
    rec(tr, st, T_PILE, -1, n_pile, 0, 0, 0, 0, 0)
    for t in range(N_TYPES):
        st[ST_REST + t] = 0
    while pos < ST_DECK + deck_n:
        st[ST_OUT + st[pos]] += 1
        st[ST_REST + st[pos]] += 1
        pos += 1
    st[S_DIR] = 1
    st[S_ROUND] = rnd
    for p in range(players):
        round_view(v, st, p)


@njit(cache=True, _nrt=False, inline='always')
def exchanges(v, st, moves, rint, setup_fns, params, tr, search):
    """Everyone's exchanges, in seat order (each seat once per allowed exchange). With `search` (a constant:
    the plain path's code compiles away) a searching seat's choice stops the machine (returns True; `stop_at`
    with the step in S_TURNS, the options in moves); called again with the answer in S_ANSWER, it goes on from
    there. With `search` the cards a seat takes up from its open row are noted as seen (ST_KNOWN)."""
    players = st[S_PLAYERS]
    resumed = search and st[S_AT] == AT_SETUP
    first = st[S_TURNS] if resumed else 0
    for i in range(first, rint[R_EXCHANGES] * players):
        p = i % players
        if resumed:
            k = st[S_ANSWER]
            st[S_AT] = AT_NONE
            resumed = False
        else:
            moves[0, 0] = K_KEEP
            n = 1
            # every hand type with every other open type, from the type bits (testing each of the twelve hand
            # counts mispredicted every other time)
            hand_types = st[ST_HELD + 2 * p]
            open_types = st[ST_HELD + 2 * p + 1]
            while hand_types != 0:
                ht = lowest_bit(hand_types)
                hand_types &= hand_types - 1
                others = open_types & ~(1 << ht)
                while others != 0:
                    moves[n, 0] = K_SWAP
                    moves[n, 1] = ht
                    moves[n, 2] = lowest_bit(others)
                    others &= others - 1
                    n += 1
            k = 0
            if n > 1:
                fill_view(v, st, p, PH_SETUP)
                if search and asks(st, p):
                    stop_at(st, AT_SETUP, p, i, PH_SETUP, 0, 0, n)
                    return True
                k = checked(setup_fns[p](moves, n, v[p], params[p]), n, st)
        if moves[k, 0] == K_SWAP:
            ht = moves[k, 1]
            ot = moves[k, 2]
            v[p, V_HAND + ht] -= 1
            v[p, V_OPEN + ht] += 1
            v[p, V_OPEN + ot] -= 1
            v[p, V_HAND + ot] += 1
            set_held(v, st, p)
            st[ST_G + F_EXCHANGE] += 1
            rec(tr, st, T_SWAP, p, ht, ot, 0, 0, 0, 0)
            if search:
                st[ST_KNOWN + p * N_TYPES + ot] += 1
                st[ST_KNOWN + p * N_TYPES + ht] = max(0, st[ST_KNOWN + p * N_TYPES + ht] - 1)
    return False


# ---- what a searching seat sees of the others' hands (the machine's `search` path only) -------------------
# the default heuristic (weighted) scores every play above taking a pile, so it takes one only when no card in its
# hand may go on it, unless play has gone round in circles for more than its patience (then it may move at random)
BELIEF_STALL = 100


@njit(types.void(M2, I, M2, ST, I), cache=True, _nrt=False)
def seen_before(moves, k, v, st, p):
    """Before seat p carries out option k: the pile as it lies and the pick-ups so far (a pick-up makes the pile
    known in p's hand); cards p plays or puts out from its hand leave what it is known to hold."""
    for t in range(1, N_TYPES):
        st[ST_PSNAP + t] = st[ST_PILE + t]
    st[ST_PSNAP] = st[ST_G + G_PICKUPS]
    kind = moves[k, 0]
    less = moves[k, 2] if kind == K_PLAY else (4 if kind == K_DISCARD else 0)
    i = ST_KNOWN + p * N_TYPES + moves[k, 1]
    if less > st[i]:
        st[ST_NOT + p] &= ~(1 << moves[k, 1])       # it held some unseen after all (not the modelled heuristic)
    st[i] = max(0, st[i] - less)
    # a pick-up with cards in hand: none of them could go on the pile (ST_NOT); a draw since forgets it
    if kind == K_TAKE and v[p, V_HAND_N] > 0 and st[S_SINCE] <= BELIEF_STALL:
        st[ST_NOT + p] |= legal_mask(st)
    st[S_DRAW_SNAP] = st[S_DRAW_POS]


@njit(types.void(M2, I, M2, ST, I), cache=True, _nrt=False)
def seen_after(moves, k, v, st, p):
    """After seat p's option k: a pile it took is known in its hand, with the face-down card it turned up; cards it
    drew unseen end what its plays said of its hand."""
    if st[S_DRAW_POS] > st[S_DRAW_SNAP]:
        st[ST_NOT + p] = 0
    if st[ST_G + G_PICKUPS] > st[ST_PSNAP]:
        for t in range(1, N_TYPES):
            st[ST_KNOWN + p * N_TYPES + t] += st[ST_PSNAP + t]
        if moves[k, 0] == K_BLIND or moves[k, 0] == K_PEEK:
            st[ST_KNOWN + p * N_TYPES + st[ST_HIDDEN + p * MAX_HIDDEN + v[p, V_HIDDEN_N]]] += 1


@njit(types.void(ST, I, I, I), cache=True, _nrt=False)
def seen_ability(st, p, phase, option):
    """After seat p's ability: an open card taken up is known in its hand; a card given away at random (Monsterball)
    may have been any of those it was known to hold (so what its plays said of the rest is forgotten), and the seat
    given it (option) holds a card unseen."""
    if phase == PH_SECRET:
        st[ST_KNOWN + p * N_TYPES + option] += 1
    elif phase == PH_BALL:
        st[ST_NOT + p] = 0
        st[ST_NOT + option] = 0
        for t in range(1, N_TYPES):
            st[ST_KNOWN + p * N_TYPES + t] = max(0, st[ST_KNOWN + p * N_TYPES + t] - 1)


@njit(types.void(ST), cache=True, _nrt=False)
def forget_seen(st):
    for i in range(MAX_PLAYERS * N_TYPES):
        st[ST_KNOWN + i] = 0
    for q in range(MAX_PLAYERS):
        st[ST_NOT + q] = 0


# search only (a called function: numba inlines before it prunes, and the plain rounds never stop)
@njit_later(types.void(ST, I, I, I, I, I, I, I), cache=True, _nrt=False)
def stop_at(st, at, p, turns, phase, pend, res, n):
    """Where the machine stops for a searching seat's decision, for the search and for going on (S_AT to S_NOPT)."""
    where = (at, p, turns, phase, pend, res, n)
    for i in range(7):
        st[S_AT + i] = where[i]


@njit(cache=True, _nrt=False, inline='always')
def turns_on(starter, v, st, moves, play_fns, choice_fns, params, tr, check, search):
    """Turns until someone has no cards left (returns them) or the turn cap (returns -1), and the turns played.

    With `search` (a constant: `play_round` passes False and the code for it compiles away) the round is a
    resumable machine: at a decision of a searching seat (`asks`) it stops and returns ASKED, with where it
    stopped in the state (`stop_at`) and the options in moves; called again with the answer in S_ANSWER (an
    option row, its counts already in the row), it goes on from there. A copy of the arrays at a decision can
    be played on from the same way (kernel_search)."""
    cap = st[ST_R + R_TURN_CAP]
    refill = st[ST_R + R_REFILL] == 1
    at = st[S_AT] if search else AT_NONE
    if at == AT_NONE:
        p = starter
        turns = 0
        st[S_QUICK] = 0
        st[S_LOWMARK] = BIG
        st[S_SINCE] = 0
    else:
        p = st[S_P]
        turns = st[S_TURNS]
        st[S_AT] = AT_NONE
    while True:
        if at == AT_NONE:
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
        else:
            phase = st[S_PHASE]
        res = R_MORE
        while res == R_MORE:
            if at == AT_CHOICE:
                # resumed at an ability's choice: the play that triggered it is done
                at = AT_NONE
                res = resolve_ability(v, st, p, st[S_PEND], moves[st[S_ANSWER], 1], st[S_RES])
                seen_ability(st, p, st[S_PEND], moves[st[S_ANSWER], 1])
            else:
                if at == AT_PLAY:
                    at = AT_NONE
                    k = st[S_ANSWER]
                    if moves[k, 0] == K_PLAY:
                        st[ST_G + G_VIOLATIONS] += settle_counts(moves, k, v, st, p)
                else:
                    n = phase_moves(moves, v, st, p, phase)
                    k = 0
                    # a lone play row still leaves a choice when it can take more than one card
                    if n > 1 or (moves[0, 0] == K_PLAY and moves[0, 2] + moves[0, 3] > 1):
                        fill_view(v, st, p, phase)
                        if search and asks(st, p):
                            stop_at(st, AT_PLAY, p, turns, phase, 0, 0, n)
                            return ASKED, turns
                        k = checked(play_fns[p](moves, n, v[p], params[p]), n, st)
                        if moves[k, 0] == K_PLAY:
                            st[ST_G + G_VIOLATIONS] += settle_counts(moves, k, v, st, p)
                if search:
                    seen_before(moves, k, v, st, p)
                res = act(moves, k, v, st, p)
                if search:
                    seen_after(moves, k, v, st, p)
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
                            if search and asks(st, p):
                                stop_at(st, AT_CHOICE, p, turns, phase, pend, res, n)
                                return ASKED, turns
                            k = checked(choice_fns[p](moves, n, v[p], params[p]), n, st)
                        res = resolve_ability(v, st, p, pend, moves[k, 1], res)
                        if search:
                            seen_ability(st, p, pend, moves[k, 1])
            if st[S_QN] > 0:
                flush(tr, st)
        if res == R_OUT:
            return p, turns
        # short of the hand size with cards left to draw (counted without a branch: it is unpredictable)
        short = (res != R_MISSED) & (v[p, V_HAND_N] < st[ST_SIZE + 3 * p]) & (st[S_DRAW_POS] < st[S_DRAW_END])
        st[ST_G + F_REFILL] += short
        if refill and short:
            got = draw_cards(v, st, p, st[ST_SIZE + 3 * p] - v[p, V_HAND_N])
            rec(tr, st, T_REFILL, p, got, 0, 0, 0, 0, 0)
            if search and got > 0:
                st[ST_NOT + p] = 0
        # progress: a new lowest card count this round (no new low for long = play is going round in circles)
        c = cards_left(v, p)
        low = st[S_LOWMARK]
        st[S_LOWMARK] = min(c, low)
        st[S_SINCE] = (st[S_SINCE] + 1) * (c >= low)
        if check:
            st[ST_G + G_CHECK_FAILS] += count_faults(v, st)
        if res != R_EXTRA:
            p = step(p, st)


@njit(PAIR(I, M2, ST, M2, SEAT_FNS, SEAT_FNS, F2, TR, B), cache=True, _nrt=False)
def play_round(starter, v, st, moves, play_fns, choice_fns, params, tr, check):
    """A round's turns (`turns_on`), every decision answered by the seats' functions."""
    return turns_on(starter, v, st, moves, play_fns, choice_fns, params, tr, check, False)


@njit_later(PAIR(I, M2, ST, M2, SEAT_FNS, SEAT_FNS, F2, TR, B), cache=True, _nrt=False)
def round_machine(starter, v, st, moves, play_fns, choice_fns, params, tr, check):
    """A round's turns (`turns_on`) as a resumable machine: stops at a searching seat's decision."""
    return turns_on(starter, v, st, moves, play_fns, choice_fns, params, tr, check, True)


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


@njit(I(I, I, ST, A1, U1), cache=True, _nrt=False)
def pick_starter(rnd, last, st, preset, state):
    """Random in the first round (drawn with the deal, on its stream); then most coins lost, ties to the left of
    the last starter."""
    players = st[S_PLAYERS]
    if rnd == 0:
        if preset.size > 0:
            return preset[0]
        return fastrng.below(state, players)
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
