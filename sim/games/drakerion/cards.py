"""Drakerion's cards as data: read and check a card file (cards, then decks), and turn it into the
numpy tables the kernel reads (records.CD_* / AB_* columns, board rows per deck). Every problem is a
ValueError of one line naming the card or deck; docs/DRAKERION.md describes the format."""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.games.drakerion import records as R

FACTIONS = ("ember", "tide", "grove", "stone", "gloom")
TYPES = {name: k for k, name in enumerate(R.TYPE_NAMES)}
SUBTYPES = {name: k for k, name in enumerate(R.SUBTYPE_NAMES)}
TRIGGERS = {name: k for k, name in enumerate(R.TRIGGER_NAMES)}
CONDITIONS = {name: k for k, name in enumerate(R.CONDITION_NAMES)}
COSTS = {name: k for k, name in enumerate(R.COST_NAMES)}
EFFECTS = {name: k for k, name in enumerate(R.EFFECT_NAMES)}
TARGETS = {name: k for k, name in enumerate(R.TARGET_NAMES)}
STATS = ("cost", "melee", "ranged", "riposte", "hp", "prestige", "draw", "gold", "initiative")
CARD_KEYS = {"name", "faction", "type", "subtitle", "traits", "keywords", "attach_except", "subtype", "setup",
             "cycle", "abilities", *STATS}
ABILITY_KEYS = {"trigger", "condition", "forced", "cost", "cost_amount", "effect", "target", "amount", "traits",
                "filter", "max_cost", "card_type"}
PASSIVE_EFFECTS = ("melee", "ranged", "riposte", "hp")
CARD_TYPE_EFFECTS = ("search", "put_into_play")     # the effects whose card_type picks the card they take
# Effects the rulebook names that dsim cannot play yet: a card asking for one is refused, never run as a no-op.
UNPLAYED_EFFECTS = {"destroy_attachment": "destroying an attachment", "grant_ability": "granting an ability",
                    "remove_ability": "removing an ability"}


@dataclass(frozen=True)
class Pool:
    """A card file: cards (normalised dicts, file order) and decks by name."""

    cards: tuple
    decks: dict
    traits: dict                       # trait name -> bit
    path: str = ""

    def names(self) -> list[str]:
        return [c["name"] for c in self.cards]

    def id_of(self, name: str) -> int:
        return self.names().index(name)

    def card(self, name: str) -> dict:
        return self.cards[self.id_of(name)]

    def deck_names(self) -> list[str]:
        return list(self.decks)

    def deck_cards(self, deck: str) -> list[str]:
        """The distinct cards of a deck, in its order."""
        return list(self.decks[deck]["cards"])

    def table(self) -> np.ndarray:
        return card_table(self)

    def instances(self, deck: str):
        return deck_instances(self, deck)

    def stat_ratios(self) -> dict[str, float]:
        """(melee + riposte + HP) / cost of each character with a cost."""
        return {c["name"]: (c["melee"] + c["riposte"] + c["hp"]) / c["cost"]
                for c in self.cards if c["type"] == "character" and c["cost"] > 0}

    def with_vanilla(self, deck: str, card: str) -> "Pool":
        return with_vanilla(self, deck, card)

    def describe_decks(self) -> list[str]:
        lines = []
        for name, d in self.decks.items():
            chars = sum(n for c, n in d["cards"].items() if self.card(c)["type"] == "character")
            lines.append(f"deck {name} ({d['faction']}): banner {d['banner']} (initiative "
                         f"{self.card(d['banner'])['initiative']}), city {d['city']}, {sum(d['cards'].values())} "
                         f"cards ({chars} characters), set-up {', '.join(self.card(d['banner'])['setup'])}")
            lines.append("  " + ", ".join(f"{n}x {c}" for c, n in d["cards"].items()))
        return lines


# ---- reading -------------------------------------------------------------------------------------


def load_pool(path: str | Path) -> Pool:
    p = Path(path)
    try:
        stamp = p.stat().st_mtime_ns
    except FileNotFoundError:
        raise ValueError(f"card file not found: {path}") from None
    return _load(str(p.resolve()), stamp)


