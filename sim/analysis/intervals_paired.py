"""Paired changes between arms played on the same seeds, and families of them.

`paired_change` estimates the change of an outcome between two arms as a difference of two ratios of
totals over every paired game, so an outcome that applies only to some games (NaN elsewhere: "wins by the
clock, among dragon wins") is compared on what each arm's report shows, not on the games where both arms
happen to apply. `simultaneous` turns K such changes into intervals that hold together (single-step max-|t|
over their correlation) and agree exactly with the multiple test, and `verdict` reads the verdict off the shown
interval, so the two cannot disagree.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st

from sim.analysis.intervals import (NAN, Interval, cluster_totals, clustered_mean, clustered_rate_of, mean_t, wilson,
                                    z_of, zero_change_bound)

UP, DOWN, NO_CHANGE = "up", "down", "no change detected"


class Judged:
    """A change with a `verdict` read off its interval (compare's and the arms' rows share this)."""
    verdict: str

    @property
    def detected(self) -> bool:
        return self.verdict in (UP, DOWN)


@dataclass(frozen=True)
class PairedChange:
    """Arm b against arm a on the same games. `a` and `b` are each arm's figure (share or mean over the games
    where the outcome applies in that arm); `diff` is b - a with its (per-comparison) interval; `se` its
    standard error; `changed` how many paired games differ at all (value or whether the outcome applies);
    `cc` the continuity correction of a 0/1 outcome (half a game in each arm), added to the interval's
    half-width and taken off |diff| in the test, as McNemar's correction does."""

    a: Interval
    b: Interval
    diff: Interval
    se: float
    p_value: float
    n: int
    changed: int
    n_unpaired: int          # games per arm independent runs would need for the same precision
    cc: float = 0.0
    # the change's per-unit influence (a game, or a deal's games), on at most CORR_UNITS units picked by position:
    # what a family's max-|t| reads the correlation between its changes from
    influence: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def identical(self) -> bool:
        return self.changed == 0

    def saving(self) -> float:
        return self.n_unpaired / max(self.n, 1)


def _parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numerator and applicability per game: value (0 where it does not apply) and 1/0."""
    u = ~np.isnan(x)
    return np.where(u, x, 0.0), u.astype(np.float64)


def _is_binary(*xs: np.ndarray) -> bool:
    return all(np.isin(x[~np.isnan(x)], (0.0, 1.0)).all() for x in xs)


def _arm(x: np.ndarray, conf: float, binary: bool, deal: np.ndarray | None = None) -> Interval:
    keep = ~np.isnan(x)
    ok = x[keep]
    share_of = "games where the outcome applies" if len(ok) < len(x) else "games"
    if deal is not None and len(ok):
        one = clustered_rate_of if binary else clustered_mean
        return one(ok, np.asarray(deal)[keep], conf, share_of)
    if binary:
        return wilson(int(ok.sum()), len(ok), conf, share_of)
    return mean_t(ok, conf, share_of, lower=0.0 if len(ok) and ok.min() >= 0 else None)   # a count: never below 0


def ratio_influence(x: np.ndarray) -> tuple[float, np.ndarray]:
    """Ratio of totals R = sum(value) / count(applies) over every game, and each game's influence on it
    ((value - R × applies) / share that applies): var(R) ≈ var(influence) / n (delta method)."""
    v, u = _parts(np.asarray(x, dtype=np.float64))
    share = u.mean()
    r = v.sum() / u.sum() if u.sum() > 0 else NAN
    return float(r), (v - r * u) / share


def boot_weights(n: int, n_boot: int, seed: int = 0, block: int = 64) -> Iterator[np.ndarray]:
    """Paired bootstrap over games: blocks of resampling counts (rows of n multinomial counts summing to n).
    The same rows apply to every arm, so pairing and correlations between outcomes are kept."""
    rng = np.random.default_rng(seed)
    p = np.full(n, 1.0 / n)
    done = 0
    while done < n_boot:
        b = min(block, n_boot - done)
        yield rng.multinomial(n, p, size=b).astype(np.float64)
        done += b


def boot_ratios(xs: list[np.ndarray], n_boot: int, seed: int = 0) -> np.ndarray:
    """Bootstrap replicates (n_boot × len(xs)) of each array's ratio of totals, all on the same resampled games."""
    parts = [_parts(np.asarray(x, dtype=np.float64)) for x in xs]
    V = np.stack([p[0] for p in parts], axis=1)
    U = np.stack([p[1] for p in parts], axis=1)
    out = []
    for w in boot_weights(V.shape[0], n_boot, seed):
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append((w @ V) / (w @ U))
    return np.vstack(out)


