"""Card rows for hand-written Drakerion tests: a card with the given fields, and an ability on it (the other
fields zero, no ability, no condition); and small card files (TOML) for the loader's tests."""

from __future__ import annotations

import numpy as np

from sim.games.drakerion import records as R

# The rules every report before the starter set rests on: the first-draft pool (cards = ""), ember against tide.
FIRST_DRAFT_RULES = "experiments/rules/drakerion_first_draft.toml"


def card(**kw) -> np.ndarray:
    row = np.zeros(R.CARD_WIDTH, np.int64)
    row[R.CD_ABIL:] = -1
    for k, v in kw.items():
        row[getattr(R, "CD_" + k.upper())] = v
    return row


def ability(row, a, **kw) -> np.ndarray:
    base = R.CD_ABIL + a * R.ABIL_WIDTH
    row[base:base + R.ABIL_WIDTH] = 0
    row[base + R.AB_CARD_TYPE] = -1
    for k, v in kw.items():
        row[base + getattr(R, "AB_" + k.upper())] = v
    row[R.CD_NABIL] = max(row[R.CD_NABIL], a + 1)
    return row


# a one-faction card file: banner B (set-up cards `setup`), city C, a 1-cost character S, then `extra` cards
SMALL_POOL = '''
[meta]
game = "drakerion"
[[card]]
name = "B"
faction = "ember"
type = "banner"
setup = {setup}
[[card]]
name = "C"
faction = "ember"
type = "city"
[[card]]
name = "S"
faction = "ember"
type = "character"
cost = 1
hp = 2
{extra}
[[deck]]
name = "d"
faction = "ember"
banner = "B"
city = "C"
manoeuvres = {manoeuvres}
[deck.cards]
{deck_cards}
'''
MANOEUVRES = "\n".join(f'[[card]]\nname = "M{k}"\nfaction = "ember"\ntype = "manoeuvre"\nsubtype = "tactique"\ngold = 2'
                       for k in range(8))
EIGHT = "[" + ", ".join(f'"M{k}"' for k in range(8)) + "]"


def small_card_file(extra: str, deck_cards: str, manoeuvres: str = EIGHT, setup: str = '["S"]') -> str:
    """SMALL_POOL with `extra` cards (the eight manoeuvres are not added: pass MANOEUVRES in `extra`) and a deck
    "d" of `deck_cards` (TOML lines `"name" = copies`)."""
    return SMALL_POOL.format(setup=setup, extra=extra, manoeuvres=manoeuvres, deck_cards=deck_cards)
