"""The Drakerion referee on hand-written traces: a tiny card table, decks of three cards, and every trace
row written out here with the option counts worked out by hand from docs/DRAKERION.md (no kernel)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from drakerion_cards import ability, card
from sim.engine.game import RefereeError, Trace
from sim.games.drakerion import records as R
from sim.games.drakerion import referee

C, F, S = R.CHARACTER, R.FRONT, R.SUPPORT
PASS, GOOD, PLAY, ABIL, ATTACK, INTERCEPT = (R.ACT_PASS, R.ACT_PASS_GOOD, R.ACT_PLAY, R.ACT_ABILITY,
                                             R.ACT_ATTACK, R.ACT_INTERCEPT)

CARDS = {
    "Warden": card(type=C, cost=1, melee=3, riposte=2, hp=4, prestige=2, name_id=0),
    "Pup": card(type=C, cost=1, melee=1, riposte=1, hp=2, prestige=1, name_id=1),
    "Archer": card(type=C, cost=2, melee=1, ranged=2, riposte=1, hp=3, prestige=2, name_id=2),
    "Blade": card(type=R.ATTACHMENT, cost=1, melee=2, prestige=1, name_id=3),
    "Bolt": ability(card(type=R.EVENT, cost=1, name_id=4), 0, trigger=R.TR_ACTION, effect=R.EF_DAMAGE,
                    target=R.TG_ENEMY, amount=2),
    "Lord": card(type=C, cost=1, melee=1, riposte=0, hp=3, prestige=19, name_id=5),
    "Wall": ability(card(type=C, cost=2, melee=1, riposte=1, hp=5, prestige=2, name_id=6,
                         keywords=R.KW_INTERCEPTEUR),
                    0, trigger=R.TR_REACTION, condition=R.WH_DEFENDS, effect=R.EF_SHIELD, target=R.TG_SELF, amount=2),
    "Martyr": ability(card(type=C, cost=1, melee=1, riposte=0, hp=1, prestige=1, name_id=11), 0,
                      trigger=R.TR_DESTRUCTION, cost=R.CO_TAP_SELF, effect=R.EF_GOLD, target=R.TG_ME, amount=1),
    "Supply": card(type=R.MANOEUVRE, draw=1, gold=2, subtype=R.RAVITAILLEMENT, name_id=7),
    "Keep": card(type=R.CITY, name_id=8),
    "High Banner": card(type=R.BANNER, initiative=2, name_id=9),
    "Low Banner": card(type=R.BANNER, initiative=1, name_id=10),
}
NAMES = list(CARDS)
TABLE = np.array([CARDS[k] for k in NAMES])


def arrays(decks, setups, **config):
    """The referee's inputs: seat p's deck cards take rows p*64 + k; both Banners, the City and eight
    Supply Manoeuvres are fixed; seat 0 has the higher initiative."""
    inst = np.full((2, R.MAX_INST), -1, np.int64)
    setup = np.full((2, R.MAX_SETUP), -1, np.int64)
    for p in (0, 1):
        for k, label in enumerate(decks[p]):
            inst[p, k] = NAMES.index(label)
        inst[p, R.I_MAN:R.I_MAN + R.N_MAN] = NAMES.index("Supply")
        inst[p, R.I_CITY] = NAMES.index("Keep")
        inst[p, R.I_BANNER] = NAMES.index("High Banner" if p == 0 else "Low Banner")
        setup[p, :len(setups[p])] = setups[p]
    cfg = np.zeros(R.N_CFG, np.int64)
    cfg[R.C_HAND_SIZE] = 1
    cfg[R.C_WIN_PRESTIGE] = 20
    cfg[R.C_TURN_CAP] = 40
    cfg[R.C_PRESTIGE_ANY] = 1
    for k, v in config.items():
        cfg[getattr(R, "C_" + k.upper())] = v
    deck_n = np.array([len(decks[0]), len(decks[1])], np.int64)
    return TABLE, inst, setup, deck_n, cfg


class Script:
    """Trace rows written one call at a time."""

    def __init__(self):
        self.rows = []

    def ev(self, *cols):
        self.rows.append(list(cols) + [-1] * (R.TRACE_WIDTH - len(cols)))
        return self

    def do(self, kind, p, n, *chosen):
        return self.ev(R.EV_DECIDE, kind, p, n, *chosen)

    def deck(self, p, order):
        for k, i in enumerate(order):
            self.ev(R.EV_DECK, p, len(order), k, i)
        return self

    def turn(self, turn, first, gold, prestige, hands):
        return self.ev(R.EV_TURN, turn, first, *gold, *prestige, *hands)

    def manoeuvres(self, first, picks):
        """Both picks (first player's first): picks[p] is the pile slot, n the cards left in the pile."""
        for p in (first, 1 - first):
            slot, n = picks[p]
            self.do(R.D_MANOEUVRE, p, n, p * 64 + R.I_MAN + slot, 1, 2, R.RAVITAILLEMENT)
        return self

    def end(self, winner, end, turns, pr0, pr1):
        return self.ev(R.EV_END, winner, end, turns, pr0, pr1)

    def array(self):
        return np.array(self.rows, np.int16)


def replay(tables, script, record=None):
    return referee.replay_arrays(*tables, script.array(), record, names=NAMES)


# ---- scenario A: a melee attack with riposte ends the game --------------------------------------------
# seat 0: Warden (row 0, set up front), Pup (1), Bolt (2); seat 1: Pup (64, set up), Archer (65), Blade (66).


def game_a():
    tables = arrays({0: ["Warden", "Pup", "Bolt"], 1: ["Pup", "Archer", "Blade"]}, {0: [0], 1: [0]})
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0)            # seat 0 has the higher initiative
    s.do(R.D_SETUP, 0, 2, 0, F)
    s.do(R.D_SETUP, 1, 2, 64, S)                               # alone on the support: it moves up
    s.deck(0, [2, 1]).deck(1, [66, 65])                        # tops: Pup (1) and Archer (65)
    s.do(R.D_MULLIGAN, 0, 2, -1).do(R.D_MULLIGAN, 1, 2, -1)
    s.turn(1, 0, (0, 0), (0, 0), (1, 1))
    s.manoeuvres(0, {0: (0, 8), 1: (0, 8)})                    # +2 gold, draw Bolt / Blade
    return tables, s


