"""Dragonwake rules as a validated, frozen dataclass, and the role deck for a player count."""

from dataclasses import dataclass

from sim.games.dragonwake.records import (
    BANDIT, CHOSEN, DIVINATOR, ECLIPSE, GLUTTONY, HUNTER, INQUISITOR, MAX_HAND, MAX_PLAYERS, MAX_POWERS, MENTOR,
    NO_EVENT, PREACHER, TRICKSTER, WITCH,
)

EVENT_SKIP = ("last", "fourth")
POWER_ORDER = ("clockwise", "runestone")


@dataclass(frozen=True)
class DragonwakeRules:
    chart_players: tuple[int, ...]
    chart_heroes: tuple[int, ...]
    chart_cultists: tuple[int, ...]
    allow_formula_counts: bool
    relics_per_player: int
    dragons: int
    cards_per_player: int
    hand_sizes: tuple[int, ...]
    min_reveals: int
    kth_reveal_dragon_wakes: bool
    self_reveal: bool
    events: bool
    event_eclipse: int
    event_gluttony: int
    event_blank: int
    gluttony_cards: int
    events_with_replacement: bool
    event_skip_round: str
    artifacts: bool
    artifact_candle: int
    artifact_fate: int
    powers: bool
    powers_per_player: int
    power_divinator: int
    power_mentor: int
    power_hunter: int
    power_chosen_one: int
    power_preacher: int
    power_witch: int
    power_inquisitor: int
    power_bandit: int
    power_trickster: int
    hunter_flips: int
    mentor_peeks: int
    power_order: str

    def validate(self) -> None:
        if not (len(self.chart_players) == len(self.chart_heroes) == len(self.chart_cultists)):
            raise ValueError("chart_players, chart_heroes and chart_cultists must have the same length")
        if not self.hand_sizes or self.hand_sizes[0] != self.cards_per_player:
            raise ValueError("hand_sizes must start with cards_per_player")
        # each round reveals one card per player, so hands shrink by exactly one
        if any(a - b != 1 for a, b in zip(self.hand_sizes, self.hand_sizes[1:])) or min(self.hand_sizes) < 1:
            raise ValueError("hand_sizes must be positive and go down by one each round")
        if self.hand_sizes[-1] < 2 and not self.self_reveal:
            # with one card each, the last reveal of a round could find only the runebearer's own card
            raise ValueError("the last hand size must be at least 2 (or self_reveal on)")
        if self.cards_per_player > MAX_HAND:
            raise ValueError(f"cards_per_player must be at most {MAX_HAND}")
        if min(self.event_eclipse, self.event_gluttony, self.event_blank, self.gluttony_cards) < 0:
            raise ValueError("event counts and gluttony_cards must be >= 0")
        if min(self.artifact_candle, self.artifact_fate, self.power_divinator, self.power_mentor,
               self.power_hunter, self.power_chosen_one, self.power_preacher, self.power_witch,
               self.power_inquisitor, self.power_bandit, self.power_trickster, self.hunter_flips) < 0:
            raise ValueError("artifact and power counts and hunter_flips must be >= 0")
        if not 1 <= self.mentor_peeks <= MAX_HAND:
            raise ValueError(f"mentor_peeks must be 1-{MAX_HAND}")
        if self.event_skip_round not in EVENT_SKIP:
            raise ValueError(f"event_skip_round must be one of {', '.join(EVENT_SKIP)}")
        if self.power_order not in POWER_ORDER:
            raise ValueError(f"power_order must be one of {', '.join(POWER_ORDER)}")
        if not 0 <= self.powers_per_player <= MAX_POWERS:
            raise ValueError(f"powers_per_player must be 0-{MAX_POWERS}")
        if self.hunter_flips > MAX_HAND:
            raise ValueError(f"hunter_flips must be at most {MAX_HAND}")
        if self.dragons not in (0, 1) or self.min_reveals < 0:
            raise ValueError("dragons must be 0 or 1; min_reveals must be >= 0")
        if self.relics_per_player < 1:      # with no relic to find, the game would be decided by nothing
            raise ValueError("relics_per_player must be at least 1: the heroes win by finding every relic")

    def event_deck(self) -> list[int]:
        return [ECLIPSE] * self.event_eclipse + [GLUTTONY] * self.event_gluttony + [NO_EVENT] * self.event_blank

    def artifact_counts(self) -> tuple[int, int]:
        """(Candle, Figure of Fate) cards in the search deck: none unless the module is on."""
        return (self.artifact_candle, self.artifact_fate) if self.artifacts else (0, 0)

    def power_deck(self) -> list[int]:
        """The power cards dealt from (empty unless the module is on)."""
        if not self.powers:
            return []
        return ([DIVINATOR] * self.power_divinator + [MENTOR] * self.power_mentor + [HUNTER] * self.power_hunter
                + [CHOSEN] * self.power_chosen_one + [PREACHER] * self.power_preacher + [WITCH] * self.power_witch
                + [INQUISITOR] * self.power_inquisitor + [BANDIT] * self.power_bandit
                + [TRICKSTER] * self.power_trickster)

    def skip_round(self) -> int:
        """The round index in which no event is drawn (the last one, or the fourth: flag event_skip_round)."""
        return len(self.hand_sizes) - 1 if self.event_skip_round == "last" else 3

    def event_rounds(self) -> list[int]:
        """Round indices in which an event card is drawn (while the deck lasts, without replacement)."""
        return [r for r in range(len(self.hand_sizes)) if r != self.skip_round()]

    def powers_dealt(self, players: int) -> int:
        """Power cards dealt in all: powers_per_player each, seat by seat, until the deck runs out."""
        return min(len(self.power_deck()), players * self.powers_per_player) if self.powers else 0

    def role_deck(self, players: int) -> tuple[int, int]:
        """(hero cards, cultist cards) in the role deck for this many players."""
        if players in self.chart_players:
            i = self.chart_players.index(players)
            return self.chart_heroes[i], self.chart_cultists[i]
        if not self.allow_formula_counts:
            raise ValueError(f"no role chart entry for {players} players (allow_formula_counts is off)")
        cultists = (players + 2) // 3
        return players - cultists + (1 if players % 3 == 1 else 0), cultists

    def check_players(self, players: int) -> None:
        if not 3 <= players <= MAX_PLAYERS:
            raise ValueError(f"dragonwake plays 3-{MAX_PLAYERS} players, not {players}")
        heroes, cultists = self.role_deck(players)
        if heroes + cultists < players or cultists < 1:
            raise ValueError(f"role deck {heroes}+{cultists} cannot seat {players} players")
        if self.events and self.event_gluttony and self.event_rounds():
            # the round's last reveal still needs another player's face-down card
            hand = min(self.hand_sizes[r] for r in self.event_rounds())
            if players * hand - self.gluttony_cards - (players - 1) - hand < 1:
                raise ValueError(f"gluttony_cards={self.gluttony_cards} leaves too few cards for {players} players")
        relics = self.relics_per_player * players
        if relics + self.dragons + sum(self.artifact_counts()) > self.cards_per_player * players:
            raise ValueError("more relics, dragons and artifacts than search cards")
