"""Reading the games of any number of runs without holding them: lazy scans, aggregated by polars' streaming
engine, so memory stays flat however many games there are."""

from __future__ import annotations

import polars as pl


def lazy(frame: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    return frame.lazy() if isinstance(frame, pl.DataFrame) else frame


def collect(frame: pl.LazyFrame) -> pl.DataFrame:
    """A small result (aggregates, counts) of a scan over any number of games, streamed chunk by chunk so that no
    column of the games is ever held whole in memory."""
    return frame.collect(engine="streaming")


def columns(frame: pl.DataFrame | pl.LazyFrame) -> list[str]:
    return lazy(frame).collect_schema().names()


def first(frame: pl.DataFrame | pl.LazyFrame, column: str):
    """The value of `column` in the first game (e.g. the player count of one configuration's games)."""
    return collect(lazy(frame).select(pl.col(column).first())).item()


def count(frame: pl.DataFrame | pl.LazyFrame) -> int:
    return int(collect(lazy(frame).select(pl.len())).item())
