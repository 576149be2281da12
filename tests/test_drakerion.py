"""Drakerion end to end: kernel invariants over 1e5 games, the referee over 1e4 random games (1e5 in
soak), every rule and effect seen to fire, every rule flag seen to change play, determinism, the CLI and bad input."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sim.cli.main import main
from sim.engine.errors import DsimError, RulesError
from sim.engine.game import RefereeError, Trace
from sim.games import get_game
from drakerion_cards import FIRST_DRAFT_RULES
from sim.games.drakerion import records as R
from sim.games.drakerion.game import FIRED_COLUMNS, play
from drakerion_cards import EIGHT, MANOEUVRES, small_card_file

GAME = get_game("drakerion")
# These checks were written for the first-draft pool with ember against tide (its cards and pairing); the starter
# pool and its field of decks have their own tests at the end.
FIRST = FIRST_DRAFT_RULES
RULES = GAME.load_rules(FIRST)
DECKS = RULES.typed.pool().deck_names()


def rules(*sets, variants=()):
    return GAME.load_rules(FIRST, variants=variants, sets=sets)


def checked(lineup: str, n: int, seed: int, *sets):
    out, _, _ = play(rules(*sets).typed, GAME.lineup(lineup), seed, n, check=True)
    return out


# ---- invariants ----------------------------------------------------------------------------------


def assert_sound(out, where):
    """The kernel's own checks found nothing, every game ended, and every draw is the cap or both at once."""
    assert out[R.T_VIOLATIONS].sum() == 0, where
    assert out[R.T_BAD_CHOICES].sum() == 0, where
    assert (out[R.S_OVER] == 1).all()
    won = out[R.S_WINNER] >= 0
    assert (out[R.S_END][~won] >= R.END_CAP).all()


