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
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drakerion.shared import below as draw, target_ok   # the kernel's own
from sim.games.drakerion.records import (
    AB_AMOUNT, AB_CARD_TYPE, AB_COST, AB_COST_AMOUNT, AB_EFFECT, AB_FILTER, AB_MAX_COST, AB_TARGET,
    AB_TRAITS, AB_TRIGGER, ABIL_WIDTH, ACT_ABILITY, ACT_ATTACK, ACT_CYCLE, ACT_INTERCEPT, ACT_NAMED,
    ACT_PASS, ACT_PASS_GOOD, ACT_PLAY, ATTACHMENT, B_CARD, B_DAMAGE, B_HOST, B_HP, B_MELEE, B_PRESTIGE,
    B_RANGED, B_RIPOSTE, B_SHIELD, B_TAPPED, B_ZONE, CD_ABIL, CD_COST, CD_CYCLE, CD_HP, CD_KEYWORDS,
    CD_MELEE, CD_NABIL, CD_PRESTIGE, CD_RANGED, CD_RIPOSTE, CD_TRAITS, CD_TYPE, CHARACTER, CO_DAMAGE_SELF,
    CO_DESTROY_SELF, CO_DISCARD, CO_GOLD, CO_TAP_SELF, DECISION_SIG, D_ACTION, D_ATTACK, D_COMBAT,
    D_CYCLE, D_DISCARD, D_FIRST, D_LINE, D_LOOK, D_MANOEUVRE, D_MULLIGAN, D_SEARCH, D_SETUP, D_TARGET,
    D_TRIGGER, EF_ATTACK, EF_CANCEL, EF_DAMAGE, EF_DESTROY, EF_DISCARD, EF_DRAW, EF_GOLD, EF_HEAL, EF_HP,
    EF_LOOK, EF_MELEE, EF_MILL, EF_MOVE, EF_PUT_INTO_PLAY, EF_RANGED, EF_REDIRECT, EF_RIPOSTE, EF_SEARCH,
    EF_SHIELD, EF_TAP, EF_UNTAP, EVENT, FI_MAX_COST,
    FRONT, I_CITY, KW_IMPLACABLE, KW_IMPREVISIBLE, MAX_DECK, MAX_INST, M_CHARS, M_HAND, SUPPORT, S_ABIL,
    S_ACTOR, S_MASK, S_MASKS_KEPT,
    S_ATTACKER, S_DECK_N, S_DEFENDER, S_GOLD, S_HAND_N, S_IN_COMBAT, S_OUT, S_PASSED, S_PENDING,
    S_PRESTIGE, S_RANGED, S_SOURCE, S_TURN, TG_ALL_ENEMY, TG_ALL_OWN, TG_ANY, TG_ENEMY,
    TG_ENEMY_COMBATANT, TG_OPPONENT, TG_OWN, TG_OWN_COMBATANT, TG_SELF, TR_ACTION, TR_COMBAT, TR_DEPLOY,
    TR_PASSIVE, T_ABILITIES, T_ACTIONS, Z_ATTACHED, Z_FRONT, Z_HAND, Z_SUPPORT,
)

FAST = dict(cache=True, _nrt=False)
INLINE = dict(cache=True, _nrt=False, inline='always')
NEG = -1.0e9
BIG = 50.0             # a win (or a loss) outweighs any trade
WIN_PRESTIGE = 20      # the rules' default `win_prestige` (strategies do not see the rules' config row)
LOOP_GUARD = 100       # own actions + abilities a turn past which the heuristics only pass / decline
REGISTRY = StrategyRegistry("drakerion")


# ---- small readers ---------------------------------------------------------------------------------


@njit(**INLINE)
def printed(cards, board, i, field):
    """A printed value (card table column) of instance i."""
    return cards[board[i, B_CARD], field]


@njit(**INLINE)
def abil(cards, board, i, a, field):
    """Field AB_* of ability a of instance i's card."""
    return cards[board[i, B_CARD], CD_ABIL + a * ABIL_WIDTH + field]


@njit(**INLINE)
def in_play(board, i):
    """A character on the front or support line."""
    z = board[i, B_ZONE]
    return board[i, B_CARD] >= 0 and (z == Z_FRONT or z == Z_SUPPORT)


@njit(**INLINE)
def life(board, i):
    """Damage character i can still take this combat (shields included)."""
    return board[i, B_HP] - board[i, B_DAMAGE] + board[i, B_SHIELD]


@njit(**INLINE)
def hits(board, i, ranged):
    """Damage character i deals when it attacks (melee or ranged)."""
    return board[i, B_RANGED] if ranged else board[i, B_MELEE]


@njit(**INLINE)
def worth(board, i):
    """What losing character i costs its owner: its prestige to the opponent, plus a body."""
    return 1.0 + board[i, B_PRESTIGE]


@njit(**INLINE)
def is_shooter(cards, board, i):
    return printed(cards, board, i, CD_RANGED) > 0


@njit(**INLINE)
def subject(board, src):
    """The character an ability of src acts on as `self`: src itself, or an attachment's host."""
    z = board[src, B_ZONE]
    if z == Z_FRONT or z == Z_SUPPORT:
        return src
    if z == Z_ATTACHED:
        return board[src, B_HOST]
    return -1


@njit(**INLINE)
def fighting(st):
    return st[S_IN_COMBAT] != 0 and st[S_ATTACKER] >= 0 and st[S_DEFENDER] >= 0


@njit(**INLINE)
def worn_out(st, me):
    """Past the loop guard: the heuristics stop doing things."""
    return st[T_ACTIONS + me] + st[T_ABILITIES + me] > LOOP_GUARD * (st[S_TURN] + 1)


@njit(**INLINE)
def find(opts, n, col, value):
    """The first row whose column `col` holds `value`, or -1."""
    for r in range(n):
        if opts[r, col] == value:
            return r
    return -1


@njit(**FAST)
def best(scores, n):
    k = 0
    for r in range(1, n):
        if scores[r] > scores[k]:
            k = r
    return k


# ---- the board -------------------------------------------------------------------------------------
# The loops over a player's characters (or hand) visit the set bits of a row mask, lowest row first
# (the order a scan of the rows would take): the kernel keeps the masks in the state vector.


