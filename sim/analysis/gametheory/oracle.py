"""Double oracle (McMahan, Gordon & Blum 2003) for two-sided constant-sum games: solve the table of the
strategies found so far, ask each side's best-response oracle for a strategy that beats the other side's
current mixture, add it, measure the new cells, and repeat until no oracle gains more than a tolerance.

The loop is pure: measuring a cell and finding a best response are the caller's callbacks (for dsim, a batch
of simulated games and the strategy-parameter optimiser). With exact oracles it ends at the value of the
full game while measuring only the cells of the strategies it needed; with simulated ones the final gains
are the stated tolerance's evidence and should be re-measured on fresh seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .zerosum import ZeroSumSolution, solve_zero_sum


@dataclass(frozen=True)
class OracleStep:
    """One round: the restricted game's value and each oracle's claimed gain against its solution."""
    n_rows: int
    n_cols: int
    value: float
    row_gain: float
    col_gain: float


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class DoubleOracleResult:
    """The strategies the loop ended with, their measured table and its solution.

    With exact oracles `lower <= value of the full game <= upper` (value minus the column oracle's gain,
    value plus the row oracle's gain). `converged` is True when both last gains were at most `tol`.
    """
    row_strategies: list
    col_strategies: list
    table: np.ndarray
    solution: ZeroSumSolution
    history: list[OracleStep]
    converged: bool
    cells_measured: int

    @property
    def value(self) -> float:
        return self.solution.value

    @property
    def lower(self) -> float:
        return self.solution.value - self.history[-1].col_gain

    @property
    def upper(self) -> float:
        return self.solution.value + self.history[-1].row_gain


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and bool(np.all(np.asarray(a) == np.asarray(b)))
    return bool(a == b)


def double_oracle(payoff_fn: Callable[[Any, Any], float], row_strategies, col_strategies,
                  best_response_row: Callable[[list, np.ndarray, float], tuple[Any, float]],
                  best_response_col: Callable[[list, np.ndarray, float], tuple[Any, float]],
                  tol: float = 1e-3, max_iters: int = 50,
                  solver: Callable[[np.ndarray], ZeroSumSolution] = solve_zero_sum,
                  same: Callable[[Any, Any], bool] = _same) -> DoubleOracleResult:
    """Grow both strategy sets with best responses until neither side gains more than `tol`.

    payoff_fn(row_strategy, col_strategy): the row side's measured payoff in that cell (each cell is asked
      once).
    best_response_row(col_strategies, col_mix, value) -> (strategy or None, gain): the row side's best
      strategy against the column mixture and how much more than `value` it gets (row units).
    best_response_col(row_strategies, row_mix, value) -> (strategy or None, gain): the same for the column
      side; its gain is `value` minus the row side's payoff against the new strategy.
    A strategy is added when its gain exceeds `tol` and it is not already in the set (`same` compares two
    strategies; numpy arrays compare element-wise). The loop stops when nothing is added: converged if
    both gains are at most `tol`, or at round `max_iters`, whose best responses are reported but not added
    (converged only if their gains are at most `tol`).
    """
    rows, cols = list(row_strategies), list(col_strategies)
    if not rows or not cols:
        raise ValueError("double oracle needs at least one strategy per side to start from")
    cache: dict[tuple[int, int], float] = {}

    def table() -> np.ndarray:
        for i in range(len(rows)):
            for j in range(len(cols)):
                if (i, j) not in cache:
                    cache[i, j] = float(payoff_fn(rows[i], cols[j]))
        return np.array([[cache[i, j] for j in range(len(cols))] for i in range(len(rows))])

    history: list[OracleStep] = []
    if max_iters < 1:
        raise ValueError(f"max_iters must be at least 1, got {max_iters}")
    for it in range(max_iters):
        A = table()
        sol = solver(A)
        r_new, r_gain = best_response_row(list(cols), sol.col, sol.value)
        c_new, c_gain = best_response_col(list(rows), sol.row, sol.value)
        r_gain, c_gain = float(r_gain), float(c_gain)
        history.append(OracleStep(len(rows), len(cols), sol.value, r_gain, c_gain))
        converged = r_gain <= tol and c_gain <= tol
        if it == max_iters - 1:
            break
        added = False
        if r_new is not None and r_gain > tol and not any(same(r_new, s) for s in rows):
            rows.append(r_new)
            added = True
        if c_new is not None and c_gain > tol and not any(same(c_new, s) for s in cols):
            cols.append(c_new)
            added = True
        if not added:
            break
    return DoubleOracleResult(rows, cols, A, sol, history, converged, len(cache))
