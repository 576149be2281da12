"""`dsim tune`: find the rule setting that puts outcomes on a target ("how many wound spaces give the dragon 50%?").

Method. Every candidate setting plays the same seeds (common random numbers). On one fixed set of seeds the
response is a deterministic function of the parameter (a sample-average approximation of the true one), so
classical root finders apply without being fooled by noise: integer bisection for one integer parameter, Brent's
method (scipy `brentq`) for one real parameter, and scipy's differential evolution (which handles integer and
real parameters together, and needs no gradient) for several parameters or targets. Bayesian optimisation would
spend fewer games per point, but the kernels make points cheap, and bisection is exact and explains itself.

The setting found is then verified on fresh seeds, so its estimate is not flattered by the search having
picked the luck of the search seeds; the report says whether each target lies inside the verified interval.
An integer parameter that cannot hit the target exactly reports the two nearest settings, both verified.
`sim.report.tune` writes the answer, the response chart and the settings searched.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import numpy as np
import polars as pl

from sim.analysis.equilibrium import equilibrium, warm_start
from sim.analysis.stats import Estimate, mean_from_moments, wilson
from sim.engine.errors import DsimError
from sim.engine.rules import card_counts
from sim.engine.game import Game, Outcome
from sim.engine.runner import iter_chunks
from sim.engine.spec import RunSpec, check_jobs

FRESH = 7_919          # verification plays seed + FRESH: other chunk seeds than the search's


@dataclass(frozen=True)
class Param:
    key: str               # a rule name, or "players"
    index: int | str | None   # an element of a list rule, or a card of a card list
    lo: float
    hi: float
    integer: bool
    label: str = ""        # the parameter in words, for reports

    @property
    def name(self) -> str:
        return self.key if self.index is None else f"{self.key}[{self.index}]"

    @property
    def words(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class Target:
    outcome: Outcome
    value: float


def miss_unit(t: Target) -> float:
    """What counts as one unit of miss: a point for a rate, a hundredth for a mean."""
    return 0.01 if t.outcome.kind == "rate" else 0.01 * max(abs(t.value), 1.0)


def parse_param(text: str, game: Game, base: RunSpec) -> Param:
    """`key=lo:hi`, `key[i]=lo:hi` (an element of a list rule) or `key[CARD]=lo:hi` (a card's count in a card
    list); the type (integer or real) is the rule's."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)(?:\[([^\]=]+)\])?\s*(?:=\s*(\S+?)\s*:\s*(\S+)\s*)?", text)
    if not m:
        raise DsimError(f"--param expects key=lo:hi, key[i]=lo:hi or key[CARD]=lo:hi, got '{text}'")
    key, lo, hi = m[1], m[3], m[4]
    index = part_index(m[2])
    current = current_value(key, index, game, base)
    if isinstance(current, bool) or not isinstance(current, (int, float)):
        raise DsimError(f"{text.split('=')[0]} is not a number ({current!r}); tune moves numeric rules")
    if lo is None:
        raise DsimError(f"give {key}'s range to search: --param {m[0].strip()}=lo:hi")
    try:
        low, high = float(lo), float(hi)
    except ValueError:
        raise DsimError(f"--param range must be numbers, got '{lo}:{hi}'") from None
    integer = isinstance(current, int)
    if integer and (low != int(low) or high != int(high)):
        raise DsimError(f"{key} is a whole number: give a whole range, not {lo}:{hi}")
    if not low < high:
        raise DsimError(f"--param range {lo}:{hi} is empty")
    return Param(key, index, low, high, integer, param_words(key, index, base))


def part_index(part: str | None) -> int | str | None:
    """The part of `key[part]`: an element's number, a card's name, or None for the whole rule."""
    part = None if part is None else part.strip()
    return int(part) if part is not None and part.isdigit() else part


def current_value(key: str, index: int | str | None, game: Game, base: RunSpec):
    """The value a lever has in `base`: the rule's, one element of a list rule, or a card's count."""
    if key == "players":
        return base.players
    entries = base.rules.ruleset.entries
    if key not in entries:
        raise DsimError(f"unknown rule '{key}' for {game.name} (see `dsim games {game.name}`)")
    current = entries[key].value
    return current if index is None else part_value(key, current, index)