@njit(**FAST)
def scan_mask(board, p, hand):
    """Rows of p in hand (or characters in play) as a bit mask, read off the board."""
    m = 0
    for k in range(MAX_DECK):
        i = p * MAX_INST + k
        z = board[i, B_ZONE]
        ok = (z == Z_HAND) if hand else (z == Z_FRONT or z == Z_SUPPORT)
        if ok and board[i, B_CARD] >= 0:
            m |= np.int64(1) << k
    return m


@njit(**INLINE)
def chars_of(st, board, p):
    """Bit mask of p's characters in play (bit k: row p * MAX_INST + k)."""
    if st[S_MASKS_KEPT]:
        return st[S_MASK + 4 * p + M_CHARS]
    return scan_mask(board, p, False)


@njit(**INLINE)
def hand_of(st, board, p):
    """Bit mask of the cards of p's hand."""
    if st[S_MASKS_KEPT]:
        return st[S_MASK + 4 * p + M_HAND]
    return scan_mask(board, p, True)


@njit(**INLINE)
def low_bit(m):
    return np.int64(trailing_zeros(m))


@njit(**FAST)
def count_chars(st, board, p):
    """Characters player p has in play."""
    n = 0
    m = chars_of(st, board, p)
    while m:
        m &= m - 1
        n += 1
    return n


@njit(**INLINE)
def threat(st, cards, board, q, h, skip):
    """The most damage one character of q (other than `skip`) could deal to h in a later attack."""
    top = 0
    h_front = board[h, B_ZONE] == Z_FRONT
    m = chars_of(st, board, q)
    while m:
        k = q * MAX_INST + low_bit(m)
        m &= m - 1
        if k == skip:
            continue
        k_front = board[k, B_ZONE] == Z_FRONT
        if k_front and h_front and board[k, B_MELEE] > top:
            top = board[k, B_MELEE]
        if is_shooter(cards, board, k) and (k_front or h_front) and board[k, B_RANGED] > top:
            top = board[k, B_RANGED]
    return top


@njit(**FAST)
def card_worth(cards, c, gold):
    """How much a card in hand is worth keeping (discards, cycling, looks and searches)."""
    t = cards[c, CD_TYPE]
    if t == CHARACTER:
        w = 1.0 + 0.2 * (cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP]
                         + 1.5 * cards[c, CD_RANGED])
    elif t == ATTACHMENT:
        w = 0.6 + 0.15 * abs(cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP]
                             + cards[c, CD_RANGED])
    elif t == EVENT:
        w = 0.9
    else:
        w = 0.3
    if cards[c, CD_COST] > gold + 3:
        w -= 0.4
    return w


@njit(**INLINE)
def gold_cost(st, cards, board, me, skip, spend):
    """What spending `spend` gold takes from `me`: much while another card of my hand (not `skip`)
    would then be out of reach, little when the gold is spare (nothing left to pay for)."""
    if spend <= 0:
        return 0.0
    left = st[S_GOLD + me] - spend
    m = hand_of(st, board, me)
    while m:
        i = me * MAX_INST + low_bit(m)
        m &= m - 1
        if i != skip and printed(cards, board, i, CD_COST) > left:
            return 0.25 * spend
    return 0.05 * spend


@njit(**FAST)
def shortfall(st, cards, board, me):
    """Gold missing to pay for the dearest card of my hand (0: I can pay for everything)."""
    top = 0
    gold = st[S_GOLD + me]
    m = hand_of(st, board, me)
    while m:
        i = me * MAX_INST + low_bit(m)
        m &= m - 1
        t = printed(cards, board, i, CD_TYPE)
        if t == CHARACTER or t == ATTACHMENT or t == EVENT:
            top = max(top, printed(cards, board, i, CD_COST) - gold)
    return top


@njit(**FAST)
def combat_tricks(st, cards, board, me):
    """Hand cards I could use in a combat window now (events with a Combat ability, Imprévisible
    cards), the reason not to pass for good too early."""
    n = 0
    gold = st[S_GOLD + me]
    m = hand_of(st, board, me)
    while m:
        i = me * MAX_INST + low_bit(m)
        m &= m - 1
        if printed(cards, board, i, CD_COST) > gold:
            continue
        if printed(cards, board, i, CD_KEYWORDS) & KW_IMPREVISIBLE:
            n += 1
        elif printed(cards, board, i, CD_TYPE) == EVENT:
            for a in range(printed(cards, board, i, CD_NABIL)):
                if abil(cards, board, i, a, AB_TRIGGER) == TR_COMBAT:
                    n += 1
                    break
    return n


# ---- fights ------------------------------------------------------------------------------------------


@njit(**FAST)
def balance(st, board, me, att, dfd, a_out, a_life, d_out, d_life, kw, rw):
    """Prestige balance for `me` of the combat under way between att and dfd, with the attacker's
    damage / life changed by a_out / a_life and the defender's riposte / life by d_out / d_life."""
    ranged = st[S_RANGED]
    out = hits(board, att, ranged) + a_out
    back = (0 if ranged else board[dfd, B_RIPOSTE]) + d_out
    mine_attacks = (att >> 6) == me
    s = 0.0
    if out > 0 and out >= life(board, dfd) + d_life:
        s += kw * worth(board, dfd) if mine_attacks else -rw * worth(board, dfd)
    if back > 0 and back >= life(board, att) + a_life:
        s += -rw * worth(board, att) if mine_attacks else kw * worth(board, att)
    return s


@njit(**FAST)
def balance_now(st, board, me, kw, rw):
    if not fighting(st):
        return 0.0
    return balance(st, board, me, st[S_ATTACKER], st[S_DEFENDER], 0, 0, 0, 0, kw, rw)


@njit(**FAST)
def fight_delta(st, board, me, h, d_melee, d_ranged, d_riposte, d_life, kw, rw):
    """How the combat's balance for `me` changes if combatant h gains these stats (0 if h is not in it)."""
    if not fighting(st):
        return 0.0
    att = st[S_ATTACKER]
    dfd = st[S_DEFENDER]
    ranged = st[S_RANGED]
    now = balance(st, board, me, att, dfd, 0, 0, 0, 0, kw, rw)
    if h == att:
        return balance(st, board, me, att, dfd, d_ranged if ranged else d_melee, d_life, 0, 0, kw, rw) - now
    if h == dfd:
        return balance(st, board, me, att, dfd, 0, 0, 0 if ranged else d_riposte, d_life, kw, rw) - now
    return 0.0


