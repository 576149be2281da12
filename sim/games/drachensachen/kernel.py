"""Drachensachen numba kernel: whole games (rounds until someone has lost enough coins) from one seed.

`play_batch` plays n games and fills the games, players and rounds tables, and the traces of the first games.
Each game's random streams are seeded from (seed, game index) alone (kernel_game.seed_game): game g is dealt
the same whatever the games before it did.
The kernel's parts, each importing only those before it: kernel_base (the state array's layout, trace rows,
the pile, the view a strategy reads, the invariant check), kernel_moves (a decision's options and carrying
out the chosen one), kernel_round (sizes, the deal and exchanges, a round's turns, the coins a player pays),
kernel_game (a game from start to end as a resumable machine), kernel_search (the search player) and this
module (the batch).

A game is a resumable machine (kernel_game.game_on, kernel_round.turns_on and exchanges, with `search`): at a
decision of a searching seat it stops, and goes on from there with the answer; kernel_search copies the arrays
at such a decision and plays each option on from the copy. The batch plays its games through the machine only
when a seat searches; otherwise play_game runs it with `search` False, a constant that compiles the stops away:
the plain path is the kernel it was.

Speed and compile time (both measured): helpers are compiled without reference counting (`_nrt=False`;
only `play_batch` allocates), which removes the atomic increments that dominated a turn; every helper called
has an explicit signature, so numba compiles it once instead of once per combination of constant arguments;
and only the four turn helpers (`phase_moves`, `settle_counts`, `act`, `apply_play`), `fill_view`, `take_pile`
and the one-liners (`checked`, `note`) are inlined into their callers, which saves about 15% of a turn's
instructions for a few seconds of compiling. An inlined helper has no signature: it is never compiled on its
own. The search player's part (kernel_search, the machines, `searched_batch`) compiles only for a run with a
searching seat (`njit_later`, Game.kernels(search=True)).

A turn avoids what a profile (perf's cpu-clock samples, callgrind's counts) showed to cost (the
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
from sim.engine.strategy import njit_later

from sim.games.drachensachen.records import (
    C_FALLBACKS, C_ROUNDS, C_SEARCHED, C_TRACE, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_ROUND_COLS, SEAT_FNS, VIEW_LEN,
)
from sim.games.drachensachen.kernel_base import A1, A2, A3, B, F2, I, M2, ST, ST_LEN, S_RND, S_TPOS, S_TRACING, TR, U1
from sim.games.drachensachen.kernel_game import (
    MT_N, finish_game, game_machine, game_on, seed_game, setup_state, start_game,
)
from sim.games.drachensachen.kernel_round import round_machine
from sim.games.drachensachen.kernel_search import (
    MT_WORDS, SC_SIZE, SS_DECISIONS, SS_FALLBACKS, SS_SIZE, search_seed, searched_game,
)


@njit(types.void(I, M2, ST, M2, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A3, A2, A1, TR, B, U1), cache=True,
      _nrt=False)
def play_game(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, games_out, players_out,
              rounds_out, counters, tr, check, state):
    """A game, every decision answered by the seats' functions (kernel_game's machine with no stops)."""
    start_game(st, rint, tr)
    game_on(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters, tr,
            check, state, False)
    finish_game(g, st[S_RND], st, games_out, players_out, tr)


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
    types.int64,              # the searching seats, as bits (0: none; kernel_search)
    SEAT_FNS, SEAT_FNS, SEAT_FNS,
    types.float64[:, :],      # the playouts' functions and params (the default heuristics)
    SEAT_FNS, SEAT_FNS, SEAT_FNS,
    types.float64[:, :],      # the informed playouts' (the line-up's; a searching seat's the default heuristic)
    types.float64[::1],       # their round losses, cumulative (kernel_search.value)
)


@njit(cache=True, inline='always')
def run_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params,
              games_out, players_out, rounds_out, trace, trace_start, counters, check, ask, pplay, psetup, pchoice,
              pparams, iplay, isetup, ichoice, iparams, lossc, searching):
    """Play n games into the tables; `searching` (a literal) compiles the search player in (play_batch's games
    have no searching seat, searched_batch's have one or more: `ask`)."""
    state = np.zeros(1, np.uint64)      # the deal's fast stream (the starter and the shuffles)
    words = np.zeros(MT_N, np.uint32)   # np.random's (the strategies' and the rare kernel draws), both per game
    st = np.zeros(ST_LEN, np.int64)
    setup_state(st, players, rint, counts, ask)
    v = np.zeros((MAX_PLAYERS, VIEW_LEN), np.int64)
    moves = np.zeros((MAX_MOVES, MOVE_COLS), np.int64)
    n_traced = trace_start.shape[0] - 1
    counters[C_ROUNDS] = 0
    # the search's scratch, its streams, np.random states and the playouts' rounds table and counters
    sc = np.zeros(SC_SIZE if searching else 1, np.int64)
    ss = np.zeros(SS_SIZE, np.uint64)
    mt = np.zeros(2 * MT_WORDS, np.int64)
    pstate = np.zeros(1, np.uint64)
    prounds = np.zeros((0, N_ROUND_COLS), np.int64)
    pcounters = np.zeros(counters.shape[0], np.int64)
    for g in range(n):
        seed_game(state, words, seed, g)
        st[S_TRACING] = 1 if g < n_traced else 0
        if g < n_traced:
            trace_start[g] = st[S_TPOS]
        if searching:
            search_seed(ss, seed, g)
            searched_game(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
                          players_out, rounds_out, counters, trace, check, state, pplay, psetup, pchoice, pparams,
                          iplay, isetup, ichoice, iparams, prounds, pcounters, sc, ss, mt, pstate, lossc)
        else:
            play_game(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params,
                      games_out, players_out, rounds_out, counters, trace, check, state)
        if g < n_traced:
            trace_start[g + 1] = st[S_TPOS]
    counters[C_TRACE] = st[S_TPOS]
    counters[C_SEARCHED] = np.int64(ss[SS_DECISIONS])
    counters[C_FALLBACKS] = np.int64(ss[SS_FALLBACKS])


@njit(BATCH_SIG, cache=True, nogil=True)
def play_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
              players_out, rounds_out, trace, trace_start, counters, check, ask, pplay, psetup, pchoice, pparams, iplay,
              isetup, ichoice, iparams, lossc):
    """run_batch when no seat searches."""
    run_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
              players_out, rounds_out, trace, trace_start, counters, check, ask, pplay, psetup, pchoice, pparams, iplay,
              isetup, ichoice, iparams, lossc, False)


@njit_later(BATCH_SIG, cache=True, nogil=True)
def searched_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
              players_out, rounds_out, trace, trace_start, counters, check, ask, pplay, psetup, pchoice, pparams, iplay,
              isetup, ichoice, iparams, lossc):
    """run_batch with searching seats; compiled, with the search, when a run first has one (Game.kernels)."""
    run_batch(seed, n, players, rint, counts, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
              players_out, rounds_out, trace, trace_start, counters, check, ask, pplay, psetup, pchoice, pparams, iplay,
              isetup, ichoice, iparams, lossc, True)


# What a run with a searching seat compiles besides the plain kernel (Game.kernels(search=True)).
SEARCH_PARTS = (round_machine, game_machine, searched_game, searched_batch)
