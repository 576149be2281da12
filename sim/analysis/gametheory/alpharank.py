"""α-Rank (Omidshafiei et al. 2019, "α-Rank: Multi-Agent Evaluation by Evolution"): rank strategies by how much
time an evolving population spends on each, rather than by one equilibrium.

Each population is monomorphic most of the time (every member plays the same strategy); rarely a single
mutant appears, and either takes over (fixates) or dies out. The fixation probability of a mutant comes from
the Fermi (pairwise-comparison) process with selection intensity α in a population of m members. The
states of the resulting Markov chain are the pure profiles (one strategy per population); its stationary
distribution is the α-Rank mass. At α = ∞ the chain follows the response graph: a move to a better profile
happens with weight 1 - ε, to a worse one with weight ε (Rowland et al. 2019), and ε is taken to 0.

Written for dsim from the paper; OpenSpiel's `open_spiel/python/egt/alpharank.py` was read as a reference and
its published test case (Han et al. 2013 payoffs) is among this module's tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.special import logsumexp
from scipy.stats import hypergeom

from ._util import as_table
from .symmetric import SymmetricGame

TIE = 1e-12     # payoff differences below this are ties in the α = ∞ response graph


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class AlphaRankResult:
    """Stationary mass over pure profiles.

    `pi` has one axis per population (single population: shape (k,), a mass per strategy); `marginals[q]` is
    population q's mass per strategy; `transitions` is the Markov matrix over profiles in `np.ravel_multi_index`
    order and `fixation[s, r]` the fixation probability of the move s -> r (0 where there is no move).
    `eps` is the response-graph noise the α = ∞ answer settled at (None for finite α).
    """
    pi: np.ndarray
    marginals: tuple[np.ndarray, ...]
    transitions: np.ndarray
    fixation: np.ndarray
    alpha: float
    m: int
    eps: float | None = None

    def ranking(self) -> list[tuple[tuple[int, ...], float]]:
        """Profiles by decreasing mass, as (profile, mass)."""
        order = np.argsort(-self.pi.reshape(-1), kind="stable")
        return [(tuple(int(v) for v in np.unravel_index(i, self.pi.shape)), float(self.pi.reshape(-1)[i]))
                for i in order]


def _gth(P: np.ndarray) -> np.ndarray:
    """Stationary distribution of an irreducible chain by Grassmann-Taksar-Heyman elimination: no subtractions,
    so it stays accurate when transition probabilities differ by hundreds of orders of magnitude."""
    P = np.array(P, dtype=np.float64)
    n = len(P)
    for k in range(n - 1, 0, -1):
        s = P[k, :k].sum()
        if not s > 0:
            raise ValueError("the Markov chain is reducible")
        P[:k, k] /= s
        P[:k, :k] += np.outer(P[:k, k], P[k, :k])
    pi = np.zeros(n)
    pi[0] = 1.0
    for k in range(1, n):
        pi[k] = pi[:k] @ P[:k, k]
    return pi / pi.sum()


def stationary(P: np.ndarray) -> np.ndarray:
    """The unique stationary distribution of a row-stochastic matrix, also when transient states exist
    (underflow at large α can cut moves out of a state). ValueError if more than one closed class."""
    P = np.asarray(P, dtype=np.float64)
    off = (P > 0) & ~np.eye(len(P), dtype=bool)
    ncomp, labels = connected_components(off, directed=True, connection="strong")
    if ncomp == 1:
        return _gth(P)
    closed = [c for c in range(ncomp) if not np.any(off[labels == c][:, labels != c])]
    if len(closed) != 1:
        raise ValueError(f"the Markov chain has {len(closed)} closed classes, so no unique stationary "
                         f"distribution; lower α or use α = inf")
    idx = np.flatnonzero(labels == closed[0])
    pi = np.zeros(len(P))
    pi[idx] = _gth(P[np.ix_(idx, idx)]) if len(idx) > 1 else 1.0
    return pi


def _fixation(partial_sums: np.ndarray, alpha: float) -> float:
    """Fermi-process fixation probability of one mutant, 1 / (1 + sum_l exp(-α S_l)), in log space."""
    return float(np.exp(-logsumexp(np.concatenate([[0.0], -alpha * partial_sums]))))


def _single_population_sums(game: SymmetricGame, m: int) -> np.ndarray:
    """S[s, r, l-1] = sum_{p=1..l} (f_r(p) - f_s(p)), l = 1..m-1: the fitness advantage of r over s summed
    while r grows from 1 to l members of a population of m (the rest play s). A member's n-1 opponents are
    drawn without replacement from the other m-1 members (for n = 2 this is the usual finite-population
    fitness, e.g. Traulsen et al. 2006)."""
    n, k = game.n_players, game.k
    if m < n:
        raise ValueError(f"population size m={m} is smaller than the {n} seats of a game")
    p = np.arange(1, m)[:, None]
    c = np.arange(n)[None, :]
    h_mutant = hypergeom.pmf(c, m - 1, p - 1, n - 1)      # opponents of an r-player: p-1 r's among m-1
    h_resident = hypergeom.pmf(c, m - 1, p, n - 1)        # opponents of an s-player: p r's among m-1
    S = np.zeros((k, k, m - 1))
    cs = np.arange(n)
    for s in range(k):
        for r in range(k):
            if r == s:
                continue
            counts = np.zeros((n, k), dtype=np.int64)
            counts[:, r] += cs
            counts[:, s] += n - 1 - cs
            cols = game.index(counts)
            d = h_mutant @ game.payoffs[r, cols] - h_resident @ game.payoffs[s, cols]
            S[s, r] = np.cumsum(d)
    return S


def _moves_single(game: SymmetricGame, m: int):
    """(shape, list of (from, to, partial sums)) for a single population."""
    S = _single_population_sums(game, m)
    moves = [(s, r, S[s, r]) for s in range(game.k) for r in range(game.k) if r != s]
    return (game.k,), moves, 1.0 / max(game.k - 1, 1)


def _moves_multi(tables: list[np.ndarray], m: int):
    """(shape, list of (from, to, partial sums)) for one population per table: population q's payoff at a
    profile is tables[q][profile]; a move changes one population's strategy. Against monomorphic other
    populations a member's fitness does not depend on its own population's make-up, so S_l = l (f_r - f_s)."""
    shape = tables[0].shape
    K = len(tables)
    ls = np.arange(1, m, dtype=np.float64)
    moves = []
    for flat in range(int(np.prod(shape))):
        prof = np.unravel_index(flat, shape)
        for q in range(K):
            for r in range(shape[q]):
                if r == prof[q]:
                    continue
                new = list(prof)
                new[q] = r
                d = tables[q][tuple(new)] - tables[q][prof]
                moves.append((flat, int(np.ravel_multi_index(new, shape)), ls * d))
    return shape, moves, 1.0 / max(sum(k - 1 for k in shape), 1)


def _chain(shape, moves, eta, alpha, eps):
    n = int(np.prod(shape))
    C, rho = np.zeros((n, n)), np.zeros((n, n))
    for s, r, S in moves:
        if eps is None:
            rho[s, r] = _fixation(S, alpha)
        else:                                               # α = ∞: the response graph with noise ε
            worst = float(S.min())
            rho[s, r] = 0.5 if abs(worst) <= TIE else (1 - eps if worst > 0 else eps)
        C[s, r] = eta * rho[s, r]
    C[np.diag_indices(n)] = 1.0 - C.sum(axis=1)
    return C, rho


def alpha_rank(payoffs, alpha: float = 100.0, m: int = 50) -> AlphaRankResult:
    """α-Rank of a single-population (symmetric) or multi-population game.

    payoffs:
      - a `SymmetricGame` (n seats from one population) or a square matrix M (2-player symmetric,
        M[i, j] for i against j): one population, the states are the k strategies;
      - a list of K tables, table q giving population q's payoff at every pure profile (shape (k_1, ..., k_K)):
        K populations, e.g. `[A, 1 - A]` for a two-sided constant-sum table A. A list of one table is a
        single population.
    alpha: selection intensity (payoff differences are multiplied by it), or `np.inf` for the α → ∞ limit
      of the response graph, with ε swept 1e-1, 1e-2, ... until the mass stops moving (<= 1e-10) or ε = 1e-14.
      With payoffs in [0, 1], α = 100 to 1000 is usually already in the large-α regime.
    m: population size (at least the number of seats).

    In the α = ∞ graph, a move s -> r counts as better when r's summed advantage S_l stays positive while it
    spreads (so the mutant fixates with probability -> 1 as α grows), worse when some S_l < 0. For two
    populations and for 2-player constant-sum games this is the plain comparison of the two payoffs, as in
    OpenSpiel; for general-sum single-population games OpenSpiel compares M[r, s] with M[s, r] instead, whereas
    this keeps the finite-α fitness so that the α = ∞ answer is the limit of the finite-α ones.
    """
    if not (alpha >= 0):
        raise ValueError(f"alpha must be >= 0, got {alpha}")
    if m < 2:
        raise ValueError(f"population size m must be at least 2, got {m}")
    if isinstance(payoffs, (list, tuple)) and len(payoffs) == 1:
        payoffs = payoffs[0]
    if isinstance(payoffs, SymmetricGame):
        shape, moves, eta = _moves_single(payoffs, m)
    elif isinstance(payoffs, (list, tuple)):
        tables = [as_table(t, f"population {q}'s table", ndim=len(payoffs)) for q, t in enumerate(payoffs)]
        if any(t.shape != tables[0].shape for t in tables):
            raise ValueError(f"every population's table must have the same shape, got {[t.shape for t in tables]}")
        shape, moves, eta = _moves_multi(tables, m)
    else:
        shape, moves, eta = _moves_single(SymmetricGame.from_matrix(payoffs), m)

    if np.isfinite(alpha):
        C, rho = _chain(shape, moves, eta, alpha, None)
        pi, eps = stationary(C), None
    else:
        pi, eps = None, 0.1
        while True:
            C, rho = _chain(shape, moves, eta, alpha, eps)
            new = stationary(C)
            if pi is not None and np.max(np.abs(new - pi)) <= 1e-10 or eps <= 1e-14:
                pi = new
                break
            pi, eps = new, eps / 10
    pi = pi.reshape(shape)
    marginals = tuple(pi.sum(axis=tuple(a for a in range(pi.ndim) if a != q)) for q in range(pi.ndim))
    return AlphaRankResult(pi, marginals, C, rho, float(alpha), m, eps)
