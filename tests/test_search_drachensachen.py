"""Drachensachen's search player (sim/games/drachensachen/kernel_search.py): the machine it plays on from plays the
plain kernel's games, the determinisation keeps what each seat was seen to take (the no-peeking checks themselves:
tests/search_harness.py through tests/search_probe_drachensachen.py), it plays legal, repeatable games that leave
the deal alone, its playouts know the line-up when asked (informed), its deals follow what the others' plays say
when asked (beliefs), and it is stronger than the heuristics it plays out with."""

from __future__ import annotations

import numpy as np
import pytest

from search_probe_drachensachen import (
    GAME, PLAYERS, POSITIONS, TABLES, TRACE, Arrays, decide_row, determinised, known, poison, positions, redeal,
)
from sim.games.drachensachen import kernel_search as ks
from sim.games.drachensachen.game import informed_functions, play, playout_functions, seat_functions
from sim.games.drachensachen.kernel_base import ST_HELD, ST_NOT, count_faults
from sim.games.drachensachen.records import (
    N_GAME_COLS, N_PLAYER_COLS, N_ROUND_COLS, N_TYPES, T_DECK, V_HAND, V_HAND_N,
)


@pytest.mark.parametrize("name,variants", TABLES, ids=[t[0] for t in TABLES])
def test_the_machine_plays_the_plain_kernels_games(name, variants):
    """The machine (every seat's decisions asked, answered by the seat's own function) plays the very games the
    plain kernel plays: stopping and going on at any decision (a play, an ability's choice, an exchange) is exact."""
    n = 300
    rules = GAME.load_rules(variants=variants)
    lineup = GAME.lineup("weighted")
    plain, seats, _, _, _ = play(rules, PLAYERS, lineup, 5, n)
    a = Arrays(variants, -1)
    fns, params, _ = seat_functions(lineup, PLAYERS)
    games = np.zeros((n, N_GAME_COLS), np.int64)
    players = np.zeros((n, PLAYERS, N_PLAYER_COLS), np.int64)
    ks.machine_games(5, a.v, a.st, a.moves, a.rint, a.coins, a.preset, *fns, params, games, players,
                     np.zeros((n * 200, N_ROUND_COLS), np.int64), a.counters, TRACE)
    assert np.array_equal(games, plain)
    assert np.array_equal(players, seats)


@pytest.mark.parametrize("name", [t[0] for t in TABLES])
def test_the_determinisation_keeps_the_cards_a_seat_was_seen_to_take(name):
    """What each seat was seen to take (ST_KNOWN, less what it played since) is a lower bound of its true hand, and
    stays in its hand in every determinisation (the rest of the determinisation: tests/search_harness.py)."""
    for pos in POSITIONS[name]:
        for q in range(PLAYERS):
            assert (known(pos.st, q)[1:] <= pos.v[q, V_HAND + 1:V_HAND + N_TYPES]).all()
        for stream in (5, 99):
            other = determinised(pos, stream, False)
            assert count_faults(other.v, other.st) == 0          # every card in one place, the type bits right
            for q in range(PLAYERS):
                if q != pos.me:
                    assert other.v[q, V_HAND_N] == pos.v[q, V_HAND_N]
                    assert (known(pos.st, q)[1:] <= other.v[q, V_HAND + 1:V_HAND + N_TYPES]).all()


def test_the_leak_is_the_other_hands_type_bits():
    """The tests' leaky determinisation (deal 2) differs from the real one only in the other hands' type bits, left
    as the true hands had them (the harness's cache check catches it)."""
    stale = 0
    for pos in POSITIONS["base"]:
        real, leaky = determinised(pos, 7, False), determinised(pos, 7, True)
        assert np.array_equal(real.v, leaky.v)
        differs = np.flatnonzero(real.st != leaky.st)
        assert set(differs) <= {ST_HELD + 2 * q for q in range(PLAYERS) if q != pos.me}
        assert all(leaky.st[ST_HELD + 2 * q] == pos.st[ST_HELD + 2 * q] for q in range(PLAYERS))
        stale += len(differs) > 0
    assert stale > 0