@functools.lru_cache(maxsize=16)
def _load(path: str, stamp: int) -> Pool:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"malformed card file {path}: {e}") from None
    if data.get("meta", {}).get("game") != "drakerion":
        raise ValueError(f"card file {path} is not a Drakerion card file ([meta] game = \"drakerion\")")
    raw = data.get("card")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"card file {path} has no [[card]] entries")
    cards = [normalise(c) for c in raw]
    names = [c["name"] for c in cards]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"card '{dup[0]}' appears twice in {path}")
    traits = {}
    for c in cards:
        for t in c["traits"] + ([c["attach_except"]] if c["attach_except"] else []) + \
                [t for a in c["abilities"] for t in a["traits"]]:
            traits.setdefault(t, len(traits))
    if len(traits) > R.MAX_TRAITS:
        raise ValueError(f"card file {path} uses {len(traits)} traits; at most {R.MAX_TRAITS}")
    by_name = {c["name"]: c for c in cards}
    decks = {}
    for d in data.get("deck", []):
        deck = check_deck(d, by_name)
        decks[deck["name"]] = deck
    if not decks:
        raise ValueError(f"card file {path} has no [[deck]] entries")
    return Pool(tuple(cards), decks, traits, path)


def _text(card: str, key: str, value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"card '{card}': {key} must be text, got {value!r}")
    return value


def _int(card: str, key: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"card '{card}': {key} must be a whole number, got {value!r}")
    return value


def _names(card: str, key: str, value) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"card '{card}': {key} must be a list of names, got {value!r}")
    return list(value)


def _choice(card: str, key: str, value, allowed) -> str:
    if value not in allowed:
        raise ValueError(f"card '{card}': unknown {key} '{value}' (known: {', '.join(allowed)})")
    return value


def normalise(raw: dict) -> dict:
    """One [[card]] entry with every field present and checked."""
    if not isinstance(raw, dict) or "name" not in raw:
        raise ValueError(f"a [[card]] entry has no name: {raw!r}")
    name = _text("?", "name", raw["name"])
    unknown = sorted(set(raw) - CARD_KEYS)
    if unknown:
        raise ValueError(f"card '{name}': unknown field '{unknown[0]}'")
    c = {"name": name, "type": _choice(name, "type", raw.get("type"), TYPES)}
    faction = _text(name, "faction", raw.get("faction", ""))
    c["faction"] = _choice(name, "faction", faction, FACTIONS + ("neutral",))
    for key in STATS:
        c[key] = _int(name, key, raw.get(key, 0))
    negative = [k for k in STATS if c[k] < 0]
    if negative and c["type"] != "attachment":
        raise ValueError(f"card '{name}': {negative[0]} cannot be negative")
    if c["type"] == "character" and c["hp"] <= 0:
        raise ValueError(f"card '{name}': a character needs hp > 0")
    c["subtitle"] = _text(name, "subtitle", raw.get("subtitle", ""))
    c["traits"] = _names(name, "traits", raw.get("traits", []))
    c["keywords"] = [_choice(name, "keyword", k, R.KEYWORD_NAMES) for k in _names(name, "keywords", raw.get("keywords", []))]
    c["attach_except"] = _text(name, "attach_except", raw.get("attach_except", ""))
    if c["attach_except"] and "pas_d_attachement" not in c["keywords"]:
        raise ValueError(f"card '{name}': attach_except needs the pas_d_attachement keyword")
    sub = raw.get("subtype", "")
    c["subtype"] = _choice(name, "subtype", sub, SUBTYPES) if c["type"] == "manoeuvre" else ""
    c["setup"] = _names(name, "setup", raw.get("setup", []))
    if len(c["setup"]) > R.MAX_SETUP:
        raise ValueError(f"card '{name}': at most {R.MAX_SETUP} set-up cards")
    c["cycle"] = bool(raw.get("cycle", False))
    abilities = raw.get("abilities", [])
    if not isinstance(abilities, list) or len(abilities) > R.MAX_ABIL:
        raise ValueError(f"card '{name}': at most {R.MAX_ABIL} abilities, as a list")
    c["abilities"] = [normalise_ability(name, a) for a in abilities]
    if c["type"] == "attachment" and any(a["trigger"] == "destruction" for a in c["abilities"]):
        raise ValueError(f"card '{name}': an attachment's destruction ability could never be used (an attachment "
                         "that leaves play with its host is not destroyed, and dsim has no effect that destroys one)")
    return c


