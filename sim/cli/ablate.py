"""`dsim ablate`: each element (card kind, special value, artifact, power) taken out, neutralised or forced in."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (ChangePrecisionOpt, DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt,
                            PluginOpt, ResumeOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.analysis.ablate import MODES, ablate as run_ablate
from sim.analysis.ablate_equilibrium import ablate_at_equilibrium
from sim.analysis.equilibrium import Search
from sim.analysis.payoffs import Budget
from sim.cli.output import FormatOpt, show
from sim.report.ablate import terminal_table, write
from sim.report.arms import effect_figures
from sim.report.ablate_equilibrium import figures as equilibrium_figures
from sim.report.ablate_equilibrium import write as write_equilibrium


def ablate(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
           variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1, out: OutOpt = Path("results"),
           rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
           resume: ResumeOpt = False,
           mode: Annotated[str, typer.Option(metavar="MODE", help="neutral (same count, no effect), remove, or force (in every game)")] = "neutral",
           only: Annotated[Optional[list[str]], typer.Option("--only", metavar="ELEMENT", help="an element or group (repeatable)")] = None,
           precision: ChangePrecisionOpt = None,
           at_equilibrium: Annotated[bool, typer.Option(
               "--at-equilibrium", help="re-solve the game for each element (`dsim equilibrium`): its weight when "
                                        "both sides play their best; --precision is then each cell's")] = False,
           format_: FormatOpt = "text",
           to: ToOpt = None) -> None:
    """Rank the game's elements by their weight on the headline.

    Each element is taken out, neutralised or forced into every game, alone."""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_, resume=resume)
    if at_equilibrium:
        study = ablate_at_equilibrium(spec.game, spec, Budget(precision or 0.01, 2_000, spec.n), Search(), mode,
                                      jobs, tuple(only or ()), rules, tuple(variant or ()), tuple(set_ or ()))
        show(write_equilibrium(study, to or Path(out) / "report"), format_, equilibrium_figures(study))
        return
    result = run_ablate(spec.game, spec, Path(out), mode, jobs, precision, tuple(only or ()), rules,
                        tuple(variant or ()), tuple(set_ or ()))
    figures = {"games_per_arm": result.played, "mode": result.mode, "already": list(result.already),
               "effects": effect_figures(result.effects, "element", result.groups)}
    path = write(result, to or Path(out) / "report")
    if not result.effects:          # no headline outcome to weigh (a solo game's): the report says so
        show(path, format_, figures)
        return
    show(path, format_, figures, table=terminal_table(result),
         note=f"Change in {result.effects[0].label} with each element {MODES[result.mode]} (the report has every "
              "outcome):")


def register(app: typer.Typer) -> None:
    app.command("ablate")(ablate)
