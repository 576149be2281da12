"""Drakerion's referee, part 2: the Action phase, combat and the ability interpreter, written again in
plain Python from docs/DRAKERION.md (the kernel's numba version is not reused), so a trace that breaks a
rule is caught by a second reading rather than by the code that wrote it."""

from __future__ import annotations

from sim.games.drakerion import records as R

LINES = (R.Z_FRONT, R.Z_SUPPORT)
# option columns a decision kind uses (the rest are -1 in the trace and not compared)
WIDTH = {R.D_FIRST: 1, R.D_SETUP: 2, R.D_MULLIGAN: 1, R.D_MANOEUVRE: 4, R.D_ACTION: 4, R.D_COMBAT: 4,
         R.D_TARGET: 1, R.D_LINE: 1, R.D_TRIGGER: 3, R.D_DISCARD: 1, R.D_SEARCH: 1, R.D_LOOK: 1,
         R.D_CYCLE: 1, R.D_ATTACK: 3}
STAT_OF = {R.EF_MELEE: "melee", R.EF_RANGED: "ranged", R.EF_RIPOSTE: "riposte", R.EF_HP: "hp"}


class Effects:
    # ---- legality ------------------------------------------------------------------------------
    def payable(self, p, i, a, extra_gold=0):
        cost, amount = self.ab(i, a, R.AB_COST), self.ab(i, a, R.AB_COST_AMOUNT)
        if cost == R.CO_TAP_SELF:
            return i not in self.tapped
        if cost == R.CO_DISCARD:
            return len(self.hand(p)) - (self.zone[i] == R.Z_HAND) >= amount
        if cost == R.CO_GOLD:
            return self.gold[p] >= amount + extra_gold
        if cost in (R.CO_DESTROY_SELF, R.CO_DAMAGE_SELF):
            return self.zone[i] in LINES
        return True

    def named_clash(self, p, i):
        if not self.cd(i, R.CD_NAMED):
            return False
        return any(self.cd(j, R.CD_NAMED) and self.cd(j, R.CD_NAME_ID) == self.cd(i, R.CD_NAME_ID)
                   for j in self.chars(p))

    def may_host(self, x, h):
        if not self.cd(h, R.CD_KEYWORDS) & R.KW_NO_ATTACHMENT:
            return True
        allowed = self.cd(h, R.CD_ATTACH_EXCEPT)
        return allowed != 0 and bool(self.cd(x, R.CD_TRAITS) & allowed)

    def hosts(self, x):
        return [h for p in (0, 1) for h in self.chars(p) if self.may_host(x, h)]

    def playable(self, p, i):
        if self.gold[p] < self.cd(i, R.CD_COST):
            return False
        t = self.cd(i, R.CD_TYPE)
        if t == R.CHARACTER:
            return not self.named_clash(p, i)
        return t == R.ATTACHMENT and bool(self.hosts(i))

    def event_rows(self, p, i, trigger):
        if self.gold[p] < self.cd(i, R.CD_COST):
            return set()
        return {(R.ACT_PLAY, i, a, -1) for a in self.abilities(i, trigger)
                if self.payable(p, i, a, self.cd(i, R.CD_COST))}

    def ability_rows(self, p, i, trigger):
        return {(R.ACT_ABILITY, i, a, -1) for a in self.abilities(i, trigger) if self.payable(p, i, a)}

    def attacks(self, p):
        q = 1 - p
        open_support = not any(self.zone[h] == R.Z_FRONT and self.cd(h, R.CD_KEYWORDS) & R.KW_INFILTRATEUR
                               for h in self.chars(q))
        rows = set()
        for a in self.chars(p):
            if a in self.tapped:
                continue
            za = self.zone[a]
            for d in self.chars(q):
                zd = self.zone[d]
                infiltrates = self.cd(a, R.CD_KEYWORDS) & R.KW_INFILTRATEUR and open_support
                if za == R.Z_FRONT and (zd == R.Z_FRONT or infiltrates):
                    rows.add((R.ACT_ATTACK, a, d, 0))
                if self.cd(a, R.CD_RANGED) > 0 and not (za == R.Z_SUPPORT and zd == R.Z_SUPPORT):
                    rows.add((R.ACT_ATTACK, a, d, 1))
        return rows

    def action_rows(self, p):
        rows = [(R.ACT_PASS, -1, -1, -1), (R.ACT_PASS_GOOD, -1, -1, -1)]
        for i in self.hand(p):
            if self.cd(i, R.CD_TYPE) == R.EVENT:
                rows += self.event_rows(p, i, R.TR_ACTION)
            elif self.playable(p, i):
                rows.append((R.ACT_PLAY, i, -1, -1))
        for i in self.rows(p, (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED)):
            rows += self.ability_rows(p, i, R.TR_ACTION)
        for i in self.rows(p, (R.Z_DISCARD,)):
            rows += self.ability_rows(p, i, R.TR_ACTION_DISCARD)
        city = p * R.MAX_INST + R.I_CITY
        rows += self.ability_rows(p, city, R.TR_ACTION)
        if self.man_top[p] >= 0:
            rows += self.ability_rows(p, self.man_top[p], R.TR_ACTION)
        if self.cd(city, R.CD_CYCLE) and city not in self.tapped and self.hand(p):
            rows.append((R.ACT_CYCLE, city, -1, -1))
        return rows + list(self.attacks(p))

    def combat_rows(self, p, first_action):
        rows = [(R.ACT_PASS, -1, -1, -1)]
        if self.out[p] and not self.cfg[R.C_OUT_COMBAT]:
            return rows
        att, dfd = self.combat["att"], self.combat["dfd"]
        if first_action and (dfd >> 6) == p and not self.combat["ranged"] \
                and (self.cfg[R.C_INTERCEPT_IMPLACABLE] or not self.implacable()):
            rows += [(R.ACT_INTERCEPT, i, -1, -1) for i in self.chars(p)
                     if i != dfd and self.zone[i] == self.zone[dfd] and i not in self.tapped
                     and self.cd(i, R.CD_KEYWORDS) & R.KW_INTERCEPTEUR]
        for i in self.hand(p):
            t = self.cd(i, R.CD_TYPE)
            if t == R.EVENT:
                rows += self.event_rows(p, i, R.TR_COMBAT)
            if self.cd(i, R.CD_KEYWORDS) & R.KW_IMPREVISIBLE:
                if t == R.EVENT:
                    if not self.cfg[R.C_IMPREV_EVENT_COMBAT_ONLY]:
                        rows += self.event_rows(p, i, R.TR_ACTION)
                elif self.playable(p, i):
                    rows.append((R.ACT_PLAY, i, -1, -1))
        for i in self.rows(p, (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED)):
            rows += self.ability_rows(p, i, R.TR_COMBAT)
            if self.zone[i] in LINES and self.cd(i, R.CD_NAMED):
                copies = [j for j in self.hand(p) if self.cd(j, R.CD_NAME_ID) == self.cd(i, R.CD_NAME_ID)]
                if copies:
                    rows += [(R.ACT_NAMED, i, min(copies), b) for b in (R.EF_SHIELD, *self.named_stats())]
        rows += self.ability_rows(p, p * R.MAX_INST + R.I_CITY, R.TR_COMBAT)
        if self.man_top[p] >= 0:
            rows += self.ability_rows(p, self.man_top[p], R.TR_COMBAT)
        return rows

    def implacable(self):
        return bool(self.cd(self.combat["att"], R.CD_KEYWORDS) & R.KW_IMPLACABLE)

    def ask(self, kind, p, rows):
        """The recorded answer to a decision of `kind` by p over a list of rows (tuples of the used
        columns), which may repeat: only their number and the chosen row's presence are in the trace."""
        r = self.row()
        what = f"{R.DECISION_NAMES[kind]} decision by seat {p}"
        if r[0] != R.EV_DECIDE or r[1] != kind or r[2] != p:
            got = (f"a {R.DECISION_NAMES[r[1]]} decision by seat {r[2]}"
                   if r[0] == R.EV_DECIDE and 0 <= r[1] < len(R.DECISION_NAMES)
                   else f"a {R.EVENT_NAMES.get(r[0], '?')} row")
            self.fail(f"expected a {what}, the trace has {got}: {r}")
        if r[3] != len(rows):
            self.fail(f"{what}: {len(rows)} legal options, the trace says {r[3]} (legal: {sorted(rows)[:12]})")
        chosen = tuple(r[4:4 + WIDTH[kind]])
        if chosen not in rows:
            self.fail(f"{what}: the trace chose {chosen}, which is not legal (legal: {sorted(rows)[:12]})")
        self.check()
        return chosen

    # ---- the Action phase --------------------------------------------------------------------------
    def action_phase(self):
        self.out = [False, False]
        passed = [False, False]
        good, last = -1, self.first
        actor = self.first
        while True:
            if all(self.out[p] or passed[p] for p in (0, 1)):
                break
            if self.out[actor]:
                actor = 1 - actor
            act, i, x, y = self.ask(R.D_ACTION, actor, self.action_rows(actor))
            nxt = 1 - actor
            if act == R.ACT_PASS:
                passed[actor] = True
                last = actor
                self.say(f"seat {actor} passes")
            elif act == R.ACT_PASS_GOOD:
                self.out[actor] = True
                last = actor
                good = actor if good < 0 else good
                self.say(f"seat {actor} passes for good")
            else:
                passed = [False, False]
                if act == R.ACT_ATTACK:
                    self.tapped.add(i)
                    nxt = self.fight(i, x, y)
                else:
                    if act == R.ACT_PLAY:
                        self.play_card(actor, i, x)
                    elif act == R.ACT_ABILITY:
                        self.use(actor, i, x)
                    elif act == R.ACT_CYCLE:
                        self.cycle(actor, i)
                    self.resolve(actor)
                d = self.pending_attacks()
                nxt = d if d >= 0 else nxt
            actor = nxt if not self.out[nxt] else 1 - nxt
        return good if good >= 0 else last

    def play_card(self, p, i, a):
        self.gold[p] -= self.cd(i, R.CD_COST)
        t = self.cd(i, R.CD_TYPE)
        paid = f"seat {p} plays {self.name(i)} ({self.cd(i, R.CD_COST)} gold)"
        if t == R.EVENT:
            self.say(paid)
            self.zone[i] = R.Z_RESOLVING
            self.use(p, i, a)
            self.zone[i] = R.Z_DISCARD
            return
        self.bring_in(p, i, paid)
        if t == R.CHARACTER:
            self.react(1 - p, R.WH_ENEMY_PLAYS, None)

    def bring_in(self, p, i, said):
        """A character or attachment enters play (played or put into play): a line or a host, then the
        destruction check and its deployment abilities."""
        if self.cd(i, R.CD_TYPE) == R.CHARACTER:
            (line,) = self.decide(R.D_LINE, p, {(R.FRONT,), (R.SUPPORT,)})
            self.enter(i, line)
            self.say(f"{said} to the {('front', 'support')[line]}")
        else:
            (h,) = self.decide(R.D_TARGET, p, {(h,) for h in self.hosts(i)})
            self.zone[i] = R.Z_ATTACHED
            self.host[i] = h
            self.tapped.discard(i)
            self.say(f"{said} on {self.who(h)}")
        self.sweep(False)
        self.push(i, R.TR_DEPLOY)

    def cycle(self, p, city):
        self.tapped.add(city)
        (i,) = self.decide(R.D_CYCLE, p, {(h,) for h in self.hand(p)})
        self.under(i)
        self.draw(p, 1)
        self.say(f"seat {p} taps {self.name(city)}: a card under the deck, one drawn")

    # ---- combat ------------------------------------------------------------------------------------
    def fight(self, att, dfd, ranged):
        ap, dp = att >> 6, dfd >> 6
        self.combat = {"att": att, "dfd": dfd, "ranged": ranged, "cancelled": False}
        power = (f"ranged {self.stat(att, 'ranged')}" if ranged
                 else f"melee {self.stat(att, 'melee')} against riposte {self.stat(dfd, 'riposte')}")
        self.say(f"{self.who(att)} attacks {self.who(dfd)} ({power})")
        self.react(ap, R.WH_ATTACKS, att)
        self.react(dp, R.WH_DEFENDS, dfd)
        self.resolve(ap)
        actor, passes, first = dp, 0, True
        while True:
            c = self.combat
            if c["cancelled"] or self.zone[c["att"]] not in LINES or self.zone[c["dfd"]] not in LINES:
                break
            act, i, x, y = self.ask(R.D_COMBAT, actor, self.combat_rows(actor, first))
            first = False
            if act == R.ACT_PASS:
                passes += 1
                if passes >= 2:
                    break
            else:
                passes = 0
                if act == R.ACT_INTERCEPT:
                    self.tapped.add(i)
                    self.combat["dfd"] = i
                    self.say(f"{self.who(i)} intercepts")
                    self.react(actor, R.WH_DEFENDS, i)
                elif act == R.ACT_NAMED:
                    self.zone[x] = R.Z_DISCARD
                    bonus = "1 shield" if y == R.EF_SHIELD else f"+1 {STAT_OF[y]}"
                    self.say(f"seat {actor} discards a copy of {self.name(i)}: {bonus}")
                    if y == R.EF_SHIELD:
                        self.shield[i] += 1
                    else:
                        self.gain[(i, STAT_OF[y], "combat")] += 1
                elif act == R.ACT_PLAY:
                    self.play_card(actor, i, x)
                else:
                    self.use(actor, i, x)
                self.resolve(actor)
            actor = 1 - actor
        att, dfd = self.combat["att"], self.combat["dfd"]
        if not self.combat["cancelled"] and self.zone[att] in LINES and self.zone[dfd] in LINES:
            if ranged:
                self.hurt(dfd, self.stat(att, "ranged"))
            else:
                back = self.stat(dfd, "riposte")
                self.hurt(dfd, self.stat(att, "melee"))
                self.hurt(att, back)
            self.sweep(True)
        self.combat = None
        ended = [k for k in self.gain if k[2] == "combat"]
        for key in ended:
            del self.gain[key]
        if self.cfg[R.C_SHIELDS_COMBATANTS]:      # only the combatants' shields end with their combat
            self.shield[att] = 0
            self.shield[dfd] = 0
        else:
            self.shield.clear()
        if any(k[1] == "hp" for k in ended):      # an HP gain for the combat ended: its bearer may fall
            self.sweep(False)
        self.resolve(ap)
        return dp

    def pending_attacks(self):
        last = -1
        for _ in range(R.MAX_ABILITY_ATTACKS):
            if self.pending_attack is None:
                break
            att, dfd, ranged = self.pending_attack
            self.pending_attack = None
            if self.zone[att] in LINES and self.zone[dfd] in LINES:
                last = self.fight(att, dfd, ranged)
        self.pending_attack = None          # past the chain's cap it is dropped
        return last

    def named_stats(self):
        """The effect codes of the Named bonus's two stats (named_bonus_first, named_bonus_second)."""
        first = R.NAMED_FIRST_NAMES[int(self.cfg[R.C_NAMED_FIRST])]
        second = R.NAMED_SECOND_NAMES[int(self.cfg[R.C_NAMED_SECOND])]
        return R.NAMED_STAT_EFFECTS[first], R.NAMED_STAT_EFFECTS[second]

    # ---- damage and destruction ---------------------------------------------------------------------
    def hurt(self, i, amount):
        if amount <= 0 or self.zone[i] not in LINES:
            return
        absorbed = min(self.shield[i], amount)
        self.shield[i] -= absorbed
        self.damage[i] += amount - absorbed
        self.hurt_now.add(i)
        self.say(f"{self.who(i)} takes {amount} damage" + (f" ({absorbed} on shields)" if absorbed else "")
                 + f": {self.damage[i]} on {self.stat(i, 'hp')} HP")

    def destroy(self, x, by_combat):
        q = x >> 6
        prestige = self.stat(x, "prestige")
        self.zone[x] = R.Z_DISCARD
        self.tapped.discard(x)
        self.hurt_now.discard(x)
        for j, h in list(self.host.items()):
            if h == x and self.zone[j] == R.Z_ATTACHED:
                self.zone[j] = R.Z_DISCARD
                self.tapped.discard(j)
                del self.host[j]
        if by_combat or self.cfg[R.C_PRESTIGE_ANY]:
            self.prestige[1 - q] += max(prestige, 0)
        self.say(f"{self.who(x)} is destroyed" + (f": seat {1 - q} takes {max(prestige, 0)} prestige"
                 if by_combat or self.cfg[R.C_PRESTIGE_ANY] else "")
                 + f" (prestige {self.prestige[0]}-{self.prestige[1]})")
        self.push(x, R.TR_DESTRUCTION)
        self.react(1 - q, R.WH_ENEMY_DESTROYED, None)
        self.react(q, R.WH_FRIEND_DESTROYED, None)

    def sweep(self, by_combat):
        again = True
        while again:
            again = False
            for p in (0, 1):
                for x in self.chars(p):
                    if self.damage[x] >= self.stat(x, "hp"):
                        self.destroy(x, by_combat)
                        again = True
        for p in (0, 1):
            for x in self.chars(p):
                if x in self.hurt_now:
                    self.react(p, R.WH_DAMAGED, x)
        self.hurt_now.clear()
        self.lines_rule()
        self.win_check()

    @property
    def hurt_now(self):
        if not hasattr(self, "_hurt"):
            self._hurt = set()
        return self._hurt

    # ---- triggers ----------------------------------------------------------------------------------
    def push(self, i, trigger):
        for a in self.abilities(i, trigger):
            self.queue.append((i, a, trigger))

    def subject(self, src, i):
        z = self.zone[src]
        if z in LINES:
            return src == i
        if z == R.Z_ATTACHED:
            return self.host[src] == i
        return (src >> 6) == (i >> 6)

    def react(self, p, condition, subject):
        sources = self.rows(p, (R.Z_FRONT, R.Z_SUPPORT, R.Z_ATTACHED))
        sources += [x for x in (self.man_top[p], p * R.MAX_INST + R.I_CITY) if x >= 0]
        for src in sources:
            for a in self.abilities(src, R.TR_REACTION):
                if self.ab(src, a, R.AB_CONDITION) == condition and (subject is None or self.subject(src, subject)):
                    self.queue.append((src, a, R.TR_REACTION))

    def usable(self, entry):
        i, a, trig = entry
        where = self.zone[i] == R.Z_DISCARD if trig == R.TR_DESTRUCTION else self.live(i)
        return where and self.payable(i >> 6, i, a)

    def resolve_player(self, p):
        pending = False
        while True:
            self.queue = [e for e in self.queue if (e[0] >> 6) != p or self.usable(e)]
            mine = [e for e in self.queue if (e[0] >> 6) == p]
            if not mine:
                return pending
            pending = True
            rows = [(i, a, self.ab(i, a, R.AB_FORCED)) for i, a, _ in mine]
            if not any(f for _, _, f in rows):
                rows.append((-1, -1, 0))
            i, a, _ = self.ask(R.D_TRIGGER, p, rows)
            if i < 0:
                self.queue = [e for e in self.queue if (e[0] >> 6) != p]
                return pending
            self.queue.remove(next(e for e in self.queue if e[0] == i and e[1] == a))
            self.use(p, i, a)

    def resolve(self, initiator):
        while self.queue:
            a = self.resolve_player(initiator)
            b = self.resolve_player(1 - initiator)
            if not (a or b):
                self.queue = []

    # ---- abilities ---------------------------------------------------------------------------------
    def use(self, p, src, a):
        trig = R.TRIGGER_NAMES[self.ab(src, a, R.AB_TRIGGER)]
        effect = R.EFFECT_NAMES[self.ab(src, a, R.AB_EFFECT)]
        self.say(f"seat {p} uses {self.name(src)}'s {trig} ability ({effect} {self.ab(src, a, R.AB_AMOUNT)})")
        self.pay(p, src, a)
        self.effect(p, src, a)

    def pay(self, p, src, a):
        cost, amount = self.ab(src, a, R.AB_COST), self.ab(src, a, R.AB_COST_AMOUNT)
        if cost == R.CO_TAP_SELF:
            self.tapped.add(src)
        elif cost == R.CO_DISCARD:
            for _ in range(amount):
                hand = self.hand(p)
                if hand:
                    (i,) = self.decide(R.D_DISCARD, p, {(h,) for h in hand})
                    self.zone[i] = R.Z_DISCARD
        elif cost == R.CO_GOLD:
            self.gold[p] -= amount
        elif cost == R.CO_DESTROY_SELF:
            if self.zone[src] in LINES:
                self.destroy(src, False)
                self.sweep(False)
        elif cost == R.CO_DAMAGE_SELF:
            self.hurt(src, amount)
            self.sweep(False)

    def fits(self, src, a, h):
        flt, traits = self.ab(src, a, R.AB_FILTER), self.ab(src, a, R.AB_TRAITS)
        if traits and not self.cd(h, R.CD_TRAITS) & traits:
            return False
        if flt & R.FI_WOUNDED and self.damage[h] == 0:
            return False
        if flt & R.FI_UNWOUNDED and self.damage[h] > 0:
            return False
        if flt & R.FI_FRONT and self.zone[h] != R.Z_FRONT:
            return False
        if flt & R.FI_SUPPORT and self.zone[h] != R.Z_SUPPORT:
            return False
        return not (flt & R.FI_MAX_COST and self.cd(h, R.CD_COST) > self.ab(src, a, R.AB_MAX_COST))

    def combatant(self, p):
        if not self.combat:
            return -1
        for i in (self.combat["att"], self.combat["dfd"]):
            if (i >> 6) == p:
                return i
        return -1

    def targets(self, p, src, a):
        tg = self.ab(src, a, R.AB_TARGET)
        if tg == R.TG_SELF:
            z = self.zone[src]
            return [src] if z in LINES else ([self.host[src]] if z == R.Z_ATTACHED else [])
        if tg in (R.TG_OWN_COMBATANT, R.TG_ENEMY_COMBATANT):
            h = self.combatant(p if tg == R.TG_OWN_COMBATANT else 1 - p)
            return [h] if h >= 0 and self.zone[h] in LINES else []
        if tg in (R.TG_ALL_OWN, R.TG_ALL_ENEMY):
            return [h for h in self.chars(p if tg == R.TG_ALL_OWN else 1 - p) if self.fits(src, a, h)]
        if tg in (R.TG_OWN, R.TG_ENEMY, R.TG_ANY):
            sides = {R.TG_OWN: (p,), R.TG_ENEMY: (1 - p,), R.TG_ANY: (0, 1)}[tg]
            rows = {(h,) for q in sides for h in self.chars(q) if self.fits(src, a, h)}
            if not rows:
                return []
            return [self.decide(R.D_TARGET, p, rows)[0]]
        return []

    def effect(self, p, src, a):
        e, amount = self.ab(src, a, R.AB_EFFECT), self.ab(src, a, R.AB_AMOUNT)
        q = 1 - p if self.ab(src, a, R.AB_TARGET) == R.TG_OPPONENT else p
        if e == R.EF_DRAW:
            self.draw(q, amount)
            self.win_check()              # empty_deck_loses: drawing from an empty deck lost the game
        elif e == R.EF_GOLD:
            self.gold[q] += amount
        elif e == R.EF_MILL:
            for _ in range(amount):
                if self.deck[q]:
                    self.zone[self.deck[q].pop()] = R.Z_DISCARD
        elif e == R.EF_DISCARD:
            for _ in range(amount):
                if not self.hand(q):
                    break
                (i,) = self.decide(R.D_DISCARD, q, {(h,) for h in self.hand(q)})
                self.zone[i] = R.Z_DISCARD
        elif e == R.EF_LOOK:
            self.look(p, amount)
        elif e == R.EF_SEARCH:
            rows = {(i,) for i in self.deck[p] if self.matches(src, a, i)} | {(-1,)}
            (i,) = self.decide(R.D_SEARCH, p, rows)
            if i >= 0:
                self.deck[p].remove(i)
                self.zone[i] = R.Z_HAND
            self.shuffled(p)
        elif e == R.EF_PUT_INTO_PLAY:
            self.put_into_play(p, src, a)
        elif e in (R.EF_REDIRECT, R.EF_CANCEL):
            self.combat_effect(p, src, a, e)
        elif e == R.EF_ATTACK:
            self.attack_effect(p, src, a)
        else:
            chosen = self.targets(p, src, a)
            # how long a stat gain lasts: a Combat ability's the combat, any other the turn
            # (combat_gains_by_timing: whatever is resolved while a combat is open lasts that combat)
            span = "combat" if self.ab(src, a, R.AB_TRIGGER) == R.TR_COMBAT else "turn"
            if self.combat and self.cfg[R.C_COMBAT_GAINS_TIMING]:
                span = "combat"
            for h in chosen:
                if self.zone[h] not in LINES:
                    continue
                if e not in (R.EF_DAMAGE, R.EF_DESTROY):     # those two say their own line
                    self.say(f"{self.who(h)} {self.outcome(e, amount, h, span)}")
                if e == R.EF_SHIELD:
                    self.shield[h] += amount
                elif e == R.EF_HEAL:
                    self.damage[h] -= min(amount, self.damage[h])
                elif e == R.EF_DAMAGE:
                    self.hurt(h, amount)
                elif e == R.EF_DESTROY:
                    self.destroy(h, False)
                elif e == R.EF_MOVE:
                    self.zone[h] = R.Z_SUPPORT if self.zone[h] == R.Z_FRONT else R.Z_FRONT
                elif e == R.EF_TAP:
                    self.tapped.add(h)
                elif e == R.EF_UNTAP:
                    self.tapped.discard(h)
                else:
                    self.gain[(h, STAT_OF[e], span)] += amount
            self.sweep(False)

    def outcome(self, e, amount, h, span):
        """What a one-character effect does, for the play-by-play."""
        if e == R.EF_SHIELD:
            return f"gets {amount} shield(s)"
        if e == R.EF_HEAL:
            return f"heals up to {amount}"
        if e == R.EF_MOVE:
            return "moves to the " + ("support" if self.zone[h] == R.Z_FRONT else "front") + " line"
        if e in (R.EF_TAP, R.EF_UNTAP):
            return "is " + R.EFFECT_NAMES[e] + "ped"
        return f"gets +{amount} {STAT_OF[e]} this {span}"

    def matches(self, src, a, i):
        want = self.ab(src, a, R.AB_CARD_TYPE)
        traits = self.ab(src, a, R.AB_TRAITS)
        if want >= 0 and self.cd(i, R.CD_TYPE) != want:
            return False
        if traits and not self.cd(i, R.CD_TRAITS) & traits:
            return False
        return not (self.ab(src, a, R.AB_FILTER) & R.FI_MAX_COST and self.cd(i, R.CD_COST) > self.ab(src, a, R.AB_MAX_COST))

    def look(self, p, amount):
        deck = self.deck[p]
        m = min(amount, len(deck))
        start = len(deck) - m
        for j in range(m):
            left = deck[start + j:]
            (i,) = self.decide(R.D_LOOK, p, {(x,) for x in left})
            k = deck.index(i, start + j)
            deck[start + j], deck[k] = deck[k], deck[start + j]

    def put_into_play(self, p, src, a):
        rows = {(-1,)}
        for i in self.hand(p):
            if not self.matches(src, a, i):
                continue
            t = self.cd(i, R.CD_TYPE)
            if (t == R.CHARACTER and not self.named_clash(p, i)) or (t == R.ATTACHMENT and self.hosts(i)):
                rows.add((i,))
        (i,) = self.decide(R.D_SEARCH, p, rows)
        if i >= 0:
            self.bring_in(p, i, f"seat {p} puts {self.name(i)} into play")

    def combat_effect(self, p, src, a, e):
        if not self.combat or self.implacable():
            return
        if e == R.EF_CANCEL:
            self.combat["cancelled"] = True
            self.say("the attack is cancelled")
            return
        dfd = self.combat["dfd"]
        rows = {(h,) for h in self.chars(dfd >> 6) if h != dfd and self.fits(src, a, h)}
        if rows:
            (h,) = self.decide(R.D_TARGET, p, rows)
            self.combat["dfd"] = h
            self.say(f"the attack is redirected to {self.name(h)}")
            self.react(h >> 6, R.WH_DEFENDS, h)

    def attack_effect(self, p, src, a):
        chosen = self.targets(p, src, a)
        if not chosen or (chosen[0] >> 6) != p:
            return
        att = chosen[0]
        taps = bool(self.cfg[R.C_ABILITY_ATTACK_TAPS])
        if taps and att in self.tapped:
            return
        rows = set()
        for d in self.chars(1 - p):
            rows.add((att, d, 0))
            if self.cd(att, R.CD_RANGED) > 0:
                rows.add((att, d, 1))
        if not rows:
            return
        row = self.decide(R.D_ATTACK, p, rows)
        if taps:
            self.tapped.add(att)
        self.pending_attack = row
