"""Drako's probe for the shared no-peeking tests (tests/search_harness.py): decision points of both sides, and
the hidden part (the opponent's hand, both deck orders) redealt by this file's own code."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games import get_game
from sim.games.drako import kernel, kernel_search as ks
from sim.games.drako import records as R
from sim.games.drako.game import kernel_params
from strategies.drako import search_params

GAME = get_game("drako")
RULES = GAME.load_rules()
TR = np.zeros((1, R.TRACE_WIDTH), dtype=np.int16)
SIDES = (0, 1)


def lineup_args(spec: str = "default"):
    """A line-up's eight decision functions and both sides' kernel parameters (what the search may play out
    with when informed)."""
    lineup = GAME.lineup(spec)
    dragon, dwarves = lineup["dragon"], lineup["dwarves"]
    return dragon.strategy.functions + dwarves.strategy.functions, kernel_params(dragon), kernel_params(dwarves)


DEFAULT = lineup_args()


@dataclass
class Position:
    array: np.ndarray        # the work array at the decision
    p: np.ndarray            # the search's parameters
    q: int                   # the pending question (its side is q >> 6)

    @property
    def me(self) -> int:
        return self.q >> 6

    @property
    def options(self) -> int:
        return int(self.array[R.W_ST + R.R_NOPTS])

    def with_array(self, w: np.ndarray) -> "Position":
        return Position(w, self.p, self.q)


def at_decision(seed: int, game: int, me: int, k: int, budget: float = 40.0) -> Position | None:
    """Side `me`'s k-th real decision of game `game`, both sides playing the heuristics up to it; None if the
    game ended first."""
    w = kernel.new_work(RULES.typed)
    st, opts, geo = kernel.views(w)
    p = search_params([budget])
    kernel.start_game(w, TR, seed, game)
    q = ks.play_to_decision(w, TR, st, opts, geo, me, k, p)
    return Position(w, p, q) if q >= 0 else None


def positions(count: int, budget: float = 40.0) -> list[Position]:
    """Decisions of both sides, early and late in games."""
    out = []
    for g in range(200):
        got = at_decision(11, g, g % 2, (3, 10, 25)[g % 3], budget)
        if got is not None:
            out.append(got)
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


def decide(pos: Position, stream: int, deal: int = 1, against=DEFAULT, p=None) -> int:
    w = pos.array.copy()
    w[R.W_SRNG] = stream
    return kernel.search_at(w, pos.q, pos.p if p is None else p, *against, deal)


# ---- the hidden part, from the observation alone ------------------------------------------------------------


def card_field(w, side, t, field):
    return int(w[R.W_CARDS + (side * R.MAX_TYPES + t) * 5 + field])


def kinds(w, side) -> int:
    return int(w[R.C_NTYPES_D + side])


def hand_block(side) -> slice:
    start = R.W_ST + R.S_HAND + side * R.MAX_TYPES
    return slice(start, start + R.MAX_TYPES)


def deck_block(w, side) -> slice:
    start = R.W_DECKS + side * R.MAX_DECK + int(w[R.W_ST + R.S_DECK_TOP + side])
    return slice(start, start + int(w[R.W_ST + R.S_DECK_N + side]))


def sym_block(side) -> slice:
    start = R.W_ST + R.S_SYM + side * R.N_SYM
    return slice(start, start + R.N_SYM)


def unseen(w, side, hand_too: bool) -> list[int]:
    """The cards of `side` not gone (public), less its hand unless `hand_too`, one entry per card."""
    out = []
    for t in range(kinds(w, side)):
        left = card_field(w, side, t, R.CARD_COUNT) - int(w[R.W_GONE + side * R.MAX_TYPES + t])
        if not hand_too:
            left -= int(w[hand_block(side)][t])
        out += [t] * left
    return out


def symbols(w, side, hand) -> np.ndarray:
    """The symbol counts of a hand: each card counts once per distinct symbol it shows."""
    sym = np.zeros(R.N_SYM, dtype=np.int64)
    for t, n in enumerate(hand[:kinds(w, side)]):
        s0, s1 = card_field(w, side, t, R.CARD_SYM0), card_field(w, side, t, R.CARD_SYM1)
        sym[s0] += n
        if s1 != R.SYM_NONE and s1 != s0:
            sym[s1] += n
    return sym


def redeal(pos: Position, seed: int) -> Position:
    rng = np.random.default_rng(seed)
    w = pos.array.copy()
    me, opp = pos.me, 1 - pos.me
    pile = rng.permutation(unseen(w, opp, True))
    held = int(w[R.W_ST + R.S_HAND_N + opp])
    hand = np.bincount(pile[:held], minlength=R.MAX_TYPES).astype(np.int64)
    w[hand_block(opp)] = hand
    w[R.W_ST + R.S_HAND_MASK + opp] = sum(1 << t for t in range(R.MAX_TYPES) if hand[t])
    w[sym_block(opp)] = symbols(w, opp, hand)
    w[deck_block(w, opp)] = pile[held:]
    w[deck_block(w, me)] = rng.permutation(unseen(w, me, False))
    return pos.with_array(w)


def poison(pos: Position) -> Position:
    w = pos.array.copy()
    opp = 1 - pos.me
    w[hand_block(opp)] = 0
    w[sym_block(opp)] = 0
    for side in SIDES:
        w[deck_block(w, side)] = 0
    return pos.with_array(w)


def seen(pos: Position) -> np.ndarray:
    w = pos.array
    mask = np.ones(len(w), bool)
    opp = 1 - pos.me
    for block in (hand_block(opp), sym_block(opp), deck_block(w, 0), deck_block(w, 1)):
        mask[block] = False
    mask[R.W_ST + R.S_HAND_MASK + opp] = False
    mask[R.W_SRNG] = False
    return mask


def cache_errors(pos: Position) -> list[str]:
    """Each side's hand summaries (kinds mask, count, symbol counts) against its hand, and its deck against its
    list less the cards gone and in hand."""
    w = pos.array
    errors = []
    for side in SIDES:
        hand = w[hand_block(side)]
        if w[R.W_ST + R.S_HAND_MASK + side] != sum(1 << t for t in range(R.MAX_TYPES) if hand[t]):
            errors.append(f"hand mask {side}")
        if w[R.W_ST + R.S_HAND_N + side] != hand.sum():
            errors.append(f"hand count {side}")
        if not np.array_equal(w[sym_block(side)], symbols(w, side, hand)):
            errors.append(f"symbols {side}")
        if sorted(w[deck_block(w, side)]) != sorted(unseen(w, side, False)):
            errors.append(f"deck {side}")
    return errors


def determinised(pos: Position, stream: int, leak: bool) -> Position:
    w = pos.array.copy()
    w[R.W_SRNG] = stream
    ks.determinise(w, np.zeros(ks.N_SCRATCH, np.int64), pos.me, leak)
    return pos.with_array(w)


def probe_positions():
    """The decision points the shared checks (tests/search_harness.py) run on."""
    return positions(40)
