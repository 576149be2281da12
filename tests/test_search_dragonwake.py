"""Dragonwake's search player (sim/games/dragonwake/kernel_search.py): it never reads what its player cannot see,
it plays legal, repeatable games that leave the deal alone, and it is stronger than the heuristics it plays out
with."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.engine.rng import mix
from sim.games import get_game
from sim.games.dragonwake import kernel, kernel_game
from sim.games.dragonwake import kernel_search as ks
from sim.games.dragonwake.game import default_functions, rule_args
from sim.games.dragonwake.kernel_base import (
    CALL, IN_SEARCH, N_COLS, PH_CLAIM, PR_ASIDE, PR_FORCED, PR_PHASE, PR_STOPPED, R_CULTIST_CARDS, R_HERO_CARDS,
    W_ASIDE, W_EVENTS, W_POWERS, W_ROLE, W_ROLE_DECK,
)
from sim.games.dragonwake.records import (
    BOARD0, B_FATE, CARDS0, DOWN0, ECLIPSE, EV_CLAIM, HERO, K_PEEKS, MAX_HAND, MAX_POWERS, PUB_ROW, PV_PEEK0,
    PV_POWER0, P_EVENT, P_HAND, P_RNG, SILENT,
    TRACE_WIDTH,
)
from strategies.dragonwake import P_CULTIST, P_CULTIST_END, P_HERO, search_params

GAME = get_game("dragonwake")
GAME.kernels()
BASIC = GAME.load_rules()
ADVANCED = GAME.load_rules(variants=["advanced"])
DFNS = default_functions()
NO_TRACE = np.zeros((0, 1, TRACE_WIDTH), np.int64)
PLAYERS = 5


class Position:
    """A game stopped at a searching player's decision: the arrays play_on and the search work in."""

    def __init__(self, rules, seed: int, game: int, budget: float):
        self.rint, self.state, self.memory, self.work, self.prog, self.sc = kernel.new_arrays(
            *rule_args(rules.typed, PLAYERS), True)
        self.hand_sizes = rule_args(rules.typed, PLAYERS)[6]
        self.params = search_params([budget])
        self.o = np.zeros(N_COLS, np.int16)
        self.state[PUB_ROW, P_RNG] = np.uint64(mix(seed, game)).view(np.int64)
        kernel_game.start_game(0, self.rint, self.o, NO_TRACE, self.state, self.memory, self.work, self.prog, False,
                               True)

    def copy(self) -> "Position":
        other = object.__new__(Position)
        for k, v in vars(self).items():
            setattr(other, k, v.copy() if isinstance(v, np.ndarray) else v)
        return other

    def play_on(self, codes) -> int:
        """Play on to the next decision of a side whose code is IN_SEARCH: its seat, -1 at the game's end."""
        p, q = self.params[P_HERO:P_CULTIST], self.params[P_CULTIST:P_CULTIST_END]
        kernel_game.play_on(0, self.rint, self.hand_sizes, *codes, DFNS[0], DFNS[1], DFNS[3], DFNS[4], DFNS[2],
                            DFNS[5], p, q, self.o, NO_TRACE, False, self.state, self.memory, self.work, self.prog)
        return int(self.prog[PR_STOPPED])

    def default_answer(self, me: int) -> int:
        """What the default heuristics answer at the decision the game stands at."""
        hero = self.work[W_ROLE, me] == HERO
        fn = DFNS[(0 if hero else 3) + (0 if self.prog[PR_PHASE] == PH_CLAIM else 1)]
        params = self.params[P_HERO:P_CULTIST] if hero else self.params[P_CULTIST:P_CULTIST_END]
        return int(fn(me, int(self.work[W_ROLE, me]), self.state, params, self.memory[me]))

    def decide(self, me: int, stream: int, deal: int = 1) -> int:
        """The search's answer from a copy of this position, on search stream `stream`."""
        c = self.copy()
        c.sc[ks.SC_SRNG] = stream
        return int(ks.search(me, c.rint, c.hand_sizes, c.state, c.memory, c.work, c.prog, c.params, NO_TRACE, c.sc,
                             c.o, DFNS, deal))

    def redealt(self, me: int, stream: int) -> "Position":
        """The same observation for player `me` with another arrangement of what it cannot see."""
        c = self.copy()
        c.sc[ks.SC_SRNG] = stream
        ks.determinise(me, c.rint, c.state, c.work, c.prog, c.sc)
        return c

    def hidden(self, me: int) -> list[tuple]:
        """(array name, index) of what player `me` cannot see: the others' roles and the undealt role cards,
        the face-down cards it does not know, the cards set aside, the game's own future draws."""
        players = PLAYERS
        n_role = self.rint[R_HERO_CARDS] + self.rint[R_CULTIST_CARDS]
        cells = [("work", (W_ROLE, p)) for p in range(players) if p != me and self.state[p, BOARD0 + B_FATE] == 0]
        cells += [("work", (W_ROLE_DECK, i)) for i in range(players, n_role)]
        eclipse = self.state[PUB_ROW, P_EVENT] == ECLIPSE
        for p in range(players):
            for s in range(MAX_HAND):
                if self.state[p, DOWN0 + s] == 1 and (p != me or eclipse) and ks.known_card(self.state, me, p, s) < 0:
                    cells.append(("state", (p, CARDS0 + s)))
        cells += [("work", (W_ASIDE, i)) for i in range(self.prog[PR_ASIDE])]
        cells.append(("state", (PUB_ROW, P_RNG)))
        return cells

    def reshuffled(self, me: int) -> list[tuple]:
        """(array name, index) of hidden things dealt afresh from their own multiset rather than from counts: the
        others' unused power cards and the undealt ones, the event cards still to come, what the others peeked at."""
        players = PLAYERS
        cells = [("state", (q, PV_POWER0 + j)) for q in range(players) for j in range(MAX_POWERS) if q != me]
        cells += [("work", (W_POWERS, i)) for i in range(self.work.shape[1])]
        cells += [("work", (W_EVENTS, i)) for i in range(self.work.shape[1])]
        cells += [("state", (q, PV_PEEK0 + i)) for q in range(players) for i in range(K_PEEKS) if q != me]
        return cells

    def values(self, cells) -> list[int]:
        return [int(getattr(self, name)[i]) for name, i in cells]

    def poisoned(self, me: int) -> "Position":
        """Nonsense in every hidden place: a search that read any of it before dealing would notice."""
        c = self.copy()
        for name, i in c.hidden(me):
            getattr(c, name)[i] = 0 if name == "work" and i[0] != W_ASIDE else 7
        return c

    def public(self, me: int) -> np.ndarray:
        """Everything else of the state and the work rows, and the game's progress."""
        hidden = set(self.hidden(me)) | set(self.reshuffled(me))
        keep = [v for (name, arr) in (("state", self.state), ("work", self.work))
                for i, v in np.ndenumerate(arr) if (name, i) not in hidden and not (name == "work" and i[0] == W_ROLE_DECK)]
        return np.concatenate([np.array(keep), self.prog])


