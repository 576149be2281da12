"""Rendering of the report sections games declare (`sim.engine.sections`): measures as rows, configurations (the
`config` column, in words) as columns, every estimate with its interval, and a chart whose title says what it
shows and whose axes have units. The same for every game."""

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
from sim.report.charts import error_bars  # noqa: E402

Frame = pl.DataFrame | pl.LazyFrame


def estimate(m: Measure, games: Frame) -> Estimate:
    """A measure over some games, in one streamed pass: Wilson for a rate, t for a mean; games where it is null
    do not count."""
    return estimates(games, [(m.expr, m.kind)])[0]


def shown(m: Measure, est: Estimate) -> str:
    """A measure's estimate as a table cell."""
    if est.n == 0:
        return ""
    if m.kind == "rate" or m.percent:
        return est.fmt(pct=True, digits=1)
    return est.fmt(digits=m.digits)


def groups(games: Frame) -> list[tuple[str, pl.LazyFrame]]:
    """(configuration in words, its games as a lazy scan), in the order the configurations first appear."""
    games = lazy(games)
    if "config" not in games.collect_schema().names():
        return [("all games", games)]
    names = collect(games.select(pl.col("config").unique(maintain_order=True)))["config"].to_list()
    return [(name, games.filter(pl.col("config") == name)) for name in names]


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
    lines += ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for i, m in enumerate(t.measures):
        lines.append(f"| {m.label} | " + " | ".join(shown(m, e[i]) for e in est) + " |")
    lines += ["| games | " + " | ".join(f"{count(g):,}" for _, g in configs) + " |", ""]
    if t.chart == "none" or not any(e.n for row in est for e in row):
        return lines
    return lines + [_table_chart(t, names, est, chart), ""]


def _table_chart(t: Table, names: list[str], est: list[list[Estimate]], chart) -> str:
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
        ax.legend(fontsize=8, loc="lower right")
    else:
        height = 0.8 / len(names)
        for j, (name, row) in enumerate(zip(names, est)):
            ys = np.arange(len(t.measures)) + j * height
            ax.barh(ys, [e.value * scale if e.n else 0 for e in row], height,
                    xerr=error_bars(row, scale), capsize=2, label=name)
        ax.set_yticks(np.arange(len(t.measures)) + 0.4 - height / 2, [m.label for m in t.measures], fontsize=8)
        ax.invert_yaxis()
        if len(names) > 1:
            ax.legend(fontsize=7)
    ax.set_xlabel(t.unit or ("% of games (95% interval)" if pct else "per game (95% interval)"))
    ax.set_title(t.title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart(t.name, fig)


def render_series(s: Series, games: Frame, chart) -> list[str]:
    configs = groups(games)
    lines = [f"## {s.title}", ""] + ([s.note, ""] if s.note else [])
    fig, ax = plt.subplots(figsize=(7, 3.6))
    table: dict[object, dict[str, str]] = {}
    for name, g in configs:
        points = s.points(g)
        est = estimates(g, [(m.expr, m.kind) for _, m in points])
        scale = 100 if points and (points[0][1].kind == "rate" or points[0][1].percent) else 1
        xs = [x for x, _ in points]
        ax.errorbar(xs, [e.value * scale for e in est], yerr=error_bars(est, scale), marker="o", capsize=3, label=name)
        for (x, m), e in zip(points, est):
            table.setdefault(x, {})[name] = shown(m, e)
        if s.reference is not None and s.reference(g) is not None:
            ax.axhline(s.reference(g) * scale, color="gray", lw=0.8, ls="--")
    names = [c for c, _ in configs]
    lines += [f"| {s.xlabel} | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    lines += [f"| {x} | " + " | ".join(row.get(n, "") for n in names) + " |" for x, row in table.items()]
    ax.set_xlabel(s.xlabel)
    ax.set_ylabel(s.ylabel)
    ax.set_title(s.title + ("; dashed: fair share" if s.reference else ""), fontsize=10)
    ax.grid(alpha=0.3)
    if len(names) > 1:
        ax.legend(fontsize=7)
    return lines + ["", chart(s.name, fig), ""]


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
    lines += ["| | mean [95% CI] | median | games |", "|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for name, g in configs:
        values, counts, exact = value_counts(g, h.expr)
        if not len(values):
            continue
        n = int(counts.sum())
        mean = mean_from_moments(float((values * counts).sum()), float((values * values * counts).sum()), n)
        median = f"{quantile_of_counts(values, counts):g}" if exact else f"≈ {quantile_of_counts(values, counts):.{h.digits}f}"
        lines.append(f"| {name} | {mean.fmt(digits=h.digits)} | {median} | {n:,} |")
        if h.integer:
            lo = int(np.floor(values.min()))
            hi = min(int(np.ceil(values.max())), lo + h.cap)
            bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
        else:
            bins = np.linspace(values.min(), values.max(), 41) if values.max() > values.min() else 1
        ax.hist(values, bins=bins, weights=counts, histtype="step", density=True, label=name)
    ax.set_xlabel(h.xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(h.title, fontsize=10)
    if len(configs) > 1:
        ax.legend(fontsize=7)
    return lines + ["", chart(h.name, fig), ""]
