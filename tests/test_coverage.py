"""Every game: each rule flag is well formed, has a counter and changes play; every counted rule, card effect
and variant rule fires in the game's coverage runs (random and default play, with the variants on)."""

from functools import lru_cache

import numpy as np
import polars as pl
import pytest

from sim.analysis.coverage import PREFIX, counter_names, fired, identical_games
from sim.analysis.sensitivity import undeclared
from sim.games import game_names, get_game

# Every game counts its rules.
COUNTED = set(game_names())


@lru_cache(maxsize=None)
def play(name: str, run_index: int, flip: str = "") -> pl.DataFrame:
    """The games table of one coverage run, optionally with one flag set to its other reading."""
    game = get_game(name)
    run = game.coverage_runs()[run_index]
    sets = list(run.sets)
    rules = game.load_rules(None, run.variants, sets)
    if flip:
        sets.append((flip, rules.ruleset.flags()[flip].other_value))
        rules = game.load_rules(None, run.variants, sets)
    tables = game.simulate(rules, run.players, game.lineup(run.lineup), 11, run.n)
    # copied: a kernel may hand back its own buffers, which the next batch overwrites
    return pl.DataFrame({k: np.array(v, copy=True) for k, v in tables["games"].items()})


def runs(name: str) -> range:
    return range(len(get_game(name).coverage_runs()))


@pytest.mark.parametrize("name", game_names())
def test_flags_name_both_readings_and_a_variant(name):
    game = get_game(name)
    ruleset = game.load_rules().ruleset
    for key, flag in ruleset.flags().items():
        assert flag.reading.strip() and flag.other.strip() and flag.reading != flag.other, key
        game.load_rules(sets=[(key, flag.other_value)])          # the other reading is valid rules
        presets = [v for v, spec in ruleset.available_variants.items()
                   if spec.get("set", {}).get(key) == flag.other_value]
        assert presets, f"{name}: flag {key} has no variant for its other reading"


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_every_counter_fires_in_the_coverage_runs(name):
    totals: dict[str, int] = {}
    for i in runs(name):
        for key, f in fired(play(name, i)).items():
            totals[key] = totals.get(key, 0) + f.times
    assert totals, f"{name} counts no rules"
    assert not [k for k, t in totals.items() if t == 0], f"{name}: never fired {[k for k, t in totals.items() if t == 0]}"
    flags = get_game(name).load_rules().ruleset.flags()
    assert not set(flags) - set(totals), f"{name}: flags without a counter: {sorted(set(flags) - set(totals))}"


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_every_flag_changes_play(name):
    """Flipping each flag changes the games in some coverage run where its situation arose."""
    unchanged = []
    for key in get_game(name).load_rules().ruleset.flags():
        arose = [i for i in runs(name) if key in counter_names(play(name, i))
                 and int(play(name, i)[PREFIX + key].sum()) > 0]
        if not any(not identical_games(play(name, i), play(name, i, key)) for i in arose):
            unchanged.append(key)
    assert not unchanged, f"{name}: flipping these flags changed no game: {unchanged}"


def test_a_gated_counter_is_read_only_where_its_module_was_on():
    """Dragonwake's Eclipse counter in a base run says nothing: events were off there, so it is not 'never
    applied'; a count rule (min_reveals) gates when it is above zero."""
    from sim.analysis.coverage import exercised
    games = pl.DataFrame({"rules": ["base", "base", "adv"], "fired_eclipse": [0, 0, 3],
                          "fired_min_reveals": [0, 0, 0], "fired_power_order": [0, 0, 0]})
    runs = [{"rules_hash": "base", "values": {"events": {"value": False}, "min_reveals": {"value": 0},
                                              "powers": {"value": False}}},
            {"rules_hash": "adv", "values": {"events": {"value": True}, "min_reveals": {"value": 0},
                                             "powers": {"value": True}}}]
    gates = get_game("dragonwake").counter_gates()
    rows, never, off = exercised(games, runs, gates)
    assert {r.name: (r.n, r.games) for r in rows} == {"eclipse": (1, 1), "power_order": (1, 0)}
    assert never == ["power_order"] and off == ["min_reveals"]
    rows, never, off = exercised(games, runs)                 # without the gates every zero reads as never
    assert set(never) == {"min_reveals", "power_order"} and off == []


# Drakerion's assumed values without alternatives are its known gaps (tests/test_elements_drakerion.py).
@pytest.mark.parametrize("name", [n for n in game_names() if n != "drakerion"])
def test_every_assumed_value_declares_alternatives(name):
    assert undeclared(get_game(name)) == []


@pytest.mark.parametrize("name", game_names())
def test_every_alternative_is_valid_rules(name):
    """What `dsim sensitivity` plays: each assumed value's alternatives load and fit the default player count."""
    game = get_game(name)
    for key, entry in game.load_rules().ruleset.entries.items():
        for alt in entry.alternatives:
            game.check_players(game.load_rules(sets=[(key, alt)]), game.default_players)
