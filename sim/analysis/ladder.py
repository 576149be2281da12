"""`dsim ladder`: does a headline finding hold against best responses to the defaults?

The finding is played on the same seeds by rising line-ups: everyone random; the default heuristics; each
side's best response to the defaults (its default strategy's weights tuned by a short differential-evolution
search, `dsim optimize`, against the other defaults); those best responses played together; the equilibrium
when given; then, in a game with a search player, each side searching against the defaults at two budgets
(on the first SEARCH_GAMES deals: search is slow, and its rungs are paired with the default's on those
deals). Each rung's
estimate has its interval; each rung's change from the default is a paired change (`paired_change`), and the
rungs against the default are one family (`family_of_changes`), so the report (`sim.report.ladder`) reads
whether the finding holds, grows, shrinks, vanishes or reverses off the intervals it shows.
A best response to the defaults found by a short search is not an equilibrium, nor skilled play in general:
the report says which search found it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim.analysis.optimize import best_response
from sim.analysis.intervals import NAN, Interval
from sim.analysis.intervals_paired import DOWN, NO_CHANGE, UP, PairedChange, family_of_changes, paired_change
from sim.engine.errors import DsimError
from sim.engine.game import Game, Outcome
from sim.engine.runner import iter_chunks
from sim.engine.spec import RunSpec
from sim.engine.strategy import Seat, lineup_label


SEARCH_BUDGETS = None          # the search rungs' playouts per decision; None: a quarter of the default, the default
SEARCH_GAMES = 10_000          # the search rungs play the first this many of the ladder's deals
EQUILIBRIUM_SEARCH_GAMES = 2_000   # an equilibrium where every seat may search: days for 100,000 games at 5 seats
LADDER_CHUNK = 2_000           # games per chunk, in every rung


@dataclass
class Level:
    """One rung: its line-up, its figure (`estimate`), its paired change from the default (`against_default`)
    and that change as the family of rungs shows it (`shown`, `verdict` read off it, `p_adjusted`)."""

    name: str
    lineup: dict
    estimate: Interval | None = None
    against_default: PairedChange | None = None
    note: str = ""
    shown: Interval | None = None
    verdict: str = NO_CHANGE
    p_adjusted: float = NAN
    tuned: bool = False          # a best response found by the search (not random or default play)
    mixture: list = field(default_factory=list)   # the equilibrium rung: (line-up, weight) pairs it plays
    games: int | None = None     # plays only the first this many deals (None: all of the ladder's)
    searching: bool = False      # a side plays the search player (a rung beside the others, read on its own)
    # the equilibrium rung: how far the study's bracket reaches below and above its value's interval (what fresh
    # best responses still gain), added to this rung's intervals so that the ladder and the equilibrium report
    # read "holds" or "indistinguishable" off the same range
    widen: tuple[float, float] = (0.0, 0.0)
    # the equilibrium rung of another figure than the study's: the study's bracket does not bound it, so where
    # that bracket is wider than the study's value interval, this figure is known only at the study's mixture
    settled: bool = True

    def label(self) -> str:
        return "equilibrium mixture" if self.mixture else lineup_label(self.lineup)


@dataclass(frozen=True)
class Search:
    """How the best responses were found: differential evolution, `iters` iterations of a population of
    `popsize` per weight, each evaluation on `games` games (other seeds than the ladder's)."""

    iters: int
    popsize: int
    games: int

    def words(self) -> str:
        its = f"{self.iters} iteration{'s' if self.iters != 1 else ''}"
        return (f"best responses to the defaults found by a short search ({its}, population {self.popsize}, "
                f"{self.games:,} games)")


def pick_outcome(game: Game, name: str | None) -> Outcome:
    outcomes = {o.name: o for o in game.outcomes()}
    if name is None:
        return next((o for o in game.outcomes() if o.headline), game.outcomes()[0])
    if name not in outcomes:
        raise DsimError(f"unknown outcome '{name}' for {game.name} (known: {', '.join(outcomes)})")
    return outcomes[name]


def levels(game: Game, base: RunSpec, iters: int, popsize: int, tune_n: int, jobs: int = 1) -> list[Level]:
    """Random, default, each side's best response to the defaults, those played together. In a seat game the
    sides are alike: the first seat is tuned against the defaults, then every seat plays those weights."""
    out = [Level("random", game.lineup("random")), Level("default", dict(base.lineup))]
    roles = game.active_roles(base.players)
    tuned = dict(base.lineup)
    sides = []
    for role in roles[:1] if game.seat_game() else roles:
        seat = base.lineup[role]
        if not seat.strategy.bounds:
            out[1].note += f"{role}'s default ({seat.strategy.name}) has no weights to tune. "
            continue
        train = dataclasses.replace(base, n=tune_n)
        _, strategy, best, before, after, _ = best_response(game, train, seat.strategy.name, role, iters, popsize,
                                                         jobs)
        lineup = dict(base.lineup)
        lineup[role] = Seat(strategy, np.asarray(best, dtype=np.float64))
        tuned[role] = lineup[role]
        sides.append(role)
        out.append(Level(f"{role} best response", lineup, tuned=True,
                         note=f"{role}'s {strategy.name} weights tuned against the defaults: "
                              + (f"training score {before:.3f} → {after:.3f}" if after > before else
                                 "the search found no better weights than the defaults")))
    if game.seat_game() and sides and all(base.lineup[r].strategy is base.lineup[sides[0]].strategy for r in roles):
        every = {r: tuned[sides[0]] for r in base.lineup}
        out.append(Level("every seat's best response", every, tuned=True,
                         note=f"every seat plays {sides[0]}'s best response to the defaults"))
    elif len(sides) > 1:
        out.append(Level("best responses together", tuned, tuned=True,
                         note="each side's best response to the defaults, played together"))
    return out


def default_budgets(search) -> tuple[int, int]:
    """A quarter of the game's default budget, and the default (50 and 200 in most games; Drakerion's playouts
    cost a whole game each, so its default is 20)."""
    default = int(search.params()[search.param_names.index("budget")])
    return max(1, round(default / 4)), default


def search_levels(game: Game, base: RunSpec, budgets: tuple[int, ...] | None = None,
                  games: int | None = None) -> list[Level]:
    """Each side (the first seat in a seat game) searching against the defaults, at each budget (default
    `default_budgets`) on the first `games` deals (default SEARCH_GAMES); none if the game has no search player or
    `games` is 0."""
    games = min(SEARCH_GAMES if games is None else games, base.n)
    if "search" not in game.strategies.items or games == 0:
        return []
    search = game.strategies.get("search")
    budgets = budgets or SEARCH_BUDGETS or default_budgets(search)
    out = []
    for budget in budgets:
        for role in game.active_roles(base.players)[:1 if game.seat_game() else None]:
            lineup = dict(base.lineup)
            lineup[role] = Seat(search, search.params({"budget": budget}))
            out.append(Level(f"{role} searches ({budget} playouts)", lineup, games=games, searching=True,
                             note=f"{role} searches ({budget} playouts per decision) against the defaults, on the "
                                  f"first {games:,} deals"))
    return out


def play(game: Game, base: RunSpec, lineup: dict, outcome: Outcome, n: int, jobs: int = 1) -> np.ndarray:
    """Per-game values of `lineup` on the ladder's deals (not the tuning seeds): chunks of LADDER_CHUNK games on
    `jobs` processes, so game i is dealt alike in every rung however many games a rung plays."""
    spec = dataclasses.replace(base, lineup=lineup, n=n, seed=base.seed + 1, chunk_size=LADDER_CHUNK)
    return np.concatenate([outcome.values(pl.DataFrame(tables["games"])) for _, _, tables in iter_chunks(spec, jobs)])


def play_level(game: Game, base: RunSpec, level: Level, outcome: Outcome, n: int, jobs: int = 1) -> np.ndarray:
    """A rung's per-game values; a mixture's are each game's expectation over its line-ups (all dealt alike),
    over the line-ups where the outcome applies."""
    n = min(n, level.games or n)
    if not level.mixture:
        return play(game, base, level.lineup, outcome, n, jobs)
    total, weight = np.zeros(n), np.zeros(n)
    for lineup, w in level.mixture:
        x = play(game, base, lineup, outcome, n, jobs)
        ok = ~np.isnan(x)
        total += w * np.where(ok, x, 0.0)
        weight += w * ok
    with np.errstate(invalid="ignore"):
        return np.where(weight > 0, total / np.where(weight > 0, weight, 1.0), np.nan)


def equilibrium_level(game: Game, base: RunSpec, study, outcome: Outcome) -> Level:
    """The top rung: the equilibrium mixture of `dsim equilibrium`, every line-up it plays with its probability.
    Its intervals are widened by the study's bracket when `outcome` is the study's figure (the first side's
    score); for another figure an unsettled study leaves the rung at the study's mixture, and says so."""
    mixture = study.lineups_played(dict(base.lineup))
    # the rounds' own test (on the table's seeds), which the fresh checks behind the bracket may still overturn
    state = ("no best response gained more than the tolerance on its table" if study.converged else
             f"best responses still gained more than the tolerance after {len(study.rounds)} rounds")
    note = (f"equilibrium: {study.mixture_words()} (`dsim equilibrium`, {sum(len(o) for o in study.options.values())} "
            f"strategies, tolerance {100 * study.search.tol:.1f} points, {state})")
    br, v = study.bracket(), study.value
    reach = (max(0.0, v.lo - br.lo), max(0.0, br.hi - v.hi))
    bracket = f"{100 * br.lo:.1f}% to {100 * br.hi:.1f}%"
    widen, settled = (0.0, 0.0), True
    if reach != (0.0, 0.0) and outcome.role == study.sides[0]:
        widen = reach
        note += f"; its intervals are widened by what fresh best responses still gain on it (the study's bracket, {bracket})"
    elif reach != (0.0, 0.0):
        settled = False
        note += (f"; not settled: fresh best responses still move the study's own figure ({study.sides[0]}'s score, "
                 f"bracket {bracket}), which does not bound this one, so this level shows the figure at the study's "
                 "mixture with its sampling interval alone")
    searching = any(seat.strategy.name == "search" for lineup, _ in mixture for seat in lineup.values())
    if searching:
        note += (f"; its line-ups search, so it plays the first {EQUILIBRIUM_SEARCH_GAMES:,} deals (as the study's "
                 "cells did: the bracket dwarfs their sampling error)")
    return Level("equilibrium", max(mixture, key=lambda m: m[1])[0], note=note, mixture=mixture, widen=widen,
                 games=EQUILIBRIUM_SEARCH_GAMES if searching else None, settled=settled)


def widened(e: Interval, widen: tuple[float, float], share: bool) -> Interval:
    """`e` with the bracket's reach added at each end (a share stays within 0 and 1)."""
    lo, hi = e.lo - widen[0], e.hi + widen[1]
    if share:
        lo, hi = max(0.0, lo), min(1.0, hi)
    return dataclasses.replace(e, lo=lo, hi=hi, lo_open=False, hi_open=False)


@dataclass(frozen=True)
class Ladder:
    """A finding (one outcome) played by rising line-ups on the same seeds: each level's estimate and its paired
    change from the default level (the rungs one family), the reference the finding is read against (if any),
    and the search that found the best responses."""

    game: Game
    base: RunSpec
    outcome: Outcome
    steps: list[Level]
    reference: float | None
    search: Search

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{"level": s.name, "lineup": s.label(), "value": s.estimate.value,
                              "lo": s.estimate.lo, "hi": s.estimate.hi, "games": s.estimate.n,
                              "vs_default": s.shown.value, "vs_default_lo": s.shown.lo, "vs_default_hi": s.shown.hi,
                              "vs_default_verdict": s.verdict, "vs_default_p_adjusted": s.p_adjusted,
                              "vs_default_p": s.against_default.p_value} for s in self.steps])


