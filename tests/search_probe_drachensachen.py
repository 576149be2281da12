"""Drachensachen's probe for the shared no-peeking tests (tests/search_harness.py): decisions of every seat, in the
base game and with everything on, and the hidden part (the other hands less the cards each was seen to take,
every face-down card, the redraw pile, the cards sitting the round out, the deck's order, the abilities to come)
redealt by this file's own code.

A position is the machine stopped at the searching seat's decision: its view rows, state and option rows, compared
as one flat array (with the cards out of the round in plain view, ST_OUT less ST_REST, appended: they are seen
though both cells are not). A decision is the row answered and a play row's counts, as one number."""

from __future__ import annotations

import warnings

import numpy as np

from sim.games import get_game
from sim.games.drachensachen import kernel_search as ks
from sim.games.drachensachen.game import playout_functions
from sim.games.drachensachen.kernel_base import (
    AT_PLAY, ST_COUNTS, ST_DECK, ST_HELD, ST_HIDDEN, ST_KNOWN, ST_LEN, ST_ORDER, ST_OUT, ST_PILE, ST_REDRAW,
    ST_REST, S_AT, S_DECK_N, S_DRAW_END, S_DRAW_POS, S_NACTIVE, S_NENABLED, S_NOPT, S_PILE_N, S_PLAYERS,
)
from sim.games.drachensachen.kernel_game import setup_state
from sim.games.drachensachen.records import (
    K_PLAY, MAX_HIDDEN, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_ROUND_COLS, N_TYPES, TRACE_WIDTH, VIEW_LEN, V_HAND,
    V_HAND_N, V_HIDDEN_N, V_OPEN, V_OPEN_N,
)

warnings.simplefilter("ignore")   # numba's first-class functions are marked experimental

GAME = get_game("drachensachen")
GAME.kernels(search=True)        # the search's entries below call its compiled parts
PLAYERS = 4
TRACE = np.zeros((0, TRACE_WIDTH), np.int16)
# (name, variants): the base game, and everything on (abilities with their choices, curses, house rules)
TABLES = [("base", ()), ("everything", ("everything",))]
SIZES = 5                   # a play row's counts (0 to 4 cards each) in a decision's number
BUDGET = 16


class Arrays:
    """The arrays of a batch in which seat `me` is asked its decisions and every seat plays weighted at its default
    weights (the search's playout heuristics), with the search's scratch: what kernel_search's entries take."""

    def __init__(self, variants, me):
        rules = GAME.load_rules(variants=variants)
        r = rules.typed
        self.rint, self.coins = r.ints(), r.coins()
        self.st = np.zeros(ST_LEN, np.int64)
        setup_state(self.st, PLAYERS, self.rint, r.counts(), 1 << me if me >= 0 else (1 << PLAYERS) - 1)
        self.v = np.zeros((MAX_PLAYERS, VIEW_LEN), np.int64)
        self.moves = np.zeros((MAX_MOVES, MOVE_COLS), np.int64)
        self.preset = np.zeros(0, np.int64)
        self.rounds = np.zeros((0, N_ROUND_COLS), np.int64)
        self.counters = np.zeros(4, np.int64)
        pfns, self.params, self.lossc = playout_functions(rules, PLAYERS)
        self.fns = tuple(tuple(f) for f in pfns)
        self.sc = np.zeros(ks.SC_SIZE, np.int64)
        self.ss = np.zeros(ks.SS_SIZE, np.uint64)
        self.mt = np.zeros(2 * ks.MT_WORDS, np.int64)
        self.pstate = np.zeros(1, np.uint64)
        self.me = me
        self.rules = rules


class Position:
    """A game stopped at seat me's decision: (v, st, moves) there."""

    def __init__(self, arrays, v, st, moves):
        self.a, self.v, self.st, self.moves = arrays, v, st, moves

    @property
    def me(self) -> int:
        return self.a.me

    @property
    def options(self) -> int:
        return int(self.st[S_NOPT]) * SIZES * SIZES

    @property
    def array(self) -> np.ndarray:
        return np.concatenate([self.v.reshape(-1), self.st, self.moves.reshape(-1), public_out(self.st)])

    def copy(self) -> "Position":
        return Position(self.a, self.v.copy(), self.st.copy(), self.moves.copy())


def at_decision(variants, seed, me, k) -> Position | None:
    """Seat me's k-th decision with more than one option of game 0 from `seed`, every seat playing weighted."""
    a = Arrays(variants, me)
    if ks.to_question(seed, me, k, a.v, a.st, a.moves, a.rint, a.coins, a.preset, *a.fns, a.params, a.rounds,
                      a.counters, TRACE, a.pstate):
        return Position(a, a.v.copy(), a.st.copy(), a.moves.copy())
    return None


