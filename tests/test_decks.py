"""`dsim decks`: the deck search finds the known best deck of a toy game, keeps the deck-building limits, scores
the start and the deck found on fresh seeds, and refuses what it cannot do in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
import decks_toy as toy

from sim.analysis.decksearch import deck_search, swaps
from sim.cli.main import main
from sim.engine.errors import DsimError
from sim.engine.game import DeckBuilding
from sim.engine.spec import RunSpec


def toy_spec(n: int = 2000) -> RunSpec:
    rules = toy.GAME.load_rules()
    return RunSpec(toy.GAME, rules, 2, toy.GAME.lineup(None, rules), n, seed=5)


def test_the_search_finds_the_toy_games_best_deck():
    """From power 6 the best list (power 19) is 13 power away; every swap that adds power is seen, so a search
    with every swap tried each step climbs to it."""
    result = deck_search(toy.GAME, toy_spec(), ["a"], steps=20, candidates=100, patience=2)
    (found,) = result.found
    assert found.best == toy.BEST
    assert found.start == toy.DECKS["a"]
    # exact scores: against b (power 12) and c (power 15), both seat orders
    exact = np.mean([0.5 + 0.04 * (19 - 12), 0.5 + 0.04 * (19 - 15)])
    assert found.best_score.lo <= exact <= found.best_score.hi
    start = np.mean([0.5 + 0.04 * (6 - 12), 0.5 + 0.04 * (6 - 15)])
    assert found.edge.lo <= exact - start <= found.edge.hi and found.edge.lo > 0
    assert dict((c, b) for c, a, b in found.changes()) == {"x0": 0, "x2": 0, "x1": 1, "x3": 2, "x4": 3}


def test_the_findings_name_the_biggest_changes_first_and_count_the_rest():
    from types import SimpleNamespace
    from sim.report.decksearch import leans_on
    moves = [("a", 3, 2), ("b", 1, 3), ("c", 0, 1), ("d", 2, 3), ("e", 1, 0), ("f", 1, 0), ("g", 3, 2)]
    line = leans_on(SimpleNamespace(changes=lambda: moves))
    assert line.startswith("b 1→3, a 3→2, ") and line.endswith("and 1 smaller change (its table below)")
    assert "g 3→2" not in line
    assert leans_on(SimpleNamespace(changes=lambda: moves[:2])) == "b 1→3, a 3→2"
    assert leans_on(SimpleNamespace(changes=lambda: [])) == "no change"


def test_swaps_keep_the_size_the_copies_and_the_set_up_cards():
    rules = DeckBuilding(("x0", "x1", "x2", "x3", "x4"), 6, 3, {"x1": 1})
    deck = {"x1": 1, "x4": 3, "x3": 2}
    out = swaps(deck, rules, np.random.default_rng(1), 1000)
    assert out and len({json.dumps(d, sort_keys=True) for d in out}) == len(out)
    for d in out:
        assert sum(d.values()) == 6 and max(d.values()) <= 3 and d.get("x1", 0) >= 1
        assert sum(abs(d.get(c, 0) - deck.get(c, 0)) for c in rules.cards) == 2      # one copy out, one in


def test_a_starter_deck_within_the_limits_gains_nothing_from_a_search_that_tries_nothing():
    result = deck_search(toy.GAME, toy_spec(500), ["a"], steps=0)
    (found,) = result.found
    assert found.best == found.start and found.edge.value == 0 and not found.changes()


def test_refusals(tmp_path, capsys):
    with pytest.raises(DsimError, match="unknown deck 'q'"):
        deck_search(toy.GAME, toy_spec(), ["q"])
    with pytest.raises(DsimError, match="--most must be at least 1"):
        deck_search(toy.GAME, toy_spec(), ["a"], most=0)
    code = main(["decks", "--game", "drako", "--n", "10", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "no deck" in err
    assert not any(tmp_path.iterdir())


def test_drakerion_deck_search_from_the_cli(tmp_path, capsys):
    args = ["decks", "--deck", "gloom", "--n", "40", "--steps", "1", "--candidates", "2", "--seed", "3",
            "--out", str(tmp_path), "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    (gloom,) = out["decks"]
    assert gloom["deck"] == "gloom" and gloom["found"]["unit"] == "%" and isinstance(gloom["breaks"], bool)
    assert 0 <= gloom["found"]["low"] <= gloom["found"]["value"] <= gloom["found"]["high"] <= 100
    assert (tmp_path / "report" / "decks_drakerion.md").read_text().startswith("# Drakerion: which deck breaks")


def test_the_lists_found_are_written_as_a_new_pool_never_over_one():
    result = deck_search(toy.GAME, toy_spec(), ["a"], steps=20, candidates=100, patience=2, pool_out="found")
    written = json.loads(result.written.read_text())
    assert written["a"] == toy.BEST and written["b"] == toy.DECKS["b"]
    with pytest.raises(DsimError, match="exists"):
        deck_search(toy.GAME, toy_spec(), ["a"], steps=0, pool_out="found")
