"""Drako: golden scenarios from the rulebook's examples, referee re-checks, kernel invariants,
determinism, match play, rules validation and the report pipeline."""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest

from sim.engine.errors import DsimError, RulesError
from sim.engine.game import RefereeError
from sim.engine.runner import run
from sim.engine.spec import RunSpec
from sim.games import get_game
from sim.games.drako import kernel
from sim.games.drako import records as R
from sim.games.drako import referee as ref
from sim.games.drako.game import field, play

GAME = get_game("drako")
RULES = GAME.load_rules()


# ---- helpers ------------------------------------------------------------------------------------


def kind_of(side: int, label: str) -> int:
    """Index of the card kind whose options read `label` (e.g. 'crossbow 2')."""
    for t, card in enumerate(RULES.typed.deck(side)):
        if card.label() == label:
            return t
    raise KeyError(label)


def hexi(q: int, r: int) -> int:
    return RULES.typed.hex_index((q, r))


class Scenario:
    """A kernel position built by hand, driven from Python one question at a time."""

    def __init__(self, turn: int, figures: dict, hands: dict, rules=None):
        self.w = kernel.new_work(rules or RULES.typed)
        self.tr = np.zeros((4096, R.TRACE_WIDTH), dtype=np.int16)
        kernel.start_game(self.w, self.tr, 1, 0)              # shuffled decks, then hands by hand
        self.st, self.opts, _ = kernel.views(self.w)
        for side in (R.DRAGON, R.DWARVES):
            self.st[R.S_HAND + side * R.MAX_TYPES:R.S_HAND + (side + 1) * R.MAX_TYPES] = 0
            self.st[R.S_SYM + side * R.N_SYM:R.S_SYM + (side + 1) * R.N_SYM] = 0
            self.st[R.S_HAND_N + side] = 0
            self.st[R.S_HAND_MASK + side] = 0
            for t in hands[side]:
                kernel.hand_add(self.w, side, t)
        for f, qr in figures.items():
            kernel.place(self.w, f, hexi(*qr))
        self.st[R.S_TURN] = turn - 1
        self.st[R.R_PHASE] = kernel.PH_TURN
        self.w[R.W_TRACING] = 1
        self.w[R.W_TROW] = 0

    def drive(self, script):
        """Answer questions with `script`: (side, kind, pick(rows) -> row index) in order; stop at
        the first question after the script ends. Returns that question's (side, kind)."""
        script = list(script)
        while True:
            q = kernel.next_question(self.w, self.tr)
            if q < 0:
                return None
            side, _, kind = kernel.decision_of(q)
            rows = self.opts[:self.st[R.R_NOPTS]]
            if not script:
                return side, kind
            want_side, want_kind, pick = script.pop(0)
            assert (side, kind) == (want_side, want_kind), f"asked {R.KIND_NAMES[kind]} of side {side}"
            kernel.take_row(self.w, pick(rows))

    def events(self):
        return self.tr[:self.w[R.W_TROW]]


def row_where(**cols):
    names = {"action": 0, "kind": 1, "option": 2, "symbol": 3, "hex": 0, "figure": 0, "block": 0,
             "direction": 0, "dest": 1}

    def pick(rows):
        for i, row in enumerate(rows):
            if all(row[names[k]] == v for k, v in cols.items()):
                return i
        raise AssertionError(f"no row with {cols} in {rows.tolist()}")
    return pick


def referee_position(figures: dict, hands: dict, turn: int) -> ref.Position:
    p = ref.Position.start(RULES.typed)
    p.pos = [None] * 4
    for f, qr in figures.items():
        p.pos[f] = hexi(*qr)
    p.hands = [Counter(hands[R.DRAGON]), Counter(hands[R.DWARVES])]
    p.decks = [[0] * 10, [0] * 10]           # cards left to draw: none are drawn in these turns
    p.turn = turn - 1
    return p


def one_turn(rows):
    """The rows of the first turn in `rows` (up to the next turn's header)."""
    starts = [i for i, row in enumerate(rows) if row[0] == R.EV_TURN]
    return rows[:starts[1]] if len(starts) > 1 else rows


# ---- golden scenarios (the rulebook's worked examples) ------------------------------------------


CROSSBOW_SETUP = {R.FIG_DRAGON: (0, 0), R.FIG_ARCHER: (0, -2), R.FIG_FURY: (1, 0), R.FIG_NET: (-1, 1)}


