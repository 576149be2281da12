"""Drakerion wired into the core: simulate, traces, referee, outcomes and report."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.engine.errors import DsimError
from sim.engine.game import BenchCase, Claim, CoverageRun, Game, Outcome, Rules, Trace, Tunable
from sim.engine.lazy_polars import pl
from sim.engine.rules import build_typed
from sim.engine.strategy import Lineup, compile_now
from sim.games.drakerion import records as R
from sim.games.drakerion import rules as pools
from sim.games.drakerion.rules import DrakerionRules, pool_names
from strategies.drakerion import REGISTRY, search_choice, search_params, value_choice

TRACE_ROWS_PER_GAME = 1500    # a first guess; doubled until the batch fits

# per-seat counters of the games table: column stem -> state slot (seat added); the slot is T_<STEM> but for
# two shorter names
SEAT_STEMS = ("played", "attacks", "ranged_attacks", "kills", "lost", "gold_spent", "gold_gained", "drawn",
              "mulligan", "abilities", "intercepts", "named_bonuses", "cycles", "passed_for_good", "damage_dealt",
              "actions", "shield_absorbed")
SHORT_SLOTS = {"named_bonuses": "NAMED", "passed_for_good": "PASS_GOOD"}
SEAT_COUNTERS = {stem: getattr(R, "T_" + SHORT_SLOTS.get(stem, stem.upper())) for stem in SEAT_STEMS}
# rule counters (fired_<name>, int32): column -> state slot. Effects of the ability vocabulary by effect kind,
# keyword / rule / rule-flag situations (records.KW_EVENT_NAMES), abilities resolved by trigger.
FIRED = {**{f"fired_{name}": R.T_FIRED + k for k, name in enumerate(R.EFFECT_NAMES)},
         **{f"fired_{name}": R.T_KW + k for k, name in enumerate(R.KW_EVENT_NAMES)},
         **{f"fired_{name}": R.T_TRIG + k for k, name in enumerate(R.TRIGGER_NAMES)}}
assert len(FIRED) == R.N_EFFECTS + R.N_KW + len(R.TRIGGER_NAMES)
# counters summed from the per-seat ones (no kernel work): column -> per-seat state slot, and whether
# the column counts players with a non-zero value rather than the sum
DERIVED = {"fired_mulligan": (R.T_MULLIGAN, False),              # cards put back in mulligans
           "fired_mulligan_shuffle_first": (R.T_MULLIGAN, True),  # mulligans of at least one card
           "fired_named": (R.T_NAMED, False),                     # Named discard bonuses
           "fired_city_cycle": (R.T_CYCLES, False)}               # City cycles
FIRED_COLUMNS = [*FIRED, *DERIVED]


def play(rules: DrakerionRules, lineup: Lineup, seed: int, n: int, n_traced: int = 0, check: bool = False,
         counts: dict | None = None, deal: bool = True):
    """Play n games; returns (state slots [N_STATE, n], plays per board row [N_INST, n], traces). `counts`, if
    given, receives the search player's decisions ("search_decisions"); deal False lets it play out from the true
    hidden cards (a cheat, for the tests). A field of decks plays game g at pairing g mod their number."""
    if rules.fielded():
        return play_field(rules, lineup, seed, n, n_traced, check, counts, deal)
    kernel = GAME.kernels(strategies=False)           # then only the line-up's strategies compile
    t = rules.arrays()
    config = t.config.copy()
    config[R.C_CHECK] = int(check)
    s0, s1 = lineup["seat0"], lineup["seat1"]
    p0, p1, budgets, informed = search_args(lineup)
    if budgets.any():
        from sim.games.drakerion import kernel_search
        pf, pp = playout_policy()
        compile_now([pf])
    compile_now([s0.strategy.functions[0], s1.strategy.functions[0]])
    out = np.zeros((R.N_STATE, n), np.int64)
    played = np.zeros((R.N_INST, n), np.int64)
    rows = max(1, n_traced) * TRACE_ROWS_PER_GAME
    while True:
        tr = np.zeros((rows if n_traced else 1, R.TRACE_WIDTH), np.int16)
        starts = np.zeros(n_traced + 1, np.int64)
        f0, f1 = s0.strategy.functions[0], s1.strategy.functions[0]
        if budgets.any():
            over = kernel_search.search_batch(int(seed) & 0xFFFFFFFF, n, t.cards, t.inst_card, t.setup, t.deck_n,
                                              config, f0, f1, p0, p1, pf, pp, budgets, informed, int(deal), out,
                                              played, tr, starts, n_traced)
            searched, over = over // 2, over % 2
        else:
            over = kernel.play_batch(int(seed) & 0xFFFFFFFF, n, t.cards, t.inst_card, t.setup, t.deck_n, config,
                                     f0, f1, p0, p1, out, played, tr, starts, n_traced)
            searched = 0
        if not over:
            break
        rows *= 2
    traces = [tr[starts[i]:starts[i + 1]].copy() for i in range(n_traced)]
    if counts is not None:
        counts["search_decisions"] = int(searched)
    return out, played, traces


def play_field(rules: DrakerionRules, lineup: Lineup, seed: int, n: int, n_traced: int, check: bool,
               counts: dict | None, deal: bool):
    """`play` over a field of decks: each pairing's games as one batch, put back in game order (so game g's
    pairing and deal depend on the seed and g only, not on n). A pairing and its seat swap play on the same seed:
    ember against tide and tide against ember are dealt alike, game for game, as two runs on one seed are."""
    out = np.zeros((R.N_STATE, n), np.int64)
    played = np.zeros((R.N_INST, n), np.int64)
    traces: list = [None] * n_traced
    searched = 0
    decks = list(rules.pool().decks)
    for games, at in field_games(rules, n):
        sub = {} if counts is not None else None
        pair = sorted((decks.index(at.seat0_deck), decks.index(at.seat1_deck)))
        o, p, tr = play(at, lineup, pairing_seed(seed, *pair), len(games), int(np.sum(games < n_traced)), check,
                        sub, deal)
        out[:, games], played[:, games] = o, p
        for g, t in zip(games, tr):
            traces[g] = t
        searched += sub["search_decisions"] if sub else 0
    if counts is not None:
        counts["search_decisions"] = searched
    return out, played, traces


def deal_columns(run: list[str]) -> list[pl.Expr]:
    """The columns naming a game's deal among the games of a run (`run`: the columns that tell runs apart): the
    pairing regardless of seat order, and the game's rank within its ordered pairing. Exact when every chunk holds
    a multiple of the pairings (20,000 games and 20 pairings by default), as the runner's chunks do here."""
    return [pl.min_horizontal("deck_s0", "deck_s1").alias("_pair_a"),
            pl.max_horizontal("deck_s0", "deck_s1").alias("_pair_b"),
            pl.col("game_id").rank("ordinal").over([*run, "deck_s0", "deck_s1"]).alias("_deal_i")]


