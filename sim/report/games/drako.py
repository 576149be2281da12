"""Drako's own report sections: the dragon's win rate for every pairing of strategies in the results, and the
assumed values the figures rest on."""

from __future__ import annotations

import polars as pl

from sim.analysis.stats import wilson
from sim.engine.frames import collect, columns, lazy
from sim.report import layout


def sections(games: pl.DataFrame, chart, tables=None) -> list[str]:
    return [matrix_section(games), ASSUMPTIONS]


ASSUMPTIONS = (
    "## What the Drako figures rest on\n\n"
    "The rulebook's pictures are lost, so several values these figures depend on are assumptions "
    "(their values in these runs are listed in the appendix): unless a run turns on free placement, the dwarves "
    "start on the assumed first-game hexes (`dwarf_start`); the dwarves' wound spaces (`dwarf_spaces`), the "
    "dragon's ability spaces and both decks are assumed too. `dsim sensitivity --game drako` plays each "
    "alternative.\n")


def _sides(lineup: str) -> tuple[str, str]:
    """(dragon strategy, dwarf strategy) from a lineup label."""
    if lineup.startswith("dragon-") and "_dwarves-" in lineup:
        d, w = lineup[len("dragon-"):].split("_dwarves-", 1)
        return d, w
    return lineup, lineup


def matrix_section(games: pl.DataFrame | pl.LazyFrame) -> str:
    """Dragon win rate for every pairing of strategies found in the results."""
    if "lineup" not in columns(games):
        return ""
    rows = collect(lazy(games).group_by("lineup").agg(pl.len().alias("n"), pl.col("dragon_win").sum().alias("wins")))
    if rows.height < 2:
        return ""
    cells, dragons, dwarves = {}, set(), set()
    for lineup, n, wins in rows.iter_rows():
        d, w = _sides(lineup)
        dragons.add(d)
        dwarves.add(w)
        cells[(d, w)] = wilson(int(wins), int(n))
    dragons, dwarves = sorted(dragons), sorted(dwarves)
    lines = ["## Dragon win rate by strategy pairing", "",
             "Rows: the dragon's strategy; columns: the dwarves'. 95% Wilson intervals.", ""]
    lines += layout.table(["dragon \\ dwarves", *dwarves],
                          [[d, *[cells[(d, w)].fmt(pct=True, digits=1) if (d, w) in cells else "not played"
                                 for w in dwarves]] for d in dragons])
    return "\n".join(lines) + "\n"
