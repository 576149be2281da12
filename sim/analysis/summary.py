"""Outcome estimates with intervals from results, computed lazily (any number of games)."""

from __future__ import annotations

import polars as pl

from sim.analysis.intervals import ratio_var_from_sums, wilson_bounds
from sim.analysis.stats import Estimate, mean_from_moments, wilson
from sim.engine.frames import collect, lazy
from sim.engine.game import Game


def estimates(frame: pl.DataFrame | pl.LazyFrame, measures: list[tuple[pl.Expr, str]],
              design: dict[int, float] | None = None) -> list[Estimate]:
    """Each (per-game expression, "rate" or "mean") over these games, in one streamed pass: rates by Wilson, means
    by t from the count, sum and sum of squares (kept above 0 for a quantity no game took below 0,
    `sim.analysis.stats.bounded`). Games where the expression is null or NaN are left out. `design[i]`: measure
    i's design effect, its interval then on the effective number of games (games / it)."""
    if not measures:
        return []
    aggs = []
    for i, (expr, _) in enumerate(measures):
        x = expr.cast(pl.Float64).fill_nan(None)
        aggs += [x.count().alias(f"n{i}"), x.sum().alias(f"s{i}"), (x * x).sum().alias(f"q{i}"), x.min().alias(f"m{i}")]
    row = collect(lazy(frame).select(aggs)).row(0, named=True)
    return [estimate(kind, int(row[f"n{i}"] or 0), row[f"s{i}"] or 0.0, row[f"q{i}"] or 0.0, row[f"m{i}"],
                     1.0 / (design or {}).get(i, 1.0)) for i, (_, kind) in enumerate(measures)]


def estimate(kind: str, n: int, total: float, total_sq: float, smallest, k: float = 1.0, step: float = 1.0
             ) -> Estimate:
    """A rate (Wilson) or mean (t, kept above a floor) of n games from their sums, on k·n effective games."""
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    e = effective_rate(total, n, k) if kind == "rate" else \
        mean_from_moments(total * k, total_sq * k, n * k, lower=floor(smallest), step=step)
    return Estimate(e.value, e.lo, e.hi, n)


def floor(smallest) -> float | None:
    """0 for a quantity no game took below 0 (the bound its interval keeps), else None."""
    return 0.0 if smallest is not None and smallest >= 0 else None


RUN = ("game", "players", "rules", "lineup", "seed")     # the partition columns that tell runs apart
DEFF_GAMES = 100_000     # games of each run the design effect of its deals is measured on: memory stays flat


def summarize(game: Game, games: pl.LazyFrame, by: list[str]) -> list[dict]:
    """One row per (group, outcome): value, 95% interval and games, rates by Wilson, means by t. Where the game
    deals some games alike (`Game.deal_columns`), on the effective number of games: games / the design effect
    of the deals, measured on each run's first `DEFF_GAMES` games (`design_effects`)."""
    outcomes = game.outcomes()
    run = [c for c in RUN if c in games.collect_schema().names()]
    deal = game.deal_columns(run)
    measures = {o.name: o.expr.cast(pl.Float64).fill_nan(None) for o in outcomes}
    deff = design_effects(games, deal, run, by, measures) if deal else {}
    aggs = []
    for o in outcomes:
        x = measures[o.name]                              # null or NaN: the outcome does not apply
        aggs += [x.count().alias(f"{o.name}__n"), x.sum().alias(f"{o.name}__s"),
                 (x * x).sum().alias(f"{o.name}__ss"), x.min().alias(f"{o.name}__min")]
    grouped = games.group_by(by).agg(*aggs) if by else games.select(*aggs)
    table = collect(grouped.sort(by)) if by else collect(grouped)
    rows = []
    for rec in table.iter_rows(named=True):
        group = tuple(rec[k] for k in by)
        for o in outcomes:
            n = int(rec[f"{o.name}__n"] or 0)
            if n == 0:
                continue
            est = estimate(o.kind, n, rec[f"{o.name}__s"] or 0.0, rec[f"{o.name}__ss"] or 0.0, rec[f"{o.name}__min"],
                           1.0 / deff.get((group, o.name), 1.0), o.step)
            rows.append({**{k: rec[k] for k in by}, "outcome": o.name, "label": o.label, "kind": o.kind,
                         "headline": o.headline, "estimate": est})
    return rows


