"""Dragonwake data layout: card and event codes, output columns, strategy signatures.

Strategies see the game through one int64 `state` array, split by `views(state)` into
(read-only by convention, as at a real table):
  cards[p, s]  the card in player p's slot s (-1 when empty or revealed). A strategy reads only its own
               row; for other players it may only test `down[p, s]`.
  down[p, s]   1 when player p's slot s holds a face-down card.
  board[p, :]  public facts about player p, columns B_* below.
  pub[:]       public facts about the game, indices P_* below.
  shown[p, s]  advanced game: card + 1 for a face-down card everybody has seen this round (flipped by a
               Hunter, or put back by a Chosen One), 0 otherwise (`shown_view(state)`).
  own row      advanced game, private to player p (read only your own): the power cards p holds unused
               (PV_POWER0.., 0 when none or used) and the cards p has peeked at this round (PV_NPEEK, then
               entries `(q * MAX_HAND + s) * 8 + card`, a ring of K_PEEKS; `known_card` reads them).
and a float64 `memory` row of their own, zeroed at the start of each game, to keep beliefs in.
One packed array rather than four keeps the indirect strategy call cheap (~5 ns, not ~25).
"""

import numpy as np
from numba import njit, types

from sim.engine.rng import below, uniform

GOLD, RELIC, DRAGON = 0, 1, 2
CANDLE, FATE = 3, 4           # artifacts (advanced game): search cards that replace some gold
CARD_NAMES = ("gold", "relic", "dragon", "Candle of Clairvoyance", "Figure of Fate")
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
B_FATE = 7             # Figure of Fate: 1 + the player whose role this player took, 0 when none
B_USED = 8             # power cards this player has used (flipped face up)
BOARD_COLS = 9

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
P_ASK = 15             # advanced game: the question a `power` call answers (ASK_*); 0 elsewhere
P_LAST = 16            # the reveal a Chosen One may undo now: p * MAX_HAND + slot, -1 when none
P_LAST_CARD = 17       # the card of that reveal
P_SHOWN = 18           # cards in the shown plane this round
P_HUNTED = 19          # 1 when the runebearer used Hunter before this reveal (it must be another's card)
P_POWER = 20           # the power whose choice a `power` call makes now (ASK_PEEK, ASK_PLAYER, ...), else 0
PUB_SIZE = 21

# events (advanced game): only these two have effects the FAQ pins down
NO_EVENT, ECLIPSE, GLUTTONY = 0, 1, 2
EVENT_NAMES = ("none", "Eclipse", "Gluttony")

# powers (advanced game): the FAQ pins down the first four; the other five have inferred effects (rules.toml)
NO_POWER, DIVINATOR, MENTOR, HUNTER, CHOSEN = 0, 1, 2, 3, 4
PREACHER, WITCH, INQUISITOR, BANDIT, TRICKSTER = 5, 6, 7, 8, 9
POWER_NAMES = ("none", "Divinator", "Mentor", "Hunter", "Chosen One", "Preacher", "Witch", "Inquisitor", "Bandit",
               "Trickster")
N_POWER_KINDS = len(POWER_NAMES)
MAX_POWERS = 3         # power cards a player may hold
K_PEEKS = 6            # peeks a player's own row remembers in a round (a ring)

# the question in pub[P_ASK] when the kernel calls a strategy's `power` function
ASK_NONE = 0
ASK_BEFORE = 1    # before the runebearer lets go: return a power you hold to use it (peek, Hunter), 0 to pass
ASK_AFTER = 2     # right after a reveal (P_LAST, P_LAST_CARD): return CHOSEN to undo it, 0 to pass
ASK_PEEK = 3      # Candle/Divinator/Mentor: return p * MAX_HAND + slot, a face-down card of another player
ASK_HUNT = 4      # Hunter: return p * MAX_HAND + slot of a face-down card to flip (your own allowed)
ASK_FATE = 5      # Figure of Fate: return the other player whose role you take
ASK_PLAYER = 6    # Preacher/Witch (pub[P_POWER]): return the other player whose role card you turn
ASK_INQUIRE = 7   # Inquisitor: return p * MAX_HAND + slot, a face-down card of another player, shown to all
ASK_BANDIT = 8    # Bandit: return (p * MAX_HAND + slot) * MAX_HAND + own_slot: another player's face-down card
                  # taken in exchange for one of your own face-down cards
