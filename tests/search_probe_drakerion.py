"""Drakerion's probe for the shared no-peeking tests (tests/search_harness.py): decisions of both seats, early and
later in stone and ember games, and the hidden part (the opponent's hand and deck, both deck orders) redealt by this
file's own code from what the seat sees, every zone count and mask recomputed from the board's zones.

Why a position is a snapshot and not a game stopped at the decision: Drakerion's rules are straight-line code that
asks for decisions deep inside abilities and combats, so a decision point cannot be copied; the search replays the
game from its deal to the decision in every playout (sim/games/drakerion/kernel_search.py). A position here is the
state a playout starts from, before anything is dealt (kernel_search.stop_state with deal 0: the true state at seat
me's k-th decision of game g, value playing both seats), with the game, seat and decision that reach it. `decide`
runs the real search at that decision (kernel_search.decide_at), with the position's arrangement put in place of the
replayed state wherever the search reads the state: where the seat's own heuristic gives the incumbent answer, and at
the start of every playout, before the deal. A redealt or poisoned position therefore reaches the search exactly as a
game with those hidden cards would (the replay's call stack holds only what the rules were doing at the decision,
the same in every arrangement), and a search that read anything hidden would change its mind.

The leak (deal 2, kernel_base.determinise with `leak`): the opponent's hand is dealt afresh on the board and in the
kernel's own mask of its rows, but the copy of that mask strategies read (state S_MASK, M_HAND) keeps the true hand;
value, playing the opponent in the playouts, plans with it (strategies/drakerion/board.py `hand_of`) until the hand
first changes. The cache check catches it as a mask that disagrees with the zones.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from drakerion_cards import FIRST_DRAFT_RULES
from sim.games import get_game
from sim.games.drakerion import kernel_base as kb
from sim.games.drakerion import kernel_search as ks
from sim.games.drakerion import records as R
from strategies.drakerion import VALUE_DEFAULTS, value_choice

GAME = get_game("drakerion")
GAME.kernels()
RULES = {deck: GAME.load_rules(FIRST_DRAFT_RULES, sets=(f"seat0_deck={deck}", f"seat1_deck={deck}"))
         for deck in ("stone", "ember")}
SEED = 11
BUDGET = 20                     # the default
WEIGHTS = np.array(VALUE_DEFAULTS, np.float64)
N_SNAP = kb.N_WORK + R.N_STATE + R.N_INST * R.BOARD_WIDTH
AT_ST, AT_BOARD = kb.N_WORK, kb.N_WORK + R.N_STATE
MASK_OF_ZONE = {R.Z_FRONT: R.M_CHARS, R.Z_SUPPORT: R.M_CHARS, R.Z_ATTACHED: R.M_ATTACHED, R.Z_HAND: R.M_HAND,
                R.Z_DISCARD: R.M_DISCARD}
COUNT_OF_ZONE = {R.Z_HAND: R.S_HAND_N, R.Z_DECK: R.S_DECK_N, R.Z_FRONT: R.S_FRONT_N, R.Z_SUPPORT: R.S_SUPPORT_N,
                 R.Z_DISCARD: R.S_DISCARD_N}


@dataclass(frozen=True)
class Position:
    array: np.ndarray          # the snapshot: w[:N_WORK], the state vector, the board
    deck: str                  # the mirror played ("stone", "ember")
    g: int                     # the game,
    me: int                    # the seat deciding,
    k: int                     # and which of its decisions (with more than one option, from 0)
    options: int

    def with_array(self, a: np.ndarray) -> "Position":
        return replace(self, array=a)


def typed(pos_or_deck) -> object:
    return RULES[pos_or_deck if isinstance(pos_or_deck, str) else pos_or_deck.deck].typed.arrays()


def at_decision(deck: str, g: int, me: int, k: int) -> Position | None:
    t = typed(deck)
    snap = np.zeros(N_SNAP, np.int64)
    n = ks.stop_state(SEED, g, t.cards, t.inst_card, t.setup, t.deck_n, t.config, value_choice, WEIGHTS, me, k, 1,
                      0, snap)
    return Position(snap, deck, g, me, k, int(n)) if n > 1 else None


def probe_positions() -> list[Position]:
    """Decisions of both seats, early and later, in stone mirrors (long games) and ember mirrors (short ones)."""
    out = []
    for deck, count in (("stone", 20), ("ember", 8)):
        found = 0
        for g in range(80):
            pos = at_decision(deck, g, g % 2, (0, 3, 5, 8, 12, 18, 25)[g % 7])
            if pos is not None:
                out.append(pos)
                found += 1
            if found == count:
                break
        assert found == count, "too few decision points"
    return out


def decide(pos: Position, stream: int, deal: int = 1) -> int:
    """The search's answer at pos's decision (the default budget) with pos's arrangement of the hidden cards put in
    place of the replayed one; deal 1 the real search, 0 no deal (a cheat), 2 the leaky deal."""
    t = typed(pos)
    return int(ks.decide_at(SEED, pos.g, t.cards, t.inst_card, t.setup, t.deck_n, t.config, value_choice, WEIGHTS,
                            pos.me, pos.k, stream, deal, BUDGET, pos.array.copy()))


# ---- the snapshot's cells -----------------------------------------------------------------------------------


def w_at(i: int) -> int:
    return i


def st_at(i: int) -> int:
    return AT_ST + i


def zone_at(row: int) -> int:
    return AT_BOARD + row * R.BOARD_WIDTH + R.B_ZONE


def deck_cells(a: np.ndarray, p: int) -> list[int]:
    """The cells of p's deck order (position 0 the bottom), as many as its deck holds."""
    start = kb.W_DECK + p * R.MAX_DECK
    return list(range(start, start + int(a[st_at(R.S_DECK_N + p)])))


