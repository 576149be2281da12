"""Drachensachen engine: rules data, the rulebook's worked example, the referee over random games with every
optional rule, kernel invariants, determinism, stalemates and the reporting pipeline."""

from concurrent.futures import ProcessPoolExecutor

import numpy as np
import polars as pl
import pytest
from numba import njit

from sim.engine.errors import DsimError, RulesError
from sim.engine.game import RefereeError
from sim.engine.runner import run
from sim.engine.spec import RunSpec
from sim.games.drachensachen import kernel
from sim.games.drachensachen.game import GAME, Trace, play
from sim.games.drachensachen.records import (
    C_TRACE, EXTERMINO, GAME_COLUMNS, K_DISCARD, K_DRAW, K_PLAY, K_TAKE, MAX_PLAYERS, N_GAME_COLS, N_PLAYER_COLS,
    N_ROUND_COLS, PROTECTO, SIG, T_ABILITY, T_BLIND, T_DECK, T_MISS, T_PLAY, T_ROUND, T_SETUP, TRACE_WIDTH,
)
from sim.games.drachensachen.referee import Referee

COL = {name: i for i, name in enumerate(GAME_COLUMNS)}
FLAGS = ("house_fours", "house_fives", "house_protecto", "curse_many_monsters", "curse_unknowing", "curse_chaos",
         "refill_hand", "three_allows_three", "dragons_cancel_draw", "stalemate_scores", "discard_facing",
         "fives_spare_player", "extermino_stays", "nullo_quick_must_play", "house_fives_pass",
         "hidden_gold_from_back")
ABILITIES = ("ability_nullo_quick", "ability_envious_monsters", "ability_one_on_nine", "ability_monsterball",
             "ability_roundabout", "ability_golden_feathers", "ability_open_secrets")


def rules_with(variants=(), sets=()):
    return GAME.load_rules(variants=variants, sets=sets)


# ---- rules data ----------------------------------------------------------------------------------

def test_every_value_is_labelled_and_every_variant_loads():
    rules = rules_with()
    entries = rules.ruleset.entries
    assert all(e.source in ("rulebook", "assumed") and e.note for e in entries.values())
    assert {"coins_per_card", "turn_cap", "stalemate_scores", "curse_hand_cards"} <= set(rules.ruleset.assumed())
    assert sum(rules.typed.card_counts) == 96 and rules.typed.redraw_pile == 18
    assert all(not getattr(rules.typed, f) for f in FLAGS[:6] + ABILITIES)
    for name in rules.ruleset.available_variants:
        assert rules_with(variants=[name]).hash != rules.hash


@pytest.mark.parametrize("bad", [
    "hand_cards=-1", "hand_cards=true", "card_counts=[8, 8]", "coins_per_card=[1]", "turn_cap=5",
    "hidden_cards=9", "max_rounds=0", "exchanges=9", "no_such_rule=1", "house_fours=1",
    "card_counts=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
])
def test_bad_rules_raise(bad):
    with pytest.raises(RulesError):
        rules_with(sets=[bad])


