"""`dsim ladder`: a headline finding at rising skill (random, defaults, each side's best response)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.common import (DeckOpt, game_spec, GameOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, RulesOpt, SeedOpt,
                            SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.analysis.ladder import ladder as run_ladder
from sim.cli.output import FormatOpt, show
from sim.report.ladder import write


def ladder(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
           variant: VariantOpt = None, seed: SeedOpt = 0, out: OutOpt = Path("results"), rules: RulesOpt = None,
           set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
           outcome: Annotated[Optional[str], typer.Option(help="the outcome the finding is about (default: the headline)")] = None,
           reference: Annotated[Optional[float], typer.Option(
               help="the value the finding is measured against, e.g. 0.5 or a fair share 0.25")] = None,
           iters: Annotated[int, typer.Option(help="differential-evolution generations per side")] = 4,
           format_: FormatOpt = "text",
           to: ToOpt = None) -> None:
    """Play a finding by random, default and best-response line-ups and say whether it holds, grows or vanishes."""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_)
    result = run_ladder(spec.game, spec, outcome, reference, iters)
    path, _ = write(result, to or Path(out) / "report")
    show(path, format_, {"levels": result.table().drop("lineup").to_dicts()})


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
