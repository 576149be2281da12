"""`dsim report`: a balance report per game from a results folder; prints each game's findings and one compact
table of its configurations."""

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

import json

from sim.cli.common import OutOpt
from sim.cli.output import FormatOpt, check_format, show, summary
from sim.report.numbers import plain
from sim.engine import store
from sim.games import get_game
from sim.report import balance
from sim.report.summary import terminal_table


def report(out: OutOpt = Path("results"),
           to: Annotated[Optional[Path], typer.Option("--to", metavar="FOLDER",
                                                      help="report folder (default: OUT/report)")] = None,
           game: Annotated[Optional[str], typer.Option("--game", "-g", metavar="GAME",
                                                       help="only this game")] = None,
           format_: FormatOpt = "text") -> None:
    """Write each game's report and print its findings.

    The reports (Markdown and HTML, with PNG charts) go to --to; the terminal gets each game's findings and one
    table of its configurations."""
    check_format(format_)
    if game:
        get_game(game)
    to = to or Path(out) / "report"
    paths = balance.build(Path(out), to, game)
    if format_ == "json":           # one document: every game's findings and figures
        print(json.dumps(plain({"games": [{"game": p.stem, **summary(p),
                                           "configurations": balance.figures(p.stem, Path(out))} for p in paths]})))
        return
    runs = store.runs(out)
    for p in paths:
        g = get_game(p.stem)
        rows, configs, dims = balance.configurations(g, store.scan(out, g.name),
                                                     [r for r in runs if r["game"] == g.name])
        table, note = terminal_table(g, rows, configs, dims)
        show(p, table=table, note=note)
    if len(paths) > 1:
        Console(stderr=True).print(f"index of the reports: {to / 'report.md'}", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
