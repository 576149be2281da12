"""`dsim decks`: which deck breaks the game? A search over the deck lists a faction may build, for the one that
scores best against the field.

For each deck searched (a faction's starter deck is the start), every candidate plays each other deck of the
field in both seat orders, `n` games per pairing, on the same seeds (common random numbers, so two candidates
differ only by their cards). A step tries `candidates` random swaps of one copy (a card out, another of the
faction's or the neutral cards in, within the deck-building limits: the deck's size, at most `most` copies, the
Banner's set-up cards kept) and keeps the best if it scores higher than the deck so far. The search stops after
`steps` steps, or after `patience` steps in a row without a better swap.

A search picks the best of many noisy scores, so its own figures flatter the deck it found; the start and the
deck found are therefore replayed on fresh seeds, paired game by game: the deck's score against the field with
its interval, and its edge over the starter deck in points.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.autobalance import cell_deals, play_cells
from sim.analysis.intervals import Interval, clustered_mean
from sim.analysis.intervals_paired import paired_change
from sim.analysis.payoffs import with_decks
from sim.engine.errors import DsimError
from sim.engine.game import DeckBuilding, Game, Rules
from sim.engine.spec import RunSpec, check_jobs

FRESH = 7_919          # the verification plays seed + FRESH: other chunk seeds than the search's

Deck = dict[str, int]


@dataclass(frozen=True)
class Found:
    """One deck's search: the start and the deck found, each scored on fresh seeds."""

    deck: str
    start: Deck
    best: Deck
    start_score: Interval        # against the field, both seat orders: the share of games won
    best_score: Interval
    edge: Interval               # best - start, paired on the same games
    steps: int                   # swaps kept
    tried: int                   # candidates played
    search_gain: float           # best - start on the search seeds (flattered by the selection)
    by_opponent: dict[str, tuple[float, float]] = field(default_factory=dict)   # opponent -> (start, best)

    def changes(self) -> list[tuple[str, int, int]]:
        """(card, copies at the start, copies in the deck found) for every card whose copies changed."""
        cards = list(dict.fromkeys([*self.start, *self.best]))
        return [(c, self.start.get(c, 0), self.best.get(c, 0)) for c in cards
                if self.start.get(c, 0) != self.best.get(c, 0)]


@dataclass
class DeckSearch:
    game: Game
    spec: RunSpec
    field: list[str]
    found: list[Found]
    n: int
    verify_n: int
    most: int
    games_played: int
    written: Path | None = None

    def adopted(self) -> dict[str, Deck]:
        """The lists found that beat their starting deck on the fresh seeds (the whole interval above 0)."""
        return {f.deck: f.best for f in self.found if f.edge.lo > 0}


class Scorer:
    """Plays a deck list against the field on fixed seeds: its per-game scores, opponent by opponent."""

    def __init__(self, game: Game, spec: RunSpec, deck: str, field: list[str], jobs: int, scratch: Path):
        self.game, self.spec, self.deck, self.field, self.jobs, self.scratch = game, spec, deck, field, jobs, scratch
        self.files = 0
        self.games_played = 0
        self.seat0, self.seat1 = list(game.deck_rules)

    def scores(self, cards: Deck, n: int, seed: int) -> dict[str, np.ndarray]:
        """Opponent -> the deck's per-game scores (seat 0 games, then seat 1 games) on n deals per seat order."""
        self.files += 1
        name = f"{self.deck} (searched)"
        rules = self.game.with_deck(self.spec.rules, self.deck, name, cards, self.scratch / f"deck{self.files}.toml")
        cells = []
        for opp in self.field:
            cells += [with_decks(self.game, rules, {self.seat0: name, self.seat1: opp}),
                      with_decks(self.game, rules, {self.seat0: opp, self.seat1: name})]
        tables = play_cells(self.game, self.spec, cells, n, seed, self.jobs)
        self.games_played += n * len(cells)
        roles = self.game.active_roles(self.spec.players)
        out = {}
        for k, opp in enumerate(self.field):
            first = self.game.role_scores(tables[2 * k], self.spec.players)[roles[0]]
            second = self.game.role_scores(tables[2 * k + 1], self.spec.players)[roles[1]]
            out[opp] = np.concatenate([first, second])
        return out


def total(scores: dict[str, np.ndarray]) -> np.ndarray:
    return np.concatenate(list(scores.values()))


