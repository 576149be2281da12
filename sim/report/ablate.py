"""`dsim ablate`'s report: each element's weight in each headline outcome, in a sentence, then a tornado chart of
the most and least impactful elements and the table of all; beside it the data (Parquet) and the findings (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from sim.analysis.ablate import MODES, MODES_ALREADY, Ablation
from sim.analysis.arms import Effect, detected, ranked, untouched
from sim.report.arms import detected_text, outcome_family, rank_text, ranking_text, reading, signed, tornado
from sim.report import layout
from sim.report.charts import ChartSaver
from sim.report.html import write_report
from sim.report.labels import p_text, spec_words

SHOWN = 14          # elements in the chart: the most and the least impactful


def write(a: Ablation, to: Path) -> Path:
    """`ablate_<game>_<mode>.md` and its HTML twin, `.parquet` (every effect) and `.json` (the findings)."""
    game, base, mode, effects, played, groups = a.game, a.base, a.mode, a.effects, a.played, a.groups
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ablate_{game.name}_{mode}"
    a.table().write_parquet(to / f"{stem}.parquet")
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    found = [finding(effects, o, mode) for o in outcomes]
    if a.already:
        found.append(f"{_cap(MODES_ALREADY[mode])} under these rules, so not {MODES[mode]} here: "
                     f"{', '.join(a.already)}.")
    (to / f"{stem}.json").write_text(json.dumps({"findings": found, "games_per_arm": played}, indent=1))
    chart = ChartSaver(to, stem)
    lines = [f"# {game.title}: each element's weight ({MODES[mode]})", "", "## Findings", "",
             *[f"- {f}" for f in found], "",
             f"Each element was {MODES[mode]}, alone, against the base ({spec_words(game, base)}): "
             f"{played:,} games per arm, seed {base.seed}, every arm on the same seeds, so each change is a paired "
             "difference.", "", reading("for each headline outcome, all the elements"), ""]
    for o in outcomes:
        lines += outcome_section(game, o, effects, groups, chart, a.families.get(o))
    return write_report(to, f"{stem}", "\n".join(lines), game.title)


def outcome_section(game, o: str, effects: list[Effect], groups: dict, chart, fam) -> list[str]:
    """One headline outcome: the tornado of the most and least impactful elements, then every element."""
    rows = ranked(effects, o)
    label, kind = rows[0][2][0].label, rows[0][2][0].kind
    family = outcome_family(effects, o)
    shown = rows if len(rows) <= SHOWN else rows[:SHOWN - 4] + rows[-4:]
    body = [[key, groups.get(key, ""), rank_text(es[0]), signed(es[0]), es[0].verdict, p_text(es[0].p_adjusted)]
            for key, _, es in rows]
    table = layout.table(["element", "group", "rank [95%]", f"change [{family}]", "verdict", "adjusted p"], body)
    return [f"## {label}", "", tornado(game, shown, label, kind, chart, o, family), "",
            *layout.fold(f"All {len(body)} elements, largest change first", table, len(body)), "",
            f"{_cap(detected_text(effects, o, 'elements'))}.", ranking_text(fam), ""]


def terminal_table(a: Ablation) -> list[list[str]]:
    """The terminal's table, within 80 columns: each element's change to the first headline outcome with its
    family interval, its rank and whether the change is detected (the report has every outcome, verdict and p)."""
    rows = ranked(a.effects, a.effects[0].outcome)
    first = rows[0][2][0]
    unit = " (points)" if first.kind == "rate" else ""
    head = ["element", f"change{unit}", "rank [95%]", "detected"]
    return [head] + [[key, signed(es[0]).replace(" points", ""), rank_text(es[0]), "yes" if es[0].detected else "no"]
                     for key, _, es in rows]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def finding(effects: list[Effect], outcome: str, mode: str) -> str:
    """Which element weighs most, claimed only when it is detected and its rank interval is [1, 1]; the least;
    how many the family detects; those that changed no game at all."""
    rows = ranked(effects, outcome)
    first = rows[0][2][0]
    label = _cap(first.label)
    if untouched(effects, outcome):
        return f"{label}: no element {MODES[mode]} changes it at all."
    found = detected_text(effects, outcome, "elements")
    if not any(detected(e) for e in effects if e.outcome == outcome):
        text = (f"{label}: no element {MODES[mode]} changes it detectably ({found}); the largest change is "
                f"{rows[0][0]}'s ({signed(first)})")
    elif detected(first) and first.rank_hi == 1:
        text = f"{label}: {rows[0][0]} weighs most ({MODES[mode]}, {signed(first)}; rank interval [1, 1]); {found}"
    else:
        text = (f"{label}: {rows[0][0]} has the largest change ({MODES[mode]}, {signed(first)}), but the data do "
                f"not single it out (rank {rank_text(first)}); {found}")
    if len(rows) > 1:
        text += f"; {rows[-1][0]} least ({signed(rows[-1][2][0])})"
    idle = [k for k, _, es in rows if es[0].identical]
    if idle:
        text += f"; {len(idle)} changed no game at all ({', '.join(idle[:5])}{', ...' if len(idle) > 5 else ''})"
    return text + "."
