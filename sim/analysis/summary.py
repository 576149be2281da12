"""Outcome estimates with intervals from results, computed lazily (any number of games)."""

from __future__ import annotations

import polars as pl

from sim.analysis.stats import Estimate, mean_from_moments, wilson
from sim.engine.frames import collect, lazy
from sim.engine.game import Game


def estimates(frame: pl.DataFrame | pl.LazyFrame, measures: list[tuple[pl.Expr, str]]) -> list[Estimate]:
    """Each (per-game expression, "rate" or "mean") over these games, in one streamed pass: rates by Wilson, means
    by t from the count, sum and sum of squares (kept above 0 for a quantity no game took below 0,
    `sim.analysis.stats.bounded`). Games where the expression is null or NaN are left out."""
    if not measures:
        return []
    aggs = []
    for i, (expr, _) in enumerate(measures):
        x = expr.cast(pl.Float64).fill_nan(None)
        aggs += [x.count().alias(f"n{i}"), x.sum().alias(f"s{i}"), (x * x).sum().alias(f"q{i}"), x.min().alias(f"m{i}")]
    row = collect(lazy(frame).select(aggs)).row(0, named=True)
    out = []
    for i, (_, kind) in enumerate(measures):
        n, s, q = int(row[f"n{i}"] or 0), row[f"s{i}"] or 0.0, row[f"q{i}"] or 0.0
        if n == 0:
            out.append(Estimate(float("nan"), float("nan"), float("nan"), 0))
        else:
            out.append(wilson(int(round(s)), n) if kind == "rate" else
                       mean_from_moments(s, q, n, lower=floor(row[f"m{i}"])))
    return out


def floor(smallest) -> float | None:
    """0 for a quantity no game took below 0 (the bound its interval keeps), else None."""
    return 0.0 if smallest is not None and smallest >= 0 else None


def summarize(game: Game, games: pl.LazyFrame, by: list[str]) -> list[dict]:
    """One row per (group, outcome): value, 95% interval and games, rates by Wilson, means by t."""
    outcomes = game.outcomes()
    aggs = []
    for o in outcomes:
        x = o.expr.cast(pl.Float64).fill_nan(None)      # null or NaN: the outcome does not apply
        aggs += [x.count().alias(f"{o.name}__n"), x.sum().alias(f"{o.name}__s"),
                 (x * x).sum().alias(f"{o.name}__ss"), x.min().alias(f"{o.name}__min")]
    grouped = games.group_by(by).agg(*aggs) if by else games.select(*aggs)
    table = collect(grouped.sort(by)) if by else collect(grouped)
    rows = []
    for rec in table.iter_rows(named=True):
        for o in outcomes:
            n = int(rec[f"{o.name}__n"] or 0)
            if n == 0:
                continue
            s = rec[f"{o.name}__s"] or 0.0
            est = wilson(int(round(s)), n) if o.kind == "rate" else \
                mean_from_moments(s, rec[f"{o.name}__ss"] or 0.0, n, lower=floor(rec[f"{o.name}__min"]), step=o.step)
            rows.append({**{k: rec[k] for k in by}, "outcome": o.name, "label": o.label, "kind": o.kind,
                         "headline": o.headline, "estimate": est})
    return rows
