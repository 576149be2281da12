"""Dragonwake referee: replays a trace from its deal, checks every move and the result, narrates it."""

from collections import Counter

from sim.engine.game import RefereeError, Trace
from sim.games.dragonwake.records import (
    CANDLE, CARD_NAMES, CHOSEN, CULTIST, DIVINATOR, DRAGON, END_DRAGON, END_NAMES, END_RELICS, END_TIME, EV_ASIDE,
    EV_CLAIM, EV_DEAL, EV_END, EV_EVENT, EV_FATE, EV_FLIP, EV_PEEK, EV_POWER, EV_POWERS, EV_REVEAL, EV_ROLE,
    EV_ROUND, EV_SWAP, EV_UNDEALT, EV_UNDO, EVENT_NAMES, FATE, GLUTTONY, GOLD, HERO, HUNTER, MENTOR, NO_EVENT,
    POWER_NAMES, RELIC, ROLE_NAMES, SILENT, BANDIT, EV_CARDSWAP, EV_CONVERT, EV_ORDER, FIRED, INQUISITOR,
    MAX_HAND, PREACHER, TRICKSTER, WITCH,
)
from sim.games.dragonwake.rules import DragonwakeRules


def describe_claim(claim: int) -> str:
    if claim == SILENT:
        return "stays silent"
    relics, dragon = divmod(claim, 2)
    return f"claims {relics} relic{'s' if relics != 1 else ''}" + (" and the dragon" if dragon else "")


