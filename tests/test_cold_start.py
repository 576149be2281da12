"""A cold numba cache (issue #23): listing the games and `--help` compile nothing, and a run that has to compile
says so once, before it starts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.games import game_names
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
    assert not _numba_cache.is_warm("drako")
    _numba_cache.announce("drako")
    _numba_cache.announce("drako")
    assert capsys.readouterr().err == "compiling the Drako kernels (about 3 minutes, once per machine)…\n"
    _numba_cache.mark_warm("drako")
    monkeypatch.setattr(_numba_cache, "_ANNOUNCED", set())
    _numba_cache.announce("drako")
    assert _numba_cache.is_warm("drako") and capsys.readouterr().err == ""
