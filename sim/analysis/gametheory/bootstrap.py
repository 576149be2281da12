"""Bootstrap intervals for a solved payoff table: resample the games behind every cell, re-solve, and read
intervals off the re-solved values, weights and any scalar the caller derives.

A table is measured, not known: each cell is a mean over simulated games. Re-solving tables resampled from
those games carries the measurement noise through the solver, non-linear as it is (maximin, equilibrium
support changes), without a formula for it.

The value's interval is the *basic* bootstrap interval by default, [2v - q(97.5%), 2v - q(2.5%)], not the
percentile one [q(2.5%), q(97.5%)]. A max-min value of a measured table is biased: where strategies are nearly
tied, the max of noisy means sits above the true max, and a resampled table's max sits above that again. The
percentile interval repeats the bias (it covered the truth 17 times in 100 for a table of tied strategies);
the basic interval reflects it back (90-95 in 100, `tests/test_bootstrap_coverage.py`, docs/EQUILIBRIUM.md).
Weights and extras keep percentile intervals (a weight's basic interval can leave [0, 1]).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from ._util import Interval

CHUNK = 2_000_000       # floats per resampling block, to bound memory with many games per cell


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class CellSummary:
    """Per-cell running sums instead of per-game payoffs: sum, sum of squares and number of games, each an
    array of the table's shape. Resampled as a normal mean N(mean, var / n) per cell, independently, so
    common random numbers between cells cannot be taken into account."""
    total: np.ndarray
    total_sq: np.ndarray
    n: np.ndarray

    def mean(self) -> np.ndarray:
        return np.asarray(self.total, dtype=np.float64) / np.asarray(self.n, dtype=np.float64)

    def var(self) -> np.ndarray:
        n = np.asarray(self.n, dtype=np.float64)
        v = (np.asarray(self.total_sq, dtype=np.float64) - np.asarray(self.total, dtype=np.float64) ** 2 / n)
        return np.where(n > 1, np.clip(v, 0.0, None) / np.maximum(n - 1, 1), 0.0)


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class BootstrapResult:
    """The solution of the mean table, and percentile intervals over B re-solved resampled tables.

    `value` and each `extra[name]` are Intervals of floats; `weights[name]` is an Interval of arrays (one
    entry per strategy; e.g. names "row" and "col" for a two-sided solution, "x" for a symmetric one).
    `replicates` holds every re-solved number: "value", "weights.<name>" (B, k), "extra.<name>".
    """
    solution: Any
    table: np.ndarray
    value: Interval
    weights: dict[str, Interval]
    extra: dict[str, Interval]
    replicates: dict[str, np.ndarray]
    level: float
    B: int
    paired: bool


def _cells(cell_samples) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """Table shape and the flattened list of per-game payoff vectors.

    Accepts a numeric array whose last axis is the games (shape table + (G,)), an object array of 1-D
    arrays, or nested lists of 1-D arrays (ragged allowed)."""
    if isinstance(cell_samples, np.ndarray) and cell_samples.dtype != object:
        a = np.asarray(cell_samples, dtype=np.float64)
        if a.ndim < 2:
            raise ValueError("per-game samples need a table axis and a games axis")
        shape = a.shape[:-1]
        cells = list(a.reshape(-1, a.shape[-1]))
    else:
        obj = cell_samples if isinstance(cell_samples, np.ndarray) else _nested_to_object(cell_samples)
        shape = obj.shape
        cells = [np.asarray(c, dtype=np.float64).reshape(-1) for c in obj.reshape(-1)]
    for i, c in enumerate(cells):
        if len(c) == 0:
            raise ValueError(f"cell {np.unravel_index(i, shape)} has no games")
        if not np.all(np.isfinite(c)):
            raise ValueError(f"cell {np.unravel_index(i, shape)} has a NaN or infinite payoff")
    return shape, cells


def _nested_to_object(nested) -> np.ndarray:
    def shape_of(x) -> tuple[int, ...]:
        if isinstance(x, np.ndarray) or not isinstance(x, (list, tuple)) or _is_vector(x):
            return ()                                       # a leaf: one cell's games
        inner = [shape_of(e) for e in x]
        if any(s != inner[0] for s in inner):
            raise ValueError("nested cell lists must form a rectangular table")
        return (len(x),) + inner[0]

    shape = shape_of(nested)
    if not shape:
        raise ValueError("cell samples must be a table of per-game payoff vectors")
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        v = nested
        for i in idx:
            v = v[i]
        out[idx] = v
    return out


def _is_vector(x) -> bool:
    """A list of numbers is one cell's games, not a level of the table."""
    return all(isinstance(e, Real) for e in x)


