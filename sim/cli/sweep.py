"""`dsim sweep`: a grid over rule parameters with a result table and interval-band charts."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (AtEquilibriumOpt, DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt,
                            PluginOpt, ResumeOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.analysis.arms_equilibrium import parse_band, sweep_at_equilibrium
from sim.analysis.equilibrium import Search
from sim.analysis.payoffs import Budget
from sim.analysis.sweep import sweep as run_sweep
from sim.cli.output import FormatOpt, show
from sim.engine.errors import DsimError
from sim.report import arms_equilibrium
from sim.report.sweep import figures, write


def sweep(param: Annotated[list[str], typer.Option(
              "--param", metavar="KEY=RANGE", help="key=a:b[:step] or key=v1|v2|v3 (repeat for a grid)")],
          game: GameOpt = "dragonwake", n: NOpt = 100_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
          variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1, out: OutOpt = Path("results"),
          rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
          resume: ResumeOpt = False, at_equilibrium: AtEquilibriumOpt = False,
          precision: Annotated[float, typer.Option(
              metavar="SHARE", help="with --at-equilibrium: play each cell until its 95% interval is within ± this")]
          = 0.01,
          band: Annotated[Optional[str], typer.Option(
              metavar="LO:HI", help="with --at-equilibrium: the target range of the figure (e.g. 40%:60%); the "
                                    "report lists the settings that reach it")] = None,
          to: ToOpt = None, format_: FormatOpt = "text") -> None:
    """Play every point of a rule-parameter grid on the same seeds."""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_, resume=resume)
    if band is not None and not at_equilibrium:
        raise DsimError("--band needs --at-equilibrium")
    if at_equilibrium:
        target = parse_band(band)
        if not 0 < precision < 0.5:
            raise DsimError(f"--precision is out of range: {precision:g}")
        arms = sweep_at_equilibrium(spec.game, spec, param, Budget(precision, 2_000, spec.n), Search(), jobs, rules,
                                    tuple(variant or ()), tuple(set_ or ()))
        path = arms_equilibrium.write(arms, to or Path(out) / "report", f"sweep_{spec.game.name}_equilibrium",
                                      f"{spec.game.title}: rule settings at equilibrium", "point", band=target)
        show(path, format_, arms_equilibrium.figures(arms, target))
        return
    result = run_sweep(spec.game, spec, param, Path(out), jobs, rules, tuple(variant or ()), tuple(set_ or ()))
    show(write(result, to or Path(out) / "report"), format_, figures(result))


def register(app: typer.Typer) -> None:
    app.command("sweep")(sweep)
