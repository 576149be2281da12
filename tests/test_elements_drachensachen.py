"""Drachensachen's elements for `dsim ablate`: valid overrides, an unused rule weighs exactly zero, a sign."""

import pytest
from sim.analysis.ablate import ablate
from sim.report.ablate import terminal_table, write
from sim.cli.common import build_spec
from sim.engine.errors import DsimError
from sim.games import get_game
from sim.games.drachensachen.elements import elements, plain_values

GAME = get_game("drachensachen")


def test_every_element_is_valid_rules_with_a_unique_name():
    found = elements(GAME.load_rules())
    names = [e.name for e in found]
    assert len(names) == len(set(names)) == 5 + 3 + 7 + 3 + 3
    assert {"Nullo", "Extermino", "Protecto", "Golden Feathers", "Chaos"} <= set(names)
    for e in found:
        assert e.remove or e.neutral or e.force, e.name
        for mode in (e.remove, e.neutral, e.force):
            if mode:
                rules = GAME.load_rules(sets=list(mode))
                for players in (GAME.default_players, GAME.max_players):
                    GAME.check_players(rules, players)


def test_a_neutral_value_is_replaced_by_plain_values_in_proportion():
    rules = GAME.load_rules()
    counts = list(rules.typed.card_counts)
    by = {e.name: e for e in elements(rules)}
    swapped = dict(by["5s (miss a turn)"].neutral)["card_counts"]
    assert sum(swapped) == sum(counts) and swapped[4] == 0
    assert [swapped[v - 1] - counts[v - 1] for v in (1, 2, 7, 8)] == [2, 2, 2, 2]
    # a value with an ability on is no longer plain
    ball = GAME.load_rules(sets=[("ability_monsterball", True)])
    assert plain_values(ball.ruleset.values) == [1, 7, 8]
    swapped = dict({e.name: e for e in elements(ball)}["Protecto"].neutral)["card_counts"]
    assert swapped[1] == counts[1] and sum(swapped) == sum(counts)


def test_removing_a_rule_that_is_off_is_left_out_and_named(tmp_path):
    base = build_spec("drachensachen", 300, None, None, None, 3, None, None, None)
    a = ablate(GAME, base, tmp_path / "o", "remove", only=("Monsterball", "Nullo"))
    assert a.already == ("Monsterball",) and {e.key for e in a.effects} == {"Nullo"}
    report = write(a, tmp_path / "report").read_text()
    assert "Already off under these rules, so not removed here: Monsterball." in report
    with pytest.raises(DsimError, match=r"removed under these rules among Monsterball \(Monsterball already off\); "
                                        "try --mode force"):
        ablate(GAME, base, tmp_path / "o2", "remove", only=("Monsterball",))
    rows = terminal_table(a)
    assert rows[0] == ["element", "change (points)", "rank [95%]", "detected"] and rows[1][0] == "Nullo"


def test_no_neutral_element_names_the_modes_that_work(tmp_path):
    """With every ability on no monster value is plain, so nothing has a neutral stand-in (the command matrix,
    `--variant abilities`): the refusal says which modes would run."""
    base = build_spec("drachensachen", 40, None, None, ["abilities"], 3, None, None, None)
    with pytest.raises(DsimError, match="neutral element under these rules; try --mode remove or --mode force"):
        ablate(GAME, base, tmp_path / "o", "neutral")


def test_golden_feathers_make_games_longer(tmp_path):
    # 8s earn coins instead of costing them: everyone loses less a round, so 21 coins take more rounds
    base = build_spec("drachensachen", 800, None, None, None, 5, None, None, None)
    effects = ablate(GAME, base, tmp_path / "o", "force", only=("Golden Feathers",)).effects
    rounds = next(e for e in effects if e.outcome == "rounds")
    assert rounds.result.diff.lo > 0.05 and not rounds.identical


def test_the_ablate_table_fits_an_80_column_terminal(tmp_path, capsys, monkeypatch):
    from sim.cli.main import main
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["ablate", "--game", "drachensachen", "--players", "4", "--n", "40", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80
    head = next(line for line in lines if line.startswith("element"))
    assert head.split() == ["element", "change", "(points)", "rank", "[95%]", "detected"]
