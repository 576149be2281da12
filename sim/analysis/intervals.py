"""Intervals whose label says what they are a share of: rates, bounds at zero, non-negative means, rates
of rounds nested in games, and width-only precision stopping.

Every function returns an `Interval` whose `share_of` names the unit the number is a share (or mean) of,
and whose `method` names the interval. Pure numpy/scipy: no game is played here. The paired, family and
tournament methods build on this module (`intervals_paired`, `intervals_family`, `intervals_tournament`);
docs/STATISTICS.md says which number uses which.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

from sim.analysis.stats import bounded


def z_of(conf: float) -> float:
    """Two-sided normal quantile for a confidence level (1.96 for 0.95)."""
    return float(st.norm.isf((1 - conf) / 2))


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval. An open end (`lo_open`/`hi_open`) means the bound itself is excluded:
    (0, 7.4] says "more than 0, at most 7.4" (the Holm-compatible bound of a detected change, method="holm")."""

    value: float
    lo: float
    hi: float
    n: int
    method: str = ""
    share_of: str = ""
    lo_open: bool = False
    hi_open: bool = False

    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def excludes(self, x: float = 0.0) -> bool:
        """The interval leaves x out (an open end at x leaves it out too)."""
        if not (math.isfinite(self.lo) or math.isfinite(self.hi)):
            return False
        return (self.lo > x or (self.lo == x and self.lo_open)
                or self.hi < x or (self.hi == x and self.hi_open))

    def fmt(self, pct: bool = False, digits: int = 2, signed: bool = False) -> str:
        if not math.isfinite(self.value):
            return "n/a"
        scale = 100 if pct else 1
        spec = f"{'+' if signed else ''}.{digits}f"
        left, right = "(" if self.lo_open else "[", ")" if self.hi_open else "]"
        unit = "%" if pct and not signed else ""
        return (f"{scale * self.value:{spec}}{unit} {left}{scale * self.lo:{spec}}, "
                f"{scale * self.hi:{spec}}{right}")


NAN = float("nan")


def _empty(method: str, share_of: str) -> Interval:
    return Interval(NAN, NAN, NAN, 0, method, share_of)


# -- rates of independent games ---------------------------------------------------------------------------

