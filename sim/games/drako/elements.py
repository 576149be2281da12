"""Drako's elements for `dsim ablate`: every card kind of each deck.

A kind is removed (the deck shrinks by its copies), or replaced by the deck's other kinds in proportion to
their counts (largest-remainder rounding), so the deck keeps its size and the dwarves' clock (they lose when
their deck and hand run dry) is not what gets measured. A card kind is in every game already: nothing to force.
"""

from __future__ import annotations

from sim.engine.game import Element, Rules, shares

DECKS = (("dragon_deck", "dragon"), ("dwarf_deck", "dwarf"))


def split(text: str) -> tuple[int, str]:
    """`"6 x attack 2 / move 1"` → (6, "attack 2 / move 1")."""
    count, rest = text.split(" x ", 1)
    return int(count), rest.strip()


def neutral_deck(deck: list[str], k: int) -> list[str]:
    """The deck without kind k, its copies spread over the other kinds in proportion."""
    kinds = [split(t) for t in deck]
    others = [i for i in range(len(kinds)) if i != k]
    extra = shares(kinds[k][0], [kinds[i][0] for i in others])
    return [f"{kinds[i][0] + e} x {kinds[i][1]}" for i, e in zip(others, extra)]


def elements(rules: Rules) -> list[Element]:
    values = rules.ruleset.values
    out, names = [], set()
    for key, side in DECKS:
        deck = list(values[key])
        for k, text in enumerate(deck):
            _, label = split(text)
            name = f"{side} {label}"
            n = 2
            while name in names:                # a deck may list the same card twice
                name, n = f"{side} {label} ({n})", n + 1
            names.add(name)
            if len(deck) == 1:                  # nothing to remove it from or replace it with
                continue
            rest = deck[:k] + deck[k + 1:]
            out.append(Element(name, f"{side} cards", remove=((key, rest),),
                               neutral=((key, neutral_deck(deck, k)),)))
    return out
