"""Drako's shared vocabulary: codes, the layout of the game-state vector, trace events, output
columns and the numba signature every strategy decision function has.

The kernel, the strategies and the referee all import these names. numba freezes module constants
into compiled code and its disk cache does not notice edits here: after changing a number in this
file, clear the numba cache (`__pycache__` / `NUMBA_CACHE_DIR`).
"""

from __future__ import annotations

import numpy as np
from numba import types

# ---- sides, figures, dragon ability areas -----------------------------------------------------
DRAGON, DWARVES = 0, 1
SIDE_NAMES = ("dragon", "dwarves")

FIG_DRAGON, FIG_FURY, FIG_NET, FIG_ARCHER = 0, 1, 2, 3   # dwarf figure = 1 + dwarf index
N_FIGS = 4
FIG_NAMES = ("dragon", "Fury dwarf", "Net dwarf", "archer")

AREA_ARMOUR, AREA_FLIGHT, AREA_FIRE, AREA_MOVE = 0, 1, 2, 3
AREA_NAMES = ("armour", "flight", "fire", "movement")

# ---- card symbols (one code per option kind; "move"/"attack" are one figure for either side) ----
SYM_NONE, SYM_DEFENSE, SYM_MOVE, SYM_FLIGHT, SYM_ATTACK, SYM_FIRE = 0, 1, 2, 3, 4, 5
SYM_MOVE_TWO, SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_NET = 6, 7, 8, 9
N_SYM = 10
SYM_NAMES = ("none", "defense", "move", "flight", "attack", "fire",
             "move_two", "attack_two", "crossbow", "net")
SYM_HAS_VALUE = (False, False, True, False, True, True, True, True, True, False)
SIDE_SYMBOLS = (
    (SYM_DEFENSE, SYM_MOVE, SYM_FLIGHT, SYM_ATTACK, SYM_FIRE),
    (SYM_DEFENSE, SYM_MOVE, SYM_MOVE_TWO, SYM_ATTACK, SYM_ATTACK_TWO, SYM_CROSSBOW, SYM_NET),
)

MAX_TYPES = 16          # card kinds per deck
MAX_DECK = 128          # cards per deck
# card table: cards[side, type, :] = count, symbol 1, value 1, symbol 2, value 2
CARD_COUNT, CARD_SYM0, CARD_VAL0, CARD_SYM1, CARD_VAL1 = 0, 1, 2, 3, 4

# ---- hex directions (axial) ------------------------------------------------------------------
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# ---- the kernel's work array: configuration, board, decks, scratch (fixed offsets) ------------
MAX_HEX = 128           # board hexes (rules allow up to 127)
OPT_WIDTH = 8           # columns of a decision's option rows
MAX_OPTS = 512          # option rows of one decision
(C_HEXES, C_NTYPES_D, C_NTYPES_W, C_DECK_D, C_DECK_W, C_HAND_LIMIT, C_OPENING, C_DRAW, C_ACTIONS,
 C_FIRST_ACTIONS, C_FURY_ACTIONS, C_FURY_WOUND, C_FURY_LETHAL, C_TURN_CAP, C_MULLIGAN,
 C_FREE_PLACEMENT, C_FIRE_RANGE, C_FIRE_NEEDS_TARGET, C_CROSSBOW_MIN, C_NET_STAYS, C_STUCK_DISCARD,
 C_THROUGH, C_DRAGON_START) = range(23)
