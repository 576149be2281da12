"""Drako referee: replays a kernel trace in plain Python, checking every event against the rules.

It shares only the event codes with the kernel: geometry, legality, wounds and the end of the game
are worked out again here from the rules, so a kernel bug shows up as a RefereeError naming the
first event that disagrees. `replay` returns readable play-by-play lines (`dsim replay`).

The rule functions (`walk_targets`, `fire_line`, `crossbow_clear`, ...) work on a `Position` that
tests can also build by hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sim.engine.game import RefereeError
from sim.games.drako import records as R
from sim.games.drako.rules import DrakoRules, option_label

DIRECTION_NAMES = ("east", "north-east", "north-west", "west", "south-west", "south-east")


# ---- geometry, from the board's coordinates ----------------------------------------------------


class Board:
    def __init__(self, hexes):
        self.hexes = [tuple(h) for h in hexes]
        self.index = {qr: i for i, qr in enumerate(self.hexes)}
        self.steps = [[self.index.get((q + dq, r + dr)) for dq, dr in R.DIRECTIONS] for q, r in self.hexes]
        self.near = [[n for n in row if n is not None] for row in self.steps]

    def step(self, h: int, d: int) -> int | None:
        return self.steps[h][d]

    def neighbours(self, h: int) -> list[int]:
        return self.near[h]

    def distance(self, a: int, b: int) -> int:
        (qa, ra), (qb, rb) = self.hexes[a], self.hexes[b]
        return (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2

    def line(self, h: int, d: int) -> list[int]:
        """Hexes walking from h in direction d, up to the first gap."""
        out = []
        n = self.step(h, d)
        while n is not None:
            out.append(n)
            n = self.step(n, d)
        return out

    def name(self, h: int) -> str:
        q, r = self.hexes[h]
        return f"({q},{r})"


# ---- the referee's own game state ---------------------------------------------------------------


@dataclass
class Position:
    rules: DrakoRules
    board: Board
    pos: list                      # hex of each figure, None once killed
    wounds: list = field(default_factory=lambda: [0, 0, 0, 0])
    areas: list = field(default_factory=lambda: [0, 0, 0, 0])
    hands: list = field(default_factory=lambda: [Counter(), Counter()])
    decks: list = field(default_factory=lambda: [[], []])
    netted: bool = False
    fury_used: bool = False
    turn: int = 0
    over: bool = False
    winner: int = R.WIN_NOBODY
    end: int = -1
    counts: Counter = field(default_factory=Counter)     # what the games table counts per game
    cards: tuple = ()                                     # each side's card kinds

    def __post_init__(self):
        self.cards = (self.rules.deck(R.DRAGON), self.rules.deck(R.DWARVES))

    @classmethod
    def start(cls, rules: DrakoRules) -> "Position":
        board = Board(rules.board_hexes)
        return cls(rules, board, [board.index[tuple(rules.dragon_start)], None, None, None])

    # -- derived facts --
    def caps(self) -> tuple:
        return self.rules.figure_spaces()

    def area_caps(self) -> tuple:
        return self.rules.area_spaces()

    def occupant(self, h: int):
        pos = self.pos
        if h == pos[0]:
            return 0
        if h == pos[1]:
            return 1
        if h == pos[2]:
            return 2
        if h == pos[3]:
            return 3
        return None

    def alive(self, f: int) -> bool:
        return self.pos[f] is not None

    def dwarves(self) -> list[int]:
        return [f for f in (R.FIG_FURY, R.FIG_NET, R.FIG_ARCHER) if self.alive(f)]

    def area_open(self, area: int) -> bool:
        return self.areas[area] < self.area_caps()[area]

    def hand_size(self, side: int) -> int:
        return sum(self.hands[side].values())

    def card(self, side: int, t: int):
        deck = self.cards[side]
        if not 0 <= t < len(deck):
            raise ValueError(f"no {R.SIDE_NAMES[side]} card kind {t}")
        return deck[t]


# ---- rule functions ----------------------------------------------------------------------------


def walk_targets(p: Position, start: int, steps: int) -> set[int]:
    """Hexes a figure on `start` may stop on within `steps` steps (its own hex included)."""
    through = p.rules.move_through_figures
    seen = {start: 0}
    frontier = [start]
    out = {start}
    while frontier:
        nxt = []
        for h in frontier:
            if seen[h] >= steps:
                continue
            for n in p.board.neighbours(h):
                if n in seen:
                    continue
                busy = p.occupant(n) is not None
                if busy and not through:
                    continue
                seen[n] = seen[h] + 1
                nxt.append(n)
                if not busy:
                    out.add(n)
        frontier = nxt
    return out


def flight_targets(p: Position) -> set[int]:
    return {h for h in range(len(p.board.hexes)) if p.occupant(h) is None}


def fire_line(p: Position, d: int) -> list[int]:
    """Dwarf figures a breath in direction d hits, nearest first."""
    line = p.board.line(p.pos[R.FIG_DRAGON], d)
    if p.rules.fire_range:
        line = line[:p.rules.fire_range]
    return [f for f in (p.occupant(h) for h in line) if f is not None and f != R.FIG_DRAGON]


def crossbow_clear(p: Position) -> bool:
    a, g = p.pos[R.FIG_ARCHER], p.pos[R.FIG_DRAGON]
    if a is None or g is None or p.board.distance(a, g) < p.rules.crossbow_min_range:
        return False
    for d in range(6):
        line = p.board.line(a, d)
        if g in line:
            return all(p.occupant(h) is None for h in line[:line.index(g)])
    return False


def adjacent_dwarves(p: Position) -> list[int]:
    g = p.pos[R.FIG_DRAGON]
    return [f for f in p.dwarves() if p.board.distance(g, p.pos[f]) == 1]


def option_usable(p: Position, side: int, symbol: int) -> bool:
    """Whether a card option can be played as an action now (Defense never can)."""
    if side == R.DRAGON:
        if symbol == R.SYM_MOVE:
            return p.area_open(R.AREA_MOVE) and not p.netted
        if symbol == R.SYM_FLIGHT:
            return p.area_open(R.AREA_FLIGHT) and not p.netted
        if symbol == R.SYM_ATTACK:
            return bool(adjacent_dwarves(p))
        if symbol == R.SYM_FIRE:
            if not p.area_open(R.AREA_FIRE):
                return False
            g = p.pos[R.FIG_DRAGON]
            if p.rules.fire_needs_target:
                return any(fire_line(p, d) for d in range(6))
            return any(p.board.step(g, d) is not None for d in range(6))
        return False
    if symbol in (R.SYM_MOVE, R.SYM_MOVE_TWO):
        return bool(p.dwarves())
    if symbol in (R.SYM_ATTACK, R.SYM_ATTACK_TWO):
        return bool(adjacent_dwarves(p))
    if symbol == R.SYM_CROSSBOW:
        return crossbow_clear(p)
    if symbol == R.SYM_NET:
        return p.alive(R.FIG_NET) and not p.netted
    return False


def can_act(p: Position, side: int, first_of_turn: bool, turn_actions: int) -> bool:
    """A draw, a usable card option or (the dragon) an escape exists."""
    if p.decks[side]:
        return True
    if side == R.DRAGON and p.netted and first_of_turn and turn_actions >= 2:
        return True
    for t, k in p.hands[side].items():
        if k and any(option_usable(p, side, s) for s, _ in p.card(side, t).options):
            return True
    return False


def fury_allowed(p: Position) -> bool:
    f = R.FIG_FURY
    if p.fury_used or not p.alive(f):
        return False
    return p.rules.fury_allowed_when_lethal or p.wounds[f] + p.rules.fury_wound < p.caps()[f]


def play_targets(p: Position, side: int, symbol: int, value: int):
    """Legal detail values of a played option: hexes, victims or directions (for tests)."""
    g = p.pos[R.FIG_DRAGON]
    if side == R.DRAGON:
        if symbol == R.SYM_MOVE:
            return walk_targets(p, g, value)
        if symbol == R.SYM_FLIGHT:
            return flight_targets(p)
        if symbol == R.SYM_ATTACK:
            return set(adjacent_dwarves(p))
        if symbol == R.SYM_FIRE:
            return {d for d in range(6)
                    if fire_line(p, d) or (not p.rules.fire_needs_target and p.board.step(g, d) is not None)}
    raise ValueError(f"no target list for {R.SYM_NAMES[symbol]}")


# ---- replay ------------------------------------------------------------------------------------


class Replay:
    def __init__(self, rules: DrakoRules, rows, record=None, header: str = ""):
        self.rules = rules
        self.rows = [tuple(row) for row in (rows.tolist() if hasattr(rows, 'tolist') else rows)]
        self.record = record
        self.i = 0
        self.p = Position.start(rules)
        self.lines: list[str] = [header] if header else []

    # -- reading events --
    def fail(self, message: str):
        raise RefereeError(f"event {self.i}: {message}")

    def peek(self):
        return self.rows[self.i] if self.i < len(self.rows) else None

    def take(self, code: int, what: str = ""):
        row = self.peek()
        if row is None:
            self.fail(f"trace ends where {what or R.EVENT_NAMES[code]} was due")
        if row[0] != code:
            self.fail(f"expected {what or R.EVENT_NAMES[code]}, found {R.EVENT_NAMES.get(row[0], row[0])} {row[1:]}")
        self.i += 1
        return row

    def say(self, text: str):
        self.lines.append(text)

    def card_name(self, side: int, t: int) -> str:
        return f"'{self.p.card(side, t).label()}'"

    def fig(self, f: int) -> str:
        return R.FIG_NAMES[f]

    @staticmethod
    def who(side: int) -> str:
        """Column prefix of a side in the games table."""
        return "dragon" if side == R.DRAGON else "dwarf"

    # -- the game --
    def run(self) -> list[str]:
        self.setup()
        while not self.p.over:
            self.turn()
        self.finish()
        return self.lines

    def read_deck(self, side: int) -> list[int]:
        deck = []
        size = self.rules.deck_size(side)
        for k in range(size):
            row = self.take(R.EV_DECK, f"{R.SIDE_NAMES[side]} deck card {k}")
            if row[1] != side or row[2] != k:
                self.fail(f"deck row {row[1:4]} out of order (side {side}, position {k} expected)")
            deck.append(row[3])
        want = Counter({t: c.count for t, c in enumerate(self.rules.deck(side))})
        if Counter(deck) != want:
            self.fail(f"the {R.SIDE_NAMES[side]} deck is not the rules' card list")
        return deck

    def deal(self, side: int, deck: list[int]):
        p = self.p
        p.hands[side] = Counter()
        p.decks[side] = deck
        self.draw(side, self.rules.opening_hand)

    def draw(self, side: int, count: int) -> int:
        p = self.p
        got = p.decks[side][:count]
        p.decks[side] = p.decks[side][count:]
        p.hands[side].update(got)
        return len(got)

    def setup(self):
        p = self.p
        for side in (R.DRAGON, R.DWARVES):
            self.deal(side, self.read_deck(side))
        self.say("setup: dragon on " + p.board.name(p.pos[R.FIG_DRAGON]))
        if self.rules.mulligan:
            p.counts["fired_mulligan_first"] = 1          # both sides decide, in the rule's order
        if self.rules.free_placement:
            p.counts["fired_free_placement"] = 3
        row = self.peek()
        mulligans = set()
        while row is not None and row[0] == R.EV_MULLIGAN:
            side = row[1]
            if not self.rules.mulligan:
                self.fail("a mulligan without the mulligan rule")
            first = R.DWARVES if self.rules.mulligan_first == "dwarves" else R.DRAGON
            if side in mulligans or (mulligans and side == first):
                self.fail(f"{R.SIDE_NAMES[side]} mulligan out of turn")
            self.take(R.EV_MULLIGAN)
            mulligans.add(side)
            p.counts[f"{self.who(side)}_mulligan"] += 1
            p.counts["fired_mulligan"] += 1
            self.deal(side, self.read_deck(side))
            self.say(f"setup: the {R.SIDE_NAMES[side]} exchange their opening hand")
            row = self.peek()
        for k, f in enumerate((R.FIG_FURY, R.FIG_NET, R.FIG_ARCHER)):
            row = self.take(R.EV_PLACE, f"placing the {self.fig(f)}")
            if row[1] != f:
                self.fail(f"placed figure {row[1]}, expected the {self.fig(f)}")
            h = row[2]
            if not 0 <= h < len(p.board.hexes) or p.occupant(h) is not None:
                self.fail(f"the {self.fig(f)} placed on an unusable hex {h}")
            if self.rules.free_placement:
                if p.board.distance(h, p.pos[R.FIG_DRAGON]) < 2:
                    self.fail(f"the {self.fig(f)} placed next to the dragon")
            elif h != p.board.index[tuple(self.rules.dwarf_start[k])]:
                self.fail(f"the {self.fig(f)} is not on its first-game hex")
            p.pos[f] = h
            self.say(f"setup: {self.fig(f)} on {p.board.name(h)}")

    def turn(self):
        p = self.p
        if p.turn >= self.rules.turn_cap:
            p.over, p.winner, p.end = True, R.WIN_NOBODY, R.END_STALEMATE
            return
        p.turn += 1
        side = R.DRAGON if p.turn % 2 == 1 else R.DWARVES
        actions = self.rules.actions_per_turn
        if p.turn == 1:
            actions = self.rules.dragon_first_turn_actions
        row = self.take(R.EV_TURN, f"turn {p.turn}")
        if row[1:4] != (side, p.turn, actions):
            self.fail(f"turn header {row[1:4]}, expected {(side, p.turn, actions)}")
        self.say(f"turn {p.turn}: {R.SIDE_NAMES[side]}, {actions} action{'s' if actions > 1 else ''}")
        if side == R.DRAGON and p.netted:
            p.counts["net_turns"] += 1
            p.counts["fired_net_hold"] += 1
        if side == R.DRAGON and p.hand_size(R.DRAGON) == 0 and not p.decks[R.DRAGON]:
            row = self.take(R.EV_PASS, "the dragon's pass (no cards)")
            if row[1:3] != (R.DRAGON, 1):
                self.fail(f"pass row {row[1:3]}, expected a whole-turn dragon pass")
            p.counts["dragon_passes"] += actions
            self.say("  the dragon has no cards and passes")
            return
        turn_actions, left, first = actions, actions, True
        while left > 0 and not p.over:
            used, turn_actions = self.action(side, first, turn_actions, left)
            if used == 0:       # Fury: the turn starts again with more actions
                left = turn_actions
                continue
            left -= used
            first = False

    def action(self, side: int, first: bool, turn_actions: int, left: int):
        p = self.p
        row = self.peek()
        if row is None:
            self.fail("trace ends inside a turn")
        code = row[0]
        if code == R.EV_FURY:
            self.take(R.EV_FURY)
            if side != R.DWARVES or not first or not fury_allowed(p):
                self.fail("Fury declared when it is not allowed")
            if row[1] != self.rules.fury_actions:
                self.fail(f"Fury turn with {row[1]} actions, expected {self.rules.fury_actions}")
            p.fury_used = True
            p.counts["fury_turn"] = p.turn
            self.say(f"  the Fury dwarf declares Fury: {self.rules.fury_actions} actions")
            if self.rules.fury_wound > 0:
                self.wound_dwarf(R.FIG_FURY, self.rules.fury_wound, by_dragon=False)
            return 0, self.rules.fury_actions
        if code == R.EV_DRAW:
            self.take(R.EV_DRAW)
            if row[1] != side or not p.decks[side]:
                self.fail("draw from an empty deck or by the wrong side")
            got = self.draw(side, self.rules.draw_count)
            p.counts[f"{self.who(side)}_draws"] += 1
            if row[2] != got:
                self.fail(f"drew {row[2]} cards, the deck gives {got}")
            self.say(f"  {R.SIDE_NAMES[side]} draw {got} (hand {p.hand_size(side)}, deck {len(p.decks[side])})")
            while p.hand_size(side) > self.rules.hand_limit:
                d = self.take(R.EV_DISCARD, "a discard down to the hand limit")
                if d[1] != side or p.hands[side][d[2]] <= 0:
                    self.fail(f"discard of card kind {d[2]} not in hand")
                p.hands[side][d[2]] -= 1
                p.counts[f"{self.who(side)}_discards"] += 1
                self.say(f"  {R.SIDE_NAMES[side]} discard {self.card_name(side, d[2])}")
            return 1, turn_actions
        if code == R.EV_ESCAPE:
            self.take(R.EV_ESCAPE)
            if side != R.DRAGON or not p.netted or not first or turn_actions < 2:
                self.fail("escape from the net when it is not allowed")
            p.netted = False
            p.counts["escapes"] += 1
            p.counts["fired_escape"] += 1
            self.say("  the dragon spends its turn escaping the net")
            return left, turn_actions
        if code in (R.EV_PASS, R.EV_DUD):
            self.take(code)
            if row[1] != side:
                self.fail("a pass or throw-away by the wrong side")
            if can_act(p, side, first, turn_actions):
                self.fail(f"{R.SIDE_NAMES[side]} {R.EVENT_NAMES[code]} while a legal action exists")
            if code == R.EV_PASS:
                p.counts[f"{self.who(side)}_passes"] += 1
                if p.hand_size(side) and self.rules.stuck_player_discards:
                    self.fail("a pass where a card must be thrown away")
                self.say(f"  {R.SIDE_NAMES[side]} cannot act and pass")
            else:
                if not self.rules.stuck_player_discards or p.hands[side][row[2]] <= 0:
                    self.fail("a throw-away that the rules or the hand do not allow")
                p.hands[side][row[2]] -= 1
                p.counts[f"{self.who(side)}_duds"] += 1
                self.say(f"  {R.SIDE_NAMES[side]} cannot act and throw away {self.card_name(side, row[2])}")
                self.check_dwarves_out(side)
            return 1, turn_actions
        if code == R.EV_PLAY:
            self.take(R.EV_PLAY)
            self.play(side, row)
            return 1, turn_actions
        self.fail(f"unexpected {R.EVENT_NAMES.get(code, code)} as an action")

    # -- cards --
    def play(self, side: int, row):
        p = self.p
        _, who, t, o, a, b, c, d = row
        if who != side:
            self.fail("a card played by the side not on turn")
        if p.hands[side][t] <= 0:
            self.fail(f"{R.SIDE_NAMES[side]} play card kind {t}, not in hand")
        options = p.card(side, t).options
        if not 0 <= o < len(options):
            self.fail(f"card {self.card_name(side, t)} has no option {o}")
        symbol, value = options[o]
        if not option_usable(p, side, symbol):
            self.fail(f"{option_label(symbol, value)} is not usable now")
        p.hands[side][t] -= 1
        p.counts[f"{self.who(side)}_{R.SYM_NAMES[symbol]}"] += 1
        text = f"  {R.SIDE_NAMES[side]} play {self.card_name(side, t)} as {option_label(symbol, value)}"
        g = p.pos[R.FIG_DRAGON]
        if side == R.DRAGON:
            if symbol in (R.SYM_MOVE, R.SYM_FLIGHT):
                targets = walk_targets(p, g, value) if symbol == R.SYM_MOVE else flight_targets(p)
                if a not in targets:
                    self.fail(f"the dragon cannot reach {a} with {option_label(symbol, value)}")
                self.say(f"{text}: to {p.board.name(a)}")
                p.pos[R.FIG_DRAGON] = a
            elif symbol == R.SYM_ATTACK:
                if a not in adjacent_dwarves(p):
                    self.fail(f"the dragon attacks figure {a}, not an adjacent dwarf")
                self.say(f"{text} on the {self.fig(a)}")
                self.attack_dwarf(a, value)
            else:
                if not 0 <= a < 6 or a not in play_targets(p, R.DRAGON, R.SYM_FIRE, value):
                    self.fail(f"fire toward direction {a} is not allowed")
                hits = fire_line(p, a)
                if len(hits) >= 2:
                    p.counts["fired_fire_order"] += 1
                    p.counts["fired_simultaneous_blows"] += 1
                if self.rules.fire_order == "farthest":
                    hits = hits[::-1]
                self.say(f"{text} to the {DIRECTION_NAMES[a]}: " +
                         (", ".join(self.fig(f) for f in hits) if hits else "nobody"))
                if self.rules.simultaneous_blows:
                    landed = []
                    for f in hits:
                        if p.over:
                            break
                        if not self.strike_dwarf(f, value):
                            landed.append(f)
                    for f in landed:
                        if p.over:
                            break
                        self.wound_dwarf(f, value, by_dragon=True)
                else:
                    for f in hits:
                        if p.over:
                            break
                        self.attack_dwarf(f, value)
            return
        if symbol in (R.SYM_MOVE, R.SYM_MOVE_TWO):
            moves = [(a, b)] + ([(c, d)] if symbol == R.SYM_MOVE_TWO and c >= 0 else [])
            if symbol == R.SYM_MOVE and c != -1 and (c, d) != (0, 0):
                self.fail("a one-dwarf move with a second dwarf")
            if len(moves) == 2 and moves[0][0] == moves[1][0]:
                self.fail("a two-dwarf move moving one dwarf twice")
            parts = []
            for f, h in moves:
                if f not in p.dwarves():
                    self.fail(f"figure {f} is not a living dwarf")
                if h not in walk_targets(p, p.pos[f], value):
                    self.fail(f"the {self.fig(f)} cannot reach {h} with {option_label(symbol, value)}")
                parts.append(f"{self.fig(f)} {p.board.name(p.pos[f])}→{p.board.name(h)}")
                p.pos[f] = h
            self.say(f"{text}: " + ", ".join(parts))
        elif symbol in (R.SYM_ATTACK, R.SYM_ATTACK_TWO):
            near = adjacent_dwarves(p)
            attackers = [a] + ([b] if symbol == R.SYM_ATTACK_TWO and b >= 0 else [])
            if symbol == R.SYM_ATTACK and b not in (-1, 0):
                self.fail("a one-dwarf attack with a second attacker")
            if len(set(attackers)) != len(attackers) or any(f not in near for f in attackers):
                self.fail(f"attackers {attackers} are not distinct dwarves next to the dragon")
            strikers = 2 if symbol == R.SYM_ATTACK_TWO else 1
            if len(near) > strikers:
                p.counts["fired_attackers_chosen"] += 1
            if len(attackers) == 2:
                p.counts["fired_simultaneous_blows"] += 1
            if not self.rules.attackers_chosen and attackers != near[:strikers]:
                self.fail(f"attackers {attackers}, but the fixed order gives {near[:strikers]}")
            self.say(f"{text}: " + " and ".join(self.fig(f) for f in attackers))
            if self.rules.simultaneous_blows:
                landed = 0
                for f in attackers:
                    if p.over:
                        break
                    landed += self.dragon_blow(f, value)
                self.wound_dragon(landed)
            else:
                for f in attackers:
                    if p.over:
                        break
                    self.attack_dragon(f, value)
        elif symbol == R.SYM_CROSSBOW:
            if a != R.FIG_ARCHER:
                self.fail("a crossbow shot not by the archer")
            self.say(f"{text}: the archer shoots from {p.board.name(p.pos[R.FIG_ARCHER])}")
            self.attack_dragon(R.FIG_ARCHER, value)
        elif symbol == R.SYM_NET:
            p.netted = True
            self.say(f"{text}: the dragon is netted")
        self.check_dwarves_out(side)

    def check_dwarves_out(self, side: int):
        p = self.p
        if side == R.DWARVES and not p.over and p.hand_size(R.DWARVES) == 0 and not p.decks[R.DWARVES]:
            p.over, p.winner, p.end = True, R.WIN_DRAGON, R.END_OUT_OF_CARDS
            self.say("  the dwarves have no cards left")

    # -- attacks and wounds --
    def blocked(self, defender: int) -> bool:
        row = self.peek()
        if row is None or row[0] != R.EV_BLOCK:
            return False
        self.take(R.EV_BLOCK)
        p, t = self.p, row[2]
        if row[1] != defender or p.hands[defender][t] <= 0:
            self.fail(f"block with card kind {t}, not in the {R.SIDE_NAMES[defender]}'s hand")
        if not any(s == R.SYM_DEFENSE for s, _ in p.card(defender, t).options):
            self.fail(f"block with {self.card_name(defender, t)}, which shows no Defense")
        p.hands[defender][t] -= 1
        p.counts[f"{self.who(defender)}_defense"] += 1
        self.say(f"    blocked with {self.card_name(defender, t)}")
        return True

    def attack_dragon(self, attacker: int, value: int):
        self.wound_dragon(self.dragon_blow(attacker, value))

    def dragon_blow(self, attacker: int, value: int) -> int:
        """One dwarf's blow and the dragon's Defense decision; returns the wounds it deals."""
        row = self.take(R.EV_ATTACK, f"the {self.fig(attacker)}'s attack")
        if row[1:4] != (attacker, R.FIG_DRAGON, value):
            self.fail(f"attack row {row[1:4]}, expected {(attacker, R.FIG_DRAGON, value)}")
        self.say(f"    the {self.fig(attacker)} strikes for {value}")
        p = self.p
        p.counts["dwarf_attacks"] += 1
        if self.blocked(R.DRAGON):
            p.counts["dwarf_attacks_blocked"] += 1
            return 0
        return value

    def wound_dragon(self, value: int):
        p = self.p
        for _ in range(value):
            if p.over:
                break
            w = self.take(R.EV_WOUND, "a wound on the dragon")
            area = w[2]
            if w[1] != R.FIG_DRAGON or w[3] != 1 or not 0 <= area < 4 or not p.area_open(area):
                self.fail(f"dragon wound row {w[1:4]} is not one marker on an open area")
            if area != R.AREA_ARMOUR and p.area_open(R.AREA_ARMOUR):
                self.fail("a wound placed past the dragon's armour while armour spaces are free")
            p.areas[area] += 1
            p.wounds[R.FIG_DRAGON] += 1
            p.counts["wounds_to_dragon"] += 1
            self.say(f"    the dragon takes a wound on {R.AREA_NAMES[area]}"
                     + (" (lost)" if area != R.AREA_ARMOUR and not p.area_open(area) else ""))
            if p.wounds[R.FIG_DRAGON] >= p.caps()[R.FIG_DRAGON]:
                self.take(R.EV_KILL, "the dragon's death")
                p.pos[R.FIG_DRAGON] = None
                p.over, p.winner, p.end = True, R.WIN_DWARVES, R.END_DRAGON_SLAIN
                self.say("    the dragon is slain")

    def attack_dwarf(self, f: int, value: int):
        if not self.strike_dwarf(f, value):
            self.wound_dwarf(f, value, by_dragon=True)

    def strike_dwarf(self, f: int, value: int) -> bool:
        """The dragon's blow on a dwarf and the dwarves' Defense decision; True when blocked."""
        row = self.take(R.EV_ATTACK, f"the dragon's attack on the {self.fig(f)}")
        if row[1:4] != (R.FIG_DRAGON, f, value):
            self.fail(f"attack row {row[1:4]}, expected {(R.FIG_DRAGON, f, value)}")
        self.p.counts["dragon_attacks"] += 1
        if self.blocked(R.DWARVES):
            self.p.counts["dragon_attacks_blocked"] += 1
            self.check_dwarves_out(R.DWARVES)
            return True
        return False

    def wound_dwarf(self, f: int, value: int, by_dragon: bool):
        p = self.p
        m = min(value, p.caps()[f] - p.wounds[f])
        w = self.take(R.EV_WOUND, f"wounds on the {self.fig(f)}")
        if w[1:4] != (f, 0, m):
            self.fail(f"wound row {w[1:4]}, expected {(f, 0, m)}")
        p.wounds[f] += m
        p.counts["wounds_to_dwarves" if by_dragon else "fury_wounds"] += m
        self.say(f"    the {self.fig(f)} takes {m} wound{'s' if m != 1 else ''} ({p.wounds[f]}/{p.caps()[f]})")
        if p.wounds[f] >= p.caps()[f]:
            self.take(R.EV_KILL, f"the {self.fig(f)}'s death")
            p.pos[f] = None
            self.say(f"    the {self.fig(f)} is killed")
            if f == R.FIG_NET and p.netted:
                p.counts["fired_net_stays_if_netter_dies"] += 1
                if not self.rules.net_stays_if_netter_dies:
                    p.netted = False
            if not p.dwarves():
                p.over, p.winner, p.end = True, R.WIN_DRAGON, R.END_DWARVES_SLAIN

    # -- the end --
    def finish(self):
        p = self.p
        row = self.take(R.EV_END, "the end of the game")
        if row[1:4] != (p.winner, p.end, p.turn):
            self.fail(f"recorded result {row[1:4]}, the rules give {(p.winner, p.end, p.turn)}")
        if self.i != len(self.rows):
            self.fail("events after the end of the game")
        self.check_record()
        who = {R.WIN_DRAGON: "the dragon wins", R.WIN_DWARVES: "the dwarves win",
               R.WIN_NOBODY: "nobody wins"}[p.winner]
        self.say(f"end after {p.turn} turns: {R.END_NAMES[p.end]}, {who} "
                 f"(wounds: dragon {p.counts['wounds_to_dragon']}, dwarves {p.counts['wounds_to_dwarves']})")

    def check_record(self):
        """The kernel's row of the games table agrees with the replay."""
        if self.record is None:
            return
        p = self.p
        want = dict(p.counts)
        want.update(winner=p.winner, end=p.end, turns=p.turn, dragon_win=int(p.winner == R.WIN_DRAGON),
                    armour_wounds=p.areas[R.AREA_ARMOUR], flight_wounds=p.areas[R.AREA_FLIGHT],
                    fire_wounds=p.areas[R.AREA_FIRE], move_wounds=p.areas[R.AREA_MOVE],
                    fury_dwarf_dead=int(not p.alive(R.FIG_FURY)), net_dwarf_dead=int(not p.alive(R.FIG_NET)),
                    archer_dead=int(not p.alive(R.FIG_ARCHER)),
                    dragon_cards_left=p.hand_size(R.DRAGON) + len(p.decks[R.DRAGON]),
                    dwarf_cards_left=p.hand_size(R.DWARVES) + len(p.decks[R.DWARVES]),
                    violations=0, bad_choices=0)
        want["fury_used"] = int(p.fury_used)
        want["fury_turn"] = p.counts["fury_turn"] if p.fury_used else -1
        record = dict(self.record)
        record["fury_used"] = int(record.get("fury_turn", -1) >= 0)
        for name, value in want.items():
            if name in record and int(record[name]) != int(value):
                raise RefereeError(f"result: the kernel recorded {name} = {record[name]}, the replay gives {value}")
        checked = ("fired_fire_order", "fired_simultaneous_blows", "fired_attackers_chosen",
                   "fired_net_stays_if_netter_dies", "fired_mulligan_first", "fired_free_placement",
                   "fired_mulligan", "fired_escape", "fired_net_hold")
        for name, value in record.items():     # counters the replay never saw must be zero
            if name not in want and (name.startswith(("dragon_", "dwarf_")) or name in checked) and int(value) != 0:
                raise RefereeError(f"result: the kernel recorded {name} = {value}, the replay saw none")


def replay_turn(rules: DrakoRules, position: Position, rows) -> list[str]:
    """Check one turn's events (starting with its EV_TURN row) from a hand-built position, which
    is updated in place; returns the play-by-play. For golden scenarios."""
    r = Replay(rules, rows)
    r.p = position
    r.turn()
    if r.i != len(r.rows) and not (position.over and r.peek()[0] == R.EV_END):
        r.fail("events after the end of the turn")
    return r.lines


def replay(rules: DrakoRules, trace) -> list[str]:
    """Check one trace (a sim.engine.game.Trace, or bare event rows) and return its play-by-play."""
    rows = getattr(trace, "events", trace)
    record = getattr(trace, "record", None)
    try:
        return Replay(rules, rows, record).run()
    except (ValueError, IndexError, KeyError) as e:
        raise RefereeError(f"malformed trace: {e}") from None
