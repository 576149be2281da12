"""`dsim equilibrium`: what the game gives when both sides play their best.

Empirical game-theoretic analysis with a double oracle. Start from every built-in strategy per side (each
deck too, with `decks`), measure the payoff table on common random numbers (`sim.analysis.payoffs`), solve it
(two sides: maximin by linear programming; three or more seats: a symmetric equilibrium), then ask each side
for a best response to the current solution: differential evolution over the weights of the strategies the
side plays, trained on its own seeds against the other side's mixture. A best response joins the table only
if, measured on the table's seeds (which the search never saw), it gains more than the tolerance; the study
ends when no side's best response does, or after `rounds`. The final table is then played again on fresh seeds
(no selection bias) and intervals come from a paired bootstrap over those games, re-solving each resample.
docs/EQUILIBRIUM.md says which solver applies and why.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from math import factorial, prod
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize as opt

from sim.analysis.gametheory import (BootstrapResult, SymmetricGame, bootstrap_solution, distinct_equilibria,
                                     side_exploitability, solve_symmetric, solve_zero_sum, strategy_payoffs)
from sim.analysis.gametheory._util import Interval
from sim.analysis.intervals import half_width
from sim.analysis.payoffs import (Budget, Candidate, Player, SymmetricTable, TwoSidedTable, candidates, narrow,
                                  seat_scores, seatings)
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.spec import RunSpec

SUPPORT = 0.01       # a strategy with less weight is not searched around nor played against in a search


@dataclass(frozen=True)
class Search:
    """The best-response search: differential evolution generations and population (scipy's popsize, a multiple
    of the number of weights) of the screening run from every strategy family, generations of the refining run
    from the best family's answer, games per opponent line-up per evaluation, oracle rounds and the tolerance."""

    iters: int = 3
    popsize: int = 2
    refine: int = 12
    games: int = 1_000
    rounds: int = 4
    tol: float = 0.01
    check_games: int = 400       # games of the search player's fresh check per side, and of its cells (0: none)
    search_joins: bool = True    # two sides: the search player joins a side whose fresh check it gains on


@dataclass(frozen=True)
class Round:
    """One oracle round: the table's size and value, each side's best response and its gain on the table's seeds."""

    size: tuple[int, ...]
    value: float
    found: dict[str, str]           # side -> label of the best response found
    gain: dict[str, float]          # side -> its gain against the solution, measured on the table's seeds
    added: list[str]
    searched: dict[str, Interval] = field(default_factory=dict)   # side -> the search player's fresh gain


@dataclass
class Study:
    """An equilibrium study's result. `kind` is "two-sided" or "symmetric"."""

    game: Game
    base: RunSpec
    kind: str
    sides: tuple[str, ...]
    options: dict[str, list[Candidate]]          # side -> its candidates (for symmetric: one list, every seat)
    means: np.ndarray                            # two-sided: row side's score table; symmetric: (lineups, k)
    weights: dict[str, np.ndarray]               # side -> equilibrium mixture
    value: Interval                              # row side's score at equilibrium; symmetric: seat 0's share
    default: Interval                            # the same figure with the default strategies
    exploit: dict[str, Interval]                 # default's exploitability per side
    weight_intervals: dict[str, Interval]
    rounds: list[Round]
    converged: bool
    games: int
    seconds: float
    search: Search
    budget: Budget
    lineups: list[tuple[int, ...]] = field(default_factory=list)
    counts_games: np.ndarray | None = None       # games behind each cell
    fresh: dict[str, Interval] = field(default_factory=dict)   # side -> a fresh best response's gain, fresh seeds
    search_fresh: dict[str, Interval] = field(default_factory=dict)   # side -> the informed search player's gain
    tuned: dict[str, set] = field(default_factory=dict)   # side -> the (strategy, deck) families a search tuned
    # symmetric: role -> (that seat's share at equilibrium, its regret: what it alone gains by deviating)
    seats: dict[str, tuple[Interval, Interval]] = field(default_factory=dict)
    solver: str = ""                             # how the point solution was found
    equilibria: list[np.ndarray] = field(default_factory=list)   # symmetric: the distinct equilibria found

    def untuned_decks(self, side: str) -> list[str]:
        """The decks no best-response search tuned any strategy with: nothing is known of them at tuned weights."""
        decks = dict.fromkeys(c.deck for c in self.options[side] if c.deck is not None)
        tuned = {deck for _, deck in self.tuned.get(side, set())}
        return [d for d in decks if d not in tuned]

    def bracket(self) -> Interval:
        """Where the game's value lies once non-convergence counts: the table's value interval widened by what a
        fresh best response still gains (its interval's upper end, when above 0). Two sides: the row side's gain
        raises the upper end, the column side's lowers the lower end (the double oracle's bracket). Seats: one
        seat's gain by deviating, either way. Without fresh checks, the value interval alone."""
        def gain(side):
            gains = [g.hi for g in (self.fresh.get(side), self.search_fresh.get(side)) if g is not None]
            return max([0.0, *gains])
        if self.kind == "two-sided":
            up, down = gain(self.sides[0]), gain(self.sides[1])
        else:
            up = down = gain("every seat")
        v = self.value
        return Interval(v.value, max(0.0, v.lo - down), min(1.0, v.hi + up))

    def fresh_converged(self) -> bool:
        """No fresh best response (nor the search player) gains more than the tolerance beyond doubt (its interval's
        lower end above it)."""
        return all(g.lo <= self.search.tol for g in [*self.fresh.values(), *self.search_fresh.values()])

    def lineups_played(self, rest: dict, floor: float = 1e-3) -> list[tuple[dict, float]]:
        """The line-ups the equilibrium plays, with their probabilities (decks are not carried)."""
        return _mixture_lineups(self, rest, floor)

    def mixture_words(self) -> str:
        parts = []
        for side, options in self.options.items():
            w = self.weights[side]
            parts.append(f"{side} " + ", ".join(f"{options[i].label()} {100 * w[i]:.0f}%" for i in np.argsort(-w)
                                                 if w[i] >= 0.005))
        return "; ".join(parts)