def normalise_ability(card: str, raw: dict) -> dict:
    if not isinstance(raw, dict):
        raise ValueError(f"card '{card}': an ability must be a table, got {raw!r}")
    unknown = sorted(set(raw) - ABILITY_KEYS)
    if unknown:
        raise ValueError(f"card '{card}': unknown ability field '{unknown[0]}'")
    if raw.get("effect") in UNPLAYED_EFFECTS:
        raise ValueError(f"card '{card}': effect '{raw['effect']}' ({UNPLAYED_EFFECTS[raw['effect']]}) is not "
                         "implemented in dsim; remove the ability or replace it")
    a = {"trigger": _choice(card, "trigger", raw.get("trigger"), TRIGGERS),
         "effect": _choice(card, "effect", raw.get("effect"), EFFECTS),
         "target": _choice(card, "target", raw.get("target", "self"), TARGETS),
         "condition": _choice(card, "condition", raw.get("condition", "none"), CONDITIONS),
         "cost": _choice(card, "cost", raw.get("cost", "none"), COSTS),
         "forced": bool(raw.get("forced", False))}
    for key in ("cost_amount", "amount", "max_cost"):
        a[key] = _int(card, key, raw.get(key, 0))
    a["traits"] = _names(card, "traits", raw.get("traits", []))
    a["filter"] = [_choice(card, "filter", f, R.FILTER_NAMES) for f in _names(card, "filter", raw.get("filter", []))]
    kind = raw.get("card_type", "")
    a["card_type"] = _choice(card, "card_type", kind, TYPES) if kind else ""
    if kind and a["effect"] not in CARD_TYPE_EFFECTS:
        what = " (destroying an attachment is not implemented in dsim)" if a["effect"] == "destroy" else ""
        raise ValueError(f"card '{card}': card_type applies only to {' and '.join(CARD_TYPE_EFFECTS)}, "
                         f"not to {a['effect']}{what}")
    if (a["trigger"] == "reaction") != (a["condition"] != "none"):
        raise ValueError(f"card '{card}': a reaction needs a condition, and only a reaction has one")
    if a["trigger"] == "passive" and (a["effect"] not in PASSIVE_EFFECTS or a["target"] not in ("self", "all_own")):
        raise ValueError(f"card '{card}': a passive ability gives melee, ranged, riposte or hp to self or all_own")
    return a


