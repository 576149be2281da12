"""Drarkane kernel, part 4: Treasures and scores.

Drafting objectives, checking instant and end-of-round objectives, a round's scores, and the rows of the
rounds and games tables (their columns: G_*, R_*).
"""

import numpy as np
from numba import njit

from sim.games.drarkane.records import (
    ARCANA, CF_AUTO_TERROR, CF_CHECK, CF_HALF_UP, CF_HAND, CF_MODE, CF_NEAR, CF_N_OBJECTIVES, CF_OBJ_PER_PLAYER,
    CF_PLAYERS, CF_PTS_DRAGON, CF_PTS_TRICK, CF_SEATS, CF_TEAMS, CF_TRUMP, C_DEFEAT_COLOUR, C_DEFEAT_IN_TRICK,
    C_DEFEAT_RESISTANCE, C_DRAGONS_REACHED, C_DRAGON_COLOURS, C_EXACT_AT_LEAST, C_EXACT_CONTRACT_OF, C_FEWEST_TRICKS,
    C_MOST_DRAGONS, C_MOST_TERROR, C_MOST_TRICKS, C_NO_DRAGON_TRICKS, C_NO_TRICKS, C_OFF_BY, C_TRICKS_REACHED,
    C_WIN_BOTH_WIZARDS, C_WIN_IN_A_ROW, C_WIN_TRICK_NUMBER, C_WIN_WITH_AT_MOST, C_WIN_WITH_TRUMPS, C_WIN_WITH_VALUE,
    C_WON_LAST_TRICK, EV_DRAFT, EV_FINAL, EV_OBJ_DECK, EV_OBJ_DONE, EV_ROUND_END, EV_SCORE, FIRED, G, INSTANT,
    MAX_SEATS, MODE_SOLO, N_OBJ_COUNTERS, O_COND, O_ID, O_PARAM, O_POINTS, O_TIMING, R, ROUND_BLOCKS, WIZ_HIGH, WIZ_LOW,
)
from sim.games.drarkane.kernel_base import (
    D_DRAFT, FD_HALF, FD_NEAR, FD_OBJ0, FD_OBJ_FIRST, FD_PARTNER_OBJ, FD_TREASURES, GS_ANSWER, GS_AUTO_DEF,
    GS_AUTO_TERROR, GS_COLS_TRICK, GS_DCARRY, GS_DDEALT, GS_DEF_TRICK, GS_DPTR, GS_FIRST, GS_LOST, GS_MAXRES_TRICK,
    GS_OBJ_DONE, GS_POOL, GS_QROWS, GS_ROUND, GS_STEP, GS_TN, GS_TRICK, GS_VIOL, GS_ZOBJ_N, GS_ZONE_N, PS_BID,
    PS_COLOURS, PS_DEF, PS_EXACT, PS_OBJ, PS_OBJ_COND, PS_OBJ_DONE, PS_OBJ_PARAM, PS_SCORE, PS_STREAK, PS_TERROR,
    PS_TOTAL, PS_TREASURE, PS_TRICKS, PS_WON_LAST, T_CARD, T_MODE, answer, ask, by_question, checked, fill_state, rec,
    shuffled_ids,
)


G_MODE, G_SEATS, G_ROUNDS, G_STALEMATE = G["mode"], G["seats"], G["rounds"], G["stalemate"]
G_CONTRACTS, G_EXACT, G_NEAR, G_MISSED = G["contracts"], G["exact"], G["near"], G["missed"]
G_LOST, G_TRICKS, G_DEFEATED, G_TERROR = G["lost_rounds"], G["tricks"], G["defeated"], G["terror"]
G_TREASURE, G_OBJ_DONE, G_WINNER, G_N_WINNERS = G["treasure"], G["objectives_done"], G["winner"], G["n_winners"]
G_TOP, G_SPREAD, G_TEAM_WINNER, G_AUTO_TRICKS = G["top_score"], G["score_spread"], G["team_winner"], G["automaton_tricks"]
G_SOLO_SCORE, G_SOLO_RANK, G_SOLO_TRICKS = G["solo_score"], G["solo_rank"], G["solo_tricks"]
G_SCORE0, G_RANK0, G_EXACT0 = G["score_s0"], G["rank_s0"], G["exact_s0"]
G_VIOL, G_BAD = G["violations"], G["bad_decisions"]
G_F0 = G["fired_" + FIRED[0]]       # the fired_* columns are contiguous, in FIRED order

