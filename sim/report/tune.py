"""`dsim tune`'s report: the answer in a sentence, the verified estimates, the response curve, the search."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.tune import (PROBE_PRECISION, SETTLE_STEPS, EquilibriumEvaluator, Evaluator,  # noqa: E402
                               TuneResult, Tuning, inside, show_value)
from sim.engine.game import Game  # noqa: E402
from sim.engine.spec import RunSpec  # noqa: E402
from sim.report import equilibrium as equilibrium_report  # noqa: E402
from sim.report import numbers  # noqa: E402
from sim.report.charts import ChartSaver, legend_beside  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import spec_words  # noqa: E402


def stem(t: Tuning) -> str:
    """`tune_<game>`; at equilibrium `tune_<game>_equilibrium_<levers>`, so each lever's answer keeps its page."""
    if not isinstance(t.evaluator, EquilibriumEvaluator):
        return f"tune_{t.game.name}"
    levers = "_".join(re.sub(r"\W+", "_", p.name).strip("_") for p in t.evaluator.params)
    return f"tune_{t.game.name}_equilibrium_{levers}"


def write(t: Tuning, to: Path) -> Path:
    """`<stem>.md` and its HTML twin, the response chart, `.parquet` (every setting played) and `.json` (the
    answer's figures); at equilibrium the answer's study in `equilibrium/<stem>_<setting>/`."""
    to.mkdir(parents=True, exist_ok=True)
    name = stem(t)
    chart = ChartSaver(to, name)
    curve = response_chart(t, chart)
    t.table().write_parquet(to / f"{name}.parquet")
    (to / f"{name}.json").write_text(json.dumps(figures(t), indent=1, default=str))
    lines = report_lines(t.game, t.base, t.evaluator, t.result, curve)
    if isinstance(t.evaluator, EquilibriumEvaluator):
        for (point, fresh), study in t.evaluator.studies.items():
            if fresh:
                equilibrium_report.write(study, to / "equilibrium" / "_".join([name, *map(str, point)]))
    return write_report(to, name, "\n".join(lines), t.game.title)


def figures(t: Tuning) -> dict:
    """--format json: the answer, and each verified setting's figures on fresh seeds as numbers (targets in the
    outcome's unit: % for a rate)."""
    ev, result = t.evaluator, t.result
    settings = []
    for c in result.candidates:
        found = []
        for target, est in zip(ev.targets, result.verified[c]):
            pct = target.outcome.shows_percent()
            found.append({"outcome": target.outcome.name, "target": numbers.num((100 if pct else 1) * target.value),
                          **numbers.estimate(est, pct), "target_inside": inside(est, target.value)})
        setting = {"setting": dict(zip([p.name for p in ev.params], c)), "outcomes": found}
        if isinstance(ev, EquilibriumEvaluator):       # the interval above is the bracket; this, the table's value
            setting["table"] = numbers.estimate(ev.studies[(c, True)].value, True)
        settings.append(setting)
    out = {"best": dict(zip([p.name for p in ev.params], result.best)), "settings": settings,
           "search_settings": len({k[0] for k in ev.cache if not k[1]}), "note": result.note,
           "range": {p.name: [p.lo, p.hi] for p in ev.params}, "out_of_reach": result.out_of_reach}
    if isinstance(ev, EquilibriumEvaluator):
        out["seconds"] = sum(s.seconds for s in ev.studies.values())
    return out


def _fmt(t, est) -> str:
    return numbers.estimate_text(est, t.outcome.kind == "rate")


def _target(t) -> str:
    return f"{100 * t.value:g}%" if t.outcome.kind == "rate" else f"{t.value:g}"


def findings(ev: Evaluator, result: TuneResult) -> list[str]:
    out = []
    solved = isinstance(ev, EquilibriumEvaluator)
    for c in result.candidates:
        parts = []
        for t, est in zip(ev.targets, result.verified[c]):
            verdict = "inside" if inside(est, t.value) else "outside"
            if solved:
                v = ev.studies[(c, True)].value
                parts.append(f"{t.outcome.label or t.outcome.name} is between {100 * est.lo:.1f}% and "
                             f"{100 * est.hi:.1f}% (the table's value {100 * v.value:.1f}% [{100 * v.lo:.1f}, "
                             f"{100 * v.hi:.1f}], widened by what fresh best responses still gain), solved in full "
                             f"on fresh seeds with the search player ({est.n:,} games; target {_target(t)}: "
                             f"{verdict} that range)")
            else:
                parts.append(f"{t.outcome.label or t.outcome.name} is {_fmt(t, est)} over {est.n:,} fresh games "
                             f"(target {_target(t)}: {verdict} the interval)")
        best = " (the answer)" if solved and len(result.candidates) > 1 and c == result.best else ""
        out.append(f"- With **{ev.describe(c)}**{best}: " + "; ".join(parts) + ".")
    if result.out_of_reach:
        p, t = ev.params[0], ev.targets[0]
        out.insert(0, f"- **No setting of {p.words} from {show_value(p, p.lo)} to {show_value(p, p.hi)} brings "
                      f"{t.outcome.label or t.outcome.name} to {_target(t)}**: solved in full at both ends, the "
                      "figure stays on the same side of the target (below).")
    return out