def judge(steps: list[Level], values: dict[str, np.ndarray]) -> None:
    """Each rung's paired change from the default (on the deals the rung played: the first ones); the rungs
    other than the default are one family, whose intervals are shown and whose verdicts are read off them."""
    for s in steps:
        x = values[s.name]
        s.against_default = paired_change(values["default"][:len(x)], x)
        s.estimate = s.against_default.b
    others = [s for s in steps if s.name != "default"]
    fam = family_of_changes([s.against_default for s in others])
    for s, shown, word, p in zip(others, fam.intervals, fam.verdicts, fam.p_adjusted):
        s.shown, s.verdict, s.p_adjusted = shown, word, float(p)
        if s.widen != (0.0, 0.0):      # an unconverged equilibrium: its figure is known only to its bracket
            s.estimate = widened(s.estimate, s.widen, True)
            s.shown = widened(shown, s.widen, False)
            s.verdict = UP if s.shown.lo > 0 else DOWN if s.shown.hi < 0 else NO_CHANGE
            s.p_adjusted = NAN          # the sampling test's p no longer matches the widened interval shown
    for s in steps:
        if s.name == "default":
            s.shown, s.verdict, s.p_adjusted = s.against_default.diff, NO_CHANGE, 1.0


def ladder(game: Game, base: RunSpec, outcome_name: str | None = None, reference: float | None = None,
           iters: int = 4, popsize: int = 5, tune_n: int | None = None, study=None, jobs: int = 1,
           search_budgets: tuple[int, ...] | None = None, search_games: int | None = None) -> Ladder:
    """The rungs up to the best responses to the defaults, then, given an equilibrium `study` of the same
    rules and player count, the equilibrium, then the search rungs (`search_levels`)."""
    outcome = pick_outcome(game, outcome_name)
    search = Search(iters, popsize, tune_n or max(2_000, base.n // 10))
    steps = levels(game, base, iters, popsize, search.games, jobs)
    if study is not None:
        steps.append(equilibrium_level(game, base, study, outcome))
    steps += search_levels(game, base, search_budgets, search_games)
    judge(steps, {s.name: play_level(game, base, s, outcome, base.n, jobs) for s in steps})
    return Ladder(game, base, outcome, steps, reference, search)
