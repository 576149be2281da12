"""`make bench`, the scale part: peak memory of a long run against --n, and the Dask overhead per chunk.

Peak RSS is sampled every 20 ms over the whole process tree of `dsim run` (one process since its chunks play on
threads; a Dask cluster's workers are processes), so it is what the machine must hold, not one process's share.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def tree_memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) bytes of a process and all its descendants (Linux /proc). RSS counts a shared page once per
    process that maps it (numba's and numpy's libraries in the command and in each worker); PSS splits it
    between them, so the tree's PSS is what the machine holds for it."""
    rss = pss = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue                    # the process ended meanwhile
    return rss, pss


def sampled_run(cmd: list[str], cwd=None, env=None) -> tuple[int, str, float, int, int]:
    """Run a command, sampling its process tree's memory every 20 ms: (exit code, stderr, seconds, peak RSS bytes,
    peak PSS bytes)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0, 0]

    def sample():
        while proc.poll() is None:
            rss, pss = tree_memory(proc.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = proc.communicate()
    sampler.join()
    return proc.returncode, err, time.perf_counter() - start, peak[0], peak[1]


def peak_rss_run(game: str, n: float, jobs: int = 2, env: dict | None = None) -> dict:
    """Run `dsim run` in a child process (with `env`, if given), sampling the tree's memory; returns seconds and
    the peak RSS and PSS bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "sim.cli.main", "run", "--game", game, "--n", f"{n:g}", "--jobs", str(jobs),
               "--out", str(Path(tmp) / "res"), "--no-progress"]
        code, err, seconds, peak, pss = sampled_run(cmd, env=env)
        if code:
            raise RuntimeError(f"{' '.join(cmd)} failed: {err.strip()[-300:]}")
        return {"game": game, "n": n, "jobs": jobs, "seconds": seconds, "peak_rss": peak, "peak_pss": pss}


def dask_overhead(game: str = "dragonwake", chunks: int = 200, chunk_size: int = 2_000) -> dict:
    """Seconds per chunk that a Dask cluster (one worker process, on this machine) adds to the same chunks
    played in this process: scheduling, pickling the arguments, sending the tables back."""
    from dask.distributed import Client, LocalCluster

    from sim.engine.runner import iter_chunks
    from sim.engine.spec import RunSpec
    from sim.games import get_game
    g = get_game(game)
    spec = RunSpec(g, g.load_rules(), g.default_players, g.lineup(None), chunks * chunk_size, 1,
                   chunk_size=chunk_size)

    def timed() -> float:
        start = time.perf_counter()
        for _ in iter_chunks(spec, 1):
            pass
        return time.perf_counter() - start

    before = os.environ.pop("DSIM_SCHEDULER", None)
    try:
        timed()                                     # warm: kernel loaded in this process
        local = min(timed() for _ in range(3))
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(lambda: None)
            os.environ["DSIM_SCHEDULER"] = cluster.scheduler_address
            timed()                                 # warm: kernel loaded in the worker
            remote = min(timed() for _ in range(3))
    finally:
        os.environ.pop("DSIM_SCHEDULER", None)
        if before is not None:
            os.environ["DSIM_SCHEDULER"] = before
    return {"game": game, "chunks": chunks, "chunk_size": chunk_size, "local_s": local, "dask_s": remote,
            "per_chunk_ms": 1000 * (remote - local) / chunks}


def scale_section(games: list[str], sizes: tuple[float, float] = (1e6, 1e7)) -> list[str]:
    """Peak memory of `dsim run` at two sizes for every game: within 15% of each other when nothing grows
    with --n."""
    small, large = sizes
    lines = ["", "## Scale", "", "Peak resident memory of the whole `dsim run --jobs 2` process tree (one process, "
             f"its chunks on two threads, report included), sampled every 20 ms, at {small:.0e} and {large:.0e} games:", "",
             f"| game | wall-clock at {large:.0e} | games/s | peak RSS at {small:.0e} | at {large:.0e} | ratio |",
             "|---|---|---|---|---|---|"]
    for game in games:
        a, b = peak_rss_run(game, small), peak_rss_run(game, large)
        ratio = b["peak_rss"] / a["peak_rss"]
        lines.append(f"| {game} | {b['seconds']:.0f} s | {large / b['seconds']:,.0f} | "
                     f"{a['peak_rss'] / 2**20:,.0f} MiB | {b['peak_rss'] / 2**20:,.0f} MiB | {ratio:.2f}"
                     f"{'' if ratio <= 1.15 else ' (grows)'} |")
        print(lines[-1], flush=True)
    try:
        d = dask_overhead()
    except ImportError:
        lines += ["", "Dask overhead: dask.distributed is not installed."]
        return lines
    lines += ["", f"Dask overhead per chunk: {d['per_chunk_ms']:.1f} ms ({d['chunks']} chunks of "
              f"{d['chunk_size']:,} {d['game']} games: {d['local_s']:.2f} s in one process, {d['dask_s']:.2f} s "
              "through a local scheduler and one worker process; best of three)."]
    print(lines[-1], flush=True)
    return lines
