"""Payoff tables measured by simulation, for the equilibrium study (`sim.analysis.equilibrium`).

A *candidate* is one way to play a side: a strategy with its weights and, in games with decks, the deck it
brings. A cell is a line-up of candidates played on common random numbers: chunk c of every cell is dealt
from the same seed, so two cells differ only by what the candidates do. Each cell is played chunk by chunk
until the interval of its payoff is narrow enough (width-only stopping: the width does not depend on the
estimate's sign, so the plain interval stays valid) or the cap is reached. Per-game payoffs are kept, so the
bootstrap can resample the games behind every cell.

Two kinds of table:
- `TwoSidedTable`: row side against column side (Drako's dragon against the dwarves, Dragonwake's heroes
  against the cultists, the two seats of a two-player game); the payoff is the row side's score, the two
  sides' scores add up to 1.
- `SymmetricTable`: n seats choosing from one set of candidates (Drarkane, Drachensachen with 3+ players).
  Each line-up (multiset of candidates) is played in every distinct seating, so a candidate's payoff is its
  payoff when seats are drawn at random, and each seat meets every arrangement of the others (two pairs aabb
  also meet as abab, which cyclic rotations never play). What is kept is each seat's score with each
  candidate of the line-up, so one seat's own payoffs (its regret, its share) can be read as well.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim.analysis.intervals import half_width
from sim.engine import seeding
from sim.engine.game import Game, Rules
from sim.engine.rules import build_typed
from sim.engine.runner import game_and_lineup, play_tasks
from sim.engine.strategy import Seat, Strategy


@dataclass(frozen=True, eq=False)
class Candidate:
    """One way to play a side: a strategy, its weights, and the deck it brings (None: the rules' deck)."""

    strategy: Strategy
    params: np.ndarray
    deck: str | None = None
    origin: str = "built-in"
    tag: str = ""            # a short name, e.g. "kiter, tuned in round 1" for the best response found then

    def label(self) -> str:
        """The strategy's name (with its weights when they are not the defaults and it was given them); a best
        response is named by the round that found it, its weights are in the study's tables."""
        name = self.tag or Seat(self.strategy, self.params).label()
        return name if self.deck is None else f"{self.deck}/{name}"

    def seat(self) -> Seat:
        return Seat(self.strategy, self.params)

    def searches(self) -> bool:
        """The game's search player: its games cost a thousand times a heuristic's."""
        return self.strategy.name == "search"

    def key(self) -> tuple:
        return self.strategy.name, tuple(np.round(self.params, 12)), self.deck


def candidates(game: Game, role: str, decks: list[str] | None = None, rules: Rules | None = None,
               with_search: bool | dict[str, float] = False) -> list[Candidate]:
    """Every registered strategy that can play `role` (under `rules`, if given), at its default weights (with each
    deck, if given); the search player only `with_search` (its cells play at its speed, a thousand times slower):
    True for its defaults, or its parameters by name ({"budget": 5})."""
    names = [n for n in game.strategies.names(role) if (rules is None or game.can_play(rules, game.strategies.get(n)))
             and (with_search is not False or n != "search")]
    given = with_search if isinstance(with_search, dict) else None
    return [Candidate(game.strategies.get(n), game.strategies.get(n).params(given if n == "search" else None), d)
            for d in (decks or [None]) for n in names]


def with_decks(game: Game, rules: Rules, decks: dict[str, str]) -> Rules:
    """The rules with each role's deck set (games with `deck_rules`)."""
    if not decks:
        return rules
    ruleset = rules.ruleset.with_overrides({game.deck_rules[r]: d for r, d in decks.items()}, label="deck")
    return Rules(ruleset, build_typed(game.rules_class, ruleset))


def score_chunk(game_module: str, rules: Rules, players: int, lineup_spec: dict, plugins: tuple,
                root_seed: int, chunk: int, n: int) -> dict[str, np.ndarray]:
    """Each role's score per game for one chunk, in any process (the lineup is rebuilt from names)."""
    game, lineup = game_and_lineup(game_module, lineup_spec, plugins)
    tables = game.simulate(rules, players, lineup, seeding.chunk_seed(root_seed, chunk), n)
    return game.role_scores(pl.DataFrame(tables["games"]), players)


@dataclass
class Player:
    """Plays line-ups of candidates on common random numbers, `jobs` chunks at a time."""

    game: Game
    rules: Rules
    players: int
    seed: int
    plugins: tuple = ()
    jobs: int = 1
    rest: dict = field(default_factory=dict)    # role -> Seat for the roles no candidate takes (idle seats)
    games_played: int = 0
    decked: dict = field(default_factory=dict)  # the rules for each choice of decks, built once
    # id of a side's candidate list -> the (strategy, deck) families a best-response search tuned for that side
    tuned: dict = field(default_factory=dict)

    def task(self, seats: dict[str, Candidate], chunk: int, n: int, seed: int | None = None) -> tuple:
        lineup = {r: (seat.strategy.name, seat.params.tolist()) for r, seat in self.rest.items()}
        lineup |= {r: (c.strategy.name, c.params.tolist()) for r, c in seats.items()}
        return (self.game.module, self.rules_with(seats), self.players, lineup, self.plugins,
                self.seed if seed is None else seed, chunk, n)

    def rules_with(self, seats: dict[str, Candidate]) -> Rules:
        """The rules with the seats' decks: validated once per choice of decks, not once per chunk played."""
        decks = tuple(sorted((r, c.deck) for r, c in seats.items() if c.deck is not None))
        if decks not in self.decked:
            self.decked[decks] = with_decks(self.game, self.rules, dict(decks))
        return self.decked[decks]

    def play(self, tasks: list[tuple]) -> list[dict[str, np.ndarray]]:
        """Every task's role scores, in order (on `jobs` threads)."""
        self.games_played += sum(t[-1] for t in tasks)
        return play_tasks(score_chunk, tasks, self.jobs)


def narrow(scores: np.ndarray, precision: float) -> bool:
    """Width-only stop: the plain 95% interval of the mean score is within ± precision."""
    x = np.asarray(scores, dtype=np.float64)
    return half_width("mean", len(x), float(x.sum()), float((x * x).sum())) <= precision


@dataclass(frozen=True)
class Budget:
    """How much each cell plays: chunks of `chunk` games until ± `precision`, at most `cap` games."""

    precision: float
    chunk: int = 2_000
    cap: int = 200_000

    def chunks(self) -> int:
        return max(1, math.ceil(self.cap / self.chunk))


@dataclass
class TwoSidedTable:
    """`cells[i, j]`: the row side's per-game scores when row candidate i meets column candidate j."""

    roles: tuple[str, str]
    rows: list[Candidate]
    cols: list[Candidate]
    cells: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    def fill(self, player: Player, budget: Budget, slow: Budget | None = None) -> None:
        """Play every missing cell to the budget, all open cells one chunk at a time; a cell where the search player
        plays, to `slow` (it plays at the search's speed). Its games are the others' first ones: the same deals."""
        open_cells = [(i, j) for i in range(len(self.rows)) for j in range(len(self.cols)) if (i, j) not in self.cells]
        searching = [key for key in open_cells if self.rows[key[0]].searches() or self.cols[key[1]].searches()]
        for keys, cap in ((searching, slow or budget), ([k for k in open_cells if k not in searching], budget)):
            self._fill(player, cap, keys)

    def _fill(self, player: Player, budget: Budget, keys: list[tuple[int, int]]) -> None:
        open_cells = {key: [] for key in keys}
        for chunk in range(budget.chunks()):
            if not open_cells:
                break
            keys = list(open_cells)
            n = min(budget.chunk, budget.cap - chunk * budget.chunk)
            tasks = [player.task(dict(zip(self.roles, (self.rows[i], self.cols[j]))), chunk, n) for i, j in keys]
            for key, scores in zip(keys, player.play(tasks)):
                open_cells[key].append(scores[self.roles[0]])
                x = np.concatenate(open_cells[key])
                if narrow(x, budget.precision) or chunk == budget.chunks() - 1:
                    self.cells[key] = x
                    del open_cells[key]

    def means(self) -> np.ndarray:
        return np.array([[self.cells[i, j].mean() for j in range(len(self.cols))] for i in range(len(self.rows))])

    def samples(self) -> np.ndarray:
        """Per-game scores of every cell (an object array, for the bootstrap)."""
        out = np.empty((len(self.rows), len(self.cols)), dtype=object)
        for (i, j), x in self.cells.items():
            out[i, j] = x
        return out

    def games(self) -> np.ndarray:
        return np.array([[len(self.cells[i, j]) for j in range(len(self.cols))] for i in range(len(self.rows))])


def rotations(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The cyclic rotations of a seating (seat s gets lineup[(s + r) % n] in rotation r)."""
    n = len(lineup)
    return [tuple(lineup[(s + r) % n] for s in range(n)) for r in range(n)]


def seatings(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct seating of a line-up (seat s gets seating[s]), in a fixed order. Drawn uniformly, they are
    the seatings of a line-up whose seats are drawn at random; each seat holds each candidate equally often."""
    return sorted(set(itertools.permutations(lineup)))


@dataclass
class SymmetricTable:
    """n seats choosing from `options`. For each line-up (a sorted tuple of option indices), `cells[lineup]` is a
    (games, seats, distinct options of the line-up) array: seat s's per-game score while it holds option o,
    averaged over the seatings that put o in seat s (game g of every seating is the same deal)."""

    roles: tuple[str, ...]
    options: list[Candidate]
    cells: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict)

    def lineups(self) -> list[tuple[int, ...]]:
        return list(itertools.combinations_with_replacement(range(len(self.options)), len(self.roles)))

    def fill(self, player: Player, budget: Budget, slow: Budget | None = None) -> None:
        """Play every missing line-up in all its seatings, one chunk at a time, until each option's payoff in
        it and seat 0's share are within the budget's precision; a line-up where the search player plays, to
        `slow`."""
        missing = [lu for lu in self.lineups() if lu not in self.cells]
        searching = [lu for lu in missing if any(self.options[o].searches() for o in lu)]
        for lineups, cap in ((searching, slow or budget), ([lu for lu in missing if lu not in searching], budget)):
            self._fill(player, cap, lineups)

    def _fill(self, player: Player, budget: Budget, lineups: list[tuple[int, ...]]) -> None:
        open_cells = {lu: [] for lu in lineups}
        for chunk in range(budget.chunks()):
            if not open_cells:
                break
            n = min(budget.chunk, budget.cap - chunk * budget.chunk)
            keys = [(lu, seating) for lu in open_cells for seating in seatings(lu)]
            tasks = [player.task({role: self.options[o] for role, o in zip(self.roles, seating)}, chunk, n)
                     for _, seating in keys]
            played = {lu: [] for lu in open_cells}
            for (lu, seating), scores in zip(keys, player.play(tasks)):
                played[lu].append((seating, np.stack([scores[role] for role in self.roles], axis=1)))
            for lu, parts in played.items():
                open_cells[lu].append(by_seat(lu, parts))
                cell = np.concatenate(open_cells[lu])
                watched = [*option_scores(lu, cell).values(), seat0_scores(lu, cell)]
                if chunk == budget.chunks() - 1 or all(narrow(x, budget.precision) for x in watched):
                    self.cells[lu] = cell
                    del open_cells[lu]

    def hpt(self) -> tuple[np.ndarray, np.ndarray]:
        """(counts, payoffs) in full-profile form (`SymmetricGame.from_hpt`)."""
        k = len(self.options)
        counts, pay = [], []
        for lu, cell in self.cells.items():
            row = np.full(k, np.nan)
            for o, x in option_scores(lu, cell).items():
                row[o] = x.mean()
            counts.append(np.bincount(lu, minlength=k))
            pay.append(row)
        return np.array(counts), np.array(pay)


def by_seat(lineup: tuple[int, ...], played: list[tuple[tuple[int, ...], np.ndarray]]) -> np.ndarray:
    """(games, seats, distinct options): from each seating's (games × seats) scores, seat s's score while it holds
    option o, averaged over the seatings that put o there."""
    present = sorted(set(lineup))
    games, seats = played[0][1].shape
    out = np.zeros((games, seats, len(present)))
    held = np.zeros((seats, len(present)))
    for seating, scores in played:
        for s, o in enumerate(seating):
            out[:, s, present.index(o)] += scores[:, s]
            held[s, present.index(o)] += 1
    return out / held


def option_scores(lineup: tuple[int, ...], cell: np.ndarray) -> dict[int, np.ndarray]:
    """Each option's per-game score in a line-up: its mean over the seats (every seat holds it equally often)."""
    return {o: cell[:, :, i].mean(axis=1) for i, o in enumerate(sorted(set(lineup)))}


def seat_scores(lineup: tuple[int, ...], cell: np.ndarray, seat: int) -> dict[int, np.ndarray]:
    """One seat's per-game score with each option of the line-up."""
    return {o: cell[:, seat, i] for i, o in enumerate(sorted(set(lineup)))}


def seat0_scores(lineup: tuple[int, ...], cell: np.ndarray) -> np.ndarray:
    """Seat 0's per-game score in a line-up whose seats are drawn at random: it holds option o with probability
    (o's count) / seats. A cell stops only when this too is narrow: it carries the seat-advantage figure, and
    where every seat plays the same strategy the options' scores are exactly 1/n and would stop a cell at once."""
    counts = [lineup.count(o) for o in sorted(set(lineup))]
    return cell[:, 0, :] @ np.asarray(counts, dtype=np.float64) / len(lineup)
