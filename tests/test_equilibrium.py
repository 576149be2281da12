"""`dsim equilibrium`: the payoff tables, the solutions read back from what the report writes, the symmetric
seats, the fresh check, and the command on every game."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import polars as pl
import pytest

from sim.analysis.equilibrium import Search, equilibrium
from sim.analysis.gametheory import SymmetricGame, regret, solve_zero_sum
from sim.analysis.equilibrium import SeatCells, seat_figures
from sim.analysis.gametheory import distinct_equilibria, solve_symmetric
from sim.analysis.payoffs import Budget, Player, SymmetricTable, candidates, option_scores, rotations, seatings
from sim.cli.main import main
from sim.engine.spec import RunSpec
from sim.games import get_game
from sim.report.equilibrium import write

SMALL = Budget(precision=0.05, chunk=400, cap=800)
QUICK = Search(iters=1, popsize=1, refine=1, games=150, rounds=1, tol=0.02, check_games=20, search_joins=False)


def spec(name: str, players: int | None = None, seed: int = 5) -> RunSpec:
    g = get_game(name)
    return RunSpec(g, g.load_rules(), players or g.default_players, g.lineup(None), 1, seed)


def test_rotations_put_every_option_in_every_seat():
    assert rotations((0, 0, 1)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


def test_seatings_are_every_distinct_arrangement():
    """Two pairs meet side by side and alternating (aabb and abab), which rotations alone never play."""
    two_pairs = seatings((0, 0, 1, 1))
    assert len(two_pairs) == 6 and (0, 1, 0, 1) in two_pairs and (0, 1, 0, 1) not in rotations((0, 0, 1, 1))
    assert len(seatings((0, 1, 2))) == 6 and seatings((2, 2, 2)) == [(2, 2, 2)]


def test_symmetric_cells_share_out_every_game():
    """A seat's share of the wins, summed over the seats of a line-up, is 1 in every game: Drarkane's shares
    (ties split) add up, and averaging over seatings keeps it — so no cell leaks or double-counts a win."""
    s = spec("drarkane", 3)
    table = SymmetricTable(s.game.active_roles(3), candidates(s.game, "seat0")[:3])
    table.fill(Player(s.game, s.rules, 3, s.seed, rest=dict(s.lineup)), Budget(0.5, 300, 300))
    assert len(table.cells) == 10                       # 3 options over 3 seats: C(5, 3) line-ups
    for lineup, cell in table.cells.items():
        per_game = sum(lineup.count(o) * x for o, x in option_scores(lineup, cell).items())
        np.testing.assert_allclose(per_game, 1.0, atol=1e-12)


def test_a_seat_that_gains_alone_shows_its_regret():
    """Three seats, options a and b. Averaged over the seats b is worse (everyone playing a is the symmetric
    equilibrium), but seat 0 alone does better with b while the others play a: its regret is 0.5 - 1/3, the
    other seats' 0. The shares of the seats add up to 1."""
    table = SymmetricTable(("seat0", "seat1", "seat2"), ["a", "b"])
    games = 10
    table.cells[(0, 0, 0)] = np.full((games, 3, 1), 1 / 3)
    mixed = np.full((games, 3, 2), 0.25)
    mixed[:, :, 1] = [0.5, 0.1, 0.1]                  # the seat holding b: 0.5 in seat 0, 0.1 elsewhere
    table.cells[(0, 0, 1)] = mixed
    table.cells[(0, 1, 1)] = np.stack([np.full((games, 3), 0.5), np.full((games, 3), 0.25)], axis=2)
    table.cells[(1, 1, 1)] = np.full((games, 3, 1), 1 / 3)
    cells, samples = SeatCells.of(table)
    t = np.array([x.mean() for x in samples])
    x = solve_symmetric(cells.game(t)).x
    np.testing.assert_allclose(x, [1.0, 0.0], atol=1e-6)
    seats = seat_figures(cells, t, x)
    assert seats["regret 0"] == pytest.approx(0.5 - 1 / 3)
    assert seats["regret 1"] == pytest.approx(0.0, abs=1e-9) and seats["regret 2"] == pytest.approx(0.0, abs=1e-9)
    assert sum(seats[f"share {s}"] for s in range(3)) == pytest.approx(1.0)


