"""`dsim tournament`: round robin between strategies, seats and sides rotated over the same deals.

For each pair (A, B) every rotation of the active roles is played on the same seeds: in a two-sided or
hidden-role game A takes one side then the other; in a seat game A and B alternate seats, starting once
with A and once with B. A's score in a game is the share of the game's result its roles earned, so
A vs B is A's average score over all rotations (0.5 = even). Ratings are a Bradley-Terry fit of those
scores, with intervals from the fit's observed information. `sim.report.tournament` draws the matrix and ratings.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from scipy import optimize as opt

from sim.analysis.stats import mean_ci
from sim.engine import store
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.runner import run
from sim.engine.spec import RunSpec


def strategy_for(entrant: str, role: str) -> str:
    """An entrant is one strategy name, or per-role names joined by '/': `hero=honest/cultist=liar`."""
    if "=" not in entrant:
        return entrant
    parts = dict(p.split("=", 1) for p in entrant.split("/"))
    if role not in parts:
        raise DsimError(f"entrant '{entrant}' names no strategy for role '{role}'")
    return parts[role]


def rotations(roles: tuple[str, ...]) -> list[tuple[bool, ...]]:
    """Which roles A holds in each rotation (the rest are B's)."""
    if len(roles) == 2:
        return [(True, False), (False, True)]
    alternate = tuple(i % 2 == 0 for i in range(len(roles)))
    return [alternate, tuple(not a for a in alternate)]


def play_pair(game: Game, base: RunSpec, a: str, b: str, out: Path, jobs: int) -> np.ndarray:
    """A's per-game scores against B, over every rotation."""
    roles = game.active_roles(base.players)
    scores = []
    for held in rotations(roles):
        text = ",".join(f"{r}={strategy_for(a if mine else b, r)}" for r, mine in zip(roles, held))
        spec = dataclasses.replace(base, lineup=game.lineup(text), extra={"tournament": [a, b]})
        run(spec, out, jobs=jobs, progress=False)
        part = spec.partition()
        games = (store.scan(out, part["game"]).filter(*[pl.col(k) == v for k, v in part.items()])
                 .sort("game_id").collect())
        result = game.role_scores(games, base.players)
        mine = [result[r] for r, m in zip(roles, held) if m]
        theirs = [result[r] for r, m in zip(roles, held) if not m]
        total = np.sum(mine, axis=0) + np.sum(theirs, axis=0)
        scores.append(np.divide(np.sum(mine, axis=0), total, out=np.full(len(total), 0.5), where=total > 0))
    return np.concatenate(scores)


def bradley_terry(names: list[str], wins: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strengths (sum to zero) and standard errors from fractional wins[i, j] out of games[i, j]."""
    k = len(names)

    def nll(free):
        r = np.append(free, -free.sum())
        d = r[:, None] - r[None, :]
        p = 1 / (1 + np.exp(-d))
        return -(wins * np.log(np.clip(p, 1e-300, 1))).sum()

    res = opt.minimize(nll, np.zeros(k - 1), method="BFGS")
    free = res.x
    r = np.append(free, -free.sum())
    # observed information of the free parameters by finite differences of the gradient
    h = 1e-4
    grad = opt.approx_fprime
    info = np.array([(grad(free + h * e, nll, 1e-6) - grad(free - h * e, nll, 1e-6)) / (2 * h)
                     for e in np.eye(k - 1)])
    cov_free = np.linalg.pinv(info)
    jac = np.vstack([np.eye(k - 1), -np.ones(k - 1)])
    se = np.sqrt(np.clip(np.diag(jac @ cov_free @ jac.T), 0, None))
    return r, se


@dataclass(frozen=True)
class Tournament:
    """Every pair of entrants over every rotation: the row's average score against the column with its interval
    (`score`, `lo`, `hi`; the diagonal is NaN), the Bradley-Terry strengths and their standard errors, and one row
    per pair."""

    game: Game
    base: RunSpec
    entrants: list[str]
    score: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    strength: np.ndarray
    se: np.ndarray
    rows: list[dict]

    def table(self) -> pl.DataFrame:
        return pl.DataFrame(self.rows)


def tournament(game: Game, base: RunSpec, entrants: list[str], out: Path, jobs: int = 1) -> Tournament:
    if len(entrants) < 2:
        raise DsimError("a tournament needs at least two strategies")
    for e in entrants:       # check every entrant can play every role before playing anything
        for r in game.active_roles(base.players):
            game.strategies.get(strategy_for(e, r), r)
    k = len(entrants)
    score = np.full((k, k), np.nan)
    lo, hi = score.copy(), score.copy()
    wins = np.zeros((k, k))
    counts = np.zeros((k, k))
    rows = []
    for i, j in itertools.combinations(range(k), 2):
        s = play_pair(game, base, entrants[i], entrants[j], out, jobs)
        est = mean_ci(s)
        score[i, j], lo[i, j], hi[i, j] = est.value, est.lo, est.hi
        score[j, i], lo[j, i], hi[j, i] = 1 - est.value, 1 - est.hi, 1 - est.lo
        wins[i, j], wins[j, i] = s.sum(), len(s) - s.sum()
        counts[i, j] = counts[j, i] = len(s)
        rows.append({"a": entrants[i], "b": entrants[j], "score_a": est.value, "lo": est.lo, "hi": est.hi, "games": len(s)})
    strength, se = bradley_terry(entrants, wins, counts)
    return Tournament(game, base, entrants, score, lo, hi, strength, se, rows)
