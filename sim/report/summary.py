"""Outcome estimates (`sim.analysis.summary.summarize`) as text: one estimate with its interval, and the compact
table `dsim report` prints on the terminal (configurations as rows, the default first; headline outcomes as
columns), and the order of configurations every table of a report shares."""

from __future__ import annotations

import math

from sim.analysis.stats import Estimate
from sim.engine.game import Game, Outcome
from sim.report.labels import Configs
from sim.report.numbers import estimate_text, mean_digits


def fmt(est: Estimate, kind: str) -> str:
    return estimate_text(est, kind == "rate")


def compact(est: Estimate | None, outcome: Outcome) -> str:
    """A value and half its 95% interval, with one decimal ("54.7% ±0.7", "3.6 ±0.2", "3.6 ±<0.1"), short enough for a terminal column; "–"
    where the outcome does not apply to a configuration (no game counts towards it)."""
    if est is None or est.n == 0 or math.isnan(est.value):
        return "–"
    pct = outcome.shows_percent()
    scale = 100 if pct else 1
    half = scale * est.half_width()
    digits = 1 if pct else mean_digits(est.value, half)
    value = f"{scale * est.value:.{digits}f}" + ("%" if pct else "")
    if math.isnan(half):
        return value
    return f"{value} ±{half:.{digits}f}" if round(half, digits) > 0 else f"{value} ±<{10 ** -digits:g}"


KEYS = ("players", "rules", "lineup")


def ordered(game: Game, rows: list[dict], configs: Configs, dims: list[str]) -> list[tuple]:
    """The configurations (players, rules, lineup) of the rows in the order every table shows them: the game's
    default first, then by player count, then by the effect: the first headline outcome's value, highest first
    (what applies to none of them last)."""
    cells: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        cells.setdefault((r["players"], r["rules"], r["lineup"]), {})[r["outcome"]] = r
    heads = [o.name for o in game.outcomes() if any(r["headline"] and r["outcome"] == o.name for r in rows)]

    def effect(key) -> float:
        est = next((cells[key][n]["estimate"] for n in heads if n in cells[key]), None)
        return -est.value if est is not None and est.n and not math.isnan(est.value) else math.inf

    def order(key):
        row = dict(zip(KEYS, key))
        return (not configs.is_default(row, dims), key[0], effect(key), configs.text(row, dims))
    return sorted(cells, key=order)


def headline_table(game: Game, rows: list[dict], configs: Configs, dims: list[str]) -> list[list[str]]:
    """Configurations as rows, named in words, in `ordered`'s order; the outcomes the rows flag as headlines as
    columns, and the games each played; the first row is the header."""
    shown = {r["outcome"] for r in rows if r["headline"]}
    outcomes = [o for o in game.outcomes() if o.name in shown]
    cells: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        cells.setdefault((r["players"], r["rules"], r["lineup"]), {})[r["outcome"]] = r
    table = [["configuration", *[o.heading() for o in outcomes], "games"]]
    for key in ordered(game, rows, configs, dims):
        row = dict(zip(KEYS, key))
        games = max(r["estimate"].n for r in cells[key].values())
        table.append([configs.text(row, dims) or "all games",
                      *[compact(cells[key].get(o.name, {}).get("estimate"), o) for o in outcomes], f"{games:,}"])
    return table


def shared_text(rows: list[dict], configs: Configs, dims: list[str]) -> str:
    """What every configuration of the table has in common (the dimensions that do not vary), in words."""
    fixed = [d for d in ("players", "lineup", "rules") if d not in dims]
    return configs.text(rows[0], fixed) if rows and fixed else ""


def terminal_table(game: Game, rows: list[dict], configs: Configs, dims: list[str]) -> tuple[list[list[str]], str]:
    """`dsim report`'s table and the note above it. What every row shares goes to the note; a single configuration
    is named there whole and its row reads "all games", so that its words do not fold down a narrow first column
    beside several headline columns."""
    if len({(r["players"], r["rules"], r["lineup"]) for r in rows}) == 1:
        dims = []
    table = headline_table(game, rows, configs, dims)
    shared = shared_text(rows, configs, dims)
    note = [(f"The games: {shared}." if len(table) == 2 else f"In every row: {shared}.")] if shared else []
    if any(cell == "–" for row in table[1:] for cell in row):
        note.append("–: does not apply to that row's games.")
    return table, " ".join(note)
