"""Dragonwake's elements (artifacts, powers, events) for `dsim ablate` (every game's assumed values
and their alternatives: tests/test_coverage.py)."""

import pytest

from effects import no_change
from sim.analysis.ablate import ablate
from sim.cli.common import build_spec
from sim.games import get_game
from sim.games.dragonwake.elements import card_keys, in_proportion

GAME = get_game("dragonwake")


@pytest.mark.parametrize("variants", [(), ("advanced",)])
def test_every_element_loads_as_valid_rules(variants):
    rules = GAME.load_rules(variants=variants)
    elements = GAME.elements(rules)
    names = [e.name for e in elements]
    assert len(names) == len(set(names))
    assert {e.group for e in elements} == {"artifacts", "powers", "events"}
    assert {"Candle of Clairvoyance", "Figure of Fate", "Divinator", "Chosen One", "Eclipse", "Gluttony"} <= set(names)
    for e in elements:
        modes = [m for m in (e.remove, e.neutral, e.force) if m]
        assert modes, e.name
        for overrides in modes:
            r = GAME.load_rules(variants=variants, sets=list(overrides))
            for players in (4, GAME.default_players, 8):
                GAME.check_players(r, players)


def test_neutral_and_force_keep_each_module_deck_size():
    rules = GAME.load_rules(variants=("advanced",))
    sizes = {"artifacts": lambda t: sum(t.artifact_counts()), "powers": lambda t: len(t.power_deck()),
             "events": lambda t: len(t.event_deck())}
    for e in GAME.elements(rules):
        size = sizes[e.group]
        for overrides in (e.neutral, e.force):
            if overrides:
                assert size(GAME.load_rules(variants=("advanced",), sets=list(overrides)).typed) == size(rules.typed)


def test_cards_are_read_from_the_rules_data():
    # a new power needs only its count in the rules and in power_deck: a count that grows the deck is a card
    typed = GAME.load_rules().typed
    assert "power_divinator" in card_keys(typed, "powers") and "powers_per_player" not in card_keys(typed, "powers")
    assert card_keys(typed, "artifacts") == ["artifact_candle", "artifact_fate"]
    assert in_proportion({"a": 3, "b": 3, "c": 3}, 3) == {"a": 1, "b": 1, "c": 1}
    assert sum(in_proportion({"a": 1, "b": 2}, 4).values()) == 4


def test_an_event_never_drawn_changes_no_game(tmp_path):
    # one round only: no event is drawn before the last round, so swapping an event for a blank one is idle
    sets = ("events=true", "cards_per_player=2", "hand_sizes=[2]")
    base = build_spec("dragonwake", 1500, 5, None, None, 3, None, list(sets), None)
    effects = ablate(GAME, base, tmp_path / "out", mode="neutral", base_sets=sets, only=("events",)).effects
    assert {e.key for e in effects} == {"Eclipse", "Gluttony"}
    assert all(no_change(e) for e in effects)


def test_taking_the_chosen_one_out_costs_the_heroes(tmp_path):
    # a hero holding Chosen One undoes the dragon's reveal, the cultists' one sudden win
    # (one power card in about twenty: 30,000 games resolve its one-point effect)
    base = build_spec("dragonwake", 30000, 5, None, ["powers"], 1, None, None, None)
    effects = ablate(GAME, base, tmp_path / "out", mode="remove", variants=("powers",),
                     only=("Chosen One",)).effects
    (e,) = effects
    assert e.outcome == "hero_win" and e.result.diff.hi < 0
