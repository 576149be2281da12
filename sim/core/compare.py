"""Paired comparison of rule variants: both play the same seeds, game by game.

Common random numbers: every variant's chunk i is seeded from the same child of the root seed, so the
deals and shuffles are the same until the rules make the games diverge. Each outcome is compared on
the per-game differences (McNemar for rates, paired t for means), and the report says how many games
independent runs would have needed for the same precision.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.core import store  # noqa: E402
from sim.core.coverage import silent_rules, silent_warning  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.game import Game, Rules  # noqa: E402
from sim.core.precision import allowed_half_width, check_precision, look_z  # noqa: E402
from sim.core.html import write_report
from sim.core.report import ChartSaver  # noqa: E402
from sim.core.resume import keeping_chunks, open_writer  # noqa: E402
from sim.core.runner import RunSpec, check_jobs, iter_chunks, run  # noqa: E402
from sim.core.stats import PairedResult, paired  # noqa: E402


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


def identical_games(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Whether two arms played the same games move for move, as far as the games table shows."""
    keys = [c for c in ("game", "players", "rules", "lineup", "seed") if c in a.columns]
    return a.height == b.height and a.drop(keys).equals(b.drop(keys))


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
    """Sequentially adjusted half-width of each headline difference (arm k against arm 0)."""
    z = look_z(looks)
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


def compare(game: Game, base: RunSpec, variants: list[str], out: Path, to: Path, jobs: int = 1,
            precision: float | None = None, rules_file=None, base_sets=()) -> Path:
    if len(variants) < 2:
        raise DsimError("compare needs at least two --variant options (use 'base' for the rules as given)")
    specs = [dataclasses.replace(base, rules=variant_rules(game, v, rules_file, base_sets), extra={"arm": v})
             for v in variants]
    n = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    to.mkdir(parents=True, exist_ok=True)
    chart = ChartSaver(to, f"compare_{game.name}")
    arms = ' vs '.join(variants) if len(variants) <= 3 else f"{variants[0]} vs {len(variants) - 1} variants"
    lines = [f"# {game.title}: {arms}", "",
             f"{n:,} games per arm, {base.players} players, lineup {specs[0].partition()['lineup']}, seed "
             f"{base.seed}; every arm played the same seeds (common random numbers), so each difference is "
             "paired game by game.", ""]
    results = {v: compare_frames(game, frames[0], f) for v, f in zip(variants[1:], frames[1:])}
    if len(variants) > 2:
        lines += summary_section(results, variants[0])
    for v, spec, f in zip(variants[1:], specs[1:], frames[1:]):
        silent = silent_rules(specs[0].rules, spec.rules, [frames[0], f])
        if silent:
            lines += [silent_warning(v, silent, f.height), ""]
        if identical_games(frames[0], f):
            lines += [f"**Warning: {v} played exactly the same games as {variants[0]}** (every column of every "
                      "game is equal): under these strategies and seeds its rules never changed a move or a "
                      "result, so this comparison tested nothing about them.", ""]
    for v, rows in results.items():
        lines += [f"## {v} against {variants[0]}", "",
                  "| outcome | " + variants[0] + " | " + v + " | difference [95% CI] | p | test | games unpaired would need |",
                  "|---|---|---|---|---|---|---|"]
        for name, kind, r, label, _ in rows:
            pct = kind == "rate"
            diff = r.diff.fmt(pct=pct, digits=2 if pct else 3)
            lines.append(f"| {label or name} | {r.a.fmt(pct=pct, digits=2 if pct else 3)} | "
                         f"{r.b.fmt(pct=pct, digits=2 if pct else 3)} | {diff} | {r.p_value:.3g} | {r.test} | "
                         f"{_unpaired(r)} |")
        lines += ["", difference_chart(game, v, variants[0], rows, chart), ""]
    path = write_report(to, f"compare_{game.name}", "\n".join(lines), game.title)
    return path


def summary_section(results: dict[str, list[tuple]], base: str) -> list[str]:
    """The headline differences of every variant in one table, with Holm-adjusted p-values (many tests)."""
    cells = [(v, label or name, kind, r) for v, rows in results.items()
             for name, kind, r, label, headline in rows if headline]
    adjusted = holm([r.p_value for *_, r in cells])
    lines = [f"## Summary: headline outcomes against {base}", "",
             f"p adjusted by Holm's method over the {len(cells)} tests of this table.", "",
             "| variant | outcome | difference [95% CI] | p | p (Holm) |", "|---|---|---|---|---|"]
    for (v, label, kind, r), p_adj in zip(cells, adjusted):
        pct = kind == "rate"
        lines.append(f"| {v} | {label} | {r.diff.fmt(pct=pct, digits=2 if pct else 3)} | {r.p_value:.3g} | "
                     f"{p_adj:.3g} |")
    return lines + [""]


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: family-wise error controlled without assuming independence."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def _unpaired(r: PairedResult) -> str:
    if r.n_unpaired >= 10**12:
        return "∞ (pairing removes all noise)"
    return f"{r.n_unpaired:,} ({r.saving():.1f}×)"


def difference_chart(game, v, base, rows, chart) -> str:
    rates = [(label or name, r) for name, kind, r, label, _ in rows if kind == "rate"]
    if not rates:
        return ""
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.45 * len(rates)))
    for i, (label, r) in enumerate(rates):
        ax.errorbar([100 * r.diff.value], [i], xerr=[[100 * (r.diff.value - r.diff.lo)], [100 * (r.diff.hi - r.diff.value)]],
                    fmt="o", capsize=4, color="tab:red" if r.p_value < 0.05 else "tab:gray")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rates)), [lab for lab, _ in rates], fontsize=8)
    ax.set_xlabel(f"{v} minus {base} (percentage points, paired 95% CI)")
    ax.set_title(f"{game.title}: effect of {v}")
    return chart(f"{v}_vs_{base}".replace("=", "-").replace(";", "_"), fig)
