"""The dsim command line end to end: run, report, replay, errors."""

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def dsim(*args):
    return main([str(a) for a in args])


def test_run_report_replay(tmp_path, capsys):
    out = tmp_path / "res"
    assert dsim("run", "--game", "dragonwake", "--n", "2e4", "--out", out, "--no-progress", "--seed", 5) == 0
    assert dsim("run", "--game", "dragonwake", "--n", "1e4", "--players", 7, "--out", out, "--no-progress",
                "--strategy", "random") == 0
    captured = capsys.readouterr().out
    assert "heroes win" in captured and "%" in captured
    games = pl.scan_parquet(out / "games" / "**" / "*.parquet", hive_partitioning=True).collect()
    assert games.height == 30_000 and set(games["players"].unique()) == {5, 7}
    assert dsim("report", "--out", out) == 0
    report = (out / "report" / "dragonwake.md").read_text()
    assert "## Findings" in report and "Assumed values" in report and "[" in report
    assert (out / "report" / "dragonwake_end_modes.png").stat().st_size > 5000
    assert dsim("replay", "--game", "dragonwake", "--seed", 5, "--game-id", 12345) == 0
    text = capsys.readouterr().out
    assert "Round 1" in text and "referee: every move legal" in text


def test_user_plugin_strategy(tmp_path):
    plugin = tmp_path / "mine.py"
    readme = (ROOT / "strategies" / "README.md").read_text()
    plugin.write_text(readme.split("```python\n")[1].split("```")[0])
    out = tmp_path / "res"
    assert dsim("run", "--game", "dragonwake", "--n", 5000, "--plugin", plugin, "--strategy",
                "cultist=bluffer:n=3", "--out", out, "--no-progress") == 0
    prov = (next((out / "runs").rglob("run.json"))).read_text()
    assert '"bluffer"' in prov and '"n": 3.0' in prov


@pytest.mark.parametrize("args, message", [
    (["run", "--n", "-5"], "--n must be a whole number"),
    (["run", "--game", "nope"], "unknown game 'nope'"),
    (["run", "--strategy", "hero=nope"], "unknown strategy 'nope'"),
    (["run", "--strategy", "wizard=random"], "unknown role 'wizard'"),
    (["run", "--variant", "nope"], "unknown variant"),
    (["run", "--set", "hand_sizes=[5,5]"], "hand_sizes"),
    (["run", "--players", "2"], "3 to 10 players"),
    (["run", "--jobs", "0"], "--jobs"),
    (["run", "--bogus"], "No such option"),
    (["run", "--rules", "/nonexistent.toml"], "not found"),
    (["replay", "--game-id", "-1"], "--game-id"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "res"
    assert dsim(*args, *(["--out", out] if args[0] == "run" else [])) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert not out.exists()


def test_the_installed_command_exits_2_without_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sim.cli.main", "run", "--n", "-5", "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "dsim: error: --n must be a whole number of games from 1 to 1e12, got -5"
    assert not (tmp_path / "x").exists()


def test_drarkane_solo_runs_and_reports(tmp_path):
    """Solo games bid no contracts: the report has no bid chart rather than a crash (and no stray files)."""
    out = tmp_path / "solo"
    assert dsim("run", "--game", "drarkane", "--players", 1, "--n", 500, "--out", out, "--no-progress") == 0
    report = (out / "report" / "drarkane.md").read_text()
    assert "## Solo against the Demon" in report and "Bids against tricks" not in report


def test_drakerion_mirror_report_shows_the_mirror_cell(tmp_path):
    """A mirror pairing's cell is a streamed mean of seat 0's score (regression: it crashed the report); with
    mirror matches only, a table of them, not a faction matrix empty but for its diagonal."""
    out = tmp_path / "mirror"
    assert dsim("run", "--game", "drakerion", "--deck", "ember", "--n", 300, "--out", out, "--no-progress") == 0
    report = (out / "report" / "drakerion.md").read_text()
    assert "## Mirror matches" in report and "| ember | " in report and "Faction against faction" not in report
    assert not (out / "report" / "drakerion_factions.png").exists()


def test_compare_checks_every_arm_before_playing_any(tmp_path, capsys):
    """Found by the command matrix: the base arm was played and written before the teams arm was refused."""
    out = tmp_path / "res"
    assert dsim("compare", "--game", "drarkane", "--players", 1, "--variant", "base", "--variant", "teams",
                "--n", 40, "--out", out) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "variant 'teams' cannot be played here: teams need 4 or 6 players" in lines[0]
    assert not out.exists()


def test_a_wide_table_keeps_the_columns_that_fit_and_names_the_rest():
    """The terminal shows whole figures: columns from the right go to the report rather than fold mid-number."""
    from rich.console import Console
    from sim.cli.output import compact_table, fitting
    head = ["point", "heroes win", "relics found", "dragon found", "time runs out"]
    rows = [head] + [[f"min reveals {k}, 4 players", *["11.7% [10.4, 13.2]"] * 4] for k in range(3)]
    kept, left = fitting(rows, 80)
    assert kept[0] == head[:3] and left == head[3:]
    console = Console(width=80, record=True)
    console.print(compact_table(kept, 80))
    lines = console.export_text().splitlines()
    assert max(map(len, lines)) <= 80 and sum("11.7% [10.4, 13.2]" in line for line in lines) == 3
    assert fitting(rows, 200) == (rows, [])
