"""Dragonwake: rulebook scenarios, referee over many games, kernel invariants, determinism."""

import numpy as np
import pytest
from numba import njit

from sim.engine.errors import DsimError, RulesError
from sim.engine.game import RefereeError, Trace
from sim.engine.strategy import Seat, Strategy
from sim.games import get_game
from sim.games.dragonwake.records import (
    ASK_AFTER, ASK_BEFORE, ASK_PEEK, CANDLE, CARDS0, CHOSEN, DIVINATOR, DOWN0, DRAGON, ECLIPSE, END_DRAGON,
    END_RELICS, END_TIME, EV_ASIDE, EV_CLAIM, EV_END, EV_EVENT, EV_FATE, EV_FLIP, EV_PEEK, EV_POWER, EV_REVEAL,
    EV_ROLE, EV_ROUND, EV_UNDO, FATE, GLUTTONY, GOLD, MAX_HAND, MAX_PLAYERS, MENTOR, P_ASK, P_HAND, P_LAST_CARD,
    P_PLAYERS, PICK_SIG, POWER_SIG, PUB_ROW, RELIC, STATE_WIDTH, holds,
)
from strategies import dragonwake as strat

GAME = get_game("dragonwake")
RULES = GAME.load_rules()
LINEUPS = ["random", "hero=honest,cultist=liar", "hero=bayes,cultist=bayes", "hero=bayes,cultist=liar"]


def play(players=5, lineup="random", seed=1, n=10_000, rules=RULES, check=False):
    return GAME.simulate(rules, players, GAME.lineup(lineup), seed, n, check=check)["games"]


def hand_state(hand):
    """A packed state where player 0 holds `hand` (a list of card codes)."""
    state = np.zeros((MAX_PLAYERS + 1, STATE_WIDTH), np.int64)
    state[:, CARDS0:CARDS0 + MAX_HAND] = -1
    for s, card in enumerate(hand):
        state[0, CARDS0 + s] = card
        state[0, DOWN0 + s] = 1
    state[PUB_ROW, P_PLAYERS] = 5
    state[PUB_ROW, P_HAND] = len(hand)
    return state


# ---- rulebook examples -------------------------------------------------------------------------------

def test_declaration_examples_from_the_rulebook():
    memory = np.zeros(32)
    honest = GAME.strategies.get("honest")
    liar = GAME.strategies.get("liar")
    # a hero with one relic and gold says so
    one_relic = hand_state([RELIC, GOLD, GOLD, GOLD, GOLD])
    assert strat.honest_declare(0, 0, one_relic, honest.params(), memory) == 1 * 2 + 0
    # a cultist with nothing claims two relics (inflate = 2)
    nothing = hand_state([GOLD] * 5)
    assert strat.liar_declare(0, 1, nothing, liar.params({"inflate": 2}), memory) == 2 * 2
    # a hero holding the dragon and two relics hides it all behind "only gold"
    dragon_hand = hand_state([RELIC, DRAGON, RELIC, GOLD, GOLD])
    assert strat.honest_declare(0, 0, dragon_hand, honest.params({"hide_dragon": 1.0}), memory) == 0
    assert strat.honest_declare(0, 0, dragon_hand, honest.params({"hide_dragon": 0.0}), memory) == 2 * 2 + 1


def test_four_players_round_ends_after_four_reveals_and_runestone_passes():
    trace = GAME.traces(RULES, 4, GAME.lineup("random"), 7, 300)
    checked = 0
    for t in trace:
        events = [tuple(r) for r in t.events if r[0] != 0]
        rounds = [i for i, e in enumerate(events) if e[0] == EV_ROUND]
        for a, b in zip(rounds, rounds[1:]):
            reveals = [e for e in events[a:b] if e[0] == EV_REVEAL]
            assert len(reveals) == 4
            # the last player to receive the runestone starts the next round
            assert events[b][3] == reveals[-1][2]
            for prev, cur in zip(reveals, reveals[1:]):
                assert cur[1] == prev[2]          # the revealed player becomes runebearer
                assert cur[1] != cur[2]           # never one's own card
            checked += 1
    assert checked > 100


def test_the_three_end_conditions_all_occur_and_match_their_winners():
    g = play(5, "random", n=50_000)
    modes = np.bincount(g["end_mode"], minlength=3)
    assert (modes > 0).all()
    assert (g["winner"][g["end_mode"] == END_RELICS] == 0).all()
    assert (g["winner"][g["end_mode"] != END_RELICS] == 1).all()
    assert (g["relics_found"][g["end_mode"] == END_RELICS] == 5).all()
    assert (g["relics_found"][g["end_mode"] != END_RELICS] < 5).all()
    assert (g["reveals"][g["end_mode"] == END_TIME] == 4 * 5).all()
    assert (g["rounds"][g["end_mode"] == END_TIME] == 4).all()


def test_dragon_first_ends_the_game_at_once_but_not_with_minimum_reveals():
    g = play(5, "random", n=50_000)
    first = g["reveals"] == 1
    assert first.any() and (g["end_mode"][first] == END_DRAGON).all()
    fused = GAME.load_rules(variants=["min_reveals"])
    h = play(5, "random", n=50_000, rules=fused, check=True)
    dragon_games = h["end_mode"] == END_DRAGON
    assert (h["reveals"][dragon_games] >= 5).all()
    assert h["early_dragons"].sum() > 0
    assert h["violations"].sum() == 0
    # an early dragon is swapped back in: with the fuse, the dragon wakes later but still often
    assert dragon_games.mean() > 0.5


