"""Drarkane's thin API over its rules, kernel and referee, with its outcomes and report sections."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.engine.frames import collect, columns, first, lazy
from sim.engine.game import BenchCase, Claim, CoverageRun, Game, Outcome, Rules, Trace
from sim.engine.lazy_polars import pl
from sim.engine.sections import Histogram, Measure, Series, Table
from sim.engine.strategy import compile_now
from sim.games.drarkane import referee
from sim.games.drarkane.records import (
    DECISIONS, GAME_BLOCKS, GAME_COLUMNS, MAX_SEATS, MODE_SOLO, ROUND_BLOCKS, ROUND_COLUMNS, TRACE_WIDTH, block_columns,
    trace_steps,
)
from sim.games.drarkane.rules import DrarkaneRules
from strategies.drarkane import REGISTRY

SOLO_RANKS = ("Burned Villager", "Flame Runner", "Scale Slayer", "Scourge of the Skies", "Legend of Drarkane")


@dataclass
class DrarkaneGame(Game):
    def _play(self, rules: Rules, players: int, lineup, seed: int, n: int, n_traced: int, check: bool,
              counts: dict | None = None):
        self.check_players(rules, players)
        r: DrarkaneRules = rules.typed
        mode, seats, hand, _ = r.table(players)
        cf = r.config(players, check)
        kind, colour, value = r.card_arrays()
        seat_list = [lineup[f"seat{k}"] for k in range(MAX_SEATS)]
        fns = [tuple(seat.strategy.functions[d] for seat in seat_list) for d in range(len(DECISIONS))]
        width = max(len(seat.params) for seat in seat_list)
        params = np.zeros((MAX_SEATS, width), np.float64)
        for k, seat in enumerate(seat_list):
            params[k, :len(seat.params)] = seat.params
        rows_per_game = 1 if mode == MODE_SOLO else r.rounds * players
        # the tables in their own types, one column-major block per type: the kernel writes the columns themselves
        games = {t: np.empty((n, len(names)), t, order="F") for t, names in GAME_BLOCKS.items()}
        rounds = {t: np.empty((n * rows_per_game, len(names)), t, order="F") for t, names in ROUND_BLOCKS.items()}
        steps = trace_steps(mode, seats, hand, r.solo_trick_cap) if n_traced else 1
        trace = np.zeros((n_traced, steps, TRACE_WIDTH), np.int16)
        kernel = self.kernels(strategies=False)          # then only the line-up's strategies compile
        compile_now([f for seat_fns in fns for f in seat_fns])
        searched = kernel.play_batch(int(seed) & 0xFFFFFFFF, n, cf, kind, colour, value, r.deck(players),
                                  r.dragon_array(), r.objective_array(), *fns, params,
                                  *games.values(), *rounds.values(), trace, counts=counts)
        game_cols = block_columns(games, GAME_COLUMNS)
        game_cols["first_win_share"] = first_win_share(game_cols, players)
        round_cols = {"game": np.repeat(np.arange(n, dtype=np.int64), rows_per_game)}
        round_cols.update(block_columns(rounds, ROUND_COLUMNS))
        return {"games": game_cols, "rounds": round_cols}, trace, int(searched)

    def simulate(self, rules, players, lineup, seed, n, check=False):
        tables, _, _ = self._play(rules, players, lineup, seed, n, 0, check)
        return tables

    def search_decisions(self, rules, players, lineup, seed, n):
        return self._play(rules, players, lineup, seed, n, 0, False)[2]

    def search_counts(self, rules, players, lineup, seed, n) -> dict:
        """The search player's counts over n games: decisions searched ("search_decisions"), determinisations dealt
        with beliefs ("belief_deals") and those in which no deal within the cap gave every contract, so the deal
        kept only the voids ("belief_fallbacks")."""
        counts = {}
        self._play(rules, players, lineup, seed, n, 0, False, counts)
        return counts

    def traces(self, rules, players, lineup, seed, n):
        tables, trace, _ = self._play(rules, players, lineup, seed, n, n, True)
        games = tables["games"]
        return [Trace(trace[g], {k: v[g] for k, v in games.items()}) for g in range(n)]

    def referee(self, rules, players, trace):
        return referee.referee(rules.typed, players, trace)

    def outcomes(self):
        contracts = pl.col("contracts").cast(pl.Float64)
        per_contract = pl.when(contracts > 0)      # solo games have no contract: NaN, not 0
        solo = pl.when(pl.col("mode") == MODE_SOLO)        # null (does not apply) at a table of players
        table = pl.when(pl.col("mode") != MODE_SOLO)       # null in solo games
        return [
            Outcome("exact_rate", "mean", per_contract.then(pl.col("exact") / contracts).otherwise(float("nan")),
                    "contracts hit exactly", headline=True, percent=True),
            Outcome("near_rate", "mean", per_contract.then(pl.col("near") / contracts).otherwise(float("nan")),
                    "contracts missed by one", percent=True),
            Outcome("missed_rate", "mean", per_contract.then(pl.col("missed") / contracts).otherwise(float("nan")),
                    "contracts missed by two or more", percent=True),
            Outcome("lost_round_share", "mean", pl.col("lost_rounds") / pl.col("rounds").cast(pl.Float64),
                    "rounds ended by the seventh dragon", percent=True),
            Outcome("first_player_win", "mean", table.then(pl.col("first_win_share")),
                    "first player's share of wins (fair: 1/players)", reference="fair", percent=True,
                    role="seat0"),
            Outcome("tie", "rate", table.then(pl.col("n_winners") > 1), "games with a shared top score"),
            Outcome("top_score", "mean", table.then(pl.col("top_score")), "winning score"),
            Outcome("score_spread", "mean", table.then(pl.col("score_spread")), "winner minus last"),
            Outcome("dragons_defeated", "mean", pl.col("defeated"), "dragons defeated per game"),
            Outcome("terror", "mean", pl.col("terror"), "Terror pool per game"),
            Outcome("treasure", "mean", pl.col("treasure"), "Treasure points per game"),
            Outcome("solo_score", "mean", solo.then(pl.col("solo_score")), "solo: Terror won minus the Demon's"),
            Outcome("solo_slayer", "rate", solo.then(pl.col("solo_rank") >= 2), "solo: Scale Slayer or better"),
            *(Outcome(f"solo_rank_{k}", "rate", solo.then(pl.col("solo_rank") == k), f"solo: {name}")
              for k, name in enumerate(SOLO_RANKS)),
            Outcome("solo_negative", "rate", solo.then(pl.col("solo_score") < 0),
                    "solo: a negative score (below the rank table)"),
            Outcome("stalemate", "rate", solo.then(pl.col("stalemate") > 0), "solo games stopped by the trick cap", caveat=True),
            Outcome("violations", "mean", pl.col("violations"), "kernel invariant failures", caveat=True),
            Outcome("bad_decisions", "mean", pl.col("bad_decisions"), "strategy answers out of range", caveat=True),
        ]

    def coverage_runs(self) -> list[CoverageRun]:
        """Every player count, solo, teams, Treasures, teams with Treasures and the Fallen King, random and
        default lineups. terror_1_to_5 makes odd Terror pools (half_terror_rounding); the solo runs are longer
        because a score of exactly 80 (solo_80_is_legend) is rare."""
        runs = []
        for lineup in ("random", "default"):
            runs += [
                CoverageRun(1, lineup, n=3000),
                CoverageRun(2, lineup, n=1000),
                CoverageRun(2, lineup, ("treasures",), n=1500),
                CoverageRun(3, lineup, n=500),
                CoverageRun(4, lineup, n=1000),
                CoverageRun(4, lineup, ("treasures",), n=1500),
                CoverageRun(4, lineup, ("teams",), n=500),
                CoverageRun(6, lineup, ("teams_treasures",), n=1000),
                CoverageRun(5, lineup, ("terror_1_to_5",), n=500),
            ]
        runs.append(CoverageRun(2, "default", ("no_fallen_king",), n=300))
        return runs

    def calibration(self) -> list[Claim]:
        """The rulebook's checkable claims. It gives no play time; its numbers are the solo rank table and the
        two ways a round ends. Figures in `cause` are from 20,000 solo / 10,000 table games, seed 1."""
        claims = [
            Claim(f"the solo rank table's rank '{name}' can be reached (the table lists it as an outcome; range: "
                  "at least 1 solo game in 1,000)", f"solo_rank_{k}", 1, 0.001, 1.0,
                  cause=("" if k < 4 else
                         "Legend needs the player to out-score the Demon by 81 Terror or more: the seeker reaches "
                         "it in 1.05% of solo games under the default readings, in 0.08% when a dragon joins "
                         "before every trick (solo_dragon_every_trick) and never under terror_1_to_5 (60 Terror "
                         "in all); random play reaches it in 0.12%"))
            for k, name in enumerate(SOLO_RANKS)
        ]
        claims += [
            Claim("the solo rank table starts at 0 (Burned Villager 0-20): a negative score, the Demon out-scoring "
                  "the player, is not foreseen, so it should be rare (range: at most 10% of solo games, our guess "
                  "at 'rare')", "solo_negative", 1, 0.0, 0.10,
                  cause="the seeker scores below 0 in 21.3% of solo games. Not a reading: a dragon before every "
                        "trick gives 20.0%, two separate piles 23.3%; the Demon playing the Mercenary as 0 "
                        "(automaton_mercenary_high off) gives 14.9%. Random play gives 53%, so the solo strategy "
                        "is the likely cause: the seeker always wants the trick and cannot make the Demon's top "
                        "card lose, and every Demon trick adds a dragon the Demon may then defeat"),
            Claim("a round ends in one of two ways, all cards played or the seventh dragon in the zone, and the "
                  "rulebook warns that a player whose contract is made may let the dragons in: both endings "
                  "happen (range: 1%-99% of rounds lost to the zone)", "lost_round_share", 4, 0.01, 0.99,
                  cause="4 seekers lose 0.6% of rounds to the zone: their greedy placement finishes a dragon "
                        "whenever it can and never lets them pile up. A strategy habit: 4 saboteurs (greedy until "
                        "their contract is made, then spreading) lose 6.3%, 4 spreaders 15.6%, random play 10.5%"),
            Claim("the same at 6 players, where 6 dragons start in a zone of 7 (range 1%-99%)",
                  "lost_round_share", 6, 0.01, 0.99,
                  cause="6 seekers lose 2.6% of rounds, 6 saboteurs 19.3%, 6 spreaders 50.4%"),
        ]
        return claims

    def active_roles(self, players: int) -> tuple[str, ...]:
        return tuple(f"seat{k}" for k in range(players))

    def role_scores(self, games: pl.DataFrame, players: int) -> dict[str, np.ndarray]:
        """Each seat's share of the win (1/k when k seats tie); solo: reaching Scale Slayer or better."""
        if players == 1:
            return {"seat0": (games["solo_rank"].to_numpy() >= 2).astype(np.float64)}
        ties = np.maximum(games["n_winners"].to_numpy(), 1)
        return {f"seat{k}": np.where(games[f"rank_s{k}"].to_numpy() == 1, 1.0 / ties, 0.0) for k in range(players)}

    def group_columns(self):
        return ["mode"]

    def report_tables(self) -> list:
        contracts = pl.col("contracts").cast(pl.Float64)
        per_contract = pl.when(contracts > 0)
        return [
            Table("Contract results", [Measure("exact", per_contract.then(pl.col("exact") / contracts), "mean", True),
                                       Measure("missed by one", per_contract.then(pl.col("near") / contracts),
                                               "mean", True),
                                       Measure("missed by two or more", per_contract.then(pl.col("missed") / contracts),
                                               "mean", True)],
                  "contract_results", "Each game's share of its contracts, averaged over games.", chart="stacked",
                  unit="% of contracts"),
            Series("Exact contracts by seat", "seat_hits", "seat (seat 0 opens round 1)",
                   "contracts hit exactly (%, 95% interval)",
                   lambda g: [(s, Measure(f"seat {s}", pl.col(f"exact_s{s}") / pl.col("rounds"), "mean", True))
                              for s in range(seats_in(g))]),
            Series("Share of wins by seat", "seats", "seat (seat 0 opens round 1)", "share of wins (%, 95% interval)",
                   lambda g: [(s, Measure(f"seat {s}", (pl.col(f"rank_s{s}") == 1).cast(pl.Float64)
                                          / pl.col("n_winners").clip(lower_bound=1), "mean", True))
                              for s in range(seats_in(g))],
                   "A tie for the top shares the win.", reference=lambda g: 1 / seats_in(g)),
            Histogram("Winning score", "scores", pl.col("top_score"), "the winner's final score", integer=False),
        ]


