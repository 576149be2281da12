"""The no-peeking tests (tests/search_harness.py) on every game's search player, through its probe
(tests/search_probe_<game>.py; every probe there is run)."""

import importlib
from pathlib import Path

import pytest

import search_harness as harness

GAMES = sorted(p.stem.removeprefix("search_probe_") for p in Path(__file__).parent.glob("search_probe_*.py"))


@pytest.fixture(scope="module", params=GAMES)
def probe(request):
    return harness.probe_of(importlib.import_module(f"search_probe_{request.param}"))


@pytest.mark.parametrize("check", harness.CHECKS, ids=[c.__name__ for c in harness.CHECKS])
def test_search_never_reads_what_it_cannot_see(probe, check):
    check(probe)



def test_every_game_with_a_search_player_has_a_probe():
    """A game whose registry offers `search` is checked here too: its probe exists."""
    from sim.games import game_names, get_game
    searching = {name for name in game_names() if "search" in get_game(name).strategies.items}
    assert searching and searching <= set(GAMES)