C_START = 23          # 3 dwarves' first-game hexes
C_CAP = 26            # 4 figures' wound spaces (dragon: all areas)
C_ACAP = 30           # 4 dragon areas' spaces
C_CHECK = 34          # 1: verify invariants after every action
C_ATT_CHOSEN = 35     # 1: the dwarf player picks which adjacent dwarves strike (else the first found)
C_SIMUL = 36          # 1: every Defense decision of one card's blows comes before any wound
C_FIRE_FAR = 37       # 1: a fire line hits its farthest dwarf first (else the nearest)
C_MULL_FIRST = 38     # side that decides on its mulligan first (0 dragon, 1 dwarves)
N_CFG = 39
W_TROW = 65           # next trace row
W_TRACING = 66        # 1 while the current game is traced
W_TOVER = 67          # 1 once the trace buffer overflowed
W_GEO_ROWS = 68       # shape of the geo block
W_GEO_COLS = 69
W_RAY_AT = 70         # where the fire-ray table starts (after the geo block; see kernel.ray_table)
W_SRNG = 71           # the search player's own random stream (kernel_search), seeded per game
W_NSEARCH = 72        # decisions the search player made in this batch
W_BOARD = 128         # MAX_HEX: figure on each hex, -1 when empty
W_DECKS = W_BOARD + MAX_HEX           # 2 x MAX_DECK: shuffled decks
W_GONE = W_DECKS + 2 * MAX_DECK       # 2 x MAX_TYPES: cards played or discarded, by kind
W_CARDS = W_GONE + 2 * MAX_TYPES      # 2 x MAX_TYPES x 5: the card table
W_SCR = W_CARDS + 2 * MAX_TYPES * 5   # 3 x MAX_HEX: scratch for path searches
W_RING2 = W_SCR + 3 * MAX_HEX         # MAX_HEX x 12 x 3: hexes two steps away and the hexes between
W_ST = W_RING2 + MAX_HEX * 36         # the state vector (N_STATE, below)
W_OPTS = W_ST + 256                   # MAX_OPTS x OPT_WIDTH: the pending decision's rows
W_GEO = W_OPTS + MAX_OPTS * OPT_WIDTH  # the geo block (3H x max(H, 6)), then the fire-ray table (H x H)

