"""Issue 27: every interval means what its label says. Each test simulates a case whose truth is known, checks
the new method against it, and (where the old method is a formula) checks that the old one fails it.

Measured numbers are printed (run with -s to see them); seeds are fixed, so they are the same every run.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import special
from scipy import stats as st

from sim.analysis.intervals import (
    Interval, clopper_pearson, cluster_totals, clustered_mean, clustered_quantile, clustered_rate,
    clustered_rate_of, design_effect, games_needed, half_width,
    mean_of_shares, mean_t, next_look, nonneg_mean, poisson_rate, quantile, run_until_width, width_reached, wilson,
    zero_change_bound, zero_rate_change,
)
from sim.analysis.intervals_family import element_family, rank_intervals
from sim.analysis.intervals_paired import (
    DOWN, NO_CHANGE, UP, family_of_changes, holm, paired_change, simultaneous, verdict,
)
from sim.analysis.intervals_tournament import bradley_terry, fit_tournament, pair_score


def covers(e: Interval, truth: float) -> bool:
    return (e.lo < truth or (e.lo == truth and not e.lo_open)) and (truth < e.hi or (truth == e.hi and not e.hi_open))


def old_t(x: np.ndarray) -> tuple[float, float]:
    """The old paired interval: mean of differences ± t (sim/core/stats.py mean_ci)."""
    m, h = x.mean(), st.t.isf(0.025, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return m - h, m + h


# -- 1. conditional outcomes ------------------------------------------------------------------------------

def conditional_arms(rng, n):
    """A applies in half the games (U < 0.5) with rate 0.3; B applies in 70% (U < 0.7), a correlated superset,
    with rate 0.5 on A's games and 0.85 on the others: 0.6 overall. True change of the ratio: exactly +0.30.
    The games where both apply have change 0.5 - 0.3 = 0.2: pairing only them is biased."""
    u, v, w = rng.random(n), rng.random(n), rng.random(n)
    a = np.where(u < 0.5, (v < 0.3).astype(float), np.nan)
    b = np.where(u < 0.5, (v < 0.5).astype(float), np.where(u < 0.7, (w < 0.85).astype(float), np.nan))
    return a, b


def test_conditional_change_covers_truth_where_joint_pairing_misses():
    rng = np.random.default_rng(27)
    truth, reps = 0.30, 200
    new = old = 0
    for _ in range(reps):
        a, b = conditional_arms(rng, 4000)
        r = paired_change(a, b)
        new += covers(r.diff, truth)
        both = ~np.isnan(a) & ~np.isnan(b)
        lo, hi = old_t(b[both] - a[both])
        old += lo <= truth <= hi
    print(f"\nconditional change: delta-method coverage {new / reps:.3f}, old joint pairing {old / reps:.3f}")
    assert new / reps >= 0.93
    assert old / reps <= 0.05
    assert abs(r.a.value - 0.3) < 0.03 and abs(r.b.value - 0.6) < 0.03
    assert r.a.share_of == "games where the outcome applies"


def test_conditional_change_paired_bootstrap():
    rng = np.random.default_rng(28)
    reps, hit, ratio = 100, 0, []
    for i in range(reps):
        a, b = conditional_arms(rng, 2000)
        r = paired_change(a, b, n_boot=300, seed=i)
        hit += covers(r.diff, 0.30)
        ratio.append(r.se / paired_change(a, b).se)
    print(f"\nconditional change: paired-bootstrap coverage {hit / reps:.3f}, bootstrap se / delta se "
          f"{np.mean(ratio):.3f}")
    assert hit / reps >= 0.90
    assert 0.9 < np.mean(ratio) < 1.1


def test_always_applicable_outcome_is_the_paired_mean_difference():
    rng = np.random.default_rng(1)
    a = rng.normal(10, 3, 500)
    b = a + rng.normal(0.5, 1, 500)
    r = paired_change(a, b)
    d = b - a
    assert r.diff.value == pytest.approx(d.mean())
    assert r.se == pytest.approx(d.std(ddof=1) / math.sqrt(500))
    assert r.diff.share_of == "games" and r.cc == 0
    assert r.saving() > 5          # pairing needs far fewer games than independent runs


def test_identical_arms_give_an_exact_bound_not_zero_width():
    rng = np.random.default_rng(2)
    a = (rng.random(1000) < 0.4).astype(float)
    r = paired_change(a, a.copy())
    assert r.identical and r.p_value == 1.0
    u = 1 - 0.05 ** (1 / 1000)
    assert (r.diff.lo, r.diff.hi) == pytest.approx((-u, u))
    assert r.diff.hi > 0.0029                       # the old report printed [0, 0]
    c = np.where(rng.random(1000) < 0.5, a, np.nan)   # a conditional rate: wider, never zero width
    rc = paired_change(c, c.copy())
    assert rc.diff.hi > r.diff.hi


# -- 2. families: simultaneous intervals that agree with their test (max-|t|, Holm, Bonferroni) ---------------

K = 25
THETA = np.zeros(K)
THETA[:8] = [0.5, -0.4, 0.3, 0.25, -0.2, 0.15, 0.1, -0.08]
SE = np.full(K, 0.05)


def correlated(rng, theta, rho=0.3):
    chol = np.linalg.cholesky(np.full((K, K), rho) + np.eye(K) * (1 - rho))
    return theta + SE * (chol @ rng.standard_normal(K))


RHO = np.full((K, K), 0.3) + np.eye(K) * 0.7


@pytest.mark.parametrize("method", ["maxt", "holm", "bonferroni"])
def test_simultaneous_intervals_agree_with_verdict_and_cover(method):
    rng = np.random.default_rng(3)
    reps = 2000
    corr = RHO if method == "maxt" else None
    null_fw = cover = detected = disagree_old = 0
    for _ in range(reps):
        fam = simultaneous(correlated(rng, np.zeros(K)), SE, method=method, corr=corr)
        null_fw += any(v != NO_CHANGE for v in fam.verdicts)
        est = correlated(rng, THETA)
        fam = simultaneous(est, SE, method=method, corr=corr)
        for e, v, p in zip(fam.intervals, fam.verdicts, fam.p_adjusted):
            assert (v != NO_CHANGE) == e.excludes(0.0) == (p <= 0.05)      # never "no change" beside a
            assert v == verdict(e)                                           # shown interval excluding 0
            assert v != UP or e.lo >= 0
            assert v != DOWN or e.hi <= 0
        cover += all(covers(e, t) for e, t in zip(fam.intervals, THETA))
        detected += sum(v != NO_CHANGE for v in fam.verdicts)
        plain = np.abs(est / SE) > 1.96                                      # old: plain 95% intervals
        disagree_old += bool((plain != (holm(2 * st.norm.sf(np.abs(est / SE))) <= 0.05)).any())
    print(f"\n{method}: family-wise error under the null {null_fw / reps:.4f}, simultaneous coverage "
          f"{cover / reps:.4f}, changes detected per family {detected / reps:.2f} of 8, old plain intervals "
          f"disagree with Holm in {disagree_old / reps:.1%} of families")
    # Holm and Bonferroni keep the level with room to spare; max-|t| holds it exactly, so its simulated rates sit
    # at 5% and 95% within the simulation's noise (2.5 standard errors of 2,000 families)
    slack = 2.5 * math.sqrt(0.05 * 0.95 / reps) if method == "maxt" else 0.0
    assert null_fw / reps <= 0.05 + slack
    assert cover / reps >= 0.945 - slack
    assert disagree_old / reps > 0.5


def test_max_t_covers_at_its_level_not_above_it_where_changes_are_correlated():
    """With strongly correlated changes max-|t| keeps the family's 95% without Bonferroni's slack: its simulated
    simultaneous coverage sits near 95% where Bonferroni's is well above."""
    rng = np.random.default_rng(11)
    k, rho, reps = 10, 0.8, 4000
    corr = np.full((k, k), rho) + np.eye(k) * (1 - rho)
    chol = np.linalg.cholesky(corr)
    theta = np.linspace(-1, 1, k)
    se = np.full(k, 0.1)
    hits = {"maxt": 0, "bonferroni": 0}
    for _ in range(reps):
        est = theta + se * (chol @ rng.standard_normal(k))
        for method in hits:
            fam = simultaneous(est, se, method=method, corr=corr)
            hits[method] += all(covers(e, t) for e, t in zip(fam.intervals, theta))
    print(f"\nsimultaneous coverage, 10 changes correlated 0.8: max-|t| {hits['maxt'] / reps:.4f}, Bonferroni "
          f"{hits['bonferroni'] / reps:.4f}")
    assert 0.94 <= hits["maxt"] / reps <= 0.96
    assert hits["bonferroni"] / reps >= hits["maxt"] / reps + 0.015


