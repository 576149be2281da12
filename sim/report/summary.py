"""Outcome estimates (`sim.analysis.summary.summarize`) as text: one estimate with its interval, and the table
`dsim report` prints on the terminal."""

from __future__ import annotations

from sim.analysis.stats import Estimate


def fmt(est: Estimate, kind: str) -> str:
    return est.fmt(pct=True, digits=2) if kind == "rate" else est.fmt(digits=3)


def print_table(rows: list[dict], by: list[str], title: str) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=title)
    for k in [*by, "outcome", "estimate [95% CI]", "games"]:
        table.add_column(k, justify="right" if k in ("games",) else "left")
    for r in rows:
        style = "bold" if r["headline"] else None
        table.add_row(*[str(r[k]) for k in by], r["label"] or r["outcome"], fmt(r["estimate"], r["kind"]),
                      f"{r['estimate'].n:,}", style=style)
    Console().print(table)
