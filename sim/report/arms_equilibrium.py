"""The report of rule changes measured at equilibrium (`compare`, `sweep`, `ablate` with `--at-equilibrium`): the
figure at equilibrium for each arm with its bracket, each arm's change from the reference with the interval the
verdict is read off; beside it one row per arm (Parquet) and the figures as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from sim.analysis.ablate_equilibrium import AS_GIVEN
from sim.analysis.arms_equilibrium import Arms
from sim.report import numbers
from sim.report.equilibrium import figure_name, headline, pct, players_words, search_words
from sim.report.html import write_report
from sim.report.labels import spec_words


def points(e) -> str:
    left, right = "(" if e.lo_open else "[", ")" if e.hi_open else "]"
    return f"{100 * e.value:+.1f} points {left}{100 * e.lo:+.1f}, {100 * e.hi:+.1f}{right}"


def bracket_text(s) -> str:
    br = s.bracket()
    return f"{pct(s.value)}; bracket [{100 * br.lo:.1f}, {100 * br.hi:.1f}]"


def write(a: Arms, to: Path, stem: str, title: str, what: str, doing: str = "",
          band: tuple[float, float] | None = None) -> Path:
    """`<stem>.md`, its HTML twin, `<stem>.parquet` and `<stem>.json`. `what` names an arm (element, variant,
    point); `doing` what was done to it ("neutralised"), if anything; `band` a target range of the figure (shares):
    which arms reach it."""
    to.mkdir(parents=True, exist_ok=True)
    rows = sorted(a.arms(), key=lambda k: -abs(a.changes[k].value))
    table(a, rows).write_parquet(to / f"{stem}.parquet")
    (to / f"{stem}.json").write_text(json.dumps(figures(a, band)))
    lines = [f"# {title}", "", "## Findings", "", *[f"- {f}" for f in findings(a, rows, what, doing)],
             *([f"- {band_finding(a, band, what)}"] if band else []), "",
             "## What these findings rest on", "", *[f"- {r}" for r in rests_on(a, what)], "",
             *band_lines(a, band, what),
             f"| {what} | {figure_name(a.studies[a.reference])} at equilibrium [95%]; bracket | change from "
             f"{a.reference} [simultaneous 95%, with brackets] | verdict | converged |", "|---|---|---|---|---|",
             f"| {a.reference} | {bracket_text(a.studies[a.reference])} | — | reference | "
             f"{converged_text(a.studies[a.reference])} |"]
    for k in rows:
        s = a.studies[k]
        lines.append(f"| {k} | {bracket_text(s)} | {points(a.changes[k])} | {a.verdict(k)} | {converged_text(s)} |")
    return write_report(to, stem, "\n".join(lines), a.game.title)


def reaches(s, band: tuple[float, float]) -> str:
    """Whether a study's figure reaches the band: "yes" when its whole bracket lies inside, "no" when the bracket
    misses it, "maybe" when they overlap (the solve has not settled enough to say)."""
    br = s.bracket()
    if band[0] <= br.lo and br.hi <= band[1]:
        return "yes"
    return "no" if br.hi < band[0] or br.lo > band[1] else "maybe"


def names(arms: list[str]) -> str:
    """Arms in a sentence: a sweep's point names hold commas ("a=1, b=2"), so each is set in code type."""
    return ", ".join(f"`{a}`" for a in arms)


def band_words(band: tuple[float, float]) -> str:
    return f"{100 * band[0]:g}–{100 * band[1]:g}%"


def band_finding(a: Arms, band: tuple[float, float], what: str) -> str:
    """Which arms bring the figure into the band; when none surely does, the nearest."""
    keys = [a.reference, *a.arms()]
    sure = [k for k in keys if reaches(a.studies[k], band) == "yes"]
    maybe = [k for k in keys if reaches(a.studies[k], band) == "maybe"]
    head = f"Target {band_words(band)}: "
    if sure:
        return head + f"{names(sure)} reach{'es' if len(sure) == 1 else ''} it whichever way the solve settles" + (
            f"; {names(maybe)} may (their brackets overlap it)." if maybe else ".")
    centre = sum(band) / 2
    near = min(keys, key=lambda k: abs(a.studies[k].value.value - centre))
    if maybe:
        return head + (f"no {what} surely reaches it; {names(maybe)} may (their brackets overlap it, the solves "
                       f"not settled); the nearest table value is {near}'s, {bracket_text(a.studies[near])}.")
    return head + (f"no {what} reaches it: every bracket misses it; the nearest is {near}, "
                   f"{bracket_text(a.studies[near])}.")


def band_lines(a: Arms, band: tuple[float, float] | None, what: str) -> list[str]:
    if not band:
        return []
    lines = [f"## Which {what}s reach {band_words(band)}", "",
             f"| {what} | at equilibrium [95%]; bracket | reaches {band_words(band)} |", "|---|---|---|"]
    lines += [f"| {k} | {bracket_text(a.studies[k])} | {reaches(a.studies[k], band)} |"
              for k in [a.reference, *a.arms()]]
    return [*lines, ""]