def test_bad_rules_file_raises(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text(GAME.rules_file().read_text().replace('value = 18', 'value = "eighteen"'))
    with pytest.raises(RulesError):
        GAME.load_rules(broken)
    (tmp_path / "syntax.toml").write_text("[meta\ngame = 'drachensachen'")
    with pytest.raises(RulesError):
        GAME.load_rules(tmp_path / "syntax.toml")


def test_player_counts_checked():
    rules = rules_with()
    for bad in (1, 7):
        with pytest.raises(DsimError):
            GAME.check_players(rules, bad)
    with pytest.raises(DsimError):
        GAME.check_players(rules_with(sets=["card_counts=[3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]"]), 4)


# ---- the rulebook's worked example -----------------------------------------------------------------

SCRIPT_OPTIONS = 60   # where the scripted strategy writes the options of its latest scripted decision


@njit(SIG)
def scripted(moves, n, view, params):
    """Plays the moves listed in params[1:] (kind, type, from hand, from open), then always option 0."""
    c = int(params[0])
    base = 1 + 4 * c
    if params[base] < 0:
        return 0
    params[0] = c + 1
    params[SCRIPT_OPTIONS] = n
    for i in range(n):
        params[SCRIPT_OPTIONS + 1 + 2 * i] = moves[i, 0]
        params[SCRIPT_OPTIONS + 2 + 2 * i] = moves[i, 1]
    kind = int(params[base])
    t = int(params[base + 1])
    for i in range(n):
        if moves[i, 0] == kind and (kind != K_PLAY or moves[i, 1] == t):
            if kind == K_PLAY:
                moves[i, 2] = int(params[base + 2])
                moves[i, 3] = int(params[base + 3])
            return i
    return -1


@njit(SIG)
def first_option(moves, n, view, params):
    return 0


def preset_deal(counts, starter, seats, redraw_head):
    """A kernel preset: the starter, each seat's sizes, then the deck in deal order (face-down, open, hand
    for each seat, then the redraw pile); the cards not named follow in a fixed order."""
    pool = [t for t in range(1, 13) for _ in range(counts[t - 1])]
    head = [starter]
    for q in range(MAX_PLAYERS):
        hidden, opened, hand = seats[q] if q < len(seats) else ((), (), ())
        head += [len(hand), len(hidden), len(opened)]
    deck = []
    for hidden, opened, hand in seats:
        deck += list(hidden) + list(opened) + list(hand)
    deck += list(redraw_head)
    for c in deck:
        pool.remove(c)
    return np.array(head + deck + pool, np.int64)


def play_scripted(rules, players, preset, scripts):
    """One game from a preset deal with scripted seats; returns its trace, games row and the params."""
    r = rules.typed
    params = np.full((MAX_PLAYERS, 128), -1.0)
    for q, steps in scripts.items():
        params[q, 0] = 0
        for i, step in enumerate(steps):
            params[q, 1 + 4 * i: 5 + 4 * i] = step
    games = np.zeros((1, N_GAME_COLS), np.int64)
    seats = np.zeros((1, players, N_PLAYER_COLS), np.int64)
    rounds = np.zeros((256, N_ROUND_COLS), np.int64)
    trace = np.zeros((50_000, TRACE_WIDTH), np.int16)
    starts = np.zeros(2, np.int64)
    counters = np.zeros(4, np.int64)
    kernel.play_batch(11, 1, players, r.ints(), r.counts(), r.coins(), preset, (scripted,) * MAX_PLAYERS,
                      (first_option,) * MAX_PLAYERS, (first_option,) * MAX_PLAYERS, params, games, seats,
                      rounds, trace, starts, counters, True, 0, (scripted,) * MAX_PLAYERS, (first_option,) * MAX_PLAYERS,
                      (first_option,) * MAX_PLAYERS, params, (scripted,) * MAX_PLAYERS,
                      (first_option,) * MAX_PLAYERS, (first_option,) * MAX_PLAYERS, params, np.ones(1))
    assert counters[C_TRACE] <= len(trace)
    return Trace(trace[starts[0]:starts[1]].copy(), dict(zip(GAME_COLUMNS, games[0].tolist()))), games[0], params


def test_rulebook_example():
    """David (seat 0), Caro (1), Peter (2) and Stefanie (3); Caro starts. Only the real choices are scripted:
    moves with a single option (Caro taking the pile, Stefanie's 9 after her burn) are forced."""
    P, X = PROTECTO, EXTERMINO
    seats = [
        ((1, 2, 3), (2, 3, 8), (4, 6, P, 1, 1)),       # David
        ((1, 2, 3), (5, 6, 3), (2, 4, 4, X)),          # Caro
        ((1, 2, 3), (7, 8, 8), (3, P, 7)),             # Peter: his open 7 goes with his last hand card
        ((5, 5, 5), (5, 6, 8), (1, 4, 7, 7, 9)),       # Stefanie
    ]
    rules = rules_with()
    preset = preset_deal(rules.typed.card_counts, 1, seats, redraw_head=(2, 3, 5, 1, 8, 2, 3, 5))
    scripts = {
        0: [(K_PLAY, 4, 1, 0), (K_DRAW, 0, 0, 0), (K_PLAY, 6, 1, 0), (K_PLAY, P, 1, 0)],
        1: [(K_PLAY, 2, 1, 0), (K_PLAY, 4, 2, 0), (K_PLAY, X, 1, 0)],
        2: [(K_PLAY, 3, 1, 0), (K_PLAY, P, 1, 0), (K_PLAY, 7, 1, 1)],
        3: [(K_PLAY, 1, 1, 0), (K_PLAY, 4, 1, 0), (K_PLAY, 7, 2, 0)],
    }
    trace, row, params = play_scripted(rules, 4, preset, scripts)
    assert row[COL["violations"]] == 0 and row[COL["check_fails"]] == 0
    assert all(params[q, 0] == len(steps) for q, steps in scripts.items()), "every scripted move was offered"
    lines = Referee(rules.typed, 4, trace).run()
    expected = [
        "Round 1: seat 1 starts",
        "  seat 1 plays 2",
        "  seat 2 plays 3",
        "  seat 3 plays 1",                       # lower than the 3
        "  seat 0 plays 4",
        "  seat 1 plays 2× 4",                    # three 4s: the next player would draw six
        "  seat 2 plays Protecto",                # pushes the draw on
        "  seat 3 plays 4",                       # four 4s, but a dragon between: no burn, eight to draw
        "  seat 0 draws 8 cards",
        "  seat 0 plays 6",
        "  seat 1 takes the pile (9 cards)",      # no dragon on a 6, nothing of 6 or more
        "  seat 2 plays 2× 7 (1 from the open row)",
        "  seat 3 plays 2× 7",
        "    four 7 in a row: the pile leaves the round; seat 3 plays again",
        "  seat 3 plays 9",
        "  seat 0 plays Protecto",                # no 9: pushes the 9 on
        "  seat 1 plays Extermino",
        "    Extermino removes the pile; seat 1 plays again",
    ]
    assert lines[:len(expected)] == expected
    # what Caro could do against the 9 under a Protecto: only dragons (or put out her four 4s, or take)
    offered = {(int(params[1, SCRIPT_OPTIONS + 1 + 2 * i]), int(params[1, SCRIPT_OPTIONS + 2 + 2 * i]))
               for i in range(int(params[1, SCRIPT_OPTIONS]))}
    assert offered == {(K_PLAY, P), (K_PLAY, X), (K_DISCARD, 4), (K_TAKE, 0)}


# ---- referee over random games -------------------------------------------------------------------

def referee_batch(job):
    """Play a batch and referee every game; returns (games, first rejection or '')."""
    players, lineup, variants, sets, n, seed = job
    rules = rules_with(variants, sets)
    traces = GAME.traces(rules, players, GAME.lineup(lineup), seed, n)
    for g, trace in enumerate(traces):
        try:
            Referee(rules.typed, players, trace, narrate=False).run()
        except RefereeError as e:
            return n, f"{players}p {lineup} {variants} {sets} seed {seed} game {g}: {e}"
    return n, ""


def referee_jobs(scale: int):
    """Batches covering every player count, every strategy and each optional rule on (alone, then all
    together); `scale` games per 100 of the plan (the plan is 10,100 games at scale 1)."""
    jobs = [(p, "random", (), (), 150 * scale, 10 + p) for p in (2, 3, 5, 6)]
    jobs += [(4, "random", (), (), 1200 * scale, 20)]
    jobs += [(4, name, ("everything",), (), 300 * scale, 30) for name in ("low-first", "aggressive", "weighted")]
    jobs += [(3, "random", ("everything",), (), 1000 * scale, 40), (4, "random", ("everything",), (), 1500 * scale, 41),
             (6, "random", ("everything",), (), 500 * scale, 42), (2, "random", ("everything", "refill"), (), 500 * scale, 43)]
    for i, flag in enumerate(FLAGS + ABILITIES):
        sets = (f"{flag}=true", "abilities_from_start=true") if flag.startswith("ability") else (f"{flag}=true",)
        jobs.append((2 + i % 5, "random", (), sets, 250 * scale, 100 + i))
    jobs.append((4, "random", ("abilities", "curses"), ("turn_cap=60", "max_rounds=20"), 300 * scale, 200))
    return jobs


def run_referee(jobs):
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(referee_batch, jobs))
    rejected = [msg for _, msg in results if msg]
    assert not rejected, rejected[0]
    return sum(n for n, _ in results)


