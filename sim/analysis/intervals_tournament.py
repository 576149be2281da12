"""Tournament strengths: Bradley–Terry with a test of fit, and the deal as the unit of its standard errors.

A pair of strategies plays every seat/side rotation on the same deals, so the rotations of one deal are not
independent games: in a game with a strong side, A winning as the dragon on a deal goes with B winning as
the dragon on it too. The unit is the deal: a pair's score is the mean over deals of the deal's mean score
over its rotations, and its standard error is the spread of those per-deal means. Each pair enters the fit
with the effective number of games that standard error implies (quasi-likelihood with one dispersion per
pair), so strengths' intervals and the test of fit both use the deal as the unit.

The test of fit is Pearson's X² of the observed against the fitted pair scores (in effective games), on
pairs − (strategies − 1) degrees of freedom. When it rejects, strengths are intransitive or otherwise not
one number per strategy: a report must say so and show the head-to-head matrix instead of a ranking.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special
from scipy import stats as st

from sim.analysis.intervals import Interval, z_of


@dataclass(frozen=True)
class PairScore:
    """Row strategy's average score against the column over every rotation and deal (0.5 = even)."""

    mean: float
    se: float                  # deals as the unit (rotations of a deal averaged first)
    se_independent: float      # every game as if independent (too wide or too narrow when rotations pair)
    deals: int
    games: int


def pair_score(scores: np.ndarray) -> PairScore:
    """`scores[r, d]`: the row strategy's score in rotation r on deal d (as `play_pair` concatenates them:
    reshape its output to (rotations, deals))."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim == 1:
        s = s[None, :]
    r, d = s.shape
    per_deal = s.mean(axis=0)
    se = float(per_deal.std(ddof=1)) / math.sqrt(d) if d > 1 else math.nan
    se_ind = float(s.std(ddof=1)) / math.sqrt(s.size) if s.size > 1 else math.nan
    return PairScore(float(per_deal.mean()), se, se_ind, d, s.size)


def bradley_terry(wins: np.ndarray, games: np.ndarray, max_iter: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Strengths (log-odds, summing to 0) and their covariance from (fractional, possibly effective) wins[i, j]
    of i over j out of games[i, j] = games[j, i], by Newton's method. The covariance is the pseudo-inverse of
    the information (a weighted graph Laplacian), the covariance under the sum-to-zero constraint."""
    w, n = np.asarray(wins, dtype=np.float64), np.asarray(games, dtype=np.float64)
    k = len(w)
    r = np.zeros(k)
    for _ in range(max_iter):
        p = special.expit(r[:, None] - r[None, :])
        g = (w - n * p).sum(axis=1)
        h = n * p * (1 - p)
        lap = np.diag(h.sum(axis=1)) - h
        step = np.linalg.lstsq(lap[:-1, :-1], g[:-1], rcond=None)[0]
        r[:-1] += step
        r -= r.mean()
        if np.abs(step).max() < 1e-10:
            break
    p = special.expit(r[:, None] - r[None, :])
    h = n * p * (1 - p)
    return r, np.linalg.pinv(np.diag(h.sum(axis=1)) - h)


@dataclass(frozen=True)
class TournamentFit:
    """Strengths with intervals, the observed and fitted head-to-head scores, and the test of fit."""

    strength: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    observed: np.ndarray        # observed[i, j]: i's score against j (NaN: not played, or i == j)
    observed_se: np.ndarray
    fitted: np.ndarray          # Bradley–Terry's prediction of observed
    x2: float
    df: int
    p_fit: float                # NaN when df = 0 (two strategies: nothing to test)
    fits: bool | None           # False: the model is rejected at alpha; None: cannot be tested
    unit: str                   # "deal" or "game"

    def interval(self, i: int, conf: float = 0.95) -> Interval:
        z = z_of(conf)
        v, s = float(self.strength[i]), float(self.se[i])
        return Interval(v, v - z * s, v + z * s, 0, f"Bradley–Terry, {self.unit}s as the unit",
                        "log-odds of winning against an average entrant")

    def verdict(self) -> str:
        if self.fits is None:
            return "two strategies: the head-to-head score is the whole answer"
        p = "< 0.001" if self.p_fit < 0.001 else f"= {self.p_fit:.2g}"
        if self.fits:
            return f"Bradley–Terry fits (X² = {self.x2:.1f} on {self.df} df, p {p})"
        return (f"Bradley–Terry does not fit (X² = {self.x2:,.1f} on {self.df} df, p {p}): "
                "strengths are not one number per strategy; read the head-to-head matrix, not the ranking")


def fit_tournament(k: int, pairs: dict[tuple[int, int], np.ndarray], alpha: float = 0.05,
                   unit: str = "deal") -> TournamentFit:
    """Fit strengths to every played pair. `pairs[(i, j)]`: i's scores against j, shape (rotations, deals).
    unit="deal" pairs rotations by deal (the right unit when rotations share deals); unit="game" treats every
    game as independent (only for comparison, or when every game has its own deal)."""
    obs = np.full((k, k), np.nan)
    obs_se = np.full((k, k), np.nan)
    wins, eff = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), scores in pairs.items():
        ps = pair_score(scores)
        se = ps.se if unit == "deal" else ps.se_independent
        var = max(se * se if math.isfinite(se) else 0.0, 1 / (4 * ps.games ** 2))   # at least one game's worth
        s = min(max(ps.mean, 0.5 / ps.games), 1 - 0.5 / ps.games)
        n_eff = s * (1 - s) / var
        obs[i, j], obs[j, i] = ps.mean, 1 - ps.mean
        obs_se[i, j] = obs_se[j, i] = math.sqrt(var)
        wins[i, j], wins[j, i] = s * n_eff, (1 - s) * n_eff
        eff[i, j] = eff[j, i] = n_eff
    strength, cov = bradley_terry(wins, eff)
    fitted = special.expit(strength[:, None] - strength[None, :])
    played = np.triu(eff > 0, 1)
    pf = fitted[played]
    x2 = float(((wins[played] - eff[played] * pf) ** 2 / (eff[played] * pf * (1 - pf))).sum())
    df = int(played.sum()) - (k - 1)
    p_fit = float(st.chi2.sf(x2, df)) if df > 0 else math.nan
    fits = None if df <= 0 else bool(p_fit > alpha)
    fitted = np.where(np.isnan(obs), np.nan, fitted)
    return TournamentFit(strength, np.sqrt(np.clip(np.diag(cov), 0, None)), cov, obs, obs_se, fitted, x2, df,
                         p_fit, fits, unit)