def positions(rules, count: int, budget: float = 40.0) -> list[tuple[Position, int]]:
    """Decisions of heroes and cultists, claims and picks, early and late in games (the others playing the
    defaults; the searching side answers as the defaults would until the chosen decision)."""
    out = []
    for g in range(400):
        role = g % 2           # HERO 0, CULTIST 1
        codes = (IN_SEARCH, CALL) if role == HERO else (CALL, IN_SEARCH)
        pos = Position(rules, 11, g, budget)
        target = (0, 2, 5)[g % 3]
        seen = 0
        while (me := pos.play_on(codes)) >= 0:
            if seen == target:
                out.append((pos, me))
                break
            seen += 1
            pos.prog[PR_FORCED] = pos.default_answer(me)
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


BASIC_POSITIONS = positions(BASIC, 12)
ADVANCED_POSITIONS = positions(ADVANCED, 8)
ALL = BASIC_POSITIONS + ADVANCED_POSITIONS


def test_the_positions_cover_claims_and_picks_of_both_sides():
    kinds = {(int(pos.work[W_ROLE, me]), int(pos.prog[PR_PHASE])) for pos, me in ALL}
    assert len(kinds) == 4


def test_the_determinisation_keeps_what_the_player_sees_and_changes_what_it_does_not():
    changed = 0
    for pos, me in ALL:
        other = pos.redealt(me, 99)
        assert np.array_equal(pos.public(me), other.public(me))
        cards = [c for c in pos.hidden(me) if c[0] == "state" and c[1][0] != PUB_ROW]
        assert sorted(pos.values(cards)) == sorted(other.values(cards)) or pos.prog[PR_ASIDE] > 0
        changed += pos.values(pos.hidden(me)[:-1]) != other.values(other.hidden(me)[:-1])
    assert changed >= len(ALL) // 2