def _mixture_lineups(s: "Study", rest: dict, floor: float) -> list[tuple[dict, float]]:
    """Two sides: every pair of strategies with probability ≥ floor; seats: every seating of a line-up drawn from
    the mixture (its distinct seatings share its probability). Probabilities renormalised over what is kept."""
    out = []
    if s.kind == "two-sided":
        (a, b), (x, y) = (s.options[r] for r in s.sides), (s.weights[r] for r in s.sides)
        for i, j in itertools.product(range(len(a)), range(len(b))):
            if x[i] * y[j] >= floor:
                out.append((rest | {s.sides[0]: a[i].seat(), s.sides[1]: b[j].seat()}, x[i] * y[j]))
    else:
        options, x = s.options["every seat"], s.weights["every seat"]
        n = len(s.sides)
        for lu in itertools.combinations_with_replacement(range(len(options)), n):
            p = _multinomial(np.bincount(lu, minlength=len(x)), x, n)
            if p >= floor:
                ways = seatings(lu)
                out += [(rest | {r: options[o].seat() for r, o in zip(s.sides, seating)}, p / len(ways))
                        for seating in ways]
    total = sum(w for _, w in out)
    return [(lineup, w / total) for lineup, w in out]


def default_index(options: list[Candidate], seat) -> int:
    """The candidate that is the run's default for a side (its strategy at the given weights), added if absent."""
    for i, c in enumerate(options):
        if c.strategy is seat.strategy and np.array_equal(c.params, seat.params) and c.deck is None:
            return i
    decked = any(c.deck is not None for c in options)
    options.append(Candidate(seat.strategy, seat.params.copy(), None, "the default",
                             f"{seat.label()} (the rules' deck)" if decked else ""))
    return len(options) - 1


def sides_of(game: Game, players: int) -> tuple[str, ...]:
    roles = game.active_roles(players)
    if len(roles) < 2:
        more = [p for p in range(game.min_players, game.max_players + 1) if len(game.active_roles(p)) > 1]
        works = f"; try --players {more[0]}" if more else ""
        raise DsimError(f"an equilibrium needs at least two players or sides; {game.name.capitalize()} with "
                        f"{players} player{'s' * (players != 1)} has one{works}")
    return roles


def search_player(game: Game, with_search: bool, budget: int | None) -> bool | dict[str, float]:
    """What `equilibrium(with_search=)` takes: False, True (the search player at its defaults) or its budget."""
    if budget is None:
        return with_search
    if not with_search:
        raise DsimError("--search-budget is for --with-search")
    if "budget" not in game.strategies.get("search").param_names:
        raise DsimError(f"{game.name}'s search player has no budget to set")
    if not 1 <= budget <= 10_000:
        raise DsimError(f"--search-budget is out of range: {budget}")
    return {"budget": float(budget)}


