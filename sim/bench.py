"""`make bench`: games/s per core for every game's benchmark cases, against the issues' targets.

Each case plays in this one process (one core) after a warm-up that loads or compiles the kernel.
The rate is games per CPU-second of this thread (best of five), so a busy machine slows it less
than wall-clock time would; the wall-clock rate is reported beside it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from sim.core.version import code_version
from sim.games import all_games


def measure(game, case, repeats: int = 5) -> dict:
    rules = game.load_rules()
    lineup = game.lineup(case.lineup)
    game.simulate(rules, case.players, lineup, 1, 1000)          # warm-up: compile or load the cache
    best_cpu = best_wall = float("inf")
    for r in range(repeats):
        c0, w0 = time.thread_time(), time.perf_counter()
        tables = game.simulate(rules, case.players, lineup, 100 + r, case.n)
        best_cpu = min(best_cpu, time.thread_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - w0)
    units = case.n
    if case.unit != "games":      # e.g. rounds: the games table says how many were played
        units = int(tables["games"][case.unit].sum())
    rate = units / best_cpu
    return {"game": game.name, "case": case.label, "players": case.players, "lineup": case.lineup,
            "unit": case.unit, "n_games": case.n, "per_core": rate, "wall": units / best_wall,
            "target": case.target, "meets_target": rate >= case.target}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="reports/bench.md")
    ap.add_argument("--game", default=None)
    args = ap.parse_args()
    results = []
    for game in all_games().values():
        if args.game and game.name != args.game:
            continue
        for case in game.bench_cases:
            res = measure(game, case)
            results.append(res)
            flag = "ok" if res["meets_target"] else "BELOW TARGET"
            print(f"{game.name:14s} {case.label:45s} {res['per_core']:>12,.0f} {case.unit}/s/core "
                  f"(target {case.target:,.0f}) {flag}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Benchmark: games per second per core", "",
             f"Code {code_version()}, Python {platform.python_version()}, {platform.machine()}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. One process, one core; best of five "
             "runs; rate per CPU-second of the benchmark thread (wall-clock rate beside it).", "",
             "| game | case | players | unit/s per core | wall-clock | target | meets |", "|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['game']} | {r['case']} | {r['players']} | {r['per_core']:,.0f} {r['unit']}/s | "
                     f"{r['wall']:,.0f} | {r['target']:,.0f} | {'yes' if r['meets_target'] else 'NO'} |")
    out.write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps(results, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
