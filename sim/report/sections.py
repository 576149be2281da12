"""Rendering of the report sections games declare (`sim.engine.sections`): configurations (the `config` column,
in words, in the report's order) as rows, measures as columns, split to fit the page (one configuration: its
measures as rows), every estimate with its interval, and a chart of the first few configurations whose title says
what it shows and whose axes have units. The same for every game."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.stats import Estimate, mean_from_moments  # noqa: E402
from sim.analysis.summary import estimates  # noqa: E402
from sim.engine.frames import collect, count, lazy  # noqa: E402
from sim.engine.sections import Histogram, Measure, Section, Series, Table  # noqa: E402
from sim.report import layout  # noqa: E402
from sim.report.charts import error_bars, legend_beside, whole_ticks  # noqa: E402
from sim.report.numbers import estimate_text  # noqa: E402

Frame = pl.DataFrame | pl.LazyFrame
CHARTED = 6         # configurations a section's chart shows (the table has them all)


def estimate(m: Measure, games: Frame) -> Estimate:
    """A measure over some games, in one streamed pass: Wilson for a rate, t for a mean; games where it is null
    do not count."""
    return estimates(games, [(m.expr, m.kind)])[0]


def shown(m: Measure, est: Estimate) -> str:
    """A measure's estimate as a table cell, read as the outcome tables read it (`estimate_text`)."""
    if est.n == 0:
        return ""
    return estimate_text(est, m.kind == "rate" or m.percent)


def groups(games: Frame) -> list[tuple[str, pl.LazyFrame]]:
    """(configuration in words, its games as a lazy scan), in the report's order (`config_order`) or, without it,
    in the order the configurations first appear."""
    games = lazy(games)
    names = games.collect_schema().names()
    if "config" not in names:
        return [("all games", games)]
    order = ["config_order"] if "config_order" in names else []
    found = collect(games.select("config", *order).unique(maintain_order=True))
    if order:
        found = found.sort("config_order", maintain_order=True)
    return [(name, games.filter(pl.col("config") == name)) for name in dict.fromkeys(found["config"].to_list())]


def by_configuration(heads: list[str], names: list[str], cells: list[list[str]], games: list[str]) -> list[str]:
    """A section's table: configurations as rows (measures as columns, split to fit the page); one configuration,
    its measures as rows. `cells[i][j]` is configuration i's measure j."""
    if len(names) == 1:
        return layout.table(["", names[0]], [[h, c] for h, c in zip(heads, cells[0])] + [["games", games[0]]])
    body = [[n, *row, g] for n, row, g in zip(names, cells, games)]
    return layout.fold(f"{len(names)} configurations", layout.table(["configuration", *heads, "games"], body),
                       len(names))


def charted(names: list) -> str:
    """What a chart of the first `CHARTED` configurations says it leaves out."""
    return f" (the first {CHARTED} of {len(names)} configurations, as in the table)" if len(names) > CHARTED else ""


def render(section: Section, games: Frame, chart) -> list[str]:
    if isinstance(section, Table):
        return render_table(section, games, chart)
    if isinstance(section, Series):
        return render_series(section, games, chart)
    return render_histogram(section, games, chart)


def render_table(t: Table, games: Frame, chart) -> list[str]:
    configs = groups(games)
    est = [estimates(g, [(m.expr, m.kind) for m in t.measures]) for _, g in configs]
    names = [c for c, _ in configs]
    lines = [f"## {t.title}", ""] + ([t.note, ""] if t.note else [])
    lines += by_configuration([m.label for m in t.measures], names,
                              [[shown(m, e[i]) for i, m in enumerate(t.measures)] for e in est],
                              [f"{count(g):,}" for _, g in configs]) + [""]
    if t.chart == "none" or not any(e.n for row in est for e in row):
        return lines
    return lines + [_table_chart(t, names[:CHARTED], est[:CHARTED], chart, charted(names)), ""]


