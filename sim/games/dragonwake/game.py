"""Dragonwake's thin API over its rules, kernel and referee."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.game import BenchCase, Game, Outcome, Rules, Trace
from sim.core.sections import Measure, Series, Table
from sim.games.dragonwake import kernel, referee
from sim.games.dragonwake.records import END_NAMES, GAME_COLUMNS, TRACE_WIDTH, trace_steps
from sim.games.dragonwake.rules import DragonwakeRules
from strategies.dragonwake import REGISTRY, no_power


def power_function(strategy):
    """A strategy's `power` function; strategies written before the advanced game have none."""
    return strategy.functions[2] if len(strategy.functions) > 2 else no_power


@dataclass
class DragonwakeGame(Game):
    def _play(self, rules: Rules, players: int, lineup, seed: int, n: int, n_traced: int, check: bool):
        r: DragonwakeRules = rules.typed
        heroes, cultists = r.role_deck(players)
        out = np.empty((len(GAME_COLUMNS), n), np.int16).T     # column-major: each column is contiguous
        steps = trace_steps(players, len(r.hand_sizes), r.cards_per_player, r.powers_dealt(players), r.hunter_flips)
        trace = np.zeros((n_traced, steps, TRACE_WIDTH), np.int64)
        hero, cultist = lineup["hero"], lineup["cultist"]
        power_deck = r.power_deck()
        mods = np.array([*r.artifact_counts(), int(r.powers), r.powers_per_player, len(power_deck), r.hunter_flips],
                        np.int64)
        kernel.play_batch(np.uint32(seed), n, players, heroes, cultists, r.relics_per_player, r.dragons,
                          r.cards_per_player, np.array(r.hand_sizes, np.int64), r.min_reveals, r.self_reveal,
                          r.events, np.array(r.event_deck() or [0], np.int64), r.gluttony_cards,
                          mods, np.array(power_deck or [0], np.int64),
                          hero.strategy.functions[0], hero.strategy.functions[1],
                          cultist.strategy.functions[0], cultist.strategy.functions[1],
                          power_function(hero.strategy), power_function(cultist.strategy),
                          hero.params, cultist.params, hero.strategy.builtin, cultist.strategy.builtin,
                          out, trace, check)
        columns = {name: out[:, i].astype(dtype, copy=False) for i, (name, dtype) in enumerate(GAME_COLUMNS.items())}
        return columns, trace

    def simulate(self, rules, players, lineup, seed, n, check=False):
        columns, _ = self._play(rules, players, lineup, seed, n, 0, check)
        return {"games": columns}

    def traces(self, rules, players, lineup, seed, n):
        columns, trace = self._play(rules, players, lineup, seed, n, n, True)
        return [Trace(trace[g], {k: v[g] for k, v in columns.items()}) for g in range(n)]

    def referee(self, rules, players, trace):
        return referee.referee(rules.typed, players, trace)

    def outcomes(self):
        return [
            Outcome("hero_win", "rate", pl.col("winner") == 0, "heroes win", headline=True),
            Outcome("win_by_relics", "rate", pl.col("end_mode") == 0, "heroes find every relic"),
            Outcome("win_by_dragon", "rate", pl.col("end_mode") == 1, "the dragon is found"),
            Outcome("win_by_time", "rate", pl.col("end_mode") == 2, "time runs out"),
            Outcome("reveals", "mean", pl.col("reveals"), "reveals to the end"),
            Outcome("rounds", "mean", pl.col("rounds"), "round reached"),
            Outcome("lie_rate", "mean", pl.col("claims_false") / (pl.col("claims_true") + pl.col("claims_false"))
                    .clip(lower_bound=1), "share of claims that were lies"),
            Outcome("violations", "mean", pl.col("violations"), "strategy moves the kernel had to correct"),
        ]

    def role_scores(self, games, players):
        hero_won = (games["winner"].to_numpy() == 0).astype(np.float64)
        return {"hero": hero_won, "cultist": 1.0 - hero_won}

    def group_columns(self):
        return ["n_cultists"]

    def report_tables(self) -> list:
        return [
            Table("How games end", [Measure(name, pl.col("end_mode") == m) for m, name in enumerate(END_NAMES)],
                  "end_modes", "By player count; the outcome tables above split them by the number of cultists.",
                  chart="stacked"),
            Series("Seat effects", "seat_wins", "seat after the first runebearer", "side wins (%, 95% interval)",
                   seat_measures, "Seat 0 is the first runebearer; a seat wins when the side it ended on wins."),
        ]


def seat_measures(games: pl.DataFrame) -> list:
    """Whether each seat's side won, for one configuration (one player count)."""
    players = int(games["players"][0])
    mask = "side_mask" if "side_mask" in games.columns else "cultist_mask"   # older runs lack side_mask
    out = []
    for seat in range(players):
        shift = (pl.col("first_runebearer").cast(pl.Int64) + seat) % players
        side = (pl.col(mask).cast(pl.Int64) // pl.lit(2, pl.Int64).pow(shift)) % 2
        out.append((seat, Measure(f"seat {seat}", side == pl.col("winner").cast(pl.Int64))))
    return out


GAME = DragonwakeGame(
    name="dragonwake",
    title="Dragonwake (heroes vs cultists)",
    min_players=3,
    max_players=10,
    default_players=5,
    roles=("hero", "cultist"),
    default_lineup={"hero": "bayes", "cultist": "liar"},
    strategies=REGISTRY,
    rules_class=DragonwakeRules,
    package_dir=Path(__file__).parent,
    chunk_size=100_000,
    bench_cases=[
        BenchCase("random, 5 players", 5, "random", 1_000_000),
        BenchCase("honest heroes vs liars, 5 players", 5, "hero=honest,cultist=liar", 200_000),
        BenchCase("bayes heroes vs liars, 5 players", 5, "hero=bayes,cultist=liar", 200_000),
    ],
)
