"""`dsim sensitivity`: each assumed value's plausible alternatives, played alone on the same seeds."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (ChangePrecisionOpt, DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt,
                            PluginOpt, ResumeOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.analysis.sensitivity import sensitivity as run_sensitivity
from sim.cli.output import FormatOpt, show
from sim.report.arms import effect_figures
from sim.report.sensitivity import write


def sensitivity(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None,
                strategy: StrategyOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1,
                out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None,
                plugin: PluginOpt = None, resume: ResumeOpt = False,
                only: Annotated[Optional[list[str]], typer.Option(
                    "--only", metavar="KEY", help="vary only this assumed value (repeatable)")] = None,
                precision: ChangePrecisionOpt = None,
                format_: FormatOpt = "text",
                to: ToOpt = None) -> None:
    """Rank the assumed values by how much they move the headline.

    Each plausible alternative of a value the rulebook does not give is played against the rules as they are."""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_, resume=resume)
    result = run_sensitivity(spec.game, spec, Path(out), jobs, precision, tuple(only or ()), rules,
                             tuple(variant or ()), tuple(set_ or ()))
    figures = {"games_per_arm": result.played, "effects": effect_figures(result.effects, "assumption")}
    show(write(result, to or Path(out) / "report"), format_, figures)


def register(app: typer.Typer) -> None:
    app.command("sensitivity")(sensitivity)
