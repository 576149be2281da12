"""Drarkane rules as a validated, frozen dataclass, and the arrays the kernel takes."""

from dataclasses import dataclass

import numpy as np

from sim.games.drarkane.records import (
    ARCANA, CF_AUTO_CARDS, CF_AUTO_MERC_HIGH, CF_AUTO_TERROR, CF_CONTRACT_MAX, CF_DECK_N, CF_EGG_LOW,
    CF_HALF_UP, CF_HAND, CF_MODE, CF_N_DRAGONS, CF_N_OBJECTIVES, CF_NEAR, CF_OBJ_PER_PLAYER,
    CF_OPEN_EXCHANGE, CF_PLAYERS, CF_PTS_DRAGON, CF_PTS_TRICK, CF_RANK_1, CF_ROUNDS, CF_SEATS,
    CF_CHECK, CF_START_DRAGONS, CF_TEAMS, CF_TREASURES, CF_TRICK_CAP, CF_TRICK_EXCHANGE, CF_TRUMP, CF_ZONE_LIMIT,
    CF_EXCH_RETURN, CF_FK_DRAGONS_COUNT, CF_FK_MAY_LEAD, CF_OBJ_FIRST, CF_SOLO_BOUNDARY, CF_SOLO_EVERY_TRICK,
    CF_SOLO_SPLIT, CF_TRICK_ORDER, CONFIG_SIZE, END_CONDITIONS, INSTANT_CONDITIONS, MAX_CARDS, MAX_DRAGONS, MAX_HAND, MAX_OBJECTIVES,
    MAX_ZONE, MERCENARY, MODE_FALLEN_KING, MODE_NORMAL, MODE_SOLO, N_COLOURS, OBSCURE, WIZ_HIGH,
)

MIN_PLAYERS, MAX_PLAYERS = 1, 6


