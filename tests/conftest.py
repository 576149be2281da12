import os

import pytest

os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(__file__), "..", ".numba_cache"))


@pytest.fixture(autouse=True)
def _plugins_stay_in_their_test():
    """A plugin a test loads in this process (`main([... "--plugin", ...])`) registers its strategies in the games'
    shared registries: put back after each test, or a later test's equilibrium lines up the plugin's strategy too
    (Dragonwake's study in tests/test_ladder.py took 110 s instead of 4 after tests/test_cli.py's plugin)."""
    from sim.engine import strategy
    from sim.games import all_games
    games = all_games().values()
    saved = [(g.strategies.items, dict(g.strategies.items)) for g in games]
    loaded = set(strategy._LOADED)
    yield
    for items, before in saved:
        items.clear()
        items.update(before)
    strategy._LOADED.intersection_update(loaded)
