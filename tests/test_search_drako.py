"""Drako's search player (sim/games/drako/kernel_search.py): it never reads what its side cannot see, it plays
legal, repeatable games, and it is stronger than the heuristics it plays out with."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.games import get_game
from sim.games.drako import kernel, kernel_search as ks
from sim.games.drako import records as R
from sim.games.drako.game import kernel_params
from strategies.drako import search_params

GAME = get_game("drako")
RULES = GAME.load_rules()
TR = np.zeros((1, R.TRACE_WIDTH), dtype=np.int16)


def lineup_args(spec: str = "default"):
    """A line-up's eight decision functions and both sides' kernel parameters (what the search may play out
    with when informed)."""
    lineup = GAME.lineup(spec)
    dragon, dwarves = lineup["dragon"], lineup["dwarves"]
    return dragon.strategy.functions + dwarves.strategy.functions, kernel_params(dragon), kernel_params(dwarves)


DEFAULT = lineup_args()


def at_decision(seed: int, game: int, me: int, k: int, budget: float = 40.0):
    """A work array at side `me`'s k-th real decision of game `game` (both sides playing the heuristics up to
    it), with the search's parameters; None if the game ended first."""
    w = kernel.new_work(RULES.typed)
    st, opts, geo = kernel.views(w)
    p = search_params([budget])
    kernel.start_game(w, TR, seed, game)
    return (w, p) if ks.play_to_decision(w, TR, st, opts, geo, me, k, p) else None


def decide(w: np.ndarray, p: np.ndarray, me: int, stream: int, deal: int = 1, against=DEFAULT) -> int:
    """The search's choice from a copy of `w`, on search stream `stream`, in the line-up `against`."""
    w = w.copy()
    w[R.W_SRNG] = stream
    return kernel.search_at(w, me, p, *against, deal)


def hidden_redealt(w: np.ndarray, me: int, stream: int) -> np.ndarray:
    """The same observation for side `me` with another arrangement of what it cannot see (the opponent's
    hand, both deck orders), consistent with everything it has seen."""
    w = w.copy()
    w[R.W_SRNG] = stream
    ks.determinise(w, np.zeros(ks.N_SCRATCH, np.int64), me)
    return w


def hidden_cells(w: np.ndarray, me: int) -> list[int]:
    """Cells of `w` that side `me` cannot see: the opponent's hand, both decks from their next card on."""
    opp = 1 - me
    cells = list(range(R.W_ST + R.S_HAND + opp * R.MAX_TYPES, R.W_ST + R.S_HAND + (opp + 1) * R.MAX_TYPES))
    for side in (0, 1):
        top = w[R.W_ST + R.S_DECK_TOP + side]
        start = R.W_DECKS + side * R.MAX_DECK + top
        cells += list(range(start, start + w[R.W_ST + R.S_DECK_N + side]))
    return cells


def positions(count: int, budget: float = 40.0):
    """(w, p, me) at decisions of both sides, early and late in games."""
    out = []
    for g in range(200):
        me, k = g % 2, (3, 10, 25)[g % 3]
        got = at_decision(11, g, me, k, budget)
        if got is not None:
            out.append((*got, me))
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


POSITIONS = positions(16)


def test_the_determinisation_keeps_what_the_side_sees_and_changes_what_it_does_not():
    changed = 0
    for w, _, me in POSITIONS:
        other = hidden_redealt(w, me, 99)
        seen = np.ones(len(w), bool)
        seen[hidden_cells(w, me)] = False
        seen[R.W_ST + R.S_SYM + (1 - me) * R.N_SYM:R.W_ST + R.S_SYM + (2 - me) * R.N_SYM] = False   # follows the hand
        seen[R.W_ST + R.S_HAND_MASK + 1 - me] = False
        seen[R.W_SRNG] = False
        assert np.array_equal(w[seen], other[seen])
        opp = 1 - me           # the opponent's cards are the same multiset, hand and deck together
        hand = R.W_ST + R.S_HAND + opp * R.MAX_TYPES
        for x in (w, other):
            assert x[R.W_ST + R.S_HAND_N + opp] == x[hand:hand + R.MAX_TYPES].sum()
        changed += not np.array_equal(w[hidden_cells(w, me)], other[hidden_cells(w, me)])
    assert changed >= len(POSITIONS) // 2


