"""Drako's numba kernel: plays whole batches of games and keeps each game's final state.

The rules run as a resumable state machine: `next_question` plays on until some side has to choose,
leaves the choices as rows in `opts` and returns who must answer; `play_games` (here) calls that side's
strategy function, or runs a built-in inline, or searches (kernel_search), writes the chosen row back
into the state and goes on to the game's end. Only `play_games` (and the search's playouts) call the
strategy functions.

The kernel is in parts, each importing only those before it: kernel_base (primitives, phases, the
random stream, the trace), kernel_board (figures, walks, fire lines), kernel_cards (hands, decks and
the option rows taken from them), kernel_combat (wounds, attacks, blocks), kernel_steps (setup,
turns, actions, moves), kernel_game (the rules of one game: `start_game`, `next_question`),
kernel_search (the search player) and this module (who answers each decision, the batch, and the
work array built in Python).

A game lives in one int64 work array `w` (offsets in records.py): configuration, board, decks,
card table, scratch, and three blocks the strategies see as arrays of their own:
    st    w[W_ST:]    int64[N_STATE]         state vector, counters, machine registers
    opts  w[W_OPTS:]  int64[MAX_OPTS, 8]     rows of the pending decision
    geo   w[W_GEO:]   int64[3H, max(H, 6)]   distances, shared-line directions, neighbours
plus the trace rows `tr`. The rules index `w` directly and pass only `w` (and `tr`) around:
passing each array would push dozens of words per call, and rebuilding views costs more than it
saves. The views are made once per batch, for the strategies. Everything is compiled without
reference counting (`_nrt=False`): nothing here allocates, and skipping the atomic counts on
array arguments is a large part of the speed. Each game has its own random stream seeded by
(seed, game index): it deals first, so game i gets the same decks whatever the strategies do, and
strategies that draw from it (rather than from np.random) make the whole game repeatable on its
own. Lineups, rule variants and match legs are compared on the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from strategies import drako as builtin
from sim.engine.kernel_rows import start_trace
from sim.engine.strategy import compile_now, compile_part, njit_later
# start_game, next_question, place, hand_add, take_row and PH_TURN are imported for the tests too
from sim.games.drako.records import (
    C_FIRE_RANGE, DECISION_FN, DECISION_SIG, MAX_HEX, MAX_OPTS, N_STATE, OPT_WIDTH, OUT_SLOTS, R_NOPTS,
    T_BAD_CHOICES, TRACE_WIDTH, W_BOARD, W_CARDS, W_GEO, W_GEO_COLS, W_GEO_ROWS, W_NSEARCH, W_OPTS, W_RAY_AT,
    W_RING2, W_ST, W_TOVER, W_TRACING, W_TROW,
)
from sim.games.drako.kernel_base import FAST, PH_TURN, search_seed, take_row
from sim.games.drako.kernel_board import place, ray_table, ring2_table
from sim.games.drako.kernel_cards import hand_add
from sim.games.drako.kernel_game import next_question, start_game
from sim.games.drako.kernel_search import (
    CALL, IN_BRAWLER, IN_COORDINATED, IN_RANDOM, IN_SEARCH, N_SCRATCH, inline_choice, search_choice,
)


@njit(inline="always", **FAST)
def play_games(seed, n, w, fns, pd, pw, out, trace, trace_start, n_traced, codes, sc, search):
    """Play n games from `seed` into `out` (play_batch's arguments; fns the eight decision functions, the
    dragon's act, target, react, setup, then the dwarves'). codes[slot] is the built-in run inline at a decision
    slot, IN_SEARCH or CALL. `search` answers an IN_SEARCH slot, a first-class function (SEARCH_AT_SIG):
    search_at_jit when a seat searches, `no_search` otherwise, so that a plain run never compiles the search
    player and one kernel serves both. A choice out of range counts as a bad choice and takes the first row."""
    np.random.seed(seed)
    # the blocks strategies see, as arrays of their own (made once: reshaping is not free)
    st = w[W_ST:W_ST + N_STATE]
    opts = w[W_OPTS:W_OPTS + MAX_OPTS * OPT_WIDTH].reshape((MAX_OPTS, OPT_WIDTH))
    geo = w[W_GEO:W_GEO + w[W_GEO_ROWS] * w[W_GEO_COLS]].reshape((w[W_GEO_ROWS], w[W_GEO_COLS]))
    searching = sc.shape[0] > 1
    w[W_TROW] = 0
    w[W_TOVER] = 0
    w[W_NSEARCH] = 0
    for g in range(n):
        start_trace(w, g, n_traced, trace_start, W_TRACING, W_TROW)
        start_game(w, trace, seed, g)
        if searching:
            search_seed(w, seed, g)
        while True:
            q = next_question(w, trace)
            if q < 0:
                break
            who = q >> 4
            kind = q & 15
            k = st[R_NOPTS]
            p = pd if who < 4 else pw
            code = codes[who]
            if code == IN_SEARCH:
                i = search(w, sc, trace, q, p, fns[0], fns[1], fns[2], fns[3], fns[4], fns[5], fns[6], fns[7], codes,
                           pd, pw, 1)
            elif code != CALL:
                i = inline_choice(code, kind, opts, k, st, geo, p, 0)
            else:
                i = fns[who](kind, opts, k, st, geo, p)
            if i < 0 or i >= k:
                st[T_BAD_CHOICES] += 1
                i = 0
            take_row(w, i)
        for k in range(OUT_SLOTS.shape[0]):
            out[k, g] = st[OUT_SLOTS[k]]
    if n_traced > 0:
        trace_start[n_traced] = w[W_TROW]
    return w[W_TOVER]


# ---- the batch --------------------------------------------------------------------------------
# A decision slot whose function is one of the built-ins below runs that strategy inlined into `play_games`
# instead of an indirect call (recognised by identity): a call passes the option rows, state, geometry and
# parameters as some thirty words and the callee reloads them, about a tenth of a default game. Same code,
# same answers, same draws from the game's stream. INLINE_BUILTINS = False calls every function (to check
# that both paths give the same games). The search player is always run by the kernel: it needs the whole
# work array, which a strategy function does not see.
INLINE = ((builtin.brawler2_choice, IN_BRAWLER), (builtin.coordinated_choice, IN_COORDINATED),
          (builtin.random_choice, IN_RANDOM))
INLINE_BUILTINS = True

FN = DECISION_FN
# the search's choice at a question (search_at_jit), and what the plain batch passes in its place
SEARCH_AT_SIG = types.int64(
    types.int64[::1], types.int64[::1], types.int16[:, ::1], types.int64, types.float64[::1],
    FN, FN, FN, FN, FN, FN, FN, FN, types.int64[::1], types.float64[::1], types.float64[::1], types.int64)
BATCH_SIG = types.int64(
    types.int64, types.int64, types.int64[::1], FN, FN, FN, FN, FN, FN, FN, FN,
    types.float64[::1], types.float64[::1],
    types.int32[:, ::1], types.int16[:, ::1], types.int64[::1], types.int64, types.int64[::1], types.int64[::1],
    types.FunctionType(SEARCH_AT_SIG))


@njit(DECISION_SIG, **FAST)
def run_here(kind, opts, n, st, geo, p):
    """What a slot the kernel runs itself (a built-in inline, or the search) passes in its function's place: never
    called, so that the built-in need not also compile as a function of its own (about 35 s of a cold start)."""
    return 0


@njit(SEARCH_AT_SIG, **FAST)
def no_search(w, sc, tr, q, p, d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup, codes, pd, pw,
              deal):
    """What the plain batch passes for the search: never called (no seat searches)."""
    return 0


def inline_codes(functions) -> np.ndarray:
    """codes[slot] for the eight decision slots (dragon's act, target, react, setup, then the dwarves'):
    IN_SEARCH for the search player, the built-in strategy run inline there, or CALL."""
    codes = np.zeros(8, dtype=np.int64)
    for slot, fn in enumerate(functions):
        if fn is builtin.search_choice:
            codes[slot] = IN_SEARCH
        elif INLINE_BUILTINS:
            for builtin_fn, code in INLINE:
                if fn is builtin_fn:
                    codes[slot] = code
    return codes


def play_batch(seed, n, w, d_act, d_target, d_react, d_setup,
               w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced):
    """Play n games from `seed`; out[k, g] is game g's final state at records.OUT_SLOTS[k] (one
    row per slot, so the games table's columns come out contiguous).

    The first n_traced games write their events into `trace`, game i's rows starting at
    trace_start[i] (trace_start[n_traced] is the end). Returns 1 if `trace` was too small. The search player
    compiles when a line-up with a search seat first plays.
    """
    codes = inline_codes((d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup))
    fns = tuple(fn if code == CALL else run_here
                for fn, code in zip((d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup), codes))
    compile_now(fns)                  # the line-up's functions the kernel calls, and only those
    if (codes == IN_SEARCH).any():
        compile_part(SEARCH_PARTS, "search")
        return play_batch_jit(seed, n, w, *fns, pd, pw, out, trace, trace_start, n_traced, codes,
                              np.zeros(N_SCRATCH, dtype=np.int64), search_at_jit)
    return play_batch_jit(seed, n, w, *fns, pd, pw, out, trace, trace_start, n_traced, codes,
                          np.zeros(1, dtype=np.int64), no_search)


@njit(BATCH_SIG, nogil=True, **FAST)
def play_batch_jit(seed, n, w, d_act, d_target, d_react, d_setup,
                   w_act, w_target, w_react, w_setup, pd, pw, out, trace, trace_start, n_traced, codes, sc, search):
    """`play_batch` (Python) with codes[slot]: the built-in strategy a decision slot runs inline, or IN_SEARCH;
    sc: the search's scratch (kernel_search.N_SCRATCH words when a side searches); search: search_at_jit or
    no_search."""
    fns = (d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup)
    return play_games(seed, n, w, fns, pd, pw, out, trace, trace_start, n_traced, codes, sc, search)


@njit_later(SEARCH_AT_SIG, **FAST)
def search_at_jit(w, sc, tr, q, p, d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup,
                  codes, pd, pw, deal):
    """The search's choice at question q, pending in `w`, the line-up's functions and weights
    given as `play_batch_jit` takes them (the batch's search, and the tests' and the benchmark's entry)."""
    st = w[W_ST:W_ST + N_STATE]
    opts = w[W_OPTS:W_OPTS + MAX_OPTS * OPT_WIDTH].reshape((MAX_OPTS, OPT_WIDTH))
    geo = w[W_GEO:W_GEO + w[W_GEO_ROWS] * w[W_GEO_COLS]].reshape((w[W_GEO_ROWS], w[W_GEO_COLS]))
    fns = (d_act, d_target, d_react, d_setup, w_act, w_target, w_react, w_setup)
    return search_choice(w, sc, tr, st, opts, geo, q, p, fns, codes, pd, pw, deal)


def search_at(w, q, p, functions, pd, pw, deal=1) -> int:
    """search_at_jit from Python at question q (as play_to_decision returns it): `functions` are the dragon's
    four decision functions, then the dwarves'."""
    fns = tuple(functions)
    compile_part(SEARCH_PARTS, "search")
    sc = np.zeros(N_SCRATCH, dtype=np.int64)
    tr = np.zeros((1, TRACE_WIDTH), dtype=np.int16)
    return int(search_at_jit(w, sc, tr, q, np.ascontiguousarray(p, dtype=np.float64), *fns, inline_codes(fns),
                             np.ascontiguousarray(pd, dtype=np.float64), np.ascontiguousarray(pw, dtype=np.float64),
                             deal))


# What a run with a searching seat compiles besides the plain kernel (Game.kernels(search=True), compile_part).
SEARCH_PARTS = (search_at_jit,)


# ---- Python helpers ---------------------------------------------------------------------------


def new_work(rules, check: bool = False) -> np.ndarray:
    """A fresh work array for `rules` (a DrakoRules); `check` verifies invariants after each action."""
    geo = rules.geo()
    h = geo.shape[0] // 3
    w = np.zeros(W_GEO + geo.size + h * h, dtype=np.int64)
    cfg = rules.cfg(check)
    w[:len(cfg)] = cfg
    cards = rules.cards()
    w[W_CARDS:W_CARDS + cards.size] = cards.reshape(-1)
    w[W_BOARD:W_BOARD + MAX_HEX] = -1
    w[W_GEO_ROWS], w[W_GEO_COLS] = geo.shape
    w[W_GEO:W_GEO + geo.size] = geo.reshape(-1)
    w[W_RAY_AT] = W_GEO + geo.size
    w[W_GEO + geo.size:] = ray_table(geo, int(w[C_FIRE_RANGE])).reshape(-1)
    w[W_RING2:W_RING2 + MAX_HEX * 36] = ring2_table(geo).reshape(-1)
    return w


def views(w: np.ndarray):
    """(st, opts, geo): the blocks of a work array strategies see."""
    st = w[W_ST:W_ST + N_STATE]
    opts = w[W_OPTS:W_OPTS + MAX_OPTS * OPT_WIDTH].reshape(MAX_OPTS, OPT_WIDTH)
    geo = w[W_GEO:W_GEO + w[W_GEO_ROWS] * w[W_GEO_COLS]].reshape(w[W_GEO_ROWS], w[W_GEO_COLS])
    return st, opts, geo


def decision_of(q: int) -> tuple[int, int, int]:
    """(side, function slot, kind) of a question code returned by `next_question`."""
    return (q >> 4) // 4, (q >> 4) % 4, q & 15
