"""Drachensachen rules as a validated, frozen dataclass, and the arrays the kernel takes."""

from dataclasses import dataclass

import numpy as np

from sim.games.drachensachen.records import (
    MAX_DECK, MAX_HAND_DEAL, MAX_HIDDEN, MAX_OPEN, MAX_PLAYERS, N_TYPES, RINT_KEYS,
)


@dataclass(frozen=True)
class DrachensachenRules:
    card_counts: tuple[int, ...]
    coins_per_card: tuple[int, ...]
    hidden_cards: int
    open_cards: int
    hand_cards: int
    exchanges: int
    redraw_pile: int
    refill_hand: bool
    three_allows_three: bool
    dragons_cancel_draw: bool
    max_loss_per_round: int
    game_end_loss: int
    turn_cap: int
    stalemate_scores: bool
    max_rounds: int
    house_fours: bool
    house_fives: bool
    house_protecto: bool
    curse_many_monsters: bool
    curse_unknowing: bool
    curse_chaos: bool
    curse_hand_cards: int
    curse_hidden_cards: int
    curse_open_cards: int
    ability_nullo_quick: bool
    ability_envious_monsters: bool
    ability_one_on_nine: bool
    ability_monsterball: bool
    ability_roundabout: bool
    ability_golden_feathers: bool
    ability_open_secrets: bool
    abilities_from_start: bool
    fives_spare_player: bool
    discard_facing: bool
    extermino_stays: bool
    nullo_quick_must_play: bool
    house_fives_pass: bool
    hidden_gold_from_back: bool
    back_coins: int

    def validate(self) -> None:
        types = N_TYPES - 1
        if len(self.card_counts) != types or min(self.card_counts) < 0:
            raise ValueError(f"card_counts needs {types} counts (types 1-9, Nullo, Extermino, Protecto), none negative")
        if sum(self.card_counts) > MAX_DECK:
            raise ValueError(f"card_counts adds up to {sum(self.card_counts)} cards, at most {MAX_DECK} supported")
        if len(self.coins_per_card) != types or any(abs(c) > 100 for c in self.coins_per_card):
            raise ValueError(f"coins_per_card needs {types} values between -100 and 100")
        for name, value, top in (("hand_cards", self.hand_cards, MAX_HAND_DEAL),
                                 ("curse_hand_cards", self.curse_hand_cards, MAX_HAND_DEAL),
                                 ("hidden_cards", self.hidden_cards, MAX_HIDDEN),
                                 ("curse_hidden_cards", self.curse_hidden_cards, MAX_HIDDEN),
                                 ("open_cards", self.open_cards, MAX_OPEN),
                                 ("curse_open_cards", self.curse_open_cards, MAX_OPEN)):
            if not 0 <= value <= top:
                raise ValueError(f"{name} must be between 0 and {top}, got {value}")
        if self.hand_cards + self.hidden_cards + self.open_cards < 1:
            raise ValueError("each player needs at least one card")
        most = max(self.hand_cards, self.curse_hand_cards) + max(self.hidden_cards, self.curse_hidden_cards) \
            + max(self.open_cards, self.curse_open_cards)
        if 2 * most > sum(self.card_counts):
            raise ValueError(f"two players with up to {most} cards each need more than the "
                             f"{sum(self.card_counts)} cards of card_counts")
        if not 0 <= self.exchanges <= 5:
            raise ValueError(f"exchanges must be between 0 and 5, got {self.exchanges}")
        if abs(self.back_coins) > 100:
            raise ValueError(f"back_coins must be between -100 and 100, got {self.back_coins}")
        if self.redraw_pile < 0:
            raise ValueError(f"redraw_pile must be >= 0, got {self.redraw_pile}")
        if self.max_loss_per_round < 1 or self.game_end_loss < 1:
            raise ValueError("max_loss_per_round and game_end_loss must be at least 1")
        if not 10 <= self.turn_cap <= 1_000_000:
            raise ValueError(f"turn_cap must be between 10 and 1000000, got {self.turn_cap}")
        if not 1 <= self.max_rounds <= 10_000:
            raise ValueError(f"max_rounds must be between 1 and 10000, got {self.max_rounds}")

    def check_players(self, players: int) -> None:
        """The deal must fit in the deck for this many players (curses included)."""
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"drachensachen plays 2-{MAX_PLAYERS} players, not {players}")
        most = self.hand_cards + self.hidden_cards + self.open_cards
        if self.curse_many_monsters or self.curse_unknowing or self.curse_chaos:
            most = max(self.hand_cards, self.curse_hand_cards) + max(self.hidden_cards, self.curse_hidden_cards) \
                + max(self.open_cards, self.curse_open_cards)
        if players * most > self.deck_size():
            raise ValueError(f"{players} players with up to {most} cards each need more than the "
                             f"{self.deck_size()} cards of card_counts")

    def ints(self) -> np.ndarray:
        """Every scalar rule, in records.RINT_KEYS order, as the kernel's int array."""
        return np.array([int(getattr(self, k)) for k in RINT_KEYS], dtype=np.int64)

    def counts(self) -> np.ndarray:
        """Card counts indexed by type code (index 0 unused)."""
        return np.array((0,) + self.card_counts, dtype=np.int64)

    def coins(self) -> np.ndarray:
        return np.array((0,) + self.coins_per_card, dtype=np.int64)

    def deck_size(self) -> int:
        return sum(self.card_counts)

    def any_curse(self) -> bool:
        return self.curse_many_monsters or self.curse_unknowing or self.curse_chaos

    def abilities(self) -> tuple[bool, ...]:
        return (self.ability_nullo_quick, self.ability_envious_monsters, self.ability_one_on_nine,
                self.ability_monsterball, self.ability_roundabout, self.ability_golden_feathers,
                self.ability_open_secrets)
