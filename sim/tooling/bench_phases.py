"""`make bench`, the per-phase part: where the wall time of a plain `dsim run` goes, and its peak memory.

    python -m sim.tooling.bench_phases [--game drako] [--n 1e6] [--jobs 2]

Runs the command in a child process with DSIM_PHASES set (sim.engine.phases), sampling its whole process tree's
resident memory every 20 ms. Python's start and the imports are the time from launching the process to the
command's first line, and the exit is from the command's last exit handler to the process's end; "other" is what
the named phases leave of the rest (typer, the summary line). The chunks play on `--jobs` threads of the one
process; the same run on one thread shows that they play side by side (the kernels release the GIL). The targets:
peak memory at most 600 MiB with 2 workers; the whole command no slower than 1.05x c0ee031's (that ratio is
`make bench-compare`'s, measured A B A B in one run).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from sim.tooling.bench_scale import peak_rss_run

MEMORY_TARGET_MIB = 600
PLAYING = ("first chunk", "play (waiting for chunks)", "write Parquet")      # the run's clock, phase by phase


def measure(game: str, n: float, jobs: int) -> dict:
    """One `dsim run` with its phases: {"wall", "peak_rss", "phases": [(name, seconds)]}."""
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "phases.json"
        launched = time.time()
        run = peak_rss_run(game, n, jobs, env=dict(os.environ, DSIM_PHASES=str(record)))
        got = json.loads(record.read_text())
    wall = run["seconds"]
    start = max(0.0, got["start"] - launched)
    exit_ = max(0.0, launched + wall - got["end"])
    named = list(got["phases"].items())
    other = max(0.0, wall - start - exit_ - sum(s for _, s in named))
    return {"game": game, "n": n, "jobs": jobs, "wall": wall, "peak_rss": run["peak_rss"], "peak_pss": run["peak_pss"],
            "phases": [("start Python, import dsim", start), *named, ("other", other),
                       ("exit (Python ends)", exit_)],
            "playing": sum(got["phases"].get(p, 0.0) for p in PLAYING)}


def phases_section(game: str = "drako", n: float = 1e6, jobs: int = 2) -> list[str]:
    """The per-phase table of a plain run (kernels already in numba's cache: a second run's view)."""
    measure(game, 1e3, jobs)                          # load or compile the kernels into the cache first
    r = measure(game, n, jobs)
    one = measure(game, n, 1)
    mib = r["peak_rss"] / 2**20
    lines = ["", f"## Where a plain run's time goes ({game}, {n:,.0f} games, {jobs} threads)", "",
             f"`dsim run --game {game} --n {n:g} --jobs {jobs}` with numba's cache warm "
             f"(`sim/tooling/bench_phases.py`): {r['wall']:.1f} s in all, peak memory of the whole process tree "
             f"{mib:,.0f} MiB (RSS summed over its processes; target {MEMORY_TARGET_MIB} MiB: "
             f"{'met' if mib <= MEMORY_TARGET_MIB else 'NOT met'}). Counting each shared page once (PSS: numba's, "
             f"numpy's and Python's libraries are mapped by every process) the tree holds "
             f"{r['peak_pss'] / 2**20:,.0f} MiB at its peak. The games play at {n / r['playing']:,.0f} games/s on "
             f"{jobs} threads of one process, against {n / one['playing']:,.0f} on one thread "
             f"({one['playing'] / r['playing']:.2f}x; first chunk, play and Parquet writing), and the whole command "
             f"takes {one['wall']:.1f} s on one thread.",
             "", "| phase | seconds | share |", "|---|---|---|"]
    for name, seconds in r["phases"]:
        lines.append(f"| {name} | {seconds:.2f} | {seconds / r['wall']:.0%} |")
    print("\n".join(lines), flush=True)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="drako")
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    phases_section(args.game, args.n, args.jobs)


if __name__ == "__main__":
    main()
