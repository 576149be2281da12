"""Drako's search player (sim/games/drako/kernel_search.py): it plays legal, repeatable games, it is stronger
than the heuristics it plays out with, and when informed it plays out against the opponent it really meets. That
it never reads what its side cannot see is tested with every game's search in test_search_common."""

from __future__ import annotations

import numpy as np
import pytest

from search_probe_drako import GAME, RULES, decide, lineup_args, positions
from sim.games.drako import kernel_search as ks
from sim.games.drako import records as R
from strategies.drako import search_params

POSITIONS = positions(16)


def test_search_games_are_legal_and_repeatable():
    lineup = GAME.lineup("dragon=search:budget=10,dwarves=search:budget=10")
    for trace in GAME.traces(RULES, 2, lineup, 5, 4):
        GAME.referee(RULES, 2, trace)
    one = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    two = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    for col in one:
        assert np.array_equal(one[col], two[col])


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own stream: game i is dealt the same cards whatever the dragon plays."""
    base = GAME.traces(RULES, 2, GAME.lineup("default"), 8, 3)
    searched = GAME.traces(RULES, 2, GAME.lineup("dragon=search:budget=10"), 8, 3)
    for a, b in zip(base, searched):
        dealt = np.argmax(a.events[:, 0] != R.EV_DECK)          # the opening deck rows come first
        assert dealt > 20 and np.array_equal(a.events[:dealt], b.events[:dealt])


@pytest.mark.parametrize("role, side", [("dragon", R.DRAGON), ("dwarves", R.DWARVES)])
def test_search_beats_the_default_heuristics_on_the_same_deals(role, side):
    n = 60
    base = GAME.simulate(RULES, 2, GAME.lineup("default"), 21, n)["games"]
    searched = GAME.simulate(RULES, 2, GAME.lineup(f"{role}=search:budget=100"), 21, n)["games"]
    assert (searched["winner"] == side).mean() > (base["winner"] == side).mean() + 0.1


# ---- informed: the playouts play the opponent's real strategy ----------------------------------------------


def informed(p: np.ndarray) -> np.ndarray:
    q = p.copy()
    q[ks.P_INFORMED] = 1.0
    return q


def test_informed_against_the_default_heuristics_decides_as_uninformed():
    """The default line-up plays brawler and coordinated at their default weights, exactly what the uninformed
    playouts assume: knowing the opponent changes no decision."""
    for pos in POSITIONS[:8]:
        for stream in (3, 4):
            assert decide(pos, stream, p=informed(pos.p)) == decide(pos, stream)


def test_informed_against_a_random_dragon_plays_out_against_it():
    """Against a random dragon the informed dwarves' playouts meet that dragon, and some decisions change."""
    random_dragon = lineup_args("dragon=random")
    changed = 0
    for pos in POSITIONS:
        if pos.me != R.DWARVES:
            continue
        changed += any(decide(pos, s, against=random_dragon, p=informed(pos.p)) != decide(pos, s, against=random_dragon)
                       for s in (3, 4, 5))
    assert changed > 0


def test_search_params_pad_informed():
    assert list(search_params([50.0])[:2]) == [50.0, 0.0]
    assert list(search_params([50.0, 1.0])[:2]) == [50.0, 1.0]
    assert len(search_params([50.0])) == len(search_params([50.0, 1.0]))
