"""Options every game command shares, and turning them into a RunSpec."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.cli.output import check_format
from sim.engine.errors import DsimError
from sim.engine.spec import RunSpec, check_n
from sim.engine.strategy import load_plugin
from sim.games import get_game

GameOpt = Annotated[str, typer.Option("--game", "-g", metavar="GAME", help="game name (see `dsim games`)")]
NOpt = Annotated[float, typer.Option("--n", "-n", metavar="N", help="number of games (1e6 works)")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", metavar="PLAYERS", help="player count (game default if omitted)")]
StrategyOpt = Annotated[Optional[str], typer.Option(
    "--strategy", "-s", metavar="STRATEGY", help="one strategy for every role, or per role: hero=bayes,cultist=liar "
                             "(parameters inline: hero=bayes:dragon_fear=2)")]
VariantOpt = Annotated[Optional[list[str]], typer.Option("--variant", "-v", metavar="VARIANT", help="named rule preset (repeatable)")]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="SEED", help="root seed; same seed, same games")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", metavar="JOBS", help="cores to use (chunks played at once)")]
OutOpt = Annotated[Path, typer.Option("--out", "-o", metavar="FOLDER", help="results folder (Parquet)")]
RulesOpt = Annotated[Optional[Path], typer.Option("--rules", metavar="FILE", help="your own rules TOML (default: the game's)")]
SetOpt = Annotated[Optional[list[str]], typer.Option("--set", metavar="KEY=VALUE", help="override a rule: key=value (repeatable)")]
DeckOpt = Annotated[Optional[str], typer.Option(
    "--deck", "-d", metavar="DECK", help="games with decks: one deck for every seat, or per seat: seat0=ember,seat1=tide "
                         "(see `dsim games GAME`)")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="after an interrupted run: keep its completed chunks and play only the rest "
                     "(same command, same options)")]
ToOpt = Annotated[Optional[Path], typer.Option("--to", metavar="FOLDER", help="report folder (default OUT/report)")]
AtEquilibriumOpt = Annotated[bool, typer.Option(
    "--at-equilibrium", help="solve each arm as a game (`dsim equilibrium`): the change when both sides play their "
                             "best; --n is then the most games per cell, --precision each cell's")]
ChangePrecisionOpt = Annotated[Optional[float], typer.Option(
    "--precision", metavar="SHARE", help="play until every headline change is within ± this: 0.01 = ±1 point for rates; for means above 1, a fraction of the value (0.01 = ±1%); --n is the cap")]
PluginOpt = Annotated[Optional[list[str]], typer.Option("--plugin", metavar="FILE", help="Python file registering strategies")]


def load_plugins(plugins) -> tuple[str, ...]:
    plugins = tuple(str(Path(p).resolve()) for p in (plugins or ()))
    for p in plugins:
        load_plugin(p)
    return plugins


def deck_sets(game: str, deck: str | None, sets) -> list[str]:
    """`--deck` as rule overrides (`seat0_deck=ember`), ahead of any --set."""
    sets = list(sets or ())
    if not deck:
        return sets
    g = get_game(game)
    if not g.deck_rules:
        raise DsimError(f"{game} has no decks to choose; --deck is for {', '.join(decked_games()) or 'none'}")
    chosen = {}
    for part in (x.strip() for x in deck.split(",")):
        role, _, name = part.rpartition("=")
        roles = [role] if role else list(g.deck_rules)
        for r in roles:
            if r not in g.deck_rules:
                raise DsimError(f"unknown seat '{r}' in --deck (seats: {', '.join(g.deck_rules)})")
            chosen[r] = name
    return [f"{g.deck_rules[r]}={name}" for r, name in chosen.items()] + sets


def decked_games() -> list[str]:
    from sim.games import all_games
    return [name for name, g in all_games().items() if g.deck_rules]


def build_spec(game: str, n: float, players, strategy, variant, seed: int, rules, sets, plugins,
               extra: dict | None = None, resume: bool = False) -> RunSpec:
    """Validate every option before anything runs or is written."""
    g = get_game(game)
    plugins = load_plugins(plugins)
    if not 0 <= seed < 2**63:
        raise DsimError(f"--seed must be from 0 to 2**63-1, got {seed}")
    r = g.load_rules(rules, variant or (), sets or ())
    players = g.default_players if players is None else players
    g.check_players(r, players)
    return RunSpec(g, r, players, g.lineup(strategy, r), check_n(n), seed, plugins, extra=extra or {}, resume=resume)


def game_spec(game: str, n: float, players, strategy, variant, seed: int, rules, sets, deck, plugins,
              format_: str | None = "text", resume: bool = False) -> tuple[RunSpec, list[str]]:
    """What every game command does first: check --format, turn --deck into rule overrides ahead of --set, and
    validate the rest into a RunSpec. Returns it with those overrides (what each arm of a design command adds to
    its own)."""
    if format_ is not None:
        check_format(format_)
    sets = deck_sets(game, deck, sets)
    return build_spec(game, n, players, strategy, variant, seed, rules, sets, plugins, resume=resume), sets