def check_deck(d: dict, by_name: dict) -> dict:
    name = d.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a [[deck]] entry has no name: {d!r}")
    faction = d.get("faction")
    if faction not in FACTIONS:
        raise ValueError(f"deck '{name}': unknown faction {faction!r} (known: {', '.join(FACTIONS)})")

    def own(card: str, kind: str) -> dict:
        if card not in by_name:
            raise ValueError(f"deck '{name}': unknown card '{card}'")
        c = by_name[card]
        if c["faction"] not in (faction, "neutral"):
            raise ValueError(f"deck '{name}': '{card}' belongs to {c['faction']}, not {faction}")
        if kind and c["type"] != kind:
            raise ValueError(f"deck '{name}': '{card}' is a {c['type']}, not a {kind}")
        return c

    banner = own(d.get("banner", ""), "banner")
    if banner["faction"] != faction:
        raise ValueError(f"deck '{name}': its banner {banner['name']} is {banner['faction']}; the banner sets the "
                         f"deck's faction, so it must be {faction}")
    own(d.get("city", ""), "city")
    mans = d.get("manoeuvres", [])
    if not isinstance(mans, list) or len(mans) != R.N_MAN:
        raise ValueError(f"deck '{name}': needs exactly {R.N_MAN} manoeuvres, has {len(mans) if isinstance(mans, list) else mans!r}")
    for m in mans:
        own(m, "manoeuvre")
    cards = d.get("cards", {})
    if not isinstance(cards, dict) or not cards:
        raise ValueError(f"deck '{name}': needs a cards table (name = copies)")
    for card, copies in cards.items():
        c = own(card, "")
        if c["type"] not in ("character", "attachment", "event"):
            raise ValueError(f"deck '{name}': '{card}' is a {c['type']}; a deck holds characters, attachments and events")
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise ValueError(f"deck '{name}': '{card}' needs a positive number of copies, got {copies!r}")
    size = sum(cards.values())
    if size > R.MAX_DECK:
        raise ValueError(f"deck '{name}' has {size} cards; at most {R.MAX_DECK}")
    setup = banner["setup"]
    for s in setup:
        if s not in cards:
            raise ValueError(f"deck '{name}': set-up card '{s}' of {banner['name']} is not in the deck")
        if setup.count(s) > cards[s]:
            raise ValueError(f"deck '{name}': set-up needs {setup.count(s)} '{s}', the deck has {cards[s]}")
    if not setup:
        raise ValueError(f"deck '{name}': the banner's set-up needs at least one character")
    for s in setup:       # every set-up card is placed on a line: a character, one per Named name
        if by_name[s]["type"] != "character":
            raise ValueError(f"deck '{name}': set-up card '{s}' of {banner['name']} is not a character ({by_name[s]['type']}); "
                             "set-up cards are placed on a line")
        if by_name[s]["subtitle"] and setup.count(s) > 1:
            raise ValueError(f"deck '{name}': the set-up of {banner['name']} places '{s}' twice; a player "
                             "controls one Named character of a name")
    return {"name": name, "faction": faction, "banner": d["banner"], "city": d["city"], "manoeuvres": list(mans),
            "cards": dict(cards)}


def check_size(pool: Pool, deck: str, size: int) -> None:
    if deck not in pool.decks:
        raise ValueError(f"unknown deck '{deck}' (known: {', '.join(pool.decks)})")
    n = sum(pool.decks[deck]["cards"].values())
    if n != size:
        raise ValueError(f"deck '{deck}' has {n} cards; the deck_size rule says {size}")


# ---- tables for the kernel ----------------------------------------------------------------------


def _mask(pool: Pool, traits: list[str]) -> int:
    m = 0
    for t in traits:
        m |= 1 << pool.traits[t]
    return m


def card_table(pool: Pool) -> np.ndarray:
    """One row per card (records.CD_* columns, then MAX_ABIL ability blocks)."""
    names = pool.names()
    t = np.zeros((len(pool.cards), R.CARD_WIDTH), np.int64)
    for k, c in enumerate(pool.cards):
        row = t[k]
        row[R.CD_TYPE] = TYPES[c["type"]]
        row[R.CD_FACTION] = FACTIONS.index(c["faction"]) if c["faction"] in FACTIONS else R.NEUTRAL
        for key in STATS:
            row[getattr(R, f"CD_{key.upper()}")] = c[key]
        row[R.CD_TRAITS] = _mask(pool, c["traits"])
        row[R.CD_NAMED] = 1 if c["subtitle"] else 0
        row[R.CD_NAME_ID] = names.index(c["name"])
        kw = 0
        for key in c["keywords"]:
            kw |= R.KEYWORD_NAMES[key]
        row[R.CD_KEYWORDS] = kw
        row[R.CD_ATTACH_EXCEPT] = _mask(pool, [c["attach_except"]]) if c["attach_except"] else 0
        row[R.CD_SUBTYPE] = SUBTYPES[c["subtype"]] if c["subtype"] else 0
        row[R.CD_CYCLE] = int(c["cycle"])
        row[R.CD_NABIL] = len(c["abilities"])
        row[R.CD_ABIL:] = -1
        for a, ab in enumerate(c["abilities"]):
            base = R.CD_ABIL + a * R.ABIL_WIDTH
            flt = 0
            for f in ab["filter"]:
                flt |= R.FILTER_NAMES[f]
            values = {R.AB_TRIGGER: TRIGGERS[ab["trigger"]], R.AB_CONDITION: CONDITIONS[ab["condition"]],
                      R.AB_FORCED: int(ab["forced"]), R.AB_COST: COSTS[ab["cost"]],
                      R.AB_COST_AMOUNT: ab["cost_amount"], R.AB_EFFECT: EFFECTS[ab["effect"]],
                      R.AB_TARGET: TARGETS[ab["target"]], R.AB_AMOUNT: ab["amount"],
                      R.AB_TRAITS: _mask(pool, ab["traits"]), R.AB_FILTER: flt, R.AB_MAX_COST: ab["max_cost"],
                      R.AB_CARD_TYPE: TYPES[ab["card_type"]] if ab["card_type"] else -1}
            for field, v in values.items():
                row[base + field] = v
    return np.ascontiguousarray(t)