def test_several_starts_find_each_equilibrium_of_a_coordination_game():
    """Two seats rewarded for choosing alike: every seat on a, every seat on b and the half-and-half mixture are
    all symmetric equilibria; random starts find the pure ones, which the uniform start alone never leaves. A game
    with one equilibrium (hawk-dove) gives one however many starts."""
    one_start = solve_symmetric(SymmetricGame.from_matrix(np.array([[1.0, 0.0], [0.0, 1.0]])))
    assert len(distinct_equilibria(one_start, 1e-6)) == 1
    found = distinct_equilibria(solve_symmetric(SymmetricGame.from_matrix(np.array([[1.0, 0.0], [0.0, 1.0]])),
                                                starts=8, seed=3), 1e-6)
    mixtures = sorted(tuple(np.round(f.x, 3)) for f in found)
    assert mixtures == [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)]
    hawk_dove = np.array([[0.0, 3.0], [1.0, 2.0]])
    assert len(distinct_equilibria(solve_symmetric(SymmetricGame.from_matrix(hawk_dove), starts=8, seed=3),
                                   1e-6)) == 1


def test_two_sided_solution_is_the_table_the_report_writes(tmp_path):
    """The value reported is the LP value of the payoff table written beside it; weights sum to 1 per side."""
    s = spec("drako")
    study = equilibrium(s.game, s, SMALL, dataclasses.replace(QUICK, search_joins=True), boot=30)
    write(study, tmp_path)
    table = pl.read_parquet(tmp_path / "equilibrium_drako_2p_table.parquet")
    rows = list(dict.fromkeys(table["row"]))
    cols = list(dict.fromkeys(table["col"]))
    A = table["row_score"].to_numpy().reshape(len(rows), len(cols))
    assert solve_zero_sum(A).value == pytest.approx(study.value.value, abs=1e-9)
    assert study.value.lo <= study.value.value <= study.value.hi
    solution = pl.read_parquet(tmp_path / "equilibrium_drako_2p_solution.parquet")
    for side in ("dragon", "dwarves"):
        assert solution.filter(pl.col("side") == side)["weight"].sum() == pytest.approx(1.0)
    # the default brawler dragon can be held below the value by the dwarves' best response (issue #24's Drako)
    assert study.exploit["dragon"].value > 0.05
    text = (tmp_path / "equilibrium_drako_2p.md").read_text()
    assert f"{100 * study.value.value:.1f}%" in text and f"{100 * study.default.value:.1f}%" in text
    br = study.bracket()
    assert br.lo <= study.value.lo and br.hi >= study.value.hi
    summary = json.loads((tmp_path / "equilibrium_drako_2p.json").read_text())
    assert summary["bracket"] == [br.lo, br.hi]
    assert set(study.search_fresh) == {"dragon", "dwarves"}       # Drako's search player can be informed
    assert set(summary["search_gain"]) == {"dragon", "dwarves"}
    for side in ("dragon", "dwarves"):                          # what the answer pages name: the support
        weights = solution.filter(pl.col("side") == side)
        assert summary["solution"][side] == {k: w for k, w in zip(weights["strategy"], weights["weight"])
                                             if w > 0.005}
    assert ("Checked with the search player for dwarves" in text
            or "The solution for dwarves is the search player itself" in text)
    for g in [*study.fresh.values(), *study.search_fresh.values()]:   # paired on the same games: never a bare +0.0
        assert g.lo <= g.value <= g.hi and (g.lo < g.hi or g.value == 0.0)
    # each round checks the informed search player for both sides; it joins the dwarves, whom it lifts far above
    # the weights' best (36 points in the published study), and its cells play --check-games games
    assert set(study.rounds[0].searched) == {"dragon", "dwarves"}
    assert "dwarves: the search player" in study.rounds[0].added
    dwarves = study.options["dwarves"]
    j = next(i for i, c in enumerate(dwarves) if c.searches())
    assert (study.counts_games[:, j] == QUICK.check_games).all()
    assert "the search player, playing out against the strategies it meets, joined dwarves in round 1" in text
    assert "played again on fresh seeds before solving" in text        # a round admitted one: replayed