@pytest.mark.parametrize("stream", [3, 1234, 2 ** 40 + 7])
def test_a_decision_does_not_change_when_the_hidden_cards_and_roles_do(stream):
    """Exact invariance: same observation and search stream, other hidden cards and roles (a consistent redeal,
    or nonsense the search must overwrite before reading), same decision."""
    for pos, me in ALL:
        d = pos.decide(me, stream)
        assert d == pos.redealt(me, stream + 17).decide(me, stream)
        assert d == pos.poisoned(me).decide(me, stream)


def test_peeking_would_be_caught():
    """The same check catches a search that plays out from the true state: its decisions follow the hidden
    cards and roles somewhere."""
    moved = 0
    for pos, me in ALL:
        other = pos.redealt(me, 5)
        moved += any(pos.decide(me, s, deal=0) != other.decide(me, s, deal=0) for s in (3, 4, 5))
    assert moved > 0


def test_the_decision_distribution_is_the_same_for_two_hidden_arrangements():
    """Over many search streams, the decisions from two arrangements of the hidden cards and roles have one
    distribution (chi-square on the two rows of counts, at positions with a spread of decisions)."""
    tested = 0
    for pos, me in BASIC_POSITIONS[:8]:
        other = pos.redealt(me, 77)
        a = [pos.decide(me, 1000 + s) for s in range(40)]
        b = [other.decide(me, 5000 + s) for s in range(40)]
        answers = sorted(set(a) | set(b))
        if len(answers) < 2:
            continue
        tested += 1
        table = np.array([[x.count(v) for v in answers] for x in (a, b)])
        assert stats.chi2_contingency(table)[1] > 1e-3
    assert tested >= 2


@pytest.mark.parametrize("rules", [BASIC, ADVANCED], ids=["basic", "advanced"])
def test_search_games_are_legal_and_repeatable(rules):
    lineup = GAME.lineup("hero=search:budget=20,cultist=search:budget=20")
    for trace in GAME.traces(rules, PLAYERS, lineup, 5, 4):
        GAME.referee(rules, PLAYERS, trace)
    one = GAME.simulate(rules, PLAYERS, lineup, 5, 30, check=True)["games"]
    two = GAME.simulate(rules, PLAYERS, lineup, 5, 30)["games"]
    assert one["violations"].sum() == 0
    for col in two:
        assert np.array_equal(one[col], two[col])


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own stream: game i deals the same roles and first hands whoever searches."""
    base = GAME.traces(BASIC, PLAYERS, GAME.lineup("default"), 8, 3)
    searched = GAME.traces(BASIC, PLAYERS, GAME.lineup("hero=search:budget=20"), 8, 3)
    for a, b in zip(base, searched):
        dealt = np.argmax(a.events[:, 0] == EV_CLAIM)          # roles, the first round, its deal come first
        assert dealt > PLAYERS and np.array_equal(a.events[:dealt], b.events[:dealt])


def test_search_claims_and_picks_are_legal_answers():
    for pos, me in ALL:
        d = pos.decide(me, 9)
        if pos.prog[PR_PHASE] == PH_CLAIM:
            assert SILENT <= d <= 2 * pos.state[PUB_ROW, P_HAND] + 1
        else:
            p, s = divmod(d, MAX_HAND)
            assert pos.state[p, DOWN0 + s] == 1


@pytest.mark.parametrize("role, side", [("hero", 0), ("cultist", 1)])
def test_search_beats_the_default_heuristics_on_the_same_deals(role, side):
    """Paired on the same deals: the side searching at the default budget wins more often than the defaults in its
    place, by more than the noise of this many games allows (one-sided 95%)."""
    n = 800
    base = GAME.simulate(BASIC, PLAYERS, GAME.lineup("default"), 21, n)["games"]["winner"] == side
    searched = GAME.simulate(BASIC, PLAYERS, GAME.lineup(f"{role}=search"), 21, n)["games"]["winner"] == side
    diff = searched.astype(float) - base.astype(float)
    assert diff.mean() - 1.64 * diff.std(ddof=1) / np.sqrt(n) > 0
