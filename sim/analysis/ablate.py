"""`dsim ablate`: each element's weight in the headline, on the same seeds.

Every element a game declares (`Game.elements`) is taken out, replaced by a neutral element of the same
count, or forced into every game, alone, against the rules as given. The neutral replacement is the default:
removing a card also changes the deck's size and the chance of drawing everything else, and swapping it for
a dead card measures the slot as much as the card (dead-card bias); a neutral card keeps both.
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

MODES = {"neutral": "replaced by a neutral element", "remove": "removed", "force": "in every game"}


MODES_ALREADY = {"neutral": "already neutral", "remove": "already off", "force": "already in every game"}


def arms(game: Game, base: RunSpec, mode: str, only=(), rules_file=None, variants=(), base_sets=(),
         already: list[str] | None = None) -> list[tuple]:
    """(element, what was done, its run) for each element the mode changes; those the rules already have that way
    (removing a rule that is off) play the base's games again, so they are left out and named in `already`."""
    if mode not in MODES:
        raise DsimError(f"--mode must be one of {', '.join(MODES)}, got '{mode}'")
    elements = game.elements(base.rules)
    if not elements:
        raise DsimError(f"{game.name} declares no elements to ablate")
    names = {e.name for e in elements} | {e.group for e in elements}
    unknown = [o for o in only if o not in names]
    if unknown:
        raise DsimError(f"no element or group named {', '.join(unknown)} in {game.name} "
                        f"(elements: {', '.join(e.name for e in elements)})")
    out, same = [], []
    for e in elements:
        overrides = getattr(e, mode)
        if not overrides or (only and e.name not in only and e.group not in only):
            continue
        try:
            rules = game.load_rules(rules_file, variants, [*base_sets, *overrides])
            game.check_players(rules, base.players)
        except DsimError as err:
            raise DsimError(f"{game.name}: {e.name} {MODES[mode]} is not valid rules: {err}") from None
        if rules.ruleset.hash == base.rules.ruleset.hash:
            same.append(e.name)
            continue
        out.append((e.name, MODES[mode], dataclasses.replace(base, rules=rules, extra={"ablate": f"{mode}:{e.name}"})))
    if not out:
        chosen = [e for e in elements if not only or e.name in only or e.group in only]
        works = [f"--mode {m}" for m in MODES if m != mode and any(getattr(e, m) for e in chosen)]
        raise DsimError(f"no {game.name.capitalize()} element can be {MODES[mode]} under these rules"
                        + (f" among {', '.join(only)}" if only else "")
                        + (f" ({', '.join(same)} {MODES_ALREADY[mode]})" if same else "")
                        + (f"; try {' or '.join(works)}" if works else ""))
    if already is not None:
        already.extend(same)
    return out


@dataclass(frozen=True)
class Ablation:
    """Each element taken out, neutralised or forced in (`mode`), alone, against the base on its seeds."""

    game: Game
    base: RunSpec
    mode: str
    effects: list[Effect]
    families: dict[str, ElementFamily]   # per headline outcome: detection and ranking of every arm
    played: int                  # games per arm
    groups: dict[str, str]       # element -> its group
    already: tuple[str, ...] = ()    # elements the rules already have this way (nothing to remove), left out

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{**row, "mode": self.mode, "games": self.played}
                             for row in effect_rows(self.effects, "element")])


def ablate(game: Game, base: RunSpec, out: Path, mode: str = "neutral", jobs: int = 1,
           precision: float | None = None, only=(), rules_file=None, variants=(), base_sets=()) -> Ablation:
    already: list[str] = []
    planned = arms(game, base, mode, only, rules_file, variants, tuple(base_sets), already)
    effects, families, played = against_base(game, base, planned, out, jobs, precision, "ablate")
    return Ablation(game, base, mode, effects, families, played, {e.name: e.group for e in game.elements(base.rules)},
                    tuple(already))
