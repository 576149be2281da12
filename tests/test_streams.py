"""Every game seeds each game of a batch from (seed, game index): game g is dealt alike whatever the games before it
did, so that comparisons on the same seeds (`dsim compare`, tournaments, payoff tables) are paired game by game."""

import importlib
import warnings

import numpy as np
import pytest

from sim.games import game_names, get_game

warnings.simplefilter("ignore")   # numba's first-class functions are marked experimental

# per game, the trace codes of the rows that deal a game: a trace's leading rows of these codes are its deal (a
# string: why the game is left out)
DEAL_CODES = {
    "dragonwake": ("EV_ROLE", "EV_UNDEALT", "EV_ROUND", "EV_DEAL", "EV_POWERS"),
    "drachensachen": ("T_ABILITY", "T_ROUND", "T_SETUP", "T_DECK"),
    "drakerion": "its trace records the decks only after the setup decisions and mulligans, whose strategies draw "
                 "from the game's own stream (seeded per game, kernel.py): two lineups record different decks",
    "drako": ("EV_DECK",),
    "drarkane": ("EV_ROUND", "EV_DECK", "EV_DRAGON_DECK", "EV_OBJ_DECK"),
}
GAMES = 40


def deal(events: np.ndarray, codes: set) -> np.ndarray:
    k = 0
    while k < len(events) and events[k, 0] in codes:
        k += 1
    return events[:k]


@pytest.mark.parametrize("name", game_names())
def test_each_game_is_dealt_alike_whatever_the_games_before_it_did(name):
    """Random play and the default lineup play a batch's games differently; each game's deal is the same under
    both. (A game dealt from one stream per batch fails this after the first game whose play drew differently.)"""
    assert name in DEAL_CODES, f"name the trace codes of {name}'s deal here"
    if isinstance(DEAL_CODES[name], str):
        pytest.skip(DEAL_CODES[name])
    game = get_game(name)
    records = importlib.import_module(f"sim.games.{name}.records")
    codes = {getattr(records, c) for c in DEAL_CODES[name]}
    rules = game.load_rules()
    a, b = (game.traces(rules, game.default_players, game.lineup(text, rules), 7, GAMES) for text in ("random", None))
    assert sum(x.record != y.record for x, y in zip(a, b)) >= GAMES // 4, "the lineups play alike"
    for g, (x, y) in enumerate(zip(a, b)):
        dx, dy = deal(x.events, codes), deal(y.events, codes)
        assert len(dx) > 0 and np.array_equal(dx, dy), f"game {g} is dealt differently"