def wilson(successes: int, n: int, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Share of `n` independent units (games) with the outcome; Wilson score interval (good coverage near 0
    and 1, never outside [0, 1])."""
    if n == 0:
        return _empty("Wilson", share_of)
    p = successes / n
    lo, hi = _wilson_p(p, n, conf)
    return Interval(p, lo, hi, n, "Wilson", share_of)


def _wilson_p(p: float, n: float, conf: float) -> tuple[float, float]:
    """Wilson bounds for a share p of n (n may be an effective, non-integer number of trials)."""
    z = z_of(conf)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_bounds(p: float, n: float, conf: float = 0.95) -> tuple[float, float]:
    """Wilson bounds for a share p of n trials, n possibly an effective (non-integer) number."""
    return _wilson_p(p, n, conf)


def share_bounds(p: float, se: float, units: int, conf: float = 0.95) -> tuple[float, float]:
    """Bounds for a share p with standard error se measured over `units` clustered units (e.g. deals): Wilson at
    the effective number of trials p(1-p)/se², or at `units` when every unit scored the same (se 0). Unlike
    p ± z·se it stays inside [0, 1] and keeps a width there: 100% of 1,000 deals is not [100, 100]."""
    if units <= 0:
        return math.nan, math.nan
    n_eff = max(p * (1 - p) / (se * se), 1.0) if se > 0 else units
    return _wilson_p(p, n_eff, conf)


def clopper_pearson(successes: int, n: int, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Share of `n` independent units with the outcome; exact (Clopper–Pearson) interval, which never
    covers less than `conf`. Use it when the count is 0 or n: [0, 0] or [1, 1] is never the answer."""
    if n == 0:
        return _empty("Clopper–Pearson", share_of)
    a = 1 - conf
    lo = 0.0 if successes == 0 else float(st.beta.ppf(a / 2, successes, n - successes + 1))
    hi = 1.0 if successes == n else float(st.beta.ppf(1 - a / 2, successes + 1, n - successes))
    return Interval(successes / n, lo, hi, n, "Clopper–Pearson", share_of)


def zero_change_bound(n: int, conf: float = 0.95) -> Interval:
    """No game changed in `n` paired games: exact one-sided upper bound on the share of games that could
    change (Clopper–Pearson with 0 of n: 1 - (1 - conf)^(1/n), the "rule of three" ≈ 3/n at 95%).
    Print it instead of [0, 0]: a change affecting fewer games than this could hide in n games."""
    if n == 0:
        return _empty("exact bound, 0 of 0", "games whose outcome differs between the arms")
    hi = 1 - (1 - conf) ** (1 / n)
    return Interval(0.0, 0.0, hi, n, f"exact one-sided bound, 0 changed of {n:,} (≈ 3/n)",
                    "games whose outcome differs between the arms")


def zero_rate_change(n: int, conf: float = 0.95, span: float = 1.0) -> Interval:
    """No game changed in `n` paired games: the change in a rate (or in a mean whose per-game difference is at
    most `span`) is at most ± the share of games that could change, `zero_change_bound(n).hi` × span."""
    b = zero_change_bound(n, conf)
    return Interval(0.0, -span * b.hi, span * b.hi, n, "no game changed: ± exact bound on the share that could",
                    "games (change of the per-game value)")


# -- means ------------------------------------------------------------------------------------------------

def mean_t(x: np.ndarray, conf: float = 0.95, share_of: str = "games", lower: float | None = None) -> Interval:
    """Mean over independent units with a Student-t interval (may go below 0: see `nonneg_mean`); with `lower`, on
    the log scale above it (`sim.analysis.stats.bounded`)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    method = "t" if lower is None else "log-scale t (never below the bound)"
    if n == 0:
        return _empty(method, share_of)
    m = float(x.mean())
    if n == 1:
        return Interval(m, NAN, NAN, 1, method, share_of)
    e = bounded(m, float(x.std(ddof=1)) / math.sqrt(n), n, conf, lower)
    return Interval(m, e.lo, e.hi, n, method, share_of)


def poisson_rate(total: float, exposure: float, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Events per unit of exposure (per game) for a Poisson count; exact (Garwood) interval. Undercovers
    counts more spread than Poisson: use `nonneg_mean` on per-game counts when they are available."""
    if exposure <= 0:
        return _empty("Poisson exact (Garwood)", share_of)
    a = 1 - conf
    lo = 0.0 if total <= 0 else float(st.chi2.ppf(a / 2, 2 * total)) / 2
    hi = float(st.chi2.ppf(1 - a / 2, 2 * total + 2)) / 2
    return Interval(total / exposure, lo / exposure, hi / exposure, int(exposure), "Poisson exact (Garwood)",
                    share_of)


def nonneg_mean(x: np.ndarray, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Mean of a non-negative per-game quantity (a count, a length) whose interval never goes below 0.

    The interval is built on the log scale, m × exp(± t · s / (m √n)) (delta method, t with n - 1 degrees of
    freedom): it is skewed to the right like the sampling distribution of a mean of a skewed quantity, and a
    few games with a large spread give a wide interval above 0 rather than a negative lower bound. When
    every value is 0 the upper bound is the exact Poisson one (≈ 3.7 / n): it treats the values as counts.
    (`sim.analysis.stats.bounded` computes it; reports use it from streamed sums.)"""
    x = np.asarray(x, dtype=np.float64)
    if (x < 0).any():
        raise ValueError("nonneg_mean needs non-negative values")
    e = mean_t(x, conf, share_of, lower=0.0)
    if len(x) and e.value == 0:
        return dataclasses.replace(e, method="all zero: exact Poisson upper bound")
    return dataclasses.replace(e, method="log-scale t (never below 0)")


def quantile(x: np.ndarray, q: float = 0.5, conf: float = 0.95, share_of: str = "games") -> Interval:
    """The q quantile of independent values (NaN left out) with its distribution-free interval: the order
    statistics whose ranks bound a binomial(n, q) count at the two tails. Conservative for discrete values."""
    x = np.sort(np.asarray(x, dtype=np.float64)[~np.isnan(np.asarray(x, dtype=np.float64))])
    n = len(x)
    method = "order statistics (binomial, distribution-free)"
    if n == 0:
        return _empty(method, share_of)
    a = (1 - conf) / 2
    lo = int(st.binom.ppf(a, n, q))              # x[lo - 1] ... x[hi] covers the quantile with >= conf
    hi = int(st.binom.isf(a, n, q))
    lo_v = float(x[lo - 1]) if lo >= 1 else -math.inf
    hi_v = float(x[hi]) if hi < n else math.inf
    return Interval(float(np.quantile(x, q, method="inverted_cdf")), lo_v, hi_v, n, method, share_of)


# -- rates of rounds (or cards, or player-rounds) nested in games ---------------------------------------------

def cluster_totals(cluster: np.ndarray, successes: np.ndarray, trials: np.ndarray | None = None):
    """Per-cluster (per-game) totals of unit-level rows: (successes per game, trials per game), games in
    sorted id order. `trials` defaults to one trial per row."""
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    s = np.bincount(inv, weights=np.asarray(successes, dtype=np.float64))
    t = np.bincount(inv, weights=None if trials is None else np.asarray(trials, dtype=np.float64))
    return s, t.astype(np.float64)


def design_effect(successes: np.ndarray, trials: np.ndarray) -> float:
    """Variance of the pooled rate with games as clusters over its variance if every trial were independent
    (1 = no clustering; 1 + (m - 1) × intra-game correlation for m trials per game)."""
    s, t = np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    T = t.sum()
    r = s.sum() / T
    if r <= 0 or r >= 1:
        return NAN
    return _cluster_var(s, t, r) / (r * (1 - r) / T)


def _cluster_var(s: np.ndarray, t: np.ndarray, r: float) -> float:
    g = len(s)
    e = s - r * t
    return float(g / (g - 1) * (e * e).sum() / t.sum() ** 2) if g > 1 else NAN


def clustered_rate(successes: np.ndarray, trials: np.ndarray, conf: float = 0.95,
                   share_of: str = "rounds (all games pooled)") -> Interval:
    """Share of all rounds (or cards, or player-rounds) with the outcome, pooled over games: sum of successes
    over sum of trials, given per game. Rounds of one game are not independent, so the interval treats the
    game as the unit: the ratio estimator's game-clustered (sandwich, delta-method) variance, shown as a
    Wilson interval on the effective number of trials (trials / design effect), which stays inside [0, 1].
    When the pooled rate is 0 or 1 the bound is Clopper–Pearson with each game counted once (conservative)."""
    s, t = np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    keep = t > 0
    s, t = s[keep], t[keep]
    return clustered_rate_from_sums(len(s), s.sum(), t.sum(), (s * s).sum(), (t * t).sum(), (s * t).sum(),
                                    conf, share_of)


def clustered_rate_from_sums(games: int, s: float, t: float, ss: float, tt: float, st_: float,
                             conf: float = 0.95, share_of: str = "rounds (all games pooled)") -> Interval:
    """`clustered_rate` from sums over games of each game's successes s_g and trials t_g (games with a trial
    only): Σs, Σt, Σs², Σt², Σs·t. A report streams these five sums (group by game, then sum) rather than
    holding one row per game."""
    g, T = int(games), float(t)
    if g == 0 or T <= 0:
        return _empty("game-clustered", share_of)
    r = float(s) / T
    if r <= 0 or r >= 1 or g < 2:
        cp = clopper_pearson(int(round(r * g)), g, conf, share_of)
        return Interval(r, cp.lo, cp.hi, int(T), "Clopper–Pearson over games (pooled rate at 0 or 1)", share_of)
    var = _sums_var(g, r, T, ss, tt, st_)
    if var <= 1e-15 * r * (1 - r) / T:       # no spread between games beyond rounding
        return Interval(r, r, r, int(T), "game-clustered (no spread between games)", share_of)
    n_eff = r * (1 - r) / var
    w = _wilson_p(r, n_eff, conf)
    deff = var / (r * (1 - r) / T)
    return Interval(r, w[0], w[1], int(T), f"game-clustered Wilson, design effect {deff:.2f} over {g:,} games",
                    share_of)


def design_effect_from_sums(games: int, s: float, t: float, ss: float, tt: float, st_: float) -> float:
    """`design_effect` from the five per-game sums `clustered_rate_from_sums` takes."""
    r = float(s) / float(t) if t > 0 else NAN
    if not 0 < r < 1 or games < 2:
        return NAN
    return _sums_var(int(games), r, float(t), ss, tt, st_) / (r * (1 - r) / float(t))


def ratio_var_from_sums(deals: int, s: float, t: float, ss: float, tt: float, st_: float) -> float:
    """The variance of the ratio Σs / Σt with deals (or games) as clusters, from the five sums over them."""
    return _sums_var(int(deals), float(s) / float(t), float(t), ss, tt, st_) if deals > 1 and t > 0 else NAN


def _sums_var(g: int, r: float, T: float, ss: float, tt: float, st_: float) -> float:
    """The pooled rate's game-clustered variance from sums: Σ(s_g − r t_g)² = Σs² − 2rΣst + r²Σt²."""
    resid = max(0.0, float(ss) - 2 * r * float(st_) + r * r * float(tt))
    return g / (g - 1) * resid / T ** 2


# -- figures over several runs dealt alike (common random numbers) ------------------------------------------

def clustered_mean(x: np.ndarray, deal: np.ndarray, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Mean of values that share deals: runs played from one seed deal game i alike, so a figure pooling
    several of them (a deck against each other deck, in both seat orders) holds correlated games. The deal is
    the unit: the ratio estimator's deal-clustered (sandwich) variance, with a t interval on deals - 1 degrees
    of freedom. With one value per deal it is the plain t interval."""
    x, deal = np.asarray(x, dtype=np.float64), np.asarray(deal)
    s, t = cluster_totals(deal, x)
    g = len(s)
    if g < 2:
        return mean_t(x, conf, share_of)
    r = float(s.sum() / t.sum())
    var = _cluster_var(s, t, r)
    half = float(st.t.ppf(0.5 + conf / 2, g - 1)) * math.sqrt(var)
    iid = float(x.var(ddof=1)) / len(x) if len(x) > 1 else 0.0
    deff = f", design effect {var / iid:.2f}" if iid > 0 else ""
    return Interval(r, r - half, r + half, len(x), f"t clustered by deal{deff} over {g:,} deals", share_of)


def clustered_rate_of(x: np.ndarray, deal: np.ndarray, conf: float = 0.95, share_of: str = "games") -> Interval:
    """Share of 0/1 values that share deals (`clustered_mean`'s setting): Wilson on the effective number of
    games, as `clustered_rate` does for rounds nested in games."""
    return clustered_rate(*cluster_totals(deal, x), conf=conf, share_of=share_of)


def clustered_quantile(x: np.ndarray, deal: np.ndarray, q: float = 0.5, conf: float = 0.95,
                       share_of: str = "games") -> Interval:
    """The q quantile of values that share deals (NaN left out): Woodruff's interval, the Wilson bounds of the
    share at or below the quantile on the effective number of games (games / the design effect of that share,
    taken as at least 1), read back as order statistics. With one value per deal it is close to `quantile`."""
    x, deal = np.asarray(x, dtype=np.float64), np.asarray(deal)
    keep = ~np.isnan(x)
    x, deal = x[keep], deal[keep]
    n = len(x)
    method = "Woodruff, clustered by deal"
    if n == 0:
        return _empty(method, share_of)
    v = float(np.quantile(x, q, method="inverted_cdf"))
    deff = design_effect(*cluster_totals(deal, (x <= v).astype(np.float64)))
    n_eff = n / max(1.0, deff) if np.isfinite(deff) else n
    p_lo, p_hi = _wilson_p(q, n_eff, conf)
    xs = np.sort(x)
    lo, hi = int(math.floor(p_lo * n)) - 1, int(math.ceil(p_hi * n))
    return Interval(v, float(xs[lo]) if lo >= 0 else -math.inf, float(xs[hi]) if hi < n else math.inf, n,
                    method, share_of)


def mean_of_shares(successes: np.ndarray, trials: np.ndarray, conf: float = 0.95,
                   share_of: str = "games (each game's share of its rounds, every game weighing the same)"
                   ) -> Interval:
    """Mean over games of each game's share (its successes over its trials), with a t interval over games
    (clipped to [0, 1]). Not the share of all rounds: long games weigh as much as short ones here."""
    s, t = np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    keep = t > 0
    e = mean_t(s[keep] / t[keep], conf, share_of)
    return Interval(e.value, max(0.0, e.lo), min(1.0, e.hi), e.n, "t over games, per-game shares", share_of)


# -- precision: width-only sequential stopping ---------------------------------------------------------------

def half_width(kind: str, n: int, total: float, total_sq: float, conf: float = 0.95) -> float:
    """The plain interval's half-width from running sums: Wilson for a rate, t for a mean."""
    if n < 2:
        return math.inf
    m = total / n
    if kind == "rate":
        lo, hi = _wilson_p(min(max(m, 0.0), 1.0), n, conf)
        return (hi - lo) / 2
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    return float(st.t.isf((1 - conf) / 2, n - 1)) * math.sqrt(var / n)


def games_needed(kind: str, target: float, p: float | None = None, sd: float | None = None,
                 conf: float = 0.95) -> int:
    """Games a fixed-n run needs for a ± target half-width: z² p (1 - p) / target² for a rate near p,
    (z sd / target)² for a mean with per-game standard deviation sd."""
    z = z_of(conf)
    spread = p * (1 - p) if kind == "rate" else sd * sd
    return max(2, int(math.ceil(z * z * spread / target ** 2)))


def needed_now(kind: str, n: int, total: float, total_sq: float, target: float, conf: float = 0.95) -> int:
    """Games the running estimate says a fixed-n run would need for ± target (to size the next look)."""
    if n < 2:
        return 2
    m = total / n
    var = m * (1 - m) if kind == "rate" else max(0.0, (total_sq - n * m * m) / (n - 1))
    return games_needed("mean", target, sd=math.sqrt(var), conf=conf)


def width_reached(kind: str, n: int, total: float, total_sq: float, target: float, conf: float = 0.95) -> bool:
    """Stopping rule: the plain `conf` interval's half-width is at most `target`. It looks at the width only,
    never at the estimate's sign or distance from anything, so no alpha is spent across looks and the
    reported interval is the plain one (docs/STATISTICS.md says why)."""
    return half_width(kind, n, total, total_sq, conf) <= target


def next_look(kind: str, n: int, total: float, total_sq: float, target: float, chunk: int,
              first: int = 1000, conf: float = 0.95) -> int:
    """Games to play before the next look: a first look of `first` games, then half of what the running variance
    says is still missing (at least 5% more, at most `chunk`). Halving guards against an early variance
    estimate that is too high; the looks cost nothing, so the run stops within ~5% of the fixed-n count."""
    if n == 0:
        return min(first, chunk)
    missing = needed_now(kind, n, total, total_sq, target, conf) - n
    return int(min(chunk, max(math.ceil(missing / 2), math.ceil(0.05 * n), 1)))


@dataclass(frozen=True)
class Stopped:
    estimate: Interval      # the plain interval at the stop
    n: int                  # games played
    looks: int
    reached: bool           # False: the cap came first


def run_until_width(chunks: Iterable[np.ndarray], kind: str, target: float, conf: float = 0.95) -> Stopped:
    """Consume per-game values chunk by chunk (NaN = the outcome does not apply), look after each chunk, stop
    at the first look whose plain half-width is at most `target`. The interval reported is the plain one."""
    n, total, total_sq, looks = 0, 0.0, 0.0, 0
    for x in chunks:
        x = np.asarray(x, dtype=np.float64)
        x = x[~np.isnan(x)]
        n, total, total_sq, looks = n + len(x), total + float(x.sum()), total_sq + float((x * x).sum()), looks + 1
        if width_reached(kind, n, total, total_sq, target, conf):
            return Stopped(_plain(kind, n, total, total_sq, conf), n, looks, True)
    return Stopped(_plain(kind, n, total, total_sq, conf), n, looks, False)


def _plain(kind: str, n: int, total: float, total_sq: float, conf: float) -> Interval:
    if n == 0:
        return _empty("plain", "games")
    m = total / n
    if kind == "rate":
        lo, hi = _wilson_p(m, n, conf)
        return Interval(m, lo, hi, n, "Wilson (plain; width-only stopping)", "games")
    h = half_width(kind, n, total, total_sq, conf)
    return Interval(m, m - h, m + h, n, "t (plain; width-only stopping)", "games")