def part_value(key: str, whole, index: int | str):
    """The current value of element `index` of a list rule, or of card `index`'s count in a card list."""
    if not isinstance(whole, list):
        raise DsimError(f"rule '{key}' is not a list: '{key}[{index}]' has nothing to tune")
    if isinstance(index, int):
        if index >= len(whole):
            raise DsimError(f"rule '{key}' has no element [{index}]")
        return whole[index]
    cards = dict((card, count) for count, card in (card_counts(whole) or []))
    if index not in cards:
        raise DsimError(f"no card '{index}' in {key}" + (f" (cards: {', '.join(cards)})" if cards else ""))
    return cards[index]


def param_words(key: str, index: int | str | None, base: RunSpec) -> str:
    """`dwarf_spaces[0]` as "dwarf spaces of the Fury dwarf" (the rule's `items`), or "dwarf spaces, value 1";
    `dragon_deck[defense]` as "defense cards in the dragon deck"."""
    words = key.replace("_", " ")
    if index is None:
        return words
    if isinstance(index, str):
        return f"{index} cards in the {words}"
    items = base.rules.ruleset.entries[key].items
    return f"{words} of the {items[index]}" if items else f"{words}, value {index + 1}"


def parse_target(text: str, game: Game) -> Target:
    """`outcome=value`: a rate as a fraction (0.5) or a percentage (50%), a mean in its unit."""
    if "=" not in text:
        raise DsimError(f"--target expects outcome=value, got '{text}'")
    name, raw = (s.strip() for s in text.split("=", 1))
    outcomes = {o.name: o for o in game.outcomes()}
    if name not in outcomes:
        raise DsimError(f"unknown outcome '{name}' for {game.name} (known: {', '.join(outcomes)})")
    value = target_value(raw)
    if outcomes[name].kind == "rate" and not 0 <= value <= 1:
        raise DsimError(f"{name} is a rate: its target must be from 0 to 1 (or 0% to 100%), got {raw}")
    return Target(outcomes[name], value)


class Evaluator:
    """Plays a setting on the search seeds (cached) or on fresh ones, and estimates the target outcomes."""

    def __init__(self, game: Game, base: RunSpec, params: list[Param], targets: list[Target], jobs: int,
                 rules_file=None, variants=(), base_sets=()):
        self.game, self.base, self.params, self.targets, self.jobs = game, base, params, targets, check_jobs(jobs)
        self.rules_file, self.variants, self.base_sets = rules_file, tuple(variants), tuple(base_sets)
        self.cache: dict[tuple, list[Estimate]] = {}
        self.rows: list[dict] = []

    def spec(self, point: tuple, n: int, seed: int) -> RunSpec:
        sets, players = list(self.base_sets), self.base.players
        for p, v in zip(self.params, point):
            v = int(round(v)) if p.integer else float(v)
            if p.key == "players":
                players = v
            else:
                sets.append((p.name, v))          # `key[i]` and `key[CARD]` are set as parts of the rule
        try:
            rules = self.game.load_rules(self.rules_file, self.variants, sets)
            self.game.check_players(rules, players)
        except DsimError as e:
            raise DsimError(f"setting {self.describe(point)} is not valid rules: {e}") from None
        return dataclasses.replace(self.base, rules=rules, players=players, n=n, seed=seed, resume=False)

    def describe(self, point: tuple) -> str:
        return ", ".join(f"{p.words} = {show_value(p, v)}" for p, v in zip(self.params, point))

    def __call__(self, point, phase: str = "search", n: int | None = None) -> list[Estimate]:
        point = tuple(int(round(v)) if p.integer else float(v) for p, v in zip(self.params, point))
        fresh = phase == "verify"
        key = (point, fresh, n)
        if key not in self.cache:
            seed = self.base.seed + (FRESH if fresh else 0)
            spec = self.spec(point, n or self.base.n, seed)
            self.cache[key] = self._play(spec)
            for t, est in zip(self.targets, self.cache[key]):
                self.rows.append({"phase": phase, **{p.name: float(v) for p, v in zip(self.params, point)},
                                  "outcome": t.outcome.name, "target": t.value, "value": est.value, "lo": est.lo,
                                  "hi": est.hi, "games": est.n, "seed": seed})
        return self.cache[key]

    def _play(self, spec: RunSpec) -> list[Estimate]:
        sums = np.zeros((len(self.targets), 3))
        for _, _, tables in iter_chunks(spec, self.jobs):
            frame = pl.DataFrame(tables["games"])
            for k, t in enumerate(self.targets):
                x = t.outcome.values(frame)
                x = x[~np.isnan(x)]
                sums[k] += (len(x), x.sum(), (x * x).sum())
        out = []
        for t, (count, s, ss) in zip(self.targets, sums):
            count = int(count)
            out.append(wilson(int(round(s)), count) if t.outcome.kind == "rate" else mean_from_moments(s, ss, count))
        return out

    def miss(self, point) -> float:
        """Squared distance to the targets, in units of a point (rates) or a hundredth (means)."""
        return sum(((e.value - t.value) / miss_unit(t)) ** 2 for e, t in zip(self(point), self.targets))