def deck_instances(pool: Pool, deck: str):
    """(card id of each of a player's 64 board rows, set-up rows in Banner order, deck size)."""
    d = pool.decks[deck]
    inst = np.full(R.MAX_INST, -1, np.int64)
    k = 0
    for card, copies in d["cards"].items():
        for _ in range(copies):
            inst[k] = pool.id_of(card)
            k += 1
    for m, man in enumerate(d["manoeuvres"]):
        inst[R.I_MAN + m] = pool.id_of(man)
    inst[R.I_CITY] = pool.id_of(d["city"])
    inst[R.I_BANNER] = pool.id_of(d["banner"])
    setup = np.full(R.MAX_SETUP, -1, np.int64)
    taken = set()
    for s, name in enumerate(pool.card(d["banner"])["setup"]):
        row = next(r for r in range(k) if inst[r] == pool.id_of(name) and r not in taken)
        taken.add(row)
        setup[s] = row
    return inst, setup, k


def vanilla(cost: int, faction: str) -> dict:
    """A character with no ability, keyword or trait, stats by the rule of thumb (3 points per gold)."""
    if cost <= 0:
        melee, riposte, hp = 0, 0, 1
    else:
        melee, riposte = cost, cost // 2
        hp = max(1, 3 * cost - melee - riposte)
    return {"name": f"Vanilla {cost}", "faction": faction, "type": "character", "cost": max(cost, 0),
            "melee": melee, "ranged": 0, "riposte": riposte, "hp": hp, "prestige": max(1, (cost + 1) // 2 + (cost >= 5)),
            "draw": 0, "gold": 0, "initiative": 0, "subtitle": "", "traits": [], "keywords": [], "attach_except": "",
            "subtype": "", "setup": [], "cycle": False, "abilities": []}


def with_vanilla(pool: Pool, deck: str, card: str) -> Pool:
    """The pool with every copy of `card` in `deck` replaced by a vanilla character of the same cost."""
    if deck not in pool.decks:
        raise ValueError(f"unknown deck '{deck}' (known: {', '.join(pool.decks)})")
    d = pool.decks[deck]
    if card not in d["cards"]:
        raise ValueError(f"deck '{deck}' has no card '{card}' to replace (its cards: {', '.join(d['cards'])})")
    c = pool.card(card)
    v = vanilla(c["cost"], d["faction"])
    cards = list(pool.cards)
    if v["name"] not in pool.names():
        cards.append(v)
    new_cards = {}
    for name, copies in d["cards"].items():       # in place, so the deck's rows keep their order
        key = v["name"] if name == card else name
        new_cards[key] = new_cards.get(key, 0) + copies
    banner = dict(pool.card(d["banner"]))
    banner["setup"] = [v["name"] if s == card else s for s in banner["setup"]]
    if banner["setup"] != pool.card(d["banner"])["setup"]:
        banner["name"] = f"{banner['name']} (vanilla {card})"
        cards.append(banner)
    decks = dict(pool.decks)
    decks[deck] = {**d, "cards": new_cards, "banner": banner["name"]}
    return dataclasses.replace(pool, cards=tuple(cards), decks=decks)