@njit(**FAST)
def attack_value(st, cards, board, att, dfd, ranged, kw, rw, cw, dw):
    """Prestige an attack is expected to take minus the prestige it puts at risk (value's trade)."""
    me = att >> 6
    return attack_score(st, cards, board, att, dfd, ranged, kw, rw, cw, dw,
                        threat(st, cards, board, 1 - me, att, -1), count_chars(st, board, me),
                        count_chars(st, board, 1 - me))


@njit(**INLINE)
def attack_score(st, cards, board, att, dfd, ranged, kw, rw, cw, dw, t_now, n_me, n_q):
    """attack_value given what does not depend on the defender (an action scores many attacks): the
    threat on att now and the characters each side has."""
    me = att >> 6
    q = 1 - me
    out = hits(board, att, ranged)
    back = 0 if ranged else board[dfd, B_RIPOSTE]
    dl = life(board, dfd)
    kill = out > 0 and out >= dl
    dies = back > 0 and back >= life(board, att)
    s = 0.0
    if kill:
        s += kw * worth(board, dfd)
    elif out > 0:
        lasting = max(0, min(out, dl) - board[dfd, B_SHIELD])
        s += dw * worth(board, dfd) * lasting / max(1, board[dfd, B_HP] - board[dfd, B_DAMAGE])
    if dies:
        s -= rw * worth(board, att)
    elif cw > 0.0:
        # left in reach of a counter-attack (shields end with the combat, damage stays)
        left_now = board[att, B_HP] - board[att, B_DAMAGE]
        left_after = left_now - max(0, back - board[att, B_SHIELD])
        risk_now = t_now >= left_now
        risk_after = (threat(st, cards, board, q, att, dfd) if kill else t_now) >= left_after
        s -= cw * worth(board, att) * (int(risk_after) - int(risk_now))
    won = kill and (n_q == 1
                    or st[S_PRESTIGE + me] + board[dfd, B_PRESTIGE] >= WIN_PRESTIGE)
    lost = dies and (n_me == 1
                     or st[S_PRESTIGE + q] + board[att, B_PRESTIGE] >= WIN_PRESTIGE)
    if won and not lost:
        s += BIG
    elif lost and not won:
        s -= BIG
    return s


@njit(**FAST)
def best_attack_from(st, cards, board, h, kw, rw, cw, dw):
    """The best attack character h could make on any enemy character (an `attack` effect)."""
    q = 1 - (h >> 6)
    top = NEG
    shooter = is_shooter(cards, board, h)
    t_now = threat(st, cards, board, q, h, -1)
    n_me = count_chars(st, board, 1 - q)
    n_q = count_chars(st, board, q)
    m = chars_of(st, board, q)
    while m:
        d = q * MAX_INST + low_bit(m)
        m &= m - 1
        top = max(top, attack_score(st, cards, board, h, d, 0, kw, rw, cw, dw, t_now, n_me, n_q))
        if shooter:
            top = max(top, attack_score(st, cards, board, h, d, 1, kw, rw, cw, dw, t_now, n_me, n_q))
    return top if top > NEG else -0.05


@njit(**FAST)
def rush_score(board, att, dfd, ranged, pw, rpw):
    """aggressive's attack order: kills first (most prestige), then the most damage for the least
    riposte taken, towards prestigious defenders. Attacks that deal no damage are not worth it."""
    out = hits(board, att, ranged)
    if out <= 0:
        return -1.0
    dl = life(board, dfd)
    back = 0 if ranged else board[dfd, B_RIPOSTE]
    if out >= dl:
        return 150.0 + 5.0 * pw * board[dfd, B_PRESTIGE] - 0.1 * rpw * min(back, life(board, att))
    return 100.0 + 2.0 * min(out, dl) + pw * board[dfd, B_PRESTIGE] - rpw * min(back, life(board, att))


@njit(**FAST)
def reach_kill(st, cards, board, h, ranged, amt, kw):
    """Prestige character h could newly kill this turn with `amt` more melee (ranged) damage."""
    if ranged and not is_shooter(cards, board, h):
        return 0.0
    if not ranged and board[h, B_ZONE] != Z_FRONT:
        return 0.0
    q = 1 - (h >> 6)
    out = hits(board, h, ranged)
    top = 0.0
    m = chars_of(st, board, q)
    while m:
        d = q * MAX_INST + low_bit(m)
        m &= m - 1
        if ranged and board[h, B_ZONE] == Z_SUPPORT and board[d, B_ZONE] == Z_SUPPORT:
            continue
        if not ranged and board[d, B_ZONE] != Z_FRONT:
            continue
        dl = life(board, d)
        if out < dl and out + amt >= dl:
            top = max(top, kw * worth(board, d))
    return top


# ---- what an ability is worth ---------------------------------------------------------------------