def equilibrium(game: Game, base: RunSpec, budget: Budget, search: Search = Search(), jobs: int = 1,
                decks: list[str] | None = None, boot: int = 200, with_search: bool | dict[str, float] = False,
                start: dict[str, list[Candidate]] | None = None) -> Study:
    """Measure, solve, grow with best responses, bootstrap. Two roles: two-sided; more seats: symmetric. The
    game's search player joins each side's strategies from the start only `with_search` (True, or its parameters
    by name). `start` adds candidates per side (another study's best responses: a warm start)."""
    began = time.perf_counter()
    roles = sides_of(game, base.players)
    if decks and not game.deck_rules:
        raise DsimError(f"{game.name} has no decks to choose")
    player = Player(game, base.rules, base.players, base.seed, base.plugins, jobs, dict(base.lineup))
    run = _two_sided if len(roles) == 2 else _symmetric
    study = run(game, base, roles, budget, search, player, decks, boot, with_search, start or {})
    study.games = player.games_played
    study.seconds = time.perf_counter() - began
    return study


def standard_study(game: Game, base: RunSpec, jobs: int = 1, search: Search = Search()) -> Study | None:
    """The study `dsim equilibrium` runs by default (1-point cells and tolerance; `search`: its best-response
    search), or None when the game has one side at this player count, for callers that add it beside other figures
    (the skill ladder's top rung)."""
    if len(game.active_roles(base.players)) < 2:
        return None
    return equilibrium(game, base, Budget(0.01, 2_000, 200_000), search, jobs)


def grow(table, solve, oracle_round, player: Player, budget: Budget, search: Search) -> tuple[list[Round], bool]:
    """The double oracle: measure the table, solve it, let `oracle_round` add best responses, until a round adds
    none (converged) or `search.rounds` rounds have run. The table holds what was kept."""
    rounds = []
    for r in range(search.rounds):
        table.fill(player, budget, slow_budget(search, budget))
        rounds.append(oracle_round(table, solve(), player, budget, search, r))
        if not rounds[-1].added:
            return rounds, True
    table.fill(player, budget, slow_budget(search, budget))
    return rounds, False


def slow_budget(search: Search, budget: Budget) -> Budget:
    """What a cell or a check where the search player plays gets: one chunk of `check_games` games (a thousand
    times a heuristic's cost each), the first games of the others' first chunk, so they pair with them."""
    n = min(budget.chunk, search.check_games or budget.chunk)
    return Budget(budget.precision, n, n)


def warm_start(study: Study) -> dict[str, list[Candidate]]:
    """What a study found beyond the built-in strategies (best responses, the search player), per side: where
    another study of nearby rules may start."""
    return {side: [c for c in options if c.origin != "built-in"] for side, options in study.options.items()}


def with_start(game: Game, rules, options: list[Candidate], more: list[Candidate]) -> list[Candidate]:
    """The options, and each of `more` that is not among them and can play under the rules."""
    decks = set(game.decks(rules)) if game.deck_rules else set()
    for c in more:
        if (all(c.key() != o.key() for o in options) and game.can_play(rules, c.strategy)
                and (c.deck is None or c.deck in decks)):
            options.append(c)
    return options


# -- two sides -----------------------------------------------------------------------------------------------

