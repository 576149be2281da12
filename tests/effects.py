"""Checks on the effects `dsim ablate` and `dsim sensitivity` measure (`sim.analysis.arms.Effect`)."""


def no_change(e) -> bool:
    """The arm played exactly the base's games: a difference of exactly zero with no interval around it."""
    return e.identical and e.result.diff.value == 0 and e.result.diff.lo == e.result.diff.hi == 0
