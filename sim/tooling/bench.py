"""`make bench`: games/s per core for every game's benchmark cases, against the issues' targets.

Each case plays in this one process (one core) after a warm-up that loads or compiles the kernel.
The rate is games per CPU-second of this thread, best of seven runs per case with the cases run in
turn, so a busy machine slows it less than wall-clock time would; the wall-clock rate is reported beside it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from sim.engine.version import code_version
from sim.games import all_games


class Bench:
    """One benchmark case: its rules and lineup loaded, the kernel warmed up (compiled or loaded)."""

    def __init__(self, game, case):
        self.game, self.case = game, case
        self.rules = game.load_rules()
        self.lineup = game.lineup(case.lineup)
        game.simulate(self.rules, case.players, self.lineup, 1, 1000)
        self.best_cpu = self.best_wall = float("inf")
        self.units = case.n

    def run_once(self, seed: int) -> None:
        c0, w0 = time.thread_time(), time.perf_counter()
        tables = self.game.simulate(self.rules, self.case.players, self.lineup, seed, self.case.n)
        self.best_cpu = min(self.best_cpu, time.thread_time() - c0)
        self.best_wall = min(self.best_wall, time.perf_counter() - w0)
        if self.case.unit != "games":      # e.g. rounds: the games table says how many were played
            self.units = int(tables["games"][self.case.unit].sum())

    def result(self) -> dict:
        rate = self.units / self.best_cpu
        return {"game": self.game.name, "case": self.case.label, "players": self.case.players,
                "lineup": self.case.lineup, "unit": self.case.unit, "n_games": self.case.n, "per_core": rate,
                "wall": self.units / self.best_wall, "target": self.case.target,
                "meets_target": rate >= self.case.target}


def measure_all(benches: list[Bench], repeats: int = 7) -> list[dict]:
    """Best of `repeats` runs per case, the runs of all cases taken in turn: this host's speed drifts by a
    third over minutes, so each case's best run comes from the whole benchmark's span, not a few seconds."""
    for r in range(repeats):
        for b in benches:
            b.run_once(100 + r)
    return [b.result() for b in benches]


def kept_comparisons(path: Path) -> list[str]:
    """The same-run comparisons `make bench-compare` wrote into the file: kept when the bench rewrites it."""
    old = path.read_text().splitlines() if path.exists() else []
    start = next((i for i, line in enumerate(old) if line.startswith("## This code against")), None)
    return [] if start is None else ["", *old[start:]]


def kept_section(path: Path, heading: str) -> list[str]:
    """A section of the file as the last run wrote it (a section this run skips), said to be kept."""
    old = path.read_text().splitlines() if path.exists() else []
    start = next((i for i, line in enumerate(old) if line.startswith(heading)), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    return ["", old[start], "", "*Not rerun by this `make bench` (skipped): kept as the file had it.*",
            *old[start + 1:end]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="reports/bench.md")
    ap.add_argument("--game", default=None)
    ap.add_argument("--no-scale", action="store_true", help="skip the peak-memory runs and the Dask overhead")
    ap.add_argument("--no-design", action="store_true", help="skip timing the design commands (tune, ...)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile table (a few minutes a game)")
    args = ap.parse_args()
    benches = [Bench(game, case) for game in all_games().values() if not args.game or game.name == args.game
               for case in game.bench_cases]
    results = measure_all(benches)
    for res in results:
        flag = "ok" if res["meets_target"] else "BELOW TARGET"
        print(f"{res['game']:14s} {res['case']:45s} {res['per_core']:>12,.0f} {res['unit']}/s/core "
              f"(target {res['target']:,.0f}) {flag}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Benchmark: games per second per core", "",
             f"Code {code_version()}, Python {platform.python_version()}, {platform.machine()}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. One process, one core; best of seven "
             "runs per case, the cases run in turn; rate per CPU-second of the benchmark thread "
             "(wall-clock rate beside it).", "",
             "| game | case | players | unit/s per core | wall-clock | target | meets |", "|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['game']} | {r['case']} | {r['players']} | {r['per_core']:,.0f} {r['unit']}/s | "
                     f"{r['wall']:,.0f} | {r['target']:,.0f} | {'yes' if r['meets_target'] else 'NO'} |")
    if not args.game or args.game == "drarkane":
        from sim.tooling.yardstick import yardstick_section
        lines += yardstick_section()
        print(lines[-1], flush=True)
    from sim.tooling.bench_search import search_section
    lines += search_section([g for g in all_games() if not args.game or g == args.game])
    if not args.no_scale:
        from sim.tooling.bench_phases import phases_section
        from sim.tooling.bench_scale import scale_section
        lines += phases_section(args.game or "drako")
        lines += scale_section([g for g in all_games() if not args.game or g == args.game])
    if not args.no_compile:
        from sim.tooling.bench_compile import compile_section
        lines += compile_section([g for g in all_games() if not args.game or g == args.game])
    if not args.no_design:
        from sim.tooling.bench_design import design_section
        lines += design_section()
    else:
        lines += kept_section(out, "## Design commands")
    from sim.tooling.bench_studies import studies_section
    lines += studies_section()
    out.write_text("\n".join(lines + kept_comparisons(out)) + "\n")
    out.with_suffix(".json").write_text(json.dumps(results, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
