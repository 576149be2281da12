"""A designer's target for `dsim balance`, read from a TOML file: what to measure, the band each measure must
fall in, and what the tuner may change. docs/DRAKERION.md ("Tuning the pool") describes the format.

Each `[[target]]` names a measure the analysis computes from the games' outcomes, and a band (`low`, `high`,
either may be left open):
- `rate`: an outcome of kind rate (`dsim games GAME` lists them), over every game played, or `among` the
  games where another rate outcome is 1 ("draw") or 0 ("not draw");
- `quantile`: the `q` quantile of an outcome's per-game values (q = 0.5: the median);
- `field`: each deck's score against the other decks (both seat orders, on the same seeds);
- `matchup`: each pair of decks' score (the first deck's), both seat orders pooled.
Every problem is a DsimError of one line naming the bad key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.rules import read_toml

MEASURES = ("rate", "quantile", "field", "matchup")
TOP = {"meta", "play", "tune", "target"}
KEYS = {"meta": {"game", "title", "note"}, "play": {"decks", "strategy"},
        "tune": {"bounds", "cards_per_step", "candidates"},
        "target": {"name", "measure", "outcome", "among", "q", "low", "high", "weight"}}


@dataclass(frozen=True)
class Target:
    name: str
    measure: str
    low: float | None = None
    high: float | None = None
    outcome: str = ""
    among: str = ""              # "" (every game), "NAME" (where NAME is 1) or "not NAME" (where it is 0)
    q: float = 0.5
    weight: float = 1.0

    def scale(self) -> float:
        """Loss units: a point for a score or rate, the outcome's own unit for a quantile."""
        return 1.0 if self.measure == "quantile" else 100.0

    def miss(self, value: float) -> float:
        """How far a value lies outside the band, in loss units (0 inside; a missing value counts as 1)."""
        if not math.isfinite(value):
            return 1.0
        below = self.low - value if self.low is not None else 0.0
        above = value - self.high if self.high is not None else 0.0
        return self.weight * self.scale() * max(0.0, below, above)

    def inside(self, value: float) -> bool:
        return math.isfinite(value) and self.miss(value) == 0.0

    def band(self) -> str:
        pct = self.measure != "quantile"
        show = (lambda v: f"{100 * v:g}%") if pct else (lambda v: f"{v:g}")
        if self.low is not None and self.high is not None:
            return f"{show(self.low)} to {show(self.high)}"
        return f"at least {show(self.low)}" if self.low is not None else f"at most {show(self.high)}"


@dataclass(frozen=True)
class Goal:
    """A whole target file."""

    path: Path
    title: str
    targets: tuple[Target, ...]
    bounds: dict = field(default_factory=dict)    # field -> largest change from the starting value
    cards_per_step: int = 3
    candidates: int = 24                          # single changes tried per step
    decks: tuple[str, ...] = ()
    strategy: str | None = None

    def decked(self) -> bool:
        return any(t.measure in ("field", "matchup") for t in self.targets)


def read_goal(path: Path, game: Game, decks: list[str], fields: set[str]) -> Goal:
    """The target file at `path`, checked against the game: its outcomes, its `decks` and its tunable `fields`."""
    where = str(path)
    data = read_toml(path, "target file")
    _known(where, "", data, TOP)
    for table in ("meta", "play", "tune"):
        if not isinstance(data.get(table, {}), dict):
            raise DsimError(f"target file {where}: [{table}] must be a table")
        _known(where, f"[{table}] ", data.get(table, {}), KEYS[table])
    meta, play, tune = data.get("meta", {}), data.get("play", {}), data.get("tune", {})
    if meta.get("game", game.name) != game.name:
        raise DsimError(f"target file {where}: [meta] game is '{meta['game']}', not {game.name}")
    raw = data.get("target")
    if not isinstance(raw, list) or not raw:
        raise DsimError(f"target file {where}: no [[target]] entries")
    outcomes = {o.name: o for o in game.outcomes()}
    targets = tuple(_target(where, k, t, outcomes) for k, t in enumerate(raw, 1))
    goal = Goal(Path(path), _text(where, "[meta] title", meta.get("title", path.stem)), targets,
                _bounds(where, tune.get("bounds"), fields),
                _count(where, "[tune] cards_per_step", tune.get("cards_per_step", 3)),
                _count(where, "[tune] candidates", tune.get("candidates", 24)),
                _decks(where, play.get("decks"), decks),
                _text(where, "[play] strategy", play["strategy"]) if "strategy" in play else None)
    if goal.decked() and len(goal.decks or decks) < 2:
        raise DsimError(f"target file {where}: field and matchup targets need a game with two decks or more")
    return goal