def effective_rate(successes: float, n: int, k: float = 1.0) -> Estimate:
    """Wilson on k·n effective games (k = 1 / the design effect); at 0 or 1 the plain bound over the n games."""
    if k == 1.0 or successes <= 0 or successes >= n:
        return wilson(int(round(successes)), n)
    lo, hi = wilson_bounds(successes / n, n * k)
    return Estimate(successes / n, lo, hi, n)


def design_effects(games: pl.LazyFrame, deal: list[pl.Expr], run: list[str], by: list[str],
                   measures: dict[str, pl.Expr]) -> dict[tuple, float]:
    """(group, measure) -> the variance of the measure's mean with the deal as the unit over its variance if every
    game were independent, measured on each run's first DEFF_GAMES games (whole deals: a deal lies within a
    chunk). Below 1 when the games of a deal offset each other (a faction winning from either seat)."""
    keys = list(dict.fromkeys([*by, *run, *(e.meta.output_name() for e in deal)]))
    aggs, totals = [], []
    for k, x in enumerate(measures.values()):
        aggs += [x.sum().alias(f"s{k}"), x.count().cast(pl.Float64).alias(f"t{k}"), (x * x).sum().alias(f"q{k}")]
        s, t = pl.col(f"s{k}").fill_null(0.0), pl.col(f"t{k}")
        totals += [(t > 0).sum().alias(f"g{k}"), s.sum().alias(f"S{k}"), t.sum().alias(f"T{k}"),
                   (s * s).sum().alias(f"SS{k}"), (t * t).sum().alias(f"TT{k}"), (s * t).sum().alias(f"ST{k}"),
                   pl.col(f"q{k}").fill_null(0.0).sum().alias(f"Q{k}")]
    per_deal = games.filter(pl.col("game_id") < DEFF_GAMES).with_columns(deal).group_by(keys).agg(*aggs)
    table = collect(per_deal.group_by(by).agg(*totals) if by else per_deal.select(*totals))
    out = {}
    for rec in table.iter_rows(named=True):
        group = tuple(rec[k] for k in by)
        for k, name in enumerate(measures):
            g, S, T, SS, TT, ST, Q = (rec[f"{x}{k}"] or 0 for x in ("g", "S", "T", "SS", "TT", "ST", "Q"))
            if g < 2 or T <= 1:
                continue
            r = S / T
            iid = max(Q / T - r * r, 0.0) / T
            if iid > 0:
                out[group, name] = max(ratio_var_from_sums(g, S, T, SS, TT, ST) / iid, 1e-3)
    return out


def deal_estimates(games: pl.LazyFrame, deal_columns,
                   measures: dict[str, tuple[pl.Expr, str]]) -> dict[str, Estimate]:
    """Each measure name -> (per-game expression, null where it does not apply; "rate" or "mean") over all these
    games, its interval on the effective number of games as `summarize` gives it; streamed over every game.
    `deal_columns`: the game's `Game.deal_columns`, given the run columns these games carry."""
    run = [c for c in RUN if c in games.collect_schema().names()]
    exprs = {k: e.cast(pl.Float64).fill_nan(None) for k, (e, _) in measures.items()}
    deff = design_effects(games, deal_columns(run), run, [], exprs)
    got = estimates(games, [(exprs[k], kind) for k, (_, kind) in measures.items()],
                    {i: deff.get(((), k), 1.0) for i, k in enumerate(measures)})
    return dict(zip(measures, got))