def crossbow_hands():
    # the dragon's "attack 3" stays in hand: it keeps the dragon's next turn a real question
    return {R.DRAGON: [kind_of(R.DRAGON, "defense"), kind_of(R.DRAGON, "attack 3")],
            R.DWARVES: [kind_of(R.DWARVES, "crossbow 2"), kind_of(R.DWARVES, "attack_two 1")]}


def test_golden_crossbow_then_two_dwarves_attack_kernel():
    """The archer shoots along a clear row and is blocked; then two adjacent dwarves attack with a
    two-dwarf card and, with no Defense left, both hits land on the dragon's armour."""
    s = Scenario(2, CROSSBOW_SETUP, crossbow_hands())
    crossbow, attack_two = kind_of(R.DWARVES, "crossbow 2"), kind_of(R.DWARVES, "attack_two 1")
    stop = s.drive([
        (R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=crossbow)),
        (R.DRAGON, R.K_BLOCK, row_where(block=1)),
        (R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=attack_two)),
    ])
    assert stop == (R.DRAGON, R.K_MAIN)                          # the dragon's next turn
    st = s.st
    assert st[R.S_AREA + R.AREA_ARMOUR] == 2 and st[R.S_WOUND + R.FIG_DRAGON] == 2
    assert st[R.S_HAND_N + R.DRAGON] == 1 and st[R.S_HAND_N + R.DWARVES] == 0
    assert st[R.T_BLOCKED + R.DWARVES] == 1 and st[R.T_ATTACKS + R.DWARVES] == 3
    attacks = [tuple(r[1:4]) for r in s.events() if r[0] == R.EV_ATTACK]
    assert attacks == [(R.FIG_ARCHER, 0, 2), (R.FIG_FURY, 0, 1), (R.FIG_NET, 0, 1)]


def test_golden_crossbow_then_two_dwarves_attack_referee():
    hands = crossbow_hands()
    p = referee_position(CROSSBOW_SETUP, hands, 2)
    assert ref.crossbow_clear(p)
    assert ref.adjacent_dwarves(p) == [R.FIG_FURY, R.FIG_NET]
    blocked = referee_position({**CROSSBOW_SETUP, R.FIG_FURY: (0, -1)}, hands, 2)
    assert not ref.crossbow_clear(blocked)                        # a dwarf in the row blocks the shot
    s = Scenario(2, CROSSBOW_SETUP, hands)
    s.drive([(R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=kind_of(R.DWARVES, "crossbow 2"))),
             (R.DRAGON, R.K_BLOCK, row_where(block=1)),
             (R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=kind_of(R.DWARVES, "attack_two 1")))])
    lines = ref.replay_turn(RULES.typed, p, one_turn(s.events()))
    assert p.areas[R.AREA_ARMOUR] == 2 and p.hand_size(R.DRAGON) == 1
    assert any("blocked" in line for line in lines)


FIRE_SETUP = {R.FIG_DRAGON: (0, 0), R.FIG_ARCHER: (0, -2), R.FIG_FURY: (1, 0), R.FIG_NET: (2, -1)}


def fire_hands():
    both = kind_of(R.DRAGON, "fire 2 / move 2")
    return {R.DRAGON: [both, both], R.DWARVES: [kind_of(R.DWARVES, "defense")]}


def test_golden_move_then_fire_kernel():
    """The dragon walks two hexes out of the archer's row, then breathes fire along a row holding two
    dwarves: one Defense saves one of them, the other takes the full two wounds."""
    both = kind_of(R.DRAGON, "fire 2 / move 2")
    target = hexi(-1, 2)
    s = Scenario(3, FIRE_SETUP, fire_hands())
    stop = s.drive([
        (R.DRAGON, R.K_MAIN, row_where(action=R.A_PLAY, kind=both, symbol=R.SYM_MOVE)),
        (R.DRAGON, R.K_DRAGON_MOVE, row_where(hex=target)),
        (R.DRAGON, R.K_MAIN, row_where(action=R.A_PLAY, kind=both, symbol=R.SYM_FIRE)),
        (R.DWARVES, R.K_BLOCK, row_where(block=1)),
    ])
    assert stop[0] == R.DWARVES                                   # the dwarves' turn comes next
    st = s.st
    assert st[R.S_POS + R.FIG_DRAGON] == target
    assert st[R.S_WOUND + R.FIG_FURY] == 0 and st[R.S_WOUND + R.FIG_NET] == 2
    assert st[R.T_BLOCKED + R.DRAGON] == 1 and st[R.S_HAND_N + R.DWARVES] == 0


