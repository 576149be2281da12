"""The README's bad-input table, row by row: each input gives the promised line and exit code."""

import contextlib
import io
import re
from pathlib import Path

import polars as pl
import pytest

from sim.cli.main import main

ROOT = Path(__file__).resolve().parents[1]

GARBAGE = '''
from numba import njit
from sim.engine.strategy import Strategy
from sim.games.drakerion.records import DECISION_SIG
from strategies.drakerion import REGISTRY


@njit(DECISION_SIG, cache=True)
def nonsense(kind, opts, n, st, board, cards, params):
    return 10**9


REGISTRY.register(Strategy("garbage", ("seat0", "seat1"), (nonsense,), "answers row 10^9"))
'''
PASSIVE = '''
from numba import njit
from sim.engine.strategy import Strategy
from sim.games.drakerion.records import ACT_PASS, D_ACTION, D_COMBAT, DECISION_SIG
from strategies.drakerion import REGISTRY


@njit(DECISION_SIG, cache=True)
def always_pass(kind, opts, n, st, board, cards, params):
    if kind == D_ACTION or kind == D_COMBAT:
        for r in range(n):
            if opts[r, 0] == ACT_PASS:
                return r
    return 0


REGISTRY.register(Strategy("passive", ("seat0", "seat1"), (always_pass,), "never plays, never attacks"))
'''
FILES = {"broken.toml": "[meta\ngame = ", "notes.txt": "not Python", "a_file": "a file, not a folder",
         "raises.py": "raise RuntimeError('at import')\n", "garbage.py": GARBAGE, "passive.py": PASSIVE,
         "bad_cards.toml": "[cards.x]\ntype = 'dragon'\n"}