def a_attack(s, n=5, att=0, dfd=64):
    # pass, pass for good, play Pup, play Bolt (its Action ability), Warden attacks Pup
    return s.do(R.D_ACTION, 0, n, ATTACK, att, dfd, 0)


def test_melee_with_riposte_damages_both_destroys_one_and_pays_prestige():
    tables, s = game_a()
    a_attack(s)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)     # nothing to play in the window
    s.end(0, R.END_WIPEOUT, 1, 1, 0)
    record = {"winner": 0, "end": R.END_WIPEOUT, "turns": 1, "prestige0": 1, "prestige1": 0}
    lines = replay(tables, s, record)
    text = "\n".join(lines)
    assert "seat 1's front line is empty: its support line moves up" in text
    assert "seat 0's Warden attacks seat 1's Pup (melee 3 against riposte 1)" in text
    assert "seat 1's Pup takes 3 damage: 3 on 2 HP" in text
    assert "seat 0's Warden takes 1 damage: 1 on 4 HP" in text      # the riposte lands all the same
    assert "seat 1's Pup is destroyed: seat 0 takes 1 prestige (prestige 1-0)" in text
    assert lines[-1] == "turn 1: end: no characters left, seat 0 wins, prestige 1-0"


def test_the_games_table_keys_and_a_wrong_record():
    tables, s = game_a()
    a_attack(s)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS).end(0, R.END_WIPEOUT, 1, 1, 0)
    replay(tables, s, {"winner": 0, "end": R.END_WIPEOUT, "turns": 1, "prestige_s0": 1, "prestige_s1": 0})
    with pytest.raises(RefereeError, match="prestige1"):
        replay(tables, s, {"winner": 0, "prestige1": 2})
    with pytest.raises(RefereeError, match="winner"):
        replay(tables, s, {"winner": 1})


def test_replay_takes_the_rules_arrays_and_the_trace():
    tables, s = game_a()
    a_attack(s)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS).end(0, R.END_WIPEOUT, 1, 1, 0)
    cards, inst, setup, deck_n, cfg = tables
    rules = SimpleNamespace(arrays=lambda: SimpleNamespace(cards=cards, inst_card=inst, setup=setup,
                                                           deck_n=deck_n, config=cfg, names=NAMES),
                            fielded=lambda: False)
    lines = referee.replay(rules, Trace(s.array(), {"winner": 0, "turns": 1}))
    assert any("Warden attacks" in x for x in lines)
    with pytest.raises(RefereeError):
        referee.replay(rules, Trace(s.array(), {"winner": 1}))