@njit(**FAST)
def char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw):
    """Worth for `me` of effect e (amount amt) applied to character h, the combat under way included."""
    own = (h >> 6) == me
    sign = 1.0 if own else -1.0
    in_fight = fighting(st) and (h == st[S_ATTACKER] or h == st[S_DEFENDER])
    if e == EF_DAMAGE or e == EF_DESTROY:
        if e == EF_DESTROY or (amt > 0 and amt >= life(board, h)):
            v = -rw * worth(board, h) if own else kw * worth(board, h)
            if count_chars(st, board, h >> 6) == 1:
                v += -BIG if own else BIG
            if in_fight:                       # the combat ends without damage
                v -= balance_now(st, board, me, kw, rw)
            return v
        if amt <= 0:
            return 0.0
        lasting = max(0, amt - board[h, B_SHIELD])
        v = -sign * dw * worth(board, h) * lasting / max(1, board[h, B_HP] - board[h, B_DAMAGE])
        if in_fight:
            v += fight_delta(st, board, me, h, 0, 0, 0, -amt, kw, rw)
        return v
    if e == EF_SHIELD or e == EF_HEAL or e == EF_HP:
        gain = min(amt, board[h, B_DAMAGE]) if e == EF_HEAL else amt
        if gain == 0:
            return -0.02
        v = sign * (0.12 if e == EF_HEAL else 0.04) * gain
        if in_fight:
            v += fight_delta(st, board, me, h, 0, 0, 0, gain, kw, rw)
        elif gain > 0:
            # out of a combat: a character in reach of a killing blow is no longer (an HP gain only
            # lasts the turn, but it makes this turn's attacks on it pointless)
            left = board[h, B_HP] - board[h, B_DAMAGE]
            t = threat(st, cards, board, 1 - (h >> 6), h, -1)
            if t >= left and t < left + gain:
                v += sign * max(cw, 0.1) * worth(board, h)
        return v
    if e == EF_MELEE or e == EF_RANGED or e == EF_RIPOSTE:
        v = 0.0
        if in_fight:
            v += fight_delta(st, board, me, h, amt if e == EF_MELEE else 0, amt if e == EF_RANGED else 0,
                             amt if e == EF_RIPOSTE else 0, 0, kw, rw)
        elif e == EF_RIPOSTE:
            v += sign * 0.04 * amt
        elif board[h, B_TAPPED] == 0 and amt > 0:
            v += sign * (0.04 * amt + 0.5 * reach_kill(st, cards, board, h, e == EF_RANGED, amt, kw))
        return v
    if e == EF_TAP:
        if board[h, B_TAPPED]:
            return -0.02
        return -sign * (0.1 + 0.04 * max(board[h, B_MELEE], board[h, B_RANGED]))
    if e == EF_UNTAP:
        if board[h, B_TAPPED] == 0:
            return -0.02
        return sign * (0.1 + 0.04 * max(board[h, B_MELEE], board[h, B_RANGED]))
    if e == EF_MOVE:
        if own:
            return -0.05
        if board[h, B_ZONE] == Z_FRONT:        # out of melee reach: it cannot attack in melee either
            return 0.02 if is_shooter(cards, board, h) else 0.12 + 0.03 * board[h, B_MELEE]
        return 0.1 + 0.03 * board[h, B_PRESTIGE]   # a back-line character dragged into reach
    if e == EF_ATTACK:
        if not own:
            return -0.05
        return best_attack_from(st, cards, board, h, kw, rw, cw, dw)
    return 0.0


@njit(**FAST)
def hand_match(st, cards, board, me, src, a):
    """The dearest card of my hand an ability may put into play (-1: none)."""
    want = abil(cards, board, src, a, AB_CARD_TYPE)
    traits = abil(cards, board, src, a, AB_TRAITS)
    bounded = (abil(cards, board, src, a, AB_FILTER) & FI_MAX_COST) != 0
    bound = abil(cards, board, src, a, AB_MAX_COST)
    top = -1
    m = hand_of(st, board, me)
    while m:
        i = me * MAX_INST + low_bit(m)
        m &= m - 1
        c = board[i, B_CARD]
        t = cards[c, CD_TYPE]
        if (t != CHARACTER and t != ATTACHMENT) or (want >= 0 and t != want):
            continue
        if traits != 0 and (cards[c, CD_TRAITS] & traits) == 0:
            continue
        if bounded and cards[c, CD_COST] > bound:
            continue
        top = max(top, cards[c, CD_COST])
    return top


@njit(**FAST)
def player_value(st, cards, board, me, src, a, e, amt, tg):
    """Worth for `me` of an effect on a player (draw, gold, look, search, discard, mill, put into play)."""
    q = 1 - me if tg == TG_OPPONENT else me
    mine = q == me
    if e == EF_DRAW:
        k = min(amt, st[S_DECK_N + q])
        return 0.35 * k if mine else -0.25 * k
    if e == EF_GOLD:
        return 0.3 * amt if mine else -0.2 * amt
    if e == EF_LOOK:
        return 0.12 if st[S_DECK_N + me] > 1 else 0.0
    if e == EF_SEARCH:
        return 0.6 if st[S_DECK_N + me] > 0 else 0.0
    if e == EF_DISCARD:
        k = min(amt, st[S_HAND_N + q])
        return -0.35 * k if mine else 0.35 * k
    if e == EF_MILL:
        k = min(amt, st[S_DECK_N + q])
        if mine:
            return -0.05 * k
        return 0.08 * k + 0.05 if k > 0 else 0.0
    if e == EF_PUT_INTO_PLAY:
        top = hand_match(st, cards, board, me, src, a)
        return 0.5 + 0.25 * top if top >= 0 else -0.05
    return 0.0


@njit(**FAST)
def redirect_value(st, cards, board, me, src, a, h, kw, rw):
    """Worth for `me` of making h the defender of the attack under way."""
    if not fighting(st):
        return 0.0
    att = st[S_ATTACKER]
    return balance(st, board, me, att, h, 0, 0, 0, 0, kw, rw) - balance_now(st, board, me, kw, rw)


