"""The calibration section of a balance report: each rulebook claim, its range, the measured estimate and the
verdict (`sim.analysis.calibration` measures them), and what causes the claims that are not met."""

from __future__ import annotations

from sim.analysis.calibration import Checked
from sim.engine.game import Claim


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
