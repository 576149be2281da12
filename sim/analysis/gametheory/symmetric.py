"""Symmetric n-player games: every seat picks from the same strategy set and a seat's payoff depends only on
its own strategy and on how many of the other seats play each strategy, not on which seat plays what.

The empirical game is a *heuristic payoff table* (Walsh et al. 2002; Tuyls et al. 2018) in focal-player form:
`payoffs[i, p]` is the payoff (for dsim: a seat's expected share) of a seat playing strategy i while the
other n-1 seats play the multiset `profiles[p]`, given as counts per strategy summing to n-1. A 2-player
symmetric matrix M (payoff M[i, j] for playing i against j) is the case n = 2; every function here accepts
such a matrix in place of a SymmetricGame.

Solvers look for a symmetric equilibrium: one mixture x that every seat plays, from which no seat gains by
a pure deviation (Nash 1951 shows one exists). Replicator dynamics and regret matching are two independent
ways to find one; the regret of the result says how close it is.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from scipy.special import gammaln

from ._util import as_mixture, as_table, clean


def opponent_profiles(n_opponents: int, k: int) -> np.ndarray:
    """Every way n_opponents seats can spread over k strategies, as a (P, k) array of counts (a fixed order)."""
    if n_opponents < 0 or k < 1:
        raise ValueError(f"need n_opponents >= 0 and k >= 1, got {n_opponents}, {k}")
    combos = itertools.combinations_with_replacement(range(k), n_opponents)
    return np.array([np.bincount(c, minlength=k) for c in combos], dtype=np.int64).reshape(-1, k)


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class SymmetricGame:
    """A symmetric n-player game in focal-player heuristic-payoff-table form (see the module docstring)."""
    n_players: int
    payoffs: np.ndarray                                     # (k, P): focal strategy x opponents' profile
    profiles: np.ndarray = field(init=False, repr=False)    # (P, k) opponent counts, opponent_profiles order
    _codes: np.ndarray = field(init=False, repr=False)      # sorted profile codes, for index lookups
    _order: np.ndarray = field(init=False, repr=False)
    _log_coef: np.ndarray = field(init=False, repr=False)   # log multinomial coefficient of each profile

    def __post_init__(self):
        if self.n_players < 2:
            raise ValueError(f"a game needs at least 2 players, got {self.n_players}")
        pay = as_table(self.payoffs, "symmetric payoff table")
        profiles = opponent_profiles(self.n_players - 1, pay.shape[0])
        if pay.shape[1] != len(profiles):
            raise ValueError(f"{self.n_players} players and {pay.shape[0]} strategies make {len(profiles)} "
                             f"opponent profiles, the table has {pay.shape[1]} columns")
        codes = self._encode(profiles)
        order = np.argsort(codes)
        object.__setattr__(self, "payoffs", pay)
        object.__setattr__(self, "profiles", profiles)
        object.__setattr__(self, "_codes", codes[order])
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_log_coef", gammaln(self.n_players) - gammaln(profiles + 1).sum(axis=1))

    @property
    def k(self) -> int:
        return self.payoffs.shape[0]

    def _encode(self, counts: np.ndarray) -> np.ndarray:
        return np.asarray(counts, dtype=np.int64) @ (self.n_players ** np.arange(np.shape(counts)[-1], dtype=np.int64))

    def index(self, counts) -> np.ndarray | int:
        """Column of the table for opponents' counts (one profile or an array of them)."""
        c = np.asarray(counts, dtype=np.int64)
        if c.shape[-1] != self.k or np.any(c < 0) or np.any(c.sum(axis=-1) != self.n_players - 1):
            raise ValueError(f"opponent counts must be {self.k} non-negative counts summing to {self.n_players - 1}")
        pos = np.searchsorted(self._codes, self._encode(c))
        out = self._order[pos]
        return int(out) if np.ndim(out) == 0 else out

    def payoff(self, i: int, counts) -> float:
        return float(self.payoffs[i, self.index(counts)])

    # -- constructors and conversions -------------------------------------------------------------------------
    @classmethod
    def from_function(cls, n_players: int, k: int, f) -> "SymmetricGame":
        """payoffs[i, p] = f(i, counts of the other seats) for every strategy and opponents' profile."""
        profiles = opponent_profiles(n_players - 1, k)
        return cls(n_players, np.array([[f(i, c) for c in profiles] for i in range(k)], dtype=np.float64))

    @classmethod
    def from_matrix(cls, M) -> "SymmetricGame":
        """The 2-player symmetric game with payoff M[i, j] for playing i against j."""
        M = as_table(M, "symmetric matrix")
        if M.shape[0] != M.shape[1]:
            raise ValueError(f"a symmetric matrix game needs a square matrix, got {M.shape}")
        profiles = opponent_profiles(1, M.shape[0])
        return cls(2, M[:, profiles.argmax(axis=1)])

    def to_matrix(self) -> np.ndarray:
        if self.n_players != 2:
            raise ValueError(f"only a 2-player game is a matrix, this one has {self.n_players} players")
        return self.payoffs[:, self.index(np.eye(self.k, dtype=np.int64))]

    @classmethod
    def from_normal_form(cls, tables, atol: float = 1e-9) -> "SymmetricGame":
        """From a full table `tables[seat, a_0, ..., a_{n-1}]` (every seat's payoff for every pure profile),
        checking that it is symmetric: a seat's payoff must depend only on its own strategy and the others'
        counts, the same way for every seat. ValueError names the first seat that breaks it."""
        t = as_table(tables, "normal-form table", ndim=None)
        n, k = t.shape[0], t.shape[1]
        if t.shape != (n,) + (k,) * n:
            raise ValueError(f"a normal-form table for {n} seats must have shape {(n,) + (k,) * n}, got {t.shape}")
        acts = np.indices((k,) * n).reshape(n, -1).T                      # every pure profile, (k^n, n)
        counts = np.stack([(acts == s).sum(axis=1) for s in range(k)], axis=1)
        game = cls(n, np.zeros((k, len(opponent_profiles(n - 1, k)))))
        pay = np.full(game.payoffs.shape, np.nan)
        for q in range(n):
            focal = acts[:, q]
            cols = game.index(counts - np.eye(k, dtype=np.int64)[focal])
            vals = t[q].reshape(-1)
            if q == 0:
                pay[focal, cols] = vals
            bad = np.abs(pay[focal, cols] - vals) > atol
            if np.any(bad):
                prof = tuple(acts[np.argmax(bad)])
                raise ValueError(f"not symmetric: seat {q}'s payoff at profile {prof} differs from seat 0's "
                                 f"payoff in the same position")
        return cls(n, pay)

    @classmethod
    def from_hpt(cls, counts, payoffs) -> "SymmetricGame":
        """From a heuristic payoff table in full-profile form (OpenSpiel's layout): row r has the counts of all
        n seats per strategy and the payoff to a seat of each strategy present in it."""
        N = np.asarray(counts, dtype=np.int64)
        U = np.asarray(payoffs, dtype=np.float64)
        if N.ndim != 2 or U.shape != N.shape:
            raise ValueError(f"counts and payoffs must be equal-shaped (rows, k) arrays, got {N.shape} and {U.shape}")
        n, k = int(N[0].sum()), N.shape[1]
        if np.any(N.sum(axis=1) != n):
            raise ValueError("every row of counts must sum to the same number of seats")
        pay = np.full((k, len(opponent_profiles(n - 1, k))), np.nan)
        probe = cls(n, np.zeros_like(pay))
        for row, u in zip(N, U):
            for i in np.flatnonzero(row):
                opp = row.copy()
                opp[i] -= 1
                pay[i, probe.index(opp)] = u[i]
        if np.any(np.isnan(pay)):
            i, p = np.argwhere(np.isnan(pay))[0]
            raise ValueError(f"the table has no payoff for strategy {i} against opponents {tuple(probe.profiles[p])}")
        return cls(n, pay)

    def to_hpt(self) -> tuple[np.ndarray, np.ndarray]:
        """(counts, payoffs) in full-profile form; a strategy absent from a row has payoff NaN."""
        full = opponent_profiles(self.n_players, self.k)
        pay = np.full(full.shape, np.nan)
        for r, row in enumerate(full):
            for i in np.flatnonzero(row):
                opp = row.copy()
                opp[i] -= 1
                pay[r, i] = self.payoff(i, opp)
        return full, pay


