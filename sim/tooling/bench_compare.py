"""`make bench-compare REF=<commit>`: this checkout against another commit, measured in one run, interleaved.

Absolute figures drift by a third between runs on a shared machine, so a regression is only visible in a
comparison made in the same run: each round measures the other commit, then this one (A B A B ...), and the
ratio is taken round by round. The table gives each ratio's median and its spread (min-max over rounds), as
`asv continuous` does.

What is measured, for every benchmark case a game declares (`Game.bench_cases` of this checkout):
- games (or rounds) per CPU-second of one core, best of a few repeats inside each round's process;
- peak resident memory of the whole `dsim run` process tree at two sizes (`--mem-n`), which shows whether memory
  grows with --n.

The other commit is checked out into `.bench/<commit>` (a git worktree) and run with this checkout's Python
environment: only its source differs. Each commit gets its own numba cache folder, so both load their kernels.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sim.tooling.bench_scale import sampled_run

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[1]

# Run inside a checkout (cwd), with only the API both old and new code share: the registry, rules, lineups and
# `simulate`. Prints one JSON line: {case key: units per CPU-second}.
MEASURE = r"""
import json, sys, time
sys.path.insert(0, ".")
from sim.games import get_game
cases, repeats, only = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
out = {}
for c in cases:
    if only and c["game"] not in only:
        continue
    try:
        game = get_game(c["game"])
        rules, lineup = game.load_rules(), game.lineup(c["lineup"])
    except Exception as e:               # the other commit may not know this game or lineup
        out[c["key"]] = None
        continue
    game.simulate(rules, c["players"], lineup, 1, 500)           # load or compile the kernel
    best = float("inf")
    for r in range(repeats):
        t0 = time.thread_time()
        tables = game.simulate(rules, c["players"], lineup, 100 + r, c["n"])
        best = min(best, time.thread_time() - t0)
    units = c["n"] if c["unit"] == "games" else int(tables["games"][c["unit"]].sum())
    out[c["key"]] = units / best
print(json.dumps(out))
"""

LIST_CASES = r"""
import json, sys
sys.path.insert(0, ".")
from sim.games import all_games
print(json.dumps([{"key": f"{g.name}: {c.label}", "game": g.name, "players": c.players, "lineup": c.lineup,
                   "unit": c.unit, "n": c.n} for g in all_games().values() for c in g.bench_cases]))
"""


def sh(*cmd, cwd=TOP, env=None) -> str:
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"bench-compare: {' '.join(map(str, cmd))} failed: {res.stderr.strip()[-400:]}")
    return res.stdout


def checkout(ref: str) -> Path:
    """A worktree of `ref` under .bench/ (made once, reused)."""
    sha = sh("git", "rev-parse", "--verify", f"{ref}^{{commit}}").strip()
    path = TOP / ".bench" / sha[:12]
    if not (path / "sim").is_dir():
        path.parent.mkdir(exist_ok=True)
        sh("git", "worktree", "add", "--detach", "--force", str(path), sha)
    return path


def env_for(tree: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tree / ".numba_cache_bench"), PYTHONWARNINGS="ignore")
    env.pop("DSIM_SCHEDULER", None)
    return env


def whole_run(tree: Path, game: str, n: float, jobs: int) -> tuple[float, int]:
    """Wall seconds and peak RSS of the whole `dsim run` command (its process tree, sampled every 20 ms) in
    checkout `tree`."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", "import sys; sys.path.insert(0, '.'); from sim.cli.main import main; main()",
               "run", "--game", game, "--n", f"{n:g}", "--jobs", str(jobs), "--out", str(Path(tmp) / "r"),
               "--no-progress"]
        code, err, seconds, peak, _ = sampled_run(cmd, cwd=tree, env=env_for(tree))
        if code:
            sys.exit(f"bench-compare: dsim run --game {game} failed in {tree}: {err.strip()[-300:]}")
        return seconds, peak


def speed_round(tree: Path, cases: list[dict], repeats: int, games: list[str]) -> dict:
    out = sh(sys.executable, "-c", MEASURE, json.dumps(cases), str(repeats), *games, cwd=tree, env=env_for(tree))
    return json.loads(out.strip().splitlines()[-1])


