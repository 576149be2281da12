"""What the terminal shows a designer: `dsim report` opens with findings in sentences, then one compact table of
configurations (the default first) that fits 80 columns, with no rules hash, lineup code or warning; `dsim
games` and every command's --help read in the game's words, without internal issue numbers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from sim.analysis.stats import Estimate
from sim.cli.main import COMMANDS, main
from sim.games import all_games, get_game
from sim.report.labels import Configs
from sim.report.findings import fmt
from sim.report.summary import compact, headline_table, terminal_table

ROOT = Path(__file__).resolve().parents[1]
FIRST_CLASS = "First-class function type feature is experimental"
HASH = re.compile(r"\b[0-9a-f]{12}\b")
ISSUE = re.compile(r"issue #?\d|#\d\d", re.I)


def dsim(*args) -> int:
    return main([str(a) for a in args])


def quiet(capsys, *args) -> tuple[int, str, str]:
    """Run a command at 80 columns; fail on any warning, raised or printed."""
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", message=FIRST_CLASS)
        code = dsim(*args)
    out, err = capsys.readouterr()
    assert not [str(w.message) for w in caught], [f"{w.category.__name__}: {w.message}" for w in caught]
    assert "Warning" not in err, err
    return code, out, err


# ---- the table, from rows ----------------------------------------------------------------------------------


def dragonwake_rows():
    """Dragonwake at 4, 5 (the default) and 6 players, the defaults and a variant at 5."""
    game = get_game("dragonwake")
    strategies = {"hero": {"name": "bayes", "params": {}}, "cultist": {"name": "liar", "params": {}}}
    runs = [{"game": "dragonwake", "rules_hash": "a" * 12, "variants": [], "values": {}, "strategies": strategies},
            {"game": "dragonwake", "rules_hash": "b" * 12, "variants": ["long_fuse"], "values": {},
             "strategies": strategies}]
    lineup = "hero-bayes_cultist-liar"
    rows = []
    for players, rules, value in ((6, "a" * 12, 0.40), (5, "b" * 12, 0.35), (4, "a" * 12, 0.30),
                                  (5, "a" * 12, 0.20)):
        for o in game.outcomes():
            rows.append({"players": players, "rules": rules, "lineup": lineup, "outcome": o.name,
                         "headline": o.headline, "kind": o.kind, "label": o.label,
                         "estimate": Estimate(value, value - 0.01, value + 0.02, 1000)})
    return game, rows, Configs(game, runs)


def test_the_table_has_configurations_as_rows_the_default_first_in_words():
    game, rows, configs = dragonwake_rows()
    table = headline_table(game, rows, configs, ["players", "rules"])
    head, *body = table
    assert head == ["configuration", "heroes win", "games"]          # the headline outcomes only
    assert [r[0] for r in body] == ["5 players, default rules", "4 players, default rules",
                                    "5 players, variant long fuse", "6 players, default rules"]
    assert body[0][1] == "20.0% ±1.5" and body[0][2] == "1,000"
    assert not any(HASH.search(cell) or "bayes_" in cell for row in table for cell in row)


def test_a_single_configuration_is_named_in_the_note_not_folded_down_its_row():
    game, rows, configs = dragonwake_rows()
    rows = [r for r in rows if (r["players"], r["rules"]) == (5, "a" * 12)]
    table, note = terminal_table(game, rows, configs, ["players", "lineup", "rules"])
    assert [r[0] for r in table] == ["configuration", "all games"]
    assert note == "The games: 5 players, hero bayes, cultist liar, default rules."
    table, note = terminal_table(game, dragonwake_rows()[1], configs, ["players", "rules"])
    assert len(table) == 5 and note == "In every row: hero bayes, cultist liar."


def test_no_outcome_label_shows_a_rule_key():
    """Labels head report rows and columns: the game's words, never a rules-file key ("empty_deck_loses")."""
    keys = [(game.name, o.label) for game in all_games().values() for o in game.outcomes()
            if re.search(r"[a-z]_[a-z]", o.label)]
    assert not keys, keys


def test_a_compact_cell_keeps_the_interval_and_marks_what_does_not_apply():
    game = get_game("drachensachen")
    outcomes = {o.name: o for o in game.outcomes()}
    assert compact(Estimate(0.547, 0.540, 0.554, 20_000), outcomes["seat0_win"]) == "54.7% ±0.7"
    assert compact(Estimate(3.596, 3.577, 3.615, 5_000), outcomes["rounds"]) == "3.6 ±<0.1"
    assert compact(Estimate(3.7, 3.455, 3.962, 40), outcomes["rounds"]) == "3.7 ±0.3"
    assert compact(Estimate(151.5, 148.2, 154.9, 40), outcomes["rounds"]) == "151.5 ±3.4"
    assert compact(Estimate(0.04, 0.0, 0.08, 40), outcomes["rounds"]) == "0.04 ±0.04"    # under 0.1: more digits
    assert compact(Estimate(float("nan"), float("nan"), float("nan"), 0), outcomes["rounds"]) == "–"
    assert compact(None, outcomes["rounds"]) == "–"