def test_a_large_detected_change_gets_an_interval_that_does_not_reach_zero():
    """-29 points known to ±1 point (se 0.5), in a family of 12: both ends informative, about [-30.5, -27.5]."""
    values = np.r_[-29.0, np.zeros(11)]
    fam = simultaneous(values, np.full(12, 0.5))
    e = fam.intervals[0]
    assert fam.verdicts[0] == DOWN and not e.hi_open and not e.lo_open
    assert -31 < e.lo < -29 < e.hi < -27


def test_family_of_paired_changes_reads_their_correlation_from_the_games():
    """The same change measured twice (two outcomes that are one) costs the family nothing: the critical value is
    one change's, 1.96, where independence would give Šidák's 2.24."""
    rng = np.random.default_rng(12)
    n = 4000
    a = (rng.random(n) < 0.4).astype(float)
    b = np.where(rng.random(n) < 0.3, (rng.random(n) < 0.5).astype(float), a)
    one = paired_change(a, b)
    fam = family_of_changes([one, paired_change(a.copy(), b.copy())])
    width = (fam.intervals[0].hi - fam.intervals[0].lo - 2 * one.cc) / 2
    assert width / one.se == pytest.approx(1.96, abs=0.03)
    other = paired_change((rng.random(n) < 0.4).astype(float), (rng.random(n) < 0.4).astype(float))
    fam = family_of_changes([one, other])
    width = (fam.intervals[0].hi - fam.intervals[0].lo - 2 * one.cc) / 2
    assert width / one.se == pytest.approx(st.norm.isf((1 - 0.95 ** 0.5) / 2), abs=0.03)


