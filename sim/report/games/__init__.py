"""A game's own report sections, beyond the declarative ones every game has (`Game.report_tables`, rendered by
`sim.report.sections`): `sim/report/games/<name>.py`, found by the game's name, with
`sections(games, chart, tables) -> list[str]` (Markdown, charts saved through `chart(name, fig)`). A game
without such a module adds nothing. These modules may import the engine, the games, analysis and the rest of
the report layer."""

from __future__ import annotations

import importlib

import polars as pl


def sections(game, games: pl.DataFrame, chart, tables: dict[str, pl.LazyFrame] | None = None) -> list[str]:
    """The game's own sections of its balance report; `tables` holds the game's other result tables (e.g.
    `rounds`), lazily, filtered to this game."""
    name = f"{__name__}.{game.name}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return []
    return module.sections(games, chart, tables)
