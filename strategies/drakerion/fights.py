"""How Drakerion's heuristics score a fight: the prestige balance of the combat under way and how a change of
stats moves it, the trade of an attack (value's, with the risk of a counter-attack; aggressive's rush
order), and the kills a character could newly reach."""

from __future__ import annotations

from numba import njit

from sim.games.drakerion.records import (
    EF_HP, EF_MELEE, EF_RANGED, EF_RIPOSTE, EF_SHIELD, B_DAMAGE, B_HP, B_PRESTIGE, B_RIPOSTE, B_SHIELD, B_ZONE, S_ATTACKER, S_DEFENDER, S_PRESTIGE,
    S_RANGED, Z_FRONT, Z_SUPPORT,
)
from strategies.drakerion.board import (
    BIG, FAST, INLINE, NEG, WIN_PRESTIGE, chars_of, count_chars, fighting, hits, is_shooter, life, pop,
    threat, worth,
)


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


@njit(**INLINE)
def named_delta(st, board, me, h, bonus, kw, rw):
    """fight_delta for a Named bonus (its option row names the stat by effect code: a shield or +1 HP
    both add a point of life for the combat)."""
    life = int(bonus == EF_SHIELD or bonus == EF_HP)
    return fight_delta(st, board, me, h, int(bonus == EF_MELEE), int(bonus == EF_RANGED), int(bonus == EF_RIPOSTE),
                       life, kw, rw)


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
        d, m = pop(q, m)
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
        d, m = pop(q, m)
        if ranged and board[h, B_ZONE] == Z_SUPPORT and board[d, B_ZONE] == Z_SUPPORT:
            continue
        if not ranged and board[d, B_ZONE] != Z_FRONT:
            continue
        dl = life(board, d)
        if out < dl and out + amt >= dl:
            top = max(top, kw * worth(board, d))
    return top
