"""Rules data: a game's TOML file → labelled values → a validated, frozen dataclass.

File layout (every game uses it)::

    [meta]
    game = "dragonwake"

    [rules.hand_sizes]            # one table per value
    value = [5, 4, 3, 2]
    source = "rulebook"           # or "assumed"
    note = "search cards per player in rounds 1-4"

    [variants.min_reveals]        # a named preset: overrides applied with --variant
    description = "the FAQ's minimum number of reveals before the dragon counts"
    set = { min_reveals = 4 }

Overrides (`--set key=value`, variants) keep the type of the value they replace and are labelled
`override` / `variant:NAME` in the provenance. A key may also name a part of a list rule (a lever a designer
moves): `key[i]` one element (`dwarf_spaces[0]=7`), and for a card list of "N x CARD" entries `key[CARD]` that
card's count (`dragon_deck[defense]=4`; the deck's size moves with it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from sim.engine.errors import DsimError, RulesError

SOURCES = ("rulebook", "assumed")


@dataclass(frozen=True)
class RuleValue:
    value: Any
    source: str
    note: str = ""
    flag: "Flag | None" = None
    alternatives: tuple = ()      # plausible other values of an assumed value (`range` ends or `alternatives`)
    items: tuple[str, ...] = ()   # a list rule: what each element is, in words ("Fury dwarf", "Net dwarf", ...)


@dataclass(frozen=True)
class Flag:
    """A rule the text allows to read two ways: the default reading (the file's value) and the other."""

    reading: str          # what the default value means
    other: str            # what the other reading means
    other_value: Any      # the value that selects it (`--set key=other_value`)


@dataclass(frozen=True)
class RuleSet:
    """The effective rules of a run: every value with where it came from."""

    game: str
    entries: Mapping[str, RuleValue]
    variants: tuple[str, ...] = ()
    path: str = ""
    available_variants: Mapping[str, dict] = dataclasses.field(default_factory=dict)
    data_files: Mapping[str, str] = dataclasses.field(default_factory=dict)   # data a rule names -> its hash

    @property
    def values(self) -> dict[str, Any]:
        return {k: e.value for k, e in self.entries.items()}

    @property
    def hash(self) -> str:
        """Stable hash of the effective values (not of notes, sources or file layout)."""
        text = json.dumps(self.values, sort_keys=True, separators=(",", ":"))
        if self.data_files:           # the content of the card lists a rule points at, not just their names
            text += json.dumps(dict(self.data_files), sort_keys=True)
        return hashlib.sha256(f"{self.game}:{text}".encode()).hexdigest()[:12]

    def flags(self) -> dict[str, Flag]:
        """Rules that settle an ambiguous reading, by key."""
        return {k: e.flag for k, e in self.entries.items() if e.flag is not None}

    def readings(self) -> dict[str, str]:
        """The reading in effect for every flag: what a figure from these rules rests on."""
        return {k: (f.other if self.entries[k].value == f.other_value else f.reading)
                for k, f in self.flags().items()}

    def assumed(self) -> dict[str, Any]:
        """Values a balance figure rests on that no rulebook gave (assumed or overridden)."""
        return {k: e.value for k, e in self.entries.items() if e.source != "rulebook"}

    def provenance(self) -> dict:
        return {
            "game": self.game,
            "rules_hash": self.hash,
            "rules_file": self.path,
            "variants": list(self.variants),
            "values": {k: {"value": e.value, "source": e.source} for k, e in self.entries.items()},
            "assumed": self.assumed(),
            "readings": self.readings(),
            "data_files": dict(self.data_files),
        }

    def with_overrides(self, sets: Mapping[str, Any], label: str = "override") -> "RuleSet":
        entries = dict(self.entries)
        for key, value in sets.items():
            name, part = split_key(key)
            if name not in entries:
                known = ", ".join(sorted(entries))
                raise RulesError(f"unknown rule '{name}' for {self.game} (known: {known})")
            old = entries[name]
            new = _coerce_like(key, value, old.value) if part is None else with_part(name, old.value, part, value)
            entries[name] = dataclasses.replace(old, value=new, source=label)
        return dataclasses.replace(self, entries=entries)

    def with_variant(self, name: str) -> "RuleSet":
        if name not in self.available_variants:
            known = ", ".join(sorted(self.available_variants)) or "none"
            raise RulesError(f"unknown variant '{name}' for {self.game} (known: {known})")
        sets = self.available_variants[name].get("set", {})
        out = self.with_overrides(sets, label=f"variant:{name}")
        return dataclasses.replace(out, variants=self.variants + (name,))


def read_toml(path: Path, what: str) -> dict:
    """A TOML file a user gave (an experiment, a target), or one line saying why it cannot be read."""
    try:
        return tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise DsimError(f"{what} not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise DsimError(f"malformed {what} {path}: {e}") from None


def load_ruleset(path: Path, game: str) -> RuleSet:
    """Read and check a rules file's structure (types are checked by the game's dataclass)."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise RulesError(f"rules file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"malformed rules file {path}: {e}") from None
    file_game = data.get("meta", {}).get("game")
    if file_game != game:
        raise RulesError(f"rules file {path} is for game '{file_game}', not '{game}'")
    rules = data.get("rules")
    if not isinstance(rules, dict) or not rules:
        raise RulesError(f"rules file {path} has no [rules.*] tables")
    entries = {}
    for key, leaf in rules.items():
        if not isinstance(leaf, dict) or "value" not in leaf:
            raise RulesError(f"rules file {path}: rules.{key} needs a 'value'")
        source = leaf.get("source")
        if source not in SOURCES:
            raise RulesError(f"rules file {path}: rules.{key} has source {source!r}, expected rulebook or assumed")
        flag = _flag(path, key, leaf)
        entries[key] = RuleValue(leaf["value"], source, str(leaf.get("note", "")), flag,
                                 _alternatives(path, key, leaf, flag), _items(path, key, leaf))
    variants = data.get("variants", {})
    for name, spec in variants.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("set", {}), dict):
            raise RulesError(f"rules file {path}: variants.{name} needs a 'set' table")
    return RuleSet(game=game, entries=entries, path=str(path), available_variants=variants)


def _flag(path: Path, key: str, leaf: dict) -> Flag | None:
    """A rule with `reading` is a flag: it needs `other`, and `other_value` unless it is a bool."""
    if "reading" not in leaf and "other" not in leaf:
        return None
    if not leaf.get("reading") or not leaf.get("other"):
        raise RulesError(f"rules file {path}: rules.{key} is a flag and needs both 'reading' and 'other'")
    if "other_value" in leaf:
        other_value = _coerce_like(key, leaf["other_value"], leaf["value"])
    elif isinstance(leaf["value"], bool):
        other_value = not leaf["value"]
    else:
        raise RulesError(f"rules file {path}: rules.{key} is a flag on a non-bool value and needs 'other_value'")
    if other_value == leaf["value"]:
        raise RulesError(f"rules file {path}: rules.{key} has other_value equal to its value")
    return Flag(str(leaf["reading"]), str(leaf["other"]), other_value)


def _items(path: Path, key: str, leaf: dict) -> tuple[str, ...]:
    """`items = [...]`: one name per element of a list rule, for reports to say `dwarf_spaces[0]` in words."""
    items = leaf.get("items", [])
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items) or \
            (items and (not isinstance(leaf["value"], list) or len(items) != len(leaf["value"]))):
        raise RulesError(f"rules file {path}: rules.{key} items must name each element of its list value")
    return tuple(items)


def _alternatives(path: Path, key: str, leaf: dict, flag: Flag | None) -> tuple:
    """The plausible other values of a rule: `range = [lo, hi]` for a number, `alternatives = [...]` for any
    value, and a flag's other reading. Sensitivity analysis plays each one."""
    value = leaf["value"]
    out = []
    if "range" in leaf:
        ends = leaf["range"]
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or not isinstance(ends, list)
                or len(ends) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in ends)
                or not ends[0] <= value <= ends[1] or ends[0] == ends[1]):
            raise RulesError(f"rules file {path}: rules.{key} range must be [low, high] numbers around its value")
        out += [_coerce_like(key, v, value) for v in ends]
    if "alternatives" in leaf:
        if not isinstance(leaf["alternatives"], list) or not leaf["alternatives"]:
            raise RulesError(f"rules file {path}: rules.{key} alternatives must be a non-empty list of values")
        out += [_coerce_like(key, v, value) for v in leaf["alternatives"]]
    if flag is not None:
        out.append(flag.other_value)
    unique = []
    for v in out:
        if v != value and v not in unique:
            unique.append(v)
    return tuple(unique)


