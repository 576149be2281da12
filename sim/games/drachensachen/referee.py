"""Drachensachen referee: replays a trace from its recorded decks, checks every move, every automatic step
(draws, missed turns, starting players) and every score, and narrates the game.

It is a second, plain-Python implementation of the rules: it shares only the trace codes with the
kernel. Cards are type codes 1-9, 10 Nullo, 11 Extermino, 12 Protecto.
"""

from __future__ import annotations

from sim.engine.game import RefereeError
from sim.games.drachensachen.records import (
    ABILITY_NAMES, CARD_NAMES, CURSE_CHAOS, CURSE_MANY, CURSE_NAMES, CURSE_UNKNOWING, EXTERMINO, NULLO,
    PROTECTO, T_ABILITY, T_BALL, T_BLIND, T_CURSE, T_DECK, T_DISCARD, T_DRAW, T_ENVY, T_GAME_END, T_MISS,
    T_PEEK, T_PILE, T_PLAY, T_REFILL, T_ROUND, T_ROUND_END, T_SECRET, T_SETUP, T_SWAP, T_TAKE, T_TURN,
)
from sim.games.drachensachen.rules import DrachensachenRules

DRAGONS = (NULLO, EXTERMINO, PROTECTO)
TYPES = range(1, 13)
# columns each trace row uses after its code (the rest must be 0); NO_SEAT rows hold -1 as their seat
USED = {T_ROUND: 4, T_SETUP: 4, T_DECK: 7, T_PILE: 2, T_SWAP: 3, T_PLAY: 4, T_BLIND: 3, T_TAKE: 2, T_DRAW: 3,
        T_MISS: 2, T_DISCARD: 2, T_PEEK: 4, T_BALL: 3, T_TURN: 2, T_SECRET: 2, T_ENVY: 2, T_REFILL: 2,
        T_ROUND_END: 7, T_CURSE: 2, T_ABILITY: 2, T_GAME_END: 3}
NO_SEAT = (T_PILE, T_ABILITY)
# game-row columns the referee recounts on its own
CHECKED_COLUMNS = ("rounds", "stalemate_rounds", "stalemate", "winner", "loser", "first_starter", "turns",
                   "plays", "pickups", "blind_fails", "burns", "discards", "exterminos", "cards_drawn",
                   "skips", "starter_out")


def card(t: int) -> str:
    return CARD_NAMES[t] if 0 < t < len(CARD_NAMES) else f"?{t}"


def cards(t: int, k: int) -> str:
    return card(t) if k == 1 else f"{k}× {card(t)}"


def plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


class Player:
    """A seat's cards: hand and open row counted by type, face-down cards in deal order (with running
    totals of the hand and the open row, kept in step with every change)."""
    __slots__ = ("hand", "open", "hidden", "hn", "on")

    def __init__(self):
        self.hand = [0] * 13
        self.open = [0] * 13
        self.hidden: list[int] = []
        self.hn = 0
        self.on = 0

    def hand_n(self) -> int:
        return self.hn

    def open_n(self) -> int:
        return self.on

    def total(self) -> int:
        return self.hn + self.on + len(self.hidden)