def _two_sided(game, base, roles, budget, search, player, decks, boot, with_search, start) -> Study:
    rows, cols = (with_start(game, base.rules, candidates(game, r, decks, base.rules, with_search), start.get(r, []))
                  for r in roles)
    d_row, d_col = default_index(rows, base.lineup[roles[0]]), default_index(cols, base.lineup[roles[1]])
    table = TwoSidedTable((roles[0], roles[1]), rows, cols)
    rounds, converged = grow(table, lambda: solve_zero_sum(table.means()), _oracle_round, player, budget, search)
    table = replayed(table, rounds, player, budget, search)
    A = table.means()

    def extra(s, t):
        return {roles[0]: side_exploitability(t, _pure(d_row, t.shape[0]), "row", s.value),
                roles[1]: side_exploitability(t, _pure(d_col, t.shape[1]), "col", s.value),
                "default": float(t[d_row, d_col])}

    b = bootstrap_solution(table.samples(), solve_zero_sum, B=boot, rng=base.seed, paired=True, extra=extra)
    sol = b.solution
    fresh, searched = {}, {}
    for k, (mine, theirs, own, other) in enumerate(((rows, cols, sol.row, sol.col), (cols, rows, sol.col, sol.row))):
        plan = two_sided_plan(roles, k, theirs, other)
        gain = fresh_gain(player, search, budget, plan, mine, own)
        if gain is not None:
            fresh[roles[k]] = gain
        gain = search_gain(game, roles[k], player, search, plan, mine, own)
        if gain is not None:
            searched[roles[k]] = gain
    return Study(game, base, "two-sided", roles, {roles[0]: rows, roles[1]: cols}, A,
                 {roles[0]: sol.row, roles[1]: sol.col}, b.value, b.extra["default"],
                 {r: b.extra[r] for r in roles}, {roles[0]: b.weights["row"], roles[1]: b.weights["col"]},
                 rounds, converged, 0, 0.0, search, budget, counts_games=table.games(), fresh=fresh,
                 search_fresh=searched, tuned={roles[0]: player.tuned.get(id(rows), set()),
                                               roles[1]: player.tuned.get(id(cols), set())})


REPLAY = 2_750_159   # seed offset of the final table's replay: neither the table's, training nor fresh-check seeds


def replayed(table, rounds: list[Round], player: Player, budget: Budget, search: Search):
    """The final table's candidates played again on fresh seeds, to solve and bootstrap. A best response was kept
    because it gained on the table's seeds, where a lucky candidate looks better than it is: solving on those same
    games would carry that selection into the value. When no round kept one, nothing was selected on those seeds,
    and `table` is returned as it is (a search player's table costs as much again to replay)."""
    if not any(r.added for r in rounds):
        return table
    empty = dataclasses.replace(table, cells={})
    fresh = dataclasses.replace(player, seed=player.seed + REPLAY, games_played=0)
    empty.fill(fresh, budget, slow_budget(search, budget))
    player.games_played += fresh.games_played
    return empty


def _oracle_round(table: TwoSidedTable, sol, player: Player, budget: Budget, search: Search, r: int) -> Round:
    """Each side's best response to the solution, measured on the table's seeds; kept if it gains > tol. Then
    the search player, for a side that does not have it yet: it joins if, on fresh games against the solution,
    it gains more than the tolerance over the side's own mixture."""
    roles, sides = table.roles, (table.rows, table.cols)
    mixes = (sol.row, sol.col)
    plans = [two_sided_plan(roles, k, sides[1 - k], mixes[1 - k]) for k in (0, 1)]
    found = {k: best_response(player, search, heuristic_only(plans[k]), sides[k], mixes[k], r, search.games)
             for k in (0, 1)}
    searched = {k: search_gain(player.game, roles[k], player, search, plans[k], sides[k], mixes[k], r)
                for k in (0, 1) if search.search_joins and not any(c.searches() for c in sides[k])}
    new = {k: c for k, c in found.items() if c is not None and all(c.key() != o.key() for o in sides[k])}
    for k, c in new.items():
        sides[k].append(c)
    table.fill(player, budget, slow_budget(search, budget))
    A = table.means()
    gains = {}
    for k in new:          # row: its payoff against the column mixture above the value; column: the reverse
        gains[k] = (float(A[-1, :len(sol.col)] @ sol.col - sol.value) if k == 0
                    else float(sol.value - sol.row @ A[:len(sol.row), -1]))
    added = []
    for k in sorted(new, reverse=True):      # the column first, so the row's index is still the last one
        if gains[k] <= search.tol:
            _drop_last(table, k)
        else:
            added.append(roles[k])
    for k, g in searched.items():
        if g is not None and g.value > search.tol and g.lo > 0:
            sides[k].append(dataclasses.replace(
                informed_search(player.game, roles[k]), tag="search, informed",
                origin=f"the search player, playing out against the strategies it meets; joined in round {r + 1}"))
            added.append(f"{roles[k]}: the search player")
    table.fill(player, budget, slow_budget(search, budget))
    return Round((len(table.rows), len(table.cols)), sol.value,
                 {roles[k]: c.label() for k, c in found.items() if c is not None},
                 {roles[k]: gains.get(k, 0.0) for k, c in found.items() if c is not None}, added,
                 {roles[k]: g for k, g in searched.items() if g is not None})