def field_games(rules: DrakerionRules, n: int) -> list[tuple[np.ndarray, DrakerionRules]]:
    """Each pairing's game numbers among n and the rules that play it."""
    matchups = rules.matchups()
    return [(np.arange(k, n, len(matchups)), at) for k, at in enumerate(matchups)]


def pairing_seed(seed: int, first: int, second: int) -> int:
    return int(np.random.SeedSequence([int(seed) & 0xFFFFFFFF, first, second]).generate_state(1)[0])


def seat_params(seat) -> tuple[np.ndarray, int, int]:
    """A seat's parameters as the kernel takes them, its search budget (0: it does not search) and whether its
    playouts are informed (1: they play the other seat with that seat's function and these parameters of it)."""
    if seat.strategy.functions[0] is search_choice:
        budget, informed, weights = search_params(seat.params)
        return weights, budget, informed
    return np.ascontiguousarray(seat.params, dtype=np.float64), 0, 0


def playout_policy():
    """The search's playout heuristic and its parameters: value at its default weights (the searcher's own moves,
    and the other seat's unless informed)."""
    return value_choice, np.array(REGISTRY.get("value").defaults, dtype=np.float64)


def search_args(lineup: Lineup) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Both seats' kernel parameters, the search budgets and the informed flags, as kernel_search.search_batch
    takes them (a seat whose budget is 0 does not search). An informed searcher's playouts play the other seat
    with that seat's function and these parameters of it (a searching seat's: value's default weights)."""
    (p0, b0, i0), (p1, b1, i1) = seat_params(lineup["seat0"]), seat_params(lineup["seat1"])
    return p0, p1, np.array([b0, b1], np.int64), np.array([i0, i1], np.int64)


