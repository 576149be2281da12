"""`dsim ladder`'s report: whether the finding holds, grows, shrinks, vanishes or reverses as skill rises, in a
sentence, the levels' chart and table; beside it the levels (Parquet) and the finding (JSON) a balance report in
the same folder quotes."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.ladder import Ladder, Level  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import lineup_words  # noqa: E402


def write(result: Ladder, to: Path) -> tuple[Path, str]:
    """`ladder_<game>_<outcome>.md` and its HTML twin, the levels chart, `.parquet` and `.json`; returns the
    report and the finding in words."""
    game, base, outcome, steps, reference = result.game, result.base, result.outcome, result.steps, result.reference
    words = verdict(steps, reference, outcome.kind)
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ladder_{game.name}_{outcome.name}"
    result.table().write_parquet(to / f"{stem}.parquet")
    label = outcome.label or outcome.name
    (to / f"{stem}.json").write_text(json.dumps({"finding": f"{label}: {words}", "levels": [s.name for s in steps]}))
    chart = ChartSaver(to, stem)
    pct = outcome.kind == "rate"
    lines = [f"# {game.title}: does '{label}' survive better play?", "", "## Findings", "",
             f"- {label[:1].upper()}{label[1:]}: {words}.", "",
             f"{base.n:,} games per level, {base.players} players, every level on the same seeds; each side's "
             "tuned weights are a best response to the default strategies (not an equilibrium), found on other "
             "seeds than these.", "", "## Levels", "", ladder_chart(game, steps, label, pct, reference, chart), "",
             "| level | lineup | estimate [95% CI] | against the default [95% CI] | p |", "|---|---|---|---|---|"]
    for s in steps:
        lines.append(f"| {s.name} | {lineup_words(game, s.lineup)} | "
                     f"{s.estimate.fmt(pct=pct, digits=2 if pct else 3)} | "
                     f"{s.against_default.diff.fmt(pct=pct, digits=2 if pct else 3)} | "
                     f"{s.against_default.p_value:.3g} |")
    notes = [s.note.strip() for s in steps if s.note]
    if notes:
        lines += ["", *[f"- {n}" for n in notes]]
    return write_report(to, f"{stem}", "\n".join(lines), game.title), words


def verdict(steps: list[Level], reference: float | None, kind: str) -> str:
    """How the finding moves from the default level to the most skilled one (the last), tested paired, and the
    figure at random play, the default and the top level with their intervals."""
    default, top = steps[1].estimate, steps[-1].estimate
    moved = steps[-1].against_default.p_value < 0.05
    pct = kind == "rate"
    show = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:.3g}")
    figures = (f" (random play {steps[0].estimate.fmt(pct=pct, digits=1 if pct else 3)}, the default "
               f"{default.fmt(pct=pct, digits=1 if pct else 3)}, {steps[-1].name} "
               f"{top.fmt(pct=pct, digits=1 if pct else 3)})")
    if reference is None:
        if moved:
            return f"the figure moves with skill{figures}"
        return f"the figure holds as skill rises: no significant change from the default to the top level{figures}"

    def side(e):
        return "above" if e.lo > reference else "below" if e.hi < reference else "at"
    a, b = side(default), side(top)
    if a == "at":
        return f"by default the figure is not distinguishable from {show(reference)}{figures}"
    if b == "at":
        return (f"the finding vanishes as skill rises: {a} {show(reference)} by default, indistinguishable at the "
                f"top{figures}")
    if a != b:
        return f"the finding reverses as skill rises: {a} {show(reference)} by default, {b} at the top{figures}"
    trend = "holds"
    if moved:
        trend = "grows" if abs(top.value - reference) > abs(default.value - reference) else "shrinks"
    return f"the finding {trend} as skill rises: {a} {show(reference)} at every level from the default up{figures}"


def ladder_chart(game, steps, label, pct, reference, chart) -> str:
    scale = 100 if pct else 1
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    xs = range(len(steps))
    vals = [s.estimate.value * scale for s in steps]
    ax.errorbar(xs, vals, yerr=[[v - s.estimate.lo * scale for v, s in zip(vals, steps)],
                                [s.estimate.hi * scale - v for v, s in zip(vals, steps)]], fmt="o-", capsize=4)
    if reference is not None:
        ax.axhline(reference * scale, color="black", lw=0.8, ls="--", label=f"reference {reference * scale:g}")
        ax.legend(fontsize=8)
    ax.set_xticks(list(xs), [s.name for s in steps], fontsize=8)
    ax.set_xlabel("skill level (left to right: rising)")
    ax.set_ylabel(label + (" (%)" if pct else ""))
    ax.set_title(f"{game.title}: {label} by skill level", fontsize=10)
    ax.grid(alpha=0.3)
    return chart("levels", fig)
