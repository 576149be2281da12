"""`dsim sweep`'s report: each headline outcome's lowest and highest point of the grid, then one table (the grid's
points as rows, in grid order; outcomes as columns, split to fit the page) and an interval-band chart per outcome
(the headline ones shown, the others folded); beside it the grid's estimates (Parquet)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.analysis.sweep import Sweep  # noqa: E402
from sim.engine.game import Game  # noqa: E402
from sim.report import layout, numbers  # noqa: E402
from sim.report.charts import ChartSaver, fit_span, legend_beside  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.findings import fmt  # noqa: E402
from sim.report.labels import point_words, rule_words  # noqa: E402


def write(s: Sweep, to: Path) -> Path:
    """`sweep_<game>.md` and its HTML twin, a chart per outcome, and `.parquet` (every point's estimates)."""
    game, base, keys, rows = s.game, s.base, s.keys, s.rows
    to.mkdir(parents=True, exist_ok=True)
    s.table().write_parquet(to / f"sweep_{game.name}.parquet")
    chart = ChartSaver(to, f"sweep_{game.name}")
    lines = [f"# {game.title}: sweep over {', '.join(rule_words(k) for k in keys)}", "", "## Findings", "",
             *[f"- {f}" for f in sweep_findings(game, keys, rows)], "",
             f"{base.n:,} games per point" + ("" if "players" in keys else f", {base.players} players")
             + f", seed {base.seed} (every point plays the same "
             "seeds); 95% intervals.", ""]
    lines += ["## Every point of the grid", "", *grid_table(game, keys, rows), ""]
    for o in game.outcomes():
        sel = [r for r in rows if r["outcome"] == o.name]
        if not sel:
            continue
        section = [band_chart(game, keys, sel, o, chart), ""]
        lines += [f"## {o.label or o.name}", "", *(section if o.headline else layout.fold("the chart", section))]
    return write_report(to, f"sweep_{game.name}", "\n".join(lines), game.title)


def figures(s: Sweep) -> dict:
    """--format json: every point of the grid with every outcome's estimate as numbers."""
    outcomes = {o.name: o for o in s.game.outcomes()}
    points: dict[str, tuple[dict, list]] = {}
    for r in s.rows:
        o = outcomes[r["outcome"]]
        point = {k: r[k] for k in s.keys}
        points.setdefault(repr(point), (point, []))[1].append(
            {"outcome": o.name, "label": o.label, "headline": o.headline,
             **numbers.estimate(r["estimate"], o.shows_percent())})
    return {"keys": s.keys, "games_per_point": s.base.n,
            "points": [{"point": point, "outcomes": found} for point, found in points.values()]}


def grid_table(game: Game, keys: list[str], rows: list[dict]) -> list[str]:
    """The grid's points as rows (in grid order), every outcome's estimate as a column, headline outcomes first."""
    outcomes = sorted([o for o in game.outcomes() if any(r["outcome"] == o.name for r in rows)],
                      key=lambda o: not o.headline)
    values = {tuple(str(r[k]) for k in keys): tuple(r[k] for k in keys) for r in rows}    # in grid order
    cells = {(tuple(str(r[k]) for k in keys), r["outcome"]): r for r in rows}
    points = list(values)
    body = [[point_words(keys, values[point]),
             *[fmt(cells[point, o.name]["estimate"], o) if (point, o.name) in cells
               else "–" for o in outcomes]] for point in points]
    head = ["point", *[f"**{o.heading()}**" if o.headline else o.heading() for o in outcomes]]
    return layout.fold(f"{len(points)} points", layout.table(head, body), len(points))


def sweep_findings(game: Game, keys: list[str], rows: list[dict]) -> list[str]:
    """For each headline outcome: its lowest and highest point of the grid, and whether they differ."""
    out = []
    for o in game.outcomes():
        if not o.headline:
            continue
        sel = [r for r in rows if r["outcome"] == o.name]
        if not sel:
            continue
        low = min(sel, key=lambda r: r["estimate"].value)
        high = max(sel, key=lambda r: r["estimate"].value)
        def at(r):
            return point_words(keys, [r[k] for k in keys])
        apart = high["estimate"].lo > low["estimate"].hi
        out.append(f"{o.label or o.name}: from {fmt(low['estimate'], o)} at {at(low)} to "
                   f"{fmt(high['estimate'], o)} at {at(high)}"
                   + ("." if apart else "; the grid's points cannot be told apart."))
    return out


def band_chart(game, keys, rows, outcome, chart) -> str:
    """The outcome against the first parameter, one line (with its interval band) per other setting."""
    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    others = sorted({tuple(str(r[k]) for k in keys[1:]) for r in rows})
    numeric = all(isinstance(r[keys[0]], (int, float)) for r in rows)
    for other in others:
        sel = [r for r in rows if tuple(str(r[k]) for k in keys[1:]) == other]
        xs = [r[keys[0]] if numeric else i for i, r in enumerate(sel)]
        scale = 100 if outcome.shows_percent() else 1
        ys = np.array([r["estimate"].value for r in sel]) * scale
        lo = np.array([r["estimate"].lo for r in sel]) * scale
        hi = np.array([r["estimate"].hi for r in sel]) * scale
        label = point_words(keys[1:], [sel[0][k] for k in keys[1:]]) or None
        ax.plot(xs, ys, marker="o", label=label)
        ax.fill_between(xs, lo, hi, alpha=0.25)
        if not numeric:
            ax.set_xticks(xs, [str(r[keys[0]]) for r in sel], rotation=20, fontsize=8)
    if numeric and all(isinstance(r[keys[0]], int) for r in rows):
        ax.set_xticks(sorted({r[keys[0]] for r in rows}))
    ax.set_xlabel(rule_words(keys[0]))
    pct = outcome.shows_percent()
    ax.set_ylabel((outcome.label or outcome.name) + (" (%; band: 95% interval)" if pct else " (band: 95% interval)"))
    values = [r["estimate"].value for r in rows if r["estimate"].n]
    if values:
        fit_span(ax, 5.0 if pct else 0.1 * max(abs(v) for v in values) or 1.0, "y", (0.0, 100.0) if pct else None)
    ax.set_title(f"{game.title}: {outcome.label or outcome.name}")
    if len(others) > 1:
        legend_beside(ax)
    ax.grid(alpha=0.3)
    return chart(outcome.name, fig)