@njit(**FAST)
def effect_value(st, cards, board, me, src, a, kw, rw, cw, dw):
    """Worth for `me` of carrying out ability a of src now (its cost aside), its best target assumed."""
    e = abil(cards, board, src, a, AB_EFFECT)
    amt = abil(cards, board, src, a, AB_AMOUNT)
    tg = abil(cards, board, src, a, AB_TARGET)
    if e == EF_DRAW or e == EF_GOLD or e == EF_LOOK or e == EF_SEARCH or e == EF_DISCARD or e == EF_MILL \
            or e == EF_PUT_INTO_PLAY:
        return player_value(st, cards, board, me, src, a, e, amt, tg)
    if e == EF_CANCEL or e == EF_REDIRECT:
        if not fighting(st) or (printed(cards, board, st[S_ATTACKER], CD_KEYWORDS) & KW_IMPLACABLE):
            return -0.05
        if e == EF_CANCEL:
            return -balance_now(st, board, me, kw, rw)
        q = st[S_DEFENDER] >> 6
        top = NEG
        m = chars_of(st, board, q)
        while m:
            h = q * MAX_INST + low_bit(m)
            m &= m - 1
            if h != st[S_DEFENDER] and target_ok(cards, board, a, src, h):
                top = max(top, redirect_value(st, cards, board, me, src, a, h, kw, rw))
        return top if top > NEG else -0.05
    if tg == TG_SELF:
        h = subject(board, src)
        if h < 0 or not in_play(board, h):
            return -0.05
        return char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
    if tg == TG_OWN_COMBATANT or tg == TG_ENEMY_COMBATANT:
        if not fighting(st):
            return -0.05
        side = me if tg == TG_OWN_COMBATANT else 1 - me
        h = st[S_ATTACKER] if (st[S_ATTACKER] >> 6) == side else st[S_DEFENDER]
        if (h >> 6) != side or not in_play(board, h):
            return -0.05
        return char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
    if tg == TG_ALL_OWN or tg == TG_ALL_ENEMY:
        q = me if tg == TG_ALL_OWN else 1 - me
        total = 0.0
        m = chars_of(st, board, q)
        while m:
            h = q * MAX_INST + low_bit(m)
            m &= m - 1
            if target_ok(cards, board, a, src, h):
                total += char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw)
        return total
    if tg == TG_OWN or tg == TG_ENEMY or tg == TG_ANY:
        top = NEG
        for q in range(2):
            if (tg == TG_OWN and q != me) or (tg == TG_ENEMY and q == me):
                continue
            m = chars_of(st, board, q)
            while m:
                h = q * MAX_INST + low_bit(m)
                m &= m - 1
                if target_ok(cards, board, a, src, h):
                    top = max(top, char_value(st, cards, board, me, e, amt, h, kw, rw, cw, dw))
        return top if top > NEG else -0.05
    return 0.0


@njit(**INLINE)
def cost_value(st, cards, board, me, src, a, rw, extra_gold):
    """What paying ability a's cost takes from `me` (extra_gold: an event's own cost, paid with it)."""
    cost = abil(cards, board, src, a, AB_COST)
    amt = abil(cards, board, src, a, AB_COST_AMOUNT)
    if cost == CO_GOLD:
        return gold_cost(st, cards, board, me, src, amt + extra_gold)
    paid = gold_cost(st, cards, board, me, src, extra_gold)
    if cost == CO_TAP_SELF:
        # a character's attack is scored as its own action; a City that cycles loses its cycle
        if src == me * MAX_INST + I_CITY and printed(cards, board, src, CD_CYCLE):
            return paid + 0.1
        return paid + 0.02
    if cost == CO_DISCARD:
        return paid + 0.4 * amt
    if cost == CO_DESTROY_SELF or cost == CO_DAMAGE_SELF:
        if not in_play(board, src):
            return paid
        if cost == CO_DAMAGE_SELF and amt < life(board, src):
            return paid + 0.1 * amt - fight_delta(st, board, me, src, 0, 0, 0, -amt, 1.0, rw)
        v = paid + rw * worth(board, src) + 0.3
        if count_chars(st, board, me) == 1:
            v += BIG
        if fighting(st) and (src == st[S_ATTACKER] or src == st[S_DEFENDER]):
            v += balance_now(st, board, me, 1.0, rw)
        return v
    return paid


@njit(**FAST)
def ability_value(st, cards, board, me, src, a, kw, rw, cw, dw, extra_gold):
    """Effect less cost; for an event being played (extra_gold = its cost) the card itself too."""
    v = effect_value(st, cards, board, me, src, a, kw, rw, cw, dw) \
        - cost_value(st, cards, board, me, src, a, rw, extra_gold)
    if board[src, B_ZONE] == Z_HAND:
        v -= 0.1
    return v


@njit(**INLINE)
def event_cost(cards, board, act, i):
    """The gold a row costs besides its ability's cost: an event's own cost when it is played."""
    return printed(cards, board, i, CD_COST) if act == ACT_PLAY else 0


@njit(**FAST)
def host_value(st, cards, board, me, att_i, h, kw, rw):
    """Worth for `me` of attachment att_i bound to character h (a curse on an enemy counts too)."""
    c = board[att_i, B_CARD]
    dm = cards[c, CD_MELEE]
    dr = cards[c, CD_RANGED]
    drp = cards[c, CD_RIPOSTE]
    dh = cards[c, CD_HP]
    own = (h >> 6) == me
    rng = dr if is_shooter(cards, board, h) else 0
    gain = (dm + drp + dh + 1.5 * rng) * (0.3 + 0.04 * (board[h, B_MELEE] + life(board, h))) \
        - 0.3 * cards[c, CD_PRESTIGE]
    v = gain if own else -gain
    if dh < 0 and board[h, B_HP] + dh <= board[h, B_DAMAGE]:      # the host dies of it
        v = -rw * worth(board, h) if own else kw * worth(board, h)
    elif own and board[h, B_ZONE] == Z_FRONT:
        v += 0.1
    return v + fight_delta(st, board, me, h, dm, dr, drp, dh, kw, rw)


@njit(**FAST)
def attach_value(st, cards, board, me, i, kw, rw):
    """Playing attachment i: its best host, less its cost."""
    top = NEG
    for q in range(2):
        m = chars_of(st, board, q)
        while m:
            h = q * MAX_INST + low_bit(m)
            m &= m - 1
            top = max(top, host_value(st, cards, board, me, i, h, kw, rw))
    if top <= NEG:
        return -1.0
    return 0.3 + top - 0.15 * printed(cards, board, i, CD_COST)


@njit(**FAST)
def char_play_value(cards, board, i, mine_n):
    """Playing character i: stats per gold, a little for size, less for the prestige it hands over."""
    c = board[i, B_CARD]
    stats = cards[c, CD_MELEE] + cards[c, CD_RIPOSTE] + cards[c, CD_HP] + 1.5 * cards[c, CD_RANGED]
    v = 0.5 + 0.4 * stats / max(1, cards[c, CD_COST]) + 0.05 * stats - 0.1 * cards[c, CD_PRESTIGE]
    if mine_n <= 1:
        v += 1.0                                  # a wipe-out loses the game
    return v


