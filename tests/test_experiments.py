"""Experiment layer: pairing, sweeps, tournaments, optimisation, precision targets, specs."""

import json

import numpy as np
import polars as pl
import pytest

from sim.analysis.compare import arm_games, compare_frames, variant_rules
from sim.analysis.intervals_paired import paired_change
from sim.analysis.precision import run_to_precision
from sim.analysis.sweep import parse_param
from sim.analysis.tournament import rotations
from sim.cli.main import main
from sim.engine.errors import DsimError
from sim.engine.runner import run
from sim.engine.spec import RunSpec
from sim.games import all_games, get_game
from sim.workflows.experiment import run_experiment

DW = get_game("dragonwake")


def base(game, n=4000, seed=7, players=None, lineup=None):
    rules = game.load_rules()
    return RunSpec(game, rules, players or game.default_players, game.lineup(lineup), n, seed)


@pytest.mark.parametrize("name", sorted(all_games()))
def test_a_variant_compared_to_itself_differs_by_exactly_zero(tmp_path, name):
    game = get_game(name)
    spec = base(game, n=3000)
    run(spec, tmp_path / "a", progress=False)
    run(spec, tmp_path / "b", progress=False)
    rows = compare_frames(game, arm_games(tmp_path / "a", spec), arm_games(tmp_path / "b", spec))
    assert rows
    for _, kind, r, _, _ in rows:
        assert r.identical and r.diff.value == 0 and r.p_value == 1.0
        if kind == "rate":          # an exact bound on a change no game showed, not [0, 0]
            assert r.diff.lo < 0 < r.diff.hi


def test_pairing_saves_games_on_a_real_rule_change(tmp_path):
    spec = base(DW, n=40_000)
    a = spec
    b = RunSpec(DW, variant_rules(DW, "min_reveals"), 5, spec.lineup, spec.n, spec.seed)
    run(a, tmp_path, progress=False)
    run(b, tmp_path, progress=False)
    rows = {name: r for name, _, r, _, _ in compare_frames(DW, arm_games(tmp_path, a), arm_games(tmp_path, b))}
    hero = rows["hero_win"]
    assert hero.p_value < 1e-6 and hero.diff.lo > 0           # the fuse helps heroes
    assert hero.saving() > 3                                   # same deals: far fewer games needed


