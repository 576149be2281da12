"""`dsim ladder` and `dsim ablate` over the Game API."""

import pytest

from sim.analysis.ladder import Level, ladder
from sim.analysis.stats import Estimate, PairedResult
from sim.cli.common import build_spec
from sim.games import get_game
from sim.report.ladder import verdict, write


def test_the_ladder_starts_at_random_play_and_pairs_every_level(tmp_path):
    game = get_game("dragonwake")
    base = build_spec("dragonwake", 4000, 5, "hero=bayes,cultist=liar", None, 1, None, None, None)
    result = ladder(game, base, "hero_win", 0.5, iters=1)
    steps = result.steps
    path, words = write(result, tmp_path)
    names = [s.name for s in steps]
    assert names[:2] == ["random", "default"] and "hero tuned" in names
    assert all(seat.strategy.name == "random" for seat in steps[0].lineup.values())
    assert steps[1].against_default.diff.value == 0             # the default paired with itself
    assert all(s.estimate.n == 4000 for s in steps)
    assert words in path.read_text()


def level(name, lo, hi, p):
    e = Estimate((lo + hi) / 2, lo, hi, 1000)
    return Level(name, {}, e, PairedResult(e, e, e, p, "t", 0))


@pytest.mark.parametrize("default, top, p, expected", [
    ((0.60, 0.62), (0.70, 0.72), 0.001, "grows"),
    ((0.60, 0.62), (0.54, 0.56), 0.001, "shrinks"),
    ((0.60, 0.62), (0.60, 0.63), 0.4, "holds"),
    ((0.60, 0.62), (0.48, 0.52), 0.001, "vanishes"),
    ((0.60, 0.62), (0.40, 0.42), 0.001, "reverses"),
    ((0.49, 0.52), (0.70, 0.72), 0.001, "not distinguishable"),
])
def test_the_ladder_verdict_in_words(default, top, p, expected):
    steps = [level("random", 0.1, 0.2, 0.0), level("default", *default, 1.0), level("top", *top, p)]
    words = verdict(steps, 0.5, "rate")
    assert expected in words and "random play 15.0% [10.0, 20.0]" in words, words
