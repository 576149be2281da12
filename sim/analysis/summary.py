"""Outcome estimates with intervals from results, computed lazily (any number of games)."""

from __future__ import annotations

import polars as pl

from sim.analysis.stats import mean_from_moments, wilson
from sim.engine.game import Game


def summarize(game: Game, games: pl.LazyFrame, by: list[str]) -> list[dict]:
    """One row per (group, outcome): value, 95% interval and games, rates by Wilson, means by t."""
    outcomes = game.outcomes()
    aggs = []
    for o in outcomes:
        x = o.expr.cast(pl.Float64).fill_nan(None)      # null or NaN: the outcome does not apply
        aggs += [x.count().alias(f"{o.name}__n"), x.sum().alias(f"{o.name}__s"),
                 (x * x).sum().alias(f"{o.name}__ss")]
    grouped = games.group_by(by).agg(*aggs) if by else games.select(*aggs)
    table = grouped.sort(by).collect() if by else grouped.collect()
    rows = []
    for rec in table.iter_rows(named=True):
        for o in outcomes:
            n = int(rec[f"{o.name}__n"] or 0)
            if n == 0:
                continue
            s = rec[f"{o.name}__s"] or 0.0
            est = wilson(int(round(s)), n) if o.kind == "rate" else mean_from_moments(s, rec[f"{o.name}__ss"] or 0.0, n)
            rows.append({**{k: rec[k] for k in by}, "outcome": o.name, "label": o.label, "kind": o.kind,
                         "headline": o.headline, "estimate": est})
    return rows
