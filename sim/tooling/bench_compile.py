"""`make bench`: each game's cold compile, as a newcomer's first run meets it: a fresh numba cache, one process
(one core), the default line-up and then one with a searching side, and where the time goes (sim.tooling.
compile_profile: the functions that took longest to compile on their own)."""

from __future__ import annotations

import json
import subprocess
import sys

TARGET_SECONDS = 60          # a plain line-up's cold compile, one core


def cold_compile(game: str, lineup: str | None = None) -> dict:
    """compile_profile's measurement of one line-up, in its own process and cache."""
    cmd = [sys.executable, "-m", "sim.tooling.compile_profile", game, "--json"]
    if lineup:
        cmd += ["--lineup", lineup]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def search_lineup(game) -> str | None:
    """A line-up with one searching side (the first role that plays), or None for a game without search."""
    if "search" not in game.strategies.items:
        return None
    return f"{game.active_roles(game.default_players)[0]}=search"


def compile_section(names: list[str]) -> list[str]:
    from sim.games import get_game
    lines = ["", "## Cold compile (a fresh numba cache, one process)", "",
             f"What a newcomer's first run compiles before its first game: the default line-up (target "
             f"{TARGET_SECONDS} s) and one with a searching side, which also compiles the search player. "
             "Wall-clock seconds; the share spent in LLVM (optimising, emitting code; the rest is numba's typing and "
             "lowering) and the longest own compile times name where it goes.", "",
             "| game | line-up | seconds | target | meets | compiles | in LLVM | longest on their own |",
             "|---|---|---|---|---|---|---|---|"]
    for name in names:
        game = get_game(name)
        searching = search_lineup(game)
        for lineup in (None, searching) if searching else (None,):
            res = cold_compile(name, lineup)
            seconds = sum(res["phases"].values())
            top = ", ".join(f"{fn} {s:.0f} s" for fn, (s, *_) in res["own"][:3])
            plain = lineup is None
            meets = ("yes" if seconds <= TARGET_SECONDS else "NO") if plain else "-"
            lines.append(f"| {name} | {lineup or 'default'} | {seconds:.0f} | {TARGET_SECONDS if plain else '-'} | "
                         f"{meets} | {res['compiles']} | {res['llvm']:.0f} s | {top} |")
            print(lines[-1], flush=True)
    return lines