def test_a_wrong_option_count_is_rejected_with_its_row():
    tables, s = game_a()
    a_attack(s, n=6)
    with pytest.raises(RefereeError, match=r"row 13, turn 1: action decision by seat 0: 5 legal options, "
                                           r"the trace says 6"):
        replay(tables, s)


def test_an_illegal_attacker_or_defender_is_rejected():
    tables, s = game_a()
    a_attack(s, att=1)                                          # Pup is in seat 0's hand
    with pytest.raises(RefereeError, match=r"the trace chose \(5, 1, 64, 0\), which is not legal"):
        replay(tables, s)
    tables, s = game_a()
    a_attack(s, dfd=0)                                          # one's own Warden
    with pytest.raises(RefereeError, match="not legal"):
        replay(tables, s)


def test_the_wrong_decision_kind_or_player_is_rejected():
    tables, s = game_a()
    s.do(R.D_ACTION, 1, 5, PASS)
    with pytest.raises(RefereeError, match="expected a action decision by seat 0, the trace has a action "
                                           "decision by seat 1"):
        replay(tables, s)
    tables, s = game_a()
    s.do(R.D_COMBAT, 0, 5, PASS)
    with pytest.raises(RefereeError, match="combat decision"):
        replay(tables, s)


def test_a_shuffle_must_hold_the_deck_s_own_cards():
    tables = arrays({0: ["Warden", "Pup", "Bolt"], 1: ["Pup", "Archer", "Blade"]}, {0: [0], 1: [0]})
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0).do(R.D_SETUP, 0, 2, 0, F).do(R.D_SETUP, 1, 2, 64, F)
    s.deck(0, [2, 0])                                           # Warden is in play, not in the deck
    with pytest.raises(RefereeError, match="shuffled deck holds other cards"):
        replay(tables, s)


def test_a_checkpoint_names_the_field_that_differs():
    tables, s = game_a()
    s.rows[-3][3] = 1                                           # the checkpoint says seat 0 has 1 gold
    with pytest.raises(RefereeError, match=r"turn checkpoint differs: gold0 1 \(the rules give 0\)"):
        replay(tables, s)


def test_the_end_row_and_what_follows_it_are_checked():
    tables, s = game_a()
    a_attack(s)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)
    with pytest.raises(RefereeError, match="trace ends early"):
        replay(tables, s)
    s.end(1, R.END_WIPEOUT, 1, 1, 0)
    with pytest.raises(RefereeError, match=r"end row differs: winner 1 \(the rules give 0\)"):
        replay(tables, s)
    s.rows[-1][1] = 0
    s.do(R.D_ACTION, 1, 1, PASS)
    with pytest.raises(RefereeError, match="rows follow the end"):
        replay(tables, s)
    s.rows[-1] = [0] * R.TRACE_WIDTH                            # padding is fine
    replay(tables, s)


# ---- scenario B: a ranged attack, the support line moving up, a melee from the support ---------------
# seat 0: Archer (row 0, support), Warden (1, front), Pup (2); seat 1: Pup (64, front), Pup (65, support),
# Warden (66). Decks run out: the Manoeuvre draws nothing.


def game_b():
    tables = arrays({0: ["Archer", "Warden", "Pup"], 1: ["Pup", "Pup", "Warden"]}, {0: [0, 1], 1: [0, 1]})
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0)
    s.do(R.D_SETUP, 0, 2, 0, S).do(R.D_SETUP, 0, 2, 1, F)
    s.do(R.D_SETUP, 1, 2, 64, F).do(R.D_SETUP, 1, 2, 65, S)
    s.deck(0, [2]).deck(1, [66])
    s.do(R.D_MULLIGAN, 0, 2, -1).do(R.D_MULLIGAN, 1, 2, -1)
    s.turn(1, 0, (0, 0), (0, 0), (1, 1))
    s.manoeuvres(0, {0: (0, 8), 1: (0, 8)})
    return tables, s


def test_a_support_character_cannot_melee():
    tables, s = game_b()
    # pass, pass for good, play Pup, Warden melee on Pup 64, Archer ranged on Pup 64 (not 65: three lines)
    s.do(R.D_ACTION, 0, 5, ATTACK, 0, 64, 0)
    with pytest.raises(RefereeError, match=r"\(5, 0, 64, 0\), which is not legal"):
        replay(tables, s)


