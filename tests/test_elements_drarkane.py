"""Drarkane's elements (dragons, Treasures objectives, special cards) for `dsim ablate` (every game's
assumed values and their alternatives: tests/test_coverage.py)."""

import numpy as np
import pytest

from effects import no_change
from sim.analysis.ablate import ablate
from sim.cli.common import build_spec
from sim.games import get_game

GAME = get_game("drarkane")
# the Queen (card 44) set aside at four players, as well as the book's cards
QUEEN_ASIDE = "removed_cards=[[40,41,42,30,34,39],[40,41,42,30,34,39],[40,41,30,39,44],[40,39],[]]"


@pytest.fixture(scope="module")
def elements():
    return GAME.elements(GAME.load_rules())


def test_every_element_loads_as_valid_rules_at_every_player_count(elements):
    names = [e.name for e in elements]
    assert len(names) == len(set(names))
    groups = {e.group for e in elements}
    assert groups == {"dragons", "objectives (treasures on)", "special cards"}
    assert sum(e.group == "dragons" for e in elements) == 20
    assert sum(e.group == "objectives (treasures on)" for e in elements) == 20
    assert {"Knights", "Queen", "King", "Mercenary", "Dragon Egg", "low Wizard", "high Wizard"} <= set(names)
    for e in elements:
        modes = [m for m in (e.remove, e.neutral, e.force) if m]
        assert modes, e.name
        if e.group.startswith("objectives"):
            assert all(("treasures", True) in m for m in modes)
        for overrides in modes:
            rules = GAME.load_rules(sets=list(overrides))
            for players in range(1, 7):
                GAME.check_players(rules, players)


def test_neutral_keeps_the_decks_sizes(elements):
    base = GAME.load_rules().typed
    for e in elements:
        typed = GAME.load_rules(sets=list(e.neutral)).typed
        assert len(typed.cards) == len(base.cards) and len(typed.dragons) == len(base.dragons)
        for players in range(2, 7):
            assert len(typed.deck(players)) == len(base.deck(players))


def test_a_card_set_aside_changes_no_game(tmp_path):
    base = build_spec("drarkane", 1000, 4, None, None, 2, None, [QUEEN_ASIDE], None)
    effects = ablate(GAME, base, tmp_path / "out", mode="neutral", base_sets=(QUEEN_ASIDE,),
                     only=("Queen",)).effects
    (e,) = effects
    assert no_change(e)


def test_an_average_dragon_in_place_of_the_toughest_is_defeated_more(elements):
    tough = next(e for e in elements if e.name == "blue dragon 18/10")
    lineup = GAME.lineup(None)
    base = GAME.simulate(GAME.load_rules(), 4, lineup, 5, 2000)["games"]["defeated"].astype(float)
    softer = GAME.simulate(GAME.load_rules(sets=list(tough.neutral)), 4, lineup, 5, 2000)["games"]["defeated"]
    diff = softer.astype(float) - base
    assert diff.mean() - 3 * diff.std() / np.sqrt(len(diff)) > 0
