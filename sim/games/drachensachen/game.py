"""Drachensachen's thin API over its rules, kernel and referee, with its outcomes and report."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.charts import error_bars
from sim.core.game import BenchCase, Game, Outcome, Rules
from sim.core.stats import mean_ci, paired, wilson
from sim.games.drachensachen import kernel, referee
from sim.games.drachensachen.records import (
    C_ROUNDS, C_TRACE, GAME_COLUMNS, MAX_PLAYERS, N_GAME_COLS, N_PLAYER_COLS, N_ROUND_COLS, PLAYER_COLUMNS,
    ROUND_COLUMNS, TRACE_WIDTH,
)
from sim.games.drachensachen.rules import DrachensachenRules
from strategies.drachensachen import REGISTRY

try:  # the core's trace type, when it has one
    from sim.core.game import Trace
except ImportError:  # pragma: no cover
    @dataclass(frozen=True)
    class Trace:
        events: np.ndarray
        record: dict

ROUNDS_PER_GAME_GUESS = 12
TRACE_ROWS_PER_GAME_GUESS = 2_000


def seat_functions(lineup: dict, players: int):
    """Per decision point, a 6-tuple of the seats' functions (empty seats repeat seat 0), and the params."""
    seats = [lineup[f"seat{i}"] for i in range(players)]
    width = max(len(s.params) for s in seats)
    params = np.zeros((MAX_PLAYERS, width), np.float64)
    for i, s in enumerate(seats):
        params[i, :len(s.params)] = s.params
    fns = []
    for d in range(3):
        row = [s.strategy.functions[d] for s in seats]
        fns.append(tuple(row + [row[0]] * (MAX_PLAYERS - players)))
    return fns, params


def play(rules: Rules, players: int, lineup: dict, seed: int, n: int, n_traced: int = 0, check: bool = False,
         preset: np.ndarray | None = None):
    """Run the kernel; returns (games, players, rounds) arrays and the traces (rows, start offsets)."""
    r: DrachensachenRules = rules.typed
    fns, params = seat_functions(lineup, players)
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
        kernel.play_batch(int(seed), n, players, r.ints(), r.counts(), r.coins(), preset, fns[0], fns[1], fns[2],
                          params, games, seats, rounds, trace, starts, counters, bool(check))
        # the buffers were guesses: play the same games again with room for all of them
        if counters[C_ROUNDS] <= rounds_cap and counters[C_TRACE] <= trace_cap:
            return games, seats, rounds[:counters[C_ROUNDS]], trace, starts
        rounds_cap = max(rounds_cap, int(counters[C_ROUNDS]))
        trace_cap = max(trace_cap, int(counters[C_TRACE]))


def tables(players: int, games: np.ndarray, seats: np.ndarray, rounds: np.ndarray) -> dict:
    n = len(games)
    out = {"games": {name: games[:, i].astype(dtype) for i, (name, dtype) in enumerate(GAME_COLUMNS.items())}}
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

    def traces(self, rules, players, lineup, seed, n):
        games, _, _, trace, starts = play(rules, players, lineup, seed, n, n, False)
        names = list(GAME_COLUMNS)
        return [Trace(trace[starts[g]:starts[g + 1]].copy(), dict(zip(names, games[g].tolist())))
                for g in range(n)]

    def referee(self, rules, players, trace):
        return referee.referee(rules.typed, players, trace)

    def outcomes(self):
        per_round = pl.col("rounds").cast(pl.Float64)
        decided = (pl.col("rounds") - pl.col("stalemate_rounds")).cast(pl.Float64).clip(lower_bound=1)
        return [
            Outcome("seat0_win", "rate", pl.col("winner") == 0, "seat 0 wins the game", headline=True),
            Outcome("seat0_lost", "mean", pl.col("lost0"), "coins seat 0 lost"),
            Outcome("starter_out", "mean", pl.col("starter_out") / decided,
                    "share of decided rounds the round's starter went out first", headline=True),
            Outcome("stalemates", "mean", 1000 * pl.col("stalemate_rounds"),
                    "rounds stopped by the turn cap, per 1,000 games", headline=True),
            Outcome("stalemate_round", "mean", pl.col("stalemate_rounds") / per_round,
                    "share of a game's rounds stopped by the turn cap"),
            Outcome("stalemate_game", "rate", pl.col("stalemate") == 1, "games that hit the round cap"),
            Outcome("any_stalemate", "rate", pl.col("stalemate_rounds") > 0, "games with a stalemate round"),
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
            Outcome("violations", "mean", pl.col("violations"), "strategy answers the kernel had to correct"),
        ]

    def report_sections(self, games: pl.DataFrame, outdir: Path, chart, tables=None) -> list[str]:
        base = self.load_rules().hash
        return [seat_section(games, chart), position_section(games, chart), length_section(games, chart),
                stalemate_section(games), effect_section(games, chart), rules_section(games, base, chart)]


# ---- report sections ------------------------------------------------------------------------------