def dsim(*args) -> tuple[int, list[str], str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main([str(a) for a in args])
    return code, err.getvalue().strip().splitlines(), out.getvalue()


def refused(args, message, code=2):
    """One line naming the problem, the exit code, and no results folder."""
    got, err, _ = dsim(*args, *(["--out", "res"] if "--out" not in args and args[0] == "run" else []))
    assert got == code and len(err) == 1 and message in err[0], (args, got, err)
    assert not Path("res").exists() or not any(Path("res").rglob("*.parquet"))


def plays(args, check):
    got, err, out = dsim(*args, "--n", 300, "--out", "res", "--no-progress")
    assert got == 0, err
    check(pl.read_parquet(Path("res") / "games" / "**" / "*.parquet"), out)


def old_results():
    assert dsim("run", "--game", "drako", "--n", 200, "--out", "old_results", "--no-progress")[0] == 0
    assert dsim("run", "--game", "drako", "--n", 200, "--seed", 1, "--out", "old_results", "--no-progress")[0] == 0
    (part,) = Path("old_results/games").rglob("seed=1/*.parquet")
    pl.read_parquet(part).drop("turns").write_parquet(part)          # as an older dsim without that column
    (run,) = Path("old_results/runs").rglob("seed=1/run.json")
    run.write_text(run.read_text().replace('"code_version": "', '"code_version": "0.0.9-'))
    refused(["report", "--out", "old_results"], "have other columns than the rest")


def other_seed(monkeypatch):
    from test_resume import failing_after            # the same fault injection
    failing_after(monkeypatch, 2)                    # one chunk kept
    with pytest.raises(RuntimeError):
        main(["run", "--game", "dragonwake", "--n", "3e5", "--seed", "3", "--out", "res", "--no-progress"])
    failing_after(monkeypatch, 99)
    got, err, _ = dsim("run", "--n", "3e5", "--seed", 4, "--resume", "--out", "res", "--no-progress")
    assert got == 2 and len(err) == 1 and "another configuration (seed 3, not 4)" in err[0], err


def elsewhere(test: str):
    """Rows whose test needs a process of its own live with the resume tests: check they exist."""
    module, name = test.split("::")
    source = (ROOT / "tests" / module).read_text()
    return lambda: None if f"def {name}(" in source else pytest.fail(f"{test} is missing")


CASES = {
    "`dsim run --game nope`": lambda: refused(["run", "--game", "nope"], "unknown game 'nope'"),
    "`dsim run --strategy hero=nope`": lambda: refused(["run", "--strategy", "hero=nope"],
                                                       "unknown strategy 'nope' for dragonwake"),
    "`dsim run --set nope=1`": lambda: refused(["run", "--set", "nope=1"], "unknown rule 'nope'"),
    "`dsim run --set hand_sizes=[5,5]`": lambda: refused(["run", "--set", "hand_sizes=[5,5]"], "hand_sizes"),
    "`dsim run --set relics_per_player=0`": lambda: refused(["run", "--set", "relics_per_player=0"],
                                                            "relics_per_player must be at least 1"),
    "`dsim run --variant nope`": lambda: refused(["run", "--variant", "nope"], "unknown variant 'nope'"),
    "`dsim run --n -5` (or `2.5`, `1e30`)": lambda: [refused(["run", "--n", n], "--n must be a whole number of "
                                                             "games from 1 to 1e12") for n in ("-5", "2.5", "1e30")],
    "`dsim run --players 2`": lambda: refused(["run", "--players", 2], "dragonwake plays 3 to 10 players, not 2"),
    "`dsim run --jobs 0` (or `100000`)": lambda: [refused(["run", "--jobs", j], "--jobs must be from 1 to")
                                                  for j in (0, 100_000)],
    "`dsim run --seed -1`": lambda: refused(["run", "--seed", -1], "--seed must be from 0 to 2**63-1"),
    "`dsim run --precision -1`": lambda: refused(["run", "--precision", -1], "--precision must be a positive"),
    "`dsim run --rules broken.toml` (not TOML)": lambda: refused(["run", "--rules", "broken.toml"],
                                                                 "malformed rules file broken.toml"),
    "`dsim run --rules missing.toml`": lambda: refused(["run", "--rules", "missing.toml"], "not found"),
    "`dsim run --out a_file/results` (cannot be written)": lambda: refused(
        ["run", "--out", "a_file/results"], "cannot write results under a_file/results"),
    "`dsim run --plugin notes.txt`": lambda: refused(["run", "--plugin", "notes.txt"],
                                                     "notes.txt is not a Python file (.py)"),
    "`dsim run --plugin raises.py` (raises at import)": lambda: refused(
        ["run", "--plugin", "raises.py"], "raises.py failed to load: RuntimeError: at import"),
    "`dsim run --game drakerion --set cards=bad_cards.toml`": lambda: refused(
        ["run", "--game", "drakerion", "--set", "cards=bad_cards.toml"], "bad_cards.toml"),
    "`dsim run --game drakerion --deck nope`": lambda: refused(["run", "--game", "drakerion", "--deck", "nope"],
                                                               "unknown deck 'nope'"),
    "`dsim run --deck ember` (a game without decks)": lambda: refused(["run", "--deck", "ember"],
                                                                      "dragonwake has no decks to choose"),
    "`dsim run --game drakerion --plugin garbage.py --strategy garbage` (answers out of range)": lambda: plays(
        ["run", "--game", "drakerion", "--plugin", "garbage.py", "--strategy", "garbage"],
        lambda games, out: (games["bad_choices"].min() > 0 and (games["winner"] >= 0).mean() > 0.5
                            and "strategy answers out of range" in out) or pytest.fail(str(games.describe()))),
    "`dsim run --game drakerion --plugin passive.py --strategy passive` (never attacks: the game cannot end)":
        lambda: plays(["run", "--game", "drakerion", "--plugin", "passive.py", "--strategy", "passive"],
                      lambda games, out: (games["winner"] == -1).all() and "turn cap" in out
                      or pytest.fail(str(games.describe()))),
    "`dsim run --format xml`": lambda: refused(["run", "--format", "xml"], "--format must be text or json"),
    "`dsim tune --param nope=1:2 --target hero_win=0.5`": lambda: refused(
        ["tune", "--param", "nope=1:2", "--target", "hero_win=0.5"], "unknown rule 'nope' for dragonwake"),
    "`dsim tune --param relics_per_player --target hero_win=0.5`": lambda: refused(
        ["tune", "--param", "relics_per_player", "--target", "hero_win=0.5"], "give relics_per_player's range"),
    "`dsim tune --param relics_per_player=1:3 --target hero_win=2`": lambda: refused(
        ["tune", "--param", "relics_per_player=1:3", "--target", "hero_win=2"], "must be from 0 to 1"),
    "`dsim sensitivity --only nope`": lambda: refused(["sensitivity", "--only", "nope"],
                                                     "no assumed value with alternatives named nope"),
    "`dsim ablate --mode nope`": lambda: refused(["ablate", "--mode", "nope"], "--mode must be one of"),
    "`dsim ladder --outcome nope`": lambda: refused(["ladder", "--outcome", "nope"], "unknown outcome 'nope'"),
    "`dsim report --out old_results` (runs with another version's columns)": old_results,
    "`dsim run --seed 4 --resume` after an interrupted run with seed 3": other_seed,
    "the disk fills mid-run": elsewhere("test_resume.py::test_a_full_disk_keeps_the_chunks_and_says_so_in_one_line"),
    "Ctrl-C mid-run": elsewhere("test_resume.py::test_ctrl_c_stops_cleanly_and_says_how_to_resume"),
    "`kill -9` mid-run, then the same command with `--resume`":
        elsewhere("test_resume.py::test_sigkill_then_resume_matches_an_uninterrupted_run"),
}


def readme_rows() -> list[str]:
    text = (ROOT / "README.md").read_text().split("<!-- bad-input-table")[1]
    rows = re.findall(r"^\| (.+?) \| .+ \|$", text.split("\n\n")[0], flags=re.M)
    return [r for r in rows if r not in ("input", "---")]


def test_every_readme_row_has_a_case_and_every_case_a_row():
    assert readme_rows() == list(CASES)


@pytest.mark.parametrize("row", list(CASES))
def test_bad_input_row(row, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    case = CASES[row]
    case(monkeypatch) if case.__code__.co_argcount else case()
