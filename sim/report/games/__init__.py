"""A game's own report sections, beyond the declarative ones every game has (`Game.report_tables`, rendered by
`sim.report.sections`): `sim/report/games/<name>.py`, found by the game's name, with
`sections(games, chart, tables) -> list[str]` (Markdown, charts saved through `chart(name, fig)`), and, where
the game has answers of its own that belong at the top of its report (each card's weight, the strongest
faction), `findings(games, tables) -> list[str]`, and `VALUES` naming the coded values of the columns its report
splits by (`{"mode": ("normal", ...)}`). A game without such a module adds nothing. These modules may import
the engine, the games, analysis and the rest of the report layer."""

from __future__ import annotations

import polars as pl

from sim.engine.game import optional_module


def sections(game, games: pl.DataFrame, chart, tables: dict[str, pl.LazyFrame] | None = None) -> list[str]:
    """The game's own sections of its balance report; `tables` holds the game's other result tables (e.g.
    `rounds`), lazily, filtered to this game."""
    module = optional_module(f"{__name__}.{game.name}")
    return [] if module is None else module.sections(games, chart, tables)


def findings(game, games: pl.LazyFrame, tables: dict[str, pl.LazyFrame] | None = None) -> list[str]:
    """The game's own answers, as sentences for the top of its report (none without a module or a `findings`)."""
    module = optional_module(f"{__name__}.{game.name}")
    return [] if module is None or not hasattr(module, "findings") else module.findings(games, tables)


def value_names(game) -> dict[str, tuple[str, ...]]:
    """The names of a game's coded column values (its module's `VALUES`), for headings in words."""
    module = optional_module(f"{__name__}.{game.name}")
    return getattr(module, "VALUES", {}) if module is not None else {}
