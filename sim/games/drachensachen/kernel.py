"""Drachensachen numba kernel: whole games (rounds until someone has lost enough coins) from one seed.

`play_batch` plays n games and fills the games, players and rounds tables, and the traces of the first games.
The kernel's parts, each importing only those before it: kernel_base (the state array's layout, trace rows,
the pile, the view a strategy reads, the invariant check), kernel_moves (a decision's options and carrying
out the chosen one), kernel_round (sizes, the deal and exchanges, a round's turns, the coins a player pays)
and this module (a game from start to end, and the batch).

Speed and compile time (both measured): helpers are compiled without reference counting (`_nrt=False`;
only `play_batch` allocates), which removes the atomic increments that dominated a turn; every helper has
an explicit signature, so numba compiles it once instead of once per combination of constant arguments;
and only the four turn helpers (`phase_moves`, `settle_counts`, `act`, `apply_play`), `fill_view`, `take_pile`
and the one-liners (`checked`, `note`) are inlined into their callers, which saves about 15% of a turn's
instructions for a few seconds of compiling.

A turn avoids what a profile (perf's cpu-clock samples, callgrind's counts) showed to cost (issue #28: the
rule flags, fired_ counters and the new weighted strategy had made a round 12-19% slower; with these it is
as fast as before them):
- card types as bit masks: each seat's types in hand and open row are kept in step with the counts (ST_HELD),
  and the types with k or more cards are found by one vector compare (`type_bits`), not twelve compares;
  a set bit's type is one tzcnt (`lowest_bit`);
- no branch on an unpredictable fact where a sum or a minimum of comparisons does (the refill counter, the
  progress marks);
- the view fields that stay the same for a round are written once after the deal (`round_view`).
"""

import numpy as np
from numba import njit, types
from sim.engine import rng as fastrng

from sim.games.drachensachen.records import (
    C_ROUNDS, C_TRACE, F_FROM_START, F_STALEMATE_SCORES, G_CHECK_FAILS, G_CURSES, G_FIRST_STARTER, G_LOSER,
    G_LOSER_LOST, G_LOST0, G_MAX_TURNS, G_PICKUPS, G_POS_LOST0, G_ROUNDS, G_STALEMATE, G_STALEMATE_ROUNDS,
    G_STARTER_OUT, G_WINNER, G_WINNER_LOST, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_ABILITIES, N_GAME_COLS, N_RINT,
    N_TYPES, P_LOST, P_OUT, P_PICKUPS, P_WON, RD_GAME, RD_OUT, RD_PICKUPS, RD_POS_LOST0, RD_ROUND, RD_STARTER, RD_TURNS,
    R_ABILITIES_FROM_START, R_ABILITY0, R_END_LOSS, R_MAX_LOSS, R_MAX_ROUNDS, R_STALEMATE_SCORES, SEAT_FNS, T_ABILITY,
    T_CURSE, T_GAME_END, T_ROUND_END, VIEW_LEN,
)
from sim.games.drachensachen.kernel_base import (
    A1, A2, A3, B, BIG, F2, I, M2, PAIR, ST, ST_ACTIVE, ST_COUNTS, ST_CURSE, ST_DECK, ST_G, ST_LEN, ST_LOSS, ST_LOST,
    ST_ORDER, ST_PICK, ST_PILE, ST_R, ST_WENT, S_DECK_N, S_PLAYERS, S_QN, S_TPOS, S_TRACING, TR, U1, count_faults,
    flush, rec,
)
from sim.games.drachensachen.kernel_round import (
    deal_round, draw_curse, pick_starter, play_round, round_loss, round_sizes,
)


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