class EquilibriumEvaluator(Evaluator):
    """Plays a setting by solving the game there (`sim.analysis.equilibrium`): its one target is the figure at
    equilibrium. A probe of the search is a lighter solve (`probe_search`: one oracle round, no search player, cells
    to ± `PROBE_PRECISION`), warm-started from every strategy the probes before it found; the answer is verified by
    the full solve on fresh seeds, search player included, and its interval is the study's bracket (sampling and
    what fresh best responses still gain)."""

    def __init__(self, game: Game, base: RunSpec, params: list[Param], targets: list[Target], jobs: int,
                 budget, search, boot: int = 200, rules_file=None, variants=(), base_sets=()):
        super().__init__(game, base, params, targets, jobs, rules_file, variants, base_sets)
        self.budget, self.search, self.boot = budget, search, boot
        self.found: dict[str, list] = {}           # side -> strategies the solves found (the warm start)
        self.studies: dict[tuple, object] = {}     # (setting, fresh) -> its study

    def __call__(self, point, phase: str = "search", n: int | None = None) -> list[Estimate]:
        self.point = tuple(int(round(v)) if p.integer else float(v) for p, v in zip(self.params, point))
        return super().__call__(point, phase, n)

    def _play(self, spec: RunSpec) -> list[Estimate]:
        fresh = spec.seed != self.base.seed
        budget = self.budget if fresh else dataclasses.replace(
            self.budget, precision=max(self.budget.precision, PROBE_PRECISION))
        study = equilibrium(self.game, spec, budget, self.search if fresh else probe_search(self.search), self.jobs,
                            boot=self.boot, start=self.found)
        for side, found in warm_start(study).items():
            self.found.setdefault(side, []).extend(c for c in found if c.key() not in
                                                   {o.key() for o in self.found.get(side, [])})
        self.studies[(self.point, fresh)] = study
        v = study.bracket() if fresh else study.value
        return [Estimate(study.value.value, v.lo, v.hi, study.games)]


PROBE_PRECISION = 0.02


def probe_search(search):
    """A probe's solve: one oracle round, a third of the refining run, no search player (its checks and cells cost
    minutes each); the answer's solve is the full one."""
    return dataclasses.replace(search, rounds=min(search.rounds, 1), refine=search.refine // 3, check_games=0,
                               search_joins=False)


def target_value(raw: str, what: str = "--target value") -> float:
    """A target as written: a number, or a percentage (50%)."""
    try:
        return float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise DsimError(f"{what} must be a number, got '{raw}'") from None


def equilibrium_target(text: str, game: Game, base: RunSpec) -> Target:
    """`equilibrium=VALUE`: the figure at equilibrium (the first side's score, win 1 and draw ½; with three or
    more seats, seat 0's share of the wins)."""
    name, _, raw = text.partition("=")
    if name.strip() != "equilibrium" or not raw.strip():
        raise DsimError(f"with --at-equilibrium the target is the figure at equilibrium: --target equilibrium=VALUE "
                        f"(e.g. equilibrium=50%), got '{text}'")
    roles = game.active_roles(base.players)
    label = (f"{roles[0]}'s score at equilibrium" if len(roles) == 2 else "seat 0's share at equilibrium")
    raw = raw.strip()
    value = target_value(raw)
    if not 0 <= value <= 1:
        raise DsimError(f"the figure at equilibrium is a share: its target must be from 0 to 1 (or 0% to 100%), "
                        f"got {raw}")
    return Target(Outcome("equilibrium", "rate", pl.lit(0.0), label=label), value)


