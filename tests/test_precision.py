"""`--precision`: width-only stopping with the plain interval (issue 27). The stopping rule is the one the
command uses (`Tracker`), fed simulated streams in the chunks a precision run plays; then one played run."""

import json
import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as st

from sim.analysis.intervals import games_needed
from sim.analysis.precision import STOP_RULE, Tracker, allowed_half_width, plain, precision_chunk, run_to_precision
from sim.engine.game import Outcome
from sim.engine.spec import RunSpec
from sim.games import get_game

RATE = Outcome("rate", "rate", pl.col("x"), "x", headline=True)
MEAN = Outcome("mean", "mean", pl.col("x"), "x", headline=True)


def stop(rng, outcome, draw, target, chunk):
    """Run the command's stopping rule on a simulated stream: games played and the reported interval."""
    t = Tracker([outcome], target)
    while True:
        t.add({"x": draw(rng, chunk)})
        if t.look():
            return t.n, t.estimates()[outcome.name]
        assert t.n < 10**6


def old_rule_games(rng, p, target, chunk, reps=30):
    """Games the old rule took: alpha spent as 6 alpha / (pi² k²) at look k (z ≈ 3.3 by look 5)."""
    played = []
    for _ in range(reps):
        n = total = k = 0
        while True:
            k, n, total = k + 1, n + chunk, total + int((rng.random(chunk) < p).sum())
            z = st.norm.isf(0.05 * 6 / (math.pi ** 2 * k * k) / 2)
            if z * math.sqrt(total / n * (1 - total / n) / n) <= target:
                played.append(n)
                break
    return np.mean(played)


def test_chunk_size_comes_from_the_target_alone():
    g = get_game("dragonwake")
    spec = RunSpec(g, g.load_rules(), 5, g.lineup(None), 10**6)
    assert precision_chunk(spec, 0.01) == 500                  # ±1 point: about 8,000 games, looks every 500
    assert precision_chunk(spec, 0.002) == 5000
    assert precision_chunk(spec, 0.0001) == g.chunk_size        # never above the game's own chunk
    spec.chunk_size = 7000
    assert precision_chunk(spec, 0.01) == 7000                  # the user's chunk size wins


def test_width_only_stopping_covers_a_rate_and_stops_near_fixed_n():
    """2,000 runs of ±1 point on a 30% rate in the 500-game looks a run at that target takes. The old rule's
    games were 1.85–4.1× the fixed-n count; its reported interval was the plain one anyway."""
    p, target, reps = 0.3, 0.01, 2000
    chunk = 500
    fixed = games_needed("rate", target, p=p)
    rng = np.random.default_rng(27)
    runs = [stop(rng, RATE, lambda g, m: (g.random(m) < p).astype(np.int8), target, chunk) for _ in range(reps)]
    coverage = np.mean([e.lo <= p <= e.hi for _, e in runs])
    ratio = np.array([n for n, _ in runs]) / fixed
    old = old_rule_games(rng, p, target, chunk) / fixed
    print(f"\nrate: coverage {coverage:.3f}, games / fixed-n {ratio.mean():.3f} (max {ratio.max():.3f}); "
          f"old rule {old:.2f}×")
    assert all(e.half_width() <= target for _, e in runs)
    assert coverage >= 0.94 and ratio.mean() <= 1.1 and ratio.max() <= 1.2
    assert old > 1.8


def test_width_only_stopping_covers_a_mean_at_a_relative_target():
    """A mean of 50 (sd 10) to ±0.5% of its value: the target is relative, so the width is compared with the
    estimate's size; at this precision the estimate barely moves and coverage holds."""
    mu, sd, target, reps = 50.0, 10.0, 0.005, 1000
    fixed = games_needed("mean", target * mu, sd=sd)
    rng = np.random.default_rng(28)
    runs = [stop(rng, MEAN, lambda g, m: g.normal(mu, sd, m), target, 500) for _ in range(reps)]
    coverage = np.mean([e.lo <= mu <= e.hi for _, e in runs])
    ratio = np.array([n for n, _ in runs]) / fixed
    print(f"\nmean: coverage {coverage:.3f}, games / fixed-n {ratio.mean():.3f} (max {ratio.max():.3f})")
    assert coverage >= 0.94 and ratio.max() <= 1.2
    assert all(e.half_width() <= allowed_half_width("mean", e.value, target) for _, e in runs)


def test_reported_interval_is_the_plain_one():
    t = Tracker([RATE], 0.5)
    t.add({"x": np.array([1, 0, 0, 1, 1, 0, 1, 1], dtype=np.int8)})
    assert t.look() and t.looks == 1
    e = t.estimates()["rate"]
    assert (e.lo, e.hi) == pytest.approx((plain("rate", 8, 5, 5).lo, plain("rate", 8, 5, 5).hi))
    assert e.lo == pytest.approx(0.3058, abs=1e-3)           # Wilson's 95% bounds for 5 of 8


def first_narrow(games: pl.DataFrame, outcomes, target: float, step: int = 50) -> int:
    """The fewest games (in steps of `step`) whose plain intervals all reach the target: the fixed-n count."""
    for n in range(step, games.height + 1, step):
        t = Tracker(outcomes, target)
        t.add(games.head(n).to_dict(as_series=False))
        if t.look():
            return n
    return games.height


def test_a_played_precision_run_stops_near_fixed_n_and_says_how(tmp_path):
    g = get_game("dragonwake")
    spec = RunSpec(g, g.load_rules(), 5, g.lineup(None), 200_000, seed=11)
    result = run_to_precision(spec, tmp_path, 0.01)
    games = pl.read_parquet(tmp_path / "games" / "**" / "*.parquet").sort("game_id")
    assert games.height == result["n"] < 200_000
    fixed = first_narrow(games, g.outcomes(), 0.01)
    print(f"\ndragonwake ±1 point: stopped at {result['n']:,} games, a fixed-n run needs {fixed:,} "
          f"({result['n'] / fixed:.2f}×)")
    assert result["n"] <= 1.2 * fixed
    assert "width-only stopping, plain interval" in result["reason"]
    run = json.loads(next((tmp_path / "runs").rglob("run.json")).read_text())
    assert run["stop_rule"] == "width-only stopping, plain interval" and STOP_RULE in run["stop_reason"]
    assert run["chunk_size"] == 500 and run["n"] == result["n"] and run["n_cap"] == 200_000


def test_the_report_says_how_a_precision_run_stopped(tmp_path):
    from sim.report.balance import game_report
    g = get_game("dragonwake")
    run_to_precision(RunSpec(g, g.load_rules(), 5, g.lineup(None), 100_000, seed=2), tmp_path, 0.02)
    (tmp_path / "report").mkdir()
    text = game_report("dragonwake", tmp_path, tmp_path / "report").read_text()
    assert "played to ±0.02, stopped: every headline interval within ±0.02" in text
    assert "width-only stopping, plain interval" in text
