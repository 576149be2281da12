"""`dsim sweep`'s report: each headline outcome's lowest and highest point of the grid, then a table and an
interval-band chart per outcome; beside it the grid's estimates (Parquet)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.analysis.sweep import Sweep  # noqa: E402
from sim.engine.game import Game  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.summary import fmt  # noqa: E402


def write(s: Sweep, to: Path) -> Path:
    """`sweep_<game>.md` and its HTML twin, a chart per outcome, and `.parquet` (every point's estimates)."""
    game, base, keys, rows = s.game, s.base, s.keys, s.rows
    to.mkdir(parents=True, exist_ok=True)
    s.table().write_parquet(to / f"sweep_{game.name}.parquet")
    chart = ChartSaver(to, f"sweep_{game.name}")
    lines = [f"# {game.title}: sweep over {', '.join(keys)}", "", "## Findings", "",
             *[f"- {f}" for f in sweep_findings(game, keys, rows)], "",
             f"{base.n:,} games per point" + ("" if "players" in keys else f", {base.players} players")
             + f", seed {base.seed} (every point plays the same "
             "seeds); 95% intervals.", ""]
    for o in game.outcomes():
        sel = [r for r in rows if r["outcome"] == o.name]
        lines += [f"## {o.label or o.name}", "", "| " + " | ".join(keys) + " | estimate [95% CI] |",
                  "|" + "---|" * (len(keys) + 1)]
        lines += ["| " + " | ".join(str(r[k]) for k in keys) + f" | {fmt(r['estimate'], r['kind'])} |" for r in sel]
        lines += ["", band_chart(game, keys, sel, o, chart), ""]
    return write_report(to, f"sweep_{game.name}", "\n".join(lines), game.title)


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
            return ", ".join(f"{k}={r[k]}" for k in keys)
        apart = high["estimate"].lo > low["estimate"].hi
        out.append(f"{o.label or o.name}: from {fmt(low['estimate'], low['kind'])} at {at(low)} to "
                   f"{fmt(high['estimate'], high['kind'])} at {at(high)}"
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
        scale = 100 if outcome.kind == "rate" else 1
        ys = np.array([r["estimate"].value for r in sel]) * scale
        lo = np.array([r["estimate"].lo for r in sel]) * scale
        hi = np.array([r["estimate"].hi for r in sel]) * scale
        label = ", ".join(f"{k}={v}" for k, v in zip(keys[1:], other)) or None
        ax.plot(xs, ys, marker="o", label=label)
        ax.fill_between(xs, lo, hi, alpha=0.25)
        if not numeric:
            ax.set_xticks(xs, [str(r[keys[0]]) for r in sel], rotation=20, fontsize=8)
    if numeric and all(isinstance(r[keys[0]], int) for r in rows):
        ax.set_xticks(sorted({r[keys[0]] for r in rows}))
    ax.set_xlabel(keys[0])
    ax.set_ylabel((outcome.label or outcome.name) + (" (%)" if outcome.kind == "rate" else ""))
    ax.set_title(f"{game.title}: {outcome.label or outcome.name}")
    if len(others) > 1:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return chart(outcome.name, fig)