@njit(**FAST)
def manoeuvre_extra(st, cards, board, me, inst, kw, rw, cw, dw):
    """Worth of a Manoeuvre's own abilities (passives for my characters, its reveal, its actions)."""
    v = 0.0
    for a in range(printed(cards, board, inst, CD_NABIL)):
        trig = abil(cards, board, inst, a, AB_TRIGGER)
        e = abil(cards, board, inst, a, AB_EFFECT)
        if trig == TR_PASSIVE:
            if abil(cards, board, inst, a, AB_TARGET) == TG_ALL_OWN and \
                    (e == EF_MELEE or e == EF_RANGED or e == EF_RIPOSTE or e == EF_HP):
                v += 0.08 * abil(cards, board, inst, a, AB_AMOUNT) * count_chars(st, board, me)
        elif trig == TR_DEPLOY:
            v += effect_value(st, cards, board, me, inst, a, kw, rw, cw, dw)
        elif trig == TR_ACTION or trig == TR_COMBAT:
            v += 0.2
    return v


# ---- decisions both heuristics answer alike ---------------------------------------------------------


@njit(**FAST)
def line_for(cards, board, i, fragile_hp):
    """FRONT or SUPPORT for character i: shooters that are fragile, or shoot better than they hit,
    stay back; everyone else goes to the front (support characters without a bow cannot attack)."""
    c = board[i, B_CARD]
    ranged = cards[c, CD_RANGED]
    if ranged > 0 and (cards[c, CD_HP] <= fragile_hp or ranged >= cards[c, CD_MELEE]):
        return SUPPORT
    return FRONT


@njit(**FAST)
def trigger_choice(opts, n, st, cards, board, me, kw, rw, cw, dw):
    """Forced triggers first; then the most useful optional one; decline only what would hurt."""
    decline = -1
    for r in range(n):
        if opts[r, 0] < 0:
            decline = r
        elif opts[r, 2] != 0:
            return r
    k = -1
    bv = NEG
    for r in range(n):
        if opts[r, 0] >= 0:
            v = ability_value(st, cards, board, me, opts[r, 0], opts[r, 1], kw, rw, cw, dw, 0)
            if v > bv:
                bv = v
                k = r
    if k < 0 or (bv < -0.03 and decline >= 0):
        return decline if decline >= 0 else 0
    return k


@njit(**FAST)
def target_choice(opts, n, st, cards, board, me, kw, rw, cw, dw):
    """A host for the attachment awaiting one (S_PENDING), or the target of the ability resolving."""
    pend = st[S_PENDING]
    host = pend >= 0 and board[pend, B_CARD] >= 0 and printed(cards, board, pend, CD_TYPE) == ATTACHMENT
    src = st[S_SOURCE]
    if not host and src < 0:
        return 0
    k = 0
    bv = NEG
    for r in range(n):
        h = opts[r, 0]
        if h < 0 or board[h, B_CARD] < 0:
            continue
        if host:
            v = host_value(st, cards, board, me, pend, h, kw, rw)
        else:
            e = abil(cards, board, src, st[S_ABIL], AB_EFFECT)
            if e == EF_REDIRECT:
                v = redirect_value(st, cards, board, me, src, st[S_ABIL], h, kw, rw)
            else:
                v = char_value(st, cards, board, me, e, abil(cards, board, src, st[S_ABIL], AB_AMOUNT), h,
                               kw, rw, cw, dw)
            v += 0.01 * board[h, B_PRESTIGE]          # ties: the more prestigious character
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def card_choice(kind, opts, n, st, cards, board, me):
    """D_DISCARD / D_CYCLE / D_LOOK: the card least worth keeping (a look puts the worst back first,
    so the best ends on top); D_SEARCH: the card most worth having (one put into play from the hand
    is free, so its cost counts too); [-1] only when nothing is offered."""
    gold = st[S_GOLD + me]
    k = 0
    bv = NEG
    for r in range(n):
        i = opts[r, 0]
        if i < 0 or board[i, B_CARD] < 0:
            v = -100.0                         # "find nothing": the last resort
        elif kind == D_SEARCH:
            v = card_worth(cards, board[i, B_CARD], gold)
            if board[i, B_ZONE] == Z_HAND:
                v += 0.25 * printed(cards, board, i, CD_COST)
        else:
            v = -card_worth(cards, board[i, B_CARD], gold)
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def pass_row(opts, n, good):
    """The pass-for-good row when `good` and listed, else the pass row, else row 0."""
    if good:
        r = find(opts, n, 0, ACT_PASS_GOOD)
        if r >= 0:
            return r
    r = find(opts, n, 0, ACT_PASS)
    return r if r >= 0 else 0


# ---- value ----------------------------------------------------------------------------------------


VALUE = ("kill_weight", "risk_weight", "counter_weight", "damage_weight", "hand_target", "draw_need",
         "mulligan_cost", "min_cheap", "lead_value", "fragile_hp")
VALUE_DEFAULTS = (1.0, 1.0, 0.6, 0.3, 3.0, 0.2, 4.0, 2.0, 0.1, 3.0)
VALUE_BOUNDS = ((0.0, 3.0), (0.0, 3.0), (0.0, 2.0), (0.0, 1.5), (1.0, 8.0), (0.0, 2.0), (1.0, 7.0),
                (0.0, 4.0), (-0.5, 1.5), (0.0, 8.0))
V_KILL, V_RISK, V_COUNTER, V_DAMAGE, V_HAND, V_DRAW, V_MULL, V_CHEAP, V_LEAD, V_FRAGILE = range(10)


