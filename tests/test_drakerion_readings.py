"""Drakerion: the readings the rulebook leaves open that the code used to fix silently (docs/DRAKERION.md, "Rules
against the code"). Each flag's two readings get a golden scenario through the kernel's own rule functions, the
ability attack made during a combat is fought once that combat ends, characters' passives stay off while the
Banners' cards are set up, and a card file asking for an effect dsim cannot play is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from drakerion_cards import MANOEUVRES, ability, card, small_card_file
from drakerion_scenarios import Table
from test_drakerion_rules import pool

from sim.games.drakerion import kernel
from sim.games.drakerion import kernel_base as KB
from sim.games.drakerion import records as R

from test_drakerion_rules import pool

C = R.CHARACTER


def named_options(t, p):
    n = kernel.list_combat(t.w, t.st, t.opts, t.table, t.board, p, False)
    return [int(t.opts[r, 3]) for r in range(n) if t.opts[r, 0] == R.ACT_NAMED]


# ---- the Named bonus: both stats are readings ----------------------------------------------------------


@pytest.mark.parametrize("first, second, stat", [
    (0, 0, R.B_MELEE),        # the default: 1 shield, +1 melee, +1 ranged
    (2, 0, R.B_RIPOSTE),      # named_bonus_first = riposte
    (3, 1, R.B_HP),           # named_bonus_first = hp (with named_bonus_second = riposte)
])
def test_the_named_bonus_offers_the_stats_its_readings_name(first, second, stat):
    """Both stat icons of the Named bonus are lost: each is a flag. The option rows name the stat by effect
    code, and taking the first stat gives +1 of it for the combat only."""
    hero = card(type=C, cost=3, melee=2, riposte=1, hp=6, prestige=2, name_id=5, named=1)
    t = Table(pool(hero=hero), named_first=first, named_second=second).start({0: ["hero", "hero"], 1: ["grunt"]})
    h = t.move(t.row(0, 0), R.Z_FRONT)
    copy = t.move(t.row(0, 1), R.Z_HAND)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    want = [R.EF_SHIELD, (R.EF_MELEE, R.EF_RANGED, R.EF_RIPOSTE, R.EF_HP)[first], (R.EF_RANGED, R.EF_RIPOSTE)[second]]
    t.st[R.S_IN_COMBAT], t.st[R.S_ATTACKER], t.st[R.S_DEFENDER] = 1, d, h
    assert named_options(t, 0) == want
    t.st[R.S_IN_COMBAT], t.st[R.S_ATTACKER], t.st[R.S_DEFENDER] = 0, -1, -1
    before = int(t.board[h, stat])
    t.plan(0, (R.D_COMBAT, R.ACT_NAMED, h, copy, want[1]))
    kernel.combat(*t.args(), d, h, 0)              # the grunt attacks the hero; the hero's player takes the bonus
    assert t.board[copy, R.B_ZONE] == R.Z_DISCARD
    assert t.counter(R.T_KW + R.K_F_NAMED_FIRST) == 1 and t.counter(R.T_KW + R.K_F_NAMED_SECOND) == 0
    if stat == R.B_RIPOSTE:
        assert t.board[d, R.B_DAMAGE] == before + 1  # the grunt took the hero's riposte + 1
    if stat == R.B_HP:
        assert t.board[h, R.B_ZONE] == R.Z_FRONT and t.board[h, R.B_DAMAGE] == 3
    assert t.board[h, stat] == before              # the +1 ended with the combat


def test_the_named_bonus_stats_must_differ():
    from sim.engine.errors import RulesError
    from sim.games import get_game
    with pytest.raises(RulesError, match="both 'ranged'"):
        get_game("drakerion").load_rules(sets=[("named_bonus_first", "ranged")])


# ---- how long a gain from an Action, Deployment or Reaction ability lasts --------------------------------


@pytest.mark.parametrize("flag", [0, 1])
def test_a_reactions_gain_ends_with_the_turn_unless_gains_last_in_play(flag):
    """The rulebook bounds only a Combat ability's gains: an 'attacks' reaction's +2 melee lasts the turn by
    default; under gains_last_in_play it stays after the end of the turn, until the character leaves play."""
    zeal = card(type=C, cost=2, melee=3, riposte=0, hp=6, prestige=2, name_id=8)
    ability(zeal, 0, trigger=R.TR_REACTION, condition=R.WH_ATTACKS, effect=R.EF_MELEE, target=R.TG_SELF,
            amount=2, forced=1)
    t = Table(pool(zeal=zeal), gains_in_play=flag).start({0: ["zeal"], 1: ["guard", "brute"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    kernel.combat(*t.args(), a, d, 0)
    assert t.board[a, R.B_MELEE] == 5
    kernel.end_phase(*t.args())
    assert t.board[a, R.B_MELEE] == (5 if flag else 3)
    assert t.counter(R.T_KW + R.K_F_GAINS_IN_PLAY) == 1        # the situation, under both readings
    KB.set_zone(t.w, t.st, t.board, a, R.Z_DISCARD)            # leaving play ends it under either reading
    t.move(a, R.Z_FRONT)
    assert t.board[a, R.B_MELEE] == 3


# ---- an attachment's printed prestige ------------------------------------------------------------------


@pytest.mark.parametrize("flag, won", [(0, 2 + 1), (1, 2)])
def test_an_attachments_prestige_goes_with_its_host_unless_attachment_prestige_none(flag, won):
    """A blade printing prestige 1 on a grunt (prestige 2): by default the opponent wins 3 when the grunt is
    destroyed; under the other reading only the character's 2."""
    blade = card(type=R.ATTACHMENT, cost=1, melee=0, prestige=1, name_id=7)
    t = Table(pool(blade=blade), attach_prestige_none=flag).start({0: ["grunt", "blade"], 1: ["brute", "guard"]})
    g = t.move(t.row(0, 0), R.Z_FRONT)
    b = t.move(t.row(0, 1), R.Z_ATTACHED)
    t.board[b, R.B_HOST] = g
    KB.refresh(t.w, t.st, t.board, t.table)
    a = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    kernel.combat(*t.args(), a, g, 0)                       # 4 damage on the grunt's 4 HP
    assert t.board[g, R.B_ZONE] == R.Z_DISCARD and t.board[b, R.B_ZONE] == R.Z_DISCARD
    assert t.st[R.S_PRESTIGE + 1] == won
    assert t.counter(R.T_KW + R.K_F_ATTACH_PRESTIGE) == 1      # the situation, under both readings