R_ROUND, R_SEAT, R_POSITION, R_TEAM, R_DEALT = R["round"], R["seat"], R["position"], R["team"], R["dealt"]
R_BID, R_TRICKS, R_DIFF, R_EXACT, R_NEAR, R_MISSED = R["bid"], R["tricks"], R["diff"], R["exact"], R["near"], R["missed"]
R_DRAGONS, R_TERROR_OWN, R_POOL, R_TERROR_PTS = R["dragons"], R["terror_own"], R["pool"], R["terror_points"]
R_TREASURE, R_SCORE, R_LOST, R_TRICKS_PLAYED = R["treasure"], R["score"], R["lost"], R["tricks_played"]
# record_round writes these to the int16 block, the others to the int8 block
assert ROUND_BLOCKS[np.int16] == ["terror_own", "pool", "terror_points", "treasure", "score"]


@njit(cache=True, _nrt=False)
def instant_met(cond, p, w, c, m, both_wiz, trumps, gs, ps, value):
    """Whether the trick winner w has just met an instant objective."""
    v = 0 if (m == 1) else value[c]
    if cond == C_WIN_WITH_VALUE:
        return v == p
    if cond == C_WIN_WITH_AT_MOST:
        return v <= p
    if cond == C_DEFEAT_IN_TRICK:
        return gs[GS_DEF_TRICK] >= p
    if cond == C_DEFEAT_RESISTANCE:
        return gs[GS_DEF_TRICK] > 0 and gs[GS_MAXRES_TRICK] >= p
    if cond == C_WIN_BOTH_WIZARDS:
        return both_wiz
    if cond == C_WIN_IN_A_ROW:
        return ps[w, PS_STREAK] >= p
    if cond == C_WIN_TRICK_NUMBER:
        return gs[GS_TRICK] == p
    if cond == C_WIN_WITH_TRUMPS:
        return trumps >= p
    if cond == C_DRAGONS_REACHED:
        return ps[w, PS_DEF] >= p
    if cond == C_TRICKS_REACHED:
        return ps[w, PS_TRICKS] >= p
    if cond == C_DEFEAT_COLOUR:
        return (gs[GS_COLS_TRICK] >> p) & 1 == 1
    return False


@njit(cache=True, _nrt=False)
def objective_done(o, s, paid, ob, gs, ps, trace):
    """Seat s has completed objective o: its points when `paid` (a player, not the Fallen King), the counters
    and the trace row."""
    if paid:
        ps[s, PS_TREASURE] += ob[o, 3]
        gs[GS_OBJ_DONE] += 1
    if o < N_OBJ_COUNTERS:
        gs[FD_OBJ0 + o] += 1
    rec(trace, gs, EV_OBJ_DONE, s, o, 0, 0)


@njit(cache=True, _nrt=False)
def check_instant(w, wpos, cf, kind, colour, value, ob, gs, ps, tr, zobj, trace):
    """Instant objectives the trick winner completes now: its own, then those in the Treasure zone."""
    c = tr[wpos, T_CARD]
    m = tr[wpos, T_MODE]
    nlow = 0
    nhigh = 0
    trumps = 0
    for i in range(gs[GS_TN]):
        k = kind[tr[i, T_CARD]]
        if k == WIZ_LOW:
            nlow += 1
        elif k == WIZ_HIGH:
            nhigh += 1
        elif k == ARCANA and colour[tr[i, T_CARD]] == cf[CF_TRUMP]:
            trumps += 1
    both = nlow > 0 and nhigh > 0
    o = ps[w, PS_OBJ]
    if w < cf[CF_PLAYERS] and o >= 0 and ps[w, PS_OBJ_DONE] == 0 and ob[o, 0] == INSTANT:
        if instant_met(ob[o, 1], ob[o, 2], w, c, m, both, trumps, gs, ps, value):
            ps[w, PS_OBJ_DONE] = 1
            objective_done(o, w, True, ob, gs, ps, trace)
    for j in range(gs[GS_ZOBJ_N]):
        o = zobj[j, 0]
        if zobj[j, 1] >= 0 or ob[o, 0] != INSTANT:
            continue
        if instant_met(ob[o, 1], ob[o, 2], w, c, m, both, trumps, gs, ps, value):
            zobj[j, 1] = w
            objective_done(o, w, w < cf[CF_PLAYERS], ob, gs, ps, trace)