def test_symmetric_seats_give_one_mixture_with_no_regret():
    """Drarkane's seats are alike: one mixture for every seat, from which no measured strategy gains. (Without the
    search player's check, which the two-sided test above and the command matrix cover: a 3-seat search check took
    9 minutes here.)"""
    s = spec("drarkane", 3)
    study = equilibrium(s.game, s, Budget(0.1, 300, 300),
                        Search(iters=1, popsize=1, refine=1, games=150, rounds=0, check_games=0), boot=20)
    x = study.weights["every seat"]
    assert list(study.weights) == ["every seat"] and x.sum() == pytest.approx(1.0)
    k = len(study.options["every seat"])
    counts = np.array([np.bincount(lu, minlength=k) for lu in study.lineups])
    game = SymmetricGame.from_hpt(counts, study.means)
    assert regret(game, x) <= 1e-6
    assert 0 <= study.value.lo <= study.value.value <= study.value.hi <= 1
    assert list(study.seats) == list(study.sides)          # each seat's share and regret, every seat
    assert sum(share.value for share, _ in study.seats.values()) == pytest.approx(1.0)
    assert study.seats["seat0"][0].value == pytest.approx(study.value.value)
    assert all(g.value >= -1e-9 and g.lo <= g.value <= g.hi for _, g in study.seats.values())
    assert len(study.equilibria) >= 1 and study.solver
    from sim.report.equilibrium import rests_on        # no round: nothing admitted, nothing replayed
    words = " ".join(rests_on(study))
    assert "solved as played" in words and "best responses the search added" not in words


def test_converged_study_holds_on_fresh_seeds():
    """The exploitability a converged study claims (no best response gains more than the tolerance) is
    re-measured by a new search on fresh seeds: its gain's interval must reach down to the tolerance."""
    s = spec("drachensachen", 3)
    study = equilibrium(s.game, s, Budget(0.05, 1000, 2000),
                        Search(iters=1, popsize=1, refine=1, games=300, rounds=2, tol=0.02, check_games=0), boot=20)
    assert study.converged
    g = study.fresh["every seat"]
    assert g.lo <= study.search.tol


