"""Runs a game: split into chunks, play each chunk's kernel (joblib threads or a Dask cluster), stream to Parquet.

A run interrupted by Ctrl-C, a killed process, a lost worker or a full disk keeps its completed chunks;
the same command with `resume` plays only the missing ones (see `sim.engine.resume`).
"""

from __future__ import annotations

import importlib
import itertools
import os
import time
import warnings
from collections import deque
from pathlib import Path

import numpy as np

from sim.engine import phases, seeding, store
from sim.engine.errors import DsimError
from sim.engine.game import Rules
from sim.engine.resume import finished, keeping_chunks, open_writer
from sim.engine.spec import RunSpec, check_jobs
from sim.engine.strategy import Seat, load_plugin


def play_chunk(game_module: str, rules: Rules, players: int, lineup_spec: dict, plugins: tuple,
               root_seed: int, chunk: int, n: int, first_id: int) -> dict:
    """One chunk, in any process: the game is the `GAME` of the module named by `Game.module` (imported by
    name, so the engine never imports the games above it), the lineup rebuilt from names (functions are not
    pickled)."""
    game, lineup = game_and_lineup(game_module, lineup_spec, plugins)
    tables = game.simulate(rules, players, lineup, seeding.chunk_seed(root_seed, chunk), n)
    return {name: _with_game_id(columns, first_id, n) for name, columns in tables.items()}


def game_and_lineup(game_module: str, lineup_spec: dict, plugins: tuple = ()):
    """In a worker: the game named by its module, and a lineup rebuilt from strategy names and parameters
    (functions are not pickled), after loading the plugins that may register those strategies."""
    for p in plugins:
        load_plugin(p)
    game = importlib.import_module(game_module).GAME
    return game, {role: Seat(game.strategies.get(name, role), np.asarray(params, dtype=np.float64))
                  for role, (name, params) in lineup_spec.items()}


def _with_game_id(columns: dict, first_id: int, n: int) -> dict:
    """Global game ids: the games table has one row per game; finer tables carry a local `game` index."""
    local = columns.pop("game", None)
    ids = np.arange(n, dtype=np.int64) if local is None else np.asarray(local, dtype=np.int64)
    return {"game_id": first_id + ids, **columns}


def scheduler() -> str | None:
    """The Dask scheduler chunks go to: DSIM_SCHEDULER (an address, or 'local'); None means this process's threads."""
    return os.environ.get("DSIM_SCHEDULER") or None


def iter_chunks(spec: RunSpec, jobs: int = 1, start: int = 0):
    """Yield (chunk index, games in it, tables) in order from chunk `start`, playing chunks on `jobs` threads (the
    kernels release the GIL), or on a Dask cluster when DSIM_SCHEDULER is set. Chunk i is seeded alike on every
    backend."""
    size = spec.size()
    plan = seeding.chunks(spec.n, size, start)
    args = (spec.game.module, spec.rules, spec.players, spec.lineup_spec(), spec.plugins, spec.seed)
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
    results = Parallel(n_jobs=jobs, prefer="threads", return_as="generator", pre_dispatch="2*n_jobs")(
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


def play_tasks(fn, tasks: list[tuple], jobs: int = 1) -> list:
    """fn(*task) for every task, in order, on `jobs` threads (fn plays chunks, whose kernels release the GIL): one
    process holds the kernels once, and a task starts no worker."""
    if jobs == 1 or len(tasks) <= 1:
        return [fn(*t) for t in tasks]
    from joblib import Parallel, delayed
    return Parallel(n_jobs=jobs, prefer="threads")(delayed(fn)(*t) for t in tasks)


def warm_up(spec: RunSpec) -> None:
    """Play one game before the clock starts, so a cold numba cache compiles here and the games/s a run reports
    is the speed of play, not of the compiler. Chunks are seeded by index, so this changes no result. Not for a
    Dask cluster: its workers compile, and the machine that submits need not play at all."""
    if scheduler():
        return
    spec.game.simulate(spec.rules, spec.players, spec.lineup, seeding.chunk_seed(spec.seed, 0), 1)


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
    with phases.phase("compile or load the kernels"):
        warm_up(spec)
    start = time.perf_counter()
    bar = _progress(progress, spec)
    try:
        with keeping_chunks([writer], out):
            if bar and kept:
                bar[0].update(bar[1], advance=min(spec.n, kept * spec.size()))
            waited = time.perf_counter()
            for ci, cn, tables in iter_chunks(spec, jobs, start=kept):
                phases.add("first chunk" if ci == kept else "play (waiting for chunks)",
                           time.perf_counter() - waited)
                with phases.phase("write Parquet"):
                    writer.write_chunk(ci, tables)
                if bar:
                    played = (ci + 1 - kept) * spec.size()
                    rate = f"{min(played, spec.n) / (time.perf_counter() - start):,.0f} games/s"
                    bar[0].update(bar[1], advance=cn, rate=rate)
                waited = time.perf_counter()
            phases.add("play (waiting for chunks)", time.perf_counter() - waited)     # the workers' last chunks end
            with phases.phase("write Parquet"):
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
