"""Drakerion's rules as a validated dataclass, and the arrays the kernel takes. The card pool and decks
are data too (`cards.toml`, or the file the `cards` rule names): see docs/DRAKERION.md."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from sim.games.drakerion import records as R
from sim.games.drakerion.cards import Pool, card_table, check_size, deck_instances, load_pool

BUILTIN = Path(__file__).parent / "cards.toml"
POOLS = Path(__file__).parent / "pools"      # named pools: --set cards=NAME reads pools/NAME.toml
FIELD = "field"     # a seat's deck: the games cycle through the pool's decks (the other seat's deck excepted)


def pool_names() -> list[str]:
    return sorted(p.stem for p in POOLS.glob("*.toml"))


def is_pool_name(cards: str) -> bool:
    """A bare word (no folder, no suffix) names a pool of pools/; anything else is a path."""
    return bool(cards) and "/" not in cards and "\\" not in cards and not cards.endswith(".toml")


def pool_file(cards: str) -> Path:
    """The card file a `cards` rule names: "" = the built-in pool, a bare NAME = pools/NAME.toml, else a path
    (relative paths from the current folder). A named pool may be an alias of another (see `alias_of`)."""
    if not cards:
        return BUILTIN
    if not is_pool_name(cards):
        return Path(cards)
    path = _named(cards)
    target = alias_of(path)
    if target is None:
        return path
    named = _named(target)
    if alias_of(named) is not None:
        raise ValueError(f"pool '{cards}' is an alias of '{target}', itself an alias: name the pool itself")
    return named


def _named(name: str) -> Path:
    if name not in pool_names():
        raise ValueError(f"unknown pool '{name}' (named pools: {', '.join(pool_names())}; or give a .toml path)")
    return POOLS / f"{name}.toml"


def alias_of(path: Path) -> str | None:
    """The pool a named pool file stands for ([meta] same_as = "NAME"), or None for a file of cards. `starter` is
    one: the default names the draft it is instead of copying it, so the two cannot drift apart."""
    return _alias(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _alias(path: str, stamp: int) -> str | None:
    text = Path(path).read_text()
    if "same_as" not in text:          # a card file need not be parsed twice
        return None
    try:
        meta = tomllib.loads(text).get("meta", {})
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"malformed card file {path}: {e}") from None
    target = meta.get("same_as")
    if target is not None and not (isinstance(target, str) and is_pool_name(target)):
        raise ValueError(f"{path}: [meta] same_as must name a pool of pools/, not {target!r}")
    return target


def pool_of(cards: str) -> Pool:
    return load_pool(pool_file(cards))


@dataclass(frozen=True)
class DrakerionRules:
    cards: str
    seat0_deck: str
    seat1_deck: str
    vanilla_seat0: str
    vanilla_seat1: str
    deck_size: int
    hand_size: int
    win_prestige: int
    starting_gold: int
    manoeuvres: int
    turn_cap: int
    mulligan_shuffle_first: bool
    named_bonus_first: str
    named_bonus_second: str
    out_player_combat_actions: bool
    prestige_any_destruction: bool
    ability_attack_taps: bool
    prestige_beats_wipeout: bool
    shields_combatants_only: bool
    intercept_implacable: bool
    imprevisible_event_combat_only: bool
    combat_gains_by_timing: bool
    shields_end_of_turn: bool
    empty_deck_loses: bool
    gains_last_in_play: bool
    attachment_prestige_to_host: bool

    def validate(self) -> None:
        if not 1 <= self.deck_size <= R.MAX_DECK:
            raise ValueError(f"deck_size must be 1-{R.MAX_DECK}, got {self.deck_size}")
        if not 0 <= self.hand_size <= self.deck_size:
            raise ValueError(f"hand_size must be 0-{self.deck_size}, got {self.hand_size}")
        if self.win_prestige < 1:
            raise ValueError(f"win_prestige must be at least 1, got {self.win_prestige}")
        if self.starting_gold < 0:
            raise ValueError(f"starting_gold cannot be negative, got {self.starting_gold}")
        if self.manoeuvres != R.N_MAN:
            raise ValueError(f"manoeuvres must be {R.N_MAN} (the rulebook's pile), got {self.manoeuvres}")
        if not 1 <= self.turn_cap <= 500:
            raise ValueError(f"turn_cap must be 1-500, got {self.turn_cap}")
        if self.named_bonus_first not in R.NAMED_FIRST_NAMES:
            raise ValueError(f"named_bonus_first must be one of {', '.join(R.NAMED_FIRST_NAMES)}, "
                             f"got {self.named_bonus_first!r}")
        if self.named_bonus_second not in R.NAMED_SECOND_NAMES:
            raise ValueError(f"named_bonus_second must be one of {', '.join(R.NAMED_SECOND_NAMES)}, "
                             f"got {self.named_bonus_second!r}")
        if self.named_bonus_first == self.named_bonus_second:
            raise ValueError(f"named_bonus_first and named_bonus_second are both {self.named_bonus_first!r}: "
                             "the Named bonus offers two different stats")
        for rules in self.matchups():
            for seat in (0, 1):
                rules.seat_pool(seat)
        for seat, card in ((0, self.vanilla_seat0), (1, self.vanilla_seat1)):
            if card and self.fielded() and all(not r.vanilla(seat) for r in self.matchups()):
                raise ValueError(f"no deck seat {seat} plays holds '{card}' to replace")

    def check_players(self, players: int) -> None:
        if players != 2:
            raise ValueError(f"drakerion is a two-player game, not {players}")

    def deck(self, seat: int) -> str:
        return self.seat0_deck if seat == 0 else self.seat1_deck

    def vanilla(self, seat: int) -> str:
        return self.vanilla_seat0 if seat == 0 else self.vanilla_seat1

    def fielded(self) -> bool:
        return FIELD in (self.seat0_deck, self.seat1_deck)

    def pairings(self) -> list[tuple[str, str]]:
        """The (seat 0, seat 1) decks the games cycle through: game g plays pairing g mod their number. A
        "field" seat meets every other deck of the pool (never its own: no mirror match)."""
        if not self.fielded():
            return [(self.seat0_deck, self.seat1_deck)]
        decks = list(self.pool().decks)
        firsts = decks if self.seat0_deck == FIELD else [self.seat0_deck]
        seconds = decks if self.seat1_deck == FIELD else [self.seat1_deck]
        return [(a, b) for a in firsts for b in seconds if a != b]

    def matchups(self) -> list[DrakerionRules]:
        """These rules at each pairing: one deck per seat, a vanilla replacement kept where the deck holds
        the card."""
        if not self.fielded():
            return [self]
        out = []
        for a, b in self.pairings():
            pool = self.pool()
            keep = [card if card and card in pool.decks[deck]["cards"] else ""
                    for deck, card in ((a, self.vanilla_seat0), (b, self.vanilla_seat1))]
            out.append(dataclasses.replace(self, seat0_deck=a, seat1_deck=b, vanilla_seat0=keep[0],
                                           vanilla_seat1=keep[1]))
        return out

    def pool(self) -> Pool:
        return pool_of(self.cards)

    def seat_pool(self, seat: int) -> Pool:
        """The pool with this seat's vanilla replacement applied, its deck checked."""
        return _seat_pool(self.cards, self.deck(seat), self.vanilla_seat0 if seat == 0 else self.vanilla_seat1,
                          self.deck_size)

    def arrays(self):
        if self.fielded():
            raise ValueError("a field of decks has no single card table: play each of rules.matchups()")
        return _arrays(self)

    def data_files(self) -> dict[str, str]:
        """The card file's path and content hash, so the rules hash changes with the cards."""
        path = pool_file(self.cards)
        key = path.name if not self.cards else f"pools/{path.name}" if is_pool_name(self.cards) else str(path)
        return {key: hashlib.sha256(path.read_bytes()).hexdigest()[:12]}

    def config(self) -> np.ndarray:
        c = np.zeros(R.N_CFG, np.int64)
        c[R.C_HAND_SIZE] = self.hand_size
        c[R.C_WIN_PRESTIGE] = self.win_prestige
        c[R.C_START_GOLD] = self.starting_gold
        c[R.C_TURN_CAP] = self.turn_cap
        c[R.C_MULL_SHUFFLE_FIRST] = int(self.mulligan_shuffle_first)
        c[R.C_NAMED_FIRST] = R.NAMED_FIRST_NAMES.index(self.named_bonus_first)
        c[R.C_NAMED_SECOND] = R.NAMED_SECOND_NAMES.index(self.named_bonus_second)
        c[R.C_OUT_COMBAT] = int(self.out_player_combat_actions)
        c[R.C_PRESTIGE_ANY] = int(self.prestige_any_destruction)
        c[R.C_ABILITY_ATTACK_TAPS] = int(self.ability_attack_taps)
        c[R.C_PRESTIGE_BEATS] = int(self.prestige_beats_wipeout)
        c[R.C_SHIELDS_COMBATANTS] = int(self.shields_combatants_only)
        c[R.C_INTERCEPT_IMPLACABLE] = int(self.intercept_implacable)
        c[R.C_IMPREV_EVENT_COMBAT_ONLY] = int(self.imprevisible_event_combat_only)
        c[R.C_COMBAT_GAINS_TIMING] = int(self.combat_gains_by_timing)
        c[R.C_SHIELDS_TURN] = int(self.shields_end_of_turn)
        c[R.C_EMPTY_DECK_LOSES] = int(self.empty_deck_loses)
        c[R.C_GAINS_IN_PLAY] = int(self.gains_last_in_play)
        c[R.C_ATTACH_PRESTIGE_NONE] = int(not self.attachment_prestige_to_host)
        return c


