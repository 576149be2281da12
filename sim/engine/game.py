"""The thin per-game API every engine implements, and the outcome definitions reports use.

A game package (`sim/games/<name>/`) holds:
    rules.toml    labelled rule values and named variants
    rules.py      the frozen dataclass those values load into, with `validate()`
    records.py    record dtypes, action codes and strategy signatures
    kernel.py     numba kernels: a batch of games from a seed → record arrays (and optional traces)
    referee.py    pure Python: replays an action trace, checks every move and the result
    game.py       a `Game` subclass wiring these together, with its outcomes, and `GAME`, its instance
and its strategies live in `strategies/<name>.py`. A game's own report sections, if it has any beyond the
declarative ones (`report_tables`), live in the report layer: `sim/report/games/<name>.py`.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.engine.errors import DsimError
from sim.engine.lazy_polars import pl
from sim.engine.rules import RuleSet, build_typed, load_ruleset, parse_set
from sim.engine.strategy import (Lineup, StrategyRegistry, compile_part, compile_pending, one_at_a_time,
                                 parse_lineup)
from sim.tooling import _numba_cache


class RefereeError(Exception):
    """A trace contains an illegal move or a wrong result."""


@dataclass(frozen=True)
class Trace:
    """One game's action trace (rows of ints, game-specific codes) and its row of the games table."""

    events: np.ndarray
    record: dict


@dataclass(frozen=True)
class Rules:
    """Effective rules: the labelled values (provenance) and their typed view (the engine's input)."""

    ruleset: RuleSet
    typed: Any

    @property
    def hash(self) -> str:
        return self.ruleset.hash


@dataclass(frozen=True)
class Outcome:
    """A per-game quantity reports and comparisons use: a rate (0/1) or a mean."""

    name: str
    kind: str                  # "rate" or "mean"
    expr: pl.Expr              # computed on the games table
    label: str = ""
    headline: bool = False     # shown first, and used by --precision targets
    reference: float | str | None = None   # what a finding is read against: a value, or "fair" (1 / players)
    percent: bool = False      # a mean of per-game shares, shown as a percentage
    caveat: bool = False       # should be zero (stalemates, strategy violations): any is a caveat on the report
    short: str = ""            # a few words heading a table's column, where the label is a sentence
    step: float = 1.0          # the least a game can add when it adds anything (1,000 for a count per 1,000
                               # games): the interval's upper end when no game added any
    role: str = ""             # the role whose score (`role_scores`) this is, but for draws (a score of one half):
                               # an equilibrium study's bracket on that role's score bounds this outcome too

    def reference_at(self, players: int) -> float | None:
        if self.reference == "fair":
            return 1.0 / players
        return self.reference

    def heading(self) -> str:
        return self.short or self.label or self.name

    def shows_percent(self) -> bool:
        return self.kind == "rate" or self.percent

    def values(self, frame: pl.DataFrame) -> np.ndarray:
        """Per-game values as float64, NaN where the outcome does not apply (a null or NaN expression):
        such games are left out of this outcome's estimate and comparisons."""
        return frame.select(self.expr.cast(pl.Float64)).to_series().fill_null(np.nan).to_numpy()


@dataclass(frozen=True)
class BenchCase:
    label: str
    players: int
    lineup: str
    target: float              # `unit`s per second per core the issue asks for
    unit: str = "games"
    n: int = 200_000


@dataclass(frozen=True)
class CoverageRun:
    """A configuration the coverage tests play. Together, a game's runs must make every `fired_*` counter
    non-zero and show every rule flag changing play."""

    players: int
    lineup: str = "default"        # "random", "default" or role=strategy,...
    variants: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()     # "key=value" overrides
    n: int = 2000


@dataclass(frozen=True)
class Claim:
    """A checkable claim a rulebook makes about play, for the report's calibration section.

    The claim holds when the outcome's estimate lies in [low, high] (None = unbounded). `cause` says, when the
    default run fails it, what was found to cause it (a strategy habit or an assumed value) and how we know.
    """

    text: str                      # the claim in our words: "the dwarves rarely all die"
    outcome: str                   # the name of one of the game's Outcomes
    players: int | None = None     # the player count it is about (None: all the run's games)
    low: float | None = None
    high: float | None = None
    cause: str = ""


