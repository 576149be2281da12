"""Drarkane kernel, part 5: a round.

The table game's round (the deal, the teams' exchanges, the contracts, then tricks until the hands are empty
or the zone is full) and a solo game against the Demon.
"""

from numba import njit
from strategies.drarkane import draw, estimate_contract

from sim.games.drarkane.records import (
    CF_AUTO_CARDS, CF_AUTO_MERC_HIGH, CF_CHECK, CF_CONTRACT_MAX, CF_DECK_N, CF_EGG_LOW, CF_EXCH_RETURN, CF_FK_MAY_LEAD,
    CF_HAND, CF_MODE, CF_N_DRAGONS, CF_OBJ_FIRST, CF_OPEN_EXCHANGE, CF_PLAYERS, CF_RANK_1, CF_ROUNDS, CF_SEATS,
    CF_SOLO_BOUNDARY, CF_SOLO_EVERY_TRICK, CF_SOLO_SPLIT, CF_START_DRAGONS, CF_TEAMS, CF_TREASURES, CF_TRICK_CAP,
    CF_TRICK_EXCHANGE, CF_TRUMP, CF_ZONE_LIMIT, CTX_OFFER, CTX_OPENING, CTX_REPLY, EV_BID, EV_DECK, EV_DRAGON_DECK,
    EV_DRAW, EV_GIVE, EV_OFFER, EV_REPLY, EV_RESHUFFLE, EV_ROUND, EV_ROUND_END, EV_SCORE, EV_TRICK,
    MERCENARY, MODE_FALLEN_KING, MODE_SOLO, M_CARD, M_MODE, M_SLOT, S_CONTEXT, S_OFFER,
)
from sim.games.drarkane.kernel_base import (
    BID_ESTIMATE, BID_RANDOM, CALL, D_BID, D_GIVE, D_PLAY, FD_EXCH_RETURN, FD_FK, FD_FK_LEAD, FD_OPEN_EXCHANGE,
    FD_RESHUFFLE, FD_SOLO_80, FD_SOLO_EVERY, FD_SOLO_PILE, FD_TEAMS, FD_TRICK_EXCHANGE, FD_TRICK_SWAP, GS_ANSWER,
    GS_AUTO_DEF, GS_AUTO_PTR, GS_AUTO_TERROR, GS_AUTO_TRICKS, GS_BAD, GS_BIDS_SUM, GS_BY, GS_DEF_TRICK, GS_DISC,
    GS_DPILE, GS_DPILE_N, GS_DPTR, GS_FIRST, GS_GAVE, GS_LAST_WINNER, GS_LEADER, GS_LOST, GS_N_BIDS, GS_PHASE, GS_PILE,
    GS_PILE_N, GS_PLAYED, GS_POOL, GS_Q, GS_ROUND, GS_STALEMATE, GS_STEP, GS_T, GS_TG, GS_TN, GS_TRICK, GS_TSTEP,
    GS_TWIN, GS_TWPOS, GS_VIOL, GS_VOID, GS_XIN, GS_XN, GS_XOUT, GS_XSLOT, GS_XSTEP, GS_ZOBJ_N, GS_ZONE_N, GS_ZSLOTS,
    ID_MASK, ON_DRAGON, PH_BID, PH_DEAL, PH_DRAFT_AFTER, PH_DRAFT_FIRST, PH_EXCHANGE, PH_TRICKS, PS_BID, PS_EXACT,
    PS_OBJ, PS_SCORE, PS_SIZE, PS_STREAK, PS_TERROR, PS_TOTAL, PS_TRICKS, PS_WON_LAST, SEARCH, TS_EXCHANGE, TS_PLACE,
    TS_PLAY, TS_REVEAL, T_SEAT, Z_DMG, Z_ID, answer, ask, by_question, card_bit, checked, deal_card, deal_hand,
    fill_state, hand_rows, partner_of, put_slot, rec, shuffle, shuffled_ids, take_slot,
)
from sim.games.drarkane.kernel_zone import place_trick, reveal, zone_full
from sim.games.drarkane.kernel_trick import choose_card, count_trick, play_card, play_trick, trick_eval
from sim.games.drarkane.kernel_score import check_end_objectives, check_instant, draft, score_round