def test_golden_move_then_fire_referee():
    p = referee_position(FIRE_SETUP, fire_hands(), 3)
    assert ref.crossbow_clear(p)                                  # in the archer's row before moving
    assert hexi(-1, 2) in ref.walk_targets(p, p.pos[R.FIG_DRAGON], 2)
    s = Scenario(3, FIRE_SETUP, fire_hands())
    both = kind_of(R.DRAGON, "fire 2 / move 2")
    s.drive([(R.DRAGON, R.K_MAIN, row_where(action=R.A_PLAY, kind=both, symbol=R.SYM_MOVE)),
             (R.DRAGON, R.K_DRAGON_MOVE, row_where(hex=hexi(-1, 2))),
             (R.DRAGON, R.K_MAIN, row_where(action=R.A_PLAY, kind=both, symbol=R.SYM_FIRE)),
             (R.DWARVES, R.K_BLOCK, row_where(block=1))])
    ref.replay_turn(RULES.typed, p, one_turn(s.events()))
    assert not ref.crossbow_clear(p)                              # out of the row now
    assert ref.fire_line(p, 1) == [R.FIG_FURY, R.FIG_NET]         # one breath to the north-east
    assert p.wounds[R.FIG_FURY] == 0 and p.wounds[R.FIG_NET] == 2


def test_rule_functions():
    p = referee_position(CROSSBOW_SETUP, crossbow_hands(), 2)
    # no walking through figures: the fury dwarf on (1,0) shields (2,0) for a one-hex walk
    assert hexi(2, 0) not in ref.walk_targets(p, p.pos[R.FIG_DRAGON], 1)
    assert ref.flight_targets(p) == set(range(19)) - {hexi(*qr) for qr in CROSSBOW_SETUP.values()}
    assert ref.fire_line(p, 0) == [R.FIG_FURY]                    # east: the fury dwarf only
    netted = referee_position(CROSSBOW_SETUP, crossbow_hands(), 2)
    netted.netted = True
    assert not ref.option_usable(netted, R.DRAGON, R.SYM_MOVE)
    assert ref.option_usable(netted, R.DRAGON, R.SYM_ATTACK)       # a netted dragon still claws


# ---- the referee over random and heuristic games ------------------------------------------------


def referee_games(lineup: str, n: int, seed: int, variants=(), sets=()):
    rules = GAME.load_rules(variants=variants, sets=sets)
    bad = []
    for trace in GAME.traces(rules, 2, GAME.lineup(lineup), seed, n):
        try:
            GAME.referee(rules, 2, trace)
        except RefereeError as e:
            bad.append(str(e))
    return bad


def test_referee_random_games():
    bad = referee_games("random", 7_000, 11)
    bad += referee_games("random", 1_500, 12, variants=("experienced",))
    bad += referee_games("default", 1_500, 13)
    assert not bad, bad[:3]


def test_referee_flags():
    sets = ("fire_needs_target=false", "move_through_figures=true", "stuck_player_discards=false",
            "net_stays_if_netter_dies=false", "fury_allowed_when_lethal=true", "fire_range=2",
            "crossbow_min_range=2", "turn_cap=30")
    assert not referee_games("random", 400, 14, sets=sets)
    assert not referee_games("dragon=brawler,dwarves=rush", 300, 15, sets=sets)


def test_referee_catches_a_bad_trace():
    trace = GAME.traces(RULES, 2, GAME.lineup("random"), 3, 1)[0]
    events = trace.events.copy()
    plays = np.flatnonzero(events[:, 0] == R.EV_PLAY)
    events[plays[0], 2] = 15                                      # a card kind nobody holds
    with pytest.raises(RefereeError):
        GAME.referee(RULES, 2, type(trace)(events, trace.record))
    record = dict(trace.record, winner=(trace.record["winner"] + 1) % 3)
    with pytest.raises(RefereeError):
        GAME.referee(RULES, 2, type(trace)(trace.events, record))


