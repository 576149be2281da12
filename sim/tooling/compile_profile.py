"""Where a game's cold compile goes: every numba compile a run triggers, timed, in a fresh cache.

    python -m sim.tooling.compile_profile GAME [--lineup TEXT] [--top 20]

Runs in a new process with an empty NUMBA_CACHE_DIR (a temporary folder), so it measures what a newcomer's
first run of that line-up compiles. numba announces each compile as a `numba:compile` event, nested when a
function compiles its callees; a function's own time is its span less its callees' (inlined functions are not
compiled apart: their cost lands in the caller), and the part of it spent in LLVM (`numba:llvm_lock`: optimising
and emitting machine code; the rest is numba's typing and lowering). Prints the phases (importing; compiling what
the line-up plays and playing its first games) and the functions that took longest on their own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def profile(game_name: str, lineup_text: str | None, players: int | None) -> dict:
    """Compile and play a few games of one line-up in this process; return the phases and the compiles."""
    from numba.core import event

    spans: list[list] = []            # [name, start, end, depth, own, own in LLVM]
    stack: list[list] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0, len(stack), 0.0, 0.0])

        def on_end(self, ev):
            span = stack.pop()
            span[2] = time.perf_counter()
            span[4] += span[2] - span[1]
            if stack:
                stack[-1][4] -= span[2] - span[1]
            spans.append(span)

    class LLVM(event.Listener):
        """Time in LLVM (optimising and emitting machine code), charged to the function compiling then; a lock
        taken again while held counts once."""
        depth, start = 0, 0.0

        def on_start(self, ev):
            if self.depth == 0:
                self.start = time.perf_counter()
            self.depth += 1

        def on_end(self, ev):
            self.depth -= 1
            if self.depth == 0 and stack:
                stack[-1][5] += time.perf_counter() - self.start

    phases = {}
    t = time.perf_counter()
    from sim.games import get_game
    game = get_game(game_name)
    rules = game.load_rules()
    lineup = game.lineup(lineup_text, rules)
    phases["import"] = time.perf_counter() - t
    with event.install_listener("numba:compile", Listener()), event.install_listener("numba:llvm_lock", LLVM()):
        t = time.perf_counter()
        game.simulate(rules, players or game.default_players, lineup, 1, 4)
        phases["compile and first games"] = time.perf_counter() - t
    own: dict[str, list[float]] = {}
    for name, _, _, _, seconds, llvm in spans:
        total = own.setdefault(name, [0.0, 0.0, 0])
        total[0] += seconds
        total[1] += llvm
        total[2] += 1           # more than one: compiled for several signatures
    return {"game": game_name, "lineup": lineup_text or "default", "phases": phases, "compiles": len(spans),
            "llvm": sum(llvm for *_, llvm in spans), "own": sorted(own.items(), key=lambda kv: -kv[1][0])}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--lineup", default=None)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--json", action="store_true", help="print the measurement as JSON")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inside:
        print(json.dumps(profile(args.game, args.lineup, args.players)))
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        # imported as `dsim` imports its code, not run with -m: profiled under -m, Drarkane's compile took 62 s
        # where `dsim run` took 45 s, cold cache each, same machine (the cause was not found)
        cmd = [sys.executable, "-c", "import sys; from sim.tooling.compile_profile import main; main(sys.argv[1:])",
               args.game, "--inside"]
        if args.lineup:
            cmd += ["--lineup", args.lineup]
        if args.players:
            cmd += ["--players", str(args.players)]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"compile_profile: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'failed'}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if args.json:
        print(json.dumps(result))
        return
    total = sum(result["phases"].values())
    print(f"{result['game']} ({result['lineup']}): {total:.0f} s cold, {result['compiles']} compiles, "
          f"{result['llvm']:.0f} s of it in LLVM")
    for phase, seconds in result["phases"].items():
        print(f"  {phase:<30} {seconds:7.1f} s")
    print(f"  longest on their own:{'':<34}own s  in LLVM  compiles")
    for name, (seconds, llvm, count) in result["own"][:args.top]:
        print(f"    {name:<50} {seconds:7.1f} {llvm:7.1f} {count:5d}")
    repeated = [(name, count) for name, (_, _, count) in result["own"] if count > 1]
    if repeated:
        print("  compiled for more than one signature: "
              + ", ".join(f"{name} ({count})" for name, count in sorted(repeated, key=lambda r: -r[1])))


if __name__ == "__main__":
    main()