def test_referee_accepts_random_games():
    assert run_referee(referee_jobs(1)) >= 10_000


@pytest.mark.soak
def test_referee_soak():
    assert run_referee([job[:5] + (job[5] + 1000,) for job in referee_jobs(10)]) >= 100_000


def test_referee_rejects_tampering():
    rules = rules_with(variants=["everything"])
    trace = GAME.traces(rules, 4, GAME.lineup("random"), 5, 1)[0]
    plays = np.flatnonzero(trace.events[:, 0] == T_PLAY)
    for step, col, delta in ((plays[3], 2, 1), (plays[10], 3, 5), (len(trace.events) - 2, 2, 1)):
        events = trace.events.copy()
        events[step, col] += delta
        with pytest.raises(RefereeError):
            Referee(rules.typed, 4, Trace(events, trace.record), narrate=False).run()
    record = dict(trace.record, turns=trace.record["turns"] + 1)
    with pytest.raises(RefereeError):
        Referee(rules.typed, 4, Trace(trace.events, record), narrate=False).run()


def test_replay_lines_read_well():
    rules = rules_with()
    lines = GAME.referee(rules, 4, GAME.traces(rules, 4, GAME.lineup(None), 0, 1)[0])
    assert lines[0].startswith("Round 1: seat ") and lines[-1].startswith("Game over after ")
    assert any("takes the pile" in line for line in lines)


