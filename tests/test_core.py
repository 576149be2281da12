"""Shared machinery: rules files, seeding, runner determinism, statistics."""

import json
import re
import time

import numpy as np
import polars as pl
import pytest

from sim.analysis import stats
from sim.analysis.intervals_paired import holm, paired_change
from sim.analysis.precision import Tracker
from sim.engine import seeding, store
from sim.engine.errors import DsimError, RulesError
from sim.engine.rules import load_ruleset, parse_set
from sim.engine.runner import run
from sim.engine.spec import RunSpec, check_n
from sim.games import all_games, get_game

DW = get_game("dragonwake")


def spec(n=30_000, seed=3, chunk=7_000, **kw):
    rules = DW.load_rules(**kw)
    return RunSpec(DW, rules, 5, DW.lineup("hero=bayes,cultist=liar"), n, seed, chunk_size=chunk)


def read(path):
    return pl.read_parquet(path / "**" / "*.parquet").sort("game_id")


# ---- rules ---------------------------------------------------------------------------------------------

def test_every_game_labels_every_value(tmp_path):
    for game in all_games().values():
        rs = game.load_rules().ruleset
        assert all(e.source in ("rulebook", "assumed") for e in rs.entries.values())
        assert rs.hash == game.load_rules().ruleset.hash


def test_overrides_change_the_hash_and_are_labelled():
    base = DW.load_rules()
    over = DW.load_rules(sets=["min_reveals=3"])
    assert over.hash != base.hash
    assert over.ruleset.entries["min_reveals"].source == "override"
    assert "min_reveals" in over.ruleset.assumed()
    variant = DW.load_rules(variants=["min_reveals"])
    assert variant.typed.min_reveals == 5 and variant.ruleset.variants == ("min_reveals",)


def test_malformed_rules_files(tmp_path):
    bad = tmp_path / "r.toml"
    cases = {
        "[meta\n": "malformed",
        '[meta]\ngame = "drako"\n[rules.x]\nvalue = 1\nsource = "rulebook"\n': "not 'dragonwake'",
        '[meta]\ngame = "dragonwake"\n[rules.x]\nvalue = 1\nsource = "guess"\n': "source",
        '[meta]\ngame = "dragonwake"\n[rules.x]\nsource = "assumed"\n': "needs a 'value'",
    }
    for text, message in cases.items():
        bad.write_text(text)
        with pytest.raises(RulesError, match=message):
            load_ruleset(bad, "dragonwake")
    # a structurally fine file with a wrong type is caught by the game's dataclass
    text = DW.rules_file().read_text().replace("value = [5, 4, 3, 2]", 'value = "five"')
    bad.write_text(text)
    with pytest.raises(RulesError, match="hand_sizes"):
        DW.load_rules(bad)


def test_levers_set_one_part_of_a_list_rule():
    """`key[i]` sets one element, `key[CARD]` one card's count in a card list (0 takes the card out), each labelled
    an override; a part that does not exist, or a count out of range, is refused in one line naming it."""
    drako = get_game("drako")
    rules = drako.load_rules(sets=["dwarf_spaces[0]=9", "dragon_deck[defense]=5"]).ruleset
    assert rules.values["dwarf_spaces"] == [9, 5, 4]
    assert rules.values["dragon_deck"][0] == "5 x defense" and len(rules.values["dragon_deck"]) == 7
    assert rules.entries["dragon_deck"].source == "override"
    assert not any("defense" == e.split(" x ")[1] for e in
                   drako.load_rules(sets=["dragon_deck[defense]=0"]).ruleset.values["dragon_deck"])
    for bad, message in (("dragon_deck[nope]=3", "no card 'nope' in dragon_deck"),
                         ("dragon_deck[defense]=-1", "a whole number from 0 to 999"),
                         ("dragon_deck[defense]=2.5", "a whole number from 0 to 999"),
                         ("dwarf_spaces[3]=7", "has 3 elements"),
                         ("opening_hand[0]=3", "is not a list"),
                         ("dwarf_spaces[Fury]=3", "is not a card list")):
        with pytest.raises(RulesError, match=re.escape(message)):
            drako.load_rules(sets=[bad])