ASK_TRICK = 9     # Trickster: return a * CARD_KEYS + b, two face-down cards (p * MAX_HAND + slot) of two
                  # different players other than you, swapped

# the packed state: one row per player, then the pub row
CARDS0 = 0
DOWN0 = MAX_HAND
BOARD0 = 2 * MAX_HAND
SHOWN0 = BOARD0 + BOARD_COLS
PV_POWER0 = SHOWN0 + MAX_HAND
PV_NPEEK = PV_POWER0 + MAX_POWERS
PV_PEEK0 = PV_NPEEK + 1
STATE_WIDTH = PV_PEEK0 + K_PEEKS
PUB_ROW = MAX_PLAYERS
CARD_KEYS = MAX_PLAYERS * MAX_HAND     # p * MAX_HAND + slot < CARD_KEYS
assert PUB_SIZE <= STATE_WIDTH


@njit(cache=True, inline='always')
def views(state):
    """(cards, down, board, pub) views of the packed state."""
    return (state[:MAX_PLAYERS, CARDS0:CARDS0 + MAX_HAND], state[:MAX_PLAYERS, DOWN0:DOWN0 + MAX_HAND],
            state[:MAX_PLAYERS, BOARD0:BOARD0 + BOARD_COLS], state[PUB_ROW, :PUB_SIZE])


@njit(cache=True, inline='always')
def shown_view(state):
    """The public shown plane: card + 1 of face-down cards everybody has seen this round, else 0."""
    return state[:MAX_PLAYERS, SHOWN0:SHOWN0 + MAX_HAND]


@njit(cache=True, inline='always')
def known_card(state, me, p, s):
    """The card in p's face-down slot s as far as player `me` knows it (shown to all, or peeked at by
    me this round), -1 when unknown. Only the advanced modules make anything known."""
    v = state[p, SHOWN0 + s]
    if v > 0:
        return v - 1
    n = state[me, PV_NPEEK]
    key = (p * MAX_HAND + s) * 8
    for i in range(min(n, K_PEEKS)):
        e = state[me, PV_PEEK0 + i]
        if e - e % 8 == key:
            return e % 8
    return -1


@njit(cache=True, inline='always')
def holds(state, me, power):
    """Whether player `me` holds `power` unused (its own row; read only your own)."""
    for j in range(MAX_POWERS):
        if state[me, PV_POWER0 + j] == power:
            return True
    return False


@njit(cache=True, inline='always')
def usable_before_reveal(state, power, q, rb, hunted, players):
    """Whether player q may use `power` before the runebearer's reveal: Hunter only the runebearer, once
    per reveal; Bandit needs a face-down card of one's own; Trickster two other players with face-down
    cards; the rest (peeks, Inquisitor, Preacher, Witch) anyone. (Chosen One acts after a reveal.)"""
    if power == HUNTER:
        return q == rb and not hunted
    if power == BANDIT:
        return state[q, BOARD0 + B_DOWN] > 0
    if power == TRICKSTER:
        holders = 0
        for p in range(players):
            holders += (p != q) & (state[p, BOARD0 + B_DOWN] > 0)
        return holders >= 2
    return power != NO_POWER and power != CHOSEN


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


def _slot_table():
    """SLOT_OF[mask, k]: the slot of the k-th set bit of a hand's face-down mask."""
    table = np.zeros((1 << MAX_HAND, MAX_HAND), np.int8)
    for mask in range(1 << MAX_HAND):
        bits = [s for s in range(MAX_HAND) if mask >> s & 1]
        table[mask, :len(bits)] = bits
    return table


SLOT_OF = _slot_table()


@njit(cache=True, inline='always')
def pick_uniform(rng, me, state):
    """A face-down card of another player, uniformly (the `random` strategy's pick): draw k, then find
    the k-th such card in (player, slot) order. Written as sums and a table lookup, with no branch that
    depends on k: a random k mispredicts any early exit, which cost more than the rest of a reveal.
    Returns p * MAX_HAND + slot, -1 when there is no such card."""
    k = below(rng, state[PUB_ROW, P_FACE_DOWN] - state[me, BOARD0 + B_DOWN])
    players = state[PUB_ROW, P_PLAYERS]
    chosen = 0            # players wholly before the k-th card
    cum = 0
    skipped = 0           # their face-down cards
    for p in range(players):
        # me's cards masked out with arithmetic: written as `p != me`, the compiler skipped the load with
        # a branch, mispredicted once per pick
        n = state[p, BOARD0 + B_DOWN] & (((p - me) | (me - p)) >> 63)
        cum += n
        past = k >= cum
        chosen += past
        skipped += n * past
    if chosen >= players:
        return -1
    mask = 0
    for s in range(MAX_HAND):      # a fixed count unrolls; slots past the hand are never face down
        mask |= state[chosen, DOWN0 + s] << s
    return chosen * MAX_HAND + SLOT_OF[mask, k - skipped]