def test_ranged_attack_takes_no_riposte_and_the_support_moves_up():
    tables, s = game_b()
    s.do(R.D_ACTION, 0, 5, ATTACK, 0, 64, 1)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)
    # seat 1 (the defending player) acts next. Pup 65 moved up, so it may melee the Warden:
    # pass, pass for good, play Warden, Pup 65 attacks Warden (4 rows; 3 if it had stayed on the support)
    s.do(R.D_ACTION, 1, 4, ATTACK, 65, 1, 0)
    s.do(R.D_COMBAT, 0, 1, PASS).do(R.D_COMBAT, 1, 1, PASS)
    s.end(0, R.END_WIPEOUT, 1, 2, 0)
    text = "\n".join(replay(tables, s))
    assert "seat 0's Archer attacks seat 1's Pup (ranged 2)" in text
    assert "Archer takes" not in text
    assert "seat 1's front line is empty: its support line moves up" in text
    assert "seat 1's Pup takes 2 damage: 2 on 2 HP" in text          # Warden's riposte kills Pup 65
    assert "reveals Supply (+2 gold, draws 1): 2 gold, 1 in hand" in text   # an empty deck draws nothing


def test_an_illegal_line_move_up_is_caught():
    tables, s = game_b()
    s.do(R.D_ACTION, 0, 5, ATTACK, 0, 64, 1)
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)
    s.do(R.D_ACTION, 1, 3, PASS)                               # a kernel that forgot the lines rule
    with pytest.raises(RefereeError, match="4 legal options, the trace says 3"):
        replay(tables, s)


# ---- scenario C: an attachment, an event, and the win at 20 prestige ---------------------------------
# seat 0: Warden (row 0, front), Blade (1), Bolt (2); seat 1: Lord (64, front; prestige 19), Pup (65,
# support), Pup (66). Hands of 2.


def scenario_c():
    """Scenario C up to seat 0's first action: its tables and the script so far."""
    tables = arrays({0: ["Warden", "Blade", "Bolt"], 1: ["Lord", "Pup", "Pup"]}, {0: [0], 1: [0, 1]},
                    hand_size=2)
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0)
    s.do(R.D_SETUP, 0, 2, 0, F).do(R.D_SETUP, 1, 2, 64, F).do(R.D_SETUP, 1, 2, 65, S)
    s.deck(0, [2, 1]).deck(1, [66])
    s.do(R.D_MULLIGAN, 0, 3, -1).do(R.D_MULLIGAN, 1, 2, -1)
    s.turn(1, 0, (0, 0), (0, 0), (2, 1))
    s.manoeuvres(0, {0: (3, 8), 1: (7, 8)})
    return tables, s


def test_attachment_event_and_twenty_prestige_win():
    tables, s = scenario_c()
    # pass, pass for good, Blade (three hosts, either side), Bolt, Warden attacks Lord
    s.do(R.D_ACTION, 0, 5, PLAY, 1, -1)
    s.do(R.D_TARGET, 0, 3, 64)                                  # on the enemy Lord: +2 melee, +1 prestige
    s.do(R.D_ACTION, 1, 4, PASS)                               # pass, pass for good, play Pup, Lord attacks
    s.do(R.D_ACTION, 0, 4, PLAY, 2, 0)                         # 1 gold left: Bolt, not Blade
    s.do(R.D_TARGET, 0, 2, 64)                                  # enemy characters: Lord, Pup 65
    s.do(R.D_ACTION, 1, 4, PASS)
    s.do(R.D_ACTION, 0, 3, ATTACK, 0, 64, 0)                   # no gold: pass, pass for good, attack
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)
    s.end(0, R.END_PRESTIGE, 1, 20, 0)                         # 19 + Blade's 1; seat 1 still has Pup 65
    text = "\n".join(replay(tables, s))
    assert "seat 0 plays Blade (1 gold) on seat 1's Lord" in text
    assert "seat 0 plays Bolt (1 gold)" in text
    assert "seat 1's Lord takes 2 damage: 2 on 3 HP" in text
    assert "seat 0's Warden attacks seat 1's Lord (melee 3 against riposte 0)" in text
    assert "seat 1's Lord is destroyed: seat 0 takes 20 prestige (prestige 20-0)" in text
    assert text.endswith("end: prestige, seat 0 wins, prestige 20-0")


