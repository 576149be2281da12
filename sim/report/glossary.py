"""Plain words for the terms the reports use: each report's HTML ends with the ones its own text contains."""

from __future__ import annotations

import html
import re

TERMS = {
    "equilibrium": "Both sides (or every seat) playing the mix of strategies from which neither can do better by "
                   "changing alone, among the strategies measured: what the game gives when everyone plays well.",
    "best response": "The strategy that does best against what the other side plays now.",
    "bracket": "The range the figure at equilibrium can still take: the table's interval widened by what a fresh "
               "best response still gains for either side. A wide bracket means the answer is not settled.",
    "converged": "Fresh best responses no longer gain more than the tolerance: the equilibrium is settled.",
    "double oracle": "The way the equilibrium is found: solve the table, add each side's best response to it, "
                     "solve again, until no new strategy gains.",
    "payoff table": "Every strategy of one side played against every strategy of the other, each cell a win rate.",
    "mixture": "Playing several strategies at random in fixed proportions (the weights).",
    "regret": "How much a seat would gain by switching strategy alone while the others keep theirs.",
    "search player": "A player that tries each move by playing many quick games from it (playouts) and picks "
                     "the best; an informed one plays those games against the strategies it meets.",
    "playouts": "The quick games a search player plays from each candidate move before choosing.",
    "paired": "Both arms of a comparison play the same shuffled decks (the same seeds), so the difference "
              "is measured without deal-to-deal noise.",
    "bootstrap": "Resampling the games played to see how much a figure would vary with other games.",
    "simultaneous": "Intervals that hold together at 95% across every change in the report, not each alone.",
    "Holm": "A correction that keeps a whole family of verdicts at 95% together.",
    "ladder": "The same figure under stronger and stronger play: random, the defaults, best responses, "
              "equilibrium, search.",
    "ablation": "Replacing one card kind at a time to see how much the figure rests on it.",
    "neutralised": "A card replaced by one that does nothing, so the deck keeps its size.",
    "sensitivity": "How much each assumed rule value (one the rulebook lost) moves the figure.",
    "exploitable": "How much a best response gains against a strategy: 0 for a strategy nobody can beat.",
    "Bradley–Terry": "A rating model in which every strategy has one strength; when it does not fit, the "
                     "strengths depend on who meets whom.",
    "tuned": "A strategy whose weights were set by a search for the best play; '+2' marks the round it was "
             "found in.",
    "line-up": "Which strategy each side or seat plays.",
    "seat 0": "The first player to act.",
}


def used(text: str) -> list[str]:
    """The glossary's terms that `text` contains, in the glossary's order."""
    return [t for t in TERMS if re.search(rf"\b{re.escape(t)}", text, re.IGNORECASE)]


def glossary_html(text: str) -> str:
    """A closed "Words used here" box for the terms `text` contains ("" when none)."""
    terms = used(text)
    if not terms:
        return ""
    items = "".join(f"<dt>{html.escape(t)}</dt><dd>{html.escape(TERMS[t])}</dd>" for t in terms)
    return f"<details class='glossary'><summary>Words used here</summary><dl>{items}</dl></details>"