def test_parse_set():
    assert parse_set("hand_sizes=[4,3,2]") == ("hand_sizes", [4, 3, 2])
    assert parse_set("flag = true") == ("flag", True)
    assert parse_set("name=word") == ("name", "word")
    with pytest.raises(DsimError):
        parse_set("nonsense")


def test_check_n():
    assert check_n(1e6) == 1_000_000
    for bad in (-5, 0, 2.5, float("nan")):
        with pytest.raises(DsimError):
            check_n(bad)


# ---- seeding and runner ---------------------------------------------------------------------------------

def test_chunk_seeds_are_spawned_children():
    children = np.random.SeedSequence(12).spawn(3)
    for i, child in enumerate(children):
        assert seeding.chunk_seed(12, i) == int(child.generate_state(1, np.uint32)[0])
    assert list(seeding.chunks(10, 4)) == [(0, 4), (1, 4), (2, 2)]
    assert list(seeding.chunks(10, 4, start=2)) == [(2, 2)]


def test_same_parquet_for_one_or_two_workers(tmp_path):
    run(spec(), tmp_path / "a", jobs=1, progress=False)
    run(spec(), tmp_path / "b", jobs=2, progress=False)
    a, b = read(tmp_path / "a" / "games"), read(tmp_path / "b" / "games")
    assert a.shape[0] == 30_000 and a.equals(b)
    assert a["game_id"].to_list() == list(range(30_000))


@pytest.mark.parametrize("name", sorted(all_games()))
def test_threads_play_the_games_one_thread_plays(name):
    """Chunks on two threads of one process (the kernels release the GIL) give every table of the one-thread run,
    chunk by chunk, for the default line-up and one with a searching side (its numba np.random state is per
    thread)."""
    from sim.engine.runner import iter_chunks
    from sim.tooling.bench_compile import search_lineup
    game = get_game(name)
    for lineup, n, chunk in ((None, 1_200, 150), (search_lineup(game), 8, 2)):
        s = RunSpec(game, game.load_rules(), game.default_players, game.lineup(lineup), n, 5, chunk_size=chunk)
        one, two = list(iter_chunks(s, 1)), list(iter_chunks(s, 2))
        assert [c[:2] for c in one] == [c[:2] for c in two] and len(one) == n // chunk
        for (_, _, a), (_, _, b) in zip(one, two):
            assert a.keys() == b.keys()
            for table in a:
                assert a[table].keys() == b[table].keys()
                assert all(np.array_equal(a[table][c], b[table][c], equal_nan=a[table][c].dtype.kind == "f")
                           for c in a[table]), (lineup, table)


def test_a_thread_never_plays_what_another_is_still_compiling(monkeypatch):
    """Two threads reach the same cold strategy function: the second waits until the first has compiled it, rather
    than finding nothing pending and calling a function with no compiled signature (numba would refuse it as a
    first-class argument)."""
    import threading

    from numba import types

    from sim.engine import strategy

    @strategy.njit_later(types.int64(types.int64), cache=False)
    def plus_one(x):
        return x + 1

    slow, real = threading.Event(), strategy._compile

    def compile_slowly(*args):
        slow.set()
        threading.Event().wait(0.3)        # the other thread asks meanwhile
        real(*args)
    monkeypatch.setattr(strategy, "_compile", compile_slowly)
    ready = []

    def second():
        slow.wait(5)
        strategy.compile_now([plus_one])
        ready.append(bool(plus_one.signatures))
    other = threading.Thread(target=second)
    other.start()
    strategy.compile_now([plus_one])
    other.join(10)
    assert ready == [True] and plus_one(4) == 5


def test_dask_cluster_gives_the_same_parquet_as_threads(tmp_path, monkeypatch):
    from dask.distributed import LocalCluster
    run(spec(), tmp_path / "a", jobs=1, progress=False)
    # a scheduler reached by address, as on a real cluster (thread workers keep the test quick)
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None) as cluster:
        monkeypatch.setenv("DSIM_SCHEDULER", cluster.scheduler_address)
        run(spec(), tmp_path / "b", jobs=2, progress=False)
    a, b = read(tmp_path / "a" / "games"), read(tmp_path / "b" / "games")
    assert a.shape[0] == 30_000 and a.equals(b)