def deals(scores: dict[str, np.ndarray]) -> np.ndarray:
    """Each of `total`'s games' deal: each opponent's scores are two cells of `play_cells` (seat orders)."""
    return np.concatenate([d for v in scores.values() for d in cell_deals([len(v) // 2] * 2)])


def swaps(deck: Deck, rules: DeckBuilding, rng: np.random.Generator, k: int) -> list[Deck]:
    """Up to k distinct decks one copy away from `deck`: a card out (above what the deck must keep), another
    card in (below `most` copies)."""
    outs = [c for c, n in deck.items() if n > rules.least.get(c, 0)]
    ins = [c for c in rules.cards if deck.get(c, 0) < rules.most]
    pairs = [(a, b) for a in outs for b in ins if a != b]
    picked = rng.permutation(len(pairs))[:k]
    out = []
    for i in picked:
        a, b = pairs[i]
        d = dict(deck)
        d[a] -= 1
        d[b] = d.get(b, 0) + 1
        out.append({c: n for c, n in d.items() if n > 0})
    return out


def search_deck(scorer: Scorer, building: DeckBuilding, start: Deck, n: int, steps: int, candidates: int,
                patience: int, seed: int, verify_n: int, stream: int) -> Found:
    rng = np.random.default_rng([seed, stream])
    best, best_score = start, float(total(scorer.scores(start, n, seed)).mean())
    first_score, kept, tried, idle = best_score, 0, 0, 0
    for _ in range(steps):
        options = swaps(best, building, rng, candidates)
        if not options:
            break
        scored = [(float(total(scorer.scores(d, n, seed)).mean()), k) for k, d in enumerate(options)]
        tried += len(options)
        score, k = max(scored)
        if score > best_score:
            best, best_score, kept, idle = options[k], score, kept + 1, 0
        else:
            idle += 1
            if idle >= patience:
                break
    fresh = seed + FRESH
    a, b = scorer.scores(start, verify_n, fresh), scorer.scores(best, verify_n, fresh)
    dealt = deals(a)
    return Found(scorer.deck, start, best, clustered_mean(total(a), dealt), clustered_mean(total(b), dealt),
                 paired_change(total(a), total(b), deal=dealt).diff,
                 kept, tried, best_score - first_score,
                 {opp: (float(a[opp].mean()), float(b[opp].mean())) for opp in a})


def deck_search(game: Game, spec: RunSpec, decks: list[str] | None = None, steps: int = 20, candidates: int = 12,
                most: int = 3, patience: int = 3, jobs: int = 1, verify_n: int | None = None,
                pool_out: str | None = None) -> DeckSearch:
    """Search each of `decks` (default: every deck of the rules' content) against the others as they are; with
    `pool_out`, write the content with every list found that beats its start as a new named content file."""
    check_jobs(jobs)
    out = game.content_file(pool_out) if pool_out else None
    if out is not None and out.exists():
        raise DsimError(f"{out} exists: choose another --pool-out name (a pool is never written over)")
    if not game.deck_rules:
        raise DsimError(f"{game.name} has no decks to build: `dsim decks` needs a game whose decks are data")
    every = game.decks(spec.rules)
    decks = decks or every
    for d in decks:
        if d not in every:
            raise DsimError(f"unknown deck '{d}' (known: {', '.join(every)})")
    for name, value, low in (("--steps", steps, 0), ("--candidates", candidates, 1), ("--most", most, 1),
                             ("--patience", patience, 1)):
        if value < low:
            raise DsimError(f"{name} must be at least {low}, got {value}")
    verify_n = verify_n or 2 * spec.n
    found, played = [], 0
    with tempfile.TemporaryDirectory(prefix="dsim-decks-") as scratch:
        for deck in decks:
            field_decks = [d for d in every if d != deck]
            scorer = Scorer(game, spec, deck, field_decks, jobs, Path(scratch))
            building = game.deck_building(spec.rules, deck, most)
            found.append(search_deck(scorer, building, game.deck_list(spec.rules, deck), spec.n, steps, candidates,
                                     patience, spec.seed, verify_n, every.index(deck)))
            played += scorer.games_played
    result = DeckSearch(game, spec, every, found, spec.n, verify_n, most, played)
    if out is not None:
        lists = result.adopted()
        header = (f"{out.stem}: the deck lists `dsim decks` found (seed {spec.seed}, {spec.n:,} games per pairing) "
                  f"adopted where they beat the list before on fresh seeds: {', '.join(lists) or 'none'}.",)
        game.with_lists(spec.rules, lists, out, header)
        result.written = out
    return result


def table(s: DeckSearch) -> pl.DataFrame:
    return pl.DataFrame([{"deck": f.deck, "start": f.start_score.value, "start_lo": f.start_score.lo,
                          "start_hi": f.start_score.hi, "found": f.best_score.value, "found_lo": f.best_score.lo,
                          "found_hi": f.best_score.hi, "edge": f.edge.value, "edge_lo": f.edge.lo,
                          "edge_hi": f.edge.hi, "swaps_kept": f.steps, "tried": f.tried} for f in s.found])

