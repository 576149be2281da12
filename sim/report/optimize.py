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
from sim.report.charts import ChartSaver  # noqa: E402
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
    verdict = (f"The tuned weights raise {role}'s score from {gain.a.value:.3f} to {gain.b.value:.3f} on fresh seeds "
               f"(gain {gain_text(gain)}, p = {gain.p_value:.2g})." if read_verdict(gain.diff) == UP else
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
    lines += ["", f"- training score: default {o.default_score:.4f}, found {o.best_score:.4f}",
              f"- fresh seeds: default {gain.a.fmt(digits=4)}, found {gain.b.fmt(digits=4)}",
              f"- gain {gain_text(gain, 4)} (paired over the same fresh games, p = {gain.p_value:.3g})", "",
              convergence_chart(game, strategy, role, table, chart), ""]
    return write_report(to, f"optimize_{game.name}_{strategy}_{role}", "\n".join(lines), game.title)


def gain_text(gain: PairedChange, digits: int = 3) -> str:
    """The gain with its paired 95% interval; when no fresh game scored differently, the exact bound in words."""
    if gain.identical:
        return f"none: no fresh game of {gain.n:,} scored differently"
    return gain.diff.fmt(digits=digits, signed=True)


def convergence_chart(game, strategy, role, table: pl.DataFrame, chart) -> str:
    score = table["score"].to_numpy()
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    ax.plot(score, ".", alpha=0.4, label="evaluation")
    ax.plot(np.maximum.accumulate(score), label="best so far")
    ax.set_xlabel("evaluation")
    ax.set_ylabel(f"{role} score")
    ax.set_title(f"{game.title}: {strategy} as {role}")
    ax.legend(fontsize=8)
    return chart("convergence", fig)
