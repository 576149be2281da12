"""`dsim balance`: tune a game's content (card costs and stats) toward a designer's target, a few items at a
time, and say how close it got.

In the spirit of metagame autobalancing (Hernandez et al., IEEE CoG 2020: the designer states the target
win-rate graph, an optimiser changes the game's parameters, simulation measures each try). Here:
- the target is a file (`sim.analysis.targets`): measures of the outcomes, each with a band; the loss is the
  total distance outside the bands (points for scores and rates, the outcome's unit for a quantile);
- the content is what the game exposes through `Game.content` (items, fields, hard limits); the target file
  says which fields may change and by how much at most;
- every pool tried plays the same games: each deck pairing (both seat orders) on the same chunk seeds (common
  random numbers), so two pools differ only by what the changes did;
- a step measures single changes: the items of the decks furthest from the field band, moved the way that
  helps their deck (a weak deck's cards made cheaper or stronger), most copies first; each is played, the
  ones that lower the loss are combined (at most `cards_per_step` items) and the combination is kept if it
  lowers the loss again, else the best single change. The search stops after `steps` steps or when no change
  tried lowers the loss.
The first and the last pool are then replayed on fresh seeds, paired, for the intervals the report shows
(`sim.report.autobalance`), and the last is written as a new named content file.
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals import Interval, clustered_mean, clustered_quantile, clustered_rate_of
from sim.analysis.intervals_paired import paired_change
from sim.analysis.payoffs import with_decks
from sim.analysis.targets import Goal, Target, read_goal
from sim.engine.errors import DsimError
from sim.engine import seeding
from sim.engine.game import Game, Rules, Tunable
from sim.engine.runner import play_chunk, play_tasks
from sim.engine.spec import RunSpec, check_jobs

FRESH = 7_919          # the verification plays seed + FRESH: other chunk seeds than the search's

Changes = dict[tuple[str, str], int]


@dataclass(frozen=True)
class Entry:
    """One figure a target judges: the target, what it is of ("ember", "ember vs tide", "" for the whole
    field), and its per-game values (NaN where it does not apply), in the same game order for every pool.
    `deals` is each value's game number within its pairing: every pairing plays from one seed (common random
    numbers), so game i of two pairings is dealt alike and a figure pooling pairings is clustered by deal."""

    target: Target
    label: str
    values: np.ndarray
    deals: np.ndarray

    def value(self) -> float:
        x = self.values[~np.isnan(self.values)]
        if not len(x):
            return float("nan")
        return float(np.quantile(x, self.target.q, method="inverted_cdf")) if self.target.measure == "quantile" \
            else float(x.mean())

    def interval(self) -> Interval:
        if self.target.measure == "quantile":
            return clustered_quantile(self.values, self.deals, self.target.q)
        keep = ~np.isnan(self.values)
        x, deals = self.values[keep], self.deals[keep]
        return clustered_rate_of(x, deals) if self.target.measure == "rate" else clustered_mean(x, deals)


@dataclass
class Measured:
    entries: list[Entry]

    def loss(self) -> float:
        return float(sum(e.target.miss(e.value()) for e in self.entries))

    def deck_scores(self) -> dict[str, float]:
        return {e.label: e.value() for e in self.entries if e.target.measure == "field"}


@dataclass
class Bench:
    """Plays a pool's games: every ordered pair of decks (or the rules' own pairing), n games each, on chunk
    seeds from one root seed."""

    game: Game
    spec: RunSpec
    goal: Goal
    decks: tuple[str, ...]
    jobs: int = 1
    games_played: int = 0

    def cells(self) -> list[tuple[str, str] | None]:
        if not self.goal.decked() and not self.goal.decks:
            return [None]
        return [(a, b) for a in self.decks for b in self.decks if a != b]

    def play(self, rules: Rules, n: int, seed: int) -> list[pl.DataFrame]:
        """Each cell's games table, in `cells()` order."""
        roles = list(self.game.deck_rules)
        cells = [rules if cell is None else with_decks(self.game, rules, dict(zip(roles, cell)))
                 for cell in self.cells()]
        self.games_played += n * len(cells)
        return play_cells(self.game, self.spec, cells, n, seed, self.jobs)

    def measure(self, rules: Rules, n: int, seed: int) -> Measured:
        return Measured(entries(self.game, self.goal, self.spec.players, self.cells(), self.play(rules, n, seed)))


