"""The calibration section of a balance report: each rulebook claim, its range, the measured estimate and the
verdict (`sim.analysis.calibration` measures them), and what causes the claims that are not met."""

from __future__ import annotations

import re

from sim.analysis.calibration import Checked
from sim.engine.game import Claim


def split_players(text: str) -> tuple[str, str]:
    """A claim's words without the player count it is checked at ("... (5 players)"), and that count ("5")."""
    m = re.search(r"\s*\((\d+) players?\)", text)
    return (text.replace(m.group(0), ""), m.group(1)) if m else (text, "")


def counts_text(counts: list[str]) -> str:
    """" at 4, 5 and 6 players", " at 5 players" or ""."""
    counts = [n for n in counts if n]
    if len(counts) > 1:
        return f" at {', '.join(counts[:-1])} and {counts[-1]} players"
    return f" at {counts[0]} players" if counts else ""


def claim_range(c: Claim, pct: bool) -> str:
    def show(v):
        return f"{100 * v:g}%" if pct else f"{v:g}"
    if c.low is not None and c.high is not None:
        return f"{show(c.low)} to {show(c.high)}"
    return f"at least {show(c.low)}" if c.low is not None else f"at most {show(c.high)}"


def calibration_section(checked: list[Checked]) -> list[str]:
    """The report's calibration table, from `sim.analysis.calibration.check`, and the causes of the misses."""
    if not checked:
        return []
    lines = ["## Calibration against the rulebook", "",
             "Claims the rulebook makes about play, measured on the games played with the default rules and "
             "strategies. A claim holds when the whole 95% interval lies in its range.", ""]
    measured = [c for c in checked if c.estimate is not None]
    if measured:
        lines += ["| claim | players | range | measured [95% CI] | verdict |", "|---|---|---|---|---|"]
    for c in measured:
        pct = c.kind == "rate"
        lines.append(f"| {c.claim.text} | {c.claim.players or 'all'} | {claim_range(c.claim, pct)} | "
                     f"{c.estimate.fmt(pct=pct, digits=1 if pct else 3)} | {c.verdict} |")
    unplayed = sorted({str(c.claim.players) for c in checked if c.estimate is None})
    if unplayed:
        lines += ["", f"Not measured here: {len(checked) - len(measured)} claims about {', '.join(unplayed)} "
                  "players, where these runs played no default game."]
    causes: dict[str, dict[str, list[str]]] = {}     # one entry per cause: the claims it explains, their counts
    for c in checked:
        if c.verdict not in ("holds", "not measured") and c.claim.cause:
            text, players = split_players(c.claim.text)
            causes.setdefault(c.claim.cause, {}).setdefault(f"{text}** ({c.verdict}", []).append(players)
    if causes:
        lines += ["", "Where a claim is not met, what was found to cause it. It was traced on separate diagnostic "
                  "runs, one change at a time: the figures quoted below are those runs', with their own seeds and "
                  "noise; this run's figure is the one in the table above.", ""]
        lines += [f"- **{'; '.join(claim + counts_text(n) + ')' for claim, n in claims.items())}: {cause}"
                  for cause, claims in causes.items()]
    return lines + [""]