BIG_BID = 1000     # solo: the player always wants more tricks


@njit(cache=True, _nrt=False)
def opening_exchange(cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params, codes, trace):
    """Partners each pass one card; the one earlier in turn order gives first. Returns a question when a searching
    seat gives (see play_round), else -1."""
    players = cf[CF_PLAYERS]
    half = players // 2
    start = gs[GS_STEP] if gs[GS_ANSWER] != 0 else 0      # resumed at the give that asked
    for g in range(start, 2 * half):
        t = g >> 1
        step = g & 1
        a = t
        b = t + half
        if (a - gs[GS_FIRST]) % players > (b - gs[GS_FIRST]) % players:
            a, b = b, a
        giver = a if step == 0 else b
        taker = b if step == 0 else a
        # the second giver may not hand back the card just received (it sits last), unless
        # team_exchange_may_return
        n = hand_rows(hand, hand_n, giver, kind, colour, value, moves) - step * (1 - cf[CF_EXCH_RETURN])
        if gs[GS_ANSWER] == 0:          # (counted once, not again when resumed)
            gs[FD_OPEN_EXCHANGE] += 1
            gs[FD_EXCH_RETURN] += step
        if n <= 0:
            continue
        fill_state(state, giver, cf, gs, ps, hand_n, cf[CF_HAND])
        state[S_CONTEXT] = CTX_OPENING
        if by_question(codes[D_GIVE, giver], gs):
            i = answer(gs)
            if i < 0:
                gs[GS_STEP] = g
                return ask(gs, D_GIVE, giver, n, n)
        else:
            i = checked(give_fns[giver](moves, n, state, params[giver]), 0, n, gs)
        c = hand[giver, i]
        take_slot(hand, hand_n, hx, giver, i)
        deal_card(hand, hand_n, hx, taker, c)
        gs[GS_GAVE + giver] |= card_bit(c)      # (read by the search only: the giver knows where the card went)
        rec(trace, gs, EV_GIVE, giver, taker, c, 0)
    return -1


ASKED = -2      # give_slot: the searching seat was asked


@njit(cache=True, _nrt=False)
def passed(gs, a, b, c):
    """Seat a gave card c to its partner b after the contracts: the masks the search reads (kernel_base.GS_GAVE...),
    the flows after the contracts kept net (a card given back leaves both masks)."""
    bit = card_bit(c)
    gs[GS_GAVE + a] |= bit
    back = gs[GS_XIN + a] & bit
    gs[GS_XIN + a] &= ~bit
    gs[GS_XOUT + a] |= bit & ~back
    back = gs[GS_XOUT + b] & bit
    gs[GS_XOUT + b] &= ~bit
    gs[GS_XIN + b] |= bit & ~back
    gs[GS_XN + a] += 1


@njit(cache=True, _nrt=False)
def give_slot(s, context, offer, cf, kind, colour, value, hand, hand_n, gs, ps, moves, state, give_fns, params, codes):
    """Seat s's give strategy over its hand (in `context`; `offer`: the card offered to it, or -1): the slot of
    the card it gives, -1 when it gives none, or ASKED (a searching seat: its options are its cards, then none)."""
    n = hand_rows(hand, hand_n, s, kind, colour, value, moves)
    fill_state(state, s, cf, gs, ps, hand_n, cf[CF_HAND])
    state[S_CONTEXT] = context
    state[S_OFFER] = offer
    if by_question(codes[D_GIVE, s], gs):
        i = answer(gs)
        if i < 0:
            ask(gs, D_GIVE, s, n + 1, n)
            return ASKED
        return -1 if i == n else i
    i = give_fns[s](moves, n, state, params[s])
    return i if i < 0 else checked(i, 0, n, gs)