GameLike = SymmetricGame | np.ndarray      # every function below also takes a square matrix M (2 players)


def _as_game(game) -> SymmetricGame:
    """A SymmetricGame as is; a square matrix M as the 2-player symmetric game M[i, j] (i against j)."""
    return game if isinstance(game, SymmetricGame) else SymmetricGame.from_matrix(game)


def is_constant_sum(game: GameLike, atol: float = 1e-9) -> tuple[bool, float]:
    """Whether the seats' payoffs add to the same total in every pure profile (shares do), and that total."""
    game = _as_game(game)
    full, pay = game.to_hpt()
    totals = np.nansum(full * np.nan_to_num(pay), axis=1)
    return bool(np.ptp(totals) <= atol), float(totals.mean())


def profile_probabilities(game: GameLike, x) -> np.ndarray:
    """Probability of each opponents' profile when each of the other n-1 seats draws a strategy from x."""
    game = _as_game(game)
    return _profile_probabilities(game, as_mixture(x, game.k))


def _profile_probabilities(game: SymmetricGame, x: np.ndarray) -> np.ndarray:
    """The multinomial probability of each profile, without input checks (for the solvers' inner loops)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(game.profiles > 0, game.profiles * np.log(x), 0.0).sum(axis=1)
    return np.exp(game._log_coef + terms)


def strategy_payoffs(game: GameLike, x) -> np.ndarray:
    """Expected payoff of each pure strategy for one seat while the n-1 others each play mixture x."""
    game = _as_game(game)
    return game.payoffs @ profile_probabilities(game, x)


def _strategy_payoffs(game: SymmetricGame, x: np.ndarray) -> np.ndarray:
    return game.payoffs @ _profile_probabilities(game, x)


def mixture_payoff(game: GameLike, x) -> float:
    """A seat's expected payoff when every seat plays x."""
    game = _as_game(game)
    return float(as_mixture(x, game.k) @ strategy_payoffs(game, x))