def test_holm_compatible_matches_textbook_holm_closely():
    """The directional Holm (2K one-sided hypotheses) rejects a subset of the textbook two-sided Holm's,
    almost always the same set."""
    rng = np.random.default_rng(4)
    same = 0
    for _ in range(1000):
        est = correlated(rng, THETA)
        mine = np.array([v != NO_CHANGE for v in simultaneous(est, SE, method="holm").verdicts])
        textbook = holm(2 * st.norm.sf(np.abs(est / SE))) <= 0.05
        assert (mine <= textbook).all()
        same += (mine == textbook).all()
    assert same / 1000 >= 0.95


def test_holm_compatible_interval_shape():
    fam = simultaneous([0.5, 0.01, -0.3], [0.05, 0.05, 0.05], method="holm")
    up, none, down = fam.intervals
    assert (up.lo, up.lo_open) == (0.0, True) and up.hi > 0.5 and fam.verdicts[0] == UP
    assert (down.hi, down.hi_open) == (0.0, True) and fam.verdicts[2] == DOWN
    c = st.norm.isf(0.05 / 4)                    # |J| = 2K - 2 hypotheses not rejected
    assert (none.lo, none.hi) == pytest.approx((0.01 - c * 0.05, 0.01 + c * 0.05))
    assert up.fmt(digits=1) == "0.5 (0.0, 0.6]"


def test_family_of_paired_games_end_to_end():
    """25 outcomes of paired games (some change), straight from per-game values."""
    rng = np.random.default_rng(5)
    n, shifts = 3000, np.r_[[0.08, -0.06, 0.05, 0.04], np.zeros(21)]
    base = rng.random((K, n))
    a = (base < 0.4).astype(float)
    b = np.where(rng.random((K, n)) < 0.2, (rng.random((K, n)) < 0.4 + shifts[:, None]).astype(float), a)
    b[10] = a[10]                                    # one outcome no game changes
    changes = [paired_change(x, y) for x, y in zip(a, b)]
    fam = family_of_changes(changes)
    for e, v in zip(fam.intervals, fam.verdicts):
        assert (v != NO_CHANGE) == e.excludes(0.0)
    assert fam.verdicts[10] == NO_CHANGE and fam.intervals[10].hi > 0      # exact bound, not [0, 0]
    assert fam.verdicts[0] == UP


# -- 3. zero changes and rates at 0 or 1: known values ------------------------------------------------------

def test_exact_bounds_known_values():
    assert zero_change_bound(100).hi == pytest.approx(0.0295130, abs=1e-6)
    assert zero_change_bound(1000).hi == pytest.approx(3 / 1000, rel=0.01)            # rule of three
    assert zero_change_bound(300, conf=0.99).hi == pytest.approx(1 - 0.01 ** (1 / 300))
    z = zero_rate_change(1000)
    assert z.lo == -z.hi and z.value == 0
    cp = clopper_pearson(0, 10)
    assert (cp.lo, cp.hi) == pytest.approx((0.0, 0.3084971), abs=1e-6)
    assert clopper_pearson(10, 10).lo == pytest.approx(0.6915029, abs=1e-6)
    cp = clopper_pearson(3, 10)
    assert (cp.lo, cp.hi) == pytest.approx((0.0667395, 0.6524529), abs=1e-6)
    w = wilson(0, 10)
    assert (w.lo, w.hi) == pytest.approx((0.0, 0.2775328), abs=1e-6)                   # z² / (n + z²)
    w = wilson(10, 10)
    assert w.lo == pytest.approx(1 - 0.2775328, abs=1e-6)


def test_clopper_pearson_never_undercovers():
    for p in (0.001, 0.02, 0.3):
        n = 50
        k = np.arange(n + 1)
        inside = np.array([clopper_pearson(int(x), n).lo <= p <= clopper_pearson(int(x), n).hi for x in k])
        assert st.binom.pmf(k, n, p)[inside].sum() >= 0.95


# -- 4. non-negative means ---------------------------------------------------------------------------------

