"""Built-in Drakerion strategies.

A Drakerion strategy is one numba function with the game's decision signature
(kind, options, n_options, state, board, cards, params) -> index of the chosen row
(sim/games/drakerion/records.py, docs/DRAKERION.md "Exact option sets"). The kernel lists the legal rows
of every decision (first player, set-up line, mulligan, Manoeuvre, action, combat response, target,
line, trigger, discard, search, look, cycle, ability attack) and the strategy picks one. The strategies
read only what their player may know: the board's effective stats of cards in play, their own hand and
the public counts of the state vector. They allocate nothing (`_nrt=False`) and write nothing but the
game's random stream `state[S_RNG]`.

random      Uniform over the legal rows of every decision, drawn from the game's own random stream
            (so the mulligan ends, and the action phase passes, with probability one).

aggressive  Attacks whenever it can: an attack that kills comes first (the defender with the most
            prestige), otherwise the one dealing the most damage for the least riposte taken, towards
            prestigious targets. Otherwise it plays the dearest character it can afford (shooters to the
            support line, everyone else to the front), then useful attachments, events and abilities;
            in a combat it uses Combat abilities, events and Named bonuses only when they turn the fight
            its own combatant's way, and never intercepts. It passes for good only when nothing useful is
            left, mulligans every card costing more than `mulligan_cost`, takes the Manoeuvre with the
            most gold, and goes first when it may (`go_first`).

value       The default. Weighs every attack by the prestige it is expected to take (a kill: the
            defender's prestige; lasting damage: a share of it) against the prestige it puts at risk
            (its attacker dying to the riposte, or left in reach of an enemy counter-attack), with a win
            or a loss (a wipe-out or 20 prestige) outweighing everything. Plays the character with the
            most stats per gold it can afford, attachments on the host they help most (curses on the
            enemy they hurt most), and events or abilities whose effect is worth more than their cost.
            Chooses Manoeuvres by need: cards when the hand is below `hand_target`, gold when the hand
            holds cards it cannot pay for. Places fragile shooters in support and sturdy characters on
            the front. In a combat it shields, heals, pumps, redirects or cancels only when that changes
            who dies, and intercepts to save a defender worth more with a sturdier interceptor. Aims
            damage and destruction at the enemy character with the most prestige it can kill. Passes for
            good when nothing is worth doing and leading the next turn is worth `lead_value` (a positive
            `lead_value` also makes it go first). Mulligans cards costing more than `mulligan_cost` and
            digs for cheap characters while it holds fewer than `min_cheap`. Resolves its pending
            triggers (forced ones first) and declines only what would hurt it.

Parameters (defaults; bounds for `dsim optimize` are in VALUE_BOUNDS / AGGRESSIVE_BOUNDS):
  value       kill_weight 1.0, risk_weight 1.0 (prestige taken / put at risk by riposte), counter_weight
              0.6 (left in reach of a counter-attack), damage_weight 0.3 (lasting damage short of a kill),
              hand_target 3, draw_need 0.2 (a Manoeuvre card's worth per card below hand_target),
              mulligan_cost 4, min_cheap 2, lead_value 0.1, fragile_hp 3 (shooters with this HP or less
              stay in support)
  aggressive  mulligan_cost 4, prestige_weight 1.0 (towards prestigious defenders), riposte_weight 0.5
              (riposte taken, against damage dealt), go_first 1 (>= 0.5: go first)

Both heuristics stop acting (pass, decline) once their own actions and abilities this game exceed
LOOP_GUARD a turn, so a user's card with a free repeatable ability cannot make a game run forever. They
assume the default `win_prestige` of 20 (the rules' config row is not passed to strategies) and, for a
Named character's third bonus, the default reading (+1 ranged).

The strategies' code, by concern: board (readers of the board and the hand), fights (the trade of a fight or an
attack), worth (what an effect, an ability or a card is worth), choices (the decisions both heuristics answer
alike), value and aggressive (each one's own decisions and parameters), players (the entry points).
"""

from __future__ import annotations

from sim.engine.strategy import Strategy, StrategyRegistry
from strategies.drakerion.aggressive import AGGRESSIVE, AGGRESSIVE_BOUNDS, AGGRESSIVE_DEFAULTS
from strategies.drakerion.players import aggressive_choice, random_choice, value_choice
from strategies.drakerion.value import VALUE, VALUE_BOUNDS, VALUE_DEFAULTS

REGISTRY = StrategyRegistry("drakerion")

REGISTRY.register(Strategy(
    "random", ("seat0", "seat1"), (random_choice,),
    "uniform over the legal rows of every decision"))
REGISTRY.register(Strategy(
    "aggressive", ("seat0", "seat1"), (aggressive_choice,),
    "attacks whenever it can (kills first, then the most damage for the least riposte), plays its dearest "
    "character (shooters to support), uses combat tricks only to win its own fight, never intercepts, "
    "mulligans cards over mulligan_cost, takes the Manoeuvre with the most gold",
    AGGRESSIVE, AGGRESSIVE_DEFAULTS, AGGRESSIVE_BOUNDS))
REGISTRY.register(Strategy(
    "value", ("seat0", "seat1"), (value_choice,),
    "trades prestige taken against prestige risked (riposte and counter-attack), buys the most stats per "
    "gold, chooses Manoeuvres by need, keeps fragile shooters in support, shields, redirects and "
    "intercepts to save a combatant, aims removal at the most prestige it can kill, passes for good to lead",
    VALUE, VALUE_DEFAULTS, VALUE_BOUNDS))