@njit(cache=True, _nrt=False)
def trick_exchange(w, cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params, codes, trace):
    """The trick winner may offer a card; the partner returns it or swaps one of theirs for it. Returns a question
    when a searching seat is asked (gs[GS_XSTEP]: 0 the offer, 1 the reply; GS_XSLOT: the slot offered), else -1."""
    p = partner_of(cf, w)
    first = gs[GS_XSTEP] if gs[GS_ANSWER] != 0 else 0      # resumed at the step that asked
    if first == 0 and (hand_n[w] == 0 or hand_n[p] == 0):
        return -1
    i = gs[GS_XSLOT]
    j = -1
    for step in range(first, 2):
        s = w if step == 0 else p
        j = give_slot(s, CTX_OFFER if step == 0 else CTX_REPLY, -1 if step == 0 else hand[w, i], cf, kind, colour,
                      value, hand, hand_n, gs, ps, moves, state, give_fns, params, codes)
        if j == ASKED:
            gs[GS_XSTEP] = step
            gs[GS_XSLOT] = i
            return gs[GS_Q]
        rec(trace, gs, EV_OFFER if step == 0 else EV_REPLY, s, hand[s, j] if j >= 0 else -1, 0, 0)
        if j < 0:
            return -1
        gs[FD_TRICK_EXCHANGE if step == 0 else FD_TRICK_SWAP] += 1
        if step == 0:
            i = j
    c = hand[w, i]
    back = hand[p, j]
    put_slot(hand, hx, p, j, c)
    put_slot(hand, hx, w, i, back)
    passed(gs, w, p, c)             # what the search reads of the swap (GS_GAVE, GS_XIN, GS_XOUT, GS_XN)
    passed(gs, p, w, back)
    gs[GS_VOID + p] = 0         # each may now hold a colour it showed it lacked
    gs[GS_VOID + w] = 0
    return -1


@njit(cache=True, _nrt=False)
def shuffle_deck(deck, deck_cards, nd, card_loc, cf, gs, state, trace):
    """The nd cards of the game into `deck` in the order of the game's stream, none on a dragon; traced."""
    for i in range(nd):
        deck[i] = deck_cards[i]
        card_loc[deck_cards[i] & ID_MASK] = -1
    for d in range(cf[CF_N_DRAGONS]):
        card_loc[ON_DRAGON + d] = 0
    shuffle(state, deck, nd)
    if gs[GS_TG] >= 0:
        for i in range(nd):
            rec(trace, gs, EV_DECK, i, deck[i], 0, 0)


@njit(cache=True, _nrt=False)
def start_round(zone, gs, ddeck, dr, cf, state, trace):
    """The round's counters at 0 (an empty zone, no trick, bid, discard or defeat yet) and a shuffled dragon
    deck, then the starting dragons revealed. (A solo game is one round: its pile pointers are set before.)"""
    shuffled_ids(state, ddeck, cf[CF_N_DRAGONS], gs, trace, EV_DRAGON_DECK)
    gs[GS_ZONE_N] = 0
    gs[GS_ZSLOTS] = 0
    gs[GS_DPTR] = 0
    gs[GS_POOL] = 0
    gs[GS_TRICK] = 0
    gs[GS_LOST] = 0
    gs[GS_AUTO_PTR] = 0
    gs[GS_AUTO_TERROR] = 0
    gs[GS_AUTO_DEF] = 0
    gs[GS_BIDS_SUM] = 0
    gs[GS_N_BIDS] = 0
    gs[GS_ZOBJ_N] = 0
    gs[GS_PLAYED] = 0
    gs[GS_DISC] = 0
    for i in range(cf[CF_START_DRAGONS]):
        reveal(zone, gs, ddeck, dr, cf, trace)


