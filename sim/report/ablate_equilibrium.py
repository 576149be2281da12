"""`dsim ablate --at-equilibrium`'s report: which elements move the balance figure when both sides re-solve the
restricted game, with the family's intervals; beside it one row per element (Parquet)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.analysis.ablate import MODES
from sim.analysis.ablate_equilibrium import EquilibriumAblation, shown
from sim.report import numbers
from sim.report.equilibrium import figure_name, pct
from sim.report.html import write_report
from sim.report.labels import spec_words


def points(e) -> str:
    left, right = "(" if e.lo_open else "[", ")" if e.hi_open else "]"
    return f"{100 * e.value:+.1f} points {left}{100 * e.lo:+.1f}, {100 * e.hi:+.1f}{right}"


def write(a: EquilibriumAblation, to: Path) -> Path:
    """`ablate_<game>_<mode>_equilibrium.md`, its HTML twin and `.parquet`."""
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ablate_{a.game.name}_{a.mode}_equilibrium"
    base = a.studies["as given"]
    name = figure_name(base)
    rows = sorted(a.elements(), key=lambda k: -abs(shown(a, k).value))
    table(a, rows).write_parquet(to / f"{stem}.parquet")
    moved = [k for k in rows if a.family.verdicts[a.elements().index(k)] in ("up", "down")]
    found = [f"With the rules as given, {name} is {pct(base.value)} at equilibrium."]
    found += [f"{k} {MODES[a.mode]} moves it by {points(shown(a, k))} when both sides re-solve "
              f"({pct(a.studies[k].value)} at equilibrium)." for k in moved]
    found.append(f"{len(moved)} of {len(rows)} elements change it detectably at equilibrium "
                 f"({a.family.intervals[0].method if rows else 'no elements'})." if rows else "No element to ablate.")
    lines = [f"# {a.game.title}: each element's weight at equilibrium ({MODES[a.mode]})", "", "## Findings", "",
             *[f"- {f}" for f in found], "",
             f"Each element was {MODES[a.mode]}, alone, and the game solved again with every built-in strategy per "
             f"side grown by best responses (`dsim equilibrium`), on the seeds of the base study "
             f"({spec_words(a.game, a.base)}). A change's interval adds the two studies' bootstrap variances as if "
             "they were independent; their shared seeds make them positively correlated, so the intervals are "
             "conservative. `dsim ablate` without `--at-equilibrium` gives the same elements under the default "
             "strategies.", "",
             f"| element | {name} at equilibrium [95%] | change [simultaneous 95%] | verdict | converged |",
             "|---|---|---|---|---|"]
    for k in rows:
        i = a.elements().index(k)
        s = a.studies[k]
        lines.append(f"| {k} | {pct(s.value)} | {points(shown(a, k))} | {a.family.verdicts[i]} | "
                     f"{'yes' if s.converged else 'no'} |")
    return write_report(to, stem, "\n".join(lines), a.game.title)


def figures(a: EquilibriumAblation) -> dict:
    """--format json: the figure at equilibrium with the rules as given, and each element's (in %) with its
    change (points)."""
    base = a.studies["as given"]
    rows = []
    for k in sorted(a.elements(), key=lambda k: -abs(shown(a, k).value)):
        i = a.elements().index(k)
        rows.append({"element": k, "at_equilibrium": numbers.estimate(a.studies[k].value, True),
                     "change": {**numbers.change(shown(a, k), True), "verdict": a.family.verdicts[i],
                                "detected": a.family.verdicts[i] in ("up", "down")},
                     "converged": bool(a.studies[k].converged)})
    return {"figure": figure_name(base), "as_given": numbers.estimate(base.value, True), "elements": rows}


def table(a: EquilibriumAblation, rows: list[str]) -> pl.DataFrame:
    return pl.DataFrame([{"element": k, "value": a.studies[k].value.value, "lo": a.studies[k].value.lo,
                          "hi": a.studies[k].value.hi, "change": shown(a, k).value, "change_lo": shown(a, k).lo,
                          "change_hi": shown(a, k).hi, "verdict": a.family.verdicts[a.elements().index(k)],
                          "converged": a.studies[k].converged} for k in rows])
