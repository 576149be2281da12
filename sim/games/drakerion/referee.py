"""Drakerion's referee: pure Python, no numba. It replays a trace with its own reading of the rules
(docs/DRAKERION.md), rebuilds the legal options of every decision, checks that the recorded choice is
one of them (and that their number matches), checks the invariants after every decision, and checks the
recorded result. It returns a readable play-by-play.

The trace holds only decisions (EV_DECIDE), deck orders after each shuffle (EV_DECK), the first player
(EV_FIRST), turn checkpoints (EV_TURN) and the end (EV_END): everything else is derived here. The game is
straight-line code (set_up, manoeuvres, action_phase, fight, ...) that asks `decide` / `ask` for each
choice; they read the next EV_DECIDE row and check it, and `shuffled` reads the EV_DECK rows of a shuffle.
The second half (action phase, combat, abilities) is in referee_effects.py.

Readings this referee assumes (where docs/DRAKERION.md leaves a choice open):
- No win check during set-up or the mulligan; the lines rule runs after each player's set-up cards.
- Manoeuvres: both piles are checked for a rebuild (first player first) before anyone picks; the
  destructions a rebuild causes queue their triggers, resolved with the reveal's (first player initiates).
  Reveal: both are covered/revealed at once, then gold and draws (first player first), then a sweep, then
  both Deployment triggers (first player's first).
- Action phase: a pass for good also counts as that player's pass for the end of the phase; after an
  attack (or an action whose ability made an attack) the defending player of the last attack acts next,
  or the other player if that one is out.
- A player out of the phase (flag out_player_combat_actions false) is still asked in a combat window: a
  D_COMBAT decision with the single row [PASS], which counts toward "both pass in a row". Interception is
  offered only at the window's first decision. The window stops before any decision once the attack is
  cancelled or a combatant left play.
- Combat damage reads the riposte before any damage lands; combat kills always give prestige.
- Gains: a Combat ability's melee / ranged / riposte / HP gain lasts its combat (the Named bonus too:
  1 shield or +1 of the stats named_bonus_first and named_bonus_second, each option row naming its stat by
  effect code); any other ability's lasts the turn (gains_last_in_play: until its bearer leaves play), also
  when it resolves during a combat (an attacks / defends reaction, an Imprévisible card's Deployment). With combat_gains_by_timing, every gain resolved while a
  combat is open (declaration triggers, window) lasts that combat; once the damage is dealt the combat is
  closed, so the queue resolved after it gives gains for the turn. When an HP gain for the combat ends, a
  sweep follows (its bearer may fall), before the queue after the combat is resolved.
- Shields are not cleared at the end of a turn (unless shields_end_of_turn): every shield in play ends
  when any combat ends (also a cancelled one); with shields_combatants_only, only the attacker's and the
  (last) defender's.
- Interception is not offered against an Implacable attacker unless intercept_implacable; an Imprévisible
  event offers its Action abilities in a combat unless imprevisible_event_combat_only.
- D_TRIGGER: choosing [-1] drops all the player's remaining entries (none of them is forced then). Entries
  are dropped when their card is not in play (lines, attached, revealed Manoeuvre, City; destruction: not in
  the discard) or their cost is unpayable. The loop asks the initiator, then the opponent, until the queue
  is empty. A destroyed character queues its Destruction abilities, then enemy_destroyed, then
  friend_destroyed; `damaged` reactions are queued after the destructions of the same sweep.
- Only one ability attack waits at a time: a second attack effect before the first is fought replaces it.
  One made during a combat is fought once that combat is over (combats do not nest); a chain of attacks
  stops after MAX_ABILITY_ATTACKS. The attack effect does nothing when its chosen attacker is an enemy, or
  (ability_attack_taps) when the attacker is tapped.
- Targets: `opponent` makes draw / gold / mill / discard hit the opponent, any other kind the activating
  player. `self` ignores filters; all_own / all_enemy apply them. Redirect rows also apply the ability's
  traits and filters. Redirect and cancel do nothing outside a combat or against Implacable.
- Look: the first card chosen goes deepest among the looked-at cards, the last one on top. Search shuffles
  the deck even when nothing was found (no EV_DECK rows when the deck is empty).
- A card out of play is never tapped: a destroyed character and its attachments untap as they leave (a
  tap_self cost of a Destruction or Action-from-discard ability is payable), and the end phase untaps
  every card, the revealed Manoeuvre included. Entering play clears damage, shields, gains and tapping. A
  destroyed character's prestige is its printed prestige plus its attachments' (none under
  attachment_prestige_to_host false), never below 0.
- Set-up: characters' abilities are off while the Banners' cards are placed; the referee computes stats only
  when a rule reads them, and no set-up decision is checked against a stat.
- End phase: end_of_turn reactions resolve, then everything untaps and turn gains end, then a sweep (a
  character whose HP gain ended may die) and its triggers resolve.
- The turn cap: when turn cap + 1 would start the game is a draw with turns = cap.
- Nothing but all-zero padding may follow EV_END.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from sim.engine.game import RefereeError, Trace
from sim.games.drakerion import records as R
from sim.games.drakerion.referee_effects import LINES, WIDTH, Effects  # noqa: F401 (WIDTH re-exported)

LINE_NAMES = ("front", "support")


class Over(Exception):
    """The game ended (raised to unwind the rules to the end check)."""


class Referee(Effects):
    def __init__(self, cards, inst_card, setup, deck_n, config, events, names=None):
        self.cards = np.asarray(cards)
        self.fields = self.cards.tolist()
        self.by_trigger = {}
        for c, row in enumerate(self.fields):
            for a in range(row[R.CD_NABIL]):
                self.by_trigger.setdefault((c, row[R.CD_ABIL + a * R.ABIL_WIDTH + R.AB_TRIGGER]), []).append(a)
        self.passive_cards = {c for (c, t) in self.by_trigger if t == R.TR_PASSIVE}
        self.cfg = np.asarray(config)
        self.events = np.asarray(events)
        self.pos = 0
        self.names = names
        self.lines = []
        self.card = {}
        self.zone = {}
        self.deck = [[], []]
        self.deck_n = [int(deck_n[0]), int(deck_n[1])]
        self.setup = [[int(k) for k in setup[p] if k >= 0] for p in (0, 1)]
        self.deck_rows = [range(p * R.MAX_INST, p * R.MAX_INST + self.deck_n[p]) for p in (0, 1)]
        for p in (0, 1):
            for k in range(R.MAX_INST):
                c = int(inst_card[p, k])
                if c >= 0:
                    i = p * R.MAX_INST + k
                    self.card[i] = c
                    self.zone[i] = R.Z_NONE
            for k in range(self.deck_n[p]):
                i = p * R.MAX_INST + k
                self.zone[i] = R.Z_DECK
                self.deck[p].append(i)
            for m in range(R.N_MAN):
                self.zone[p * R.MAX_INST + R.I_MAN + m] = R.Z_MAN_PILE
            self.zone[p * R.MAX_INST + R.I_CITY] = R.Z_CITY
            self.zone[p * R.MAX_INST + R.I_BANNER] = R.Z_BANNER
        self.passive_rows = [[i for i in self.deck_rows[p] if self.card[i] in self.passive_cards] for p in (0, 1)]
        self.host = {}
        self.damage = Counter()
        self.tapped = set()
        self.shield = Counter()
        self.gain = Counter()          # (row, stat, "combat" | "turn") -> amount
        self.gold = [int(config[R.C_START_GOLD])] * 2
        self.prestige = [0, 0]
        self.decked = set()                 # players who had to draw from an empty deck (empty_deck_loses)
        self.prestige_seen = [0, 0]    # prestige never falls
        self.man_top = [-1, -1]
        self.turn = 0
        self.first = 0
        self.out = [False, False]
        self.combat = None             # dict: att, dfd, ranged, cancelled
        self.queue = []                # (row, ability, trigger)
        self.pending_attack = None
        self.winner = None
        self.end = None

    # ---- the trace -------------------------------------------------------------------------------
    def row(self):
        if self.pos >= len(self.events):
            raise RefereeError(f"trace ends early at row {self.pos}")
        r = self.events[self.pos]
        self.pos += 1
        return [int(x) for x in r]

    def fail(self, msg):
        raise RefereeError(f"row {self.pos - 1}, turn {self.turn}: {msg}")

    def who(self, i):
        return f"seat {i >> 6}'s {self.name(i)}"

    def decide(self, kind, p, options):
        """The recorded answer to a decision of `kind` by p over `options` (tuples of the used columns)."""
        return self.ask(kind, p, list(options))

    def shuffled(self, p):
        """The deck order the trace gives after a shuffle; its cards must be the deck's."""
        n = len(self.deck[p])
        order = []
        for k in range(n):
            r = self.row()
            if r[0] != R.EV_DECK or r[1] != p or r[2] != n or r[3] != k:
                self.fail(f"expected deck row {k} of {n} for seat {p}, trace has {r[:5]}")
            order.append(r[4])
        if sorted(order) != sorted(self.deck[p]):
            self.fail(f"seat {p}'s shuffled deck holds other cards than its deck")
        self.deck[p] = order

    def say(self, text):
        self.lines.append(f"turn {self.turn}: {text}" if self.turn else text)

    def name(self, i):
        c = self.card[i]
        return self.names[c] if self.names else f"card#{c}"

    # ---- card data -------------------------------------------------------------------------------
    def cd(self, i, field):
        return self.fields[self.card[i]][field]

    def ab(self, i, a, field):
        return self.fields[self.card[i]][R.CD_ABIL + a * R.ABIL_WIDTH + field]

    def abilities(self, i, trigger):
        return self.by_trigger.get((self.card[i], trigger), ())

    # ---- zones -----------------------------------------------------------------------------------
    def rows(self, p, zones):
        zone = self.zone
        return [i for i in self.deck_rows[p] if zone[i] in zones]

    def chars(self, p):
        return self.rows(p, LINES)

    def live(self, i):
        return self.zone.get(i) in (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED, R.Z_MAN_TOP, R.Z_CITY)

    def hand(self, p):
        return self.rows(p, (R.Z_HAND,))

    def move(self, i, z):
        self.zone[i] = z

    def enter(self, i, line):
        for key in [k for k in self.gain if k[0] == i]:
            del self.gain[key]
        self.damage[i] = 0
        self.shield[i] = 0
        self.tapped.discard(i)
        self.host.pop(i, None)
        self.zone[i] = R.Z_FRONT if line == R.FRONT else R.Z_SUPPORT

    def lines_rule(self):
        for p in (0, 1):
            chars = self.chars(p)
            if chars and not any(self.zone[i] == R.Z_FRONT for i in chars):
                for i in chars:
                    self.zone[i] = R.Z_FRONT
                self.say(f"seat {p}'s front line is empty: its support line moves up")

    def draw(self, p, n):
        for _ in range(n):
            if not self.deck[p]:
                if self.cfg[R.C_EMPTY_DECK_LOSES]:
                    self.decked.add(p)
                    self.say(f"seat {p} must draw from an empty deck")
                return
            self.zone[self.deck[p].pop()] = R.Z_HAND

    def under(self, i):
        self.deck[i >> 6].insert(0, i)
        self.zone[i] = R.Z_DECK

    # ---- effective stats -------------------------------------------------------------------------
    def stat(self, i, name):
        """Effective melee / ranged / riposte / hp / prestige of character i."""
        field = {"melee": R.CD_MELEE, "ranged": R.CD_RANGED, "riposte": R.CD_RIPOSTE, "hp": R.CD_HP,
                 "prestige": R.CD_PRESTIGE}[name]
        v = self.cd(i, field)
        if name != "prestige":
            v += self.gain[(i, name, "combat")] + self.gain[(i, name, "turn")]
        for x, h in self.host.items():
            if h == i and self.zone[x] == R.Z_ATTACHED:
                if name != "prestige" or not self.cfg[R.C_ATTACH_PRESTIGE_NONE]:
                    v += self.cd(x, field)
        if name == "prestige":
            return v
        effect = {"melee": R.EF_MELEE, "ranged": R.EF_RANGED, "riposte": R.EF_RIPOSTE, "hp": R.EF_HP}[name]
        p = i >> 6
        sources = [x for x in self.passive_rows[p] if self.zone[x] in (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED)]
        sources += [x for x in (self.man_top[p], p * R.MAX_INST + R.I_CITY)
                    if x >= 0 and self.card[x] in self.passive_cards]
        for src in sources:
            for a in self.abilities(src, R.TR_PASSIVE):
                if self.ab(src, a, R.AB_EFFECT) != effect:
                    continue
                traits = self.ab(src, a, R.AB_TRAITS)
                z = self.zone[src]
                if self.ab(src, a, R.AB_TARGET) == R.TG_SELF and z in (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED):
                    if (src if z != R.Z_ATTACHED else self.host[src]) == i:
                        v += self.ab(src, a, R.AB_AMOUNT)
                elif traits == 0 or self.cd(i, R.CD_TRAITS) & traits:
                    v += self.ab(src, a, R.AB_AMOUNT)
        return v

    def life(self, i):
        return self.stat(i, "hp") - self.damage[i]

    # ---- invariants --------------------------------------------------------------------------------
    def check(self):
        """The referee's own invariants, at every decision (a failure here is a referee bug or a rule the
        trace drove somewhere impossible). Each instance has one zone by construction (a dict)."""
        for p in (0, 1):
            in_deck = set(self.rows(p, (R.Z_DECK,)))
            if set(self.deck[p]) != in_deck or len(self.deck[p]) != len(in_deck):
                self.fail(f"seat {p}'s deck order and deck zone disagree")
            if self.gold[p] < 0:
                self.fail(f"seat {p} has negative gold")
            if self.prestige[p] < self.prestige_seen[p]:
                self.fail(f"seat {p}'s prestige fell from {self.prestige_seen[p]} to {self.prestige[p]}")
            self.prestige_seen[p] = self.prestige[p]
            for i in self.chars(p):
                if self.damage[i] >= self.stat(i, "hp"):
                    self.fail(f"{self.name(i)} is in play with {self.damage[i]} damage on {self.stat(i, 'hp')} HP")
        if any(v < 0 for v in self.damage.values()) or any(v < 0 for v in self.shield.values()):
            self.fail("negative damage or shields")
        for i, h in self.host.items():
            if self.zone[i] == R.Z_ATTACHED and self.zone[h] not in LINES:
                self.fail(f"{self.name(i)} is bound to a character out of play")
        for p in (0, 1):
            tops = [i for i in range(p * R.MAX_INST + R.I_MAN, p * R.MAX_INST + R.I_MAN + R.N_MAN)
                    if self.zone[i] == R.Z_MAN_TOP]
            if tops != ([self.man_top[p]] if self.man_top[p] >= 0 else []):
                self.fail(f"seat {p}'s revealed Manoeuvre is not the one on top")

    # ---- the end ---------------------------------------------------------------------------------
    def win_check(self):
        if self.winner is not None:
            raise Over
        target = int(self.cfg[R.C_WIN_PRESTIGE])
        pr = [self.prestige[p] >= target for p in (0, 1)]
        wipe = [not self.chars(1), not self.chars(0)]
        w = [pr[0] or wipe[0] or 1 in self.decked, pr[1] or wipe[1] or 0 in self.decked]
        if not (w[0] or w[1]):
            return
        if w[0] and w[1]:
            if self.cfg[R.C_PRESTIGE_BEATS] and pr[0] != pr[1]:
                self.winner, self.end = (0 if pr[0] else 1), R.END_PRESTIGE
            else:
                self.winner, self.end = R.DRAW, R.END_BOTH
        else:
            k = 0 if w[0] else 1
            self.winner, self.end = k, (R.END_PRESTIGE if pr[k] else R.END_WIPEOUT if wipe[k] else R.END_DECKED)
        raise Over

    # ---- the game --------------------------------------------------------------------------------
    def play(self):
        try:
            self.set_up()
            cap = int(self.cfg[R.C_TURN_CAP])
            while True:
                self.turn += 1
                if self.turn > cap:
                    self.turn = cap
                    self.winner, self.end = R.DRAW, R.END_CAP
                    break
                self.checkpoint()
                self.manoeuvres()
                nxt = self.action_phase()
                self.end_phase()
                self.first = nxt
        except Over:
            pass
        self.check()
        r = self.row()
        if r[0] != R.EV_END:
            self.fail(f"the game is over ({R.END_NAMES[self.end]}) but the trace goes on: {r[:4]}")
        mine = [self.winner, self.end, self.turn, self.prestige[0], self.prestige[1]]
        fields = ("winner", "end", "turns", "prestige0", "prestige1")
        bad = [f"{f} {t} (the rules give {m})" for f, t, m in zip(fields, r[1:6], mine) if t != m]
        if bad:
            self.fail("the end row differs: " + ", ".join(bad))
        if any(x.any() for x in self.events[self.pos:]):
            self.fail(f"rows follow the end of the game (row {self.pos} on)")
        self.say(f"end: {R.END_NAMES[self.end]}, " + ("a draw" if self.winner < 0 else f"seat {self.winner} wins")
                 + f", prestige {self.prestige[0]}-{self.prestige[1]}")
        return mine

    def checkpoint(self):
        r = self.row()
        if r[0] != R.EV_TURN:
            self.fail(f"expected the turn {self.turn} checkpoint, the trace has {r}")
        mine = [self.turn, self.first, *self.gold, *self.prestige, len(self.hand(0)), len(self.hand(1))]
        fields = ("turn", "first player", "gold0", "gold1", "prestige0", "prestige1", "hand0", "hand1")
        bad = [f"{f} {t} (the rules give {m})" for f, t, m in zip(fields, r[1:9], mine) if t != m]
        if bad:
            self.fail("turn checkpoint differs: " + ", ".join(bad))
        self.say(f"seat {self.first} leads; gold {self.gold[0]}-{self.gold[1]}, "
                 f"prestige {self.prestige[0]}-{self.prestige[1]}, hands {mine[6]}-{mine[7]}")

    def set_up(self):
        init = [self.cd(p * R.MAX_INST + R.I_BANNER, R.CD_INITIATIVE) for p in (0, 1)]
        if init[0] == init[1]:
            r = self.row()
            if r[0] != R.EV_FIRST or r[1] != -1:
                self.fail(f"equal initiative: the first player is drawn at random, trace has {r[:3]}")
            self.first = r[2]
            self.say("equal initiative: the first player is drawn at random")
        else:
            chooser = 0 if init[0] > init[1] else 1
            (c,) = self.decide(R.D_FIRST, chooser, {(0,), (1,)})
            self.first = chooser if c == 0 else 1 - chooser
            r = self.row()
            if r[:3] != [R.EV_FIRST, chooser, self.first]:
                self.fail(f"first player row {r[:3]} does not follow the choice")
        self.say(f"seat {self.first} goes first")
        order = (self.first, 1 - self.first)
        for p in order:
            for k in self.setup[p]:
                i = p * R.MAX_INST + k
                self.deck[p].remove(i)
                self.zone[i] = R.Z_NONE
                _, line = self.decide(R.D_SETUP, p, {(i, R.FRONT), (i, R.SUPPORT)})
                self.enter(i, line)
                self.say(f"seat {p} sets up {self.name(i)} on the {LINE_NAMES[line]} line")
            self.lines_rule()
        for p in order:
            self.shuffled(p)
            self.draw(p, int(self.cfg[R.C_HAND_SIZE]))
        for p in order:
            self.mulligan(p)
        self.win_check()                  # a deck too small for the opening hand (empty_deck_loses)

    def mulligan(self, p):
        put = 0
        while True:
            (i,) = self.decide(R.D_MULLIGAN, p, {(h,) for h in self.hand(p)} | {(-1,)})
            if i < 0:
                break
            self.under(i)
            put += 1
        if put:
            if self.cfg[R.C_MULL_SHUFFLE_FIRST]:
                self.shuffled(p)
                self.draw(p, put)
            else:
                self.draw(p, put)
                self.shuffled(p)
            self.say(f"seat {p} puts {put} card(s) under the deck and draws again")

    def manoeuvres(self):
        picks = []
        for p in (self.first, 1 - self.first):
            pile = [p * R.MAX_INST + R.I_MAN + m for m in range(R.N_MAN)]
            if not any(self.zone[i] == R.Z_MAN_PILE for i in pile):
                for i in pile:
                    self.zone[i] = R.Z_MAN_PILE
                self.man_top[p] = -1
                self.say(f"seat {p} takes back their eight Manoeuvres")
                self.sweep(False)             # the revealed one's passives end with it
        for p in (self.first, 1 - self.first):
            pile = [p * R.MAX_INST + R.I_MAN + m for m in range(R.N_MAN)]
            opts = {(i, self.cd(i, R.CD_DRAW), self.cd(i, R.CD_GOLD), self.cd(i, R.CD_SUBTYPE))
                    for i in pile if self.zone[i] == R.Z_MAN_PILE}
            picks.append((p, self.decide(R.D_MANOEUVRE, p, opts)[0]))
        for p, i in picks:
            if self.man_top[p] >= 0:
                self.zone[self.man_top[p]] = R.Z_MAN_COVERED
            self.zone[i] = R.Z_MAN_TOP
            self.man_top[p] = i
        for p, i in picks:
            self.gold[p] += self.cd(i, R.CD_GOLD)
            self.draw(p, self.cd(i, R.CD_DRAW))
            self.say(f"seat {p} reveals {self.name(i)} (+{self.cd(i, R.CD_GOLD)} gold, "
                     f"draws {self.cd(i, R.CD_DRAW)}): {self.gold[p]} gold, {len(self.hand(p))} in hand")
        self.sweep(False)
        for p, i in picks:
            self.push(i, R.TR_DEPLOY)
        self.resolve(self.first)
        self.pending_attacks()

    def end_phase(self):
        for p in (self.first, 1 - self.first):
            self.react(p, R.WH_END_OF_TURN, None)
        self.resolve(self.first)
        self.pending_attacks()
        self.tapped.clear()            # every card untaps, the revealed Manoeuvre too
        if self.cfg[R.C_SHIELDS_TURN]:  # shields no combat ended are lost with the turn
            self.shield.clear()
        if not self.cfg[R.C_GAINS_IN_PLAY]:     # gains_last_in_play: they stay until their bearer leaves play
            for key in [k for k in self.gain if k[2] == "turn"]:
                del self.gain[key]
        self.sweep(False)
        self.resolve(self.first)
        self.pending_attacks()


def replay_arrays(cards, inst_card, setup, deck_n, config, events, record=None, names=None) -> list[str]:
    ref = Referee(cards, inst_card, setup, deck_n, config, events, names)
    winner, end, turns, pr0, pr1 = ref.play()
    if record is not None:
        want = {"winner": winner, "end": end, "turns": turns, "prestige_s0": pr0, "prestige_s1": pr1,
                "prestige0": pr0, "prestige1": pr1}
        for k, v in want.items():
            if k in record and int(record[k]) != v:
                raise RefereeError(f"the games table says {k} = {record[k]}, the replay gives {v}")
    return ref.lines


def replay(rules, trace: Trace) -> list[str]:
    if rules.fielded():         # the game's own pairing, as its record names it
        rules = next(at for at in rules.matchups()
                     if (at.seat0_deck, at.seat1_deck) == (trace.record["deck_s0"], trace.record["deck_s1"]))
    t = rules.arrays()
    config = t.config.copy()
    return replay_arrays(t.cards, t.inst_card, t.setup, t.deck_n, config, trace.events, trace.record, t.names)