def test_role_deck_of_four_and_seven_players_leaves_a_card_out():
    for players, options in ((4, {1, 2}), (7, {2, 3}), (5, {2}), (6, {2}), (8, {3})):
        g = play(players, "random", n=20_000)
        assert set(np.unique(g["n_cultists"]).tolist()) == options
    g = play(4, "random", n=20_000)
    # 3 hero cards + 2 cultist cards, 4 dealt: two cultists unless a cultist card is the undealt one
    share = (g["n_cultists"] == 2).mean()
    assert abs(share - 3 / 5) < 5 * np.sqrt(0.24 / 20_000)


def test_formula_extends_the_chart_and_can_be_turned_off():
    assert RULES.typed.role_deck(9) == (6, 3)
    assert RULES.typed.role_deck(10) == (7, 4)
    for players in (4, 5, 6, 7, 8):
        cultists = (players + 2) // 3
        assert RULES.typed.role_deck(players) == (players - cultists + (players % 3 == 1), cultists)
    strict = GAME.load_rules(sets=["allow_formula_counts=false"])
    with pytest.raises(DsimError):
        GAME.check_players(strict, 9)
    g = play(9, "hero=bayes,cultist=liar", n=5000, check=True)
    assert g["violations"].sum() == 0


def test_events_eclipse_silences_honest_claims_and_gluttony_sets_cards_aside():
    rules = GAME.load_rules(variants=["events"])
    traces = GAME.traces(rules, 5, GAME.lineup("hero=honest,cultist=liar"), 21, 400)
    seen = {ECLIPSE: 0, GLUTTONY: 0}
    for t in traces:
        events = [tuple(int(x) for x in r) for r in t.events if r[0] != 0]
        for i, e in enumerate(events):
            if e[0] != EV_EVENT:
                continue
            assert e[1] < len(RULES.typed.hand_sizes) - 1 or e[2] == 0     # never in the last round
            round_events = events[i + 1:]
            nxt = next((k for k, x in enumerate(round_events) if x[0] == EV_ROUND), len(round_events))
            round_events = round_events[:nxt]
            if e[2] == ECLIPSE:
                seen[ECLIPSE] += 1
                roles = {x[1]: x[2] for x in events if x[0] == 1}
                claims = [x for x in round_events if x[0] == EV_CLAIM and roles[x[1]] == 0]
                assert claims and all(x[2] == -1 for x in claims)
            if e[2] == GLUTTONY:
                seen[GLUTTONY] += 1
                aside = [(x[1], x[2]) for x in round_events if x[0] == EV_ASIDE]
                assert len(aside) == 1
                revealed = [(x[2], x[3]) for x in round_events if x[0] == EV_REVEAL]
                assert aside[0] not in revealed
    assert seen[ECLIPSE] > 50 and seen[GLUTTONY] > 50
    g = play(5, "hero=bayes,cultist=liar", n=100_000, rules=rules, check=True)
    assert g["violations"].sum() == 0


# ---- referee -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("lineup", LINEUPS)
def test_referee_accepts_random_games(lineup):
    total = 0
    for players in (4, 5, 6, 7, 8):
        for t in GAME.traces(RULES, players, GAME.lineup(lineup), 100 + players, 500):
            lines = GAME.referee(RULES, players, t)
            assert lines[-1].endswith(")")
            total += 1
    assert total == 2500


def test_referee_accepts_variants():
    for variant in ("min_reveals", "long_fuse", "five_rounds", "events"):
        rules = GAME.load_rules(variants=[variant])
        for t in GAME.traces(rules, 5, GAME.lineup("hero=bayes,cultist=liar"), 3, 1000):
            GAME.referee(rules, 5, t)


def _tampered(t: Trace, code: int, column: int, delta: int) -> Trace:
    events = t.events.copy()
    rows = np.flatnonzero(events[:, 0] == code)
    events[rows[0], column] += delta
    return Trace(events, t.record)


def test_referee_rejects_illegal_moves_and_wrong_results():
    t = GAME.traces(RULES, 5, GAME.lineup("random"), 11, 1)[0]
    GAME.referee(RULES, 5, t)
    events = t.events.copy()
    r = np.flatnonzero(events[:, 0] == EV_REVEAL)[0]
    events[r, 2] = events[r, 1]                            # reveal one's own card
    with pytest.raises(RefereeError, match="own card|held"):
        GAME.referee(RULES, 5, Trace(events, t.record))
    with pytest.raises(RefereeError):
        GAME.referee(RULES, 5, _tampered(t, EV_REVEAL, 4, 1 if t.events[r, 4] < DRAGON else -1))
    with pytest.raises(RefereeError, match="out of turn"):
        GAME.referee(RULES, 5, _tampered(t, EV_CLAIM, 1, 1))
    wrong = dict(t.record, winner=1 - int(t.record["winner"]))
    with pytest.raises(RefereeError, match="winner"):
        GAME.referee(RULES, 5, Trace(t.events, wrong))


@pytest.mark.soak
@pytest.mark.parametrize("lineup", LINEUPS)
def test_soak_referee_100k(lineup):
    for players in (4, 5, 6, 7, 8):
        for t in GAME.traces(RULES, players, GAME.lineup(lineup), 9000 + players, 20_000):
            GAME.referee(RULES, players, t)