def test_nonneg_mean_issue_shape():
    x = np.array([0, 0, 0, 0, 0, 20.0])                     # mean 3.333 from 6 games, large spread
    assert mean_t(x).lo < 0                                 # the old t interval goes below zero
    e = nonneg_mean(x)
    assert e.value == pytest.approx(10 / 3) and 0 < e.lo < e.value < e.hi
    assert nonneg_mean(np.array([0, 0, 10.0])).lo > 0
    zero = nonneg_mean(np.zeros(20))
    assert zero.lo == 0 and zero.hi == pytest.approx(-math.log(0.025) / 20)
    with pytest.raises(ValueError):
        nonneg_mean(np.array([1.0, -1.0]))


def test_poisson_rate_known_values():
    assert poisson_rate(0, 1).hi == pytest.approx(3.6888795, abs=1e-6)
    p = poisson_rate(10, 1)
    assert (p.lo, p.hi) == pytest.approx((4.7953887, 18.3903560), abs=1e-6)


def test_nonneg_mean_coverage_on_skewed_counts():
    rng = np.random.default_rng(6)
    mu, reps = 10 / 3, 2000
    for shape, n, floor in ((0.3, 10, 0.87), (1.0, 10, 0.92), (1.0, 30, 0.93)):
        x = rng.negative_binomial(shape, shape / (shape + mu), size=(reps, n)).astype(float)
        new = np.mean([covers(nonneg_mean(r), mu) for r in x])
        old = np.mean([covers(mean_t(r), mu) for r in x])
        below = np.mean([nonneg_mean(r).lo < 0 for r in x])
        print(f"\nnegative binomial (shape {shape}, mean 3.33), {n} games: log-scale coverage {new:.3f}, "
              f"t coverage {old:.3f}")
        assert new >= floor and new >= old and below == 0


# -- 5. precision: width-only stopping --------------------------------------------------------------------

def old_look_z(k: int, alpha: float = 0.05) -> float:
    """The old rule (sim/core/precision.py): alpha_k = alpha 6 / (pi² k²) at look k."""
    return float(st.norm.isf(alpha * 6 / (math.pi ** 2 * k * k) / 2))


def adaptive_run(rng, draw, kind, target, chunk=50_000):
    n, total, total_sq, looks = 0, 0.0, 0.0, 0
    while True:
        m = next_look(kind, n, total, total_sq, target, chunk)
        x = draw(rng, m)
        n, total, total_sq, looks = n + m, total + x.sum(), total_sq + (x * x).sum(), looks + 1
        if width_reached(kind, n, total, total_sq, target):
            return n, total, total_sq, looks


@pytest.mark.parametrize("reps", [200, 2000])
def test_width_only_stopping_covers_and_stops_near_fixed_n(reps):
    p, target = 0.3, 0.01
    fixed = games_needed("rate", target, p=p)
    rng = np.random.default_rng(7)
    hits, played = 0, []
    for _ in range(reps):
        n, total, _, _ = adaptive_run(rng, lambda g, m: (g.random(m) < p).astype(float), "rate", target)
        e = wilson(int(total), n)
        hits += covers(e, p)
        played.append(n)
    ratio = np.array(played) / fixed
    print(f"\nwidth-only stopping, {reps} runs: coverage {hits / reps:.3f}, games / fixed-n {ratio.mean():.3f} "
          f"(max {ratio.max():.3f}), fixed n {fixed:,}")
    assert ratio.max() <= 1.2
    # 200 runs estimate coverage to ±1.5 points (one standard error): the 94% floor of the issue is checked on
    # 2,000 runs, where it is 2.6 standard errors below 95%; 200 runs are held to 92%.
    assert hits / reps >= (0.94 if reps >= 2000 else 0.92)


def test_width_only_stopping_on_chunks_and_means():
    rng = np.random.default_rng(8)
    p, target, reps = 0.3, 0.01, 400
    fixed = games_needed("rate", target, p=p)
    stops = [run_until_width(((rng.random(500) < p).astype(float) for _ in range(100)), "rate", target)
             for _ in range(reps)]
    cov = np.mean([covers(s.estimate, p) for s in stops])
    ratio = np.mean([s.n for s in stops]) / fixed
    # the old alpha-spending rule on the same 500-game looks
    old = []
    for _ in range(50):
        n = total = k = 0
        while True:
            k, n, total = k + 1, n + 500, total + int((rng.random(500) < p).sum())
            m = total / n
            if old_look_z(k) * math.sqrt(m * (1 - m) / n) <= target:
                break
        old.append(n / fixed)
    print(f"\nrate, looks every 500 games: coverage {cov:.3f}, games / fixed-n {ratio:.3f}; old alpha-spending "
          f"rule {np.mean(old):.2f}×")
    assert cov >= 0.93 and ratio <= 1.2 and all(s.reached for s in stops)
    assert np.mean(old) > 1.8
    # a skewed per-game count (mean 3, sd 3.5), target ±0.1. Its running variance moves with its mean, so the
    # width is not quite free of the estimate: checked on 2,000 runs. A run whose sample sd is high needs more
    # games than the fixed-n count at the true sd, so the games are held to 1.1× on average here.
    mu, sd, tgt, reps = 3.0, 3.5, 0.1, 2000
    shape = mu * mu / (sd * sd - mu)
    fixed = games_needed("mean", tgt, sd=sd)
    hits, played = 0, []
    for _ in range(reps):
        n, total, total_sq, _ = adaptive_run(rng, lambda g, m: g.negative_binomial(shape, shape / (shape + mu), m)
                                             .astype(float), "mean", tgt)
        h = half_width("mean", n, total, total_sq)
        hits += abs(total / n - mu) <= h
        played.append(n / fixed)
    print(f"mean of a skewed count, {reps} runs: coverage {hits / reps:.3f}, games / fixed-n {np.mean(played):.3f} "
          f"(95th percentile {np.quantile(played, 0.95):.3f})")
    assert hits / reps >= 0.94 and np.mean(played) <= 1.1