def test_kernel_invariants_over_1e5_games():
    total = 0
    pairs = [(a, b) for a in DECKS for b in DECKS]
    for k, (lineup, n) in enumerate((("random", 40_000), ("default", 40_000), ("seat0=aggressive,seat1=value", 20_000))):
        for j in range(5):
            a, b = pairs[(7 * k + 5 * j) % len(pairs)]
            out = checked(lineup, n // 5, 100 * k + j, f"seat0_deck={a}", f"seat1_deck={b}")
            assert_sound(out, (lineup, a, b))
            capped = out[R.S_END] == R.END_CAP
            assert (out[R.S_TURN][capped] == RULES.typed.turn_cap).all()
            total += n // 5
    assert total >= 100_000


def test_turn_cap_is_a_counted_draw():
    out = checked("random", 2_000, 3, "turn_cap=2")
    assert (out[R.S_END] == R.END_CAP).any()
    capped = out[R.S_END] == R.END_CAP
    assert (out[R.S_WINNER][capped] == R.DRAW).all()
    assert (out[R.S_TURN][capped] == 2).all()


# ---- the referee ---------------------------------------------------------------------------------


def referee_games(lineup: str, n: int, seed: int, *sets) -> list[str]:
    r = rules(*sets)
    bad = []
    for g, trace in enumerate(GAME.traces(r, 2, GAME.lineup(lineup), seed, n)):
        try:
            GAME.referee(r, 2, trace)
        except RefereeError as e:
            bad.append(f"game {g}: {e}")
    return bad


def test_referee_replays_1e3_random_games():
    """1,000 random games over every deck in both seats (the pure-Python referee takes ~20 ms a game, and the
    test run already uses every core); soak: 1e5 random and default games."""
    pairs = list(zip(DECKS, DECKS[1:] + DECKS[:1]))
    jobs = [(k, a, b) for k, (a, b) in enumerate(pairs + [(b, a) for a, b in pairs])]
    results = [referee_games("random", 100, 50 + k, f"seat0_deck={a}", f"seat1_deck={b}") for k, a, b in jobs]
    assert len(jobs) * 100 == 1_000
    for bad in results:
        assert not bad, bad[:3]


def test_referee_replays_heuristic_games_and_flags():
    for lineup, sets in (("default", ()), ("seat0=aggressive,seat1=value", ("seat0_deck=gloom", "seat1_deck=stone")),
                         ("random", ("out_player_combat_actions=true", "named_bonus_second=riposte",
                                     "mulligan_shuffle_first=true", "prestige_any_destruction=false",
                                     "ability_attack_taps=true", "prestige_beats_wipeout=true",
                                     "intercept_implacable=true", "combat_gains_by_timing=true")),
                         ("random", ("seat0_deck=gloom", "seat1_deck=grove", "shields_combatants_only=true",
                                     "imprevisible_event_combat_only=true")),
                         ("default", ("seat0_deck=stone", "seat1_deck=grove", "shields_end_of_turn=true")),
                         ("random", ("seat0_deck=ember", "seat1_deck=stone", "named_bonus_first=hp",
                                     "named_bonus_second=riposte", "gains_last_in_play=true")),
                         ("default", ("seat0_deck=ember", "seat1_deck=stone", "attachment_prestige_to_host=false",
                                      "named_bonus_first=riposte"))):
        bad = referee_games(lineup, 300, 7, *sets)
        assert not bad, (lineup, bad[:3])


def test_referee_rejects_a_tampered_trace():
    trace = GAME.traces(RULES, 2, GAME.lineup("random"), 5, 1)[0]
    rows = trace.events.copy()
    decide = np.flatnonzero((rows[:, 0] == R.EV_DECIDE) & (rows[:, 1] == R.D_ACTION)
                            & (rows[:, 4] == R.ACT_ATTACK))
    assert len(decide)
    rows[decide[0], 6] = rows[decide[0], 5]               # attack one's own attacker
    with pytest.raises(RefereeError):
        GAME.referee(RULES, 2, Trace(rows, trace.record))
    record = dict(trace.record)
    record["winner"] = 1 - record["winner"] if record["winner"] >= 0 else 0
    with pytest.raises(RefereeError):
        GAME.referee(RULES, 2, Trace(trace.events, record))


@pytest.mark.soak
def test_soak_referee_1e5():
    for k in range(20):
        a, b = DECKS[k % 5], DECKS[(k * 3 + 1) % 5]
        bad = referee_games("random" if k % 2 else "default", 5_000, 900 + k, f"seat0_deck={a}", f"seat1_deck={b}")
        assert not bad, bad[:3]


# ---- every rule fires ----------------------------------------------------------------------------


def fired(run) -> dict[str, int]:
    r = GAME.load_rules(variants=run.variants, sets=run.sets)
    tables = GAME.simulate(r, run.players, GAME.lineup(run.lineup), 11, run.n)
    return {k: int(tables["games"][k].sum()) for k in FIRED_COLUMNS}


def test_coverage_runs_fire_every_counter():
    """Every effect kind, trigger, keyword, special rule and rule-flag situation fires somewhere in the
    coverage runs (random and value play over a ring of deck pairings, each variant, a low prestige goal)."""
    runs = GAME.coverage_runs()
    assert sum(r.n for r in runs) <= 12_000
    total = dict.fromkeys(FIRED_COLUMNS, 0)
    for run in runs:
        for k, v in fired(run).items():
            total[k] += v
    never = [k for k, v in total.items() if v == 0]
    assert not never, never


def test_every_flag_has_its_readings_a_variant_and_a_counter():
    import tomllib
    data = tomllib.loads((GAME.package_dir / "rules.toml").read_text())
    flags = {k for k, v in data["rules"].items() if "reading" in v}
    assert flags == FLAG_KEYS
    for k in flags:
        other = data["rules"][k].get("other_value", not data["rules"][k]["value"])
        assert any(v["set"].get(k) == other for v in data["variants"].values()), k
        assert f"fired_{k}" in FIRED_COLUMNS


FLAG_KEYS = {"mulligan_shuffle_first", "named_bonus_second", "out_player_combat_actions", "prestige_any_destruction",
             "ability_attack_taps", "prestige_beats_wipeout", "shields_combatants_only", "intercept_implacable",
             "imprevisible_event_combat_only", "combat_gains_by_timing", "shields_end_of_turn", "empty_deck_loses",
             "named_bonus_first", "gains_last_in_play", "attachment_prestige_to_host"}
FLAGS = {   # flag -> (other value, seat 0's deck where the situation is common)
    "mulligan_shuffle_first": ("true", "ember"), "named_bonus_second": ("riposte", "stone"),
    "out_player_combat_actions": ("true", "gloom"), "prestige_any_destruction": ("false", "gloom"),
    "ability_attack_taps": ("true", "ember"), "starting_gold": ("3", "ember"),
    "shields_combatants_only": ("true", "grove"), "intercept_implacable": ("true", "ember"),
    "imprevisible_event_combat_only": ("true", "gloom"), "combat_gains_by_timing": ("true", "ember", "default"),
    "shields_end_of_turn": ("true", "stone"), "empty_deck_loses": ("true", "grove"),
    "named_bonus_first": ("riposte", "stone"), "gains_last_in_play": ("true", "ember"),
    "attachment_prestige_to_host": ("false", "ember"),      # the first draft's Burning Blade (and stone's Warhammer)
}   # a third entry names the lineup when random play cannot tell the readings apart (default: random)


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_each_flag_changes_play(flag):
    value, deck, *how = FLAGS[flag]
    lineup = GAME.lineup(how[0] if how else "random")
    decks = (f"seat0_deck={deck}", "seat1_deck=stone")
    base = GAME.simulate(rules(*decks), 2, lineup, 17, 3_000)["games"]
    other = GAME.simulate(rules(*decks, f"{flag}={value}"), 2, lineup, 17, 3_000)["games"]
    assert any(not np.array_equal(base[k], other[k]) for k in ("winner", "turns", "prestige_s0", "decisions"))
    if flag in FLAG_KEYS:                 # the counter counts the situation under both readings
        assert base[f"fired_{flag}"].sum() > 0 and other[f"fired_{flag}"].sum() > 0


@pytest.mark.parametrize("flag, winner, end", [(0, R.DRAW, R.END_BOTH), (1, 0, R.END_PRESTIGE)])
def test_prestige_beats_wipeout_flag_decides_a_double_win(flag, winner, end):
    """Seat 0 reaches the prestige goal as its last character falls (too rare to wait for in play)."""
    from drakerion_cards import card as make_card
    from drakerion_scenarios import Table
    from sim.games.drakerion import kernel_base as KB
    t = Table({"x": make_card(type=R.CHARACTER, cost=1, melee=1, hp=2, prestige=1)},
              prestige_beats=flag).start({0: ["x"], 1: ["x"]})
    t.move(t.row(1, 0), R.Z_FRONT)
    t.st[R.S_PRESTIGE] = 20
    KB.win_check(t.w, t.st)
    assert (t.st[R.S_WINNER], t.st[R.S_END]) == (winner, end)
    assert t.counter(R.T_KW + R.K_F_PRESTIGE_BEATS) == 1      # the situation, under both readings


def test_games_lists_decks_and_flags(capsys):
    main(["games", "drakerion"])
    text = capsys.readouterr().out
    for name in DECKS:
        assert name in text
    for flag in (*FLAGS, "prestige_beats_wipeout"):
        assert flag in text


# ---- determinism and the pipeline ---------------------------------------------------------------


def test_determinism_and_traces_match_simulate():
    lineup = GAME.lineup("default")
    a = GAME.simulate(RULES, 2, lineup, 42, 2_000)["games"]
    b = GAME.simulate(RULES, 2, lineup, 42, 2_000)["games"]
    c = GAME.simulate(RULES, 2, lineup, 43, 2_000)["games"]
    assert all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)
    assert not np.array_equal(a["turns"], c["turns"])
    for g, trace in enumerate(GAME.traces(RULES, 2, lineup, 42, 30)):
        assert all(trace.record[k] == a[k][g] for k in ("winner", "turns", "prestige_s0", "prestige_s1"))


