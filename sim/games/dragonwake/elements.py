"""Dragonwake's elements for `dsim ablate`: each artifact, power and event card of the advanced modules.

The cards are found in the rules data, not listed here: a rule `artifact_X`, `power_X` or `event_X` is a card
count of its module when one more copy makes that module's deck one card larger (`artifact_counts`,
`power_deck`, `event_deck` of the typed rules). A power added to the rules file and to `power_deck` therefore
shows up as an element without any edit here.

Modes, for a card of module M (artifacts, powers or events):
- remove:  M on, this card's count 0 (artifacts go back to gold, a smaller power or event deck);
- neutral: M on, this card replaced by a card of no special weight, the same number of cards in all: events by
  blank events (an event with no effect); artifacts and powers by the module's other cards in proportion
  (largest remainder), since neither has a blank card;
- force:   M on, the module's whole deck made of this card (same deck size), so that it is in every game:
  every artifact found is this one, every event drawn is this one, every player dealt a power gets this one.
Against rules with M off, every mode also measures turning M on; run against the `advanced` variant (or with
the module on) to weigh the card alone.
"""

from __future__ import annotations

import dataclasses

from sim.engine.game import Element, shares

# module flag -> (key prefix, group name, the number of cards of the module's deck under typed rules)
MODULES = {
    "artifacts": ("artifact_", "artifacts", lambda t: sum(t.artifact_counts())),
    "powers": ("power_", "powers", lambda t: len(t.power_deck())),
    "events": ("event_", "events", lambda t: len(t.event_deck())),
}
NAMES = {"artifact_candle": "Candle of Clairvoyance", "artifact_fate": "Figure of Fate",
         "event_blank": "blank event", "power_chosen_one": "Chosen One"}
BLANK = {"events": "event_blank"}      # the module's card of no effect, if it has one


def card_keys(typed, module: str) -> list[str]:
    """The rules that count one card of a module, in rules order."""
    prefix, _, size = MODULES[module]
    on = dataclasses.replace(typed, **{module: True})
    base = size(on)
    keys = []
    for f in dataclasses.fields(typed):
        value = getattr(typed, f.name)
        if not f.name.startswith(prefix) or isinstance(value, bool) or not isinstance(value, int):
            continue
        if size(dataclasses.replace(on, **{f.name: value + 1})) == base + 1:
            keys.append(f.name)
    return keys


def in_proportion(counts: dict[str, int], total: int) -> dict[str, int]:
    """`total` cards shared among `counts` in proportion to them (largest remainder, ties in order)."""
    weight = sum(counts.values())
    if weight == 0:
        return {}
    return dict(zip(counts, shares(total, list(counts.values()))))


def name_of(key: str) -> str:
    return NAMES.get(key) or key.split("_", 1)[1].replace("_", " ").title()


def elements(rules) -> list[Element]:
    typed = rules.typed
    out = []
    for module, (_, group, _) in MODULES.items():
        keys = card_keys(typed, module)
        counts = {k: getattr(typed, k) for k in keys}
        total = sum(counts.values())
        for key in keys:
            on = ((module, True),)
            remove = on + ((key, 0),)
            blank = BLANK.get(module)
            if key == blank:
                neutral = ()                     # already the card of no effect
            elif blank in counts:
                neutral = remove + ((blank, counts[blank] + counts[key]),)
            else:
                others = {k: c for k, c in counts.items() if k != key}
                share = in_proportion(others, counts[key])
                neutral = (remove + tuple((k, c + share[k]) for k, c in others.items())) if share else ()
            force = on + tuple((k, total if k == key else 0) for k in keys) if total else ()
            out.append(Element(name_of(key), group, remove, neutral, force))
    return out
