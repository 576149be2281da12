"""Precision targets: keep playing until every headline interval is narrow enough, validly.

Looking at an interval after every chunk and stopping when it is narrow enough would make a plain 95%
interval too optimistic. Look k (k = 1, 2, ...) therefore uses level alpha_k = alpha * 6 / (pi^2 k^2):
the levels sum to alpha, so by the union bound every interval reported at any look covers the truth
with probability at least 1 - alpha jointly (a simple confidence sequence). The reported interval at
the stop is the adjusted one.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats as st

from sim.analysis.stats import Estimate
from sim.engine.errors import DsimError
from sim.engine.resume import finished, keeping_chunks, open_writer
from sim.engine.runner import iter_chunks
from sim.engine.spec import RunSpec
from sim.engine.store import partition_path


def look_z(k: int, alpha: float = 0.05) -> float:
    """Two-sided normal quantile for look k of the sequence."""
    return float(st.norm.isf(alpha * 6 / (math.pi ** 2 * k * k) / 2))


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


def adjusted(total: float, total_sq: float, n: int, kind: str, z: float) -> Estimate:
    """Interval at quantile z: Wilson for rates, normal for means."""
    if n < 2:
        return Estimate(float("nan"), -math.inf, math.inf, n)
    m = total / n
    if kind == "rate":
        denom = 1 + z * z / n
        centre = (m + z * z / (2 * n)) / denom
        half = z * math.sqrt(max(m * (1 - m), 0.0) / n + z * z / (4 * n * n)) / denom
        return Estimate(m, max(0.0, centre - half), min(1.0, centre + half), n)
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    half = z * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


class Tracker:
    """Running sums of the headline outcomes and the stopping rule."""

    def __init__(self, outcomes, target: float, alpha: float = 0.05):
        self.outcomes = [o for o in outcomes if o.headline] or list(outcomes)[:1]
        self.target = target
        self.alpha = alpha
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
        z = look_z(max(self.looks, 1), self.alpha)
        return {o.name: adjusted(s[1], s[2], int(s[0]), o.kind, z) for o, s in zip(self.outcomes, self.sums)}

    def done(self) -> bool:
        self.looks += 1
        return all(e.half_width() <= allowed_half_width(o.kind, e.value, self.target)
                   for o, e in zip(self.outcomes, self.estimates().values()))


def run_to_precision(spec: RunSpec, out: Path, target: float, jobs: int = 1, progress: bool = False,
                     alpha: float = 0.05) -> dict:
    """Play chunks of spec (spec.n is the cap) until the headline intervals reach ± target."""
    check_precision(target)
    tracker = Tracker(spec.game.outcomes(), target, alpha)
    done = finished(spec, out)
    if done is not None:            # resuming a command whose run this was: already committed
        return {"path": out / "games" / partition_path(spec.partition()), "n": done["n"], "seconds": 0.0,
                "games_per_s": 0.0, "reason": done.get("stop_reason", ""), "estimates": {}}
    writer = open_writer(spec, out)
    start = time.perf_counter()
    reason = f"reached the cap of {spec.n:,} games before ±{target:g}"
    with keeping_chunks([writer], out):
        stopped = False
        for ci in range(writer.done):      # an interrupted run's chunks: take the same looks again
            tracker.add(writer.read_chunk(ci))
            if tracker.done():
                stopped = True
                break
        chunks = () if stopped else iter_chunks(spec, jobs, start=writer.done)
        for ci, cn, tables in chunks:
            writer.write_chunk(ci, tables)
            tracker.add(tables["games"])
            if tracker.done():
                stopped = True
                break
        if stopped:
            reason = f"every headline interval within ±{target:g} at look {tracker.looks} (sequentially adjusted)"
        writer.provenance.update(n=tracker.n, n_cap=spec.n, precision_target=target, stop_reason=reason,
                                 looks=tracker.looks)
        path = writer.commit()
    elapsed = time.perf_counter() - start
    return {"path": path, "n": tracker.n, "seconds": elapsed, "games_per_s": tracker.n / max(elapsed, 1e-9),
            "reason": reason, "estimates": tracker.estimates()}
