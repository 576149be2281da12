"""`dsim ladder`: a headline finding at rising skill (random, defaults, each side's best response to the defaults,
the equilibrium)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.analysis.equilibrium import standard_study
from sim.cli.common import (DeckOpt, game_spec, GameOpt, JobsOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, RulesOpt,
                            SeedOpt, SetOpt, StrategyOpt, ToOpt, VariantOpt)
from sim.engine.errors import DsimError
from sim.engine.spec import check_jobs
from sim.analysis.ladder import ladder as run_ladder, pick_outcome
from sim.cli.output import FormatOpt, show
from sim.report.ladder import figures, write


def ladder(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
           variant: VariantOpt = None, seed: SeedOpt = 0, out: OutOpt = Path("results"), rules: RulesOpt = None,
           set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
           outcome: Annotated[Optional[str], typer.Option(metavar="OUTCOME", help="the outcome the finding is about (default: the headline)")] = None,
           reference: Annotated[Optional[float], typer.Option(
               metavar="VALUE", help="the value the finding is measured against, e.g. 0.5 or a fair share 0.25")] = None,
           iters: Annotated[int, typer.Option(metavar="GENERATIONS", help="differential-evolution generations per side")] = 4,
           equilibrium: Annotated[bool, typer.Option(
               help="top rung: the equilibrium of every built-in strategy (as `dsim equilibrium`)")] = True,
           search_games: Annotated[Optional[int], typer.Option(
               "--search-games", metavar="N", help="deals each search rung plays (0: no search rungs; default 10,000)")] = None,
           search_budgets: Annotated[Optional[str], typer.Option(
               "--search-budgets", metavar="B1,B2", help="the search rungs' trial games per move (default: a quarter of the search player's default budget, and the default: 50,200 in most games)")] = None,
           jobs: JobsOpt = 1,
           format_: FormatOpt = "text",
           to: ToOpt = None) -> None:
    """Check a finding against worse and better play.

    Random, default and best-response line-ups play it: does it hold, grow or vanish?"""
    spec, set_ = game_spec(game, n, players, strategy, variant, seed, rules, set_, deck, plugin, format_)
    check_jobs(jobs)
    pick_outcome(spec.game, outcome)        # a misspelt outcome is refused before minutes of play
    budgets = parse_budgets(search_budgets)
    if search_games is not None and search_games < 0:
        raise DsimError(f"--search-games must be 0 or more, not {search_games}")
    study = standard_study(spec.game, spec, jobs) if equilibrium else None
    result = run_ladder(spec.game, spec, outcome, reference, iters, study=study, jobs=jobs,
                        search_budgets=budgets, search_games=search_games)
    path, _ = write(result, to or Path(out) / "report")
    show(path, format_, figures(result))


def parse_budgets(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    try:
        budgets = tuple(int(b) for b in text.split(","))
    except ValueError:
        raise DsimError(f"--search-budgets takes whole numbers separated by commas, e.g. 50,200; got '{text}'") from None
    if not budgets or min(budgets) < 1:
        raise DsimError(f"--search-budgets must be at least 1 playout each, got '{text}'")
    return budgets


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