def test_a_longer_run_starts_with_the_shorter_runs_games(tmp_path):
    run(spec(n=10_000), tmp_path / "a", progress=False)
    run(spec(n=20_000), tmp_path / "b", progress=False)
    a, b = read(tmp_path / "a" / "games"), read(tmp_path / "b" / "games")
    assert b.head(10_000).equals(a)


def test_provenance_is_written(tmp_path):
    run(spec(n=1000, variants=["min_reveals"]), tmp_path, progress=False)
    (prov,) = store.runs(tmp_path)
    assert prov["game"] == "dragonwake" and prov["seed"] == 3 and prov["n"] == 1000
    assert prov["variants"] == ["min_reveals"]
    assert prov["assumed"]["min_reveals"] == 5
    assert prov["strategies"]["hero"]["name"] == "bayes"
    files = list((tmp_path / "games").rglob("*.parquet"))
    meta = pl.read_parquet_metadata(files[0])
    assert json.loads(meta["dsim"])["rules_hash"] == prov["rules_hash"]
    lf = store.scan(tmp_path, "dragonwake")
    assert lf.select("game", "players", "seed").unique().collect().rows() == [("dragonwake", 5, 3)]


def test_one_folder_holds_several_games_and_reports_use_their_other_tables(tmp_path):
    from sim.report import balance as report
    drarkane = get_game("drarkane")
    run(spec(n=2_000), tmp_path, progress=False)
    run(RunSpec(drarkane, drarkane.load_rules(), 4, drarkane.lineup(None), 500, 1), tmp_path, progress=False)
    assert store.games_in(tmp_path) == ["dragonwake", "drarkane"] and store.tables(tmp_path) == ["games", "rounds"]
    paths = report.build(tmp_path, tmp_path / "report")
    assert sorted(p.name for p in paths) == ["dragonwake.md", "drarkane.md"]
    text = (tmp_path / "report" / "drarkane.md").read_text()
    assert "| players | contract |" in text and "not available" not in text      # drawn from `rounds`
    with pytest.raises(DsimError, match="no drako results"):
        report.build(tmp_path, tmp_path / "r2", "drako")


# ---- statistics -----------------------------------------------------------------------------------------

def test_wilson_interval_covers_at_nominal_rate():
    rng = np.random.default_rng(0)
    for p, n in ((0.5, 200), (0.05, 400), (0.9, 1000)):
        hits = sum(stats.wilson(int(k), n).lo <= p <= stats.wilson(int(k), n).hi
                   for k in rng.binomial(n, p, size=2000))
        assert hits / 2000 >= 0.93


def test_mean_interval_covers_at_nominal_rate():
    rng = np.random.default_rng(1)
    hits = 0
    for _ in range(2000):
        e = stats.mean_ci(rng.exponential(2.0, size=300))
        hits += e.lo <= 2.0 <= e.hi
    assert hits / 2000 >= 0.93


def test_paired_comparison_of_identical_samples_is_zero_within_an_exact_bound():
    x = (np.random.default_rng(2).random(1000) < 0.3).astype(float)
    r = paired_change(x, x)
    assert r.identical and r.diff.value == 0 and r.p_value == 1.0
    assert r.diff.lo == -r.diff.hi and r.diff.hi == pytest.approx(1 - 0.05 ** (1 / 1000))   # not [0, 0]


def test_paired_test_detects_a_real_difference_and_saves_games():
    rng = np.random.default_rng(3)
    base = rng.random(20_000)
    a = (base < 0.40).astype(float)
    b = (base < 0.43).astype(float)        # strongly correlated arms, as with common random numbers
    r = paired_change(a, b)
    assert r.p_value < 1e-6 and r.diff.lo > 0.02 and r.diff.hi < 0.04
    assert r.saving() > 5