def best_response(game: GameLike, x) -> tuple[int, float]:
    """The best pure deviation from everybody-plays-x and its gain over x (the regret)."""
    game = _as_game(game)
    x = as_mixture(x, game.k)
    u = strategy_payoffs(game, x)
    i = int(u.argmax())
    return i, max(0.0, float(u[i] - x @ u))


def regret(game: GameLike, x) -> float:
    """The most a single seat gains by switching to a pure strategy while the others keep playing x (the
    symmetric game's exploitability of x; 0 exactly at a symmetric equilibrium)."""
    game = _as_game(game)
    return best_response(game, x)[1]


def nash_conv(game: GameLike, x) -> float:
    """Sum over the seats of each seat's best deviation gain: n_players times the regret."""
    game = _as_game(game)
    return game.n_players * regret(game, x)


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class SymmetricSolution:
    """A symmetric mixture x, a seat's payoff when all play it, its regret, and how it was found."""
    x: np.ndarray
    value: float
    regret: float
    method: str
    iterations: int
    converged: bool
    alternatives: tuple["SymmetricSolution", ...] = ()

    def weights(self) -> dict[str, np.ndarray]:
        return {"x": self.x}


def _solution(game: SymmetricGame, x, method: str, iterations: int, converged: bool) -> SymmetricSolution:
    x = clean(x)
    return SymmetricSolution(x, mixture_payoff(game, x), regret(game, x), method, iterations, converged)


def replicator(game: GameLike, x0=None, *, step: float = 0.5, max_steps: int = 100_000,
               tol: float = 1e-9) -> SymmetricSolution:
    """Replicator dynamics dx_i/dt = x_i (u_i(x) - x·u(x)) from x0 (default uniform) to an equilibrium.

    Discretised as x_i <- x_i exp(step (u_i - x·u) / range), renormalised (the exponential-weights form keeps
    x in the simplex; `range` is the table's payoff range, so `step` and `tol` do not depend on the payoff
    units). Stops when the regret of x is at most tol * range: a rest point of the dynamics with no better
    pure strategy. Weights are floored at 1e-15 so that a strategy that looked bad early can come back, but
    a strategy absent from x0 stays absent. Replicator dynamics converge in games with a stable
    equilibrium (e.g. crowding games: the more seats play a strategy the less it gets) and cycle around the
    equilibrium in rock-paper-scissors-like games; then after max_steps the time average, which approaches
    the equilibrium in such games, is returned if its regret is lower, and `converged` is False.
    """
    game = _as_game(game)
    x = np.full(game.k, 1.0 / game.k) if x0 is None else as_mixture(x0, game.k, "x0")
    scale = max(float(np.ptp(game.payoffs)), 1e-300)
    x, avg, t = _replicator_loop(game.payoffs, game.profiles, game._log_coef, x, float(step), int(max_steps),
                                 float(tol), scale)
    if t <= max_steps:
        return _solution(game, x, "replicator", int(t), True)
    last, mean = _solution(game, x, "replicator", max_steps, False), _solution(
        game, avg / max_steps, "replicator (time average)", max_steps, False)
    return last if last.regret <= mean.regret else mean


