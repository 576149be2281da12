"""Built-in Drako strategies: the registry, and the two-sided strategies for match play.

Every strategy is one numba function with the game's decision signature
(kind, options, n_options, state, geo, params) → chosen row (see sim/games/drako/records.py),
used for all four decision slots (act, target, react, setup); the `kind` says what is asked.
A user's strategy may give four different functions instead.

They are compiled with `_nrt=False` (no reference counting: they allocate nothing), which saves
the atomic counts numba would otherwise do on each array argument of every call. A strategy
compiled without it works the same, just a little slower.

Dragon:   brawler (fights at close range, leaves a crowd; brawler_v1 stays in it), kiter (keeps away, blocks, lets the dwarves' deck run out)
Dwarves:  rush (everyone charges), coordinated (net, then close in, Fury when surrounding, the
          archer holding a line)
Both:     random (uniform over legal options); aggressive (brawler + rush) and patient
          (kiter + coordinated) play either side, for match play; search (the reference player: plays
          each option on to the end many times, see sim/games/drako/kernel_search.py and docs/SEARCH.md).

The dragons are in dragon.py, the dwarves in dwarves.py, the helpers they share in shared.py.
"""

from __future__ import annotations

import numpy as np

from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drako.records import DECISION_SIG, DRAGON, S_SIDE
# the kernel runs brawler2, coordinated2 and draw inline (sim/games/drako/kernel_game.py)
from strategies.drako.dragon import (
    BRAWLER, BRAWLER2, BRAWLER2_BOUNDS, BRAWLER2_DEFAULTS, BRAWLER_BOUNDS, BRAWLER_DEFAULTS, KITER,
    KITER_BOUNDS, KITER_DEFAULTS, brawler, brawler2, brawler2_choice, brawler_choice, kiter, kiter_choice,
)
from strategies.drako.dwarves import (
    COORDINATED, COORDINATED2, COORDINATED2_BOUNDS, COORDINATED2_DEFAULTS, COORDINATED_BOUNDS,
    COORDINATED_DEFAULTS, RUSH, RUSH_BOUNDS, RUSH_DEFAULTS, coordinated, coordinated2, coordinated_choice,
    coordinated_v1_choice, rush, rush_choice,
)
from strategies.drako.shared import FAST, draw


@njit_later(DECISION_SIG, **FAST)
def random_choice(kind, opts, n, st, geo, p):
    return draw(st, n)


# ---- both sides, for match play: the dwarves' parameters follow the dragon's ---------------------


@njit_later(DECISION_SIG, **FAST)
def aggressive_v1_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return brawler(kind, opts, n, st, geo, p, 0)
    return rush(kind, opts, n, st, geo, p, len(BRAWLER))


