"""`dsim ladder` over the Game API."""

from types import SimpleNamespace

import numpy as np
import pytest

from sim.analysis.intervals import Interval
from sim.analysis.ladder import Level, Search, judge, ladder, pick_outcome
from sim.cli.common import build_spec
from sim.games import get_game
from sim.report.ladder import verdict, write

SEARCH = Search(4, 5, 2_000)


@pytest.fixture
def short_search(monkeypatch):
    """Dragonwake has a search player: its rungs (tested below) played briefly, so these tests time the rest."""
    import sim.analysis.ladder as ladder_module
    monkeypatch.setattr(ladder_module, "SEARCH_GAMES", 100)
    monkeypatch.setattr(ladder_module, "SEARCH_BUDGETS", (4, 8))


def test_the_ladder_starts_at_random_play_and_pairs_every_level(tmp_path, short_search):
    game = get_game("dragonwake")
    base = build_spec("dragonwake", 4000, 5, "hero=bayes,cultist=liar", None, 1, None, None, None)
    result = ladder(game, base, "hero_win", 0.5, iters=1)
    steps = result.steps
    path, words = write(result, tmp_path)
    names = [s.name for s in steps]
    assert names[:2] == ["random", "default"] and "hero best response" in names
    assert all(seat.strategy.name == "random" for seat in steps[0].lineup.values())
    assert steps[1].against_default.identical and steps[1].against_default.diff.value == 0   # the default itself
    assert all(s.estimate.n == (100 if s.searching else 4000) for s in steps)   # search rungs: the first 100 deals
    text = path.read_text()
    assert words in text
    assert "best responses to the defaults found by a short search (1 iteration, population 5" in text
    assert "simultaneous 95% over" in text and "tuned" not in words


def level(name, lo, hi, shown=(0.0, 0.0), tuned=False):
    """A level whose own interval is [lo, hi] and whose change from the default the family shows as `shown`
    (an open end at 0 where the change is detected)."""
    e = Interval((lo + hi) / 2, lo, hi, 1000, "Wilson")
    a, b = shown
    s = Interval((a + b) / 2, a, b, 1000, "family", "", a == 0 and b > 0, b == 0 and a < 0)
    word = "up" if s.lo_open else "down" if s.hi_open else "no change detected"
    return Level(name, {}, e, None, "", s, word, 0.01, tuned)


@pytest.mark.parametrize("default, top, shown, expected", [
    ((0.60, 0.62), (0.70, 0.72), (0.0, 0.12), "grows"),
    ((0.60, 0.62), (0.54, 0.56), (-0.08, 0.0), "shrinks"),
    ((0.60, 0.62), (0.60, 0.63), (-0.01, 0.02), "holds"),
    ((0.60, 0.62), (0.48, 0.52), (-0.14, 0.0), "vanishes"),
    ((0.60, 0.62), (0.40, 0.42), (-0.22, 0.0), "reverses"),
    ((0.49, 0.52), (0.70, 0.72), (0.0, 0.25), "not distinguishable"),
    ((0.38, 0.40), (0.30, 0.32), (-0.10, 0.0), "grows"),        # below the reference, moving further below
])
def test_the_ladder_verdict_in_words(default, top, shown, expected):
    steps = [level("random", 0.1, 0.2), level("default", *default), level("top", *top, shown, tuned=True)]
    words = verdict(steps, 0.5, "rate", SEARCH)
    assert expected in words and "random play 15.0% [10.0, 20.0]" in words, words
    assert "the top level plays best responses to the defaults found by a short search (4 iterations, " \
           "population 5, 2,000 games)" in words


def test_grows_and_holds_are_read_off_the_shown_interval_not_the_points():
    """A top level further from the reference by its point estimate, but whose change the family does not
    detect, holds: the old verdict tested p < 0.05 per comparison and compared point values."""
    steps = [level("random", 0.1, 0.2), level("default", 0.60, 0.62),
             level("top", 0.61, 0.65, (-0.005, 0.045), tuned=True)]
    assert "holds" in verdict(steps, 0.5, "rate", SEARCH)


def test_the_rungs_against_the_default_are_one_family():
    rng = np.random.default_rng(0)
    n = 4000
    u = rng.random(n)
    values = {"random": (u < 0.3).astype(float), "default": (u < 0.5).astype(float),
              "best": (u < 0.53).astype(float)}
    steps = [Level(name, {}) for name in values]
    judge(steps, values)
    best = steps[2]
    assert best.verdict == "up" and 0 < best.shown.lo < best.shown.value and not best.shown.lo_open
    assert best.shown.hi > best.against_default.diff.hi          # simultaneous over 2: wider than one interval
    assert best.estimate.value == pytest.approx(0.53, abs=0.02)
    assert steps[1].verdict == "no change detected" and steps[1].shown.hi > 0    # an exact bound, not [0, 0]


