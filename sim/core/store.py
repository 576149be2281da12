"""Parquet results: hive-partitioned tables with provenance, written atomically.

Layout under an output folder::

    <out>/<table>/game=G/players=P/rules=H/lineup=L/seed=S/part-000000.parquet
    <out>/runs/game=G/players=P/rules=H/lineup=L/seed=S/run.json      (full provenance)

Every Parquet file also carries the provenance JSON in its key-value metadata. A run is written in a
staging folder and moved into place only when complete, so a failed run leaves nothing behind.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.errors import DsimError

PARTITION_KEYS = ("game", "players", "rules", "lineup", "seed")


def partition_path(part: dict) -> Path:
    return Path(*(f"{k}={str(part[k]).replace('/', '_')}" for k in PARTITION_KEYS))


class RunWriter:
    """Streams chunks of one run into a staging folder; `commit()` moves them into `out`."""

    def __init__(self, out: Path, part: dict, provenance: dict):
        self.out = Path(out)
        self.part = part
        self.provenance = provenance
        self.staging = self.out / f".staging-{uuid.uuid4().hex[:8]}"
        self.meta = {"dsim": json.dumps(provenance, sort_keys=True, default=str)}
        self.tables: set[str] = set()

    def write_chunk(self, chunk: int, tables: dict[str, dict[str, np.ndarray]]) -> None:
        for table, columns in tables.items():
            folder = self.staging / table / partition_path(self.part)
            folder.mkdir(parents=True, exist_ok=True)
            pl.DataFrame(columns).write_parquet(folder / f"part-{chunk:06d}.parquet", metadata=self.meta)
            self.tables.add(table)

    def commit(self) -> Path:
        runs = self.staging / "runs" / partition_path(self.part)
        runs.mkdir(parents=True, exist_ok=True)
        (runs / "run.json").write_text(json.dumps(self.provenance, indent=2, sort_keys=True, default=str))
        for table in sorted(self.tables | {"runs"}):
            src = self.staging / table / partition_path(self.part)
            dst = self.out / table / partition_path(self.part)
            if dst.exists():
                shutil.rmtree(dst)
            dst.parent.mkdir(parents=True, exist_ok=True)
            src.rename(dst)
        shutil.rmtree(self.staging, ignore_errors=True)
        return self.out / "games" / partition_path(self.part)

    def abort(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def games_in(out: Path, table: str = "games") -> list[str]:
    """The games that have results of this table under `out`."""
    root = Path(out) / table
    return sorted(p.name.split("=", 1)[1] for p in root.glob("game=*") if any(p.rglob("*.parquet")))


def scan(out: Path, game: str, table: str = "games") -> pl.LazyFrame:
    """One game's results of one table under `out`, with the partition keys as columns (games differ
    in columns, so one folder may hold several games but each is read on its own)."""
    root = Path(out) / table / f"game={game}"
    if not root.is_dir() or not any(root.rglob("*.parquet")):
        raise DsimError(f"no '{table}' results for {game} under {out} (run `dsim run` first)")
    return pl.scan_parquet(root / "**" / "*.parquet", hive_partitioning=True,
                           hive_schema={"game": pl.String, "players": pl.Int64, "rules": pl.String,
                                        "lineup": pl.String, "seed": pl.Int64})


def tables(out: Path) -> list[str]:
    """Names of the result tables under `out` (games, and any finer grain a game writes)."""
    root = Path(out)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and p.name != "runs" and any(p.rglob("*.parquet")))


def runs(out: Path) -> list[dict]:
    """Provenance of every run under `out`."""
    return [json.loads(p.read_text()) for p in sorted((Path(out) / "runs").rglob("run.json"))]
