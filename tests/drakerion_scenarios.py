"""Hand-built Drakerion positions for golden tests: a small card table, a board laid out by hand, and a
scripted strategy that answers each decision from a list, driving the kernel's own rule functions."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.types import WrapperAddressProtocol
from numba.experimental.function_type import _get_wrapper_address

from sim.games.drakerion import kernel
from sim.games.drakerion import kernel_base as KB
from sim.games.drakerion import records as R

ANY = -99


@njit(R.DECISION_SIG, cache=True)
def scripted(kind, opts, n, st, board, cards, params):
    """params = [cursor, then rows of 6: kind, c0..c4 (ANY matches anything)]. The next scripted row is
    used when its kind matches and some option matches it; otherwise the first pass row, or row 0.
    (A test-only strategy: it keeps its cursor in its own params.)"""
    at = 1 + 6 * int(params[0])
    if at + 6 <= params.shape[0] and int(params[at]) == kind:
        for r in range(n):
            ok = True
            for c in range(5):
                want = int(params[at + 1 + c])
                if want != ANY and opts[r, c] != want:
                    ok = False
            if ok:
                params[0] += 1
                return r
    if kind == R.D_ACTION or kind == R.D_COMBAT:
        for r in range(n):
            if opts[r, 0] == R.ACT_PASS:
                return r
    return 0


class FirstClass(WrapperAddressProtocol):
    """`scripted` typed as the kernel's decision functions are (a FunctionType), not as a dispatcher of its own: the
    rule functions a test calls then run the overloads the kernel compiled and numba cached. Passed as itself, it
    made numba compile those functions again in every test process: a dispatcher's type names its address, so its
    overloads never matched the cache (13 s a process)."""

    def __wrapper_address__(self):
        return _get_wrapper_address(scripted, R.DECISION_SIG)

    def signature(self):
        return R.DECISION_SIG


SCRIPTED = FirstClass()


def script(*steps) -> np.ndarray:
    """Parameters for `scripted`: each step (kind, c0, c1, ...) padded with ANY."""
    flat = [0.0]
    for s in steps:
        s = list(s) + [ANY] * (6 - len(s))
        flat += [float(x) for x in s]
    return np.array(flat, np.float64)


class Table:
    """Two players' cards laid out by hand. `cards` maps a label to a card row; `put(p, label, zone)`
    gives a physical card that zone and returns its board row."""

    def __init__(self, cards: dict[str, np.ndarray], **config):
        self.labels = list(cards)
        self.table = np.ascontiguousarray(np.array([cards[k] for k in self.labels]))
        self.config = np.zeros(R.N_CFG, np.int64)
        self.config[R.C_HAND_SIZE] = 6
        self.config[R.C_WIN_PRESTIGE] = 20
        self.config[R.C_TURN_CAP] = 40
        self.config[R.C_PRESTIGE_ANY] = 1
        self.config[R.C_CHECK] = 1
        for k, v in config.items():
            self.config[getattr(R, "C_" + k.upper())] = v
        self.inst = np.full((2, R.MAX_INST), -1, np.int64)
        self.used = [0, 0]
        self.w = np.zeros(KB.N_WORK, np.int64)
        self.w[:R.N_CFG] = self.config
        self.st = np.zeros(R.N_STATE, np.int64)
        self.board = np.zeros((R.N_INST, R.BOARD_WIDTH), np.int64)
        self.opts = np.zeros((R.MAX_OPTS, R.OPT_WIDTH), np.int64)
        self.tr = np.zeros((4000, R.TRACE_WIDTH), np.int16)
        self.scripts = [script(), script()]
        filler = self.labels[0]
        for p in range(2):                    # an empty layout: one City, one Banner, no deck yet
            self.inst[p, R.I_CITY] = self.labels.index(filler)
            self.inst[p, R.I_BANNER] = self.labels.index(filler)

    def start(self, decks: dict[int, list[str]]):
        """Lay out each player's deck cards (in order) and clear the state; all start in the deck."""
        for p, labels in decks.items():
            for k, label in enumerate(labels):
                self.inst[p, k] = self.labels.index(label)
            self.w[KB.W_DECKN + p] = len(labels)
        kernel.new_game(self.w, self.st, self.board, self.table, self.inst, 1, 0)
        self.st[R.S_TURN] = 1
        self.w[KB.W_TRACING] = 1
        return self

    def row(self, p, k):
        return p * R.MAX_INST + k

    def move(self, i, zone):
        """Put board row i in a zone (taking it out of the deck first)."""
        if self.board[i, R.B_ZONE] == R.Z_DECK:
            KB.take_from_deck(self.w, self.st, self.board, i, R.Z_NONE)
        if zone in (R.Z_FRONT, R.Z_SUPPORT):
            KB.enter_line(self.w, self.st, self.board, i, 0 if zone == R.Z_FRONT else 1)
        else:
            KB.set_zone(self.w, self.st, self.board, i, zone)
        KB.refresh(self.w, self.st, self.board, self.table)
        return i

    def args(self):
        return (self.w, self.st, self.board, self.opts, self.table, self.tr, SCRIPTED, SCRIPTED,
                self.scripts[0], self.scripts[1])

    def plan(self, p, *steps):
        self.scripts[p] = script(*steps)

    def counter(self, slot):
        return int(self.st[slot])