@njit(cache=True, inline='always', _nrt=False)
def play_round(cf, tables, work, fns, params, codes, trace, search):
    """Deal, draft, exchange, bid and play tricks until the hands are empty or the zone is full. Returns -1.

    With `search` (a constant: the batch's plain path passes False, and the code for it compiles away) the round
    is a resumable machine: at a decision of a seat whose code is SEARCH it stops and returns the question
    (`ask`: decision * MAX_SEATS + seat; the options are in moves, pairs or objopt), with where it stopped in gs
    (GS_PHASE and the phase's step). Called again with the answer in gs[GS_ANSWER], it goes on from there; a
    copy of the arrays at a question can be played on from the same way (kernel_search).

    Inlined into run_batch: a call passed some three hundred words of array arguments, three times a game. The
    arrays come in three tuples because numba inlines only calls of fewer than 30 arguments."""
    kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob = tables
    (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
     played) = work
    bid_fns, play_fns, place_fns, give_fns, draft_fns = fns
    mode = cf[CF_MODE]
    players = cf[CF_PLAYERS]
    seats = cf[CF_SEATS]
    H = cf[CF_HAND]
    auto = 2 if mode == MODE_FALLEN_KING else -1
    first = gs[GS_FIRST]
    resumed = search and gs[GS_ANSWER] != 0
    ph = gs[GS_PHASE] if resumed else PH_DEAL
    if ph == PH_DEAL:
        rec(trace, gs, EV_ROUND, gs[GS_ROUND], first, H, 0)
        nd = cf[CF_DECK_N]
        shuffle_deck(deck, deck_cards, nd, card_loc, cf, gs, state, trace)
        if cf[CF_CHECK] != 0:           # `played` is read only by the invariant checks
            for i in range(nd):
                played[deck_cards[i]] = 0
        pos = 0
        for s in range(seats):
            cnt = H if s < players else cf[CF_AUTO_CARDS]
            deal_hand(hand, hand_n, hx, s, deck, pos, cnt)
            pos += cnt
            for k in range(PS_SIZE):
                if k != PS_TOTAL and k != PS_EXACT:
                    ps[s, k] = 0
            ps[s, PS_OBJ] = -1
            if search:
                gs[GS_VOID + s] = 0
                gs[GS_GAVE + s] = 0
                gs[GS_XIN + s] = 0
                gs[GS_XOUT + s] = 0
                gs[GS_XN + s] = 0
                gs[GS_BY + s] = 0
        if search:
            gs[GS_TN] = 0           # no trick yet (kernel_search reads the trick's cards as seen)
        start_round(zone, gs, ddeck, dr, cf, state, trace)
        if cf[CF_TEAMS] != 0:
            gs[FD_TEAMS] += 1
        ph = PH_DRAFT_FIRST
    if ph == PH_DRAFT_FIRST:
        if cf[CF_TREASURES] != 0 and cf[CF_OBJ_FIRST] != 0:
            q = draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, codes, trace)
            if q >= 0:
                gs[GS_PHASE] = ph
                return q
        ph = PH_EXCHANGE
    if ph == PH_EXCHANGE:
        if cf[CF_TEAMS] != 0 and cf[CF_OPEN_EXCHANGE] != 0:
            q = opening_exchange(cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns, params,
                                 codes, trace)
            if q >= 0:
                gs[GS_PHASE] = ph
                return q
        ph = PH_BID
    if ph == PH_BID:
        # contract phase, in turn order from the first player
        for j in range(gs[GS_STEP] if resumed and gs[GS_ANSWER] != 0 else 0, seats):
            s = (first + j) % seats
            if s >= players:
                continue
            code = codes[D_BID, s]
            if search and gs[GS_ANSWER] != 0:
                code = SEARCH       # the answer pending is this decision's
            if code == BID_ESTIMATE:        # bid_estimate over the hand, in hand order (worths: build_worths)
                total = 0.0
                for i in range(hand_n[s]):
                    total += worths[s, hand[s, i]]
                b = estimate_contract(total, worths[s, -1], cf[CF_CONTRACT_MAX], params[s], gs[GS_N_BIDS], seats)
            elif code == BID_RANDOM:
                b = draw(state, cf[CF_CONTRACT_MAX] + 1)
            else:
                n = hand_rows(hand, hand_n, s, kind, colour, value, moves)
                fill_state(state, s, cf, gs, ps, hand_n, H)
                if search and code == SEARCH:
                    b = answer(gs)
                    if b < 0:
                        gs[GS_STEP] = j
                        gs[GS_PHASE] = ph
                        return ask(gs, D_BID, s, cf[CF_CONTRACT_MAX] + 1, n)
                else:
                    b = bid_fns[s](moves, n, state, params[s])
            if b < 0 or b > cf[CF_CONTRACT_MAX]:
                gs[GS_BAD] += 1
                b = 0 if b < 0 else cf[CF_CONTRACT_MAX]
            ps[s, PS_BID] = b
            gs[GS_BIDS_SUM] += b
            gs[GS_N_BIDS] += 1
            rec(trace, gs, EV_BID, s, b, 0, 0)
        ph = PH_DRAFT_AFTER
    if ph == PH_DRAFT_AFTER:
        if cf[CF_TREASURES] != 0 and cf[CF_OBJ_FIRST] == 0:       # the other reading: contracts first
            q = draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, codes, trace)
            if q >= 0:
                gs[GS_PHASE] = ph
                return q
    call_play = False       # whether a seat calls its play function or is asked (else its choice runs inline)
    for s in range(seats):
        call_play |= s != auto and (codes[D_PLAY, s] == CALL or (search and by_question(codes[D_PLAY, s], gs)))
    leader = first
    t = 0
    step = TS_REVEAL
    w = first
    wpos = 0
    if resumed and gs[GS_ANSWER] != 0:      # a trick goes on from the question it stopped at
        leader = gs[GS_LEADER]
        t = gs[GS_T]
        step = gs[GS_TSTEP]
        w = gs[GS_TWIN]
        wpos = gs[GS_TWPOS]
    while t < H:
        if step == TS_REVEAL:
            if t > 0:
                reveal(zone, gs, ddeck, dr, cf, trace)
                if zone_full(gs, cf):
                    break
            gs[GS_TN] = 0
            step = TS_PLAY
        q = -1
        if step == TS_PLAY:
            wpos = play_trick(leader, auto, cf, kind, colour, value, keys, ptab, follows, hand, hand_n, hx, gs, ps, tr,
                              moves, state, played, play_fns, params, codes, call_play, trace, H, search)
            if search and wpos < 0:
                q = gs[GS_Q]
            else:
                w = tr[wpos, T_SEAT]
                gs[GS_TRICK] = t + 1
                if auto >= 0:
                    gs[FD_FK] += 1
                # streaks: only the leader (last trick's winner) can have one, so only its streak may end here
                streak = ps[w, PS_STREAK]
                ps[leader, PS_STREAK] = 0
                ps[w, PS_STREAK] = streak + 1
                ps[w, PS_TRICKS] += 1
                if w == auto:
                    gs[GS_AUTO_TRICKS] += 1
                rec(trace, gs, EV_TRICK, w, t + 1, 0, 0)
                step = TS_PLACE
        if step == TS_PLACE:
            q = place_trick(w, auto, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                            discard, place_fns, params, codes, ranks, trace, search)
            if q < 0:
                if cf[CF_TREASURES] != 0:
                    check_instant(w, wpos, cf, kind, colour, value, ob, gs, ps, tr, zobj, trace)
                step = TS_EXCHANGE
        if step == TS_EXCHANGE:
            if cf[CF_TEAMS] != 0 and cf[CF_TRICK_EXCHANGE] != 0 and t < H - 1:
                q = trick_exchange(w, cf, kind, colour, value, hand, hand_n, hx, gs, ps, moves, state, give_fns,
                                   params, codes, trace)
        if search and q >= 0:
            gs[GS_PHASE] = PH_TRICKS
            gs[GS_LEADER] = leader
            gs[GS_T] = t
            gs[GS_TSTEP] = step
            gs[GS_TWIN] = w
            gs[GS_TWPOS] = wpos
            return q
        if cf[CF_CHECK] != 0:
            check_trick(cf, dr, zone, gs, hand_n, players, auto, H)
        leader = w
        t += 1
        step = TS_REVEAL
    ps[leader, PS_WON_LAST] = 1
    gs[GS_LAST_WINNER] = leader
    if cf[CF_TREASURES] != 0 and gs[GS_LOST] == 0:
        check_end_objectives(cf, ob, gs, ps, zobj, trace)
    score_round(cf, gs, ps, trace)
    return -1


