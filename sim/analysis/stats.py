"""Intervals and tests every report uses: Wilson for rates, t for means, paired tests for comparisons."""

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


def mean_ci(x: np.ndarray, conf: float = 0.95) -> Estimate:
    """Mean with a Student-t interval."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = float(x.mean())
    if n == 1:
        return Estimate(m, float("nan"), float("nan"), 1)
    half = st.t.ppf(0.5 + conf / 2, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def mean_from_moments(total: float, total_sq: float, n: int, conf: float = 0.95) -> Estimate:
    """Mean interval from running sums (for streamed data)."""
    if n < 2:
        return Estimate(total / n if n else float("nan"), float("nan"), float("nan"), n)
    m = total / n
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    half = st.t.ppf(0.5 + conf / 2, n - 1) * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


@dataclass(frozen=True)
class PairedResult:
    a: Estimate
    b: Estimate
    diff: Estimate           # b - a, paired
    p_value: float
    test: str
    n_unpaired: int          # games per arm an unpaired design would need for the same diff interval

    def saving(self) -> float:
        """How many times fewer games pairing needs than independent runs, for the same precision."""
        return self.n_unpaired / max(self.diff.n, 1)


def paired(a: np.ndarray, b: np.ndarray, kind: str, conf: float = 0.95) -> PairedResult:
    """Compare two variants played on the same seeds, game by game.

    Rates use McNemar's exact test on the discordant pairs; means use a paired t-test. The interval
    is for the mean of the per-game differences b - a.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    applies = ~(np.isnan(a) | np.isnan(b))      # NaN: the outcome does not apply to that game
    a, b = a[applies], b[applies]
    n = len(a)
    d = b - a
    diff = mean_ci(d, conf)
    if kind == "rate":
        ea, eb = wilson(int(a.sum()), n, conf), wilson(int(b.sum()), n, conf)
        n01 = int(((a == 0) & (b == 1)).sum())
        n10 = int(((a == 1) & (b == 0)).sum())
        p = 1.0 if n01 + n10 == 0 else float(st.binomtest(n01, n01 + n10, 0.5).pvalue)
        test = f"McNemar exact ({n01} vs {n10} discordant)"
    else:
        ea, eb = mean_ci(a, conf), mean_ci(b, conf)
        sd = float(d.std(ddof=1)) if n > 1 else 0.0
        p = 1.0 if sd == 0 else float(st.ttest_rel(b, a).pvalue)
        test = "paired t"
    if n > 1 and d.std(ddof=1) == 0:
        diff = Estimate(float(d.mean()), float(d.mean()), float(d.mean()), n)
    var_paired = float(d.var(ddof=1)) if n > 1 else 0.0
    var_indep = (float(a.var(ddof=1)) + float(b.var(ddof=1))) if n > 1 else 0.0
    n_unpaired = int(math.ceil(n * var_indep / var_paired)) if var_paired > 0 else (n if var_indep == 0 else 10**12)
    return PairedResult(ea, eb, diff, p, test, n_unpaired)


def games_for_half_width(p: float, half_width: float, conf: float = 0.95) -> int:
    """Games needed for a rate near p to have an interval of ± half_width."""
    z = st.norm.ppf(0.5 + conf / 2)
    return int(math.ceil(z * z * p * (1 - p) / half_width ** 2))


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: family-wise error controlled without assuming independence."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