# -- 6. rates of rounds nested in games ---------------------------------------------------------------------

def rounds_design(rng, games, sizes, probs, means, kappa=8.0):
    """Rounds per game from `sizes`; each game's own rate ~ Beta(mean for its size, concentration kappa):
    intra-game correlation 1 / (kappa + 1)."""
    m = rng.choice(sizes, size=games, p=probs)
    mu = np.select([m == s for s in sizes], means)
    return rng.binomial(m, rng.beta(mu * kappa, (1 - mu) * kappa)).astype(float), m.astype(float)


def test_clustered_rate_known_design_effect():
    rng = np.random.default_rng(9)
    reps, new, old, deffs = 400, 0, 0, []
    for _ in range(reps):
        s, t = rounds_design(rng, 300, [20], [1.0], [0.3])
        new += covers(clustered_rate(s, t), 0.3)
        old += covers(wilson(int(s.sum()), int(t.sum())), 0.3)      # rounds as if independent
        deffs.append(design_effect(s, t))
    known = 1 + 19 / 9                                               # 1 + (m - 1) rho
    print(f"\nclustered rate: coverage {new / reps:.3f}, naive Wilson over rounds {old / reps:.3f}; design "
          f"effect {np.mean(deffs):.2f} (known {known:.2f})")
    assert new / reps >= 0.93
    assert old / reps <= 0.85
    assert np.mean(deffs) == pytest.approx(known, rel=0.1)


def test_share_of_rounds_versus_mean_of_game_shares():
    """Long games have a higher rate: the share of all rounds (0.36) and the mean of per-game shares (0.30)
    are different numbers; each interval covers its own."""
    rng = np.random.default_rng(10)
    reps, pooled, per_game = 400, 0, 0
    for _ in range(reps):
        s, t = rounds_design(rng, 300, [5, 20], [0.5, 0.5], [0.2, 0.4])
        pooled += covers(clustered_rate(s, t), 0.36)
        per_game += covers(mean_of_shares(s, t), 0.30)
    print(f"\nshare of all rounds: coverage {pooled / reps:.3f}; mean of per-game shares: {per_game / reps:.3f}")
    assert pooled / reps >= 0.93 and per_game / reps >= 0.93
    assert "rounds" in clustered_rate(s, t).share_of and "each game's share" in mean_of_shares(s, t).share_of


def test_cluster_totals_and_edges():
    s, t = cluster_totals(np.array([7, 3, 7, 3, 9]), np.array([1, 0, 1, 1, 0]))
    assert s.tolist() == [1, 2, 0] and t.tolist() == [2, 2, 1]
    zero = clustered_rate(np.zeros(50), np.full(50, 10.0))
    assert zero.value == 0 and zero.lo == 0 and zero.hi == pytest.approx(clopper_pearson(0, 50).hi)