def test_vanilla_replacement_is_paired_and_changes_only_that_deck():
    pool = RULES.typed.pool()
    card = next(c for c in pool.deck_cards(RULES.typed.seat0_deck) if pool.card(c)["type"] == "event")
    lineup = GAME.lineup("default")
    base = GAME.simulate(RULES, 2, lineup, 8, 2_000)
    arm = GAME.simulate(rules(f"vanilla_seat0={card}"), 2, lineup, 8, 2_000)
    assert (arm["games"]["vanilla_s0"] == card).all()
    assert not np.array_equal(base["games"]["winner"], arm["games"]["winner"])
    assert card not in set(arm["plays"]["card"][arm["plays"]["seat"] == 0])


def test_cli_run_every_pairing_and_bad_input(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["run", "--game", "drakerion", "--n", "2000", "--deck", "seat0=gloom,seat1=stone",
                 "--strategy", "seat0=aggressive", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "seat 0 wins" in text
    for args, message in ((["--deck", "seat0=dragons"], "dragons"), (["--deck", "seat7=ember"], "seat7"),
                          (["--set", "deck_size=12"], "deck"), (["--strategy", "seat0=nobody"], "nobody")):
        code = main(["run", "--game", "drakerion", "--n", "10", "--out", str(tmp_path / "bad"), *args])
        err = capsys.readouterr().err
        assert code == 2 and message in err and "Traceback" not in err
        assert not (tmp_path / "bad").exists()


def test_deck_option_is_refused_for_games_without_decks(capsys):
    assert main(["run", "--game", "drako", "--n", "10", "--deck", "ember"]) == 2
    assert "no decks" in capsys.readouterr().err


def test_user_card_file_is_validated(tmp_path, capsys):
    bad = tmp_path / "cards.toml"
    bad.write_text('[meta]\ngame = "drakerion"\n[[card]]\nname = "X"\nfaction = "ember"\ntype = "dragon"\n')
    assert main(["run", "--game", "drakerion", "--n", "10", "--set", f"cards={bad}",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "dragon" in err and err.count("\n") == 1
    with pytest.raises((RulesError, DsimError)):
        rules(f"cards={tmp_path / 'missing.toml'}")


# ---- the card pool as data ------------------------------------------------------------------------


def test_default_pool_uses_every_keyword_trigger_cost_effect_target_and_filter():
    pool = RULES.typed.pool()
    used = {"keyword": set(), "trigger": set(), "condition": set(), "cost": set(), "effect": set(),
            "target": set(), "filter": set()}
    for deck in DECKS:
        d = pool.decks[deck]
        for name in list(d["cards"]) + d["manoeuvres"] + [d["city"], d["banner"]]:
            c = pool.card(name)
            used["keyword"] |= set(c["keywords"])
            for a in c["abilities"]:
                for key in ("trigger", "condition", "cost", "effect", "target"):
                    used[key].add(a[key])
                used["filter"] |= set(a["filter"])
        assert sum(d["cards"].values()) == RULES.typed.deck_size and len(d["manoeuvres"]) == 8
    assert used["keyword"] == set(R.KEYWORD_NAMES)
    assert used["trigger"] == set(R.TRIGGER_NAMES)
    assert used["condition"] == set(R.CONDITION_NAMES)
    assert used["cost"] == set(R.COST_NAMES)
    assert used["effect"] == set(R.EFFECT_NAMES)
    assert used["target"] == set(R.TARGET_NAMES)
    assert used["filter"] == set(R.FILTER_NAMES)
    assert any(pool.card(n)["attach_except"] for n in pool.names())


def test_costing_rule_of_thumb_holds_on_average():
    ratios = list(RULES.typed.pool().stat_ratios().values())
    assert 2.4 < np.mean(ratios) < 3.6


@pytest.mark.parametrize("extra, mans, copies, more, message", [
    (MANOEUVRES, EIGHT, 29, '"Nobody" = 1', "unknown card 'Nobody'"),
    (MANOEUVRES + '\n[[card]]\nname = "T"\nfaction = "tide"\ntype = "character"\ncost = 1\nhp = 1', EIGHT, 29,
     '"T" = 1', "'T' belongs to tide"),
    (MANOEUVRES, EIGHT, 12, "", "has 12 cards"),
    (MANOEUVRES, '["M0"]', 30, "", "exactly 8 manoeuvres"),
    (MANOEUVRES + '\n[[card]]\nname = "E"\nfaction = "ember"\ntype = "event"\n'
     'abilities = [{ trigger = "action", effect = "teleport" }]', EIGHT, 29, '"E" = 1', "unknown effect 'teleport'"),
    (MANOEUVRES + "\n[[card", EIGHT, 30, "", "malformed"),
])
def test_a_malformed_card_file_is_refused_in_one_line(tmp_path, extra, mans, copies, more, message):
    path = tmp_path / "cards.toml"
    path.write_text(small_card_file(extra, f'"S" = {copies}\n{more}', mans))
    with pytest.raises(RulesError) as e:
        rules(f"cards={path}", "seat0_deck=d", "seat1_deck=d")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_vanilla_replacement_keeps_size_cost_and_rows():
    deck = RULES.typed.seat0_deck
    base = RULES.typed.arrays()
    card = RULES.typed.pool().deck_cards(deck)[2]
    arm = rules(f"vanilla_seat0={card}").typed.arrays()
    cid = base.names.index(card)
    rows = np.flatnonzero(base.inst_card[0] == cid)
    assert len(rows) and all(arm.names[arm.inst_card[0, k]] == f"Vanilla {base.cards[cid, R.CD_COST]}" for k in rows)
    same = np.setdiff1d(np.arange(base.deck_n[0]), rows)
    assert all(arm.names[arm.inst_card[0, k]] == base.names[base.inst_card[0, k]] for k in same)
    assert arm.deck_n[0] == base.deck_n[0]
    with pytest.raises(RulesError):
        rules("vanilla_seat0=Nothing Such")


# ---- the starter pool and its field of decks (the default) ------------------------------------------------------

DEFAULT = GAME.load_rules()


def test_the_default_plays_every_pairing_of_the_starter_decks_in_turn():
    t = DEFAULT.typed
    assert t.cards == "starter" and t.fielded()
    pairs = t.pairings()
    assert len(pairs) == 20 and len(set(pairs)) == 20 and all(a != b for a, b in pairs)
    games = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 4, 400)["games"])
    assert list(zip(games["deck_s0"], games["deck_s1"])) == [pairs[g % 20] for g in range(400)]
    one = pl.DataFrame(GAME.simulate(rules(f"seat0_deck={pairs[3][0]}", f"seat1_deck={pairs[3][1]}",
                                           "cards=starter"), 2, GAME.lineup(None), 4, 10)["games"])
    assert not one.is_empty()


def test_the_starter_names_its_draft_and_plays_it_card_for_card(tmp_path, monkeypatch):
    from sim.games.drakerion import rules as pools
    draft = pools.alias_of(pools.POOLS / "starter.toml")
    assert draft in pools.pool_names() and pools.alias_of(pools.POOLS / f"{draft}.toml") is None
    assert pools.pool_file("starter") == pools.POOLS / f"{draft}.toml"
    assert pools.pool_of("starter").cards == pools.pool_of(draft).cards
    same = [pl.DataFrame(GAME.simulate(rules(f"cards={name}"), 2, GAME.lineup(None), 5, 60)["games"])
            for name in ("starter", draft)]
    assert same[0].equals(same[1])
    (tmp_path / "first.toml").write_bytes((pools.POOLS / "first_draft.toml").read_bytes())
    for name, target in (("a", "first"), ("b", "a"), ("c", "missing"), ("d", "../x")):
        (tmp_path / f"{name}.toml").write_text(f'[meta]\ngame = "drakerion"\nsame_as = "{target}"\n')
    monkeypatch.setattr(pools, "POOLS", tmp_path)
    assert pools.pool_of("a").cards == pools.pool_of("first").cards
    for name, error in (("b", "itself an alias"), ("c", "unknown pool 'missing'"), ("d", "must name a pool")):
        with pytest.raises(ValueError, match=error):
            pools.pool_file(name)


def test_kernel_invariants_over_1e5_games_of_the_default_field():
    """The starter's cards are not the first draft's: the kernel's own checks over every pairing of the default."""
    total = 0
    for k, (lineup, n) in enumerate((("random", 50_000), ("default", 50_000))):
        out, _, _ = play(DEFAULT.typed, GAME.lineup(lineup), 70 + k, n, check=True)
        assert_sound(out, lineup)
        total += n
    assert total >= 100_000


def test_a_field_game_does_not_depend_on_how_many_are_played():
    few = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 9, 60)["games"])
    many = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 9, 600)["games"])
    assert few.equals(many.head(60))
    other = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 10, 60)["games"])
    assert not few.equals(other)