def seats_in(games: pl.DataFrame | pl.LazyFrame) -> int:
    seats = first(games, "players") if "players" in columns(games) else \
        collect(lazy(games).select(pl.col("seats").max())).item()
    return min(int(seats), MAX_SEATS)


def first_win_share(cols: dict, players: int) -> np.ndarray:
    """Seat 0 (first player of round 1)'s share of the win: 1/k when k players tie for the top."""
    won = cols["rank_s0"] == 1
    share = np.where(won, 1.0 / np.maximum(cols["n_winners"], 1), 0.0).astype(np.float32)
    if players == 1:
        share[:] = np.nan
    return share


GAME = DrarkaneGame(
    name="drarkane", title="Drarkane (contracts, tricks and a battle zone of dragons)",
    min_players=1, max_players=6, default_players=4,
    default_lineup={f"seat{k}": "seeker" for k in range(MAX_SEATS)},
    strategies=REGISTRY, rules_class=DrarkaneRules, chunk_size=50_000,
    bench_cases=[
        BenchCase("seeker, 4 players", 4, "seeker", 50_000, n=50_000),
        BenchCase("random, 4 players", 4, "random", 50_000, n=50_000),
        BenchCase("saboteur vs seekers, 4 players", 4, "seat0=saboteur", 50_000, n=50_000),
    ],
)
