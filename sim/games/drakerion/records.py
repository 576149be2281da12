"""Drakerion's shared vocabulary: card-table columns, the ability (effect) vocabulary, zones, the
board and state layouts strategies read, decision kinds with their option rows, trace events and the
strategy signature. The kernel, the card loader, the strategies and the referee all import these
names; `docs/DRAKERION.md` explains the readings behind them.

numba freezes module constants into compiled code; the cache stamp (sim/_numba_cache.py) hashes
this module, so editing a number here recompiles the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import types

# ---- card types, factions, keywords ----------------------------------------------------------
CHARACTER, ATTACHMENT, EVENT, MANOEUVRE, CITY, BANNER = 0, 1, 2, 3, 4, 5
TYPE_NAMES = ("character", "attachment", "event", "manoeuvre", "city", "banner")
RAVITAILLEMENT, TACTIQUE = 0, 1
SUBTYPE_NAMES = ("ravitaillement", "tactique")

KW_IMPLACABLE, KW_IMPREVISIBLE, KW_INFILTRATEUR, KW_INTERCEPTEUR, KW_NO_ATTACHMENT = 1, 2, 4, 8, 16
KEYWORD_NAMES = {"implacable": KW_IMPLACABLE, "imprevisible": KW_IMPREVISIBLE,
                 "infiltrateur": KW_INFILTRATEUR, "intercepteur": KW_INTERCEPTEUR,
                 "pas_d_attachement": KW_NO_ATTACHMENT}
MAX_TRAITS = 62                       # traits are bits of an int64 mask

# ---- abilities: trigger + condition + cost + effect + target + amount + filters ---------------
MAX_ABIL = 3                          # abilities per card
# triggers
TR_PASSIVE, TR_ACTION, TR_ACTION_DISCARD, TR_COMBAT, TR_DEPLOY, TR_DESTRUCTION, TR_REACTION = range(7)
TRIGGER_NAMES = ("passive", "action", "action_discard", "combat", "deployment", "destruction", "reaction")
# reaction conditions
WH_NONE, WH_ATTACKS, WH_DEFENDS, WH_ENEMY_DESTROYED, WH_FRIEND_DESTROYED, WH_END_OF_TURN, \
    WH_ENEMY_PLAYS, WH_DAMAGED = range(8)
CONDITION_NAMES = ("none", "attacks", "defends", "enemy_destroyed", "friend_destroyed", "end_of_turn",
                   "enemy_plays_character", "damaged")
# costs (paid before the effect: "cost pour effect")
CO_NONE, CO_TAP_SELF, CO_DISCARD, CO_GOLD, CO_DESTROY_SELF, CO_DAMAGE_SELF = range(6)
COST_NAMES = ("none", "tap_self", "discard", "gold", "destroy_self", "damage_self")
# effects
(EF_SHIELD, EF_HEAL, EF_SEARCH, EF_MOVE, EF_LOOK, EF_REDIRECT, EF_DRAW, EF_DESTROY, EF_DISCARD,
 EF_MILL, EF_PUT_INTO_PLAY, EF_DAMAGE, EF_MELEE, EF_RANGED, EF_RIPOSTE, EF_HP, EF_GOLD, EF_TAP,
 EF_UNTAP, EF_CANCEL, EF_ATTACK) = range(21)
EFFECT_NAMES = ("shield", "heal", "search", "move", "look", "redirect", "draw", "destroy", "discard",
                "mill", "put_into_play", "damage", "melee", "ranged", "riposte", "hp", "gold", "tap",
                "untap", "cancel", "attack")
N_EFFECTS = len(EFFECT_NAMES)
# targets
(TG_SELF, TG_OWN, TG_ENEMY, TG_ANY, TG_ALL_OWN, TG_ALL_ENEMY, TG_OWN_COMBATANT, TG_ENEMY_COMBATANT,
 TG_ME, TG_OPPONENT) = range(10)
TARGET_NAMES = ("self", "own", "enemy", "any", "all_own", "all_enemy", "own_combatant",
                "enemy_combatant", "me", "opponent")
# filter bits on character targets (and on searched / put-into-play cards)
FI_WOUNDED, FI_UNWOUNDED, FI_FRONT, FI_SUPPORT, FI_MAX_COST = 1, 2, 4, 8, 16
FILTER_NAMES = {"wounded": FI_WOUNDED, "unwounded": FI_UNWOUNDED, "front": FI_FRONT,
                "support": FI_SUPPORT, "max_cost": FI_MAX_COST}
# one ability = ABIL_WIDTH ints
(AB_TRIGGER, AB_CONDITION, AB_FORCED, AB_COST, AB_COST_AMOUNT, AB_EFFECT, AB_TARGET, AB_AMOUNT,
 AB_TRAITS, AB_FILTER, AB_MAX_COST, AB_CARD_TYPE) = range(12)
ABIL_WIDTH = 12
# AB_TRAITS: trait mask a target/searched card must share (0 = any); AB_CARD_TYPE: the card type
# searched / put into play (-1 = any); AB_MAX_COST: printed cost bound when FI_MAX_COST is set.

# ---- the card table: one int64 row per distinct card -------------------------------------------
(CD_TYPE, CD_FACTION, CD_COST, CD_MELEE, CD_RANGED, CD_RIPOSTE, CD_HP, CD_PRESTIGE, CD_TRAITS,
 CD_NAMED, CD_NAME_ID, CD_KEYWORDS, CD_ATTACH_EXCEPT, CD_DRAW, CD_GOLD, CD_SUBTYPE, CD_INITIATIVE,
 CD_CYCLE, CD_NABIL) = range(19)
CD_ABIL = 19                          # MAX_ABIL x ABIL_WIDTH ability fields follow
CARD_WIDTH = CD_ABIL + MAX_ABIL * ABIL_WIDTH
NEUTRAL = -1                          # CD_FACTION of unaffiliated cards
# For an attachment, CD_MELEE..CD_PRESTIGE are the modifiers it gives its host.

# ---- instances: every physical card of a game has a fixed board row --------------------------
MAX_INST = 64                         # rows per player; player p's rows are p*64 .. p*64+63
MAX_DECK = 48                         # deck cards use rows 0..deck_size-1 (deck file order)
I_MAN = 48                            # the 8 Manoeuvres: rows 48..55 (deck file order)
N_MAN = 8
I_CITY = 56
I_BANNER = 57
N_INST = 2 * MAX_INST

# zones
(Z_NONE, Z_DECK, Z_HAND, Z_FRONT, Z_SUPPORT, Z_DISCARD, Z_ATTACHED, Z_RESOLVING, Z_MAN_PILE,
 Z_MAN_COVERED, Z_MAN_TOP, Z_CITY, Z_BANNER) = range(13)
ZONE_NAMES = ("none", "deck", "hand", "front", "support", "discard", "attached", "resolving",
              "manoeuvre pile", "manoeuvre covered", "manoeuvre revealed", "city", "banner")
FRONT, SUPPORT = 0, 1                 # line codes in option rows

# board: one int64 row per instance (board[N_INST, BOARD_WIDTH])
(B_CARD, B_OWNER, B_ZONE, B_HOST, B_DAMAGE, B_TAPPED, B_SHIELD, B_MELEE, B_RANGED, B_RIPOSTE, B_HP,
 B_PRESTIGE, B_CB_MELEE, B_CB_RANGED, B_CB_RIPOSTE, B_TB_MELEE, B_TB_RANGED, B_TB_RIPOSTE, B_TB_HP,
 B_ENTERED, B_CB_HP) = range(21)
BOARD_WIDTH = 21
# B_CARD: card-table row (-1 = unused slot). B_MELEE..B_PRESTIGE: effective values (printed + attached
# modifiers + passives + temporary gains), kept current by the kernel. B_CB_*: gains lasting this
# combat (B_CB_HP is the board's last column); B_TB_*: gains lasting this turn. B_ENTERED: turn the card
# last entered play.

# ---- state vector (int64[N_STATE]) -------------------------------------------------------------
S_TURN = 0            # current turn (1-based; 0 during set-up)
S_FIRST = 1           # first player of this turn
S_ACTOR = 2           # player deciding now
S_OVER = 3            # 1 once the game ended
S_WINNER = 4          # 0 / 1, -1 = draw
S_END = 5             # END_* code
S_PHASE = 6           # PH_* code
S_IN_COMBAT = 7
S_ATTACKER = 8        # instance (-1 outside combat)
S_DEFENDER = 9
S_RANGED = 10         # 1 for a ranged attack
S_CANCELLED = 11
S_SOURCE = 12         # instance whose ability is resolving (-1)
S_ABIL = 13           # its ability index
S_PENDING = 14        # instance waiting for a line / host (D_LINE, D_TARGET for attachments)
S_DECKED = 15         # bit p: player p had to draw from an empty deck (only under empty_deck_loses)
S_GOLD = 16           # 2 players
S_PRESTIGE = 18       # 2
S_HAND_N = 20         # 2
S_DECK_N = 22         # 2
S_FRONT_N = 24        # 2: characters on the front line
S_SUPPORT_N = 26      # 2
S_DISCARD_N = 28      # 2
S_PASSED = 30         # 2: passed since the last action (this phase)
S_OUT = 32            # 2: passed for good this turn
S_MAN_TOP = 34        # 2: instance of the revealed Manoeuvre (-1)
S_MAN_PILE_N = 36     # 2: Manoeuvres left in the pile
S_DECK_SIZE = 38      # 2
S_RNG = 40            # the game's random stream (xorshift64*, sim.engine.rng); strategies may draw
S_SEAT_OF_FIRST = 41  # first player of turn 1
# per-game counters, [2] each (player index added)
T_PLAYED = 42         # cards played from hand
T_ATTACKS = 44
T_RANGED_ATTACKS = 46
T_KILLS = 48          # opponent characters destroyed by this player (prestige taken)
T_LOST = 50           # own characters destroyed
T_GOLD_SPENT = 52
T_GOLD_GAINED = 54
T_DRAWN = 56
T_MULLIGAN = 58       # cards put under in the mulligan
T_ABILITIES = 60      # abilities resolved
T_INTERCEPTS = 62
T_NAMED = 64          # Named discard bonuses
T_CYCLES = 66         # City cycles
T_PASS_GOOD = 68      # turns this player passed for good
T_DAMAGE_DEALT = 70
T_ACTIONS = 72        # actions taken (passes included)
T_SHIELD_ABSORBED = 74
T_FIRED = 76          # N_EFFECTS: effects resolved, by effect code (both players)
T_KW = T_FIRED + N_EFFECTS            # N_KW: keyword / rule / rule-flag events, K_* below
(K_IMPLACABLE_HELD, K_IMPREVISIBLE_PLAY, K_INFILTRATE, K_INTERCEPT, K_NO_ATTACH_BLOCK, K_MOVE_UP,
 K_PILE_REBUILT, K_RIPOSTE, K_SHIELD_ABSORB, K_HEALED, K_FOUND, K_MAN_DEPLOY, K_F_NAMED_SECOND,
 K_F_OUT_COMBAT, K_F_PRESTIGE_ANY, K_F_ABILITY_ATTACK, K_F_PRESTIGE_BEATS, K_F_SHIELDS,
 K_F_INTERCEPT_IMPLACABLE, K_F_IMPREV_EVENT, K_F_COMBAT_GAINS_TIMING, K_F_SHIELDS_TURN, K_F_EMPTY_DECK,
 K_F_NAMED_FIRST, K_F_GAINS_IN_PLAY, K_F_ATTACH_PRESTIGE) = range(26)
# the games table's column of each is fired_<name>. Keywords: implacable (an Implacable attacker held
# against a redirect, a cancel or an interception), imprevisible (a card played in a combat only
# Imprévisible allowed), infiltrateur (a melee attack from the front into the support line),
# intercepteur (an interception), pas_d_attachement (an attachment put into play while some character
# refused it), bouclier (a hit partly or wholly absorbed by shields), soigner (a heal on a wounded
# character), chercher (a deck search that took a card). Rule-flag situations are named by the flag.
KW_EVENT_NAMES = ("implacable", "imprevisible", "infiltrateur", "intercepteur", "pas_d_attachement",
                  "support_moved_up", "manoeuvres_rebuilt", "riposte_hit", "bouclier", "soigner", "chercher",
                  "manoeuvre_deployment", "named_bonus_second", "out_player_combat_actions",
                  "prestige_any_destruction", "ability_attack_taps", "prestige_beats_wipeout",
                  "shields_combatants_only", "intercept_implacable", "imprevisible_event_combat_only",
                  "combat_gains_by_timing", "shields_end_of_turn", "empty_deck_loses", "named_bonus_first",
                  "gains_last_in_play", "attachment_prestige_to_host")
N_KW = len(KW_EVENT_NAMES)
T_TRIG = T_KW + N_KW                  # 7: abilities resolved, by trigger code (passive: cards with a
#                                       passive ability entering play or revealed)
T_VIOLATIONS = T_TRIG + 7
T_BAD_CHOICES = T_VIOLATIONS + 1
T_DECISIONS = T_BAD_CHOICES + 1
# Bit masks of each player's board rows by zone (bit k: row p * MAX_INST + k), kept by the kernel so
# strategies visit the few cards of a zone rather than scan the board: S_MASK + 4 * p + M_*. A state
# built by hand leaves S_MASKS_KEPT at 0 and the strategies scan the board instead.
M_CHARS, M_ATTACHED, M_HAND, M_DISCARD = 0, 1, 2, 3   # characters in play (front or support), ...
S_MASK = T_DECISIONS + 1              # 8
S_MASKS_KEPT = S_MASK + 8
N_STATE = S_MASKS_KEPT + 1

# phases
PH_SETUP, PH_MANOEUVRE, PH_ACTION, PH_COMBAT, PH_END = range(5)

# ---- decisions ---------------------------------------------------------------------------------
# A strategy answers every decision with one function: (kind, options, n_options, state, board,
# cards, params) -> index of the chosen row of options[:n_options]. It must not write to anything
# but state[S_RNG] (its random stream). Every decision is traced, even one with a single option
# (which is not passed to the strategy).
OPT_WIDTH = 6
MAX_OPTS = 256
(D_FIRST, D_SETUP, D_MULLIGAN, D_MANOEUVRE, D_ACTION, D_COMBAT, D_TARGET, D_LINE, D_TRIGGER,
 D_DISCARD, D_SEARCH, D_LOOK, D_CYCLE, D_ATTACK) = range(14)
DECISION_NAMES = ("first player", "set-up line", "mulligan", "manoeuvre", "action", "combat",
                  "target", "line", "trigger", "discard", "search", "look", "cycle", "attack")
# rows by kind (unused columns are -1):
#   D_FIRST     [0 = I go first | 1 = my opponent goes first]
#   D_SETUP     [inst, line]
#   D_MULLIGAN  [inst] to put under the deck, or [-1] done
#   D_MANOEUVRE [inst, draw, gold, subtype]
#   D_ACTION    [ACT_*, ...]  see below
#   D_COMBAT    [ACT_*, ...]
#   D_TARGET    [inst]        (S_SOURCE / S_ABIL say what for; S_PENDING for an attachment's host)
#   D_LINE      [line]        (S_PENDING is the character)
#   D_TRIGGER   [inst, ability, forced]  or [-1, -1, 0]: decline my remaining optional triggers
#   D_DISCARD   [inst]        a card of my hand to discard (cost or effect)
#   D_SEARCH    [inst] or [-1] find nothing (deck search; put-into-play from hand)
#   D_LOOK      [inst]        the next card to put back on top (the last chosen ends on top)
#   D_CYCLE     [inst]        the card of my hand the City puts under my deck
#   D_ATTACK    [attacker, defender, ranged]   an attack made by an ability
# action codes (column 0 of D_ACTION / D_COMBAT rows)
ACT_PASS = 0          # [ACT_PASS]
ACT_PASS_GOOD = 1     # [ACT_PASS_GOOD]                   (action phase only)
ACT_PLAY = 2          # [ACT_PLAY, inst, ability or -1]   play a card of my hand
ACT_ABILITY = 3       # [ACT_ABILITY, inst, ability]      Action / Action-from-discard / Combat
ACT_CYCLE = 4         # [ACT_CYCLE, city]                 (action phase only)
ACT_ATTACK = 5        # [ACT_ATTACK, attacker, defender, ranged]   (action phase only)
ACT_NAMED = 6         # [ACT_NAMED, inst, discarded copy, bonus] bonus: EF_SHIELD, then the effect code of
#                       the first and the second stat (named_bonus_first / _second: EF_MELEE, EF_RANGED, ...)
ACT_INTERCEPT = 7     # [ACT_INTERCEPT, inst]             (first combat action of the defender)
ACT_NAMES = ("pass", "pass for good", "play", "ability", "cycle", "attack", "named bonus", "intercept")

DECISION_SIG = types.int64(types.int64, types.int64[:, ::1], types.int64, types.int64[::1],
                           types.int64[:, ::1], types.int64[:, ::1], types.float64[::1])
DECISION_FN = types.FunctionType(DECISION_SIG)

# ---- end of game -------------------------------------------------------------------------------
END_PRESTIGE, END_WIPEOUT, END_CAP, END_BOTH, END_DECKED = 0, 1, 2, 3, 4
END_NAMES = ("prestige", "no characters left", "turn cap (draw)", "both at once (draw)",
             "the opponent had to draw from an empty deck")
DRAW = -1

# ---- trace: int16 rows of TRACE_WIDTH ----------------------------------------------------------
TRACE_WIDTH = 10
EV_DECK = 1       # [EV_DECK, player, n, pos, inst]       one row per card, bottom (pos 0) to top,
#                                                       after every shuffle
EV_FIRST = 2      # [EV_FIRST, chooser or -1 (tie, drawn at random), first player]
EV_DECIDE = 3     # [EV_DECIDE, kind, player, n_options, o0, o1, o2, o3, o4, o5]  the chosen row
EV_TURN = 4       # [EV_TURN, turn, first, gold0, gold1, prestige0, prestige1, hand0, hand1, -]
EV_END = 5        # [EV_END, winner, end, turns, prestige0, prestige1]
EVENT_NAMES = {EV_DECK: "deck", EV_FIRST: "first", EV_DECIDE: "decide", EV_TURN: "turn", EV_END: "end"}

# ---- configuration row the kernel takes (rules.py `arrays().config`) ------------------------------
(C_HAND_SIZE, C_WIN_PRESTIGE, C_START_GOLD, C_TURN_CAP, C_MULL_SHUFFLE_FIRST, C_NAMED_SECOND,
 C_OUT_COMBAT, C_PRESTIGE_ANY, C_ABILITY_ATTACK_TAPS, C_PRESTIGE_BEATS, C_SHIELDS_COMBATANTS,
 C_INTERCEPT_IMPLACABLE, C_IMPREV_EVENT_COMBAT_ONLY, C_COMBAT_GAINS_TIMING, C_SHIELDS_TURN, C_EMPTY_DECK_LOSES,
 C_NAMED_FIRST, C_GAINS_IN_PLAY, C_ATTACH_PRESTIGE_NONE, C_CHECK) = range(20)
N_CFG = 20                                   # 0 is the default reading of every flag added after C_PRESTIGE_BEATS
NAMED_SECOND_NAMES = ("ranged", "riposte")   # C_NAMED_SECOND: 0 ranged, 1 riposte
NAMED_FIRST_NAMES = ("melee", "ranged", "riposte", "hp")   # C_NAMED_FIRST: 0 melee, ...
NAMED_STAT_EFFECTS = {"melee": EF_MELEE, "ranged": EF_RANGED, "riposte": EF_RIPOSTE, "hp": EF_HP}
MAX_ABILITY_ATTACKS = 16                     # attacks made by abilities in one chain (each combat's own
#                                              abilities may make the next): a self-feeding card stops here
MAX_SETUP = 8                                # set-up cards per Banner