def test_means_read_with_one_decimal_as_counts_and_turns_do():
    rounds = {o.name: o for o in get_game("drachensachen").outcomes()}["rounds"]
    assert fmt(Estimate(3.7, 3.455, 3.962, 40), rounds) == "3.7 [3.5, 4.0]"
    assert fmt(Estimate(26.2, 24.651, 27.847, 40), rounds) == "26.2 [24.7, 27.8]"
    assert fmt(Estimate(0.0, 0.0, 0.092, 40), rounds) == "0.00 [0.00, 0.09]"       # a rare count does not read 0.0
    assert fmt(Estimate(0.0, 0.0, 3e-6, 10**6), rounds) == "0.0 [0.0, 0.0]"       # nor three decimals of zeros
    assert fmt(Estimate(0.0008, 0.0006, 0.001, 10**6), rounds) == "0.001 [0.001, 0.001]"
    assert fmt(Estimate(0.547, 0.54, 0.554, 40), {o.name: o for o in get_game("drachensachen").outcomes()}[
        "seat0_win"]) == "54.7% [54.0, 55.4]"


def test_every_share_reads_as_a_percent():
    """A rate or a share (a mean of per-game shares, 0..1) prints in % with one decimal, never "0.5 [0.5, 0.5]"."""
    share = re.compile(r"(^|_)(rate|share)$|^share of ")
    for game in all_games().values():
        for o in game.outcomes():
            if share.search(o.name) or share.search(o.label):
                assert o.shows_percent(), f"{game.name} {o.name}: a share, not marked percent"
    lie_rate = {o.name: o for o in get_game("dragonwake").outcomes()}["lie_rate"]
    assert fmt(Estimate(0.5, 0.494, 0.507, 2000), lie_rate) == "50.0% [49.4, 50.7]"


# ---- the command, end to end -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def drako_results(tmp_path_factory):
    """Drako at its defaults and under a variant: two configurations in one results folder."""
    out = tmp_path_factory.mktemp("drako")
    for extra in ((), ("--variant", "net_falls")):
        assert dsim("run", "--game", "drako", "--n", 1500, "--seed", 3, "--out", out, "--no-progress", *extra) == 0
    return out


def test_the_terminal_report_opens_with_findings_then_one_table_in_80_columns(drako_results, capsys, monkeypatch,
                                                                               tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = quiet(capsys, "report", "--out", drako_results, "--to", tmp_path / "report")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Drako: balance report"
    assert lines[1].startswith("• ") and re.search(r"\d%", lines[1]), "the findings come first"
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert not HASH.search(out), "a rules hash"
    assert "dragon-" not in out and "dwarves-" not in out, "a lineup code"
    heads = [i for i, line in enumerate(lines) if line.startswith("configuration")]
    assert len(heads) == 1, "one table"
    assert lines[heads[0] - 1] == "In every row: 2 players, dragon brawler, dwarves coordinated."
    table = lines[heads[0] + 2:]
    assert table[0].startswith("default rules ") and table[1].startswith("variant net falls ")  # the default first
    assert sum(1 for line in table if "%" in line) == 2, "one row per configuration"


def test_the_terminal_report_of_a_subprocess_prints_no_warning(drako_results, tmp_path):
    """As a user runs it, warnings on: stderr holds only the path of the index, no Python warning."""
    proc = subprocess.run([sys.executable, "-W", "error::UserWarning", "-m", "sim.cli.main", "report", "--out",
                           str(drako_results), "--to", str(tmp_path / "report")],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80


# ---- words: games, help, strategies ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(all_games()))
def test_games_lists_outcomes_variants_strategies_and_rules_in_80_columns(name, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = quiet(capsys, "games", name)
    assert code == 0
    game = get_game(name)
    rules = game.load_rules()
    for section in ("Outcomes", "Variants" if rules.ruleset.available_variants else "Outcomes", "Strategies",
                    "Rules"):
        assert re.search(rf"^{section} ", out, re.M), section
    names = {m.group(1) for m in re.finditer(r"^  (\S+)", out, re.M)}
    assert {o.name for o in game.outcomes()} <= names
    assert set(rules.ruleset.available_variants) <= names
    assert set(game.strategies.items) <= names
    assert max(len(line) for line in out.splitlines()) <= 80
    assert not HASH.search(out) and f"{game.min_players}-{game.max_players} players" not in out
    assert not ISSUE.search(out), ISSUE.search(out)


def test_the_game_list_names_every_game_in_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = quiet(capsys, "games")
    assert code == 0 and all(f"{name}: " in out for name in all_games())
    assert max(len(line) for line in out.splitlines()) <= 80 and not HASH.search(out)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_reads_in_80_columns_with_readable_metavars(command, monkeypatch):
    proc = subprocess.run([sys.executable, "-m", "sim.cli.main", *([command] if command else []), "--help"],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert not re.search(r"<(str|int|float|path|list\[str\])>", text), text
    assert max(len(line) for line in text.splitlines()) <= 80
    if not command:
        assert "..." not in text.split("Commands:")[1], "a command's summary is cut short"
    assert not ISSUE.search(text)


def test_no_strategy_description_names_an_issue():
    for game in all_games().values():
        for s in game.strategies.items.values():
            assert not ISSUE.search(s.description), (game.name, s.name, s.description)


def test_a_list_rule_element_is_named_in_words():
    from sim.analysis.tune import parse_param
    from sim.cli.common import build_spec
    game = get_game("drako")
    base = build_spec("drako", 100, None, None, None, 0, None, None, None)
    assert parse_param("dwarf_spaces[0]=4:8", game, base).words == "dwarf spaces of the Fury dwarf"
    assert parse_param("turn_cap=100:400", game, base).words == "turn cap"
