"""`dsim tune` finds known answers: Dragonwake's random-play hero rate has a closed form."""

import json
import re
from math import comb

import pytest

from sim.analysis.stats import Estimate
from sim.analysis.tune import Evaluator, Param, Target, _brent, _evolve, parse_param, parse_target, tune
from sim.cli.common import build_spec
from sim.engine.errors import DsimError
from sim.games import get_game
from sim.report.tune import write


def hero_rate(players: int, relics_per_player: int = 1) -> float:
    """Random play reveals a uniformly random sequence of the 5N search cards, N per round for four rounds.
    The heroes win when every relic comes before the single dragon and within the 4N reveals."""
    m, t, r = 5 * players, 4 * players, relics_per_player * players
    return (comb(t, r + 1) + (m - t) * comb(t, r)) / comb(m, r + 1) / (r + 1)


def spec(players=5, n=20_000):
    return build_spec("dragonwake", n, players, "random", None, 3, None, None, None)


def test_tune_brackets_an_integer_target_and_verifies_the_closed_form(tmp_path):
    result = tune(get_game("dragonwake"), spec(), ["relics_per_player=1:4"], ["hero_win=0.05"])
    path, summary = write(result, tmp_path), result.summary()
    settings = [s["setting"]["relics_per_player"] for s in summary["settings"]]
    assert settings == [1, 2]                     # 10.9% and 2.2%: 5% lies between
    for s in summary["settings"]:
        o = s["outcomes"][0]
        assert o["lo"] <= hero_rate(5, s["setting"]["relics_per_player"]) <= o["hi"]
        assert not o["target_inside"]
    text = path.read_text()
    assert "no whole value of relics per player hits the target: it lies between 1 and 2" in text
    assert (tmp_path / "tune_dragonwake_response.png").exists() and (tmp_path / "tune_dragonwake.parquet").exists()


def test_tune_recovers_the_player_count_that_gives_a_known_rate(tmp_path):
    target = hero_rate(6)
    summary = tune(get_game("dragonwake"), spec(), ["players=4:8"], [f"hero_win={target}"]).summary()
    assert summary["best"]["players"] == 6
    best = [s for s in summary["settings"] if s["setting"]["players"] == 6][0]["outcomes"][0]
    assert best["target_inside"]


class Curve(Evaluator):
    """A setting's 'estimate' is a known function of it: tests the search without playing games."""

    def __init__(self, params, targets, f):
        self.params, self.targets, self.f, self.cache, self.rows = params, targets, f, {}, []
        self.base = type("B", (), {"seed": 1, "n": 1})()

    def __call__(self, point, phase="search", n=None):
        self.cache[(tuple(point), False, None)] = vals = [Estimate(v, v, v, 1) for v in self.f(*point)]
        return vals


def test_brent_finds_a_real_root_and_evolution_meets_two_targets():
    rate = get_game("dragonwake").outcomes()[0]
    x = Param("x", None, 0.0, 1.0, False)
    found = _brent(Curve([x], [Target(rate, 0.3)], lambda v: [v * v]), x)
    assert found.best[0] == pytest.approx(0.3 ** 0.5, abs=1e-3)
    k = Param("k", None, 0, 10, True)
    two = Curve([x, k], [Target(rate, 0.2), Target(rate, 0.7)], lambda v, j: [v, j / 10])
    best = _evolve(two).best
    assert best[1] == 7 and best[0] == pytest.approx(0.2, abs=0.02)


@pytest.mark.parametrize("param, target, message", [
    ("nope=1:2", "hero_win=0.5", "unknown rule 'nope'"),
    ("self_reveal=0:1", "hero_win=0.5", "not a number"),
    ("relics_per_player", "hero_win=0.5", "give relics_per_player's range"),
    ("relics_per_player=1.5:3", "hero_win=0.5", "whole number"),
    ("relics_per_player=3:1", "hero_win=0.5", "empty"),
    ("hand_sizes[9]=1:3", "hero_win=0.5", "no element"),
    ("relics_per_player=1:3", "hero_win=1.5", "from 0 to 1"),
    ("relics_per_player=1:3", "nope=0.5", "unknown outcome 'nope'"),
])
def test_bad_tune_input_is_named(param, target, message):
    game = get_game("dragonwake")
    with pytest.raises(DsimError, match=message):
        parse_param(param, game, spec())
        parse_target(target, game)


def test_tune_cli_prints_json_for_scripts(tmp_path, capsys):
    from sim.cli.main import main
    code = main(["tune", "--game", "dragonwake", "--players", "5", "--strategy", "random", "--n", "4000",
                 "--param", "relics_per_player=1:2", "--target", "hero_win=10%", "--format", "json",
                 "--out", str(tmp_path)])
    assert code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["best"] == {"relics_per_player": 1} and out["report"].endswith("tune_dragonwake.md")


def test_sensitivity_ranks_a_real_effect_and_reports_exactly_zero_for_an_unused_value(tmp_path):
    from sim.analysis.sensitivity import sensitivity
    from sim.report.sensitivity import sentence, write
    base = build_spec("drako", 3000, None, None, None, 2, None, None, None)
    result = sensitivity(get_game("drako"), base, tmp_path / "out", only=("dwarf_spaces", "turn_cap"))
    path, effects = write(result, tmp_path / "rep"), result.effects
    by = {(e.key, str(e.alternative)): e for e in effects if e.outcome == "dragon_win"}
    cap = by[("turn_cap", "200")]                  # no default game is that long: the cap never bites
    assert cap.identical and cap.result.identical and cap.result.diff.value == 0 and not cap.detected
    tough = by[("dwarf_spaces", "[7, 6, 5]")]      # tougher dwarves: the dragon wins less
    assert tough.result.diff.hi < -0.03 and not tough.identical
    text = path.read_text()
    assert re.search(r"Dragon wins moves [+-]\d+\.\d points [\[(][+-]?\d+\.?\d*, [+-]?\d+\.?\d*[\])] across \d+ "
                     r"plausible dwarf spaces values", text), text.split("## Findings")[1][:300]
    assert (tmp_path / "rep" / "sensitivity_drako_tornado_dragon_win.png").exists()
    idle = sentence([e for e in effects if e.key == "turn_cap"], "dragon_win")
    assert idle == "No assumed value changes dragon wins at all."


def test_alternatives_are_checked_when_the_rules_load(tmp_path):
    from sim.engine.errors import RulesError
    from sim.engine.rules import load_ruleset
    path = tmp_path / "r.toml"
    for leaf in ("value = 3\nrange = [4, 9]", "value = 3\nrange = [1]", "value = [1]\nrange = [0, 2]",
                 "value = 3\nalternatives = []", "value = 3\nalternatives = ['x']"):
        path.write_text(f'[meta]\ngame = "drako"\n[rules.x]\nsource = "assumed"\n{leaf}\n')
        with pytest.raises(RulesError):
            load_ruleset(path, "drako")
    path.write_text('[meta]\ngame = "drako"\n[rules.x]\nsource = "assumed"\nvalue = 3\nrange = [1, 5]\n'
                    'alternatives = [5, 8]\n')
    assert load_ruleset(path, "drako").entries["x"].alternatives == (1, 5, 8)