def test_the_equilibrium_is_the_top_rung(tmp_path, short_search):
    """Given an equilibrium study, the ladder's top rung plays its mixture: each game's value is the expectation
    over the line-ups the mixture plays (all dealt alike), so a pure line-up's rung equals that line-up's games."""
    from sim.analysis.equilibrium import Search as OracleSearch, equilibrium
    from sim.analysis.ladder import play, play_level
    from sim.analysis.payoffs import Budget
    game = get_game("dragonwake")
    base = build_spec("dragonwake", 3000, 5, "hero=bayes,cultist=liar", None, 1, None, None, None)
    study = equilibrium(game, base, Budget(0.05, 500, 1000),
                        OracleSearch(iters=1, popsize=1, refine=1, games=200, rounds=1, check_games=20),
                        boot=20)
    result = ladder(game, base, "hero_win", 0.5, iters=1, study=study)
    heuristic = [s for s in result.steps if not s.searching]     # the search rungs, if any, follow
    top = heuristic[-1]
    assert top.name == "equilibrium" and abs(sum(w for _, w in top.mixture) - 1) < 1e-12
    outcome = result.outcome
    n = min(3000, top.games or 3000)        # fewer deals when the mixture searches
    expected = sum(w * play(game, base, lineup, outcome, n) for lineup, w in top.mixture)
    np.testing.assert_allclose(play_level(game, base, top, outcome, 3000), expected)
    lineup, _ = top.mixture[0]
    pure = Level("pure", lineup, mixture=[(lineup, 1.0)])
    np.testing.assert_array_equal(play_level(game, base, pure, outcome, 3000), play(game, base, lineup, outcome, 3000))
    path, words = write(result, tmp_path)
    assert "at equilibrium" in words or "to the equilibrium" in words
    assert "the top level is the equilibrium" in words


def test_the_ladder_has_search_rungs_paired_on_its_first_deals(tmp_path, monkeypatch):
    """In a game with a search player, each side searches at two budgets above the other rungs, on the ladder's
    first deals, each paired with the default on those same deals; the report names them."""
    import sim.analysis.ladder as ladder_module
    monkeypatch.setattr(ladder_module, "SEARCH_GAMES", 300)
    monkeypatch.setattr(ladder_module, "SEARCH_BUDGETS", (20, 60))
    game = get_game("drako")
    base = build_spec("drako", 1000, 2, None, None, 1, None, None, None)
    result = ladder(game, base, "dragon_win", None, iters=1, popsize=3, tune_n=300)
    searching = [s for s in result.steps if s.searching]
    assert [s.name for s in searching] == ["dragon searches (20 playouts)", "dwarves searches (20 playouts)",
                                           "dragon searches (60 playouts)", "dwarves searches (60 playouts)"]
    default = next(s for s in result.steps if s.name == "default")
    for s in searching:
        assert s.estimate.n == 300 and s.lineup[s.name.split()[0]].strategy.name == "search"
        assert s.against_default.a.n == 300          # the default's figure on the same first deals
    assert default.estimate.n == 1000
    stronger = searching[2].estimate.value - searching[3].estimate.value   # dragon searching vs dwarves searching
    assert stronger > 0.2
    path, words = write(result, tmp_path)
    text = path.read_text()
    assert "With the dragon searching (60 playouts)" in text and "the search levels on the first 300 deals" in text
    assert "dragon search (60 playouts), dwarves coordinated" in text and "search (tuned)" not in text
    assert "searches" not in words          # the headline verdict reads the rungs below the search ones


def test_the_search_rungs_budgets_follow_each_games_default():
    """A quarter of the search player's default budget, then the default: Drakerion's playouts cost a whole game,
    so its default (20) is a tenth of the others' (200), and so are its rungs."""
    from sim.analysis.ladder import default_budgets
    assert default_budgets(get_game("drako").strategies.get("search")) == (50, 200)
    assert default_budgets(get_game("drakerion").strategies.get("search")) == (5, 20)


