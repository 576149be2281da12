"""`--format json` is for scripts: every command that writes a report prints one JSON document whose figures are
numbers and booleans (the fields the README lists), never a formatted "45.2% [45.0, 45.3]" or a "False"."""

from __future__ import annotations

import json
import re

import pytest

from sim.cli.main import main

TINY = ["--n", "200", "--seed", "3"]
COMMANDS = {
    "run": ["run", "--game", "drako", *TINY, "--no-progress"],
    "compare": ["compare", "--game", "drako", "--variant", "base", "--variant", "net_falls", *TINY],
    "sweep": ["sweep", "--game", "drako", "--param", "dwarf_spaces=[6,5,4]|[7,6,5]", *TINY],
    "tournament": ["tournament", "--game", "drako", "--strategies",
                   "dragon=brawler/dwarves=coordinated,dragon=kiter/dwarves=coordinated", *TINY],
    "tune": ["tune", "--game", "drako", "--param", "dwarf_spaces[0]=4:8", "--target", "dragon_win=0.5", *TINY,
             "--verify", "200"],
    "sensitivity": ["sensitivity", "--game", "drako", "--only", "dwarf_spaces", *TINY],
    "ablate": ["ablate", "--game", "drako", "--only", "dragon defense", *TINY],
    "ladder": ["ladder", "--game", "dragonwake", "--iters", "1", "--no-equilibrium", *TINY],   # no search rungs
    "optimize": ["optimize", "--game", "drako", "--strategy", "brawler", "--role", "dragon", "--iters", "1", *TINY],
    "equilibrium": ["equilibrium", "--game", "drako", "--precision", "0.1", "--n", "300", "--rounds", "1",
                    "--iters", "1", "--refine", "1", "--search-games", "100", "--boot", "20",
                    "--check-games", "20", "--no-search-joins"],
    "balance --check": ["balance", "--check", "--target", "experiments/targets/drakerion.toml", "--n", "40",
                        "--seed", "3"],
    "decks": ["decks", "--deck", "gloom", "--n", "40", "--steps", "1", "--candidates", "2", "--seed", "3"],
}
SENTENCES = {"title", "findings", "caveats", "note", "report", "html", "finding", "figure"}
NUMBERS = {"value", "low", "high", "n", "games", "games_per_arm", "games_per_point", "p", "p_adjusted", "rating",
           "target", "rank", "rank_low", "rank_high", "players", "x2", "df", "deals_per_pair", "games_changed",
           "games_unpaired_would_need", "default", "found", "reference"}
BOOLEANS = {"is_default", "headline", "detected", "converged", "target_inside", "identical", "low_open", "high_open", "fits",
            "searching", "inside", "breaks"}
FORMATTED = re.compile(r"[+-−]?\d[\d.,]*%?\s*[\[(]")


def check(node, key: str = "", where: str = "") -> int:
    """Walk the document; return how many numbers it holds. Fails on a formatted figure or a boolean as text."""
    if isinstance(node, dict):
        return sum(check(v, k, f"{where}.{k}") for k, v in node.items())
    if isinstance(node, list):
        return sum(check(v, key, f"{where}[]") for v in node)
    if isinstance(node, str):
        assert node not in ("True", "False", "nan", "NaN"), where
        if key not in SENTENCES:
            assert not FORMATTED.match(node), f"{where}: a formatted figure {node!r}"
        return 0
    if key in BOOLEANS:
        assert isinstance(node, bool) or (key == "fits" and node is None), f"{where}: {node!r} is not a boolean"
    elif key in NUMBERS and not isinstance(node, dict):
        assert node is None or (isinstance(node, (int, float)) and not isinstance(node, bool)), \
            f"{where}: {node!r} is not a number"
    return int(isinstance(node, (int, float)) and not isinstance(node, bool))


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_numbers_and_booleans(command, tmp_path, capsys):
    assert main([*COMMANDS[command], "--out", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] and data["report"].endswith(".md")
    assert check(data) > 3, "no figures"
    if command == "run":
        (config,) = data["configurations"]
        win = next(o for o in config["outcomes"] if o["outcome"] == "dragon_win")
        assert win["unit"] == "%" and 0 <= win["low"] <= win["value"] <= win["high"] <= 100 and win["n"] == 200
    if command == "compare":
        change = data["changes"][0]
        assert {"base", "new", "change"} <= set(change) and change["change"]["unit"] in ("points", "")
    if command == "balance --check":
        assert data["figures"] == 19 and all(isinstance(r["inside"], bool) for r in data["rows"])
        field = next(r for r in data["rows"] if r["of"] == "ember")  # a rate: its band in the estimate's unit
        assert field["estimate"]["unit"] == "%" and (field["low"], field["high"]) == (45.0, 55.0)
    if command == "tune":
        assert all(isinstance(o["target_inside"], bool) for s in data["settings"] for o in s["outcomes"])


def test_games_and_replay_print_json(capsys):
    assert main(["games", "drako", "--format", "json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert game["game"] == "drako" and isinstance(game["min_players"], int)
    assert any(o["outcome"] == "dragon_win" and o["headline"] is True and o["unit"] == "%" for o in game["outcomes"])
    assert main(["replay", "--game", "drako", "--game-id", "1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is True and data["moves"] and data["game_id"] == 1


def test_report_prints_every_game_as_numbers(tmp_path, capsys):
    assert main(["run", "--game", "drako", *TINY, "--out", str(tmp_path), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["report", "--out", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (game,) = data["games"]
    assert game["game"] == "drako" and check(game) > 3
