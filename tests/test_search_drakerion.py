"""Drakerion's search player (sim/games/drakerion/kernel_search.py): its playouts start from a state in which what
the seat cannot see is dealt afresh from what it can, it plays legal, repeatable games that leave the deal alone,
and it beats the heuristics it plays out with."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.games import get_game
from drakerion_cards import FIRST_DRAFT_RULES
from sim.games.drakerion import kernel_search as ks
from sim.games.drakerion import kernel_base as kb
from sim.games.drakerion import records as R
from strategies.drakerion import VALUE_DEFAULTS, search_params, value_choice

GAME = get_game("drakerion")
FIRST = FIRST_DRAFT_RULES
RULES = GAME.load_rules(FIRST)
MIRROR = GAME.load_rules(FIRST, sets=("seat0_deck=stone", "seat1_deck=stone"))   # value against value: an even share
N_SNAP = kb.N_WORK + R.N_STATE + R.N_INST * R.BOARD_WIDTH
AT_ST, AT_BOARD = kb.N_WORK, kb.N_WORK + R.N_STATE


def stop(g: int, me: int, k: int, stream: int = 1, deal: int = 1):
    """The snapshot a playout of seat me's k-th decision in game g starts from (value playing both seats), or
    None if the game ended first."""
    GAME.kernels()
    t = RULES.typed.arrays()
    snap = np.zeros(N_SNAP, np.int64)
    n = ks.stop_state(11, g, t.cards, t.inst_card, t.setup, t.deck_n, t.config, value_choice,
                      np.array(VALUE_DEFAULTS), me, k, stream, deal, snap)
    return snap if n > 1 else None


def redealt(snap: np.ndarray, me: int, stream: int) -> np.ndarray:
    snap = snap.copy()
    ks.redeal(snap, me, stream)
    return snap


def zone(snap: np.ndarray, i: int) -> int:
    return snap[AT_BOARD + i * R.BOARD_WIDTH + R.B_ZONE]


def hidden_cells(snap: np.ndarray, me: int) -> list[int]:
    """Cells seat me cannot see: both deck orders, the opponent's hand mask, its rows' zone (hand or deck)."""
    opp = 1 - me
    cells = []
    for p in (0, 1):
        start = kb.W_DECK + p * R.MAX_DECK
        cells += list(range(start, start + snap[AT_ST + R.S_DECK_N + p]))
    cells += [kb.W_MASK + 4 * opp + R.M_HAND, AT_ST + R.S_MASK + 4 * opp + R.M_HAND]
    for i in range(opp * R.MAX_INST, (opp + 1) * R.MAX_INST):
        if zone(snap, i) in (R.Z_HAND, R.Z_DECK):
            cells.append(AT_BOARD + i * R.BOARD_WIDTH + R.B_ZONE)
    return cells


CANDIDATES = [(g, g % 2, (0, 6, 15)[g % 3]) for g in range(40)]     # both seats, early and later decisions


def positions(count: int):
    """(snapshot, seat) at decisions of both seats, before any deal."""
    found = [(snap, me) for g, me, k in CANDIDATES if (snap := stop(g, me, k, deal=0)) is not None]
    assert len(found) >= count, "too few decision points"
    return found[:count]


POSITIONS = positions(12)


def test_the_determinisation_keeps_what_the_seat_sees_and_changes_what_it_does_not():
    changed = 0
    for snap, me in POSITIONS:
        other = redealt(snap, me, 99)
        seen = np.ones(N_SNAP, bool)
        seen[hidden_cells(snap, me)] = False
        assert np.array_equal(snap[seen], other[seen])
        opp = 1 - me
        for x in (snap, other):           # the opponent's hand keeps its size, its deck its cards
            rows = range(opp * R.MAX_INST, (opp + 1) * R.MAX_INST)
            assert sum(zone(x, i) == R.Z_HAND for i in rows) == x[AT_ST + R.S_HAND_N + opp]
            assert bin(x[kb.W_MASK + 4 * opp + R.M_HAND]).count("1") == x[AT_ST + R.S_HAND_N + opp]
        changed += not np.array_equal(snap[hidden_cells(snap, me)], other[hidden_cells(snap, me)])
    assert changed >= len(POSITIONS) // 2


@pytest.mark.parametrize("stream", [3, 1234, 2 ** 40 + 7])
def test_a_playout_starts_the_same_whatever_the_hidden_cards(stream):
    """Exact invariance: the same observation, another arrangement of the hidden cards (a consistent redeal, or
    nonsense: deck orders and the hand mask zeroed, hand and deck swapped), the same playout start."""
    for snap, me in POSITIONS:
        start = redealt(snap, me, stream)
        assert np.array_equal(redealt(redealt(snap, me, stream + 17), me, stream), start)
        poisoned = snap.copy()
        for c in hidden_cells(snap, me):
            if c < AT_BOARD:
                poisoned[c] = 0
            else:
                poisoned[c] = R.Z_DECK if poisoned[c] == R.Z_HAND else R.Z_HAND
        assert np.array_equal(redealt(poisoned, me, stream), start)


def test_the_opponents_hand_is_dealt_uniformly():
    """Over many search streams, every row of the opponent's hand-and-deck pile lands in its hand equally often
    (chi-square against the uniform share): the deal favours neither the true hand nor the row order."""
    tested = 0
    for snap, me in POSITIONS[:6]:
        opp = 1 - me
        pile = [i for i in range(opp * R.MAX_INST, (opp + 1) * R.MAX_INST) if zone(snap, i) in (R.Z_HAND, R.Z_DECK)]
        held = snap[AT_ST + R.S_HAND_N + opp]
        if held == 0 or held == len(pile):
            continue
        counts = np.zeros(len(pile))
        for s in range(400):
            dealt = redealt(snap, me, 1000 + s)
            counts += [zone(dealt, i) == R.Z_HAND for i in pile]
        assert stats.chisquare(counts)[1] > 1e-3
        tested += 1
    assert tested >= 3


def test_the_playouts_start_from_the_determinised_state():
    """stop_state with dealing on gives exactly redeal's state; with it off (a cheat) the start follows the hidden
    cards, which the invariance check above catches."""
    moved = 0
    for g, me, k in ((0, 0, 0), (1, 1, 6), (2, 0, 15), (4, 1, 0)):
        true = stop(g, me, k, deal=0)
        if true is None:
            continue
        assert np.array_equal(stop(g, me, k, stream=5, deal=1), redealt(true, me, 5))
        moved += not np.array_equal(true, redealt(true, me, 8))
    assert moved > 0


def test_search_games_are_legal_and_repeatable():
    lineup = GAME.lineup("seat0=search:budget=6,seat1=search:budget=4")
    for trace in GAME.traces(RULES, 2, lineup, 5, 4):
        GAME.referee(RULES, 2, trace)          # raises on an illegal answer or a mismatch
    one = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    two = GAME.simulate(RULES, 2, lineup, 5, 6)["games"]
    for col in one:
        np.testing.assert_array_equal(one[col], two[col])          # (NaN equal to NaN)
    assert one["violations"].sum() == 0 and one["bad_choices"].sum() == 0


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own stream: game i is dealt the same decks whatever seat 0 plays."""
    base = GAME.traces(RULES, 2, GAME.lineup("default"), 8, 3)
    searched = GAME.traces(RULES, 2, GAME.lineup("seat0=search:budget=6"), 8, 3)
    for a, b in zip(base, searched):
        dealt = np.flatnonzero(a.events[:, 0] == R.EV_DECK)[:40]     # the set-up's shuffles
        assert len(dealt) == 40 and np.array_equal(a.events[dealt], b.events[dealt])