EFFECTS = ("pickups", "blind_fails", "burns", "discards", "threes", "fours", "fives", "sixes", "nullos",
           "exterminos", "protectos", "cards_drawn", "skips", "curses", "monsterballs", "reversals", "secrets",
           "envy_draws")
COMPARED = (("rounds", "rounds per game"), ("turns_per_round", "turns per round"),
            ("pickups_per_round", "pick-ups per round"), ("stalemate_round", "share of rounds in stalemate"),
            ("starter_out", "round starter goes out first"), ("winner_lost", "coins the winner lost"))


def pyplot():
    """matplotlib, imported only when a report is drawn (keeps every other command quick to start)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def configurations(games: pl.DataFrame) -> list[tuple[dict, pl.DataFrame]]:
    """(key, games) for each players / lineup / rules combination, in a stable order."""
    keys = [k for k in ("players", "lineup", "rules") if k in games.columns]
    if not keys:
        return [({}, games)]
    out = []
    for key, g in games.group_by(keys, maintain_order=True):
        out.append((dict(zip(keys, key)), g))
    return sorted(out, key=lambda kg: tuple(str(v) for v in kg[0].values()))


def label(key: dict) -> str:
    return " ".join(f"{v}" if k != "rules" else f"rules {str(v)[:6]}" for k, v in key.items()) or "all games"


def players_of(key: dict, g: pl.DataFrame) -> int:
    if "players" in key:
        return int(key["players"])
    return int(sum(1 for s in range(MAX_PLAYERS) if (g[f"lost{s}"] >= 0).all()))


def seat_section(games: pl.DataFrame, chart) -> str:
    """Win rate and coins lost by seat, with intervals (the first round's starter is drawn at random)."""
    plt = pyplot()
    lines = ["## Seats: win rate and coins lost", "",
             "| configuration | seat | win rate [95% CI] | coins lost [95% CI] |", "|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for key, g in configurations(games):
        n = players_of(key, g)
        decided = g.filter(pl.col("winner") >= 0)
        xs, wins = [], []
        for seat in range(n):
            win = wilson(int((decided["winner"] == seat).sum()), decided.height)
            lost = mean_ci(g[f"lost{seat}"].to_numpy())
            lines.append(f"| {label(key)} | {seat} | {win.fmt(pct=True, digits=1)} | {lost.fmt(digits=2)} |")
            xs.append(seat)
            wins.append(win)
        ax.errorbar(xs, [w.value for w in wins], yerr=error_bars(wins), marker="o", capsize=3, label=label(key))
    ax.set_xlabel("seat")
    ax.set_ylabel("P(seat wins the game)")
    ax.set_title("Drachensachen: win rate by seat")
    ax.legend(fontsize=7)
    lines += ["", chart("seat_wins", fig), ""]
    return "\n".join(lines)


def position_section(games: pl.DataFrame, chart) -> str:
    """First-player advantage: coins lost per round by position after the round's starter."""
    plt = pyplot()
    lines = ["## First-player advantage", "",
             "Position 0 is the round's starter (random in the first round, then the player who has lost "
             "the most). Coins are per decided round.", "",
             "| configuration | starter goes out first | " + " | ".join(f"pos {k}" for k in range(MAX_PLAYERS))
             + " |", "|---|---|" + "---|" * MAX_PLAYERS]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for key, g in configurations(games):
        n = players_of(key, g)
        decided = float((g["rounds"] - g["stalemate_rounds"]).sum())
        out = wilson(int(g["starter_out"].sum()), int(decided))
        means = [float(g[f"pos_lost{k}"].sum()) / max(decided, 1.0) for k in range(n)]
        cells = [f"{m:.2f}" for m in means] + [""] * (MAX_PLAYERS - n)
        lines.append(f"| {label(key)} | {out.fmt(pct=True, digits=1)} | " + " | ".join(cells) + " |")
        ax.plot(range(n), means, marker="o", label=label(key))
    ax.set_xlabel("position after the round's starter")
    ax.set_ylabel("coins lost per round")
    ax.set_title("Drachensachen: coins lost by position in the round")
    ax.legend(fontsize=7)
    lines += ["", chart("positions", fig), ""]
    return "\n".join(lines)


def length_section(games: pl.DataFrame, chart) -> str:
    """Rounds per game and turns per round."""
    plt = pyplot()
    lines = ["## Game length", "", "| configuration | rounds per game | turns per round | longest round (mean) |",
             "|---|---|---|---|"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for key, g in configurations(games):
        rounds = g["rounds"].to_numpy()
        per_round = (g["turns"] / g["rounds"]).to_numpy()
        lines.append(f"| {label(key)} | {mean_ci(rounds).fmt()} | {mean_ci(per_round).fmt(digits=1)} | "
                     f"{g['max_round_turns'].mean():.0f} |")
        top = int(rounds.max()) if len(rounds) else 1
        axes[0].hist(rounds, bins=np.arange(0.5, min(top, 40) + 1.5), histtype="step", density=True,
                     label=label(key))
        axes[1].hist(per_round, bins=40, histtype="step", density=True, label=label(key))
    axes[0].set_xlabel("rounds per game")
    axes[1].set_xlabel("turns per round (game average)")
    axes[0].legend(fontsize=7)
    lines += ["", chart("length", fig), ""]
    return "\n".join(lines)


def stalemate_section(games: pl.DataFrame) -> str:
    """Rounds stopped by the turn cap and games stopped by the round cap, reported as they are."""
    lines = ["## Stalemates", "",
             "A round that reaches the turn cap is a stalemate (by default it costs no coins and another round "
             "follows); a game that reaches the round cap has no winner. Both are counted here, never hidden.", "",
             "| configuration | rounds in stalemate [95% CI] | games with a stalemate round | games without winner |",
             "|---|---|---|---|"]
    for key, g in configurations(games):
        rounds = int(g["rounds"].sum())
        stale = wilson(int(g["stalemate_rounds"].sum()), rounds)
        some = wilson(int((g["stalemate_rounds"] > 0).sum()), g.height)
        none = wilson(int((g["stalemate"] == 1).sum()), g.height)
        lines.append(f"| {label(key)} | {stale.fmt(pct=True, digits=3)} | {some.fmt(pct=True, digits=2)} | "
                     f"{none.fmt(pct=True, digits=3)} |")
    return "\n".join(lines + [""])


def effect_section(games: pl.DataFrame, chart) -> str:
    """How often each effect fires, per round."""
    plt = pyplot()
    lines = ["## Pile pick-ups and effects (per round)", "",
             "| configuration | " + " | ".join(EFFECTS) + " |", "|---|" + "---|" * len(EFFECTS)]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    configs = configurations(games)
    width = 0.8 / max(len(configs), 1)
    for i, (key, g) in enumerate(configs):
        rounds = max(float(g["rounds"].sum()), 1.0)
        rates = [float(g[c].sum()) / rounds for c in EFFECTS]
        lines.append(f"| {label(key)} | " + " | ".join(f"{r:.2f}" for r in rates) + " |")
        ax.bar(np.arange(len(EFFECTS)) + i * width, rates, width, label=label(key))
    ax.set_xticks(np.arange(len(EFFECTS)) + 0.4 - width / 2, EFFECTS, rotation=60, fontsize=7)
    ax.set_ylabel("per round")
    ax.set_title("Drachensachen: effects per round")
    ax.legend(fontsize=7)
    lines += ["", chart("effects", fig), ""]
    return "\n".join(lines)


def rules_section(games: pl.DataFrame, base: str, chart) -> str:
    """Each rule set against the base rules on the same seeds, game by game (paired)."""
    if "rules" not in games.columns or games["rules"].n_unique() < 2 or base not in set(games["rules"]):
        return ""
    outcomes = {o.name: o for o in GAME.outcomes()}
    lines = ["## Rule variants against the base game (same seeds, paired by game)", "",
             "| players | lineup | rules | outcome | base | variant | difference [95% CI] | p |",
             "|---|---|---|---|---|---|---|---|"]
    keys = [k for k in ("players", "lineup", "seed") if k in games.columns]
    for key, g in games.group_by(keys, maintain_order=True):
        ref = g.filter(pl.col("rules") == base)
        if ref.height == 0:
            continue
        for rules in sorted(set(g["rules"]) - {base}):
            other = g.filter(pl.col("rules") == rules)
            if "game_id" not in g.columns or other.height == 0:
                continue
            for name, text in COMPARED:
                o = outcomes[name]
                a = o.values(ref.join(other.select("game_id"), on="game_id"))
                b = o.values(other.join(ref.select("game_id"), on="game_id"))
                res = paired(a, b, o.kind)
                where = dict(zip(keys, key))
                lines.append(f"| {where.get('players', '')} | {where.get('lineup', '')} | {rules[:6]} | {text} | "
                             f"{res.a.value:.3f} | {res.b.value:.3f} | {res.diff.fmt(digits=3)} | {res.p_value:.2g} |")
    return "\n".join(lines + [""])


GAME = DrachensachenGame(
    name="drachensachen",
    title="Drachensachen (shedding over rounds to 21 coins)",
    min_players=2,
    max_players=MAX_PLAYERS,
    default_players=4,
    roles=tuple(f"seat{i}" for i in range(MAX_PLAYERS)),
    # the tuned weighted heuristic is the strongest built-in (about 51% wins against three low-first
    # players, 45% against three aggressive ones) and plays the shortest rounds
    default_lineup={f"seat{i}": "weighted" for i in range(MAX_PLAYERS)},
    strategies=REGISTRY,
    rules_class=DrachensachenRules,
    package_dir=Path(__file__).parent,
    chunk_size=50_000,
    bench_cases=[
        BenchCase("default (weighted), 4 players", 4, "weighted", 100_000, unit="rounds", n=100_000),
        BenchCase("low-first, 4 players", 4, "low-first", 100_000, unit="rounds", n=100_000),
        BenchCase("default (weighted), 4 players, full games", 4, "weighted", 25_000, n=100_000),
    ],
)
