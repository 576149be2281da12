"""Dragonwake's probe for the shared no-peeking tests (tests/search_harness.py): claims and picks of heroes and
cultists, in the basic and the advanced game, and the hidden part (the others' roles, the face-down cards the
searcher does not know, the cards set aside, the others' unused powers, the events to come) rearranged by this
file's own code, the others' memories of what they peeked at recomputed from the cards."""

from __future__ import annotations

import numpy as np

from sim.engine.rng import mix
from sim.games import get_game
from sim.games.dragonwake import kernel, kernel_game
from sim.games.dragonwake import kernel_search as ks
from sim.games.dragonwake.game import default_functions, rule_args
from sim.games.dragonwake.kernel_base import (
    CALL, IN_SEARCH, N_COLS, PH_CLAIM, PR_ASIDE, PR_DRAWN, PR_FORCED, PR_PHASE, PR_STOPPED, R_CULTIST_CARDS,
    R_EVENTS, R_HERO_CARDS, R_N_EVENTS, R_PER_PLAYER, R_POWER_CARDS, R_REPLACEMENT, W_ASIDE, W_DECK, W_EVENTS,
    W_POWERS, W_ROLE, W_ROLE_DECK,
)
from sim.games.dragonwake.kernel_machine import machine
from sim.games.dragonwake.records import (
    BOARD0, B_FATE, CARDS0, DOWN0, ECLIPSE, HERO, K_PEEKS, MAX_HAND, MAX_POWERS, PUB_ROW, PV_NPEEK, PV_PEEK0,
    PV_POWER0, P_EVENT, P_RNG, TRACE_WIDTH, known_card,
)
from strategies.dragonwake import P_CULTIST, P_CULTIST_END, P_HERO, search_params

GAME = get_game("dragonwake")
GAME.kernels()
machine(True)          # play_on and the search, which a plain run does not compile
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
        self.me = -1
        self.state[PUB_ROW, P_RNG] = np.uint64(mix(seed, game)).view(np.int64)
        kernel_game.start_game(0, self.rint, self.o, NO_TRACE, self.state, self.memory, self.work, self.prog, False,
                               True)

    def copy(self) -> "Position":
        other = object.__new__(Position)
        for k, v in vars(self).items():
            setattr(other, k, v.copy() if isinstance(v, np.ndarray) else v)
        return other

    @property
    def array(self) -> np.ndarray:
        """What the shared checks compare: the state, the work rows and the game's progress, flat."""
        return np.concatenate([self.state.ravel(), self.work.ravel(), self.prog])

    @property
    def answers(self) -> list[int]:
        """The decision's options (claim codes, or p * MAX_HAND + slot), as the search lays them out."""
        c = self.copy()
        n = ks.options(self.me, c.rint, c.state, c.prog, c.sc)
        return [int(v) for v in c.sc[ks.SC_OPTS:ks.SC_OPTS + n]]

    @property
    def options(self) -> int:
        return len(self.answers)

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

    def search(self, stream: int, deal: int = 1) -> int:
        """The search's answer (an option's value) from a copy of this position, on search stream `stream`."""
        c = self.copy()
        c.sc[ks.SC_SRNG] = stream
        return int(ks.search(self.me, c.rint, c.hand_sizes, c.state, c.memory, c.work, c.prog, c.params, NO_TRACE,
                             c.sc, c.o, DFNS, deal))


def positions(rules, count: int, budget: float = 40.0, keep=lambda pos: True) -> list[Position]:
    """Decisions of heroes and cultists, claims and picks, early and late in games (the others playing the
    defaults; the searching side answers as the defaults would until the chosen decision), those `keep` takes."""
    out = []
    for g in range(2000):
        role = g % 2           # HERO 0, CULTIST 1
        codes = (IN_SEARCH, CALL) if role == HERO else (CALL, IN_SEARCH)
        pos = Position(rules, 11, g, budget)
        target = (0, 2, 5)[g % 3]
        seen = 0
        while (me := pos.play_on(codes)) >= 0:
            if seen == target:
                pos.me = me
                if keep(pos):
                    out.append(pos)
                break
            seen += 1
            pos.prog[PR_FORCED] = pos.default_answer(me)
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


