"""`dsim optimize`: search a parameterised strategy's weights for the strongest play against a field.

Every evaluation plays the same seeds (common random numbers), so differences between weight vectors
are not drowned in dealing noise; scipy's differential evolution searches the strategy's bounds. The
weights found are then checked on fresh seeds against the defaults, paired game by game, so the
reported gain is not the search's own luck.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import optimize as opt

from sim.analysis.intervals_paired import PairedChange, paired_change
from sim.analysis.payoffs import score_chunk
from sim.engine import seeding
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.runner import play_tasks
from sim.engine.spec import RunSpec
from sim.engine.strategy import Seat, Strategy


def role_score(game: Game, spec: RunSpec, role: str, params: np.ndarray, seed: int, n: int) -> np.ndarray:
    lineup = dict(spec.lineup)
    lineup[role] = Seat(lineup[role].strategy, np.asarray(params, dtype=np.float64))
    tables = game.simulate(spec.rules, spec.players, lineup, seed, n)
    return game.role_scores(pl.DataFrame(tables["games"]), spec.players)[role]


def best_response(game: Game, base: RunSpec, strategy: str, role: str, iters: int = 10, popsize: int = 6,
                  jobs: int = 1):
    """Differential evolution over one role's strategy weights against the rest of `base`'s lineup, on common
    random numbers, a generation at a time (in parallel with `jobs`: the same games and the same answer for any
    `jobs`). Returns (spec with the strategy at its defaults, strategy, best weights, default training score,
    best training score, history rows)."""
    if role not in game.active_roles(base.players):
        raise DsimError(f"unknown role '{role}' for {game.name} (roles: {', '.join(game.active_roles(base.players))})")
    s = game.strategies.get(strategy, role)
    if not s.bounds:
        raise DsimError(f"strategy '{strategy}' has no tunable parameters")
    lineup = dict(base.lineup)
    lineup[role] = Seat(s, s.params())
    spec = dataclasses.replace(base, lineup=lineup)
    history = []

    def scores(thetas) -> list[float]:
        out = training_scores(game, spec, role, thetas, jobs)
        history.extend((*theta, score) for theta, score in zip(thetas, out))
        return out

    default_score = scores([s.params()])[0]
    res = opt.differential_evolution(lambda theta: -scores([theta])[0], s.bounds, maxiter=iters, popsize=popsize,
                                     seed=base.seed, polish=False, tol=0, init="latinhypercube", updating="deferred",
                                     workers=lambda _, population: [-x for x in scores(list(population))])
    if -res.fun <= default_score:          # the search found nothing better: the defaults are the best response
        return spec, s, s.params(), default_score, default_score, history
    return spec, s, res.x, default_score, -res.fun, history


def training_scores(game: Game, spec: RunSpec, role: str, thetas, jobs: int = 1) -> list[float]:
    """The role's mean score with each weight vector, every one on the same training games (the first chunk of
    the spec's seed), on `jobs` threads, each rebuilding the lineup from names."""
    tasks = []
    for theta in thetas:
        lineup = spec.lineup_spec()
        lineup[role] = (lineup[role][0], np.asarray(theta, dtype=np.float64).tolist())
        tasks.append((game.module, spec.rules, spec.players, lineup, spec.plugins, spec.seed, 0, spec.n))
    results = play_tasks(score_chunk, tasks, jobs)
    return [float(r[role].mean()) for r in results]


@dataclass(frozen=True)
class Optimization:
    """A strategy's weights searched for one role (`best`), with the training scores, every evaluation (`history`:
    the weights and the score), and the gain over the defaults on fresh seeds, paired game by game."""

    game: Game
    base: RunSpec
    spec: RunSpec                # the base with the strategy at its defaults for the role
    strategy: Strategy
    role: str
    best: np.ndarray
    default_score: float
    best_score: float
    history: list[tuple]
    n_check: int
    gain: PairedChange
    seconds: float

    def table(self) -> pl.DataFrame:
        return pl.DataFrame(np.array(self.history), schema=[*self.strategy.param_names, "score"], orient="row")


def optimize(game: Game, base: RunSpec, strategy: str, role: str, iters: int = 10, popsize: int = 6,
             holdout: int | None = None, jobs: int = 1) -> Optimization:
    start = time.perf_counter()
    spec, s, best, default_score, best_score, history = best_response(game, base, strategy, role, iters, popsize,
                                                                      jobs)
    n_check = holdout or 4 * spec.n
    check_seed = seeding.chunk_seed(base.seed + 1, 0)   # fresh seeds: the search never saw them
    before = role_score(game, spec, role, s.params(), check_seed, n_check)
    after = role_score(game, spec, role, best, check_seed, n_check)
    gain = paired_change(before, after)
    return Optimization(game, base, spec, s, role, best, default_score, best_score, history, n_check, gain,
                        time.perf_counter() - start)
