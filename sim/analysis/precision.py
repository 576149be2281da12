"""Precision targets: keep playing until every headline interval is narrow enough.

The rule looks at the **width** only: after each chunk it stops when every headline's plain 95% interval
(Wilson for a rate, t for a mean) is at most the target half-width, and the reported interval is that plain
one. No alpha is spent across looks: the width depends on the data only through their spread, never on the
estimate's sign or distance from anything, so stopping when narrow does not pick out estimates on one side
of the truth (docs/STATISTICS.md, "Precision-stopped estimates"; Chow & Robbins 1965).

A run stops at a chunk boundary, so its chunks are small (`precision_chunk`): a fixed size chosen from the
target alone, so the same command plays the same games, and small enough that the stop overshoots the
games a fixed-size run needs for the same width by at most one chunk (about 2% of a rate near 50%).
"""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals import games_needed, half_width, width_reached
from sim.analysis.stats import Estimate, wilson
from sim.engine.errors import DsimError
from sim.engine.resume import finished, keeping_chunks, open_writer
from sim.engine.runner import iter_chunks
from sim.engine.spec import RunSpec
from sim.engine.store import partition_path

STOP_RULE = "width-only stopping, plain interval"
LOOKS_PER_RUN = 50          # a rate near 50% reaches the target after about this many chunks
SMALLEST_CHUNK = 500        # below this, writing a chunk costs more than playing it


def check_precision(target: float) -> float:
    if not 0 < target < 1e6:          # also refuses nan
        raise DsimError(f"--precision must be a positive half-width (0.01 is one point), got {target:g}")
    return target


def allowed_half_width(kind: str, value: float, target: float) -> float:
    """A headline's allowed half-width: `target` itself for a rate (±0.01 is one point), `target` relative
    to the value for a mean larger than 1 (±1% of 60 turns a round, not ±0.01 turns), else `target`."""
    if kind == "rate" or not math.isfinite(value):
        return target
    return target * max(1.0, abs(value))


def precision_chunk(spec: RunSpec, target: float) -> int:
    """Games per chunk of a precision run: the user's chunk size if given, else about 1/50 of what a fixed-n
    run needs for ±target on a rate near 50%, in steps of 500 (at most the game's own chunk size).

    Chunk i's games depend on the seed, i and the chunk size, so the size must not depend on the games played:
    it depends on the target alone, and the same command plays the same games."""
    if spec.chunk_size:
        return spec.chunk_size
    worst = games_needed("rate", target, p=0.5) / LOOKS_PER_RUN
    size = SMALLEST_CHUNK * max(1, round(worst / SMALLEST_CHUNK))
    return int(min(spec.game.chunk_size, size))


def plain(kind: str, n: int, total: float, total_sq: float) -> Estimate:
    """The plain 95% interval from running sums: Wilson for a rate, t for a mean."""
    if n < 2:
        return Estimate(total / n if n else math.nan, -math.inf, math.inf, n)
    if kind == "rate":
        return wilson(int(round(total)), n)
    m = total / n
    h = half_width("mean", n, total, total_sq)
    return Estimate(m, m - h, m + h, n)


class Tracker:
    """Running sums of the headline outcomes and the width-only stopping rule."""

    def __init__(self, outcomes, target: float):
        self.outcomes = [o for o in outcomes if o.headline] or list(outcomes)[:1]
        self.target = target
        self.sums = np.zeros((len(self.outcomes), 3))     # games the outcome applies to, sum, sum of squares
        self.n = 0
        self.looks = 0

    def add(self, columns: dict) -> None:
        frame = pl.DataFrame(columns)
        for i, o in enumerate(self.outcomes):
            x = o.values(frame)
            x = x[~np.isnan(x)]
            self.sums[i] += (len(x), x.sum(), (x * x).sum())
        self.n += len(frame)

    def estimates(self) -> dict[str, Estimate]:
        return {o.name: plain(o.kind, int(s[0]), s[1], s[2]) for o, s in zip(self.outcomes, self.sums)}

    def look(self) -> bool:
        """One look: True when every headline's plain interval is within its allowed half-width."""
        self.looks += 1
        return all(self._narrow(o, int(s[0]), s[1], s[2]) for o, s in zip(self.outcomes, self.sums))

    def _narrow(self, o, n: int, total: float, total_sq: float) -> bool:
        value = total / n if n else math.nan
        return width_reached(o.kind, n, total, total_sq, allowed_half_width(o.kind, value, self.target))


def run_to_precision(spec: RunSpec, out: Path, target: float, jobs: int = 1, progress: bool = False) -> dict:
    """Play chunks of spec (spec.n is the cap) until the headline intervals reach ± target."""
    check_precision(target)
    spec = dataclasses.replace(spec, chunk_size=precision_chunk(spec, target))
    tracker = Tracker(spec.game.outcomes(), target)
    done = finished(spec, out)
    if done is not None:            # resuming a command whose run this was: already committed
        return {"path": out / "games" / partition_path(spec.partition()), "n": done["n"], "seconds": 0.0,
                "games_per_s": 0.0, "reason": done.get("stop_reason", ""), "estimates": {}}
    writer = open_writer(spec, out)
    start = time.perf_counter()
    reason = f"reached the cap of {spec.n:,} games before ±{target:g} ({STOP_RULE})"
    with keeping_chunks([writer], out):
        stopped = False
        for ci in range(writer.done):      # an interrupted run's chunks: take the same looks again
            tracker.add(writer.read_chunk(ci))
            if tracker.look():
                stopped = True
                break
        chunks = () if stopped else iter_chunks(spec, jobs, start=writer.done)
        for ci, cn, tables in chunks:
            writer.write_chunk(ci, tables)
            tracker.add(tables["games"])
            if tracker.look():
                stopped = True
                break
        if stopped:
            reason = (f"every headline interval within ±{target:g} at look {tracker.looks} "
                      f"({tracker.n:,} games; {STOP_RULE})")
        writer.provenance.update(n=tracker.n, n_cap=spec.n, precision_target=target, stop_reason=reason,
                                 stop_rule=STOP_RULE, looks=tracker.looks)
        path = writer.commit()
    elapsed = time.perf_counter() - start
    return {"path": path, "n": tracker.n, "seconds": elapsed, "games_per_s": tracker.n / max(elapsed, 1e-9),
            "reason": reason, "estimates": tracker.estimates()}
