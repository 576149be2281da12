"""Paired comparison of rule variants: both play the same seeds, game by game.

Common random numbers: every variant's chunk i is seeded from the same child of the root seed, so the
deals and shuffles are the same until the rules make the games diverge. Each outcome is compared on
the per-game differences (McNemar for rates, paired t for means), and the report says how many games
independent runs would have needed for the same precision.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals import z_of
from sim.analysis.precision import allowed_half_width, check_precision
from sim.analysis.stats import PairedResult, paired
from sim.engine import store
from sim.engine.errors import DsimError
from sim.engine.game import Game, Rules
from sim.engine.resume import keeping_chunks, open_writer
from sim.engine.runner import iter_chunks, run
from sim.engine.spec import RunSpec, check_jobs


def variant_rules(game: Game, text: str, rules_file=None, base_sets=()) -> Rules:
    """`base` (the rules as given), a preset name, or overrides `key=value;key=value`."""
    if text == "base":
        return game.load_rules(rules_file, (), base_sets)
    if "=" in text:
        return game.load_rules(rules_file, (), [*base_sets, *[s for s in text.split(";") if s.strip()]])
    return game.load_rules(rules_file, (text,), base_sets)


def arm_games(out: Path, spec: RunSpec) -> pl.DataFrame:
    part = spec.partition()
    return (store.scan(out, spec.game.name).filter(*[pl.col(k) == v for k, v in part.items()])
            .sort("game_id").collect())


def compare_frames(game: Game, a: pl.DataFrame, b: pl.DataFrame) -> list[tuple]:
    """(name, kind, paired result, label, headline) for every outcome, on the games both arms played."""
    n = min(a.height, b.height)
    a, b = a.head(n), b.head(n)
    if not np.array_equal(a["game_id"].to_numpy(), b["game_id"].to_numpy()):
        raise DsimError("the two arms did not play the same game ids; cannot pair them")
    rows = []
    for o in game.outcomes():
        xa, xb = o.values(a), o.values(b)
        if not (~np.isnan(xa) & ~np.isnan(xb)).any():
            continue                    # the outcome applies to none of these games
        rows.append((o.name, o.kind, paired(xa, xb, o.kind), o.label, o.headline))
    return rows


def run_arms(specs: list[RunSpec], out: Path, jobs: int, precision: float | None) -> int:
    """Play every arm; with a precision target, in lockstep until the headline differences are narrow."""
    if precision is None:
        for s in specs:
            run(s, out, jobs=jobs, progress=False)
        return specs[0].n
    check_precision(precision)
    check_jobs(jobs)
    writers = [open_writer(s, out) for s in specs]
    kept = min(w.done for w in writers)
    played = min(specs[0].n, kept * specs[0].size())
    with keeping_chunks(writers, out):
        narrow = kept > 0 and _differences_narrow(writers, specs, out, precision, kept)
        streams = [iter_chunks(s, jobs, start=kept) for s in specs]
        for looks, chunks in enumerate(() if narrow else zip(*streams), start=kept + 1):
            for w, (ci, cn, tables) in zip(writers, chunks):
                w.write_chunk(ci, tables)
            played += chunks[0][1]
            if _differences_narrow(writers, specs, out, precision, looks):
                break
        for w in writers:
            w.provenance.update(n=played, n_cap=specs[0].n, precision_target=precision)
            w.commit()
    return played


def _differences_narrow(writers, specs, out, precision, looks) -> bool:
    """Each headline difference (arm k against arm 0) has a plain 95% half-width within the target.

    Width-only stopping: the half-width depends on the differences' spread, not on their sign or size, so
    no alpha is spent across looks and `looks` does not enter (docs/STATISTICS.md, "Precision-stopped
    estimates"); the report shows the plain paired interval."""
    z = z_of(0.95)
    frames = []
    for w in writers:
        files = w.games_files()
        frames.append(pl.read_parquet(files).sort("game_id"))
    head = [o for o in specs[0].game.outcomes() if o.headline]
    for f in frames[1:]:
        for o in head:
            base = o.values(frames[0])
            d = o.values(f) - base
            d = d[~np.isnan(d)]
            scale = allowed_half_width(o.kind, float(np.nanmean(base)) if len(d) else math.nan, precision)
            if len(d) < 2 or z * d.std(ddof=1) / np.sqrt(len(d)) > scale:
                return False
    return True


@dataclass(frozen=True)
class Comparison:
    """Rule variants played on the same seeds: each arm's spec and games, and every outcome of each variant
    paired against the first arm ((name, kind, result, label, headline) rows, as `compare_frames` gives)."""

    game: Game
    variants: list[str]
    specs: list[RunSpec]
    frames: list[pl.DataFrame]
    results: dict[str, list[tuple[str, str, PairedResult, str, bool]]]
    n: int                          # games per arm


def compare(game: Game, base: RunSpec, variants: list[str], out: Path, jobs: int = 1,
            precision: float | None = None, rules_file=None, base_sets=()) -> Comparison:
    if len(variants) < 2:
        raise DsimError("compare needs at least two --variant options (use 'base' for the rules as given)")
    specs = [dataclasses.replace(base, rules=variant_rules(game, v, rules_file, base_sets), extra={"arm": v})
             for v in variants]
    n = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    results = {v: compare_frames(game, frames[0], f) for v, f in zip(variants[1:], frames[1:])}
    return Comparison(game, list(variants), specs, frames, results, n)