def play_cells(game: Game, spec: RunSpec, cells: list[Rules], n: int, seed: int, jobs: int = 1
               ) -> list[pl.DataFrame]:
    """Each rules' games table, n games each from the same root seed (common random numbers), chunked and seeded
    as the runner does. A cell of a few thousand games is one chunk: parallel over cells, not within one."""
    size = spec.size()
    tasks = [(game.module, r, spec.players, spec.lineup_spec(), spec.plugins, seed, c, cn, c * size)
             for r in cells for c, cn in seeding.chunks(n, size)]
    parts = [p["games"] for p in play_tasks(play_chunk, tasks, jobs)]
    per = len(tasks) // len(cells)
    return [pl.concat([pl.DataFrame(p) for p in parts[k * per:(k + 1) * per]]) for k in range(len(cells))]


def cell_deals(sizes: list[int]) -> list[np.ndarray]:
    """Each cell's games' deals, for cells `play_cells` played with these numbers of games: every cell plays game
    i from the same seed, so game i is deal i in all of them."""
    return [np.arange(n) for n in sizes]


def entries(game: Game, goal: Goal, players: int, cells: list, tables: list[pl.DataFrame]) -> list[Entry]:
    """Every figure the targets judge, from each cell's games."""
    roles = game.active_roles(players)
    seat0 = [game.role_scores(t, players)[roles[0]] for t in tables]
    everything = pl.concat(tables)
    deals = cell_deals([t.height for t in tables])
    outcomes = {o.name: o for o in game.outcomes()}
    out = []
    decks = list(dict.fromkeys(d for c in cells if c for d in c))      # in order of first appearance
    for t in goal.targets:
        if t.measure == "field":
            for d in decks:
                out.append(Entry(t, d, *_score(cells, seat0, deals, d, None)))
        elif t.measure == "matchup":
            for i, a in enumerate(decks):
                for b in decks[i + 1:]:
                    out.append(Entry(t, f"{a} vs {b}", *_score(cells, seat0, deals, a, b)))
        else:
            x = outcomes[t.outcome].values(everything)
            if t.among:
                given = outcomes[t.among.removeprefix("not ")].values(everything)
                x = np.where(given == (0.0 if t.among.startswith("not ") else 1.0), x, np.nan)
            out.append(Entry(t, "", x, np.concatenate(deals)))
    return out