def dealt_alike(rng, deals: int, cells: int, p: float, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """Wins of `cells` pairings played from one seed: deal i shifts every pairing's chance of a win alike
    (a good or bad draw), so game i of two pairings is correlated. Values in cell order, and each one's deal."""
    shift = rng.uniform(-spread, spread, deals)
    x = (rng.random((cells, deals)) < np.clip(p + shift, 0, 1)).astype(np.float64)
    return x.ravel(), np.tile(np.arange(deals), cells)


def test_deal_clustered_intervals_cover_where_the_plain_ones_do_not():
    rng = np.random.default_rng(21)
    reps, hits = 600, {"clustered mean": 0, "clustered rate": 0, "plain t": 0, "plain Wilson": 0}
    for _ in range(reps):
        x, deal = dealt_alike(rng, 300, 8, 0.5, 0.45)
        hits["clustered mean"] += covers(clustered_mean(x, deal), 0.5)
        hits["clustered rate"] += covers(clustered_rate_of(x, deal), 0.5)
        hits["plain t"] += covers(mean_t(x), 0.5)
        hits["plain Wilson"] += covers(wilson(int(x.sum()), len(x)), 0.5)
    print("\ncoverage, 8 pairings dealt alike:", {k: round(v / reps, 3) for k, v in hits.items()})
    assert hits["clustered mean"] / reps >= 0.93 and hits["clustered rate"] / reps >= 0.93
    assert hits["plain t"] / reps <= 0.85 and hits["plain Wilson"] / reps <= 0.85


def test_deal_clustered_intervals_reduce_to_the_plain_ones():
    rng = np.random.default_rng(22)
    x = rng.random(400)
    twice = clustered_mean(np.concatenate([x, x]), np.tile(np.arange(400), 2))    # a copy adds nothing
    plain = mean_t(x)
    assert (twice.lo, twice.hi) == (pytest.approx(plain.lo), pytest.approx(plain.hi))
    alone = clustered_mean(x, np.arange(400))
    assert (alone.lo, alone.hi) == (pytest.approx(plain.lo), pytest.approx(plain.hi))
    turns = rng.integers(3, 15, 2000).astype(np.float64)
    one, order = clustered_quantile(turns, np.arange(2000)), quantile(turns)
    assert one.value == order.value and abs(one.lo - order.lo) <= 1 and abs(one.hi - order.hi) <= 1
    assert "deal" in twice.method and "deal" in one.method


def test_deal_clustered_quantile_covers():
    rng = np.random.default_rng(23)
    reps, hits, plain = 400, 0, 0
    for _ in range(reps):
        shift = rng.normal(0, 2, 300)
        x = rng.normal(8 + shift, 1.5, (8, 300)).ravel()      # every pairing's game i alike
        deal = np.tile(np.arange(300), 8)
        hits += covers(clustered_quantile(x, deal), 8.0)
        plain += covers(quantile(x), 8.0)
    print(f"\nmedian of 8 pairings dealt alike: coverage {hits / reps:.3f}, plain order statistics {plain / reps:.3f}")
    assert hits / reps >= 0.93 and plain / reps <= 0.85


def test_a_paired_change_over_deals_covers_and_keeps_the_exact_bound_for_no_change():
    rng = np.random.default_rng(24)
    reps, hits, plain = 600, 0, 0
    for _ in range(reps):
        shift = rng.uniform(-0.3, 0.3, 300)
        u = rng.random((8, 300))
        a = (u < np.clip(0.5 + shift, 0, 1)).astype(np.float64).ravel()        # the same games, arm b a
        b = (u < np.clip(0.55 + shift, 0, 1)).astype(np.float64).ravel()       # little stronger
        deal = np.tile(np.arange(300), 8)
        hits += covers(paired_change(a, b, deal=deal).diff, 0.05)
        plain += covers(paired_change(a, b).diff, 0.05)
    print(f"\npaired change over 8 pairings dealt alike: coverage {hits / reps:.3f}, per game {plain / reps:.3f}")
    assert hits / reps >= 0.93
    same = paired_change(a, a, deal=deal).diff
    assert same.value == 0 and same == paired_change(a, a).diff
    once = paired_change(a[:300], b[:300])                  # one copy of each deal: the deals change nothing
    again = paired_change(a[:300], b[:300], deal=np.arange(300))
    assert again.se == pytest.approx(once.se) and again.diff.lo == pytest.approx(once.diff.lo)
    with pytest.raises(ValueError, match="deal or n_boot"):
        paired_change(a, b, deal=deal, n_boot=100)


def test_the_games_unpaired_runs_would_need_count_deals_as_each_run_would():
    """Arm b deals game i's result to game i's partner in the same deal: per game the arms look unrelated, per
    deal they hardly differ. Two independent runs would each be measured over deals too, so pairing on the
    deals is what saves games; counted per game it would look like no saving at all."""
    rng = np.random.default_rng(5)
    a = (rng.random(4000) < 0.5).astype(np.float64)
    b = a.reshape(-1, 2)[:, ::-1].ravel().copy()          # the two games of each deal swapped
    flip = rng.random(4000) < 0.05
    b[flip] = 1.0 - b[flip]
    deal = np.repeat(np.arange(2000), 2)
    per_game, per_deal = paired_change(a, b), paired_change(a, b, deal=deal)
    assert per_game.saving() == pytest.approx(1.0, abs=0.15)
    assert per_deal.saving() > 5
    arms = per_deal.a.hi - per_deal.a.lo, per_deal.b.hi - per_deal.b.lo        # each arm's own interval...
    needed = per_deal.diff.hi - per_deal.diff.lo                                   # ...would need this many games
    assert per_deal.n_unpaired == pytest.approx(per_deal.n * (arms[0] ** 2 + arms[1] ** 2) / needed ** 2, rel=0.2)


# -- 7. families of elements (ablate, sensitivity) ----------------------------------------------------------

@pytest.mark.parametrize("reps, bound", [(200, 0.075), pytest.param(800, 0.05, marks=pytest.mark.soak)])
def test_null_elements_family_wise_error(reps, bound):
    """20 null elements: Holm keeps the family-wise error at 5% where testing each alone errs in most families.
    The fast suite's 200 families allow for their own noise (a true 5% reads up to 7.5% in 1 run of 20); `make
    soak` runs 800 against 5% itself."""
    rng = np.random.default_rng(11)
    k, n = 20, 2000
    fw = raw = 0
    for _ in range(reps):
        base = (rng.random(n) < 0.3).astype(float)
        arms = np.where(rng.random((k, n)) < 0.1, (rng.random((k, n)) < 0.3).astype(float), base)
        fam = element_family(base, list(arms), [f"e{i}" for i in range(k)], n_boot=0)
        fw += bool(fam.detected())
        raw += any(c.p_value < 0.05 for c in fam.changes)
    print(f"\n20 null elements: family-wise error with Holm {fw / reps:.3f}, each tested alone {raw / reps:.3f}")
    assert fw / reps <= bound
    assert raw / reps > 0.5


def test_ordered_elements_rank_intervals():
    rng = np.random.default_rng(12)
    effects = np.array([0.0, 0.03, 0.06, 0.09, 0.12, 0.15])
    true_rank = {f"e{i}": int(r) for i, r in enumerate(np.argsort(np.argsort(-effects)) + 1)}
    reps, contain, total, resolved, wrong = 40, 0, 0, 0, 0
    for rep in range(reps):
        base = rng.standard_normal(1000)
        arms = [base + e + 0.5 * rng.standard_normal(1000) for e in effects]
        fam = element_family(base, arms, list(true_rank), n_boot=400, seed=rep, rank_by="signed")
        for name, r in true_rank.items():
            total += 1
            contain += fam.rank_lo[name] <= r <= fam.rank_hi[name]
        for nb in fam.neighbours:
            resolved += nb.resolved
            wrong += nb.resolved and true_rank[nb.above] > true_rank[nb.below]
    print(f"\nordered elements: rank intervals contain the true rank {contain / total:.3f}; "
          f"{resolved} adjacent pairs resolved, {wrong} of them in the wrong order")
    assert contain / total >= 0.95
    assert wrong == 0
    assert "≈" in fam.resolved_text() or ">" in fam.resolved_text()


def test_groups_rank_by_largest_member_and_rank_interval_helper():
    rng = np.random.default_rng(13)
    base = rng.standard_normal(4000)
    arms = [base + d + 0.3 * rng.standard_normal(4000) for d in (0.5, -0.02, 0.1, 0.0)]
    fam = element_family(base, arms, ["a=1", "a=2", "b=1", "c=1"], groups=["a", "a", "b", "c"], n_boot=300)
    assert fam.ranked[0] == "a" and fam.rank["a"] == 1 and fam.rank_hi["a"] == 1
    assert fam.neighbours[0].resolved
    lo, hi = rank_intervals(np.array([[3.0, 2, 1], [3, 1, 2], [3, 2, 1], [3, 2, 1]]), conf=0.5)
    assert lo.tolist()[0] == hi.tolist()[0] == 1


# -- 8. tournaments -----------------------------------------------------------------------------------------

def test_bradley_terry_recovers_strengths():
    r = np.array([-0.5, 0.0, 0.5])
    n = np.full((3, 3), 10_000.0) - np.diag([10_000.0] * 3)
    wins = n * special.expit(r[:, None] - r[None, :])
    s, cov = bradley_terry(wins, n)
    assert s == pytest.approx(r, abs=1e-8)
    assert np.allclose(cov.sum(axis=0), 0, atol=1e-10)             # sum-to-zero constraint


def test_intransitive_tournament_is_rejected():
    rng = np.random.default_rng(14)
    beats = {(0, 1): 0.7, (1, 2): 0.7, (0, 2): 0.3}                   # rock-paper-scissors
    rejected = 0
    for _ in range(50):
        fit = fit_tournament(3, {k: (rng.random((2, 2000)) < p).astype(float) for k, p in beats.items()})
        rejected += fit.fits is False
    print(f"\nintransitive 3-strategy tournament: fit rejected in {rejected} of 50 (X² = {fit.x2:.0f} on "
          f"{fit.df} df)")
    assert rejected == 50
    assert "does not fit" in fit.verdict()


R_TRUE = np.array([-0.2, -0.07, 0.07, 0.2])


def rotation_design(rng, deals, decided=0.8):
    """Two rotations per deal (A on side 1, then on side 2). With probability `decided` the deal decides the
    game for side 1 whoever plays it (A wins one rotation, loses the other); otherwise A wins each rotation
    with probability pi. The deal-averaged score is exactly logistic(r_i - r_j): Bradley–Terry holds."""
    pairs = {}
    for i, j in itertools.combinations(range(len(R_TRUE)), 2):
        s = special.expit(R_TRUE[i] - R_TRUE[j])
        pi = (s - 0.5 * decided) / (1 - decided)
        by_deal = rng.random(deals) < decided
        x1 = np.where(by_deal, 1.0, (rng.random(deals) < pi).astype(float))
        x2 = np.where(by_deal, 0.0, (rng.random(deals) < pi).astype(float))
        pairs[(i, j)] = np.vstack([x1, x2])
    return pairs


def test_transitive_tournament_fit_and_deal_clustered_strengths():
    rng = np.random.default_rng(15)
    reps, rejected = 400, 0
    hits = {"deal": 0.0, "game": 0.0}
    width = {"deal": [], "game": []}
    truth = R_TRUE - R_TRUE.mean()
    for _ in range(reps):
        pairs = rotation_design(rng, 3000)
        for unit in hits:
            fit = fit_tournament(len(R_TRUE), pairs, unit=unit)
            hits[unit] += np.mean([covers(fit.interval(i), truth[i]) for i in range(len(truth))])
            width[unit].append(fit.se.mean())
            if unit == "deal":
                rejected += fit.fits is False
    ratio = np.mean(width["game"]) / np.mean(width["deal"])
    print(f"\ntransitive tournament: fit rejected {rejected / reps:.3f}; strength coverage deals as the unit "
          f"{hits['deal'] / reps:.3f}, games as independent {hits['game'] / reps:.3f} ({ratio:.2f}× wider)")
    assert 0.01 <= rejected / reps <= 0.10
    assert 0.93 <= hits["deal"] / reps <= 0.975
    assert hits["game"] / reps > 0.99 and ratio > 1.8


def test_pair_score_units():
    scores = np.array([[1.0, 1, 0, 0], [0, 0, 1, 1]])              # each deal: one win, one loss
    ps = pair_score(scores)
    assert ps.mean == 0.5 and ps.se == 0 and ps.se_independent > 0 and ps.deals == 4 and ps.games == 8
    fit = fit_tournament(2, {(0, 1): scores})
    assert fit.fits is None and fit.df == 0 and fit.strength == pytest.approx([0, 0], abs=1e-9)


# -- 4b. scores between a loss and a win ---------------------------------------------------------------------

def test_score_interval_stays_between_the_bounds_and_covers():
    from sim.analysis.stats import mean_ci
    few = np.array([0.0, 0.5, 0.5, 0.0, 1.0])                          # the t interval goes below 0
    assert mean_t(few).lo < 0
    e = mean_ci(few, lower=0.0, upper=1.0)
    assert e.value == pytest.approx(0.4) and 0 < e.lo < e.value < e.hi < 1
    all_won = mean_ci(np.ones(20), lower=0.0, upper=1.0)
    assert all_won.hi == 1 and all_won.lo == pytest.approx(0.025 ** (1 / 20))
    long = np.random.default_rng(3).choice([0.0, 0.5, 1.0], p=[0.3, 0.2, 0.5], size=20_000)
    wide, t = mean_ci(long, lower=0.0, upper=1.0), mean_t(long)
    assert (wide.lo, wide.hi) == pytest.approx((t.lo, t.hi), abs=2e-4)      # the same as t in a long run
    rng = np.random.default_rng(8)
    truth = 0.85 * 1.0 + 0.1 * 0.5
    draws = rng.choice([0.0, 0.5, 1.0], p=[0.05, 0.1, 0.85], size=(3000, 8))
    new = np.mean([covers(mean_ci(r, lower=0.0, upper=1.0), truth) for r in draws])
    outside = np.mean([(lambda e: e.lo < 0 or e.hi > 1)(mean_ci(r, lower=0.0, upper=1.0)) for r in draws])
    old = np.mean([covers(mean_t(r), truth) for r in draws])
    print(f"\nscore 0.9 from 8 deals: logit-scale coverage {new:.3f}, t coverage {old:.3f}")
    assert outside == 0 and new >= 0.90


def test_a_count_per_1000_games_that_never_happened_gets_the_upper_end_of_its_own_scale():
    """No game of 2,000 capped a round: a per-1,000 count's interval reaches about 1.8 per 1,000 (the exact
    Poisson end, ln 40 / 2,000 games, times 1,000), not the 0.002 a plain count's end would give."""
    import polars as pl

    from sim.analysis.summary import summarize
    from sim.engine.game import Outcome

    class Stub:
        def deal_columns(self, run):
            return []

        def outcomes(self):
            return [Outcome("capped", "mean", 1000 * pl.col("capped"), step=1000),
                    Outcome("plain", "mean", pl.col("capped"))]

    rows = summarize(Stub(), pl.LazyFrame({"capped": [0] * 2000}), [])
    per_1000, plain = (r["estimate"] for r in rows)
    assert per_1000.value == 0 and per_1000.hi == pytest.approx(1000 * math.log(40) / 2000)
    assert plain.hi == pytest.approx(math.log(40) / 2000)
