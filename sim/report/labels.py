"""Words for what a run played: its rules ("default rules", "variant house rules", "dwarf spaces [7, 6, 5]") and its
lineup ("seeker at every seat", "dragon brawler, dwarves coordinated"), so reports never show hashes or codes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.strategy import Seat, lineup_label


DEFAULT_RULES = "default rules"


def p_text(p: float, digits: int = 3, relation: bool = False) -> str:
    """An adjusted p-value as reports print it ("= 0.03" with `relation`, for a sentence). A max-|t| p of 0 means no
    simulated draw of the family's largest |Z| reached the change's: the p-value lies below one in MAXT_DRAWS."""
    from sim.analysis.intervals_paired import MAXT_DRAWS    # here, not at the top: it loads scipy
    if p == 0:
        return f"< {1 / MAXT_DRAWS:.0e}"
    return f"{'= ' if relation else ''}{p:.{digits}g}"


def rules_text(run: dict, decks: tuple[str, ...] = ()) -> str:
    """A run's rules as what changed from the game's own rules file: its variants and --set values, in words;
    with `decks` (the rules choosing each seat's deck, in seat order) a deck choice reads "ember vs tide"."""
    own = _own_file(run.get("rules_file"))
    values = run.get("values", {})
    changed = [k for k, e in values.items() if e.get("source") == "override"]
    parts = [] if own else [f"rules from {Path(run['rules_file']).name}"]
    if decks and any(k in decks for k in changed):
        parts.append(" vs ".join(str(values[k]["value"]) for k in decks if k in values))
    parts += [f"variant {words(v)}" for v in run.get("variants", [])]
    parts += [f"{words(k)} {value_words(values[k]['value'])}" for k in changed if k not in decks]
    return ", ".join(parts) or DEFAULT_RULES


def words(name: str) -> str:
    """A rule, variant or outcome name as words: `house_rules` -> "house rules"."""
    return name.replace("_", " ")


def rule_words(key: str, ruleset=None) -> str:
    """A rule or counter key in words, as the rules table says it: `half_terror_rounding` -> "half terror
    rounding", `dwarf_spaces[0]` -> "dwarf spaces of the Fury dwarf" (the rule's `items`, given its rules) or
    "dwarf spaces, value 1"."""
    indexed = re.fullmatch(r"(\w+)\[(\d+)\]", key)
    if not indexed:
        return words(key)
    name, i = indexed[1], int(indexed[2])
    entry = ruleset.entries.get(name) if ruleset is not None else None
    items = entry.items if entry is not None else ()
    return f"{words(name)} of the {items[i]}" if i < len(items) else f"{words(name)}, value {i + 1}"


def numbered(names: list[str]) -> list[str]:
    """Names with runs of numbered ones shortened: objective_00 ... objective_19 -> "objectives 00 to 19"."""
    out: list[str] = []
    runs: dict[str, list[str]] = {}
    for name in names:
        m = re.fullmatch(r"(.+?)_(\d+)", name)
        if m:
            if m[1] not in runs:
                runs[m[1]] = []
                out.append(m[1])          # placeholder, filled below
            runs[m[1]].append(m[2])
        else:
            out.append(name)
    return [f"{k}s {runs[k][0]} to {runs[k][-1]}" if k in runs and len(runs[k]) > 2 else
            (", ".join(f"{k}_{n}" for n in runs[k]) if k in runs else k) for k in out]


def names_words(names: list[str]) -> str:
    """Rule and counter keys as a list in words, numbered runs shortened: "near miss, objectives 00 to 19"."""
    return ", ".join(rule_words(n) for n in numbered(names))


def column_words(name: str, value=None, names: tuple[str, ...] = ()) -> str:
    """A games-table column a report splits by, in words, with its value: `deck_s0` "ember" -> "seat 0's deck
    ember", `n_cultists` 2 -> "2 cultists", `mode` 2 with names ("normal", "fallen king", "solo") -> "solo"."""
    if value is not None and names and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    seat = re.fullmatch(r"(\w+?)_s(\d+)", name)
    if seat:
        text = f"seat {seat[2]}'s {words(seat[1])}"
    elif name.startswith("n_"):
        return f"{value} {words(name[2:])}" if value is not None else f"number of {words(name[2:])}"
    else:
        text = words(name)
    return text if value is None else f"{text} {value}"


def _own_file(path) -> bool:
    """Whether a run read a game's own rules file (sim/games/<game>/rules.toml), not one of the user's."""
    if not path:
        return True
    p = Path(path)
    return p.name == "rules.toml" and p.parent.parent.name == "games"


def value_words(value) -> str:
    """A rule's value as a reader says it: a flag "on" or "off", a long list cut short."""
    if isinstance(value, bool):
        return "on" if value else "off"
    text = str(value).replace("'", "")
    return text if len(text) <= 30 else text[:27] + "..."


def setting_words(key: str, value) -> str:
    """One rule setting as words: `players` 4 -> "4 players", `events` False -> "events off"."""
    return players_text(value) if key == "players" else f"{rule_words(key)} {value_words(value)}"


def point_words(keys, values) -> str:
    """A point of a grid of settings in words: "4 players, events off, powers on"."""
    return ", ".join(setting_words(k, v) for k, v in zip(keys, values))


def players_text(players: int) -> str:
    return f"{players} player" + ("" if players == 1 else "s")


def in_role_order(game: Game, strategies: dict) -> dict:
    """A run's strategies in the game's order of roles (its provenance JSON sorts them by name)."""
    order = {role: i for i, role in enumerate(game.roles)}
    return dict(sorted(strategies.items(), key=lambda kv: order.get(kv[0], len(order))))


def lineup_text(game: Game, strategies: dict, players: int | None = None) -> str:
    """`strategies` as stored in a run's provenance: role -> {name, params}; with `players`, only the roles that
    take part (a seat game stores every seat's strategy, also those of empty seats)."""
    strategies = in_role_order(game, strategies)
    if players:
        active = set(game.active_roles(players))
        strategies = {role: s for role, s in strategies.items() if role in active} or strategies
    words = {}
    for role, s in strategies.items():
        tuned = ""
        try:
            strategy = game.strategies.get(s["name"])
            params = _params(strategy, s)
            if "budget" in strategy.param_names:       # a search player: its budget is what tells two apart
                tuned = f" ({params[strategy.param_names.index('budget')]:g} playouts)"
            elif not np.allclose(params, strategy.params()):
                tuned = " (tuned)"
        except (DsimError, KeyError, ValueError):
            pass
        words[role] = s["name"] + tuned
    if len(set(words.values())) == 1:
        return f"{next(iter(words.values()))} {'at every seat' if game.seat_game() else 'for every role'}"
    return ", ".join(f"{role_words(role)} {name}" for role, name in words.items())


def role_words(role: str) -> str:
    """A role as a player says it: `seat0` -> "seat 0" (sides such as `dragon` are words already)."""
    return re.sub(r"^seat(\d+)$", r"seat \1", role)


def lineup_words(game: Game, lineup, players: int | None = None) -> str:
    """A `Lineup` (role -> Seat) in words, as `lineup_text` gives a stored run's (with `players`, only the seats
    that play)."""
    return lineup_text(game, {role: {"name": s.strategy.name, "params": dict(zip(s.strategy.param_names,
                                                                                  s.params.tolist()))}
                              for role, s in lineup.items()}, players)


def spec_words(game: Game, spec) -> str:
    """What a RunSpec plays, in words: players, rules and lineup."""
    run = spec.rules.ruleset.provenance()
    return f"{players_text(spec.players)}, {rules_text(run)}, {lineup_words(game, spec.lineup)}"


def partition_lineup(game: Game, strategies: dict) -> str:
    """The lineup code a run's games are partitioned by, rebuilt from its provenance."""
    strategies = in_role_order(game, strategies)
    try:
        lineup = {}
        for role, s in strategies.items():
            strategy = game.strategies.get(s["name"], role)
            lineup[role] = Seat(strategy, _params(strategy, s))
    except (DsimError, KeyError):                         # a plugin strategy that is not loaded here
        return "_".join(f"{role}-{s['name']}" for role, s in strategies.items())
    return lineup_label(lineup)


def _params(strategy, stored: dict) -> np.ndarray:
    """A stored run's parameters in the strategy's own order (provenance JSON sorts them by name)."""
    return strategy.params(stored.get("params", {}))


class Configs:
    """Readable names for the (players, rules, lineup) configurations of a set of runs."""

    def __init__(self, game: Game, runs: list[dict]):
        self.game = game
        self.rules: dict[str, str] = {}
        self.lineups: dict[str, str] = {}
        seated: dict[str, int] = {}
        for r in runs:
            if r.get("game") != game.name:
                continue
            self.rules.setdefault(r["rules_hash"], rules_text(r, tuple(game.deck_rules.values())))
            strategies = r.get("strategies", {})
            code = partition_lineup(game, strategies)
            players = r.get("players") or 0
            if players >= seated.get(code, -1):      # named by its largest table, whose seats all play
                seated[code] = players
                self.lineups[code] = lineup_text(game, strategies, players)

    def is_default(self, row: dict, dims: list[str]) -> bool:
        """Whether a row is the game's default configuration along the varying dimensions."""
        default = {"players": self.game.default_players, "rules": DEFAULT_RULES,
                   "lineup": lineup_label(self.game.lineup(None))}
        got = {"players": row.get("players"), "rules": self.rule(row.get("rules", "")), "lineup": row.get("lineup")}
        return all(d in default and got[d] == default[d] for d in dims)   # a game's own dimension: no default

    def rule(self, code: str) -> str:
        return self.rules.get(code, "other rules")

    def lineup(self, code: str) -> str:
        return self.lineups.get(code, code.replace("_", ", ").replace("-", " "))

    def text(self, row: dict, dims: list[str]) -> str:
        """A configuration in words, naming only the dimensions that vary."""
        out = []
        for d in dims:
            if d == "players":
                out.append(players_text(row["players"]))
            elif d == "rules":
                out.append(self.rule(row["rules"]))
            elif d == "lineup":
                out.append(self.lineup(row["lineup"]))
            else:
                out.append(f"{d} {row[d]}")
        return ", ".join(out)
