"""Compile every game's kernels into numba's disk cache, one game per process, as many at once as there are cores.

A fresh checkout has no cache, and each game compiles its kernels and strategies when first played (their
signatures are declared): 20 s for Drachensachen to 2 min for Dragonwake on one core. Imported one after another
that is 6-10 minutes; in parallel, the longest two. `make test` runs this first, then the test workers load the
kernels from the cache instead of each compiling all of them; both use the same NUMBA_CACHE_DIR (the tests set
it to .numba_cache when it is unset). `python -m sim.tooling.warm [--plain] [game ...]`: `--plain` compiles only
what a run of each game's default line-up does (`make demo` warms the README's next game so, in the background).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor

# longest first, so the two cores finish together: a fresh clone's whole warm-up, two at a time (29 November 2026,
# 4e765a2, nothing else running: Drarkane 152 s, Dragonwake 104, Drakerion 83, Drachensachen 52, Drako 28)
SLOWEST_FIRST = ("drarkane", "dragonwake", "drakerion", "drachensachen", "drako")


def warm(name: str, plain: bool = False) -> tuple[str, float]:
    """Import every module of one game, compile every part of it (the search player, ...), and play a few games
    with its default and random lineups; `plain`: only what a run of the default line-up compiles."""
    start = time.perf_counter()
    from sim.engine.strategy import compile_pending, pending_in
    from sim.games import get_game
    from sim.tooling import _numba_cache
    game = get_game(name)
    rules = game.load_rules()
    if not plain:
        game.kernels()                   # the strategies first, as a run compiles them, then the kernels
        package = importlib.import_module(f"sim.games.{name}")
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"sim.games.{name}.{module.name}")
        compile_pending(pending_in(package.__name__))      # the parts a plain run leaves out: the search, ...
        for part in _numba_cache.PART_NAMES:
            _numba_cache.mark_warm(name, part)
    for lineup in (None,) if plain else (None, "random"):
        game.simulate(rules, game.default_players, game.lineup(lineup), 1, 8)
    return name, time.perf_counter() - start


def main(argv: list[str]) -> None:
    from sim.games import game_names
    plain = "--plain" in argv
    names = [a for a in argv if a != "--plain"] or game_names()
    unknown = sorted(set(names) - set(game_names()))
    if unknown:
        print(f"sim.tooling.warm: error: unknown game {', '.join(unknown)} (known: {', '.join(game_names())})", file=sys.stderr)
        sys.exit(2)
    names = sorted(names, key=lambda n: SLOWEST_FIRST.index(n) if n in SLOWEST_FIRST else -1)
    workers = min(len(names), os.cpu_count() or 1)
    print(f"compiling {', '.join(names)}{' (the default line-ups)' * plain} into "
          f"{os.environ.get('NUMBA_CACHE_DIR') or 'the __pycache__ folders'}, {workers} at a time", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, seconds in pool.map(warm, names, [plain] * len(names)):
            print(f"compiled {name} in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
