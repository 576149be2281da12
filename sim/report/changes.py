"""Paired changes in words, shared by the compare, sensitivity, ablation and ladder reports: the shown interval
with its open ends, the exact bound when no game changed, and what a family's intervals mean."""

from __future__ import annotations

from sim.analysis.intervals import Interval, zero_change_bound
from sim.analysis.intervals_paired import PairedChange


def _bound(x: float, scale: float, spec: str, open_: bool) -> str:
    """One end of an interval; an open end at 0 (a detected change's near end) prints as a bare 0."""
    return "0" if open_ and x == 0 else f"{scale * x:{spec}}"


def interval_text(e: Interval, kind: str, digits: int | None = None) -> str:
    """"+5.2 points (0, +7.4]" for rates (and means of shares: pass kind "rate"), "+0.8 [+0.5, +1.1]" for
    means, in their unit; open ends as the family gives them. Both have one decimal unless that would round the
    interval's width or a non-zero end to nothing (`point_digits`)."""
    if kind == "rate":
        digits = point_digits(e) if digits is None else digits
        scale, spec, unit = 100, f"+.{digits}f", " points"
    else:
        digits = point_digits(e, scale=1) if digits is None else digits
        scale, spec, unit = 1, f"+.{digits}f", ""
    left, right = "(" if e.lo_open else "[", ")" if e.hi_open else "]"
    return (f"{scale * e.value:{spec}}{unit} {left}{_bound(e.lo, scale, spec, e.lo_open)}, "
            f"{_bound(e.hi, scale, spec, e.hi_open)}{right}")


def point_digits(e: Interval, most: int = 3, scale: float = 100) -> int:
    """Decimals of a change in points (or, with scale 1, of a mean in its unit): one, or more while the interval's
    width would round to 0.0 or its two ends would print alike, or, for an interval that leaves out 0, an end or the
    change itself would round to 0 (a change known to lie in [+0.01, +0.04] is not "+0.0 points [+0.0, +0.0]")."""
    digits = 1
    shown = (e.hi - e.lo, e.lo, e.hi, e.value) if e.excludes(0) else (e.hi - e.lo,)
    while digits < most and (any(0 < abs(scale * x) < 0.5 * 10 ** -digits for x in shown if x == x)
                             or same_when_rounded(scale * e.lo, scale * e.hi, digits)):
        digits += 1
    return digits


def same_when_rounded(lo: float, hi: float, digits: int) -> bool:
    """Two different ends that would print alike ("-0.1 [-0.1, -0.1]" for an interval 0.06 wide)."""
    return lo == lo and hi == hi and lo != hi and f"{lo:.{digits}f}" == f"{hi:.{digits}f}"


def change_text(r: PairedChange, shown: Interval, kind: str, digits: int | None = None) -> str:
    """The change as shown, or, when no paired game differs, the exact bound in words (never "[0, 0]")."""
    if not r.identical:
        return interval_text(shown, kind, digits)
    bound = zero_text(r, shown, kind)
    return f"no game changed in {r.n:,}: {bound}" if kind == "rate" else f"no game changed in {r.n:,} ({bound})"


def zero_text(r: PairedChange, shown: Interval, kind: str) -> str:
    """How large a change could hide when no paired game differs: points of a rate, else a share of games."""
    if kind == "rate":
        return f"±{100 * shown.hi:.2g} points at most"
    return f"at most {100 * zero_change_bound(r.n).hi:.2g}% of games could differ unseen"


def family_reading(family: str, members: str) -> str:
    """What the shown intervals are, and what an open end means, once per report."""
    return (f"Every interval is {family}: {members} are one family, so all intervals hold together with "
            "probability at least 95% (each is the change ± the family's critical value times its standard error, "
            "the critical value taken from the largest of the family's correlated errors), and a change is called "
            "detected exactly when its interval leaves out 0. Both ends say how large the change can be. When no "
            "paired game differs, the exact bound says how large a change could hide in that many games.")
