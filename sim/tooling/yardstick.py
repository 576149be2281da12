"""`make bench`: Drarkane's seeker against the bare numba trick-taking yardstick (shared/tools/yardstick_trick.py),
measured in one run: the two kernels are played in turn and the ratio is taken pair by pair, so the host's drift
mostly cancels. The target is at least 0.75 of the yardstick's rounds per second."""

from __future__ import annotations

import ast
import statistics
import sys
import time
import types
from pathlib import Path

# the shared tool beside the checkout (shared/ sits next to the project on every machine of ours)
YARDSTICK = Path(__file__).resolve().parents[3] / "shared" / "tools" / "yardstick_trick.py"


def yardstick_kernel(path: Path = YARDSTICK):
    """The yardstick's `play(n_games, seed)` kernel, without running the script's own timing below it: only
    the module's imports and function definitions are executed (under the script's own file name, so numba's
    disk cache works as for the script)."""
    name = "_dsim_yardstick_trick"
    if name not in sys.modules:
        tree = ast.parse(path.read_text(), str(path))
        tree.body = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom, ast.FunctionDef))]
        module = types.ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module      # numba's disk cache re-imports the module by name when it loads
        exec(compile(tree, str(path), "exec"), module.__dict__)
    return sys.modules[name].play


def _cpu(fn):
    c0 = time.thread_time()
    out = fn()
    return time.thread_time() - c0, out


def ratio_to_yardstick(game, case, repeats: int = 7, yard_rounds: int = 200_000, play=None) -> dict:
    """Rounds per CPU-second of `game.simulate` on bench case `case` (rounds counted from the games table's
    `rounds` column) against the yardstick's random 4-player 11-trick rounds, the two run in turn `repeats`
    times (which one goes first alternates). Returns both rates' medians and the pairwise ratio's median,
    min and max."""
    play = play or yardstick_kernel()
    rules = game.load_rules()
    lineup = game.lineup(case.lineup)
    play(1000, 1)                                           # warm-ups: compile or load both kernels
    game.simulate(rules, case.players, lineup, 1, 1000)
    game_rates, yard_rates, ratios = [], [], []
    for r in range(repeats):
        def run_game():
            return game.simulate(rules, case.players, lineup, 100 + r, case.n)

        def run_yard():
            return play(yard_rounds, 100 + r)

        if r % 2 == 0:
            t_yard, _ = _cpu(run_yard)
            t_game, tables = _cpu(run_game)
        else:
            t_game, tables = _cpu(run_game)
            t_yard, _ = _cpu(run_yard)
        rounds = int(tables["games"]["rounds"].sum())
        game_rates.append(rounds / t_game)
        yard_rates.append(yard_rounds / t_yard)
        ratios.append(game_rates[-1] / yard_rates[-1])
    return {"game": game.name, "case": case.label, "players": case.players, "lineup": case.lineup,
            "games": case.n, "rounds_per_game": rounds / case.n, "repeats": repeats,
            "game_rounds_s": statistics.median(game_rates), "yardstick_rounds_s": statistics.median(yard_rates),
            "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
            "ratios": ratios}


def yardstick_section(repeats: int = 7) -> list[str]:
    from sim.games import get_game
    if not YARDSTICK.is_file():
        return ["", "## Drarkane against the trick-taking yardstick", "", f"Not measured: {YARDSTICK} is missing."]
    game = get_game("drarkane")
    case = next(c for c in game.bench_cases if c.lineup == "seeker")
    r = ratio_to_yardstick(game, case, repeats)
    return ["", "## Drarkane against the trick-taking yardstick", "",
            f"Default seeker, {case.players} players: {r['game_rounds_s']:,.0f} rounds/s per core against the bare "
            f"yardstick's {r['yardstick_rounds_s']:,.0f} (random legal play), measured in turn {repeats} times: "
            f"ratio {r['ratio']:.2f} (min {r['ratio_min']:.2f}, max {r['ratio_max']:.2f}); target 0.75."]
