"""`dsim ladder`'s report: whether the finding holds, grows, shrinks, vanishes or reverses from the default play
to best responses to the defaults (found by a short search: never called an equilibrium or "skilled play"), in a
sentence read off the intervals shown, the levels' chart and table; beside it the levels (Parquet) and the finding
(JSON) a balance report in the same folder quotes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.analysis.compare import family_name  # noqa: E402
from sim.analysis.intervals_paired import DOWN, UP  # noqa: E402
from sim.analysis.ladder import Ladder, Level, Search  # noqa: E402
from sim.report import numbers  # noqa: E402
from sim.report.changes import change_text  # noqa: E402
from sim.report.charts import ChartSaver, fit_span  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import lineup_words, p_text  # noqa: E402


def write(result: Ladder, to: Path) -> tuple[Path, str]:
    """`ladder_<game>_<outcome>.md` and its HTML twin, the levels chart, `.parquet` and `.json`; returns the
    report and the finding in words."""
    game, base, outcome, steps, reference = result.game, result.base, result.outcome, result.steps, result.reference
    core = [s for s in steps if not s.searching]
    kind = "rate" if outcome.shows_percent() else outcome.kind      # a mean of shares reads in % and points too
    words = verdict(core, reference, kind, result.search)
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ladder_{game.name}_{outcome.name}"
    result.table().write_parquet(to / f"{stem}.parquet")
    label = outcome.label or outcome.name
    (to / f"{stem}.json").write_text(json.dumps({"finding": f"{label}: {words}", "levels": [s.name for s in steps]}))
    chart = ChartSaver(to, stem)
    pct = kind == "rate"
    family = family_name(len(steps) - 1)
    at_eq = core[-1].mixture != []
    question = "when both sides play their best" if at_eq else "against best responses to the defaults"
    fewer = [(f"the equilibrium on the first {s.games:,} deals (its line-ups search)" if s.mixture else
              f"the search levels on the first {s.games:,} deals") for s in steps
             if s.games is not None and s.games < base.n]
    fewer = list(dict.fromkeys(fewer))      # one phrase for all the search levels
    per_level = f"{base.n:,} games per level" + (f" ({'; '.join(fewer)})" if fewer else "")
    lines = [f"# {game.title}: does '{label}' hold {question}?", "", "## Findings", "",
             f"- {label[:1].upper()}{label[1:]}: {words}.", *search_findings(steps, kind), "",
             f"{per_level}, {base.players} players, every level on the same seeds. The levels "
             f"marked best response are {result.search.words()}, on other seeds than these: not an equilibrium — "
             "a side that adapted to them could do better."
             + (" The top level is the equilibrium of `dsim equilibrium` (every built-in strategy per side, grown by "
                "best responses until none gains more than its tolerance): each game is the expectation over the "
                "line-ups its mixture plays, dealt alike." if at_eq else ""), "",
             f"Each level's change from the default is paired game by game; the {len(steps) - 1} changes are one "
             f"family, shown as {family} intervals, and a change is called only when its interval leaves out 0 "
             "(both ends say how large the change can be).", "",
             "## Levels", "", ladder_chart(game, steps, label, pct, reference, chart), "",
             f"| level | lineup | estimate [95% CI] | change from the default | verdict | adjusted p |",
             "|---|---|---|---|---|---|"]
    for s in steps:
        who = "mixture (below)" if s.mixture else lineup_words(game, s.lineup, base.players)
        lines.append(f"| {s.name} | {who} | "
                     f"{s.estimate.fmt(pct=pct, digits=1 if pct else 3)} | "
                     f"{change_text(s.against_default, s.shown, kind)} | {s.verdict} | "
                     f"{'—' if math.isnan(s.p_adjusted) else p_text(s.p_adjusted)} |")
    notes = [s.note.strip() for s in steps if s.note]
    if notes:
        lines += ["", *[f"- {n}" for n in notes]]
    return write_report(to, f"{stem}", "\n".join(lines), game.title), words


def figures(result: Ladder) -> dict:
    """--format json: each level's figure (in % for a rate) and its change from the default (points)."""
    pct = result.outcome.shows_percent()
    levels = []
    for s in result.steps:
        change = None if s.shown is None else {**numbers.change(s.shown, pct), "verdict": s.verdict,
                                               "detected": s.verdict in (UP, DOWN),
                                               "p_adjusted": numbers.num(s.p_adjusted)}
        who = "mixture" if s.mixture else lineup_words(result.game, s.lineup, result.base.players)
        levels.append({"level": s.name, "lineup": who,
                       "searching": s.searching, **numbers.estimate(s.estimate, pct), "change": change})
    return {"outcome": result.outcome.name, "reference": None if result.reference is None else
            numbers.num((100 if pct else 1) * result.reference), "levels": levels}


