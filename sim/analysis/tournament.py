"""`dsim tournament`: round robin between strategies, seats and sides rotated over the same deals.

For each pair (A, B) every rotation of the active roles is played on the same seeds: in a two-sided or
hidden-role game A takes one side then the other; in a seat game A and B alternate seats, starting once
with A and once with B. The rotations of one pair play the same deals (the same game ids), so a deal is the
unit: A's score on a deal is its average over the rotations, and A vs B is the mean over deals with an
interval from the spread of per-deal scores (`intervals_tournament.pair_score`). Strengths are a
Bradley–Terry fit with a test of fit (`intervals_tournament.fit_tournament`): when one number per strategy
cannot explain the head-to-head scores (intransitive strengths), the report shows the matrix as the result.
`sim.report.tournament` draws the matrix and ratings.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals import share_bounds
from sim.analysis.intervals_tournament import TournamentFit, fit_tournament, pair_score
from sim.engine import store
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.runner import run
from sim.engine.spec import RunSpec


def strategy_for(entrant: str, role: str) -> str:
    """An entrant is one strategy name, or per-role names joined by '/': `hero=honest/cultist=liar`; either may
    carry parameters as in a line-up (`search:budget=50`)."""
    parts = dict(entrant_parts(entrant))
    if None in parts:
        return entrant
    if role not in parts:
        raise DsimError(f"entrant '{entrant}' names no strategy for role '{role}'")
    return parts[role]


def rotations(roles: tuple[str, ...]) -> list[tuple[bool, ...]]:
    """Which roles A holds in each rotation (the rest are B's)."""
    if len(roles) == 2:
        return [(True, False), (False, True)]
    alternate = tuple(i % 2 == 0 for i in range(len(roles)))
    return [alternate, tuple(not a for a in alternate)]


def rotation_names(roles: tuple[str, ...]) -> list[str]:
    """What A holds in each rotation, in words: a side ("dragon") in a two-sided game, its seats in a seat game."""
    names = []
    for held in rotations(roles):
        mine = [r for r, m in zip(roles, held) if m]
        names.append(mine[0] if len(roles) == 2 else ", ".join(mine))
    return names


def entrant_parts(spec: str) -> list[tuple[str | None, str]]:
    """(role, strategy with its parameters) for each part of an entrant: one part with role None for a bare
    strategy (`search:budget=50`), one per role for a per-role entrant (`hero=honest/cultist=liar`)."""
    if "=" not in spec.split(":")[0]:
        return [(None, spec.strip())]
    return [(role.strip(), strategy.strip()) for role, strategy in (p.split("=", 1) for p in spec.split("/"))]


def search_knowledge(spec: str) -> str | None:
    """Whether a search entrant knew its opponent: "informed" when its playouts play the strategies it meets
    (`informed=1`), "uninformed" when they assume the default heuristics, None for an entrant that does not
    search. Read per role of a per-role entrant: any searching role counts."""
    informed = []
    for _, strategy in entrant_parts(spec):
        name, *params = strategy.split(":")
        if name.strip() == "search":
            informed.append(any(p.strip() in ("informed=1", "informed=1.0") for p in params))
    if not informed:
        return None
    return "informed" if all(informed) else "uninformed"


def plays_defaults(spec: str, defaults: dict[str, str]) -> bool:
    """Whether an entrant plays the game's default heuristic in every role, unchanged: what an uninformed
    search's playouts assume, so such a search knew this opponent without being told."""
    if spec.strip() == "default":
        return True
    return all(":" not in strategy and (strategy == defaults.get(role) if role else
                                        all(strategy == d for d in defaults.values()))
               for role, strategy in entrant_parts(spec))


def play_pair(game: Game, base: RunSpec, a: str, b: str, out: Path, jobs: int) -> np.ndarray:
    """A's per-game scores against B: one row per rotation, one column per deal (every rotation plays the same
    seeds, so column d is the same deal, game id d, in every row)."""
    roles = game.active_roles(base.players)
    scores, ids = [], None
    for held in rotations(roles):
        text = ",".join(f"{r}={strategy_for(a if mine else b, r)}" for r, mine in zip(roles, held))
        spec = dataclasses.replace(base, lineup=game.lineup(text), extra={"tournament": [a, b]})
        run(spec, out, jobs=jobs, progress=False)
        part = spec.partition()
        games = (store.scan(out, part["game"]).filter(*[pl.col(k) == v for k, v in part.items()])
                 .sort("game_id").collect())
        if ids is not None and not np.array_equal(ids, games["game_id"].to_numpy()):
            raise DsimError(f"the rotations of {a} against {b} did not play the same deals; cannot pair them")
        ids = games["game_id"].to_numpy()
        result = game.role_scores(games, base.players)
        mine = [result[r] for r, m in zip(roles, held) if m]
        theirs = [result[r] for r, m in zip(roles, held) if not m]
        total = np.sum(mine, axis=0) + np.sum(theirs, axis=0)
        scores.append(np.divide(np.sum(mine, axis=0), total, out=np.full(len(total), 0.5), where=total > 0))
    return np.vstack(scores)


@dataclass(frozen=True)
class Standings:
    """Every pair's head-to-head score with its deal-paired interval (`score`, `lo`, `hi`: row against column,
    the diagonal NaN), the Bradley–Terry fit with its test, and one row per pair."""

    entrants: list[str]
    score: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    fit: TournamentFit
    rows: list[dict]
    sides: list[dict] = dataclasses.field(default_factory=list)   # per pair and rotation: A's score holding it

    @property
    def strength(self) -> np.ndarray:
        return self.fit.strength

    @property
    def se(self) -> np.ndarray:
        return self.fit.se

    def table(self) -> pl.DataFrame:
        return pl.DataFrame(self.rows)


def standings(entrants: list[str], pairs: dict[tuple[int, int], np.ndarray], conf: float = 0.95,
              held: list[str] | None = None) -> Standings:
    """Head-to-head scores and strengths from `pairs[(i, j)]`: i's scores against j, shape (rotations, deals).
    A deal's rotations are averaged first, so the interval's unit is the deal, not the game. `held` names what
    the row holds in each rotation (`rotation_names`): each rotation's score is kept apart too (`sides`), since in
    an asymmetric game the mean over sides hides two different results."""
    k = len(entrants)
    score = np.full((k, k), np.nan)
    lo, hi = score.copy(), score.copy()
    fit = fit_tournament(k, pairs, unit="deal")
    rows = []
    for (i, j), s in pairs.items():
        ps = pair_score(s)
        score[i, j], score[j, i] = ps.mean, 1 - ps.mean
        lo[i, j], hi[i, j] = share_bounds(ps.mean, ps.se, ps.deals, conf)
        lo[j, i], hi[j, i] = 1 - hi[i, j], 1 - lo[i, j]
        rows.append({"a": entrants[i], "b": entrants[j], "score_a": ps.mean, "lo": lo[i, j], "hi": hi[i, j],
                     "se": ps.se, "fitted_a": float(fit.fitted[i, j]), "deals": ps.deals, "games": ps.games})
    sides = [side_score(entrants[i], entrants[j], name, row, conf)
             for (i, j), s in pairs.items() for name, row in zip(held or [], np.atleast_2d(s))]
    return Standings(list(entrants), score, lo, hi, fit, rows, sides)


def side_score(a: str, b: str, held: str, scores: np.ndarray, conf: float) -> dict:
    """A's score against B in one rotation (holding `held`), deals as the unit."""
    d = len(scores)
    mean = float(scores.mean())
    se = float(scores.std(ddof=1)) / np.sqrt(d) if d > 1 else np.nan
    lo, hi = share_bounds(mean, se, d, conf)
    return {"a": a, "b": b, "a_holds": held, "score_a": mean, "lo": lo, "hi": hi, "deals": d}


@dataclass(frozen=True)
class Tournament:
    """The round robin as played (game, base spec) and its standings."""

    game: Game
    base: RunSpec
    standings: Standings
    specs: dict[str, str] = dataclasses.field(default_factory=dict)     # label -> the entrant's spec


def split_label(entrant: str) -> tuple[str, str]:
    """`spec as label` names an entrant in the report (a tuned entrant's spec runs to a hundred characters):
    (label, spec); a bare spec is its own label."""
    spec, named, label = entrant.partition(" as ")
    return (label.strip() if named else spec.strip()), spec.strip()


def tournament(game: Game, base: RunSpec, entrants: list[str], out: Path, jobs: int = 1) -> Tournament:
    if len(entrants) < 2:
        raise DsimError("a tournament needs at least two strategies")
    labels, specs = zip(*(split_label(e) for e in entrants))
    if len(set(labels)) < len(labels):
        raise DsimError(f"two entrants share a name: {', '.join(sorted({x for x in labels if labels.count(x) > 1}))}")
    for e in specs:       # check every entrant can play every role before playing anything
        for r in game.active_roles(base.players):
            game.strategies.get(strategy_for(e, r).split(":")[0], r)      # parameters follow a ':'
    pairs = {(i, j): play_pair(game, base, specs[i], specs[j], out, jobs)
             for i, j in itertools.combinations(range(len(specs)), 2)}
    held = rotation_names(game.active_roles(base.players))
    return Tournament(game, base, standings(list(labels), pairs, held=held), dict(zip(labels, specs)))