@njit(cache=True, _nrt=False)
def end_met(cond, p, s, cf, ps):
    """Whether seat s meets an end-of-round objective (the Fallen King has no contract)."""
    seats = cf[CF_SEATS]
    real = s < cf[CF_PLAYERS]
    t = ps[s, PS_TRICKS]
    diff = abs(t - ps[s, PS_BID])
    if cond == C_MOST_TRICKS or cond == C_FEWEST_TRICKS or cond == C_MOST_DRAGONS or cond == C_MOST_TERROR:
        col = PS_TRICKS if cond == C_MOST_TRICKS or cond == C_FEWEST_TRICKS else (
            PS_DEF if cond == C_MOST_DRAGONS else PS_TERROR)
        mine = ps[s, col]
        for o in range(seats):
            if cond == C_FEWEST_TRICKS:
                if ps[o, col] < mine:
                    return False
            elif ps[o, col] > mine:
                return False
        return cond == C_FEWEST_TRICKS or mine > 0
    if cond == C_EXACT_CONTRACT_OF:
        return real and diff == 0 and ps[s, PS_BID] == p
    if cond == C_EXACT_AT_LEAST:
        return real and diff == 0 and ps[s, PS_BID] >= p
    if cond == C_NO_DRAGON_TRICKS:
        return ps[s, PS_DEF] == 0 and t >= p
    if cond == C_OFF_BY:
        return real and diff == p
    if cond == C_WON_LAST_TRICK:
        return ps[s, PS_WON_LAST] != 0
    if cond == C_DRAGON_COLOURS:
        n = 0
        for k in range(4):
            n += (ps[s, PS_COLOURS] >> k) & 1
        return n >= p
    if cond == C_NO_TRICKS:
        return t == 0
    return False


@njit(cache=True, _nrt=False)
def check_end_objectives(cf, ob, gs, ps, zobj, trace):
    players = cf[CF_PLAYERS]
    for s in range(players):
        o = ps[s, PS_OBJ]
        if o >= 0 and ps[s, PS_OBJ_DONE] == 0 and ob[o, 0] != INSTANT:
            if end_met(ob[o, 1], ob[o, 2], s, cf, ps):
                ps[s, PS_OBJ_DONE] = 1
                objective_done(o, s, True, ob, gs, ps, trace)
    for j in range(gs[GS_ZOBJ_N]):
        o = zobj[j, 0]
        if ob[o, 0] == INSTANT:
            continue
        for s in range(cf[CF_SEATS]):
            if end_met(ob[o, 1], ob[o, 2], s, cf, ps):
                objective_done(o, s, s < players, ob, gs, ps, trace)