@pytest.mark.soak
def test_soak_referee():
    for lineup, variants, seed in (("random", (), 21), ("default", (), 22), ("random", ("experienced",), 23),
                                   ("dragon=brawler,dwarves=rush", ("advanced_mulligan",), 24)):
        for k in range(5):
            bad = referee_games(lineup, 5_000, seed * 100 + k, variants=variants)
            assert not bad, bad[:3]


# ---- kernel invariants ---------------------------------------------------------------------------


def checked(lineup: str, n: int, seed: int, variants=(), sets=()):
    rules = GAME.load_rules(variants=variants, sets=sets).typed
    lu = GAME.lineup(lineup)
    states, _ = play(rules, lu["dragon"], lu["dwarves"], seed, n, check=True)
    return states


def test_kernel_invariants():
    total = 0
    for lineup, variants, n in (("random", (), 40_000), ("default", (), 30_000),
                                ("dragon=brawler,dwarves=rush", ("experienced",), 20_000),
                                ("random", ("experienced",), 10_000)):
        s = checked(lineup, n, 5, variants)
        assert field(s, R.T_VIOLATIONS).sum() == 0, lineup
        assert field(s, R.T_BAD_CHOICES).sum() == 0, lineup
        assert (field(s, R.S_OVER) == 1).all()
        for f in range(4):
            assert (field(s, R.S_WOUND + f) <= field(s, R.S_CAP + f)).all()
        total += n
    assert total >= 100_000


def test_stalemates_are_counted():
    s = checked("random", 2_000, 6, sets=("turn_cap=12",))
    stale = field(s, R.S_END) == R.END_STALEMATE
    assert stale.any() and (field(s, R.S_WINNER)[stale] == R.WIN_NOBODY).all()
    assert (field(s, R.S_TURN)[stale] == 12).all()


# ---- determinism, pairing, pipeline ---------------------------------------------------------------


def test_determinism_and_traces_match_simulate():
    lineup = GAME.lineup("default")
    a = GAME.simulate(RULES, 2, lineup, 42, 3_000)["games"]
    b = GAME.simulate(RULES, 2, lineup, 42, 3_000)["games"]
    c = GAME.simulate(RULES, 2, lineup, 43, 3_000)["games"]
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["turns"], c["turns"])
    traces = GAME.traces(RULES, 2, lineup, 42, 50)
    for g, trace in enumerate(traces):
        assert all(trace.record[k] == a[k][g] for k in trace.record)


def test_same_deals_across_lineups():
    """Game i is dealt the same decks whatever the strategies: paired comparisons."""
    one = GAME.traces(RULES, 2, GAME.lineup("random"), 9, 20)
    two = GAME.traces(RULES, 2, GAME.lineup("dragon=brawler,dwarves=rush"), 9, 20)
    for x, y in zip(one, two):
        deck_rows = lambda t: t.events[t.events[:, 0] == R.EV_DECK]   # noqa: E731
        assert np.array_equal(deck_rows(x), deck_rows(y))


def test_match_play():
    rules = GAME.load_rules(variants=("match",))
    games = GAME.simulate(rules, 2, GAME.lineup("dragon=aggressive,dwarves=patient"), 4, 2_000)["games"]
    a_legs = (games["winner"] == R.WIN_DRAGON).astype(int) + (games["leg2_winner"] == R.WIN_DWARVES)
    assert np.array_equal(a_legs, games["a_legs"])
    assert set(np.unique(games["match_winner"])) <= {R.MATCH_A, R.MATCH_B, R.MATCH_TIE}
    tie = games["a_legs"] == games["b_legs"]
    decided = tie & (games["a_wounds"] != games["b_wounds"])
    a_won = games["match_winner"][decided] == R.MATCH_A
    assert (a_won == (games["a_wounds"][decided] > games["b_wounds"][decided])).all()
    with pytest.raises(DsimError):
        GAME.simulate(rules, 2, GAME.lineup("dragon=kiter,dwarves=rush"), 4, 10)


def test_match_play_with_the_default_lineup():
    """The default line-up plays matches as aggressive (first-leg dragon) against patient: its first leg is the
    default game itself, the second leg the kiter dragon against rushing dwarves; a one-sided strategy the user
    named is still refused."""
    seed, n = 11, 1_000
    default = GAME.simulate(GAME.load_rules(), 2, GAME.lineup(None), seed, n)["games"]
    rules = GAME.load_rules(variants=("match",))
    match = GAME.simulate(rules, 2, GAME.lineup(None), seed, n)["games"]
    named = GAME.simulate(rules, 2, GAME.lineup("dragon=aggressive,dwarves=patient"), seed, n)["games"]
    for column in ("winner", "end", "turns", "wounds_to_dragon", "wounds_to_dwarves"):
        assert np.array_equal(match[column], default[column]), column
    for column in ("leg2_winner", "match_winner", "a_wounds"):
        assert np.array_equal(match[column], named[column]), column
    with pytest.raises(DsimError, match="both sides: aggressive"):
        GAME.simulate(rules, 2, GAME.lineup("dragon=kiter"), seed, 10)


