"""`dsim sensitivity`: how much each assumed value moves the headline outcomes.

Every value a rules file labels `assumed` declares its plausible alternatives (`range = [low, high]` or
`alternatives = [...]`), and every rule flag has its other reading. Each alternative is played alone against the
rules as given, all arms on the same seeds, so each change is a paired difference with its interval. The
assumptions are ranked by the largest change any of their alternatives makes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sim.analysis.arms import Effect, against_base, effect_rows
from sim.analysis.intervals_family import ElementFamily
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.spec import RunSpec


def assumptions(game: Game, rules) -> dict[str, tuple]:
    """Every assumed value and rule flag with its plausible alternatives, in file order."""
    entries = rules.ruleset.entries
    return {k: e.alternatives for k, e in entries.items()
            if (e.source != "rulebook" or e.flag is not None) and e.alternatives}


def undeclared(game: Game) -> list[str]:
    """Assumed values that declare no alternative: sensitivity cannot say what they change."""
    entries = game.load_rules().ruleset.entries
    return [k for k, e in entries.items() if e.source == "assumed" and not e.alternatives]


def short(value) -> str:
    text = str(value).replace("'", "")
    return text if len(text) <= 28 else text[:25] + "..."


def arms(game: Game, base: RunSpec, only=(), rules_file=None, variants=(), base_sets=()) -> list[tuple]:
    """(key, alternative, spec) for every alternative, validated before anything plays."""
    table = assumptions(game, base.rules)
    unknown = [k for k in only if k not in table]
    if unknown:
        raise DsimError(f"no assumed value with alternatives named {', '.join(unknown)} in {game.name} "
                        f"(known: {', '.join(table)})")
    out = []
    for key, alternatives in table.items():
        if only and key not in only:
            continue
        for alt in alternatives:
            try:
                rules = game.load_rules(rules_file, variants, [*base_sets, (key, alt)])
                game.check_players(rules, base.players)
            except DsimError as e:
                raise DsimError(f"{game.name}: the alternative {key}={short(alt)} is not valid rules: {e}") from None
            extra = {"sensitivity": f"{key}={alt}"}
            out.append((key, alt, dataclasses.replace(base, rules=rules, extra=extra)))
    if not out:
        raise DsimError(f"{game.name} declares no alternatives for its assumed values")
    return out


@dataclass(frozen=True)
class Sensitivity:
    """Every plausible alternative of the assumed values, each played alone against the base on its seeds."""

    game: Game
    base: RunSpec
    effects: list[Effect]
    families: dict[str, ElementFamily]   # per headline outcome: detection and ranking of every arm
    played: int                  # games per arm

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{**row, "games": self.played} for row in effect_rows(self.effects, "assumption")])


def sensitivity(game: Game, base: RunSpec, out: Path, jobs: int = 1, precision: float | None = None,
                only=(), rules_file=None, variants=(), base_sets=()) -> Sensitivity:
    planned = arms(game, base, only, rules_file, variants, tuple(base_sets))
    effects, families, played = against_base(game, base, planned, out, jobs, precision, "sensitivity")
    return Sensitivity(game, base, effects, families, played)
