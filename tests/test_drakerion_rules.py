"""Drakerion: the rules audit against the French rulebook (docs/DRAKERION.md, "Rules against the code").
One golden scenario per fixed mismatch or new rule flag, driven through the kernel's own rule functions
(tests/drakerion_scenarios.py), and the referee replaying games of a probe pool in which each fixed rule
comes up often (the default pool has no card that reaches some of them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from drakerion_cards import MANOEUVRES, ability, card, small_card_file
from drakerion_scenarios import Table

from sim.games.drakerion import kernel
from sim.games.drakerion import records as R

C = R.CHARACTER


def pool(**extra):
    cards = {
        "grunt": card(type=C, cost=2, melee=3, riposte=1, hp=4, prestige=2, name_id=0),
        "guard": card(type=C, cost=2, melee=2, riposte=2, hp=3, prestige=3, name_id=1),
        "pup": card(type=C, cost=1, melee=2, riposte=0, hp=2, prestige=1, name_id=2),
        "brute": card(type=C, cost=4, melee=4, riposte=0, hp=4, prestige=3, name_id=3),
    }
    cards.update(extra)
    return cards


def hp_boost():
    """An event whose Combat ability gives the player's combatant +2 HP."""
    ev = card(type=R.EVENT, cost=0, name_id=9)
    return ability(ev, 0, trigger=R.TR_COMBAT, effect=R.EF_HP, target=R.TG_OWN_COMBATANT, amount=2)


# ---- fix 1: a Combat ability's HP gain lasts only that combat ------------------------------------------


