"""Drarkane referee: replays one game's trace in plain Python and checks it against the rules.

Written independently of the kernel: it rebuilds the hands from the recorded deck order, checks every bid,
card, placement, exchange and objective, recomputes trick winners, defeats and scores, and raises
RefereeError at the first step that disagrees. It returns the game as readable lines (`dsim replay`).
"""

from __future__ import annotations

import numpy as np

from sim.engine.game import RefereeError, Trace
from sim.games.drarkane.records import (
    ARCANA, C_DEFEAT_COLOUR, C_DEFEAT_IN_TRICK, C_DEFEAT_RESISTANCE, C_DRAGON_COLOURS, C_DRAGONS_REACHED,
    C_EXACT_AT_LEAST, C_EXACT_CONTRACT_OF, C_FEWEST_TRICKS, C_MOST_DRAGONS, C_MOST_TERROR, C_MOST_TRICKS,
    C_NO_DRAGON_TRICKS, C_NO_TRICKS, C_OFF_BY, C_TRICKS_REACHED, C_WIN_BOTH_WIZARDS, C_WIN_IN_A_ROW,
    C_WIN_TRICK_NUMBER, C_WIN_WITH_AT_MOST, C_WIN_WITH_TRUMPS, C_WIN_WITH_VALUE, C_WON_LAST_TRICK, EGG,
    EV_BID, EV_DECK, EV_DEFEAT, EV_DISCARD, EV_DRAFT, EV_DRAGON_DECK, EV_DRAW, EV_FINAL, EV_GAME_END, EV_GIVE,
    EV_OBJ_DECK, EV_OBJ_DONE, EV_OFFER, EV_OVERFLOW, EV_PLACE, EV_PLAY, EV_REPLY, EV_RESHUFFLE, EV_REVEAL,
    EV_ROUND, EV_ROUND_END, EV_SCORE, EV_TRICK, INSTANT, MERCENARY, MODE_FALLEN_KING, MODE_SOLO, OBJECTIVE_NAMES,
    OBSCURE, WIZ_HIGH, WIZ_LOW,
)
from sim.games.drarkane.rules import DrarkaneRules, card_name, dragon_name

EVENT_NAMES = {v: k for k, v in globals().items() if k.startswith("EV_")}


# ---- the rules, restated -----------------------------------------------------------------------------

def led_colour(rules: DrarkaneRules, trick: list[tuple[int, int, int]]) -> int:
    """Colour of the first arcana card played, -1 if none yet."""
    for _, card, _ in trick:
        if rules.cards[card][0] == ARCANA:
            return rules.cards[card][1]
    return -1


def is_legal(rules: DrarkaneRules, hand: list[int], trick, card: int, mode: int) -> str:
    """'' when the card may be played now, else the reason it may not."""
    if card not in hand:
        return f"{card_name(rules, card)} is not in the hand"
    kind = rules.cards[card][0]
    if mode not in (0, 1) or (mode == 1 and kind != MERCENARY):
        return f"mode {mode} is only for the Mercenary played as 0"
    led = led_colour(rules, trick)
    if kind != ARCANA or led < 0:
        return ""       # influence cards go anywhere; nothing to follow yet
    holds_led = any(rules.cards[c][0] == ARCANA and rules.cards[c][1] == led for c in hand)
    if holds_led and rules.cards[card][1] != led:
        return f"must follow {['blue', 'red', 'green', 'yellow'][led]}"
    return ""


def played_value(rules: DrarkaneRules, card: int, mode: int) -> int:
    kind, _, strength = rules.cards[card]
    return 0 if kind == EGG or (kind == MERCENARY and mode == 1) else strength


