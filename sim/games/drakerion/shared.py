"""What the kernel and the strategies both compute, written once: the game's random stream and whether a
character passes an ability's target filter (a strategy must judge targets exactly as the kernel does)."""

import numpy as np
from numba import njit

from sim.games.drakerion.records import (
    AB_FILTER, AB_MAX_COST, AB_TRAITS, ABIL_WIDTH, B_CARD, B_DAMAGE, B_ZONE, CD_ABIL, CD_COST, CD_TRAITS,
    FI_FRONT, FI_MAX_COST, FI_SUPPORT, FI_UNWOUNDED, FI_WOUNDED, S_RNG, Z_FRONT, Z_SUPPORT,
)

FAST = dict(cache=True, _nrt=False)     # the game's njit options, for the kernel and the strategies alike
INLINE = dict(FAST, inline='always')    # decide and the listing helpers: a call passing these wide array lists
# is dear (measured: 9-16% slower as calls). Helpers taking a few scalars stay plain: LLVM inlines them, and
# numba's inlining would type them again at every call site.
_MUL = np.uint64(0x2545F4914F6CDD1D)


@njit(**FAST)
def below(st, m):
    """A uniform integer in [0, m) from the game's stream (xorshift64*, as sim.engine.rng, on st[S_RNG])."""
    x = np.uint64(st[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[S_RNG] = np.int64(x)
    return np.int64((((x * _MUL) >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@njit(**FAST)
def target_ok(cards, board, a, src, h):
    """Whether character h passes the trait and filter conditions of ability a of instance src."""
    sc, base = board[src, B_CARD], CD_ABIL + a * ABIL_WIDTH
    flt, traits = cards[sc, base + AB_FILTER], cards[sc, base + AB_TRAITS]
    hc = board[h, B_CARD]
    if traits != 0 and (cards[hc, CD_TRAITS] & traits) == 0:
        return False
    if (flt & FI_WOUNDED) and board[h, B_DAMAGE] == 0:
        return False
    if (flt & FI_UNWOUNDED) and board[h, B_DAMAGE] > 0:
        return False
    if (flt & FI_FRONT) and board[h, B_ZONE] != Z_FRONT:
        return False
    if (flt & FI_SUPPORT) and board[h, B_ZONE] != Z_SUPPORT:
        return False
    if (flt & FI_MAX_COST) and cards[hc, CD_COST] > cards[sc, base + AB_MAX_COST]:
        return False
    return True
