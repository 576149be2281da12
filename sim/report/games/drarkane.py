"""Drarkane's own report sections: how solo games against the Demon end, and each contract against the tricks
taken."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.intervals import clustered_rate_from_sums, design_effect_from_sums  # noqa: E402
from sim.analysis.stats import wilson  # noqa: E402
from sim.engine.frames import cluster_sums, collect, columns, count, lazy  # noqa: E402
from sim.games.drarkane.game import SOLO_RANKS  # noqa: E402
from sim.games.drarkane.records import MODE_NAMES, MODE_SOLO  # noqa: E402
from sim.report import layout  # noqa: E402
from sim.report.charts import whole_ticks  # noqa: E402

VALUES = {"mode": MODE_NAMES}        # the report's headings name a mode, not its code


def sections(games: pl.LazyFrame, chart, tables=None) -> list[str]:
    sections = []
    if "mode" in columns(games):
        solo = lazy(games).filter(pl.col("mode") == MODE_SOLO)
        if count(solo):
            sections.append(solo_section(solo, chart))
    rounds = (tables or {}).get("rounds")
    if rounds is not None:
        sections.append(bid_section(rounds, chart))
    return sections


def solo_section(solo: pl.LazyFrame, chart) -> str:
    row = collect(solo.select(pl.len().alias("n"), pl.col("stalemate").sum().alias("stale"),
                              pl.col("solo_score").mean().alias("score"), pl.col("lost_rounds").sum().alias("lost"),
                              *[(pl.col("solo_rank") == k).sum().alias(f"rank{k}") for k in range(len(SOLO_RANKS))]
                              )).row(0, named=True)
    n = int(row["n"])
    counts = [int(row[f"rank{k}"]) for k in range(len(SOLO_RANKS))]
    lines = ["## Solo against the Demon", "", "| rank | games | share |", "|---|---|---|"]
    for name, c in zip(SOLO_RANKS, counts):
        lines.append(f"| {name} | {c:,} | {wilson(c, n).fmt(pct=True, digits=1)} |")
    stale = int(row["stale"])
    lines += ["", f"Mean solo score {row['score']:.1f}; games lost to the 7th dragon "
              f"{wilson(int(row['lost']), n).fmt(pct=True, digits=1)}; stalemates (trick cap) {stale:,}."]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.bar(range(len(SOLO_RANKS)), [100 * c / n for c in counts])
    ax.set_xticks(range(len(SOLO_RANKS)), SOLO_RANKS, fontsize=7)
    ax.set_ylabel("% of solo games")
    ax.set_title("Drarkane solo: rank reached")
    lines += ["", chart("solo_ranks", fig), ""]
    return "\n".join(lines)


def bid_section(rounds, chart) -> str:
    """Bid against tricks taken (heat-map per player count) and the exact-hit rate by bid.

    `rounds` is the per-round table (DataFrame or LazyFrame); only its counts are collected."""
    lazy = rounds.lazy().filter(pl.col("bid") >= 0)
    if "players" not in lazy.collect_schema().names():
        lazy = lazy.with_columns(pl.lit(0).alias("players"))
    counts = collect(lazy.group_by("players", "bid", "tricks")
                     .agg(pl.len().alias("n")))
    if counts.height == 0:             # solo games bid no contracts
        return ""
    hits = bid_hits(lazy)
    lines = ["## Bids against tricks", "",
             "A contract's exact rate is the share of player-rounds bidding it that took exactly that many tricks, "
             "all games pooled. The rounds and players of one game share its deals, so they are not independent: "
             "the interval takes the game as the unit (game-clustered), and the design effect says how many times "
             "its variance exceeds the figure for independent player-rounds.", ""]
    ps = sorted(counts["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(ps), figsize=(4.5 * len(ps), 4), squeeze=False)
    body = []
    for ax, p in zip(axes[0], ps):
        g = counts.filter(pl.col("players") == p)
        size = int(max(g["bid"].max(), g["tricks"].max())) + 1
        grid = np.zeros((size, size))
        for b, t, c in g.select("bid", "tricks", "n").iter_rows():
            grid[b, t] = c
        share = 100 * grid / np.maximum(grid.sum(axis=1, keepdims=True), 1)
        image = ax.imshow(share, origin="lower", cmap="viridis", aspect="auto", vmin=0, vmax=100)
        ax.plot([0, size - 1], [0, size - 1], color="white", lw=0.6, ls=":")
        ax.set_xlabel("tricks taken")
        ax.set_ylabel("contract")
        whole_ticks(ax, "x")
        whole_ticks(ax, "y")
        ax.set_title(f"{p} players" if p else "all", fontsize=9)
        body += [[f"{p} players" if p else "all", *bid_cells(row)]
                 for row in hits.filter(pl.col("players") == p).sort("bid").iter_rows(named=True)]
    fig.colorbar(image, ax=axes[0][-1], label="% of the contract's player-rounds")
    fig.suptitle("tricks taken for each contract (each row sums to 100%; dotted: exactly the contract)", fontsize=9)
    table = layout.table(["players", "contract", "exact [95% CI, game-clustered]", "player-rounds", "games",
                          "design effect"], body)
    lines += layout.fold(f"Exact rate by contract ({len(body)} rows)", table, len(body))
    lines += ["", chart("bid_vs_tricks", fig), ""]
    return "\n".join(lines)


def bid_hits(rounds: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and contract: the five per-game sums a game-clustered rate needs (games, Σ hits, Σ
    player-rounds, Σ hits², Σ player-rounds², Σ hits × player-rounds), read in batches (flat in memory)."""
    game = [c for c in ("rules", "lineup", "seed", "game_id") if c in rounds.collect_schema().names()]
    sums = cluster_sums(rounds, ["players", "bid"], game, pl.col("exact").cast(pl.Float64), pl.lit(1.0))
    return sums.rename({"clusters": "games"})


def bid_cells(row: dict) -> list[str]:
    """A contract's row: the bid, its exact rate (game-clustered interval), player-rounds, games, design effect."""
    sums = (row["games"], row["s"], row["t"], row["ss"], row["tt"], row["st"])
    est, deff = clustered_rate_from_sums(*sums), design_effect_from_sums(*sums)
    return [str(row["bid"]), est.fmt(pct=True, digits=1), f"{int(row['t']):,}", f"{int(row['games']):,}",
            f"{deff:.2f}" if deff == deff else ""]