# ---- an attack an ability makes during a combat --------------------------------------------------------


def lancer():
    """A character whose Combat ability makes it attack."""
    row = card(type=C, cost=3, melee=2, riposte=0, hp=5, prestige=1, name_id=6)
    return ability(row, 0, trigger=R.TR_COMBAT, effect=R.EF_ATTACK, target=R.TG_SELF)


def test_an_attack_made_during_a_combat_is_fought_once_that_combat_ends():
    """The rulebook lets an ability make a character attack, melee or at range, whatever the lines; combats
    do not nest, so the attack made in a combat window comes right after that combat (it used to vanish)."""
    t = Table(pool(lancer=lancer())).start({0: ["grunt", "lancer"], 1: ["guard", "brute"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    x = t.move(t.row(0, 1), R.Z_SUPPORT)
    d1 = t.move(t.row(1, 0), R.Z_FRONT)
    d2 = t.move(t.row(1, 1), R.Z_SUPPORT)
    t.st[R.S_FIRST] = 0
    t.plan(0, (R.D_ACTION, R.ACT_ATTACK, a, d1, 0), (R.D_COMBAT, R.ACT_ABILITY, x, 0), (R.D_ATTACK, x, d2, 0))
    kernel.action_phase(*t.args())
    assert t.board[d1, R.B_ZONE] == R.Z_DISCARD              # the declared attack: 3 on the guard's 3 HP
    assert t.board[d2, R.B_DAMAGE] == 2                      # then the lancer's own attack, from support
    assert t.counter(R.T_ATTACKS) == 2
    assert t.counter(R.T_VIOLATIONS) == 0


def test_a_self_feeding_attack_chain_stops():
    """A reaction that makes its character attack each time it attacks would never end: the chain of attacks
    abilities make stops after MAX_ABILITY_ATTACKS."""
    again = card(type=C, cost=3, melee=0, riposte=0, hp=5, prestige=1, name_id=6)
    ability(again, 0, trigger=R.TR_REACTION, condition=R.WH_ATTACKS, effect=R.EF_ATTACK, target=R.TG_SELF,
            forced=1)
    t = Table(pool(again=again)).start({0: ["again"], 1: ["brute"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    kernel.combat(*t.args(), a, d, 0)
    kernel.run_pending_attacks(*t.args())
    assert t.counter(R.T_ATTACKS) == 1 + R.MAX_ABILITY_ATTACKS
    assert t.w[KB.W_PENDING_ATTACK] == -1


# ---- set-up: characters' abilities are off -----------------------------------------------------------


def test_passives_stay_off_while_the_banners_cards_are_set_up():
    """A captain giving +1 melee to all own characters is set up: the stats set-up works with leave its
    passive out (the rulebook turns characters' abilities off then), and it applies once set-up is over."""
    captain = card(type=C, cost=3, melee=2, riposte=0, hp=4, prestige=2, name_id=4)
    ability(captain, 0, trigger=R.TR_PASSIVE, effect=R.EF_MELEE, target=R.TG_ALL_OWN, amount=1)
    t = Table(pool(captain=captain)).start({0: ["captain", "grunt"] + ["grunt"] * 8, 1: ["guard"] * 10})
    t.st[R.S_TURN] = 0
    t.w[KB.W_SETUP:KB.W_SETUP + 2 * R.MAX_SETUP] = -1
    t.w[KB.W_SETUP], t.w[KB.W_SETUP + 1], t.w[KB.W_SETUP + R.MAX_SETUP] = 0, 1, 0
    kernel.set_up(*t.args())
    cap, grunt = t.row(0, 0), t.row(0, 1)
    assert t.board[cap, R.B_ZONE] in (R.Z_FRONT, R.Z_SUPPORT) and t.board[grunt, R.B_ZONE] in (R.Z_FRONT, R.Z_SUPPORT)
    assert t.board[cap, R.B_MELEE] == 3 and t.board[grunt, R.B_MELEE] == 4     # on once set-up is over
    KB.setup_stats(t.w, t.board, t.table)
    assert t.board[cap, R.B_MELEE] == 2 and t.board[grunt, R.B_MELEE] == 3     # off during set-up


# ---- effects a card file may ask for that dsim cannot play -------------------------------------------

EXTRA = '''
[[card]]
name = "X"
faction = "ember"
type = "{type}"
cost = 1
hp = {hp}
abilities = [{ability}]
''' + MANOEUVRES


@pytest.mark.parametrize("kind, ability_text, message", [
    ("event", '{ trigger = "action", effect = "grant_ability", target = "own" }', "granting an ability"),
    ("event", '{ trigger = "action", effect = "remove_ability", target = "enemy" }', "removing an ability"),
    ("event", '{ trigger = "action", effect = "destroy_attachment", target = "enemy" }', "destroying an attachment"),
    ("event", '{ trigger = "action", effect = "destroy", target = "enemy", card_type = "attachment" }',
     "destroying an attachment is not implemented"),
    ("attachment", '{ trigger = "destruction", effect = "draw", target = "me", amount = 1 }',
     "destruction ability could never be used"),
])
def test_a_card_asking_for_an_effect_dsim_cannot_play_is_refused(tmp_path, kind, ability_text, message):
    from sim.engine.errors import RulesError
    from sim.games import get_game
    path = tmp_path / "cards.toml"
    path.write_text(small_card_file(EXTRA.format(type=kind, hp=0, ability=ability_text), '"S" = 28\n"X" = 2'))
    with pytest.raises(RulesError) as e:
        get_game("drakerion").load_rules(sets=[("cards", str(path)), ("seat0_deck", "d"), ("seat1_deck", "d")])
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_neutral_banner_is_refused(tmp_path):
    """The Banner sets the player's faction: a deck's banner must be of the deck's faction."""
    from sim.engine.errors import RulesError
    from sim.games import get_game
    text = small_card_file(MANOEUVRES, '"S" = 30').replace('name = "B"\nfaction = "ember"',
                                                            'name = "B"\nfaction = "neutral"')
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(RulesError, match="sets the deck's faction"):
        get_game("drakerion").load_rules(sets=[("cards", str(path)), ("seat0_deck", "d"), ("seat1_deck", "d")])


# ---- the referee agrees where the ability attack in a combat is common ---------------------------------

BUILTIN = Path(__file__).resolve().parents[1] / "sim" / "games" / "drakerion" / "cards.toml"


def test_the_referee_replays_attacks_made_in_combat_and_the_new_readings(tmp_path):
    """Reckless Charge made a Combat event (so every use is an attack made during a combat), played under every
    new reading's other value."""
    from sim.engine.game import RefereeError
    from sim.games import get_game
    old = '{ trigger = "action", effect = "attack", target = "own" }'
    text = BUILTIN.read_text()
    assert old in text
    path = tmp_path / "probe.toml"
    path.write_text(text.replace(old, old.replace('"action"', '"combat"')))
    game = get_game("drakerion")
    fired = 0
    for k, lineup in enumerate(("random", "default")):
        rules = game.load_rules(sets=[("cards", str(path)), ("seat0_deck", "ember"), ("seat1_deck", "stone"),
                                      ("named_bonus_first", "hp"), ("gains_last_in_play", True),
                                      ("attachment_prestige_to_host", False)])
        for g, trace in enumerate(game.traces(rules, 2, game.lineup(lineup), 41 + k, 400)):
            try:
                game.referee(rules, 2, trace)
            except RefereeError as e:
                pytest.fail(f"{lineup}, game {g}: {e}")
            fired += trace.record["fired_attack"]
    assert fired > 0