def heuristic_only(plan):
    """A plan without the line-ups where an opponent is the search player (the others' weights scaled up): a
    weight search plays hundreds of candidates a thousand games each, which the search player's speed cannot
    pay for. What it finds is still admitted on the whole table, the search player's cells included."""
    def trimmed(me):
        kept = [(seats, w, role) for seats, w, role in plan(me)
                if not any(c.searches() for r, c in seats.items() if r != role)]
        total = sum(w for _, w, _ in kept)
        return [(seats, w / total, role) for seats, w, role in kept] if total > 0 else []
    return trimmed


def _pure(i: int, k: int) -> np.ndarray:
    x = np.zeros(k)
    x[i] = 1.0
    return x


def _drop_last(table: TwoSidedTable, side: int) -> None:
    """Take the last candidate of a side out of the table, with its cells."""
    if side == 0:
        i = len(table.rows) - 1
        table.rows.pop()
        table.cells = {k: v for k, v in table.cells.items() if k[0] != i}
    else:
        j = len(table.cols) - 1
        table.cols.pop()
        table.cells = {k: v for k, v in table.cells.items() if k[1] != j}


def two_sided_plan(roles, side: int, theirs: list[Candidate], their_mix):
    """What a candidate for `side` plays to be scored against the other side's mixture: one line-up per
    opposing strategy with weight ≥ SUPPORT, as (seats, weight, the scored role)."""
    opponents = [(theirs[j], w) for j, w in enumerate(their_mix) if w >= SUPPORT]
    total = sum(w for _, w in opponents)
    return lambda me: [(dict(zip(roles, (me, o) if side == 0 else (o, me))), w / total, roles[side])
                       for o, w in opponents]


def best_response(player: Player, search: Search, plan, mine: list[Candidate], own_mix, round_: int,
                  games: int) -> Candidate | None:
    """The best weights the side can find against what `plan` sets it to face, trained on seeds of their own:
    a short differential evolution from every strategy family it has (each strategy with weights, with each
    deck), started from the family's most-played member, then a longer one (`search.refine` generations) from the
    best family's answer. Every family, not only those the solution plays: a family the solution dropped at its
    default weights may be the best at others. None when no strategy of the side has weights."""
    scored = []
    for c in family_starts(mine, own_mix):
        if not plan(c):
            return None            # every opponent is the search player: no weight search against it
        player.tuned.setdefault(id(mine), set()).add((c.strategy.name, c.deck))
        theta, score = _evolve(player, search.iters, search.popsize, _lineups(plan, c), c, round_, games)
        scored.append((score, c, theta))
    if not scored:
        return None
    score, c, theta = max(scored, key=lambda t: t[0])
    if search.refine > 0:
        better, refined = _evolve(player, search.refine, search.popsize, _lineups(plan, c),
                                  dataclasses.replace(c, params=theta), round_, games)
        if refined > score:
            theta = better
    return _found(c, theta, round_)


def _lineups(plan, c: Candidate):
    return lambda theta: plan(dataclasses.replace(c, params=theta))


def family_starts(mine: list[Candidate], own_mix) -> list[Candidate]:
    """One start per strategy family (strategy and deck) with weights to search: the family's member the mixture
    plays most (the first listed among equals), families the mixture plays first."""
    best: dict[tuple, int] = {}
    for i, c in enumerate(mine):
        family = (c.strategy.name, c.deck)
        if c.strategy.bounds and not c.searches() and (family not in best or own_mix[i] > own_mix[best[family]]):
            best[family] = i
    return [mine[i] for i in sorted(best.values(), key=lambda i: -own_mix[i])]


FRESH = 1_000        # the fresh check's search uses the training seeds of this round, never used by the study


def support_of(mine: list[Candidate], mix) -> list[tuple[Candidate, float]]:
    """The strategies a mixture plays (weight ≥ SUPPORT), with their weights."""
    return [(mine[i], w) for i, w in enumerate(mix) if w >= SUPPORT]