def report_lines(game: Game, base: RunSpec, ev: Evaluator, result: TuneResult, curve: str) -> list[str]:
    names = ", ".join(p.words for p in ev.params)
    goals = " and ".join(f"{t.outcome.label or t.outcome.name} = {_target(t)}" for t in ev.targets)
    ranges = ", ".join(f"{p.words} (--param {p.name}) from {show_value(p, p.lo)} to {show_value(p, p.hi)}"
                       for p in ev.params)
    searched = sorted({k[0] for k in ev.cache if not k[1]})
    lines = [f"# {game.title}: which {names} gives {goals}?", "", "## Findings", "", *findings(ev, result),
             f"- The search: {result.note}.", "",
             f"Rests on: {spec_words(game, base)}, and the assumed values listed by `dsim games {game.name}`; "
             f"searched {ranges}.", "",
             "## Method", "", method_text(base, ev), ""]
    if curve:
        lines += [curve, ""]
    if isinstance(ev, EquilibriumEvaluator):
        lines += ["## Settings solved in full (fresh seeds, the search player in the population)", "",
                  f"| {ev.params[0].words} | table's value [95%] | bracket | both sides play |", "|---|---|---|---|"]
        for c in result.candidates:
            study = ev.studies[(c, True)]
            br = study.bracket()
            lines.append(f"| {show_value(ev.params[0], c[0])} | {equilibrium_report.pct(study.value)} | "
                         f"{100 * br.lo:.1f}–{100 * br.hi:.1f}% | {study.mixture_words()} |")
        lines.append("")
    lines += ["## Settings played on the search seeds", "", "| " + " | ".join([*(p.words for p in ev.params),
                                                               *(t.outcome.label or t.outcome.name for t in ev.targets)])
              + " |", "|" + "---|" * (len(ev.params) + len(ev.targets))]
    for point in searched:
        ests = ev.cache[(point, False, None)]
        lines.append("| " + " | ".join([*(show_value(p, v) for p, v in zip(ev.params, point)),
                                         *(_fmt(t, e) for t, e in zip(ev.targets, ests))]) + " |")
    return lines


def method_text(base: RunSpec, ev: Evaluator) -> str:
    if isinstance(ev, EquilibriumEvaluator):
        q = ev.search
        return (f"Every setting searched was solved as a game on the same seeds (seed {base.seed}), lightly: one "
                f"round of best responses, no search player, cells to ±{100 * PROBE_PRECISION:.0f} points, each "
                "solve starting from the strategies the solves before it found. The answer was then solved in full "
                f"on fresh seeds (seed {base.seed} + 7919): up to {q.rounds} rounds of best responses, the search "
                "player checked each round and joining a side it gains on, and its interval is that study's "
                "bracket (the sampling interval widened by what fresh best responses still gain; the answer's "
                "study is in `equilibrium/`). When that solve's table value missed the target beyond its own "
                "interval, the lever was moved one step toward the target and solved in full again, until the "
                f"figure crossed the target (at most {SETTLE_STEPS} more solves, `settle` in `sim/analysis/tune.py`). "
                "Integer bisection or Brent's method, as `sim/analysis/tune.py` says. "
                f"The solves took {sum(s.seconds for s in ev.studies.values()) / 60:.0f} minutes in all.")
    return (f"Every setting searched played the same {base.n:,} games (seed {base.seed}: common random numbers), "
            "so the search compares settings without noise between them; the answer was then replayed on "
            f"fresh seeds (seed {base.seed} + 7919) for the intervals above. See `sim/analysis/tune.py` for why "
            "bisection, Brent's method and differential evolution.")


def response_chart(t: Tuning, chart: ChartSaver) -> str:
    """The first target against the first parameter around the answer (others held at the answer), on the
    search seeds, with the verified settings and the target line."""
    ev, result = t.evaluator, t.result
    p, target = ev.params[0], ev.targets[0]
    scale = 100 if target.outcome.kind == "rate" else 1
    xs = [x for x, _ in t.curve]
    ests = [e for _, e in t.curve]
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    ax.errorbar(xs, [e.value * scale for e in ests],
                yerr=[[(e.value - e.lo) * scale for e in ests], [(e.hi - e.value) * scale for e in ests]],
                fmt="o-", capsize=3, label="light solves, search seeds" if isinstance(ev, EquilibriumEvaluator)
                else f"search seeds ({ev.base.n:,} games each)")
    for c in result.candidates:
        e = result.verified[c][0]
        ax.errorbar([c[0]], [e.value * scale], yerr=[[(e.value - e.lo) * scale], [(e.hi - e.value) * scale]],
                    fmt="s", color="tab:red", capsize=4)
    solved = isinstance(ev, EquilibriumEvaluator)
    ax.plot([], [], "s", color="tab:red", label="solved in full, fresh seeds\n(bracket)" if solved
            else "verified on fresh seeds")
    ax.axhline(target.value * scale, color="black", lw=0.8, ls="--", label=f"target {_target(target)}")
    ax.set_xlabel(p.words)
    ax.set_ylabel((target.outcome.label or target.outcome.name) + (" (%)" if scale == 100 else ""))
    if p.integer:
        ax.set_xticks(sorted({*xs, *(c[0] for c in result.candidates)}))
    answer = (show_value(p, result.best[0]) if solved
              else " or ".join(show_value(p, c[0]) for c in result.candidates))
    ax.set_title(f"{target.outcome.label or target.outcome.name} against {p.words}: closest {answer}", fontsize=10)
    ax.grid(alpha=0.3)
    legend_beside(ax)
    return chart("response", fig)
