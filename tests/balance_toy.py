"""A tiny game whose content is data and whose balance is known, for `dsim balance`'s tests.

Three decks of items, each with a power. Seat 0 wins with probability 0.5 + 0.05 × (its deck's total power − the
other's), clipped to [0.02, 0.98]; no draws, no seat advantage; a game lasts as many turns as both decks' total
power. So a deck's score against another is known exactly, and the field band 45–55% holds when each deck's
total is within 2 of the mean of the others'. The content file and the rules live in a temporary folder.
"""

from __future__ import annotations

import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine.errors import DsimError
from sim.engine.game import Game, Outcome, Rules, Tunable
from sim.engine.rules import build_typed
from sim.engine.strategy import Strategy, StrategyRegistry

FOLDER = Path(tempfile.mkdtemp(prefix="dsim-toy-"))
START = {"a": [3, 3, 3], "b": [2, 2, 2], "c": [2, 2, 2]}     # totals 9, 6, 6: a too strong


def write_items(path: Path, decks: dict[str, list[int]], header: tuple[str, ...] = ()) -> None:
    lines = [f"# {h}" for h in header]
    for deck, powers in decks.items():
        for k, p in enumerate(powers):
            lines += ["[[item]]", f'name = "{deck}{k}"', f'deck = "{deck}"', f"power = {p}", ""]
    path.write_text("\n".join(lines) + "\n")


def read_items(path: str) -> dict[str, list[tuple[str, int]]]:
    out: dict[str, list[tuple[str, int]]] = {}
    for item in tomllib.loads(Path(path).read_text())["item"]:
        out.setdefault(item["deck"], []).append((item["name"], item["power"]))
    return out


write_items(FOLDER / "items.toml", START)
(FOLDER / "rules.toml").write_text(f"""[meta]
game = "toy"
[rules.items]
value = "{FOLDER / 'items.toml'}"
source = "assumed"
[rules.seat0_deck]
value = "a"
source = "assumed"
[rules.seat1_deck]
value = "b"
source = "assumed"
""")


@dataclass(frozen=True)
class ToyRules:
    items: str
    seat0_deck: str
    seat1_deck: str

    def power(self, deck: str) -> int:
        return sum(p for _, p in read_items(self.items)[deck])


def win_chance(s0: int, s1: int) -> float:
    return float(np.clip(0.5 + 0.05 * (s0 - s1), 0.02, 0.98))


REGISTRY = StrategyRegistry("toy")
REGISTRY.register(Strategy("plain", ("seat0", "seat1"), (), "the only way to play"))


@dataclass
class ToyGame(Game):
    def simulate(self, rules: Rules, players: int, lineup, seed: int, n: int):
        r = rules.typed
        s0, s1 = r.power(r.seat0_deck), r.power(r.seat1_deck)
        u = np.random.default_rng(seed).random(n)
        return {"games": {"winner": (u >= win_chance(s0, s1)).astype(np.int8),
                          "turns": np.full(n, s0 + s1, np.int16)}}

    def outcomes(self) -> list[Outcome]:
        w = pl.col("winner")
        return [Outcome("seat0_win", "rate", (w == 0).cast(pl.Float64), "seat 0 wins", headline=True),
                Outcome("draw", "rate", (w < 0).cast(pl.Float64), "draws"),
                Outcome("turns", "mean", pl.col("turns").cast(pl.Float64), "turns")]

    def decks(self, rules: Rules) -> list[str]:
        return list(read_items(rules.typed.items))

    def content(self, rules: Rules) -> list[Tunable]:
        return [Tunable(name, "power", p, 0, 10, (deck,), 1, 1)
                for deck, items in read_items(rules.typed.items).items() for name, p in items]

    def with_content(self, rules: Rules, changes, to: Path, header=()) -> Rules:
        decks = {d: [changes.get((name, "power"), p) for name, p in items]
                 for d, items in read_items(rules.typed.items).items()}
        write_items(to, decks, header)
        ruleset = rules.ruleset.with_overrides({"items": str(to)})
        return Rules(ruleset, build_typed(ToyRules, ruleset))

    def content_file(self, name: str) -> Path:
        if not name.isidentifier():
            raise DsimError(f"bad content name '{name}'")
        return FOLDER / f"{name}.toml"


GAME = ToyGame(name="toy", title="Toy", min_players=2, max_players=2, default_players=2,
               default_lineup={"seat0": "plain", "seat1": "plain"}, strategies=REGISTRY, rules_class=ToyRules,
               package_dir=FOLDER, chunk_size=5_000, deck_rules={"seat0": "seat0_deck", "seat1": "seat1_deck"})