def trick_winner(rules: DrarkaneRules, trick) -> int:
    """Position of the winning card in the trick."""
    kinds = [rules.cards[c][0] for _, c, _ in trick]
    low = WIZ_LOW in kinds
    high = WIZ_HIGH in kinds
    led = led_colour(rules, trick)
    contenders = []         # (position, value, how it ranks)
    for pos, (_, card, mode) in enumerate(trick):
        kind, colour, strength = rules.cards[card]
        if kind in (WIZ_LOW, WIZ_HIGH):
            continue
        zero = kind == EGG or (kind == MERCENARY and mode == 1)
        if low and not high:
            if zero and rules.egg_loses_under_low_wizard:
                continue
            contenders.append((pos, -played_value(rules, card, mode)))
        elif high and not low:
            if not zero:
                contenders.append((pos, strength))
        else:
            if zero:
                continue
            if kind in (OBSCURE, MERCENARY):
                contenders.append((pos, 300 + strength))
            elif colour == rules.trump_colour:
                contenders.append((pos, 200 + strength))
            elif colour == led:
                contenders.append((pos, 100 + strength))
    if contenders:
        best = max(v for _, v in contenders)
        return min(p for p, v in contenders if v == best)      # ties go to the first played
    for pos, k in enumerate(kinds):
        if k not in (WIZ_LOW, WIZ_HIGH):
            return pos
    return 0


# ---- the replay ----------------------------------------------------------------------------------