def others_peeked(pos: Position) -> bool:
    """Whether another player peeked this round at a card still face down that the searcher does not know."""
    hidden = set(unknown_places(pos))
    return any(divmod(int(pos.state[q, PV_PEEK0 + i]) // 8, MAX_HAND) in hidden
               for q in range(PLAYERS) if q != pos.me for i in range(min(int(pos.state[q, PV_NPEEK]), K_PEEKS)))


def probe_positions() -> list[Position]:
    """The decision points the shared checks run on: basic games, and advanced ones where another player has
    peeked at a card the searcher does not know (where the leak below acts), at a small budget (noisier
    decisions show a leak's sway more often)."""
    return positions(BASIC, 10) + positions(ADVANCED, 14, budget=10.0,
                                            keep=lambda p: others_peeked(p) and cache_errors(p) == [])


def decide(pos: Position, stream: int, deal: int = 1) -> int:
    """The index of the search's answer among the options (deal 2: the others' peeks left as the true cards had
    them, kernel_search.determinise's leak)."""
    return pos.answers.index(pos.search(stream, deal))


# ---- the hidden part, from the observation alone ------------------------------------------------------------


def unknown_places(pos: Position) -> list[tuple[int, int]]:
    """(player, slot) of the face-down cards the searcher does not know."""
    eclipse = pos.state[PUB_ROW, P_EVENT] == ECLIPSE
    return [(p, s) for p in range(PLAYERS) for s in range(MAX_HAND)
            if pos.state[p, DOWN0 + s] == 1 and (p != pos.me or eclipse) and known_card(pos.state, pos.me, p, s) < 0]


def free_roles(pos: Position) -> list[int]:
    """The players whose role card the searcher cannot see: the others who took no Figure of Fate."""
    return [p for p in range(PLAYERS) if p != pos.me and pos.state[p, BOARD0 + B_FATE] == 0]


def hidden_roles(pos: Position) -> list[int]:
    """The players whose role the searcher cannot tell: the free ones, and those who took a Figure of Fate
    naming another than the searcher (they have that player's role)."""
    return [p for p in range(PLAYERS) if p != pos.me and pos.state[p, BOARD0 + B_FATE] - 1 != pos.me]


def power_cells(pos: Position) -> list[tuple]:
    """(row, index) of the others' unused power cards and of the undealt ones."""
    n_cards = int(pos.rint[R_POWER_CARDS])
    cells = [("state", (q, PV_POWER0 + j)) for q in range(PLAYERS) for j in range(MAX_POWERS)
             if q != pos.me and pos.state[q, PV_POWER0 + j] != 0]
    dealt = min(n_cards, PLAYERS * int(pos.rint[R_PER_PLAYER]))
    return cells + [("work", (W_POWERS, i)) for i in range(dealt, n_cards)]


def event_cells(pos: Position) -> list[tuple]:
    if not pos.rint[R_EVENTS] or pos.rint[R_REPLACEMENT]:
        return []
    return [("work", (W_EVENTS, i)) for i in range(int(pos.prog[PR_DRAWN]), int(pos.rint[R_N_EVENTS]))]


def hidden_cells(pos: Position) -> list[tuple]:
    """(array, index) of everything the searcher cannot see, or that holds no state (the deck's scratch row)."""
    n_role = int(pos.rint[R_HERO_CARDS] + pos.rint[R_CULTIST_CARDS])
    cells = [("work", (W_ROLE, p)) for p in hidden_roles(pos)]
    cells += [("work", (W_ROLE_DECK, i)) for i in range(pos.work.shape[1]) if i != pos.me]
    cells += [("work", (W_DECK, i)) for i in range(pos.work.shape[1])]
    cells += [("state", (p, CARDS0 + s)) for p, s in unknown_places(pos)]
    cells += [("work", (W_ASIDE, i)) for i in range(int(pos.prog[PR_ASIDE]))]
    cells += [("state", (q, PV_PEEK0 + i)) for q in range(PLAYERS) for i in range(K_PEEKS) if q != pos.me]
    cells += power_cells(pos) + event_cells(pos) + [("state", (PUB_ROW, P_RNG))]
    assert n_role <= pos.work.shape[1]
    return cells


def flat_index(pos: Position, name: str, index: tuple) -> int:
    """A cell's place in Position.array."""
    if name == "state":
        return index[0] * pos.state.shape[1] + index[1]
    return pos.state.size + index[0] * pos.work.shape[1] + index[1]


def seen(pos: Position) -> np.ndarray:
    mask = np.ones(len(pos.array), bool)
    for name, index in hidden_cells(pos):
        mask[flat_index(pos, name, index)] = False
    return mask


def permute(pos: Position, cells: list[tuple], rng) -> None:
    """The values in `cells` in a random new order (the same multiset: which cards they are is public)."""
    values = [getattr(pos, name)[i] for name, i in cells]
    for (name, i), v in zip(cells, rng.permutation(np.array(values, np.int64))):
        getattr(pos, name)[i] = v


def refresh_peeks(pos: Position) -> None:
    """The others' memories of the cards they peeked at this round, read again from the cards now dealt."""
    for q in range(PLAYERS):
        if q == pos.me:
            continue
        for i in range(min(int(pos.state[q, PV_NPEEK]), K_PEEKS)):
            c = int(pos.state[q, PV_PEEK0 + i]) // 8
            pos.state[q, PV_PEEK0 + i] = c * 8 + max(int(pos.state[c // MAX_HAND, CARDS0 + c % MAX_HAND]), 0)


def redeal(pos: Position, seed: int) -> Position:
    """Another arrangement of the hidden part: the others' roles (with the undealt role cards), the unknown
    face-down cards with the cards set aside, the others' powers with the undealt ones, the events to come."""
    rng = np.random.default_rng(seed)
    c = pos.copy()
    players, n_role = PLAYERS, int(c.rint[R_HERO_CARDS] + c.rint[R_CULTIST_CARDS])
    heroes = int(c.rint[R_HERO_CARDS]) - int(c.work[W_ROLE_DECK, c.me] == HERO)
    cards = rng.permutation([HERO] * heroes + [1 - HERO] * (n_role - 1 - heroes))
    places = free_roles(c)
    for p, role in zip(places, cards):
        c.work[W_ROLE, p] = role
    c.work[W_ROLE_DECK, players:n_role] = cards[len(places):]
    for p in range(players):
        if p != c.me and c.state[p, BOARD0 + B_FATE] > 0:
            c.work[W_ROLE, p] = c.work[W_ROLE, c.state[p, BOARD0 + B_FATE] - 1]
    card_cells = [("state", (p, CARDS0 + s)) for p, s in unknown_places(c)]
    permute(c, card_cells + [("work", (W_ASIDE, i)) for i in range(int(c.prog[PR_ASIDE]))], rng)
    permute(c, power_cells(c), rng)
    permute(c, event_cells(c), rng)
    refresh_peeks(c)
    c.state[PUB_ROW, P_RNG] = int(rng.integers(1, 2 ** 62))
    return c


def poison(pos: Position) -> Position:
    """Nonsense in every hidden place whose value the search must overwrite before reading (roles, cards, the
    cards set aside, the others' peeks and memories, the deck's scratch row, the game's stream)."""
    c = pos.copy()
    for p in free_roles(c):
        c.work[W_ROLE, p] = 0
    for p, s in unknown_places(c):
        c.state[p, CARDS0 + s] = 7
    c.work[W_ASIDE, :int(c.prog[PR_ASIDE])] = 7
    c.work[W_DECK] = 7
    for q in range(PLAYERS):
        if q != c.me:                 # which card they peeked at is public, what they saw is not
            c.state[q, PV_PEEK0:PV_PEEK0 + K_PEEKS] = c.state[q, PV_PEEK0:PV_PEEK0 + K_PEEKS] // 8 * 8 + 7
            c.memory[q] = np.nan
    c.state[PUB_ROW, P_RNG] = 12345
    return c


def cache_errors(pos: Position) -> list[str]:
    """Derived values against what they summarise: each other player's peeks against the cards still face down
    where they peeked, and a Figure of Fate's role against the named player's."""
    errors = []
    for q in range(PLAYERS):
        for i in range(min(int(pos.state[q, PV_NPEEK]), K_PEEKS)):
            e = int(pos.state[q, PV_PEEK0 + i])
            p, s = divmod(e // 8, MAX_HAND)
            if pos.state[p, DOWN0 + s] == 1 and pos.state[p, CARDS0 + s] != e % 8:
                errors.append(f"peeks {q}")
        fate = int(pos.state[q, BOARD0 + B_FATE])
        if fate > 0 and pos.work[W_ROLE, q] != pos.work[W_ROLE, fate - 1]:
            errors.append(f"fate role {q}")
    return errors


def determinised(pos: Position, stream: int, leak: bool) -> Position:
    c = pos.copy()
    c.sc[ks.SC_SRNG] = stream
    ks.determinise(c.me, c.rint, c.state, c.work, c.prog, c.sc, c.params, leak)
    return c