@pytest.mark.parametrize("name,variants", TABLES, ids=[t[0] for t in TABLES])
def test_search_games_are_legal_and_repeatable(name, variants):
    """Two searching seats: the referee accepts their games, no answer is corrected, no invariant breaks, the same
    seed plays the same games (with the invariant checks or without), and most of their decisions are searched."""
    rules = GAME.load_rules(variants=variants)
    lineup = GAME.lineup("seat0=search:budget=6,seat2=search:budget=6")
    checked = GAME.simulate(rules, PLAYERS, lineup, 5, 4, check=True)["games"]
    again = GAME.simulate(rules, PLAYERS, lineup, 5, 4)["games"]
    assert checked["violations"].sum() == 0 and checked["check_fails"].sum() == 0
    assert all(np.array_equal(checked[c], again[c]) for c in checked if c != "check_fails")
    assert GAME.search_decisions(rules, PLAYERS, lineup, 5, 4) > 4 * 20
    for trace in GAME.traces(rules, PLAYERS, lineup, 5, 3):
        GAME.referee(rules, PLAYERS, trace)


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own streams: each game of a batch is dealt the same cards whatever seat 0 plays
    (every round both games reach; each game's streams are its own)."""
    rules = GAME.load_rules()
    for seed in (8, 9):
        one = GAME.traces(rules, PLAYERS, GAME.lineup("weighted"), seed, 3)
        two = GAME.traces(rules, PLAYERS, GAME.lineup("seat0=search:budget=6"), seed, 3)
        for a, b in zip(one, two):
            rows_a, rows_b = (t.events[t.events[:, 0] == T_DECK] for t in (a, b))
            common = min(len(rows_a), len(rows_b))
            assert common >= 2 * 16 and np.array_equal(rows_a[:common], rows_b[:common])


def test_the_budget_is_the_playouts_per_decision():
    rules = GAME.load_rules()
    short = GAME.simulate(rules, PLAYERS, GAME.lineup("seat0=search:budget=1"), 9, 6)["games"]
    long = GAME.simulate(rules, PLAYERS, GAME.lineup("seat0=search:budget=60"), 9, 6)["games"]
    assert not np.array_equal(short["turns"], long["turns"])


@pytest.mark.parametrize("seat", range(PLAYERS))
def test_search_beats_the_default_heuristics_in_each_seat(seat):
    """Seat `seat` searching at the default budget against three weighted players wins well above its even share
    (1/4), with the 95% interval (60 deals; measured on 1,000 per seat: see docs/SEARCH.md)."""
    rules = GAME.load_rules()
    n = 60
    games = GAME.simulate(rules, PLAYERS, GAME.lineup(f"seat{seat}=search"), 21, n)["games"]
    won = games["winner"] == seat
    low = won.mean() - 1.96 * won.std(ddof=1) / np.sqrt(n)
    assert low > 0.25, (won.mean(), low)


def lineup_fns(spec, rules):
    """The informed playouts' functions and params for the line-up `spec` (as game.play builds them)."""
    pfns, pparams, _ = playout_functions(rules, PLAYERS)
    fns, params = informed_functions(GAME.lineup(spec), PLAYERS, pfns, pparams)
    return tuple(fns), params


def test_informed_against_the_default_heuristics_decides_as_uninformed():
    """Where the others play the default heuristic, the informed playouts are the uninformed ones: every decision,
    and whole games, are the same."""
    for name, variants in TABLES:
        rules = GAME.load_rules(variants=variants)
        fns, params = lineup_fns("seat0=search", rules)
        for pos in POSITIONS[name][:4]:
            for stream in (3, 4):
                assert decide_row(pos, 16, stream, 1, fns, params) == decide_row(pos, 16, stream)
    rules = GAME.load_rules()
    plain = GAME.simulate(rules, PLAYERS, GAME.lineup("seat0=search:budget=8,seat2=search:budget=8"), 5, 3)["games"]
    informed = GAME.simulate(rules, PLAYERS, GAME.lineup("seat0=search:budget=8:informed=1,seat2=search:budget=8"),
                             5, 3)["games"]
    assert all(np.array_equal(plain[c], informed[c]) for c in plain)


def test_informed_against_random_players_changes_some_decisions():
    """Against random players, the informed playouts play them as random: some decisions change, and the games
    of a searching seat that knows them differ from one that assumes the default heuristic."""
    changed = 0
    for name, variants in TABLES:
        fns, params = lineup_fns("random,seat0=search", GAME.load_rules(variants=variants))
        for pos in POSITIONS[name]:
            changed += decide_row(pos, 16, 3, 1, fns, params) != decide_row(pos, 16, 3)
    assert changed > 0
    rules = GAME.load_rules()
    blind = GAME.simulate(rules, PLAYERS, GAME.lineup("random,seat0=search:budget=8"), 5, 3)["games"]
    knows = GAME.simulate(rules, PLAYERS, GAME.lineup("random,seat0=search:budget=8:informed=1"), 5, 3)["games"]
    assert not all(np.array_equal(blind[c], knows[c]) for c in blind)


def test_informed_plays_each_seat_as_the_line_up_does():
    """The informed playouts' seats: a seat's own strategy and parameters; a searching seat (the searcher too)
    the default heuristic at its default weights."""
    rules = GAME.load_rules()
    lineup = GAME.lineup("random,seat0=search:informed=1,seat2=search")
    pfns, pparams, _ = playout_functions(rules, PLAYERS)
    fns, params = informed_functions(lineup, PLAYERS, pfns, pparams)
    for q in range(PLAYERS):
        searching = q in (0, 2)
        want = pfns if searching else [[f] * PLAYERS for f in lineup[f"seat{q}"].strategy.functions]
        assert all(fns[d][q] is want[d][q] for d in range(3))
        if searching:
            assert np.array_equal(params[q, :pparams.shape[1]], pparams[q])


# ---- beliefs: the others' hands dealt as their plays say -----------------------------------------------------


def believed(pos):
    """(seat, types as bits) for the other seats whose plays say which types their unseen cards are not."""
    return [(q, int(pos.st[ST_NOT + q])) for q in range(PLAYERS) if q != pos.me and pos.st[ST_NOT + q]]


def contradicted(pos, dealt) -> bool:
    """Some seat's dealt unseen cards (beyond those it was seen to take) hold a type its plays say it has none of."""
    return any(dealt.v[q, V_HAND + t] > known(pos.st, q)[t]
               for q, absent in believed(pos) for t in range(1, N_TYPES) if (absent >> t) & 1)


BELIEF_POSITIONS = [p for name, variants in TABLES for p in positions(variants, 30) if believed(p)]


def test_plays_say_what_a_default_player_does_not_hold():
    """Among weighted players (the modelled heuristic), a seat that took the pile with cards in hand truly holds no
    unseen card of the types that fitted then: the beliefs hold for every true hand."""
    assert len(BELIEF_POSITIONS) >= 10
    assert not any(contradicted(pos, pos) for pos in BELIEF_POSITIONS)


def test_with_beliefs_deals_that_contradict_the_plays_become_rarer():
    """The determinisation without beliefs often deals a seat a type its pick-up says it has none of; with them,
    never (every deal keeps the observation, and no fallback is needed among weighted players)."""
    plain = believing = 0
    ss = BELIEF_POSITIONS[0].a.ss.copy()
    for pos in BELIEF_POSITIONS:
        for stream in range(1, 21):
            plain += contradicted(pos, determinised(pos, stream, False))
            dealt = determinised(pos, stream, False, True, ss)
            believing += contradicted(pos, dealt)
            assert count_faults(dealt.v, dealt.st) == 0
            for q in range(PLAYERS):
                assert dealt.v[q, V_HAND_N] == pos.v[q, V_HAND_N]
                assert (known(pos.st, q)[1:] <= dealt.v[q, V_HAND + 1:V_HAND + N_TYPES]).all() or q == pos.me
    assert plain > 0
    assert believing == 0 and ss[ks.SS_FALLBACKS] == 0


def test_with_beliefs_a_decision_does_not_change_when_the_hidden_cards_do():
    """The beliefs read only what the seat saw (the plays): same observation, other hidden cards, same decision;
    and they change some decisions."""
    changed = 0
    for pos in BELIEF_POSITIONS[:8]:
        for stream in (3, 4):
            d = decide_row(pos, 16, stream, beliefs=True)
            assert decide_row(redeal(pos, stream + 17), 16, stream, beliefs=True) == d
            assert decide_row(poison(pos), 16, stream, beliefs=True) == d
            changed += d != decide_row(pos, 16, stream)
    assert changed > 0


def test_belief_fallbacks_are_counted_with_the_decisions():
    """A seat whose plays contradict the model (here: said to hold no card of any type, with cards unseen) is dealt
    as it comes, and the fallback is counted; among weighted players the beliefs always hold, and the count is
    reported with the search's decisions."""
    pos, q = next((p.copy(), q) for p in BELIEF_POSITIONS for q, _ in believed(p)
                  if p.v[q, V_HAND_N] > known(p.st, q)[1:].sum())
    pos.st[ST_NOT + q] = (1 << N_TYPES) - 2
    ss = pos.a.ss.copy()
    dealt = determinised(pos, 5, False, True, ss)
    assert ss[ks.SS_FALLBACKS] == 1 and count_faults(dealt.v, dealt.st) == 0
    counts = {}
    play(GAME.load_rules(), PLAYERS, GAME.lineup("seat0=search:budget=8:beliefs=1"), 5, 4, check=True, counts=counts)
    assert counts["search_decisions"] > 0 and counts["belief_fallbacks"] == 0
