"""`dsim replay`: play-by-play of one game from the kernel's trace, checked by the referee."""

import json
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import (DeckOpt, game_spec, GameOpt, PlayersOpt, PluginOpt, RulesOpt, SeedOpt, SetOpt,
                            StrategyOpt, VariantOpt)
from sim.cli.output import FormatOpt, check_format
from sim.engine import seeding
from sim.engine.errors import DsimError
from sim.engine.game import RefereeError


def replay(game: GameOpt = "dragonwake", seed: SeedOpt = 0,
           game_id: Annotated[int, typer.Option("--game-id", metavar="GAME_ID", help="which game of the run (its game_id column)")] = 0,
           players: PlayersOpt = None, strategy: StrategyOpt = None, variant: VariantOpt = None,
           rules: RulesOpt = None, set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
           format_: FormatOpt = "text") -> None:
    """Replay one game, every move checked by the referee.

    The game is game GAME_ID of the run these options describe."""
    if game_id < 0:
        raise DsimError(f"--game-id must be >= 0, got {game_id}")
    check_format(format_)
    spec, _ = game_spec(game, game_id + 1, players, strategy, variant, seed, rules, set_, deck, plugin, None)
    chunk, local = divmod(game_id, spec.size())
    trace = spec.game.traces(spec.rules, spec.players, spec.lineup, seeding.chunk_seed(seed, chunk), local + 1)[local]
    console = Console()
    try:
        lines, problem = spec.game.referee(spec.rules, spec.players, trace), ""
    except RefereeError as e:
        lines, problem = [], str(e)
    if format_ == "json":
        print(json.dumps({"game": spec.game.name, "game_id": game_id, "seed": seed, "players": spec.players,
                          "legal": not problem, "referee": problem, "moves": lines}))
        if problem:
            raise typer.Exit(1)
        return
    console.print(f"[bold]{spec.game.title}[/bold]: game {game_id}, seed {seed}, {spec.players} players, "
                  f"rules {spec.rules.hash}")
    if problem:
        console.print(f"[red]referee rejects this game: {problem}[/red]")
        raise typer.Exit(1)
    for line in lines:
        console.print(line, highlight=False)
    console.print("[green]referee: every move legal, result confirmed[/green]")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