# ---- kernel invariants ---------------------------------------------------------------------------

@pytest.mark.parametrize("players,lineup,variants,n", [
    (4, "random", (), 30_000), (4, "random", ("everything",), 25_000), (2, "random", ("everything", "refill"), 10_000),
    (6, "aggressive", ("everything",), 10_000), (3, "weighted", ("house_rules", "curses"), 15_000),
    (5, "low-first", ("abilities",), 15_000),
])
def test_cards_conserved_every_turn(players, lineup, variants, n):
    games, seats, rounds, _, _ = play(rules_with(variants), players, GAME.lineup(lineup), 77, n, check=True)
    assert games[:, COL["check_fails"]].sum() == 0
    assert games[:, COL["violations"]].sum() == 0
    assert (games[:, COL["winner"]] >= 0).sum() + games[:, COL["stalemate"]].sum() == n
    assert len(rounds) == games[:, COL["rounds"]].sum()


# ---- determinism, stalemates, pipeline -----------------------------------------------------------

def test_same_seed_same_games():
    rules = rules_with(variants=["everything"])
    lineup = GAME.lineup("random")
    a = GAME.simulate(rules, 4, lineup, 123, 500)
    b = GAME.simulate(rules, 4, lineup, 123, 500)
    c = GAME.simulate(rules, 4, lineup, 124, 500)
    for table in a:
        for col in a[table]:
            assert np.array_equal(a[table][col], b[table][col])
    assert not np.array_equal(a["games"]["turns"], c["games"]["turns"])
    short = GAME.simulate(rules, 4, lineup, 123, 200)
    assert np.array_equal(short["games"]["turns"], a["games"]["turns"][:200])
    traces = GAME.traces(rules, 4, lineup, 123, 50)
    assert [t.record["turns"] for t in traces] == a["games"]["turns"][:50].tolist()


def first_deal(trace):
    """The rows that open a game: the abilities active from the start, the first round's starter, sizes and deck."""
    rows = trace.events
    k = 0
    while k < len(rows) and rows[k, 0] in (T_ABILITY, T_ROUND, T_SETUP, T_DECK):
        k += 1
    return rows[:k]