@njit(cache=True, _nrt=False)
def check_trick(cf, dr, zone, gs, hand_n, players, auto, H):
    """Invariants after a trick: cards conserved, zone below its limit, damage below resistance."""
    left = 0
    for s in range(cf[CF_SEATS]):
        left += hand_n[s]
    dealt = H * players + (cf[CF_AUTO_CARDS] if auto >= 0 else 0)
    if left + gs[GS_PLAYED] != dealt:
        gs[GS_VIOL] += 1
    if gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]:
        gs[GS_VIOL] += 1
    for z in range(gs[GS_ZONE_N]):
        if zone[z, Z_DMG] >= dr[zone[z, Z_ID], 1] or zone[z, Z_DMG] < 0:
            gs[GS_VIOL] += 1


# ---- solo against the Demon --------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def solo_next_card(pile, ip, i_n, which, discard, gs, card_loc, state, trace):
    """Top card of a pile (`pile[gs[ip]:gs[i_n]]`), shuffling the discard pile into it when it runs out; -1 if
    none. `which`: 0 the draw pile (shared with the Demon by default), 1 the Demon's own deck."""
    if gs[ip] >= gs[i_n]:
        n = gs[GS_DISC]
        if n == 0:
            return -1
        for i in range(n):
            pile[i] = discard[i]
        shuffle(state, pile, n)
        for i in range(n):
            rec(trace, gs, EV_RESHUFFLE, i, pile[i], which, 0)
            card_loc[pile[i]] = -1
        gs[ip] = 0
        gs[i_n] = n
        gs[GS_DISC] = 0
        gs[FD_RESHUFFLE] += 1
        gs[FD_SOLO_PILE] += 1
    c = pile[gs[ip]]
    gs[ip] += 1
    return c


