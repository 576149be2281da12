"""A tiny game whose decks are data and whose best deck is known, for `dsim decks`' tests.

Cards have a power; a deck is six cards; seat 0 wins with probability 0.5 + 0.04 × (its deck's power − the other's)
(no draws, no seat advantage). Deck "a" may hold its faction's cards x0-x4 (power 0-4), at most 3 copies each,
and must keep one x1 (its "set-up" card); so its best list is known: x4 ×3, x3 ×2, x1 ×1 (power 19).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine.game import DeckBuilding, Game, Outcome, Rules
from sim.engine.rules import build_typed
from sim.engine.strategy import Strategy, StrategyRegistry

FOLDER = Path(tempfile.mkdtemp(prefix="dsim-decks-toy-"))
POWER = {"x0": 0, "x1": 1, "x2": 2, "x3": 3, "x4": 4, "y2": 2, "z3": 3}
DECKS = {"a": {"x0": 2, "x1": 2, "x2": 2}, "b": {"y2": 6}, "c": {"z3": 3, "y2": 3}}
BEST = {"x4": 3, "x3": 2, "x1": 1}

(FOLDER / "decks.json").write_text(json.dumps(DECKS))
(FOLDER / "rules.toml").write_text(f"""[meta]
game = "decktoy"
[rules.decks]
value = "{FOLDER / 'decks.json'}"
source = "assumed"
[rules.seat0_deck]
value = "a"
source = "assumed"
[rules.seat1_deck]
value = "b"
source = "assumed"
""")


@dataclass(frozen=True)
class DeckToyRules:
    decks: str
    seat0_deck: str
    seat1_deck: str

    def power(self, deck: str) -> int:
        return sum(POWER[c] * k for c, k in json.loads(Path(self.decks).read_text())[deck].items())


REGISTRY = StrategyRegistry("decktoy")
REGISTRY.register(Strategy("plain", ("seat0", "seat1"), (), "the only way to play"))


@dataclass
class DeckToyGame(Game):
    def simulate(self, rules: Rules, players: int, lineup, seed: int, n: int):
        r = rules.typed
        chance = float(np.clip(0.5 + 0.04 * (r.power(r.seat0_deck) - r.power(r.seat1_deck)), 0.02, 0.98))
        u = np.random.default_rng(seed).random(n)
        return {"games": {"winner": (u >= chance).astype(np.int8)}}

    def outcomes(self) -> list[Outcome]:
        return [Outcome("seat0_win", "rate", (pl.col("winner") == 0).cast(pl.Float64), "seat 0 wins", headline=True)]

    def decks(self, rules: Rules) -> list[str]:
        return list(json.loads(Path(rules.typed.decks).read_text()))

    def deck_list(self, rules: Rules, deck: str) -> dict[str, int]:
        return dict(json.loads(Path(rules.typed.decks).read_text())[deck])

    def deck_building(self, rules: Rules, deck: str, most: int) -> DeckBuilding:
        return DeckBuilding(("x0", "x1", "x2", "x3", "x4"), 6, most, {"x1": 1})

    def with_deck(self, rules: Rules, like: str, name: str, cards: dict[str, int], to: Path) -> Rules:
        decks = {**json.loads(Path(rules.typed.decks).read_text()), name: cards}
        to.write_text(json.dumps(decks))
        ruleset = rules.ruleset.with_overrides({"decks": str(to)})
        return Rules(ruleset, build_typed(DeckToyRules, ruleset))


    def with_lists(self, rules: Rules, lists: dict, to: Path, header=()) -> Rules:
        to.write_text(json.dumps({**json.loads(Path(rules.typed.decks).read_text()), **lists}))
        ruleset = rules.ruleset.with_overrides({"decks": str(to)})
        return Rules(ruleset, build_typed(DeckToyRules, ruleset))

    def content_file(self, name: str) -> Path:
        return FOLDER / f"{name}.json"


GAME = DeckToyGame(name="decktoy", title="Deck toy", min_players=2, max_players=2, default_players=2,
                   default_lineup={"seat0": "plain", "seat1": "plain"}, strategies=REGISTRY,
                   rules_class=DeckToyRules, package_dir=FOLDER, chunk_size=5_000,
                   deck_rules={"seat0": "seat0_deck", "seat1": "seat1_deck"})
