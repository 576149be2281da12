"""`dsim sensitivity` and `dsim ablate` judge every arm of a headline outcome as one family: controlled
detection, bootstrap rank intervals, and words read off them. Synthetic per-game arrays, no games played."""

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import polars as pl

from sim.analysis.arms import effect_rows, judge_outcome, ranked
from sim.engine.game import Outcome
from sim.report.ablate import finding, outcome_section
from sim.report.arms import chart_title
from sim.report.sensitivity import sentence

OUTCOME = Outcome("x", "rate", pl.col("x"), "dragon wins", headline=True)
NEUTRAL = "replaced by a neutral element"


def frames_of(base, arms):
    ids = np.arange(len(base))
    return [pl.DataFrame({"game_id": ids, "x": x}) for x in (base, *arms)]


def null_arms(rng, k=20, n=2000):
    """k arms that change nothing on average: each redraws 10% of the games from the base's own rate."""
    base = (rng.random(n) < 0.3).astype(float)
    arms = np.where(rng.random((k, n)) < 0.1, (rng.random((k, n)) < 0.3).astype(float), base)
    return base, list(arms)


def judged(base, arms, planned, n_boot=200):
    return judge_outcome(OUTCOME, frames_of(base, arms), planned, [False] * len(arms), n_boot)


def test_a_family_of_null_elements_detects_none_where_one_by_one_tests_would():
    rng = np.random.default_rng(0)
    for _ in range(20):                          # a study where testing each element alone calls one "changed"
        base, arms = null_arms(rng)
        planned = [(f"e{i}", NEUTRAL, None) for i in range(len(arms))]
        fam, effects = judged(base, arms, planned, n_boot=0)
        if any(e.result.p_value < 0.05 for e in effects):
            break
    assert any(e.result.diff.excludes(0) for e in effects)        # what the old report would have called
    assert not fam.detected() and not any(e.detected for e in effects)
    text = finding(effects, "x", "neutral")
    assert "no element replaced by a neutral element changes it detectably" in text
    assert "0 of 20 elements change it detectably (the family's simultaneous intervals)" in text
    words = sentence(effects, "x")
    assert words.startswith("No assumed value moves dragon wins detectably (0 of 20 alternatives"), words


def test_a_real_element_is_detected_and_ranked_first_only_when_resolved():
    rng = np.random.default_rng(1)
    base, arms = null_arms(rng, k=6, n=4000)
    big = np.where(rng.random(4000) < 0.25, 1.0, base)            # about +17 points
    fam, effects = judged(base, [big, *arms], [(f"e{i}", NEUTRAL, None) for i in range(7)])
    top = ranked(effects, "x")[0][2][0]
    assert top.key == "e0" and top.detected and (top.rank, top.rank_lo, top.rank_hi) == (1, 1, 1)
    assert 0 < top.shown.lo < top.shown.value and not top.shown.lo_open   # both ends tell a size
    text = finding(effects, "x", "neutral")
    assert "e0 weighs most" in text and "rank interval [1, 1]" in text and "points [+" in text
    assert "1 of 7 elements change it detectably" in text
    renamed = [replace(e, key="dwarf_spaces[1]") if e.key == "e0" else e for e in effects]    # rules in words
    items = SimpleNamespace(entries={"dwarf_spaces": SimpleNamespace(items=("Fury dwarf", "Wall dwarf"))})
    words = sentence(renamed, "x", items)
    assert "plausible dwarf spaces of the Wall dwarf" in words and "dwarf_spaces" not in words, words
    assert chart_title("Dragon wins", "e0", [top]) == "Dragon wins is most sensitive to e0"
    lines = outcome_section(None, "x", effects, {}, lambda name, fig: f"![{name}]", fam)
    assert "| e0 |  | 1 [1, 1] | +" in "\n".join(lines)
    assert any(line.startswith("Ranking (") and "e0 > " in line for line in lines)
    row = effect_rows(effects, "element")[0]
    assert {"verdict", "p_adjusted", "rank", "rank_lo", "rank_hi"} <= set(row) and row["verdict"] == "up"


def test_two_close_leaders_are_not_told_apart():
    rng = np.random.default_rng(2)
    base, arms = null_arms(rng, k=3, n=4000)
    a = np.where(rng.random(4000) < 0.20, 1.0, base)
    b = np.where(rng.random(4000) < 0.20, 1.0, base)
    planned = [("a", "1", None), ("b", "1", None), *[(f"n{i}", "1", None) for i in range(3)]]
    fam, effects = judged(base, [a, b, *arms], planned)
    first = ranked(effects, "x")[0][2][0]
    assert first.detected and first.rank_hi > 1
    assert "weighs most" not in finding(effects, "x", "neutral")
    assert "not single it out" in finding(effects, "x", "neutral")
    assert "not resolved" in chart_title("Dragon wins", first.key, [first])
    assert "not told apart" in sentence(effects, "x")


def test_an_arm_that_changed_no_game_shows_its_bound():
    rng = np.random.default_rng(3)
    base, arms = null_arms(rng, k=2, n=3000)
    fam, effects = judged(base, [base.copy(), *arms], [("same", NEUTRAL, None), ("n0", NEUTRAL, None),
                                                       ("n1", NEUTRAL, None)])
    same = next(e for e in effects if e.key == "same")
    assert same.result.identical and same.verdict == "no change detected"
    assert "same least (no game changed in 3,000: ±0.1 points at most)" in finding(effects, "x", "neutral")
