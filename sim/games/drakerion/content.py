"""Drakerion's card pool as tunable content (`dsim balance`): the numbers a tuner may change, and a card file
written with some of them changed; and its decks as lists a deck search may rebuild (`dsim decks`). The file is edited as text, so its comments and layout stay as they were."""

from __future__ import annotations

import re
from pathlib import Path

from collections import Counter

from sim.engine.game import DeckBuilding, Tunable
from sim.games.drakerion.cards import Pool, load_pool
from sim.games.drakerion.elements import deck_block
from sim.games.drakerion import rules
from sim.games.drakerion.rules import pool_file

# field -> (lowest value, +1 if a higher value makes the card stronger)
CHARACTER_FIELDS = {"cost": (0, -1), "melee": (0, 1), "ranged": (0, 1), "riposte": (0, 1), "hp": (1, 1)}
OTHER_FIELDS = {"cost": (0, -1)}           # events and attachments: their cost only
NAME = re.compile(r"[a-z][a-z0-9_]*")


def tunables(pool: Pool) -> list[Tunable]:
    """Every deck card's tunable fields, in file order, with the decks holding it and their copies."""
    held: dict[str, list[tuple[str, int]]] = {}
    for deck, d in pool.decks.items():
        for card, copies in d["cards"].items():
            held.setdefault(card, []).append((deck, copies))
    out = []
    for c in pool.cards:
        if c["name"] not in held:
            continue
        fields = CHARACTER_FIELDS if c["type"] == "character" else OTHER_FIELDS
        decks = tuple(d for d, _ in held[c["name"]])
        copies = sum(n for _, n in held[c["name"]])
        for field, (low, stronger) in fields.items():
            out.append(Tunable(c["name"], field, c[field], low, 99, decks, copies, stronger))
    return out


def named_file(name: str) -> Path:
    if not NAME.fullmatch(name):
        raise ValueError(f"a pool name is lower-case letters, digits and _ (starting with a letter), got '{name}'")
    return rules.POOLS / f"{name}.toml"      # read at call time: tests point it at a folder of their own


def edited(text: str, changes: dict[tuple[str, str], int]) -> str:
    """The card file's text with each (card, field) set to its new value: the field's line replaced, or added
    to the card's block (before the next table header, so it stays the card's)."""
    lines = text.splitlines()
    starts = {}
    for i, line in enumerate(lines):
        m = re.match(r'\s*name\s*=\s*"(.*)"\s*$', line)
        if m and i and any(lines[j].strip() == "[[card]]" for j in range(max(0, i - 3), i)):
            starts[m[1]] = i
    for (card, field), value in sorted(changes.items(), key=lambda kv: -starts.get(kv[0][0], -1)):
        if card not in starts:
            raise ValueError(f"no card '{card}' in the card file")
        i = starts[card]
        end = next((j for j in range(i + 1, len(lines)) if lines[j].lstrip().startswith("[")), len(lines))
        at = next((j for j in range(i + 1, end) if re.match(rf"\s*{field}\s*=", lines[j])), None)
        if at is None:
            lines.insert(_slot(lines, i, end), f"{field} = {value}")
        else:
            lines[at] = f"{field} = {value}"
    return "\n".join(lines) + "\n"


def _slot(lines: list[str], start: int, end: int) -> int:
    """Where a new number goes in a card's block: before its lists (abilities, keywords...), else after its last
    line."""
    lists = re.compile(r"\s*(abilities|keywords|traits|setup|attach_except)\s*=")
    at = next((j for j in range(start + 1, end) if lists.match(lines[j])), None)
    if at is not None:
        return at
    last = start
    for j in range(start + 1, end):
        if lines[j].strip() and not lines[j].lstrip().startswith("#"):
            last = j
    return last + 1


def write_pool(cards: str, changes: dict[tuple[str, str], int], to: Path, header: tuple[str, ...] = ()) -> Pool:
    """The pool the `cards` rule names, with `changes`, written to `to` (header lines as comments first) and read
    back (a change the card file's checks refuse is a ValueError)."""
    return _written(edited(pool_file(cards).read_text(), changes), to, header)


DECK_TYPES = ("character", "attachment", "event")


def deck_building(pool: Pool, deck: str, most: int, size: int) -> DeckBuilding:
    """A deck of `deck`'s faction: its faction's and the neutral characters, attachments and events, `size`
    cards, at most `most` copies of one, keeping the copies its Banner sets up."""
    d = pool.decks[deck]
    cards = tuple(c["name"] for c in pool.cards
                  if c["faction"] in (d["faction"], "neutral") and c["type"] in DECK_TYPES)
    return DeckBuilding(cards, size, most, dict(Counter(pool.card(d["banner"])["setup"])))


def write_deck(cards: str, like: str, name: str, chosen: dict[str, int], to: Path) -> Pool:
    """The card file the `cards` rule names with one more deck, `name`: `like`'s Banner, City and Manoeuvres with
    the cards `chosen`; written to `to` and read back (the loader's checks apply)."""
    source = pool_file(cards)
    d = load_pool(source).decks[like]
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_text(source.read_text() + "\n" + "\n".join(deck_block(name, d, d["banner"], chosen)))
    return load_pool(to)


def with_lists(text: str, lists: dict[str, dict[str, int]]) -> str:
    """The card file's text with each named deck's `[deck.cards]` table replaced by its new list (the rest of
    the file, comments included, as it was)."""
    lines = text.splitlines()
    out, deck, skipping = [], None, False
    for line in lines:
        head = line.strip()
        if head.startswith("["):
            skipping = False
            if head == "[[deck]]":
                deck = None
            elif head == "[deck.cards]" and deck in lists:
                out.append(line)
                out += [f'"{card}" = {copies}' for card, copies in lists[deck].items()]
                skipping = True
                continue
        m = re.match(r'\s*name\s*=\s*"(.*)"\s*$', line)
        if m and not skipping:
            deck = m[1]
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


def write_lists(cards: str, lists: dict[str, dict[str, int]], to: Path, header: tuple[str, ...] = ()) -> Pool:
    """The pool the `cards` rule names with the decks' new lists, written to `to` (header lines as comments
    first) and read back."""
    return _written(with_lists(pool_file(cards).read_text(), lists), to, header)


def _written(text: str, to: Path, header: tuple[str, ...]) -> Pool:
    """A card file's text written to `to` under its header comment lines, read back (the loader's checks
    apply)."""
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_text("".join(f"# {line}\n" for line in header) + ("\n" if header else "") + text)
    return load_pool(to)
