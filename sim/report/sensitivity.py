"""`dsim sensitivity`'s report: what moves each headline outcome most, in a sentence, then a tornado chart and
the table of every alternative; beside it the data (Parquet) and the findings (JSON) a balance report in the same
folder quotes."""

from __future__ import annotations

import json
from pathlib import Path

from sim.analysis.arms import Effect, detected, largest, ranked, untouched
from sim.analysis.sensitivity import Sensitivity, undeclared
from sim.engine.game import Game
from sim.engine.spec import RunSpec
from sim.engine.strategy import lineup_label
from sim.report.arms import (detected_text, outcome_family, rank_text, ranking_text, reading, signed, tornado,
                             units)
from sim.report import layout
from sim.report.changes import zero_text
from sim.report.charts import ChartSaver
from sim.report.html import write_report
from sim.report.labels import p_text, rule_words, spec_words, value_words


def write(s: Sensitivity, to: Path) -> Path:
    """`sensitivity_<game>.md` and its HTML twin, `.parquet` (every effect) and `.json` (the findings)."""
    game, base, effects = s.game, s.base, s.effects
    to.mkdir(parents=True, exist_ok=True)
    s.table().write_parquet(to / f"sensitivity_{game.name}.parquet")
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    (to / f"sensitivity_{game.name}.json").write_text(json.dumps(
        {"findings": [sentence(effects, o, base.rules.ruleset) for o in outcomes], "games_per_arm": s.played,
         "players": base.players, "lineup": lineup_label(base.lineup), "base": spec_words(game, base)}, indent=1))
    chart = ChartSaver(to, f"sensitivity_{game.name}")
    lines = report_lines(game, base, effects, s.played, chart, s.families)
    return write_report(to, f"sensitivity_{game.name}", "\n".join(lines), game.title)


def sentence(effects: list[Effect], outcome: str, ruleset=None) -> str:
    """The finding in words: what moves this outcome most, how sure the ranking is, how much the rest move it at
    most, and how many alternatives the family detects. Every word is read off the family intervals; each rule is
    named in words (`ruleset` gives the items of indexed rules)."""
    rows = ranked(effects, outcome)
    if not rows:
        return ""
    if untouched(effects, outcome):
        return f"No assumed value changes {rows[0][2][0].label} at all."
    key, _, es = rows[0]
    key = rule_words(key, ruleset)
    top = largest(es)
    label, kind = _cap(top.label), top.kind
    found = detected_text(effects, outcome, "alternatives")
    if not any(detected(e) for e in effects if e.outcome == outcome):
        return (f"No assumed value moves {top.label} detectably ({found}): the largest change, "
                f"{key} {value_words(top.alternative)}, is {signed(top)}.")
    if len(es) == 1:
        text = f"{label} moves {signed(top)} under the other plausible {key} ({value_words(top.alternative)})"
    else:
        text = (f"{label} moves {signed(top)} across {len(es)} plausible {key} values "
                f"(the most at {value_words(top.alternative)})")
    text += f", {lead(top, key)}"
    if len(rows) > 1:
        text += f"; {runner_up(rule_words(rows[1][0], ruleset), largest(rows[1][2]))}"
    if len(rows) > 2:
        text += f"; nothing else moves it more than {units(kind, rows[2][1])}"
    return text + f"; {found}."


def runner_up(key: str, e: Effect) -> str:
    if e.result.identical:
        return f"{key} changes no game of {e.result.n:,} ({zero_text(e.result, e.shown, e.kind)})"
    return f"{key} moves it {signed(e)}"


def lead(top: Effect, key: str) -> str:
    """Whether the ranking singles out the top assumption: only a rank interval of [1, 1] does."""
    if not detected(top):
        return f"not detected after the family's control (rank {rank_text(top)})"
    if top.rank_hi == 1:
        return "the largest effect (rank interval [1, 1])"
    return f"not told apart from the next (rank {rank_text(top)})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def report_lines(game: Game, base: RunSpec, effects: list[Effect], played: int, chart: ChartSaver,
                 families=None) -> list[str]:
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    families = families or {}
    lines = [f"# {game.title}: what the assumed values change", "", "## Findings", ""]
    lines += [f"- {sentence(effects, o, base.rules.ruleset)}" for o in outcomes]
    lines += ["", f"Each alternative was played alone against the base ({spec_words(game, base)}): {played:,} "
              f"games per arm, seed {base.seed}, every arm on the same seeds, so each change is a paired "
              "difference. The alternatives come from each assumed value's `range` or "
              "`alternatives` in the rules file, and each flag's other reading.", "",
              reading("for each headline outcome, all the alternatives"), ""]
    fixed = undeclared(game)
    if fixed:
        notes = game.load_rules().ruleset.entries
        lines += ["Not varied (no plausible alternative declared): "
                  + "; ".join(f"{k} ({notes[k].note})" for k in fixed) + ".", ""]
    for o in outcomes:
        rows = ranked(effects, o)
        label, kind = rows[0][2][0].label, rows[0][2][0].kind
        family = outcome_family(effects, o)
        body = [[key, rank_text(e), value_words(e.alternative), signed(e), e.verdict, p_text(e.p_adjusted)]
                for key, _, es in rows for e in es]
        table = layout.table(["assumption", "rank [95%]", "alternative", f"change [{family}]", "verdict",
                              "adjusted p"], body)
        lines += [f"## {label}", "", tornado(game, rows, label, kind, chart, o, family), "",
                  *layout.fold(f"All {len(body)} alternatives, largest change first", table, len(body)),
                  "", f"{_cap(detected_text(effects, o, 'alternatives'))}.", ranking_text(families.get(o)), ""]
    return lines
