"""Memory stays flat in --n: a run of ten times the games needs no more than 15% more peak memory (soak).

Every statistic a run's report needs is a streamed aggregate, so peak memory is the kernel's chunk plus the
libraries, whatever --n is. The sizes are small enough for `make soak`; `make bench` records 1e6 against 1e7."""

import pytest

from sim.tooling.bench_scale import peak_rss_run
from sim.games import game_names

SIZES = {"drakerion": (3e4, 3e5)}          # the slowest game: 30k games/s


@pytest.mark.soak
@pytest.mark.parametrize("name", game_names())
def test_peak_memory_does_not_grow_with_n(name):
    small, large = SIZES.get(name, (1e5, 1e6))
    a = peak_rss_run(name, small, jobs=1)["peak_rss"]
    b = peak_rss_run(name, large, jobs=1)["peak_rss"]
    assert b <= 1.15 * a, f"{name}: {a / 2**20:.0f} MiB at {small:g} games, {b / 2**20:.0f} MiB at {large:g}"
