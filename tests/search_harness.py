"""The no-peeking tests every game's search player must pass, written once over a probe (one per game:
tests/search_probe_<game>.py).

A probe stands at real decision points of its game and offers, for each:
- `decide(pos, stream, deal)`: the search's choice on search stream `stream`; deal 1 is the real search, 0 a cheat
  that plays out from the true state, 2 the game's deliberately leaky determinisation (one cached value left as the
  true state had it);
- `redeal(pos, seed)`: the same observation with everything the searcher cannot see dealt afresh by the probe's own
  code (never the search's `determinise`), its derived arrays recomputed from the zones;
- `poison(pos)`: the hidden cards overwritten with nonsense the search must overwrite before reading;
- `determinised(pos, stream, leak)`: the search's own determinisation of pos;
- `seen(pos)`: a boolean mask of what the searcher sees (equal in every arrangement it cannot tell apart);
- `cache_errors(pos)`: the names of derived (cached) arrays that disagree with the zones they summarise.

If the search read anything hidden, the same observation with other hidden cards would, for some position and
stream, give another decision: the cheat (deal 0) and the leak (deal 2) must be caught by the very checks the real
search passes.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scipy import stats

PROBE_FUNCTIONS = ("decide", "redeal", "poison", "seen", "cache_errors", "determinised")
STREAMS = (3, 1234, 2 ** 40 + 7)
LEAK_STREAMS = tuple(range(3, 11))


def probe_of(module) -> SimpleNamespace:
    """A game's probe from its module (tests/search_probe_<game>.py): the functions PROBE_FUNCTIONS names and the
    positions its `probe_positions()` gives."""
    return SimpleNamespace(positions=module.probe_positions(), **{f: getattr(module, f) for f in PROBE_FUNCTIONS})


def state(pos) -> np.ndarray:
    """The flat array a probe's position compares on (its `array`)."""
    return pos.array


def redeal_keeps_the_observation(probe) -> None:
    """The probe's own redeal is a fair test: same observation, consistent caches, often other hidden cards."""
    changed = 0
    for pos in probe.positions:
        other = probe.redeal(pos, 99)
        seen = probe.seen(pos)
        assert np.array_equal(state(pos)[seen], state(other)[seen])
        assert probe.cache_errors(pos) == [] and probe.cache_errors(other) == []
        changed += not np.array_equal(state(pos), state(other))
    assert changed >= len(probe.positions) // 2


def determinise_keeps_the_observation(probe) -> None:
    """The search's own determinisation keeps what the searcher sees and leaves no cached array stale; the leaky
    one is caught by the cache check."""
    stale = 0
    for pos in probe.positions:
        for stream in STREAMS:
            dealt = probe.determinised(pos, stream, False)
            assert np.array_equal(state(pos)[probe.seen(pos)], state(dealt)[probe.seen(pos)])
            assert probe.cache_errors(dealt) == []
            stale += probe.cache_errors(probe.determinised(pos, stream, True)) != []
    assert stale > 0


def moved_decisions(probe, deal: int, streams=STREAMS) -> int:
    """How many (position, stream) decisions change when the hidden part is redealt or poisoned."""
    moved = 0
    for pos in probe.positions:
        others = (probe.redeal(pos, 17), probe.redeal(pos, 18), probe.poison(pos))
        for stream in streams:
            d = probe.decide(pos, stream, deal)
            assert 0 <= d < pos.options
            moved += any(probe.decide(o, stream, deal) != d for o in others)
    return moved


def decisions_ignore_the_hidden_part(probe) -> None:
    assert moved_decisions(probe, 1) == 0


def peeking_is_caught(probe) -> None:
    assert moved_decisions(probe, 0) > 0


def leak_is_caught(probe) -> None:
    """A leak acts only where the cached value sways a playout, far more rarely than a cheat: more streams."""
    assert moved_decisions(probe, 2, LEAK_STREAMS) > 0


def decision_distribution_is_the_same(probe, draws: int = 40) -> None:
    """Over many search streams, the decisions from two arrangements of the hidden part have one distribution
    (chi-square on the two rows of counts, at positions with a spread of decisions)."""
    tested = 0
    for pos in probe.positions:
        a, b = np.zeros(pos.options), np.zeros(pos.options)
        other = probe.redeal(pos, 77)
        for s in range(draws):
            a[probe.decide(pos, 1000 + s, 1)] += 1
            b[probe.decide(other, 5000 + s, 1)] += 1
        keep = (a + b) > 0
        if keep.sum() < 2:
            continue
        tested += 1
        assert stats.chi2_contingency(np.vstack([a[keep], b[keep]]))[1] > 1e-3
    assert tested >= 2


CHECKS = (redeal_keeps_the_observation, determinise_keeps_the_observation, decisions_ignore_the_hidden_part,
          peeking_is_caught, leak_is_caught, decision_distribution_is_the_same)