def game_columns(rules: DrakerionRules, out: np.ndarray) -> dict[str, np.ndarray]:
    """The games table (one row per game) from the kernel's final states."""
    cols = {
        "winner": out[R.S_WINNER].astype(np.int8), "end": out[R.S_END].astype(np.int8),
        "turns": out[R.S_TURN].astype(np.int16), "first_seat": out[R.S_SEAT_OF_FIRST].astype(np.int8),
        **per_pairing(rules, out.shape[1]),
    }
    for seat in range(2):
        cols[f"prestige_s{seat}"] = out[R.S_PRESTIGE + seat].astype(np.int16)
        for stem, slot in SEAT_COUNTERS.items():
            cols[f"{stem}_s{seat}"] = out[slot + seat].astype(np.int16)
    for name, slot in FIRED.items():
        cols[name] = out[slot].astype(np.int32)
    for name, (slot, players) in DERIVED.items():
        a, b = out[slot], out[slot + 1]
        cols[name] = ((a > 0).astype(np.int32) + (b > 0)) if players else (a + b).astype(np.int32)
    cols["violations"] = out[R.T_VIOLATIONS].astype(np.int32)
    cols["bad_choices"] = out[R.T_BAD_CHOICES].astype(np.int32)
    cols["decisions"] = out[R.T_DECISIONS].astype(np.int32)
    return cols


def per_pairing(rules: DrakerionRules, n: int) -> dict[str, np.ndarray]:
    """The columns naming each game's decks and vanilla replacements."""
    matchups = rules.matchups()
    pick = np.arange(n) % len(matchups)
    column = lambda f: np.array([f(at) for at in matchups])[pick]
    return {"deck_s0": column(lambda at: at.seat0_deck), "deck_s1": column(lambda at: at.seat1_deck),
            "vanilla_s0": column(lambda at: at.vanilla_seat0), "vanilla_s1": column(lambda at: at.vanilla_seat1),
            "vanilla_ratio_s0": np.array([stat_ratio(at, at.vanilla_seat0) for at in matchups])[pick]}


def stat_ratio(rules: DrakerionRules, card: str) -> float:
    """(melee + riposte + HP) / cost of a character of the pool (NaN for other cards or none)."""
    return rules.pool().stat_ratios().get(card, float("nan")) if card else float("nan")


def play_columns(rules: DrakerionRules, played: np.ndarray) -> dict[str, np.ndarray]:
    """The `plays` table: one row per (game, seat, card name) played at least once, with the count."""
    if rules.fielded():
        parts = [(games, deck_plays(at, played[:, games])) for games, at in field_games(rules, played.shape[1])]
        cols = {k: np.concatenate([p[k] for _, p in parts]) for k in ("seat", "card", "plays")}
        cols["game"] = np.concatenate([games[p["game"]] for games, p in parts]).astype(np.int64)
        return cols
    return deck_plays(rules, played)