class Replay:
    def __init__(self, rules: DrarkaneRules, players: int, trace: Trace, verbose: bool = True):
        self.verbose = verbose
        self.r = rules
        self.players = players
        self.mode, self.seats, self.hand_size, self.auto = rules.table(players)
        events = trace.events
        if len(events) and events[-1][0] == EV_OVERFLOW:
            raise RefereeError("trace truncated (the trace buffer overflowed)")
        used = np.flatnonzero(events[:, 0]) if len(events) else []
        self.rows = [tuple(row) for row in events[:used[-1] + 1].tolist()] if len(used) else []
        self.record = trace.record
        self.i = 0
        self.out: list[str] = []
        self.deck_cards = set(rules.deck(players).tolist())
        self.teams = rules.teams and self.mode == 0
        self.treasures = rules.treasures and self.mode != MODE_SOLO

    # reading
    def peek(self) -> int:
        return self.rows[self.i][0] if self.i < len(self.rows) else 0

    def next(self, code: int, what: str) -> tuple:
        if self.i >= len(self.rows) or self.rows[self.i][0] != code:
            got = EVENT_NAMES.get(self.peek(), self.peek())
            self.fail(f"expected {what} ({EVENT_NAMES[code]}), found {got}")
        row = self.rows[self.i]
        self.i += 1
        return row[1:]

    def fail(self, text: str):
        raise RefereeError(f"step {self.i}: {text}")

    def say(self, text: str):
        self.out.append(text)

    def tell(self, make, *args):
        """Add a play-by-play line built only when the lines are wanted (tests replay without them)."""
        if self.verbose:
            self.out.append(make(*args))

    def name(self, seat: int) -> str:
        if seat == self.auto:
            return "the Fallen King" if self.mode == MODE_FALLEN_KING else "the Demon"
        return f"seat {seat}"

    # shared pieces
    def read_order(self, code: int, size: int, expected: set, what: str) -> list[int]:
        rows = self.rows[self.i:self.i + size]
        if len(rows) != size or any(row[0] != code or row[1] != k for k, row in enumerate(rows)):
            self.fail(f"{what}: expected {size} rows in order")
        self.i += size
        order = [row[2] for row in rows]
        if set(order) != expected or len(set(order)) != len(order):
            self.fail(f"{what} is not a shuffle of the expected cards")
        return order

    def reveal(self, dragons: list[int], zone: dict) -> None:
        d, count, *_ = self.next(EV_REVEAL, "a dragon revealed")
        if not dragons or d != dragons[0]:
            self.fail(f"revealed dragon {d} is not the top of the dragon deck")
        dragons.pop(0)
        zone[d] = 0
        if count != len(zone):
            self.fail(f"zone holds {len(zone)} dragons, trace says {count}")
        if self.verbose:
            self.say(f"  reveal {dragon_name(self.r, d)} ({len(zone)} in the zone)")

    def play_trick(self, leader: int, hands: dict, auto_deck: list, tricks_no: int, solo_pile=None):
        trick = []
        for k in range(self.seats):
            seat = (leader + k) % self.seats
            if seat == self.auto and solo_pile is not None:
                solo_pile()
            s, card, mode, _ = self.next(EV_PLAY, f"{self.name(seat)} to play")
            if s != seat:
                self.fail(f"{self.name(s)} played out of turn (expected {self.name(seat)})")
            if seat == self.auto:
                top = auto_deck[0] if auto_deck else None
                if card != top:
                    self.fail(f"{self.name(seat)} must play its top card {top}, played {card}")
                auto_deck.pop(0)
                want = 1 if self.r.cards[card][0] == MERCENARY and not self.r.automaton_mercenary_high else 0
                if mode != want:
                    self.fail("the automaton's Mercenary value is fixed by the rules")
            else:
                why = is_legal(self.r, hands[seat], trick, card, mode)
                if why:
                    self.fail(f"{self.name(seat)} plays {card_name(self.r, card, mode)} illegally: {why}")
                hands[seat].remove(card)
            trick.append((seat, card, mode))
        pos = trick_winner(self.r, trick)
        winner = trick[pos][0]
        w, number, *_ = self.next(EV_TRICK, "the trick's winner")
        if w != winner or number != tricks_no:
            self.fail(f"trick {tricks_no} won by {self.name(winner)}, trace says {self.name(w)} (trick {number})")
        if self.verbose:
            self.say(f"  trick {tricks_no}: " + ", ".join(f"{self.name(s)} {card_name(self.r, c, m)}"
                                                        for s, c, m in trick) + f" -> {self.name(winner)} wins")
        return trick, pos

    def place(self, trick, winner: int, zone: dict, on_dragon: dict, discard: list, won: dict) -> list[int]:
        """Check the placement events of one trick; returns the dragons defeated, in order."""
        r, rows, verbose = self.r, self.rows, self.verbose
        todo = list(range(len(trick)))
        defeated = []
        while self.i < len(rows) and rows[self.i][0] in (EV_PLACE, EV_DISCARD):
            code, card, d = rows[self.i][:3]
            self.i += 1
            pos = self.trick_pos(trick, todo, card)
            todo.remove(pos)
            if code == EV_DISCARD:
                if self.placeable(card, trick[pos][2]) and self.fitting(card, zone):
                    self.fail(f"{card_name(r, card)} discarded although a dragon could take it")
                discard.append(card)
                continue
            if not self.placeable(card, trick[pos][2]):
                self.fail(f"{card_name(r, card, trick[pos][2])} cannot be placed on a dragon")
            if r.placement_order == "trick" and any(p < pos for p in todo):
                self.fail(f"{card_name(r, card)} placed before a card played earlier in the trick")
            if d not in zone:
                self.fail(f"dragon {d} is not in the battle zone")
            kind, colour, strength = r.cards[card]
            if kind == ARCANA and r.dragons[d][0] != colour:
                self.fail(f"{card_name(r, card)} does not fit {dragon_name(r, d)}")
            zone[d] += strength
            on_dragon.setdefault(d, []).append(card)
            resist = r.dragons[d][1]
            if verbose:
                self.say(f"    {card_name(r, card)} on {dragon_name(r, d)}: {zone[d]}/{resist}")
            if zone[d] >= resist:
                dd, seat, *_ = self.next(EV_DEFEAT, "the defeat of a dragon")
                if dd != d or seat != winner:
                    self.fail(f"{dragon_name(r, d)} falls to {self.name(winner)}, trace says {dd}/{seat}")
                del zone[d]
                discard.extend(on_dragon.pop(d, []))
                defeated.append(d)
                won.setdefault(winner, []).append(d)
                if verbose:
                    self.say(f"    {self.name(winner)} defeats {dragon_name(r, d)}")
        if todo:
            self.fail(f"cards left unplaced: {[card_name(r, trick[p][1]) for p in todo]}")
        if self.peek() == EV_DEFEAT:
            self.fail("a defeat without a dragon reaching its resistance")
        return defeated

    def trick_pos(self, trick, todo, card) -> int:
        for p in todo:
            if trick[p][1] == card:
                return p
        self.fail(f"{card_name(self.r, card)} is not an unplaced card of this trick")

    def placeable(self, card: int, mode: int) -> bool:
        kind = self.r.cards[card][0]
        return kind in (ARCANA, OBSCURE) or (kind == MERCENARY and mode == 0)

    def fitting(self, card: int, zone: dict) -> list[int]:
        kind, colour, _ = self.r.cards[card]
        return [d for d in zone if kind != ARCANA or self.r.dragons[d][0] == colour]

    # ---- the table game ---------------------------------------------------------------------------
    def run_table(self) -> list[str]:
        r = self.r
        totals = [0] * self.players
        first = 0
        for rnd in range(r.rounds):
            first = self.round(rnd, first, totals)
            if first == self.auto and self.mode == MODE_FALLEN_KING and not r.fallen_king_may_lead:
                first = 0       # the Fallen King may not open a round: the next real player does
        self.next(EV_GAME_END, "the end of the game")
        for s in range(self.players):
            seat, total, rank, _ = self.next(EV_FINAL, "a final score")
            want_rank = 1 + sum(t > totals[s] for t in totals)
            if seat != s or total != totals[s] or rank != want_rank:
                self.fail(f"final score of seat {s}: {totals[s]} rank {want_rank}, trace says {total} rank {rank}")
        self.say("Final: " + ", ".join(f"seat {s} {t}" for s, t in enumerate(totals)))
        if self.teams:
            half = self.players // 2
            self.say("Teams: " + ", ".join(f"seats {t}+{t + half} {totals[t] + totals[t + half]}" for t in range(half)))
        self.expect_end()
        return self.out

    def round(self, rnd: int, first: int, totals: list[int]) -> int:
        r = self.r
        H = self.hand_size
        rr, f, h, _ = self.next(EV_ROUND, "the start of a round")
        if rr != rnd or f != first or h != H:
            self.fail(f"round {rnd} should start with seat {first} and {H} cards, trace says {rr}/{f}/{h}")
        self.say(f"Round {rnd + 1}: {self.name(first)} leads")
        deck = self.read_order(EV_DECK, len(self.deck_cards), self.deck_cards, "the deck")
        hands, pos = {}, 0
        for s in range(self.seats):
            count = H if s < self.players else r.fallen_king_deck
            hands[s] = deck[pos:pos + count]
            pos += count
        auto_deck = list(hands.pop(self.auto)) if self.auto >= 0 else []
        dragons = self.read_order(EV_DRAGON_DECK, len(r.dragons), set(range(len(r.dragons))), "the dragon deck")
        zone: dict[int, int] = {}
        for _ in range(r.start_dragons(self.players)):
            self.reveal(dragons, zone)
        objectives = self.draft(first) if self.treasures and r.objectives_before_contracts else None
        if self.teams and r.team_opening_exchange:
            self.opening_exchange(first, hands)
        bids = {}
        for k in range(self.seats):
            s = (first + k) % self.seats
            if s >= self.players:
                continue
            seat, bid, *_ = self.next(EV_BID, f"seat {s}'s contract")
            limit = H if r.contract_max < 0 else min(r.contract_max, H)
            if seat != s or not 0 <= bid <= limit:
                self.fail(f"contract {bid} by seat {seat} (expected seat {s}, 0..{limit})")
            bids[s] = bid
        self.say("  contracts: " + ", ".join(f"seat {s} {b}" for s, b in sorted(bids.items())))
        if self.treasures and not r.objectives_before_contracts:
            objectives = self.draft(first)
        tricks = {s: 0 for s in range(self.seats)}
        won: dict[int, list[int]] = {}
        streak = {s: 0 for s in range(self.seats)}
        on_dragon: dict[int, list[int]] = {}
        discard: list[int] = []
        leader, lost, played = first, False, 0
        for t in range(H):
            if t > 0:
                if dragons:
                    self.reveal(dragons, zone)
                if len(zone) >= r.zone_limit:
                    lost = True
                    self.say(f"  the {r.zone_limit}th dragon arrives: the round ends")
                    break
            trick, wpos = self.play_trick(leader, hands, auto_deck, t + 1)
            winner = trick[wpos][0]
            played = t + 1
            tricks[winner] += 1
            for s in streak:
                streak[s] = streak[s] + 1 if s == winner else 0
            defeated = self.place(trick, winner, zone, on_dragon, discard, won)
            if objectives is not None:
                ignored = (self.mode == MODE_FALLEN_KING and winner == self.auto
                           and not r.fallen_king_dragons_count)
                self.instant_objectives(objectives, trick, wpos, [] if ignored else defeated, streak, tricks,
                                        self.obj_won(won), t + 1)
            if self.teams and r.team_trick_exchange and t < H - 1:
                self.trick_exchange(winner, hands)
            leader = winner
        pool = self.pool(won)
        treasure = {s: 0 for s in range(self.players)}
        if objectives is not None:
            if not lost:
                self.end_objectives(objectives, bids, tricks, self.obj_won(won), leader)
            treasure = self.treasure_points(objectives, lost)
        rr, lost_rec, played_rec, pool_rec = self.next(EV_ROUND_END, "the end of the round")
        if (rr, bool(lost_rec), played_rec, pool_rec) != (rnd, lost, played, pool):
            self.fail(f"round end: lost {lost}, {played} tricks, pool {pool}; trace says "
                      f"{bool(lost_rec)}, {played_rec}, {pool_rec}")
        for s in range(self.players):
            dragons_won = len(won.get(s, []))
            diff = abs(tricks[s] - bids[s])
            share = pool if diff == 0 else ((pool + (r.half_terror_rounding == "up")) // 2
                                             if diff <= r.near_miss else 0)
            score = r.points_per_trick * tricks[s] + r.points_per_dragon * dragons_won + share + treasure[s]
            seat, got, got_treasure, _ = self.next(EV_SCORE, "a round score")
            if seat != s or got != score or got_treasure != treasure[s]:
                self.fail(f"seat {s} round score {score} (treasure {treasure[s]}), trace says {got} ({got_treasure})")
            totals[s] += score
            self.say(f"  seat {s}: contract {bids[s]}, tricks {tricks[s]}, dragons {dragons_won}, "
                     f"Terror {share} of {pool}, treasure {treasure[s]} -> {score}")
        return leader

    def obj_won(self, won: dict) -> dict:
        """The defeated dragons the objectives see: the Fallen King's count only under fallen_king_dragons_count."""
        if self.mode == MODE_FALLEN_KING and not self.r.fallen_king_dragons_count:
            return {s: ds for s, ds in won.items() if s != self.auto}
        return won

    def pool(self, won: dict) -> int:
        return sum(self.r.dragons[d][2] for s, ds in won.items() for d in ds
                   if s < self.players or self.r.fallen_king_terror)

    # ---- teams -------------------------------------------------------------------------------------
    def opening_exchange(self, first: int, hands: dict) -> None:
        half = self.players // 2
        for t in range(half):
            a, b = t, t + half
            if (a - first) % self.players > (b - first) % self.players:
                a, b = b, a
            received = None
            for giver, taker in ((a, b), (b, a)):
                g, tk, card, _ = self.next(EV_GIVE, "an opening exchange")
                if (g != giver or tk != taker or card not in hands[giver]
                        or (card == received and not self.r.team_exchange_may_return)):
                    self.fail(f"opening exchange {g}->{tk} of {card} is not allowed")
                hands[giver].remove(card)
                hands[taker].append(card)
                received = card
                self.tell(lambda: f"  seat {g} passes {card_name(self.r, card)} to seat {tk}")

    def trick_exchange(self, winner: int, hands: dict) -> None:
        partner = (winner + self.players // 2) % self.players
        if not hands[winner] or not hands[partner]:
            return
        seat, card, *_ = self.next(EV_OFFER, "the winner's exchange offer")
        if seat != winner or (card >= 0 and card not in hands[winner]):
            self.fail(f"offer of {card} by seat {seat} is not allowed")
        if card < 0:
            return
        seat, back, *_ = self.next(EV_REPLY, "the partner's answer")
        if seat != partner or (back >= 0 and back not in hands[partner]):
            self.fail(f"answer {back} by seat {seat} is not allowed")
        if back < 0:
            self.tell(lambda: f"  seat {winner} offers {card_name(self.r, card)}; seat {partner} hands it back")
            return
        hands[winner].remove(card)
        hands[partner].append(card)
        hands[partner].remove(back)
        hands[winner].append(back)
        self.tell(lambda: f"  seat {winner} swaps {card_name(self.r, card)} for seat {partner}'s "
                  f"{card_name(self.r, back)}")

    # ---- Treasures -----------------------------------------------------------------------------------
    def draft(self, first: int) -> dict:
        r = self.r
        order = self.read_order(EV_OBJ_DECK, len(r.objectives), set(range(len(r.objectives))), "the objectives")
        carry, dealt, personal = [], 0, {}
        for k in range(self.seats):
            s = (first + k) % self.seats
            if s >= self.players:
                continue
            offered = carry + order[dealt:dealt + r.objectives_per_player]
            dealt += r.objectives_per_player
            seat, obj, *_ = self.next(EV_DRAFT, f"seat {s}'s objective")
            if seat != s or obj not in offered:
                self.fail(f"seat {seat} keeps objective {obj}, not among {offered}")
            personal[s] = obj
            offered.remove(obj)
            carry = offered
            self.say(f"  seat {s} keeps objective: {self.objective_text(obj)}")
        self.say("  Treasure zone: " + "; ".join(self.objective_text(o) for o in carry))
        return {"personal": personal, "zone": carry, "done": {}, "claimed": {}}

    def objective_text(self, obj: int) -> str:
        timing, cond, param, points = self.r.objectives[obj]
        return f"#{obj} {OBJECTIVE_NAMES[cond].format(p=param)} ({'instant' if timing == INSTANT else 'end'}, {points})"

    def instant_met(self, cond, p, trick, wpos, defeated, streak, tricks, won, number) -> bool:
        r = self.r
        winner, card, mode = trick[wpos]
        if cond == C_WIN_WITH_VALUE:
            return played_value(r, card, mode) == p
        if cond == C_WIN_WITH_AT_MOST:
            return played_value(r, card, mode) <= p
        if cond == C_DEFEAT_IN_TRICK:
            return len(defeated) >= p
        if cond == C_DEFEAT_RESISTANCE:
            return any(r.dragons[d][1] >= p for d in defeated)
        if cond == C_WIN_BOTH_WIZARDS:
            kinds = [r.cards[c][0] for _, c, _ in trick]
            return WIZ_LOW in kinds and WIZ_HIGH in kinds
        if cond == C_WIN_IN_A_ROW:
            return streak[winner] >= p
        if cond == C_WIN_TRICK_NUMBER:
            return number == p
        if cond == C_WIN_WITH_TRUMPS:
            return sum(r.cards[c][0] == ARCANA and r.cards[c][1] == r.trump_colour for _, c, _ in trick) >= p
        if cond == C_DRAGONS_REACHED:
            return len(won.get(winner, [])) >= p
        if cond == C_TRICKS_REACHED:
            return tricks[winner] >= p
        if cond == C_DEFEAT_COLOUR:
            return any(r.dragons[d][0] == p for d in defeated)
        return False

    def instant_objectives(self, objs, trick, wpos, defeated, streak, tricks, won, number) -> None:
        winner = trick[wpos][0]
        expected = []
        own = objs["personal"].get(winner)
        if own is not None and own not in objs["done"] and self.r.objectives[own][0] == INSTANT:
            if self.instant_met(*self.r.objectives[own][1:3], trick, wpos, defeated, streak, tricks, won, number):
                expected.append(own)
        for o in objs["zone"]:
            if self.r.objectives[o][0] == INSTANT and o not in objs["claimed"]:
                if self.instant_met(*self.r.objectives[o][1:3], trick, wpos, defeated, streak, tricks, won, number):
                    expected.append(o)
        for o in expected:
            seat, obj, *_ = self.next(EV_OBJ_DONE, "an instant objective")
            if seat != winner or obj != o:
                self.fail(f"{self.name(winner)} completes objective {o}, trace says {seat}/{obj}")
            if o in objs["zone"]:
                objs["claimed"][o] = winner
            else:
                objs["done"][o] = winner
            self.say(f"  {self.name(winner)} completes {self.objective_text(o)}")
        # end-of-round completions may follow the last trick at once; any other is unexplained
        if self.peek() == EV_OBJ_DONE and self.r.objectives[self.rows[self.i][2]][0] == INSTANT:
            self.fail("an instant objective completed that the referee does not see")

    def end_met(self, cond, p, s, bids, tricks, won) -> bool:
        r = self.r
        seats = range(self.seats)
        mine = {"t": tricks[s], "d": len(won.get(s, [])),
                "terror": sum(r.dragons[d][2] for d in won.get(s, []))}
        real = s < self.players
        exact = real and tricks[s] == bids[s]
        if cond == C_MOST_TRICKS:
            return mine["t"] > 0 and all(tricks[o] <= mine["t"] for o in seats)
        if cond == C_FEWEST_TRICKS:
            return all(tricks[o] >= mine["t"] for o in seats)
        if cond == C_MOST_DRAGONS:
            return mine["d"] > 0 and all(len(won.get(o, [])) <= mine["d"] for o in seats)
        if cond == C_MOST_TERROR:
            return mine["terror"] > 0 and all(sum(r.dragons[d][2] for d in won.get(o, [])) <= mine["terror"]
                                              for o in seats)
        if cond == C_EXACT_CONTRACT_OF:
            return exact and bids[s] == p
        if cond == C_EXACT_AT_LEAST:
            return exact and bids[s] >= p
        if cond == C_NO_DRAGON_TRICKS:
            return mine["d"] == 0 and mine["t"] >= p
        if cond == C_OFF_BY:
            return real and abs(tricks[s] - bids[s]) == p
        if cond == C_WON_LAST_TRICK:
            return s == self._last_winner
        if cond == C_DRAGON_COLOURS:
            return len({r.dragons[d][0] for d in won.get(s, [])}) >= p
        if cond == C_NO_TRICKS:
            return mine["t"] == 0
        return False

    def end_objectives(self, objs, bids, tricks, won, last_winner) -> None:
        self._last_winner = last_winner
        bids = {**bids, **{s: 0 for s in range(self.players, self.seats)}}
        expected = []
        for s in range(self.players):
            o = objs["personal"].get(s)
            if o is not None and o not in objs["done"] and self.r.objectives[o][0] != INSTANT:
                if self.end_met(*self.r.objectives[o][1:3], s, bids, tricks, won):
                    expected.append((s, o))
        for o in objs["zone"]:
            if self.r.objectives[o][0] != INSTANT:
                for s in range(self.seats):
                    if self.end_met(*self.r.objectives[o][1:3], s, bids, tricks, won):
                        expected.append((s, o))
        for s, o in expected:
            seat, obj, *_ = self.next(EV_OBJ_DONE, "an end-of-round objective")
            if (seat, obj) != (s, o):
                self.fail(f"{self.name(s)} completes objective {o}, trace says {seat}/{obj}")
            objs["done" if o in objs["personal"].values() and objs["personal"].get(s) == o else "claimed"].setdefault(o, s)
            objs.setdefault("end", []).append((s, o))
            self.say(f"  {self.name(s)} completes {self.objective_text(o)}")
        if self.peek() == EV_OBJ_DONE:
            self.fail("an objective completed that the referee does not see")

    def treasure_points(self, objs, lost: bool) -> dict:
        points = {s: 0 for s in range(self.players)}
        if lost:
            return points
        pairs = list(objs["done"].items()) + list(objs["claimed"].items())
        pairs = [(o, s) for o, s in pairs] + [(o, s) for s, o in objs.get("end", [])]
        seen = set()
        for o, s in pairs:
            if (o, s) in seen:
                continue
            seen.add((o, s))
            if s < self.players:
                points[s] += self.r.objectives[o][3]
        return points

    # ---- solo -----------------------------------------------------------------------------------------
    def run_solo(self) -> list[str]:
        r = self.r
        H = self.hand_size
        rr, f, h, _ = self.next(EV_ROUND, "the start of the solo game")
        if (rr, f, h) != (0, 0, H):
            self.fail("solo game header")
        deck = self.read_order(EV_DECK, len(r.cards), set(range(len(r.cards))), "the deck")
        hand = deck[:H]
        # piles[0]: the player's draw pile; piles[1]: the Demon's deck (the same list when the pile is shared)
        if r.solo_shared_pile:
            shared = deck[H:]
            piles = [shared, shared]
        else:
            piles = [deck[H::2], deck[H + 1::2]]        # dealt alternately
        discard: list[int] = []
        dragons = self.read_order(EV_DRAGON_DECK, len(r.dragons), set(range(len(r.dragons))), "the dragon deck")
        zone: dict[int, int] = {}
        for _ in range(r.solo_dragons):
            self.reveal(dragons, zone)
        self.say("Solo against the Demon")
        won: dict[int, list[int]] = {}
        on_dragon: dict[int, list[int]] = {}
        demon_deck: list[int] = []
        leader, ended, lost, played = 0, False, False, 0

        dpile = 0 if r.solo_shared_pile else 1      # the Demon's pile

        def refill(which: int) -> list[int]:
            """Pile `which`, refilled from the shuffled discard pile when it is empty."""
            nonlocal discard
            if not piles[which] and discard:
                new = []
                for k in range(len(discard)):
                    pos, card, tag, _ = self.next(EV_RESHUFFLE, "a reshuffled card")
                    if pos != k or tag != which:
                        self.fail("reshuffle out of order or into the wrong pile")
                    new.append(card)
                if sorted(new) != sorted(discard):
                    self.fail("the reshuffled pile is not the discard pile")
                piles[which][:] = new
                discard = []
                self.say("  the discard pile becomes " + ("the Demon's deck" if which else "the draw pile"))
            return piles[which]

        def demon_play():
            pile = refill(dpile)
            demon_deck[:] = pile[:1]
            if pile:
                pile.pop(0)

        def add_dragon() -> bool:
            """Reveal a dragon; True when the game ends (no dragon left, or the zone is full)."""
            nonlocal ended, lost
            if not dragons:
                ended = True
                self.say("  no dragon left to reveal: the game ends")
                return True
            self.reveal(dragons, zone)
            if len(zone) >= r.zone_limit:
                ended = lost = True
                self.say(f"  {r.zone_limit} dragons in the zone: the game ends")
                return True
            return False

        for t in range(r.solo_trick_cap):
            if not hand or (not piles[dpile] and not discard):
                break
            if r.solo_dragon_every_trick and t > 0 and add_dragon():
                break
            hands = {0: hand}
            trick, wpos = self.play_trick(leader, hands, demon_deck, t + 1, solo_pile=demon_play)
            winner = trick[wpos][0]
            played = t + 1
            defeated = self.place(trick, winner, zone, on_dragon, discard, won)
            pile = refill(0)
            if pile:
                card = pile.pop(0)
                seat, c, *_ = self.next(EV_DRAW, "the player's draw")
                if (seat, c) != (0, card):
                    self.fail(f"the player should draw {card}, trace says {c}")
                hand.append(card)
            if (winner == 1 or defeated) and not r.solo_dragon_every_trick and add_dragon():
                break
            leader = winner
        mine = sum(r.dragons[d][2] for d in won.get(0, []))
        demon = sum(r.dragons[d][2] for d in won.get(1, []))
        score = mine - demon
        rank = sum(score >= x for x in r.solo_thresholds())
        rr, lost_rec, played_rec, pool_rec = self.next(EV_ROUND_END, "the end of the solo game")
        if (bool(lost_rec), played_rec, pool_rec) != (lost, played, mine + demon):
            self.fail(f"solo end: lost {lost}, {played} tricks, Terror {mine + demon}; trace says "
                      f"{bool(lost_rec)}, {played_rec}, {pool_rec}")
        seat, got, *_ = self.next(EV_SCORE, "the solo score")
        if got != score:
            self.fail(f"solo score {score}, trace says {got}")
        stale, got_score, got_rank, _ = self.next(EV_GAME_END, "the end of the game")
        if bool(stale) != (not ended) or got_score != score or got_rank != rank:
            self.fail(f"solo result: stalemate {not ended}, score {score}, rank {rank}; trace says "
                      f"{bool(stale)}, {got_score}, {got_rank}")
        self.say(f"Solo score: {mine} - {demon} = {score} (rank {rank}){' [stalemate]' if not ended else ''}")
        self.expect_end()
        return self.out

    def expect_end(self) -> None:
        if self.i < len(self.rows) and self.rows[self.i][0] != 0:
            self.fail(f"unexpected event {EVENT_NAMES.get(self.peek(), self.peek())} after the end")


def referee(rules: DrarkaneRules, players: int, trace: Trace, verbose: bool = True) -> list[str]:
    replay = Replay(rules, players, trace, verbose)
    if replay.mode == MODE_SOLO:
        return replay.run_solo()
    return replay.run_table()
