"""Game registry: every subpackage with a `game.py` defining `GAME` is a game (no list to edit)."""

from __future__ import annotations

import functools
import importlib
import pkgutil

from sim.core.errors import DsimError
from sim.core.game import Game


@functools.cache
def all_games() -> dict[str, Game]:
    games = {}
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            module = importlib.import_module(f"{__name__}.{info.name}.game")
            games[module.GAME.name] = module.GAME
    return dict(sorted(games.items()))


def get_game(name: str) -> Game:
    games = all_games()
    if name not in games:
        raise DsimError(f"unknown game '{name}' (known: {', '.join(games)})")
    return games[name]