def test_outcomes_that_do_not_apply_are_left_out():
    """A null or NaN outcome value means 'does not apply': each arm's figure uses only its games where it
    applies, and the change is the difference of those figures."""
    from dataclasses import replace
    from sim.analysis.summary import summarize
    from sim.engine.game import Outcome
    games = pl.DataFrame({"x": [1.0, None, 0.0, float("nan"), 1.0, 1.0]})
    only_some = Outcome("x", "rate", pl.col("x"), "x")
    never = Outcome("never", "rate", pl.lit(None, dtype=pl.Float64), "never")
    game = replace(DW, name="probe")
    game.outcomes = lambda: [only_some, never]
    rows = summarize(game, games.lazy(), [])
    assert [r["outcome"] for r in rows] == ["x"]
    assert rows[0]["estimate"].n == 4 and rows[0]["estimate"].value == 0.75
    a = np.array([1.0, np.nan, 0.0, 1.0])
    b = np.array([1.0, 1.0, np.nan, 0.0])
    r = paired_change(a, b)
    assert r.a.n == 3 and r.b.n == 3 and r.diff.value == pytest.approx(2 / 3 - 2 / 3)


def test_holm_adjustment():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    p = list(np.random.default_rng(4).random(20))
    adj = holm(p)
    assert all(a >= x for a, x in zip(adj, p)) and max(adj) <= 1.0
    order = np.argsort(p)
    assert all(np.diff(np.array(adj)[order]) >= 0)      # adjusted p keeps the order of the raw p


def test_precision_target_is_absolute_for_rates_and_relative_for_large_means():
    from sim.analysis.precision import allowed_half_width
    assert allowed_half_width("rate", 0.4, 0.01) == 0.01
    assert allowed_half_width("mean", 60.0, 0.01) == pytest.approx(0.6)     # ±1% of 60 turns
    assert allowed_half_width("mean", 0.3, 0.01) == 0.01                    # small means: absolute
    assert allowed_half_width("mean", -200.0, 0.01) == pytest.approx(2.0)


def test_tracker_stops_on_a_large_mean_at_the_relative_target():
    """A mean of ~50 with sd ~10 reaches ±1% (±0.5) after some hundreds of games, never ±0.01 absolute."""
    from sim.engine.game import Outcome
    outcomes = [Outcome("rate", "rate", pl.col("x") > 50, "x above 50", headline=True),
                Outcome("size", "mean", pl.col("x"), "x", headline=True)]
    rng = np.random.default_rng(5)
    t = Tracker(outcomes, 0.05)
    while not t.look():
        t.add({"x": rng.normal(50, 10, 500)})
        assert t.n < 200_000
    e = t.estimates()
    assert e["size"].half_width() <= 0.05 * e["size"].value
    assert e["size"].half_width() > 0.05          # an absolute ±0.05 would have needed far more games
    assert e["rate"].half_width() <= 0.05


def test_a_long_lineup_label_fits_a_file_name_and_stays_distinct():
    """Tuned parameters at four seats make a label of hundreds of characters (a tournament's folder name):
    it is cut to a readable head and a hash of the whole, so two line-ups never share a folder."""
    from sim.engine.strategy import MAX_LABEL, lineup_label
    game = get_game("drarkane")
    seeker = game.strategies.get("seeker")
    weights = {name: 0.123456 for name in seeker.param_names}
    a = game.lineup("seat0=" + "seeker:" + ":".join(f"{k}={v}" for k, v in weights.items()) + ",seat1=random")
    b = game.lineup("seat0=" + "seeker:" + ":".join(f"{k}={v + 1}" for k, v in weights.items()) + ",seat1=random")
    short = game.lineup("seeker")
    assert len(lineup_label(a)) <= MAX_LABEL and lineup_label(a) != lineup_label(b)
    assert lineup_label(a).startswith("seat0-seeker(") and lineup_label(short) == "seeker"


def test_a_runs_games_per_second_leave_out_the_first_compile(tmp_path, monkeypatch):
    """The first call of a kernel compiles it (minutes on a cold numba cache): the run plays one game before its
    clock starts, so the speed it reports is the speed of play, and the games are those of any other run."""
    real, calls = DW.simulate, []

    def compiling_first(*args):
        if not calls:
            time.sleep(3.0)                      # what a first, compiling call costs (minutes, in truth)
        calls.append(args[-1])
        return real(*args)
    monkeypatch.setattr(DW, "simulate", compiling_first)
    result = run(spec(n=4_000, chunk=2_000), tmp_path / "a", progress=False)
    assert calls[0] == 1 and result["seconds"] < 3.0
    monkeypatch.undo()
    run(spec(n=4_000, chunk=2_000), tmp_path / "b", progress=False)
    assert read(tmp_path / "a" / "games").equals(read(tmp_path / "b" / "games"))