@njit(cache=True, _nrt=False)
def draft(cf, ob, gs, ps, odeck, zobj, objopt, state, hand_n, draft_fns, params, codes, trace):
    """Deal objectives to the players and draft them in turn order; leftovers form the Treasure zone. Returns a
    question when a searching seat drafts (its options stay in objopt; gs: the drafter's turn, objectives carried
    and dealt), else -1."""
    players = cf[CF_PLAYERS]
    seats = cf[CF_SEATS]
    no = cf[CF_N_OBJECTIVES]
    k = cf[CF_OBJ_PER_PLAYER]
    resumed = gs[GS_ANSWER] != 0
    start = 0
    carry = 0       # objectives passed on, stored in zobj[:carry, 0]
    dealt = 0
    if resumed:
        start = gs[GS_STEP]
        carry = gs[GS_DCARRY]
        dealt = gs[GS_DDEALT]
    else:
        shuffled_ids(state, odeck, no, gs, trace, EV_OBJ_DECK)
    for j in range(start, seats):
        s = (gs[GS_FIRST] + j) % seats
        if s >= players:
            continue
        if resumed and j == start:      # the options dealt before the question, still in objopt
            n = gs[GS_QROWS]
        else:
            n = 0
            for i in range(carry):
                objopt[n, O_ID] = zobj[i, 0]
                n += 1
            for i in range(k):
                objopt[n, O_ID] = odeck[dealt]
                dealt += 1
                n += 1
            for i in range(n):
                o = objopt[i, O_ID]
                objopt[i, O_TIMING] = ob[o, 0]
                objopt[i, O_COND] = ob[o, 1]
                objopt[i, O_PARAM] = ob[o, 2]
                objopt[i, O_POINTS] = ob[o, 3]
        fill_state(state, s, cf, gs, ps, hand_n, cf[CF_HAND])
        if by_question(codes[D_DRAFT, s], gs):
            pick = answer(gs)
            if pick < 0:
                gs[GS_STEP] = j
                gs[GS_DCARRY] = carry
                gs[GS_DDEALT] = dealt
                return ask(gs, D_DRAFT, s, n, n)
        else:
            pick = checked(draft_fns[s](objopt, n, state, params[s]), 0, n, gs)
        ps[s, PS_OBJ] = objopt[pick, O_ID]
        ps[s, PS_OBJ_COND] = objopt[pick, O_COND]
        ps[s, PS_OBJ_PARAM] = objopt[pick, O_PARAM]
        ps[s, PS_OBJ_DONE] = 0
        rec(trace, gs, EV_DRAFT, s, objopt[pick, O_ID], 0, 0)
        carry = 0
        for i in range(n):
            if i != pick:
                zobj[carry, 0] = objopt[i, O_ID]
                carry += 1
    gs[GS_ZOBJ_N] = carry
    gs[GS_DDEALT] = dealt
    for i in range(carry):
        zobj[i, 1] = -1
    gs[FD_TREASURES] += 1
    gs[FD_OBJ_FIRST] += 1
    if cf[CF_TEAMS] != 0:
        gs[FD_PARTNER_OBJ] += players      # each player sees their partner's objective
    return -1


@njit(cache=True, _nrt=False)
def terror_share(diff, pool, cf):
    d = abs(diff)
    if d == 0:
        return pool
    if d <= cf[CF_NEAR]:
        return (pool + cf[CF_HALF_UP]) // 2
    return 0


@njit(cache=True, inline='always', _nrt=False)
def score_round(cf, gs, ps, trace):
    """The round's scores and its contracts' rule counters (inlined: its array arguments cost more than its work)."""
    pool = gs[GS_POOL]
    lost = gs[GS_LOST]
    for s in range(cf[CF_PLAYERS]):
        diff = ps[s, PS_TRICKS] - ps[s, PS_BID]
        if diff != 0 and abs(diff) <= cf[CF_NEAR]:
            gs[FD_NEAR] += 1
            gs[FD_HALF] += pool & 1
        treasure = ps[s, PS_TREASURE] if lost == 0 else 0
        ps[s, PS_TREASURE] = treasure
        score = (cf[CF_PTS_TRICK] * ps[s, PS_TRICKS] + cf[CF_PTS_DRAGON] * ps[s, PS_DEF]
                 + terror_share(diff, pool, cf) + treasure)
        ps[s, PS_SCORE] = score
        ps[s, PS_TOTAL] += score
        if diff == 0:
            ps[s, PS_EXACT] += 1
    rec(trace, gs, EV_ROUND_END, gs[GS_ROUND], lost, gs[GS_TRICK], pool)
    for s in range(cf[CF_PLAYERS]):
        rec(trace, gs, EV_SCORE, s, ps[s, PS_SCORE], ps[s, PS_TREASURE], 0)
    if cf[CF_CHECK] != 0:
        tricks = 0
        terror = 0
        defeated = 0
        for s in range(cf[CF_SEATS]):
            tricks += ps[s, PS_TRICKS]
            if s < cf[CF_PLAYERS]:
                terror += ps[s, PS_TERROR]
                defeated += ps[s, PS_DEF]
        if tricks != gs[GS_TRICK] or gs[GS_TRICK] > cf[CF_HAND]:
            gs[GS_VIOL] += 1
        if cf[CF_AUTO_TERROR] == 0 and terror != pool:
            gs[GS_VIOL] += 1
        if defeated + gs[GS_AUTO_DEF] + gs[GS_ZONE_N] != gs[GS_DPTR]:
            gs[GS_VIOL] += 1


