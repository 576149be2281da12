"""`dsim optimize`'s fresh-seed gain is a paired change, and its verdict is read off the interval shown."""

import numpy as np

from sim.analysis.intervals_paired import paired_change
from sim.report.optimize import gain_text


def test_no_fresh_game_scored_differently_is_said_so_not_printed_as_zero_width():
    x = np.random.default_rng(0).random(5000)
    gain = paired_change(x, x.copy())
    assert gain.identical
    assert gain_text(gain) == "none: no fresh game of 5,000 scored differently"       # the old report: [0, 0]


def test_a_real_gain_shows_its_paired_interval():
    rng = np.random.default_rng(1)
    before = rng.normal(0.4, 0.3, 5000)
    after = before + rng.normal(0.02, 0.05, 5000)
    text = gain_text(paired_change(before, after))             # a score's gain in points, as every change
    lo, hi = (float(v) for v in text.split("[")[1].rstrip("]").split(", "))
    assert text.startswith("+2.") and " points [" in text and 0 < lo < 2 < hi