# ---- kernel invariants and determinism ------------------------------------------------------------------

@pytest.mark.parametrize("lineup", LINEUPS)
def test_kernel_invariants_over_100k_games(lineup):
    for players in (4, 6, 8):
        g = play(players, lineup, seed=5, n=100_000 if players == 6 else 20_000, check=True)
        assert g["violations"].sum() == 0
        assert (g["reveals"] <= 4 * players).all()
        assert (g["rounds"] <= 4).all() and (g["rounds"] >= 1).all()
        assert ((g["reveals"] - 1) // players + 1 == g["rounds"]).all()
        assert (g["claims_true"] + g["claims_false"] + g["claims_silent"] == players * g["rounds"]).all()
        masks = g["cultist_mask"].astype(np.int64)
        bits = np.array([bin(m).count("1") for m in masks[:2000]])
        assert (bits == g["n_cultists"][:2000]).all()


def test_same_seed_same_games_different_seed_different_games():
    a = play(5, "hero=bayes,cultist=liar", seed=42, n=5000)
    b = play(5, "hero=bayes,cultist=liar", seed=42, n=5000)
    c = play(5, "hero=bayes,cultist=liar", seed=43, n=5000)
    for k in a:
        assert np.array_equal(a[k], b[k])
    assert not np.array_equal(a["reveals"], c["reveals"])


def test_traces_play_the_same_games_as_simulate():
    g = play(6, "hero=honest,cultist=liar", seed=9, n=200)
    traces = GAME.traces(RULES, 6, GAME.lineup("hero=honest,cultist=liar"), 9, 200)
    assert [int(t.record["reveals"]) for t in traces] == g["reveals"].tolist()


def test_strategies_matter_in_the_expected_direction():
    # liars who hunt the dragon beat random cultists against the same heroes
    rand = play(5, "hero=honest,cultist=random", n=40_000)["winner"].mean()
    liar = play(5, "hero=honest,cultist=liar", n=40_000)["winner"].mean()
    assert liar > rand + 0.01


def test_bad_rules_are_rejected():
    with pytest.raises(RulesError, match="hand_sizes"):
        GAME.load_rules(sets=["hand_sizes=[5,3,2]"])
    with pytest.raises(RulesError, match="unknown rule"):
        GAME.load_rules(sets=["hand_size=4"])
    with pytest.raises(RulesError, match="must be like"):
        GAME.load_rules(sets=["min_reveals=true"])
    with pytest.raises(RulesError, match="unknown variant"):
        GAME.load_rules(variants=["nope"])
    with pytest.raises(DsimError):
        GAME.check_players(RULES, 2)



# ---- advanced game: artifacts and powers ------------------------------------------------------------------

ADVANCED = GAME.load_rules(variants=["advanced"])
NEW_POWERS = ("preacher", "witch", "inquisitor", "bandit", "trickster")
NO_NEW_POWERS = [f"power_{p}=0" for p in NEW_POWERS]


def _events(t):
    return [tuple(int(x) for x in r) for r in t.events if r[0] != 0]


@njit(POWER_SIG, cache=True)
def _undo_artifacts(me, role, state, params, memory):
    """Uses Chosen One exactly when an artifact was just revealed; otherwise never uses a power."""
    if state[PUB_ROW, P_ASK] == ASK_AFTER:
        return CHOSEN if state[PUB_ROW, P_LAST_CARD] >= CANDLE else 0
    return strat.no_power(me, role, state, params, memory)


@njit(POWER_SIG, cache=True)
def _peek_own(me, role, state, params, memory):
    """Tries to peek at its own card (illegal) whenever it can; uses peek powers at once."""
    if state[PUB_ROW, P_ASK] == ASK_BEFORE:
        return DIVINATOR if holds(state, me, DIVINATOR) else (MENTOR if holds(state, me, MENTOR) else 0)
    if state[PUB_ROW, P_ASK] == ASK_PEEK:
        for s in range(MAX_HAND):
            if state[me, DOWN0 + s] == 1:
                return me * MAX_HAND + s
        return -1
    return strat.no_power(me, role, state, params, memory)


@njit(PICK_SIG, cache=True)
def _pick_own(me, role, state, params, memory):
    """Reveals one of its own cards whenever it has one (legal only with self_reveal, never after Hunter)."""
    for s in range(MAX_HAND):
        if state[me, DOWN0 + s] == 1:
            return me * MAX_HAND + s
    return strat.random_pick(me, role, state, params, memory)


def _custom(name, power, pick=None):
    rnd = GAME.strategies.get("random")
    fns = (rnd.functions[0], pick or rnd.functions[1], power)
    return {role: Seat(Strategy(name, ("hero", "cultist"), fns), np.zeros(1)) for role in ("hero", "cultist")}


def test_chosen_one_undoes_an_artifact_and_its_effect():
    rules = GAME.load_rules(variants=["advanced"], sets=["artifact_candle=4", "artifact_fate=4", "power_divinator=0",
                                                          "power_mentor=0", "power_hunter=0", "power_chosen_one=10",
                                                          *NO_NEW_POWERS])
    traces = GAME.traces(rules, 5, _custom("undo_artifacts", _undo_artifacts), 3, 400)
    undone = {CANDLE: 0, FATE: 0}
    for t in traces:
        GAME.referee(rules, 5, t)
        ev = _events(t)
        roles = [e[2] for e in ev if e[0] == EV_ROLE]
        peeks = 0
        artifacts = 0
        for i, e in enumerate(ev):
            if e[0] != EV_REVEAL or e[4] < CANDLE:
                continue
            effect = ev[i + 1]
            assert effect[0] in (EV_PEEK, EV_FATE, EV_POWER) and (effect[0] == EV_POWER or effect[1] == e[1])
            j = i + 1 + (effect[0] != EV_POWER)
            if ev[j][0] == EV_POWER:           # undone: the card goes back, the same runebearer reveals again
                assert ev[j][2] == CHOSEN and ev[j + 1][0] == EV_UNDO and ev[j + 1][1:4] == e[2:5]
                nxt = next(x for x in ev[j + 2:] if x[0] in (EV_REVEAL, EV_END))
                assert nxt[0] == EV_REVEAL and nxt[1] == e[1]
                undone[e[4]] += 1
            else:                              # kept: its effect stands
                artifacts += 1
                peeks += effect[0] == EV_PEEK
                if effect[0] == EV_FATE:
                    roles[e[1]] = effect[3]
        assert int(t.record["peeks"]) == peeks and int(t.record["artifacts_found"]) == artifacts
        assert int(t.record["side_mask"]) == sum(r << p for p, r in enumerate(roles))
    assert undone[CANDLE] > 20 and undone[FATE] > 20


def test_hunter_may_flip_own_cards_but_must_reveal_anothers():
    rules = GAME.load_rules(variants=["powers"], sets=["self_reveal=true", "power_divinator=0", "power_mentor=0",
                                                        "power_hunter=10", "power_chosen_one=0", *NO_NEW_POWERS])
    lineup = _custom("hunt_own", strat.random_power, _pick_own)
    traces = GAME.traces(rules, 5, lineup, 8, 1000)
    own_flips = hunted = own_reveals = 0
    for t in traces:
        # the trace holds the kernel's corrected moves; `violations` counts the strategy's illegal tries
        GAME.referee(rules, 5, Trace(t.events, dict(t.record, violations=0)))
        ev = _events(t)
        for i, e in enumerate(ev):
            if e[0] == EV_FLIP:
                own_flips += e[1] == e[2]
            if e[0] == EV_REVEAL:
                before = ev[i - 1]
                if before[0] == EV_FLIP:
                    hunted += 1
                    assert e[2] != e[1]          # never one's own card after a Hunter
                else:
                    own_reveals += e[2] == e[1]  # self_reveal allows it otherwise
    assert own_flips > 20 and hunted > 100 and own_reveals > 100
    # after a Hunter the kernel corrects (and counts) the attempt to reveal one's own card (a hunter with
    # no card of its own left picks legally)
    assert hunted // 2 < sum(int(t.record["violations"]) for t in traces) <= hunted
    # the referee rejects a reveal of one's own card after a Hunter
    for t in traces:
        ev = t.events
        rows = [i for i in range(1, len(ev)) if ev[i, 0] == EV_REVEAL and ev[i - 1, 0] == EV_FLIP]
        if rows:
            bad = ev.copy()
            bad[rows[0], 2] = bad[rows[0], 1]
            with pytest.raises(RefereeError, match="own card after using Hunter"):
                GAME.referee(rules, 5, Trace(bad, dict(t.record, violations=0)))
            break


def test_peeks_never_own_nor_set_aside_and_are_allowed_under_eclipse():
    rules = GAME.load_rules(variants=["advanced"], sets=["gluttony_cards=2", "artifact_candle=3"])
    traces = GAME.traces(rules, 5, GAME.lineup("random"), 4, 1500)
    eclipse_peeks = 0
    tampered = {"own": False, "aside": False}
    for t in traces:
        ev = _events(t)
        event = None
        aside = set()
        for i, e in enumerate(ev):
            if e[0] == EV_EVENT:
                event, aside = e[2], set()
            elif e[0] == EV_ASIDE:
                aside.add((e[1], e[2]))
            elif e[0] == EV_PEEK:
                assert e[1] != e[2] and (e[2], e[3]) not in aside
                eclipse_peeks += event == ECLIPSE
                if not tampered["own"]:
                    bad = t.events.copy()
                    row = np.flatnonzero(bad[:, 0] == EV_PEEK)[0]
                    bad[row, 2] = bad[row, 1]
                    with pytest.raises(RefereeError, match="own card"):
                        GAME.referee(rules, 5, Trace(bad, t.record))
                    tampered["own"] = True
                if aside and not tampered["aside"]:
                    bad = t.events.copy()
                    row = np.flatnonzero(bad[:, 0] == EV_PEEK)[sum(1 for x in ev[:i] if x[0] == EV_PEEK)]
                    seat, slot = next(iter(aside))
                    if seat != e[1]:
                        bad[row, 2], bad[row, 3] = seat, slot
                        with pytest.raises(RefereeError, match="no face-down card in play"):
                            GAME.referee(rules, 5, Trace(bad, t.record))
                        tampered["aside"] = True
    assert eclipse_peeks > 50 and all(tampered.values())
    # a strategy that tries to peek at its own cards is corrected and counted
    g = GAME.simulate(rules, 5, _custom("peek_own", _peek_own), 4, 2000, check=True)["games"]
    assert g["violations"].sum() > 0 and g["peeks"].sum() > 0
    for t in GAME.traces(rules, 5, _custom("peek_own", _peek_own), 4, 200):
        assert all(e[1] != e[2] for e in _events(t) if e[0] == EV_PEEK)


def test_modules_off_leave_the_basic_game_alone():
    g = play(5, "hero=bayes,cultist=liar", n=20_000)
    for col in ("artifacts_found", "powers_used", "peeks", "undos"):
        assert (g[col] == 0).all()
    assert np.array_equal(g["side_mask"], g["cultist_mask"])
    # a strategy without a power function still plays the advanced game (it never uses a power)
    rnd = GAME.strategies.get("random")
    two = {role: Seat(Strategy("two", ("hero", "cultist"), rnd.functions[:2]), np.zeros(1)) for role in ("hero", "cultist")}
    h = GAME.simulate(ADVANCED, 5, two, 1, 20_000, check=True)["games"]
    assert h["violations"].sum() == 0 and h["powers_used"].sum() == 0 and h["artifacts_found"].sum() > 0


@pytest.mark.parametrize("lineup", ["random", "hero=bayes,cultist=liar"])
def test_advanced_kernel_invariants_over_100k_games(lineup):
    for players, n in ((5, 100_000), (4, 10_000), (8, 10_000)):
        g = play(players, lineup, seed=15, n=n, rules=ADVANCED, check=True)
        assert g["violations"].sum() == 0       # cards conserved, every power used at most once
        assert (g["powers_used"] <= players).all() and (g["undos"] <= g["powers_used"]).all()
        assert (g["reveals"] <= 4 * players).all()
        assert g["powers_used"].mean() > 1 and g["undos"].sum() > 0 and g["artifacts_found"].sum() > 0
        assert (g["side_mask"] != g["cultist_mask"]).any()


@pytest.mark.parametrize("lineup", LINEUPS)
def test_referee_accepts_advanced_games(lineup):
    for players in (4, 5, 6, 7, 8):
        rules = ADVANCED if players != 7 else GAME.load_rules(variants=["advanced", "min_reveals"])
        for t in GAME.traces(rules, players, GAME.lineup(lineup), 200 + players, 500):
            GAME.referee(rules, players, t)


def test_advanced_game_is_deterministic_and_traces_match():
    a = play(6, "hero=bayes,cultist=liar", seed=42, n=5000, rules=ADVANCED)
    b = play(6, "hero=bayes,cultist=liar", seed=42, n=5000, rules=ADVANCED)
    for k in a:
        assert np.array_equal(a[k], b[k])
    traces = GAME.traces(ADVANCED, 6, GAME.lineup("hero=bayes,cultist=liar"), 42, 300)
    assert [int(t.record["reveals"]) for t in traces] == a["reveals"][:300].tolist()
    assert [int(t.record["powers_used"]) for t in traces] == a["powers_used"][:300].tolist()


def test_heroes_use_powers_to_their_advantage():
    # bayes heroes with powers beat the same heroes whose powers stay unused
    with_powers = play(5, "hero=bayes,cultist=liar", n=40_000, rules=GAME.load_rules(variants=["powers"]))
    rnd = GAME.strategies.get("bayes")
    passive = dict(GAME.lineup("hero=bayes,cultist=liar"))
    passive["hero"] = Seat(Strategy("passive", ("hero",), rnd.functions[:2]), passive["hero"].params)
    without = GAME.simulate(GAME.load_rules(variants=["powers"]), 5, passive, 1, 40_000)["games"]
    assert (with_powers["winner"] == 0).mean() > (without["winner"] == 0).mean() + 0.01


def test_bad_advanced_rules_are_rejected():
    with pytest.raises(RulesError, match="powers_per_player"):
        GAME.load_rules(sets=["powers_per_player=4"])
    with pytest.raises(RulesError, match="hunter_flips"):
        GAME.load_rules(sets=["hunter_flips=-1"])
    too_many = GAME.load_rules(variants=["artifacts"], sets=["artifact_candle=30"])
    with pytest.raises(DsimError):
        GAME.check_players(too_many, 5)


# ---- #13: rule flags, fired counters, the five inferred powers, coverage and calibration --------------

from sim.engine.game import Claim                                          # noqa: E402
from sim.games.dragonwake.records import (                              # noqa: E402
    ASK_PLAYER, BANDIT, EV_CARDSWAP, EV_CONVERT, EV_ORDER, FIRED, INQUISITOR, PREACHER, TRICKSTER, WITCH,
)

ALL_POWERS = ("divinator", "mentor", "hunter", "chosen_one", *NEW_POWERS)


def only_powers(*names, variants=("powers",), extra=()):
    """Rules with the power deck holding 10 copies of each named power and nothing else."""
    return GAME.load_rules(variants=list(variants),
                           sets=[f"power_{p}={10 if p in names else 0}" for p in ALL_POWERS] + list(extra))


def test_flag_kth_reveal_dragon_wakes():
    on = GAME.load_rules(variants=["min_reveals"])
    off = GAME.load_rules(variants=["min_reveals", "kth_reveal_gold"])
    a = play(5, "random", seed=3, n=4000, rules=on, check=True)
    b = play(5, "random", seed=3, n=4000, rules=off, check=True)
    at_k = lambda g: (g["end_mode"] == END_DRAGON) & (g["reveals"] == 5)           # noqa: E731
    # default: a dragon that is the 5th reveal wakes; other reading: it is swapped back, never ends the game
    assert at_k(a).sum() > 50 and at_k(b).sum() == 0
    assert a["fired_kth_reveal_dragon_wakes"].sum() == at_k(a).sum()
    assert b["fired_kth_reveal_dragon_wakes"].sum() > 50
    assert (b["fired_min_reveals"] >= b["fired_kth_reveal_dragon_wakes"]).all()
    assert a["violations"].sum() == b["violations"].sum() == 0
    for t in GAME.traces(off, 5, GAME.lineup("random"), 3, 300):
        GAME.referee(off, 5, t)


def test_flag_events_with_replacement():
    rules = GAME.load_rules(variants=["events"])
    repl = GAME.load_rules(variants=["events", "events_with_replacement"])
    a = play(5, "random", seed=4, n=4000, rules=rules, check=True)
    b = play(5, "random", seed=4, n=4000, rules=repl, check=True)
    # without replacement each of the three event cards comes at most once a game; with it, repeats happen
    for name in ("eclipse", "gluttony", "blank_event"):
        assert a["fired_" + name].max() == 1 and b["fired_" + name].max() >= 2
    assert a["fired_events_with_replacement"].sum() > 0 and b["fired_events_with_replacement"].sum() > 0
    for t in GAME.traces(repl, 5, GAME.lineup("random"), 4, 300):
        GAME.referee(repl, 5, t)


def _event_rounds(traces):
    rounds = set()
    for t in traces:
        rounds |= {e[1] for e in _events(t) if e[0] == EV_EVENT and e[2] != 0}
    return rounds


def test_flag_event_skip_round():
    five = GAME.load_rules(variants=["events", "five_rounds"], sets=["event_blank=0", "event_eclipse=3"])
    fourth = GAME.load_rules(variants=["events", "five_rounds", "event_skip_fourth"],
                             sets=["event_blank=0", "event_eclipse=3"])
    lineup = GAME.lineup("random")
    # five rounds: 'last' skips round 5 (index 4), 'fourth' skips round 4 and draws again in round 5
    a = GAME.traces(five, 5, lineup, 5, 1000)
    b = GAME.traces(fourth, 5, lineup, 5, 1000)
    assert 3 in _event_rounds(a) and 4 not in _event_rounds(a)
    assert 4 in _event_rounds(b) and 3 not in _event_rounds(b)
    for t in a[:200]:
        GAME.referee(five, 5, t)
    for t in b[:200]:
        GAME.referee(fourth, 5, t)
    # in the standard four rounds the two readings are the same game
    std = play(5, "random", seed=5, n=3000, rules=GAME.load_rules(variants=["events"]))
    std4 = play(5, "random", seed=5, n=3000, rules=GAME.load_rules(variants=["events", "event_skip_fourth"]))
    assert all(np.array_equal(std[k], std4[k]) for k in std)
    assert std["fired_event_skip_round"].sum() == (std["rounds"] == 4).sum()


def test_flag_power_order():
    clockwise = GAME.load_rules(variants=["advanced"])
    spun = GAME.load_rules(variants=["advanced", "runestone_order"])
    lineup = GAME.lineup("random")
    a = GAME.traces(clockwise, 5, lineup, 6, 300)
    b = GAME.traces(spun, 5, lineup, 6, 300)
    spins = sum(1 for t in b for e in _events(t) if e[0] == EV_ORDER)
    assert spins > 100 and not any(e[0] == EV_ORDER for t in a for e in _events(t))
    assert sum(int(t.record["fired_power_order"]) for t in a) > 100
    # under the runestone reading, powers are offered from the seat it points at: the referee checks the order
    for t in a:
        GAME.referee(clockwise, 5, t)
    for t in b:
        GAME.referee(spun, 5, t)
    firsts = [e[1] for t in b for e in _events(t) if e[0] == EV_ORDER]
    assert len(set(firsts)) == 5
    # a power used out of the announced order is rejected: announce the second user as the first
    for t in b:
        ev = t.events
        for r in np.flatnonzero((ev[:, 0] == EV_ORDER) & (ev[:, 2] == 0)):
            end = r + 1 + int(np.argmax(ev[r + 1:, 0] == EV_REVEAL))
            users = [int(ev[k, 1]) for k in range(r + 1, end) if ev[k, 0] == EV_POWER]
            if len(users) >= 2:
                bad = ev.copy()
                bad[r, 1] = users[1]
                with pytest.raises(RefereeError, match="out of turn"):
                    GAME.referee(spun, 5, Trace(bad, t.record))
                return
    pytest.fail("no reveal with two powers used after a spin")


def test_flag_powers_per_player():
    one = play(5, "random", seed=8, n=2000, rules=GAME.load_rules(variants=["powers"]), check=True)
    two = play(5, "random", seed=8, n=2000, rules=GAME.load_rules(variants=["powers", "two_powers"]), check=True)
    assert (one["fired_powers_per_player"] == 5).all() and (two["fired_powers_per_player"] == 10).all()
    assert two["powers_used"].mean() > one["powers_used"].mean() + 0.5
    assert one["violations"].sum() == two["violations"].sum() == 0


def test_fired_counters_match_the_replay_and_cover_every_card():
    # the referee recomputes every fired_* counter (but power_order) from the trace and compares
    rules = GAME.load_rules(variants=["advanced", "min_reveals"], sets=["self_reveal=true"])
    totals = dict.fromkeys(FIRED, 0)
    for lineup in ("random", "default"):
        for t in GAME.traces(rules, 5, GAME.lineup(lineup), 9, 400):
            GAME.referee(rules, 5, t)
            for name in FIRED:
                totals[name] += int(t.record["fired_" + name])
    assert not [k for k, v in totals.items() if v == 0], totals
    # a tampered counter is caught
    t = GAME.traces(rules, 5, GAME.lineup("random"), 9, 1)[0]
    with pytest.raises(RefereeError, match="fired_gluttony"):
        GAME.referee(rules, 5, Trace(t.events, dict(t.record, fired_gluttony=t.record["fired_gluttony"] + 1)))


@njit(POWER_SIG, cache=True)
def _convert_self(me, role, state, params, memory):
    """Uses Preacher or Witch at once, always on itself (illegal: corrected and counted)."""
    if state[PUB_ROW, P_ASK] == ASK_BEFORE:
        if holds(state, me, PREACHER):
            return PREACHER
        if holds(state, me, WITCH):
            return WITCH
        return 0
    if state[PUB_ROW, P_ASK] == ASK_PLAYER:
        return me
    return strat.no_power(me, role, state, params, memory)


def test_preacher_and_witch_never_on_oneself_but_on_a_fate_partner():
    rules = only_powers("preacher", "witch", variants=("powers", "artifacts"),
                        extra=("artifact_fate=6", "artifact_candle=0"))
    g = GAME.simulate(rules, 5, _custom("self", _convert_self), 1, 2000, check=True)["games"]
    assert g["violations"].sum() == g["fired_preacher"].sum() + g["fired_witch"].sum() > 1000
    for t in GAME.traces(rules, 5, _custom("self", _convert_self), 1, 200):
        assert all(e[1] != e[2] for e in _events(t) if e[0] == EV_CONVERT)
    # a trace where a player turns their own role card is rejected
    traces = GAME.traces(rules, 5, GAME.lineup("random"), 2, 1500)
    t = next(t for t in traces if any(e[0] == EV_CONVERT for e in _events(t)))
    bad = t.events.copy()
    row = np.flatnonzero(bad[:, 0] == EV_CONVERT)[0]
    bad[row, 2] = bad[row, 1]
    with pytest.raises(RefereeError, match="only another player"):
        GAME.referee(rules, 5, Trace(bad, t.record))
    # on the Figure-of-Fate partner it is allowed and turns the user too (they share the role card); the
    # referee tracks the shared card and checks the final sides against the kernel's side_mask
    partner_uses = shared = 0
    for t in traces:
        lines = GAME.referee(rules, 5, t)
        shared += sum("shared with" in x for x in lines)
        ev = _events(t)
        fate = {}
        for i, e in enumerate(ev):
            if e[0] == EV_FATE and not (ev[i + 1][0] == EV_POWER and ev[i + 1][2] == CHOSEN):
                fate[e[1]] = e[2]
            if e[0] == EV_CONVERT and fate.get(e[1]) == e[2]:
                partner_uses += 1
    assert partner_uses > 5 and shared >= partner_uses


@njit(POWER_SIG, cache=True)
def _use_everything(me, role, state, params, memory):
    """random_power, but always uses a usable power (to see every power in every kind of round)."""
    if state[PUB_ROW, P_ASK] == ASK_BEFORE:
        for j in range(3):
            p = state[me, strat.PV_POWER0 + j]
            if p != 0 and p != CHOSEN and strat.usable_before_reveal(
                    state, p, me, state[PUB_ROW, strat.P_RUNEBEARER], state[PUB_ROW, strat.P_HUNTED] != 0,
                    state[PUB_ROW, P_PLAYERS]):
                return p
        return 0
    return strat.random_power(me, role, state, params, memory)


def test_no_power_touches_a_card_gluttony_removed_and_eclipse_stops_none():
    rules = GAME.load_rules(variants=["advanced", "two_powers"], sets=["gluttony_cards=3", "event_blank=0"])
    traces = GAME.traces(rules, 5, _custom("all", _use_everything), 12, 1500)
    under_eclipse = set()
    touched = 0
    for t in traces:
        GAME.referee(rules, 5, t)
        event, aside = None, set()
        for e in _events(t):
            if e[0] == EV_EVENT:
                event, aside = e[2], set()
            elif e[0] == EV_ASIDE:
                aside.add((e[1], e[2]))
            elif e[0] == EV_POWER and event == ECLIPSE:
                under_eclipse.add(e[2])
            elif e[0] in (EV_FLIP, EV_PEEK, EV_REVEAL):
                touched += (e[2], e[3]) in aside
            elif e[0] == EV_CARDSWAP:
                touched += (e[1] // MAX_HAND, e[1] % MAX_HAND) in aside or (e[2] // MAX_HAND, e[2] % MAX_HAND) in aside
    assert touched == 0
    assert under_eclipse >= {DIVINATOR, MENTOR, INQUISITOR, BANDIT, TRICKSTER, PREACHER, WITCH, CHOSEN}


def test_mentor_peeks_at_two_cards_divinator_at_one():
    rules = only_powers("divinator", "mentor")
    counts = {DIVINATOR: [], MENTOR: []}
    for t in GAME.traces(rules, 5, GAME.lineup("random"), 13, 300):
        ev = _events(t)
        for i, e in enumerate(ev):
            if e[0] == EV_POWER:
                k = 0
                while ev[i + 1 + k][0] == EV_PEEK:
                    k += 1
                counts[e[2]].append(k)
    assert set(counts[DIVINATOR]) == {1} and max(counts[MENTOR]) == 2 and np.mean(counts[MENTOR]) > 1.9


def _passive(lineup, side):
    lu = dict(GAME.lineup(lineup))
    s = lu[side].strategy
    lu[side] = Seat(Strategy("passive", (side,), s.functions[:2]), lu[side].params)
    return lu


@pytest.mark.parametrize("power,side,gain", [("preacher", "hero", 0.01), ("witch", "cultist", 0.005),
                                             ("inquisitor", "hero", 0.01), ("bandit", "hero", 0.02),
                                             ("bandit", "cultist", 0.05)])
def test_default_strategies_use_the_new_powers_to_their_side_s_advantage(power, side, gain):
    rules = only_powers(power)
    using = GAME.simulate(rules, 5, GAME.lineup("default"), 3, 20_000)["games"]
    passive = GAME.simulate(rules, 5, _passive("default", side), 3, 20_000)["games"]
    won = lambda g: (g["winner"] == (0 if side == "hero" else 1)).mean()   # noqa: E731
    assert using["fired_" + power].sum() > 0
    assert won(using) > won(passive) + gain


def test_trickster_moves_two_other_players_cards_and_bandit_exchanges_its_own():
    rules = only_powers("bandit", "trickster")
    n = {BANDIT: 0, TRICKSTER: 0}
    for t in GAME.traces(rules, 5, GAME.lineup("random"), 14, 400):
        GAME.referee(rules, 5, t)
        ev = _events(t)
        for i, e in enumerate(ev):
            if e[0] == EV_CARDSWAP:
                user, power = ev[i - 1][1], ev[i - 1][2]
                p1, p2 = e[1] // MAX_HAND, e[2] // MAX_HAND
                assert p1 != p2
                if power == TRICKSTER:
                    assert user not in (p1, p2)
                else:
                    assert p2 == user and p1 != user
                n[power] += 1
    assert min(n.values()) > 50


def test_coverage_runs_fire_every_counter_and_flip_every_flag():
    runs = GAME.coverage_runs()
    totals = {}
    tables = []
    for run in runs:
        rules = GAME.load_rules(None, run.variants, list(run.sets))
        g = GAME.simulate(rules, run.players, GAME.lineup(run.lineup), 11, run.n)["games"]
        tables.append((run, g))
        for k, v in g.items():
            if k.startswith("fired_"):
                totals[k] = totals.get(k, 0) + int(v.sum())
    assert sum(run.n for run in runs) <= 15_000
    assert not [k for k, v in totals.items() if v == 0], totals
    flags = {"kth_reveal_dragon_wakes": False, "events_with_replacement": True, "event_skip_round": "fourth",
             "power_order": "runestone", "powers_per_player": 2}
    for key, other in flags.items():
        assert "fired_" + key in totals
        changed = False
        for run, g in tables:
            if g["fired_" + key].sum() == 0:
                continue
            text = other if isinstance(other, str) else str(other).lower()
            rules = GAME.load_rules(None, run.variants, list(run.sets) + [f"{key}={text}"])
            h = GAME.simulate(rules, run.players, GAME.lineup(run.lineup), 11, run.n)["games"]
            changed |= not all(np.array_equal(g[k], h[k]) for k in g)
        assert changed, key


def test_calibration_claims_name_outcomes_and_ranges():
    names = {o.name for o in GAME.outcomes()}
    claims = GAME.calibration()
    assert len(claims) >= 4 and all(isinstance(c, Claim) for c in claims)
    for c in claims:
        assert c.outcome in names and c.low is not None and c.high is not None and c.low < c.high and c.cause


@pytest.mark.parametrize("lineup, variants", [("random", ()), ("hero=bayes,cultist=liar", ("min_reveals",)),
                                              ("hero=honest,cultist=liar", ("advanced",))])
def test_a_batch_writes_every_column_it_does_not_report_unwritten(lineup, variants):
    """The record arrives uninitialised: what it held before survives only in the columns the batch reports
    unwritten (the table gives zeros there), and those are the plain batch's PLAIN_UNWRITTEN (with the early
    dragon's counts when min_reveals is 0)."""
    from sim.games.dragonwake.game import kernel_params, rule_args
    from sim.games.dragonwake.kernel_base import EARLY_SUMS, N_COLS, PLAIN_UNWRITTEN
    rules, n = GAME.load_rules(variants=variants), 3000
    seats = GAME.lineup(lineup)
    hero, cultist = seats["hero"].strategy, seats["cultist"].strategy

    def batch(fill):
        out = np.full((N_COLS, n), fill, np.int16).T
        written = np.ones(N_COLS, np.bool_)
        args = rule_args(rules.typed, 5)
        play, functions, playouts = GAME.batch(args, seats)
        play(np.uint32(3), n, *args, *functions, kernel_params(seats["hero"]), kernel_params(seats["cultist"]),
             hero.builtin, cultist.builtin, out, np.zeros((0, 1, 5), np.int64), True, np.zeros(1, np.int64), written,
             playouts)
        return out, written

    (junk, written), (zero, written0) = batch(12345), batch(0)
    assert np.array_equal(written, written0)
    assert np.array_equal(junk[:, written], zero[:, written])
    assert (junk[:, ~written] == 12345).all() and (zero[:, ~written] == 0).all()
    expected = set() if "advanced" in variants else set(PLAIN_UNWRITTEN) | (set() if variants else set(EARLY_SUMS))
    assert set(np.flatnonzero(~written)) == expected
