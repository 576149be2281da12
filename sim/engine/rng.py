"""A small, fast random generator for kernels' dealing and shuffling (xorshift64*).

numba's `np.random.randint` costs ~15 ns a call in a kernel; shuffling a deck every round made it the
largest cost of a Dragonwake game. This generator costs ~2 ns. Its state is a one-element uint64 (or int64)
array seeded per game from (chunk seed, game index), so a game's cards depend only on the seed and its
index: variants compared on the same seeds get the same deals even after earlier games diverged. Bounded draws use
Lemire's multiply-shift on 32 bits: the bias is below n / 2**32, far under any Monte Carlo error here.
"""

import numpy as np
from numba import njit

_MUL = np.uint64(0x2545F4914F6CDD1D)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S12, _S25, _S27, _S32 = np.uint64(12), np.uint64(25), np.uint64(27), np.uint64(32)


@njit(cache=True)
def mix(seed, index):
    """splitmix64 of (seed, index): a well-spread, never-zero 64-bit state."""
    z = np.uint64(seed) * _GOLDEN + np.uint64(index) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z if z != np.uint64(0) else _GOLDEN


@njit(cache=True)
def new_state(seed):
    """A one-element uint64 state from a seed."""
    state = np.empty(1, np.uint64)
    state[0] = mix(seed, 0)
    return state


@njit(cache=True, inline='always')
def step(x):
    """One xorshift64 step of a uint64 state."""
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    return x


@njit(cache=True)
def next_u64(state):
    x = step(np.uint64(state[0]))      # state may be uint64 or int64 (a cell of a game's int64 state array)
    state[0] = x
    return x * _MUL


@njit(cache=True)
def below(state, n):
    """A uniform integer in [0, n) for 0 < n < 2**32."""
    return np.int64(((next_u64(state) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def uniform(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(state, a, n):
    """Fisher-Yates over the first n entries of a (the same draws as `below`, with the state kept in a
    register rather than stored back on every step)."""
    x = np.uint64(state[0])
    for i in range(n - 1, 0, -1):
        x = step(x)
        j = np.int64((((x * _MUL) >> _S32) * np.uint64(i + 1)) >> _S32)
        t = a[i]
        a[i] = a[j]
        a[j] = t
    state[0] = x
