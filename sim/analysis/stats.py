"""Wilson intervals for rates and t intervals for means, as the summaries use them. Paired changes and families of
them live in `sim.analysis.intervals_paired` (docs/STATISTICS.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float
    n: int

    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def fmt(self, pct: bool = False, digits: int = 2) -> str:
        if self.n == 0:
            return "n/a"
        if pct:
            return f"{100 * self.value:.{digits}f}% [{100 * self.lo:.{digits}f}, {100 * self.hi:.{digits}f}]"
        return f"{self.value:.{digits}f} [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"


def wilson(successes: int, n: int, conf: float = 0.95) -> Estimate:
    """Wilson score interval for a binomial rate (good coverage even near 0 and 1)."""
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    z = st.norm.ppf(0.5 + conf / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_ci(x: np.ndarray, conf: float = 0.95, lower: float | None = None, upper: float | None = None
            ) -> Estimate:
    """Mean with a Student-t interval (on the log scale above `lower`, or the logit scale between `lower` and
    `upper`, as `bounded` says)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = float(x.mean())
    if n == 1:
        return Estimate(m, float("nan"), float("nan"), 1)
    return bounded(m, float(x.std(ddof=1)) / math.sqrt(n), n, conf, lower, upper)


def mean_from_moments(total: float, total_sq: float, n: int, conf: float = 0.95,
                      lower: float | None = None, upper: float | None = None, step: float = 1.0) -> Estimate:
    """Mean interval from running sums (for streamed data): Student t, or on the log scale above `lower` as
    `bounded` says."""
    if n < 2:
        return Estimate(total / n if n else float("nan"), float("nan"), float("nan"), n)
    m = total / n
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    return bounded(m, math.sqrt(var / n), n, conf, lower, upper, step)


def bounded(m: float, se: float, n: int, conf: float = 0.95, lower: float | None = None,
            upper: float | None = None, step: float = 1.0) -> Estimate:
    """The Student-t interval m ± t·se; for a quantity that cannot go below `lower` (a count, a length: 0), the
    interval on the log scale of the distance from that bound, lower + (m - lower) × exp(±t·se / (m - lower)).

    Why the log scale (docs/STATISTICS.md, "A mean"): the t interval is symmetric, so for a skewed quantity that is
    mostly at its bound (a count that is 0 in most games) measured on few games, its lower end can fall below 0, a
    value no game can produce ("3.333 [-3.226, 9.893]"); clamping it at 0 would keep that wrong shape. On the log
    scale (the delta method) the interval is skewed to the right like the sampling distribution of such a mean,
    never reaches the bound, and equals the t interval to first order when it is narrow next to the distance from
    the bound (every long run). On skewed counts from 10 games it covers 90% where t covers 81%
    (tests/test_intervals.py). When every value sits at the bound, the upper end is the exact Poisson one for no
    event (≈ 3.7 / n): it reads the values as counts of `step` (a count per 1,000 games moves in steps of 1,000).
    A bootstrap-percentile interval would also respect the bound, but needs the games themselves; these
    intervals come from streamed sums."""
    t = float(st.t.isf((1 - conf) / 2, n - 1))
    if lower is not None and upper is not None:
        return _between(m, se, n, t, conf, lower, upper)
    if lower is None:
        return Estimate(m, m - t * se, m + t * se, n)
    gap = m - lower
    if gap <= 0:                       # every value at the bound
        return Estimate(m, lower, lower - step * math.log((1 - conf) / 2) / n, n)
    factor = math.exp(t * se / gap)
    return Estimate(m, lower + gap / factor, lower + gap * factor, n)


def _between(m: float, se: float, n: int, t: float, conf: float, lower: float, upper: float) -> Estimate:
    """The interval of a mean bounded on both sides (a score between a loss, 0, and a win, 1) on the logit scale
    of its position between the bounds: the same reasoning as the log scale above one bound, so that a score
    from few games never reads "30.0% [-4.6, 64.6]". Every value at one bound: the exact interval of a
    proportion with no event at the other end (Clopper-Pearson), as for a rate of 0 or 1."""
    width = upper - lower
    s = (m - lower) / width
    exact = 1 - ((1 - conf) / 2) ** (1 / n)
    if s <= 0:
        return Estimate(m, lower, lower + width * exact, n)
    if s >= 1:
        return Estimate(m, upper - width * exact, upper, n)
    half = t * se / (width * s * (1 - s))
    centre = math.log(s / (1 - s))
    lo, hi = (lower + width / (1 + math.exp(-(centre + d))) for d in (-half, half))
    return Estimate(m, lo, hi, n)


def games_for_half_width(p: float, half_width: float, conf: float = 0.95) -> int:
    """Games needed for a rate near p to have an interval of ± half_width."""
    z = st.norm.ppf(0.5 + conf / 2)
    return int(math.ceil(z * z * p * (1 - p) / half_width ** 2))