def test_the_referee_accepts_field_games_of_every_pairing():
    traces = GAME.traces(DEFAULT, 2, GAME.lineup(None), 3, 40)
    assert len({(t.record["deck_s0"], t.record["deck_s1"]) for t in traces}) == 20
    for t in traces:
        GAME.referee(DEFAULT, 2, t)


def test_one_deck_against_the_field_and_a_vanilla_card_where_its_deck_holds_it():
    r = rules("cards=starter", "seat0_deck=stone", "seat1_deck=field", "vanilla_seat0=Crossbow Dwarf").typed
    assert r.pairings() == [("stone", d) for d in ("ember", "tide", "grove", "gloom")]
    assert {m.vanilla_seat0 for m in r.matchups()} == {"Crossbow Dwarf"}
    mixed = rules("cards=starter", "seat0_deck=field", "seat1_deck=field", "vanilla_seat0=Crossbow Dwarf").typed
    assert {m.seat0_deck for m in mixed.matchups() if m.vanilla_seat0} == {"stone"}
    with pytest.raises(RulesError, match="no deck seat 0 plays holds"):
        rules("cards=starter", "seat0_deck=ember", "seat1_deck=field", "vanilla_seat0=Crossbow Dwarf")


def test_every_effect_keyword_and_rule_situation_fires_in_the_default_games():
    """Issue 26's bar for the starter set: nothing of the rulebook's glossary stays unplayed in the default run
    (the rarest, a prestige win beside a wipe-out, comes about once in 5,000 games)."""
    games = GAME.simulate(DEFAULT, 2, GAME.lineup(None), 1, 60_000)["games"]
    never = [c for c in FIRED_COLUMNS if not np.any(games[c])]
    # no attachment in a starter deck prints prestige, so how an attachment's prestige counts never comes up
    pool = DEFAULT.typed.pool()
    held = {name for deck in pool.decks for name in pool.deck_cards(deck)}
    assert all(pool.card(name)["prestige"] == 0 for name in held if pool.card(name)["type"] == "attachment")
    assert never == ["fired_attachment_prestige_to_host"]


