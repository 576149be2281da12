"""Rendering of the report sections games declare (`sim.engine.sections`): measures as rows, configurations (the
`config` column, in words) as columns, every estimate with its interval, and a chart whose title says what it
shows and whose axes have units. The same for every game."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.stats import Estimate, mean_ci, wilson  # noqa: E402
from sim.engine.sections import Histogram, Measure, Section, Series, Table  # noqa: E402
from sim.report.charts import error_bars  # noqa: E402


def estimate(m: Measure, games: pl.DataFrame) -> Estimate:
    """A measure over some games: Wilson for a rate, t for a mean; games where it is null do not count."""
    x = games.select(m.expr.cast(pl.Float64)).to_series().drop_nulls().drop_nans().to_numpy()
    if m.kind == "rate":
        return wilson(int(round(x.sum())), len(x))
    return mean_ci(x)


def shown(m: Measure, est: Estimate) -> str:
    """A measure's estimate as a table cell."""
    if est.n == 0:
        return ""
    if m.kind == "rate" or m.percent:
        return est.fmt(pct=True, digits=1)
    return est.fmt(digits=m.digits)


def groups(games: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """(configuration in words, its games), in the order the configurations first appear."""
    if "config" not in games.columns:
        return [("all games", games)]
    return [(key[0], g) for key, g in games.group_by(["config"], maintain_order=True)]


def render(section: Section, games: pl.DataFrame, chart) -> list[str]:
    if isinstance(section, Table):
        return render_table(section, games, chart)
    if isinstance(section, Series):
        return render_series(section, games, chart)
    return render_histogram(section, games, chart)


def render_table(t: Table, games: pl.DataFrame, chart) -> list[str]:
    configs = groups(games)
    est = [[estimate(m, g) for m in t.measures] for _, g in configs]
    names = [c for c, _ in configs]
    lines = [f"## {t.title}", ""] + ([t.note, ""] if t.note else [])
    lines += ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for i, m in enumerate(t.measures):
        lines.append(f"| {m.label} | " + " | ".join(shown(m, e[i]) for e in est) + " |")
    lines += ["| games | " + " | ".join(f"{g.height:,}" for _, g in configs) + " |", ""]
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


def render_series(s: Series, games: pl.DataFrame, chart) -> list[str]:
    configs = groups(games)
    lines = [f"## {s.title}", ""] + ([s.note, ""] if s.note else [])
    fig, ax = plt.subplots(figsize=(7, 3.6))
    table: dict[object, dict[str, str]] = {}
    for name, g in configs:
        points = s.points(g)
        est = [estimate(m, g) for _, m in points]
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


def render_histogram(h: Histogram, games: pl.DataFrame, chart) -> list[str]:
    configs = groups(games)
    lines = [f"## {h.title}", ""] + ([h.note, ""] if h.note else [])
    lines += ["| | mean [95% CI] | median | games |", "|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for name, g in configs:
        x = g.select(h.expr.cast(pl.Float64)).to_series().drop_nulls().drop_nans().to_numpy()
        if not len(x):
            continue
        lines.append(f"| {name} | {mean_ci(x).fmt(digits=h.digits)} | {np.median(x):g} | {len(x):,} |")
        if h.integer:
            lo = int(np.floor(x.min()))
            hi = min(int(np.ceil(x.max())), lo + h.cap)
            bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
        else:
            bins = 40
        ax.hist(x, bins=bins, histtype="step", density=True, label=name)
    ax.set_xlabel(h.xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(h.title, fontsize=10)
    if len(configs) > 1:
        ax.legend(fontsize=7)
    return lines + ["", chart(h.name, fig), ""]
