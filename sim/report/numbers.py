"""A report's figures as plain data for `--format json`: numbers and booleans, never formatted strings, in the
unit the report prints them in (rates and shares in %, changes of them in points, means in their own unit), with
the same field names in every command (README, "JSON for scripts").

An estimate is `{"value", "low", "high", "n", "unit"}`; a change is `{"value", "low", "high", "low_open",
"high_open", "unit"}` (an open end excludes its bound: a detected change's near end at 0); a number that does not
exist (no game decided, one game only) is null.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np


def mean_digits(*values: float) -> int:
    """Decimals for a mean and its interval: one, as counts, turns and coins read; more only for a quantity under
    0.1, to its first significant digit (at most three), so that it does not read 0.0; one again for a quantity
    that three would still show as zeros (none in a million games: "0.0 [0.0, 0.0]", not "0.000 [0.000, 0.000]")."""
    top = max((abs(v) for v in values if v == v), default=0.0)
    return 1 if top >= 0.1 or top < 0.0005 else min(3, -math.floor(math.log10(top)))


def estimate_text(e, pct: bool) -> str:
    """An estimate with its interval as the reports print it: a rate in % with one decimal ("45.2% [44.9, 45.5]"),
    a mean in its unit with `mean_digits` ("3.7 [3.5, 4.0]")."""
    return e.fmt(pct=True, digits=1) if pct else e.fmt(digits=mean_digits(e.value, e.lo, e.hi))


def num(x) -> float | None:
    """A float, or None for NaN and infinities (JSON has neither)."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def estimate(e, pct: bool) -> dict:
    """An estimate with its 95% interval: in % for a rate or share (`pct`), else as measured."""
    scale = 100.0 if pct else 1.0
    n = getattr(e, "n", None)
    return {"value": num(scale * e.value), "low": num(scale * e.lo), "high": num(scale * e.hi),
            "n": None if n is None else int(n), "unit": "%" if pct else ""}


def change(e, pct: bool) -> dict:
    """A change with its interval: in points for a rate or share (`pct`), else as measured."""
    scale = 100.0 if pct else 1.0
    return {"value": num(scale * e.value), "low": num(scale * e.lo), "high": num(scale * e.hi),
            "low_open": bool(getattr(e, "lo_open", False)), "high_open": bool(getattr(e, "hi_open", False)),
            "unit": "points" if pct else ""}


def plain(obj):
    """Anything a report hands over, as JSON-ready Python: numpy scalars and arrays, NaN as null, paths as text."""
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, np.ndarray)):
        return [plain(v) for v in obj]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return num(obj)
    if isinstance(obj, Path):
        return str(obj)
    return obj