def _seat_pool(cards: str, deck: str, vanilla: str, size: int) -> Pool:
    pool = pool_of(cards)
    if deck not in pool.decks:
        raise ValueError(f"unknown deck '{deck}' (known: {', '.join(pool.decks)}, or {FIELD}: each of them in turn)")
    if vanilla:
        pool = pool.with_vanilla(deck, vanilla)
    check_size(pool, deck, size)
    return pool


@functools.lru_cache(maxsize=64)
def _arrays(rules: DrakerionRules):
    """One card table for both seats (a vanilla card appended when a seat uses one), each seat's rows,
    set-up rows and deck size, and the configuration row."""
    pools = [rules.seat_pool(0), rules.seat_pool(1)]
    merged = pools[0] if len(pools[1].cards) <= len(pools[0].cards) else pools[1]
    for extra in pools[1].cards[len(pools[0].cards):] if merged is pools[0] else pools[0].cards[len(pools[1].cards):]:
        if extra["name"] not in merged.names():
            merged = type(merged)(merged.cards + (extra,), merged.decks, merged.traits, merged.path)
    inst = np.full((2, R.MAX_INST), -1, np.int64)
    setup = np.full((2, R.MAX_SETUP), -1, np.int64)
    deck_n = np.zeros(2, np.int64)
    for seat in (0, 1):
        pool = pools[seat]
        rows, s, n = deck_instances(pool, rules.deck(seat))
        names = pool.names()
        inst[seat] = [merged.id_of(names[c]) if c >= 0 else -1 for c in rows]
        setup[seat] = s
        deck_n[seat] = n
    return SimpleNamespace(cards=card_table(merged), inst_card=inst, setup=setup, deck_n=deck_n,
                           config=rules.config(), names=merged.names(), pool=merged)
