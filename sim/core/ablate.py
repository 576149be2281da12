"""`dsim ablate`: each element's weight in the headline, on the same seeds.

Every element a game declares (`Game.elements`) is taken out, replaced by a neutral element of the same
count, or forced into every game, alone, against the rules as given. The neutral replacement is the default:
removing a card also changes the deck's size and the chance of drawing everything else, and swapping it for
a dead card measures the slot as much as the card (dead-card bias); a neutral card keeps both.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl

from sim.core.arms import Effect, against_base, detected, ranked, signed, tornado, untouched
from sim.core.errors import DsimError
from sim.core.game import Game
from sim.core.html import write_report
from sim.core.report import ChartSaver
from sim.core.runner import RunSpec
from sim.core.labels import spec_words

MODES = {"neutral": "replaced by a neutral element", "remove": "removed", "force": "in every game"}
SHOWN = 14          # elements in the chart: the most and the least impactful


def arms(game: Game, base: RunSpec, mode: str, only=(), rules_file=None, variants=(), base_sets=()) -> list[tuple]:
    if mode not in MODES:
        raise DsimError(f"--mode must be one of {', '.join(MODES)}, got '{mode}'")
    elements = game.elements(base.rules)
    if not elements:
        raise DsimError(f"{game.name} declares no elements to ablate")
    names = {e.name for e in elements} | {e.group for e in elements}
    unknown = [o for o in only if o not in names]
    if unknown:
        raise DsimError(f"no element or group named {', '.join(unknown)} in {game.name} "
                        f"(elements: {', '.join(e.name for e in elements)})")
    out = []
    for e in elements:
        overrides = getattr(e, mode)
        if not overrides or (only and e.name not in only and e.group not in only):
            continue
        try:
            rules = game.load_rules(rules_file, variants, [*base_sets, *overrides])
            game.check_players(rules, base.players)
        except DsimError as err:
            raise DsimError(f"{game.name}: {e.name} {MODES[mode]} is not valid rules: {err}") from None
        out.append((e.name, MODES[mode], dataclasses.replace(base, rules=rules, extra={"ablate": f"{mode}:{e.name}"})))
    if not out:
        raise DsimError(f"no {game.name} element can be {MODES[mode]}" + (f" among {', '.join(only)}" if only else ""))
    return out


def ablate(game: Game, base: RunSpec, out: Path, to: Path, mode: str = "neutral", jobs: int = 1,
           precision: float | None = None, only=(), rules_file=None, variants=(), base_sets=()) -> tuple[Path, list[Effect]]:
    planned = arms(game, base, mode, only, rules_file, variants, tuple(base_sets))
    effects, played = against_base(game, base, planned, out, jobs, precision, "ablate")
    to.mkdir(parents=True, exist_ok=True)
    stem = f"ablate_{game.name}_{mode}"
    pl.DataFrame([{"element": e.key, "mode": mode, "outcome": e.outcome, "difference": e.result.diff.value,
                   "lo": e.result.diff.lo, "hi": e.result.diff.hi, "p": e.result.p_value, "identical": e.identical,
                   "games": played} for e in effects]).write_parquet(to / f"{stem}.parquet")
    groups = {e.name: e.group for e in game.elements(base.rules)}
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
    path = write_report(to, f"{stem}", "\n".join(lines), game.title)
    return path, effects


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