def test_a_field_pairing_and_its_seat_swap_are_dealt_alike():
    """Ember against tide and tide against ember play on one seed, as two runs of one seed do: the faction
    matrix pairs them game by game. Each equals a run of its own pairing on that seed."""
    from sim.games.drakerion.game import pairing_seed
    games = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 6, 200)["games"])
    decks = list(DEFAULT.typed.pool().decks)
    seed = pairing_seed(6, *sorted((decks.index("ember"), decks.index("tide"))))
    for a, b in (("ember", "tide"), ("tide", "ember")):
        field = games.filter((pl.col("deck_s0") == a) & (pl.col("deck_s1") == b)).drop(GAME.label_columns())
        alone = pl.DataFrame(GAME.simulate(rules("cards=starter", f"seat0_deck={a}", f"seat1_deck={b}"), 2,
                                           GAME.lineup(None), seed, 10)["games"]).drop(GAME.label_columns())
        assert field.height == 10 and field.equals(alone)


def test_the_faction_matrix_gives_each_deck_against_the_field_with_its_interval():
    from sim.report.games.drakerion import _extremes, _runs, faction_grid, field_rate
    games = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 12, 1_000)["games"]).with_row_index(
        "game_id").with_columns(lineup=pl.lit("value"))
    runs = _runs(games.lazy())
    decks, grid = faction_grid(runs)
    fields = [field_rate(runs, d, decks) for d in decks]
    for i, f in enumerate(fields):
        row = [grid[i, j].value for j in range(len(decks)) if j != i]
        assert f.value == pytest.approx(np.mean(row))             # each opponent weighs the same
        assert 0 <= f.lo < f.value < f.hi <= 1
        assert f.hi - f.lo < max(grid[i, j].hi - grid[i, j].lo for j in range(len(decks)) if j != i)
    line = _extremes(decks, fields)
    top = max(fields, key=lambda f: f.value)
    if top.lo > max(f.hi for f in fields if f is not top):
        assert f"Strongest deck over the field: **{decks[fields.index(top)]}** ({top.fmt(pct=True, digits=1)})" in line
    else:
        assert "No deck is measurably the strongest" in line
    from sim.analysis.stats import Estimate
    apart = [Estimate(0.6, 0.55, 0.65, 100), Estimate(0.5, 0.46, 0.54, 100), Estimate(0.4, 0.35, 0.44, 100)]
    assert _extremes(["a", "b", "c"], apart).startswith("Strongest deck over the field: **a** (60.0% [55.0, 65.0]); "
                                                         "weakest: **c** (40.0% [35.0, 44.0]).")
    close = [Estimate(0.51, 0.50, 0.52, 100), Estimate(0.505, 0.49, 0.52, 100), Estimate(0.4, 0.35, 0.44, 100)]
    assert _extremes(["a", "b", "c"], close).startswith("No deck is measurably the strongest (the highest, **a**")
    assert "weakest: **c**" in _extremes(["a", "b", "c"], close)
    both = [Estimate(0.523, 0.517, 0.529, 100), Estimate(0.518, 0.512, 0.524, 100), Estimate(0.5, 0.49, 0.51, 100),
            Estimate(0.485, 0.479, 0.491, 100), Estimate(0.476, 0.470, 0.482, 100)]
    line = _extremes(["stone", "grove", "ember", "gloom", "tide"], both)     # the two ends clear each other only
    assert "the highest, **stone**, 52.3% [51.7, 52.9], overlaps grove, 51.8% [51.2, 52.4]" in line
    assert "the lowest, **tide**, 47.6% [47.0, 48.2], overlaps gloom, 48.5% [47.9, 49.1]" in line