# ---- the state vector the kernel keeps and strategies read ----------------------------------
S_SIDE = 0            # side making the current decision
S_TURN = 1            # turns begun, both sides counted
S_ACTIONS = 2         # actions left in this turn, the current one included
S_TURN_ACTIONS = 3    # actions this turn started with
S_NETTED = 4
S_FURY_USED = 5
S_FURY_NOW = 6
S_OVER = 7
S_WINNER = 8          # 0 dragon, 1 dwarves, 2 nobody (stalemate)
S_END = 9             # END_* code
S_POS = 10            # 4 figures: hex index, -1 once killed
S_WOUND = 14          # 4 figures: wound markers (dragon: all areas together)
S_CAP = 18            # 4 figures: wound spaces
S_AREA = 22           # 4 dragon areas: markers
S_ACAP = 26           # 4 dragon areas: spaces
S_HAND_N = 30         # 2 sides: cards in hand
S_DECK_N = 32         # 2 sides: cards left in deck
S_GONE = 34           # 2 sides: cards played or discarded
S_SYM = 36            # 2 x N_SYM: cards in hand showing each symbol
S_HAND = S_SYM + 2 * N_SYM            # 2 x MAX_TYPES: cards in hand of each kind
S_DECK_TOP = S_HAND + 2 * MAX_TYPES   # 2 sides: index of the next card to draw
S_DECK_LEN = S_DECK_TOP + 2           # 2 sides: cards in the deck order (deck size)
S_HAND_MASK = S_DECK_LEN + 2          # 2 sides: bit t set while the hand holds a card of kind t
S_HAND_LIMIT = S_HAND_MASK + 2        # rule values strategies need: the hand limit,
S_DRAW_COUNT = S_HAND_LIMIT + 1       # cards a draw takes
S_RNG = S_DRAW_COUNT + 1              # the game's random stream (xorshift64* state, as in sim.engine.rng):
#                                       it shuffles the decks, and strategies draw from it (`draw`)
# counters reported per game
T_USE = S_RNG + 1                     # 2 x N_SYM: options played (defense = blocks)
T_DRAWS = T_USE + 2 * N_SYM           # 2 sides: draw actions
T_DISCARDS = T_DRAWS + 2              # 2 sides: cards discarded to the hand limit
T_DUDS = T_DISCARDS + 2               # 2 sides: cards thrown away for want of a legal action
T_PASSES = T_DUDS + 2                 # 2 sides: actions passed
T_MULLIGANS = T_PASSES + 2            # 2 sides
T_WOUNDS_DRAGON = T_MULLIGANS + 2     # markers placed on the dragon
T_WOUNDS_DWARVES = T_WOUNDS_DRAGON + 1  # markers the dragon placed on dwarves
T_FURY_WOUNDS = T_WOUNDS_DWARVES + 1
T_ESCAPES = T_FURY_WOUNDS + 1
T_FURY_TURN = T_ESCAPES + 1
T_NET_TURNS = T_FURY_TURN + 1         # dragon turns begun under the net
T_ATTACKS = T_NET_TURNS + 1           # 2 sides: attacks made (each hit of a fire line counts)
T_BLOCKED = T_ATTACKS + 2             # 2 sides: of those, blocked
T_VIOLATIONS = T_BLOCKED + 2          # invariant failures (check mode)
T_BAD_CHOICES = T_VIOLATIONS + 1      # strategy answers out of range (replaced by option 0)
# the kernel's own registers (where the rules stopped to ask, and what they were doing)
R_PHASE = T_BAD_CHOICES + 1
R_NOPTS = R_PHASE + 1                 # rows offered in the pending decision
R_ROW = R_NOPTS + 1                   # 8: copy of the chosen row
R_MOVER = R_ROW + 8                   # side whose turn it is
R_USED = R_MOVER + 1                  # actions the current action uses up
R_CARD = R_USED + 1
R_OPT = R_CARD + 1
R_SYM = R_OPT + 1
R_VAL = R_SYM + 1
R_TARGET = R_VAL + 1
R_ATTACKER = R_TARGET + 1
R_SECOND = R_ATTACKER + 1
R_IN_FIRE = R_SECOND + 1
R_FIRE_DIR = R_IN_FIRE + 1
R_FIRE_AT = R_FIRE_DIR + 1                 # (unused since the fire line is listed at once)
R_FIRE_K = R_FIRE_AT + 1
R_WOUNDS_LEFT = R_FIRE_K + 1
R_MOVE_FIG = R_WOUNDS_LEFT + 1
R_MOVE_HEX = R_MOVE_FIG + 1
R_INDEX = R_MOVE_HEX + 1              # dwarf being placed / mulligan decisions made
R_PEND = R_INDEX + 1                  # simultaneous blows: wounds waiting on the dragon
R_NHIT = R_PEND + 1                   # fire: dwarves on the line
R_HIT = R_NHIT + 1                    # 3: those dwarves, nearest first
R_PW = R_HIT + 3                      # 3: simultaneous fire: wounds waiting, in the order of the blows
R_FIRE_J = R_PW + 3                   # fire: index (in the order of the blows) of the current blow
S_NET_BLOWS = R_FIRE_J + 1            # dwarf blows at the dragon since the net was cast
# rule counters (the games table's fired_* columns) and habit counters, after the registers so the
# state layout strategies read before them is unchanged
T_F_ATTACKERS = S_NET_BLOWS + 1       # an attack with more adjacent dwarves than strikers (a choice)
T_F_SIMUL = T_F_ATTACKERS + 1         # a card striking two or more blows
T_F_FIRE_ORDER = T_F_SIMUL + 1        # a fire line hitting two or more dwarves
T_F_MULL_FIRST = T_F_FIRE_ORDER + 1   # mulligan decisions taken in some order (once a game)
T_F_THROUGH = T_F_MULL_FIRST + 1      # a walk listed where a hex is reachable only through a figure
T_F_FIRE_TARGET = T_F_THROUGH + 1     # the dragon holds usable fire but no line holds a dwarf
T_F_NET_STAYS = T_F_FIRE_TARGET + 1   # the Net dwarf killed while the dragon is netted
T_F_FURY_LETHAL = T_F_NET_STAYS + 1   # a dwarf turn starts with Fury unused and its wound lethal
T_F_STUCK = T_F_FURY_LETHAL + 1       # a side with cards but no draw and no usable card
T_F_CROSSBOW_MIN = T_F_STUCK + 1      # the archer holds a crossbow card next to the dragon
T_F_PLACED = T_F_CROSSBOW_MIN + 1     # dwarves placed freely
T_NET_LAST = T_F_PLACED + 1           # nets cast as the last action of a turn
T_NET_UNSTRUCK = T_NET_LAST + 1       # nets the dragon escaped before any dwarf struck at it
N_STATE = T_NET_UNSTRUCK + 1
assert N_STATE <= 256, "the state vector outgrew its room in the work array"

# the slots a finished game reports (the kernel copies only these into its output rows)
OUT_SLOTS = np.array(list(range(S_TURN, S_GONE)) + list(range(T_USE, T_BAD_CHOICES + 1))
                     + list(range(T_F_ATTACKERS, T_NET_UNSTRUCK + 1)), dtype=np.int64)
OUT_COLUMN = {int(slot): k for k, slot in enumerate(OUT_SLOTS)}

# ---- decisions: kinds of question a strategy answers, and the option rows it sees ------------
# Every decision function has the signature below: (kind, options, n_options, state, geo, params)
# → index of the chosen row in options[:n_options]. geo has 3*H rows: [0, H) hex distances,
# [H, 2H) the direction (0-5) from hex a to hex b when they share a straight line else -1,
# [2H, 3H) the six neighbours of each hex (-1 off the board). Strategies read; they must not
# write to options, state (except drawing from its random stream) or geo.