def regret_matching(game: GameLike, iters: int = 100_000, *, plus: bool = True, tol: float = 1e-9,
                    x0=None) -> SymmetricSolution:
    """Regret matching in self-play: every seat plays the mixture proportional to the positive part of the
    cumulative regrets of the pure strategies, all seats alike (Hart & Mas-Colell 2000); the answer is the
    average mixture. `plus` uses regret matching+ (regrets floored at 0, linear averaging; Tammelin 2014),
    which converges much faster in practice. The average approaches a symmetric equilibrium in 2-player
    zero-sum and in stable (monotone) games; in other games check its regret. Stops early once the average's
    regret is at most tol * the table's payoff range (checked every 100 iterations).
    """
    game = _as_game(game)
    k = game.k
    x = np.full(k, 1.0 / k) if x0 is None else as_mixture(x0, k, "x0")
    stop = tol * max(float(np.ptp(game.payoffs)), 1e-300)
    avg, t, converged = _regret_matching_loop(game.payoffs, game.profiles, game._log_coef, x, int(iters), plus, stop)
    return _solution(game, avg, "regret matching+" if plus else "regret matching", int(t), bool(converged))


# The solvers' inner loops are compiled: a bootstrap re-solves a table of hundreds of cells tens of times, each
# solve up to 100,000 iterations, and numpy's per-call overhead on such small arrays was most of an n-player
# equilibrium study's time. Same arithmetic as `_strategy_payoffs` and `regret`, in loops.

@njit(cache=True)
def _payoffs_against(payoffs, profiles, log_coef, x, probs, u):
    """u[i] = strategy i's payoff against n-1 seats each drawing from x (probs: the profiles' probabilities)."""
    k, n_profiles = payoffs.shape
    for p in range(n_profiles):
        terms = 0.0
        for j in range(k):
            if profiles[p, j] > 0:
                terms += profiles[p, j] * np.log(x[j])
        probs[p] = np.exp(log_coef[p] + terms)
    for i in range(k):
        s = 0.0
        for p in range(n_profiles):
            s += payoffs[i, p] * probs[p]
        u[i] = s


@njit(cache=True)
def _replicator_loop(payoffs, profiles, log_coef, x0, step, max_steps, tol, scale):
    """Replicator steps from x0: (x, the sum of the mixtures played, the step it came to rest at, or
    max_steps + 1 when it did not)."""
    k, n_profiles = payoffs.shape
    x, avg, adv = x0.copy(), np.zeros(k), np.empty(k)
    probs, u = np.empty(n_profiles), np.empty(k)
    alive = x0 > 0
    for t in range(1, max_steps + 1):
        _payoffs_against(payoffs, profiles, log_coef, x, probs, u)
        xu = np.dot(x, u)
        best = -np.inf
        for i in range(k):
            adv[i] = (u[i] - xu) / scale
            if alive[i]:
                best = max(best, adv[i])
        if best <= tol:
            return x, avg, t
        avg += x
        for i in range(k):
            x[i] *= np.exp(step * min(max(adv[i], -50.0), 50.0))
        total = x.sum()
        for i in range(k):
            x[i] = max(x[i] / total, 1e-15) if alive[i] else 0.0
        x /= x.sum()
    return x, avg, max_steps + 1


@njit(cache=True)
def _regret_matching_loop(payoffs, profiles, log_coef, x0, iters, plus, stop):
    """Regret matching(+) from x0: (the average mixture, iterations run, whether its regret fell to `stop`)."""
    k, n_profiles = payoffs.shape
    x, R, avg = x0.copy(), np.zeros(k), np.zeros(k)
    probs, u, y = np.empty(n_profiles), np.empty(k), np.empty(k)
    wsum = 0.0
    t = 0
    while t < iters:
        t += 1
        w = float(t) if plus else 1.0
        avg += w * x
        wsum += w
        _payoffs_against(payoffs, profiles, log_coef, x, probs, u)
        xu = np.dot(x, u)
        pos_sum = 0.0
        for i in range(k):
            R[i] += u[i] - xu
            if plus and R[i] < 0.0:
                R[i] = 0.0
            pos_sum += max(R[i], 0.0)
        for i in range(k):
            x[i] = max(R[i], 0.0) / pos_sum if pos_sum > 0 else 1.0 / k
        if t % 100 == 0:
            y[:] = avg / wsum
            y /= y.sum()
            _payoffs_against(payoffs, profiles, log_coef, y, probs, u)
            if max(0.0, u.max() - np.dot(y, u)) <= stop:
                return avg / wsum, t, True
    return avg / wsum, t, False


