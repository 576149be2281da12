"""The search players' shared driver (sim/engine/search.py), on a toy game whose options win with known
probabilities: it finds the best option, keeps the heuristic's answer unless a rival beats it on fresh
playouts, gives every option a fair first share, and compares options on common random numbers."""

import numpy as np
from numba import njit

from sim.engine import search
from sim.engine.rng import mix

LOG = 4096


@njit(cache=True)
def toy_play(ctx, i, stream):
    """Option i wins with probability probs[i]; each (stream, option) draws its own number (independent noise),
    or one number per stream when `shared` (the options differ only by their probability). Logs (i, stream)
    and clobbers the search stream's cell, as a game's playout does."""
    probs, shared, log, srng = ctx
    k = log[0, 0] + 1
    if k < LOG:
        log[k, 0] = i
        log[k, 1] = stream
        log[0, 0] = k
    srng[0] = 12345
    x = mix(stream, 0 if shared else i + 1)
    u = np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return 1 if u < probs[i] else 0


@njit(cache=True)
def toy_decide(probs, inc, budget, seed, shared, log, hs):
    srng = np.zeros(1, np.int64)
    srng[0] = np.int64(mix(seed, 1))
    return search.choose(probs.shape[0], inc, budget, hs, srng, toy_play, (probs, shared, log, srng))


def decide(probs, inc=-1, budget=200, seed=0, shared=False):
    """(choice, log of (option, stream) playouts, the driver's scratch)."""
    probs = np.asarray(probs, dtype=np.float64)
    log = np.zeros((LOG, 2), dtype=np.int64)
    hs = np.zeros(search.words(len(probs)), dtype=np.int64)
    return int(toy_decide(probs, inc, budget, seed, shared, log, hs)), log[1:log[0, 0] + 1], hs


def test_the_driver_finds_the_best_option():
    picks = [decide([0.3, 0.5, 0.7, 0.2, 0.45], seed=s)[0] for s in range(200)]
    assert np.mean(np.array(picks) == 2) > 0.9


def test_a_clearly_better_option_replaces_the_incumbent():
    picks = [decide([0.3, 0.7], inc=0, seed=s)[0] for s in range(200)]
    assert np.mean(np.array(picks) == 1) > 0.9


def test_the_incumbent_is_kept_among_equal_options():
    # without the guard the halving's winner is any of the four: the incumbent 1 time in 4
    picks = np.array([decide([0.5] * 4, inc=2, seed=s)[0] for s in range(400)])
    assert np.mean(picks != 2) < 0.25


def test_the_guard_plays_fresh_streams_and_keeps_its_tallies():
    for s in range(50):
        choice, log, hs = decide([0.5, 0.52, 0.48, 0.5], inc=0, seed=s)
        pairs = hs[-1]
        if pairs == 0:
            continue
        halving, checked = log[:-2 * pairs], log[-2 * pairs:]
        assert not set(checked[:, 1]) & set(halving[:, 1])
        best = checked[0, 0]
        assert set(checked[:, 0]) == {best, 0}
        assert hs[-2] <= 2 * pairs and abs(hs[-3]) <= hs[-2]
        assert (choice == best) == (hs[-3] > search.MARGIN_Z * np.sqrt(hs[-2]))
        return
    raise AssertionError("the guard never ran")


def test_every_option_gets_a_fair_first_share():
    n = 12
    _, log, _ = decide(np.linspace(0.1, 0.9, n), budget=5)
    first = log[:search.FIRST_SHARE * n]
    assert np.bincount(first[:, 0], minlength=n).tolist() == [search.FIRST_SHARE] * n


def test_the_options_of_a_round_share_their_streams():
    n = 6
    _, log, _ = decide(np.linspace(0.2, 0.7, n), budget=240)
    per_stream = {}
    for option, stream in log:
        per_stream.setdefault(stream, []).append(option)
    first_round = [opts for opts in per_stream.values() if len(opts) == n]
    assert first_round and all(sorted(o) == list(range(n)) for o in first_round)
    assert all(len(set(o)) == len(o) for o in per_stream.values())


def test_a_shared_draw_ranks_the_options_by_probability_alone():
    # with one number per stream, option 2 wins whenever any option does: it must be chosen every time
    assert {decide([0.3, 0.5, 0.6, 0.2], seed=s, shared=True)[0] for s in range(30)} == {2}


def test_the_same_seed_gives_the_same_choice_and_playouts():
    a, la, _ = decide([0.4, 0.5, 0.55], inc=1, seed=7)
    b, lb, _ = decide([0.4, 0.5, 0.55], inc=1, seed=7)
    assert a == b and np.array_equal(la, lb)
    assert not np.array_equal(la, decide([0.4, 0.5, 0.55], inc=1, seed=8)[1])


def test_the_budget_bounds_the_playouts():
    for n, budget in ((2, 200), (5, 200), (9, 100), (30, 50)):
        _, log, _ = decide(np.full(n, 0.5), inc=0, budget=budget)
        first = search.FIRST_SHARE * n
        assert len(log) <= max(budget, first + budget), (n, budget, len(log))
        assert len(log) >= min(budget // 2, first)


def test_one_option_needs_no_playout():
    choice, log, _ = decide([0.5])
    assert choice == 0 and len(log) == 0