# a claim is relics * 2 + dragon, or SILENT
SILENT = -1

# declare(me, role, state, params, memory) -> claim code
# pick(me, role, state, params, memory) -> p * MAX_HAND + slot
# power(me, role, state, params, memory) -> the answer to pub[P_ASK] (advanced game; optional: a
#   strategy of two functions gets `strategies.dragonwake.no_power`, which never uses a power)
STRATEGY_SIG = types.int64(types.int64, types.int64, types.int64[:, :], types.float64[:], types.float64[:])
DECLARE_SIG = PICK_SIG = POWER_SIG = STRATEGY_SIG
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
EV_POWERS = 11   # seat, power: a power card dealt (advanced game)
EV_POWER = 12    # seat, power: the power is used (flipped face up)
EV_PEEK = 13     # peeker, seat, slot, card: after a Candle reveal or a Divinator/Mentor power
EV_FLIP = 14     # hunter, seat, slot, card: flipped for all to see and turned back (Hunter)
EV_FATE = 15     # revealer, partner, new role, old role: after a Figure of Fate reveal
EV_UNDO = 16     # seat, slot, card: the last reveal goes back face down (after EV_POWER Chosen One)
EV_CONVERT = 17  # user, target, new role, power: Preacher (hero) or Witch (cultist) turns target's role card
EV_CARDSWAP = 18 # p1 * MAX_HAND + s1, p2 * MAX_HAND + s2, card from the first, card from the second (Bandit,
                 # Trickster): the two face-down cards change places
EV_ORDER = 19    # seat, when: the runestone spun for simultaneous powers points at seat (when 0 before a
                 # reveal, 1 after it); powers are then offered from that seat clockwise
TRACE_WIDTH = 5


def trace_steps(players: int, rounds: int = 4, cards_per_player: int = 5, powers: int = 0,
                hunter_flips: int = 0) -> int:
    """Rows a trace of one game needs at most (`powers`: power cards dealt in all)."""
    base = 2 + players + 1 + rounds * (3 + players * cards_per_player * 2 + 3 * players) + 2
    # each power: its deal and use rows, its peek or flips, and (Chosen One) an undo and a repeated reveal
    # with its early-dragon and artifact rows; each reveal may add an artifact row and two runestone spins
    return base + powers * (6 + hunter_flips) + rounds * players + 2 * powers + 2 * (rounds * players + powers)


GAME_COLUMNS = {
    "n_cultists": np.int8, "cultist_mask": np.int16, "winner": np.int8, "end_mode": np.int8,
    "reveals": np.int16, "rounds": np.int8, "relics_found": np.int8, "first_runebearer": np.int8,
    "dragon_finder": np.int8, "finder_role": np.int8, "early_dragons": np.int8,
    "claims_true": np.int16, "claims_false": np.int16, "claims_silent": np.int16,
    "cultist_lies": np.int16, "hero_lies": np.int16, "violations": np.int16,
    # advanced game (0 and cultist_mask when its modules are off)
    "artifacts_found": np.int8, "powers_used": np.int8, "peeks": np.int8, "undos": np.int8,
    "side_mask": np.int16, "last_round": np.int8,
}
# fired counters: how many times in a game each card effect, power, variant rule and flag's situation applied
FIRED = (
    "eclipse", "gluttony", "blank_event", "candle", "fate", "divinator", "mentor", "hunter", "chosen_one",
    "preacher", "witch", "inquisitor", "bandit", "trickster", "min_reveals", "kth_reveal_dragon_wakes",
    "events_with_replacement", "event_skip_round", "power_order", "powers_per_player", "self_reveal",
)
for _name in FIRED:
    GAME_COLUMNS["fired_" + _name] = np.int32
FIRED_PYTHON = ("allow_formula_counts",)     # filled by game.py, not the kernel
N_KERNEL_COLUMNS = len(GAME_COLUMNS)
for _name in FIRED_PYTHON:
    GAME_COLUMNS["fired_" + _name] = np.int32