def searcher(name: str) -> str:
    """"the hero searching (50 playouts)" from a rung named "hero searches (50 playouts)"; a seat has no article."""
    words = name.replace(" searches", " searching")
    return words if words.startswith("seat") else "the " + words


def search_findings(steps: list[Level], kind: str) -> list[str]:
    """One line per search rung: the figure, and its paired change from the default on the same deals."""
    pct = kind == "rate"
    return [f"- With {searcher(s.name)}: {s.estimate.fmt(pct=pct, digits=1 if pct else 3)}, "
            f"{change_text(s.against_default, s.shown, kind)} from the default on the same {s.estimate.n:,} deals "
            f"({s.verdict})." for s in steps if s.searching]


def top_words(top: Level, search: Search | None) -> str:
    """What the top level is when it is a best response: never "tuned" or "skilled" without the search."""
    if top.mixture:
        return "; the top level is the equilibrium" + ("" if top.settled else " study's mixture, not settled")
    if not top.tuned:
        return ""
    return f"; the top level plays {search.words() if search else 'best responses to the defaults found by a short search'}"


def verdict(steps: list[Level], reference: float | None, kind: str, search: Search | None = None) -> str:
    """How the finding moves from the default level to the last one, read off the shown intervals: the paired
    change's (moved or not, which way) and each level's own (which side of the reference)."""
    default, top = steps[1].estimate, steps[-1].estimate
    change = steps[-1].verdict if steps[-1] is not steps[1] else "no change detected"
    where, to_top = "against the best responses", "to the best responses"
    if steps[-1].mixture:     # an unsettled study: its mixture is not known to be the equilibrium of this figure
        mix = "the equilibrium" if steps[-1].settled else "the equilibrium study's mixture"
        where, to_top = ("at equilibrium" if steps[-1].settled else "at " + mix), "to " + mix
    moved = change in (UP, DOWN)
    pct = kind == "rate"
    show = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:.3g}")
    figures = (f" (random play {steps[0].estimate.fmt(pct=pct, digits=1 if pct else 3)}, the default "
               f"{default.fmt(pct=pct, digits=1 if pct else 3)}, {steps[-1].name} "
               f"{top.fmt(pct=pct, digits=1 if pct else 3)}{top_words(steps[-1], search)})")
    if reference is None:
        if moved:
            return f"the figure moves {change} from the default {to_top}{figures}"
        return f"the figure holds: no change detected from the default {to_top}{figures}"

    def side(e):
        return "above" if e.lo > reference else "below" if e.hi < reference else "at"
    a, b = side(default), side(top)
    if a == "at":
        return f"by default the figure is not distinguishable from {show(reference)}{figures}"
    if b == "at":
        return (f"the finding vanishes {where}: {a} {show(reference)} by default, "
                f"indistinguishable at the top{figures}")
    if a != b:
        return (f"the finding reverses {where}: {a} {show(reference)} by default, {b} at the top (the two "
                f"intervals exclude each other){figures}")
    trend = "holds"
    if moved:
        away = (change == UP) == (a == "above")          # the change points away from the reference
        trend = "grows" if away else "shrinks"
    return f"the finding {trend} {where}: {a} {show(reference)} by default and at the top{figures}"


def ladder_chart(game, steps, label, pct, reference, chart) -> str:
    """Each level's figure with its interval, the levels down the side in the order they climb (their names are
    too long to sit side by side), the reference as a dashed line."""
    scale = 100 if pct else 1
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.42 * len(steps)))
    ys = range(len(steps))
    vals = [s.estimate.value * scale for s in steps]
    # max(0, …): an interval's end computed to within rounding of the value (all games won or lost) may pass it
    ax.errorbar(vals, ys, xerr=[[max(0.0, v - s.estimate.lo * scale) for v, s in zip(vals, steps)],
                                [max(0.0, s.estimate.hi * scale - v) for v, s in zip(vals, steps)]], fmt="o", capsize=4)
    if reference is not None:
        ax.axvline(reference * scale, color="black", lw=0.8, ls="--",
                   label=f"reference {reference * scale:g}{'%' if pct else ''}")
        ax.legend(fontsize=8, loc="best")
    fit_span(ax, 10.0 if pct else 0.1 * max((abs(v) for v in vals if np.isfinite(v)), default=10.0) or 1.0, "x",
             (0.0, 100.0) if pct else None)
    ax.set_yticks(list(ys), [s.name for s in steps], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(label + (" (%, 95% interval)" if pct else " (95% interval)"))
    ax.set_title(f"{game.title}: {label}, from random play to "
                 + ("the equilibrium" if any(s.mixture for s in steps) else "best responses"), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart("levels", fig)