def parse_set(text: str) -> tuple[str, Any]:
    """`key=value` with a TOML literal value (`3`, `true`, `[5,4,3]`); bare words become strings."""
    if "=" not in text:
        raise RulesError(f"--set expects key=value, got '{text}'")
    key, raw = (s.strip() for s in text.split("=", 1))
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def split_key(key: str) -> tuple[str, str | None]:
    """`name[part]` -> (name, part); a plain name -> (name, None)."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\[\s*([^\]]*?)\s*\])?\s*", key)
    if not m:
        raise RulesError(f"a rule key is a name, name[i] or name[CARD], got '{key}'")
    return m[1], m[2]


CARD = re.compile(r"\s*(\d+)\s*x\s*(.+?)\s*")


def card_counts(value: Any) -> list[tuple[int, str]] | None:
    """A card list's ("N x CARD" entries) counts and cards; None for any other value."""
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return None
    found = [CARD.fullmatch(v) for v in value]
    return None if not all(found) else [(int(m[1]), m[2]) for m in found]


def with_part(name: str, whole: Any, part: str, value: Any) -> list:
    """The list rule `whole` with one part set: element i (`part` a whole number) or, in a card list, the count
    of the card `part` (0 takes it out). Out of range, or of the wrong type: a one-line error naming the problem."""
    if not isinstance(whole, list):
        raise RulesError(f"rule '{name}' is not a list: '{name}[{part}]' has nothing to set")
    out = list(whole)
    if part.isdigit():
        i = int(part)
        if i >= len(whole):
            raise RulesError(f"rule '{name}' has {len(whole)} elements: no element [{i}]")
        out[i] = _coerce_like(f"{name}[{i}]", value, whole[i])
        return out
    cards = card_counts(whole)
    if cards is None:
        raise RulesError(f"rule '{name}' is not a card list: name an element by number, {name}[0]")
    index = [i for i, (_, card) in enumerate(cards) if card == part]
    if not index:
        raise RulesError(f"no card '{part}' in {name} (cards: {', '.join(card for _, card in cards)})")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
        raise RulesError(f"{name}[{part}] is a card count: a whole number from 0 to 999, got {value!r}")
    out[index[0]] = f"{value} x {part}"
    return [v for v in out if v != f"0 x {part}"]          # no such card left: its entry goes


