"""Outcome estimates with intervals from results, computed lazily (any number of games)."""

from __future__ import annotations

import polars as pl

from sim.analysis.intervals import clustered_rate_from_sums, ratio_var_from_sums
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


RUN = ("game", "players", "rules", "lineup", "seed")     # the partition columns that tell runs apart


def summarize(game: Game, games: pl.LazyFrame, by: list[str]) -> list[dict]:
    """One row per (group, outcome): value, 95% interval and games, rates by Wilson, means by t; over deals
    instead of games where the game deals some games alike (`Game.deal_columns`)."""
    run = [c for c in RUN if c in games.collect_schema().names()]
    if game.deal_columns(run):
        return _by_deal(game, games, by, run)
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


def _by_deal(game: Game, games: pl.LazyFrame, by: list[str], run: list[str]) -> list[dict]:
    """`summarize` with the deal as the unit: each deal's total and count per outcome, then the deal-clustered
    rate (Wilson on the effective games) or mean (t on deals - 1 degrees of freedom) of each group."""
    outcomes = game.outcomes()
    deal = game.deal_columns(run)
    per_deal = []
    for o in outcomes:
        x = o.expr.cast(pl.Float64).fill_nan(None)
        per_deal += [x.count().cast(pl.Float64).alias(f"{o.name}__t"), x.sum().alias(f"{o.name}__s"),
                     (x * x).sum().alias(f"{o.name}__q"), x.min().alias(f"{o.name}__min")]
    keys = list(dict.fromkeys([*by, *run, *(e.meta.output_name() for e in deal)]))
    deals = games.with_columns(deal).group_by(keys).agg(*per_deal)
    aggs = []
    for o in outcomes:
        s, t = pl.col(f"{o.name}__s").fill_null(0.0), pl.col(f"{o.name}__t")
        aggs += [(t > 0).sum().alias(f"{o.name}__g"), s.sum().alias(f"{o.name}__s"), t.sum().alias(f"{o.name}__t"),
                 (s * s).sum().alias(f"{o.name}__ss"), (t * t).sum().alias(f"{o.name}__tt"),
                 (s * t).sum().alias(f"{o.name}__st"), pl.col(f"{o.name}__q").sum().alias(f"{o.name}__q"),
                 pl.col(f"{o.name}__min").min().alias(f"{o.name}__min")]
    grouped = deals.group_by(by).agg(*aggs) if by else deals.select(*aggs)
    table = collect(grouped.sort(by)) if by else collect(grouped)
    rows = []
    for rec in table.iter_rows(named=True):
        for o in outcomes:
            sums = [rec[f"{o.name}__{k}"] or 0 for k in ("g", "s", "t", "ss", "tt", "st")]
            if not sums[2]:
                continue
            if o.kind == "rate":
                e = clustered_rate_from_sums(*sums)
                est = Estimate(e.value, e.lo, e.hi, e.n)
            else:
                est = _mean_over_deals(sums, rec[f"{o.name}__q"] or 0.0, floor(rec[f"{o.name}__min"]), o.step)
            rows.append({**{k: rec[k] for k in by}, "outcome": o.name, "label": o.label, "kind": o.kind,
                         "headline": o.headline, "estimate": est})
    return rows


def _mean_over_deals(sums: list, total_sq: float, lower: float | None, step: float) -> Estimate:
    """The games' mean with the interval `mean_from_moments` gives (kept above a floor; an exact bound when no
    game differs), on the effective number of games: games / the design effect of the deals."""
    deals, total, n = int(sums[0]), float(sums[1]), float(sums[2])
    iid = (total_sq - total * total / n) / (n - 1) / n if n > 1 else 0.0
    deff = ratio_var_from_sums(*sums) / iid if iid > 0 and deals > 1 else 1.0
    k = 1.0 / deff if deff > 0 else 1.0
    est = mean_from_moments(total * k, total_sq * k, n * k, lower=lower, step=step)
    return Estimate(est.value, est.lo, est.hi, int(n))


def deal_sums(games: pl.LazyFrame, deal: list[pl.Expr], run: list[str], value: pl.Expr,
              among: pl.Expr | None = None) -> tuple:
    """The five sums over deals (deals, Σs, Σt, Σs², Σt², Σst) of each deal's total s of `value` over its games
    where `among` holds (t: how many; every game by default), for `clustered_rate_from_sums` and
    `clustered_mean_from_sums`. `deal`: the game's `deal_columns(run)`."""
    among = pl.col("game_id").is_not_null() if among is None else among
    keys = [*run, *(e.meta.output_name() for e in deal)]
    per = games.with_columns(deal).group_by(keys).agg(
        pl.when(among).then(value).otherwise(0).sum().cast(pl.Float64).alias("s"),
        among.sum().cast(pl.Float64).alias("t")).filter(pl.col("t") > 0)
    s, t = pl.col("s"), pl.col("t")
    sums = [s.sum(), t.sum(), (s * s).sum(), (t * t).sum(), (s * t).sum()]
    return collect(per.select(pl.len(), *[x.alias(f"m{k}") for k, x in enumerate(sums)])).row(0)