def test_an_unconverged_equilibrium_rung_carries_its_bracket():
    """The equilibrium rung's intervals are widened by what fresh best responses still gain (the study's
    bracket), and its verdict is read off the widened interval: a 20-point rise known only to ±25 points is not
    a detected change, while the same rung from a converged study is."""
    from sim.analysis.intervals_paired import NO_CHANGE, UP
    from sim.analysis.ladder import Level, judge
    rng = np.random.default_rng(3)
    values = {"default": (rng.random(4000) < 0.5).astype(float), "equilibrium": (rng.random(4000) < 0.7).astype(float)}
    for widen, verdict in (((0.0, 0.0), UP), ((0.25, 0.1), NO_CHANGE)):
        steps = [Level("default", {}), Level("equilibrium", {}, mixture=[({}, 1.0)], widen=widen)]
        judge(steps, values)
        top = steps[1]
        assert top.verdict == verdict
        assert (top.p_adjusted != top.p_adjusted) == bool(widen[0])      # no p beside a widened interval
        assert top.shown.lo < 0 if widen[0] else top.shown.lo > 0
        assert top.estimate.lo == pytest.approx(max(0.0, top.against_default.b.lo - widen[0]))
        assert top.estimate.hi == pytest.approx(min(1.0, top.against_default.b.hi + widen[1]))


def test_a_lineup_in_words_names_only_the_seats_that_play():
    """Drarkane at 4 players: seats 4 and 5 exist in the line-up but never play, so the ladder does not list them."""
    from sim.report.labels import lineup_words
    game = get_game("drarkane")
    lineup = dict(game.lineup(None))
    first = next(iter(lineup))
    lineup[first] = lineup[first].__class__(lineup[first].strategy, lineup[first].params * 0 + 1.5)
    text = lineup_words(game, lineup, 4)
    assert "seat 3" in text and "seat 4" not in text and "seat 5" not in text
    assert "seat 5" in lineup_words(game, lineup)


def test_an_equilibrium_that_searches_is_played_on_fewer_deals():
    """An equilibrium whose line-ups search (every seat, in Dragonwake) would take days on the ladder's 100,000
    deals: its rung plays the first EQUILIBRIUM_SEARCH_GAMES; a heuristic equilibrium plays them all."""
    from sim.analysis.ladder import EQUILIBRIUM_SEARCH_GAMES, equilibrium_level
    from sim.engine.strategy import Seat
    game = get_game("drako")
    base_lineup = game.lineup(None)
    search = game.strategies.get("search")

    searching = {**base_lineup, "dragon": Seat(search, search.params())}
    base = SimpleNamespace(lineup=base_lineup)
    dragon_win = pick_outcome(game, "dragon_win")
    assert equilibrium_level(game, base, fake_study(searching), dragon_win).games == EQUILIBRIUM_SEARCH_GAMES
    assert equilibrium_level(game, base, fake_study(dict(base_lineup)), dragon_win).games is None


def fake_study(lineup, bracket=(0.45, 0.55)):
    """What the ladder reads of an equilibrium study of Drako (the dragon its first side): value 50% [45, 55]."""
    from types import SimpleNamespace
    v = Interval(0.5, 0.45, 0.55, 1000)
    return SimpleNamespace(lineups_played=lambda _: [(lineup, 1.0)], converged=True, rounds=[], sides=("dragon", "dwarves"),
                           mixture_words=lambda: "x", options={"dragon": [1]}, search=SimpleNamespace(tol=0.01),
                           bracket=lambda: Interval(0.5, *bracket, 1000), value=v)


@pytest.mark.parametrize("outcome, bracket, widen, settled", [
    ("dragon_win", (0.30, 0.60), (0.15, 0.05), True),     # the study's own figure: widened by its bracket
    ("dragon_win", (0.45, 0.55), (0.0, 0.0), True),       # a settled study adds nothing
    ("turns", (0.30, 0.60), (0.0, 0.0), False),           # another figure: not widened, and not settled
    ("turns", (0.45, 0.55), (0.0, 0.0), True)])
def test_the_equilibrium_rung_widens_only_the_studys_own_figure(outcome, bracket, widen, settled):
    """The study's bracket bounds the first side's score (the dragon's wins in Drako), not another figure of the
    same games: an unsettled study leaves that figure at the study's mixture, and the report says so."""
    from sim.analysis.ladder import Level, equilibrium_level
    from sim.report.ladder import verdict
    game = get_game("drako")
    base = SimpleNamespace(lineup=game.lineup(None))
    top = equilibrium_level(game, base, fake_study(dict(base.lineup), bracket), pick_outcome(game, outcome))
    assert top.widen == pytest.approx(widen) and top.settled == settled
    assert ("not settled" in top.note) == (not settled)
    top.estimate = Interval(0.3, 0.28, 0.32, 1000)
    steps = [Level("random", {}, estimate=Interval(0.5, 0.48, 0.52, 1000)),
             Level("default", {}, estimate=Interval(0.3, 0.28, 0.32, 1000)), top]
    words = verdict(steps, 0.5, "rate")
    assert ("holds at equilibrium:" in words) == settled
    assert ("holds at the equilibrium study's mixture" in words) == (not settled)