def positions(variants, count) -> list[Position]:
    """Decisions of several seats, early and late in games."""
    out = []
    for seed in range(400):
        got = at_decision(variants, seed, seed % PLAYERS, (0, 4, 12, 25, 45)[seed % 5])
        if got is not None:
            out.append(got)
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


def decide_row(pos, budget, stream, deal=1, fns=None, params=None, samples=ks.SAMPLES, beliefs=False):
    """The search's choice from a copy of the position on search stream `stream`: (row, its counts); the playouts
    play fns with params (the default heuristics unless given), the hands dealt as the plays say with `beliefs`."""
    a, p = pos.a, pos.copy()
    ss = a.ss.copy()
    ss[ks.SS_RNG] = stream
    row = ks.decide(budget, samples, p.v, p.st, p.moves, a.rint, a.coins, a.preset, *(fns or a.fns),
                    a.params if params is None else params, a.rounds, a.counters.copy(), TRACE, a.sc.copy(), ss,
                    a.mt.copy(), a.pstate.copy(), a.lossc, deal, beliefs)
    assert 0 <= row < pos.st[S_NOPT]
    play = p.st[S_AT] == AT_PLAY and p.moves[row, 0] == K_PLAY
    return int(row), int(p.moves[row, 2]) if play else 0, int(p.moves[row, 3]) if play else 0


def decide(pos, stream, deal=1) -> int:
    row, nh, no = decide_row(pos, BUDGET, stream, deal)
    return (row * SIZES + nh) * SIZES + no


# ---- the hidden part, from the observation alone ------------------------------------------------------------


def public_out(st) -> np.ndarray:
    """The cards out of the round in plain view, by type (ST_OUT counts the cards sitting the round out too)."""
    return st[ST_OUT:ST_OUT + N_TYPES] - st[ST_REST:ST_REST + N_TYPES]


def known(st, q) -> np.ndarray:
    return st[ST_KNOWN + q * N_TYPES:ST_KNOWN + (q + 1) * N_TYPES]


def bits(counts) -> int:
    return sum(1 << t for t in range(1, N_TYPES) if counts[t] > 0)


def unseen(pos) -> list[int]:
    """The cards seat me cannot place, one entry per card: the deck less its hand, the pile, the cards out in plain
    view, every open row and the cards the others were seen to take."""
    v, st, me = pos.v, pos.st, pos.me
    out = []
    for t in range(1, N_TYPES):
        n = st[ST_COUNTS + t] - v[me, V_HAND + t] - st[ST_PILE + t] - public_out(st)[t]
        for q in range(st[S_PLAYERS]):
            n -= v[q, V_OPEN + t] + (known(st, q)[t] if q != me else 0)
        out += [t] * int(n)
    return out


def redeal(pos, seed) -> Position:
    """The same observation, the hidden part dealt afresh: the unseen cards shuffled into the other hands (on top of
    what each was seen to take), every face-down row, the redraw pile, and the rest sit the round out; the deck's
    order and the abilities to come reshuffled; the other hands' type bits recomputed."""
    rng = np.random.default_rng(seed)
    p = pos.copy()
    v, st, me = p.v, p.st, p.me
    pile = list(rng.permutation(unseen(pos)))
    for q in range(st[S_PLAYERS]):
        if q != me:
            hand = known(st, q).copy()
            for _ in range(v[q, V_HAND_N] - hand.sum()):
                hand[pile.pop()] += 1
            v[q, V_HAND:V_HAND + N_TYPES] = hand
            st[ST_HELD + 2 * q] = bits(hand)
    for q in range(st[S_PLAYERS]):
        for i in range(v[q, V_HIDDEN_N]):
            st[ST_HIDDEN + q * MAX_HIDDEN + i] = pile.pop()
    for j in range(st[S_DRAW_POS], st[S_DRAW_END]):
        st[ST_REDRAW + j] = pile.pop()
    rest = np.bincount(np.asarray(pile, np.int64), minlength=N_TYPES)
    st[ST_OUT:ST_OUT + N_TYPES] = public_out(pos.st) + rest
    st[ST_REST:ST_REST + N_TYPES] = rest
    st[ST_DECK:ST_DECK + st[S_DECK_N]] = rng.permutation(st[ST_DECK:ST_DECK + st[S_DECK_N]])
    st[ST_ORDER + st[S_NACTIVE]:ST_ORDER + st[S_NENABLED]] = rng.permutation(
        st[ST_ORDER + st[S_NACTIVE]:ST_ORDER + st[S_NENABLED]])
    return p


