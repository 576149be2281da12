"""`dsim games`: the games, and for one game its outcomes, variants, strategies, rules and readings, each named as
the options that take it (`--variant`, `--strategy`, `--set`, the outcomes of `tune` and `ladder`)."""

import json
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from sim.cli.output import FormatOpt, check_format, hanging
from sim.games import all_games, get_game
from sim.report.numbers import plain


def games(name: Annotated[Optional[str], typer.Argument(metavar="GAME", hidden=True)] = None,
          format_: FormatOpt = "text") -> None:
    """List the games, or one game's outcomes, variants and rules.

    With GAME: one entry per outcome, variant, strategy, rule and reading of that game."""
    if check_format(format_) == "json":
        print(json.dumps(plain({"games": [described(g) for g in ([get_game(name)] if name else
                                                                   all_games().values())]})))
        return
    console = Console()
    if name:
        detail(console, get_game(name))
        return
    for g in all_games().values():
        rules = g.load_rules()
        console.print(Text(f"{g.name}: {g.title}", style="bold"))
        say = _say(console)
        say("    ", f"{_players(g)}; {len(rules.ruleset.assumed())} assumed values, {len(rules.ruleset.flags())} "
                    f"rule flags (dsim games {g.name})")
        say("    outcomes: ", ", ".join(o.name for o in g.outcomes()))
        say("    variants: ", ", ".join(rules.ruleset.available_variants) or "none")
        say("    strategies: ", f"{', '.join(g.strategies.names())}; default {_defaults(g)}")


def described(g) -> dict:
    """--format json: a game's players, outcomes, variants, strategies and rules as data."""
    ruleset = g.load_rules().ruleset
    return {"game": g.name, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
            "default_players": g.default_players,
            "outcomes": [{"outcome": o.name, "label": o.label, "kind": o.kind, "headline": o.headline,
                          "unit": "%" if o.shows_percent() else ""} for o in g.outcomes()],
            "variants": [{"variant": v, "description": spec.get("description", "")}
                         for v, spec in ruleset.available_variants.items()],
            "strategies": [{"strategy": s.name, "roles": list(s.roles), "description": s.description,
                            "params": dict(zip(s.param_names, s.defaults))} for s in g.strategies.items.values()],
            "rules": [{"rule": key, "value": e.value, "source": e.source, "note": e.note}
                      for key, e in ruleset.entries.items()]}


def detail(console: Console, g) -> None:
    rules = g.load_rules()
    ruleset = rules.ruleset
    console.print(Text(f"{g.name}: {g.title}", style="bold"))
    _say(console)("", f"{_players(g)}; default strategies: {_defaults(g)}; "
                      f"{len(ruleset.assumed())} assumed values, {len(ruleset.flags())} rule flags.")
    _section(console, "Outcomes (the names tune --target and ladder --outcome take)",
             [(o.name, (o.label or o.name) + ("; headline" if o.headline else "")) for o in g.outcomes()])
    _section(console, "Variants (--variant NAME)",
             [(v, spec.get("description", "")) for v, spec in ruleset.available_variants.items()])
    seats = g.seat_game()
    _section(console, "Strategies (--strategy NAME, or ROLE=NAME for one role)" if not seats else
             f"Strategies (--strategy NAME, or SEAT=NAME for one seat: {g.roles[0]} to {g.roles[-1]})",
             [(s.name, ("" if seats else f"{'/'.join(s.roles)}: ") + s.description + _params(s))
              for s in g.strategies.items.values()])
    _section(console, "Rules (--set KEY=VALUE)",
             [(key, f"{_value(e.value)} ({e.source}): {e.note}") for key, e in ruleset.entries.items()])
    flags = ruleset.flags()
    _section(console, "Readings (rules the rulebook lets one read two ways: the default, and the other)",
             [(key, f"{_toml(ruleset.entries[key].value)}: {f.reading}. Other, --set {key}={_toml(f.other_value)}: "
                    f"{f.other}") for key, f in flags.items()])
    for line in g.describe(rules):
        console.print(Text(line))


def _section(console: Console, title: str, rows: list[tuple[str, str]]) -> None:
    """A titled list: each name on its own line, its description wrapped beside it."""
    if not rows:
        return
    console.print(Text(title, style="bold"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="cyan", max_width=max(12, min(32, console.width // 2)))
    grid.add_column()
    for name, text in rows:
        grid.add_row(Text(name), Text(text))
    console.print(Padding(grid, (0, 0, 0, 2)))


def _say(console: Console):
    """Print a paragraph after a lead, wrapped under its own text."""
    def say(lead: str, text: str) -> None:
        console.print(Text(hanging(lead, text, console.width)))
    return say


def _players(g) -> str:
    if g.min_players == g.max_players:
        return f"{g.min_players} players"
    return f"{g.min_players} to {g.max_players} players (default {g.default_players})"


def _defaults(g) -> str:
    """The default strategies in words: one name for every seat or role, or role by role."""
    chosen = {role: g.default_lineup.get(role, "random") for role in g.roles}
    if len(set(chosen.values())) == 1:
        return f"{next(iter(chosen.values()))} {'at every seat' if g.seat_game() else 'for every role'}"
    return ", ".join(f"{role} {name}" for role, name in chosen.items())


def _params(s) -> str:
    return f" [{', '.join(f'{k}={v:g}' for k, v in zip(s.param_names, s.defaults))}]" if s.param_names else ""


def _value(value) -> str:
    text = _toml(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _toml(value) -> str:
    """A value as it is typed after --set."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value).replace("'", '"') if isinstance(value, str) else str(value)


def register(app: typer.Typer) -> None:
    app.command("games")(games)