def show_value(p: Param, v) -> str:
    return str(int(round(v))) if p.integer else f"{v:.4g}"


@dataclass
class TuneResult:
    best: tuple
    candidates: list[tuple]           # the settings verified (two neighbours for an integer miss)
    note: str                         # how the search ended, in words
    verified: dict[tuple, list[Estimate]]
    out_of_reach: bool = False        # solved in full at both ends of the range, the target lay beyond both


def search(ev: Evaluator) -> TuneResult:
    if len(ev.params) == 1 and len(ev.targets) == 1:
        p = ev.params[0]
        return _bisect_integer(ev, p) if p.integer else _brent(ev, p)
    return _evolve(ev)


def _gap(ev: Evaluator, x) -> float:
    return ev((x,))[0].value - ev.targets[0].value


def _bisect_integer(ev: Evaluator, p: Param) -> TuneResult:
    lo, hi = int(p.lo), int(p.hi)
    g_lo, g_hi = _gap(ev, lo), _gap(ev, hi)
    if g_lo == 0 or g_hi == 0:
        best = lo if g_lo == 0 else hi
        return TuneResult((best,), [(best,)], "the search seeds hit the target exactly", {})
    if (g_lo > 0) == (g_hi > 0):
        best = lo if abs(g_lo) <= abs(g_hi) else hi
        return TuneResult((best,), [(best,)], _outside(ev, lo, hi), {})
    while hi - lo > 1:                 # the sign change stays between lo and hi
        mid = (lo + hi) // 2
        g = _gap(ev, mid)
        if g == 0:
            return TuneResult((mid,), [(mid,)], "the search seeds hit the target exactly", {})
        if (g > 0) == (g_lo > 0):
            lo, g_lo = mid, g
        else:
            hi, g_hi = mid, g
    best = lo if abs(g_lo) <= abs(g_hi) else hi
    where = " on the light solves (no search player)" if isinstance(ev, EquilibriumEvaluator) else ""
    return TuneResult((best,), [(lo,), (hi,)],
                      f"no whole value of {p.words} hits the target{where}: it lies between {lo} and {hi}", {})


def _brent(ev: Evaluator, p: Param) -> TuneResult:
    from scipy.optimize import brentq
    g_lo, g_hi = _gap(ev, p.lo), _gap(ev, p.hi)
    if (g_lo > 0) == (g_hi > 0) and g_lo != 0 and g_hi != 0:
        best = p.lo if abs(g_lo) <= abs(g_hi) else p.hi
        return TuneResult((best,), [(best,)], _outside(ev, p.lo, p.hi), {})
    root = brentq(lambda x: _gap(ev, x), p.lo, p.hi, xtol=(p.hi - p.lo) * 1e-3, maxiter=60)
    return TuneResult((root,), [(root,)], "Brent's method on the search seeds", {})


def _outside(ev: Evaluator, lo, hi) -> str:
    t = ev.targets[0]
    a, b = ev((lo,))[0].value, ev((hi,))[0].value
    pct = t.outcome.kind == "rate"
    show = (lambda v: f"{100 * v:.1f}%") if pct else (lambda v: f"{v:.3g}")
    return (f"the target {show(t.value)} is outside what the range reaches ({show(a)} at {lo}, {show(b)} at "
            f"{hi}): the closest end is shown")


def _evolve(ev: Evaluator) -> TuneResult:
    from scipy.optimize import differential_evolution
    bounds = [(p.lo, p.hi) for p in ev.params]
    integrality = [p.integer for p in ev.params]
    found = differential_evolution(ev.miss, bounds, integrality=integrality, seed=ev.base.seed % 2**32,
                                   maxiter=15, popsize=6, tol=1e-3, polish=False)
    best = tuple(int(round(v)) if p.integer else float(v) for p, v in zip(ev.params, found.x))
    return TuneResult(best, [best], f"differential evolution over {len(ev.cache)} settings on the search seeds", {})


def curve_points(p: Param, best: float, count: int = 7) -> list[float]:
    """Settings around the best one for the response chart, inside the range."""
    if p.integer:
        half = count // 2
        start = int(max(p.lo, min(best - half, p.hi - 2 * half)))
        return [v for v in range(start, start + count) if p.lo <= v <= p.hi]
    width = (p.hi - p.lo) / 4
    a, b = max(p.lo, best - width), min(p.hi, best + width)
    return list(np.linspace(a, b, count))