def polish(game: GameLike, x, *, support: float = 1e-4, method: str = "polished") -> SymmetricSolution:
    """Sharpen an approximate symmetric equilibrium: take the strategies with weight above `support` as the
    support, solve "every strategy in the support earns the same, weights sum to 1" by bounded least squares
    from x, and keep the answer (labelled `method`) only if its regret is lower than x's (else x comes back
    labelled "unpolished"). Turns a regret-matching average with regret 1e-3 into an equilibrium exact to
    rounding when the support is right."""
    game = _as_game(game)
    from scipy.optimize import least_squares

    x = as_mixture(x, game.k)
    start = _solution(game, x, "unpolished", 0, False)
    S = np.flatnonzero(x > support)
    if len(S) < 2:
        return start

    def full(z):
        y = np.zeros(game.k)
        y[S] = np.clip(z, 0.0, None)
        return y

    def resid(z):
        u = _strategy_payoffs(game, full(z))[S]
        return np.concatenate([u[1:] - u[0], [z.sum() - 1.0]])

    fit = least_squares(resid, x[S], bounds=(0.0, 1.0), xtol=1e-15, ftol=1e-15, gtol=1e-15)
    y = full(fit.x)
    if not y.sum() > 0:
        return start
    cand = _solution(game, y / y.sum(), method, int(fit.nfev), True)
    return cand if cand.regret < start.regret else start


def solve_symmetric(game: GameLike, *, tol: float = 1e-9, max_steps: int = 100_000,
                    methods: tuple[str, ...] = ("replicator", "regret_matching"), starts: int = 0,
                    seed: int = 0) -> SymmetricSolution:
    """A symmetric equilibrium of a symmetric game.

    2-player constant-sum (M + M^T constant): the row side's maximin mixture by LP, which is a symmetric
    equilibrium, exact. Otherwise replicator dynamics from the uniform mixture and regret matching+ both run
    (each stops at regret tol * payoff range), and each result is polished (`polish`: exact indifference on
    its support, kept only if the regret drops). `starts` more replicator runs begin at random interior
    mixtures (seeded): a game with several symmetric equilibria shows them (`distinct_equilibria`). The
    lowest-regret answer is returned, the others are kept in `alternatives`. `methods` picks the dynamics (e.g.
    only "regret_matching" inside a bootstrap, where the second opinion costs more than it tells).
    """
    game = _as_game(game)
    from .zerosum import solve_zero_sum                    # local: zerosum does not depend on this module

    if game.n_players == 2 and is_constant_sum(game)[0]:
        sol = solve_zero_sum(game.to_matrix())
        return _solution(game, sol.row, "lp", 1, True)
    run = {"replicator": lambda: replicator(game, tol=tol, max_steps=max_steps),
           "regret_matching": lambda: regret_matching(game, iters=max_steps, tol=tol)}
    if not methods or any(m not in run for m in methods):
        raise ValueError(f"methods must be some of {tuple(run)}, got {methods}")
    found = [run[m]() for m in methods]
    rng = np.random.default_rng(seed)
    for _ in range(starts):
        found.append(replicator(game, rng.dirichlet(np.ones(game.k)), tol=tol, max_steps=max_steps))
    polished = [polish(game, f.x, method=f"{f.method} + polish") for f in found]
    found += [p for p in polished if p.method != "unpolished"]
    found.sort(key=lambda f: f.regret)
    best = found[0]
    return SymmetricSolution(best.x, best.value, best.regret, best.method, best.iterations, best.converged,
                             tuple(found[1:]))


def distinct_equilibria(sol: SymmetricSolution, max_regret: float, apart: float = 0.05) -> list[SymmetricSolution]:
    """The solution and its alternatives whose regret is at most `max_regret`, one per mixture: two mixtures
    more than `apart` apart in total variation count as different equilibria."""
    out: list[SymmetricSolution] = []
    for f in (sol, *sol.alternatives):
        if f.regret <= max_regret and all(0.5 * np.abs(f.x - g.x).sum() > apart for g in out):
            out.append(f)
    return out


def solve_symmetric_matrix(M, **kw) -> SymmetricSolution:
    """A symmetric equilibrium of the 2-player symmetric matrix game M (payoff M[i, j] for i against j)."""
    return solve_symmetric(SymmetricGame.from_matrix(M), **kw)
