"""`dsim sensitivity`: each assumed value's plausible alternatives, played alone on the same seeds."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (build_spec, ChangePrecisionOpt, deck_sets, DeckOpt, GameOpt, JobsOpt, NOpt, OutOpt,
                            PlayersOpt, PluginOpt, ResumeOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt, ToOpt,
                            VariantOpt)
from sim.analysis.arms import effect_rows
from sim.analysis.sensitivity import sensitivity as run_sensitivity
from sim.cli.output import FormatOpt, check_format, show
from sim.report.sensitivity import write


def sensitivity(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None,
                strategy: StrategyOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1,
                out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None,
                plugin: PluginOpt = None, resume: ResumeOpt = False,
                only: Annotated[Optional[list[str]], typer.Option(
                    "--only", help="vary only this assumed value (repeatable)")] = None,
                precision: ChangePrecisionOpt = None,
                format_: FormatOpt = "text",
                to: ToOpt = None) -> None:
    """Rank the assumed values by how much their plausible alternatives move the headline outcomes."""
    check_format(format_)
    set_ = deck_sets(game, deck, set_)
    spec = build_spec(game, n, players, strategy, variant, seed, rules, set_, plugin, resume=resume)
    result = run_sensitivity(spec.game, spec, Path(out), jobs, precision, tuple(only or ()), rules,
                             tuple(variant or ()), tuple(set_ or ()))
    show(write(result, to or Path(out) / "report"), format_, {"effects": effect_rows(result.effects, "assumption")})


def register(app: typer.Typer) -> None:
    app.command("sensitivity")(sensitivity)