def optional_module(name: str):
    """The module `name`, or None when there is none (an import error inside the module still raises): how a
    game's optional parts are found by convention (its elements, its own report sections)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def shares(total: int, weights: list[int]) -> list[int]:
    """`total` spread over `weights` in proportion, largest remainder first (ties: the earlier entry): how every
    game's elements.py hands a removed or neutral element's copies to the others."""
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    out = [int(x) for x in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[:total - sum(out)]:
        out[i] += 1
    return out


@dataclass(frozen=True)
class Element:
    """A part of the game a designer tunes (a card kind, a special value, an artifact, a power), with the rule
    overrides that take it out, replace it by a neutral element of the same count (so the measured weight is
    the element's, not that of a missing or dead card), or put it in every game. An empty tuple: not possible."""

    name: str
    group: str
    remove: tuple = ()             # ((key, value), ...)
    neutral: tuple = ()
    force: tuple = ()


@dataclass(frozen=True)
class Tunable:
    """One number of a game's content a tuner may change (`dsim balance`): an item's field, its value now, the
    hard limits the game allows, the decks (or sides) that hold the item, and how many copies they hold."""

    item: str                      # "Ember Drake"
    field: str                     # "cost"
    value: int
    low: int = 0
    high: int = 99
    decks: tuple[str, ...] = ()
    copies: int = 1
    stronger: int = 1              # +1: a higher value makes the item stronger (melee); -1: weaker (cost)


@dataclass(frozen=True)
class DeckBuilding:
    """What a deck may hold (`dsim decks`): the cards it may choose from, how many cards in all, and the copies
    of a card it must keep (a Banner's set-up cards) and may hold at most."""

    cards: tuple[str, ...]
    size: int
    most: int
    least: dict = field(default_factory=dict)      # card -> copies the deck must keep


@dataclass
class Game:
    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    default_lineup: dict[str, str]      # role -> strategy; its keys, in order, are the game's roles
    strategies: StrategyRegistry
    rules_class: type
    package_dir: Path | None = None     # where rules.toml is: by default the folder of the module defining the game
    chunk_size: int = 50_000
    bench_cases: list[BenchCase] = field(default_factory=list)
    deck_rules: dict[str, str] = field(default_factory=dict)   # role -> the rule naming its deck (--deck)
    roles: tuple[str, ...] = field(init=False)

    def __post_init__(self):
        self.roles = tuple(self.default_lineup)
        if self.package_dir is None:
            self.package_dir = Path(sys.modules[type(self).__module__].__file__).parent

    @property
    def module(self) -> str:
        """The module that defines this game as `GAME`: a worker process imports it by this name to play a chunk
        (`sim.games.<name>.game` for the built-in games), so the engine never imports the games."""
        return type(self).__module__

    # ---- rules -------------------------------------------------------------------------------
    def rules_file(self) -> Path:
        return self.package_dir / "rules.toml"

    def load_rules(self, path: str | Path | None = None, variants=(), sets=()) -> Rules:
        ruleset = load_ruleset(Path(path) if path else self.rules_file(), self.name)
        for v in variants:
            ruleset = ruleset.with_variant(v)
        overrides = dict(parse_set(s) if isinstance(s, str) else s for s in sets)
        if overrides:
            ruleset = ruleset.with_overrides(overrides)
        typed = build_typed(self.rules_class, ruleset)
        files = getattr(typed, "data_files", None)
        if files is not None:
            ruleset = dataclasses.replace(ruleset, data_files=files())
        return Rules(ruleset, typed)

    def check_players(self, rules: Rules, players: int) -> None:
        """The game's player range, then the rules' own check (`check_players` on the typed rules, if any)."""
        if not self.min_players <= players <= self.max_players:
            span = (f"{self.min_players}" if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise DsimError(f"{self.name} plays {span} players, not {players}")
        check = getattr(rules.typed, "check_players", None)
        if check is not None:
            try:
                check(players)
            except ValueError as e:
                raise DsimError(str(e)) from None

    def describe(self, rules: Rules) -> list[str]:
        """Extra lines `dsim games NAME` shows (e.g. the decks a game can be played with)."""
        return []

    def decks(self, rules: Rules) -> list[str]:
        """The decks a seat may bring under these rules (games with `deck_rules`)."""
        return []

    def lineup(self, text: str | None, rules: Rules | None = None) -> Lineup:
        """The strategies `text` names, each role it leaves out at its default under `rules`."""
        return parse_lineup(text or "default", self.roles, self.strategies, self.default_strategies(rules))

    def default_strategies(self, rules: Rules | None = None) -> dict[str, str]:
        """Role -> the strategy it plays when the user names none, under these rules."""
        return self.default_lineup

    def can_play(self, rules: Rules, strategy) -> bool:
        """Whether a strategy can take its seat under these rules (what an equilibrium study lines up)."""
        return True

    # ---- engine (each game overrides) ---------------------------------------------------------
    @one_at_a_time
    def kernels(self, search: bool = False, strategies: bool = True):
        """The game's `kernel` module, imported on first play rather than with the game, so listing the games or
        reading `--help` compiles nothing. A cold numba cache is announced on stderr first (compiling takes
        minutes). Every strategy module compiles first, as the kernels may call them, unless `strategies` is
        False: the game then compiles those a run plays itself (compile_now). The search player's part of the
        kernel (`njit_later` functions: the modules of those in the kernel's SEARCH_PARTS) compiles only when
        `search` asks for it: a plain run never compiles it."""
        name = f"{self.module.rpartition('.')[0]}.kernel"
        if strategies:              # (a plugin's too, registered since the last call)
            compile_pending([f for s in self.strategies.items.values() for f in s.functions])
        if name not in sys.modules and importlib.util.find_spec(name) is not None:
            _numba_cache.announce(self.name)
            importlib.import_module(name)
            _numba_cache.mark_warm(self.name)
        module = sys.modules.get(name)
        if search:
            compile_part(getattr(module, "SEARCH_PARTS", ()), "search")
        return module

    def simulate(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int) -> dict[str, dict[str, np.ndarray]]:
        """Play `n` games from `seed` (a uint32); return {table: {column: array}}, `games` first."""
        raise NotImplementedError

    def traces(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int) -> list[Trace]:
        """The same first `n` games as `simulate(seed)` would play, with their action traces."""
        raise NotImplementedError

    def referee(self, rules: Rules, players: int, trace: Trace) -> list[str]:
        """Replay one trace; return its play-by-play lines, or raise RefereeError on an illegal move."""
        raise NotImplementedError

    def search_decisions(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int) -> int:
        """Play the same games as `simulate`; return how many decisions its search seats made (the benchmark's
        decisions per second). Games with a search player implement it."""
        raise NotImplementedError

    # ---- reporting ---------------------------------------------------------------------------
    def outcomes(self) -> list[Outcome]:
        raise NotImplementedError

    def seat_game(self) -> bool:
        return all(r.startswith("seat") for r in self.roles)

    def active_roles(self, players: int) -> tuple[str, ...]:
        """Roles that take part with this many players (seat games use only the first `players` seats)."""
        return self.roles[:players] if self.seat_game() else self.roles

    def deal_columns(self, run: list[str]) -> list[pl.Expr]:
        """Expressions naming each game's deal among the games of one run (`run`: the columns that tell runs
        apart), for a game whose runs deal some games alike: such games are not independent of each other, and
        summaries and paired comparisons take the deal as the unit. No columns (the default): every game is its own."""
        return []

    def deals(self, games: pl.DataFrame) -> np.ndarray:
        """Each game's deal in one run's games (`deal_columns`), or its game id when every game is its own."""
        columns = self.deal_columns([])
        if not columns or games.is_empty():
            return games["game_id"].to_numpy()
        return games.select(columns).hash_rows().to_numpy()

    def role_scores(self, games: pl.DataFrame, players: int) -> dict[str, np.ndarray]:
        """Each active role's result per game in [0, 1] (1 = won): what tournaments and optimisation score.

        Default for seat games whose games table has a `winner` seat column (-1 = nobody).
        """
        if self.seat_game() and "winner" in games.columns:
            winner = games["winner"].to_numpy()
            return {r: (winner == k).astype(np.float64) for k, r in enumerate(self.active_roles(players))}
        raise DsimError(f"{self.name} does not score roles, so it cannot play tournaments or be optimised yet")

    def coverage_runs(self) -> list[CoverageRun]:
        """Configurations that together exercise every rule, card effect, variant rule and flag."""
        return [CoverageRun(self.default_players, "random"), CoverageRun(self.default_players)]

    def elements(self, rules: Rules) -> list[Element]:
        """The elements `dsim ablate` can remove, neutralise or force, read from these rules: by default the
        `elements(rules)` function of the `elements.py` beside the game's module, if it has one."""
        module = optional_module(f"{self.module.rpartition('.')[0]}.elements")
        return [] if module is None else module.elements(rules)

    # ---- content (`dsim balance`) ---------------------------------------------------------------
    def content(self, rules: Rules) -> list[Tunable]:
        """The numbers of the content these rules play that a tuner may change. Games whose content is data
        (Drakerion's card pool) override this and the two below; the others cannot be tuned this way."""
        raise DsimError(self._not_data())

    def with_content(self, rules: Rules, changes: dict[tuple[str, str], int], to: Path,
                     header: tuple[str, ...] = ()) -> Rules:
        """Write the content of `rules` with `changes` ((item, field) -> new value) to the file `to`, `header`
        lines first as comments; return the rules that play it."""
        raise DsimError(self._not_data())

    def content_file(self, name: str) -> Path:
        """Where the named content file `name` lives (Drakerion: pools/NAME.toml)."""
        raise DsimError(self._not_data())

    def _not_data(self) -> str:
        return (f"{self.name.capitalize()}'s content is not data (no card file), so `dsim balance` cannot tune it; "
                "`dsim tune` moves a rule's value toward a target")

    # ---- deck building (`dsim decks`) -------------------------------------------------------------
    def deck_list(self, rules: Rules, deck: str) -> dict[str, int]:
        """A deck's cards and their copies (games whose decks are data override this and the two below)."""
        raise DsimError(f"{self.name} has no deck lists to build: `dsim decks` needs a game whose decks are data")

    def deck_building(self, rules: Rules, deck: str, most: int) -> DeckBuilding:
        """What a deck like `deck` may hold, at most `most` copies of a card."""
        raise DsimError(f"{self.name} has no deck lists to build: `dsim decks` needs a game whose decks are data")

    def with_deck(self, rules: Rules, like: str, name: str, cards: dict[str, int], to: Path) -> Rules:
        """The rules whose content holds one more deck, `name`: `like` with these cards (written to `to`)."""
        raise DsimError(f"{self.name} has no deck lists to build: `dsim decks` needs a game whose decks are data")

    def with_lists(self, rules: Rules, lists: dict[str, dict[str, int]], to: Path,
                   header: tuple[str, ...] = ()) -> Rules:
        """Write the content of `rules` with these decks' lists replaced to the file `to`, `header` lines first as
        comments; return the rules that play it."""
        raise DsimError(f"{self.name} has no deck lists to build: `dsim decks` needs a game whose decks are data")

    def calibration(self) -> list[Claim]:
        """The rulebook's checkable claims about play (report section "Calibration")."""
        return []

    def group_columns(self) -> list[str]:
        """Columns the summary splits by (besides the run's partition columns)."""
        return []

    def counter_gates(self) -> dict[str, str]:
        """Rule counters whose subject another rule switches on (counter -> that rule's key, on when true or
        above zero); a report looks at them only in runs where it was on. A counter named after a boolean rule
        needs no entry."""
        return {}

    def label_columns(self) -> list[str]:
        """Games-table columns that name the arm (a deck, a swapped card), not what happened in play."""
        return []

    def report_tables(self) -> list:
        """Sections every report shows for this game (`sim.engine.sections`: Table, Series, Histogram), declared
        as data and rendered by the report layer, each by configuration with intervals and a chart."""
        return []
