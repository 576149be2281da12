"""Drakerion's search player (sim/games/drakerion/kernel_search.py): its playouts start from the state its deal makes
(the opponent's hand dealt uniformly), it plays legal, repeatable games that leave the deal alone, its informed
playouts play the line-up it meets, and it beats the heuristics it plays out with. That it never reads what it
cannot see is tested by the shared checks (tests/search_harness.py) through tests/search_probe_drakerion.py."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.games import get_game
from drakerion_cards import FIRST_DRAFT_RULES
from sim.games.drakerion import kernel_search as ks
from sim.games.drakerion import kernel_base as kb
from sim.games.drakerion import records as R
from sim.games.drakerion.game import search_args
from strategies.drakerion import VALUE_DEFAULTS, random_choice, search_choice, search_params, value_choice

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
    ks.redeal(snap, me, stream, False)
    return snap


def zone(snap: np.ndarray, i: int) -> int:
    return snap[AT_BOARD + i * R.BOARD_WIDTH + R.B_ZONE]


CANDIDATES = [(g, g % 2, (0, 6, 15)[g % 3]) for g in range(40)]     # both seats, early and later decisions


def positions(count: int):
    """(snapshot, seat) at decisions of both seats, before any deal."""
    found = [(snap, me) for g, me, k in CANDIDATES if (snap := stop(g, me, k, deal=0)) is not None]
    assert len(found) >= count, "too few decision points"
    return found[:count]


POSITIONS = positions(12)


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
    """stop_state with dealing on gives exactly redeal's state (the probe's `determinised` is what the playouts
    start from); with it off (a cheat) the start follows the hidden cards."""
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
    budget, informed, weights = search_params([37.0])
    assert budget == 37 and informed == 0 and np.array_equal(weights, VALUE_DEFAULTS)
    assert search_params([5.0, 1.0])[:2] == (5, 1) and search_params([5.0, 0.0])[:2] == (5, 0)
    assert list(GAME.lineup("seat1=search")["seat1"].params) == [20, 0]
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


# ---- informed playouts ------------------------------------------------------------------------------------------
# What search_batch played before `informed` existed (the same code with informed = 0): game by game, stone mirror,
# seed 5, 6 games.
BEFORE_INFORMED = {
    "seat0=search:budget=6,seat1=random": {
        "winner": [0, 0, 0, 0, 0, 0], "turns": [3, 2, 3, 1, 2, 2], "decisions": [89, 67, 86, 47, 71, 70],
        "actions_s0": [15, 11, 13, 4, 12, 9], "actions_s1": [12, 7, 13, 4, 8, 9]},
    "seat0=aggressive,seat1=search:budget=6": {
        "winner": [0, 1, 1, 1, 1, 1], "turns": [3, 2, 4, 2, 2, 2], "decisions": [110, 80, 129, 56, 102, 65],
        "actions_s0": [19, 13, 22, 8, 17, 10], "actions_s1": [16, 11, 20, 7, 15, 9]},
    "seat0=search:budget=4,seat1=search:budget=3": {
        "winner": [0, 0, 0, 1, 1, 0], "turns": [2, 6, 4, 2, 6, 3], "decisions": [80, 198, 147, 82, 200, 117],
        "actions_s0": [12, 39, 27, 12, 29, 21], "actions_s1": [12, 28, 26, 14, 40, 18]},
}


def games_of(spec: str, seed: int = 5, n: int = 6) -> dict:
    return GAME.simulate(MIRROR, 2, GAME.lineup(spec), seed, n)["games"]


@pytest.mark.parametrize("spec", list(BEFORE_INFORMED))
def test_uninformed_plays_as_before(spec):
    """informed=0 (given or not) is the search as it was, bit for bit on the same seed."""
    for given in (spec, spec.replace("budget=6", "budget=6:informed=0").replace("budget=3", "budget=3:informed=0")):
        games = games_of(given)
        assert {c: games[c].tolist() for c in BEFORE_INFORMED[spec]} == BEFORE_INFORMED[spec]


def test_the_search_arguments_carry_informed_and_the_line_ups_parameters():
    """What search_batch receives: each seat's kernel parameters (a search seat's: value's default weights), the
    budgets, and the informed flags; an informed searcher's playouts play the other seat with these."""
    p0, p1, budgets, informed = search_args(GAME.lineup("seat0=search:budget=9:informed=1,seat1=value:kill_weight=2.5"))
    assert budgets.tolist() == [9, 0] and informed.tolist() == [1, 0]
    assert np.array_equal(p0, VALUE_DEFAULTS) and p1[0] == 2.5 and np.array_equal(p1[1:], VALUE_DEFAULTS[1:])
    assert budgets.dtype == informed.dtype == np.int64 and p0.dtype == p1.dtype == np.float64
    p0, p1, budgets, informed = search_args(GAME.lineup("seat0=random,seat1=search:informed=1"))
    assert budgets.tolist() == [0, 20] and informed.tolist() == [0, 1] and np.array_equal(p1, VALUE_DEFAULTS)
    lineup = GAME.lineup("seat0=search:informed=1,seat1=search")
    assert lineup["seat1"].strategy.functions[0] is search_choice
    assert search_args(lineup)[3].tolist() == [1, 0] and np.array_equal(search_args(lineup)[1], VALUE_DEFAULTS)
    assert GAME.lineup("seat0=random")["seat0"].strategy.functions[0] is random_choice


@pytest.mark.parametrize("other", ["value", "search:budget=3"])
def test_informed_against_the_playout_policy_plays_as_uninformed(other):
    """Against value at its default weights, or a searching seat (played out as value at those weights), the
    informed playouts are the uninformed ones: the same games, bit for bit."""
    plain = games_of(f"seat0=search:budget=6,seat1={other}")
    knows = games_of(f"seat0=search:budget=6:informed=1,seat1={other}")
    for c in plain:
        np.testing.assert_array_equal(plain[c], knows[c])          # (NaN equal to NaN)


@pytest.mark.parametrize("seat", [0, 1])
def test_informed_plays_out_against_the_line_up(seat):
    """Against a random seat (nothing like value), the informed playouts play it as random: the search decides
    otherwise, and the games differ from the uninformed search's on the same deals; so they do against value with
    other weights (a tuned equilibrium member)."""
    for other in ("random", "value:kill_weight=0.389:risk_weight=0.692:counter_weight=1.71:damage_weight=0.0243"):
        plain = {s: f"seat{seat}=search:budget=6{s},seat{1 - seat}={other}" for s in ("", ":informed=1")}
        one, two = games_of(plain[""], 8, 8), games_of(plain[":informed=1"], 8, 8)
        assert any(not np.array_equal(one[c], two[c]) for c in ("winner", "turns", "decisions", f"actions_s{seat}"))
        assert two["violations"].sum() == 0 and two["bad_choices"].sum() == 0
