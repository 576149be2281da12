"""Runs a game: split into chunks, play each chunk's kernel (joblib workers or a Dask cluster), stream to Parquet.

A run interrupted by Ctrl-C, a killed process, a lost worker or a full disk keeps its completed chunks;
the same command with `resume` plays only the missing ones (see `sim.core.resume`).
"""

from __future__ import annotations

import itertools
import os
import time
import warnings
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core import seeding, store
from sim.core.errors import DsimError
from sim.core.resume import finished, keeping_chunks, open_writer
from sim.core.game import Game, Rules
from sim.core.strategy import Lineup, Seat, lineup_label, load_plugin
from sim.core.version import code_version


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
        raise DsimError(f"--jobs must be from 1 to {most} worker processes, got {jobs}")
    return jobs


def play_chunk(game_name: str, rules: Rules, players: int, lineup_spec: dict, plugins: tuple,
               root_seed: int, chunk: int, n: int, first_id: int) -> dict:
    """One chunk, in any process: rebuild the lineup from names (functions are not pickled)."""
    from sim.games import get_game
    for p in plugins:
        load_plugin(p)
    game = get_game(game_name)
    lineup = {role: Seat(game.strategies.get(name, role), np.asarray(params, dtype=np.float64))
              for role, (name, params) in lineup_spec.items()}
    tables = game.simulate(rules, players, lineup, seeding.chunk_seed(root_seed, chunk), n)
    return {name: _with_game_id(columns, first_id, n) for name, columns in tables.items()}


def _with_game_id(columns: dict, first_id: int, n: int) -> dict:
    """Global game ids: the games table has one row per game; finer tables carry a local `game` index."""
    local = columns.pop("game", None)
    ids = np.arange(n, dtype=np.int64) if local is None else np.asarray(local, dtype=np.int64)
    return {"game_id": first_id + ids, **columns}


def scheduler() -> str | None:
    """The Dask scheduler chunks go to: DSIM_SCHEDULER (an address, or 'local'); None means joblib."""
    return os.environ.get("DSIM_SCHEDULER") or None


def iter_chunks(spec: RunSpec, jobs: int = 1, start: int = 0):
    """Yield (chunk index, games in it, tables) in order from chunk `start`, playing chunks on `jobs`
    processes, or on a Dask cluster when DSIM_SCHEDULER is set. Chunk i is seeded alike on every backend."""
    size = spec.size()
    plan = seeding.chunks(spec.n, size, start)
    args = (spec.game.name, spec.rules, spec.players, spec.lineup_spec(), spec.plugins, spec.seed)
    if scheduler():
        yield from _dask_chunks(plan, args, size, scheduler(), jobs)
        return
    if jobs == 1:
        for ci, cn in plan:
            yield ci, cn, play_chunk(*args, ci, cn, ci * size)
        return
    from joblib import Parallel, delayed
    # a run that stops at its precision, or on Ctrl-C, closes this generator on purpose: the chunks in flight
    # are not wanted, and joblib's warning about them would bury the one line the user needs
    warnings.filterwarnings("ignore", message=r"\d+ tasks (have been successfully executed|which were still being "
                            r"processed)", category=UserWarning)
    results = Parallel(n_jobs=jobs, return_as="generator", pre_dispatch="2*n_jobs")(
        delayed(play_chunk)(*args, ci, cn, ci * size) for ci, cn in plan)
    for (ci, cn), tables in zip(seeding.chunks(spec.n, size, start), results):    # the plan again, lazily
        yield ci, cn, tables


def _dask_chunks(plan, args, size: int, address: str, jobs: int):
    """Chunks on dask.distributed, results taken in chunk order with a bounded number in flight (so
    memory stays flat however many chunks there are). 'local' starts a cluster of `jobs` processes."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise DsimError("DSIM_SCHEDULER is set but dask.distributed is not installed "
                        "(pip install 'dsim[dask]')") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=10)
        except OSError as e:
            raise DsimError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        in_flight = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        pending: deque = deque()
        todo = iter(plan)
        for ci, cn in itertools.islice(todo, in_flight):
            pending.append((ci, cn, client.submit(play_chunk, *args, ci, cn, ci * size, pure=False)))
        while pending:
            ci, cn, future = pending.popleft()
            tables = future.result()
            for nci, ncn in itertools.islice(todo, 1):
                pending.append((nci, ncn, client.submit(play_chunk, *args, nci, ncn, nci * size, pure=False)))
            yield ci, cn, tables
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(spec: RunSpec, out: Path, jobs: int = 1, progress: bool = True) -> dict:
    """Play spec.n games and write them under `out`; returns a small summary of the run."""
    check_jobs(jobs)
    spec.game.check_players(spec.rules, spec.players)
    done = finished(spec, out)
    if done is not None:
        return {"path": out / "games" / store.partition_path(spec.partition()), "n": done["n"], "seconds": 0.0,
                "games_per_s": 0.0, "resumed_chunks": -1}
    writer = open_writer(spec, out)
    kept = writer.done
    start = time.perf_counter()
    bar = _progress(progress, spec)
    try:
        with keeping_chunks([writer], out):
            if bar and kept:
                bar[0].update(bar[1], advance=min(spec.n, kept * spec.size()))
            for ci, cn, tables in iter_chunks(spec, jobs, start=kept):
                writer.write_chunk(ci, tables)
                if bar:
                    played = (ci + 1 - kept) * spec.size()
                    rate = f"{min(played, spec.n) / (time.perf_counter() - start):,.0f} games/s"
                    bar[0].update(bar[1], advance=cn, rate=rate)
            path = writer.commit()
    finally:
        if bar:
            bar[0].stop()
    elapsed = time.perf_counter() - start
    played = spec.n - min(spec.n, kept * spec.size())
    return {"path": path, "n": spec.n, "seconds": elapsed, "games_per_s": played / max(elapsed, 1e-9),
            "resumed_chunks": kept}


def _progress(enabled: bool, spec: RunSpec):
    """A rich progress bar with games/s and ETA (None when disabled)."""
    if not enabled:
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    bar = Progress(TextColumn(f"{spec.game.name} {spec.players}p"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), transient=True)
    task = bar.add_task("games", total=spec.n, rate="")
    bar.start()
    return bar, task
