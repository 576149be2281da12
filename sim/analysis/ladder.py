"""`dsim ladder`: does a headline finding survive better play?

The finding is played at rising skill on the same seeds: everyone random; the default heuristics; each side's
best response (its default strategy's weights tuned by `dsim optimize` against the other defaults); and every
side tuned at once. Each level's estimate has its interval, each level is paired against the default, and the
report (`sim.report.ladder`) says in words whether the finding holds, grows, shrinks, vanishes or reverses as
skill rises.
Tuning each side against the defaults is a best response, not an equilibrium: the report says so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.analysis.optimize import best_response
from sim.analysis.stats import Estimate, PairedResult, mean_ci, paired, wilson
from sim.engine import seeding
from sim.engine.errors import DsimError
from sim.engine.game import Game, Outcome
from sim.engine.spec import RunSpec
from sim.engine.strategy import Seat, lineup_label


@dataclass
class Level:
    name: str
    lineup: dict
    estimate: Estimate | None = None
    against_default: PairedResult | None = None
    note: str = ""


def pick_outcome(game: Game, name: str | None) -> Outcome:
    outcomes = {o.name: o for o in game.outcomes()}
    if name is None:
        return next((o for o in game.outcomes() if o.headline), game.outcomes()[0])
    if name not in outcomes:
        raise DsimError(f"unknown outcome '{name}' for {game.name} (known: {', '.join(outcomes)})")
    return outcomes[name]


def levels(game: Game, base: RunSpec, iters: int, popsize: int, tune_n: int) -> list[Level]:
    """Random, default, each side's best response, every side tuned at once. In a seat game the sides are
    alike: the first seat is tuned against the defaults, then every seat plays those weights."""
    out = [Level("random", game.lineup("random")), Level("default", dict(base.lineup))]
    roles = game.active_roles(base.players)
    tuned = dict(base.lineup)
    sides = []
    for role in roles[:1] if game.seat_game() else roles:
        seat = base.lineup[role]
        if not seat.strategy.bounds:
            out[1].note += f"{role}'s default ({seat.strategy.name}) has no weights to tune. "
            continue
        train = dataclasses.replace(base, n=tune_n)
        _, strategy, best, before, after, _ = best_response(game, train, seat.strategy.name, role, iters, popsize)
        lineup = dict(base.lineup)
        lineup[role] = Seat(strategy, np.asarray(best, dtype=np.float64))
        tuned[role] = lineup[role]
        sides.append(role)
        out.append(Level(f"{role} tuned", lineup,
                         note=f"{role}'s {strategy.name} weights tuned against the defaults: "
                              + (f"training score {before:.3f} → {after:.3f}" if after > before else
                                 "the search found no better weights than the defaults")))
    if game.seat_game() and sides and all(base.lineup[r].strategy is base.lineup[sides[0]].strategy for r in roles):
        every = {r: tuned[sides[0]] for r in base.lineup}
        out.append(Level("every seat tuned", every, note=f"every seat plays {sides[0]}'s tuned weights"))
    elif len(sides) > 1:
        out.append(Level("all tuned", tuned, note="each side's best response to the defaults, played together"))
    return out


def play(game: Game, base: RunSpec, lineup: dict, outcome: Outcome, n: int) -> np.ndarray:
    seed = seeding.chunk_seed(base.seed + 1, 0)      # not the tuning seeds
    tables = game.simulate(base.rules, base.players, lineup, seed, n)
    return outcome.values(pl.DataFrame(tables["games"]))


@dataclass(frozen=True)
class Ladder:
    """A finding (one outcome) played at rising skill on the same seeds: each level's estimate and its paired
    difference from the default level, and the reference the finding is read against (if any)."""

    game: Game
    base: RunSpec
    outcome: Outcome
    steps: list[Level]
    reference: float | None

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{"level": s.name, "lineup": lineup_label(s.lineup), "value": s.estimate.value,
                              "lo": s.estimate.lo, "hi": s.estimate.hi, "games": s.estimate.n,
                              "vs_default": s.against_default.diff.value, "vs_default_p": s.against_default.p_value}
                             for s in self.steps])


def ladder(game: Game, base: RunSpec, outcome_name: str | None = None, reference: float | None = None,
           iters: int = 4, popsize: int = 5, tune_n: int | None = None) -> Ladder:
    outcome = pick_outcome(game, outcome_name)
    steps = levels(game, base, iters, popsize, tune_n or max(2_000, base.n // 10))
    values = {s.name: play(game, base, s.lineup, outcome, base.n) for s in steps}
    for s in steps:
        x = values[s.name]
        ok = x[~np.isnan(x)]
        s.estimate = wilson(int(ok.sum()), len(ok)) if outcome.kind == "rate" else mean_ci(ok)
        s.against_default = paired(values["default"], x, outcome.kind)
    return Ladder(game, base, outcome, steps, reference)
