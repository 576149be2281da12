"""Arms played against the rules as given, on the same seeds: the paired change each makes to the headline
outcomes, judged as a family and ranked. `dsim sensitivity` and `dsim ablate` are built on this (their tornado
charts are drawn by `sim.report.arms`).

Per headline outcome every arm is one family (`intervals_family.element_family`): detection is controlled over
the family (simultaneous intervals, single-step max-|t|), so twenty arms that change nothing are called "changed" in 5% of studies rather than in half of them, and the
ranking carries bootstrap rank intervals and says which neighbours the data tell apart.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.analysis.compare import applies, arm_games, paired_frames, run_arms
from sim.analysis.coverage import identical_games
from sim.analysis.intervals import Interval
from sim.analysis.intervals_family import ElementFamily, element_family
from sim.analysis.intervals_paired import Judged, PairedChange
from sim.engine.game import Game, Outcome
from sim.engine.spec import RunSpec

N_BOOT = 1000          # resamples behind the rank intervals


@dataclass(frozen=True)
class Effect(Judged):
    """One arm's change to one headline outcome. `result` is the paired change on its own (each arm's figure,
    games changed); `shown` is the family's interval, the one reports print, and `verdict` is read off it.
    `rank` is the arm's key's place in the outcome's ranking (1 = largest change), [rank_lo, rank_hi] its 95%
    bootstrap interval. `kind` is the unit a change is read in: "rate" for a rate or a mean of shares (points),
    else "mean"."""

    key: str
    alternative: object
    outcome: str
    label: str
    kind: str
    result: PairedChange
    identical: bool          # the alternative changed no game at all
    shown: Interval
    verdict: str
    p_adjusted: float
    rank: int
    rank_lo: int
    rank_hi: int


def effect_rows(effects: list[Effect], key_name: str) -> list[dict]:
    """The effects as plain rows (for --format json and the Parquet table)."""
    return [{key_name: e.key, "alternative": str(e.alternative), "outcome": e.outcome, "difference": e.shown.value,
             "lo": e.shown.lo, "hi": e.shown.hi, "lo_open": e.shown.lo_open, "hi_open": e.shown.hi_open,
             "verdict": e.verdict, "p_adjusted": e.p_adjusted, "p": e.result.p_value, "rank": e.rank,
             "rank_lo": e.rank_lo, "rank_hi": e.rank_hi, "identical": e.identical} for e in effects]


def against_base(game: Game, base: RunSpec, planned: list[tuple], out: Path, jobs: int, precision: float | None,
                 label: str, n_boot: int = N_BOOT) -> tuple[list[Effect], dict[str, ElementFamily], int]:
    """Play (key, alternative, spec) arms and the base in lockstep; the headline effects, each headline
    outcome's family, and games per arm."""
    specs = [dataclasses.replace(base, extra={label: "as given"})] + [s for *_, s in planned]
    played = run_arms(specs, out, jobs, precision)
    frames = paired_frames([arm_games(out, s) for s in specs])
    same = [identical_games(frames[0], f, game.label_columns()) for f in frames[1:]]
    effects, families = [], {}
    for o in game.outcomes():
        if o.headline:
            fam, found = judge_outcome(o, frames, planned, same, n_boot)
            if found:
                families[o.name] = fam
                effects += found
    return effects, families, played


def judge_outcome(o: Outcome, frames, planned, same, n_boot: int = N_BOOT) -> tuple[ElementFamily | None, list]:
    """Every arm's change to one outcome as one family, grouped by key (an assumption's alternatives rank as
    one, by the largest of them). Arms where the outcome applies to no game are left out."""
    base = o.values(frames[0])
    xs = [o.values(f) for f in frames[1:]]
    keep = [i for i, x in enumerate(xs) if applies(base, x)]
    if not keep:
        return None, []
    keys = [planned[i][0] for i in keep]
    fam = element_family(base, [xs[i] for i in keep], [f"{k}={planned[i][1]}" for k, i in zip(keys, keep)],
                         keys, n_boot=n_boot)
    f = fam.family
    kind = "rate" if o.shows_percent() else o.kind
    return fam, [Effect(k, planned[i][1], o.name, o.label or o.name, kind, fam.changes[j], same[i],
                        f.intervals[j], f.verdicts[j], float(f.p_adjusted[j]), fam.rank.get(k, 0),
                        fam.rank_lo.get(k, 0), fam.rank_hi.get(k, 0))
                 for j, (k, i) in enumerate(zip(keys, keep))]


def ranked(effects: list[Effect], outcome: str) -> list[tuple[str, float, list[Effect]]]:
    """Assumptions (or elements) in the family's ranking for one outcome, largest change first: (key, its
    largest |change|, its effects)."""
    by_key: dict[str, list[Effect]] = {}
    for e in effects:
        if e.outcome == outcome:
            by_key.setdefault(e.key, []).append(e)
    rows = [(k, max(abs(e.result.diff.value) for e in es), es) for k, es in by_key.items()]
    return sorted(rows, key=lambda r: (r[2][0].rank or np.inf, -r[1]))


def largest(es: list[Effect]) -> Effect:
    return max(es, key=lambda e: abs(e.result.diff.value))


def detected(e: Effect) -> bool:
    return e.detected


def untouched(effects: list[Effect], outcome: str) -> bool:
    """No arm changed a single game's value of this outcome."""
    return all(e.result.identical for e in effects if e.outcome == outcome)
