"""A cold numba cache (issue #23): listing the games and `--help` compile nothing, and a run that has to compile
says so once, before it starts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.games import game_names, get_game
from sim.tooling import _numba_cache

ROOT = Path(__file__).resolve().parents[1]

# What was imported and compiled by a command: kernel modules, and strategy modules still waiting to compile.
PROBE = """
import json, sys
from sim.cli.main import main
main({argv!r})
from sim.engine import strategy
print(json.dumps({{"kernels": sorted(m for m in sys.modules if m.startswith("sim.games.") and ".kernel" in m),
                  "pending": sorted(strategy._PENDING)}}), file=sys.stderr)
"""


def probe(argv: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, cwd=ROOT)
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["games"], ["games", "drako"], ["--help"], ["run", "--help"]])
def test_listing_and_help_compile_nothing(argv):
    seen = probe(argv)
    assert seen["kernels"] == []
    if argv[0] == "games":            # the games' strategies were listed, none compiled
        pending = sorted({".".join(m.split(".")[:2]) for m in seen["pending"]})     # a package counts once
        assert pending == (["strategies.drako"] if argv[1:] else
                           sorted(f"strategies.{name}" for name in game_names()))


@pytest.mark.parametrize("argv", [
    ["tune", "--game", "drako", "--param", "nope=1:2", "--target", "dragon_win=50%", "--n", "100"],
    ["tune", "--game", "drako", "--param", "dragon_flight_spaces=1:3", "--target", "nope=50%", "--n", "100"],
    ["ladder", "--game", "drako", "--outcome", "nope", "--n", "100"],
    ["run", "--game", "drako", "--strategy", "dragon=nope", "--n", "100"],
])
def test_a_refusal_compiles_nothing(argv, tmp_path):
    """Bad input is refused before the kernels or the strategies compile: with a cold cache the refusal would
    otherwise come minutes later, after a 'compiling…' line."""
    seen = probe([*argv, "--out", str(tmp_path)])
    assert seen["kernels"] == [] and "strategies.drako" in seen["pending"]
    assert not list(tmp_path.iterdir())


def test_a_cold_game_is_announced_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_numba_cache, "_ANNOUNCED", set())
    monkeypatch.setitem(_numba_cache.COMPILE_SECONDS, ("drako", "kernels"), 150)
    assert not _numba_cache.is_warm("drako")
    _numba_cache.announce("drako")
    _numba_cache.announce("drako")
    assert capsys.readouterr().err == "compiling the Drako kernels (about 2 minutes, once per machine)…\n"
    monkeypatch.setitem(_numba_cache.COMPILE_SECONDS, ("drako", "kernels"), 50)    # under 90 s: in seconds
    monkeypatch.setattr(_numba_cache, "_ANNOUNCED", set())
    _numba_cache.announce("drako")
    assert capsys.readouterr().err == "compiling the Drako kernels (about 50 s, once per machine)…\n"
    _numba_cache.mark_warm("drako")
    monkeypatch.setattr(_numba_cache, "_ANNOUNCED", set())
    _numba_cache.announce("drako")
    assert _numba_cache.is_warm("drako") and capsys.readouterr().err == ""
    # the search player is a part of its own: compiled, and said, only when a run first searches
    assert not _numba_cache.is_warm("drako", "search")
    _numba_cache.announce("drako", "search")
    assert "compiling the Drako search player (about" in capsys.readouterr().err


# After one run of a line-up: the functions of the game's search modules and its kernel's SEARCH_PARTS that
# were compiled or loaded, and the strategy functions still waiting to compile.
COMPILED = """
import json, sys
from numba.core.registry import CPUDispatcher
from sim.engine import strategy
from sim.games import get_game
game = get_game({name!r})
rules = game.load_rules()
game.simulate(rules, game.default_players, game.lineup({lineup!r}, rules), 1, 20)
kernel = sys.modules["sim.games.{name}.kernel"]
search = [sys.modules[m] for m in sys.modules if m.startswith("sim.games.{name}.kernel_")
          and m.rpartition(".")[2] in ("kernel_search", "kernel_machine")]
functions = [f for m in search for f in vars(m).values()
             if isinstance(f, CPUDispatcher) and f.py_func.__module__ == m.__name__]
compiled = sorted({{f.py_func.__qualname__ for f in functions + list(getattr(kernel, "SEARCH_PARTS", ()))
                   if f.overloads}})
pending = sorted(d.py_func.__name__ for m, entries in strategy._PENDING.items() if m.startswith("strategies.")
                 for d, _ in entries)