class Referee:
    def __init__(self, rules: DragonwakeRules, players: int, trace: Trace):
        self.rules = rules
        self.players = players
        self.events = [tuple(int(x) for x in row) for row in trace.events if row[0] != 0]
        self.record = trace.record
        self.pos = 0
        self.lines: list[str] = []
        self.held: list[Counter] = [Counter() for _ in range(players)]   # unused power cards
        self.used = 0
        self.peeks = 0
        self.undos = 0
        self.artifacts = 0
        self.fate: dict[int, int] = {}      # Figure of Fate: player -> the partner whose role card they share
        self.fired = Counter()              # the fired_* counters as the replay sees them
        self.rows: list[dict] = []
        self.drawn = 0
        self.known: list[dict] = [dict() for _ in range(players)]
        self.roles: list[int] = []

    # ---- reading -------------------------------------------------------------------------------
    def next(self, code: int, what: str) -> tuple:
        if self.pos >= len(self.events):
            raise RefereeError(f"trace ends early: expected {what}")
        ev = self.events[self.pos]
        if ev[0] != code:
            raise RefereeError(f"step {self.pos}: expected {what}, found event code {ev[0]}")
        self.pos += 1
        return ev

    def peek(self) -> int:
        return self.events[self.pos][0] if self.pos < len(self.events) else 0

    def fail(self, text: str):
        raise RefereeError(f"step {self.pos - 1}: {text}")

    # ---- the game ------------------------------------------------------------------------------
    def run(self) -> list[str]:
        roles = self.deal_roles()
        n = self.players
        relics_total = self.rules.relics_per_player * n
        candles, fates = self.rules.artifact_counts()
        deck = Counter({RELIC: relics_total, DRAGON: self.rules.dragons, CANDLE: candles, FATE: fates,
                        GOLD: self.rules.cards_per_player * n - relics_total - self.rules.dragons - candles - fates})
        events_left = Counter(self.rules.event_deck())
        self.deal_powers()
        found = 0
        reveals = 0
        runebearer = None
        winner = mode = None
        for rnd, hand in enumerate(self.rules.hand_sizes):
            _, r, h, rb = self.next(EV_ROUND, "a new round")[:4]
            if r != rnd or h != hand:
                self.fail(f"round {r} with hands of {h}, expected round {rnd} with {hand}")
            if runebearer is not None and rb != runebearer:
                self.fail(f"round starts with runebearer P{rb}, but P{runebearer} received the runestone last")
            runebearer = rb
            self.lines.append(f"Round {rnd + 1}: hands of {hand}, runebearer P{rb}")
            event = self.event(rnd, events_left)
            rows = self.deal(hand, deck)
            self.rows = rows
            if event == GLUTTONY:
                self.set_aside(rows)
            self.declare(rows, roles, hand, rb)
            early = False
            revealed = 0
            while revealed < n:
                hunted = self.powers_before(rows, runebearer)
                _, who, target, slot, card = self.next(EV_REVEAL, "a reveal")
                if who != runebearer:
                    self.fail(f"P{who} reveals but P{runebearer} holds the runestone")
                if target == who and (hunted or not self.rules.self_reveal):
                    self.fail(f"P{who} reveals their own card" + (" after using Hunter" if hunted else ""))
                if not (0 <= target < n) or rows[target].get(slot) is None:
                    self.fail(f"P{who} reveals P{target}'s slot {slot}, which holds no face-down card")
                if rows[target][slot] != card:
                    self.fail(f"P{target}'s slot {slot} held {CARD_NAMES[rows[target][slot]]}, not {CARD_NAMES[card]}")
                del rows[target][slot]
                revealed += 1
                reveals += 1
                deck[card] -= 1
                self.fired["self_reveal"] += target == who
                self.lines.append(f"  P{who} reveals a card of P{target} ({ROLE_NAMES[roles[target]]}): {CARD_NAMES[card]}")
                old_fate = self.fate.get(who)
                undo_role, peeked = self.artifact(card, who, rows, roles)
                if self.undo(rows, target, slot, card, runebearer):
                    revealed -= 1
                    reveals -= 1
                    deck[card] += 1
                    if undo_role is not None:
                        roles[who] = undo_role
                        self.fired["fate"] -= 1
                        if old_fate is None:
                            self.fate.pop(who, None)
                        else:
                            self.fate[who] = old_fate
                        self.lines.append(f"  (the Figure of Fate is undone: P{who} is a {ROLE_NAMES[undo_role]} again)")
                    elif peeked:
                        self.peeks -= 1
                        self.fired["candle"] -= 1
                        self.lines.append("  (the Candle's peek is undone)")
                    continue
                if card in (CANDLE, FATE):
                    self.artifacts += 1
                runebearer = target
                text = ""
                if card == RELIC:
                    found += 1
                    text = f"    {found}/{relics_total} relics found"
                    if found == relics_total:
                        winner, mode = HERO, END_RELICS
                elif card == DRAGON:
                    k = self.rules.min_reveals
                    self.fired["kth_reveal_dragon_wakes"] += k > 0 and reveals == k
                    wake_from = k + (1 if k > 0 and not self.rules.kth_reveal_dragon_wakes else 0)
                    if reveals >= wake_from:
                        winner, mode = CULTIST, END_DRAGON
                    else:
                        self.fired["min_reveals"] += 1
                        self.next(EV_SWAP, "the early dragon counted as gold")
                        text = f"    (before {self.rules.min_reveals} reveals: counts as gold, goes back in)"
                        early = True
                if text:
                    self.lines.append(text)
                if winner is not None:
                    break
            if winner is not None:
                break
            if early and deck[GOLD] > 0:
                deck[GOLD] -= 1
                deck[DRAGON] += 1
        if winner is None:
            winner, mode = CULTIST, END_TIME
        self.check_end(winner, mode, reveals, found, roles)
        return self.lines

    # ---- advanced game: powers and artifacts ----------------------------------------------------
    def deal_powers(self) -> None:
        if not self.rules.powers:
            return
        dealt = Counter()
        per_seat = Counter()
        while self.peek() == EV_POWERS:
            _, seat, power = self.next(EV_POWERS, "a power card")[:3]
            if not 0 <= seat < self.players or not 1 <= power < len(POWER_NAMES):
                self.fail(f"power card {power} dealt to P{seat}")
            self.held[seat][power] += 1
            per_seat[seat] += 1
            dealt[power] += 1
            self.fired["powers_per_player"] += 1
        deck = Counter(self.rules.power_deck())
        if dealt - deck or sum(dealt.values()) != self.rules.powers_dealt(self.players) or \
                any(c > self.rules.powers_per_player for c in per_seat.values()):
            self.fail(f"power cards dealt {dict(dealt)} by seat {dict(per_seat)} do not fit the power deck "
                      f"{dict(deck)} and {self.rules.powers_per_player} per player")
        self.lines.append("Powers: " + ", ".join(
            f"P{s}=" + "+".join(POWER_NAMES[p] for p in sorted(self.held[s].elements())) for s in sorted(per_seat)))

    def use_power(self, allowed: tuple, when: str) -> tuple[int, int]:
        _, seat, power = self.next(EV_POWER, "a power")[:3]
        if not 0 <= seat < self.players or self.held[seat][power] <= 0:
            self.fail(f"P{seat} uses {POWER_NAMES[power] if 0 <= power < len(POWER_NAMES) else power}, "
                      "which they do not hold unused")
        if power not in allowed:
            self.fail(f"P{seat} uses {POWER_NAMES[power]} {when}, where it cannot be used")
        self.held[seat][power] -= 1
        self.used += 1
        self.fired[POWER_NAMES[power].lower().replace(" ", "_")] += 1
        return seat, power

    def check_peek(self, peeker: int, rows: list[dict], source: str) -> None:
        _, who, seat, slot, card = self.next(EV_PEEK, f"the peek of {source}")
        if who != peeker:
            self.fail(f"P{who} peeks, but {source} belongs to P{peeker}")
        if seat == who:
            self.fail(f"P{who} peeks at their own card with {source}")
        if not (0 <= seat < self.players) or rows[seat].get(slot) is None:
            self.fail(f"P{who} peeks at P{seat}'s slot {slot}, which holds no face-down card in play")
        if rows[seat][slot] != card:
            self.fail(f"P{who}'s peek says {CARD_NAMES[card]} but P{seat}'s slot {slot} holds {CARD_NAMES[rows[seat][slot]]}")
        self.peeks += 1
        self.known[who][(seat, slot)] = card
        self.lines.append(f"    P{who} peeks in secret at a card of P{seat}: {CARD_NAMES[card]}")

    def order_start(self, when: int, default: int) -> int:
        """The seat powers are offered from: a runestone spin (recorded) under power_order=runestone."""
        if self.peek() == EV_ORDER and self.events[self.pos][2] == when:
            start = self.next(EV_ORDER, "a runestone spin")[1]
            if self.rules.power_order != "runestone" or not 0 <= start < self.players:
                self.fail(f"a runestone spin for simultaneous powers (seat {start}) under power_order="
                          f"{self.rules.power_order}")
            self.lines.append(f"  the runestone is spun for simultaneous powers: P{start} first")
            return start
        return default

    def powers_before(self, rows: list[dict], runebearer: int) -> bool:
        """Powers used before the runebearer lets go; returns whether Hunter was used."""
        hunted = False
        start = self.order_start(0, runebearer)
        last = -1
        n = self.players
        while self.peek() == EV_POWER:
            seat, power = self.use_power((DIVINATOR, MENTOR, HUNTER, PREACHER, WITCH, INQUISITOR, BANDIT, TRICKSTER),
                                         "before a reveal")
            pos = (seat - start) % n
            if pos <= last:
                self.fail(f"P{seat} uses a power out of turn (offers go from P{start} clockwise, once each)")
            last = pos
            self.lines.append(f"  P{seat} uses {POWER_NAMES[power]}")
            if power == HUNTER:
                if seat != runebearer:
                    self.fail(f"P{seat} uses Hunter without holding the runestone")
                if hunted:
                    self.fail(f"P{seat} hunts twice before one reveal")
                hunted = True
                flips = self.rules.hunter_flips if any(rows) else 0
                for _ in range(flips):
                    self.check_flip(seat, rows, "Hunter", own_ok=True)
            elif power == INQUISITOR:
                if any(rows[p] for p in range(n) if p != seat):
                    self.check_flip(seat, rows, "Inquisitor", own_ok=False)
            elif power in (PREACHER, WITCH):
                self.convert(seat, power)
            elif power in (BANDIT, TRICKSTER):
                if self.peek() == EV_CARDSWAP:
                    self.card_swap(seat, power, rows)
                elif power == TRICKSTER or any(rows[p] for p in range(n) if p != seat):
                    self.fail(f"P{seat}'s {POWER_NAMES[power]} swaps no cards")
            else:
                times = self.rules.mentor_peeks if power == MENTOR else 1
                for k in range(times):
                    if not any(rows[p] for p in range(n) if p != seat):
                        break
                    self.check_peek(seat, rows, POWER_NAMES[power])
        return hunted

    def check_flip(self, user: int, rows: list[dict], source: str, own_ok: bool) -> None:
        _, who, seat2, slot, card = self.next(EV_FLIP, f"a card shown by {source}")
        if who != user:
            self.fail(f"P{who} shows a card for P{user}'s {source}")
        if seat2 == user and not own_ok:
            self.fail(f"P{user} uses {source} on their own card")
        if not (0 <= seat2 < self.players) or rows[seat2].get(slot) != card:
            self.fail(f"{source} shows P{seat2}'s slot {slot} as {CARD_NAMES[card]}, which is not there face down")
        self.lines.append(f"    shows a card of P{seat2} to all: {CARD_NAMES[card]} (turned back down)")

    def convert(self, user: int, power: int) -> None:
        _, who, target, new, pw = self.next(EV_CONVERT, f"the target of {POWER_NAMES[power]}")
        if who != user or pw != power:
            self.fail(f"a role change by P{who}'s {POWER_NAMES[pw]} follows P{user}'s {POWER_NAMES[power]}")
        if target == user or not 0 <= target < self.players:
            self.fail(f"P{user} uses {POWER_NAMES[power]} on P{target}: only another player may be chosen")
        if new != (HERO if power == PREACHER else CULTIST):
            self.fail(f"{POWER_NAMES[power]} makes P{target} a {ROLE_NAMES[new]}")
        # a Figure-of-Fate pair shares one role card
        root = self.fate.get(target, target)
        group = {target, root} | {p for p, q in self.fate.items() if q in (target, root)}
        for p in group:
            self.roles[p] = new
        self.lines.append(f"    P{target}'s role card becomes {ROLE_NAMES[new]}"
                          + (f" (shared with P{', P'.join(str(p) for p in sorted(group - {target}))})"
                             if len(group) > 1 else ""))

    def card_swap(self, user: int, power: int, rows: list[dict]) -> None:
        _, a, b, ca, cb = self.next(EV_CARDSWAP, f"the cards {POWER_NAMES[power]} swaps")
        (p1, s1), (p2, s2) = divmod(a, MAX_HAND), divmod(b, MAX_HAND)
        for p, s, c in ((p1, s1, ca), (p2, s2, cb)):
            if not 0 <= p < self.players or rows[p].get(s) != c:
                self.fail(f"{POWER_NAMES[power]} moves P{p}'s slot {s} as {c}, which is not there face down")
        if p1 == p2:
            self.fail(f"{POWER_NAMES[power]} swaps two cards of the same player")
        if power == BANDIT and (p2 != user or p1 == user):
            self.fail(f"P{user}'s Bandit must exchange a card of their own with another player's")
        if power == TRICKSTER and user in (p1, p2):
            self.fail(f"P{user}'s Trickster may not move their own cards")
        rows[p1][s1], rows[p2][s2] = cb, ca
        self.lines.append(f"    the cards in P{p1}'s slot {s1} and P{p2}'s slot {s2} change places")

    def artifact(self, card: int, who: int, rows: list[dict], roles: list[int]):
        """Apply a revealed artifact; returns (the revealer's role before a Figure of Fate or None,
        whether a Candle's peek happened)."""
        if card == CANDLE:
            if any(rows[p] for p in range(self.players) if p != who):
                self.check_peek(who, rows, "the Candle of Clairvoyance")
                self.fired["candle"] += 1
                return None, True
        elif card == FATE:
            _, revealer, partner, new, old = self.next(EV_FATE, "the Figure of Fate's choice")
            if revealer != who:
                self.fail(f"the Figure of Fate revealed by P{who} acts on P{revealer}")
            if not (0 <= partner < self.players) or partner == who:
                self.fail(f"P{who} binds their fate to P{partner}, not another player")
            if old != roles[who] or new != roles[partner]:
                self.fail(f"Figure of Fate gives P{who} role {new} (was {old}); expected {roles[partner]} "
                          f"(was {roles[who]})")
            roles[who] = new
            self.fate[who] = partner
            self.fired["fate"] += 1
            self.lines.append(f"    P{who} takes the role of P{partner}: now a {ROLE_NAMES[new]}"
                              + (" (unchanged)" if new == old else f" (was a {ROLE_NAMES[old]})"))
            return old, False
        return None, False

    def undo(self, rows: list[dict], seat: int, slot: int, card: int, runebearer: int) -> bool:
        """A Chosen One right after a reveal: the card goes back face down in its slot."""
        self.order_start(1, runebearer)
        if self.peek() != EV_POWER or self.events[self.pos][2] != CHOSEN:
            return False       # (a power used before the next reveal, or none)
        user, _ = self.use_power((CHOSEN,), "after a reveal")
        _, s2, slot2, card2 = self.next(EV_UNDO, "the undone reveal")[:4]
        if (s2, slot2, card2) != (seat, slot, card):
            self.fail(f"Chosen One undoes P{s2}'s slot {slot2}, but the last reveal was P{seat}'s slot {slot}")
        rows[seat][slot] = card
        self.undos += 1
        self.lines.append(f"  P{user} uses Chosen One: the {CARD_NAMES[card]} goes back face down; "
                          "the runebearer reveals again")
        return True

    def event(self, rnd: int, events_left: Counter) -> int:
        if not self.rules.events:
            return NO_EVENT
        _, r, event = self.next(EV_EVENT, "the round's event")[:3]
        skip = rnd == self.rules.skip_round()
        if r != rnd or (skip and event != NO_EVENT):
            self.fail(f"event {EVENT_NAMES[event]} in round {r + 1}, where {'none may be drawn' if skip else 'expected'}")
        if skip:
            self.fired["event_skip_round"] += 1
            return event
        deck = self.rules.event_deck()
        if self.rules.events_with_replacement or self.drawn < len(deck):
            if deck:
                self.fired["events_with_replacement"] += self.drawn > 0
                self.fired["blank_event" if event == NO_EVENT else EVENT_NAMES[event].lower()] += 1
            self.drawn += 1
        if event != NO_EVENT:
            if not self.rules.events_with_replacement:
                if events_left[event] <= 0:
                    self.fail(f"a {EVENT_NAMES[event]} card drawn more often than the event deck holds it")
                events_left[event] -= 1
            elif event not in deck:
                self.fail(f"a {EVENT_NAMES[event]} card drawn, which the event deck does not hold")
            self.lines.append(f"  event: {EVENT_NAMES[event]}")
        return event

    def set_aside(self, rows: list[dict]) -> None:
        for _ in range(self.rules.gluttony_cards):
            _, seat, slot, card = self.next(EV_ASIDE, "a card set aside by Gluttony")[:4]
            if rows[seat].get(slot) != card:
                self.fail(f"Gluttony sets aside P{seat}'s slot {slot} as {CARD_NAMES[card]}, which is not there")
            del rows[seat][slot]          # untouchable until the shuffle; the deck count keeps it
            self.lines.append(f"  Gluttony sets aside a card of P{seat}")

    def deal_roles(self) -> list[int]:
        self.roles = self._deal_roles()
        return self.roles

    def _deal_roles(self) -> list[int]:
        roles = [self.next(EV_ROLE, "a role")[1:3] for _ in range(self.players)]
        if [seat for seat, _ in roles] != list(range(self.players)):
            self.fail("roles are not dealt to every seat in order")
        undealt = self.next(EV_UNDEALT, "the undealt role")[1]
        heroes, cultists = self.rules.role_deck(self.players)
        dealt = Counter(r for _, r in roles)
        if undealt >= 0:
            dealt[undealt] += 1
        if dealt != Counter({HERO: heroes, CULTIST: cultists}) - Counter():
            self.fail(f"roles {dict(dealt)} do not match a deck of {heroes} heroes and {cultists} cultists")
        names = ", ".join(f"P{s}={ROLE_NAMES[r]}" for s, r in roles)
        self.lines.append(f"Roles: {names}" + (f"; undealt: {ROLE_NAMES[undealt]}" if undealt >= 0 else ""))
        return [r for _, r in roles]

    def deal(self, hand: int, deck: Counter) -> list[dict]:
        rows = [dict() for _ in range(self.players)]
        for _ in range(self.players * hand):
            _, seat, slot, card = self.next(EV_DEAL, "a dealt card")[:4]
            if not (0 <= seat < self.players and 0 <= slot < hand) or slot in rows[seat]:
                self.fail(f"card dealt to P{seat} slot {slot} is out of place")
            rows[seat][slot] = card
        dealt = Counter(c for row in rows for c in row.values())
        if dealt != +deck:
            self.fail(f"dealt {dict(dealt)}, but the search deck holds {dict(+deck)}")
        return rows

    def declare(self, rows, roles, hand, rb):
        for i in range(self.players):
            _, seat, claim = self.next(EV_CLAIM, "a declaration")[:3]
            if seat != (rb + i) % self.players:
                self.fail(f"P{seat} declares out of turn")
            if not (claim == SILENT or 0 <= claim <= 2 * hand + 1):
                self.fail(f"P{seat} makes an impossible claim {claim}")
            truth = sum(c == RELIC for c in rows[seat].values()) * 2 + any(c == DRAGON for c in rows[seat].values())
            verdict = "" if claim == SILENT else (" (true)" if claim == truth else " (a lie)")
            self.lines.append(f"  P{seat} ({ROLE_NAMES[roles[seat]]}) {describe_claim(claim)}{verdict}")

    def check_end(self, winner, mode, reveals, found, roles):
        _, w, m, r, rounds = self.next(EV_END, "the end of the game")
        if (w, m, r) != (winner, mode, reveals):
            self.fail(f"trace says {ROLE_NAMES[w]}s win by {END_NAMES[m]} after {r} reveals; "
                      f"replay gives {ROLE_NAMES[winner]}s by {END_NAMES[mode]} after {reveals}")
        rec = self.record
        if rec:
            expected = {"winner": winner, "end_mode": mode, "reveals": reveals, "relics_found": found,
                        "rounds": rounds}
            if "side_mask" in rec:
                expected.update(side_mask=sum(r << p for p, r in enumerate(roles)), powers_used=self.used,
                                peeks=self.peeks, undos=self.undos, artifacts_found=self.artifacts)
            for key, value in expected.items():
                if int(rec[key]) != value:
                    self.fail(f"games table says {key}={rec[key]}, replay gives {value}")
            for name in FIRED:
                key = "fired_" + name
                if key in rec and name not in ("power_order",) and int(rec[key]) != self.fired[name]:
                    self.fail(f"games table says {key}={rec[key]}, replay gives {self.fired[name]}")
            if int(rec["violations"]) != 0:
                self.fail(f"kernel counted {rec['violations']} invariant violations")
        why = {END_RELICS: "every relic found", END_DRAGON: "the dragon woke", END_TIME: "time ran out"}[mode]
        self.lines.append(f"{ROLE_NAMES[winner].capitalize()}s win: {why} ({reveals} reveals, {rounds} rounds)")


def referee(rules: DragonwakeRules, players: int, trace: Trace) -> list[str]:
    return Referee(rules, players, trace).run()