def spread(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def compare_speed(ref: Path, head: Path, rounds: int, repeats: int, games: list[str]) -> list[dict]:
    cases = json.loads(sh(sys.executable, "-c", LIST_CASES, cwd=head, env=env_for(head)).strip().splitlines()[-1])
    cases = [c for c in cases if not games or c["game"] in games]
    for tree in (ref, head):                      # compile or load every kernel before timing anything
        speed_round(tree, [dict(c, n=min(c["n"], 2000)) for c in cases], 1, games)
    runs = {"ref": [], "head": []}
    for r in range(rounds):
        for name, tree in (("ref", ref), ("head", head)):
            runs[name].append(speed_round(tree, cases, repeats, games))
        print(f"  speed round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    rows = []
    for c in cases:
        k = c["key"]
        pairs = [(a[k], b[k]) for a, b in zip(runs["ref"], runs["head"]) if a.get(k) and b.get(k)]
        if not pairs:
            rows.append({"case": k, "unit": c["unit"], "ref": None, "head": None, "ratio": None})
            continue
        rows.append({"case": k, "unit": c["unit"], "ref": spread([a for a, _ in pairs]),
                     "head": spread([b for _, b in pairs]), "ratio": spread([b / a for a, b in pairs])})
    return rows


def compare_memory(ref: Path, head: Path, games: list[str], sizes: list[float], jobs: int, rounds: int) -> list[dict]:
    """Each game's whole `dsim run` at each size, A B A B: peak memory (medians) and wall time (the ratio round by
    round, as for speed: median (min-max))."""
    rows = []
    for game in games:
        for n in sizes:
            whole_run(ref, game, 1e3, jobs), whole_run(head, game, 1e3, jobs)     # kernels into each cache
            got = {"ref": [], "head": []}
            for _ in range(rounds):
                for name, tree in (("ref", ref), ("head", head)):
                    got[name].append(whole_run(tree, game, n, jobs))
            rows.append({"game": game, "n": n, "ref": statistics.median(p for _, p in got["ref"]),
                         "head": statistics.median(p for _, p in got["head"]),
                         "ref_s": statistics.median(s for s, _ in got["ref"]),
                         "head_s": statistics.median(s for s, _ in got["head"]),
                         "ratio": spread([a / b for (a, _), (b, _) in zip(got["ref"], got["head"])])})
            print(f"  memory {game} {n:g} done", file=sys.stderr, flush=True)
    return rows


def markdown(ref_name: str, head_name: str, speed: list[dict], memory: list[dict], rounds: int) -> list[str]:
    lines = [f"## This code against {ref_name}, measured in one run", "",
             f"`make bench-compare REF={ref_name}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, head "
             f"{head_name}). Each of {rounds} rounds measures {ref_name}, then this code, in fresh processes; the "
             "ratio is this code over the old, round by round: median (min-max). Above 1 is faster.", "",
             "| case | old, per core | this code, per core | ratio | verdict |", "|---|---|---|---|---|"]
    for r in speed:
        if r["ratio"] is None:
            lines.append(f"| {r['case']} | n/a | n/a | n/a | the old code cannot play this case |")
            continue
        med, lo, hi = r["ratio"]
        verdict = "slower by more than 5%" if med < 0.95 else ("faster by more than 5%" if med > 1.05 else "same")
        lines.append(f"| {r['case']} | {r['ref'][0]:,.0f} {r['unit']}/s | {r['head'][0]:,.0f} {r['unit']}/s | "
                     f"{med:.2f} ({lo:.2f}-{hi:.2f}) | {verdict} |")
    if memory:
        lines += ["", "The whole `dsim run` command (the process tree: start, compile or load, play, Parquet, report): "
                  "peak resident memory, median of the rounds, and wall time, old over this code round by round "
                  "(above 1: this code is quicker):", "",
                  "| game | games | peak, old | peak, this code | seconds, old | seconds, this code | old / this code |",
                  "|---|---|---|---|---|---|---|"]
        for m in memory:
            med, lo, hi = m["ratio"]
            lines.append(f"| {m['game']} | {m['n']:,.0f} | {m['ref'] / 2**20:,.0f} MiB | {m['head'] / 2**20:,.0f} MiB | "
                         f"{m['ref_s']:.1f} | {m['head_s']:.1f} | {med:.2f} ({lo:.2f}-{hi:.2f}) |")
    return lines + [""]


def write_section(path: Path, text: str) -> None:
    """Put the table into `path`, replacing an earlier comparison against the same commit."""
    old = path.read_text().splitlines() if path.exists() else []
    head = text.splitlines()[0]
    if head in old:
        start = old.index(head)
        end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
        old = old[:start] + old[end:]
    path.write_text("\n".join(old).rstrip() + "\n\n" + text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", help="the commit to compare against (a hash, tag or branch)")
    ap.add_argument("--rounds", type=int, default=5, help="A B rounds (default 5)")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats per case inside a round's process")
    ap.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    ap.add_argument("--mem-n", default="1e6", help="comma-separated --n values for the memory runs ('' for none)")
    ap.add_argument("--mem-rounds", type=int, default=3, help="whole-command rounds (0 skips them)")
    ap.add_argument("--jobs", type=int, default=2, help="--jobs of the whole-command runs")
    ap.add_argument("--out", default=None, help="append the Markdown table to this file")
    args = ap.parse_args()
    if args.rounds < 1 or args.repeats < 1 or args.mem_rounds < 0:
        ap.error("--rounds and --repeats must be at least 1, --mem-rounds at least 0")
    ref = checkout(args.ref)
    head_name = sh("git", "rev-parse", "--short", "HEAD").strip() + (
        "+changes" if sh("git", "status", "--porcelain", "--untracked-files=no").strip() else "")
    speed = compare_speed(ref, TOP, args.rounds, args.repeats, args.game)
    games = args.game or sorted({r["case"].split(":")[0] for r in speed})
    sizes = [float(x) for x in args.mem_n.split(",") if x.strip()]
    memory = compare_memory(ref, TOP, games, sizes, args.jobs, args.mem_rounds) if sizes and args.mem_rounds > 0 else []
    text = "\n".join(markdown(args.ref, head_name, speed, memory, args.rounds))
    print(text)
    if args.out:
        write_section(Path(args.out), text)
    slower = [r["case"] for r in speed if r["ratio"] and r["ratio"][0] < 0.95]
    if slower:
        print(f"slower than {args.ref} by more than 5%: {', '.join(slower)}", file=sys.stderr)


if __name__ == "__main__":
    main()
