"""Parquet results: hive-partitioned tables with provenance, written atomically and resumable.

Layout under an output folder::

    <out>/<table>/game=G/players=P/rules=H/lineup=L/seed=S/part-000000.parquet
    <out>/runs/game=G/players=P/rules=H/lineup=L/seed=S/run.json      (full provenance)

Every Parquet file also carries the provenance JSON in its key-value metadata. A run is played into
`<out>/.partial/<key>/` (the key is a hash of its provenance) and moved into place only when complete,
so readers never see a run in progress. Each chunk file is written under a temporary name and renamed,
then a marker says the chunk is complete: a run killed at any point keeps its completed chunks, and
`--resume` plays only the missing ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np

from sim.engine.errors import DsimError
from sim.engine.lazy_polars import pl

PARTITION_KEYS = ("game", "players", "rules", "lineup", "seed")
PARTIAL = ".partial"


def partition_path(part: dict) -> Path:
    return Path(*(f"{k}={str(part[k]).replace('/', '_')}" for k in PARTITION_KEYS))


def _dumps(provenance: dict) -> str:
    return json.dumps(provenance, sort_keys=True, default=str)


def _atomic_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class RunWriter:
    """Streams the chunks of one run into its partial folder; `commit()` moves them into `out`.

    With `resume`, the completed chunks of an earlier, interrupted run of the same provenance are kept
    and `done` says how many (they are always the first chunks: chunks are written in order).
    """

    def __init__(self, out: Path, part: dict, provenance: dict, resume: bool = False):
        self.out = Path(out)
        self.part = part
        self.provenance = provenance
        self.meta = {"dsim": _dumps(provenance)}
        self.staging = self.out / PARTIAL / hashlib.sha256(self.meta["dsim"].encode()).hexdigest()[:16]
        try:
            if self.staging.exists() and not resume:
                shutil.rmtree(self.staging)          # the same run asked afresh: start over
            (self.staging / "done").mkdir(parents=True, exist_ok=True)
            _atomic_text(self.staging / "run.json", self.meta["dsim"])
        except OSError as e:
            raise DsimError(f"cannot write results under {self.out}: {e.strerror or e}") from None
        self.done = self.completed()

    def completed(self) -> int:
        k = 0
        while (self.staging / "done" / f"{k:06d}").exists():
            k += 1
        return k

    def write_chunk(self, chunk: int, tables: dict[str, dict[str, np.ndarray]]) -> None:
        for table, columns in tables.items():
            folder = self.staging / table / partition_path(self.part)
            folder.mkdir(parents=True, exist_ok=True)
            final = folder / f"part-{chunk:06d}.parquet"
            tmp = folder / f".part-{chunk:06d}.tmp"
            pl.DataFrame(columns).write_parquet(tmp, metadata=self.meta)
            os.replace(tmp, final)
        (self.staging / "done" / f"{chunk:06d}").touch()
        self.done = max(self.done, chunk + 1)

    def read_chunk(self, chunk: int, table: str = "games") -> pl.DataFrame:
        return pl.read_parquet(self.staging / table / partition_path(self.part) / f"part-{chunk:06d}.parquet")

    def games_files(self) -> list[Path]:
        return sorted((self.staging / "games").rglob("*.parquet"))

    def commit(self) -> Path:
        runs = self.staging / "runs" / partition_path(self.part)
        runs.mkdir(parents=True, exist_ok=True)
        (runs / "run.json").write_text(json.dumps(self.provenance, indent=2, sort_keys=True, default=str))
        for table in sorted(p.name for p in self.staging.iterdir() if p.is_dir() and p.name != "done"):
            src = self.staging / table / partition_path(self.part)
            for tmp in src.glob(".part-*.tmp"):     # a chunk cut short before an earlier resume
                tmp.unlink()
            dst = self.out / table / partition_path(self.part)
            if dst.exists():
                shutil.rmtree(dst)
            dst.parent.mkdir(parents=True, exist_ok=True)
            src.rename(dst)
        shutil.rmtree(self.staging, ignore_errors=True)
        _remove_if_empty(self.out / PARTIAL)
        return self.out / "games" / partition_path(self.part)

    def abort(self) -> None:
        """After a failure: keep the completed chunks for `--resume`, or leave nothing if there are none."""
        if self.completed() == 0:
            shutil.rmtree(self.staging, ignore_errors=True)
            _remove_if_empty(self.out / PARTIAL)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def partial_runs(out: Path) -> list[dict]:
    """Provenance of the interrupted runs kept under `out` (those with completed chunks)."""
    found = []
    for p in sorted((Path(out) / PARTIAL).glob("*/run.json")):
        if any((p.parent / "done").iterdir()):
            found.append(json.loads(p.read_text()))
    return found


def committed(out: Path, part: dict) -> dict | None:
    """Provenance of the committed run of this partition, if there is one."""
    p = Path(out) / "runs" / partition_path(part) / "run.json"
    return json.loads(p.read_text()) if p.is_file() else None


def games_in(out: Path, table: str = "games") -> list[str]:
    """The games that have results of this table under `out`."""
    root = Path(out) / table
    return sorted(p.name.split("=", 1)[1] for p in root.glob("game=*") if any(p.rglob("*.parquet")))


def scan(out: Path, game: str, table: str = "games") -> pl.LazyFrame:
    """One game's results of one table under `out`, with the partition keys as columns (games differ
    in columns, so one folder may hold several games but each is read on its own). A table whose columns
    depend on the player count (one per seat) is read with the union of the runs' columns, null where a run
    has no such column."""
    root = Path(out) / table / f"game={game}"
    if not root.is_dir() or not any(root.rglob("*.parquet")):
        raise DsimError(f"no '{table}' results for {game} under {out} (run `dsim run` first)")
    schema = union_schema(Path(out), root)
    return pl.scan_parquet(root / "**" / "*.parquet", hive_partitioning=True, schema=schema,
                           missing_columns="insert",
                           hive_schema={"game": pl.String, "players": pl.Int64, "rules": pl.String,
                                        "lineup": pl.String, "seed": pl.Int64})


def union_schema(out: Path, root: Path) -> dict:
    """Every run's columns in one schema. Runs of one dsim version may differ in columns (one per seat); runs of
    another version with other columns, or a column with two types, are named in one line rather than failing
    deep inside a report."""
    by_version: dict[str, dict] = {}
    union: dict = {}
    for folder in sorted({p.parent for p in root.rglob("*.parquet")}):
        first = min(folder.glob("*.parquet"))
        try:
            schema = dict(pl.read_parquet_schema(first))
        except Exception as e:                  # noqa: BLE001 - any unreadable file: say which
            raise DsimError(f"cannot read {first}: {e}") from None
        run_json = out / "runs" / folder.relative_to(root.parent) / "run.json"
        version = json.loads(run_json.read_text()).get("code_version", "?") if run_json.is_file() else "?"
        for name, dtype in schema.items():
            if union.setdefault(name, dtype) != dtype:
                raise DsimError(f"results in {folder} store column {name} as {dtype}, other runs under {out} as "
                                f"{union[name]} (written by dsim {version}); report them separately")
        by_version.setdefault(version, {})[folder] = set(schema)
    if len(by_version) > 1:
        columns = {v: set().union(*folders.values()) for v, folders in by_version.items()}
        common = max(by_version, key=lambda v: len(by_version[v]))
        for version, cols in columns.items():
            if cols != columns[common]:
                odd = next(iter(by_version[version]))
                raise DsimError(f"results in {odd} have other columns than the rest under {out} (written by dsim "
                                f"{version}); report them separately or rerun them with this version")
    return union


def tables(out: Path) -> list[str]:
    """Names of the result tables under `out` (games, and any finer grain a game writes)."""
    root = Path(out)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and p.name != "runs" and not p.name.startswith(".")
                  and any(p.rglob("*.parquet")))


def runs(out: Path) -> list[dict]:
    """Provenance of every run under `out`."""
    return [json.loads(p.read_text()) for p in sorted((Path(out) / "runs").rglob("run.json"))]