print(json.dumps({{"compiled": compiled, "pending": pending}}), file=sys.stderr)
"""


def compiled_after(name: str, lineup: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", COMPILED.format(name=name, lineup=lineup)], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("name", game_names())
def test_a_plain_run_leaves_the_search_player_out(name):
    """A run where no side searches neither compiles nor loads the search player's code; one that searches
    does (so the check can fail)."""
    assert compiled_after(name, "default")["compiled"] == []
    from sim.tooling.bench_compile import search_lineup
    from sim.games import get_game
    assert compiled_after(name, search_lineup(get_game(name)))["compiled"] != []


@pytest.mark.parametrize("name, unplayed", [("drako", {"patient_choice", "aggressive_choice", "kiter_choice"}),
                                            ("drarkane", {"give_team", "draft_points", "give_random"}),
                                            ("drachensachen", {"aggressive_play", "low_play", "keep_strong_setup"}),
                                            ("drakerion", {"aggressive_choice", "random_choice"})])
def test_a_run_compiles_only_the_strategies_it_plays(name, unplayed):
    """A default run leaves the strategies it does not play waiting to compile (these are not in the line-up)."""
    lineup = get_game(name).lineup(None)
    played = {f.py_func.__name__ for seat in lineup.values() for f in seat.strategy.functions}
    assert not unplayed & played
    assert unplayed <= set(compiled_after(name, "default")["pending"])


SOLO = """
import json, sys
from sim.games import get_game
game = get_game("drarkane")
rules = game.load_rules()
game.simulate(rules, {players}, game.lineup(None, rules), 1, 20)
print(json.dumps(bool(sys.modules["sim.games.drarkane.kernel"].solo_game.overloads)), file=sys.stderr)
"""


@pytest.mark.parametrize("players, compiled", [(4, False), (1, True)])
def test_drarkane_compiles_its_solo_game_only_when_a_run_plays_solo(players, compiled):
    """The solo game is a sixth of Drarkane's compile: a table game neither compiles nor loads it."""
    proc = subprocess.run([sys.executable, "-c", SOLO.format(players=players)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr.strip().splitlines()[-1]) is compiled


def test_a_dragonwake_run_compiles_only_the_strategies_it_plays():
    """The demo's line-up under the default rules: the other strategies, and the powers (the default rules deal
    none), are left waiting."""
    pending = compiled_after("dragonwake", "hero=bayes,cultist=liar")["pending"]
    assert {"trust_power", "honest_declare", "bayes_power", "dragon_power"} <= set(pending)
    assert not {"role_declare", "bayes_pick", "liar_declare", "dragon_pick"} & set(pending)


def test_a_run_times_its_phases(tmp_path):
    """DSIM_PHASES (make bench's per-phase table): a run writes the phases it went through, each timed."""
    record = tmp_path / "phases.json"
    env = dict(os.environ, DSIM_PHASES=str(record))
    proc = subprocess.run([sys.executable, "-m", "sim.cli.main", "run", "--game", "drako", "--n", "400", "--jobs",
                           "2", "--out", str(tmp_path / "r"), "--no-progress"], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(record.read_text())
    phases = got["phases"]
    for name in ("import the command", "compile or load the kernels", "first chunk", "write Parquet", "report"):
        assert phases[name] > 0, name
    assert got["start"] <= got["end"]
    assert sum(phases.values()) <= got["end"] - got["start"] + 0.01


# What a Dask worker imports to play a chunk (play_chunk in a fresh process).
WORKER = """
import json, sys
from sim.engine.runner import play_chunk
from sim.engine.spec import RunSpec
from sim.games import get_game
game = get_game({name!r})
spec = RunSpec(game, game.load_rules(), game.default_players, game.lineup(None), 20, 3)
tables = play_chunk(game.module, spec.rules, spec.players, spec.lineup_spec(), spec.plugins, spec.seed, 0, 20, 0)
heavy = [m for m in ("polars", "matplotlib", "scipy.stats", "typer", "rich") if m in sys.modules]
print(json.dumps({{"heavy": heavy, "games": len(tables["games"]["game_id"])}}), file=sys.stderr)
"""


@pytest.mark.parametrize("name", ["drako", "drarkane"])
def test_a_worker_imports_no_table_or_chart_library(name):
    """A worker only plays: polars (about 24 MiB and a quarter of a second a worker), matplotlib, scipy.stats and
    the CLI's libraries stay out of it."""
    proc = subprocess.run([sys.executable, "-c", WORKER.format(name=name)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stderr.strip().splitlines()[-1])
    assert got == {"heavy": [], "games": 20}


def test_our_functions_compile_once_whatever_integer_constants_their_callers_pass():
    """numba would compile `below(state, 3)` and `below(state, 5)` apart (Drakerion compiled `add_row` 26 times);
    our functions are typed with plain integers, so one compile serves every caller. Booleans keep their literal
    type (a literal flag prunes a branch), and so does anything outside the project."""
    from numba import njit, types

    from sim.engine.rng import below

    @njit
    def twice(state):
        return below(state, 3) + below(state, 5)

    state = np.ones(1, np.uint64)
    assert 0 <= twice(state) <= 6
    assert below.signatures and not any(isinstance(t, types.Literal) for sig in below.signatures for t in sig)
    assert _numba_cache.plain(types.literal(7)) == types.int64
    assert _numba_cache.plain(types.literal(True)) == types.literal(True)
    assert _numba_cache.plain(types.Tuple((types.literal(1), types.float64))) == types.Tuple((types.int64,
                                                                                              types.float64))

    @njit
    def helper(k):
        return k + 1

    @njit
    def caller():
        return helper(1) + helper(2)

    assert caller() == 5 and len(helper.signatures) == 2     # a function of the tests' own: numba's default
    assert not _numba_cache._ours(str(ROOT / "sim" / "games" / "drarkane" / "kernel_base.py"))   # measured faster
    assert _numba_cache._ours(str(ROOT / "sim" / "games" / "drakerion" / "kernel_base.py"))
