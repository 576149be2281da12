"""`dsim compare` reads its verdicts off the intervals it shows: paired changes of ratios of totals (so a
conditional outcome is compared without bias), every outcome of every variant as one family, exact bounds
when nothing changed. Synthetic arms, no games played."""

import re
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from sim.analysis.compare import change_rows, compare_frames, judge
from sim.analysis.intervals_paired import paired_change
from sim.engine.game import Outcome
from sim.games import get_game
from sim.report.compare import change, findings, headline_cells, reading, summary_tables, variant_table

INTERVAL = re.compile(r"([+-]?\d+\.?\d*) points ([\[(])([+-]?\d+\.?\d*), ([+-]?\d+\.?\d*)([\])])")
RATES = {f"o{i}" for i in range(25)}


def contains_zero(m: re.Match) -> bool:
    """Whether a printed interval "+1.20 points (0, +2.40]" holds 0 (an open end at 0 leaves it out)."""
    left, lo, hi, right = m.group(2), float(m.group(3)), float(m.group(4)), m.group(5)
    above = lo > 0 or (lo == 0 and left == "(")
    below = hi < 0 or (hi == 0 and right == ")")
    return not (above or below)


def probe_game(outcomes):
    game = replace(get_game("dragonwake"), name="probe")
    game.outcomes = lambda: outcomes
    return game


def conditional_frames(rng, n):
    """Arm a: x applies in half the games (rate 0.3); arm b: applies in 70%, a correlated superset, 0.6 overall.
    The true change of what each arm's report shows is +30 points; pairing only the games where both apply
    gives +20 (the old method)."""
    u, v, w = rng.random(n), rng.random(n), rng.random(n)
    a = np.where(u < 0.5, (v < 0.3).astype(float), np.nan)
    b = np.where(u < 0.5, (v < 0.5).astype(float), np.where(u < 0.7, (w < 0.85).astype(float), np.nan))
    ids = np.arange(n)
    return pl.DataFrame({"game_id": ids, "x": a}), pl.DataFrame({"game_id": ids, "x": b})


def test_a_conditional_change_is_compared_on_what_each_arm_shows():
    game = probe_game([Outcome("x", "rate", pl.col("x"), "clock wins among dragon wins", headline=True)])
    fa, fb = conditional_frames(np.random.default_rng(1), 20_000)
    (name, kind, r, label, headline), = compare_frames(game, fa, fb)
    assert r.diff.lo <= 0.30 <= r.diff.hi                    # the old joint pairing gave +0.20 [0.19, 0.21]
    assert abs(r.a.value - 0.30) < 0.02 and abs(r.b.value - 0.60) < 0.02
    results, family = judge({"b": [(name, kind, r, label, headline)]})
    c = results["b"][0]
    assert c.verdict == "up" and 0 < c.shown.lo < 0.30 <= c.shown.hi and not c.shown.lo_open
    assert family == "simultaneous 95% over 1 change"


def many_outcomes(rng, n=4000, k=25):
    """25 binary outcomes of one variant: 8 with real changes of falling size, the rest unchanged."""
    shifts = [0.06, -0.05, 0.04, 0.03, -0.025, 0.02, 0.015, -0.012] + [0.0] * (k - 8)
    rows = []
    for i, s in enumerate(shifts):
        u = rng.random(n)
        a = (u < 0.4).astype(float)
        b = (u < 0.4 + s).astype(float)
        noise = rng.random(n) < 0.03                       # some games change either way
        b = np.where(noise, 1 - b, b)
        rows.append((f"o{i}", "rate", paired_change(a, b), f"outcome {i}", True))
    return rows


def test_no_report_line_says_no_change_beside_an_interval_that_leaves_out_zero():
    results, family = judge({"v": many_outcomes(np.random.default_rng(7))})
    rows = results["v"]
    # the point of the test: some changes the plain 95% interval calls are not called by the family
    assert any(c.paired.diff.excludes(0) and not c.detected for c in rows)
    table = variant_table("v", "base", rows, family, RATES)
    for line in (line for line in table[2:] if line.startswith("|")):
        m = INTERVAL.search(line)
        said = line.split("|")[5].strip()
        assert said in ("up", "down", "no change detected"), line
        assert (said == "no change detected") == contains_zero(m), line
    lines = findings(headline_cells(results), "base", RATES)
    for line in lines:
        if line.startswith("No headline change detected"):      # names the quiet variants only, no figure
            assert not INTERVAL.search(line), line
        elif INTERVAL.search(line):
            assert not contains_zero(INTERVAL.search(line)), line
    assert sum(1 for line in lines if INTERVAL.search(line)) == min(6, sum(c.detected for c in rows))
    for line in summary_tables(headline_cells(results), ["base", "v"], RATES):
        m = INTERVAL.search(line)
        if m and line.startswith("| v |"):
            assert ("*" in line.split("|")[3]) != contains_zero(m), line
    assert "simultaneous 95% over 25 changes" in table[0]
    said = reading(family)
    assert "Both ends say how large" in said and "all outcomes of all variants are one family" in said
    assert not any("(0, " in line or ", 0)" in line for line in table)     # no detected change without a size


def test_the_family_spans_every_variant_and_every_outcome():
    rng = np.random.default_rng(3)
    results, family = judge({"v1": many_outcomes(rng, k=10), "v2": many_outcomes(rng, k=10)})
    assert family.endswith("over 20 changes")
    rows = change_rows(results, family)
    assert len(rows) == 20 and {"verdict", "p_adjusted", "lo_open", "interval"} <= set(rows[0])
    assert all((r["verdict"] == "no change detected") == (r["p_adjusted"] > 0.05) for r in rows)


def test_a_zero_change_prints_its_exact_bound_not_zero_width():
    x = (np.random.default_rng(4).random(20_000) < 0.3).astype(float)
    results, _ = judge({"same": [("o", "rate", paired_change(x, x.copy()), "o", True)],
                        "real": many_outcomes(np.random.default_rng(5), k=3)})
    c = results["same"][0]
    assert change(c) == "no game changed in 20,000: ±0.015 points at most"
    assert c.verdict == "no change detected"
    mean = paired_change(x * 7, x * 7)
    results, _ = judge({"same": [("m", "mean", mean, "m", True)]})
    assert change(results["same"][0]) == "no game changed in 20,000 (at most 0.015% of games could differ unseen)"


def test_arms_that_did_not_play_the_same_games_are_refused():
    game = probe_game([Outcome("x", "rate", pl.col("x"), "x")])
    fa, fb = conditional_frames(np.random.default_rng(1), 100)
    with pytest.raises(Exception, match="same game ids"):
        compare_frames(game, fa, fb.with_columns(pl.col("game_id") + 1))


def test_a_variant_that_leaves_the_headline_alone_names_its_clearest_other_change():
    rows = many_outcomes(np.random.default_rng(7))
    rows = [(name, kind, p, label, name == "o20") for name, kind, p, label, _ in rows]   # o20 does not move
    results, family = judge({"v": rows})
    every = [c for r in results.values() for c in r]
    lines = findings(headline_cells(results), "base", RATES, every)
    assert lines[0].startswith("No headline change detected for **v**")
    (beyond,) = [line for line in lines if line.startswith("Beyond the headline")]
    clearest = max((c for c in every if c.detected), key=lambda c: abs(c.paired.diff.value) / c.paired.se)
    assert f"moves {clearest.label} from" in beyond and not contains_zero(INTERVAL.search(beyond))
    assert f"{sum(c.detected for c in every) - 1} other outcomes change detectably" in beyond
    assert findings(headline_cells(results), "base", RATES) == lines[:1]     # without the others: as before
