"""`dsim equilibrium`: the balance figure when both sides play their best (payoff table, solved, grown by
best responses until none gains more than the tolerance)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.analysis.equilibrium import Search, equilibrium as run_equilibrium, search_player
from sim.analysis.payoffs import Budget
from sim.cli.common import (game_spec, GameOpt, JobsOpt, OutOpt, PlayersOpt, PluginOpt, RulesOpt, SeedOpt, SetOpt,
                            ToOpt, VariantOpt)
from sim.cli.output import FormatOpt, show
from sim.engine.errors import DsimError
from sim.engine.spec import check_jobs, check_n
from sim.report.equilibrium import figures, write

Points = Annotated[float, typer.Option(help="(0.01 is one point)")]


def equilibrium(game: GameOpt = "drako", players: PlayersOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0,
                jobs: JobsOpt = 1, out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None,
                plugin: PluginOpt = None,
                precision: Annotated[float, typer.Option(
                    "--precision", metavar="SHARE", help="play each cell until its 95% interval is within ± this (0.01 = 1 point)")]
                = 0.01,
                n: Annotated[float, typer.Option("--n", "-n", metavar="N", help="most games per cell")] = 200_000,
                tol: Annotated[float, typer.Option(
                    "--tol", metavar="SHARE", help="stop when no best response gains more than this (0.01 = 1 point)")] = 0.01,
                rounds: Annotated[int, typer.Option(metavar="ROUNDS", help="most rounds of adding best responses and solving again")] = 4,
                iters: Annotated[int, typer.Option(metavar="GENERATIONS", help="best-response search: generations of "
                                                   "the short run from every strategy family")] = 3,
                refine: Annotated[int, typer.Option(metavar="GENERATIONS", help="best-response search: generations of "
                                                    "the longer run from the best family's answer (0: none)")] = 12,
                search_games: Annotated[int, typer.Option(
                    "--search-games", metavar="N", help="best-response search: games per opposing line-up per evaluation")] = 1_000,
                decks: Annotated[Optional[str], typer.Option(
                    "--decks", metavar="DECKS", help="games with decks: the decks a side may choose (comma-separated, or 'all')")]
                = None,
                boot: Annotated[int, typer.Option(metavar="RESAMPLES", help="resamplings of the games played, for the intervals")] = 200,
                check_games: Annotated[int, typer.Option(
                    "--check-games", metavar="N", help="games of the search player's fresh check per side (it plays "
                                                       "out against the solution; 0: no check), and of each cell "
                                                       "it plays in")] = 400,
                with_search: Annotated[bool, typer.Option(
                    "--with-search", help="add the game's search player to each side's strategies (its cells "
                                          "play at its speed: use a small --n)")] = False,
                search_joins: Annotated[bool, typer.Option(
                    "--search-joins/--no-search-joins", help="two sides: the search player joins a side when, checked "
                                                             "each round, it gains on fresh games")] = True,
                search_budget: Annotated[Optional[int], typer.Option(
                    "--search-budget", metavar="N", help="with --with-search: the trial games the search player "
                                                         "plays per move (default: its own)")] = None,
                to: ToOpt = None, format_: FormatOpt = "text") -> None:
    """The balance when every side plays its best.

    Every built-in strategy per side (the search player with --with-search), solved as a game and grown by
    best responses."""
    spec, _ = game_spec(game, 1, players, None, variant, seed, rules, set_, None, plugin, format_)
    check_jobs(jobs)
    budget = check_budget(precision, check_n(n), tol, rounds, iters, search_games, boot)
    if not 0 <= refine <= 200:
        raise DsimError(f"--refine is out of range: {refine}")
    if not 0 <= check_games <= 10**6:
        raise DsimError(f"--check-games is out of range: {check_games}")
    chosen = deck_list(spec.game, spec.rules, decks)
    search = Search(iters=iters, refine=refine, games=search_games, rounds=rounds, tol=tol, check_games=check_games,
                    search_joins=search_joins)
    if with_search and "search" not in spec.game.strategies.items:
        raise DsimError(f"{spec.game.name} has no search player (`dsim games {spec.game.name}` lists its strategies)")
    searcher = search_player(spec.game, with_search, search_budget)
    study = run_equilibrium(spec.game, spec, budget, search, jobs, chosen, boot, searcher)
    show(write(study, to or Path(out) / "report"), format_, figures(study))


def check_budget(precision, cap, tol, rounds, iters, search_games, boot) -> Budget:
    for name, value, ok in (("--precision", precision, 0 < precision < 0.5), ("--tol", tol, 0 <= tol < 0.5),
                            ("--rounds", rounds, 0 <= rounds <= 50), ("--iters", iters, 1 <= iters <= 100),
                            ("--search-games", search_games, 100 <= search_games <= 10**7),
                            ("--boot", boot, 20 <= boot <= 10**5)):
        if not ok:
            raise DsimError(f"{name} is out of range: {value:g}")
    return Budget(precision, min(2_000, cap), cap)


def deck_list(game, rules, text: str | None) -> list[str] | None:
    if not text:
        return None
    if not game.deck_rules:
        raise DsimError(f"{game.name} has no decks to choose; --decks is for games with decks")
    known = game.decks(rules)
    names = known if text.strip() == "all" else [d.strip() for d in text.split(",") if d.strip()]
    unknown = [d for d in names if d not in known]
    if unknown:
        raise DsimError(f"unknown deck '{unknown[0]}' for {game.name} (decks: {', '.join(known)})")
    return names


def register(app: typer.Typer) -> None:
    app.command("equilibrium")(equilibrium)
