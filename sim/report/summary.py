"""Outcome estimates (`sim.analysis.summary.summarize`) as text: one estimate with its interval, and the compact
table `dsim report` prints on the terminal (configurations as rows, the default first; headline outcomes as
columns)."""

from __future__ import annotations

import math

from sim.analysis.stats import Estimate
from sim.engine.game import Game, Outcome
from sim.engine.strategy import lineup_label
from sim.report.labels import DEFAULT_RULES, Configs


def fmt(est: Estimate, kind: str) -> str:
    return est.fmt(pct=True, digits=2) if kind == "rate" else est.fmt(digits=3)


def compact(est: Estimate | None, outcome: Outcome) -> str:
    """A value and half its 95% interval ("54.7% ±0.7", "3.60 ±0.02"), short enough for a terminal column; "–"
    where the outcome does not apply to a configuration (no game counts towards it)."""
    if est is None or est.n == 0 or math.isnan(est.value):
        return "–"
    pct = outcome.shows_percent()
    scale = 100 if pct else 1
    half = scale * est.half_width()
    if pct:
        digits = 1
    elif math.isnan(half) or half <= 0:
        digits = 2
    else:          # to the interval's first significant digit, from none to three decimals
        digits = min(3, max(0, -math.floor(math.log10(half))))
    value = f"{scale * est.value:.{digits}f}" + ("%" if pct else "")
    return value if math.isnan(half) else f"{value} ±{half:.{digits}f}"


def headline_table(game: Game, rows: list[dict], configs: Configs, dims: list[str]) -> list[list[str]]:
    """Configurations as rows, named in words (the game's default first, then by player count, default rules and
    strategies before the others), the outcomes the rows flag as headlines as columns, and the games each played;
    the first row is the header."""
    shown = {r["outcome"] for r in rows if r["headline"]}
    outcomes = [o for o in game.outcomes() if o.name in shown]
    cells: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        cells.setdefault((r["players"], r["rules"], r["lineup"]), {})[r["outcome"]] = r
    default_lineup = lineup_label(game.lineup(None))

    def order(key):
        row = dict(zip(("players", "rules", "lineup"), key))
        return (not configs.is_default(row, dims), key[0], configs.rule(key[1]) != DEFAULT_RULES,
                key[2] != default_lineup, configs.text(row, dims))

    table = [["configuration", *[o.heading() for o in outcomes], "games"]]
    for key in sorted(cells, key=order):
        row = dict(zip(("players", "rules", "lineup"), key))
        games = max(r["estimate"].n for r in cells[key].values())
        table.append([configs.text(row, dims) or "all games",
                      *[compact(cells[key].get(o.name, {}).get("estimate"), o) for o in outcomes], f"{games:,}"])
    return table


def shared_text(rows: list[dict], configs: Configs, dims: list[str]) -> str:
    """What every configuration of the table has in common (the dimensions that do not vary), in words."""
    fixed = [d for d in ("players", "lineup", "rules") if d not in dims]
    return configs.text(rows[0], fixed) if rows and fixed else ""