def verify(ev: Evaluator, result: TuneResult, n: int) -> TuneResult:
    """Replays the candidates on fresh seeds. At equilibrium each is a full solve (minutes to a quarter of an hour),
    so only the answer is verified, then corrected by full solves (`settle`)."""
    if isinstance(ev, EquilibriumEvaluator):
        result.candidates = [result.best]
    result.verified = {c: ev(c, "verify", n) for c in result.candidates}
    if isinstance(ev, EquilibriumEvaluator) and len(ev.params) == 1 and ev.params[0].integer:
        settle(ev, result, n)
    return result


SETTLE_STEPS = 4


def settle(ev: "EquilibriumEvaluator", result: TuneResult, n: int, steps: int = SETTLE_STEPS) -> None:
    """The probes are light solves without the search player; the answer's full solve, with it, can land far
    from them. While the target lies outside the last full solve's own interval (its table value's, not the
    bracket), solve one more setting in full: where the probes' curve, shifted by what the full solve differs from
    it, meets the target (at least one step toward it); once two full solves straddle the target, where the line
    between them meets it. It stops when the figure crosses the target between neighbours, the range ends or
    `steps` solves were made; the answer is then the full-solved setting nearest the target, and every full
    solve is reported. A walk that reaches an end of the range still missing solves the other end in full before
    it calls the target out of reach: the probes may not see which way the lever moves the figure."""
    p, target = ev.params[0], ev.targets[0].value
    light = sorted((k[0][0], v[0].value) for k, v in ev.cache.items() if not k[1] and k[2] is None)
    if len(light) < 2:
        return
    full = lambda x: ev.studies[((x,), True)].value
    solved = lambda: {c[0]: full(c[0]).value for c in result.verified}     # setting -> its full solve's figure
    x = result.best[0]
    for _ in range(steps):
        if full(x).lo <= target <= full(x).hi:
            result.best = (x,)
            if len(result.candidates) > 1:
                result.note += (f"; solved in full with the search player, the target lies inside {x}'s interval, "
                                "so the walk stopped there")
            return
        pair = straddle(solved(), target)
        if pair and pair[1] - pair[0] == 1:
            break
        nxt = between(pair, full, target) if pair else aim(light, x, full(x).value, target, p)
        if nxt is None or (nxt,) in result.verified:
            nxt = far_end(p, result.verified)
        if nxt is None:
            result.best = nearest(solved(), target)
            result.out_of_reach = True
            result.note += (f"; solved in full at both ends of the range ({int(p.lo)} and {int(p.hi)}), the figure "
                            "misses the target on the same side: no setting in the range reaches it")
            return
        result.verified[(nxt,)] = ev((nxt,), "verify", n)
        result.candidates = sorted(result.verified)
        x = nxt
    figures = solved()
    result.best = nearest(figures, target)
    pair = straddle(figures, target)
    if pair:
        more = "" if pair[1] - pair[0] == 1 else f"; out of full solves ({steps}), the nearer is shown"
        result.note += (f"; solved in full with the search player, the figure crosses the target between "
                        f"{pair[0]} and {pair[1]}{more}")
    else:
        result.note += f"; after {steps} full solves the figure has not crossed the target: the nearest is shown"


def nearest(solved: dict, target: float) -> tuple:
    """The full-solved setting whose figure is nearest the target."""
    return (min(solved, key=lambda c: abs(solved[c] - target)),)


def far_end(p: Param, verified: dict) -> int | None:
    """An end of the range not yet solved in full, when the walk cannot go on: the probes, without the search
    player, may not see which way the lever moves the figure (Drako's dwarf deck: 92-93% at both ends)."""
    ends = [int(p.lo), int(p.hi)]
    return next((e for e in ends if (e,) not in verified), None)


def straddle(solved: dict, target: float) -> tuple[int, int] | None:
    """The closest two full-solved settings whose figures lie either side of the target."""
    pairs = [(a, b) for a in solved for b in solved if a < b and (solved[a] - target) * (solved[b] - target) <= 0]
    return min(pairs, key=lambda ab: ab[1] - ab[0]) if pairs else None


