"""Drarkane's elements for `dsim ablate`: each dragon card, each Treasures objective, each special battle card.

Read from the rules data (`dragons`, `objectives`, `cards`, `removed_cards`), so a changed list gives its own
elements.

- Dragons (group "dragons"): remove = the card taken out of the dragon deck; neutral = the card replaced by a
  dragon of its colour's average resistance and Terror (rounded), so the deck keeps its size and colours. A
  dragon that already is its colour's average has an idle neutral arm (it reports exactly zero). No force: a
  dragon cannot be put in every game without copying it, and the deck is reshuffled every round.
- Treasures objectives (group "objectives (treasures on)"): every mode turns the Treasures expansion on.
  remove = treasures on, the card taken out of the objective deck; neutral = the same overrides: the deck is
  never dealt out (two objectives per player out of twenty), so taking one card out IS replacing it by the
  others in proportion, with the same chance of every other card. No force: the only deck that deals it to
  everybody is one of copies, and the Treasure zone would then hold several copies claimed at once.
- Special cards (group "special cards": the Knights together, the Queen, the King, the Mercenary, the Egg, each
  Wizard): remove = the cards set aside at every player count (`removed_cards`), except where that would leave
  too few cards to deal (then as many as fit are set aside, the rest stay); neutral = each card becomes a plain
  arcana card of middling strength (5, then 6) in a non-trump colour (in turn), so the deck keeps its size;
  force = the Knights only: none of them is set aside at any player count (the others are never set aside).
"""

from __future__ import annotations

from sim.engine.game import Element
from sim.games.drarkane.records import (
    ARCANA, COLOUR_NAMES, EGG, MERCENARY, N_COLOURS, OBSCURE, WIZ_HIGH, WIZ_LOW,
)

MIDDLE = (5, 6)          # middling arcana strengths for neutral cards
SPECIAL = {OBSCURE: None, MERCENARY: "Mercenary", EGG: "Dragon Egg", WIZ_LOW: "low Wizard", WIZ_HIGH: "high Wizard"}
OBSCURE_NAMES = {11: "Knights", 12: "Queen", 13: "King"}


def _dragons(v) -> list[Element]:
    dragons = [list(d) for d in v["dragons"]]
    out, seen = [], {}
    for i, (colour, resist, terror) in enumerate(dragons):
        same = [d for d in dragons if d[0] == colour]
        avg = [colour, round(sum(d[1] for d in same) / len(same)), round(sum(d[2] for d in same) / len(same))]
        name = f"{COLOUR_NAMES[colour]} dragon {resist}/{terror}"
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name += f" #{seen[name]}"
        rest = dragons[:i] + dragons[i + 1:]
        remove = (("dragons", rest),) if rest else ()
        neutral = (("dragons", dragons[:i] + [avg] + dragons[i + 1:]),)
        out.append(Element(name, "dragons", remove, neutral, ()))
    return out


def _objectives(v) -> list[Element]:
    from sim.games.drarkane.records import OBJECTIVE_NAMES
    objectives = [list(o) for o in v["objectives"]]
    out, seen = [], {}
    for i, (timing, cond, param, points) in enumerate(objectives):
        text = OBJECTIVE_NAMES.get(cond, f"condition {cond}").format(p=param)
        name = f"objective: {text} ({points} points)"
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name += f" #{seen[name]}"
        rest = objectives[:i] + objectives[i + 1:]
        remove = (("treasures", True), ("objectives", rest))
        out.append(Element(name, "objectives (treasures on)", remove, remove, ()))
    return out


def _fits(v, players: int, removed: set) -> bool:
    """Whether this many players can still be dealt with these cards set aside."""
    if players == 2 and v["fallen_king"]:
        need = v["hand_sizes"][0] * 2 + v["fallen_king_deck"]
    else:
        need = v["hand_sizes"][players - 2] * players
    return len(v["cards"]) - len(removed) >= need


def _specials(v) -> list[Element]:
    cards = [list(c) for c in v["cards"]]
    removed = [list(r) for r in v["removed_cards"]]
    groups: dict[str, list[int]] = {}
    for c, (kind, _, strength) in enumerate(cards):
        if kind == ARCANA:
            continue
        name = OBSCURE_NAMES.get(strength, f"obscure {strength}") if kind == OBSCURE else SPECIAL.get(kind, f"kind {kind}")
        groups.setdefault(name, []).append(c)
    colours = [c for c in range(N_COLOURS) if c != v["trump_colour"]]
    out = []
    for name, ids in groups.items():
        new_removed = []
        for players, row in zip(range(2, 7), removed):
            row = list(row)
            for c in ids:
                if c not in row and _fits(v, players, set(row) | {c}):
                    row.append(c)
            new_removed.append(row)
        plain = [list(c) for c in cards]
        for k, c in enumerate(ids):
            plain[c] = [ARCANA, colours[k % len(colours)], MIDDLE[(k // len(colours)) % len(MIDDLE)]]
        kept = [[c for c in row if c not in ids] for row in removed]
        force = (("removed_cards", kept),) if kept != removed else ()
        remove = (("removed_cards", new_removed),) if new_removed != removed else ()
        out.append(Element(name, "special cards", remove, (("cards", plain),), force))
    return out


def elements(rules) -> list[Element]:
    v = rules.ruleset.values
    return _dragons(v) + _objectives(v) + _specials(v)
