"""Hostile input, by property: any rule override and any out-of-range number either is refused in one
line (exit 2, nothing written) or gives a run that ends, stalemates counted. Every game."""

import contextlib
import io
import math
import tempfile
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli.main import main
from sim.games import all_games, get_game

GAMES = sorted(all_games())
N = 60                          # games per run: enough to play every rule path now and then, cheap


def dsim(*args) -> tuple[int, list[str]]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([str(a) for a in args])
    return code, err.getvalue().strip().splitlines()


def toml_literal(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "").replace('"', "") + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(toml_literal(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    return repr(value)


numbers = st.one_of(st.integers(-3, 12), st.integers(-10**12, 10**12), st.sampled_from([0, 1, 2**31, 2**63 - 1]),
                    st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(numbers, st.booleans(), st.text(max_size=8))
values = st.one_of(scalars, st.lists(st.one_of(st.integers(-2, 12), numbers), max_size=14),
                   st.lists(st.lists(st.integers(-2, 12), max_size=6), max_size=6))


def near(default):
    """Values like the default: the same shape with nearby or extreme numbers (where bugs hide)."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        return st.one_of(st.integers(default - 3, default + 3), st.integers(-5, 10**7))
    if isinstance(default, float):
        return st.one_of(st.floats(default - 2, default + 2), st.floats(-1e9, 1e9))
    if isinstance(default, (list, tuple)) and default and all(isinstance(v, int) for v in default):
        lo, hi = min(default), max(default)
        return st.lists(st.integers(min(lo - 2, -1), hi + 3), min_size=max(0, len(default) - 2),
                        max_size=len(default) + 3)
    return values


def check_outcome(game: str, key: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "res"
        code, err = dsim("run", "--game", game, "--set", f"{key}={text}", "--n", N, "--out", out, "--no-progress")
        if code == 2:
            assert len(err) == 1 and err[0].startswith("dsim: error: "), err
            assert not out.exists() or not any(out.rglob("*.parquet")), "refused, yet wrote results"
            return
        assert code == 0, err
        games = pl.read_parquet(out / "games" / "**" / "*.parquet")
        assert games.height == N


def overrides_hold(game: str, examples: int) -> None:
    g = get_game(game)
    defaults = g.load_rules().ruleset.values
    keys = sorted(defaults)

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def prop(data):
        key = data.draw(st.sampled_from(keys), label="rule")
        value = data.draw(st.one_of(near(defaults[key]), values), label="value")
        check_outcome(game, key, toml_literal(value))

    prop()


@pytest.mark.parametrize("game", GAMES)
def test_any_rule_override_is_refused_in_one_line_or_plays_to_the_end(game):
    overrides_hold(game, 15)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_many_rule_overrides_soak(game):
    overrides_hold(game, 400)


OPTIONS = {"--n": st.one_of(st.integers(-10**6, 0), st.integers(10**12 + 1, 10**40),
                            st.floats(0.01, 0.99), st.sampled_from(["nan", "inf", "-inf", "1e99", "x"])),
           "--players": st.one_of(st.integers(-10**6, 1), st.integers(11, 10**9), st.sampled_from(["x", "2.5"])),
           "--jobs": st.one_of(st.integers(-10**6, 0), st.integers(10**5, 10**12), st.sampled_from(["x"])),
           "--seed": st.one_of(st.integers(-10**12, -1), st.integers(2**63, 2**80), st.sampled_from(["x", "1.5"])),
           "--precision": st.one_of(st.floats(max_value=0.0), st.floats(min_value=1e6), st.sampled_from(["nan", "x"]))}


@settings(max_examples=30, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_number_out_of_range_is_refused_in_one_line(data):
    option = data.draw(st.sampled_from(sorted(OPTIONS)), label="option")
    value = data.draw(OPTIONS[option], label="value")
    game = data.draw(st.sampled_from(GAMES), label="game")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "res"
        code, err = dsim("run", "--game", game, option, value, "--n" if option != "--n" else "--seed",
                         10 if option != "--n" else 0, "--out", out, "--no-progress")
        assert code == 2 and len(err) == 1 and err[0].startswith("dsim: error: "), (option, value, err)
        assert not out.exists()
