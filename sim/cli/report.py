"""`dsim report`: summary tables and charts from a results folder."""

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from sim.analysis.summary import summarize
from sim.cli.common import OutOpt
from sim.engine import store
from sim.games import get_game
from sim.report import balance
from sim.report.summary import print_table


def report(out: OutOpt = Path("results"),
           to: Annotated[Optional[Path], typer.Option("--to", help="report folder (default: OUT/report)")] = None,
           game: Annotated[Optional[str], typer.Option("--game", "-g", help="only this game")] = None) -> None:
    """Print outcome tables and write Markdown/HTML reports with PNG charts."""
    if game:
        get_game(game)
    to = to or Path(out) / "report"
    paths = balance.build(Path(out), to, game)
    for p in paths:
        g = get_game(p.stem)
        rows = summarize(g, store.scan(out, g.name), balance.GROUP)
        print_table([r for r in rows if r["headline"] or r["kind"] == "rate"], balance.GROUP, g.title)
    Console(stderr=True).print(f"report: {to / 'report.md'} ({', '.join(p.name for p in paths)})")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