def fresh_gain(player: Player, search: Search, budget: Budget, plan, mine: list[Candidate], mix,
               games: int | None = None) -> Interval | None:
    """A fresh best-response search against the solution, then the candidate and the side's own mixture played on
    the same fresh seeds (neither the table's nor any training seeds): the candidate's gain over the mixture,
    paired game by game, with a 95% interval. Interval(0, 0, 0) when the search found nothing but a strategy the
    mixture already plays alone; None when the side plays no strategy with weights."""
    cand = best_response(player, search, heuristic_only(plan), mine, mix, FRESH, games or search.games)
    if cand is None:
        return None
    support = support_of(mine, mix)
    if len(support) == 1 and support[0][0].key() == cand.key():
        return Interval(0.0, 0.0, 0.0)
    seed = player.seed + 104_729
    if any(c.searches() for seats, _, _ in plan(cand) for c in seats.values()):
        budget = slow_budget(search, budget)
    return paired_gain(player, plan, play_plan(player, plan(cand), seed, budget), support, seed, budget)


SEARCH_CHECK = 1_299_709   # seed offset of the search player's fresh check


def informed_search(game: Game, role: str) -> Candidate | None:
    """The game's search player, playing out against the strategies it meets (informed=1), if it has one for the
    role and can be told to."""
    if "search" not in game.strategies.items:
        return None
    s = game.strategies.get("search")
    if role not in s.roles or "informed" not in s.param_names:
        return None
    return Candidate(s, s.params({"informed": 1.0}), origin="the search player, playing out against the solution")


def search_gain(game: Game, role: str, player: Player, search: Search, plan, mine: list[Candidate], mix,
                round_: int | None = None) -> Interval | None:
    """The informed search player as a best response (its playouts meet the strategies of the other side's
    solution): its gain over the side's own mixture, both played on the same `search.check_games` fresh games.
    A stronger oracle than a weight search where the solution has a weakness no weight setting finds; a
    playout knows which strategy of a mixture it meets, so against a mixed solution it may overstate the gain
    slightly (docs/EQUILIBRIUM.md). Where the side's solution is the search player already, the check is the
    search player with `STRONGER` times its playouts (None if it has no budget to raise). None when the game has
    no informed search player or the check is off. An oracle round (`round_`) plays games of its own; the final
    check (None) others again."""
    cand = informed_search(game, role)
    if cand is None or search.check_games <= 0:
        return None
    if all(c.searches() for c, _ in support_of(mine, mix)):
        cand = stronger(cand)
        if cand is None:
            return None
    check = Budget(precision=0.0, chunk=search.check_games, cap=search.check_games)
    seed = player.seed + SEARCH_CHECK + (0 if round_ is None else 15_485_863 * (round_ + 1))
    x = play_plan(player, plan(cand), seed, check, games=search.check_games)
    return paired_gain(player, plan, x, support_of(mine, mix), seed, check)


STRONGER = 4        # a solution that is the search player is checked by the search player with 4 times its playouts


def stronger(search_player: Candidate) -> Candidate | None:
    """The search player with `STRONGER` times its playouts per decision, if it has a budget."""
    names = search_player.strategy.param_names
    if "budget" not in names:
        return None
    params = search_player.params.copy()
    params[names.index("budget")] *= STRONGER
    return dataclasses.replace(search_player, params=params, tag=f"search, informed, {STRONGER}x playouts")


def paired_gain(player: Player, plan, x: np.ndarray, support, seed: int, budget: Budget) -> Interval:
    """x (a candidate's per-game score) less the mixture `support` ((candidate, weight) pairs) played on the same
    games, with a 95% interval."""
    total = sum(w for _, w in support)
    d = x - sum(w / total * play_plan(player, plan(c), seed, budget, games=len(x)) for c, w in support)
    h = half_width("mean", len(d), float(d.sum()), float((d * d).sum()))
    g = float(d.mean())
    return Interval(g, g - h, g + h)


def play_plan(player: Player, plan, seed: int, budget: Budget, games: int | None = None) -> np.ndarray:
    """Per-game weighted score of a plan ((seats, weight, role) line-ups, all dealt alike), played chunk by
    chunk until within the budget's precision, or exactly `games` games (to pair with another plan's)."""
    parts, played = [], 0
    for chunk in range(budget.chunks()):
        n = min(budget.chunk, budget.cap - chunk * budget.chunk)
        if games is not None:
            n = min(n, games - played)
            if n <= 0:
                break
        results = player.play([player.task(seats, chunk, n, seed) for seats, _, _ in plan])
        parts.append(sum(w * r[role] for (_, w, role), r in zip(plan, results)))
        played += n
        x = np.concatenate(parts)
        if games is None and narrow(x, budget.precision):
            break
    return x


def _found(c: Candidate, theta: np.ndarray, round_: int) -> Candidate:
    return dataclasses.replace(c, params=theta, origin=f"best response to round {round_ + 1}'s solution",
                               tag=f"{c.strategy.name}, tuned in round {round_ + 1}")