@njit(cache=True, _nrt=False)
def play_solo(cf, tables, work, fns, params, codes, trace, search):
    """One solo game: the player (seat 0) against the Demon (seat 1), who plays the top card of the pile. Returns -1
    (the score in ps[0, PS_SCORE]: `solo_rank`); with `search`, a question when the searching player is asked, as
    play_round.

    `played` (unused in solo) holds the Demon's own deck when the piles are separate (solo_shared_pile off)."""
    kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob = tables
    (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
     played) = work
    play_fns = fns[1]
    place_fns = fns[2]
    H = cf[CF_HAND]
    nd = cf[CF_DECK_N]
    split = cf[CF_SOLO_SPLIT] != 0
    dp = GS_DPILE if split else GS_PILE         # the Demon's pile pointers
    dn = GS_DPILE_N if split else GS_PILE_N
    every = cf[CF_SOLO_EVERY_TRICK] != 0
    leader = 0
    t = 0
    step = TS_REVEAL
    w = 0
    ended = False
    if search and gs[GS_ANSWER] != 0:       # go on from the question
        leader = gs[GS_LEADER]
        t = gs[GS_T]
        step = gs[GS_TSTEP]
        w = gs[GS_TWIN]
    else:
        rec(trace, gs, EV_ROUND, 0, 0, H, 0)
        shuffle_deck(deck, deck_cards, nd, card_loc, cf, gs, state, trace)
        for i in range(H):
            hand[0, i] = deck[i]
        hand_n[0] = H
        hand_n[1] = 0
        gs[GS_PILE] = H
        gs[GS_PILE_N] = nd
        gs[GS_DISC] = 0
        gs[GS_DPILE] = 0
        gs[GS_DPILE_N] = 0
        if split:
            # the rest is dealt alternately: the player's draw pile (deck[H:]) and the Demon's deck (played[:])
            npile = H
            for i in range(H, nd):
                if (i - H) % 2 == 0:
                    deck[npile] = deck[i]
                    npile += 1
                else:
                    played[gs[GS_DPILE_N]] = deck[i]
                    gs[GS_DPILE_N] += 1
            gs[GS_PILE_N] = npile
        for s in range(2):
            for k in range(PS_SIZE):
                ps[s, k] = 0
            ps[s, PS_OBJ] = -1
        ps[0, PS_BID] = BIG_BID
        start_round(zone, gs, ddeck, dr, cf, state, trace)
    while t < cf[CF_TRICK_CAP]:
        if step == TS_REVEAL:
            if hand_n[0] == 0 or (gs[dp] >= gs[dn] and gs[GS_DISC] == 0):
                break       # nothing left to play (cards all stuck on dragons): a stalemate
            if every and t > 0:         # the other reading: a dragon before every trick, as in the base game
                if not reveal(zone, gs, ddeck, dr, cf, trace) or zone_full(gs, cf):
                    ended = True
                    break
            gs[GS_TN] = 0
            step = TS_PLAY
        q = -1
        if step == TS_PLAY:
            for k in range(gs[GS_TN], 2):
                s = (leader + k) % 2
                if s == 1:
                    if split:
                        c = solo_next_card(played, GS_DPILE, GS_DPILE_N, 1, discard, gs, card_loc, state, trace)
                    else:
                        c = solo_next_card(deck, GS_PILE, GS_PILE_N, 0, discard, gs, card_loc, state, trace)
                    m = 1 if kind[c] == MERCENARY and cf[CF_AUTO_MERC_HIGH] == 0 else 0
                    play_card(1, -1, c, m, hand, hand_n, gs, tr, played, cf, trace)
                else:
                    i = choose_card(0, cf, kind, colour, value, hand, hand_n, gs, ps, tr, moves, state, play_fns,
                                    params, codes, H)
                    if i < 0:
                        q = gs[GS_Q]
                        break
                    play_card(0, moves[i, M_SLOT], moves[i, M_CARD], moves[i, M_MODE], hand, hand_n, gs, tr, played,
                              cf, trace)
            if q < 0:
                wpos = trick_eval(tr, 2, kind, colour, value, cf[CF_TRUMP], cf[CF_EGG_LOW])[0]
                w = tr[wpos, T_SEAT]
                gs[GS_TRICK] = t + 1
                ps[w, PS_TRICKS] += 1
                if w == 1:
                    gs[GS_AUTO_TRICKS] += 1
                count_trick(tr, 2, kind, value, gs, 1)
                rec(trace, gs, EV_TRICK, w, t + 1, 0, 0)
                step = TS_PLACE
        if step == TS_PLACE:
            q = place_trick(w, 1, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                            discard, place_fns, params, codes, ranks, trace, search)
        if q >= 0:
            gs[GS_LEADER] = leader
            gs[GS_T] = t
            gs[GS_TSTEP] = step
            gs[GS_TWIN] = w
            return q
        c = solo_next_card(deck, GS_PILE, GS_PILE_N, 0, discard, gs, card_loc, state, trace)
        if c >= 0:
            hand[0, hand_n[0]] = c
            hand_n[0] += 1
            rec(trace, gs, EV_DRAW, 0, c, 0, 0)
        if w == 1 or gs[GS_DEF_TRICK] > 0:
            if not every:
                if not reveal(zone, gs, ddeck, dr, cf, trace) or zone_full(gs, cf):
                    ended = True
                    break
        else:
            gs[FD_SOLO_EVERY] += 1      # the readings differ here: a dragon joins only under the other one
        if cf[CF_CHECK] != 0:
            check_solo(cf, dr, zone, gs, hand_n, card_loc, nd, deck_cards)
        leader = w
        t += 1
        step = TS_REVEAL
    if not ended:
        gs[GS_STALEMATE] = 1
    score = ps[0, PS_TERROR] - gs[GS_AUTO_TERROR]
    if score == cf[CF_SOLO_BOUNDARY]:
        gs[FD_SOLO_80] += 1
    ps[0, PS_SCORE] = score
    ps[0, PS_TOTAL] = score
    rec(trace, gs, EV_ROUND_END, 0, gs[GS_LOST], gs[GS_TRICK], ps[0, PS_TERROR] + gs[GS_AUTO_TERROR])
    rec(trace, gs, EV_SCORE, 0, score, 0, 0)
    return -1


