"""Arms played against the rules as given, on the same seeds: the paired change each makes to the headline
outcomes, ranked. `dsim sensitivity` and `dsim ablate` are built on this (their tornado charts are drawn by
`sim.report.arms`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from sim.analysis.compare import arm_games, compare_frames, run_arms
from sim.analysis.coverage import identical_games
from sim.analysis.stats import PairedResult
from sim.engine.game import Game
from sim.engine.spec import RunSpec


@dataclass(frozen=True)
class Effect:
    key: str
    alternative: object
    outcome: str
    label: str
    kind: str
    result: PairedResult
    identical: bool          # the alternative changed no game at all


def effect_rows(effects: list[Effect], key_name: str) -> list[dict]:
    """The effects as plain rows (for --format json)."""
    return [{key_name: e.key, "alternative": str(e.alternative), "outcome": e.outcome, "difference": e.result.diff.value,
             "lo": e.result.diff.lo, "hi": e.result.diff.hi, "identical": e.identical} for e in effects]


def against_base(game: Game, base: RunSpec, planned: list[tuple], out: Path, jobs: int, precision: float | None,
                 label: str) -> tuple[list[Effect], int]:
    """Play (key, alternative, spec) arms and the base in lockstep; the headline effects and games per arm."""
    specs = [dataclasses.replace(base, extra={label: "as given"})] + [s for *_, s in planned]
    played = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    effects = []
    for (key, alt, _), frame in zip(planned, frames[1:]):
        same = identical_games(frames[0], frame, game.label_columns())
        for name, kind, r, text, headline in compare_frames(game, frames[0], frame):
            if headline:
                effects.append(Effect(key, alt, name, text or name, kind, r, same))
    return effects, played


def ranked(effects: list[Effect], outcome: str) -> list[tuple[str, float, list[Effect]]]:
    """Assumptions by the largest change any alternative makes to one outcome, largest first."""
    by_key: dict[str, list[Effect]] = {}
    for e in effects:
        if e.outcome == outcome:
            by_key.setdefault(e.key, []).append(e)
    rows = [(k, max(abs(e.result.diff.value) for e in es), es) for k, es in by_key.items()]
    return sorted(rows, key=lambda r: -r[1])


def largest(es: list[Effect]) -> Effect:
    return max(es, key=lambda e: abs(e.result.diff.value))


def detected(e: Effect) -> bool:
    return e.result.diff.lo > 0 or e.result.diff.hi < 0


def untouched(effects: list[Effect], outcome: str) -> bool:
    """No arm moved this outcome at all (every difference and interval exactly zero)."""
    return all(e.result.diff.lo == e.result.diff.hi == 0 for e in effects if e.outcome == outcome)
