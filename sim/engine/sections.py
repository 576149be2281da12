"""Report sections a game declares instead of writing: a table of measures by configuration, a measure along an
axis (seat, position), a histogram. They are data, part of the Game API (`Game.report_tables`); the report layer
(`sim.report.sections`) renders each the same way for every game: configurations (the `config` column, in words)
as rows, measures as columns, every estimate with its interval, and a chart whose title says what it shows and
whose axes have units."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sim.engine.lazy_polars import pl


@dataclass(frozen=True)
class Measure:
    """A per-game quantity: a 0/1 rate (Wilson interval) or a mean (t interval); null where it does not apply."""

    label: str
    expr: pl.Expr
    kind: str = "rate"
    percent: bool = False         # a mean of shares, shown as a percentage


@dataclass(frozen=True)
class Table:
    """Configurations as rows, measures as columns, and a chart: grouped bars with intervals, or stacked shares
    when the measures are the parts of a whole (how games end)."""

    title: str
    measures: list[Measure]
    name: str                     # chart file name
    note: str = ""
    chart: str = "bars"           # "bars", "stacked" or "none"
    unit: str = ""                # the x axis of the chart


@dataclass(frozen=True)
class Series:
    """One measure along an axis (seat, position in the round): a line per configuration, with intervals."""

    title: str
    name: str
    xlabel: str
    ylabel: str
    points: Callable[[pl.DataFrame], list[tuple[object, Measure]]]    # games of one configuration -> (x, measure)
    note: str = ""
    reference: Callable[[pl.DataFrame], float | None] | None = None   # e.g. a fair share for these games


@dataclass(frozen=True)
class Histogram:
    """The distribution of a per-game value, one outline per configuration, with its mean and median."""

    title: str
    name: str
    expr: pl.Expr
    xlabel: str
    note: str = ""
    integer: bool = True          # one bin per whole value
    cap: int = 60                 # the widest range of whole values shown
    digits: int = 1


Section = Table | Series | Histogram
