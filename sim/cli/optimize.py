"""`dsim optimize`: tune a strategy's weights against a field, checked on fresh seeds."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, RulesOpt,
                            SeedOpt, SetOpt, ToOpt, VariantOpt)
from sim.analysis.optimize import optimize as run_optimize
from sim.cli.output import FormatOpt, show
from sim.engine.errors import DsimError
from sim.engine.spec import check_jobs
from sim.report.optimize import figures, write


def optimize(strategy: Annotated[str, typer.Option("--strategy", "-s", metavar="STRATEGY", help="the strategy to tune")],
             role: Annotated[str, typer.Option("--role", metavar="ROLE", help="the role/side/seat it plays")],
             game: GameOpt = "dragonwake", n: NOpt = 20_000, players: PlayersOpt = None,
             field: Annotated[Optional[str], typer.Option("--field", metavar="LINEUP", help="lineup of the other roles")] = None,
             variant: VariantOpt = None, seed: SeedOpt = 0, out: OutOpt = Path("results"), rules: RulesOpt = None,
             set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
             iters: Annotated[int, typer.Option(metavar="GENERATIONS", help="differential-evolution generations")] = 8,
             jobs: JobsOpt = 1,
             to: ToOpt = None,
             format_: FormatOpt = "text") -> None:
    """Search STRATEGY's parameters for the strongest play as ROLE."""
    if iters < 1:
        raise DsimError(f"--iters must be at least 1, got {iters}")
    spec, _ = game_spec(game, n, players, field, variant, seed, rules, set_, deck, plugin, format_)
    check_jobs(jobs)
    result = run_optimize(spec.game, spec, strategy, role, iters=iters, jobs=jobs)
    show(write(result, to or Path(out) / "report"), format_, figures(result))


def register(app: typer.Typer) -> None:
    app.command("optimize")(optimize)
