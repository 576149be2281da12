"""Drakerion's elements (each card of the two seats' decks) and its assumed values' alternatives."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

from sim.analysis.ablate import ablate
from sim.analysis.sensitivity import assumptions, undeclared
from sim.engine.spec import RunSpec
from sim.games import get_game
from drakerion_cards import FIRST_DRAFT_RULES
from sim.games.drakerion import elements as E

GAME = get_game("drakerion")
FIRST = FIRST_DRAFT_RULES
DECKS = ("ember", "tide", "grove", "stone", "gloom")
# readings the rule-flag work turns into flags (`reading`/`other`: their other reading is their alternative)
READINGS = {"mulligan_shuffle_first", "named_bonus_second", "out_player_combat_actions", "prestige_any_destruction",
            "ability_attack_taps", "prestige_beats_wipeout"}
# deck_size: every deck of the pool holds 30 cards and another size is refused, so no other value is valid rules
# until the rules fit a deck to the size (see the issue #14 report)
GAPS = {"deck_size"}


def test_generated_card_files_match_cards_toml():
    assert E.stale() == [], "cards.toml changed: rerun `python -m sim.games.drakerion.elements`"


def test_deck_arithmetic_keeps_size_and_proportion():
    deck = {"a": 3, "b": 3, "c": 2, "d": 1}
    assert E.removed(deck, "a") == {"b": 5, "c": 3, "d": 1}          # 1.5, 1, 0.5: the tie goes to b
    assert E.forced(deck, "d", Counter()) == {"a": 2, "b": 2, "c": 1, "d": 1 + E.EXTRA}
    # b is all set-up: its share comes from the card with the most copies left
    assert E.forced(deck, "d", Counter({"b": 3})) == {"a": 1, "b": 3, "c": 1, "d": 1 + E.EXTRA}


@pytest.mark.parametrize("seat0,seat1", [("ember", "tide"), *[(d, d) for d in DECKS]])
def test_every_element_loads_as_valid_rules(seat0, seat1):
    base = GAME.load_rules(FIRST, sets=[("seat0_deck", seat0), ("seat1_deck", seat1)])
    elements = GAME.elements(base)
    names = [e.name for e in elements]
    assert len(names) == len(set(names)) == sum(len(base.typed.pool().deck_cards(d)) for d in (seat0, seat1))
    for e in elements:
        assert e.remove and e.neutral and e.force, e.name
        for mode in (e.remove, e.neutral, e.force):
            rules = GAME.load_rules(FIRST, sets=[("seat0_deck", seat0), ("seat1_deck", seat1), *mode])
            t = rules.typed.arrays()
            assert list(t.deck_n) == [30, 30]


def test_a_user_card_file_offers_only_the_neutral_mode():
    rules = GAME.load_rules(FIRST, sets=[("cards", str(E.SOURCE))])
    assert all(e.neutral and not e.remove and not e.force for e in GAME.elements(rules))


def games(*sets) -> pl.DataFrame:
    rules = GAME.load_rules(FIRST, sets=list(sets))
    return pl.DataFrame(GAME.simulate(rules, 2, GAME.lineup(None), 5, 300)["games"]).drop(GAME.label_columns())


def test_the_ablation_card_file_leaves_the_untouched_seat_as_it_was():
    """Pointing `cards` at the generated file changes no game: its first cards are cards.toml's, same ids."""
    assert games().equals(games(("cards", E.file_value(E.ABLATE_FILE))))


def spec(n: int) -> RunSpec:
    return RunSpec(GAME, GAME.load_rules(FIRST), 2, GAME.lineup(None), n, seed=3)


def test_neutral_cinder_scout_changes_no_game(tmp_path):
    """Cinder Scout (1 gold, 1 melee, 2 HP, no ability) is already a vanilla 1-cost character, and no card of
    ember or tide cares for its trait: its neutral replacement plays the very same games."""
    assert games().equals(games(("vanilla_seat0", "Cinder Scout")))
    effects = ablate(GAME, spec(300), tmp_path / "out", only=["Cinder Scout"], rules_file=FIRST).effects
    (e,) = effects
    assert e.identical, "the arms differ only in the columns naming the vanilla card"
    assert e.result.identical and e.result.diff.value == 0 and not e.detected


def test_pyre_archer_made_vanilla_weakens_ember(tmp_path):
    """Pyre Archer is ember's cheap shooter (2 ranged, no riposte taken); a vanilla 2-cost character cannot
    shoot, so seat 0 (ember) wins less."""
    effects = ablate(GAME, spec(400), tmp_path / "out", only=["Pyre Archer"], rules_file=FIRST).effects
    (e,) = effects
    assert e.outcome == "seat0_win" and e.result.diff.hi < 0


def test_every_assumed_value_declares_alternatives():
    left = [k for k in undeclared(GAME) if k not in GAPS | READINGS]
    assert left == []
    entries = GAME.load_rules().ruleset.entries
    assert all(isinstance(entries[k].value, (bool, str)) for k in READINGS)
    for key, alternatives in assumptions(GAME, GAME.load_rules()).items():
        for value in alternatives:
            for at in GAME.load_rules(sets=[(key, value)]).typed.matchups():
                at.arrays()
