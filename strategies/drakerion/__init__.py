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

search      The reference player: plays each option of a decision on to the end of the game many times, the
            hidden cards dealt afresh each time, value playing both seats, and keeps the option that wins
            most when it clearly beats value's own answer (sim/games/drakerion/kernel_search.py,
            docs/SEARCH.md). Its parameters: `budget` (playouts per decision, default 20) and `informed`
            (default 0; 1: the playouts play the other seat with the strategy and weights it really plays).

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
assume the default `win_prestige` of 20 (the rules' config row is not passed to strategies); a Named bonus's
option row names its stat (an effect code), so they value it under whichever reading the rules set.

The strategies' code, by concern: board (readers of the board and the hand), fights (the trade of a fight or an
attack), worth (what an effect, an ability or a card is worth), choices (the decisions both heuristics answer
alike), value and aggressive (each one's own decisions and parameters); here, the entry points the kernel calls
(value and aggressive share one router) and the registry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drakerion.records import DECISION_SIG, D_ACTION, D_ATTACK, D_COMBAT, D_MANOEUVRE, D_MULLIGAN, S_ACTOR
from sim.games.drakerion.shared import below as draw   # the kernel's own
from strategies.drakerion.aggressive import (
    A_FIRST, A_PRESTIGE, A_RIPOSTE, AC, AD, AGGRESSIVE, AGGRESSIVE_BOUNDS, AGGRESSIVE_DEFAULTS, AK, AR,
    SHOOTERS_BACK, aggressive_action, aggressive_combat, aggressive_manoeuvre, aggressive_mulligan,
)
from strategies.drakerion.board import FAST, INLINE, NEG, better
from strategies.drakerion.choices import shared_choice, stop_row
from strategies.drakerion.fights import attack_value, rush_score
from strategies.drakerion.value import (
    V_COUNTER, V_DAMAGE, V_FRAGILE, V_KILL, V_LEAD, V_RISK, VALUE, VALUE_BOUNDS, VALUE_DEFAULTS, value_action,
    value_combat, value_manoeuvre, value_mulligan,
)

REGISTRY = StrategyRegistry("drakerion")
STYLE_VALUE, STYLE_AGGRESSIVE = 0, 1       # the heuristics' styles, for the router


@njit(**INLINE)
def choose(style, kind, opts, n, st, board, cards, params):
    """A heuristic's row for a decision: stop past the loop guard, answer what both answer alike with the
    style's weights, else the style's own way."""
    if n <= 1:
        return 0
    me = st[S_ACTOR]
    r = stop_row(kind, opts, n, st, me)
    if r >= 0:
        return r
    if style == STYLE_VALUE:
        kw, rw, cw, dw = params[V_KILL], params[V_RISK], params[V_COUNTER], params[V_DAMAGE]
        fragile_hp, go_first = params[V_FRAGILE], params[V_LEAD] >= 0.0
    else:
        kw, rw, cw, dw = AK, AR, AC, AD
        fragile_hp, go_first = SHOOTERS_BACK, params[A_FIRST] >= 0.5
    r = shared_choice(kind, opts, n, st, cards, board, me, kw, rw, cw, dw, fragile_hp, go_first)
    if r >= 0:
        return r
    if kind == D_ACTION:
        if style == STYLE_VALUE:
            return value_action(opts, n, st, cards, board, me, params)
        return aggressive_action(opts, n, st, cards, board, me, params)
    if kind == D_COMBAT:
        if style == STYLE_VALUE:
            return value_combat(opts, n, st, cards, board, me, params)
        return aggressive_combat(opts, n, st, cards, board, me)
    if kind == D_MANOEUVRE:
        if style == STYLE_VALUE:
            return value_manoeuvre(opts, n, st, cards, board, me, params)
        return aggressive_manoeuvre(opts, n)
    if kind == D_MULLIGAN:
        if style == STYLE_VALUE:
            return value_mulligan(opts, n, st, cards, board, me, params)
        return aggressive_mulligan(opts, n, cards, board, params)
    if kind == D_ATTACK:                       # an attack an ability makes: the best by the style's measure
        k = 0
        bv = NEG
        for r in range(n):
            if style == STYLE_VALUE:
                v = attack_value(st, cards, board, opts[r, 0], opts[r, 1], opts[r, 2], kw, rw, cw, dw)
            else:
                v = rush_score(board, opts[r, 0], opts[r, 1], opts[r, 2], params[A_PRESTIGE], params[A_RIPOSTE])
            bv, k = better(v, r, bv, k)
        return k
    return 0


@njit_later(DECISION_SIG, **FAST)
def value_choice(kind, opts, n, st, board, cards, params):
    return choose(STYLE_VALUE, kind, opts, n, st, board, cards, params)


@njit_later(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, board, cards, params):
    return choose(STYLE_AGGRESSIVE, kind, opts, n, st, board, cards, params)


@njit_later(DECISION_SIG, **FAST)
def random_choice(kind, opts, n, st, board, cards, params):
    if n <= 1:
        return 0
    return draw(st, n)


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


# ---- the search player -------------------------------------------------------------------------
# The kernel runs it (kernel_search): it replays the game, which a strategy function cannot. Its parameters are
# the budget (playouts per decision) and `informed` (0: the playouts play the other seat as value at its default
# weights; 1: with the strategy and weights that seat really plays in this line-up, value's default weights if it
# searches too). The kernel gets them apart and value's default weights as the seat's parameters
# (`search_params`): the searcher's own moves in the playouts and the incumbent answer it must beat are value's.
# The default budget is 20, not 200: a playout costs about a game of value's decisions and a searching seat meets
# dozens of decisions a game, so a skill-ladder rung (10,000 games with a search seat) would take ten times as long
# at 200 (the measured rates and rung times are in docs/SEARCH.md).
SEARCH, SEARCH_DEFAULTS = ("budget", "informed"), (20.0, 0.0)
P_BUDGET, P_INFORMED = 0, 1


def search_params(params) -> tuple[int, int, np.ndarray]:
    """A search seat's budget, whether it is informed (0 or 1; 0 when not given), and the weights its function
    (value's) and its own moves in the playouts take."""
    informed = int(len(params) > P_INFORMED and params[P_INFORMED] > 0.5)
    return max(1, int(params[P_BUDGET])), informed, np.array(VALUE_DEFAULTS, dtype=np.float64)


@njit_later(DECISION_SIG, **FAST)
def search_choice(kind, opts, n, st, board, cards, params):
    """Recognised by identity in the game's `play` and run by kernel_search; called anywhere else (and for the
    incumbent answer) it plays as value does."""
    return choose(STYLE_VALUE, kind, opts, n, st, board, cards, params)


REGISTRY.register(Strategy(
    "search", ("seat0", "seat1"), (search_choice,),
    "plays each option of a decision on to the end of the game (budget: playouts per decision, spread over the "
    "options by sequential halving) with the hidden cards dealt afresh each time, value playing both seats (with "
    "informed=1 the other seat as the line-up plays it), and keeps the one that wins most when it clearly beats "
    "value's own answer",
    SEARCH, SEARCH_DEFAULTS))