def test_the_budget_is_the_search_seat_parameter():
    budget, weights = search_params([37.0])
    assert budget == 37 and np.array_equal(weights, VALUE_DEFAULTS)
    assert GAME.lineup("seat1=search")["seat1"].params[0] == 20
    lineup = GAME.lineup("seat0=search:budget=1")
    assert GAME.search_decisions(RULES, 2, lineup, 3, 4) > 0
    assert GAME.search_decisions(RULES, 2, GAME.lineup("default"), 3, 4) == 0
    one = GAME.simulate(RULES, 2, GAME.lineup("seat0=search:budget=2"), 3, 8)["games"]
    two = GAME.simulate(RULES, 2, GAME.lineup("seat0=search:budget=30"), 3, 8)["games"]
    assert any(not np.array_equal(one[c], two[c]) for c in ("winner", "turns", "decisions", "actions_s0"))


@pytest.mark.parametrize("seat", [0, 1])
def test_search_beats_the_default_heuristics_in_each_seat(seat):
    """The default budget against value in a mirror (value against value: an even share): the search seat's
    win share's 95% interval lies above one half."""
    n = 200
    games = GAME.simulate(MIRROR, 2, GAME.lineup(f"seat{seat}=search"), 21, n)["games"]
    share = np.where(games["winner"] == seat, 1.0, np.where(games["winner"] == R.DRAW, 0.5, 0.0))
    assert share.mean() - 1.96 * share.std() / np.sqrt(n) > 0.5
