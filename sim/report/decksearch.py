"""`dsim decks`'s report: the strongest deck list found for each deck, its score against the field with its
interval, its edge over the starting deck in points, the cards it leans on; beside it the data (Parquet) and the
figures (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from sim.analysis.decksearch import DeckSearch, Found, table
from sim.report import layout, numbers
from sim.report.html import write_report
from sim.report.labels import spec_words
from sim.report.autobalance import shown

BAR = 0.60        # a deck scoring above this against the field breaks the set (the design target: more than 10 points over)


def verdict(f: Found) -> str:
    """"breaks the set" (the whole interval above the bar), "within the bar" (the whole interval below it) or
    "unsettled"."""
    if f.best_score.lo > BAR:
        return "breaks the set"
    return "within the bar" if f.best_score.hi < BAR else "unsettled"


def write(s: DeckSearch, to: Path) -> Path:
    to.mkdir(parents=True, exist_ok=True)
    stem = f"decks_{s.game.name}"
    table(s).write_parquet(to / f"{stem}.parquet")
    (to / f"{stem}.json").write_text(json.dumps(numbers.plain(figures(s)), indent=1))
    return write_report(to, stem, "\n".join(report_lines(s)), s.game.title)


def figures(s: DeckSearch) -> dict:
    decks = [{"deck": f.deck, "start": numbers.estimate(f.start_score, True),
              "found": numbers.estimate(f.best_score, True), "edge": numbers.change(f.edge, True),
              "verdict": verdict(f), "breaks": verdict(f) == "breaks the set",
              "changes": [{"card": c, "from": a, "to": b} for c, a, b in f.changes()],
              "swaps_kept": f.steps, "tried": f.tried} for f in s.found]
    return {"bar": 100 * BAR, "games_played": s.games_played, "pool": shown(s.written) if s.written else None,
            "decks": decks}


def strongest(s: DeckSearch) -> Found:
    return max(s.found, key=lambda f: f.best_score.value)


def terminal_table(s: DeckSearch) -> list[list[str]]:
    rows = [["deck", "starter", "best found", "edge (points)", "verdict"]]
    for f in s.found:
        rows.append([f.deck, f.start_score.fmt(pct=True, digits=1), f.best_score.fmt(pct=True, digits=1),
                     f.edge.fmt(pct=True, digits=1, signed=True), verdict(f)])
    return rows


def leans_on(f: Found, most: int = 6) -> str:
    """The list's biggest changes first (a line cannot hold them all; the deck's table below does)."""
    changes = sorted(f.changes(), key=lambda c: -abs(c[2] - c[1]))
    lean = ", ".join(f"{c} {a}→{b}" for c, a, b in changes[:most]) or "no change"
    more = len(changes) - most
    return lean + (f" and {more} smaller change{'s' if more > 1 else ''} (its table below)" if more > 0 else "")


def findings(s: DeckSearch) -> list[str]:
    top = strongest(s)
    broken = [f.deck for f in s.found if verdict(f) == "breaks the set"]
    lean = leans_on(top)
    out = [f"- **The strongest deck found is {top.deck}'s**: {top.best_score.fmt(pct=True, digits=1)} against the "
           f"field, {top.edge.fmt(pct=True, digits=1, signed=True)} points over its starter deck "
           f"({top.start_score.fmt(pct=True, digits=1)}); it leans on {lean}.",
           f"- " + (f"**The set breaks**: {', '.join(broken)} can be built to beat the field by more than "
                    f"{100 * BAR - 50:.0f} points." if broken else
                    f"No deck found beats the field by more than {100 * BAR - 50:.0f} points with its whole interval "
                    f"(the bar: {100 * BAR:.0f}%); "
                    + ("none is above it at all." if all(verdict(f) == "within the bar" for f in s.found)
                       else "some are unsettled: more games would decide.")),
           *([f"- The lists found that beat their start on fresh seeds ({', '.join(s.adopted()) or 'none'}) are "
              f"written as the pool `{s.written.stem}`."] if s.written else []),
           "- A search finds a better deck only among the swaps it tries, with the players named below: a "
           "stronger deck may exist, and another player may build or pilot decks differently."]
    return out


def report_lines(s: DeckSearch) -> list[str]:
    lines = [f"# {s.game.title}: which deck breaks the game?", "", "## Findings", "", *findings(s), "",
             f"Rests on: {spec_words(s.game, s.spec)}; the field: {', '.join(s.field)} (each deck searched meets "
             "the others as they are).", "", "## Method", "",
             f"Each deck's search starts from its list and tries, step by step, random swaps of one copy (a card out, "
             f"another of its faction's or the neutral cards in; the deck's size kept, at most {s.most} copies of a "
             "card, the Banner's set-up cards kept), keeping the best swap when it scores higher against the field. "
             f"Every candidate plays each other deck in both seat orders, {s.n:,} games per pairing, on the same "
             f"seeds (seed {s.spec.seed}). The starting deck and the deck found are then replayed on fresh seeds "
             f"(seed {s.spec.seed} + 7919), {s.verify_n:,} games per pairing and seat order, paired game by game: "
             "the scores (share of games won, 95% interval) and edges (points) below; every pairing and seat order "
             "plays game i from the same deal, so the intervals take the deal as the independent unit. A deck "
             "breaks the set when "
             f"its whole interval lies above {100 * BAR:.0f}%. {s.games_played:,} games in all. See "
             "`sim/analysis/decksearch.py`.", "", "## Each deck", ""]
    body = [[f.deck, f.start_score.fmt(pct=True, digits=1), f.best_score.fmt(pct=True, digits=1),
             f.edge.fmt(pct=True, digits=1, signed=True), verdict(f), f"{f.steps} of {f.tried}"] for f in s.found]
    lines += layout.table(["deck", "starter vs field", "best found vs field", "edge (points)", "verdict",
                           "swaps kept (of tried)"], body) + [""]
    for f in sorted(s.found, key=lambda f: -f.best_score.value):
        lines += [f"## {f.deck}: the deck found", ""]
        if f.changes():
            lines += layout.table(["card", "starter copies", "found copies"],
                                  [[c, str(a), str(b)] for c, a, b in f.changes()]) + [""]
        else:
            lines += ["No swap tried scored higher than the starter deck.", ""]
        lines += layout.table(["against", "starter", "found"],
                              [[opp, f"{100 * a:.1f}%", f"{100 * b:.1f}%"] for opp, (a, b) in f.by_opponent.items()])
        lines += ["", f"The whole list found: " + ", ".join(f"{c} ×{n}" for c, n in f.best.items()) + ".", ""]
    return lines