@njit(**FAST)
def value_action(opts, n, st, cards, board, me, p):
    kw, rw, cw, dw = p[V_KILL], p[V_RISK], p[V_COUNTER], p[V_DAMAGE]
    q = 1 - me
    if worn_out(st, me):
        return pass_row(opts, n, True)
    mine_n = count_chars(st, board, me)
    theirs_n = count_chars(st, board, q)
    last = -1                                  # attacks come grouped by attacker: its threat is kept
    t_now = 0
    k = 0
    bv = NEG
    for r in range(n):
        act = opts[r, 0]
        if act == ACT_PASS:
            v = 0.0
        elif act == ACT_PASS_GOOD:
            if st[S_OUT + q] or st[S_PASSED + q]:
                v = -0.01                      # no lead to take (or my pass ends the phase anyway)
            else:
                v = p[V_LEAD] - 0.1 * combat_tricks(st, cards, board, me)
        elif act == ACT_ATTACK:
            att = opts[r, 1]
            if att != last:
                last = att
                t_now = threat(st, cards, board, q, att, -1)
            v = attack_score(st, cards, board, att, opts[r, 2], opts[r, 3], kw, rw, cw, dw, t_now, mine_n,
                             theirs_n)
        elif act == ACT_CYCLE:
            v = 0.12
        elif act == ACT_PLAY and opts[r, 2] < 0:
            i = opts[r, 1]
            if printed(cards, board, i, CD_TYPE) == CHARACTER:
                v = char_play_value(cards, board, i, mine_n)
            else:
                v = attach_value(st, cards, board, me, i, kw, rw)
        elif act == ACT_PLAY or act == ACT_ABILITY:
            i = opts[r, 1]
            v = ability_value(st, cards, board, me, i, opts[r, 2], kw, rw, cw, dw,
                              event_cost(cards, board, act, i))
        else:
            v = -1.0
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def value_combat(opts, n, st, cards, board, me, p):
    kw, rw, cw, dw = p[V_KILL], p[V_RISK], p[V_COUNTER], p[V_DAMAGE]
    if worn_out(st, me):
        return pass_row(opts, n, False)
    k = 0
    bv = NEG
    for r in range(n):
        act = opts[r, 0]
        i = opts[r, 1]
        if act == ACT_PASS:
            v = 0.0
        elif act == ACT_INTERCEPT:
            v = redirect_value(st, cards, board, me, i, 0, i, kw, rw) - 0.1
        elif act == ACT_NAMED:
            b = opts[r, 3]
            if b == 0:
                v = fight_delta(st, board, me, i, 0, 0, 0, 1, kw, rw)
            elif b == 1:
                v = fight_delta(st, board, me, i, 1, 0, 0, 0, kw, rw)
            else:                              # the default reading: +1 ranged
                v = fight_delta(st, board, me, i, 0, 1, 0, 0, kw, rw)
            v -= 0.15                          # a copy that could not be played anyway
        elif act == ACT_PLAY and opts[r, 2] < 0:       # Imprévisible
            if printed(cards, board, i, CD_TYPE) == CHARACTER:
                v = 0.5 * char_play_value(cards, board, i, count_chars(st, board, me))
            else:
                v = attach_value(st, cards, board, me, i, kw, rw)
        elif act == ACT_PLAY or act == ACT_ABILITY:
            v = ability_value(st, cards, board, me, i, opts[r, 2], kw, rw, cw, dw,
                              event_cost(cards, board, act, i)) - 0.02
        else:
            v = -1.0
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def value_manoeuvre(opts, n, st, cards, board, me, p):
    need = max(0.0, p[V_HAND] - st[S_HAND_N + me])
    short = shortfall(st, cards, board, me)
    k = 0
    bv = NEG
    for r in range(n):
        d = min(opts[r, 1], st[S_DECK_N + me])
        g = opts[r, 2]
        v = d * (0.3 + p[V_DRAW] * need) + 0.3 * g + 0.5 * min(g, short)
        v += 0.5 * manoeuvre_extra(st, cards, board, me, opts[r, 0], p[V_KILL], p[V_RISK], p[V_COUNTER],
                                   p[V_DAMAGE])
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def value_mulligan(opts, n, st, cards, board, me, p):
    """The dearest card costing more than `mulligan_cost`; then, while fewer than `min_cheap` cheap
    characters are in hand (and 4+ cards), the dearest non-character; else done."""
    done = find(opts, n, 0, -1)
    if done < 0:
        done = n - 1
    cheap = 0
    k = done
    top = -1
    for r in range(n):
        i = opts[r, 0]
        if i < 0:
            continue
        cost = printed(cards, board, i, CD_COST)
        if printed(cards, board, i, CD_TYPE) == CHARACTER and cost <= p[V_MULL]:
            cheap += 1
        if cost > p[V_MULL] and cost > top:
            top = cost
            k = r
    if k != done or cheap >= p[V_CHEAP] or st[S_HAND_N + me] < 4:
        return k
    for r in range(n):                         # dig: the dearest non-character goes under
        i = opts[r, 0]
        if i >= 0 and printed(cards, board, i, CD_TYPE) != CHARACTER:
            cost = printed(cards, board, i, CD_COST)
            if cost > top:
                top = cost
                k = r
    return k


@njit_later(DECISION_SIG, **FAST)
def value_choice(kind, opts, n, st, board, cards, params):
    if n <= 1:
        return 0
    me = st[S_ACTOR]
    kw, rw, cw, dw = params[V_KILL], params[V_RISK], params[V_COUNTER], params[V_DAMAGE]
    if kind == D_ACTION:
        return value_action(opts, n, st, cards, board, me, params)
    if kind == D_COMBAT:
        return value_combat(opts, n, st, cards, board, me, params)
    if kind == D_MANOEUVRE:
        return value_manoeuvre(opts, n, st, cards, board, me, params)
    if kind == D_MULLIGAN:
        return value_mulligan(opts, n, st, cards, board, me, params)
    if kind == D_TARGET:
        return target_choice(opts, n, st, cards, board, me, kw, rw, cw, dw)
    if kind == D_ATTACK:
        k = 0
        bv = NEG
        for r in range(n):
            v = attack_value(st, cards, board, opts[r, 0], opts[r, 1], opts[r, 2], kw, rw, cw, dw)
            if v > bv:
                bv = v
                k = r
        return k
    if kind == D_TRIGGER:
        if worn_out(st, me):
            r = find(opts, n, 0, -1)
            if r >= 0:
                return r
        return trigger_choice(opts, n, st, cards, board, me, kw, rw, cw, dw)
    if kind == D_LINE:
        if st[S_PENDING] < 0 or board[st[S_PENDING], B_CARD] < 0:
            return 0
        r = find(opts, n, 0, line_for(cards, board, st[S_PENDING], params[V_FRAGILE]))
        return r if r >= 0 else 0
    if kind == D_SETUP:
        r = find(opts, n, 1, line_for(cards, board, opts[0, 0], params[V_FRAGILE]))
        return r if r >= 0 else 0
    if kind == D_FIRST:
        r = find(opts, n, 0, 0 if params[V_LEAD] >= 0.0 else 1)
        return r if r >= 0 else 0
    if kind == D_DISCARD or kind == D_CYCLE or kind == D_LOOK or kind == D_SEARCH:
        return card_choice(kind, opts, n, st, cards, board, me)
    return 0