@pytest.mark.parametrize("game,extra", [("drakerion", ["--decks", "ember,tide"])])
def test_command_gives_numbers_in_json(tmp_path, capsys, game, extra):
    """Every game runs the command in the command matrix (tests/test_matrix.py); here its JSON, with decks."""
    code = main(["equilibrium", "--game", game, *extra, "--precision", "0.1", "--n", "300", "--rounds", "1",
                 "--iters", "1", "--refine", "1", "--search-games", "100", "--check-games", "20", "--no-search-joins",
                 "--boot", "20", "--out", str(tmp_path), "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(out)
    assert "at equilibrium" in data["title"]
    eq = data["equilibrium"]                               # in %, as the report prints it
    assert eq["unit"] == "%" and 0 <= eq["low"] <= eq["value"] <= eq["high"] <= 100
    weights = [row["weight"]["value"] for row in data["solution"]]
    sides = len(set(r["side"] for r in data["solution"]))
    assert all(isinstance(w, float) for w in weights) and abs(sum(weights) - 100 * sides) < 1e-4
    assert isinstance(data["converged"], bool)
    assert list(tmp_path.glob("report/equilibrium_*_table.parquet"))


@pytest.mark.parametrize("args,message", [
    (["--game", "drarkane", "--players", "1"], "Drarkane with 1 player has one; try --players 2"),
    (["--game", "drako", "--precision", "0"], "--precision"),
    (["--game", "drako", "--decks", "all"], "no decks"),
    (["--game", "drakerion", "--decks", "ember,lava"], "unknown deck 'lava'"),
])
def test_bad_input_is_one_line(tmp_path, capsys, args, message):
    code = main(["equilibrium", *args, "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("report/*"))


def test_ablate_at_equilibrium_re_solves_each_element(tmp_path):
    """Restricted play: an element neutralised, the game re-solved. Neutralising the dragon's defense cards
    must cost the dragon at equilibrium, and the verdict agrees with the shown interval, which spans both studies'
    brackets."""
    from sim.analysis.ablate_equilibrium import ablate_at_equilibrium, shown
    from sim.analysis.arms_equilibrium import slack
    from sim.report.ablate_equilibrium import write as write_ablation
    s = spec("drako")
    a = ablate_at_equilibrium(s.game, s, SMALL, QUICK, only=("dragon defense",), boot=30)
    assert a.elements() == ["dragon defense"]
    change = shown(a, "dragon defense")
    base, arm = a.studies["as given"], a.studies["dragon defense"]
    assert arm.value.value < base.value.value
    assert (a.arms.verdict("dragon defense") == "down") == (change.hi < 0)
    sampling = a.arms.family.intervals[0]
    assert change.lo == pytest.approx(sampling.lo - slack(arm)[0] - slack(base)[1])
    assert change.hi == pytest.approx(sampling.hi + slack(arm)[1] + slack(base)[0])
    # the element's study started from what the rules as given found (best responses kept)
    found = {c.key() for side in base.options for c in base.options[side] if c.origin != "built-in"}
    assert found <= {c.key() for side in arm.options for c in arm.options[side]}
    text = write_ablation(a, tmp_path).read_text()
    assert "at equilibrium" in text and "dragon defense" in text


def test_the_search_player_joins_the_population_only_when_asked():
    """Its cells play at its speed, so `dsim equilibrium` leaves it out unless --with-search (a game without
    one would refuse the flag; every game has one now)."""
    game = get_game("drako")
    for role in ("dragon", "dwarves"):
        assert "search" not in [c.strategy.name for c in candidates(game, role)]
        assert "search" in [c.strategy.name for c in candidates(game, role, with_search=True)]
        given = next(c for c in candidates(game, role, with_search={"budget": 5}) if c.strategy.name == "search")
        budget = given.strategy.param_names.index("budget")
        assert given.params[budget] == 5 and given.strategy.defaults[budget] != 5


def test_the_search_budget_needs_the_search_player(capsys):
    from sim.cli.main import main
    assert main(["equilibrium", "--game", "drako", "--search-budget", "5"]) == 2
    assert "--search-budget is for --with-search" in capsys.readouterr().err
    assert main(["equilibrium", "--game", "drako", "--with-search", "--search-budget", "0"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_the_fresh_check_verdict_never_contradicts_its_interval():
    from sim.analysis.stats import Estimate
    from sim.report.equilibrium import fresh_verdict
    assert "within" in fresh_verdict(Estimate(0.004, -0.002, 0.009, 100), 0.01)
    assert "not yet reached" in fresh_verdict(Estimate(0.03, 0.015, 0.045, 100), 0.01)
    unsure = fresh_verdict(Estimate(0.019, 0.007, 0.031, 100), 0.01)     # 1.9 points [0.7, 3.1] against 1
    assert "unsettled" in unsure and "within" not in unsure and "1.0 points" in unsure


def test_a_study_without_rounds_does_not_claim_a_last_best_response():
    from types import SimpleNamespace
    from sim.report.equilibrium import convergence_text
    text = convergence_text(SimpleNamespace(rounds=[], converged=False))
    assert "No best-response rounds were run" in text and "gained" not in text


def test_a_deck_is_called_not_worth_choosing_only_when_every_weight_interval_with_it_stays_at_zero():
    from types import SimpleNamespace
    from sim.report.equilibrium import deck_text, mixture_text
    option = lambda deck, name: SimpleNamespace(deck=deck, label=lambda: f"{deck}/{name}")
    options = [option("ember", "search"), option("tide", "search"), option("tide", "value"), option("gloom", "value")]
    weights = np.array([1.0, 0.0, 0.0, 0.0])
    hi = np.array([1.0, 0.61, 0.0, 0.0])                 # tide's search player may still be played; gloom is not
    s = SimpleNamespace(options={"seat0": options}, weights={"seat0": weights}, untuned_decks=lambda side: [],
                        weight_intervals={"seat0": SimpleNamespace(lo=np.array([0.4, 0, 0, 0]), hi=hi)})
    decks = deck_text(s, "seat0")
    assert "never gloom — against best play they are not worth choosing" in decks
    assert "tide not in this solution, though a weight's interval with it reaches 61%" in decks
    assert "never tide" not in decks and "do not rule it out" in decks
    mix = mixture_text(s, "seat0")
    assert "never the other 3, though the interval of 1 of them reaches up (tide/search [0, 61])" in mix
    # a deck no best-response search tuned a strategy with is untested, not ruled out
    s.untuned_decks = lambda side: ["gloom"]
    decks = deck_text(s, "seat0")
    assert "not worth choosing" not in decks.split("untested")[0] and "not gloom, untested at tuned weights" in decks


def test_a_study_knows_which_decks_a_best_response_search_tuned():
    from types import SimpleNamespace
    from sim.analysis.equilibrium import Study
    option = lambda deck: SimpleNamespace(deck=deck)
    s = SimpleNamespace(options={"seat0": [option("ember"), option("tide"), option("gloom"), option(None)]},
                        tuned={"seat0": {("value", "tide"), ("aggressive", "ember")}})
    assert Study.untuned_decks(s, "seat0") == ["gloom"]
    s.tuned = {}
    assert Study.untuned_decks(s, "seat0") == ["ember", "tide", "gloom"]


def bracket_study(value, fresh, kind="two-sided", tol=0.01):
    from types import SimpleNamespace
    from sim.analysis.equilibrium import Study
    s = SimpleNamespace(kind=kind, sides=("dragon", "dwarves"), value=value, fresh=fresh, search_fresh={},
                        search=SimpleNamespace(tol=tol))
    s.bracket = lambda: Study.bracket(s)
    s.fresh_converged = lambda: Study.fresh_converged(s)
    return s


def test_the_headline_is_the_bracket_when_a_fresh_best_response_still_gains():
    """Drako's shape: the table says 90.5% [89.9, 91.2], but the dwarves' fresh best response still takes 30
    points [28, 32] from the dragon: the value may be as low as 57.9%. The headline says so, and "not converged"."""
    from sim.analysis.gametheory._util import Interval
    from sim.report.equilibrium import headline
    s = bracket_study(Interval(0.905, 0.899, 0.912), {"dragon": Interval(0.004, -0.004, 0.013),
                                                      "dwarves": Interval(0.30, 0.28, 0.32)})
    br = s.bracket()
    assert br.lo == pytest.approx(0.899 - 0.32) and br.hi == pytest.approx(0.912 + 0.013)
    text = headline(s)
    assert "between 57.9% and 92.5%" in text and "not converged" in text
    quiet = bracket_study(Interval(0.905, 0.899, 0.912), {"dragon": Interval(-0.02, -0.03, -0.01),
                                                          "dwarves": Interval(0.0, 0.0, 0.0)})
    assert (quiet.bracket().lo, quiet.bracket().hi) == (0.899, 0.912)
    assert "gain nothing beyond it" in headline(quiet) and "not converged" not in headline(quiet)
    seats = bracket_study(Interval(0.25, 0.24, 0.26), {"every seat": Interval(0.02, 0.01, 0.03)}, kind="symmetric")
    assert (seats.bracket().lo, seats.bracket().hi) == pytest.approx((0.21, 0.29))
    assert "not converged" not in headline(seats)             # 1 to 3 points against a 1-point tolerance: unsettled


def test_sweep_and_compare_at_equilibrium_solve_each_arm(tmp_path):
    """Each point of a sweep is solved as a game, the later ones warm-started from the first's strategies. More
    wound spaces for the Fury dwarf make the dwarves harder to beat at equilibrium too; the verdict is read off
    the interval shown, which spans both studies' brackets. A compare of the same two settings is the same arms."""
    from sim.analysis.arms_equilibrium import compare_at_equilibrium, sweep_at_equilibrium
    from sim.report.arms_equilibrium import figures as arm_figures, write as write_arms
    s = spec("drako")
    a = sweep_at_equilibrium(s.game, s, ["dwarf_spaces[0]=3|9"], SMALL, QUICK, boot=30)
    assert a.reference == "dwarf_spaces[0]=3" and a.arms() == ["dwarf_spaces[0]=9"]
    few, many = a.studies["dwarf_spaces[0]=3"], a.studies["dwarf_spaces[0]=9"]
    assert many.value.value < few.value.value
    change = a.changes["dwarf_spaces[0]=9"]
    br_few, br_many = few.bracket(), many.bracket()
    assert change.lo <= br_many.hi - br_few.lo and change.lo <= many.value.value - few.value.value <= change.hi
    assert (a.verdict("dwarf_spaces[0]=9") == "down") == (change.hi < 0)
    band = (br_few.lo - 0.001, br_few.hi + 0.001)            # holds the first point's bracket whole
    text = write_arms(a, tmp_path, "sweep_drako_equilibrium", "Drako", "point", band=band).read_text()
    assert "dwarf_spaces[0]=9" in text and "bracket" in text
    found = json.loads((tmp_path / "sweep_drako_equilibrium.json").read_text())
    assert found == arm_figures(a, band)
    assert found["band"]["reaches"]["dwarf_spaces[0]=3"] == "yes"
    assert "| dwarf_spaces[0]=3 |" in text.split("## Which points reach")[1]
    c = compare_at_equilibrium(s.game, s, ["dwarf_spaces[0]=3", "dwarf_spaces[0]=9"], SMALL, QUICK, boot=30)
    assert c.studies["dwarf_spaces[0]=9"].value.value == pytest.approx(many.value.value)


def test_a_setting_reaches_a_band_only_when_its_whole_bracket_does():
    """yes: the bracket inside the band; maybe: they overlap; no: it misses. With none sure, the finding names
    the ones that may and the nearest table value."""
    from types import SimpleNamespace
    from sim.analysis.intervals import Interval
    from sim.report.arms_equilibrium import band_finding, reaches

    def study(v, lo, hi):
        return SimpleNamespace(value=Interval(v, v - 0.01, v + 0.01, 100), bracket=lambda: Interval(v, lo, hi, 100))
    band = (0.4, 0.6)
    assert [reaches(study(*x), band) for x in [(0.5, 0.45, 0.55), (0.35, 0.2, 0.45), (0.2, 0.1, 0.3)]] == [
        "yes", "maybe", "no"]
    arms = SimpleNamespace(reference="a", arms=lambda: ["b", "c"],
                           studies={"a": study(0.2, 0.1, 0.3), "b": study(0.35, 0.2, 0.45),
                                    "c": study(0.3, 0.25, 0.35)})
    text = band_finding(arms, band, "point")
    assert "no point surely reaches it; `b` may" in text and "nearest table value is b's" in text
    arms.studies["c"] = study(0.5, 0.42, 0.58)
    assert band_finding(arms, band, "point").startswith("Target 40–60%: `c` reaches it whichever way")


def test_at_equilibrium_refuses_bad_input_in_one_line(capsys):
    for bad in (["--band", "40%:60%"], ["--band", "40%", "--at-equilibrium"],
                ["--band", "0.7:0.2", "--at-equilibrium"]):
        assert main(["sweep", "--game", "drako", "--param", "dwarf_spaces[0]=3|9", *bad]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "--band" in err
    assert main(["sweep", "--game", "drako", "--param", "dwarf_spaces[0]=3|9", "--at-equilibrium",
                 "--precision", "0.7"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
    assert main(["compare", "--game", "drako", "--variant", "base", "--at-equilibrium"]) == 2
    assert "at least two --variant" in capsys.readouterr().err


def test_tune_at_equilibrium_solves_each_setting_and_verifies_the_answer(tmp_path):
    """tune --at-equilibrium: integer bisection on the figure at equilibrium, each setting a (light) solve on the
    search seeds; the answer solved in full on fresh seeds, its interval the study's bracket. Either the target
    lies between the two settings returned, or the report says the range cannot reach it."""
    from sim.analysis.tune import EquilibriumEvaluator, tune
    from sim.report.tune import write as write_tune
    s = spec("drako")
    t = tune(s.game, s, ["dwarf_spaces[0]=3:5"], ["equilibrium=75%"], at_equilibrium=(SMALL, QUICK))
    ev = t.evaluator
    assert isinstance(ev, EquilibriumEvaluator)
    probes = {k[0][0]: e[0].value for k, e in ev.cache.items() if not k[1]}
    assert set(probes) >= {3, 5}
    target = 0.75
    best = t.result.best[0]
    assert t.result.best in t.result.candidates            # the answer and any setting `settle` solved in full
    if "outside" in t.result.note:
        assert all((v > target) == (probes[3] > target) for v in probes.values())
    else:
        lo, hi = map(int, re.search(r"between (\d+) and (\d+)", t.result.note).groups())
        assert hi == lo + 1 and (probes[lo] - target) * (probes[hi] - target) <= 0
    for c in t.result.candidates:
        study = ev.studies[(c, True)]
        est = t.result.verified[c][0]
        assert (est.lo, est.hi) == (study.bracket().lo, study.bracket().hi)
        assert study.search.rounds == QUICK.rounds          # the answer's solve is the full one
    text = write_tune(t, tmp_path).read_text()
    assert "solved in full on fresh seeds" in text
    assert (tmp_path / "equilibrium" / f"tune_drako_equilibrium_dwarf_spaces_0_{best}" /
            "equilibrium_drako_2p.md").exists()
    assert json.loads((tmp_path / "tune_drako_equilibrium_dwarf_spaces_0.json").read_text())["best"] == {
        "dwarf_spaces[0]": best}
    assert main(["tune", "--game", "drako", "--param", "dwarf_spaces[0]=3:5", "--target", "dragon_win=0.5",
                 "--at-equilibrium"]) == 2


def test_a_tune_at_equilibrium_walks_its_answer_to_where_the_full_solves_cross_the_target():
    """The light probes (no search player) put 50% at 3; solved in full the figure there is 24%, 22 points under
    the probes' line, so `settle` aims where that line lowered by 22 points meets 50% (6: 54%), then between the
    two full solves that straddle the target (5: 44%), and answers with the nearer of the neighbours (6)."""
    from types import SimpleNamespace
    from sim.analysis.intervals import Interval
    from sim.analysis.tune import TuneResult, settle

    def line(slope, shift):
        return lambda x: Interval(slope * x + shift, slope * x + shift - 0.01, slope * x + shift + 0.01, 1000)

    class Stub:
        params = [SimpleNamespace(lo=0, hi=8, integer=True)]
        targets = [SimpleNamespace(value=0.5)]

        def __init__(self, full, probes, start):
            self.full, self.solved = full, []
            self.cache = {((x,), False, None): [Interval(v, v - 0.01, v + 0.01, 10)] for x, v in probes.items()}
            self.studies = {((start,), True): SimpleNamespace(value=full(start))}

        def __call__(self, point, phase, n):
            self.solved.append(point[0])
            self.studies[(point, True)] = SimpleNamespace(value=self.full(point[0]))
            return [self.full(point[0])]

    def walk(full, probes, steps=4, start=3):
        ev = Stub(full, probes, start)
        result = TuneResult((start,), [(start,)], "", {(start,): [full(start)]})
        settle(ev, result, 100, steps=steps)
        return ev.solved, result

    full, probes = line(0.1, -0.06), {0: 0.2, 8: 0.9}
    solved, result = walk(full, probes)
    assert solved == [6, 5] and result.best == (6,)
    assert result.candidates == [(3,), (5,), (6,)] and "crosses the target between 5 and 6" in result.note
    solved, result = walk(full, probes, steps=1)            # out of steps: the nearest so far, said so
    assert solved == [6] and result.best == (6,) and "between 3 and 6; out of full solves" in result.note
    solved, result = walk(line(0.03, 0.0), {0: 0.2, 8: 0.3})   # off the range: both ends solved, both short
    assert solved == [8, 0] and result.best == (8,) and "no setting in the range reaches it" in result.note
    assert result.out_of_reach
    # the probes are flat and rise a little; in full the figure falls: the far end is solved, then between
    solved, result = walk(line(-0.1, 1.0), {0: 0.9, 8: 0.95}, start=0)
    assert solved == [8, 5] and result.best == (5,) and not result.out_of_reach
    solved, result = walk(line(0.1, 0.2), probes)           # 50% inside the first full solve's interval
    assert solved == [] and result.best == (3,)


def test_a_search_player_solution_is_checked_by_a_stronger_search():
    """Where a side's solution is the search player, the fresh check is the search player with STRONGER times
    its playouts (the same player cannot gain on itself)."""
    from sim.analysis.equilibrium import STRONGER, informed_search, stronger
    game = get_game("drako")
    base = informed_search(game, "dwarves")
    budget = game.strategies.get("search").param_names.index("budget")
    strong = stronger(base)
    assert strong.params[budget] == STRONGER * base.params[budget] and strong.searches()
    assert np.delete(strong.params, budget).tolist() == np.delete(base.params, budget).tolist()


@pytest.mark.parametrize("joins, checks, words", [
    (False, 400, "kept out of the table (its cells would cost too much here) and checked against the final solution"),
    (True, 0, "its checks were turned off"),
    (False, 0, "its checks were turned off"),
    (True, 400, "was checked each round and never gained enough to join")])
def test_the_report_says_why_the_search_player_is_not_in_the_table(joins, checks, words):
    """A study that keeps the search player out of its cells but still checks the solution with it (Drakerion's)
    must not say its checks were turned off beside the checks' own findings."""
    from types import SimpleNamespace
    from sim.report.equilibrium import search_words
    study = SimpleNamespace(game=get_game("drako"), rounds=[], sides=("dragon", "dwarves"), kind="two-sided",
                            options={"dragon": [], "dwarves": []}, budget=Budget(0.01, 2_000, 200_000),
                            search=SimpleNamespace(check_games=checks, search_joins=joins))
    assert words in search_words(study)


def test_the_final_table_is_replayed_on_fresh_seeds_only_when_a_round_kept_a_best_response():
    """Replaying removes the luck that got a best response admitted; with none admitted, nothing was chosen on the
    table's seeds and the table stands as played (a search player's table would cost as much again)."""
    from sim.analysis.equilibrium import REPLAY, Round, replayed

    seeds = []

    @dataclasses.dataclass
    class Table:
        cells: dict

        def fill(self, player, budget, slow):
            seeds.append(player.seed)

    s = spec("drako")
    player = Player(s.game, s.rules, s.players, 11)
    played = Table({(0, 0): np.zeros(3)})
    quiet = [Round((2, 2), 0.5, {}, {}, [])]
    assert replayed(played, quiet, player, SMALL, QUICK) is played and seeds == []
    assert replayed(played, [], player, SMALL, QUICK) is played and seeds == []
    kept = [*quiet, Round((3, 2), 0.6, {"dragon": "x"}, {"dragon": 0.1}, ["dragon"])]
    empty = replayed(played, kept, player, SMALL, QUICK)
    assert empty is not played and empty.cells == {} and seeds == [11 + REPLAY]
