"""Coverage of the equilibrium value's bootstrap interval (sim.analysis.gametheory.bootstrap), simulated with
known tables as the truth: a saddle point, tied strategies (where a percentile interval of a max leans high) and
an interior mixture. The solver here is exact and fast for these shapes, so the test measures the interval."""

import numpy as np
import pytest

from sim.analysis.gametheory import bootstrap_solution, solve_zero_sum

TABLES = {"saddle point": np.array([[0.6, 0.7], [0.4, 0.5]]),
          "tied strategies": np.array([[0.55], [0.55], [0.55]]),
          "interior mixture": np.array([[0.7, 0.3], [0.3, 0.7]])}
SIMS, GAMES, B = 100, 300, 200


def maximin(t: np.ndarray) -> float:
    """The row side's value of a one-column or 2x2 table."""
    if t.shape[1] == 1:
        return float(t.max())
    lower, upper = t.min(axis=1).max(), t.max(axis=0).min()
    if np.isclose(lower, upper):
        return float(lower)
    (a, b), (c, d) = t
    return float((a * d - b * c) / (a + d - b - c))


def coverage(table: np.ndarray, method: str) -> float:
    truth = maximin(table)
    rng = np.random.default_rng(7)
    hits = 0
    for s in range(SIMS):
        games = (rng.random(table.shape + (GAMES,)) < table[..., None]).astype(float)
        v = bootstrap_solution(games, maximin, B=B, rng=s, paired=True, method=method).value
        hits += v.lo <= truth <= v.hi
    return hits / SIMS


def test_the_exact_solver_agrees_with_the_lp():
    for t in TABLES.values():
        assert maximin(t) == pytest.approx(solve_zero_sum(t).value, abs=1e-9)


@pytest.mark.parametrize("name", TABLES)
def test_the_basic_interval_covers_the_value(name):
    assert coverage(TABLES[name], "basic") >= 0.85


def test_the_percentile_interval_leans_where_strategies_tie():
    tied = TABLES["tied strategies"]
    assert coverage(tied, "percentile") < coverage(tied, "basic") - 0.1
