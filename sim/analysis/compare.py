"""Paired comparison of rule variants: both play the same seeds, game by game.

Common random numbers: every variant's chunk i is seeded from the same child of the root seed, so the
deals and shuffles are the same until the rules make the games diverge. Each outcome's change is a paired
change (`intervals_paired.paired_change`: a difference of ratios of totals over every paired game, so an
outcome that applies only to some games is compared on what each arm's report shows), and every outcome of
every variant is one family (`family_of_changes`: simultaneous intervals, single-step max-|t|), whose interval is
the one shown and whose verdict is read off it. docs/STATISTICS.md says why.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals import Interval, z_of
from sim.analysis.intervals_paired import Judged, PairedChange, family_of_changes, paired_change
from sim.analysis.precision import allowed_half_width, check_precision
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


def paired_frames(frames: list[pl.DataFrame]) -> list[pl.DataFrame]:
    """The arms' games cut to the ones every arm played, checked to be the same games."""
    n = min(f.height for f in frames)
    frames = [f.head(n) for f in frames]
    ids = frames[0]["game_id"].to_numpy()
    if any(not np.array_equal(ids, f["game_id"].to_numpy()) for f in frames[1:]):
        raise DsimError("the arms did not play the same game ids; cannot pair them")
    return frames


def applies(xa: np.ndarray, xb: np.ndarray) -> bool:
    """Each arm has games where the outcome applies (else its figure, and so the change, is undefined)."""
    return bool((~np.isnan(xa)).any() and (~np.isnan(xb)).any())


def compare_frames(game: Game, a: pl.DataFrame, b: pl.DataFrame) -> list[tuple]:
    """(name, kind, paired change, label, headline) for every outcome, on the games both arms played."""
    a, b = paired_frames([a, b])
    deal = game.deals(a)
    deal = None if len(np.unique(deal)) == len(deal) else deal      # independent games: the plain paired change
    rows = []
    for o in game.outcomes():
        xa, xb = o.values(a), o.values(b)
        if applies(xa, xb):
            rows.append((o.name, o.kind, paired_change(xa, xb, deal=deal), o.label, o.headline))
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
class Change(Judged):
    """One outcome of one variant against the first arm. `paired` holds each arm's figure, the per-comparison
    interval and the games independent runs would need; `shown` is the family's interval (the one to print),
    `verdict` is read off it ("up", "down", "no change detected"), `p_adjusted` is the family's p-value."""

    variant: str
    outcome: str
    kind: str
    label: str
    headline: bool
    paired: PairedChange
    shown: Interval
    verdict: str
    p_adjusted: float


def judge(results: dict[str, list[tuple]], alpha: float = 0.05) -> tuple[dict[str, list[Change]], str]:
    """Every outcome of every variant as one family: each change with its simultaneous interval, verdict and
    adjusted p, and the family's name ("simultaneous 95% over K changes")."""
    flat = [(v, row) for v, rows in results.items() for row in rows]
    fam = family_of_changes([row[2] for _, row in flat], alpha)
    out: dict[str, list[Change]] = {v: [] for v in results}
    for (v, (name, kind, r, label, headline)), shown, word, p in zip(flat, fam.intervals, fam.verdicts,
                                                                     fam.p_adjusted):
        out[v].append(Change(v, name, kind, label or name, headline, r, shown, word, float(p)))
    return out, family_name(len(flat), alpha)


def family_name(k: int, alpha: float = 0.05) -> str:
    return f"simultaneous {100 * (1 - alpha):.0f}% over {k} change{'s' if k != 1 else ''}"


def change_rows(changes: dict[str, list[Change]], family: str) -> list[dict]:
    """The changes as plain rows (for --format json)."""
    return [{"variant": c.variant, "outcome": c.outcome, "kind": c.kind, "a": c.paired.a.value,
             "b": c.paired.b.value, "difference": c.shown.value, "lo": c.shown.lo, "hi": c.shown.hi,
             "lo_open": c.shown.lo_open, "hi_open": c.shown.hi_open, "interval": family, "verdict": c.verdict,
             "p_adjusted": c.p_adjusted, "p": c.paired.p_value, "games": c.paired.n,
             "games_changed": c.paired.changed, "games_unpaired_would_need": c.paired.n_unpaired}
            for rows in changes.values() for c in rows]


@dataclass(frozen=True)
class Comparison:
    """Rule variants played on the same seeds: each arm's spec and games, and every outcome of each variant
    paired against the first arm, judged as one family (`judge`)."""

    game: Game
    variants: list[str]
    specs: list[RunSpec]
    frames: list[pl.DataFrame]
    results: dict[str, list[Change]]
    n: int                          # games per arm
    family: str                     # the shown intervals' name


def variant_specs(game: Game, base: RunSpec, variants: list[str], rules_file=None, base_sets=()) -> list[RunSpec]:
    """One run per variant, every one checked before any is played (a refusal writes nothing)."""
    if len(variants) < 2:
        raise DsimError("compare needs at least two --variant options (use 'base' for the rules as given)")
    specs = [dataclasses.replace(base, rules=variant_rules(game, v, rules_file, base_sets), extra={"arm": v})
             for v in variants]
    for v, spec in zip(variants, specs):
        try:
            game.check_players(spec.rules, spec.players)
        except DsimError as e:
            raise DsimError(f"variant '{v}' cannot be played here: {e}") from None
    return specs


def compare(game: Game, base: RunSpec, variants: list[str], out: Path, jobs: int = 1,
            precision: float | None = None, rules_file=None, base_sets=()) -> Comparison:
    specs = variant_specs(game, base, variants, rules_file, base_sets)
    n = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    results, family = judge({v: compare_frames(game, frames[0], f) for v, f in zip(variants[1:], frames[1:])})
    return Comparison(game, list(variants), specs, frames, results, n, family)
