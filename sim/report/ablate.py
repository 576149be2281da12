"""`dsim ablate`'s report: each element's weight in each headline outcome, in a sentence, then a tornado chart of
the most and least impactful elements and the table of all; beside it the data (Parquet) and the findings (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from sim.analysis.ablate import MODES, Ablation
from sim.analysis.arms import Effect, detected, ranked, untouched
from sim.report.arms import signed, tornado
from sim.report.charts import ChartSaver
from sim.report.html import write_report
from sim.report.labels import spec_words

SHOWN = 14          # elements in the chart: the most and the least impactful


def write(a: Ablation, to: Path) -> Path:
    """`ablate_<game>_<mode>.md` and its HTML twin, `.parquet` (every effect) and `.json` (the findings)."""
    game, base, mode, effects, played, groups = a.game, a.base, a.mode, a.effects, a.played, a.groups
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ablate_{game.name}_{mode}"
    a.table().write_parquet(to / f"{stem}.parquet")
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    found = [finding(effects, o, mode) for o in outcomes]
    (to / f"{stem}.json").write_text(json.dumps({"findings": found, "games_per_arm": played}, indent=1))
    chart = ChartSaver(to, stem)
    lines = [f"# {game.title}: each element's weight ({MODES[mode]})", "", "## Findings", "",
             *[f"- {f}" for f in found], "",
             f"Each element was {MODES[mode]}, alone, against the base ({spec_words(game, base)}): "
             f"{played:,} games per arm, seed {base.seed}, every arm on the same seeds, so each change is a paired "
             "difference with its 95% interval.", ""]
    for o in outcomes:
        rows = ranked(effects, o)
        label, kind = rows[0][2][0].label, rows[0][2][0].kind
        shown = rows if len(rows) <= SHOWN else rows[:SHOWN - 4] + rows[-4:]
        lines += [f"## {label}", "", tornado(game, shown, label, kind, chart, o), "",
                  "| element | group | change [95% CI] | p |", "|---|---|---|---|"]
        for key, _, es in rows:
            e = es[0]
            change = e.result.diff.fmt(pct=kind == "rate", digits=2 if kind == "rate" else 3)
            lines.append(f"| {key} | {groups.get(key, '')} | {change}{' (no game changed)' if e.identical else ''} | "
                         f"{e.result.p_value:.3g} |")
        lines.append("")
    return write_report(to, f"{stem}", "\n".join(lines), game.title)


def finding(effects: list[Effect], outcome: str, mode: str) -> str:
    rows = ranked(effects, outcome)
    first = rows[0][2][0]
    label = first.label[:1].upper() + first.label[1:]
    if untouched(effects, outcome):
        return f"{label}: no element {MODES[mode]} changes it at all."
    if not detected(first):
        text = (f"{label}: no element {MODES[mode]} changes it detectably; the largest change is "
                f"{rows[0][0]}'s ({signed(first)})")
    else:
        text = f"{label}: {rows[0][0]} weighs most ({MODES[mode]}, {signed(first)})"
    if len(rows) > 1:
        text += f"; {rows[-1][0]} least ({signed(rows[-1][2][0])})"
    idle = [k for k, _, es in rows if es[0].identical]
    if idle:
        text += f"; {len(idle)} changed no game at all ({', '.join(idle[:5])}{', ...' if len(idle) > 5 else ''})"
    return text + "."