class Referee:
    """Replays one game. `step()` consumes one trace row; the state is public for tests."""

    def __init__(self, rules: DrachensachenRules, players: int, trace, narrate: bool = True):
        self.r = rules
        self.n = players
        self.rows = trace.events.tolist()
        self.record = dict(trace.record)
        self.narrate = narrate
        self.lines: list[str] = []
        self.i = 0
        self.counts = [0] + list(rules.card_counts)
        self.lost = [0] * players
        self.enabled = [a for a, on in enumerate(rules.abilities()) if on]
        self.active: set[int] = set()
        self.curse_next = [-1] * players
        self.tally = dict.fromkeys(CHECKED_COLUMNS, 0)
        self.rnd = 0
        self.last_starter = -1
        self.game_over = False

    # ---- reading the trace -----------------------------------------------------------------------
    def fail(self, text: str):
        raise RefereeError(f"row {self.i}: {text}")

    def peek(self) -> int:
        return self.rows[self.i][0] if self.i < len(self.rows) else 0

    def take(self, code: int, what: str) -> tuple:
        if self.i >= len(self.rows):
            raise RefereeError(f"trace ends early: expected {what}")
        row = self.rows[self.i]
        if row[0] != code:
            self.fail(f"expected {what}, found trace code {row[0]}")
        if any(row[1 + USED[code]:]) or (code in NO_SEAT and row[1] != -1):
            self.fail(f"malformed row {row}")
        self.i += 1
        return row

    def take_seat(self, code: int, q: int, what: str) -> tuple:
        row = self.take(code, what)
        if row[1] != q:
            self.i -= 1
            self.fail(f"{what} by seat {row[1]}, expected seat {q}")
        return row

    def say(self, text: str):
        if self.narrate:
            self.lines.append(text)

    # ---- the game --------------------------------------------------------------------------------
    def run(self) -> list[str]:
        r = self.r
        if r.abilities_from_start:
            for _ in self.enabled:
                self.activate()
        while not self.game_over:
            self.play_round()
        if self.i != len(self.rows):
            self.fail(f"{len(self.rows) - self.i} rows after the end of the game")
        self.check_record()
        return self.lines

    def activate(self):
        a = self.take(T_ABILITY, "an ability joining the game")[2]
        if a not in self.enabled or a in self.active:
            self.fail(f"ability {a} cannot join (enabled {self.enabled}, active {sorted(self.active)})")
        self.active.add(a)
        if self.narrate:
            self.say(f"  ability in play: {ABILITY_NAMES[a]}")

    def play_round(self):
        r, n = self.r, self.n
        chaos = CURSE_CHAOS in self.curse_next
        curses = list(self.curse_next)
        if chaos:
            kinds = [k for k, on in ((CURSE_MANY, r.curse_many_monsters), (CURSE_UNKNOWING, r.curse_unknowing))
                     if on]
            curses = [-1] * n
            if kinds:
                for q in range(n):
                    _, seat, kind = self.take(T_CURSE, "a curse drawn under Chaos")[:3]
                    if seat != q or kind not in kinds:
                        self.fail(f"Chaos curse for seat {seat} of kind {kind}; expected seat {q}, kinds {kinds}")
                    curses[q] = kind
        self.curse_next = [-1] * n
        _, starter, rnd, chaos_flag, preset = self.take(T_ROUND, "a new round")[:5]
        if preset not in (0, 1) or (preset and rnd != 0):
            self.fail(f"a preset deal is only possible in the first round (flag {preset})")
        if rnd != self.rnd or chaos_flag != int(chaos):
            self.fail(f"round {rnd} (Chaos {chaos_flag}); expected round {self.rnd} (Chaos {int(chaos)})")
        if self.rnd > 0 and starter != self.expected_starter():
            self.fail(f"seat {starter} starts; the rules give seat {self.expected_starter()}")
        if not 0 <= starter < n:
            self.fail(f"starting seat {starter}")
        if self.rnd == 0:
            self.tally["first_starter"] = starter
        if self.narrate:
            self.say(f"Round {rnd + 1}: seat {starter} starts" + (" (Chaos: all cards in the redraw pile)" if chaos else ""))
        sizes = []
        for q in range(n):
            _, seat, hand, hidden, opened = self.take(T_SETUP, "a seat's set-up")[:5]
            want = (r.curse_hand_cards if curses[q] == CURSE_MANY else r.hand_cards,
                    r.curse_hidden_cards if curses[q] == CURSE_UNKNOWING else r.hidden_cards,
                    r.curse_open_cards if curses[q] == CURSE_UNKNOWING else r.open_cards)
            if seat != q or (not preset and (hand, hidden, opened) != want):
                self.fail(f"seat {seat} set up with {hand}/{hidden}/{opened}; expected seat {q} with {want}")
            sizes.append((hand, hidden, opened))
        deck = self.read_deck()
        self.deal(deck, sizes, chaos)
        while self.peek() == T_SWAP:
            self.swap()
        out, turns = self.play_turns(starter, sizes)
        self.end_round(starter, out, turns)
        self.last_starter = starter

    def expected_starter(self) -> int:
        most = max(self.lost)
        for i in range(1, self.n + 1):
            q = (self.last_starter + i) % self.n
            if self.lost[q] == most:
                return q
        return -1

    def read_deck(self) -> list[int]:
        size = sum(self.counts)
        deck: list[int] = []
        while len(deck) < size:
            row = self.take(T_DECK, "the shuffled deck")
            if row[1] != len(deck):
                self.fail(f"deck rows out of order at card {row[1]}")
            deck += [c for c in row[2:8]][:size - len(deck)]
        for t in TYPES:
            if deck.count(t) != self.counts[t]:
                self.fail(f"the deck holds {deck.count(t)} cards of type {card(t)}, not {self.counts[t]}")
        return deck

    def deal(self, deck: list[int], sizes, chaos: bool):
        self.seats = [Player() for _ in range(self.n)]
        pos = 0
        for q, (hand, hidden, opened) in enumerate(sizes):
            p = self.seats[q]
            p.hidden = deck[pos:pos + hidden]
            pos += hidden
            for c in deck[pos:pos + opened]:
                p.open[c] += 1
            pos += opened
            for c in deck[pos:pos + hand]:
                p.hand[c] += 1
            pos += hand
            p.hn, p.on = hand, opened
        rest = len(deck) - pos
        want = rest if chaos else min(self.r.redraw_pile, rest)
        got = self.take(T_PILE, "the redraw pile")[2]
        if got != want:
            self.fail(f"redraw pile of {got} cards; expected {want}")
        self.redraw = deck[pos:pos + want]
        self.out_of_round = deck[pos + want:]
        self.swaps = [0] * self.n
        # the pile and what it demands of the next player
        self.pile: list[int] = []
        self.beat = 0
        self.low3 = False
        self.no_dragon = False
        self.no_nine = False
        self.draw_due = 0
        self.skips_due = 0
        self.forced = 0
        self.skip_src = -1
        self.quick = False
        self.direction = 1

    def swap(self):
        _, q, ht, ot = self.take(T_SWAP, "an exchange")[:4]
        p = self.seats[q]
        if self.swaps[q] >= self.r.exchanges or ht == ot or p.hand[ht] < 1 or p.open[ot] < 1:
            self.fail(f"seat {q} cannot exchange hand {card(ht)} for open {card(ot)}")
        self.swaps[q] += 1
        p.hand[ht] -= 1
        p.open[ht] += 1
        p.open[ot] -= 1
        p.hand[ot] += 1
        if self.narrate:
            self.say(f"  seat {q} lays {card(ht)} open and takes up {card(ot)}")

    # ---- rules of a play -------------------------------------------------------------------------
    def run_on_top(self) -> tuple[int, int]:
        """(type, length) of the run of equal cards on top of the pile."""
        if not self.pile:
            return 0, 0
        top = self.pile[-1]
        k = 0
        for c in reversed(self.pile):
            if c != top:
                break
            k += 1
        return top, k

    def may_play(self, t: int) -> bool:
        if t in DRAGONS:
            return not self.no_dragon
        if t == 9 and self.no_nine:
            return False
        if self.low3:
            return t < 3 or (t == 3 and self.r.three_allows_three)
        if t >= self.beat:
            return True
        return t == 1 and self.beat == 9 and 2 in self.active

    def check_play(self, q: int, t: int, nh: int, no: int, allowed: tuple | None):
        """Raise unless seat q may play nh hand + no open cards of type t now."""
        p = self.seats[q]
        if not 1 <= t <= 12 or nh < 0 or no < 0 or nh + no < 1:
            self.fail(f"seat {q} plays {nh}+{no} of type {t}")
        if allowed is not None and t not in allowed:
            self.fail(f"seat {q} plays {card(t)}; only {', '.join(card(a) for a in allowed)} answer here")
        hn = p.hand_n()
        if hn > 0:
            if nh < 1 or p.hand[t] < nh:
                self.fail(f"seat {q} must play from a hand holding {p.hand[t]} of {card(t)}, plays {nh}")
            if no > 0 and not (nh == hn and p.open[t] >= no):
                self.fail(f"seat {q} adds {no} open {card(t)} without playing the whole hand")
        else:
            if nh != 0 or p.open_n() == 0 or p.open[t] < no:
                self.fail(f"seat {q} plays {nh} hand + {no} open {card(t)} from an empty hand / open row")
        if not self.may_play(t):
            self.fail(f"seat {q} plays {card(t)} on {self.describe_pile()}")
        top, k = self.run_on_top()
        if (k if top == t else 0) + nh + no > 4:
            self.fail(f"seat {q} makes more than four {card(t)} in a row")

    def describe_pile(self) -> str:
        if not self.pile:
            return "an empty pile"
        what = f"{card(self.pile[-1])} (to beat: {self.beat}"
        if self.low3:
            what += ", lower than 3"
        if self.no_dragon:
            what += ", no dragon"
        if self.no_nine:
            what += ", no 9"
        return what + ")"

    def land(self, q: int, t: int, k: int) -> str:
        """k cards of type t have gone onto the pile: the pile's new demands; returns 'out', 'extra' or 'next'."""
        p = self.seats[q]
        self.pile += [t] * k
        self.tally["plays"] += 1
        if p.total() == 0:
            return "out"
        top, run = self.run_on_top()
        result = "next"
        if run >= 4:
            if self.narrate:
                self.say(f"    four {card(t)} in a row: the pile leaves the round; seat {q} plays again")
            self.clear_pile(removed=True)
            self.tally["burns"] += 1
            result = "extra"
        elif t == EXTERMINO:
            if self.narrate:
                self.say(f"    Extermino removes the pile; seat {q} plays again")
            self.clear_pile(removed=True)
            self.tally["exterminos"] += 1
            if self.r.extermino_stays:
                for _ in range(k):
                    self.out_of_round.remove(EXTERMINO)
                self.pile = [EXTERMINO] * k
                self.no_nine = True
            result = "extra"
        elif t == PROTECTO:
            self.no_nine = True
            if self.r.house_protecto and k > 1:
                self.forced = k - 1
        elif t == NULLO:
            self.beat, self.low3, self.no_dragon, self.no_nine = 0, False, False, True
            self.draw_due = 0
            if 0 in self.active:
                result = "extra"
                self.quick = True
        else:
            self.beat, self.low3, self.no_dragon, self.no_nine = t, t == 3, t == 6, False
            if t == 4:
                self.draw_due += 2 * k
            elif t == 5:
                if not (self.skips_due > 0 and self.r.house_fives_pass):
                    self.skips_due += k
                self.skip_src = q
        if t in DRAGONS and 1 in self.active:
            got = self.take_seat(T_ENVY, q, "the Envious Monsters draw")[2]
            want = min(1, len(self.redraw))
            if got != want:
                self.fail(f"Envious Monsters draws {got}, expected {want}")
            self.draw(q, got)
            if got:
                if self.narrate:
                    self.say(f"    Envious Monsters: seat {q} draws a card")
        if t == 2 and 3 in self.active and p.hand_n() > 0:
            _, seat, target, c = self.take(T_BALL, "the Monsterball")[:4]
            if seat != q or target == q or not 0 <= target < self.n or not 1 <= c <= 12 or p.hand[c] < 1:
                self.fail(f"Monsterball: seat {q} cannot give {card(c)} to seat {target}")
            p.hand[c] -= 1
            p.hn -= 1
            self.seats[target].hand[c] += 1
            self.seats[target].hn += 1
            if self.narrate:
                self.say(f"    Monsterball: seat {target} takes a {card(c)} from seat {q}")
            if p.total() == 0:
                return "out"
        elif t == 9 and 6 in self.active and p.open_n() > 0:
            _, seat, c = self.take(T_SECRET, "the Open Secrets card")[:3]
            if seat != q or not 1 <= c <= 12 or p.open[c] < 1:
                self.fail(f"Open Secrets: seat {q} has no open {card(c)}")
            p.open[c] -= 1
            p.hand[c] += 1
            p.on -= 1
            p.hn += 1
            if self.narrate:
                self.say(f"    Open Secrets: seat {q} takes the open {card(c)} up")
        elif t == 7 and 4 in self.active:
            _, seat, rev = self.take(T_TURN, "the Roundabout choice")[:3]
            if seat != q or rev not in (0, 1):
                self.fail(f"Roundabout choice {rev} by seat {seat}")
            if rev:
                if self.narrate:
                    self.say(f"    Roundabout: seat {q} reverses the direction")
                if self.n == 2:
                    if result == "next":
                        result = "extra"
                else:
                    self.direction = -self.direction
        return result

    def clear_pile(self, removed: bool):
        if removed:
            self.out_of_round += self.pile
        self.pile = []
        self.beat, self.low3, self.no_dragon, self.no_nine = 0, False, False, False
        self.draw_due = self.skips_due = self.forced = 0

    def take_pile(self, q: int):
        for c in self.pile:
            self.seats[q].hand[c] += 1
        self.seats[q].hn += len(self.pile)
        self.clear_pile(removed=False)
        self.tally["pickups"] += 1

    def draw(self, q: int, k: int):
        for c in self.redraw[:k]:
            self.seats[q].hand[c] += 1
        self.seats[q].hn += len(self.redraw[:k])
        self.redraw = self.redraw[k:]

    # ---- turns -----------------------------------------------------------------------------------
    def play_turns(self, starter: int, sizes) -> tuple[int, int]:
        """Replay turns until the round ends; returns (seat out or -1, turns played)."""
        q = starter
        turns = 0
        while self.peek() != T_ROUND_END:
            turns += 1
            if turns > self.r.turn_cap:
                self.fail(f"turn {turns} is past the turn cap of {self.r.turn_cap}")
            result = self.turn(q)
            if result == "out":
                if self.peek() != T_ROUND_END:
                    self.fail(f"seat {q} has no cards left but the round goes on")
                return q, turns
            if result != "missed" and self.r.refill_hand:
                need = sizes[q][0] - self.seats[q].hand_n()
                got = min(max(need, 0), len(self.redraw))
                if got > 0:
                    row = self.take(T_REFILL, "a refill")
                    if row[1] != q or row[2] != got:
                        self.fail(f"refill of {row[2]} for seat {row[1]}; expected {got} for seat {q}")
                    self.draw(q, got)
                    if self.narrate:
                        self.say(f"    seat {q} draws {got} back up")
            self.tally["turns"] += 1
            if result != "extra":
                q = (q + self.direction) % self.n
        if turns != self.r.turn_cap:
            self.fail(f"the round stops after {turns} turns with nobody out (cap {self.r.turn_cap})")
        return -1, turns

    def turn(self, q: int) -> str:
        """One turn of seat q; returns 'next', 'extra', 'out' or 'missed'."""
        r = self.r
        p = self.seats[q]
        row = self.rows[self.i] if self.i < len(self.rows) else (0,)
        if len(row) < 2 or row[1] != q:
            self.fail(f"expected seat {q} to act, found {row}")
        if self.forced > 0:
            if row[0] != T_MISS or row[2] != 1:
                self.fail(f"seat {q} is skipped by several Protectos and may not act")
            self.forced -= 1
            return self.miss_turn(q, "is passed over")
        quick, self.quick = self.quick, False
        if self.skips_due > 0 and q == self.skip_src and r.fives_spare_player:
            self.skips_due = 0
            if self.narrate:
                self.say(f"  the missed turns from seat {q}'s own 5s stop at seat {q}")
        if (self.skips_due > 0 or self.draw_due > 0) and r.discard_facing:
            while self.peek() == T_DISCARD:
                if self.discard(q):
                    return "out"
            row = self.rows[self.i] if self.i < len(self.rows) else (0, -1)
        hidden_only = p.hand_n() == 0 and p.open_n() == 0
        if self.skips_due > 0:
            if row[0] == T_MISS and row[2] == 0:
                self.skips_due -= 1
                return self.miss_turn(q, "misses the turn")
            if row[0] != T_PLAY or hidden_only:
                self.fail(f"seat {q} must miss the turn or answer with Protecto{' / 5s' if r.house_fives else ''}")
            return self.play(q, (PROTECTO, 5) if r.house_fives else (PROTECTO,))
        if self.draw_due > 0:
            if row[0] == T_DRAW:
                self.take(T_DRAW, "a draw")
                want = min(self.draw_due, len(self.redraw))
                if row[2] != self.draw_due or row[3] != want:
                    self.fail(f"seat {q} draws {row[3]} of {row[2]}; expected {want} of {self.draw_due}")
                self.draw(q, want)
                self.tally["cards_drawn"] += want
                if self.narrate:
                    self.say(f"  seat {q} draws {plural(want, 'card')}")
                self.draw_due = 0
            elif row[0] == T_PEEK:
                if not (hidden_only and r.house_fours):
                    self.fail(f"seat {q} may not look at a face-down card")
                return self.peek_card(q)
            elif row[0] == T_PLAY and not hidden_only:
                answers = (4, PROTECTO) + ((NULLO, EXTERMINO) if r.dragons_cancel_draw else ())
                return self.play(q, answers)
            else:
                self.fail(f"seat {q} must draw {self.draw_due} or push the draw on")
        while True:
            row = self.rows[self.i] if self.i < len(self.rows) else (0, -1)
            if row[1] != q:
                self.fail(f"expected seat {q} to go on, found {row}")
            hidden_only = p.hand_n() == 0 and p.open_n() == 0
            if row[0] == T_DISCARD:
                if self.discard(q):
                    return "out"
                continue
            if hidden_only:
                if row[0] != T_BLIND:
                    self.fail(f"seat {q} has only face-down cards and must play one blind")
                return self.blind(q)
            if row[0] == T_TAKE:
                self.take(T_TAKE, "taking the pile")
                if row[2] != len(self.pile):
                    self.fail(f"seat {q} takes {row[2]} cards from a pile of {len(self.pile)}")
                if not self.pile and self.any_play(q):
                    self.fail(f"seat {q} passes on an empty pile")
                if quick and r.nullo_quick_must_play and (self.any_play(q) or self.any_set(q)):
                    self.fail(f"seat {q} takes the pile in the extra turn of a quick Nullo but could play")
                if self.narrate:
                    self.say(f"  seat {q} takes the pile ({plural(len(self.pile), 'card')})")
                self.take_pile(q)
                return "next"
            if row[0] != T_PLAY:
                self.fail(f"seat {q} must play, put out four, or take the pile; found code {row[0]}")
            return self.play(q, None)

    def discard(self, q: int) -> bool:
        """A set of four put out from the hand; True when it was the player's last card."""
        p = self.seats[q]
        row = self.take_seat(T_DISCARD, q, "a set of four put out")
        t = row[2]
        if not 1 <= t <= 12 or p.hand[t] < 4:
            self.fail(f"seat {q} puts out four {card(t)} holding {p.hand[t] if 1 <= t <= 12 else 0}")
        p.hand[t] -= 4
        p.hn -= 4
        self.out_of_round += [t] * 4
        self.tally["discards"] += 1
        if self.narrate:
            self.say(f"  seat {q} puts out four {card(t)}")
        return p.total() == 0

    def any_set(self, q: int) -> bool:
        p = self.seats[q]
        return p.hand_n() >= 4 and any(p.hand[t] >= 4 for t in TYPES)

    def any_play(self, q: int) -> bool:
        p = self.seats[q]
        source = p.hand if p.hand_n() > 0 else p.open
        return any(source[t] and self.may_play(t) for t in TYPES)

    def play(self, q: int, allowed) -> str:
        _, _, t, nh, no = self.take(T_PLAY, "a play")[:5]
        self.check_play(q, t, nh, no, allowed)
        p = self.seats[q]
        p.hand[t] -= nh
        p.open[t] -= no
        p.hn -= nh
        p.on -= no
        where = "" if no == 0 else (f" ({no} from the open row)" if nh else " from the open row")
        if self.narrate:
            self.say(f"  seat {q} plays {cards(t, nh + no)}{where}")
        return self.land(q, t, nh + no)

    def blind(self, q: int) -> str:
        _, _, c, fits = self.take(T_BLIND, "a blind card")[:4]
        p = self.seats[q]
        if not p.hidden or p.hidden[-1] != c:
            self.fail(f"seat {q} turns up {card(c)}, but the top face-down card is "
                      f"{card(p.hidden[-1]) if p.hidden else 'missing'}")
        p.hidden.pop()
        top, k = self.run_on_top()
        ok = self.may_play(c) and (k if top == c else 0) < 4
        if fits not in (0, 1) or ok != bool(fits):
            self.fail(f"blind {card(c)} on {self.describe_pile()} recorded as {'fitting' if fits else 'failing'}")
        if ok:
            if self.narrate:
                self.say(f"  seat {q} plays face-down {card(c)}")
            return self.land(q, c, 1)
        return self.misfit(q, c, f"  seat {q} turns up {card(c)}, which does not fit, and takes the pile")

    def peek_card(self, q: int) -> str:
        _, _, c, outcome, got = self.take(T_PEEK, "a peek")[:5]
        p = self.seats[q]
        if not p.hidden or p.hidden[-1] != c:
            self.fail(f"seat {q} looks at {card(c)}, which is not the top face-down card")
        p.hidden.pop()
        pushes = c in (4, PROTECTO) or (self.r.dragons_cancel_draw and c in (NULLO, EXTERMINO))
        if pushes and self.may_play(c):
            if outcome != 0:
                self.fail(f"peeked {card(c)} could push the draw (recorded outcome {outcome})")
            if self.narrate:
                self.say(f"  seat {q} looks at a face-down card: {card(c)}, and pushes the draw on")
            return self.land(q, c, 1)
        want = min(self.draw_due, len(self.redraw))
        if got != want:
            self.fail(f"after peeking seat {q} draws {got}, expected {want}")
        self.draw(q, want)
        self.tally["cards_drawn"] += want
        self.draw_due = 0
        if self.may_play(c):
            if outcome != 1:
                self.fail(f"peeked {card(c)} fits after drawing (recorded outcome {outcome})")
            if self.narrate:
                self.say(f"  seat {q} looks at {card(c)}, draws {want}, and plays it")
            return self.land(q, c, 1)
        if outcome != 2:
            self.fail(f"peeked {card(c)} does not fit (recorded outcome {outcome})")
        return self.misfit(q, c, f"  seat {q} looks at {card(c)}, draws {want}, and takes the pile with it")

    def misfit(self, q: int, c: int, line: str) -> str:
        """A face-down card that does not fit: it goes on the pile and seat q takes the pile with it."""
        if self.narrate:
            self.say(line)
        self.pile.append(c)
        self.tally["blind_fails"] += 1
        self.take_pile(q)
        return "next"

    def miss_turn(self, q: int, words: str) -> str:
        """Seat q's recorded missed turn (a Protecto or a 5 skips it)."""
        self.take(T_MISS, "a missed turn")
        self.tally["skips"] += 1
        if self.narrate:
            self.say(f"  seat {q} {words}")
        return "missed"

    # ---- scoring ---------------------------------------------------------------------------------
    def loss(self, q: int) -> int:
        p = self.seats[q]
        held = [0] * 13
        for t in TYPES:
            held[t] = p.hand[t] + p.open[t]
        back = 0
        if self.r.hidden_gold_from_back:
            back = len(p.hidden) * self.r.back_coins
        else:
            for c in p.hidden:
                held[c] += 1
        coins = [0] + list(self.r.coins_per_card)
        if 5 in self.active:
            coins[8] = -coins[8]
        return min(sum(held[t] * coins[t] for t in TYPES) + back, self.r.max_loss_per_round)

    def end_round(self, starter: int, out: int, turns: int):
        for q, p in enumerate(self.seats):
            if p.hn != sum(p.hand) or p.on != sum(p.open) or min(p.hand) < 0 or min(p.open) < 0:
                self.fail(f"seat {q}'s cards went out of step")
        row = self.take(T_ROUND_END, "the end of the round")
        if row[1] != out:
            self.fail(f"round ends with seat {row[1]} out; the referee has {out}")
        scored = out >= 0 or self.r.stalemate_scores
        losses = [self.loss(q) if scored else 0 for q in range(self.n)]
        recorded = list(row[2:2 + self.n])
        if recorded != losses or any(row[2 + self.n:]):
            self.fail(f"round losses {recorded}; the referee counts {losses}")
        self.tally["rounds"] += 1
        if out < 0:
            self.tally["stalemate_rounds"] += 1
            if self.narrate:
                self.say(f"Round {self.rnd + 1}: stalemate after {turns} turns" + ("" if scored else " (no coins change hands)"))
        else:
            self.tally["starter_out"] += out == starter
            self.tally["turns"] += 1   # the turn in which the player went out
            if self.narrate:
                self.say(f"Round {self.rnd + 1}: seat {out} is out after {turns} turns")
        for q in range(self.n):
            self.lost[q] += losses[q]
        if self.narrate:
            self.say("  coins lost: " + ", ".join(f"seat {q} {losses[q]} (total {self.lost[q]})" for q in range(self.n)))
        self.rnd += 1
        fewest = min(self.lost)
        if max(self.lost) >= self.r.game_end_loss and self.lost.count(fewest) == 1:
            self.finish(self.lost.index(fewest))
            return
        if self.rnd >= self.r.max_rounds:
            self.tally["stalemate"] = 1
            self.finish(-1)
            return
        if out >= 0 and self.r.any_curse():
            _, seat, kind = self.take(T_CURSE, "the winner's curse")[:3]
            on = (self.r.curse_many_monsters, self.r.curse_unknowing, self.r.curse_chaos)
            if seat != out or not 0 <= kind < 3 or not on[kind]:
                self.fail(f"curse {kind} for seat {seat}; the round's winner is seat {out}")
            self.curse_next[out] = kind
            if self.narrate:
                self.say(f"  seat {out} draws the curse {CURSE_NAMES[kind]}")
        if len(self.active) < len(self.enabled):
            self.activate()

    def finish(self, winner: int):
        _, w, loser, rounds = self.take(T_GAME_END, "the end of the game")[:4]
        most = max(self.lost)
        if w != winner or loser != self.lost.index(most) or rounds != self.rnd:
            self.fail(f"game ends with winner {w}, loser {loser} after {rounds} rounds; the referee has "
                      f"{winner}, {self.lost.index(most)} after {self.rnd}")
        self.tally["winner"] = winner
        self.tally["loser"] = loser
        self.game_over = True
        if self.narrate:
            self.say(f"Game over after {self.rnd} rounds: " +
                     (f"seat {winner} wins with {self.lost[winner]} coins lost" if winner >= 0 else "stalemate, no winner"))

    def check_record(self):
        """The kernel's games row agrees with what the referee counted."""
        for col in CHECKED_COLUMNS:
            if col in self.record and int(self.record[col]) != self.tally[col]:
                raise RefereeError(f"games table says {col} = {self.record[col]}, the referee counts {self.tally[col]}")
        for q in range(self.n):
            col = f"lost{q}"
            if col in self.record and int(self.record[col]) != self.lost[q]:
                raise RefereeError(f"games table says {col} = {self.record[col]}, the referee counts {self.lost[q]}")


def referee(rules: DrachensachenRules, players: int, trace, narrate: bool = True) -> list[str]:
    """Replay one trace; returns its play-by-play (raises RefereeError at the first wrong row)."""
    return Referee(rules, players, trace, narrate).run()