@pytest.mark.parametrize("one,two", [
    (((), "weighted"), ((), "random")),
    ((("everything",), "weighted"), (("everything",), "random")),
    (((), "default"), (("house_protecto",), "default")),
], ids=["lineups", "lineups-everything", "house-rule"])
def test_each_game_is_dealt_alike_whatever_the_games_before_it_did(one, two):
    """A game's random streams come from (seed, game index) alone: two lineups, or two rules, that play the games
    of a batch differently deal every one of them alike (starter, sizes, deck, abilities), so a comparison on the
    same seeds is paired game by game. (With one stream per batch the deals parted after the first game whose
    play drew differently.)"""
    n = 40
    a, b = (GAME.traces(rules_with(variants), 4, GAME.lineup(lineup), 7, n) for variants, lineup in (one, two))
    assert sum(x.record["turns"] != y.record["turns"] for x, y in zip(a, b)) >= n // 4
    for g, (x, y) in enumerate(zip(a, b)):
        assert len(first_deal(x)) > 4 and np.array_equal(first_deal(x), first_deal(y)), g


def test_stalemates_are_counted_and_refereed():
    rules = rules_with(sets=["turn_cap=40", "max_rounds=12"])
    tables = GAME.simulate(rules, 4, GAME.lineup("random"), 9, 2000)
    g = tables["games"]
    assert g["stalemate_rounds"].sum() > 0
    assert ((g["winner"] == -1) == (g["stalemate"] == 1)).all()
    assert (tables["rounds"]["went_out"] == -1).sum() == g["stalemate_rounds"].sum()
    for trace in GAME.traces(rules, 4, GAME.lineup("random"), 9, 200):
        Referee(rules.typed, 4, trace, narrate=False).run()


def test_pipeline_tables_outcomes_and_report(tmp_path):
    rules = rules_with()
    spec = RunSpec(GAME, rules, 4, GAME.lineup("seat0=aggressive"), 3000, seed=1)
    run(spec, tmp_path / "out", jobs=1, progress=False)
    spec = RunSpec(GAME, rules_with(variants=["house_rules"]), 4, GAME.lineup("seat0=aggressive"), 3000, seed=1)
    run(spec, tmp_path / "out", jobs=1, progress=False)
    games = pl.read_parquet(tmp_path / "out" / "games" / "**" / "*.parquet", hive_partitioning=True)
    players = pl.read_parquet(tmp_path / "out" / "players" / "**" / "*.parquet", hive_partitioning=True)
    rounds = pl.read_parquet(tmp_path / "out" / "rounds" / "**" / "*.parquet", hive_partitioning=True)
    assert games.height == 6000 and players.height == 24000 and rounds.height == games["rounds"].sum()
    assert (players.group_by("rules", "game_id").agg(pl.col("won").sum())["won"] <= 1).all()
    for outcome in GAME.outcomes():
        assert games.select(outcome.expr).height == games.height
    charts = []

    def chart(name, fig):
        charts.append(name)
        fig.savefig(tmp_path / f"{name}.png")
        return f"![{name}]({name}.png)"

    from sim.report import sections
    games = games.with_columns(pl.when(pl.col("rules") == rules.hash).then(pl.lit("base"))
                               .otherwise(pl.lit("house rules")).alias("config"))
    text = "\n".join(line for s in GAME.report_tables() for line in sections.render(s, games, chart))
    assert "Stalemates" in text and "Coins lost by position in the round" in text
    assert "| base |" in text and "| house rules |" in text
    assert {"seat_wins", "positions", "rounds", "turns", "effects"} <= set(charts)


# ---- readings (rule flags), rule counters, the loop fix ---------------------------------------------