def converged_text(s) -> str:
    return "yes" if s.converged and s.fresh_converged() else "no"


def reference_words(reference: str) -> str:
    """The reference arm in a sentence: an ablation's and a compare's (the `base` variant) name the rules, a
    setting names itself."""
    return {AS_GIVEN: "the rules as given", "base": "the base rules"}.get(reference, reference)


def findings(a: Arms, rows: list[str], what: str, doing: str) -> list[str]:
    ref = a.studies[a.reference]
    name = figure_name(ref)
    out = [f"With {reference_words(a.reference)}, {name if name.startswith('seat') else 'the ' + name} when "
           f"{players_words(ref)} best is {headline(ref)}."]
    moved = [k for k in rows if a.verdict(k) in ("up", "down")]
    out += [f"{k}{' ' + doing if doing else ''} moves it by {points(a.changes[k])} ({headline(a.studies[k])})."
            for k in moved]
    if rows:
        out.append(f"{len(moved)} of {len(rows)} {what}s change it detectably at equilibrium: the interval of each "
                   "change holds for the whole family at 95% and spans both arms' brackets.")
    unsettled = [k for k in [a.reference, *rows] if converged_text(a.studies[k]) == "no"]
    if unsettled:
        out.append(f"Not converged: {names(unsettled)} (a fresh best response or the search player still gains, "
                   "or the oracle ran out of rounds); what they still gain is inside the intervals above.")
    return out


def rests_on(a: Arms, what: str) -> list[str]:
    ref = a.studies[a.reference]
    b = ref.budget
    return [f"Each {what} was solved as a game, as `dsim equilibrium` does: every built-in strategy per side, grown "
            f"by best responses{search_words(ref)}. Every {what} after the first started from the strategies "
            f"{a.reference} found (warm start) and grew its own.",
            f"The same seeds for every {what} ({spec_words(a.game, a.base)}); cells played until their 95% interval "
            f"was within ±{100 * b.precision:.1f} points (at most {b.cap:,} games).",
            "A change's interval adds the two studies' bootstrap variances as if independent (their shared seeds "
            "make them positively correlated, so it is conservative), holds for every change at once (single-step "
            "max-|t|), and is widened by what each study's bracket adds to its value's interval.",
            f"Solved in {minutes(a)} in all ("
            + "; ".join(f"{k}: {s.seconds / 60:.1f}" for k, s in a.studies.items()) + ")."]


def minutes(a: Arms) -> str:
    return f"{sum(s.seconds for s in a.studies.values()) / 60:.0f} minutes"


def figures(a: Arms, band: tuple[float, float] | None = None) -> dict:
    """--format json: the figure at equilibrium for each arm (%) with its bracket, each change (points); with a
    target band (%), whether each arm reaches it ("yes", "maybe", "no")."""
    ref = a.studies[a.reference]
    out = {"figure": figure_name(ref), "reference": a.reference,
           "seconds": sum(s.seconds for s in a.studies.values()),
           "at_reference": numbers.estimate(ref.value, True),
           "reference_bracket": numbers.estimate(ref.bracket(), True),
           "arms": [{"arm": k, "at_equilibrium": numbers.estimate(a.studies[k].value, True),
                     "bracket": numbers.estimate(a.studies[k].bracket(), True),
                     "change": {**numbers.change(a.changes[k], True), "verdict": a.verdict(k),
                                "detected": a.verdict(k) in ("up", "down")},
                     "converged": converged_text(a.studies[k]) == "yes"} for k in a.arms()]}
    if band:
        out["band"] = {"low": 100 * band[0], "high": 100 * band[1], "unit": "%",
                       "reaches": {k: reaches(a.studies[k], band) for k in [a.reference, *a.arms()]}}
    return out


def table(a: Arms, rows: list[str]) -> pl.DataFrame:
    return pl.DataFrame([{"arm": k, "value": a.studies[k].value.value, "lo": a.studies[k].value.lo,
                          "hi": a.studies[k].value.hi, "bracket_lo": a.studies[k].bracket().lo,
                          "bracket_hi": a.studies[k].bracket().hi, "change": a.changes[k].value,
                          "change_lo": a.changes[k].lo, "change_hi": a.changes[k].hi, "verdict": a.verdict(k),
                          "converged": converged_text(a.studies[k]) == "yes"} for k in rows],
                        schema={"arm": pl.Utf8, "value": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
                                "bracket_lo": pl.Float64, "bracket_hi": pl.Float64, "change": pl.Float64,
                                "change_lo": pl.Float64, "change_hi": pl.Float64, "verdict": pl.Utf8,
                                "converged": pl.Boolean})