@pytest.mark.parametrize("stream", [3, 1234, 2 ** 40 + 7])
def test_a_decision_does_not_change_when_the_hidden_cards_do(stream):
    """Exact invariance: same observation and search stream, other hidden cards (a consistent redeal, or
    nonsense the search must overwrite before reading), same decision."""
    for w, p, me in POSITIONS:
        d = decide(w, p, me, stream)
        assert 0 <= d < w[R.W_ST + R.R_NOPTS]
        assert decide(hidden_redealt(w, me, stream + 17), p, me, stream) == d
        poisoned = w.copy()
        poisoned[hidden_cells(w, me)] = 0
        assert decide(poisoned, p, me, stream) == d


def test_peeking_would_be_caught():
    """The same checks catch a search that reads the hidden cards (playouts from the true state): for some
    positions its decision follows the hidden cards."""
    moved = 0
    for w, p, me in POSITIONS:
        other = hidden_redealt(w, me, 5)
        moved += any(decide(w, p, me, s, deal=0) != decide(other, p, me, s, deal=0) for s in (3, 4, 5))
    assert moved > 0


def test_the_decision_distribution_is_the_same_for_two_hidden_arrangements():
    """Over many search streams, the decisions from two arrangements of the hidden cards have one
    distribution (chi-square on the two rows of counts, at positions with a spread of decisions)."""
    tested = 0
    for w, p, me in POSITIONS:
        n = w[R.W_ST + R.R_NOPTS]
        a, b = np.zeros(n), np.zeros(n)
        other = hidden_redealt(w, me, 77)
        for s in range(40):
            a[decide(w, p, me, 1000 + s)] += 1
            b[decide(other, p, me, 5000 + s)] += 1
        keep = (a + b) > 0
        if keep.sum() < 2:
            continue
        tested += 1
        assert stats.chi2_contingency(np.vstack([a[keep], b[keep]]))[1] > 1e-3
    assert tested >= 2


def test_search_games_are_legal_and_repeatable():
    lineup = GAME.lineup("dragon=search:budget=10,dwarves=search:budget=10")
    for trace in GAME.traces(RULES, 2, lineup, 5, 4):
        GAME.referee(RULES, 2, trace)
    one = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    two = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    for col in one:
        assert np.array_equal(one[col], two[col])


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own stream: game i is dealt the same cards whatever the dragon plays."""
    base = GAME.traces(RULES, 2, GAME.lineup("default"), 8, 3)
    searched = GAME.traces(RULES, 2, GAME.lineup("dragon=search:budget=10"), 8, 3)
    for a, b in zip(base, searched):
        dealt = np.argmax(a.events[:, 0] != R.EV_DECK)          # the opening deck rows come first
        assert dealt > 20 and np.array_equal(a.events[:dealt], b.events[:dealt])


@pytest.mark.parametrize("role, side", [("dragon", R.DRAGON), ("dwarves", R.DWARVES)])
def test_search_beats_the_default_heuristics_on_the_same_deals(role, side):
    n = 60
    base = GAME.simulate(RULES, 2, GAME.lineup("default"), 21, n)["games"]
    searched = GAME.simulate(RULES, 2, GAME.lineup(f"{role}=search:budget=100"), 21, n)["games"]
    assert (searched["winner"] == side).mean() > (base["winner"] == side).mean() + 0.1


# ---- informed: the playouts play the opponent's real strategy ----------------------------------------------


def informed(p: np.ndarray) -> np.ndarray:
    q = p.copy()
    q[ks.P_INFORMED] = 1.0
    return q


def test_informed_against_the_default_heuristics_decides_as_uninformed():
    """The default line-up plays brawler and coordinated at their default weights, exactly what the uninformed
    playouts assume: knowing the opponent changes no decision."""
    for w, p, me in POSITIONS[:8]:
        for stream in (3, 4):
            assert decide(w, informed(p), me, stream) == decide(w, p, me, stream)


def test_informed_against_a_random_dragon_plays_out_against_it():
    """Against a random dragon the informed dwarves' playouts meet that dragon, and some decisions change."""
    random_dragon = lineup_args("dragon=random")
    changed = 0
    for w, p, me in POSITIONS:
        if me != R.DWARVES:
            continue
        changed += any(decide(w, informed(p), me, s, against=random_dragon) != decide(w, p, me, s, against=random_dragon)
                       for s in (3, 4, 5))
    assert changed > 0


def test_search_params_pad_informed():
    assert list(search_params([50.0])[:2]) == [50.0, 0.0]
    assert list(search_params([50.0, 1.0])[:2]) == [50.0, 1.0]
    assert len(search_params([50.0])) == len(search_params([50.0, 1.0]))
