"""Reading the games of any number of runs without holding them: lazy scans, aggregated by polars' streaming
engine, so memory stays flat however many games there are."""

from __future__ import annotations

from sim.engine.lazy_polars import pl


def lazy(frame: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    return frame.lazy() if isinstance(frame, pl.DataFrame) else frame


def collect(frame: pl.LazyFrame) -> pl.DataFrame:
    """A small result (aggregates, counts) of a scan over any number of games, streamed chunk by chunk so that no
    column of the games is ever held whole in memory."""
    return frame.collect(engine="streaming")


def columns(frame: pl.DataFrame | pl.LazyFrame) -> list[str]:
    return lazy(frame).collect_schema().names()


def first(frame: pl.DataFrame | pl.LazyFrame, column: str):
    """The value of `column` in the first game (e.g. the player count of one configuration's games)."""
    return collect(lazy(frame).select(pl.col(column).first())).item()


def count(frame: pl.DataFrame | pl.LazyFrame) -> int:
    return int(collect(lazy(frame).select(pl.len())).item())


CLUSTER_SUMS = ("clusters", "s", "t", "ss", "tt", "st")


def cluster_sums(frame: pl.DataFrame | pl.LazyFrame, by: list[str], cluster: list[str], s: pl.Expr,
                 t: pl.Expr, batch: int = 1_000_000) -> pl.DataFrame:
    """Per `by` group, the sums a cluster-robust rate needs: the number of clusters, Σs, Σt, Σs², Σt² and Σst,
    where a cluster's s and t are its rows' totals. Read in batches, so memory stays flat in the number of
    clusters: a cluster's rows must be contiguous in the scan (a chunk file holds whole games, in order), and
    the rows of a batch's last cluster are held back until the next batch, which may continue it."""
    keys = [*by, *cluster]
    totals, carry = [], None
    for part in lazy(frame).select(*keys, s.alias("s"), t.alias("t")).collect_batches(chunk_size=batch):
        if carry is not None:
            part = pl.concat([carry, part])
        last = part.select(cluster).tail(1)
        held = pl.all_horizontal(pl.col(c) == last[c][0] for c in cluster)
        carry, part = part.filter(held), part.filter(~held)
        totals.append(_sums(part, by, keys))
    if carry is not None:
        totals.append(_sums(carry, by, keys))
    if not totals:
        return pl.DataFrame(schema={**{k: pl.Int64 for k in by}, **{c: pl.Float64 for c in CLUSTER_SUMS}})
    return pl.concat(totals).group_by(by).agg(pl.col(c).sum() for c in CLUSTER_SUMS).sort(by)


def _sums(rows: pl.DataFrame, by: list[str], keys: list[str]) -> pl.DataFrame:
    per_cluster = rows.group_by(keys).agg(pl.col("s").sum(), pl.col("t").sum())
    s, t = pl.col("s").cast(pl.Float64), pl.col("t").cast(pl.Float64)
    return per_cluster.group_by(by).agg(pl.len().cast(pl.Float64).alias("clusters"), s.sum().alias("s"),
                                        t.sum().alias("t"), (s * s).sum().alias("ss"), (t * t).sum().alias("tt"),
                                        (s * t).sum().alias("st"))