@njit(cache=True, inline='always', _nrt=False)
def record_round(row, cf, gs, ps, r8, r16, s):
    """Row `row` of the rounds table, seat s: its int8 columns in r8, its int16 columns in r16 (records.ROUND_BLOCKS).
    Inlined: a call passed some thirty words of array arguments, once per seat and round."""
    players = cf[CF_PLAYERS]
    diff = ps[s, PS_TRICKS] - ps[s, PS_BID]
    r8[row, R_ROUND] = gs[GS_ROUND]
    r8[row, R_SEAT] = s
    pos = s - gs[GS_FIRST]         # (s - first) % seats without a division
    r8[row, R_POSITION] = pos + cf[CF_SEATS] * (pos < 0)
    r8[row, R_TEAM] = s % (players // 2) if cf[CF_TEAMS] != 0 else -1
    r8[row, R_DEALT] = cf[CF_HAND]
    r8[row, R_TRICKS] = ps[s, PS_TRICKS]
    r8[row, R_DRAGONS] = ps[s, PS_DEF]
    r16[row, R_TERROR_OWN] = ps[s, PS_TERROR]
    r16[row, R_TREASURE] = ps[s, PS_TREASURE]
    r16[row, R_SCORE] = ps[s, PS_SCORE]
    r8[row, R_LOST] = gs[GS_LOST]
    r8[row, R_TRICKS_PLAYED] = gs[GS_TRICK]
    if cf[CF_MODE] == MODE_SOLO:
        r8[row, R_BID] = -1
        r8[row, R_DIFF] = 0
        r8[row, R_EXACT] = 0
        r8[row, R_NEAR] = 0
        r8[row, R_MISSED] = 0
        r16[row, R_POOL] = ps[0, PS_TERROR] + gs[GS_AUTO_TERROR]
        r16[row, R_TERROR_PTS] = ps[0, PS_SCORE]
        return
    ad = abs(diff)
    r8[row, R_BID] = ps[s, PS_BID]
    r8[row, R_DIFF] = diff
    r8[row, R_EXACT] = 1 if ad == 0 else 0
    r8[row, R_NEAR] = 1 if 0 < ad <= cf[CF_NEAR] else 0
    r8[row, R_MISSED] = 1 if ad > cf[CF_NEAR] else 0
    r16[row, R_POOL] = gs[GS_POOL]
    r16[row, R_TERROR_PTS] = terror_share(diff, gs[GS_POOL], cf)


@njit(cache=True, inline='always', _nrt=False)
def finish_game(cf, gs, ps, row, trace):
    """Final scores and ranks, in the game's row (records.G)."""
    players = cf[CF_PLAYERS]
    top = -(1 << 30)
    low = 1 << 30
    for s in range(players):
        top = max(top, ps[s, PS_TOTAL])
        low = min(low, ps[s, PS_TOTAL])
    n_top = 0
    winner = -1
    for s in range(players):
        rank = 1
        for o in range(players):
            if ps[o, PS_TOTAL] > ps[s, PS_TOTAL]:
                rank += 1
        row[G_SCORE0 + s] = ps[s, PS_TOTAL]
        row[G_RANK0 + s] = rank
        row[G_EXACT0 + s] = ps[s, PS_EXACT]
        rec(trace, gs, EV_FINAL, s, ps[s, PS_TOTAL], rank, 0)
        if ps[s, PS_TOTAL] == top:
            n_top += 1
            winner = s
    for s in range(players, MAX_SEATS):
        row[G_SCORE0 + s] = -1
        row[G_RANK0 + s] = -1
        row[G_EXACT0 + s] = -1
    row[G_WINNER] = winner if n_top == 1 else -1
    row[G_N_WINNERS] = n_top
    row[G_TOP] = top
    row[G_SPREAD] = top - low
    row[G_TEAM_WINNER] = -1
    if cf[CF_TEAMS] != 0:
        half = players // 2
        best = -(1 << 30)
        n_best = 0
        for t in range(half):
            v = ps[t, PS_TOTAL] + ps[t + half, PS_TOTAL]
            if v > best:
                best = v
                n_best = 1
                row[G_TEAM_WINNER] = t
            elif v == best:
                n_best += 1
        if n_best > 1:
            row[G_TEAM_WINNER] = -1