def between(pair: tuple[int, int], full, target: float) -> int:
    """Where the line through the two full solves meets the target, strictly between them."""
    a, b = pair
    fa, fb = full(a).value, full(b).value
    x = a + (b - a) * (target - fa) / (fb - fa) if fb != fa else (a + b) / 2
    return int(min(max(round(x), a + 1), b - 1))


def aim(light: list[tuple[float, float]], x: int, here: float, target: float, p: Param) -> int | None:
    """The setting where the probes' curve, shifted to pass through the full solve at `x`, meets the target: the
    search player moves the figure by about as much at neighbouring settings. One step toward the target where
    the probes' curve is not monotone; None where the range ends."""
    xs, ys = np.array([a for a, _ in light]), np.array([b for _, b in light])
    rising = ys[-1] > ys[0]
    step = 1 if (here < target) == rising else -1
    want = target - (here - float(np.interp(x, xs, ys)))
    order = np.argsort(ys)
    if np.all(np.diff(ys) > 0) or np.all(np.diff(ys) < 0):
        guess = int(round(float(np.interp(want, ys[order], xs[order]))))
        nxt = x + step * max(1, step * (guess - x))
    else:
        nxt = x + step
    nxt = int(min(max(nxt, p.lo), p.hi))
    return None if nxt == x else nxt


def inside(est: Estimate, target: float) -> bool:
    return bool(est.lo <= target <= est.hi and not math.isnan(est.lo))


@dataclass(frozen=True)
class Tuning:
    """A tune: the settings searched (`evaluator.cache`, every estimate in `evaluator.rows`), the answer verified
    on fresh seeds, and the response around it (the first target against the first parameter, the others held
    at the answer, on the search seeds)."""

    game: Game
    base: RunSpec
    evaluator: Evaluator
    result: TuneResult
    curve: list[tuple[float, Estimate]]

    def table(self) -> pl.DataFrame:
        return pl.DataFrame(self.evaluator.rows)

    def summary(self) -> dict:
        """The answer as plain data (for --format json)."""
        ev, result = self.evaluator, self.result
        return {"best": dict(zip([p.name for p in ev.params], result.best)),
                "settings": [{"setting": dict(zip([p.name for p in ev.params], c)),
                              "outcomes": [{"outcome": t.outcome.name, "target": t.value, "value": e.value,
                                            "lo": e.lo, "hi": e.hi, "games": e.n, "target_inside": inside(e, t.value)}
                                           for t, e in zip(ev.targets, result.verified[c])]}
                             for c in result.candidates],
                "search_settings": len({k[0] for k in ev.cache if not k[1]}), "note": result.note}


def tune(game: Game, base: RunSpec, params: list[str], targets: list[str], jobs: int = 1,
         verify_n: int | None = None, rules_file=None, variants=(), base_sets=(), at_equilibrium=None) -> Tuning:
    """Search, verify on fresh seeds, and play the response around the answer. `at_equilibrium` (a (Budget,
    Search) pair) tunes the figure at equilibrium instead: each setting solved as a game; the response is then
    the settings the search solved, as each costs a solve."""
    if not params or not targets:
        raise DsimError("tune needs at least one --param and one --target")
    parsed = [parse_param(p, game, base) for p in params]
    if len({p.name for p in parsed}) != len(parsed):
        raise DsimError("each --param may appear once")
    if at_equilibrium is None:
        ev = Evaluator(game, base, parsed, [parse_target(t, game) for t in targets], jobs, rules_file, variants,
                       base_sets)
    else:
        if len(parsed) != 1 or len(targets) != 1:
            raise DsimError("tune --at-equilibrium takes one --param and one --target")
        budget, oracle = at_equilibrium
        ev = EquilibriumEvaluator(game, base, parsed, [equilibrium_target(targets[0], game, base)], jobs, budget,
                                  oracle, rules_file=rules_file, variants=variants, base_sets=base_sets)
    result = verify(ev, search(ev), verify_n or 5 * base.n)
    if at_equilibrium is None:
        xs = curve_points(parsed[0], result.best[0])
    else:
        xs = sorted({k[0][0] for k in ev.cache if not k[1]})
    curve = [(x, ev((x, *result.best[1:]))[0]) for x in xs]
    return Tuning(game, base, ev, result, curve)
