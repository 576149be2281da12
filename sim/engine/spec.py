"""What a run plays: the game, its rules, player count, lineup, games and seed, with the provenance every result
file carries and the checks on the numbers a user gives."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from sim.engine.errors import DsimError
from sim.engine.game import Game, Rules
from sim.engine.strategy import Lineup, lineup_label
from sim.engine.version import code_version


@dataclass
class RunSpec:
    game: Game
    rules: Rules
    players: int
    lineup: Lineup
    n: int
    seed: int = 0
    plugins: tuple[str, ...] = ()
    chunk_size: int | None = None
    extra: dict = field(default_factory=dict)   # experiment labels stored in the provenance
    resume: bool = False      # keep the completed chunks of an interrupted run of this spec, play the rest

    def size(self) -> int:
        return self.chunk_size or self.game.chunk_size

    def lineup_spec(self) -> dict:
        return {role: (seat.strategy.name, seat.params.tolist()) for role, seat in self.lineup.items()}

    def partition(self) -> dict:
        return {"game": self.game.name, "players": self.players, "rules": self.rules.hash,
                "lineup": lineup_label(self.lineup), "seed": self.seed}

    def provenance(self) -> dict:
        return {**self.rules.ruleset.provenance(), "players": self.players, "n": self.n, "seed": self.seed,
                "chunk_size": self.size(), "code_version": code_version(), "plugins": list(self.plugins),
                "strategies": {r: {"name": s.strategy.name, "params": dict(zip(s.strategy.param_names,
                                                                                 s.params.tolist()))}
                               for r, s in self.lineup.items()},
                **self.extra}


MAX_N = 10**12          # eleven days of the fastest game on one core: a larger --n is a typo


def check_n(n: float) -> int:
    if n != n or n < 1 or n > MAX_N or n != int(n):
        raise DsimError(f"--n must be a whole number of games from 1 to 1e12, got {n:g}")
    return int(n)


def check_jobs(jobs: int) -> int:
    most = max(64, 4 * (os.cpu_count() or 1))
    if not 1 <= jobs <= most:
        raise DsimError(f"--jobs must be from 1 to {most} cores, got {jobs}")
    return jobs
