"""Drakerion golden scenarios: each combat rule, keyword and trigger on a board laid out by hand, driven
through the kernel's own rule functions with scripted answers (tests/drakerion_scenarios.py)."""

from __future__ import annotations

import numpy as np
import pytest
from drakerion_cards import ability, card
from drakerion_scenarios import Table

from sim.games.drakerion import kernel
from sim.games.drakerion import kernel_base as KB
from sim.games.drakerion import kernel_effects as KE
from sim.games.drakerion import records as R

C = R.CHARACTER


def pool(**extra):
    cards = {
        "grunt": card(type=C, cost=2, melee=3, riposte=1, hp=4, prestige=2, name_id=0),
        "guard": card(type=C, cost=2, melee=2, riposte=2, hp=3, prestige=3, name_id=1),
        "archer": card(type=C, cost=3, melee=1, ranged=3, riposte=1, hp=3, prestige=2, name_id=2),
        "wall": card(type=C, cost=3, melee=1, riposte=1, hp=6, prestige=2, name_id=3, keywords=R.KW_INTERCEPTEUR),
        "brute": card(type=C, cost=4, melee=4, riposte=0, hp=4, prestige=3, name_id=4, keywords=R.KW_IMPLACABLE),
        "sneak": card(type=C, cost=2, melee=2, riposte=1, hp=3, prestige=1, name_id=5, keywords=R.KW_INFILTRATEUR),
        "hero": card(type=C, cost=4, melee=3, riposte=2, hp=5, prestige=4, name_id=6, named=1),
    }
    cards.update(extra)
    return cards


def combat(t, a, d, ranged=0):
    return kernel.combat(*t.args(), a, d, ranged)


def test_melee_with_riposte_is_simultaneous_and_pays_prestige():
    t = Table(pool()).start({0: ["grunt"] * 2, 1: ["guard"] * 2})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_SUPPORT)
    nxt = combat(t, a, d)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD            # 3 damage on 3 HP
    assert t.board[a, R.B_DAMAGE] == 2                     # the guard's riposte landed all the same
    assert list(t.st[R.S_PRESTIGE:R.S_PRESTIGE + 2]) == [3, 0]
    assert nxt == 1                                        # the defending player acts next
    assert t.counter(R.T_VIOLATIONS) == 0


