"""Drako rules: the typed, validated view of rules.toml, and its conversion to kernel arrays."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from sim.games.drako import records as R


@dataclass(frozen=True)
class Card:
    """One kind of card: how many copies, and its one or two options as (symbol, value)."""

    count: int
    options: tuple[tuple[int, int], ...]

    def label(self) -> str:
        return " / ".join(option_label(s, v) for s, v in self.options)


def option_label(symbol: int, value: int) -> str:
    name = R.SYM_NAMES[symbol]
    return f"{name} {value}" if R.SYM_HAS_VALUE[symbol] else name


def parse_card(text: str, side: int) -> Card:
    """`"6 x attack 2 / move 1"` → Card(6, ((ATTACK, 2), (MOVE, 1))); ValueError names the problem."""
    who = R.SIDE_NAMES[side]
    if " x " not in text:
        raise ValueError(f"{who} card '{text}' should read 'COUNT x OPTION [/ OPTION]'")
    count_text, rest = text.split(" x ", 1)
    try:
        count = int(count_text)
    except ValueError:
        raise ValueError(f"{who} card '{text}': '{count_text.strip()}' is not a count") from None
    if count < 1:
        raise ValueError(f"{who} card '{text}': the count must be at least 1")
    parts = [p.split() for p in rest.split("/")]
    if not 1 <= len(parts) <= 2:
        raise ValueError(f"{who} card '{text}' needs one or two options")
    options = []
    for words in parts:
        if not words or words[0] not in R.SYM_NAMES[1:]:
            raise ValueError(f"{who} card '{text}': unknown option '{' '.join(words)}' "
                             f"(known: {', '.join(R.SYM_NAMES[s] for s in R.SIDE_SYMBOLS[side])})")
        symbol = R.SYM_NAMES.index(words[0])
        if symbol not in R.SIDE_SYMBOLS[side]:
            raise ValueError(f"{who} card '{text}': the {who} cannot use '{words[0]}'")
        if R.SYM_HAS_VALUE[symbol]:
            if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= 9:
                raise ValueError(f"{who} card '{text}': '{words[0]}' needs a value from 1 to 9")
            value = int(words[1])
        else:
            if len(words) != 1:
                raise ValueError(f"{who} card '{text}': '{words[0]}' takes no value")
            value = 0
        options.append((symbol, value))
    return Card(count, tuple(options))


@dataclass(frozen=True)
class DrakoRules:
    board_hexes: tuple[tuple[int, ...], ...]
    dragon_start: tuple[int, ...]
    dwarf_start: tuple[tuple[int, ...], ...]
    free_placement: bool
    dragon_armour_spaces: int
    dragon_flight_spaces: int
    dragon_fire_spaces: int
    dragon_move_spaces: int
    dwarf_spaces: tuple[int, ...]
    dragon_deck: tuple[str, ...]
    dwarf_deck: tuple[str, ...]
    opening_hand: int
    hand_limit: int
    draw_count: int
    actions_per_turn: int
    dragon_first_turn_actions: int
    fury_actions: int
    fury_wound: int
    mulligan: bool
    match_play: bool
    turn_cap: int
    move_through_figures: bool
    fire_range: int
    fire_needs_target: bool
    crossbow_min_range: int
    net_stays_if_netter_dies: bool
    fury_allowed_when_lethal: bool
    stuck_player_discards: bool
    attackers_chosen: bool
    simultaneous_blows: bool
    fire_order: str
    mulligan_first: str

    # ---- checks ------------------------------------------------------------------------------
    def validate(self) -> None:
        hexes = self.hexes()
        for h in self.board_hexes:
            if len(h) != 2:
                raise ValueError(f"board_hexes: {list(h)} is not an axial [q, r] pair")
        if len(set(hexes)) != len(hexes):
            raise ValueError("board_hexes lists a hex twice")
        if not 7 <= len(hexes) <= 127:
            raise ValueError(f"board_hexes must hold 7 to 127 hexes, not {len(hexes)}")
        if tuple(self.dragon_start) not in hexes:
            raise ValueError(f"dragon_start {list(self.dragon_start)} is not on the board")
        if len(self.dwarf_start) != 3:
            raise ValueError("dwarf_start needs three hexes (Fury dwarf, Net dwarf, archer)")
        starts = [tuple(h) for h in self.dwarf_start]
        for h in starts:
            if h not in hexes:
                raise ValueError(f"dwarf_start {list(h)} is not on the board")
        if len(set(starts)) != 3 or tuple(self.dragon_start) in starts:
            raise ValueError("dwarf_start hexes must differ from each other and from dragon_start")
        if self.free_placement and len(self.placement_hexes()) < 3:
            raise ValueError("free_placement needs three hexes away from the dragon")
        for name in ("dragon_armour_spaces", "dragon_flight_spaces", "dragon_fire_spaces",
                     "dragon_move_spaces"):
            if not 1 <= getattr(self, name) <= 30:
                raise ValueError(f"{name} must be from 1 to 30, not {getattr(self, name)}")
        if len(self.dwarf_spaces) != 3 or not all(1 <= s <= 30 for s in self.dwarf_spaces):
            raise ValueError(f"dwarf_spaces needs three values from 1 to 30, not {list(self.dwarf_spaces)}")
        for side, name in ((R.DRAGON, "dragon_deck"), (R.DWARVES, "dwarf_deck")):
            cards = self.deck(side)           # raises on a malformed card
            if len(cards) > R.MAX_TYPES:
                raise ValueError(f"{name} has {len(cards)} kinds of card; at most {R.MAX_TYPES}")
            size = sum(c.count for c in cards)
            if not self.opening_hand <= size <= R.MAX_DECK:
                raise ValueError(f"{name} holds {size} cards; it needs {self.opening_hand} to {R.MAX_DECK}")
        checks = [("opening_hand", 1, 20), ("hand_limit", 1, 20), ("draw_count", 1, 10),
                  ("actions_per_turn", 1, 10), ("dragon_first_turn_actions", 1, 10),
                  ("fury_actions", 1, 10), ("fury_wound", 0, 30), ("turn_cap", 2, 10_000),
                  ("fire_range", 0, 100), ("crossbow_min_range", 1, 100)]
        for name, lo, hi in checks:
            if not lo <= getattr(self, name) <= hi:
                raise ValueError(f"{name} must be from {lo} to {hi}, not {getattr(self, name)}")
        if self.fire_order not in ("nearest", "farthest"):
            raise ValueError(f"fire_order must be 'nearest' or 'farthest', not '{self.fire_order}'")
        if self.mulligan_first not in ("dragon", "dwarves"):
            raise ValueError(f"mulligan_first must be 'dragon' or 'dwarves', not '{self.mulligan_first}'")
        if self.hand_limit < self.opening_hand:
            raise ValueError(f"hand_limit {self.hand_limit} is below opening_hand {self.opening_hand}")

    # ---- derived data ------------------------------------------------------------------------
    def hexes(self) -> list[tuple[int, int]]:
        return [tuple(h) for h in self.board_hexes]

    def hex_index(self, qr) -> int:
        return self.hexes().index(tuple(qr))

    def placement_hexes(self) -> list[int]:
        """Hexes a freely placed dwarf may start on: not the dragon's, not next to it."""
        geo = self.geo()
        d = self.hex_index(self.dragon_start)
        return [h for h in range(len(self.board_hexes)) if geo[d, h] >= 2]

    @functools.cache
    def deck(self, side: int) -> tuple[Card, ...]:
        texts = self.dragon_deck if side == R.DRAGON else self.dwarf_deck
        if not texts:
            raise ValueError(f"{R.SIDE_NAMES[side]} deck is empty")
        return tuple(parse_card(t, side) for t in texts)

    def deck_size(self, side: int) -> int:
        return sum(c.count for c in self.deck(side))

    def area_spaces(self) -> tuple[int, int, int, int]:
        return (self.dragon_armour_spaces, self.dragon_flight_spaces, self.dragon_fire_spaces,
                self.dragon_move_spaces)

    def figure_spaces(self) -> tuple[int, int, int, int]:
        return (sum(self.area_spaces()),) + tuple(self.dwarf_spaces)

    # ---- arrays for the kernel -----------------------------------------------------------
    @functools.cache
    def geo(self) -> np.ndarray:
        """Board geometry strategies see: distances, shared-line directions, neighbours."""
        hexes = self.hexes()
        h = len(hexes)
        index = {qr: i for i, qr in enumerate(hexes)}
        geo = np.full((3 * h, max(h, 6)), -1, dtype=np.int64)
        for a, (qa, ra) in enumerate(hexes):
            for b, (qb, rb) in enumerate(hexes):
                dq, dr = qb - qa, rb - ra
                geo[a, b] = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if a != b:
                    for d, (eq, er) in enumerate(R.DIRECTIONS):
                        k = geo[a, b]
                        if dq == eq * k and dr == er * k:
                            geo[h + a, b] = d
            for d, (eq, er) in enumerate(R.DIRECTIONS):
                geo[2 * h + a, d] = index.get((qa + eq, ra + er), -1)
        geo.setflags(write=False)
        return geo

    @functools.cache
    def cards(self) -> np.ndarray:
        out = np.zeros((2, R.MAX_TYPES, 5), dtype=np.int64)
        for side in (R.DRAGON, R.DWARVES):
            for t, card in enumerate(self.deck(side)):
                out[side, t, R.CARD_COUNT] = card.count
                for k, (s, v) in enumerate(card.options):
                    out[side, t, R.CARD_SYM0 + 2 * k] = s
                    out[side, t, R.CARD_VAL0 + 2 * k] = v
        out.setflags(write=False)
        return out

    def cfg(self, check: bool = False) -> np.ndarray:
        c = np.zeros(R.N_CFG, dtype=np.int64)
        c[R.C_HEXES] = len(self.board_hexes)
        c[R.C_NTYPES_D] = len(self.deck(R.DRAGON))
        c[R.C_NTYPES_W] = len(self.deck(R.DWARVES))
        c[R.C_DECK_D] = self.deck_size(R.DRAGON)
        c[R.C_DECK_W] = self.deck_size(R.DWARVES)
        c[R.C_HAND_LIMIT] = self.hand_limit
        c[R.C_OPENING] = self.opening_hand
        c[R.C_DRAW] = self.draw_count
        c[R.C_ACTIONS] = self.actions_per_turn
        c[R.C_FIRST_ACTIONS] = self.dragon_first_turn_actions
        c[R.C_FURY_ACTIONS] = self.fury_actions
        c[R.C_FURY_WOUND] = self.fury_wound
        c[R.C_FURY_LETHAL] = self.fury_allowed_when_lethal
        c[R.C_TURN_CAP] = self.turn_cap
        c[R.C_MULLIGAN] = self.mulligan
        c[R.C_FREE_PLACEMENT] = self.free_placement
        c[R.C_FIRE_RANGE] = self.fire_range
        c[R.C_FIRE_NEEDS_TARGET] = self.fire_needs_target
        c[R.C_CROSSBOW_MIN] = self.crossbow_min_range
        c[R.C_NET_STAYS] = self.net_stays_if_netter_dies
        c[R.C_STUCK_DISCARD] = self.stuck_player_discards
        c[R.C_THROUGH] = self.move_through_figures
        c[R.C_DRAGON_START] = self.hex_index(self.dragon_start)
        for i, qr in enumerate(self.dwarf_start):
            c[R.C_START + i] = self.hex_index(qr)
        for i, s in enumerate(self.figure_spaces()):
            c[R.C_CAP + i] = s
        for i, s in enumerate(self.area_spaces()):
            c[R.C_ACAP + i] = s
        c[R.C_CHECK] = int(check)
        c[R.C_ATT_CHOSEN] = self.attackers_chosen
        c[R.C_SIMUL] = self.simultaneous_blows
        c[R.C_FIRE_FAR] = self.fire_order == "farthest"
        c[R.C_MULL_FIRST] = R.DWARVES if self.mulligan_first == "dwarves" else R.DRAGON
        return c