def _known(where: str, table: str, data: dict, allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise DsimError(f"target file {where}: unknown key {table}'{unknown[0]}' (known: {', '.join(sorted(allowed))})")


def _text(where: str, key: str, value) -> str:
    if not isinstance(value, str) or not value:
        raise DsimError(f"target file {where}: {key} must be text, got {value!r}")
    return value


def _count(where: str, key: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DsimError(f"target file {where}: {key} must be a whole number of at least 1, got {value!r}")
    return value


def _number(where: str, key: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DsimError(f"target file {where}: {key} must be a number, got {value!r}")
    return float(value)


def _bounds(where: str, raw, fields: set[str]) -> dict:
    if raw is None:
        raise DsimError(f"target file {where}: [tune] bounds is missing: which fields may change, and by how much "
                        f"(e.g. bounds = {{ cost = 1, hp = 1 }}; this game's: {', '.join(sorted(fields))})")
    if not isinstance(raw, dict) or not raw:
        raise DsimError(f"target file {where}: [tune] bounds must be a table of field = largest change")
    for key, step in raw.items():
        if key not in fields:
            raise DsimError(f"target file {where}: [tune] bounds '{key}' is not a tunable field "
                            f"(this game's: {', '.join(sorted(fields))})")
        _count(where, f"[tune] bounds '{key}'", step)
    return dict(raw)


def _decks(where: str, raw, known: list[str]) -> tuple[str, ...]:
    if raw is None:
        return tuple(known)
    if not isinstance(raw, list) or not all(isinstance(d, str) for d in raw):
        raise DsimError(f"target file {where}: [play] decks must be a list of deck names")
    for d in raw:
        if d not in known:
            raise DsimError(f"target file {where}: [play] decks '{d}' is not a deck (known: {', '.join(known)})")
    return tuple(raw)


def _target(where: str, k: int, raw, outcomes: dict) -> Target:
    at = f"[[target]] {k}"
    if not isinstance(raw, dict):
        raise DsimError(f"target file {where}: {at} must be a table")
    _known(where, f"{at} ", raw, KEYS["target"])
    measure = raw.get("measure")
    if measure not in MEASURES:
        raise DsimError(f"target file {where}: {at} measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    default = {"field": "each deck against the field", "matchup": "every matchup",
               "rate": str(raw.get("outcome")), "quantile": f"{raw.get('outcome')} (quantile {raw.get('q', 0.5)})"}
    name = _text(where, f"{at} name", raw.get("name", default[measure]))
    low = _number(where, f"{at} low", raw["low"]) if "low" in raw else None
    high = _number(where, f"{at} high", raw["high"]) if "high" in raw else None
    if low is None and high is None:
        raise DsimError(f"target file {where}: {at} ({name}) needs low, high or both")
    if low is not None and high is not None and low > high:
        raise DsimError(f"target file {where}: {at} ({name}) low {low:g} is above high {high:g}")
    if measure != "quantile" and any(v is not None and not 0 <= v <= 1 for v in (low, high)):
        raise DsimError(f"target file {where}: {at} ({name}) low and high of a {measure} are shares from 0 to 1")
    extra = {"outcome", "among", "q"} & set(raw)
    if measure in ("field", "matchup") and extra:
        raise DsimError(f"target file {where}: {at} ({name}) key '{sorted(extra)[0]}' has no meaning for {measure}")
    outcome = among = ""
    q = 0.5
    if measure in ("rate", "quantile"):
        outcome = _outcome(where, f"{at} outcome", raw.get("outcome"), outcomes, measure == "rate")
        if measure == "rate" and "among" in raw:
            among = _text(where, f"{at} among", raw["among"])
            _outcome(where, f"{at} among", among.removeprefix("not "), outcomes, True)
        if measure == "rate" and "q" in raw:
            raise DsimError(f"target file {where}: {at} ({name}) key 'q' is for a quantile")
        if measure == "quantile":
            if "among" in raw:
                raise DsimError(f"target file {where}: {at} ({name}) key 'among' is for a rate")
            q = _number(where, f"{at} q", raw.get("q", 0.5))
            if not 0 < q < 1:
                raise DsimError(f"target file {where}: {at} q must be between 0 and 1, got {q:g}")
    weight = _number(where, f"{at} weight", raw.get("weight", 1.0))
    if weight <= 0:
        raise DsimError(f"target file {where}: {at} weight must be above 0, got {weight:g}")
    return Target(name, measure, low, high, outcome, among, q, weight)


def _outcome(where: str, key: str, name, outcomes: dict, rate: bool) -> str:
    if name not in outcomes:
        raise DsimError(f"target file {where}: {key} {name!r} is not an outcome of the game "
                        f"(known: {', '.join(outcomes)})")
    if rate and outcomes[name].kind != "rate":
        raise DsimError(f"target file {where}: {key} '{name}' is a mean, not a rate: use measure = \"quantile\"")
    return name