# each flag: a configuration where its situation arises (players, lineup, variants), and what the other
# reading must do to a games column compared with the default reading ("<": fewer, ">": more, "!=": differ)
READINGS = {
    "fives_spare_player": (2, "default", (), "skips", "<"),
    "discard_facing": (4, "random", (), "discards", ">"),
    "extermino_stays": (4, "default", (), "pickups", "!="),
    "nullo_quick_must_play": (4, "random", ("nullo_quick",), "pickups", "<"),
    "house_fives_pass": (4, "aggressive", ("house_fives",), "skips", "<"),
    "hidden_gold_from_back": (4, "default", ("golden_feathers",), "lost0", ">"),
    "three_allows_three": (4, "default", (), "pickups", "!="),
    "dragons_cancel_draw": (4, "random", (), "cards_drawn", "<"),
    "refill_hand": (4, "default", (), "cards_drawn", "!="),
}


@pytest.mark.parametrize("flag", sorted(READINGS))
def test_each_reading_plays_differently_where_it_decides(flag):
    players, lineup, variants, column, sign = READINGS[flag]
    base = rules_with(variants)
    other = rules_with(variants, [(flag, base.ruleset.flags()[flag].other_value)])
    a = GAME.simulate(base, players, GAME.lineup(lineup), 21, 1500)["games"]
    b = GAME.simulate(other, players, GAME.lineup(lineup), 21, 1500)["games"]
    assert a[f"fired_{flag}"].sum() > 0 and b[f"fired_{flag}"].sum() > 0, "the situation never arose"
    x, y = int(a[column].sum()), int(b[column].sum())
    assert {"<": y < x, ">": y > x, "!=": y != x}[sign], (flag, column, x, y)
    for trace in GAME.traces(other, players, GAME.lineup(lineup), 21, 60):
        Referee(other.typed, players, trace, narrate=False).run()


def test_fives_spare_player_never_skips_the_player_of_the_fives():
    """At 2 players two 5s come back to their player: under the other reading that player is never skipped."""
    rules = rules_with(sets=[("fives_spare_player", True)])
    for trace in GAME.traces(rules, 2, GAME.lineup("default"), 4, 200):
        last_five = -1
        for row in trace.events.tolist():
            if (row[0] == T_PLAY and row[2] == 5) or (row[0] == T_BLIND and row[2] == 5 and row[3] == 1):
                last_five = row[1]
            elif row[0] == T_MISS and row[2] == 0:
                assert row[1] != last_five


def test_every_counter_is_in_the_games_table_and_the_coverage_runs_fire_them():
    totals = {}
    for run_ in GAME.coverage_runs():
        g = GAME.simulate(rules_with(run_.variants, list(run_.sets)), run_.players, GAME.lineup(run_.lineup), 3,
                          min(run_.n, 600))["games"]
        for k, v in g.items():
            if k.startswith("fired_"):
                totals[k] = totals.get(k, 0) + int(v.sum())
    assert {f"fired_{f}" for f in rules_with().ruleset.flags()} <= set(totals)
    assert not [k for k, v in totals.items() if v == 0]


def test_default_strategy_plays_two_protectos_under_the_house_rule():
    off = GAME.simulate(rules_with(), 4, GAME.lineup("default"), 2, 1000)["games"]
    on = GAME.simulate(rules_with(["house_protecto"]), 4, GAME.lineup("default"), 2, 1000)["games"]
    assert off["fired_house_protecto"].sum() == 0 and on["fired_house_protecto"].sum() > 100
    assert on["skips"].sum() > off["skips"].sum()


@pytest.mark.parametrize("n", [5000, pytest.param(100_000, marks=pytest.mark.soak)])
def test_default_strategy_does_not_loop_at_two_players(n):
    """Two weighted_v1 players pass the same small pile back and forth until the turn cap in about a fifth of
    2-player games; the default strategy notices that nobody is getting closer to going out and breaks out."""
    games = GAME.simulate(rules_with(), 2, GAME.lineup("default"), 2026, n)["games"]
    assert games["stalemate_rounds"].sum() == 0
    old = GAME.simulate(rules_with(), 2, GAME.lineup("weighted_v1"), 2026, 2000)["games"]
    assert (old["stalemate_rounds"] > 0).mean() > 0.1


def test_calibration_claims_name_outcomes():
    names = {o.name for o in GAME.outcomes()}
    claims = GAME.calibration()
    assert claims and all(c.outcome in names for c in claims)
