"""Calibration: the rulebook's own checkable claims about play, measured on the default configuration.

A claim holds when the whole 95% interval lies in the claim's range, fails when the whole interval lies
outside it, and is unsettled otherwise (more games would decide it).
"""

from __future__ import annotations

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


def default_games(game: Game, games: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """The games played with the default rules and the default lineup."""
    rules = game.load_rules().hash
    lineup = lineup_label(game.lineup("default"))
    games = lazy(games)
    columns = games.collect_schema().names()
    keep = pl.lit(True)
    if "rules" in columns:
        keep &= pl.col("rules") == rules
    if "lineup" in columns:
        keep &= pl.col("lineup") == lineup
    return games.filter(keep)


def check(game: Game, games: pl.DataFrame | pl.LazyFrame) -> list[Checked]:
    outcomes = {o.name: o for o in game.outcomes()}
    base = default_games(game, games)
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