# ---- aggressive -------------------------------------------------------------------------------------


AGGRESSIVE = ("mulligan_cost", "prestige_weight", "riposte_weight", "go_first")
AGGRESSIVE_DEFAULTS = (4.0, 1.0, 0.5, 1.0)
AGGRESSIVE_BOUNDS = ((1.0, 7.0), (0.0, 3.0), (0.0, 3.0), (0.0, 1.0))
A_MULL, A_PRESTIGE, A_RIPOSTE, A_FIRST = range(4)
# fixed weights aggressive uses where it borrows value's judgement (targets, triggers, tricks)
AK, AR, AC, AD = 1.0, 0.5, 0.0, 0.3


@njit(**FAST)
def aggressive_action(opts, n, st, cards, board, me, p):
    if worn_out(st, me):
        return pass_row(opts, n, True)
    k = 0
    bv = NEG
    for r in range(n):
        act = opts[r, 0]
        i = opts[r, 1]
        if act == ACT_PASS:
            v = 0.0
        elif act == ACT_PASS_GOOD:
            v = 0.5                            # only when nothing useful is left
        elif act == ACT_ATTACK:
            v = rush_score(board, i, opts[r, 2], opts[r, 3], p[A_PRESTIGE], p[A_RIPOSTE])
        elif act == ACT_PLAY and opts[r, 2] < 0:
            if printed(cards, board, i, CD_TYPE) == CHARACTER:
                v = 50.0 + printed(cards, board, i, CD_COST)
            else:
                x = attach_value(st, cards, board, me, i, AK, AR)
                v = 30.0 + x if x > 0.0 else -1.0
        elif act == ACT_PLAY or act == ACT_ABILITY:
            x = ability_value(st, cards, board, me, i, opts[r, 2], AK, AR, AC, AD,
                              event_cost(cards, board, act, i))
            v = 20.0 + 5.0 * x if x > 0.05 else -1.0
        else:
            v = -1.0                           # cycling is not attacking
        if v > bv:
            bv = v
            k = r
    return k


@njit(**FAST)
def aggressive_combat(opts, n, st, cards, board, me, p):
    """Only what turns the fight its combatant's way; never intercepts."""
    k = pass_row(opts, n, False)
    if worn_out(st, me):
        return k
    bv = 0.05
    for r in range(n):
        act = opts[r, 0]
        i = opts[r, 1]
        if act == ACT_NAMED:
            b = opts[r, 3]
            v = fight_delta(st, board, me, i, int(b == 1), int(b == 2), 0, int(b == 0), AK, AR)
        elif (act == ACT_ABILITY or act == ACT_PLAY) and opts[r, 2] >= 0:
            e = abil(cards, board, i, opts[r, 2], AB_EFFECT)
            if e == EF_CANCEL and (st[S_ATTACKER] >> 6) == me:
                v = 0.0                        # never calls off its own attack
            else:
                v = ability_value(st, cards, board, me, i, opts[r, 2], AK, AR, AC, AD,
                                  event_cost(cards, board, act, i))
        else:
            v = -1.0
        if v > bv:
            bv = v
            k = r
    return k


@njit_later(DECISION_SIG, **FAST)
def aggressive_choice(kind, opts, n, st, board, cards, params):
    if n <= 1:
        return 0
    me = st[S_ACTOR]
    if kind == D_ACTION:
        return aggressive_action(opts, n, st, cards, board, me, params)
    if kind == D_COMBAT:
        return aggressive_combat(opts, n, st, cards, board, me, params)
    if kind == D_MANOEUVRE:                    # the most gold, then the most cards
        k = 0
        for r in range(1, n):
            if opts[r, 2] > opts[k, 2] or (opts[r, 2] == opts[k, 2] and opts[r, 1] > opts[k, 1]):
                k = r
        return k
    if kind == D_MULLIGAN:                     # the dearest card over the threshold, else done
        k = find(opts, n, 0, -1)
        k = k if k >= 0 else n - 1
        top = params[A_MULL]
        for r in range(n):
            i = opts[r, 0]
            if i >= 0 and printed(cards, board, i, CD_COST) > top:
                top = printed(cards, board, i, CD_COST)
                k = r
        return k
    if kind == D_ATTACK:
        k = 0
        bv = NEG
        for r in range(n):
            v = rush_score(board, opts[r, 0], opts[r, 1], opts[r, 2], params[A_PRESTIGE], params[A_RIPOSTE])
            if v > bv:
                bv = v
                k = r
        return k
    if kind == D_LINE:
        if st[S_PENDING] < 0 or board[st[S_PENDING], B_CARD] < 0:
            return 0
        want = SUPPORT if is_shooter(cards, board, st[S_PENDING]) else FRONT
        r = find(opts, n, 0, want)
        return r if r >= 0 else 0
    if kind == D_SETUP:
        want = SUPPORT if is_shooter(cards, board, opts[0, 0]) else FRONT
        r = find(opts, n, 1, want)
        return r if r >= 0 else 0
    if kind == D_FIRST:
        r = find(opts, n, 0, 0 if params[A_FIRST] >= 0.5 else 1)
        return r if r >= 0 else 0
    if kind == D_TARGET:
        return target_choice(opts, n, st, cards, board, me, AK, AR, AC, AD)
    if kind == D_TRIGGER:
        if worn_out(st, me):
            r = find(opts, n, 0, -1)
            if r >= 0:
                return r
        return trigger_choice(opts, n, st, cards, board, me, AK, AR, AC, AD)
    if kind == D_DISCARD or kind == D_CYCLE or kind == D_LOOK or kind == D_SEARCH:
        return card_choice(kind, opts, n, st, cards, board, me)
    return 0


# ---- random -----------------------------------------------------------------------------------------


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