def test_bad_rules():
    for sets in (["dragon_deck=['6 x attack 2 / teleport']"], ["dwarf_deck=['3 x net 2']"],
                 ["dwarf_start=[[9, 9], [0, -2], [-2, 2]]"], ["hand_limit=2"], ["dwarf_spaces=[6, 5]"],
                 ["board_hexes=[[0, 0], [0, 0]]"], ["dragon_deck=['x defense']"]):
        with pytest.raises(RulesError):
            GAME.load_rules(sets=sets)
    with pytest.raises(RulesError):
        GAME.load_rules(sets=["fire_range=true"])


def test_rules_are_labelled():
    entries = RULES.ruleset.entries
    assert all(e.source in ("rulebook", "assumed") for e in entries.values())
    for key in ("dragon_deck", "dwarf_deck", "dwarf_start", "dwarf_spaces", "dragon_flight_spaces"):
        assert entries[key].source == "assumed"
    assert RULES.typed.deck_size(R.DRAGON) == 38 and RULES.typed.deck_size(R.DWARVES) == 38
    assert sum(RULES.typed.figure_spaces()) == 25


def test_pipeline_and_report(tmp_path):
    spec = RunSpec(GAME, RULES, 2, GAME.lineup("default"), 4_000, seed=3, chunk_size=2_000)
    run(spec, tmp_path / "out", progress=False)
    games = pl.read_parquet(tmp_path / "out" / "games" / "**" / "*.parquet", hive_partitioning=True)
    assert games.height == 4_000 and {"dragon_win", "end", "turns", "dwarf_crossbow"} <= set(games.columns)
    saved = []

    def chart(name, fig):
        fig.savefig(tmp_path / f"{name}.png")
        saved.append(name)
        return f"![{name}]({name}.png)"
    from sim.report.sections import render
    text = "\n".join(line for s in GAME.report_tables() for line in render(s, games, chart))
    assert "How games end" in text and "Card options played per game" in text
    assert {"end_modes", "length", "wounds", "abilities", "usage"} <= set(saved)
    from sim.report.games import sections as own_sections
    sections = own_sections(GAME, games, chart)
    assert any("`dwarf_start`" in s for s in sections)             # the assumed placement is named
    scores = GAME.role_scores(games, 2)
    assert np.allclose(scores["dragon"] + scores["dwarves"], 1.0)


# ---- rule flags: each reading plays the situation it decides differently -------------------------


def flagged(key, value):
    return GAME.load_rules(sets=[(key, value)]).typed


def drive_until(s, side, kind, answers):
    """Answer questions from `answers` (kind -> pick) until `side` is asked `kind`; returns the rows."""
    while True:
        q = kernel.next_question(s.w, s.tr)
        assert q >= 0, "the game ended first"
        who, _, k = kernel.decision_of(q)
        rows = s.opts[:s.st[R.R_NOPTS]]
        if (who, k) == (side, kind):
            return rows
        kernel.take_row(s.w, answers[k](rows))


THREE_ADJACENT = {R.FIG_DRAGON: (0, 0), R.FIG_FURY: (1, 0), R.FIG_NET: (-1, 0), R.FIG_ARCHER: (0, 1)}


