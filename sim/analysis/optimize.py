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
from sim.engine import seeding
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.spec import RunSpec
from sim.engine.strategy import Seat, Strategy


def role_score(game: Game, spec: RunSpec, role: str, params: np.ndarray, seed: int, n: int) -> np.ndarray:
    lineup = dict(spec.lineup)
    lineup[role] = Seat(lineup[role].strategy, np.asarray(params, dtype=np.float64))
    tables = game.simulate(spec.rules, spec.players, lineup, seed, n)
    return game.role_scores(pl.DataFrame(tables["games"]), spec.players)[role]


def best_response(game: Game, base: RunSpec, strategy: str, role: str, iters: int = 10, popsize: int = 6):
    """Differential evolution over one role's strategy weights against the rest of `base`'s lineup, on common
    random numbers. Returns (spec with the strategy at its defaults, strategy, best weights, default training
    score, best training score, history rows)."""
    if role not in game.active_roles(base.players):
        raise DsimError(f"unknown role '{role}' for {game.name} (roles: {', '.join(game.active_roles(base.players))})")
    s = game.strategies.get(strategy, role)
    if not s.bounds:
        raise DsimError(f"strategy '{strategy}' has no tunable parameters")
    lineup = dict(base.lineup)
    lineup[role] = Seat(s, s.params())
    spec = dataclasses.replace(base, lineup=lineup)
    train_seed = seeding.chunk_seed(base.seed, 0)
    history = []

    def objective(theta):
        score = float(role_score(game, spec, role, theta, train_seed, spec.n).mean())
        history.append((*theta, score))
        return -score

    default_score = -objective(s.params())
    res = opt.differential_evolution(objective, s.bounds, maxiter=iters, popsize=popsize, seed=base.seed,
                                     polish=False, tol=0, init="latinhypercube", updating="immediate")
    if -res.fun <= default_score:          # the search found nothing better: the defaults are the best response
        return spec, s, s.params(), default_score, default_score, history
    return spec, s, res.x, default_score, -res.fun, history


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
             holdout: int | None = None) -> Optimization:
    start = time.perf_counter()
    spec, s, best, default_score, best_score, history = best_response(game, base, strategy, role, iters, popsize)
    n_check = holdout or 4 * spec.n
    check_seed = seeding.chunk_seed(base.seed + 1, 0)   # fresh seeds: the search never saw them
    before = role_score(game, spec, role, s.params(), check_seed, n_check)
    after = role_score(game, spec, role, best, check_seed, n_check)
    gain = paired_change(before, after)
    return Optimization(game, base, spec, s, role, best, default_score, best_score, history, n_check, gain,
                        time.perf_counter() - start)
