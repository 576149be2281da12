"""`dsim tournament`: round robin with seats and sides rotated, win matrix and ratings."""

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import (DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, ResumeOpt,
                            RulesOpt, SeedOpt, SetOpt, ToOpt, VariantOpt)
from sim.analysis.tournament import tournament as run_tournament
from sim.cli.output import FormatOpt, show
from sim.report.tournament import figures, write


def tournament(strategies: Annotated[str, typer.Option(
                   "--strategies", metavar="ENTRANTS", help="comma-separated entrants; per-role entrants as hero=honest/cultist=liar; 'SPEC as NAME' names one")],
               game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None,
               variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1, out: OutOpt = Path("results"),
               rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
               resume: ResumeOpt = False, to: ToOpt = None, format_: FormatOpt = "text") -> None:
    """Every pair of strategies, every rotation, the same deals."""
    spec, set_ = game_spec(game, n, players, None, variant, seed, rules, set_, deck, plugin, format_, resume=resume)
    entrants = [s.strip() for s in strategies.split(",") if s.strip()]
    result = run_tournament(spec.game, spec, entrants, Path(out), jobs)
    show(write(result, to or Path(out) / "report"), format_, figures(result))


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
