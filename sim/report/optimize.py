"""`dsim optimize`'s report: whether the weights found beat the defaults on fresh seeds, the weights, the scores
and the search's convergence; beside it every evaluation (Parquet)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.intervals_paired import UP, PairedChange  # noqa: E402
from sim.analysis.intervals_paired import verdict as read_verdict  # noqa: E402
from sim.analysis.optimize import Optimization  # noqa: E402
from sim.report import numbers  # noqa: E402
from sim.report.changes import interval_text  # noqa: E402
from sim.report.charts import ChartSaver, legend_beside, whole_ticks  # noqa: E402
from sim.report.html import write_report  # noqa: E402


def write(o: Optimization, to: Path) -> Path:
    """`optimize_<game>_<strategy>_<role>.md` and its HTML twin, the convergence chart, and `.parquet`."""
    game, base, spec, s, role, best, gain = o.game, o.base, o.spec, o.strategy, o.role, o.best, o.gain
    strategy, history, n_check = s.name, o.history, o.n_check
    to.mkdir(parents=True, exist_ok=True)
    table = o.table()
    table.write_parquet(to / f"optimize_{game.name}_{strategy}_{role}.parquet")
    chart = ChartSaver(to, f"optimize_{game.name}_{strategy}_{role}")
    others = ", ".join(f"{r}={seat.label()}" for r, seat in spec.lineup.items() if r != role)
    verdict = (f"The tuned weights raise {role}'s score from {gain.a.fmt(pct=True, digits=1)} to "
               f"{gain.b.fmt(pct=True, digits=1)} on fresh seeds (gain {gain_text(gain)}, p = {gain.p_value:.2g})."
               if read_verdict(gain.diff) == UP else
               f"No gain detected for {role} on fresh seeds (gain {gain_text(gain)}): the default weights "
               "are as good as any the search found, as far as these games tell.")
    lines = [f"# {game.title}: optimising `{strategy}` as {role}", "", "## Findings", "", f"- {verdict}", "",
             "## Search", "",
             f"Against {others}; {base.players} players. Differential evolution over {len(history)} evaluations of "
             f"{spec.n:,} games each, all on the same seeds ({o.seconds:.0f}s). Checked on {n_check:,} fresh games, "
             "paired against the default weights.", "",
             "| parameter | default | found | bounds |", "|---|---|---|---|"]
    for name, d, b, bd in zip(s.param_names, s.params(), best, s.bounds):
        lines.append(f"| {name} | {d:g} | {b:.4g} | {bd[0]:g} – {bd[1]:g} |")
    lines += ["", f"A score is the share of the points {role} takes (a win 100%, a draw 50%).", "",
              f"- training score: default {100 * o.default_score:.1f}%, found {100 * o.best_score:.1f}%",
              f"- fresh seeds: default {gain.a.fmt(pct=True, digits=1)}, found {gain.b.fmt(pct=True, digits=1)}",
              f"- gain {gain_text(gain)} (paired over the same fresh games, p = {gain.p_value:.3g})", "",
              convergence_chart(game, strategy, role, table, chart), ""]
    return write_report(to, f"optimize_{game.name}_{strategy}_{role}", "\n".join(lines), game.title)


def figures(o: Optimization) -> dict:
    """--format json: the weights found, and both weights' scores on fresh seeds (%) with the paired gain
    (points)."""
    gain = o.gain
    return {"strategy": o.strategy.name, "role": o.role,
            "params": [{"name": name, "default": numbers.num(d), "found": numbers.num(b), "low": numbers.num(bd[0]),
                        "high": numbers.num(bd[1])}
                       for name, d, b, bd in zip(o.strategy.param_names, o.strategy.params(), o.best,
                                                 o.strategy.bounds)],
            "default": numbers.estimate(gain.a, True), "found": numbers.estimate(gain.b, True),
            "gain": {**numbers.change(gain.diff, True), "detected": read_verdict(gain.diff) == UP,
                     "p": gain.p_value, "identical": gain.identical}}


def gain_text(gain: PairedChange) -> str:
    """The gain in points with its paired 95% interval; when no fresh game scored differently, the exact bound."""
    if gain.identical:
        return f"none: no fresh game of {gain.n:,} scored differently"
    return interval_text(gain.diff, "rate")


def convergence_chart(game, strategy, role, table: pl.DataFrame, chart) -> str:
    score = 100 * table["score"].to_numpy()
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    ax.plot(np.arange(1, len(score) + 1), score, ".", alpha=0.4, label="evaluation")
    ax.plot(np.arange(1, len(score) + 1), np.maximum.accumulate(score), label="best so far")
    ax.set_xlabel("evaluation")
    whole_ticks(ax)
    ax.set_ylabel(f"{role}'s score (%)")
    ax.set_title(f"{game.title}: {strategy} as {role}")
    legend_beside(ax)
    return chart("convergence", fig)