def test_the_costing_verdict_says_how_much_a_detected_tie_explains():
    from sim.analysis.stats import Estimate
    from sim.report.games.drakerion import costing_verdict
    ratios = {f"c{i}": float(i) for i in range(40)}
    tied = [{"card": f"c{i}", "effect": Estimate(i / 100, 0, 1, 10)} for i in range(40)]
    assert "accounting for 100% of the variance of their ranks" in costing_verdict(tied, ratios)
    noise = np.random.default_rng(3).permutation(40)
    loose = [{"card": f"c{i}", "effect": Estimate(float(noise[i]), 0, 1, 10)} for i in range(40)]
    assert "does not detectably predict" in costing_verdict(loose, ratios)
    assert costing_verdict(loose[:3], ratios).startswith("Too few")


# ---- the report's intervals: a pairing and its seat swap share their deals ---------------------------------------

def test_a_seat_swapped_pair_of_games_counts_as_one_deal():
    from sim.analysis.intervals import wilson as plain_wilson
    from sim.report.games.drakerion import over_deals
    rng = np.random.default_rng(3)
    deals = 400
    ember_wins = rng.random(deals) < 0.55          # ember goes first in both seat orders and wins both or neither
    rows = []
    for i, won in enumerate(ember_wins):
        rows.append({"game_id": 2 * i, "deck_s0": "ember", "deck_s1": "tide", "first_seat": 0,
                     "winner": 0 if won else 1})
        rows.append({"game_id": 2 * i + 1, "deck_s0": "tide", "deck_s1": "ember", "first_seat": 1,
                     "winner": 1 if won else 0})
    games = pl.DataFrame(rows).with_columns(rules=pl.lit("r"), seed=pl.lit(0), lineup=pl.lit("value")).lazy()
    w = pl.col("winner")
    first = over_deals(games, {"x": (pl.when(w >= 0).then(w == pl.col("first_seat")), "rate")})["x"]
    once = plain_wilson(int(ember_wins.sum()), deals)          # each deal counted once: the honest width
    assert first.value == pytest.approx(once.value)
    assert first.hi - first.lo == pytest.approx(once.hi - once.lo, rel=0.02)
    naive = plain_wilson(2 * int(ember_wins.sum()), 2 * deals)
    assert first.hi - first.lo > 1.3 * (naive.hi - naive.lo)
    seat0 = over_deals(games, {"x": (w == 0, "rate")})["x"]                   # one win each per deal: no spread at all
    assert seat0.value == 0.5 and seat0.hi - seat0.lo < naive.hi - naive.lo


