"""`dsim sensitivity`: how much each assumed value moves the headline outcomes.

Every value a rules file labels `assumed` declares its plausible alternatives (`range = [low, high]` or
`alternatives = [...]`), and every rule flag has its other reading. Each alternative is played alone against the
rules as given, all arms on the same seeds, so each change is a paired difference with its interval. The
assumptions are ranked by the largest change any of their alternatives makes.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl

from sim.core.arms import Effect, against_base, detected, largest, ranked, signed, tornado, units, untouched
from sim.core.errors import DsimError
from sim.core.game import Game
from sim.core.html import write_report
from sim.core.report import ChartSaver
from sim.core.runner import RunSpec
from sim.core.strategy import lineup_label
from sim.core.labels import spec_words


def assumptions(game: Game, rules) -> dict[str, tuple]:
    """Every assumed value and rule flag with its plausible alternatives, in file order."""
    entries = rules.ruleset.entries
    return {k: e.alternatives for k, e in entries.items()
            if (e.source != "rulebook" or e.flag is not None) and e.alternatives}


def undeclared(game: Game) -> list[str]:
    """Assumed values that declare no alternative: sensitivity cannot say what they change."""
    entries = game.load_rules().ruleset.entries
    return [k for k, e in entries.items() if e.source == "assumed" and not e.alternatives]


def short(value) -> str:
    text = str(value).replace("'", "")
    return text if len(text) <= 28 else text[:25] + "..."


def arms(game: Game, base: RunSpec, only=(), rules_file=None, variants=(), base_sets=()) -> list[tuple]:
    """(key, alternative, spec) for every alternative, validated before anything plays."""
    table = assumptions(game, base.rules)
    unknown = [k for k in only if k not in table]
    if unknown:
        raise DsimError(f"no assumed value with alternatives named {', '.join(unknown)} in {game.name} "
                        f"(known: {', '.join(table)})")
    out = []
    for key, alternatives in table.items():
        if only and key not in only:
            continue
        for alt in alternatives:
            try:
                rules = game.load_rules(rules_file, variants, [*base_sets, (key, alt)])
                game.check_players(rules, base.players)
            except DsimError as e:
                raise DsimError(f"{game.name}: the alternative {key}={short(alt)} is not valid rules: {e}") from None
            extra = {"sensitivity": f"{key}={alt}"}
            out.append((key, alt, dataclasses.replace(base, rules=rules, extra=extra)))
    if not out:
        raise DsimError(f"{game.name} declares no alternatives for its assumed values")
    return out


def sensitivity(game: Game, base: RunSpec, out: Path, to: Path, jobs: int = 1, precision: float | None = None,
                only=(), rules_file=None, variants=(), base_sets=()) -> tuple[Path, list[Effect]]:
    planned = arms(game, base, only, rules_file, variants, tuple(base_sets))
    effects, played = against_base(game, base, planned, out, jobs, precision, "sensitivity")
    to.mkdir(parents=True, exist_ok=True)
    pl.DataFrame([{"assumption": e.key, "alternative": str(e.alternative), "outcome": e.outcome,
                   "difference": e.result.diff.value, "lo": e.result.diff.lo, "hi": e.result.diff.hi,
                   "p": e.result.p_value, "identical": e.identical, "games": played} for e in effects]
                 ).write_parquet(to / f"sensitivity_{game.name}.parquet")
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    (to / f"sensitivity_{game.name}.json").write_text(json.dumps(
        {"findings": [sentence(effects, o) for o in outcomes], "games_per_arm": played,
         "players": base.players, "lineup": lineup_label(base.lineup), "base": spec_words(game, base)}, indent=1))
    chart = ChartSaver(to, f"sensitivity_{game.name}")
    lines = report_lines(game, base, effects, played, chart)
    path = write_report(to, f"sensitivity_{game.name}", "\n".join(lines), game.title)
    return path, effects


def sentence(effects: list[Effect], outcome: str) -> str:
    """The finding in words: what moves this outcome most, and how much the rest move it at most."""
    rows = ranked(effects, outcome)
    if not rows:
        return ""
    if untouched(effects, outcome):
        return f"No assumed value changes {rows[0][2][0].label} at all."
    key, _, es = rows[0]
    top = largest(es)
    label, kind = _cap(top.label), top.kind
    if not detected(top):
        return (f"No assumed value moves {top.label} detectably: the largest change, {key}={short(top.alternative)}, "
                f"is {signed(top)}.")
    if len(es) == 1:
        text = f"{label} moves {signed(top)} under the other plausible {key} ({short(top.alternative)})"
    else:
        text = (f"{label} moves {signed(top)} across {len(es)} plausible {key} values "
                f"(the most at {short(top.alternative)})")
    if len(rows) > 1:
        text += f"; {rows[1][0]} moves it {signed(largest(rows[1][2]))}"
    if len(rows) > 2:
        text += f"; nothing else moves it more than {units(kind, rows[2][1])}"
    return text + "."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def report_lines(game: Game, base: RunSpec, effects: list[Effect], played: int, chart: ChartSaver) -> list[str]:
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    lines = [f"# {game.title}: what the assumed values change", "", "## Findings", ""]
    lines += [f"- {sentence(effects, o)}" for o in outcomes]
    lines += ["", f"Each alternative was played alone against the base ({spec_words(game, base)}): {played:,} "
              f"games per arm, seed {base.seed}, every arm on the same seeds, so each change is a paired "
              "difference with its 95% interval. The alternatives come from each assumed value's `range` or "
              "`alternatives` in the rules file, and each flag's other reading.", ""]
    fixed = undeclared(game)
    if fixed:
        notes = game.load_rules().ruleset.entries
        lines += ["Not varied (no plausible alternative declared): "
                  + "; ".join(f"{k} ({notes[k].note})" for k in fixed) + ".", ""]
    for o in outcomes:
        rows = ranked(effects, o)
        label, kind = rows[0][2][0].label, rows[0][2][0].kind
        lines += [f"## {label}", "", tornado(game, rows, label, kind, chart, o), "",
                  "| assumption | alternative | change [95% CI] | p |", "|---|---|---|---|"]
        for key, _, es in rows:
            for e in es:
                change = e.result.diff.fmt(pct=kind == "rate", digits=2 if kind == "rate" else 3)
                if e.identical:
                    change += " (no game changed)"
                lines.append(f"| {key} | {short(e.alternative)} | {change} | {e.result.p_value:.3g} |")
        lines.append("")
    return lines


