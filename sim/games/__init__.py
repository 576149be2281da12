"""Game registry: every subpackage with a `game.py` defining `GAME` is a game (no list to edit)."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

from sim.engine.errors import DsimError
from sim.engine.game import Game

HERE = Path(__file__).parent


def game_names() -> list[str]:
    return sorted(p.parent.name for p in HERE.glob("*/game.py"))


@functools.cache
def _load(name: str) -> Game:
    return importlib.import_module(f"{__name__}.{name}.game").GAME


def get_game(name: str) -> Game:
    if name not in game_names():
        raise DsimError(f"unknown game '{name}' (known: {', '.join(game_names())})")
    return _load(name)


def all_games() -> dict[str, Game]:
    return {name: _load(name) for name in game_names()}