def _score(cells: list, seat0: list[np.ndarray], deals: list[np.ndarray], deck: str, against: str | None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Deck's per-game score in every cell it plays (against one deck, or any), both seats, in cell order; and
    each game's deal."""
    parts, dealt = [], []
    for (a, b), s, d in zip(cells, seat0, deals):
        if a == deck and against in (None, b):
            parts.append(s)
        elif b == deck and against in (None, a):
            parts.append(1.0 - s)
        else:
            continue
        dealt.append(d)
    return np.concatenate(parts), np.concatenate(dealt)


@dataclass(frozen=True)
class Step:
    changes: Changes             # what this step changed (item, field) -> new value
    loss_before: float
    loss_after: float
    tried: int                   # single changes played


def inside(target: Target, e: Interval) -> bool:
    """The whole 95% interval lies in the band (a point estimate inside with an interval across the edge is
    "unsettled", not inside)."""
    return target.inside(e.lo) and target.inside(e.hi)


def verdict(target: Target, e: Interval) -> str:
    """"inside", "outside" (the whole interval out of the band) or "unsettled" (more games would decide)."""
    if inside(target, e):
        return "inside"
    out = (target.low is not None and e.hi < target.low) or (target.high is not None and e.lo > target.high)
    return "outside" if out else "unsettled"


@dataclass(frozen=True)
class Row:
    """One figure before and after, on the fresh seeds (paired)."""

    target: Target
    label: str
    before: Interval
    after: Interval
    change: Interval | None

    def inside(self, which: str = "after") -> bool:
        return inside(self.target, getattr(self, which))

    def verdict(self, which: str = "after") -> str:
        return verdict(self.target, getattr(self, which))


@dataclass
class Balanced:
    game: Game
    spec: RunSpec
    goal: Goal
    start: dict[tuple[str, str], int]        # the starting value of every field changed
    changes: Changes
    steps: list[Step]
    rows: list[Row]
    loss_before: float                       # on the fresh seeds
    loss_after: float
    n: int
    verify_n: int
    cells: int
    games_played: int
    written: Path
    stopped: str

    def table(self) -> pl.DataFrame:
        return pl.DataFrame([{"target": r.target.name, "of": r.label, "band": r.target.band(),
                              "before": r.before.value, "after": r.after.value,
                              "change": r.change.value if r.change else None,
                              "inside_before": r.inside("before"), "inside_after": r.inside()} for r in self.rows])


def tunable_fields(game: Game, rules: Rules) -> set[str]:
    return {t.field for t in game.content(rules)}


def setup(game: Game, spec: RunSpec, target: Path, strategy: str | None, jobs: int) -> tuple[RunSpec, Bench]:
    """The spec with the players the target file (or `strategy`) names, and the bench that plays its pairings."""
    check_jobs(jobs)
    content = game.content(spec.rules)
    decks = game.decks(spec.rules) if game.deck_rules else []
    goal = read_goal(Path(target), game, decks, {t.field for t in content})
    spec = dataclasses.replace(spec, lineup=game.lineup(strategy or goal.strategy, spec.rules))
    return spec, Bench(game, spec, goal, goal.decks, jobs)


@dataclass
class Checked:
    """A pool measured against the target as it is (`dsim balance --check`): each figure with its interval."""

    game: Game
    spec: RunSpec
    goal: Goal
    entries: list[Entry]
    cells: int
    games_played: int

    def figures(self) -> list[tuple[Entry, Interval]]:
        return [(e, e.interval()) for e in self.entries]

    def loss(self) -> float:
        return float(sum(e.target.miss(e.value()) for e in self.entries))


def check(game: Game, spec: RunSpec, target: Path, jobs: int = 1, strategy: str | None = None) -> Checked:
    """Play the rules' pool as it is on every pairing the target names, `spec.n` games each, and measure every
    figure the target judges (no change, nothing written but the report)."""
    spec, bench = setup(game, spec, target, strategy, jobs)
    measured = bench.measure(spec.rules, spec.n, spec.seed)
    return Checked(game, spec, bench.goal, measured.entries, len(bench.cells()), bench.games_played)


def balance(game: Game, spec: RunSpec, target: Path, pool_out: str, steps: int, jobs: int = 1,
            verify_n: int | None = None, strategy: str | None = None) -> Balanced:
    """Tune the content of `spec.rules` toward the target file; write the result as the named content file
    `pool_out` (never over an existing one). The players are `strategy`, else the target file's, else the
    game's defaults."""
    spec, bench = setup(game, spec, target, strategy, jobs)
    goal, content = bench.goal, game.content(spec.rules)
    out = game.content_file(pool_out)
    if out.exists():
        raise DsimError(f"{out} exists: choose another --pool-out name (a pool is never written over)")
    if steps < 0:
        raise DsimError(f"--steps must be 0 or more, got {steps}")
    with tempfile.TemporaryDirectory(prefix="dsim-balance-") as scratch:
        search = Search(bench, content, Path(scratch))
        stopped = search.run(steps)
        changes = search.changes
        start = {k: search.original[k] for k in changes}
        verify_n = verify_n or 2 * spec.n
        fresh = spec.seed + FRESH
        before = bench.measure(spec.rules, verify_n, fresh)
        after = bench.measure(search.rules_for(changes), verify_n, fresh)
    header = pool_header(game, spec, goal, pool_out, start, changes, before.loss(), after.loss())
    if out.exists():
        raise DsimError(f"{out} appeared while tuning: not written over")
    game.with_content(spec.rules, changes, out, header)
    rows = [Row(b.target, b.label, b.interval(), a.interval(), _change(b, a))
            for b, a in zip(before.entries, after.entries)]
    return Balanced(game, spec, goal, start, changes, search.steps, rows, before.loss(), after.loss(), spec.n,
                    verify_n, len(bench.cells()), bench.games_played, out, stopped)


def _change(b: Entry, a: Entry) -> Interval | None:
    """The paired change of a mean or rate (same games in both pools); none for a quantile."""
    if b.target.measure == "quantile":
        return None
    return paired_change(b.values, a.values, deal=b.deals).diff


def pool_header(game: Game, spec: RunSpec, goal: Goal, name: str, start: dict, changes: Changes,
                before: float, after: float) -> tuple[str, ...]:
    source = ", ".join(spec.rules.ruleset.data_files) or "the rules' own content"
    lines = [f"{name}: tuned by `dsim balance` from {source} toward {goal.path.name} ({goal.title}),",
             f"seed {spec.seed}, {spec.n:,} games per deck pairing; loss (distance outside the bands, fresh "
             f"seeds) {before:.1f} -> {after:.1f}.",
             f"Changes ({len(changes)}):" if changes else "No change lowered the loss: the pool is unchanged."]
    lines += [f"  {item}: {fld} {start[(item, fld)]} -> {v}" for (item, fld), v in sorted(changes.items())]
    return tuple(lines)


@dataclass
class Search:
    """The greedy coordinate search on the search seeds."""

    bench: Bench
    content: list[Tunable]
    scratch: Path
    changes: Changes = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    files: int = 0

    def __post_init__(self):
        self.original = {(t.item, t.field): t.value for t in self.content}
        self.items = {(t.item, t.field): t for t in self.content}

    def rules_for(self, changes: Changes) -> Rules:
        """The rules playing the starting content with `changes` (a fresh file each time: caches key on paths)."""
        base = self.bench.spec.rules
        if not changes:
            return base
        self.files += 1
        return self.bench.game.with_content(base, changes, self.scratch / f"try{self.files}.toml")

    def measure(self, changes: Changes) -> Measured:
        spec = self.bench.spec
        return self.bench.measure(self.rules_for(changes), spec.n, spec.seed)

    def run(self, steps: int) -> str:
        now = self.measure({})
        for _ in range(steps):
            moves = self.moves(now)
            if not moves:
                return "no field may change further within the bounds"
            tried = [(self.measure({**self.changes, **m}), m) for m in moves]
            better = sorted((m.loss(), k) for k, (m, _) in enumerate(tried) if m.loss() < now.loss())
            if not better:
                return f"none of the {len(moves)} changes tried lowers the loss"
            best_loss, best = better[0]
            chosen, items = {}, set()
            for _, k in better:
                (item, fld), = tried[k][1]
                if item not in items and len(items) < self.bench.goal.cards_per_step:
                    chosen |= tried[k][1]
                    items.add(item)
            pick, measured = tried[best][1], tried[best][0]
            if len(chosen) > 1:
                combined = self.measure({**self.changes, **chosen})
                if combined.loss() < best_loss:
                    pick, measured = chosen, combined
            self.steps.append(Step(pick, now.loss(), measured.loss(), len(moves)))
            self.changes = self._merged(pick)
            now = measured
            if now.loss() == 0:
                return "every target is met on the search seeds"
        return f"the {steps} step{'s' if steps != 1 else ''} allowed {'were' if steps != 1 else 'was'} used"

    def _merged(self, pick: Changes) -> Changes:
        """The changes so far with `pick`, dropping any field back at its starting value."""
        merged = {**self.changes, **pick}
        return {k: v for k, v in merged.items() if v != self.original[k]}

    def moves(self, now: Measured) -> list[Changes]:
        """Single changes worth trying: each tunable field of the bounds moved one unit the way that helps
        its decks (strengthen a deck below the field band, weaken one above), ranked by how far its decks
        miss and how many copies they hold. Without field scores, both ways, most copies first."""
        scores = now.deck_scores()
        field_target = next((e.target for e in now.entries if e.target.measure == "field"), None)
        bounds = self.bench.goal.bounds
        ranked = []
        for key, t in self.items.items():
            if t.field not in bounds:
                continue
            if scores:
                pull = sum(_pull(field_target, scores.get(d, float("nan"))) for d in t.decks)
                ways = [(1 if pull > 0 else -1, abs(pull))] if pull else []
            else:
                ways = [(1, 1.0), (-1, 1.0)]
            for way, weight in ways:
                value = self.changes.get(key, t.value) + way * t.stronger
                if abs(value - self.original[key]) <= bounds[t.field] and t.low <= value <= t.high:
                    ranked.append((-weight * t.copies, len(ranked), {key: value}))
        ranked.sort(key=lambda r: r[:2])
        return [r[2] for r in ranked[:self.bench.goal.candidates]]


def _pull(target: Target | None, score: float) -> float:
    """How much a deck needs strengthening (> 0) or weakening (< 0): its distance outside the field band, or,
    inside it, a small pull toward the band's middle."""
    if target is None or not np.isfinite(score):
        return 0.0
    low = target.low if target.low is not None else 0.0
    high = target.high if target.high is not None else 1.0
    if score < low:
        return low - score
    if score > high:
        return high - score
    return 0.01 * ((low + high) / 2 - score)