# answered by `act`
K_MAIN = 0            # rows: action, card kind, option 0/1, symbol, value, ways, other symbol, other value
#                       (ways: 1 for moves, adjacent dwarves for attacks, most dwarves on a fire line;
#                       throw-away rows: A_DUD, kind, -1, symbol 1, value 1, 0, symbol 2, value 2)
# answered by `target`
K_DRAGON_MOVE = 1     # rows: hex
K_FLIGHT = 2          # rows: hex
K_VICTIM = 3          # rows: dwarf figure
K_FIRE = 4            # rows: direction, dwarves hit, first hex
K_DWARF_MOVE = 5      # rows: dwarf figure, hex   (one-dwarf move, and the first of a two-dwarf move)
K_DWARF_MOVE2 = 6     # rows: dwarf figure, hex   (second dwarf of a two-dwarf move; staying = not moving)
# answered by `react`
K_BLOCK = 7           # rows: block 0/1, card kind, attack value, target figure, attacker figure,
#                       the card's other symbol, its value (row 0 is "no block")
K_WOUND = 8           # rows: dragon area (the dwarf player places a wound beyond the armour)
K_DISCARD = 9         # rows: card kind, copies in hand, symbol 1, value 1, symbol 2, value 2
# answered by `setup`
K_MULLIGAN = 10       # rows: 0 keep, 1 exchange
K_PLACE = 11          # rows: hex, dwarf figure
# answered by `target`
K_ATTACKERS = 12      # rows: first striker, second striker or -1 (asked when more dwarves are adjacent
#                       than the card lets strike, under the attackers_chosen reading)
KIND_NAMES = ("main", "dragon move", "flight", "victim", "fire", "dwarf move", "second dwarf move",
              "block", "wound", "discard", "mulligan", "place", "attackers")

# main action codes (column 0 of K_MAIN rows)
# A_FURY is offered before the dwarves' first action while Fury is available; declaring it uses
# no action and the main question is asked again, with the Fury turn's actions.
A_DRAW, A_PLAY, A_ESCAPE, A_DUD, A_PASS, A_FURY = 0, 1, 2, 3, 4, 5
ACTION_NAMES = ("draw", "play", "escape", "throw away", "pass", "Fury")

# strategy function slots (Strategy.functions order)
F_ACT, F_TARGET, F_REACT, F_SETUP = 0, 1, 2, 3
FUNCTION_NAMES = ("act", "target", "react", "setup")

# C-contiguous arrays: indexing them needs no stride arithmetic, which the hot loops feel
DECISION_SIG = types.int64(types.int64, types.int64[:, ::1], types.int64, types.int64[::1],
                           types.int64[:, ::1], types.float64[::1])
DECISION_FN = types.FunctionType(DECISION_SIG)

# ---- end of game ------------------------------------------------------------------------------
END_DRAGON_SLAIN, END_DWARVES_SLAIN, END_OUT_OF_CARDS, END_STALEMATE = 0, 1, 2, 3
END_NAMES = ("dragon slain", "dwarves slain", "dwarves out of cards", "stalemate")
WIN_DRAGON, WIN_DWARVES, WIN_NOBODY = 0, 1, 2

# ---- trace: one int16 row of TRACE_WIDTH per event --------------------------------------------
TRACE_WIDTH = 8
EV_DECK = 1       # side, position, card kind            (a deck's order, before dealing)
EV_MULLIGAN = 2   # side                                 (hand returned; EV_DECK rows follow)
EV_PLACE = 3      # dwarf figure, hex
EV_TURN = 4       # side, turn number, actions
EV_FURY = 5       # actions of the Fury turn (the Fury dwarf's EV_WOUND / EV_KILL rows follow)
EV_DRAW = 6       # side, cards drawn
EV_DISCARD = 7    # side, card kind                      (down to the hand limit)
EV_PLAY = 8       # side, card kind, option, a, b, c, d  (see below)
EV_DUD = 9        # side, card kind                      (thrown away: no legal action)
EV_ESCAPE = 10
EV_PASS = 11      # side, 1 = whole turn (no cards), 0 = one action
EV_ATTACK = 12    # attacker figure, target figure, value
EV_BLOCK = 13     # side, card kind
EV_WOUND = 14     # figure, area (dragon) or 0, markers
EV_KILL = 15      # figure
EV_END = 16       # winner, end mode, turns
EVENT_NAMES = {EV_DECK: "deck", EV_MULLIGAN: "mulligan", EV_PLACE: "place", EV_TURN: "turn",
               EV_FURY: "fury", EV_DRAW: "draw", EV_DISCARD: "discard", EV_PLAY: "play",
               EV_DUD: "throw away", EV_ESCAPE: "escape", EV_PASS: "pass", EV_ATTACK: "attack",
               EV_BLOCK: "block", EV_WOUND: "wound", EV_KILL: "kill", EV_END: "end"}
