"""`dsim experiment FILE`: rerun an experiment spec from `experiments/`."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from sim.cli.common import ResumeOpt
from sim.cli.output import FormatOpt, check_format, summary
from sim.workflows.experiment import run_experiment


def experiment(file: Annotated[Path, typer.Argument(metavar="FILE", hidden=True)],
               to: Annotated[Optional[Path], typer.Option("--to", metavar="FOLDER", help="report folder (default: the spec's)")] = None,
               results: Annotated[Optional[Path], typer.Option("--results", metavar="FOLDER", help="Parquet folder")] = None,
               resume: ResumeOpt = False, format_: FormatOpt = "text") -> None:
    """Run an experiment spec (a TOML file) and write its report.

    FILE is the spec, e.g. experiments/drako_balance.toml."""
    check_format(format_)
    paths = run_experiment(file, results, to, resume=resume)
    if format_ == "json":           # each report's findings and where it is (its figures: the command's own JSON)
        print(json.dumps({"reports": [summary(p) for p in paths]}))
        return
    Console(stderr=True).print("wrote " + ", ".join(str(p) for p in paths))


def register(app: typer.Typer) -> None:
    app.command("experiment")(experiment)
