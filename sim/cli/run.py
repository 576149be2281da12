"""`dsim run`: play games, stream them to Parquet, write their report and print its findings."""

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from sim.cli.common import (DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, ResumeOpt,
                            RulesOpt, SeedOpt, SetOpt, StrategyOpt, VariantOpt)
from sim.cli.output import FormatOpt, show
from sim.engine import phases, runner


def run(game: GameOpt = "dragonwake", n: NOpt = 100_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
        variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1, out: OutOpt = Path("results"),
        rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
        resume: ResumeOpt = False,
        precision: Annotated[Optional[float], typer.Option(
            metavar="SHARE", help="keep playing until every headline interval is within ± this: 0.002 = ±0.2 points for rates; for means above 1, a fraction of the value (0.002 = ±0.2%); --n is the cap")] = None,
        progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
        format_: FormatOpt = "text") -> None:
    """Play N games of one configuration and print their findings.

    The games go to --out as Parquet, their report (Markdown, HTML and charts) to OUT/report."""
    with phases.phase("read the rules and line-up"):
        spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_,
                               resume=resume)
    console = Console(stderr=True)
    if precision is not None:
        from sim.analysis.precision import run_to_precision
        result = run_to_precision(spec, out, precision, jobs=jobs, progress=progress)
        console.print(f"stopped after {result['n']:,} games: {result['reason']}")
    else:
        result = runner.run(spec, out, jobs=jobs, progress=progress)
    kept = result.get("resumed_chunks", 0)
    if kept:
        console.print("resumed: the run was already complete" if kept < 0 else
                      f"resumed: kept {kept} completed chunks of the interrupted run, played the rest")
    console.print(f"{result['n']:,} games in {result['seconds']:.1f}s ({result['games_per_s']:,.0f} games/s) "
                  f"→ {out}")
    to = Path(out) / "report"
    to.mkdir(parents=True, exist_ok=True)
    with phases.phase("report"):
        # imported only now: while the workers play, this process holds no report libraries (matplotlib, scipy)
        from sim.report.balance import figures, game_report, outcome_list
        path = game_report(spec.game.name, Path(out), to, only=spec.partition())
    with phases.phase("print the findings"):
        if format_ == "json":
            show(path, format_, {"configurations": figures(spec.game.name, Path(out), spec.partition())})
        else:
            show(path, table=outcome_list(spec.game.name, Path(out), spec.partition()))


def register(app: typer.Typer) -> None:
    app.command("run")(run)
