"""What the arms played against the rules as given changed (`sim.analysis.arms`), in words and as a tornado
chart: the shared pieces of the sensitivity and ablation reports. Every interval shown is the family's
(simultaneous over the arms of each headline outcome), and every verdict and colour is read off it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.arms import Effect  # noqa: E402
from sim.analysis.compare import family_name  # noqa: E402
from sim.analysis.intervals_family import ElementFamily  # noqa: E402
from sim.engine.game import Game  # noqa: E402
from sim.report import numbers  # noqa: E402
from sim.report.changes import change_text, family_reading  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402


def units(kind: str, value: float) -> str:
    return f"{100 * value:.1f} points" if kind == "rate" else f"{value:.3g}"


def signed(e: Effect) -> str:
    """A change with its family interval: "-5.0 points [-10.1, 0)" (rates) or "+0.31 [+0.12, +0.50]"; the exact
    bound when no game changed."""
    return change_text(e.result, e.shown, e.kind)


def effect_figures(effects: list[Effect], key_name: str, groups: dict | None = None) -> list[dict]:
    """--format json: each arm's change to each headline outcome (points for rates and shares), its verdict and
    its place in the ranking."""
    return [{key_name: e.key, **({"group": groups.get(e.key, "")} if groups is not None else {}),
             "alternative": str(e.alternative), "outcome": e.outcome, "label": e.label,
             "change": {**numbers.change(e.shown, e.kind == "rate"), "detected": e.detected, "verdict": e.verdict,
                        "p_adjusted": e.p_adjusted, "p": e.result.p_value},
             "identical": bool(e.identical), "rank": e.rank, "rank_low": e.rank_lo, "rank_high": e.rank_hi}
            for e in effects]


def rank_text(e: Effect) -> str:
    """"2 [1, 3]": the point rank and its 95% bootstrap interval (1 = largest change)."""
    return f"{e.rank} [{e.rank_lo}, {e.rank_hi}]" if e.rank else ""


def outcome_family(effects: list[Effect], outcome: str) -> str:
    return family_name(sum(e.outcome == outcome for e in effects))


def reading(members: str) -> str:
    """The intervals' meaning, once per report (each headline outcome is its own family)."""
    return family_reading("simultaneous 95% over the arms of its outcome", members)


def detected_text(effects: list[Effect], outcome: str, what: str) -> str:
    """"3 of 12 alternatives change it detectably (the family's simultaneous intervals)"."""
    es = [e for e in effects if e.outcome == outcome]
    return (f"{sum(e.detected for e in es)} of {len(es)} {what} change it detectably "
            "(the family's simultaneous intervals)")


def ranking_text(fam: ElementFamily | None) -> str:
    """Which neighbours in the ranking the data tell apart (bootstrap over games, Holm over adjacent pairs)."""
    if fam is None or not fam.neighbours:
        return ""
    return f"Ranking ({fam.n_boot:,} paired bootstrap resamples of the games): {fam.resolved_text()}."


def chart_title(label: str, key: str, es: list[Effect]) -> str:
    """Claims "most sensitive" only when the top is detected and its rank interval is [1, 1]."""
    if not any(e.detected for e in es):
        return f"{label}: no change detected"
    if es[0].rank_hi == 1:
        return f"{label} is most sensitive to {key}"
    return f"{label}: largest change from {key} (rank {es[0].rank_lo}–{es[0].rank_hi}, not resolved)"


def tornado(game: Game, rows, label: str, kind: str, chart: ChartSaver, name: str, family: str = "") -> str:
    """One bar per assumption from its lowest to its highest change, each alternative's family interval on it,
    red where the family detects the change."""
    scale = 100 if kind == "rate" else 1
    rows = rows[::-1]                                  # largest at the top
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.42 * len(rows)))
    for i, (key, _, es) in enumerate(rows):
        values = [e.shown.value * scale for e in es]
        ax.barh(i, max(values + [0]) - min(values + [0]), left=min(values + [0]), color="tab:blue", alpha=0.25)
        for e, v in zip(es, values):
            d = e.shown
            ax.errorbar([v], [i], xerr=[[v - d.lo * scale], [d.hi * scale - v]], fmt="o", capsize=3, ms=4,
                        color="tab:red" if e.detected else "tab:gray")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    unit = "percentage points" if kind == "rate" else "change"
    ax.set_xlabel(f"{label}: alternative minus as given ({unit}, {family or 'simultaneous 95%'}; "
                  "red: change detected)")
    ax.set_title(chart_title(label, rows[-1][0], rows[-1][2]), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart(f"tornado_{name}", fig)
