"""Drakerion's built-in strategies on hand-made positions: every decision kind answered in range, the
heuristics' key choices, the random player's coverage, and nothing written but the random stream."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.drakerion import records as R
from strategies.drakerion import REGISTRY

STRATEGIES = ("random", "aggressive", "value")
ME, THEM = 0, 1


# ---- a made-up card table --------------------------------------------------------------------------

def ability(trigger, effect, target, amount=0, forced=0, cost=0, cost_amount=0, condition=R.WH_NONE):
    a = np.zeros(R.ABIL_WIDTH, np.int64)
    a[R.AB_TRIGGER], a[R.AB_EFFECT], a[R.AB_TARGET], a[R.AB_AMOUNT] = trigger, effect, target, amount
    a[R.AB_FORCED], a[R.AB_COST], a[R.AB_COST_AMOUNT], a[R.AB_CONDITION] = forced, cost, cost_amount, condition
    a[R.AB_CARD_TYPE] = -1
    return a


CARDS = {   # name: (type, cost, melee, ranged, riposte, hp, prestige, keywords, draw, gold, abilities)
    "grunt": (R.CHARACTER, 2, 2, 0, 1, 3, 1, 0, 0, 0, ()),
    "champion": (R.CHARACTER, 5, 5, 0, 2, 6, 4, 0, 0, 0, ()),
    "archer": (R.CHARACTER, 3, 1, 3, 0, 2, 1, 0, 0, 0, ()),
    "guard": (R.CHARACTER, 2, 1, 0, 2, 7, 0, R.KW_INTERCEPTEUR, 0, 0, ()),
    "bolt": (R.EVENT, 1, 0, 0, 0, 0, 0, 0, 0, 0, (ability(R.TR_ACTION, R.EF_DAMAGE, R.TG_ENEMY, 3),)),
    "shield_wall": (R.EVENT, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                    (ability(R.TR_COMBAT, R.EF_SHIELD, R.TG_OWN_COMBATANT, 3),)),
    "sword": (R.ATTACHMENT, 1, 2, 0, 0, 0, 0, 0, 0, 0, ()),
    "supply": (R.MANOEUVRE, 0, 0, 0, 0, 0, 0, 0, 3, 0, ()),
    "coffers": (R.MANOEUVRE, 0, 0, 0, 0, 0, 0, 0, 0, 4, ()),
    "keep": (R.CITY, 0, 0, 0, 0, 0, 0, 0, 0, 0, ()),
    "oracle": (R.CHARACTER, 2, 1, 0, 1, 3, 1, 0, 0, 0,
               (ability(R.TR_REACTION, R.EF_DRAW, R.TG_ME, 1, condition=R.WH_ENEMY_DESTROYED),
                ability(R.TR_REACTION, R.EF_DRAW, R.TG_ME, 1, forced=1, condition=R.WH_END_OF_TURN),
                ability(R.TR_REACTION, R.EF_DRAW, R.TG_ME, 2, cost=R.CO_DESTROY_SELF,
                        condition=R.WH_DAMAGED))),
}
NAMES = tuple(CARDS)
CID = {name: k for k, name in enumerate(NAMES)}


def card_table():
    cards = np.zeros((len(NAMES), R.CARD_WIDTH), np.int64)
    for k, name in enumerate(NAMES):
        t, cost, melee, ranged, riposte, hp, prestige, kw, draw, gold, abils = CARDS[name]
        row = cards[k]
        row[R.CD_TYPE], row[R.CD_FACTION], row[R.CD_COST] = t, R.NEUTRAL, cost
        row[R.CD_MELEE], row[R.CD_RANGED], row[R.CD_RIPOSTE], row[R.CD_HP] = melee, ranged, riposte, hp
        row[R.CD_PRESTIGE], row[R.CD_KEYWORDS], row[R.CD_DRAW], row[R.CD_GOLD] = prestige, kw, draw, gold
        row[R.CD_NAME_ID], row[R.CD_ATTACH_EXCEPT], row[R.CD_CYCLE] = k, 0, int(name == "keep")
        row[R.CD_NABIL] = len(abils)
        for a, ab in enumerate(abils):
            row[R.CD_ABIL + a * R.ABIL_WIDTH: R.CD_ABIL + (a + 1) * R.ABIL_WIDTH] = ab
    return cards


# ---- a made-up position ----------------------------------------------------------------------------
# mine: 0 grunt front, 1 champion front, 2 archer support, 3 wounded grunt front (life 1), 4 guard front,
#       10 bolt, 11 shield wall, 12 sword, 13 champion, 14 grunt (hand), 15 grunt (deck), 16 oracle front,
#       48 supply, 49 coffers (Manoeuvre pile), 56 keep (City)
# theirs: 64 grunt front, 65 champion front wounded to life 2, 66 archer support, 67 guard front

PLACES = [
    (0, "grunt", R.Z_FRONT, 0), (1, "champion", R.Z_FRONT, 0), (2, "archer", R.Z_SUPPORT, 0),
    (3, "grunt", R.Z_FRONT, 2), (4, "guard", R.Z_FRONT, 0), (10, "bolt", R.Z_HAND, 0),
    (11, "shield_wall", R.Z_HAND, 0), (12, "sword", R.Z_HAND, 0), (13, "champion", R.Z_HAND, 0),
    (14, "grunt", R.Z_HAND, 0), (15, "grunt", R.Z_DECK, 0), (16, "oracle", R.Z_FRONT, 0),
    (48, "supply", R.Z_MAN_PILE, 0), (49, "coffers", R.Z_MAN_PILE, 0), (56, "keep", R.Z_CITY, 0),
    (64, "grunt", R.Z_FRONT, 0), (65, "champion", R.Z_FRONT, 4), (66, "archer", R.Z_SUPPORT, 0),
    (67, "guard", R.Z_FRONT, 0),
]


def position():
    cards = card_table()
    board = np.zeros((R.N_INST, R.BOARD_WIDTH), np.int64)
    board[:, R.B_CARD] = -1
    board[:, R.B_HOST] = -1
    for i, name, zone, damage in PLACES:
        c = CID[name]
        board[i, R.B_CARD], board[i, R.B_OWNER] = c, i >> 6
        board[i, R.B_ZONE], board[i, R.B_DAMAGE] = zone, damage
        board[i, R.B_MELEE], board[i, R.B_RANGED] = cards[c, R.CD_MELEE], cards[c, R.CD_RANGED]
        board[i, R.B_RIPOSTE], board[i, R.B_HP] = cards[c, R.CD_RIPOSTE], cards[c, R.CD_HP]
        board[i, R.B_PRESTIGE] = cards[c, R.CD_PRESTIGE]
    st = np.zeros(R.N_STATE, np.int64)
    st[R.S_TURN], st[R.S_PHASE], st[R.S_ACTOR] = 2, R.PH_ACTION, ME
    for k in (R.S_ATTACKER, R.S_DEFENDER, R.S_SOURCE, R.S_ABIL, R.S_PENDING, R.S_MAN_TOP, R.S_MAN_TOP + 1):
        st[k] = -1
    st[R.S_GOLD], st[R.S_GOLD + 1] = 3, 3
    st[R.S_HAND_N] = sum(1 for _, _, z, _ in PLACES[:12] if z == R.Z_HAND)
    st[R.S_HAND_N + 1] = 4
    st[R.S_DECK_N], st[R.S_DECK_N + 1] = 1, 20
    st[R.S_MAN_PILE_N], st[R.S_MAN_PILE_N + 1] = 2, 8
    st[R.S_RNG] = 0x9E3779B97F4A7C15 - (1 << 64)
    return st, board, cards


def options(rows):
    opts = np.full((R.MAX_OPTS, R.OPT_WIDTH), -1, np.int64)
    for k, row in enumerate(rows):
        opts[k, :len(row)] = row
    return opts, len(rows)


def fight(st, att, dfd, ranged=0):
    st[R.S_PHASE], st[R.S_IN_COMBAT], st[R.S_ATTACKER], st[R.S_DEFENDER], st[R.S_RANGED] = \
        R.PH_COMBAT, 1, att, dfd, ranged


def ask(name, kind, rows, st=None, board=None, cards=None, params=None):
    """Ask strategy `name`; check the answer is in range and nothing but st[S_RNG] was written."""
    if st is None:
        st, board, cards = position()
    strategy = REGISTRY.get(name)
    params = strategy.params() if params is None else params
    opts, n = options(rows)
    before = (st.copy(), board.copy(), opts.copy(), cards.copy(), params.copy())
    c = strategy.functions[0](kind, opts, n, st, board, cards, params)
    assert 0 <= c < n, (name, R.DECISION_NAMES[kind], c, n)
    rng = np.ones(R.N_STATE, bool)
    rng[R.S_RNG] = False
    assert np.array_equal(st[rng], before[0][rng]), (name, R.DECISION_NAMES[kind], "state written")
    for now, then, what in ((board, before[1], "board"), (opts, before[2], "options"),
                            (cards, before[3], "cards"), (params, before[4], "params")):
        assert np.array_equal(now, then), (name, R.DECISION_NAMES[kind], f"{what} written")
    return int(c)


# ---- option sets of every kind, legal for the position above ------------------------------------


def aim_bolt(st):
    st[R.S_SOURCE], st[R.S_ABIL] = 10, 0


def every_decision():
    """(kind, rows, how to set the state up) for each decision kind."""
    A = R
    action = [[A.ACT_PASS], [A.ACT_PASS_GOOD], [A.ACT_PLAY, 10, 0], [A.ACT_PLAY, 12, -1], [A.ACT_PLAY, 14, -1],
              [A.ACT_CYCLE, 56], [A.ACT_ATTACK, 0, 64, 0], [A.ACT_ATTACK, 1, 65, 0], [A.ACT_ATTACK, 2, 65, 1],
              [A.ACT_ATTACK, 3, 67, 0]]
    combat = [[A.ACT_PASS], [A.ACT_INTERCEPT, 4], [A.ACT_PLAY, 11, 0], [A.ACT_NAMED, 1, 13, A.EF_SHIELD],
              [A.ACT_NAMED, 1, 13, A.EF_MELEE], [A.ACT_NAMED, 1, 13, A.EF_RANGED], [A.ACT_NAMED, 1, 13, A.EF_HP]]
    return [
        (A.D_FIRST, [[0], [1]], None),
        (A.D_SETUP, [[2, A.FRONT], [2, A.SUPPORT]], None),
        (A.D_MULLIGAN, [[10], [11], [12], [13], [14], [-1]], None),
        (A.D_MANOEUVRE, [[48, 3, 0, A.RAVITAILLEMENT], [49, 0, 4, A.RAVITAILLEMENT]], None),
        (A.D_ACTION, action, None),
        (A.D_COMBAT, combat, lambda st: fight(st, 65, 1)),
        (A.D_TARGET, [[64], [65], [66], [67]], aim_bolt),
        (A.D_TARGET, [[0], [1], [2], [64], [65]], lambda st: st.__setitem__(A.S_PENDING, 12)),
        (A.D_LINE, [[A.FRONT], [A.SUPPORT]], lambda st: st.__setitem__(A.S_PENDING, 13)),
        (A.D_TRIGGER, [[16, 0, 0], [16, 1, 1], [16, 2, 0]], None),
        (A.D_TRIGGER, [[16, 0, 0], [16, 2, 0], [-1, -1, 0]], None),
        (A.D_DISCARD, [[10], [11], [12], [13], [14]], None),
        (A.D_SEARCH, [[15], [-1]], None),
        (A.D_LOOK, [[15]], None),
        (A.D_CYCLE, [[10], [11], [12], [13], [14]], None),
        (A.D_ATTACK, [[1, 64, 0], [1, 65, 0], [1, 66, 0], [1, 67, 0]], None),
    ]


@pytest.mark.parametrize("name", STRATEGIES)
def test_every_decision_kind_answered_in_range_without_writes(name):
    kinds = set()
    for kind, rows, setup in every_decision():
        for actor in (ME, THEM):
            st, board, cards = position()
            st[R.S_ACTOR] = actor
            if setup is not None:
                setup(st)
            if actor == THEM and kind in (R.D_COMBAT, R.D_TRIGGER, R.D_LINE, R.D_SETUP, R.D_MULLIGAN,
                                          R.D_DISCARD, R.D_CYCLE, R.D_SEARCH, R.D_LOOK, R.D_ACTION, R.D_ATTACK):
                continue                # those rows are mine; the opponent gets its own below
            ask(name, kind, rows, st, board, cards)
        kinds.add(kind)
    assert kinds == set(range(len(R.DECISION_NAMES)))
    # the opponent's side of a combat (it attacks my grunt) and of an action
    st, board, cards = position()
    st[R.S_ACTOR] = THEM
    fight(st, 65, 0)
    ask(name, R.D_COMBAT, [[R.ACT_PASS]] + [[R.ACT_NAMED, 65, 65, b] for b in (R.EF_SHIELD, R.EF_MELEE, R.EF_RIPOSTE)], st, board, cards)
    st, board, cards = position()
    st[R.S_ACTOR] = THEM
    ask(name, R.D_ACTION, [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_ATTACK, 64, 0, 0], [R.ACT_ATTACK, 65, 4, 0],
                           [R.ACT_ATTACK, 66, 1, 1]], st, board, cards)


@pytest.mark.parametrize("name", STRATEGIES)
def test_empty_board_and_odd_rows_do_not_crash(name):
    st, board, cards = position()
    board[:, R.B_ZONE] = R.Z_NONE
    board[:, R.B_CARD] = -1
    for kind in range(len(R.DECISION_NAMES)):
        ask(name, kind, [[R.ACT_PASS], [R.ACT_PASS_GOOD]], st, board, cards)


def test_registry_parameters_are_consistent():
    assert set(REGISTRY.names()) >= set(STRATEGIES)
    for name in STRATEGIES:
        s = REGISTRY.get(name)
        assert s.roles == ("seat0", "seat1")
        assert len(s.param_names) == len(s.defaults) == len(s.bounds)
        for v, (lo, hi) in zip(s.defaults, s.bounds):
            assert lo <= v <= hi


# ---- random ------------------------------------------------------------------------------------------


def test_random_covers_every_row_and_only_moves_its_stream():
    st, board, cards = position()
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_PLAY, 10, 0], [R.ACT_PLAY, 14, -1], [R.ACT_CYCLE, 56],
            [R.ACT_ATTACK, 0, 64, 0], [R.ACT_ATTACK, 1, 65, 0]]
    seen = np.zeros(len(rows), int)
    streams = set()
    for _ in range(2_000):
        seen[ask("random", R.D_ACTION, rows, st, board, cards)] += 1
        streams.add(int(st[R.S_RNG]))
    assert (seen > 0).all()
    assert seen.min() > 2_000 / len(rows) * 0.7           # roughly uniform
    assert len(streams) == 2_000                          # the stream moves on every draw
    done = sum(ask("random", R.D_MULLIGAN, [[10], [11], [-1]], st, board, cards) == 2 for _ in range(300))
    assert 50 < done < 150                                # the mulligan ends with probability 1/3 a step


def test_random_is_reproducible_from_the_stream():
    rows = [[1, 64, 0], [1, 65, 0], [1, 66, 0], [1, 67, 0]]
    runs = []
    for _ in range(2):
        st, board, cards = position()
        runs.append([ask("random", R.D_ATTACK, rows, st, board, cards) for _ in range(20)])
    assert runs[0] == runs[1]


# ---- aggressive ----------------------------------------------------------------------------------------


def test_aggressive_takes_the_killing_attack():
    # grunt 0 (2 melee) on the wounded champion 65 (life 2, prestige 4) kills; champion 1 on the guard
    # (life 7) deals the most damage but kills nothing; champion 1 on grunt 64 kills a prestige-1 body
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_PLAY, 14, -1], [R.ACT_ATTACK, 1, 67, 0],
            [R.ACT_ATTACK, 1, 64, 0], [R.ACT_ATTACK, 0, 65, 0]]
    assert ask("aggressive", R.D_ACTION, rows) == 5
    assert ask("aggressive", R.D_ACTION, rows[:5]) == 4          # the other kill
    assert ask("aggressive", R.D_ACTION, rows[:4]) == 3          # no kill: still attacks
    assert ask("aggressive", R.D_ACTION, rows[:3]) == 2          # no attack: plays its character
    assert ask("aggressive", R.D_ACTION, rows[:2]) == 1          # nothing useful: passes for good


def test_aggressive_plays_dearest_character_shooters_back_and_most_gold():
    st, board, cards = position()
    st[R.S_GOLD] = 6
    assert ask("aggressive", R.D_ACTION, [[R.ACT_PASS], [R.ACT_PLAY, 14, -1], [R.ACT_PLAY, 13, -1]],
               st, board, cards) == 2
    st[R.S_PENDING] = 2
    assert ask("aggressive", R.D_LINE, [[R.FRONT], [R.SUPPORT]], st, board, cards) == 1
    st[R.S_PENDING] = 13
    assert ask("aggressive", R.D_LINE, [[R.FRONT], [R.SUPPORT]], st, board, cards) == 0
    assert ask("aggressive", R.D_MANOEUVRE, [[48, 3, 0, 0], [49, 0, 4, 0]]) == 1
    assert ask("aggressive", R.D_MULLIGAN, [[10], [13], [14], [-1]]) == 1      # the 5-cost champion
    assert ask("aggressive", R.D_MULLIGAN, [[10], [14], [-1]]) == 2            # nothing over 4: done


def test_aggressive_never_intercepts():
    st, board, cards = position()
    fight(st, 65, 1)              # their champion attacks mine
    assert ask("aggressive", R.D_COMBAT, [[R.ACT_PASS], [R.ACT_INTERCEPT, 4]], st, board, cards) == 0


# ---- value ------------------------------------------------------------------------------------------


def test_value_prefers_the_kill_of_the_prestigious_defender_without_dying():
    # their champion 65: life 2, riposte 2, prestige 4. My wounded grunt 3 (life 1) kills it but dies
    # to the riposte; my grunt 0 (life 3) kills it and lives; my archer 2 shoots their grunt dead
    # (prestige 1) from out of everyone's reach.
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_ATTACK, 3, 65, 0], [R.ACT_ATTACK, 2, 64, 1],
            [R.ACT_ATTACK, 0, 65, 0]]
    assert ask("value", R.D_ACTION, rows) == 4
    # without it: trading the grunt (prestige 1) for the champion (prestige 4) beats the small kill,
    # unless the risk weighs three times as much
    assert ask("value", R.D_ACTION, rows[:4]) == 2
    params = REGISTRY.get("value").params({"risk_weight": 3.0})
    assert ask("value", R.D_ACTION, rows[:4], params=params) == 3
    st, board, cards = position()
    assert ask("value", R.D_ATTACK, [[3, 65, 0], [2, 64, 1], [0, 65, 0]], st, board, cards) == 2
    # the champion on their grunt: a kill, but it is left in reach of their champion's 5 melee
    assert ask("value", R.D_ACTION, [[R.ACT_PASS], [R.ACT_ATTACK, 1, 64, 0], [R.ACT_ATTACK, 2, 64, 1]]) == 2


def test_value_does_not_throw_its_characters_away():
    # the grunt on the guard (7 HP, riposte 2): no kill, damage taken; passing (or passing for good) is better
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_ATTACK, 3, 67, 0]]
    assert ask("value", R.D_ACTION, rows) in (0, 1)


def test_value_aims_damage_at_the_most_prestige_it_can_kill():
    st, board, cards = position()
    st[R.S_SOURCE], st[R.S_ABIL] = 10, 0          # bolt: 3 damage to an enemy character
    # 64 grunt (life 3, P1) and 65 champion (life 2, P4) both die; 67 guard does not
    assert ask("value", R.D_TARGET, [[64], [67], [65]], st, board, cards) == 2
    board[65, R.B_SHIELD] = 5                      # the champion is out of reach now
    assert ask("value", R.D_TARGET, [[67], [65], [64]], st, board, cards) == 2


def test_value_hosts_and_lines():
    st, board, cards = position()
    st[R.S_PENDING] = 12                           # the sword (+2 melee) goes on one of my characters
    c = ask("value", R.D_TARGET, [[64], [65], [0], [1]], st, board, cards)
    assert c in (2, 3)
    st[R.S_PENDING] = 2                            # the archer (2 HP) stays back
    assert ask("value", R.D_LINE, [[R.FRONT], [R.SUPPORT]], st, board, cards) == 1
    st[R.S_PENDING] = 13                           # the champion goes to the front
    assert ask("value", R.D_LINE, [[R.FRONT], [R.SUPPORT]], st, board, cards) == 0
    assert ask("value", R.D_SETUP, [[2, R.FRONT], [2, R.SUPPORT]]) == 1


def test_value_shields_a_combatant_that_would_die_and_intercepts_for_a_better_defender():
    st, board, cards = position()
    fight(st, 65, 0)           # their champion (5 melee) attacks my grunt (life 3, prestige 1)
    rows = [[R.ACT_PASS], [R.ACT_PLAY, 11, 0]]
    assert ask("value", R.D_COMBAT, rows, st, board, cards) == 1       # a 3-shield saves it
    st, board, cards = position()
    fight(st, 65, 1)           # their champion (5 melee, life 2) attacks my champion (life 6, prestige 4)
    assert ask("value", R.D_COMBAT, rows, st, board, cards) == 0       # no need: mine lives and kills
    st, board, cards = position()
    board[1, R.B_DAMAGE] = 3   # my champion now dies to the attack (life 3); the guard (life 7) does not
    fight(st, 65, 1)
    c = ask("value", R.D_COMBAT, [[R.ACT_PASS], [R.ACT_INTERCEPT, 4]], st, board, cards)
    assert c == 1


def test_value_manoeuvre_by_need():
    st, board, cards = position()
    st[R.S_GOLD] = 0                                # a champion (5) in hand it cannot pay for: gold
    st[R.S_DECK_N] = 20
    assert ask("value", R.D_MANOEUVRE, [[48, 3, 0, 0], [49, 0, 4, 0]], st, board, cards) == 1
    st, board, cards = position()
    st[R.S_GOLD] = 9
    st[R.S_DECK_N] = 20
    for i in (10, 11, 12, 13, 14):                  # an empty hand and gold to spare: cards
        board[i, R.B_ZONE] = R.Z_DISCARD
    st[R.S_HAND_N] = 0
    assert ask("value", R.D_MANOEUVRE, [[48, 3, 0, 0], [49, 0, 4, 0]], st, board, cards) == 0


def test_value_mulligan_and_triggers():
    # the 5-cost champion goes under; with only cheap cards left it stops
    assert ask("value", R.D_MULLIGAN, [[10], [13], [14], [-1]]) == 1
    params = REGISTRY.get("value").params({"min_cheap": 0})
    assert ask("value", R.D_MULLIGAN, [[10], [11], [14], [-1]], params=params) == 3
    # with min_cheap 2 and one cheap character, it digs: a non-character goes under
    assert ask("value", R.D_MULLIGAN, [[14], [10], [11], [-1]]) == 1
    # forced first; then the useful draw; declines the one that destroys its own character
    assert ask("value", R.D_TRIGGER, [[16, 0, 0], [16, 1, 1], [16, 2, 0]]) == 1
    assert ask("value", R.D_TRIGGER, [[16, 2, 0], [16, 0, 0], [-1, -1, 0]]) == 1
    assert ask("value", R.D_TRIGGER, [[16, 2, 0], [-1, -1, 0]]) == 1
    assert ask("aggressive", R.D_TRIGGER, [[16, 2, 0], [-1, -1, 0]]) == 1


def test_value_passes_for_good_only_with_nothing_to_do():
    def no_tricks():
        st, board, cards = position()
        board[11, R.B_ZONE] = R.Z_DISCARD           # no combat trick left in hand
        st[R.S_HAND_N] -= 1
        return st, board, cards
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD]]
    assert ask("value", R.D_ACTION, rows, *no_tricks()) == 1
    params = REGISTRY.get("value").params({"lead_value": -0.2})
    assert ask("value", R.D_ACTION, rows, *no_tricks(), params=params) == 0
    st, board, cards = no_tricks()
    st[R.S_OUT + THEM] = 1                          # the lead is already theirs
    assert ask("value", R.D_ACTION, rows, st, board, cards) == 0
    assert ask("value", R.D_ACTION, rows + [[R.ACT_ATTACK, 0, 65, 0]], *no_tricks()) == 2
    # a combat trick in hand (the shield wall) is a reason to stay in
    assert ask("value", R.D_ACTION, rows) == 0


def test_heuristics_stop_past_the_loop_guard():
    st, board, cards = position()
    st[R.T_ACTIONS] = 10_000
    rows = [[R.ACT_PASS], [R.ACT_PASS_GOOD], [R.ACT_ATTACK, 0, 65, 0]]
    for name in ("value", "aggressive"):
        assert ask(name, R.D_ACTION, rows, st, board, cards) == 1