# EV_PLAY details by symbol: move/flight (dragon): a = hex; attack (dragon): a = dwarf figure;
# fire: a = direction; move (dwarf): a = figure, b = hex; move_two: a, b, c, d = figure, hex, figure
# (-1 when one dwarf moves), hex; attack / attack_two: a, b = attacking figures (-1 when one);
# crossbow: a = archer; net: nothing.

# ---- per-game output columns ------------------------------------------------------------------
# (column, dtype) of the games table, one row per game; game.py derives them from OUT_SLOTS.
GAME_COLUMNS = [
    ("dragon_win", np.int8), ("winner", np.int8), ("end", np.int8), ("turns", np.int16),
    ("wounds_to_dragon", np.int8), ("wounds_to_dwarves", np.int8), ("fury_wounds", np.int8),
    ("armour_wounds", np.int8), ("flight_wounds", np.int8), ("fire_wounds", np.int8),
    ("move_wounds", np.int8),
    ("flight_lost", np.int8), ("fire_lost", np.int8), ("move_lost", np.int8),
    ("fury_dwarf_dead", np.int8), ("net_dwarf_dead", np.int8), ("archer_dead", np.int8),
    ("dwarves_dead", np.int8),
    ("fury_turn", np.int16), ("escapes", np.int8), ("net_turns", np.int8),
    ("dragon_cards_left", np.int8), ("dwarf_cards_left", np.int8),
    ("dragon_draws", np.int8), ("dwarf_draws", np.int8),
    ("dragon_discards", np.int8), ("dwarf_discards", np.int8),
    ("dragon_duds", np.int8), ("dwarf_duds", np.int8),
    ("dragon_passes", np.int16), ("dwarf_passes", np.int16),
    ("dragon_mulligan", np.int8), ("dwarf_mulligan", np.int8),
    ("dragon_attacks", np.int8), ("dwarf_attacks", np.int8),
    ("dragon_attacks_blocked", np.int8), ("dwarf_attacks_blocked", np.int8),
] + [(f"dragon_{SYM_NAMES[s]}", np.int8) for s in SIDE_SYMBOLS[DRAGON]] \
  + [(f"dwarf_{SYM_NAMES[s]}", np.int8) for s in SIDE_SYMBOLS[DWARVES]] \
  + [("violations", np.int32), ("bad_choices", np.int32),
     ("nets_last_action", np.int8), ("nets_escaped_unstruck", np.int8)]

# rule counters: fired_<name> int32 columns of the games table (how often the rule or effect applied)
FLAG_COUNTERS = (("attackers_chosen", T_F_ATTACKERS), ("simultaneous_blows", T_F_SIMUL),
                 ("fire_order", T_F_FIRE_ORDER), ("mulligan_first", T_F_MULL_FIRST),
                 ("move_through_figures", T_F_THROUGH), ("fire_needs_target", T_F_FIRE_TARGET),
                 ("net_stays_if_netter_dies", T_F_NET_STAYS), ("fury_allowed_when_lethal", T_F_FURY_LETHAL),
                 ("stuck_player_discards", T_F_STUCK), ("crossbow_min_range", T_F_CROSSBOW_MIN),
                 ("free_placement", T_F_PLACED))
FIRED_COLUMNS = tuple(f"fired_{SYM_NAMES[s]}" for s in range(1, N_SYM)) + (
    "fired_fury", "fired_mulligan", "fired_escape", "fired_net_hold", "fired_match_play") + tuple(
    f"fired_{name}" for name, _ in FLAG_COUNTERS)

# match play adds, per match, the second leg (same deals, the two strategies' sides swapped)
MATCH_COLUMNS = [
    ("leg2_winner", np.int8), ("leg2_end", np.int8), ("leg2_turns", np.int16),
    ("leg2_wounds_to_dragon", np.int8), ("leg2_wounds_to_dwarves", np.int8),
    ("a_legs", np.int8), ("b_legs", np.int8), ("a_wounds", np.int16), ("b_wounds", np.int16),
    ("match_winner", np.int8),
]
MATCH_A, MATCH_B, MATCH_TIE = 0, 1, 2
