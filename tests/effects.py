"""Checks on the effects `dsim ablate` and `dsim sensitivity` measure (`sim.analysis.arms.Effect`)."""


def no_change(e) -> bool:
    """The arm played exactly the base's games: a difference of exactly zero, no game's value changed (the
    interval is the exact bound on a change no game showed), and no change detected."""
    return e.identical and e.result.identical and e.result.diff.value == 0 and not e.detected
