"""What the arms played against the rules as given changed (`sim.analysis.arms`), in words and as a tornado
chart: the shared pieces of the sensitivity and ablation reports."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.arms import Effect  # noqa: E402
from sim.engine.game import Game  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402


def units(kind: str, value: float) -> str:
    return f"{100 * value:.1f} points" if kind == "rate" else f"{value:.3g}"


def signed(e: Effect) -> str:
    """A paired change with its interval: "-5.0 points [-10.1, +0.1]" (rates) or "+0.31 [+0.12, +0.50]"."""
    d = e.result.diff
    if e.kind == "rate":
        return f"{100 * d.value:+.1f} points [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}]"
    return f"{d.value:+.3g} [{d.lo:+.3g}, {d.hi:+.3g}]"


def tornado(game: Game, rows, label: str, kind: str, chart: ChartSaver, name: str) -> str:
    """One bar per assumption from its lowest to its highest change, each alternative's interval on it."""
    scale = 100 if kind == "rate" else 1
    rows = rows[::-1]                                  # largest at the top
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.42 * len(rows)))
    for i, (key, _, es) in enumerate(rows):
        values = [e.result.diff.value * scale for e in es]
        ax.barh(i, max(values + [0]) - min(values + [0]), left=min(values + [0]), color="tab:blue", alpha=0.35)
        for e, v in zip(es, values):
            d = e.result.diff
            ax.errorbar([v], [i], xerr=[[v - d.lo * scale], [d.hi * scale - v]], fmt="o", color="tab:blue",
                        capsize=3, ms=4)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    unit = "percentage points" if kind == "rate" else "change"
    ax.set_xlabel(f"{label}: alternative minus as given ({unit}, paired 95% CI)")
    top = rows[-1]
    ax.set_title(f"{label} is most sensitive to {top[0]}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart(f"tornado_{name}", fig)