def deck_plays(rules: DrakerionRules, played: np.ndarray) -> dict[str, np.ndarray]:
    t = rules.arrays()
    names = t.names
    game, seat, card, count = [], [], [], []
    for p in range(2):
        ids = t.inst_card[p]
        for cid in np.unique(ids[:t.deck_n[p]]):
            rows = np.flatnonzero(ids[:t.deck_n[p]] == cid) + p * R.MAX_INST
            total = played[rows].sum(axis=0)
            hit = np.flatnonzero(total)
            game.append(hit)
            seat.append(np.full(len(hit), p, np.int8))
            card.append(np.full(len(hit), names[cid]))
            count.append(total[hit].astype(np.int16))
    if not game:
        return {"game": np.zeros(0, np.int64), "seat": np.zeros(0, np.int8), "card": np.zeros(0, str),
                "plays": np.zeros(0, np.int16)}
    return {"game": np.concatenate(game).astype(np.int64), "seat": np.concatenate(seat),
            "card": np.concatenate(card), "plays": np.concatenate(count)}


@dataclass
class DrakerionGame(Game):
    def simulate(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int, check: bool = False):
        out, played, _ = play(rules.typed, lineup, seed, n, check=check)
        return {"games": game_columns(rules.typed, out), "plays": play_columns(rules.typed, played)}

    def search_decisions(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int) -> int:
        counts = {}
        play(rules.typed, lineup, seed, n, counts=counts)
        return counts["search_decisions"]

    def traces(self, rules: Rules, players: int, lineup: Lineup, seed: int, n: int) -> list[Trace]:
        out, _, rows = play(rules.typed, lineup, seed, n, n_traced=n)
        table = game_columns(rules.typed, out)
        return [Trace(rows[g], {k: v[g].item() for k, v in table.items()}) for g in range(n)]

    def referee(self, rules: Rules, players: int, trace: Trace) -> list[str]:
        from sim.games.drakerion import referee
        return referee.replay(rules.typed, trace)

    def describe(self, rules: Rules) -> list[str]:
        return [*rules.typed.pool().describe_decks(),
                f"named pools (--set cards=NAME): {', '.join(pool_names())}; default: starter"]

    def decks(self, rules: Rules) -> list[str]:
        return list(rules.typed.pool().decks)

    def content(self, rules: Rules) -> list[Tunable]:
        from sim.games.drakerion.content import tunables
        return tunables(rules.typed.pool())

    def with_content(self, rules: Rules, changes: dict[tuple[str, str], int], to: Path,
                     header: tuple[str, ...] = ()) -> Rules:
        """The pool with `changes`, written to `to`; the rules playing it (a file of pools/ by its name)."""
        from sim.games.drakerion.content import write_pool
        try:
            write_pool(rules.typed.cards, changes, to, header)
        except ValueError as e:
            raise DsimError(str(e)) from None
        return with_cards(rules, cards_value(to), "balance")

    def deck_list(self, rules: Rules, deck: str) -> dict[str, int]:
        decks = rules.typed.pool().decks
        if deck not in decks:
            raise DsimError(f"unknown deck '{deck}' (known: {', '.join(decks)})")
        return dict(decks[deck]["cards"])

    def deck_building(self, rules: Rules, deck: str, most: int):
        from sim.games.drakerion.content import deck_building
        self.deck_list(rules, deck)
        return deck_building(rules.typed.pool(), deck, most, rules.typed.deck_size)

    def with_deck(self, rules: Rules, like: str, name: str, cards: dict[str, int], to: Path) -> Rules:
        from sim.games.drakerion.content import write_deck
        try:
            write_deck(rules.typed.cards, like, name, cards, to)
        except ValueError as e:
            raise DsimError(str(e)) from None
        return with_cards(rules, str(to), "decks")

    def with_lists(self, rules: Rules, lists: dict[str, dict[str, int]], to: Path,
                   header: tuple[str, ...] = ()) -> Rules:
        from sim.games.drakerion.content import write_lists
        try:
            write_lists(rules.typed.cards, lists, to, header)
        except ValueError as e:
            raise DsimError(str(e)) from None
        return with_cards(rules, cards_value(to), "decks")

    def content_file(self, name: str) -> Path:
        from sim.games.drakerion.content import named_file
        try:
            return named_file(name)
        except ValueError as e:
            raise DsimError(str(e)) from None

    def deal_columns(self, run: list[str]) -> list[pl.Expr]:
        """In a field a pairing and its seat swap play game i from one seed (`play_field`): one deal."""
        return deal_columns(run)

    def role_scores(self, games: pl.DataFrame, players: int) -> dict[str, np.ndarray]:
        """1 for a win, 0 for a loss, 0.5 each for a draw."""
        w = games["winner"].to_numpy()
        s0 = np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5))
        return {"seat0": s0, "seat1": 1.0 - s0}

    def outcomes(self) -> list[Outcome]:
        w = pl.col("winner")
        end = pl.col("end")
        decided = pl.when(w >= 0)
        return [
            Outcome("seat0_win", "rate", (w == 0).cast(pl.Float64), "seat 0 wins", headline=True),
            Outcome("seat1_win", "rate", (w == 1).cast(pl.Float64), "seat 1 wins"),
            Outcome("draw", "rate", (w == R.DRAW).cast(pl.Float64), "draws (turn cap or both at once)"),
            Outcome("first_player_win", "rate", decided.then((w == pl.col("first_seat")).cast(pl.Float64)),
                    "the first player wins (of decided games; fair: 50%)"),
            Outcome("prestige_end", "rate", (end == R.END_PRESTIGE).cast(pl.Float64), "won on prestige"),
            Outcome("wipeout_end", "rate", (end == R.END_WIPEOUT).cast(pl.Float64),
                    "won by leaving the opponent no character"),
            Outcome("cap_end", "rate", (end == R.END_CAP).cast(pl.Float64), "stopped at the turn cap (draw)"),
            Outcome("deck_end", "rate", (end == R.END_DECKED).cast(pl.Float64),
                    "won as the opponent had to draw from an empty deck (only under the rule empty deck loses)"),
            Outcome("turns", "mean", pl.col("turns").cast(pl.Float64), "game length (turns)"),
            Outcome("kills", "mean", (pl.col("kills_s0") + pl.col("kills_s1")).cast(pl.Float64),
                    "characters destroyed per game"),
            Outcome("violations", "mean", pl.col("violations").cast(pl.Float64), "kernel invariant failures"),
            Outcome("bad_choices", "mean", pl.col("bad_choices").cast(pl.Float64), "strategy answers out of range"),
        ]

    def coverage_runs(self) -> list[CoverageRun]:
        """Random and default (value) play over a ring of deck pairings (each of the five starter decks meets
        two others, in both seats), every rule-flag variant on a random run, and a low prestige goal that
        makes the double win (prestige_beats_wipeout) common enough to see."""
        decks = ("ember", "tide", "grove", "stone", "gloom")
        runs = []
        for j, a in enumerate(decks):
            b = decks[(j + 1) % len(decks)]
            pair = (f"seat0_deck={a}", f"seat1_deck={b}")
            runs.append(CoverageRun(2, "random", sets=pair, n=400))
            runs.append(CoverageRun(2, "default", sets=pair, n=300))
        flipped = {"mulligan_shuffle_first": "ember", "named_bonus_riposte": "stone", "out_player_fights": "gloom",
                   "prestige_combat_only": "gloom", "ability_attack_taps": "ember",
                   "shields_combatants_only": "grove", "intercept_implacable": "ember",
                   "imprevisible_event_combat_only": "gloom", "combat_gains_by_timing": "ember",
                   "shields_end_of_turn": "stone", "empty_deck_loses": "grove", "named_bonus_first_riposte": "stone",
                   "gains_last_in_play": "ember"}
        for v, a in flipped.items():            # each variant where its situation is common, against Stone
            runs.append(CoverageRun(2, "random", variants=(v,), sets=(f"seat0_deck={a}", "seat1_deck=stone"),
                                    n=300))
        # no starter deck holds an attachment with prestige: the first draft's ember and stone decks do
        runs.append(CoverageRun(2, "random", sets=("cards=first_draft", "seat0_deck=ember", "seat1_deck=stone"),
                                n=300))
        runs.append(CoverageRun(2, "random", variants=("prestige_beats_wipeout",),
                                sets=("win_prestige=4", "seat0_deck=ember", "seat1_deck=gloom"), n=500))
        return runs

    def calibration(self) -> list[Claim]:
        """The French rulebook makes no numeric claim about play (no game length, no first-player
        advantage); what it does say and can be measured: a game ends by one of its two win conditions
        (there is no other end, so a capped game is one that failed to end), and both conditions are
        presented as the ways to win, so each should decide a real share of games."""
        return [
            Claim("a game ends by one of the two win conditions (the rules have no other end): games reaching "
                  "the turn cap should be rare; the range allows 2% for the cap the simulator adds",
                  "cap_end", 2, 0.0, 0.02),
            Claim("prestige is one of the two ways to win: it should decide a real share of games (we read "
                  "'real' as at least 5%)", "prestige_end", 2, 0.05, 1.0,
                  cause="the invented starter decks (an assumed card pool), not a strategy habit: the default "
                        "pairing (ember vs tide) ends by wipeout in about 3 turns, before 20 prestige is "
                        "collected. Value-vs-value mirrors, 5,000 games each (seed 3), give prestige wins of "
                        "0.1% (ember), 1% (stone), 15% (gloom), 22% (tide) and 95% (grove); random play on the "
                        "default pairing 13%; aggressive vs value 0%; starting_gold=3 lifts it only to 1.8%, "
                        "win_prestige=10 to 53%. The decks that start with few, fragile characters make the "
                        "wipeout the usual end."),
            Claim("leaving the opponent without a character is the other way to win: it too should decide at "
                  "least 5% of games", "wipeout_end", 2, 0.05, 1.0),
        ]

    def group_columns(self) -> list[str]:
        return ["deck_s0", "deck_s1"]

    def label_columns(self) -> list[str]:
        return ["deck_s0", "deck_s1", "vanilla_s0", "vanilla_s1", "vanilla_ratio_s0"]