def test_an_attachment_host_count_is_checked():
    tables, s = scenario_c()
    s.do(R.D_ACTION, 0, 5, PLAY, 1, -1)
    s.do(R.D_TARGET, 0, 1, 0)                                   # own characters only: a wrong reading
    with pytest.raises(RefereeError, match="target decision by seat 0: 3 legal options, the trace says 1"):
        replay(tables, s)


# ---- scenario D: passing, the next first player, gold kept, the turn cap ------------------------------


def test_pass_for_good_sets_the_next_first_player_and_the_cap_draws():
    tables, s = game_a()
    tables[4][R.C_TURN_CAP] = 2
    s.do(R.D_ACTION, 0, 5, GOOD)
    # pass, pass for good, play Archer (2 gold), play Blade (hosts Warden, Pup), Pup 64 attacks Warden
    s.do(R.D_ACTION, 1, 5, PASS)
    s.turn(2, 0, (2, 2), (0, 0), (2, 2))                        # the first to pass for good leads; gold kept
    s.manoeuvres(0, {0: (1, 7), 1: (4, 7)})                    # seven Manoeuvres left
    s.do(R.D_ACTION, 0, 5, PASS).do(R.D_ACTION, 1, 5, PASS)
    s.end(R.DRAW, R.END_CAP, 2, 0, 0)
    lines = replay(tables, s)
    assert "turn 2: seat 0 leads; gold 2-2, prestige 0-0, hands 2-2" in lines
    assert lines[-1] == "turn 2: end: turn cap (draw), a draw, prestige 0-0"


def test_the_player_whose_pass_ends_the_phase_leads_when_nobody_passed_for_good():
    tables, s = game_a()
    s.do(R.D_ACTION, 0, 5, PASS).do(R.D_ACTION, 1, 5, PASS)
    s.turn(2, 0, (2, 2), (0, 0), (2, 2))                        # wrong: seat 1's pass ended the phase
    with pytest.raises(RefereeError, match=r"first player 0 \(the rules give 1\)"):
        replay(tables, s)


def test_a_used_manoeuvre_is_no_longer_offered():
    tables, s = game_a()
    s.do(R.D_ACTION, 0, 5, PASS).do(R.D_ACTION, 1, 5, PASS)
    s.turn(2, 1, (2, 2), (0, 0), (2, 2))
    s.manoeuvres(1, {0: (1, 7), 1: (0, 7)})                    # seat 1 picks first, slot 0 again
    with pytest.raises(RefereeError, match="manoeuvre decision by seat 1: the trace chose"):
        replay(tables, s)


# ---- scenario E: an interception and a Reaction (D_TRIGGER) with shields -----------------------------
# seat 0: Warden (row 0, front), Pup (1), Bolt (2); seat 1: Pup (64, front), Wall (65, front, Intercepteur,
# "defends: 2 shields on itself"), Pup (66).


def game_e(cap=2):
    tables = arrays({0: ["Warden", "Pup", "Bolt"], 1: ["Pup", "Wall", "Pup"]}, {0: [0], 1: [0, 1]},
                    turn_cap=cap)
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0)
    s.do(R.D_SETUP, 0, 2, 0, F).do(R.D_SETUP, 1, 2, 64, F).do(R.D_SETUP, 1, 2, 65, F)
    s.deck(0, [2, 1]).deck(1, [66])
    s.do(R.D_MULLIGAN, 0, 2, -1).do(R.D_MULLIGAN, 1, 2, -1)
    s.turn(1, 0, (0, 0), (0, 0), (1, 1))
    s.manoeuvres(0, {0: (0, 8), 1: (0, 8)})
    # pass, pass for good, play Pup, play Bolt, Warden attacks Pup 64 or Wall
    s.do(R.D_ACTION, 0, 6, ATTACK, 0, 64, 0)
    s.do(R.D_COMBAT, 1, 2, INTERCEPT, 65)                     # pass, or Wall intercepts
    return tables, s