def _coerce_like(key: str, value: Any, like: Any) -> Any:
    if isinstance(like, bool) or isinstance(value, bool):
        if isinstance(like, bool) and isinstance(value, bool):
            return value
    elif isinstance(like, float) and isinstance(value, (int, float)):
        return float(value)
    elif isinstance(like, int) and isinstance(value, int):
        return value
    elif isinstance(like, str) and isinstance(value, str):
        return value
    elif isinstance(like, list) and isinstance(value, list):
        return value
    raise RulesError(f"rule '{key}' must be like {like!r}, got {value!r}")


# ---- typed view -------------------------------------------------------------------------------

def build_typed(cls: type, ruleset: RuleSet):
    """Fill a game's frozen rules dataclass from a rule set, checking every field's type.

    Lists become tuples so the result is hashable; the class's `validate()` (if any) checks ranges.
    """
    values = ruleset.values
    fields = {f.name: f for f in dataclasses.fields(cls)}
    missing = sorted(set(fields) - set(values))
    extra = sorted(set(values) - set(fields))
    if missing:
        raise RulesError(f"{ruleset.game} rules file {ruleset.path} lacks: {', '.join(missing)}")
    if extra:
        raise RulesError(f"{ruleset.game} rules file {ruleset.path} has unknown rules: {', '.join(extra)}")
    hints = typing.get_type_hints(cls)
    kwargs = {name: _check_type(name, values[name], hints[name]) for name in fields}
    typed = cls(**kwargs)
    validate = getattr(typed, "validate", None)
    if validate is not None:
        try:
            validate()
        except (ValueError, AssertionError) as e:
            raise RulesError(f"{ruleset.game} rules: {e}") from None
    return typed


def _check_type(name: str, value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (tuple, list):
        args = typing.get_args(hint)
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"rule '{name}' must be a list, got {value!r}")
        inner = args[0] if args else Any
        return tuple(_check_type(name, v, inner) for v in value)
    if hint is Any:
        return value
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint is bool and isinstance(value, bool):
        return value
    if hint is str and isinstance(value, str):
        return value
    if isinstance(hint, types.UnionType) or origin is typing.Union:
        for h in typing.get_args(hint):
            try:
                return _check_type(name, value, h)
            except RulesError:
                pass
    raise RulesError(f"rule '{name}' must be {getattr(hint, '__name__', hint)}, got {value!r}")
