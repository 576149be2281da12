"""Drakerion's elements for `dsim ablate`: every distinct card of the two seats' decks (characters,
attachments, events), read from the rules' `seat0_deck` / `seat1_deck`.

- neutral: every copy replaced by a vanilla character of the same cost (the `vanilla_seatN` rule), so the
  deck keeps its size and curve and the weight measured is the card's text and stats, not a missing slot;
- remove: the card out of the deck, its copies refilled by the deck's other cards in proportion (largest
  remainder, so the deck keeps the 30 cards the `deck_size` rule demands);
- force: EXTRA more copies of the card, the slots taken from the deck's other cards in proportion.

The rules cannot edit a deck, so remove and force point the `cards` rule at `cards_ablate.toml`: the built-in
pool (cards.toml, verbatim) followed by one derived deck per (deck, card, mode) — and, when a removed card is
one of its Banner's set-up cards, a copy of the Banner whose set-up takes instead the deck's other character
closest in cost (the most copies first). The original cards keep their ids there, so the untouched seat plays exactly as before.
Both modes need the built-in pool and one deck per seat: with another card file (the default starter pool
included) or a field of decks only the neutral mode is offered.

`cards_rulecost.toml` (the `cards` rule's alternative in rules.toml) is the built-in pool with every
character costed strictly by the designers' rule of thumb, (melee + riposte + HP) / 3 rounded, at least 1.

Both files are generated from cards.toml; after editing it, rerun
`python -m sim.games.drakerion.elements` (a test fails while they are stale).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections import Counter
from pathlib import Path

from sim.engine.game import Element, shares

HERE = Path(__file__).parent
SOURCE = HERE / "cards.toml"
ABLATE_FILE = HERE / "cards_ablate.toml"
RULECOST_FILE = HERE / "cards_rulecost.toml"
EXTRA = 3                       # copies a forced card gains
STAMP = "# generated from cards.toml sha256 "


# ---- deck arithmetic ------------------------------------------------------------------------------


def spread(counts: dict[str, int], amount: int) -> dict[str, int]:
    """`amount` copies shared among `counts` in proportion to their copies (largest remainder, ties by
    deck order): {card: share}."""
    return dict(zip(counts, shares(amount, list(counts.values()))))


def removed(cards: dict[str, int], card: str) -> dict[str, int]:
    """The deck without `card`: its copies go to the other cards in proportion."""
    others = {c: n for c, n in cards.items() if c != card}
    share = spread(others, cards[card])
    return {c: n + share[c] for c, n in others.items()}


def forced(cards: dict[str, int], card: str, need: Counter) -> dict[str, int]:
    """The deck with EXTRA more copies of `card`, taken from the other cards in proportion (never below
    what the Banner's set-up needs; the next card in line gives instead)."""
    others = {c: n for c, n in cards.items() if c != card}
    share = spread(others, EXTRA)
    out = dict(cards)
    out[card] += EXTRA
    owed = 0
    for c in others:
        give = min(share[c], out[c] - max(need[c], 0))
        out[c] -= give
        owed += share[c] - give
    for c in sorted(others, key=lambda c: -out[c]):      # rarely needed: set-up cards kept whole
        give = min(owed, out[c] - max(need[c], 1))
        if give > 0:
            out[c] -= give
            owed -= give
    assert owed == 0 and sum(out.values()) == sum(cards.values())
    return {c: n for c, n in out.items() if n > 0}


def removed_name(deck: str, card: str) -> str:
    return f"{deck} without {card}"


def forced_name(deck: str, card: str) -> str:
    return f"{deck} with {EXTRA} more {card}"


# ---- the generated files ---------------------------------------------------------------------------


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r}")


def _card(raw: dict) -> list[str]:
    return ["[[card]]", *(f"{k} = {_toml(v)}" for k, v in raw.items()), ""]


def deck_block(name: str, d: dict, banner: str, cards: dict[str, int]) -> list[str]:
    return ["[[deck]]", f"name = {_toml(name)}", f"faction = {_toml(d['faction'])}", f"banner = {_toml(banner)}",
            f"city = {_toml(d['city'])}", f"manoeuvres = {_toml(d['manoeuvres'])}", "[deck.cards]",
            *(f"{_toml(c)} = {n}" for c, n in cards.items()), ""]


def _stamp(text: str) -> str:
    return STAMP + hashlib.sha256(text.encode()).hexdigest()[:16]


