"""Dragonwake data layout: card and event codes, output columns, strategy signatures.

Strategies see the game through one int64 `state` array, split by `views(state)` into
(read-only by convention, as at a real table):
  cards[p, s]  the card in player p's slot s (-1 when empty or revealed). A strategy reads only its own
               row; for other players it may only test `down[p, s]`.
  down[p, s]   1 when player p's slot s holds a face-down card.
  board[p, :]  public facts about player p, columns B_* below.
  pub[:]       public facts about the game, indices P_* below.
and a float64 `memory` row of their own, zeroed at the start of each game, to keep beliefs in.
One packed array rather than four keeps the indirect strategy call cheap (~5 ns, not ~25).
"""

import numpy as np
from numba import njit, types

from sim.core.rng import below, uniform

GOLD, RELIC, DRAGON = 0, 1, 2
CARD_NAMES = ("gold", "relic", "dragon")
HERO, CULTIST = 0, 1
ROLE_NAMES = ("hero", "cultist")

MAX_PLAYERS = 10
MAX_HAND = 8
MEMORY = 2 * MAX_PLAYERS + 8

# board columns (per player, public)
B_CLAIM_RELICS = 0     # relics claimed this round, -1 when silent
B_CLAIM_DRAGON = 1     # 1 when the player claimed the dragon this round
B_SHOWN_GOLD = 2       # cards revealed from this player this round, by kind
B_SHOWN_RELIC = 3
B_SHOWN_DRAGON = 4
B_CAUGHT = 5           # rounds in which this player's reveals contradicted their claim
B_DOWN = 6             # face-down cards this player holds now
BOARD_COLS = 7

# pub indices
P_PLAYERS = 0
P_ROUND = 1
P_HAND = 2             # cards dealt to each player this round
P_REVEALED_ROUND = 3
P_REVEALED_TOTAL = 4
P_RELICS_FOUND = 5
P_RELICS_TOTAL = 6
P_DRAGON_FOUND = 7
P_CULTIST_CARDS = 8    # cultist cards in the role deck (some may be undealt)
P_ROLE_CARDS = 9
P_RUNEBEARER = 10
P_FACE_DOWN = 11       # face-down cards on the table now
P_RNG = 12             # this game's random stream (use `draw`, `chance`)
P_EVENT = 13           # this round's event (EVENT_*), advanced game only
P_ASIDE = 14           # cards set aside this round (Gluttony): untouchable
PUB_SIZE = 15

# events (advanced game): only these two have effects the FAQ pins down
NO_EVENT, ECLIPSE, GLUTTONY = 0, 1, 2
EVENT_NAMES = ("none", "Eclipse", "Gluttony")

# the packed state: one row per player, then the pub row
CARDS0 = 0
DOWN0 = MAX_HAND
BOARD0 = 2 * MAX_HAND
STATE_WIDTH = 2 * MAX_HAND + BOARD_COLS
PUB_ROW = MAX_PLAYERS
assert PUB_SIZE <= STATE_WIDTH


@njit(cache=True, inline='always')
def views(state):
    """(cards, down, board, pub) views of the packed state."""
    return (state[:MAX_PLAYERS, CARDS0:CARDS0 + MAX_HAND], state[:MAX_PLAYERS, DOWN0:DOWN0 + MAX_HAND],
            state[:MAX_PLAYERS, BOARD0:BOARD0 + BOARD_COLS], state[PUB_ROW, :PUB_SIZE])


@njit(cache=True, inline='always')
def draw(state, n):
    """A uniform integer in [0, n) from the game's own random stream.

    Every game is seeded from (chunk seed, game index), so strategies drawing from here keep variants
    compared on the same seeds paired game by game.
    """
    return below(state[PUB_ROW, P_RNG:P_RNG + 1], n)


@njit(cache=True, inline='always')
def chance(state):
    """A uniform float in [0, 1) from the game's own random stream."""
    return uniform(state[PUB_ROW, P_RNG:P_RNG + 1])


@njit(cache=True, inline='always')
def pick_uniform(rng, me, down, board, pub):
    """A face-down card of another player, uniformly (the `random` strategy's pick): draw k, then find
    the k-th such card in (player, slot) order. Written without data-dependent branches, which a random
    k would mispredict. Returns p * MAX_HAND + slot."""
    k = below(rng, pub[P_FACE_DOWN] - board[me, B_DOWN])
    chosen = -1
    for p in range(pub[P_PLAYERS]):
        n = board[p, B_DOWN] if p != me else 0
        if chosen < 0 and k < n:
            chosen = p
        if chosen < 0:
            k -= n
    if chosen < 0:
        return -1
    slot = -1
    for s in range(MAX_HAND):
        d = down[chosen, s]
        if slot < 0 and d == 1 and k == 0:
            slot = s
        k -= d if slot < 0 else 0
    return chosen * MAX_HAND + slot


# a claim is relics * 2 + dragon, or SILENT
SILENT = -1

# declare(me, role, state, params, memory) -> claim code
# pick(me, role, state, params, memory) -> p * MAX_HAND + slot
STRATEGY_SIG = types.int64(types.int64, types.int64, types.int64[:, :], types.float64[:], types.float64[:])
DECLARE_SIG = PICK_SIG = STRATEGY_SIG
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)

# end modes
END_RELICS, END_DRAGON, END_TIME = 0, 1, 2
END_NAMES = ("relics", "dragon", "time")

# trace events: rows of TRACE_WIDTH ints, [code, a, b, c, d]
EV_ROLE = 1      # seat, role
EV_UNDEALT = 2   # role of the card left undealt, -1 if none
EV_ROUND = 3     # round, hand size, runebearer
EV_DEAL = 4      # seat, slot, card
EV_CLAIM = 5     # seat, claim code
EV_REVEAL = 6    # runebearer, seat, slot, card
EV_SWAP = 7      # early dragon counted as gold: round (swapped back in at the shuffle)
EV_END = 8       # winner, end mode, reveals, rounds
EV_EVENT = 9     # round, event
EV_ASIDE = 10    # seat, slot, card: set aside by Gluttony for the round
TRACE_WIDTH = 5


def trace_steps(players: int, rounds: int = 4, cards_per_player: int = 5) -> int:
    """Rows a trace of one game needs at most."""
    return 2 + players + 1 + rounds * (3 + players * cards_per_player * 2 + 3 * players) + 2


GAME_COLUMNS = {
    "n_cultists": np.int8, "cultist_mask": np.int16, "winner": np.int8, "end_mode": np.int8,
    "reveals": np.int16, "rounds": np.int8, "relics_found": np.int8, "first_runebearer": np.int8,
    "dragon_finder": np.int8, "finder_role": np.int8, "early_dragons": np.int8,
    "claims_true": np.int16, "claims_false": np.int16, "claims_silent": np.int16,
    "cultist_lies": np.int16, "hero_lies": np.int16, "violations": np.int16,
}
