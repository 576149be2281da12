"""Seeds: one root seed → one independent stream per chunk of games.

Chunk `i` always gets `SeedSequence(root, spawn_key=(i,))`, the same child `SeedSequence(root).spawn()`
would give it, so results do not depend on how many workers play the chunks, and the first games of a
larger run are the games of a smaller one.
"""

import numpy as np


def chunk_seed(root: int, chunk: int) -> int:
    """A 32-bit seed for numba's generator (it seeds from 32 bits) for chunk `chunk`."""
    return int(np.random.SeedSequence(root, spawn_key=(chunk,)).generate_state(1, np.uint32)[0])


def chunks(n: int, size: int, start: int = 0):
    """(chunk index, games in it) covering n games from chunk `start`, lazily (a 1e11-game run has two
    million chunks); boundaries depend only on n and size."""
    return ((i, min(size, n - i * size)) for i in range(start, (n + size - 1) // size))