def _table_chart(t: Table, names: list[str], est: list[list[Estimate]], chart, left_out: str = "") -> str:
    pct = all(m.kind == "rate" or m.percent for m in t.measures)
    scale = 100 if pct else 1
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.24 * len(t.measures) * max(1, min(len(names), 4))))
    if t.chart == "stacked":
        left = np.zeros(len(names))
        for i, m in enumerate(t.measures):
            share = np.array([row[i].value if row[i].n else 0.0 for row in est]) * scale
            ax.barh(range(len(names)), share, left=left, label=m.label)
            left += share
        ax.set_yticks(range(len(names)), names, fontsize=8)
        ax.invert_yaxis()
        legend_beside(ax)
        unit = t.unit or ("% of games" if pct else "per game")
    else:
        height = 0.8 / len(names)
        for j, (name, row) in enumerate(zip(names, est)):
            ys = np.arange(len(t.measures)) + j * height
            ax.barh(ys, [e.value * scale if e.n else 0 for e in row], height,
                    xerr=error_bars(row, scale), capsize=2, label=name)
        ax.set_yticks(np.arange(len(t.measures)) + 0.4 - height / 2, [m.label for m in t.measures], fontsize=8)
        ax.invert_yaxis()
        if len(names) > 1:
            legend_beside(ax, fontsize=7)
        unit = t.unit or ("% of games (95% interval)" if pct else "per game (95% interval)")
    ax.set_xlabel(unit)
    ax.set_title(t.title + left_out, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart(t.name, fig)


def render_series(s: Series, games: Frame, chart) -> list[str]:
    """Configurations as rows and the axis (seat, position) as columns; a line per configuration charted."""
    configs = groups(games)
    lines = [f"## {s.title}", ""] + ([s.note, ""] if s.note else [])
    fig, ax = plt.subplots(figsize=(7, 3.6))
    table: dict[str, dict[object, str]] = {}
    for k, (name, g) in enumerate(configs):
        points = s.points(g)
        est = estimates(g, [(m.expr, m.kind) for _, m in points])
        table[name] = {x: shown(m, e) for (x, m), e in zip(points, est)}
        if k >= CHARTED:
            continue
        scale = 100 if points and (points[0][1].kind == "rate" or points[0][1].percent) else 1
        xs = [x for x, _ in points]
        ax.errorbar(xs, [e.value * scale for e in est], yerr=error_bars(est, scale), marker="o", capsize=3, label=name)
        if s.reference is not None and s.reference(g) is not None:
            ax.axhline(s.reference(g) * scale, color="gray", lw=0.8, ls="--")
    names = [c for c, _ in configs]
    xs = list(dict.fromkeys(x for row in table.values() for x in row))
    head = ["configuration", *map(str, xs)]
    body = [[n, *[table[n].get(x, "") for x in xs]] for n in names]
    lines += [f"Columns: {s.xlabel}.", ""]
    lines += layout.fold(f"{len(names)} configurations", layout.table(head, body), len(names)) + [""]
    ax.set_xlabel(s.xlabel)
    ax.set_ylabel(s.ylabel)
    if all(isinstance(x, (int, np.integer)) for x in xs):
        whole_ticks(ax)
    ax.set_title(s.title + ("; dashed: fair share" if s.reference else "") + charted(names), fontsize=10)
    ax.grid(alpha=0.3)
    if len(names) > 1:
        legend_beside(ax, fontsize=7)
    return lines + [chart(s.name, fig), ""]


MAX_DISTINCT = 20_000      # more distinct values than this: the histogram is binned and its median approximate


def value_counts(games: pl.LazyFrame, expr: pl.Expr) -> tuple[np.ndarray, np.ndarray, bool]:
    """The distinct values of a per-game quantity and how many games took each (sorted), computed by streaming;
    with too many distinct values, 400 equal bins (centres and counts) instead, and False for `exact`."""
    x = expr.cast(pl.Float64).fill_nan(None).alias("x")
    values = games.select(x).drop_nulls()
    distinct = int(collect(values.select(pl.col("x").n_unique())).item())
    exact = distinct <= MAX_DISTINCT
    if not exact:
        lo, hi = collect(values.select(pl.col("x").min().alias("lo"), pl.col("x").max().alias("hi"))).row(0)
        width = (hi - lo) / 400 or 1.0
        values = values.select((lo + ((pl.col("x") - lo) / width).floor().clip(0, 399) * width + width / 2).alias("x"))
    table = collect(values.group_by("x").agg(pl.len().alias("n")).sort("x"))
    return table["x"].to_numpy(), table["n"].to_numpy().astype(np.int64), exact


def quantile_of_counts(values: np.ndarray, counts: np.ndarray, q: float = 0.5) -> float:
    """The q-quantile of the games from their value counts, interpolated as numpy's default (`linear`) does."""
    cum = np.cumsum(counts)
    h = (int(cum[-1]) - 1) * q
    k = int(np.floor(h))
    lo, hi = values[np.searchsorted(cum, k + 1)], values[np.searchsorted(cum, min(k + 2, cum[-1]))]
    return float(lo + (h - k) * (hi - lo))


def render_histogram(h: Histogram, games: Frame, chart) -> list[str]:
    configs = groups(games)
    lines = [f"## {h.title}", ""] + ([h.note, ""] if h.note else [])
    body = []
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for k, (name, g) in enumerate(configs):
        values, counts, exact = value_counts(g, h.expr)
        if not len(values):
            continue
        n = int(counts.sum())
        mean = mean_from_moments(float((values * counts).sum()), float((values * values * counts).sum()), n,
                                 lower=0.0 if values.min() >= 0 else None)
        median = f"{quantile_of_counts(values, counts):g}" if exact else f"≈ {quantile_of_counts(values, counts):.{h.digits}f}"
        body.append([name, mean.fmt(digits=h.digits), median, f"{n:,}"])
        if k >= CHARTED:
            continue
        if h.integer:
            lo = int(np.floor(values.min()))
            hi = min(int(np.ceil(values.max())), lo + h.cap)
            bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
        else:
            bins = np.linspace(values.min(), values.max(), 41) if values.max() > values.min() else 1
        ax.hist(values, bins=bins, weights=counts * 100.0 / n, histtype="step", label=name)
    lines += layout.fold(f"{len(body)} configurations",
                         layout.table(["configuration" if len(body) > 1 else "", "mean [95% CI]", "median", "games"],
                                      body), len(body))
    ax.set_xlabel(h.xlabel)
    ax.set_ylabel("% of games")
    if h.integer:
        whole_ticks(ax)
    ax.set_title(h.title + charted([c for c, _ in configs]), fontsize=10)
    if len(configs) > 1:
        legend_beside(ax, fontsize=7)
    return lines + ["", chart(h.name, fig), ""]
