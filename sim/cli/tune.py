"""`dsim tune`: the rule setting that puts outcomes on a target, verified on fresh seeds."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (AtEquilibriumOpt, DeckOpt, game_spec, GameOpt, JobsOpt, OutOpt, PlayersOpt, PluginOpt,
                            RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.analysis.equilibrium import Search
from sim.analysis.payoffs import Budget
from sim.analysis.tune import tune as run_tune
from sim.cli.output import FormatOpt, show
from sim.engine.errors import DsimError
from sim.engine.spec import check_n
from sim.report.tune import figures, write


def tune(param: Annotated[list[str], typer.Option(
             "--param", metavar="KEY=LO:HI", help="a numeric rule and its range: key=lo:hi, or key[i]=lo:hi for a list element, or players=lo:hi")],
         target: Annotated[list[str], typer.Option(
             "--target", metavar="OUTCOME=VALUE", help="outcome=value, e.g. dragon_win=0.5 or dragon_win=50% (see `dsim games`)")],
         game: GameOpt = "dragonwake",
         n: Annotated[float, typer.Option("--n", "-n", metavar="N", help="games per setting searched (all on the same seeds)")] = 20_000,
         verify: Annotated[Optional[float], typer.Option(
             "--verify", metavar="N", help="games on fresh seeds for the answer (default 5 × --n)")] = None,
         players: PlayersOpt = None, strategy: StrategyOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0,
         jobs: JobsOpt = 1, out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None,
         deck: DeckOpt = None, plugin: PluginOpt = None,
         at_equilibrium: AtEquilibriumOpt = False,
         precision: Annotated[float, typer.Option(
             metavar="SHARE", help="with --at-equilibrium: the answer's cells play until their 95% interval is "
                                   "within ± this")] = 0.01,
         format_: FormatOpt = "text",
         to: ToOpt = None) -> None:
    """Find the rule value that puts an outcome on a target.

    The search plays every setting on the same seeds, then verifies the answer on fresh ones. With
    --at-equilibrium the target is the figure at equilibrium (--target equilibrium=50%): each setting is solved
    as a game."""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_)
    verify_n = check_n(verify) if verify is not None else None
    solved = None
    if at_equilibrium:
        if not 0 < precision < 0.5:
            raise DsimError(f"--precision is out of range: {precision:g}")
        solved = (Budget(precision, 2_000, spec.n), Search())
    result = run_tune(spec.game, spec, param, target, jobs, verify_n, rules, tuple(variant or ()), tuple(set_ or ()),
                      solved)
    show(write(result, to or Path(out) / "report"), format_, figures(result))


def register(app: typer.Typer) -> None:
    app.command("tune")(tune)
