"""Tournament analysis (issue 27): head-to-head scores paired by deal, and a Bradley–Terry fit that is tested,
fed per-game scores directly (no game is played here)."""

import itertools

import numpy as np
from scipy import special

from sim.analysis.stats import mean_ci
from sim.analysis.tournament import Standings, Tournament, standings, strategy_for
from sim.engine.spec import RunSpec
from sim.games import get_game
from sim.report.tournament import fit_summary, tournament_findings, write

NAMES = ["rock", "paper", "scissors"]


def scores_for(rng, beats: dict, deals: int = 3000) -> dict:
    """Per-game scores, two rotations on the same deals, each game won with the pair's probability."""
    return {k: (rng.random((2, deals)) < p).astype(float) for k, p in beats.items()}


def report(s: Standings, tmp_path) -> str:
    g = get_game("dragonwake")
    base = RunSpec(g, g.load_rules(), 5, g.lineup(None), 3000, seed=1)
    return write(Tournament(g, base, s), tmp_path).read_text()


def test_intransitive_strengths_are_flagged_and_the_matrix_is_the_result(tmp_path):
    rng = np.random.default_rng(1)
    s = standings(NAMES, scores_for(rng, {(0, 1): 0.3, (1, 2): 0.3, (0, 2): 0.7}))   # each beats the next
    assert s.fit.fits is False and s.fit.df == 1
    findings = tournament_findings(s)
    assert findings[0].startswith("**Strengths are intransitive: Bradley–Terry does not fit**, X² = ")
    assert ", df = 1, p < 0.001" in findings[0]
    assert not any("is the strongest" in f for f in findings)       # the old report named a winner anyway
    text = report(s, tmp_path)
    assert text.index("## Head to head (the result") < text.index("## Bradley–Terry ratings: they do not fit")
    assert fit_summary(s)["fits"] is False and fit_summary(s)["df"] == 1


def test_transitive_strengths_fit(tmp_path):
    rng = np.random.default_rng(2)
    r = np.array([0.4, 0.0, -0.4])
    beats = {(i, j): special.expit(r[i] - r[j]) for i, j in itertools.combinations(range(3), 2)}
    s = standings(NAMES, scores_for(rng, beats))
    assert s.fit.fits is True and s.fit.p_fit > 0.05
    findings = tournament_findings(s)
    assert findings[0].startswith("**rock** is the strongest")
    assert findings[1].startswith("One strength per strategy explains the head-to-head scores: Bradley–Terry fits")
    assert "rock beats scissors" in " ".join(findings)
    assert "## Bradley–Terry ratings (log-odds scale, summing to zero)" in report(s, tmp_path)


def test_pairing_by_deal_narrows_the_interval_when_rotations_are_correlated():
    """On 80% of deals the deal decides the game for one side whoever plays it: A wins one rotation and loses
    the other. Averaging a deal's rotations first removes that shared luck; treating the 2 × 3,000 games as
    independent (the old interval) does not."""
    rng = np.random.default_rng(3)
    deals = 3000
    decided = rng.random(deals) < 0.8
    x1 = np.where(decided, 1.0, (rng.random(deals) < 0.55).astype(float))
    x2 = np.where(decided, 0.0, (rng.random(deals) < 0.55).astype(float))
    s = standings(NAMES[:2], {(0, 1): np.vstack([x1, x2])})
    old = mean_ci(np.concatenate([x1, x2]))
    new_width, old_width = s.hi[0, 1] - s.lo[0, 1], old.hi - old.lo
    print(f"\ndeal-paired interval {new_width:.4f} wide, games as independent {old_width:.4f}")
    assert new_width < 0.6 * old_width
    assert s.rows[0]["deals"] == deals and s.rows[0]["games"] == 2 * deals
    assert s.fit.fits is None and fit_summary(s)["p"] is None       # two strategies: nothing to test


def test_an_entrant_may_carry_parameters_for_one_strategy_or_per_role():
    assert strategy_for("search:budget=50", "hero") == "search:budget=50"
    assert strategy_for("hero=bayes:dragon_fear=1.5/cultist=liar", "hero") == "bayes:dragon_fear=1.5"
    assert strategy_for("hero=bayes:dragon_fear=1.5/cultist=liar", "cultist") == "liar"


def test_a_named_entrant_plays_its_spec_under_its_name(tmp_path):
    """`spec as name`: the report shows the name, the games are the spec's (the same scores as unnamed)."""
    import pytest
    from sim.analysis.tournament import split_label, tournament
    from sim.engine.errors import DsimError
    assert split_label("search:budget=50 as search (50 playouts)") == ("search (50 playouts)", "search:budget=50")
    assert split_label("random") == ("random", "random")
    g = get_game("dragonwake")
    base = RunSpec(g, g.load_rules(), 5, g.lineup(None), 300, seed=3)
    named = tournament(g, base, ["random as chaos", "hero=bayes/cultist=liar as defaults"], tmp_path / "a")
    plain = tournament(g, base, ["random", "hero=bayes/cultist=liar"], tmp_path / "b")
    assert named.standings.entrants == ["chaos", "defaults"]
    np.testing.assert_array_equal(named.standings.score, plain.standings.score)
    with pytest.raises(DsimError, match="two entrants share a name: x"):
        tournament(g, base, ["random as x", "hero=bayes/cultist=liar as x"], tmp_path / "c")


