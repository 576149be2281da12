"""The search players' driver, written once for every game: which option to take at one decision.

A game's search player (sim/games/<game>/kernel_search.py) supplies an adapter: the options at the decision,
the heuristic's own answer among them (the incumbent), and `play(ctx, i, stream)`, one playout of option i
from a determinisation dealt on the search stream `stream`, returning the searcher's reward (an integer: 0 or
1, or 0/1/2 where a draw is half a win). This module spreads the budget over the options and picks one.

- **Sequential halving** with common random numbers: in each round every surviving option is played out on
  the same streams (so they are compared on the same deals and the same later draws), and the better half
  goes on. Every option gets at least FIRST_SHARE playouts in the first round: none is cut on one sample.
- **The guard**: where the game names an incumbent, a budget share (1 / GUARD_SHARE, at least MIN_GUARD_PAIRS
  pairs while they fit in half the budget) is kept back; if the halving's winner is not the incumbent, the two
  are played out again on fresh streams, paired, and the winner replaces the incumbent only if it wins those
  by more than MARGIN_Z standard deviations of a sign test (the sum of the paired differences against the
  square root of the sum of their squares). Fresh
  streams matter: on the playouts that picked it, the winner of several noisy options looks better than it
  is, and a search that trusted them would throw away a good heuristic's answer for a lucky option.

The functions that take `play` are inlined into each game's search (numba specialises them on the game's
`play` and context): a jitted function passed as a plain argument would make the caller uncacheable ("dynamic
globals") and recompile in every process; inlined, the game's search caches as any kernel does.
"""

import numpy as np
from numba import njit

from sim.engine.rng import next_u64

FIRST_SHARE = 2       # playouts per option in the first round, at least
GUARD_SHARE = 4       # 1 / GUARD_SHARE of the budget checks the halving's winner against the incumbent
MARGIN_Z = 1.0        # how far (in sign-test deviations) the winner must beat the incumbent on fresh playouts
MIN_GUARD_PAIRS = 5   # at small budgets the guard still gets this many pairs (up to a quarter of the budget each
                      # side): with 2 pairs, one lucky pair is enough to replace the heuristic (Drakerion, budget 20)

# the driver's scratch, per option: reward sum, playouts; then the survivors' order; then the guard's tallies
SUM, COUNT, ALIVE = 0, 1, 2
GUARD_DIFF, GUARD_SQ, GUARD_PAIRS = 0, 1, 2


def words(max_options: int) -> int:
    """Scratch words `choose` needs for up to `max_options` options."""
    return 3 * max_options + 3


@njit(cache=True)
def next_stream(srng):
    """A fresh playout stream (never zero) from the search stream srng[0]."""
    return np.int64(next_u64(srng) | np.uint64(1))


@njit(cache=True)
def rounds_for(n):
    """Sequential halving's rounds for n options: ceil(log2 n)."""
    r = 0
    while (1 << r) < n:
        r += 1
    return r


@njit(cache=True)
def guard_pairs(budget, inc):
    """How many fresh pairs of playouts the guard keeps back (none without an incumbent)."""
    if inc < 0:
        return 0
    small = min(MIN_GUARD_PAIRS, budget // 4)
    return max(FIRST_SHARE, small, budget // (2 * GUARD_SHARE))


@njit(inline="always")
def halving(n, budget, hs, srng, play, ctx):
    """Sequential halving over options 0..n-1 with `budget` playouts; returns the survivor. Within a round,
    playout j of every option uses the same stream; srng[0] is restored after each (play may use its cell)."""
    m = (hs.shape[0] - 3) // 3
    for i in range(n):
        hs[SUM * m + i] = 0
        hs[COUNT * m + i] = 0
        hs[ALIVE * m + i] = i
    alive = n
    rounds = rounds_for(n)
    for r in range(rounds):
        per = budget // (rounds * alive)
        per = max(FIRST_SHARE, per) if r == 0 else max(1, per)
        for _ in range(per):
            stream = next_stream(srng)
            keep = srng[0]
            for a in range(alive):
                o = hs[ALIVE * m + a]
                hs[SUM * m + o] += play(ctx, o, stream)
                hs[COUNT * m + o] += 1
            srng[0] = keep
        # the better half goes on (the survivors have had the same playouts, so sums compare; ties keep the
        # earlier option)
        for a in range(1, alive):
            o = hs[ALIVE * m + a]
            b = a - 1
            while b >= 0 and hs[SUM * m + hs[ALIVE * m + b]] < hs[SUM * m + o]:
                hs[ALIVE * m + b + 1] = hs[ALIVE * m + b]
                b -= 1
            hs[ALIVE * m + b + 1] = o
        alive = (alive + 1) // 2
    return hs[ALIVE * m]


@njit(inline="always")
def guard(best, inc, pairs, hs, srng, play, ctx):
    """`best` if it beats `inc` on `pairs` fresh paired playouts by more than MARGIN_Z sign-test deviations,
    else `inc`. The tallies stay in the scratch's last three words (the tests read them)."""
    g = hs.shape[0] - 3
    diff = 0
    sq = 0
    for _ in range(pairs):
        stream = next_stream(srng)
        keep = srng[0]
        d = play(ctx, best, stream) - play(ctx, inc, stream)
        srng[0] = keep
        diff += d
        sq += d * d
    hs[g + GUARD_DIFF] = diff
    hs[g + GUARD_SQ] = sq
    hs[g + GUARD_PAIRS] = pairs
    return best if diff > MARGIN_Z * np.sqrt(sq) else inc


@njit(inline="always")
def choose(n, inc, budget, hs, srng, play, ctx):
    """The option to take among n (0..n-1), `inc` the heuristic's answer (-1 when the game names none), with
    about `budget` playouts (at least FIRST_SHARE per option). hs: int64 scratch of words(n) or more words;
    srng: the search stream, a one-element int64 array (advanced). play(ctx, i, stream) -> the reward."""
    g = hs.shape[0] - 3
    hs[g + GUARD_DIFF] = 0
    hs[g + GUARD_SQ] = 0
    hs[g + GUARD_PAIRS] = 0
    if n <= 1:
        return 0
    budget = max(budget, 1)
    pairs = guard_pairs(budget, inc)
    best = halving(n, max(budget - 2 * pairs, 1), hs, srng, play, ctx)
    if inc < 0 or best == inc:
        return best
    return guard(best, inc, pairs, hs, srng, play, ctx)
