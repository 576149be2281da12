"""`dsim ladder`: does a headline finding survive better play?

The finding is played at rising skill on the same seeds: everyone random; the default heuristics; each side's
best response (its default strategy's weights tuned by `dsim optimize` against the other defaults); and every
side tuned at once. Each level's estimate has its interval, each level is paired against the default, and the
report says in words whether the finding holds, grows, shrinks, vanishes or reverses as skill rises.
Tuning each side against the defaults is a best response, not an equilibrium: the report says so.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.core import seeding  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.game import Game, Outcome  # noqa: E402
from sim.core.optimize import best_response  # noqa: E402
from sim.core.html import write_report
from sim.core.report import ChartSaver  # noqa: E402
from sim.core.runner import RunSpec  # noqa: E402
from sim.core.stats import Estimate, PairedResult, mean_ci, paired, wilson  # noqa: E402
from sim.core.strategy import Seat, lineup_label  # noqa: E402
from sim.core.labels import lineup_words  # noqa: E402


@dataclass
class Level:
    name: str
    lineup: dict
    estimate: Estimate | None = None
    against_default: PairedResult | None = None
    note: str = ""


def pick_outcome(game: Game, name: str | None) -> Outcome:
    outcomes = {o.name: o for o in game.outcomes()}
    if name is None:
        return next((o for o in game.outcomes() if o.headline), game.outcomes()[0])
    if name not in outcomes:
        raise DsimError(f"unknown outcome '{name}' for {game.name} (known: {', '.join(outcomes)})")
    return outcomes[name]


def levels(game: Game, base: RunSpec, iters: int, popsize: int, tune_n: int) -> list[Level]:
    """Random, default, each side's best response, every side tuned at once. In a seat game the sides are
    alike: the first seat is tuned against the defaults, then every seat plays those weights."""
    out = [Level("random", game.lineup("random")), Level("default", dict(base.lineup))]
    roles = game.active_roles(base.players)
    tuned = dict(base.lineup)
    sides = []
    for role in roles[:1] if game.seat_game() else roles:
        seat = base.lineup[role]
        if not seat.strategy.bounds:
            out[1].note += f"{role}'s default ({seat.strategy.name}) has no weights to tune. "
            continue
        train = dataclasses.replace(base, n=tune_n)
        _, strategy, best, before, after, _ = best_response(game, train, seat.strategy.name, role, iters, popsize)
        lineup = dict(base.lineup)
        lineup[role] = Seat(strategy, np.asarray(best, dtype=np.float64))
        tuned[role] = lineup[role]
        sides.append(role)
        out.append(Level(f"{role} tuned", lineup,
                         note=f"{role}'s {strategy.name} weights tuned against the defaults: "
                              + (f"training score {before:.3f} → {after:.3f}" if after > before else
                                 "the search found no better weights than the defaults")))
    if game.seat_game() and sides and all(base.lineup[r].strategy is base.lineup[sides[0]].strategy for r in roles):
        every = {r: tuned[sides[0]] for r in base.lineup}
        out.append(Level("every seat tuned", every, note=f"every seat plays {sides[0]}'s tuned weights"))
    elif len(sides) > 1:
        out.append(Level("all tuned", tuned, note="each side's best response to the defaults, played together"))
    return out


def play(game: Game, base: RunSpec, lineup: dict, outcome: Outcome, n: int) -> np.ndarray:
    seed = seeding.chunk_seed(base.seed + 1, 0)      # not the tuning seeds
    tables = game.simulate(base.rules, base.players, lineup, seed, n)
    return outcome.values(pl.DataFrame(tables["games"]))


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


def ladder(game: Game, base: RunSpec, to: Path, outcome_name: str | None = None, reference: float | None = None,
           iters: int = 4, popsize: int = 5, tune_n: int | None = None) -> tuple[Path, list[Level], str]:
    outcome = pick_outcome(game, outcome_name)
    steps = levels(game, base, iters, popsize, tune_n or max(2_000, base.n // 10))
    values = {s.name: play(game, base, s.lineup, outcome, base.n) for s in steps}
    for s in steps:
        x = values[s.name]
        ok = x[~np.isnan(x)]
        s.estimate = wilson(int(ok.sum()), len(ok)) if outcome.kind == "rate" else mean_ci(ok)
        s.against_default = paired(values["default"], x, outcome.kind)
    words = verdict(steps, reference, outcome.kind)
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ladder_{game.name}_{outcome.name}"
    pl.DataFrame([{"level": s.name, "lineup": lineup_label(s.lineup), "value": s.estimate.value, "lo": s.estimate.lo,
                   "hi": s.estimate.hi, "games": s.estimate.n, "vs_default": s.against_default.diff.value,
                   "vs_default_p": s.against_default.p_value} for s in steps]).write_parquet(to / f"{stem}.parquet")
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
    path = write_report(to, f"{stem}", "\n".join(lines), game.title)
    return path, steps, words


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
