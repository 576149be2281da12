"""Two-sided constant-sum tables: the maximin solution by linear programming, fictitious play as an
independent check, and exploitability.

Convention: `A[i, j]` is the row side's payoff (a win rate or share, usually in [0, 1]) when the row side plays
strategy i and the column side plays j; the column side gets `total - A[i, j]`. The solution does not depend
on `total`, so it is not an argument: every value here is in the row side's units.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from ._util import as_mixture, as_table, clean


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class ZeroSumSolution:
    """Maximin mixtures for both sides and the value of the game to the row side.

    `lower` is what the row mixture guarantees whatever the column side does (min_j of x·A), `upper` what the
    column mixture concedes at most (max_i of A·y); the value lies between and `gap = upper - lower` is the
    solution's NashConv (0 up to solver tolerance for an exact solution).
    """
    row: np.ndarray
    col: np.ndarray
    value: float
    lower: float
    upper: float

    @property
    def gap(self) -> float:
        return self.upper - self.lower

    def weights(self) -> dict[str, np.ndarray]:
        return {"row": self.row, "col": self.col}


def _solution(A: np.ndarray, x: np.ndarray, y: np.ndarray) -> ZeroSumSolution:
    x, y = clean(x), clean(y)
    return ZeroSumSolution(x, y, float(x @ A @ y), float((x @ A).min()), float((A @ y).max()))


def _maximin_lp(A: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """max v s.t. (x·A)_j >= v for every column j, sum x = 1, x >= 0; returns x, v and the duals (-> y)."""
    m, n = A.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0                                            # minimise -v
    a_ub = np.hstack([-A.T, np.ones((n, 1))])               # v - (x·A)_j <= 0
    a_eq = np.zeros((1, m + 1))
    a_eq[0, :m] = 1.0
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0.0, None)] * m + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"maximin LP failed ({res.status}): {res.message}")
    return res.x[:m], float(res.x[-1]), -np.asarray(res.ineqlin.marginals)


def _solve_2x2(A: np.ndarray) -> ZeroSumSolution:
    """Closed form for a 2x2 table: a saddle point if there is one, else the indifference mixtures."""
    maximin, minimax = A.min(axis=1).max(), A.max(axis=0).min()
    if maximin >= minimax:                                  # pure saddle point (maximin <= minimax always)
        i, j = int(A.min(axis=1).argmax()), int(A.max(axis=0).argmin())
        x, y = np.eye(2)[i], np.eye(2)[j]
    else:
        (a, b), (c, d) = A
        den = a - b - c + d                                 # non-zero when there is no saddle point
        p, q = (d - c) / den, (d - b) / den
        x, y = np.array([p, 1 - p]), np.array([q, 1 - q])
    return _solution(A, x, y)


def solve_zero_sum(A) -> ZeroSumSolution:
    """The maximin (Nash) solution of a two-sided constant-sum table by linear programming (HiGHS).

    Both mixtures come from one LP: the row side's maximin program, whose duals are the column side's minimax
    mixture; if the duals are not accurate enough (gap > 1e-7) the column side's own LP is solved. Weights
    below 1e-9 are set to 0 and each mixture sums to 1. A table whose cells are all equal gets uniform
    mixtures; a single row or column is solved like any other table; a 2x2 table uses the closed form.
    When the game has more than one equilibrium the LP returns one of them (a vertex of the solution set);
    the value is the same for all of them.
    """
    A = as_table(A)
    m, n = A.shape
    if np.ptp(A) <= 1e-15:
        return _solution(A, np.full(m, 1.0 / m), np.full(n, 1.0 / n))
    if A.shape == (2, 2):
        return _solve_2x2(A)
    x, _, y = _maximin_lp(A)
    sol = _solution(A, x, y)
    if not abs(y.sum() - 1.0) < 1e-6 or sol.gap > 1e-7:
        y_lp, _, _ = _maximin_lp(-A.T)                      # the column side maximises -A
        sol = _solution(A, x, y_lp)
    return sol


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class FictitiousPlayResult(ZeroSumSolution):
    """Empirical mixtures after `iterations` rounds; the value lies in [lower, upper] and `value` is the midpoint."""
    iterations: int


def fictitious_play(A, iters: int = 100_000, *, tol: float | None = None) -> FictitiousPlayResult:
    """Alternating fictitious play (Brown 1951): each side best-responds to the other's empirical mixture.

    Converges to the value for every zero-sum table (Robinson 1951), slowly (roughly 1/sqrt(iters) in the worst
    case), which is why it serves as an independent check of the LP, not as the solver. Stops early once the
    bound gap `upper - lower` is at most `tol`.
    """
    A = as_table(A)
    m, n = A.shape
    row_count, col_count = np.zeros(m), np.zeros(n)
    row_cum = np.zeros(m)                                   # each row's total payoff against the columns played
    col_cum = np.zeros(n)                                   # each column's total (row units) against the rows played
    i = int(A.mean(axis=1).argmax())
    t = 0
    while t < iters:
        t += 1
        row_count[i] += 1
        col_cum += A[i]
        j = int(col_cum.argmin())
        col_count[j] += 1
        row_cum += A[:, j]
        i = int(row_cum.argmax())
        if tol is not None and t % 256 == 0 and (row_cum.max() - col_cum.min()) / t <= tol:
            break
    lower, upper = float(col_cum.min() / t), float(row_cum.max() / t)
    return FictitiousPlayResult(row_count / t, col_count / t, (lower + upper) / 2, lower, upper, t)


@dataclass(frozen=True)
class Exploitability:
    """How much each side gains by switching to its best response while the other keeps its mixture.

    `payoff` is the row side's payoff x·A·y of the pair as given; `row_gain = max_i (A·y)_i - payoff`,
    `col_gain = payoff - min_j (x·A)_j` (the column side's gain, in its own units since it gets total - A).
    Both are >= 0 and both are 0 exactly at an equilibrium; their sum is the NashConv.
    """
    payoff: float
    row_gain: float
    col_gain: float
    row_best_response: int
    col_best_response: int

    @property
    def nash_conv(self) -> float:
        return self.row_gain + self.col_gain


def exploitability(A, row_mix, col_mix) -> Exploitability:
    """Best-response gains of each side against a pair of mixtures (pure strategies: one-hot vectors)."""
    A = as_table(A)
    x = as_mixture(row_mix, A.shape[0], "row mixture")
    y = as_mixture(col_mix, A.shape[1], "column mixture")
    vs_col, vs_row = A @ y, x @ A
    payoff = float(x @ vs_col)
    return Exploitability(payoff, max(0.0, float(vs_col.max()) - payoff), max(0.0, payoff - float(vs_row.min())),
                          int(vs_col.argmax()), int(vs_row.argmin()))


def side_exploitability(A, mix, side: str = "row", value: float | None = None) -> float:
    """How far a best response holds one side's mixture below the game's value (0 for a maximin mixture).

    For side "row": value - min_j (x·A)_j, i.e. how much more the column side's best response gets against x
    than it gets at equilibrium. For side "col": max_i (A·y)_i - value, the same from the other side. The
    value is solved by LP when not given.
    """
    A = as_table(A)
    if value is None:
        value = solve_zero_sum(A).value
    if side == "row":
        return max(0.0, value - float((as_mixture(mix, A.shape[0], "row mixture") @ A).min()))
    if side == "col":
        return max(0.0, float((A @ as_mixture(mix, A.shape[1], "column mixture")).max()) - value)
    raise ValueError(f"side must be 'row' or 'col', got {side!r}")