def _resampled_means_unpaired(cells: list[np.ndarray], B: int, rng) -> np.ndarray:
    """(B, cells): each cell resampled independently. A cell's resampled mean depends only on how many
    copies of each distinct payoff are drawn, so it is drawn as multinomial counts over the distinct values
    (exactly the distribution of resampling the games one by one, far cheaper for win/loss or share data)."""
    out = np.empty((B, len(cells)))
    for c, x in enumerate(cells):
        vals, counts = np.unique(x, return_counts=True)
        n = len(x)
        step = max(1, CHUNK // len(vals))
        for b0 in range(0, B, step):
            b1 = min(B, b0 + step)
            out[b0:b1, c] = rng.multinomial(n, counts / n, size=b1 - b0) @ vals / n
    return out


def _resampled_means_paired(cells: list[np.ndarray], B: int, rng) -> np.ndarray:
    """(B, cells): game g of every cell shares a weight, as game g of every cell shares a seed.

    Equal game counts: the weights are multinomial counts, i.e. the same resampled game indices in every
    cell. Unequal counts (cells stopped at different precisions, seeds shared as a prefix): Poisson(1)
    weights per game index (the Poisson bootstrap), so game g keeps one weight in every cell that has it."""
    lengths = np.array([len(x) for x in cells])
    G = int(lengths.max())
    X = np.zeros((G, len(cells)))
    mask = np.zeros((G, len(cells)))
    for c, x in enumerate(cells):
        X[: len(x), c] = x
        mask[: len(x), c] = 1.0
    equal = bool(np.all(lengths == G))
    point = X.sum(axis=0) / lengths
    out = np.empty((B, len(cells)))
    step = max(1, CHUNK // G)
    for b0 in range(0, B, step):
        b1 = min(B, b0 + step)
        if equal:
            W = rng.multinomial(G, np.full(G, 1.0 / G), size=b1 - b0).astype(np.float64)
            out[b0:b1] = W @ X / G
        else:
            W = rng.poisson(1.0, size=(b1 - b0, G)).astype(np.float64)
            den = W @ mask
            with np.errstate(invalid="ignore", divide="ignore"):
                out[b0:b1] = np.where(den > 0, (W @ X) / den, point)   # no game drawn: keep the cell's mean
    return out


def _value_and_weights(sol) -> tuple[float, dict[str, np.ndarray]]:
    if isinstance(sol, Real):
        return float(sol), {}
    w = sol.weights() if hasattr(sol, "weights") else {}
    return float(sol.value), {k: np.asarray(v, dtype=np.float64) for k, v in w.items()}


def _interval(point, reps: np.ndarray, level: float, method: str = "percentile") -> Interval:
    lo, hi = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    if method == "basic":
        lo, hi = 2 * np.asarray(point) - hi, 2 * np.asarray(point) - lo
    if np.ndim(point) == 0:
        return Interval(float(point), float(lo), float(hi))
    return Interval(np.asarray(point), lo, hi)


def bootstrap_solution(cell_samples, solver: Callable[[np.ndarray], Any], B: int = 1000,
                       rng: np.random.Generator | int | None = None, *, paired: bool = False,
                       level: float = 0.95,
                       extra: Callable[[Any, np.ndarray], Mapping[str, float]] | None = None,
                       method: str = "basic", point_solver: Callable[[np.ndarray], Any] | None = None
                       ) -> BootstrapResult:
    """Bootstrap intervals for a solved table: the value's by `method` ("basic" or "percentile", the module's
    docstring says why basic), the weights' and extras' by percentile.

    cell_samples: per-game payoffs of every cell (numeric array with the games on the last axis, or an
      object array / nested lists of 1-D arrays when cells have different numbers of games), or a
      `CellSummary` (per-cell sum, sum of squares and count, resampled as normal means).
    solver: maps a table of means (the table's shape) to a solution with a `.value` and a `.weights()` dict
      (every solver of this package), or to a plain number. Wrap to solve other representations, e.g.
      `lambda t: solve_symmetric(SymmetricGame(n, t))`.
    paired: the cells were played on common random numbers (game g of every cell used the same seed): the
      resample draws the same game indices in every cell, keeping the correlation between cells that CRN
      creates. Not available for a CellSummary.
    extra: called as extra(solution, table) for the mean table and for each resample; returns named scalars
      (e.g. the exploitability of the default strategies) that get intervals too.
    point_solver: solves the mean table instead of `solver`, where the answer reported deserves a more thorough
      solve (several methods and starts) than each resample.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if B < 1:
        raise ValueError(f"B must be at least 1, got {B}")
    if method not in ("basic", "percentile"):
        raise ValueError(f"method must be 'basic' or 'percentile', got {method!r}")
    rng = np.random.default_rng(rng)
    if isinstance(cell_samples, CellSummary):
        if paired:
            raise ValueError("a CellSummary has no per-game payoffs, so it cannot be resampled in pairs")
        mean, se = cell_samples.mean(), np.sqrt(cell_samples.var() / np.asarray(cell_samples.n, dtype=np.float64))
        if not (np.all(np.isfinite(mean)) and np.all(np.asarray(cell_samples.n) >= 1)):
            raise ValueError("every cell of a CellSummary needs at least one game and finite sums")
        shape = mean.shape
        means = mean.reshape(-1) + se.reshape(-1) * rng.standard_normal((B, mean.size))
    else:
        shape, cells = _cells(cell_samples)
        mean = np.array([c.mean() for c in cells]).reshape(shape)
        means = (_resampled_means_paired if paired else _resampled_means_unpaired)(cells, B, rng)

    def solve(table, solver=solver):
        sol = solver(table)
        value, weights = _value_and_weights(sol)
        return sol, value, weights, ({k: float(v) for k, v in extra(sol, table).items()} if extra else {})

    point_sol, point_value, point_w, point_x = solve(mean, point_solver or solver)
    values = np.empty(B)
    reps_w = {k: np.empty((B,) + v.shape) for k, v in point_w.items()}
    reps_x = {k: np.empty(B) for k in point_x}
    for b in range(B):
        _, values[b], w, x = solve(means[b].reshape(shape))
        for k in reps_w:
            reps_w[k][b] = w[k]
        for k in reps_x:
            reps_x[k][b] = x[k]
    replicates = {"value": values} | {f"weights.{k}": v for k, v in reps_w.items()} \
        | {f"extra.{k}": v for k, v in reps_x.items()}
    return BootstrapResult(
        point_sol, mean, _interval(point_value, values, level, method),
        {k: _interval(point_w[k], v, level) for k, v in reps_w.items()},
        {k: _interval(point_x[k], v, level) for k, v in reps_x.items()},
        replicates, level, B, paired)
