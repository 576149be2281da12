"""Per-round rates (issue 27): a share of rounds pooled over games carries a game-clustered interval computed
from streamed per-game sums, and a mean of per-game shares says so in its label."""

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

from sim.analysis.intervals import (clustered_rate, clustered_rate_from_sums, design_effect_from_sums, wilson)
from sim.games import get_game
from sim.report.games.drarkane import bid_section


def sums(s, t):
    s, t = np.asarray(s, float), np.asarray(t, float)
    return len(s), s.sum(), t.sum(), (s * s).sum(), (t * t).sum(), (s * t).sum()


def clustered_games(rng, games, rounds=20, p=0.3, kappa=8.0):
    """Each game's own rate ~ Beta(mean p, concentration kappa): rounds of one game correlate by
    1 / (kappa + 1), so the design effect is 1 + (rounds − 1) / (kappa + 1) (3.11 here)."""
    own = rng.beta(p * kappa, (1 - p) * kappa, games)
    return rng.binomial(rounds, own).astype(float), np.full(games, float(rounds))


def test_clustered_rate_from_sums_has_the_known_design_effect_and_covers():
    rng = np.random.default_rng(27)
    s, t = clustered_games(rng, 20_000)
    assert design_effect_from_sums(*sums(s, t)) == pytest.approx(1 + 19 / 9, rel=0.08)
    a, b = clustered_rate_from_sums(*sums(s, t)), clustered_rate(s, t)
    assert (a.value, a.lo, a.hi) == pytest.approx((b.value, b.lo, b.hi), rel=1e-9)
    hits = naive = 0
    reps = 1000
    for _ in range(reps):
        s, t = clustered_games(rng, 300)
        e = clustered_rate_from_sums(*sums(s, t))
        w = wilson(int(s.sum()), int(t.sum()))         # player-rounds as if independent
        hits += e.lo <= 0.3 <= e.hi
        naive += w.lo <= 0.3 <= w.hi
    print(f"\ndesign effect 3.1: game-clustered coverage {hits / reps:.3f}, rounds as independent {naive / reps:.3f}")
    assert hits / reps >= 0.93 and naive / reps < 0.80


def test_clustered_rate_from_sums_edges():
    assert clustered_rate_from_sums(0, 0, 0, 0, 0, 0).n == 0
    zero = clustered_rate_from_sums(*sums([0, 0, 0], [4, 5, 6]))
    assert zero.value == 0 and zero.hi > 0                      # Clopper–Pearson over 3 games, not [0, 0]


def rounds_table(rng, games=400, players=4):
    """Player-rounds of games in which the deal decides: in a game every player hits its contract, or none."""
    rows = []
    for g in range(games):
        lucky = rng.random() < 0.5
        for r in range(5):
            for seat in range(players):
                bid = int(rng.integers(0, 3))
                rows.append({"game_id": g, "players": players, "bid": bid, "tricks": bid if lucky else bid + 1,
                             "exact": int(lucky)})
    return pl.DataFrame(rows)


def no_chart(name, fig):
    plt.close(fig)
    return ""


def test_drarkane_bid_rates_are_game_clustered_shares_of_player_rounds():
    rounds = rounds_table(np.random.default_rng(3))
    text = bid_section(rounds, no_chart)
    assert "| players | contract | exact [95% CI, game-clustered] | player-rounds | games | design effect |" in text
    one = rounds.filter(pl.col("bid") == 1)
    per_game = one.group_by("game_id").agg(pl.col("exact").sum().alias("s"), pl.len().alias("t"))
    e = clustered_rate(per_game["s"].to_numpy(), per_game["t"].to_numpy())
    assert f"| 1 | {e.fmt(pct=True, digits=1)} | {one.height:,} | 400 | " in text
    old = wilson(int(one["exact"].sum()), one.height)           # the old interval: player-rounds as independent
    assert e.hi - e.lo > 2.5 * (old.hi - old.lo)


def test_drachensachen_starter_out_says_it_is_a_mean_of_per_game_shares():
    o = next(o for o in get_game("drachensachen").outcomes() if o.name == "starter_out")
    assert o.label.startswith("mean over games of each game's share of its decided rounds")
    games = pl.DataFrame({"starter_out": [1, 3, 0], "rounds": [4, 6, 2], "stalemate_rounds": [0, 2, 2]})
    assert o.values(games)[:2].tolist() == [0.25, 0.75] and np.isnan(o.values(games)[2])   # no decided round


def test_cluster_sums_in_batches_equal_one_group_by():
    """The batched per-cluster sums (memory flat in the number of games) equal a plain group-by, whatever the
    batch size: a game's rounds, interleaving several contracts, may straddle a batch boundary."""
    from sim.engine.frames import cluster_sums
    rng = np.random.default_rng(3)
    games = np.repeat(np.arange(400), rng.integers(1, 12, 400))
    frame = pl.DataFrame({"seed": np.where(games < 200, 1, 2), "game_id": games % 200,
                          "bid": rng.integers(0, 4, len(games)), "exact": rng.integers(0, 2, len(games))})
    per = frame.group_by("bid", "seed", "game_id").agg(pl.col("exact").sum().cast(pl.Float64).alias("s"),
                                                      pl.len().cast(pl.Float64).alias("t"))
    want = per.group_by("bid").agg(pl.len().cast(pl.Float64).alias("clusters"), pl.col("s").sum(),
                                   pl.col("t").sum(), (pl.col("s") ** 2).sum().alias("ss"),
                                   (pl.col("t") ** 2).sum().alias("tt"),
                                   (pl.col("s") * pl.col("t")).sum().alias("st")).sort("bid")
    for batch in (1, 7, 100, 10_000):
        got = cluster_sums(frame.lazy(), ["bid"], ["seed", "game_id"], pl.col("exact").cast(pl.Float64),
                           pl.lit(1.0), batch=batch)
        np.testing.assert_allclose(got.drop("bid").to_numpy(), want.drop("bid").to_numpy())