GAME = DrakerionGame(
    name="drakerion", title="Drakerion",
    min_players=2, max_players=2, default_players=2,
    default_lineup={"seat0": "value", "seat1": "value"},
    strategies=REGISTRY, rules_class=DrakerionRules, chunk_size=20_000,
    deck_rules={"seat0": "seat0_deck", "seat1": "seat1_deck"},
    # per turn: the starter set's games last about twice as long as the first draft's, for which the issue asked
    # 20,000 games/s per core at 3.3 turns a game (66,000 turns/s)
    bench_cases=[BenchCase("value vs value (default)", 2, "default", 66_000, unit="turns", n=60_000),
                 BenchCase("aggressive vs value", 2, "seat0=aggressive,seat1=value", 66_000, unit="turns", n=60_000),
                 BenchCase("random vs random", 2, "random", 4_000, n=20_000)],
)


def cards_value(to: Path) -> str:
    """The `cards` rule naming a written card file: its pool name when it lies in pools/, else its path."""
    return to.stem if to.parent.resolve() == pools.POOLS.resolve() else str(to)


def with_cards(rules: Rules, cards: str, label: str) -> Rules:
    """The rules playing another card file (their hash follows the file's content)."""
    ruleset = rules.ruleset.with_overrides({"cards": cards}, label=label)
    typed = build_typed(DrakerionRules, ruleset)
    return Rules(dataclasses.replace(ruleset, data_files=typed.data_files()), typed)


def check_decks(rules: Rules) -> None:
    """Fail with one line when a seat's deck does not load (the rules' own validation ran already)."""
    try:
        for at in rules.typed.matchups():
            at.arrays()
    except ValueError as e:
        raise DsimError(str(e)) from None