def test_the_summary_of_a_field_counts_deals_not_games():
    from sim.analysis.intervals import cluster_totals, clustered_rate
    from sim.analysis.summary import summarize
    games = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 8, 800)["games"]).with_columns(
        rules=pl.lit("r"), seed=pl.lit(8), lineup=pl.lit("value"), game_id=pl.int_range(800))
    deal = GAME.deals(games)
    assert len(np.unique(deal)) == 400                     # 20 pairings, each with its seat swap: 2 games a deal
    row = next(r for r in summarize(GAME, games.lazy(), []) if r["outcome"] == "first_player_win")
    w, first = games["winner"].to_numpy(), games["first_seat"].to_numpy()
    decided = w >= 0
    want = clustered_rate(*cluster_totals(deal[decided], (w == first)[decided].astype(float)))
    assert (row["estimate"].value, row["estimate"].lo, row["estimate"].hi) == pytest.approx(
        (want.value, want.lo, want.hi))
    from sim.analysis.compare import compare_frames
    flipped = games.with_columns(winner=pl.when(pl.col("game_id") % 3 == 0).then(1 - pl.col("winner"))
                                 .otherwise(pl.col("winner")))
    change = next(r[2] for r in compare_frames(GAME, games, flipped) if r[0] == "first_player_win")
    assert "clustered by deal over 400 deals" in change.diff.method
    never = next(r["estimate"] for r in summarize(GAME, games.lazy(), []) if r["outcome"] == "violations")
    assert never.value == 0 and never.hi > 0                # a count no game had keeps its exact upper bound


def test_the_design_effect_is_measured_on_a_bounded_number_of_games(monkeypatch):
    from sim.analysis import summary
    games = pl.DataFrame(GAME.simulate(DEFAULT, 2, GAME.lineup(None), 9, 800)["games"]).with_columns(
        rules=pl.lit("r"), seed=pl.lit(9), lineup=pl.lit("value"), game_id=pl.int_range(800)).lazy()
    measure = {"first": (pl.col("winner") == pl.col("first_seat")).cast(pl.Float64)}
    run = ["rules", "seed", "lineup"]
    deal = GAME.deal_columns(run)
    whole = summary.design_effects(games.filter(pl.col("game_id") < 400), deal, run, [], measure)
    monkeypatch.setattr(summary, "DEFF_GAMES", 400)            # memory stays flat: only the first games are grouped
    assert summary.design_effects(games, deal, run, [], measure) == whole != {}