@pytest.mark.parametrize("chosen", [True, False])
def test_flag_attackers_chosen(chosen):
    """Three dwarves next to the dragon, a two-dwarf attack: the dwarf player picks the pair, or the
    first two in the fixed order strike."""
    hands = {R.DRAGON: [], R.DWARVES: [kind_of(R.DWARVES, "attack_two 1")]}
    s = Scenario(2, THREE_ADJACENT, hands, flagged("attackers_chosen", chosen))
    stop = s.drive([(R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=kind_of(R.DWARVES, "attack_two 1")))])
    if chosen:
        assert stop == (R.DWARVES, R.K_ATTACKERS)
        pairs = [tuple(r[:2]) for r in s.opts[:s.st[R.R_NOPTS]]]
        assert pairs == [(R.FIG_FURY, R.FIG_NET), (R.FIG_FURY, R.FIG_ARCHER), (R.FIG_NET, R.FIG_ARCHER)]
        kernel.take_row(s.w, 2)                               # the Net dwarf and the archer
        s.drive([])
        want = [R.FIG_NET, R.FIG_ARCHER]
    else:
        assert stop[1] != R.K_ATTACKERS
        want = [R.FIG_FURY, R.FIG_NET]
    assert [r[1] for r in s.events() if r[0] == R.EV_ATTACK] == want
    assert s.st[R.T_F_ATTACKERS] == 1 and s.st[R.T_F_SIMUL] == 1


@pytest.mark.parametrize("together", [False, True])
def test_flag_simultaneous_blows(together):
    """Two dwarves strike with one card: blow by blow, the first blow's wound is on the dragon when
    it decides on the second; together, both Defense decisions come first."""
    figures = {R.FIG_DRAGON: (0, 0), R.FIG_FURY: (1, 0), R.FIG_NET: (-1, 0), R.FIG_ARCHER: (0, -2)}
    defense = kind_of(R.DRAGON, "defense")
    hands = {R.DRAGON: [defense, defense], R.DWARVES: [kind_of(R.DWARVES, "attack_two 1")]}
    s = Scenario(2, figures, hands, flagged("simultaneous_blows", together))
    stop = s.drive([(R.DWARVES, R.K_MAIN, row_where(action=R.A_PLAY, kind=kind_of(R.DWARVES, "attack_two 1"))),
                    (R.DRAGON, R.K_BLOCK, row_where(block=0))])       # the first blow is not blocked
    assert stop == (R.DRAGON, R.K_BLOCK)
    assert s.st[R.S_WOUND + R.FIG_DRAGON] == (0 if together else 1)   # asked about the second blow now
    kernel.take_row(s.w, 0)                                            # nor the second
    s.drive([])
    assert s.st[R.S_WOUND + R.FIG_DRAGON] == 2
    codes = [r[0] for r in s.events() if r[0] in (R.EV_ATTACK, R.EV_WOUND)]
    assert codes == ([R.EV_ATTACK, R.EV_ATTACK, R.EV_WOUND, R.EV_WOUND] if together
                     else [R.EV_ATTACK, R.EV_WOUND, R.EV_ATTACK, R.EV_WOUND])


@pytest.mark.parametrize("order, first", [("nearest", R.FIG_FURY), ("farthest", R.FIG_NET)])
def test_flag_fire_order(order, first):
    """Fire along a line holding the Fury dwarf (two hexes off) and the Net dwarf (three): the first
    Defense decision is about the nearest, or the farthest, dwarf."""
    figures = {R.FIG_DRAGON: (-1, 2), R.FIG_FURY: (1, 0), R.FIG_NET: (2, -1), R.FIG_ARCHER: (0, -2)}
    fire = kind_of(R.DRAGON, "fire 2 / move 2")
    hands = {R.DRAGON: [fire], R.DWARVES: [kind_of(R.DWARVES, "defense")]}
    s = Scenario(3, figures, hands, flagged("fire_order", order))
    rows = drive_until(s, R.DWARVES, R.K_BLOCK, {
        R.K_MAIN: row_where(action=R.A_PLAY, kind=fire, symbol=R.SYM_FIRE),
        R.K_FIRE: row_where(direction=1)})
    assert rows[0, 3] == first
    assert s.st[R.T_F_FIRE_ORDER] == 1


@pytest.mark.parametrize("who", ["dragon", "dwarves"])
def test_flag_mulligan_first(who):
    rules = GAME.load_rules(sets=[("mulligan", True), ("mulligan_first", who)]).typed
    w = kernel.new_work(rules)
    tr = np.zeros((1, R.TRACE_WIDTH), dtype=np.int16)
    kernel.start_game(w, tr, 5, 0)
    side, _, kind = kernel.decision_of(kernel.next_question(w, tr))
    assert kind == R.K_MULLIGAN and side == (R.DRAGON if who == "dragon" else R.DWARVES)
    st, _, _ = kernel.views(w)
    assert st[R.T_F_MULL_FIRST] == 1