def test_interception_and_a_reaction_shield():
    tables, s = game_e()
    s.do(R.D_TRIGGER, 1, 2, 65, 0, 0)                          # Wall's reaction, or decline
    s.do(R.D_COMBAT, 0, 1, PASS)
    s.do(R.D_COMBAT, 1, 1, PASS)                               # no second interception
    s.do(R.D_ACTION, 1, 4, GOOD)                               # Wall is tapped: only Pup 64 may attack
    s.do(R.D_ACTION, 0, 4, PASS)                               # Warden is tapped: no attack
    s.turn(2, 1, (2, 2), (0, 0), (2, 1))
    s.manoeuvres(1, {0: (1, 7), 1: (1, 7)})
    # untapped again: seat 1 has 2 attacks, seat 0 has 2
    s.do(R.D_ACTION, 1, 5, PASS).do(R.D_ACTION, 0, 6, PASS)
    s.end(R.DRAW, R.END_CAP, 2, 0, 0)
    text = "\n".join(replay(tables, s))
    assert "seat 1's Wall intercepts" in text
    assert "seat 1 uses Wall's reaction ability (shield 2)" in text
    assert "seat 1's Wall takes 3 damage (2 on shields): 1 on 5 HP" in text
    assert "seat 0's Warden takes 1 damage: 1 on 4 HP" in text


def test_declining_the_reaction_leaves_the_wall_unshielded():
    tables, s = game_e(cap=1)
    s.do(R.D_TRIGGER, 1, 2, -1, -1, 0)
    s.do(R.D_COMBAT, 0, 1, PASS).do(R.D_COMBAT, 1, 1, PASS)
    s.do(R.D_ACTION, 1, 4, PASS).do(R.D_ACTION, 0, 4, PASS)
    s.end(R.DRAW, R.END_CAP, 1, 0, 0)
    text = "\n".join(replay(tables, s))
    assert "seat 1's Wall takes 3 damage: 3 on 5 HP" in text


def test_a_trigger_that_is_not_pending_is_rejected():
    tables, s = game_e()
    s.do(R.D_TRIGGER, 1, 2, 64, 0, 0)
    with pytest.raises(RefereeError, match="trigger decision by seat 1: the trace chose"):
        replay(tables, s)


# ---- scenario F: a Destruction ability with a tap_self cost, from a tapped attacker ---------------------


def test_a_destroyed_attacker_is_untapped_in_the_discard():
    tables = arrays({0: ["Martyr", "Pup", "Bolt"], 1: ["Warden", "Pup", "Pup"]}, {0: [0, 1], 1: [0]}, turn_cap=1)
    s = Script()
    s.do(R.D_FIRST, 0, 2, 0).ev(R.EV_FIRST, 0, 0)
    s.do(R.D_SETUP, 0, 2, 0, F).do(R.D_SETUP, 0, 2, 1, S).do(R.D_SETUP, 1, 2, 64, F)
    s.deck(0, [2]).deck(1, [66, 65])
    s.do(R.D_MULLIGAN, 0, 2, -1).do(R.D_MULLIGAN, 1, 2, -1)
    s.turn(1, 0, (0, 0), (0, 0), (1, 1))
    s.manoeuvres(0, {0: (0, 8), 1: (0, 8)})
    s.do(R.D_ACTION, 0, 4, ATTACK, 0, 64, 0)                   # pass, pass for good, Bolt, Martyr attacks
    s.do(R.D_COMBAT, 1, 1, PASS).do(R.D_COMBAT, 0, 1, PASS)     # the Warden's riposte kills the Martyr
    s.do(R.D_TRIGGER, 0, 2, 0, 0, 0)                           # its tap_self cost is payable from the discard
    s.do(R.D_ACTION, 1, 5, GOOD)                               # Pup 1 moved up: Warden may attack it
    s.do(R.D_ACTION, 0, 4, PASS)                               # 3 gold; Pup attacks Warden
    s.end(R.DRAW, R.END_CAP, 1, 0, 1)
    text = "\n".join(replay(tables, s))
    assert "seat 0 uses Martyr's destruction ability (gold 1)" in text


# ---- invariants -----------------------------------------------------------------------------------


def test_invariants_catch_an_impossible_state():
    tables, s = game_a()
    ref = referee.Referee(*tables, s.array(), NAMES)
    ref.check()
    ref.prestige_seen = [3, 0]
    with pytest.raises(RefereeError, match="prestige fell from 3 to 0"):
        ref.check()
    ref = referee.Referee(*tables, s.array(), NAMES)
    ref.deck[0].pop()
    with pytest.raises(RefereeError, match="deck order and deck zone disagree"):
        ref.check()
    ref = referee.Referee(*tables, s.array(), NAMES)
    ref.gold[1] = -1
    with pytest.raises(RefereeError, match="negative gold"):
        ref.check()
