"""Drachensachen's thin API over its rules, kernel and referee, with its outcomes and report."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.engine.dispatch import call
from sim.engine.frames import collect, columns, first, lazy
from sim.engine.game import BenchCase, Claim, CoverageRun, Game, Outcome, Rules
from sim.engine.lazy_polars import pl
from sim.engine.playouts import informed_playouts
from sim.engine.sections import Histogram, Measure, Series, Table
from sim.engine.strategy import Seat, compile_now
from sim.games.drachensachen import referee
from sim.games.drachensachen.records import (
    C_FALLBACKS, C_ROUNDS, C_SEARCHED, C_TRACE, FIRED_ALIASES, GAME_COLUMNS, MAX_PLAYERS, N_GAME_COLS, N_PLAYER_COLS, N_ROUND_COLS, PLAYER_COLUMNS,
    ROUND_COLUMNS, TRACE_WIDTH,
)
from sim.games.drachensachen.rules import DrachensachenRules
from strategies.drachensachen import REGISTRY, SEARCH_PLAYOUTS, search_play

try:  # the core's trace type, when it has one
    from sim.engine.game import Trace
except ImportError:  # pragma: no cover
    @dataclass(frozen=True)
    class Trace:
        events: np.ndarray
        record: dict

ROUNDS_PER_GAME_GUESS = 12
LOSS_SEED, LOSS_GAMES = 4242, 400       # the heuristics' games the search's round losses are measured from
TRACE_ROWS_PER_GAME_GUESS = 2_000


def seat_functions(lineup: dict, players: int):
    """Per decision point, a 6-tuple of the seats' functions (empty seats repeat seat 0), the params, and the
    searching seats as bits (their play function is the search strategy's: kernel_search asks them)."""
    seats = [lineup[f"seat{i}"] for i in range(players)]
    width = max(len(s.params) for s in seats)
    params = np.zeros((MAX_PLAYERS, width), np.float64)
    for i, s in enumerate(seats):
        params[i, :len(s.params)] = s.params
    fns = []
    for d in range(3):
        row = [s.strategy.functions[d] for s in seats]
        fns.append(tuple(row + [row[0]] * (MAX_PLAYERS - players)))
    ask = sum(1 << i for i, s in enumerate(seats) if s.strategy.functions[0] is search_play)
    return fns, params, ask


def playout_functions(rules: Rules, players: int):
    """The search's playouts: every seat plays SEARCH_PLAYOUTS at its default weights; and the cumulative
    distribution of a round's loss for a player who did not go out, from LOSS_GAMES of their games under these
    rules (kernel_search.value finishes a game from a round's end with it)."""
    heuristic = REGISTRY.get(SEARCH_PLAYOUTS)
    fns = [(f,) * MAX_PLAYERS for f in heuristic.functions]
    lineup = {f"seat{i}": Seat(heuristic, heuristic.params()) for i in range(MAX_PLAYERS)}
    rounds = GAME.simulate(rules, players, lineup, LOSS_SEED, LOSS_GAMES)["rounds"]
    decided = rounds["went_out"] >= 0
    losses = np.concatenate([rounds[f"pos_lost{k}"][decided] for k in range(players)]).clip(0, None)
    counts = np.bincount(losses).astype(np.float64)
    counts[0] -= decided.sum()          # the player who went out
    return fns, np.tile(np.asarray(heuristic.params(), np.float64), (MAX_PLAYERS, 1)), np.cumsum(counts) / counts.sum()


def informed_functions(lineup: dict, players: int, pfns, pparams):
    """The informed playouts' functions and params (a search seat's `informed` = 1): each seat plays its line-up
    strategy with its parameters, a searching seat the playouts' default heuristic (pfns, pparams)."""
    seats = [lineup[f"seat{i}"] for i in range(players)]
    own = [None if s.strategy.functions[0] is search_play else (s.strategy.functions, s.params) for s in seats]
    return informed_playouts(own + [None] * (MAX_PLAYERS - players), pfns, pparams)


def play(rules: Rules, players: int, lineup: dict, seed: int, n: int, n_traced: int = 0, check: bool = False,
         preset: np.ndarray | None = None, counts: dict | None = None):
    """Run the kernel; returns (games, players, rounds) arrays and the traces (rows, start offsets). `counts`, if
    given, receives the search player's decisions ("search_decisions") and the determinisations in which a seat's
    hand could not be dealt as its plays say ("belief_fallbacks": the search's `beliefs`)."""
    r: DrachensachenRules = rules.typed
    fns, params, ask = seat_functions(lineup, players)
    kernel = GAME.kernels(search=bool(ask), strategies=False)       # then only the line-up's strategies compile
    batch = kernel.searched_batch if ask else kernel.play_batch
    pfns, pparams, lossc = playout_functions(rules, players) if ask else (fns, params, np.ones(1))
    ifns, iparams = informed_functions(lineup, players, pfns, pparams) if ask else (fns, params)
    compile_now([f for group in (*fns, *pfns, *ifns) for f in group])
    rounds_cap = max(64, n * ROUNDS_PER_GAME_GUESS)
    trace_cap = n_traced * TRACE_ROWS_PER_GAME_GUESS
    preset = np.zeros(0, np.int64) if preset is None else np.asarray(preset, np.int64)
    while True:
        # the kernel writes every cell that is read back, so the buffers need no zeroing (and the pages
        # of a generous guess that are never written cost nothing)
        games = np.empty((n, N_GAME_COLS), np.int64)
        seats = np.empty((n, players, N_PLAYER_COLS), np.int64)
        rounds = np.empty((rounds_cap, N_ROUND_COLS), np.int64)
        trace = np.empty((trace_cap, TRACE_WIDTH), np.int16)
        starts = np.zeros(n_traced + 1, np.int64)
        counters = np.zeros(4, np.int64)
        call(batch, int(seed), n, players, r.ints(), r.counts(), r.coins(), preset, fns[0], fns[1],
             fns[2], params, games, seats, rounds, trace, starts, counters, bool(check), ask, *pfns, pparams, *ifns,
             iparams, lossc)
        # the buffers were guesses: play the same games again with room for all of them
        if counters[C_ROUNDS] <= rounds_cap and counters[C_TRACE] <= trace_cap:
            if counts is not None:
                counts["search_decisions"] = int(counters[C_SEARCHED])
                counts["belief_fallbacks"] = int(counters[C_FALLBACKS])
            return games, seats, rounds[:counters[C_ROUNDS]], trace, starts
        rounds_cap = max(rounds_cap, int(counters[C_ROUNDS]))
        trace_cap = max(trace_cap, int(counters[C_TRACE]))


def tables(players: int, games: np.ndarray, seats: np.ndarray, rounds: np.ndarray) -> dict:
    n = len(games)
    out = {"games": {name: games[:, i].astype(dtype) for i, (name, dtype) in enumerate(GAME_COLUMNS.items())}}
    for name, column in FIRED_ALIASES.items():
        out["games"][f"fired_{name}"] = out["games"][column].astype(np.int32)
    per_player = {"game": np.repeat(np.arange(n, dtype=np.int64), players),
                  "seat": np.tile(np.arange(players, dtype=np.int8), n)}
    flat = seats.reshape(n * players, N_PLAYER_COLS)
    for i, (name, dtype) in enumerate(list(PLAYER_COLUMNS.items())[1:]):
        per_player[name] = flat[:, i].astype(dtype)
    out["players"] = per_player
    per_round = {"game": rounds[:, 0].astype(np.int64)}
    for i, (name, dtype) in enumerate(ROUND_COLUMNS.items()):
        if name.startswith("pos_lost") and int(name[8:]) >= players:
            continue
        per_round[name] = rounds[:, i + 1].astype(dtype)
    out["rounds"] = per_round
    return out


@dataclass
class DrachensachenGame(Game):
    def simulate(self, rules, players, lineup, seed, n, check=False):
        games, seats, rounds, _, _ = play(rules, players, lineup, seed, n, 0, check)
        return tables(players, games, seats, rounds)

    def search_decisions(self, rules, players, lineup, seed, n):
        counts = {}
        play(rules, players, lineup, seed, n, counts=counts)
        return counts["search_decisions"]

    def traces(self, rules, players, lineup, seed, n):
        games, _, _, trace, starts = play(rules, players, lineup, seed, n, n, False)
        names = list(GAME_COLUMNS)
        return [Trace(trace[starts[g]:starts[g + 1]].copy(), dict(zip(names, games[g].tolist())))
                for g in range(n)]

    def referee(self, rules, players, trace):
        return referee.referee(rules.typed, players, trace)

    def outcomes(self):
        per_round = pl.col("rounds").cast(pl.Float64)
        decided = (pl.col("rounds") - pl.col("stalemate_rounds")).cast(pl.Float64)
        return [
            Outcome("seat0_win", "rate", pl.col("winner") == 0, "seat 0 wins the game", headline=True,
                    reference="fair", short="seat 0 wins"),
            Outcome("seat0_lost", "mean", pl.col("lost0"), "coins seat 0 lost"),
            # each game's share, averaged over games (not the share of all decided rounds pooled: long games
            # weigh as much as short ones); a game with no decided round has no share and is left out
            Outcome("starter_out", "mean", pl.when(decided > 0).then(pl.col("starter_out") / decided),
                    "mean over games of each game's share of its decided rounds in which the round's starter "
                    "went out first", headline=True, reference="fair", percent=True, short="starter out first"),
            Outcome("stalemates", "mean", 1000 * pl.col("stalemate_rounds"),
                    "rounds stopped by the turn cap, per 1,000 games", headline=True, short="capped rounds per 1,000",
                    step=1000),
            Outcome("stalemate_round", "mean", pl.col("stalemate_rounds") / per_round,
                    "share of a game's rounds stopped by the turn cap", percent=True),
            Outcome("stalemate_game", "rate", pl.col("stalemate") == 1, "games that hit the round cap", caveat=True),
            Outcome("any_stalemate", "rate", pl.col("stalemate_rounds") > 0, "games with a stalemate round", caveat=True),
            Outcome("rounds", "mean", pl.col("rounds"), "rounds per game", headline=True),
            Outcome("turns_per_round", "mean", pl.col("turns") / per_round, "turns per round"),
            Outcome("pickups_per_round", "mean", pl.col("pickups") / per_round, "pile pick-ups per round"),
            Outcome("burns_per_round", "mean", pl.col("burns") / per_round, "four-in-a-row burns per round"),
            Outcome("exterminos_per_round", "mean", pl.col("exterminos") / per_round, "Exterminos per round"),
            Outcome("cards_drawn_per_round", "mean", pl.col("cards_drawn") / per_round,
                    "cards drawn because of 4s per round"),
            Outcome("skips_per_round", "mean", pl.col("skips") / per_round, "missed turns per round"),
            Outcome("winner_lost", "mean", pl.col("winner_lost"), "coins the winner lost"),
            Outcome("loser_lost", "mean", pl.col("loser_lost"), "coins the loser lost"),
            Outcome("violations", "mean", pl.col("violations"), "strategy answers the kernel had to correct",
                    caveat=True),
            Outcome("play_minutes", "mean",
                    (pl.col("turns") * SECONDS_PER_TURN + pl.col("rounds") * SECONDS_PER_ROUND) / 60.0,
                    f"estimated minutes of play per game ({SECONDS_PER_TURN} s a turn, {SECONDS_PER_ROUND} s a "
                    "round to shuffle, deal and count coins)"),
        ]

    def coverage_runs(self) -> list[CoverageRun]:
        """Random and default play at 2, 3 and 4 players, with every house rule, curse and ability on, and the
        other readings' situations: several 5s at 2 players (default play sheds all its 5s at once), sets of
        four in a big hand, quick Nullos, Golden Feathers with 8s left face down."""
        return [
            CoverageRun(4, "random", n=1500),
            CoverageRun(4, "default", n=1500),
            CoverageRun(2, "default", n=1500),
            CoverageRun(3, "random", n=1500),
            CoverageRun(4, "random", ("everything",), n=1500),
            CoverageRun(4, "default", ("everything",), n=1500),
            CoverageRun(3, "default", ("house_rules",), n=1500),
            CoverageRun(4, "random", ("refill",), n=800),
            CoverageRun(4, "random", (), ("turn_cap=40", "max_rounds=10"), n=500),
        ]

    def calibration(self) -> list[Claim]:
        return [
            Claim("A game takes 30 to 60 minutes at 4 players (the box). Measured as estimated minutes: "
                  f"{SECONDS_PER_TURN} s a turn plus {SECONDS_PER_ROUND} s a round for shuffling, dealing, the "
                  "exchange and counting coins (our assumption, not the rulebook's: 8 s for a look at the pile and a play; "
                  "at 5 s a turn the same games would take about 10 minutes less); the range is the box's.",
                  "play_minutes", 4, 30.0, 60.0),
            Claim("A game takes 30 to 60 minutes at 3 players (same assumption).", "play_minutes", 3, 30.0, 60.0),
            Claim("A game takes 30 to 60 minutes at 5 players (same assumption).", "play_minutes", 5, 30.0, 60.0),
            Claim("The game plays from 2 players: every round ends with a player going out. Range: at most 1 "
                  "round in 1,000 games stopped by the turn cap (a stalemate is not part of the game as "
                  "written).", "stalemates", 2, None, 1.0,
                  cause="Before the fix, two weighted players (now weighted_v1) at 2 players looped: one leads a "
                        "low card, the other answers with a 3, the first cannot go under it and takes the "
                        "2-4 card pile, and the same cards go round again; 22% of 2-player games "
                        "had such a round (seed 5, 2,000 games). The default strategy now breaks the loop (0 in 100,000 "
                        "2-player games, seed 2026). What is left is a forced cycle nobody can leave: every hand "
                        "is empty but for one 5 or 6 going round, the open Remainders are all lower and no dragon "
                        "may answer, so each turn is a forced play or a forced pick-up (about 1 round in 50,000 "
                        "2-player games, 5 in 100,000 3-player games)."),
            Claim("The game plays at 6 players: every round ends (same range).", "stalemates", 6, None, 1.0),
        ]

    def report_tables(self) -> list:
        rounds = pl.col("rounds").cast(pl.Float64)
        decided = (pl.col("rounds") - pl.col("stalemate_rounds")).cast(pl.Float64)
        return [
            Series("Win rate by seat", "seat_wins", "seat", "games won (%, 95% interval)",
                   lambda g: [(s, Measure(f"seat {s}", pl.when(pl.col("winner") >= 0).then(pl.col("winner") == s)))
                              for s in range(players_in(g))],
                   "The first round's starter is drawn at random; games without a winner are left out.",
                   reference=lambda g: 1 / players_in(g)),
            Series("Coins lost by seat", "seat_coins", "seat", "coins lost per game (95% interval)",
                   lambda g: [(s, Measure(f"seat {s}", pl.col(f"lost{s}"), "mean")) for s in range(players_in(g))]),
            Series("Coins lost by position in the round", "positions", "position after the round's starter",
                   "coins lost per decided round (95% interval)",
                   lambda g: [(k, Measure(f"position {k}", pl.when(decided > 0).then(pl.col(f"pos_lost{k}") / decided),
                                          "mean")) for k in range(players_in(g))],
                   "Position 0 is the round's starter (random in the first round, then the player who has lost the "
                   "most); each game's coins per decided round, averaged over games."),
            Histogram("Rounds per game", "rounds", pl.col("rounds"), "rounds per game"),
            Histogram("Turns per round", "turns", pl.col("turns") / rounds, "turns per round (each game's average)",
                      integer=False),
            Table("Stalemates", [Measure("games with a stalemate round", pl.col("stalemate_rounds") > 0),
                                 Measure("share of a game's rounds in stalemate", pl.col("stalemate_rounds") / rounds,
                                         "mean", percent=True),
                                 Measure("games without a winner (round cap)", pl.col("stalemate") == 1)],
                  "stalemates", "A round that reaches the turn cap is a stalemate (by default it costs no coins "
                  "and another round follows); a game that reaches the round cap has no winner. Both are counted "
                  "here, never hidden.", chart="none"),
            Table("Pile pick-ups and effects per round", [Measure(c.replace("_", " "), pl.col(c) / rounds, "mean")
                                                          for c in EFFECTS], "effects",
                  unit="times per round (95% interval)"),
        ]


# play-time assumption behind `play_minutes` (our estimate, stated in the calibration claims)
SECONDS_PER_TURN = 8
SECONDS_PER_ROUND = 90

# ---- report helpers -------------------------------------------------------------------------------

EFFECTS = ("pickups", "blind_fails", "burns", "discards", "threes", "fours", "fives", "sixes", "nullos",
           "exterminos", "protectos", "cards_drawn", "skips", "curses", "monsterballs", "reversals", "secrets",
           "envy_draws")


def players_in(games: pl.DataFrame | pl.LazyFrame) -> int:
    """The player count of one configuration's games (seats that lost coins when the column is missing)."""
    if "players" in columns(games):
        return int(first(games, "players"))
    seated = collect(lazy(games).select([(pl.col(f"lost{s}") >= 0).all().alias(str(s)) for s in range(MAX_PLAYERS)]))
    return int(sum(seated.row(0)))


GAME = DrachensachenGame(
    name="drachensachen", title="Drachensachen (shedding over rounds to 21 coins)",
    min_players=2, max_players=MAX_PLAYERS, default_players=4,
    # the tuned weighted heuristic is the strongest built-in (about 51% wins against three low-first
    # players, 45% against three aggressive ones) and plays the shortest rounds
    default_lineup={f"seat{i}": "weighted" for i in range(MAX_PLAYERS)},
    strategies=REGISTRY, rules_class=DrachensachenRules, chunk_size=50_000,
    bench_cases=[
        BenchCase("default (weighted), 4 players", 4, "weighted", 100_000, unit="rounds", n=100_000),
        BenchCase("low-first, 4 players", 4, "low-first", 100_000, unit="rounds", n=100_000),
        BenchCase("default (weighted), 4 players, full games", 4, "weighted", 25_000, n=100_000),
    ],
)
