"""Drakerion's search player: flat Monte Carlo over determinisations (PIMC), run by replaying the game.

At each of its decisions with more than one option (a look at its own deck's top excepted), the searching
seat plays each option on to the end of the game many times and keeps the one that wins most. Drakerion's
rules are straight-line code that asks for decisions deep inside abilities and combats, so a decision point
cannot be copied and resumed; instead a game is replayed from its deal with the decisions already made read
from a log (kernel_base `replayed`: the deal comes from the game's own stream, so the replay is exact). A
playout replays to the decision, deals what the seat cannot see afresh (kernel_base `determinise`: the
opponent's hand and deck from the rows in either, and its own deck's order), takes the option under test and
lets the default heuristics (value, at its default weights) play both seats to the end; with the search's
`informed` = 1, the other seat plays the strategy and weights it really plays in this line-up (value at its
default weights if it searches too), while the searcher's own later moves stay value's. A replay costs one
game's rules without its strategy calls, so a playout costs about one game.

The options are weighed by the shared driver (sim.engine.search.choose): sequential halving on common random
numbers (within a round, playout j deals the same hidden cards and gives the game's stream the same new state
for every option), and the incumbent kept unless another option beats it on fresh playouts by more than the
noise (a noisy search otherwise loses to the heuristics it plays out with). The incumbent is the seat's own
function's answer at the stop (value's, at its default weights): the GAME run that stops there asks it and puts
the game's stream back as it was (kernel_base `heard`), so it costs no playout and leaves the game alone.

Why PIMC and not IS-MCTS: a Drakerion turn is a chain of small decisions of both seats (an action, its
target, the combat window's answers) whose worth shows in the fights that follow, and the hidden information
(hands, deck orders) matters through the cards drawn later; a flat search over the current decision with
strong playouts measures that directly. See docs/SEARCH.md.

The real game runs in the same way: replayed in GAME mode to the searching seat's next decision, where it
stops; the searched answer is logged and the game replayed on. The search has a random stream of its own,
seeded per game, and the searched answer leaves the game's stream as it was: the deal and the other seat's
draws are those of the game without the search (until the answers differ).

The no-peeking probe (tests/search_probe_drakerion.py) cannot copy a decision point either: `decide_at` runs the
search at a decision with a given arrangement of the state (a snapshot, stop_state's layout) put in place of the
replayed one where the search reads it (kernel_base X_SUBST: for the incumbent and at every playout's start).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.engine import search
from sim.engine.kernel_rows import start_trace
from sim.engine.rng import mix
from sim.games.drakerion.kernel import fill_work, new_game, play_game, record
from sim.games.drakerion.kernel_base import (
    FAST, MODE_GAME, MODE_PLAIN, MODE_PLAYOUT, N_SEARCH_WORK, W_MODE, W_TRACING,
    W_TROW, W_TOVER, X_DEAL, X_FORCED, X_IDX, X_LOG, X_LOGN, X_NSEARCH, X_SEEKERS, X_SNAP, X_SNAPSHOT, X_SRNG,
    X_STOP_ANSWER, X_STOP_N, X_STOP_RNG, X_STOP_SEAT, X_STOPPING, X_SUBST, determinise, snapshot,
)
from sim.games.drakerion.records import (
    BOARD_WIDTH, DECISION_FN, DRAW, MAX_OPTS, N_INST, N_STATE, OPT_WIDTH, S_WINNER,
)

SEARCH_SEED = 0x5EA2C7   # mixed into the batch seed: the search stream differs from the game's

# the search's scratch (int64 `hs`): the driver's words (sim.engine.search), nothing else
N_HS = search.words(MAX_OPTS)


@njit(**FAST)
def run(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, seed, g, mode):
    """Replay game g from its deal in `mode` (the log's decisions first)."""
    new_game(w, st, board, cards, inst_card, seed, g)
    w[W_MODE] = mode
    w[X_IDX] = 0
    w[X_STOPPING] = 0
    w[X_STOP_N] = 0
    play_game(w, st, board, opts, cards, tr, f0, f1, p0, p1)
    w[W_MODE] = MODE_PLAIN


@njit(**FAST)
def reward(st, me):
    """Seat me's reward in halves (the driver's integers): 2 for a win, 1 for a draw, 0."""
    if st[S_WINNER] == me:
        return 2
    return 1 if st[S_WINNER] == DRAW else 0


@njit(**FAST)
def playout(w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g, option, stream):
    """One playout of `option` at the stop, the search stream at `stream`, seat p played by gp with parameters
    qp after it; returns the seat's reward."""
    me = w[X_STOP_SEAT]
    w[X_FORCED] = option
    w[X_SRNG] = stream
    run(w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g, MODE_PLAYOUT)
    return reward(st, me)


@njit(**FAST)
def play_option(ctx, option, stream):
    """The driver's playout (sim.engine.search.choose): option `option` played out on stream `stream`."""
    w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g = ctx
    return playout(w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g, option, stream)


@njit(**FAST)
def search_choice(w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g, budget, hs):
    """The option the seat takes at the stop the last GAME run made (the module's docstring), the playouts
    playing seat p with gp at parameters qp; hs: N_HS words."""
    w[X_NSEARCH] += 1
    traced = w[W_TRACING]
    w[W_TRACING] = 0
    ctx = (w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g)
    srng = w[X_SRNG:X_SRNG + 1]          # the search stream's cell, as the one-element state the driver draws from
    best = search.choose(w[X_STOP_N], w[X_STOP_ANSWER], budget, hs, srng, play_option, ctx)
    w[W_TRACING] = traced
    return best


@njit(**FAST)
def logged(w, c):
    """Log answer c to the stop's decision, with the game's stream as it was there."""
    k = w[X_LOGN]
    w[X_LOG + 2 * k] = c
    w[X_LOG + 2 * k + 1] = w[X_STOP_RNG]
    w[X_LOGN] = k + 1


@njit(**FAST)
def searched_game(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, pf, pp, seed, g, budgets, informed,
                  hs):
    """Game g with a searching seat: run to its next decision, search it, log the answer, until the game ends.
    The playouts play the searcher with pf at pp, and the other seat so too unless the searcher is `informed`:
    then with the line-up's own function and parameters for that seat (a searching seat's are value's at its
    default weights, its playout policy)."""
    w[X_SRNG] = np.int64(mix(seed ^ SEARCH_SEED, g))
    w[X_LOGN] = 0
    start = w[W_TROW]
    while True:
        w[W_TROW] = start
        run(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, seed, g, MODE_GAME)
        if w[X_STOP_N] == 0:
            return
        me = w[X_STOP_SEAT]
        g0, g1, q0, q1 = pf, pf, pp, pp
        if informed[me]:
            if me == 0:
                g1, q1 = f1, p1
            else:
                g0, q0 = f0, p0
        logged(w, search_choice(w, st, board, opts, cards, inst_card, tr, g0, g1, q0, q1, seed, g, budgets[me], hs))


@njit(cache=True)
def search_work(config, setup, deck_n, budgets, deal):
    """The arrays of a search batch: work (with the search's words), state, board, option rows."""
    w = np.zeros(N_SEARCH_WORK, np.int64)
    fill_work(w, config, setup, deck_n)
    for p in range(2):
        if budgets[p] > 0:
            w[X_SEEKERS] |= 1 << p
    w[X_DEAL] = deal
    return (w, np.zeros(N_STATE, np.int64), np.zeros((N_INST, BOARD_WIDTH), np.int64),
            np.zeros((MAX_OPTS, OPT_WIDTH), np.int64))


SEARCH_SIG = types.int64(types.int64, types.int64, types.int64[:, ::1], types.int64[:, ::1], types.int64[:, ::1],
                         types.int64[::1], types.int64[::1], DECISION_FN, DECISION_FN, types.float64[::1],
                         types.float64[::1], DECISION_FN, types.float64[::1], types.int64[::1], types.int64[::1],
                         types.int64, types.int64[:, ::1], types.int64[:, ::1], types.int16[:, ::1],
                         types.int64[::1], types.int64)


@njit(SEARCH_SIG, cache=True, nogil=True)
def search_batch(seed, n, cards, inst_card, setup, deck_n, config, f0, f1, p0, p1, pf, pp, budgets, informed, deal,
                 out, played, tr, starts, n_traced):
    """kernel.play_batch with searching seats: budgets[p] > 0 is seat p's budget (playouts per decision); pf and
    pp the playouts' heuristics and parameters; informed[p] 1: seat p's playouts play the other seat as the
    line-up does (f0/f1 at p0/p1); deal 0 plays out from the true hidden cards (a cheat, for the tests). Returns
    the decisions searched, times 2, plus 1 if `tr` was too small."""
    w, st, board, opts = search_work(config, setup, deck_n, budgets, deal)
    hs = np.zeros(N_HS, np.int64)
    for g in range(n):
        start_trace(w, g, n_traced, starts, W_TRACING, W_TROW)
        searched_game(w, st, board, opts, cards, inst_card, tr, f0, f1, p0, p1, pf, pp, seed, g, budgets, informed,
                      hs)
        record(w, st, out, played, g)
    if n_traced > 0:
        starts[n_traced] = w[W_TROW]
    return 2 * w[X_NSEARCH] + w[W_TOVER]


# ---- entries for the tests ---------------------------------------------------------------------------------
I1, I2 = types.int64[::1], types.int64[:, ::1]
STOP_SIG = types.int64(types.int64, types.int64, I2, I2, I2, I1, I1, DECISION_FN, types.float64[::1], types.int64,
                       types.int64, types.int64, types.int64, I1)


@njit(STOP_SIG, cache=True)
def stop_state(seed, g, cards, inst_card, setup, deck_n, config, f, p, me, k, stream, deal, snap):
    """Game g, f playing both seats, replayed to seat me's k-th decision with more than one option (from 0) as a
    playout would reach it: snap (kernel_base.snapshot's layout) receives the state there, after what me cannot
    see was dealt afresh on search stream `stream` when `deal`. Returns the options there (0: the game ended)."""
    budgets = np.zeros(2, np.int64)
    budgets[me] = 1
    w, st, board, opts = search_work(config, setup, deck_n, budgets, deal)
    tr = np.zeros((1, 1), np.int16)
    w[X_LOGN] = 0
    for j in range(k + 1):
        run(w, st, board, opts, cards, inst_card, tr, f, f, p, p, seed, g, MODE_GAME)
        if w[X_STOP_N] == 0:
            return 0
        if j < k:                          # the heuristics' answer, logged as the search's would be
            logged(w, w[X_STOP_ANSWER])
    n = w[X_STOP_N]
    w[X_SNAP] = 1
    w[X_FORCED] = w[X_STOP_ANSWER]
    w[X_SRNG] = stream
    run(w, st, board, opts, cards, inst_card, tr, f, f, p, p, seed, g, MODE_PLAYOUT)
    for i in range(snap.shape[0]):
        snap[i] = w[X_SNAPSHOT + i]
    return n


DECIDE_SIG = types.int64(types.int64, types.int64, I2, I2, I2, I1, I1, DECISION_FN, types.float64[::1], types.int64,
                         types.int64, types.int64, types.int64, types.int64, I1)


@njit(DECIDE_SIG, cache=True)
def decide_at(seed, g, cards, inst_card, setup, deck_n, config, f, p, me, k, stream, deal, budget, snap):
    """The search's answer at seat me's k-th decision of game g (f playing both seats, in the game and in the
    playouts), on search stream `stream`, with the state there replaced by `snap` (stop_state's layout: the same
    observation, the hidden cards arranged as the caller likes) for the incumbent's answer and at the start of
    every playout; deal as X_DEAL. -1 if the game ended first. For the no-peeking probe: the decision point itself
    cannot be copied, so the arrangement under test is put in place of the replayed one where the search reads
    the state (tests/search_probe_drakerion.py)."""
    budgets = np.zeros(2, np.int64)
    budgets[me] = 1
    w, st, board, opts = search_work(config, setup, deck_n, budgets, deal)
    tr = np.zeros((1, 1), np.int16)
    hs = np.zeros(N_HS, np.int64)
    w[X_LOGN] = 0
    for j in range(k + 1):
        if j == k:
            for i in range(snap.shape[0]):
                w[X_SNAPSHOT + i] = snap[i]
            w[X_SUBST] = 1
        run(w, st, board, opts, cards, inst_card, tr, f, f, p, p, seed, g, MODE_GAME)
        if w[X_STOP_N] == 0:
            return -1
        if j < k:
            logged(w, w[X_STOP_ANSWER])
    w[X_SRNG] = stream
    return search_choice(w, st, board, opts, cards, inst_card, tr, f, f, p, p, seed, g, budget, hs)


@njit(types.void(I1, types.int64, types.int64, types.boolean), cache=True)
def redeal(snap, me, stream, leak):
    """determinise applied to a snapshot (stop_state's), on search stream `stream` (`leak`: the leaky deal)."""
    w = np.zeros(N_SEARCH_WORK, np.int64)
    st = np.zeros(N_STATE, np.int64)
    board = np.zeros((N_INST, BOARD_WIDTH), np.int64)
    for i in range(snap.shape[0]):
        w[X_SNAPSHOT + i] = snap[i]
    snapshot(w, st, board, True)
    w[X_SRNG] = stream
    determinise(w, st, board, me, leak)
    snapshot(w, st, board, False)
    for i in range(snap.shape[0]):
        snap[i] = w[X_SNAPSHOT + i]
