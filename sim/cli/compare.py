"""`dsim compare`: rule variants on the same seeds, with paired differences and tests."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (AtEquilibriumOpt, DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt,
                            PluginOpt, ResumeOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt)
from sim.analysis.arms_equilibrium import compare_at_equilibrium
from sim.analysis.compare import compare as run_compare
from sim.analysis.equilibrium import Search
from sim.analysis.payoffs import Budget
from sim.cli.output import FormatOpt, show
from sim.report import arms_equilibrium
from sim.report.compare import figures, write


def compare(variant: Annotated[list[str], typer.Option(
                "--variant", "-v", metavar="VARIANT", help="'base', a preset name, or overrides 'key=value;key=value' (two or more)")],
            game: GameOpt = "dragonwake", n: NOpt = 100_000, players: PlayersOpt = None,
            strategy: StrategyOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1, out: OutOpt = Path("results"),
            rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
            resume: ResumeOpt = False,
            precision: Annotated[Optional[float], typer.Option(
                metavar="SHARE", help="play until every headline difference is within ± this: 0.002 = ±0.2 points for rates; for means above 1, a fraction of the base value (0.002 = ±0.2%); --n is the cap")] = None,
            at_equilibrium: AtEquilibriumOpt = False,
            to: ToOpt = None,
            format_: FormatOpt = "text") -> None:
    """Compare rule variants game by game on common random numbers."""
    spec, set_ = game_spec(game, n, players, strategy, None, seed, rules, set_, deck, plugin, format_, resume=resume)
    if at_equilibrium:
        arms = compare_at_equilibrium(spec.game, spec, variant, Budget(precision or 0.01, 2_000, spec.n), Search(),
                                      jobs, rules, tuple(set_ or ()))
        path = arms_equilibrium.write(arms, to or Path(out) / "report", f"compare_{spec.game.name}_equilibrium",
                                      f"{spec.game.title}: rule variants at equilibrium", "variant")
        show(path, format_, arms_equilibrium.figures(arms))
        return
    result = run_compare(spec.game, spec, variant, Path(out), jobs, precision, rules, tuple(set_ or ()))
    show(write(result, to or Path(out) / "report"), format_, figures(result))


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