def test_ranged_attack_takes_no_riposte_and_reaches_the_support_line():
    t = Table(pool()).start({0: ["archer", "grunt"], 1: ["guard", "guard"]})
    a = t.move(t.row(0, 0), R.Z_SUPPORT)
    t.move(t.row(0, 1), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    s = t.move(t.row(1, 1), R.Z_SUPPORT)
    n = kernel.list_attacks(t.w, t.st, t.opts, t.table, t.board, 0, 0)
    rows = {tuple(r) for r in t.opts[:n, :4]}
    assert (R.ACT_ATTACK, a, d, 1) in rows                 # support to front: two lines, in reach
    assert (R.ACT_ATTACK, a, s, 1) not in rows             # support to support: three lines
    assert (R.ACT_ATTACK, a, d, 0) not in rows             # no melee from the support line
    combat(t, a, d, ranged=1)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD
    assert t.board[a, R.B_DAMAGE] == 0


def test_infiltrator_reaches_the_support_unless_the_enemy_front_has_one():
    t = Table(pool()).start({0: ["sneak"], 1: ["guard", "guard", "sneak"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    t.move(t.row(1, 0), R.Z_FRONT)
    s = t.move(t.row(1, 1), R.Z_SUPPORT)
    n = kernel.list_attacks(t.w, t.st, t.opts, t.table, t.board, 0, 0)
    assert (R.ACT_ATTACK, a, s, 0) in {tuple(r) for r in t.opts[:n, :4]}
    t.move(t.row(1, 2), R.Z_FRONT)                          # an enemy Infiltrateur on the front closes it
    n = kernel.list_attacks(t.w, t.st, t.opts, t.table, t.board, 0, 0)
    assert (R.ACT_ATTACK, a, s, 0) not in {tuple(r) for r in t.opts[:n, :4]}


def test_interceptor_takes_the_attack_as_the_first_combat_action():
    t = Table(pool()).start({0: ["grunt"], 1: ["guard", "wall"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    wall = t.move(t.row(1, 1), R.Z_FRONT)
    t.plan(1, (R.D_COMBAT, R.ACT_INTERCEPT, wall))
    combat(t, a, d)
    assert t.board[d, R.B_ZONE] == R.Z_FRONT and t.board[d, R.B_DAMAGE] == 0
    assert t.board[wall, R.B_DAMAGE] == 3 and t.board[wall, R.B_TAPPED] == 1
    assert t.counter(R.T_INTERCEPTS + 1) == 1


def test_implacable_attack_cannot_be_intercepted_or_redirected():
    redirect = card(type=R.EVENT, cost=0, name_id=9)
    ability(redirect, 0, trigger=R.TR_COMBAT, effect=R.EF_REDIRECT, target=R.TG_ANY)
    t = Table(pool(redirect=redirect)).start({0: ["brute"], 1: ["guard", "wall", "redirect"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    wall = t.move(t.row(1, 1), R.Z_FRONT)
    ev = t.move(t.row(1, 2), R.Z_HAND)
    t.st[R.S_IN_COMBAT] = 1
    t.st[R.S_ATTACKER] = a
    t.st[R.S_DEFENDER] = d
    n = kernel.list_combat(t.w, t.st, t.opts, t.table, t.board, 1, True)
    assert R.ACT_INTERCEPT not in t.opts[:n, 0]
    assert t.counter(R.T_KW + R.K_IMPLACABLE_HELD) == 1     # the interception it held off
    t.st[R.S_IN_COMBAT] = 0
    t.plan(1, (R.D_COMBAT, R.ACT_PLAY, ev, 0))
    combat(t, a, d)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD              # the redirect did nothing
    assert t.board[wall, R.B_DAMAGE] == 0
    assert t.counter(R.T_KW + R.K_IMPLACABLE_HELD) == 3     # + the combat's interception and the redirect


@pytest.mark.parametrize("flag", [0, 1])
def test_intercept_implacable_flag_decides_whether_an_interceptor_takes_an_implacable_attack(flag):
    t = Table(pool(), intercept_implacable=flag).start({0: ["brute"], 1: ["guard", "wall"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    wall = t.move(t.row(1, 1), R.Z_FRONT)
    t.plan(1, (R.D_COMBAT, R.ACT_INTERCEPT, wall))
    combat(t, a, d)
    assert t.counter(R.T_KW + R.K_F_INTERCEPT_IMPLACABLE) == 1     # the situation arose under both readings
    if flag:                                               # the wall took the 4 damage
        assert t.board[wall, R.B_DAMAGE] == 4 and t.board[d, R.B_ZONE] == R.Z_FRONT
        assert t.counter(R.T_KW + R.K_INTERCEPT) == 1 and t.counter(R.T_KW + R.K_IMPLACABLE_HELD) == 0
    else:                                                  # no interception: the guard fell
        assert t.board[wall, R.B_DAMAGE] == 0 and t.board[d, R.B_ZONE] == R.Z_DISCARD
        assert t.counter(R.T_KW + R.K_INTERCEPT) == 0 and t.counter(R.T_KW + R.K_IMPLACABLE_HELD) == 1


@pytest.mark.parametrize("flag", [0, 1])
def test_imprevisible_event_combat_only_flag_decides_its_action_ability_in_a_combat(flag):
    stab = card(type=R.EVENT, cost=0, name_id=9, keywords=R.KW_IMPREVISIBLE)
    ability(stab, 0, trigger=R.TR_ACTION, effect=R.EF_DAMAGE, target=R.TG_ENEMY, amount=2)
    t = Table(pool(stab=stab), imprev_event_combat_only=flag).start({0: ["grunt", "grunt"], 1: ["guard", "stab"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    other = t.move(t.row(0, 1), R.Z_SUPPORT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    ev = t.move(t.row(1, 1), R.Z_HAND)
    t.plan(1, (R.D_COMBAT, R.ACT_PLAY, ev, 0), (R.D_TARGET, other))
    combat(t, a, d)
    assert t.counter(R.T_KW + R.K_F_IMPREV_EVENT) >= 1            # offered (or withheld) under both readings
    if flag:                                               # kept in hand: only Combat abilities in a combat
        assert t.board[ev, R.B_ZONE] == R.Z_HAND and t.board[other, R.B_DAMAGE] == 0
        assert t.counter(R.T_KW + R.K_IMPREVISIBLE_PLAY) == 0
    else:                                                  # played mid-combat for its Action ability
        assert t.board[ev, R.B_ZONE] == R.Z_DISCARD and t.board[other, R.B_DAMAGE] == 2
        assert t.counter(R.T_KW + R.K_IMPREVISIBLE_PLAY) == 1


@pytest.mark.parametrize("flag", [0, 1])
def test_shields_combatants_only_flag_decides_a_bystanders_shields(flag):
    t = Table(pool(), shields_combatants=flag).start({0: ["grunt"], 1: ["guard", "guard"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    by = t.move(t.row(1, 1), R.Z_SUPPORT)
    t.board[d, R.B_SHIELD] = 5                             # more than the attack: some is left over
    t.board[by, R.B_SHIELD] = 2                            # given outside this combat
    combat(t, a, d)
    assert t.board[d, R.B_SHIELD] == 0                     # a combatant's shields end with its combat
    assert t.board[by, R.B_SHIELD] == (2 if flag else 0)
    assert t.counter(R.T_KW + R.K_F_SHIELDS) == 1
    assert t.counter(R.T_KW + R.K_SHIELD_ABSORB) == 1


def test_redirect_moves_an_ordinary_attack():
    redirect = card(type=R.EVENT, cost=0, name_id=9)
    ability(redirect, 0, trigger=R.TR_COMBAT, effect=R.EF_REDIRECT, target=R.TG_ANY)
    t = Table(pool(redirect=redirect)).start({0: ["grunt"], 1: ["guard", "wall", "redirect"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    wall = t.move(t.row(1, 1), R.Z_SUPPORT)
    ev = t.move(t.row(1, 2), R.Z_HAND)
    t.plan(1, (R.D_COMBAT, R.ACT_PLAY, ev, 0), (R.D_TARGET, wall))
    combat(t, a, d)
    assert t.board[wall, R.B_DAMAGE] == 3 and t.board[d, R.B_DAMAGE] == 0


def test_shields_take_damage_first_and_are_lost_after_the_combat():
    shield = card(type=R.EVENT, cost=1, name_id=9)
    ability(shield, 0, trigger=R.TR_COMBAT, effect=R.EF_SHIELD, target=R.TG_OWN_COMBATANT, amount=2)
    t = Table(pool(shield=shield)).start({0: ["grunt"], 1: ["guard", "shield"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    ev = t.move(t.row(1, 1), R.Z_HAND)
    t.st[R.S_GOLD + 1] = 1
    t.plan(1, (R.D_COMBAT, R.ACT_PLAY, ev, 0))
    combat(t, a, d)
    assert t.board[d, R.B_DAMAGE] == 1                     # 3 damage, 2 on the shield
    assert t.board[d, R.B_SHIELD] == 0                     # the rest of the shield is gone
    assert t.counter(R.T_SHIELD_ABSORBED + 1) == 2
    assert t.st[R.S_GOLD + 1] == 0
    assert t.board[ev, R.B_ZONE] == R.Z_DISCARD


def test_support_line_moves_up_when_the_front_empties():
    t = Table(pool()).start({0: ["grunt"], 1: ["guard", "guard", "archer"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    s1 = t.move(t.row(1, 1), R.Z_SUPPORT)
    s2 = t.move(t.row(1, 2), R.Z_SUPPORT)
    combat(t, a, d)
    assert t.board[s1, R.B_ZONE] == R.Z_FRONT and t.board[s2, R.B_ZONE] == R.Z_FRONT
    assert t.counter(R.T_KW + R.K_MOVE_UP) == 1


def test_destruction_and_reaction_triggers_fire_in_the_initiators_order():
    martyr = card(type=C, cost=2, melee=1, riposte=0, hp=1, prestige=1, name_id=9)
    ability(martyr, 0, trigger=R.TR_DESTRUCTION, effect=R.EF_DAMAGE, target=R.TG_ALL_ENEMY, amount=1)
    scout = card(type=C, cost=2, melee=1, riposte=1, hp=5, prestige=1, name_id=10)
    ability(scout, 0, trigger=R.TR_REACTION, condition=R.WH_ENEMY_DESTROYED, effect=R.EF_DRAW,
            target=R.TG_ME, amount=1)
    t = Table(pool(martyr=martyr, scout=scout)).start({0: ["grunt", "scout", "guard"], 1: ["martyr", "guard"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    sc = t.move(t.row(0, 1), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    hand_before = t.st[R.S_HAND_N]
    t.plan(0, (R.D_TRIGGER, sc, 0))
    t.plan(1, (R.D_TRIGGER, d, 0))
    combat(t, a, d)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD
    assert t.st[R.S_HAND_N] == hand_before + 1             # the scout's reaction drew a card
    assert t.board[a, R.B_DAMAGE] == 1 and t.board[sc, R.B_DAMAGE] == 1   # the martyr's last blow
    assert t.counter(R.T_TRIG + R.TR_DESTRUCTION) == 1 and t.counter(R.T_TRIG + R.TR_REACTION) == 1
    rows = t.tr[:t.w[KB.W_TROW]]
    asked = [r for r in rows if r[0] == R.EV_DECIDE and r[1] == R.D_TRIGGER]
    assert [r[2] for r in asked] == [0, 1]                 # the attacker's pending ability first


def test_named_character_one_copy_in_play_and_the_discard_bonus():
    t = Table(pool()).start({0: ["hero", "hero", "hero"], 1: ["guard"]})
    h = t.move(t.row(0, 0), R.Z_FRONT)
    copy = t.move(t.row(0, 1), R.Z_HAND)
    t.st[R.S_GOLD] = 10
    assert not kernel.can_play(t.w, t.st, t.table, t.board, 0, copy)     # one Named copy in play
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.plan(0, (R.D_COMBAT, R.ACT_NAMED, h, copy, R.EF_MELEE))
    t.plan(1, (R.D_COMBAT, R.ACT_PASS))
    combat(t, h, d)
    assert t.board[copy, R.B_ZONE] == R.Z_DISCARD
    assert t.counter(R.T_NAMED) == 1
    assert t.board[h, R.B_MELEE] == 3                      # the +1 lasted the combat only


def test_mulligan_as_written_and_with_the_shuffle_first_flag():
    for flag in (0, 1):
        t = Table(pool(), mull_shuffle_first=flag).start({0: ["grunt"] * 20, 1: ["guard"] * 20})
        KB.draw(t.w, t.st, t.board, 0, 6)
        hand = [i for i in range(20) if t.board[i, R.B_ZONE] == R.Z_HAND]
        t.plan(0, (R.D_MULLIGAN, hand[0]), (R.D_MULLIGAN, hand[1]), (R.D_MULLIGAN, -1))
        kernel.mulligan(*t.args(), 0)
        assert t.st[R.S_HAND_N] == 6 and t.st[R.S_DECK_N] == 14
        assert t.counter(R.T_MULLIGAN) == 2
        assert t.counter(R.T_VIOLATIONS) == 0
        if flag == 0:                                      # drawn before the shuffle: never the same cards
            assert t.board[hand[0], R.B_ZONE] == R.Z_DECK and t.board[hand[1], R.B_ZONE] == R.Z_DECK


def test_attachment_respects_pas_d_attachement_and_its_exception():
    blade = card(type=R.ATTACHMENT, cost=1, melee=2, hp=1, prestige=1, name_id=9, traits=1)
    plain = card(type=R.ATTACHMENT, cost=1, melee=1, name_id=10)
    monk = card(type=C, cost=2, melee=1, riposte=1, hp=4, prestige=1, name_id=11,
                keywords=R.KW_NO_ATTACHMENT, attach_except=1)
    t = Table(pool(blade=blade, plain=plain, monk=monk)).start({0: ["monk", "blade", "plain"], 1: ["guard"]})
    m = t.move(t.row(0, 0), R.Z_FRONT)
    b = t.move(t.row(0, 1), R.Z_HAND)
    p = t.move(t.row(0, 2), R.Z_HAND)
    assert KE.may_host(t.table, t.board, b, m) and not KE.may_host(t.table, t.board, p, m)
    g = t.move(t.row(1, 0), R.Z_FRONT)
    t.plan(0, (R.D_TARGET, m))
    t.st[R.S_GOLD] = 5
    kernel.play_card(*t.args(), 0, b, -1)
    assert t.board[b, R.B_HOST] == m and t.board[m, R.B_MELEE] == 3 and t.board[m, R.B_HP] == 5
    assert t.board[m, R.B_PRESTIGE] == 2
    KE.destroy(t.w, t.st, t.table, t.board, m, True)       # the host leaves: the attachment goes too
    assert t.board[b, R.B_ZONE] == R.Z_DISCARD
    assert t.st[R.S_PRESTIGE + 1] == 2                     # host and attachment prestige
    assert g >= 0


def test_pass_for_good_makes_the_next_first_player():
    t = Table(pool()).start({0: ["grunt"], 1: ["guard"]})
    t.move(t.row(0, 0), R.Z_FRONT)
    t.move(t.row(1, 0), R.Z_FRONT)
    t.st[R.S_FIRST] = 0
    t.plan(1, (R.D_ACTION, R.ACT_PASS_GOOD))
    assert kernel.action_phase(*t.args()) == 1
    t.plan(0, (R.D_ACTION, R.ACT_PASS))
    t.plan(1, (R.D_ACTION, R.ACT_PASS))
    assert kernel.action_phase(*t.args()) == 1             # nobody passed for good: the last to pass