@njit(cache=True, _nrt=False)
def solo_rank(cf, score):
    """The solo rank of a final score (0 Burned Villager ... 4 Legend)."""
    rank = 0
    for k in range(4):
        if score >= cf[CF_RANK_1 + k]:
            rank = k + 1
    return rank


@njit(cache=True, _nrt=False)
def check_solo(cf, dr, zone, gs, hand_n, card_loc, nd, deck_cards):
    """Every card is in the hand, the pile, the discard pile or on a dragon of the zone."""
    on = 0
    for i in range(nd):
        d = card_loc[deck_cards[i]]
        if d >= 0:
            on += 1
            found = False
            for z in range(gs[GS_ZONE_N]):
                found = found or zone[z, Z_ID] == d
            if not found:
                gs[GS_VIOL] += 1
    if hand_n[0] + (gs[GS_PILE_N] - gs[GS_PILE]) + (gs[GS_DPILE_N] - gs[GS_DPILE]) + gs[GS_DISC] + on != nd:
        gs[GS_VIOL] += 1
    # (with two piles the Demon's reshuffle can take the whole discard pile just before the player draws: the
    # hand then stays a card short, legally)
    if cf[CF_SOLO_SPLIT] == 0 and hand_n[0] != cf[CF_HAND] and gs[GS_PILE_N] - gs[GS_PILE] + gs[GS_DISC] > 0:
        gs[GS_VIOL] += 1
    for z in range(gs[GS_ZONE_N]):
        if zone[z, Z_DMG] >= dr[zone[z, Z_ID], 1]:
            gs[GS_VIOL] += 1


@njit(cache=True, _nrt=False)
def round_on(cf, tables, work, fns, params, codes, trace):
    """The round machine (play_round with `search`; solo: the game) from where gs says, to the next question of a
    searching seat (returned) or the round's end (-1)."""
    if cf[CF_MODE] == MODE_SOLO:
        return play_solo(cf, tables, work, fns, params, codes, trace, True)
    return play_round(cf, tables, work, fns, params, codes, trace, True)


@njit(cache=True, _nrt=False)
def next_first(cf, gs, r):
    """The first player of the round after round r: the last trick's winner, unless it is the Fallen King and he may
    not open a round (counted: fallen_king_may_lead)."""
    nxt = gs[GS_LAST_WINNER]
    if cf[CF_MODE] == MODE_FALLEN_KING and nxt >= cf[CF_PLAYERS] and r < cf[CF_ROUNDS] - 1:
        gs[FD_FK_LEAD] += 1         # the Fallen King took the last trick
        if cf[CF_FK_MAY_LEAD] == 0:
            nxt = 0                 # the other reading: the next real player opens instead
    return nxt
