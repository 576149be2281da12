"""`dsim balance`: the target file, the search on a toy game whose answer is known, and Drakerion's named pools
and a smoke run of the command (tiny n)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import polars as pl
import pytest
import balance_toy as toy
from drakerion_cards import FIRST_DRAFT_RULES
from test_json import check

from sim.analysis.autobalance import balance
from sim.analysis.targets import read_goal
from sim.cli.main import main
from sim.engine.errors import DsimError
from sim.engine.spec import RunSpec
from sim.games import get_game

TOY_TARGET = """
[meta]
title = "even decks"
[tune]
bounds = { power = 1 }
cards_per_step = 2
candidates = 9
[[target]]
measure = "field"
low = 0.45
high = 0.55
[[target]]
measure = "matchup"
low = 0.35
high = 0.65
[[target]]
measure = "rate"
outcome = "draw"
high = 0.02
[[target]]
measure = "quantile"
outcome = "turns"
low = 10
high = 20
"""


def toy_spec(n: int = 3000) -> RunSpec:
    rules = toy.GAME.load_rules()
    return RunSpec(toy.GAME, rules, 2, toy.GAME.lineup(None, rules), n, seed=4)


def field_score(totals: dict[str, int], deck: str) -> float:
    others = [d for d in totals if d != deck]
    return float(np.mean([toy.win_chance(totals[deck], totals[o]) for o in others]))


def test_toy_reaches_the_known_answer(tmp_path):
    """a (9) is 15 points too strong against b and c (6 each): the answer takes power off a's items and gives it
    to b's and c's until every deck's exact field score is in 45-55%."""
    target = tmp_path / "t.toml"
    target.write_text(TOY_TARGET)
    result = balance(toy.GAME, toy_spec(), target, "even", steps=6)
    assert result.written.exists() and result.written.name == "even.toml"
    items = toy.read_items(str(result.written))
    totals = {d: sum(p for _, p in xs) for d, xs in items.items()}
    assert totals["a"] < 9 and totals["b"] >= 6 and totals["c"] >= 6
    for d in totals:
        assert 0.45 - 1e-9 <= field_score(totals, d) <= 0.55 + 1e-9, (totals, d)
    assert result.loss_after < result.loss_before
    assert all(r.verdict() != "outside" for r in result.rows if r.target.measure in ("field", "matchup"))
    changed = {k: v for k, v in result.changes.items()}
    assert all(abs(v - result.start[k]) <= 1 for k, v in changed.items())       # within the bounds
    assert "tuned by `dsim balance`" in result.written.read_text()
    with pytest.raises(DsimError, match="exists"):                             # never over a pool
        balance(toy.GAME, toy_spec(), target, "even", steps=1)


FIELD = '[[target]]\nmeasure = "field"\nlow = 0.4\n'
POWER = '[tune]\nbounds = {power = 1}\n'
BAD_FILES = {
    "'wide'": FIELD + "wide = 1\n" + POWER,
    "measure": FIELD.replace("field", "nope") + POWER,
    "outcome": FIELD.replace('"field"', '"rate"\noutcome = "turns"') + POWER,
    "above high": FIELD + "high = 0.3\n" + POWER,
    "bounds 'cost'": FIELD + POWER.replace("power", "cost"),
    "bounds is missing": FIELD,
    "no [[target]]": POWER,
    "q must": FIELD.replace('"field"', '"quantile"\noutcome = "turns"\nq = 2') + POWER,
}


@pytest.mark.parametrize("bad", BAD_FILES)
def test_bad_target_file_is_one_line(tmp_path, bad):
    path = tmp_path / "t.toml"
    path.write_text(BAD_FILES[bad])
    with pytest.raises(DsimError) as e:
        read_goal(path, toy.GAME, ["a", "b", "c"], {"power"})
    assert bad in str(e.value) and "\n" not in str(e.value)


def test_a_game_whose_content_is_not_data_is_refused(tmp_path, capsys):
    target = tmp_path / "t.toml"
    target.write_text(TOY_TARGET)
    code = main(["balance", "--game", "dragonwake", "--target", str(target), "--pool-out", "x", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "not data" in err and "`dsim tune`" in err and len(err.strip().splitlines()) == 1


# ---- Drakerion ---------------------------------------------------------------------------------------------

def test_named_pools_first_draft_plays_the_built_in_games():
    g = get_game("drakerion")
    default, named = g.load_rules(FIRST_DRAFT_RULES), g.load_rules(FIRST_DRAFT_RULES, sets=["cards=first_draft"])
    lineup = g.lineup(None, default)
    a = g.simulate(default, 2, lineup, 123, 300)
    b = g.simulate(named, 2, lineup, 123, 300)
    for table in a:
        assert pl.DataFrame(a[table]).equals(pl.DataFrame(b[table]))
    assert named.ruleset.data_files != default.ruleset.data_files       # the rules name the pool they played


def test_unknown_pool_name_lists_the_known(tmp_path, capsys):
    code = main(["run", "--game", "drakerion", "--set", "cards=nope", "--n", "10", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "unknown pool 'nope'" in err and "first_draft" in err and err.count("\n") == 1
    assert main(["games", "drakerion"]) == 0
    listed = capsys.readouterr().out
    assert "named pools (--set cards=NAME):" in listed and "first_draft" in listed and "default: starter" in listed


SMOKE_TARGET = """
[play]
decks = ["ember", "tide"]
[tune]
bounds = { cost = 1, melee = 1, hp = 1 }
candidates = 3
[[target]]
measure = "field"
low = 0.45
high = 0.55
[[target]]
measure = "quantile"
outcome = "turns"
low = 6
high = 12
"""


def test_drakerion_smoke(tmp_path, monkeypatch, capsys):
    from sim.games.drakerion import rules
    (tmp_path / "pools").mkdir()
    draft = rules.alias_of(rules.POOLS / "starter.toml")           # the default pool names its draft
    for name in ("starter", draft):                                  # where the rules look for them
        (tmp_path / "pools" / f"{name}.toml").write_bytes((rules.POOLS / f"{name}.toml").read_bytes())
    monkeypatch.setattr(rules, "POOLS", tmp_path / "pools")
    builtin = hashlib.sha256((tmp_path / "pools" / f"{draft}.toml").read_bytes()).hexdigest()
    target = tmp_path / "t.toml"
    target.write_text(SMOKE_TARGET)
    args = ["balance", "--game", "drakerion", "--target", str(target), "--n", "40", "--steps", "1", "--seed", "2",
            "--out", str(tmp_path / "res"), "--format", "json"]
    assert main([*args, "--pool-out", "smoke"]) == 0
    out = json.loads(capsys.readouterr().out)
    written = tmp_path / "pools" / "smoke.toml"
    assert written.exists() and out["pool"] == str(written)
    assert {"before", "after", "inside_after"} <= set(out["rows"][0]) and check(out) > 3
    assert (tmp_path / "res" / "report" / "balance_drakerion.md").exists()
    assert hashlib.sha256((tmp_path / "pools" / f"{draft}.toml").read_bytes()).hexdigest() == builtin
    get_game("drakerion").load_rules(sets=["cards=smoke"])                  # the new pool loads by its name
    assert main([*args, "--pool-out", "smoke"]) == 2                         # never over an existing pool
    assert "exists" in capsys.readouterr().err
    target.write_text(SMOKE_TARGET.replace("candidates = 3", "candidates = 3\nbogus = 1"))
    assert main([*args, "--pool-out", "other"]) == 2
    assert "'bogus'" in capsys.readouterr().err
    assert not (tmp_path / "pools" / "other.toml").exists()