def ablate_text(source: Path = SOURCE) -> str:
    """cards.toml verbatim, then each deck's derived decks (and Banner copies) for remove and force."""
    text = source.read_text()
    data = tomllib.loads(text)
    by_name = {c["name"]: c for c in data["card"]}
    lines = [_stamp(text), "# the built-in pool and, after it, one deck per (deck, card) removed or forced;",
             "# written by `python -m sim.games.drakerion.elements`: do not edit", "", text.rstrip("\n"), "",
             "# ============================== generated: decks for dsim ablate ==============================", ""]
    for d in data["deck"]:
        cards = d["cards"]
        banner = by_name[d["banner"]]
        setup = list(banner.get("setup", []))
        need = Counter(setup)
        for card in cards:
            deck = removed(cards, card)
            name = d["banner"]
            if card in setup:
                cost = by_name[card].get("cost", 0)
                chars = [c for c in deck if by_name[c]["type"] == "character" and deck[c] > need[c]]
                spare = min(chars, key=lambda c: (abs(by_name[c].get("cost", 0) - cost), need[c] - deck[c],
                                                  chars.index(c)))
                copy = dict(banner)
                copy["name"] = name = f"{d['banner']} (no {card})"
                copy["setup"] = [spare if s == card else s for s in setup]
                lines += _card(copy)
            lines += deck_block(removed_name(d["name"], card), d, name, deck)
            lines += deck_block(forced_name(d["name"], card), d, d["banner"], forced(cards, card, need))
    return "\n".join(lines)


def rule_cost(card: dict) -> int:
    return max(1, round((card.get("melee", 0) + card.get("riposte", 0) + card.get("hp", 0)) / 3))


def rulecost_text(source: Path = SOURCE) -> str:
    """cards.toml with each character's cost set by the rule of thumb (only `cost = ` lines change)."""
    text = source.read_text()
    data = tomllib.loads(text)
    costs = iter([rule_cost(c) if c["type"] == "character" and c.get("cost", 0) > 0 else None for c in data["card"]])
    out, current = [], None
    for line in text.split("\n"):
        if line.strip() == "[[card]]":
            current = next(costs)
        elif line.strip().startswith("[[") or line.strip().startswith("[deck"):
            current = None
        m = re.match(r"^cost\s*=\s*\d+\s*$", line)
        if m and current is not None:
            line = f"cost = {current}"
        out.append(line)
    return "\n".join([_stamp(text), "# the built-in pool, every character costed by (melee + riposte + HP) / 3 "
                      "rounded (at least 1)", "# written by `python -m sim.games.drakerion.elements`: do not edit",
                      "", *out])


def stale() -> list[str]:
    """Generated files that no longer match cards.toml."""
    return [p.name for p, make in ((ABLATE_FILE, ablate_text), (RULECOST_FILE, rulecost_text))
            if not p.exists() or p.read_text() != make()]


def write() -> None:
    ABLATE_FILE.write_text(ablate_text())
    RULECOST_FILE.write_text(rulecost_text())


def _fresh() -> bool:
    """The ablation file was generated from the current cards.toml (checked by its stamp, cheaply)."""
    try:
        with open(ABLATE_FILE) as f:
            first = f.readline().rstrip("\n")
    except FileNotFoundError:
        return False
    return first == _stamp(SOURCE.read_text())


def file_value(path: Path) -> str:
    """A `cards` rule value naming `path`: relative to the current folder when it lies inside it."""
    rel = os.path.relpath(path)
    return rel if not rel.startswith("..") else str(path)


# ---- the elements -----------------------------------------------------------------------------------


def elements(rules) -> list[Element]:
    """Every distinct card of the decks each seat plays (a field seat: every deck it meets), one element per
    (seat, deck, card)."""
    v = rules.ruleset.values
    pool = rules.typed.pool()
    pairs = rules.typed.pairings()
    seats = [(s, deck) for s in (0, 1) for deck in dict.fromkeys(p[s] for p in pairs)]
    count = Counter(c for _, deck in seats for c in pool.deck_cards(deck))
    editable = not v["cards"] and not rules.typed.fielded() and _fresh()
    cards = file_value(ABLATE_FILE)
    out = []
    for seat, deck in seats:
        for card in pool.deck_cards(deck):
            if count[card] == 1:
                name = card
            else:
                name = f"{card} ({deck})" if len({d for _, d in seats}) > 1 else f"{card} (seat {seat})"
            can_edit = editable and not v[f"vanilla_seat{seat}"]
            out.append(Element(
                name, f"{deck} cards (seat {seat})",
                remove=(("cards", cards), (f"seat{seat}_deck", removed_name(deck, card))) if can_edit else (),
                neutral=((f"vanilla_seat{seat}", card),),
                force=(("cards", cards), (f"seat{seat}_deck", forced_name(deck, card))) if can_edit else ()))
    return out


if __name__ == "__main__":
    write()
    print(f"wrote {ABLATE_FILE} and {RULECOST_FILE}")
