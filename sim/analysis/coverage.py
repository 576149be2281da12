"""Which rules a run exercised, read from the games table's `fired_<name>` counters.

Each game counts, per game, how often each rule, card effect and variant rule applied. A counter named after
a rule key counts the situations that rule decides (under either reading of a flag), so a zero means the
rule could not have changed anything: a comparison of that rule tested nothing, and a report must say so.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sim.engine.game import Rules

PREFIX = "fired_"


@dataclass(frozen=True)
class Fired:
    name: str
    games: int        # games where it fired at least once
    times: int        # fires over all games
    n: int            # games looked at

    @property
    def share(self) -> float:
        return self.games / self.n if self.n else 0.0


def counter_names(frame: pl.DataFrame | pl.LazyFrame) -> list[str]:
    columns = frame.collect_schema().names() if isinstance(frame, pl.LazyFrame) else frame.columns
    return [c[len(PREFIX):] for c in columns if c.startswith(PREFIX)]


def fired(frame: pl.DataFrame | pl.LazyFrame) -> dict[str, Fired]:
    """Every counter of these games: in how many games it fired, and how often."""
    names = counter_names(frame)
    if not names:
        return {}
    lazy = frame.lazy() if isinstance(frame, pl.DataFrame) else frame
    aggs = [pl.len().alias("__n")]
    for name in names:
        col = pl.col(PREFIX + name)
        aggs += [(col > 0).sum().alias(f"{name}__g"), col.cast(pl.Int64).sum().alias(f"{name}__t")]
    row = lazy.select(aggs).collect(engine="streaming").row(0, named=True)
    return {name: Fired(name, int(row[f"{name}__g"] or 0), int(row[f"{name}__t"] or 0), int(row["__n"]))
            for name in names}


def changed_rules(base: Rules, other: Rules) -> list[str]:
    """Rule keys whose value differs between two rule sets."""
    a, b = base.ruleset.values, other.ruleset.values
    return [k for k in b if a.get(k) != b[k]]


def silent_rules(base: Rules, other: Rules, arms: list[pl.DataFrame]) -> list[str]:
    """Rules `other` changes that have a counter which fired in none of the arms' games."""
    silent = []
    for key in changed_rules(base, other):
        column = PREFIX + key
        if all(column in f.columns for f in arms) and all(int(f[column].sum()) == 0 for f in arms):
            silent.append(key)
    return silent


def exercised(games: pl.DataFrame | pl.LazyFrame, runs: list[dict], gates: dict[str, str] | None = None
              ) -> tuple[list[Fired], list[str], list[str]]:
    """Counters over the games, the ones that never fired, and the variant rules off in every run.

    A counter is only looked at in the runs where the rule that switches its subject on was on: the rule of
    its own name, or its gate (`Game.counter_gates`: Dragonwake's Eclipse counter is gated by `events`). A
    rule is on when true, or when a count is above zero.
    """
    values = {r["rules_hash"]: {k: v["value"] for k, v in r.get("values", {}).items()} for r in runs}
    gates = gates or {}
    runs_of: dict[str, tuple | None] = {}     # the runs (rules hashes) a counter is read over; None: all of them
    for name in counter_names(games):
        gate = gates.get(name, name)
        flags = {h: on for h, vals in values.items() if (on := _switched_on(vals.get(gate), name in gates)) is not None}
        runs_of[name] = tuple(sorted(h for h, on in flags.items() if on)) if flags else None
    by_runs: dict[tuple | None, list[str]] = {}       # counters read over the same runs: one streamed pass each
    for name, hashes in runs_of.items():
        by_runs.setdefault(hashes, []).append(name)
    counted: dict[str, Fired] = {}
    for hashes, names in by_runs.items():
        frame = games if hashes is None else games.filter(pl.col("rules").is_in(list(hashes)))
        counted.update(fired(frame.select([PREFIX + name for name in names])))
    rows, never, off = [], [], []
    for name in counter_names(games):
        f = counted[name]
        if f.n == 0 and runs_of[name] is not None:
            off.append(name)
            continue
        rows.append(f)
        if f.games == 0:
            never.append(name)
    return rows, never, off


def _switched_on(value, declared: bool) -> bool | None:
    """Whether a gate rule's value turns its subject on; None when the value does not gate anything."""
    if isinstance(value, bool):
        return value
    if declared and isinstance(value, int):
        return value > 0
    return None


def identical_games(a: pl.DataFrame, b: pl.DataFrame, labels: list[str] | tuple = ()) -> bool:
    """Whether two arms played the same games move for move, as far as the games table shows.

    `labels` are columns that name the arm rather than record play (`Game.label_columns`)."""
    drop = [c for c in ("game", "players", "rules", "lineup", "seed", *labels) if c in a.columns]
    return a.height == b.height and a.columns == b.columns and a.drop(drop).equals(b.drop(drop))
