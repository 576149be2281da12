"""The calibration section of a balance report: each rulebook claim, its range, the measured estimate and the
verdict (`sim.analysis.calibration` measures them), what causes the claims that are not met, and the same claims
under the search player."""

from __future__ import annotations

import re

from sim.analysis.calibration import Checked, UnderSearch
from sim.engine.game import Claim
from sim.report.labels import role_words
from sim.report.numbers import estimate_text


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


def calibration_section(checked: list[Checked], searched: list[UnderSearch] = ()) -> list[str]:
    """The report's calibration table, from `sim.analysis.calibration.check`, the causes of the misses, and the
    claims again where a side searches (`under_search`)."""
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
                     f"{estimate_text(c.estimate, pct)} | {c.verdict} |")
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
    return lines + [""] + search_section(checked, searched)


def searcher_words(label: str) -> str:
    """Who searches in a lineup label: "the dragon searches", "seat 0 searches (50 playouts)", "every side"."""
    seats = [part.split("-", 1) for part in label.split("_")] if "-" in label else [["", label]]
    who = [(role, seat) for role, seat in seats if seat.startswith("search")]
    budget = re.search(r"search\((\d+)", label)
    playouts = f" ({budget.group(1)} playouts)" if budget else ""
    if len(who) == len(seats):
        return f"every side searches{playouts}"
    plural = len(who) > 1 or who[0][0].endswith("s")      # "the dwarves search", "seat 0 searches"
    names = [role_words(role) if role.startswith("seat") else f"the {role}" for role, _ in who]
    return f"{' and '.join(names)} search{'' if plural else 'es'}{playouts}"


def search_section(checked: list[Checked], searched: list[UnderSearch]) -> list[str]:
    """Each claim's verdict with the default strategies beside its verdict where a side searches."""
    if not searched:
        return []
    pct = {id(c.claim): c.kind == "rate" for c in checked}
    lines = ["### The claims when a side searches", "",
             "The same claims on the games where one side plays the search player (docs/SEARCH.md) and the other "
             "the defaults, default rules: does a verdict hold when a side plays well, or was it a trait of our "
             "heuristics?", "",
             "| claim | players | default strategies | " + " | ".join(searcher_words(u.lineup) for u in searched)
             + " |", "|---|---|---|" + "---|" * len(searched)]
    for i, c in enumerate(checked):
        if c.estimate is None:
            continue
        p = pct[id(c.claim)]
        cells = [f"{estimate_text(u.checked[i].estimate, p)}: {u.checked[i].verdict}"
                 if u.checked[i].estimate is not None else "not measured" for u in searched]
        lines.append(f"| {c.claim.text} | {c.claim.players or 'all'} | "
                     f"{estimate_text(c.estimate, p)}: {c.verdict} | " + " | ".join(cells) + " |")
    return lines + [""]


def verb(verdict: str) -> str:
    return "is unsettled" if verdict == "unsettled" else verdict


def search_findings(searched: list[UnderSearch]) -> list[str]:
    """One finding per calibration verdict a searching side changes, or one saying none changed."""
    if not searched:
        return []
    out = []
    for u in searched:
        for d, c in u.changed:
            text, players = split_players(d.claim.text)
            out.append(f"When {searcher_words(u.lineup)}, the rulebook claim \"{text}\"{counts_text([players])} "
                       f"{verb(c.verdict)} (with the default strategies it {verb(d.verdict)}): "
                       f"{estimate_text(c.estimate, c.kind == 'rate')}.")
    if not out:
        who = "; ".join(searcher_words(u.lineup) for u in searched)
        measured = sum(c.estimate is not None for c in searched[0].checked)
        out.append(f"No calibration verdict changes when a side searches ({who}; {measured} "
                   f"claim{'' if measured == 1 else 's'} measured).")
    return out