@pytest.mark.parametrize("attacker, dies", [("brute", True), ("pup", False)])
def test_a_combat_hp_gain_ends_with_the_combat(attacker, dies):
    """The rulebook limits whatever a Combat ability gives to that combat, HP included: a guard (3 HP)
    boosted to 5 survives 4 damage while the combat lasts and falls when it ends; with 2 damage it lives on
    with its printed 3 HP."""
    t = Table(pool(boost=hp_boost())).start({0: [attacker], 1: ["guard", "guard", "boost"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    ev = t.move(t.row(1, 2), R.Z_HAND)
    t.plan(1, (R.D_COMBAT, R.ACT_PLAY, ev, 0))
    kernel.combat(*t.args(), a, d, 0)
    assert t.board[ev, R.B_ZONE] == R.Z_DISCARD                 # the boost was played
    if dies:
        assert t.board[d, R.B_ZONE] == R.Z_DISCARD
        assert t.st[R.S_PRESTIGE] == 3                          # its prestige went to the attacker
    else:
        assert t.board[d, R.B_ZONE] == R.Z_FRONT
        assert t.board[d, R.B_DAMAGE] == 2 and t.board[d, R.B_HP] == 3
    assert t.board[d, R.B_CB_HP] == 0 and t.board[d, R.B_TB_HP] == 0
    assert t.counter(R.T_VIOLATIONS) == 0


# ---- the referee agrees on a probe pool where the fixed rules come up -----------------------------------

BUILTIN = Path(__file__).resolve().parents[1] / "sim" / "games" / "drakerion" / "cards.toml"
PROBE = {   # text replacements in the built-in pool: each fixed rule made common
    # a Combat HP gain (fix 1): Battle Fury gives +2 HP instead of +2 melee
    '{ trigger = "combat", effect = "melee", target = "own_combatant", amount = 2 }]':
        '{ trigger = "combat", effect = "hp", target = "own_combatant", amount = 2 }]',
}


def probe_pool(tmp_path) -> str:
    text = BUILTIN.read_text()
    for old, new in PROBE.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "probe.toml"
    path.write_text(text)
    return str(path)


def test_the_referee_replays_games_of_the_probe_pool(tmp_path):
    from sim.engine.game import RefereeError
    from sim.games import get_game
    game = get_game("drakerion")
    cards = probe_pool(tmp_path)
    fired = 0
    for k, (a, b, lineup) in enumerate((("ember", "stone", "random"), ("ember", "gloom", "default"))):
        rules = game.load_rules(sets=[("cards", cards), ("seat0_deck", a), ("seat1_deck", b)])
        traces = game.traces(rules, 2, game.lineup(lineup), 31 + k, 600)
        for g, trace in enumerate(traces):
            try:
                game.referee(rules, 2, trace)
            except RefereeError as e:
                pytest.fail(f"{a} vs {b}, {lineup}, game {g}: {e}")
            fired += trace.record["fired_hp"]
    assert fired > 0


# ---- fix 2: the trigger, not the moment, decides whether a gain ends with the combat --------------------


@pytest.mark.parametrize("flag", [0, 1])
def test_a_reactions_gain_during_a_combat_lasts_the_turn_unless_combat_gains_by_timing(flag):
    """Only a Combat ability's gains are limited to the combat by the rulebook: an attacker's 'attacks'
    reaction (+2 melee) hits with 5 and keeps the +2 for the rest of the turn; with the first draft's
    reading (combat_gains_by_timing) the +2 ends with the combat."""
    zeal = card(type=C, cost=2, melee=3, riposte=0, hp=6, prestige=2, name_id=8)
    ability(zeal, 0, trigger=R.TR_REACTION, condition=R.WH_ATTACKS, effect=R.EF_MELEE, target=R.TG_SELF,
            amount=2, forced=1)
    t = Table(pool(zeal=zeal), combat_gains_timing=flag).start({0: ["zeal"], 1: ["brute", "guard"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    kernel.combat(*t.args(), a, d, 0)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD                  # 5 damage on 4 HP: the gain was on
    assert t.board[a, R.B_MELEE] == (3 if flag else 5)
    assert t.board[a, R.B_TB_MELEE] == (0 if flag else 2)
    assert t.counter(R.T_KW + R.K_F_COMBAT_GAINS_TIMING) == 1   # the situation, under both readings
    kernel.end_phase(*t.args())                                 # a turn gain ends with the turn
    assert t.board[a, R.B_MELEE] == 3


def test_a_combat_abilitys_gain_still_ends_with_the_combat():
    fury = card(type=R.EVENT, cost=0, name_id=9)
    ability(fury, 0, trigger=R.TR_COMBAT, effect=R.EF_MELEE, target=R.TG_OWN_COMBATANT, amount=2)
    t = Table(pool(fury=fury)).start({0: ["grunt", "fury"], 1: ["brute", "guard"]})
    a = t.move(t.row(0, 0), R.Z_FRONT)
    ev = t.move(t.row(0, 1), R.Z_HAND)
    d = t.move(t.row(1, 0), R.Z_FRONT)
    t.move(t.row(1, 1), R.Z_FRONT)
    t.plan(0, (R.D_COMBAT, R.ACT_PLAY, ev, 0))
    kernel.combat(*t.args(), a, d, 0)
    assert t.board[d, R.B_ZONE] == R.Z_DISCARD                  # 3 + 2 on 4 HP
    assert t.board[a, R.B_MELEE] == 3 and t.board[a, R.B_TB_MELEE] == 0
    assert t.counter(R.T_KW + R.K_F_COMBAT_GAINS_TIMING) == 0   # a Combat ability: not the flag's case


# ---- fix 3: set-up cards are characters placed on a line, one per Named name ---------------------------

SETUP_CARDS = '''[[card]]
name = "Lord"
faction = "ember"
type = "character"
subtitle = "the Only One"
cost = 3
hp = 4
[[card]]
name = "Axe"
faction = "ember"
type = "attachment"
cost = 1
melee = 1
''' + MANOEUVRES
SETUP_DECK_CARDS = '"S" = 26\n"Lord" = 2\n"Axe" = 2'


@pytest.mark.parametrize("setup, message", [
    ('["S", "Axe"]', "set-up card 'Axe' of B is not a character"),
    ('["S", "Lord", "Lord"]', "places 'Lord' twice"),
    ('[]', "needs at least one character"),
])
def test_a_banner_sets_up_characters_only_and_one_named_copy(tmp_path, setup, message):
    """The rulebook puts every set-up card on the front or support line (so: characters), and a player
    never controls two Named characters of one name; the loader used to accept an attachment in a set-up
    (the kernel then placed it on a line as if it were a character)."""
    from sim.engine.errors import RulesError
    from sim.games import get_game
    path = tmp_path / "cards.toml"
    path.write_text(small_card_file(SETUP_CARDS, SETUP_DECK_CARDS, setup=setup))
    with pytest.raises(RulesError) as e:
        get_game("drakerion").load_rules(sets=[("cards", str(path)), ("seat0_deck", "d"), ("seat1_deck", "d")])
    assert message in str(e.value) and "\n" not in str(e.value)
    path.write_text(small_card_file(SETUP_CARDS, SETUP_DECK_CARDS, setup='["S", "Lord", "S"]'))
    get_game("drakerion").load_rules(sets=[("cards", str(path)), ("seat0_deck", "d"), ("seat1_deck", "d")])


# ---- a silent point made a flag: a shield no combat ended ----------------------------------------------


@pytest.mark.parametrize("flag", [0, 1])
def test_a_shield_no_combat_ended_stays_over_the_turn_unless_shields_end_of_turn(flag):
    t = Table(pool(), shields_turn=flag).start({0: ["grunt"], 1: ["guard"]})
    g = t.move(t.row(0, 0), R.Z_FRONT)
    t.move(t.row(1, 0), R.Z_FRONT)
    t.board[g, R.B_SHIELD] = 1                                  # from a Deployment, say; no combat followed
    kernel.end_phase(*t.args())
    assert t.board[g, R.B_SHIELD] == (0 if flag else 1)
    assert t.counter(R.T_KW + R.K_F_SHIELDS_TURN) == 1          # the situation, under both readings


# ---- a silent point made a flag: drawing from an empty deck ----------------------------------------------


@pytest.mark.parametrize("flag, winner, end", [(0, None, None), (1, 1, R.END_DECKED)])
def test_drawing_from_an_empty_deck_loses_only_under_empty_deck_loses(flag, winner, end):
    """The rulebook says nothing of a draw from an empty deck: by default nothing is drawn and the game goes
    on; under empty_deck_loses the player who had to draw loses at once."""
    t = Table(pool(), empty_deck_loses=flag).start({0: ["grunt", "pup"], 1: ["guard", "brute"]})
    t.move(t.row(0, 0), R.Z_FRONT)
    t.move(t.row(1, 0), R.Z_FRONT)
    from sim.games.drakerion import kernel_base as KB
    KB.draw(t.w, t.st, t.board, 0, 1)                           # seat 0's last card
    KB.win_check(t.w, t.st)
    assert t.st[R.S_OVER] == 0 and t.counter(R.T_KW + R.K_F_EMPTY_DECK) == 0
    KB.draw(t.w, t.st, t.board, 0, 1)                           # nothing left
    KB.win_check(t.w, t.st)
    assert t.counter(R.T_KW + R.K_F_EMPTY_DECK) == 1            # the situation, under both readings
    if winner is None:
        assert t.st[R.S_OVER] == 0 and t.st[R.S_HAND_N] == 1
    else:
        assert (t.st[R.S_OVER], t.st[R.S_WINNER], t.st[R.S_END]) == (1, winner, end)


def test_both_decks_running_out_at_once_is_a_draw():
    """The Manoeuvre phase's draws are simultaneous: when both players must draw from an empty deck there,
    both lose at once (a draw, as for the other double ends)."""
    t = Table(pool(), empty_deck_loses=1).start({0: ["grunt"], 1: ["guard"]})
    t.move(t.row(0, 0), R.Z_FRONT)
    t.move(t.row(1, 0), R.Z_FRONT)
    from sim.games.drakerion import kernel_base as KB
    KB.draw(t.w, t.st, t.board, 0, 2)
    KB.draw(t.w, t.st, t.board, 1, 1)
    KB.win_check(t.w, t.st)
    assert (t.st[R.S_WINNER], t.st[R.S_END]) == (R.DRAW, R.END_BOTH)


def test_a_draw_effect_from_an_empty_deck_ends_the_game_at_once():
    """The draw effect checks the win at once (under empty_deck_loses), so the opponent's next action never
    comes."""
    tome = card(type=R.EVENT, cost=0, name_id=9)
    ability(tome, 0, trigger=R.TR_ACTION, effect=R.EF_DRAW, target=R.TG_ME, amount=1)
    t = Table(pool(tome=tome), empty_deck_loses=1).start({0: ["grunt", "tome"], 1: ["guard"]})
    t.move(t.row(0, 0), R.Z_FRONT)
    ev = t.move(t.row(0, 1), R.Z_HAND)
    t.move(t.row(1, 0), R.Z_FRONT)
    t.st[R.S_FIRST] = 0
    t.plan(0, (R.D_ACTION, R.ACT_PLAY, ev, 0))
    kernel.action_phase(*t.args())
    assert t.board[ev, R.B_ZONE] == R.Z_DISCARD
    assert (t.st[R.S_OVER], t.st[R.S_WINNER], t.st[R.S_END]) == (1, 1, R.END_DECKED)


def test_the_referee_agrees_on_games_lost_to_an_empty_deck():
    """Random grove-vs-stone games run long enough for decks to run out: under empty_deck_loses the referee
    replays them to the same ends, the double deck-outs (draws) included."""
    from sim.engine.game import RefereeError
    from sim.games import get_game
    game = get_game("drakerion")
    rules = game.load_rules(sets=[("seat0_deck", "grove"), ("seat1_deck", "stone"), ("empty_deck_loses", True)])
    traces = game.traces(rules, 2, game.lineup("random"), 5, 200)
    for g, trace in enumerate(traces):
        try:
            game.referee(rules, 2, trace)
        except RefereeError as e:
            pytest.fail(f"game {g}: {e}")
    ends = [t.record["end"] for t in traces]
    assert ends.count(R.END_DECKED) > 0 and ends.count(R.END_BOTH) > 0