def hidden_cells(pos) -> list[tuple[str, int]]:
    """(array, flat cell) pairs the seat cannot see: the other hands (and their type bits), every face-down card,
    the redraw pile, the cards out of the round (only their public part is seen: `public_out`), the deck's order,
    the abilities to come."""
    me, v, st = pos.me, pos.v, pos.st
    cells = []
    for q in range(PLAYERS):
        if q != me:
            cells += [("v", q * VIEW_LEN + V_HAND + t) for t in range(N_TYPES)]
            cells.append(("st", ST_HELD + 2 * q))
        cells += [("st", ST_HIDDEN + q * MAX_HIDDEN + i) for i in range(v[q, V_HIDDEN_N])]
    cells += [("st", ST_REDRAW + j) for j in range(st[S_DRAW_POS], st[S_DRAW_END])]
    cells += [("st", i) for t in range(N_TYPES) for i in (ST_OUT + t, ST_REST + t)]
    cells += [("st", ST_DECK + i) for i in range(st[S_DECK_N])]
    cells += [("st", ST_ORDER + i) for i in range(st[S_NACTIVE], st[S_NENABLED])]
    return cells


def seen(pos) -> np.ndarray:
    mask = np.ones(pos.array.size, bool)
    offset = {"v": 0, "st": pos.v.size}
    for name, cell in hidden_cells(pos):
        mask[offset[name] + cell] = False
    return mask


def poison(pos) -> Position:
    """Every hidden cell zero (the cards out of the round in plain view kept in ST_OUT)."""
    p = pos.copy()
    for name, cell in hidden_cells(pos):
        getattr(p, name).reshape(-1)[cell] = 0
    p.st[ST_OUT:ST_OUT + N_TYPES] = public_out(pos.st)
    return p


def cache_errors(pos) -> list[str]:
    """Each seat's type bits (hand, open row) and card counts against its cards, the cards sitting out within those
    out, every card of the deck in one place, and the deck's list of cards."""
    v, st = pos.v, pos.st
    errors = []
    where = st[ST_PILE:ST_PILE + N_TYPES] + st[ST_OUT:ST_OUT + N_TYPES]
    for q in range(st[S_PLAYERS]):
        hand, row = v[q, V_HAND:V_HAND + N_TYPES], v[q, V_OPEN:V_OPEN + N_TYPES]
        if st[ST_HELD + 2 * q] != bits(hand):
            errors.append(f"hand bits {q}")
        if st[ST_HELD + 2 * q + 1] != bits(row):
            errors.append(f"open bits {q}")
        if v[q, V_HAND_N] != hand[1:].sum() or v[q, V_OPEN_N] != row[1:].sum():
            errors.append(f"card counts {q}")
        where = where + hand + row + np.bincount(st[ST_HIDDEN + q * MAX_HIDDEN:][:v[q, V_HIDDEN_N]],
                                                 minlength=N_TYPES)
    where = where + np.bincount(st[ST_REDRAW + st[S_DRAW_POS]:ST_REDRAW + st[S_DRAW_END]], minlength=N_TYPES)
    if (st[ST_REST:ST_REST + N_TYPES] > st[ST_OUT:ST_OUT + N_TYPES]).any():
        errors.append("cards sitting out")
    pile_n = st[ST_PILE + 1:ST_PILE + N_TYPES].sum()
    if not np.array_equal(where[1:], st[ST_COUNTS + 1:ST_COUNTS + N_TYPES]) or st[S_PILE_N] != pile_n:
        errors.append("cards")
    if not np.array_equal(np.bincount(st[ST_DECK:ST_DECK + st[S_DECK_N]], minlength=N_TYPES)[1:],
                          st[ST_COUNTS + 1:ST_COUNTS + N_TYPES]):
        errors.append("deck")
    return errors


def determinised(pos, stream, leak, beliefs=False, ss=None) -> Position:
    """The search's own determinisation of pos on deal stream `stream` (its counters left in ss when given)."""
    p = pos.copy()
    ss = pos.a.ss.copy() if ss is None else ss
    ss[ks.SS_DEAL] = stream
    ks.redeal(pos.me, p.v, p.st, pos.a.sc.copy(), ss, leak, beliefs)
    return p


POSITIONS = {name: positions(variants, 8) for name, variants in TABLES}


def probe_positions():
    """The decision points the shared checks (tests/search_harness.py) run on."""
    return POSITIONS["base"] + POSITIONS["everything"]