def test_referee_new_flags():
    sets = ("attackers_chosen=false", "simultaneous_blows=true", "fire_order=farthest", "mulligan=true",
            "mulligan_first=dwarves")
    assert not referee_games("random", 600, 16, sets=sets)
    assert not referee_games("random", 300, 17, sets=("simultaneous_blows=true",))
    assert not referee_games("default", 300, 18, sets=("simultaneous_blows=true", "fire_order=farthest"))


# ---- rule counters and coverage ------------------------------------------------------------------


def test_fired_counters_agree_with_the_usage_columns():
    games = pl.DataFrame(GAME.simulate(RULES, 2, GAME.lineup("random"), 19, 1_000)["games"])
    for sym in range(1, R.N_SYM):
        name = R.SYM_NAMES[sym]
        both = sum(games[c] for c in (f"dragon_{name}", f"dwarf_{name}") if c in games.columns)
        assert (games[f"fired_{name}"] == both).all(), name
    assert (games["fired_escape"] == games["escapes"]).all()
    assert (games["fired_net_hold"] == games["net_turns"]).all()
    assert (games["fired_fury"] == (games["fury_turn"] >= 0)).all()
    assert games["fired_mulligan"].sum() == 0 and games["fired_free_placement"].sum() == 0
    assert all(games[c].dtype == pl.Int32 for c in R.FIRED_COLUMNS)


def test_coverage_runs_fire_every_counter_and_every_flag_changes_play():
    from sim.analysis.coverage import fired, identical_games
    runs = GAME.coverage_runs()

    def play_run(run, flip=None):
        sets = list(run.sets)
        rules = GAME.load_rules(None, run.variants, sets)
        if flip:
            rules = GAME.load_rules(None, run.variants, sets + [(flip, rules.ruleset.flags()[flip].other_value)])
        return pl.DataFrame(GAME.simulate(rules, run.players, GAME.lineup(run.lineup), 11, run.n)["games"])

    tables = [play_run(run) for run in runs]
    totals = {}
    for t in tables:
        for k, f in fired(t).items():
            totals[k] = totals.get(k, 0) + f.times
    assert not [k for k, v in totals.items() if v == 0]
    flags = RULES.ruleset.flags()
    assert set(flags) <= set(totals)
    for key in flags:
        arose = [i for i, t in enumerate(tables) if t[f"fired_{key}"].sum() > 0]
        assert any(not identical_games(tables[i], play_run(runs[i], key)) for i in arose), key


# ---- strategies: the coordinated dwarves' habits ---------------------------------------------------


def test_coordinated_nets_when_it_can_use_the_net_and_beats_v1():
    """v1 cast about a quarter of a net a game as a turn's last action (the dragon could shake it off
    before any dwarf used it); v2 rarely does, and wins more often against the same dragons and deals."""
    for dragon in ("brawler", "kiter"):
        new = pl.DataFrame(GAME.simulate(RULES, 2, GAME.lineup(f"dragon={dragon},dwarves=coordinated"), 23, 2_000)["games"])
        old = pl.DataFrame(GAME.simulate(RULES, 2, GAME.lineup(f"dragon={dragon},dwarves=coordinated_v1"), 23, 2_000)["games"])
        assert new["nets_last_action"].mean() < 0.1 < old["nets_last_action"].mean()
        gain = old["dragon_win"].cast(pl.Float64).to_numpy() - new["dragon_win"].cast(pl.Float64).to_numpy()
        assert gain.mean() - 2 * gain.std() / np.sqrt(len(gain)) > 0, dragon


def test_brawler_leaves_a_crowd_and_beats_v1():
    """v1 stayed among the dwarves; v2 walks or flies out of a crowd of two or more and wins more often
    against the same dwarves on the same deals."""
    for dwarves in ("coordinated", "rush"):
        new = pl.DataFrame(GAME.simulate(RULES, 2, GAME.lineup(f"dragon=brawler,dwarves={dwarves}"), 29, 2_000)["games"])
        old = pl.DataFrame(GAME.simulate(RULES, 2, GAME.lineup(f"dragon=brawler_v1,dwarves={dwarves}"), 29, 2_000)["games"])
        gain = new["dragon_win"].cast(pl.Float64).to_numpy() - old["dragon_win"].cast(pl.Float64).to_numpy()
        assert gain.mean() - 2 * gain.std() / np.sqrt(len(gain)) > 0, dwarves