def _evolve(player: Player, iters: int, popsize: int, lineups, start: Candidate, round_: int, games: int):
    """Differential evolution of one strategy's weights from `start`'s. `lineups(theta)` gives (seats, weight, the
    searched role) to play; every evaluation plays the same training seeds, and a whole generation is played in one
    batch (in parallel with --jobs)."""
    seed = player.seed + 7919 * (round_ + 1)           # training seeds: never the table's

    def scores(thetas):
        plan = [(k, w, seats, role) for k, theta in enumerate(thetas) for seats, w, role in lineups(theta)]
        tasks = [player.task(seats, 0, games, seed) for _, _, seats, _ in plan]
        out = np.zeros(len(thetas))
        for (k, w, _, role), result in zip(plan, player.play(tasks)):
            out[k] += w * float(result[role].mean())
        return out

    lo, hi = np.array(start.strategy.bounds, dtype=np.float64).T
    res = opt.differential_evolution(lambda t: -scores([t])[0], start.strategy.bounds, maxiter=iters,
                                     popsize=popsize, seed=seed, polish=False, tol=0, init="latinhypercube",
                                     x0=np.clip(start.params, lo, hi), updating="deferred",
                                     workers=lambda f, population: -scores(list(population)))
    return np.asarray(res.x, dtype=np.float64), -float(res.fun)


# -- symmetric seats -----------------------------------------------------------------------------------------

