"""`dsim games`: the games, their variants, roles and strategies."""

from typing import Annotated, Optional

import typer
from rich.console import Console

from sim.games import all_games, get_game


def games(name: Annotated[Optional[str], typer.Argument(help="show one game in detail")] = None) -> None:
    """List games, their named variants, roles and strategies."""
    console = Console()
    chosen = {name: get_game(name)} if name else all_games()
    for g in chosen.values():
        rules = g.load_rules()
        console.print(f"[bold]{g.name}[/bold] — {g.title}; {g.min_players}-{g.max_players} players "
                      f"(default {g.default_players}); rules {rules.hash}, {len(rules.ruleset.assumed())} assumed values, "
                      f"{len(rules.ruleset.flags())} rule flags")
        for v, spec in rules.ruleset.available_variants.items():
            console.print(f"  variant [cyan]{v}[/cyan]: {spec.get('description', '')}")
        for role in g.roles:
            console.print(f"  role [magenta]{role}[/magenta] (default {g.default_lineup.get(role, 'random')}): "
                          + ", ".join(g.strategies.names(role)))
        if name:
            for s in g.strategies.items.values():
                params = ", ".join(f"{k}={v:g}" for k, v in zip(s.param_names, s.defaults))
                console.print(f"  strategy [green]{s.name}[/green] ({'/'.join(s.roles)}): {s.description}"
                              + (f" [{params}]" if params else ""))
            for key, e in rules.ruleset.entries.items():
                console.print(f"  rule {key} = {e.value!r} ({e.source}) {e.note}", markup=False)
            flags = rules.ruleset.flags()
            if flags:
                console.print(f"  [bold]readings[/bold] ({len(flags)} rule flags: the default, and the other with --set)")
            for key, f in flags.items():
                value = rules.ruleset.entries[key].value
                console.print(f"  flag {key}\n    default {_toml(value)}: {f.reading}\n"
                              f"    other   --set {key}={_toml(f.other_value)}: {f.other}", markup=False)
            for line in g.describe(rules):
                console.print(f"  {line}", markup=False)


def _toml(value) -> str:
    """A value as it is typed after --set."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value).replace("'", '"') if isinstance(value, str) else str(value)


def register(app: typer.Typer) -> None:
    app.command("games")(games)