@njit_later(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return brawler2(kind, opts, n, st, geo, p, 0)
    return rush(kind, opts, n, st, geo, p, len(BRAWLER2))


@njit_later(DECISION_SIG, **FAST)
def patient_v1_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return kiter(kind, opts, n, st, geo, p, 0)
    return coordinated(kind, opts, n, st, geo, p, len(KITER))


@njit_later(DECISION_SIG, **FAST)
def patient_choice(kind, opts, n, st, geo, p):
    if st[S_SIDE] == DRAGON:
        return kiter(kind, opts, n, st, geo, p, 0)
    return coordinated2(kind, opts, n, st, geo, p, len(KITER))


# ---- the search player ---------------------------------------------------------------------------
# The kernel runs it (kernel_search): it needs the whole game state, which a strategy function does not see.
# Its parameters: the budget (playouts per decision) and `informed` (0: the playouts play the other side with
# the default heuristic; 1: with the strategy and weights that side really plays in this line-up). The kernel
# receives both, followed by the weights of the default heuristics its playouts use (`search_params`).
SEARCH, SEARCH_DEFAULTS = ("budget", "informed"), (200.0, 0.0)
P_BUDGET, P_INFORMED, P_DRAGON = 0, 1, 2
P_DWARVES = P_DRAGON + len(BRAWLER2)


def search_params(params) -> np.ndarray:
    """What the kernel receives for a search seat: its budget and `informed` (0 when not given), then the
    playout heuristics' default weights."""
    given = np.asarray(params, dtype=np.float64)[:len(SEARCH)]
    own = np.array(SEARCH_DEFAULTS, dtype=np.float64)
    own[:len(given)] = given
    return np.concatenate([own, BRAWLER2_DEFAULTS, COORDINATED2_DEFAULTS])


@njit_later(DECISION_SIG, **FAST)
def search_choice(kind, opts, n, st, geo, p):
    """Recognised by identity in kernel.inline_codes and never called there; called anywhere else, it plays
    as its playouts do."""
    if st[S_SIDE] == DRAGON:
        return brawler2(kind, opts, n, st, geo, p, P_DRAGON)
    return coordinated2(kind, opts, n, st, geo, p, P_DWARVES)


# ---- the registry ------------------------------------------------------------------------------


def _prefixed(prefix, names):
    return tuple(f"{prefix}_{n}" for n in names)


DRAGON_ONLY, DWARVES_ONLY, BOTH = ("dragon",), ("dwarves",), ("dragon", "dwarves")
# name, roles, function (for all four decision slots), parameters (names, defaults, bounds), description
STRATEGIES = (
    ("random", BOTH, random_choice, ((), (), ()), "uniform over the legal options of every decision"),
    ("brawler", DRAGON_ONLY, brawler2_choice, (BRAWLER2, BRAWLER2_DEFAULTS, BRAWLER2_BOUNDS),
     "aggressive dragon: closes on the weakest dwarf, claws and breathes fire whenever it can, but "
     "walks or flies out of a crowd of two or more dwarves"),
    ("brawler_v1", DRAGON_ONLY, brawler_choice, (BRAWLER, BRAWLER_DEFAULTS, BRAWLER_BOUNDS),
     "the first brawler: closes in and stays among the dwarves (kept for comparison)"),
    ("kiter", DRAGON_ONLY, kiter_choice, (KITER, KITER_DEFAULTS, KITER_BOUNDS),
     "stalling dragon: keeps away from dwarves and the archer's lines, escapes nets, blocks "
     "everything and lets the dwarves' deck run out"),
    ("rush", DWARVES_ONLY, rush_choice, (RUSH, RUSH_DEFAULTS, RUSH_BOUNDS),
     "all three dwarves charge and attack whenever they can; Fury as soon as one is adjacent"),
    ("coordinated", DWARVES_ONLY, coordinated_choice,
     (COORDINATED2, COORDINATED2_DEFAULTS, COORDINATED2_BOUNDS),
     "net when another action can use it, fighters wait two hexes off then close in on a netted "
     "dragon, a full hand, attacks first, Fury with one dwarf adjacent, the archer holds a line"),
    ("coordinated_v1", DWARVES_ONLY, coordinated_v1_choice,
     (COORDINATED, COORDINATED_DEFAULTS, COORDINATED_BOUNDS),
     "the first coordinated dwarves: nets at any time (often as a turn's last action), a hand of "
     "four, Fury only with two dwarves adjacent (kept for comparison)"),
    ("aggressive", BOTH, aggressive_choice,
     (_prefixed("brawler", BRAWLER2) + _prefixed("rush", RUSH), BRAWLER2_DEFAULTS + RUSH_DEFAULTS,
      BRAWLER2_BOUNDS + RUSH_BOUNDS),
     "brawler as the dragon, rush as the dwarves (for match play)"),
    ("aggressive_v1", BOTH, aggressive_v1_choice,
     (_prefixed("brawler", BRAWLER) + _prefixed("rush", RUSH), BRAWLER_DEFAULTS + RUSH_DEFAULTS,
      BRAWLER_BOUNDS + RUSH_BOUNDS),
     "brawler_v1 as the dragon, rush as the dwarves (kept for comparison)"),
    ("patient", BOTH, patient_choice,
     (_prefixed("kiter", KITER) + _prefixed("coordinated", COORDINATED2),
      KITER_DEFAULTS + COORDINATED2_DEFAULTS, KITER_BOUNDS + COORDINATED2_BOUNDS),
     "kiter as the dragon, coordinated as the dwarves (for match play)"),
    ("search", BOTH, search_choice, (SEARCH, SEARCH_DEFAULTS, ()),
     "plays each option of a decision on to the end of the game (budget: playouts per decision, spread over "
     "the options by sequential halving) with the hidden cards dealt afresh each time, and keeps the one that "
     "wins most; brawler and coordinated play out both sides, or with informed=1 the other side plays as it "
     "really does in this line-up"),
    ("patient_v1", BOTH, patient_v1_choice,
     (_prefixed("kiter", KITER) + _prefixed("coordinated", COORDINATED),
      KITER_DEFAULTS + COORDINATED_DEFAULTS, KITER_BOUNDS + COORDINATED_BOUNDS),
     "kiter as the dragon, coordinated_v1 as the dwarves (kept for comparison)"),
)

REGISTRY = StrategyRegistry("drako")
for name, roles, fn, (names, defaults, bounds), description in STRATEGIES:
    REGISTRY.register(Strategy(name, roles, (fn, fn, fn, fn), description, names, defaults, bounds))
