"""Calibration: the rulebook's own checkable claims about play, measured on the default configuration, and
again under the search player (`under_search`: does a verdict hold when a side plays well?).

A claim holds when the whole 95% interval lies in the claim's range, fails when the whole interval lies
outside it, and is unsettled otherwise (more games would decide it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from sim.analysis.stats import Estimate
from sim.analysis.summary import estimates
from sim.engine.frames import lazy
from sim.engine.game import Claim, Game
from sim.engine.strategy import lineup_label


@dataclass(frozen=True)
class Checked:
    claim: Claim
    estimate: Estimate | None      # None: the default configuration was not played here
    kind: str                      # "rate" for a rate or a mean of shares (read in %), else "mean"
    verdict: str                   # "holds", "fails", "unsettled" or "not measured"


def verdict(est: Estimate, low: float | None, high: float | None) -> str:
    lo_ok = low is None or est.lo >= low
    hi_ok = high is None or est.hi <= high
    if lo_ok and hi_ok:
        return "holds"
    if (low is not None and est.hi < low) or (high is not None and est.lo > high):
        return "fails"
    return "unsettled"


def default_games(game: Game, games: pl.DataFrame | pl.LazyFrame, lineup: str | None = None) -> pl.LazyFrame:
    """The games played with the default rules and the default lineup (or the lineup with this label)."""
    rules = game.load_rules().hash
    lineup = lineup or lineup_label(game.lineup("default"))
    games = lazy(games)
    columns = games.collect_schema().names()
    keep = pl.lit(True)
    if "rules" in columns:
        keep &= pl.col("rules") == rules
    if "lineup" in columns:
        keep &= pl.col("lineup") == lineup
    return games.filter(keep)


SEARCHING = re.compile(r"(^|-)search(\(|_|$)")      # a seat label "search" or "search(50)" in a lineup label


@dataclass(frozen=True)
class UnderSearch:
    """The claims measured on one lineup where a side plays `search`, beside the default lineup's verdicts."""

    lineup: str
    checked: list[Checked]
    changed: list[tuple[Checked, Checked]]      # (default, under search) where the verdict differs


def under_search(game: Game, games: pl.DataFrame | pl.LazyFrame, default: list[Checked]) -> list[UnderSearch]:
    """Every claim again on each lineup with a searching side that played the default rules."""
    games = lazy(games)
    if "lineup" not in games.collect_schema().names():
        return []
    rules = game.load_rules().hash
    played = games.filter(pl.col("rules") == rules) if "rules" in games.collect_schema().names() else games
    labels = sorted(x for x in played.select(pl.col("lineup").unique()).collect()["lineup"].to_list()
                    if SEARCHING.search(x))
    out = []
    for label in labels:
        checked = check(game, games, label)
        changed = [(d, c) for d, c in zip(default, checked)
                   if "not measured" not in (d.verdict, c.verdict) and d.verdict != c.verdict]
        out.append(UnderSearch(label, checked, changed))
    return out


def check(game: Game, games: pl.DataFrame | pl.LazyFrame, lineup: str | None = None) -> list[Checked]:
    """Every claim of the game on the default rules and lineup (or the lineup with this label)."""
    outcomes = {o.name: o for o in game.outcomes()}
    base = default_games(game, games, lineup)
    has_players = "players" in base.collect_schema().names()
    out = []
    for claim in game.calibration():
        o = outcomes[claim.outcome]
        frame = base.filter(pl.col("players") == claim.players) if claim.players and has_players else base
        est = estimates(frame, [(o.expr, o.kind)])[0]
        if est.n == 0:
            out.append(Checked(claim, None, "rate" if o.shows_percent() else o.kind, "not measured"))
            continue
        out.append(Checked(claim, est, "rate" if o.shows_percent() else o.kind, verdict(est, claim.low, claim.high)))
    return out