def _symmetric_round(table: SymmetricTable, sol, player: Player, budget: Budget, search: Search,
                     r: int) -> Round:
    """One seat's best response to everyone playing the solution, measured on the table's seeds."""
    options = table.options
    plan = symmetric_plan(table.roles, options, sol.x)
    cand = best_response(player, search, heuristic_only(plan), options, sol.x, r,
                         max(200, search.games // len(table.roles)))
    if cand is None or any(cand.key() == o.key() for o in options):
        return Round((len(options),), sol.value, {}, {}, [])
    options.append(cand)
    table.fill(player, budget, slow_budget(search, budget))
    gain = float(strategy_payoffs(SymmetricGame.from_hpt(*table.hpt()), np.append(sol.x, 0.0))[-1] - sol.value)
    added = []
    if gain <= search.tol:
        options.pop()
        table.cells = {lu: v for lu, v in table.cells.items() if len(options) not in lu}
    else:
        added.append("every seat")
    return Round((len(options),), sol.value, {"every seat": cand.label()}, {"every seat": gain}, added)


def _multinomial(counts: np.ndarray, x: np.ndarray, n: int) -> float:
    coef = factorial(n) / prod(factorial(int(c)) for c in counts)
    return float(coef * np.prod(np.asarray(x, dtype=np.float64) ** counts))


@dataclass
class SeatCells:
    """A symmetric table's cells as one flat list (the bootstrap's table): each line-up's per-game score of each
    seat with each option it holds. From a vector of their means it reads the game every seat plays (an
    option's payoff: its mean over the seats) and each seat's own game (that seat's payoffs alone)."""

    lineups: list[tuple[int, ...]]
    k: int
    n: int
    where: np.ndarray        # (cells, 3): the (line-up, seat, option) of each entry of the flat list
    counts: np.ndarray       # (line-ups, k): how many seats hold each option

    @classmethod
    def of(cls, table: SymmetricTable) -> tuple["SeatCells", np.ndarray]:
        lineups, n = list(table.cells), len(table.roles)
        where, samples = [], []
        for li, lu in enumerate(lineups):
            for s in range(n):
                for o, x in seat_scores(lu, table.cells[lu], s).items():
                    where.append((li, s, o))
                    samples.append(x)
        flat = np.empty(len(samples), dtype=object)
        flat[:] = samples
        counts = np.array([np.bincount(lu, minlength=len(table.options)) for lu in lineups])
        return cls(lineups, len(table.options), n, np.array(where, dtype=np.int64).reshape(-1, 3), counts), flat

    def payoffs(self, t: np.ndarray, seat: int | None = None) -> np.ndarray:
        """(line-ups, k) payoffs in full-profile form, NaN where an option is absent: one seat's, or (None) the
        mean over the seats."""
        pay = np.full((len(self.lineups), self.k, self.n), np.nan)
        pay[self.where[:, 0], self.where[:, 2], self.where[:, 1]] = t
        return pay.mean(axis=2) if seat is None else pay[:, :, seat]

    def game(self, t: np.ndarray, seat: int | None = None) -> SymmetricGame:
        return SymmetricGame.from_hpt(self.counts, self.payoffs(t, seat))


def seat_figures(cells: SeatCells, t: np.ndarray, x: np.ndarray) -> dict[str, float]:
    """Each seat's share when every seat plays x, and its regret: what that seat alone gains by switching to its
    best measured option while the others keep x."""
    out = {}
    for s in range(cells.n):
        u = strategy_payoffs(cells.game(t, s), x)
        out[f"share {s}"] = float(x @ u)
        out[f"regret {s}"] = float(u.max() - x @ u)
    return out


STARTS = 8           # random starts of the final solve, to find more than one equilibrium where there are


def _symmetric(game, base, roles, budget, search, player, decks, boot, with_search, start) -> Study:
    options = with_start(game, base.rules, candidates(game, roles[0], decks, base.rules, with_search),
                         start.get("every seat", []))
    d = default_index(options, base.lineup[roles[0]])
    if any(base.lineup[r].strategy is not base.lineup[roles[0]].strategy for r in roles):
        raise DsimError("a symmetric equilibrium starts from one default for every seat; give every seat the same "
                        "strategy (or none)")
    table = SymmetricTable(roles, options)
    rounds, converged = grow(table, lambda: solve_symmetric(SymmetricGame.from_hpt(*table.hpt())), _symmetric_round,
                             player, budget, search)
    table = replayed(table, rounds, player, budget, search)
    cells, samples = SeatCells.of(table)
    k, everyone_default = len(options), _pure(d, len(options))

    def extra(s, t):
        g = cells.game(t)
        u = strategy_payoffs(g, everyone_default)
        seats = seat_figures(cells, t, s.x)
        return {"seat0": seats["share 0"], "default": seat_figures(cells, t, everyone_default)["share 0"],
                "every seat": float(u.max() - u[d])} | seats

    b: BootstrapResult = bootstrap_solution(
        samples, lambda t: solve_symmetric(cells.game(t), methods=("regret_matching",)), B=boot, rng=base.seed,
        paired=True, extra=extra, point_solver=lambda t: solve_symmetric(cells.game(t), starts=STARTS,
                                                                         seed=base.seed))
    x = b.solution.x
    plan = symmetric_plan(roles, options, x)
    gain = fresh_gain(player, search, budget, plan, options, x, max(200, search.games // len(roles)))
    searched = search_gain(game, roles[0], player, search, plan, options, x)
    seats = {r: (b.extra[f"share {s}"], b.extra[f"regret {s}"]) for s, r in enumerate(roles)}
    found = distinct_equilibria(b.solution, max(search.tol / 10, 1e-6))
    return Study(game, base, "symmetric", roles, {"every seat": options}, cells.payoffs(b.table),
                 {"every seat": x}, b.extra["seat0"], b.extra["default"],
                 {"every seat": b.extra["every seat"]}, {"every seat": b.weights["x"]}, rounds, converged, 0, 0.0,
                 search, budget, cells.lineups, np.array([len(table.cells[lu]) for lu in cells.lineups]),
                 {} if gain is None else {"every seat": gain}, {} if searched is None else {"every seat": searched},
                 {"every seat": player.tuned.get(id(options), set())}, seats=seats,
                 solver=b.solution.method, equilibria=[f.x for f in found])


def symmetric_plan(roles, options: list[Candidate], x: np.ndarray):
    """What a deviating seat plays to be scored against every other seat playing x: it sits in each seat in
    turn, the others are line-ups drawn from x, each weighted by its probability (≥ 0.1%)."""
    n = len(roles)
    support = [i for i, w in enumerate(x) if w >= SUPPORT]
    opponents = [(combo, _multinomial(np.bincount(combo, minlength=len(x)), x, n - 1))
                 for combo in itertools.combinations_with_replacement(support, n - 1)]
    opponents = [(combo, p) for combo, p in opponents if p >= 1e-3]
    total = sum(p for _, p in opponents)

    def plan(me):
        out = []
        for combo, p in opponents:
            others = [options[o] for o in combo]
            for seat in range(n):
                out.append((dict(zip(roles, others[:seat] + [me] + others[seat:])), p / total / n, roles[seat]))
        return out
    return plan
