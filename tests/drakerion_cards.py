"""Card rows for hand-written Drakerion tests: a card with the given fields, and an ability on it (the other
fields zero, no ability, no condition)."""

from __future__ import annotations

import numpy as np

from sim.games.drakerion import records as R


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