@dataclass(frozen=True)
class DrarkaneRules:
    cards: tuple[tuple[int, ...], ...]
    trump_colour: int
    removed_cards: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    rounds: int
    dragons_per_player: int
    zone_limit: int
    dragons: tuple[tuple[int, ...], ...]
    points_per_trick: int
    points_per_dragon: int
    near_miss: int
    half_terror_rounding: str
    contract_max: int
    egg_loses_under_low_wizard: bool
    automaton_mercenary_high: bool
    fallen_king: bool
    fallen_king_deck: int
    fallen_king_dragons: int
    fallen_king_terror: bool
    fallen_king_may_lead: bool
    fallen_king_dragons_count: bool
    solo_hand_size: int
    solo_dragon_every_trick: bool
    solo_shared_pile: bool
    solo_dragons: int
    solo_rank_thresholds: tuple[int, ...]
    solo_80_is_legend: bool
    solo_trick_cap: int
    teams: bool
    team_opening_exchange: bool
    team_exchange_may_return: bool
    team_trick_exchange: bool
    treasures: bool
    objectives_per_player: int
    objectives_before_contracts: bool
    placement_order: str
    objectives: tuple[tuple[int, ...], ...]

    # ---- checks ----------------------------------------------------------------------------------
    def validate(self) -> None:
        self._check_cards()
        self._check_dragons()
        self._check_objectives()
        if len(self.removed_cards) != 5 or len(self.hand_sizes) != 5:
            raise ValueError("removed_cards and hand_sizes need one entry for each of 2, 3, 4, 5, 6 players")
        for players, removed in zip(range(2, 7), self.removed_cards):
            if len(set(removed)) != len(removed) or any(not 0 <= c < len(self.cards) for c in removed):
                raise ValueError(f"removed_cards for {players} players must be distinct card ids")
        if any(h < 1 or h > MAX_HAND for h in self.hand_sizes):
            raise ValueError(f"hand_sizes must be between 1 and {MAX_HAND}")
        if self.rounds < 1 or self.rounds > 20:
            raise ValueError("rounds must be between 1 and 20")
        if self.dragons_per_player < 0 or not 2 <= self.zone_limit <= MAX_ZONE:
            raise ValueError(f"zone_limit must be between 2 and {MAX_ZONE}, dragons_per_player >= 0")
        if self.points_per_trick < 0 or self.points_per_dragon < 0 or self.near_miss < 0:
            raise ValueError("points_per_trick, points_per_dragon and near_miss must be >= 0")
        if self.half_terror_rounding not in ("down", "up"):
            raise ValueError(f"half_terror_rounding must be 'down' or 'up', not {self.half_terror_rounding!r}")
        if self.placement_order not in ("free", "trick"):
            raise ValueError(f"placement_order must be 'free' or 'trick', not {self.placement_order!r}")
        if self.contract_max < -1:
            raise ValueError("contract_max must be -1 (the hand size) or a number of tricks")
        if not 1 <= self.fallen_king_deck <= MAX_HAND or self.fallen_king_dragons < 1:
            raise ValueError(f"fallen_king_deck must be 1-{MAX_HAND}; fallen_king_dragons >= 1")
        if not 1 <= self.solo_hand_size <= MAX_HAND or self.solo_dragons < 1:
            raise ValueError(f"solo_hand_size must be 1-{MAX_HAND}; solo_dragons >= 1")
        if self.solo_hand_size >= len(self.cards):
            raise ValueError("solo_hand_size leaves no card for the Demon")
        t = self.solo_rank_thresholds
        if len(t) != 4 or list(t) != sorted(t):
            raise ValueError("solo_rank_thresholds needs 4 increasing scores")
        if self.solo_trick_cap < 1:
            raise ValueError("solo_trick_cap must be positive")
        if self.objectives_per_player < 1:
            raise ValueError("objectives_per_player must be at least 1")

    def _check_cards(self) -> None:
        if not 2 <= len(self.cards) <= MAX_CARDS:
            raise ValueError(f"cards must list 2-{MAX_CARDS} battle cards")
        if not 0 <= self.trump_colour < N_COLOURS:
            raise ValueError(f"trump_colour must be a colour 0-{N_COLOURS - 1}")
        for i, card in enumerate(self.cards):
            if len(card) != 3:
                raise ValueError(f"card {i} must be [kind, colour, strength], got {list(card)}")
            kind, colour, strength = card
            if not ARCANA <= kind <= WIZ_HIGH:
                raise ValueError(f"card {i} has unknown kind {kind}")
            if kind == ARCANA and not (0 <= colour < N_COLOURS and 1 <= strength <= 10):
                raise ValueError(f"arcana card {i} needs a colour 0-3 and strength 1-10, got {list(card)}")
            if kind == OBSCURE and not 11 <= strength <= 13:
                raise ValueError(f"obscure card {i} needs strength 11-13, got {strength}")
            if kind == MERCENARY and strength != 14:
                raise ValueError(f"the Mercenary (card {i}) must have strength 14 (its high value)")
            if kind != ARCANA and colour != -1:
                raise ValueError(f"card {i}: only arcana cards have a colour (use -1)")

    def _check_dragons(self) -> None:
        if not 1 <= len(self.dragons) <= MAX_DRAGONS:
            raise ValueError(f"dragons must list 1-{MAX_DRAGONS} dragon cards")
        for i, (colour, resist, terror) in enumerate(self._triples(self.dragons, "dragon")):
            if not 0 <= colour < N_COLOURS or resist < 1 or terror < 0:
                raise ValueError(f"dragon {i} needs colour 0-3, resistance >= 1, terror >= 0")

    def _check_objectives(self) -> None:
        if len(self.objectives) > MAX_OBJECTIVES:
            raise ValueError(f"at most {MAX_OBJECTIVES} objectives")
        for i, obj in enumerate(self.objectives):
            if len(obj) != 4:
                raise ValueError(f"objective {i} must be [timing, condition, parameter, points]")
            timing, cond, _param, points = obj
            allowed = INSTANT_CONDITIONS if timing == 0 else END_CONDITIONS if timing == 1 else ()
            if cond not in allowed:
                raise ValueError(f"objective {i}: condition {cond} is not a known "
                                 f"{'instant' if timing == 0 else 'end-of-round' if timing == 1 else '?'} condition")
            if points < 0:
                raise ValueError(f"objective {i} has negative points")

    @staticmethod
    def _triples(rows, what):
        for i, row in enumerate(rows):
            if len(row) != 3:
                raise ValueError(f"{what} {i} must have 3 numbers, got {list(row)}")
            yield row

    def check_players(self, players: int) -> None:
        """Raise ValueError when this table cannot be seated under these rules."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"drarkane plays 1-{MAX_PLAYERS} players (1 = solo), not {players}")
        if self.teams and players not in (4, 6):
            raise ValueError(f"teams need 4 or 6 players, not {players}")
        mode, seats, hand, _ = self.table(players)
        deck = self.deck(players)
        if mode != MODE_SOLO:
            dealt = hand * players + (self.fallen_king_deck if mode == MODE_FALLEN_KING else 0)
            if dealt > len(deck):
                raise ValueError(f"{players} players need {dealt} battle cards, the deck has {len(deck)}")
            if mode == MODE_FALLEN_KING and self.fallen_king_deck < hand:
                raise ValueError("the Fallen King's deck must hold at least a player's hand")
            if self.treasures and self.objectives_per_player * players > len(self.objectives):
                raise ValueError(f"{players} players need {self.objectives_per_player * players} objectives")
        start = self.start_dragons(players)
        if start >= self.zone_limit:
            raise ValueError(f"{start} starting dragons already fill the zone (limit {self.zone_limit})")
        if start > len(self.dragons):
            raise ValueError(f"{start} starting dragons but only {len(self.dragons)} dragon cards")

    # ---- derived values --------------------------------------------------------------------------
    def table(self, players: int) -> tuple[int, int, int, int]:
        """(mode, seats, cards dealt per player, automaton seat or -1) for this many players."""
        if players == 1:
            return MODE_SOLO, 2, self.solo_hand_size, 1
        if players == 2 and self.fallen_king:
            return MODE_FALLEN_KING, 3, self.hand_sizes[0], 2
        return MODE_NORMAL, players, self.hand_sizes[players - 2], -1

    def deck(self, players: int) -> np.ndarray:
        """Battle card ids in play (solo uses every card)."""
        removed = set() if players == 1 else set(self.removed_cards[max(players, 2) - 2])
        return np.array([c for c in range(len(self.cards)) if c not in removed], np.int64)

    def solo_thresholds(self) -> tuple[int, ...]:
        """The lowest solo score of each rank above the first, with the 80 boundary flag applied: under
        solo_80_is_legend the Legend threshold drops by one (81 -> 80)."""
        t = list(self.solo_rank_thresholds)
        if self.solo_80_is_legend:
            t[3] -= 1
        return tuple(t)

    def start_dragons(self, players: int) -> int:
        mode = self.table(players)[0]
        if mode == MODE_SOLO:
            return self.solo_dragons
        if mode == MODE_FALLEN_KING:
            return self.fallen_king_dragons
        return self.dragons_per_player * players

    def card_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        a = np.array(self.cards, np.int64)
        return a[:, 0].copy(), a[:, 1].copy(), a[:, 2].copy()

    def dragon_array(self) -> np.ndarray:
        return np.array(self.dragons, np.int64).reshape(-1, 3)

    def objective_array(self) -> np.ndarray:
        if not self.objectives:
            return np.zeros((1, 4), np.int64)
        return np.array(self.objectives, np.int64).reshape(-1, 4)

    def config(self, players: int, check: bool = False) -> np.ndarray:
        """The kernel's integer configuration for this many players."""
        mode, seats, hand, _ = self.table(players)
        cf = np.zeros(CONFIG_SIZE, np.int64)
        cf[CF_MODE] = mode
        cf[CF_PLAYERS] = players
        cf[CF_SEATS] = seats
        cf[CF_HAND] = hand
        cf[CF_AUTO_CARDS] = self.fallen_king_deck if mode == MODE_FALLEN_KING else 0
        cf[CF_DECK_N] = len(self.deck(players))
        cf[CF_ROUNDS] = 1 if mode == MODE_SOLO else self.rounds
        cf[CF_START_DRAGONS] = self.start_dragons(players)
        cf[CF_ZONE_LIMIT] = self.zone_limit
        cf[CF_PTS_TRICK] = self.points_per_trick
        cf[CF_PTS_DRAGON] = self.points_per_dragon
        cf[CF_NEAR] = self.near_miss
        cf[CF_HALF_UP] = self.half_terror_rounding == "up"
        cf[CF_CONTRACT_MAX] = hand if self.contract_max < 0 else min(self.contract_max, hand)
        cf[CF_EGG_LOW] = self.egg_loses_under_low_wizard
        cf[CF_AUTO_MERC_HIGH] = self.automaton_mercenary_high
        cf[CF_AUTO_TERROR] = self.fallen_king_terror
        cf[CF_TRUMP] = self.trump_colour
        cf[CF_TEAMS] = self.teams and mode == MODE_NORMAL
        cf[CF_OPEN_EXCHANGE] = self.team_opening_exchange
        cf[CF_TRICK_EXCHANGE] = self.team_trick_exchange
        cf[CF_TREASURES] = self.treasures and mode != MODE_SOLO
        cf[CF_OBJ_PER_PLAYER] = self.objectives_per_player
        cf[CF_N_DRAGONS] = len(self.dragons)
        cf[CF_N_OBJECTIVES] = len(self.objectives)
        cf[CF_TRICK_CAP] = self.solo_trick_cap
        cf[CF_CHECK] = check
        cf[CF_RANK_1:CF_RANK_1 + 4] = self.solo_thresholds()
        cf[CF_SOLO_BOUNDARY] = self.solo_rank_thresholds[3] - 1
        cf[CF_SOLO_EVERY_TRICK] = self.solo_dragon_every_trick
        cf[CF_SOLO_SPLIT] = not self.solo_shared_pile
        cf[CF_FK_MAY_LEAD] = self.fallen_king_may_lead
        cf[CF_FK_DRAGONS_COUNT] = self.fallen_king_dragons_count
        cf[CF_TRICK_ORDER] = self.placement_order == "trick"
        cf[CF_EXCH_RETURN] = self.team_exchange_may_return
        cf[CF_OBJ_FIRST] = self.objectives_before_contracts
        return cf


def card_name(rules: DrarkaneRules, card: int, mode: int = 0) -> str:
    """Readable name of a battle card as played."""
    from sim.games.drarkane.records import COLOUR_NAMES, EGG, WIZ_LOW
    kind, colour, strength = rules.cards[card]
    if kind == ARCANA:
        trump = " (trump)" if colour == rules.trump_colour else ""
        return f"{COLOUR_NAMES[colour]} {strength}{trump}"
    if kind == OBSCURE:
        return {11: "Knight (11)", 12: "Queen (12)", 13: "King (13)"}[strength]
    if kind == MERCENARY:
        return "Mercenary as 0" if mode == 1 else "Mercenary as 14"
    if kind == EGG:
        return "Dragon Egg"
    return "low Wizard" if kind == WIZ_LOW else "high Wizard"


def dragon_name(rules: DrarkaneRules, dragon: int) -> str:
    from sim.games.drarkane.records import COLOUR_NAMES
    colour, resist, terror = rules.dragons[dragon]
    return f"{COLOUR_NAMES[colour]} dragon {resist}/{terror}T (#{dragon})"
