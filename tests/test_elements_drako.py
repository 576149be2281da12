"""Drako's elements for `dsim ablate`: valid overrides, a neutral swap that cannot change a game, a sign."""

from effects import no_change
from sim.analysis.ablate import ablate
from sim.cli.common import build_spec
from sim.games import get_game
from sim.games.drako.elements import elements, neutral_deck, shares, split

GAME = get_game("drako")


def test_every_element_is_valid_rules_with_a_unique_name():
    rules = GAME.load_rules()
    found = elements(rules)
    names = [e.name for e in found]
    assert len(names) == len(set(names)) == len(rules.typed.dragon_deck) + len(rules.typed.dwarf_deck)
    assert {e.group for e in found} == {"dragon cards", "dwarf cards"}
    for e in found:
        assert e.remove or e.neutral or e.force, e.name
        for mode in (e.remove, e.neutral, e.force):
            if mode:
                GAME.check_players(GAME.load_rules(sets=list(mode)), GAME.default_players)


def test_the_neutral_deck_keeps_its_size_and_spreads_in_proportion():
    assert shares(6, [8, 6, 4]) == [3, 2, 1] and shares(5, [1, 1, 1]) == [2, 2, 1]
    deck = list(GAME.load_rules().ruleset.values["dwarf_deck"])
    for k in range(len(deck)):
        new = neutral_deck(deck, k)
        assert sum(split(t)[0] for t in new) == sum(split(t)[0] for t in deck)
        assert [split(t)[1] for t in new] == [split(t)[1] for i, t in enumerate(deck) if i != k]
    # two identical kinds: the neutral deck is the same cards under one kind, a repeated name is told apart
    twin = GAME.load_rules(sets=[("dragon_deck", ["19 x attack 2 / move 1", "19 x attack 2 / move 1"])])
    first, second = [e for e in elements(twin) if e.group == "dragon cards"]
    assert first.neutral == (("dragon_deck", ["38 x attack 2 / move 1"]),)
    assert second.name == "dragon attack 2 / move 1 (2)"


def test_a_neutral_swap_for_an_identical_card_changes_no_game(tmp_path):
    sets = [("dragon_deck", ["19 x attack 2 / move 1", "19 x attack 2 / move 1"])]
    base = build_spec("drako", 400, None, None, None, 3, None, sets, None)
    effects = ablate(GAME, base, tmp_path / "o", "neutral", only=("dragon attack 2 / move 1",),
                     base_sets=sets).effects
    assert effects and all(no_change(e) for e in effects)


def test_fewer_dragon_defenses_cost_the_dragon_wins(tmp_path):
    base = build_spec("drako", 1000, None, None, None, 5, None, None, None)
    effects = ablate(GAME, base, tmp_path / "o", "neutral", only=("dragon defense",)).effects
    win = next(e for e in effects if e.outcome == "dragon_win")
    assert win.result.diff.hi < -0.1 and not win.identical