def test_compare_command_writes_report_and_chart(tmp_path, capsys):
    assert main(["compare", "--game", "dragonwake", "--variant", "base", "--variant", "min_reveals=3",
                 "--n", "5000", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "report" / "compare_dragonwake.md").read_text()
    assert "McNemar" in text and "min_reveals=3 against base" in text
    assert "exactly the same games" not in text
    assert list((tmp_path / "report").glob("*.png"))
    assert main(["compare", "--game", "dragonwake", "--variant", "base", "--out", str(tmp_path)]) == 2


def test_compare_json_carries_each_change_with_its_verdict(tmp_path, capsys):
    assert main(["compare", "--game", "dragonwake", "--variant", "base", "--variant", "min_reveals=3",
                 "--n", "2000", "--out", str(tmp_path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["changes"]
    assert rows and out["interval"] == f"simultaneous 95% over {len(rows)} changes"
    changes = [r["change"] for r in rows]
    assert all({"value", "low", "high", "verdict", "p_adjusted", "detected", "unit"} <= set(c) for c in changes)
    assert all((c["verdict"] == "no change detected") == (c["low"] <= 0 <= c["high"] and not (c["low_open"] or
                                                                                              c["high_open"]))
               for c in changes)
    assert all(c["detected"] == (c["verdict"] != "no change detected") for c in changes)


def test_compare_warns_when_a_variant_changed_nothing(tmp_path, capsys):
    # a turn cap no Drako game reaches: the same games, move for move
    assert main(["compare", "--game", "drako", "--variant", "base", "--variant", "turn_cap=1000", "--n", "2000",
                 "--out", str(tmp_path)]) == 0
    text = (tmp_path / "report" / "compare_drako.md").read_text()
    assert "turn_cap=1000 played exactly the same games as base" in text and "tested nothing" in text


def test_compare_with_precision_target_stops_early(tmp_path):
    assert main(["compare", "--game", "dragonwake", "--variant", "base", "--variant", "min_reveals",
                 "--n", "1e6", "--precision", "0.01", "--out", str(tmp_path)]) == 0
    games = pl.scan_parquet(tmp_path / "games" / "**" / "*.parquet", hive_partitioning=True).collect()
    assert 0 < games.height < 2_000_000


def test_run_to_precision_stops_and_says_why(tmp_path):
    spec = base(DW, n=2_000_000)
    spec.chunk_size = 20_000
    result = run_to_precision(spec, tmp_path, 0.005)
    assert result["n"] < 2_000_000 and "look" in result["reason"]
    assert result["estimates"]["hero_win"].half_width() <= 0.005


def test_parse_param():
    assert parse_param("min_reveals=0:10:5") == ("min_reveals", [0, 5, 10])
    assert parse_param("players=4:6") == ("players", [4, 5, 6])
    assert parse_param("hand_sizes=[5,4,3,2]|[6,5,4,3,2]") == ("hand_sizes", [[5, 4, 3, 2], [6, 5, 4, 3, 2]])
    with pytest.raises(DsimError):
        parse_param("x=5:1")


def test_sweep_command(tmp_path):
    assert main(["sweep", "--game", "dragonwake", "--param", "min_reveals=0:10:10", "--param", "players=4|6",
                 "--n", "3000", "--out", str(tmp_path)]) == 0
    table = pl.read_parquet(tmp_path / "report" / "sweep_dragonwake.parquet")
    hero = table.filter(pl.col("outcome") == "hero_win")
    assert hero.height == 4 and (hero["lo"] <= hero["value"]).all() and (hero["value"] <= hero["hi"]).all()
    assert (tmp_path / "report" / "sweep_dragonwake_hero_win.png").exists()
    text = (tmp_path / "report" / "sweep_dragonwake.md").read_text()     # points in words, not rule keys
    assert "| min reveals 10, 6 players |" in text and "min_reveals" not in text.split("## Every point")[1]
    assert main(["sweep", "--game", "dragonwake", "--param", "nope=1:2", "--out", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()


def test_rotations_balance_seats():
    assert rotations(("hero", "cultist")) == [(True, False), (False, True)]
    r = rotations(tuple(f"seat{i}" for i in range(5)))
    assert [sum(x) for x in r] == [3, 2] and all(a != b for a, b in zip(*r))


def test_tournament_command(tmp_path):
    assert main(["tournament", "--game", "dragonwake", "--strategies", "random,bayes", "--n", "5000",
                 "--out", str(tmp_path)]) == 0
    table = pl.read_parquet(tmp_path / "report" / "tournament_dragonwake.parquet")
    assert table.height == 1 and table["games"][0] == 10_000 and table["deals"][0] == 5_000
    # bayes (reads claims) beats random in both seats
    assert table["a"][0] == "random" and table["hi"][0] < 0.5
    assert main(["tournament", "--game", "dragonwake", "--strategies", "random,honest",
                 "--out", str(tmp_path / "x")]) == 2


def test_tournament_json_carries_the_test_of_fit(tmp_path, capsys):
    assert main(["tournament", "--game", "dragonwake", "--strategies", "random,bayes,hero=honest/cultist=liar",
                 "--n", "2000", "--format", "json", "--out", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    fit = data["fit"]
    assert fit["model"] == "Bradley–Terry" and fit["df"] == 1 and fit["x2"] >= 0 and 0 <= fit["p"] <= 1
    assert fit["fits"] in (True, False)
    assert any("Bradley–Terry" in f for f in data["findings"])


def test_optimize_finds_weights_at_least_as_good(tmp_path):
    assert main(["optimize", "--game", "dragonwake", "--strategy", "honest", "--role", "hero", "--field",
                 "cultist=liar", "--n", "3000", "--iters", "2", "--out", str(tmp_path)]) == 0
    table = pl.read_parquet(next((tmp_path / "report").glob("optimize_*.parquet")))
    assert table["score"].max() >= table["score"][0]
    assert "fresh seeds" in next((tmp_path / "report").glob("optimize_*.md")).read_text()


def test_experiment_specs(tmp_path):
    spec = tmp_path / "e.toml"
    spec.write_text('[experiment]\nkind = "run"\ngame = "dragonwake"\nn = 3000\nplayers = [4, 6]\n'
                    'title = "Do more players help the heroes?"\n')
    paths = run_experiment(spec, tmp_path / "res", tmp_path / "rep")
    assert "| 6 |" in paths[0].read_text()
    assert "Do more players help the heroes?" in paths[0].with_suffix(".html").read_text()   # both twins
    spec.write_text('[experiment]\nkind = "dance"\ngame = "dragonwake"\n')
    with pytest.raises(DsimError, match="kind"):
        run_experiment(spec, tmp_path / "res2", tmp_path / "rep2")
    spec.write_text('[experiment]\nkind = "run"\ngame = "dragonwake"\nplayerz = 4\n')
    with pytest.raises(DsimError, match="playerz"):
        run_experiment(spec, tmp_path / "res3", tmp_path / "rep3")
    assert not (tmp_path / "res2").exists() and not (tmp_path / "res3").exists()


def test_paired_intervals_cover_a_known_difference():
    """Coverage of the paired difference interval at its nominal rate (known answer: p_b - p_a = 0.02)."""
    rng = np.random.default_rng(5)
    covered = 0
    for _ in range(400):
        u = rng.random(2000)
        r = paired_change((u < 0.30).astype(float), (u < 0.32).astype(float))
        covered += r.diff.lo <= 0.02 <= r.diff.hi
    assert covered / 400 >= 0.93


def test_a_ladder_spec_can_keep_the_search_player_out_of_its_study(tmp_path, monkeypatch):
    """`search_joins = false` in a ladder spec reaches the equilibrium study of its top rung (Drakerion's: the
    search player's cells would cost hours), and the default lets it join."""
    import sim.workflows.experiment as experiment
    seen = []

    def stop(game, base, jobs, search):
        seen.append(search.search_joins)
        raise RuntimeError("stop before solving")
    monkeypatch.setattr(experiment, "standard_study", stop)
    for joins in ("false", "true"):
        spec = tmp_path / f"ladder_{joins}.toml"
        spec.write_text(f'[experiment]\nkind = "ladder"\ngame = "drako"\nn = 100\nsearch_joins = {joins}\n')
        with pytest.raises(RuntimeError):
            experiment.run_experiment(spec, tmp_path / "r", tmp_path / "out")
    assert seen == [False, True]