def paired_change(a: np.ndarray, b: np.ndarray, conf: float = 0.95, n_boot: int = 0, seed: int = 0,
                  span: float | None = None, deal: np.ndarray | None = None) -> PairedChange:
    """Change of an outcome from arm a to arm b, both played on the same games (a[i], b[i] = game i).

    NaN marks a game where the outcome does not apply. Each arm's figure is a ratio of totals over all paired
    games: sum of values / number of games where it applies (for an outcome that always applies, the mean).
    The change is the difference of the two ratios; its standard error comes from the per-game influence of
    each ratio, differenced game by game (delta method with the paired covariance). With n_boot > 0 the
    interval is instead the percentile interval of a paired bootstrap over games (and `se` the bootstrap's).
    The p-value is the normal test of the same estimate and se. For a 0/1 outcome both carry a continuity
    correction (half a game per arm: 1/n when the outcome always applies, McNemar's correction): without
    it the normal tail is too light when few games change (in the tests, with ~84 changed games of 2,000: 0.29%
    beyond the 20-element Bonferroni point instead of 0.25%).

    When no game changed at all, the interval is the exact bound of `zero_change_bound` turned into points of
    the rate (binary outcomes, or an always-applicable outcome whose per-game difference is at most `span`),
    not [0, 0]; otherwise the interval is [0, 0] and `changed == 0` tells the caller to print the bound.

    `deal[i]` names game i's deal when games are not independent of each other (several pairings played from one
    seed deal game i alike: `intervals.clustered_mean`): the standard error then sums the games' influences
    within each deal and takes their spread over deals (sandwich). Not with the bootstrap."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired arms need the same games")
    n = len(a)
    binary = _is_binary(a, b)
    ea, eb = _arm(a, conf, binary, deal), _arm(b, conf, binary, deal)
    ua, ub = ~np.isnan(a), ~np.isnan(b)
    if n < 2 or not ua.any() or not ub.any():
        return PairedChange(ea, eb, Interval(NAN, NAN, NAN, 0, "n/a"), NAN, NAN, n, 0, 0)
    cc = 0.5 * (1 / ua.sum() + 1 / ub.sum()) if binary else 0.0
    changed = int(((ua != ub) | (ua & ub & (np.where(ua, a, 0) != np.where(ub, b, 0)))).sum())
    ra, ia = ratio_influence(a)
    rb, ib = ratio_influence(b)
    d = ib - ia
    value = rb - ra
    se = float(d.std(ddof=1)) / math.sqrt(n) if deal is None else _deal_se(d, deal)
    share_of = ("games where the outcome applies, in each arm (ratio of totals)" if not (ua.all() and ub.all())
                else "games")
    n_unpaired = _unpaired_games(ia, ib, se, deal)
    if changed == 0:
        return PairedChange(ea, eb, _zero_interval(n, conf, binary, span, ua.all(), ra, ua.mean(), share_of),
                            0.0, 1.0, n, 0, n_unpaired)
    z = z_of(conf)
    lo, hi, method = value - z * se - cc, value + z * se + cc, "paired delta method (ratio of totals)"
    if deal is not None:
        method += f", clustered by deal over {len(np.unique(deal)):,} deals"
    if n_boot > 0:
        if deal is not None:
            raise ValueError("the paired bootstrap resamples games, not deals: give deal or n_boot, not both")
        reps = boot_ratios([a, b], n_boot, seed)
        dd = reps[:, 1] - reps[:, 0]
        dd = dd[np.isfinite(dd)]
        se = float(dd.std(ddof=1))
        lo, hi = (float(q) for q in np.quantile(dd, [(1 - conf) / 2, (1 + conf) / 2]))
        method = f"paired bootstrap over games ({n_boot:,} resamples, percentile)"
    p = _p_two(value, se, cc)
    return PairedChange(ea, eb, Interval(value, lo, hi, n, method, share_of), se, p, n, changed, n_unpaired, cc,
                        unit_influence(d, deal))


CORR_UNITS = 20_000     # units a family's correlation is read from: enough for ±0.01 on each coefficient


def unit_influence(d: np.ndarray, deal: np.ndarray | None) -> np.ndarray:
    """The per-unit influence of a change (a game's; with `deal`, each deal's total, deals in sorted order), at
    most CORR_UNITS of them evenly spaced by position, so that every change of one family picks the same units."""
    if deal is not None:
        keys, inverse = np.unique(deal, return_inverse=True)
        d = np.bincount(inverse, weights=d, minlength=len(keys))
    if len(d) > CORR_UNITS:
        d = d[np.linspace(0, len(d) - 1, CORR_UNITS).astype(np.int64)]
    return d.astype(np.float32)


def _unpaired_games(ia: np.ndarray, ib: np.ndarray, se: float, deal: np.ndarray | None) -> int:
    """Games per arm two independent runs would need for the paired change's precision (standard error se):
    n × (each arm's squared standard error, summed) / se². With deals, each arm's error is taken over deals, as
    each run's own interval would take it: games of a deal that move together count once in either run."""
    n = len(ia)
    if deal is None:
        sa, sb = (float(x.std(ddof=1)) / math.sqrt(n) for x in (ia, ib))
    else:
        sa, sb = _deal_se(ia, deal), _deal_se(ib, deal)
    spread = sa * sa + sb * sb
    return int(math.ceil(n * spread / (se * se))) if se > 0 else (n if spread == 0 else 10**12)


def _deal_se(d: np.ndarray, deal: np.ndarray) -> float:
    """Standard error of the mean of per-game influences d (which sum to 0) when games of one deal are correlated:
    the spread of each deal's total over deals."""
    if np.shape(deal) != d.shape:
        raise ValueError("one deal per paired game")
    z, _ = cluster_totals(deal, d)
    g = len(z)
    return math.sqrt(g / (g - 1) * float((z * z).sum())) / len(d) if g > 1 else NAN


def _z(value, se, cc=0.0):
    """Signed test statistic (|value| - cc) / se, with 0/0 = 0 and x/0 = ±inf."""
    v, s, c = (np.asarray(x, dtype=np.float64) for x in (value, se, cc))
    mag = np.maximum(np.abs(v) - c, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sign(v) * np.where(s > 0, mag / s, np.where(mag > 0, np.inf, 0.0))


def _p_two(value, se, cc=0.0) -> float:
    return float(min(1.0, 2 * st.norm.sf(abs(float(_z(value, se, cc))))))


def _zero_interval(n, conf, binary, span, always, r, share, share_of) -> Interval:
    """No paired game differs. For a rate the change is at most the share of games that could change, u (exact
    bound); for a conditional rate at most u (1 + R) / (share that applies - u)."""
    u = zero_change_bound(n, conf).hi
    if not binary and (span is None or not always):
        return Interval(0.0, 0.0, 0.0, n, "no game changed (see zero_change_bound)", share_of)
    s = 1.0 if binary else span
    width = s * u if always else s * u * (1 + abs(r)) / max(share - u, 1e-12)
    return Interval(0.0, -width, width, n, f"no game changed in {n:,}: exact bound (≈ 3/n of games)", share_of)


# -- families of changes: single-step max-|t| (and Holm, Bonferroni) ----------------------------------------

MAXT_DRAWS = 200_000    # draws of the family's max |Z|: its 95% point to about ±0.01


def max_abs_normal(corr: np.ndarray, draws: int = MAXT_DRAWS, seed: int = 0) -> np.ndarray:
    """Sorted draws of max_i |Z_i| for Z ~ N(0, corr), from a fixed seed (the same family gets the same
    intervals). A singular corr (two changes that are one) is fine: Z = V sqrt(w) e over its eigenpairs."""
    w, v = np.linalg.eigh(np.asarray(corr, dtype=np.float64))
    root = v * np.sqrt(np.clip(w, 0.0, None))
    rng = np.random.default_rng(seed)
    out = np.empty(draws)
    step = max(1, 4_000_000 // max(len(w), 1))
    for start in range(0, draws, step):
        m = min(step, draws - start)
        out[start:start + m] = np.abs(rng.standard_normal((m, len(w))) @ root.T).max(axis=1)
    return np.sort(out)


@functools.lru_cache(maxsize=32)
def _max_abs_draws(corr_bytes: bytes, k: int) -> np.ndarray:
    """max_abs_normal for a correlation given as bytes (cached: a family is often judged more than once)."""
    return max_abs_normal(np.frombuffer(corr_bytes, dtype=np.float64).reshape(k, k))


def max_t_critical(corr: np.ndarray, alpha: float = 0.05) -> tuple[float, Callable[[np.ndarray], np.ndarray]]:
    """The single-step max-|t| critical value c (P(max |Z_i| <= c) = 1 - alpha, Z ~ N(0, corr)) and the adjusted
    p-value of a |z|: P(max |Z_i| >= |z|). Independent changes have the exact Šidák point; correlated ones a
    simulated one (the method of R's multcomp, with a normal reference: these families have thousands of
    games)."""
    k = len(corr)
    if k == 0:
        return NAN, lambda z: np.full(np.shape(z), NAN)
    if np.allclose(corr, np.eye(k)):
        c = float(st.norm.isf((1 - (1 - alpha) ** (1 / k)) / 2))
        return c, lambda z: 1 - (1 - 2 * st.norm.sf(np.abs(z))) ** k
    draws = _max_abs_draws(np.round(np.asarray(corr, dtype=np.float64), 6).tobytes(), k)
    # c is the draw above which at most alpha of the draws lie: |z| > c exactly when the p-value is <= alpha
    c = float(draws[len(draws) - int(math.floor(alpha * len(draws))) - 1])
    return c, lambda z: 1 - np.searchsorted(draws, np.abs(z), side="left") / len(draws)


def influence_correlation(changes: list) -> np.ndarray:
    """The correlation between the changes' test statistics, from their per-unit influences (changes measured on
    other units, or with no game changed, are taken as independent of the rest: Šidák's inequality keeps the
    two-sided family's level then)."""
    k = len(changes)
    corr = np.eye(k)
    rows = [i for i, c in enumerate(changes) if c.influence is not None and not c.identical and c.se > 0]
    if not rows:
        return corr
    size = len(changes[rows[0]].influence)
    rows = [i for i in rows if len(changes[i].influence) == size]
    if len(rows) < 2 or size < 3:
        return corr
    x = np.vstack([changes[i].influence.astype(np.float64) for i in rows])
    sub = np.corrcoef(x)
    sub = np.where(np.isfinite(sub), sub, 0.0)
    np.fill_diagonal(sub, 1.0)
    corr[np.ix_(rows, rows)] = sub
    return corr


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error controlled under any dependence). NaN is left out."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, NAN)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


@dataclass(frozen=True)
class Family:
    """K changes tested together. `intervals[i]` is the shown interval, `p_adjusted[i]` the adjusted p-value,
    `verdicts[i]` read off the interval: excludes 0 ⇔ p_adjusted ≤ alpha ⇔ verdict is up or down."""

    intervals: list[Interval]
    p_raw: np.ndarray
    p_adjusted: np.ndarray
    verdicts: list[str]
    method: str
    alpha: float


def verdict(interval: Interval) -> str:
    """"up", "down" or "no change detected", read off the shown interval only (so they never disagree)."""
    if not interval.excludes(0.0):
        return NO_CHANGE
    return UP if interval.lo >= 0 else DOWN


def simultaneous(values, ses, alpha: float = 0.05, method: str = "maxt", n: int = 0, cc=0.0,
                 corr: np.ndarray | None = None) -> Family:
    """Intervals for K changes (estimates with standard errors) that hold together with probability ≥ 1 - alpha
    and agree exactly with the family's test.

    method="maxt" (the default): single-step max-|t| (Hothorn, Bretz & Westfall 2008, R's multcomp): estimate ±
    c × se for every change, c the 1 - alpha point of max |Z_i| over the family with the changes' correlation
    `corr` (None: independent, Šidák's c), p adjusted = P(max |Z_i| ≥ |z|). Both ends are informative (a
    detected change of -29 points known to ±1 gets about [-30, -28], not [-30, 0)), and with correlated
    changes c is smaller than Bonferroni's.
    method="holm": Holm's step-down over the 2K one-sided hypotheses (each change: not up, not down), which
    also controls calling a change in the wrong direction, with the compatible simultaneous bounds of
    Strassburger & Bretz (2008) / Guilbaud (2008): with J the hypotheses not rejected, a bound not rejected is
    estimate ∓ z(1 - alpha/|J|) × se; a rejected direction's bound is 0, open (the change is more than 0, the
    interval says how much at most). Detected changes have no informative near bound: that is the price of
    Holm's extra power.
    method="bonferroni": estimate ± z(1 - alpha/(2K)) × se for every change, p adjusted × K; both ends are
    informative, a little less power.
    `cc` (per change, or one number) is a continuity correction: taken off |estimate| in the test and added
    to each finite bound, so the two still agree. NaN estimates are left out of the family (verdict "n/a")."""
    v, s = np.asarray(values, dtype=np.float64), np.asarray(ses, dtype=np.float64)
    cc = np.broadcast_to(np.asarray(cc, dtype=np.float64), v.shape)
    ok = ~(np.isnan(v) | np.isnan(s))
    k = int(ok.sum())
    zstat = _z(v, s, cc)
    p_up, p_down = st.norm.sf(zstat), st.norm.cdf(zstat)          # H: not up, H: not down
    p_raw = np.where(ok, np.minimum(1.0, 2 * np.minimum(p_up, p_down)), NAN)
    lo_open = np.zeros(len(v), bool)
    hi_open = np.zeros(len(v), bool)
    if method == "maxt":
        keep = np.flatnonzero(ok)
        r = np.eye(k) if corr is None else np.asarray(corr, dtype=np.float64)[np.ix_(keep, keep)]
        c, adjust = max_t_critical(r, alpha)
        lo, hi = v - c * s - cc, v + c * s + cc
        p_adj = np.full(len(v), NAN)
        p_adj[keep] = adjust(zstat[keep])
        label = f"simultaneous {100 * (1 - alpha):.0f}% over {k} changes"
    elif method == "bonferroni":
        c = float(st.norm.isf(alpha / (2 * max(k, 1))))
        lo, hi = v - c * s - cc, v + c * s + cc
        p_adj = np.where(ok, np.minimum(1.0, k * p_raw), NAN)
        label = f"Bonferroni-simultaneous {100 * (1 - alpha):.0f}% over {k} changes"
    elif method == "holm":
        adj = holm(np.concatenate([np.where(ok, p_up, NAN), np.where(ok, p_down, NAN)]))
        adj_up, adj_down = adj[:len(v)], adj[len(v):]
        up, down = ok & (adj_up <= alpha), ok & (adj_down <= alpha)
        kept = 2 * k - int(up.sum() + down.sum())
        c = float(st.norm.isf(alpha / max(kept, 1)))
        lo = np.where(up, 0.0, v - c * s - cc)
        hi = np.where(down, 0.0, v + c * s + cc)
        lo_open, hi_open = up, down
        p_adj = np.where(ok, np.minimum(adj_up, adj_down), NAN)
        label = f"Holm-compatible simultaneous {100 * (1 - alpha):.0f}% over {k} changes"
    else:
        raise ValueError(f"unknown method {method!r} (maxt, holm or bonferroni)")
    intervals, verdicts = [], []
    for i in range(len(v)):
        if not ok[i]:
            intervals.append(Interval(NAN, NAN, NAN, 0, label))
            verdicts.append("n/a")
            continue
        e = Interval(float(v[i]), float(lo[i]), float(hi[i]), n, label, "", bool(lo_open[i]), bool(hi_open[i]))
        intervals.append(e)
        verdicts.append(verdict(e))
    return Family(intervals, p_raw, p_adj, verdicts, method, alpha)


def family_of_changes(changes: list[PairedChange], alpha: float = 0.05, method: str = "maxt") -> Family:
    """`simultaneous` over paired changes, max-|t| with the correlation their per-game influences show. A change
    where no game changed keeps its exact zero-change bound (it is in the family, with p = 1, and its verdict is
    "no change detected")."""
    fam = simultaneous([c.diff.value for c in changes], [c.se for c in changes], alpha, method,
                       changes[0].n if changes else 0, [c.cc for c in changes],
                       influence_correlation(changes) if method == "maxt" else None)
    shown = [c.diff if c.identical else e for c, e in zip(changes, fam.intervals)]
    return Family(shown, fam.p_raw, fam.p_adjusted, [verdict(e) for e in shown], fam.method, alpha)
