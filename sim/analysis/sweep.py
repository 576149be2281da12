"""`dsim sweep`: a grid over rule parameters, every point on the same seeds (`sim.report.sweep` draws the interval
bands)."""

from __future__ import annotations

import dataclasses
import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.summary import summarize
from sim.engine import store
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.runner import run
from sim.engine.spec import RunSpec


def parse_param(text: str) -> tuple[str, list]:
    """`key=a:b` (inclusive, step 1), `key=a:b:step`, or a list `key=v1|v2|v3` (TOML values).

    `key` is a rule name, or `players`.
    """
    if "=" not in text:
        raise DsimError(f"--param expects key=values, got '{text}'")
    key, spec = (s.strip() for s in text.split("=", 1))
    if ":" in spec and not spec.startswith("["):
        parts = [_literal(p) for p in spec.split(":")]
        if len(parts) not in (2, 3) or not all(isinstance(p, (int, float)) for p in parts):
            raise DsimError(f"--param range must be a:b or a:b:step with numbers, got '{spec}'")
        start, stop = parts[0], parts[1]
        step = parts[2] if len(parts) == 3 else 1
        if step <= 0 or stop < start:
            raise DsimError(f"--param range '{spec}' is empty")
        values = list(np.arange(start, stop + step / 2, step))
        values = [int(v) if all(isinstance(p, int) for p in parts) else float(v) for v in values]
    else:
        values = [_literal(v) for v in spec.split("|")]
    return key, values


def _literal(text: str):
    try:
        return tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def grid(params: list[str]) -> tuple[list[str], list[tuple]]:
    parsed = [parse_param(p) for p in params]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise DsimError("each --param may appear once")
    return keys, list(itertools.product(*[v for _, v in parsed]))


@dataclass(frozen=True)
class Sweep:
    """Every point of a grid over rule parameters (`keys`, and `players`), played on the same seeds: one row per
    (point, outcome), with the point's values and the outcome's estimate (as `summarize` gives it)."""

    game: Game
    base: RunSpec
    keys: list[str]
    rows: list[dict]

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{**{k: str(r[k]) for k in self.keys}, "outcome": r["outcome"],
                              "value": r["estimate"].value, "lo": r["estimate"].lo, "hi": r["estimate"].hi,
                              "n": r["estimate"].n} for r in self.rows])


def point_specs(game: Game, base: RunSpec, params: list[str], rules_file=None, variants=(), base_sets=()
                ) -> tuple[list[str], list[tuple], list[RunSpec]]:
    """The grid's keys, its points and one run per point, every point validated before any is played."""
    if not params:
        raise DsimError("sweep needs at least one --param")
    keys, points = grid(params)
    specs = []
    for point in points:      # validate every point before playing any
        values = dict(zip(keys, point))
        players = values.pop("players", base.players)      # the player count is swept like a rule
        rules = game.load_rules(rules_file, variants, [*base_sets, *values.items()])
        if not isinstance(players, int):
            raise DsimError(f"players must be whole numbers, got {players!r}")
        game.check_players(rules, players)
        specs.append(dataclasses.replace(base, rules=rules, players=players, extra={"sweep": dict(zip(keys, point))}))
    return keys, points, specs


def point_label(keys: list[str], point: tuple) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, point))


def sweep(game: Game, base: RunSpec, params: list[str], out: Path, jobs: int = 1,
          rules_file=None, variants=(), base_sets=()) -> Sweep:
    keys, points, specs = point_specs(game, base, params, rules_file, variants, base_sets)
    rows = []
    for point, spec in zip(points, specs):
        run(spec, out, jobs=jobs, progress=False)
        part = spec.partition()
        lf = store.scan(out, part["game"]).filter(*[pl.col(k) == v for k, v in part.items()])
        for r in summarize(game, lf, []):
            rows.append({**dict(zip(keys, point)), **r})
    return Sweep(game, base, keys, rows)