def rows(p: int) -> range:
    return range(p * R.MAX_INST, (p + 1) * R.MAX_INST)


def rows_in(a: np.ndarray, p: int, zones) -> list[int]:
    return [i for i in rows(p) if a[zone_at(i)] in zones]


def hidden_cells(pos: Position) -> list[int]:
    """What the seat cannot see: both deck orders, which of the opponent's hand-or-deck rows are in its hand (their
    zone cells and both copies of its hand mask), and the game's stream (the search plays on its own)."""
    a, opp = pos.array, 1 - pos.me
    cells = deck_cells(a, 0) + deck_cells(a, 1)
    cells += [w_at(kb.W_MASK + 4 * opp + R.M_HAND), st_at(R.S_MASK + 4 * opp + R.M_HAND), st_at(R.S_RNG)]
    cells += [zone_at(i) for i in rows_in(a, opp, (R.Z_HAND, R.Z_DECK))]
    return cells


def seen(pos: Position) -> np.ndarray:
    mask = np.ones(len(pos.array), bool)
    mask[hidden_cells(pos)] = False
    return mask


# ---- the hidden part, from the observation alone ------------------------------------------------------------


def zone_mask(a: np.ndarray, p: int, kind: int) -> int:
    """The bit mask of p's rows whose zone is tracked in mask `kind`, read from the board."""
    m = 0
    for i in rows(p):
        if MASK_OF_ZONE.get(int(a[zone_at(i)])) == kind:
            m |= 1 << (i & 63)
    return m


def signed(m: int) -> int:
    """A 64-bit mask as the int64 the arrays hold."""
    return m - (1 << 64) if m >= 1 << 63 else m


def set_hand_mask(a: np.ndarray, p: int) -> None:
    m = signed(zone_mask(a, p, R.M_HAND))
    a[w_at(kb.W_MASK + 4 * p + R.M_HAND)] = m
    a[st_at(R.S_MASK + 4 * p + R.M_HAND)] = m


def redeal(pos: Position, seed: int) -> Position:
    """Another arrangement of what the seat cannot see: the opponent's hand (its size kept) and deck dealt from the
    rows in either, its own deck reordered, another game stream; the hand masks recomputed from the zones."""
    rng = np.random.default_rng(seed)
    a = pos.array.copy()
    me, opp = pos.me, 1 - pos.me
    pile = rng.permutation(rows_in(a, opp, (R.Z_HAND, R.Z_DECK)))
    held = int(a[st_at(R.S_HAND_N + opp)])
    for j, i in enumerate(pile):
        a[zone_at(i)] = R.Z_HAND if j < held else R.Z_DECK
    a[deck_cells(a, opp)] = pile[held:]
    set_hand_mask(a, opp)
    a[deck_cells(a, me)] = rng.permutation(rows_in(a, me, (R.Z_DECK,)))
    a[st_at(R.S_RNG)] = int(rng.integers(1, 2 ** 62))
    return pos.with_array(a)


def poison(pos: Position) -> Position:
    """Nonsense in the hidden part: the opponent's hand and deck rows swap zones, its hand masks are empty, every
    deck order lists its player's first row over and over, and the game's stream is a constant."""
    a = pos.array.copy()
    opp = 1 - pos.me
    for i in rows_in(a, opp, (R.Z_HAND, R.Z_DECK)):
        a[zone_at(i)] = R.Z_DECK if a[zone_at(i)] == R.Z_HAND else R.Z_HAND
    a[w_at(kb.W_MASK + 4 * opp + R.M_HAND)] = 0
    a[st_at(R.S_MASK + 4 * opp + R.M_HAND)] = 0
    for p in (0, 1):
        a[deck_cells(a, p)] = p * R.MAX_INST
    a[st_at(R.S_RNG)] = 12345
    return pos.with_array(a)


def cache_errors(pos: Position) -> list[str]:
    """Every count and mask the kernel keeps beside the board, recomputed from the zones: each player's zone counts,
    its four zone masks (the kernel's and the strategies' copies) and its deck order (exactly its deck's rows)."""
    a = pos.array
    errors = []
    for p in (0, 1):
        zones = [int(a[zone_at(i)]) for i in rows(p)]
        for z, slot in COUNT_OF_ZONE.items():
            if a[st_at(slot + p)] != zones.count(z):
                errors.append(f"zone count {slot} of {p}")
        for kind in (R.M_CHARS, R.M_ATTACHED, R.M_HAND, R.M_DISCARD):
            m = signed(zone_mask(a, p, kind))
            if a[w_at(kb.W_MASK + 4 * p + kind)] != m:
                errors.append(f"kernel mask {kind} of {p}")
            if a[st_at(R.S_MASK + 4 * p + kind)] != m:
                errors.append(f"strategies' mask {kind} of {p}")
        if sorted(a[deck_cells(a, p)]) != rows_in(a, p, (R.Z_DECK,)):
            errors.append(f"deck order of {p}")
    return errors


def determinised(pos: Position, stream: int, leak: bool) -> Position:
    """The search's own deal of pos on search stream `stream` (kernel_search.redeal: kernel_base.determinise)."""
    a = pos.array.copy()
    ks.redeal(a, pos.me, stream, leak)
    return pos.with_array(a)
