"""Calibration: the rulebook's own checkable claims about play, measured on the default configuration.

A claim holds when the whole 95% interval lies in the claim's range, fails when the whole interval lies
outside it, and is unsettled otherwise (more games would decide it).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sim.core.game import Claim, Game
from sim.core.stats import Estimate
from sim.core.frames import lazy
from sim.core.summary import estimates
from sim.core.strategy import lineup_label


@dataclass(frozen=True)
class Checked:
    claim: Claim
    estimate: Estimate | None      # None: the default configuration was not played here
    kind: str
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
            out.append(Checked(claim, None, o.kind, "not measured"))
            continue
        out.append(Checked(claim, est, o.kind, verdict(est, claim.low, claim.high)))
    return out


def claim_range(c: Claim, pct: bool) -> str:
    def show(v):
        return f"{100 * v:g}%" if pct else f"{v:g}"
    if c.low is not None and c.high is not None:
        return f"{show(c.low)} to {show(c.high)}"
    return f"at least {show(c.low)}" if c.low is not None else f"at most {show(c.high)}"


def section(game: Game, games: pl.DataFrame | pl.LazyFrame) -> list[str]:
    checked = check(game, games)
    if not checked:
        return []
    lines = ["## Calibration against the rulebook", "",
             "Claims the rulebook makes about play, measured on the games played with the default rules and "
             "strategies. A claim holds when the whole 95% interval lies in its range.", "",
             "| claim | players | range | measured [95% CI] | verdict |", "|---|---|---|---|---|"]
    for c in checked:
        pct = c.kind == "rate"
        measured = c.estimate.fmt(pct=pct, digits=1 if pct else 3) if c.estimate else "not played here"
        lines.append(f"| {c.claim.text} | {c.claim.players or 'all'} | {claim_range(c.claim, pct)} | {measured} | "
                     f"{c.verdict} |")
    causes = [c for c in checked if c.verdict != "holds" and c.claim.cause]
    if causes:
        lines += ["", "Where a claim is not met:", ""]
        lines += [f"- **{c.claim.text}** ({c.verdict}): {c.claim.cause}" for c in causes]
    return lines + [""]
