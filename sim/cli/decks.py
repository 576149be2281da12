"""`dsim decks`: which deck breaks the game? The strongest deck list found for each deck against the field."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.analysis.decksearch import deck_search
from sim.cli.common import (game_spec, GameOpt, JobsOpt, OutOpt, PluginOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt,
                            ToOpt, VariantOpt)
from sim.cli.output import FormatOpt, show
from sim.engine.spec import check_n
from sim.report.decksearch import figures, terminal_table, write


def decks(game: GameOpt = "drakerion",
          deck: Annotated[Optional[list[str]], typer.Option(
              "--deck", "-d", metavar="NAME", help="a deck to search (repeat for more; default every deck)")] = None,
          n: Annotated[float, typer.Option(
              "--n", "-n", metavar="N", help="games per pairing and seat order for each deck tried (same seeds)")]
          = 400,
          steps: Annotated[int, typer.Option("--steps", metavar="K", help="most swaps kept per deck")] = 20,
          candidates: Annotated[int, typer.Option(
              "--candidates", metavar="K", help="swaps of one copy tried per step")] = 12,
          most: Annotated[int, typer.Option(
              "--most", metavar="K", help="copies of one card a deck may hold at most (the rulebook gives none)")] = 3,
          patience: Annotated[int, typer.Option(
              "--patience", metavar="K", help="stop a deck's search after this many steps without a better swap")]
          = 3,
          pool_out: Annotated[Optional[str], typer.Option(
              "--pool-out", metavar="NAME", help="write the pool with each list found that beats its start "
              "(never over an existing pool)")] = None,
          verify: Annotated[Optional[float], typer.Option(
              "--verify", metavar="N", help="games per pairing and seat order on fresh seeds (default 2 x --n)")]
          = None,
          strategy: StrategyOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1,
          out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None, plugin: PluginOpt = None,
          format_: FormatOpt = "text", to: ToOpt = None) -> None:
    """Find the deck list that beats the field most.

    Swaps one copy at a time within the deck-building limits, every try on the
    same seeds; the start and the deck found are replayed on fresh seeds."""
    spec, _ = game_spec(game, n, None, strategy, variant, seed, rules, set_, None, plugin, format_)
    verify_n = check_n(verify) if verify is not None else None
    result = deck_search(spec.game, spec, list(deck or ()), steps, candidates, most, patience, jobs, verify_n, pool_out)
    show(write(result, to or Path(out) / "report"), format_, figures(result), terminal_table(result),
         "Each deck, its starter and the best list found against the field:")


def register(app: typer.Typer) -> None:
    app.command("decks")(decks)