def test_a_clean_sweep_keeps_an_interval_of_its_deals():
    """Every deal won: the deal means do not vary, so p ± z·se would print 100.0% [100.0, 100.0]. The
    interval is Wilson's at the number of deals, and a 90% score keeps the width of its deals' spread."""
    deals = 1000
    sweep = standings(NAMES[:2], {(0, 1): np.ones((2, deals))})
    assert sweep.score[0, 1] == 1.0 and sweep.hi[0, 1] == 1.0
    assert 0.99 < sweep.lo[0, 1] < 0.998                 # Wilson: 1000 / (1000 + 1.96²) = 0.9962
    assert sweep.lo[1, 0] == 0.0 and 0.002 < sweep.hi[1, 0] < 0.01
    rng = np.random.default_rng(5)
    won = np.tile(rng.random(deals) < 0.9, (2, 1)).astype(float)   # both rotations of a deal alike
    s = standings(NAMES[:2], {(0, 1): won})
    p = won.mean()
    half = 1.96 * np.sqrt(p * (1 - p) / deals)
    assert abs((s.hi[0, 1] - s.lo[0, 1]) - 2 * half) < 0.1 * half and s.lo[0, 1] < p < s.hi[0, 1]


def test_each_side_is_reported_apart_when_the_mean_hides_two_results(tmp_path):
    """Row wins 95% as one side and 5% as the other: the mean says 50% (even), each side says otherwise."""
    rng = np.random.default_rng(3)
    deals = 2000
    s = standings(NAMES[:2], {(0, 1): np.vstack([rng.random(deals) < 0.95, rng.random(deals) < 0.05]).astype(float)},
                  held=["hero", "cultist"])
    assert s.lo[0, 1] < 0.5 < s.hi[0, 1]
    hero, cultist = s.sides
    assert (hero["a_holds"], cultist["a_holds"]) == ("hero", "cultist")
    assert hero["lo"] > 0.93 and cultist["hi"] < 0.07 and hero["lo"] < 0.95 < hero["hi"]
    said = " ".join(tournament_findings(s))
    assert "rock as hero: 9" in said and "rock as cultist: " in said
    text = report(s, tmp_path)
    assert "## Each side apart" in text and "row as cultist" in text


def test_the_other_entrant_of_a_pair_holds_the_other_side():
    """A pair played as (rock, paper) with rock's heroes winning 90% and its cultists 20%: read from paper's
    side, paper as hero scores 80% (against rock's cultists) and as cultist 10%."""
    from sim.report.tournament import side_rows
    rng = np.random.default_rng(8)
    deals = 4000
    s = standings(NAMES[:2], {(0, 1): np.vstack([rng.random(deals) < 0.9, rng.random(deals) < 0.2]).astype(float)},
                  held=["hero", "cultist"])
    paper = {held: v for held, v, _, _ in side_rows(s, NAMES[1], NAMES[0])}
    assert abs(paper["hero"] - 0.8) < 0.03 and abs(paper["cultist"] - 0.1) < 0.03


def test_a_search_finding_says_whether_the_search_knew_its_opponent():
    rng = np.random.default_rng(4)
    s = standings(["search", "defaults"], scores_for(rng, {(0, 1): 0.8}))
    said = " ".join(tournament_findings(s, {"search": "search:budget=50", "defaults": "default"}))
    assert "search beats defaults" in said and "did not know its opponent" in said
    said = " ".join(tournament_findings(s, {"search": "search:budget=50:informed=1", "defaults": "default"}))
    assert "the search knew its opponent" in said and "did not know" not in said
    assert "knew" not in " ".join(tournament_findings(s, {"search": "kiter", "defaults": "default"}))
    # informed playouts play a searching opponent as its defaults: that search did not know it
    said = " ".join(tournament_findings(s, {"search": "search:informed=1", "defaults": "search:budget=50"}))
    assert "played the default heuristics for defaults, which searches (the search did not know" in said


def test_an_uninformed_search_knew_an_opponent_that_plays_the_defaults():
    """Its playouts assume the default heuristics: against them it knew its opponent, against tuned ones not."""
    from sim.analysis.tournament import plays_defaults
    defaults = {"dragon": "brawler", "dwarves": "coordinated"}
    assert plays_defaults("default", defaults) and plays_defaults("dragon=brawler/dwarves=coordinated", defaults)
    assert not plays_defaults("dragon=brawler:flee=2/dwarves=coordinated", defaults)
    assert not plays_defaults("dragon=kiter/dwarves=coordinated", defaults)
    assert plays_defaults("seeker", {"seat0": "seeker", "seat1": "seeker"})
    assert not plays_defaults("seeker:bias=1", {"seat0": "seeker", "seat1": "seeker"})
    rng = np.random.default_rng(4)
    s = standings(["search", "defaults", "tuned"], scores_for(rng, {(0, 1): 0.8, (0, 2): 0.7, (1, 2): 0.5}))
    specs = {"search": "search", "defaults": "dragon=brawler/dwarves=coordinated", "tuned": "dragon=kiter/dwarves=net"}
    said = tournament_findings(s, specs, defaults)
    against_defaults = next(f for f in said if "defaults" in f and "search" in f)
    against_tuned = next(f for f in said if "tuned" in f and "search" in f)
    assert "which defaults plays (the search knew its opponent)" in against_defaults
    assert "did not know its opponent" in against_tuned
