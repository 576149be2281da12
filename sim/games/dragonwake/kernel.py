"""Dragonwake numba kernel: plays a batch of games from one seed into a record array (and traces)."""

import numpy as np
from numba import njit, types

from sim.core.rng import below, mix, shuffle
from sim.games.dragonwake.records import (
    pick_uniform, ASK_AFTER, ASK_BEFORE, ASK_FATE, ASK_HUNT, ASK_NONE, ASK_PEEK, BOARD0, BOARD_COLS, B_CAUGHT, CARDS0,
    DOWN0,
    B_CLAIM_DRAGON, B_CLAIM_RELICS, B_DOWN, B_FATE, B_SHOWN_DRAGON, B_SHOWN_GOLD, B_SHOWN_RELIC, B_USED, CANDLE,
    CHOSEN, CULTIST, DIVINATOR, DRAGON, END_DRAGON, END_RELICS, END_TIME, EV_ASIDE, EV_CLAIM, EV_DEAL, EV_END,
    EV_EVENT, EV_FATE, EV_FLIP, EV_PEEK, EV_POWER, EV_POWERS, EV_REVEAL, EV_ROLE, EV_ROUND, EV_SWAP, EV_UNDEALT,
    EV_UNDO, FATE, GLUTTONY, GOLD, HERO, HUNTER, K_PEEKS, MAX_HAND, MAX_PLAYERS, MAX_POWERS, MEMORY, MENTOR,
    NO_EVENT, PUB_ROW, PV_NPEEK, PV_PEEK0, PV_POWER0, P_ASIDE, P_ASK, P_CULTIST_CARDS, P_DRAGON_FOUND, P_EVENT,
    P_FACE_DOWN, P_HAND, P_HUNTED, P_LAST, P_LAST_CARD, P_PLAYERS, P_RELICS_FOUND, P_RELICS_TOTAL,
    P_REVEALED_ROUND, P_REVEALED_TOTAL, P_RNG, P_ROLE_CARDS, P_ROUND, P_RUNEBEARER, P_SHOWN, RELIC, SHOWN0,
    SILENT, STATE_WIDTH, STRATEGY_FN,
)
from strategies.dragonwake import RANDOM_ID

# output columns, in records.GAME_COLUMNS order
C_N_CULTISTS, C_CULTIST_MASK, C_WINNER, C_END_MODE, C_REVEALS, C_ROUNDS, C_RELICS_FOUND = 0, 1, 2, 3, 4, 5, 6
C_FIRST_RB, C_FINDER, C_FINDER_ROLE, C_EARLY, C_TRUE, C_FALSE, C_SILENT = 7, 8, 9, 10, 11, 12, 13
C_CULTIST_LIES, C_HERO_LIES, C_VIOLATIONS = 14, 15, 16
C_ARTIFACTS, C_POWERS, C_PEEKS, C_UNDOS, C_SIDE_MASK = 17, 18, 19, 20, 21
N_COLS = 22


@njit(cache=True, inline='always')
def record(trace, g, step, code, a, b, c, d):
    """Append an event to game g's trace when it is traced; returns the next step."""
    if g < trace.shape[0] and step < trace.shape[1]:
        row = trace[g, step]
        row[0] = code
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = d
        return step + 1
    return step


@njit(cache=True, inline='always')
def is_legal_target(p, s, rb, players, state, self_reveal):
    if p < 0 or p >= players or s < 0 or s >= MAX_HAND:
        return False
    return state[p, DOWN0 + s] == 1 and (p != rb or self_reveal)


@njit(cache=True, inline='always')
def random_target(rng, rb, players, state, self_reveal):
    """Uniform over the face-down cards the runebearer may reveal (replaces an illegal choice)."""
    count = 0
    for p in range(players):
        if p != rb or self_reveal:
            for s in range(MAX_HAND):
                count += state[p, DOWN0 + s]
    k = below(rng, count)
    for p in range(players):
        if p != rb or self_reveal:
            for s in range(MAX_HAND):
                if state[p, DOWN0 + s] == 1:
                    if k == 0:
                        return p * MAX_HAND + s
                    k -= 1
    return -1


@njit(cache=True, inline='always')
def claim_contradicted(state, p, hand):
    """Whether what has been revealed of p's cards proves p's claim false."""
    cr = state[p, BOARD0 + B_CLAIM_RELICS]
    if cr < 0:
        return False
    cd = state[p, BOARD0 + B_CLAIM_DRAGON]
    return (state[p, BOARD0 + B_SHOWN_RELIC] > cr or state[p, BOARD0 + B_SHOWN_DRAGON] > cd
            or state[p, BOARD0 + B_SHOWN_GOLD] > hand - cr - cd)


@njit(cache=True, inline='always')
def count_violations(state, players, hand, reveals_round, relics_total, relics_found,
                     dragons, dragon_gone, aside, n_aside):
    """Cards conserved: face down plus set aside plus found equals the deck's contents."""
    relics = 0
    dragon = 0
    face_down = 0
    for i in range(n_aside):
        relics += aside[i] == RELIC
        dragon += aside[i] == DRAGON
    for p in range(players):
        for s in range(MAX_HAND):
            if state[p, DOWN0 + s] == 1:
                face_down += 1
                relics += state[p, CARDS0 + s] == RELIC
                dragon += state[p, CARDS0 + s] == DRAGON
            elif state[p, CARDS0 + s] != -1:
                return 1
    bad = 0
    bad += face_down != players * hand - reveals_round - n_aside
    bad += relics + relics_found != relics_total
    bad += dragon + dragon_gone != dragons
    return bad


@njit(cache=True, inline='always')
def tally_claim(o, state, p, hand, role, claim):
    """Count true and false claims (a claim is true when it states the hand exactly)."""
    relics = 0
    dragon = 0
    for s in range(hand):
        relics += state[p, CARDS0 + s] == RELIC
        dragon += state[p, CARDS0 + s] == DRAGON
    if claim == relics * 2 + dragon:
        o[C_TRUE] += 1
    else:
        o[C_FALSE] += 1
        if role == CULTIST:
            o[C_CULTIST_LIES] += 1
        else:
            o[C_HERO_LIES] += 1


# ---- advanced game: artifacts and powers (never reached with their modules off) -----------------------

@njit(cache=True, inline='always')
def ask(p, role, state, memory, hero_power, cultist_power, hero_params, cultist_params):
    """Ask player p's `power` function the question in pub[P_ASK]."""
    if role == HERO:
        return hero_power(p, HERO, state, hero_params, memory[p])
    return cultist_power(p, CULTIST, state, cultist_params, memory[p])


@njit(cache=True, inline='always')
def power_slot(state, p, power):
    """The column of p's unused `power`, -1 when p does not hold it."""
    for j in range(MAX_POWERS):
        if state[p, PV_POWER0 + j] == power:
            return j
    return -1


@njit(cache=True, inline='always')
def usable_before_reveal(power, q, rb, hunted):
    """Whether player q may use `power` before the runebearer's reveal: a peek, or Hunter for the
    runebearer once per reveal."""
    return power == DIVINATOR or power == MENTOR or (power == HUNTER and q == rb and not hunted)


@njit(cache=True, inline='always')
def peek(state, rng, me, target, players, o, trace, g, step):
    """Player `me` peeks at `target` (another player's face-down card; an illegal choice is counted and
    replaced at random). The card goes into me's own row. Returns (next trace step, peeked)."""
    p = target // MAX_HAND if target >= 0 else -1
    s = target % MAX_HAND if target >= 0 else -1
    if not is_legal_target(p, s, me, players, state, False):
        o[C_VIOLATIONS] += 1
        target = random_target(rng, me, players, state, False)
        if target < 0:
            return step, False
        p = target // MAX_HAND
        s = target % MAX_HAND
    n = state[me, PV_NPEEK]
    state[me, PV_PEEK0 + n % K_PEEKS] = (p * MAX_HAND + s) * 8 + state[p, CARDS0 + s]
    state[me, PV_NPEEK] = n + 1
    o[C_PEEKS] += 1
    return record(trace, g, step, EV_PEEK, me, p, s, state[p, CARDS0 + s]), True


# Declared so that any strategy with the right signatures plugs in without recompiling the kernel.
PLAY_BATCH_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64[:], types.int64,
    types.int64[:], types.int64[:],
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int16[:, :], types.int64[:, :, :],
    types.boolean)


# rows of the kernel's integer work array
W_ROLE_DECK, W_ROLE, W_DECK, W_CAUGHT, W_EVENTS, W_ASIDE, W_POWERS, W_ROWS = 0, 1, 2, 3, 4, 5, 6, 7

# mods: the advanced modules' numbers
M_CANDLE, M_FATE, M_POWERS, M_PER_PLAYER, M_POWER_CARDS, M_HUNTER_FLIPS, M_SIZE = 0, 1, 2, 3, 4, 5, 6

PLAY_GAMES_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64, types.int64, types.int64[:],
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int16[:, :], types.int64[:, :, :],
    types.boolean, types.int64[:, ::1], types.float64[:, :], types.int64[:, ::1])


# Compiled without numba's reference counting (`_nrt=False`): every array view made in the loop would
# otherwise cost an atomic increment and decrement, about a fifth of a random game's time. The price is
# that this function may not allocate; play_batch hands it every array it needs.
@njit(PLAY_GAMES_SIG, cache=True, _nrt=False)
def play_games(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, n_events, gluttony_cards, mods,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power,
               hero_params, cultist_params, hero_builtin, cultist_builtin, out, trace, check, state, memory, work):
    """Play n games. The `random` strategy (builtin id RANDOM_ID) is played inline rather than through
    an indirect call, so that the baseline measures the game, not the call. The advanced modules
    (artifacts, powers) sit behind `if advanced` so that the basic game pays nothing for them."""
    role_deck = work[W_ROLE_DECK]
    role = work[W_ROLE]
    deck = work[W_DECK]
    caught_now = work[W_CAUGHT]
    event_deck = work[W_EVENTS, :n_events]
    aside = work[W_ASIDE]
    power_deck = work[W_POWERS]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]     # the game's own stream, shared with the strategies
    state[:MAX_PLAYERS, CARDS0:CARDS0 + MAX_HAND] = -1
    relics_total = relics_per_player * players
    n_candle = mods[M_CANDLE]
    n_fate = mods[M_FATE]
    powers = mods[M_POWERS] != 0
    per_player = mods[M_PER_PLAYER]
    n_power_cards = mods[M_POWER_CARDS]
    hunter_flips = mods[M_HUNTER_FLIPS]
    artifacts = n_candle + n_fate > 0
    advanced = artifacts or powers
    slots = 0              # hand slots ever used: the rest stay empty
    for h in hand_sizes:
        slots = min(MAX_HAND, max(slots, h))
    n_role = hero_cards + cultist_cards
    hero_random = hero_builtin == RANDOM_ID
    cultist_random = cultist_builtin == RANDOM_ID
    all_random = hero_random and cultist_random
    for g in range(n):
        rng[0] = mix(seed, g)
        step = 0
        if not all_random:
            memory[:players, :] = 0.0
        for p in range(players):
            for j in range(BOARD_COLS):
                state[p, BOARD0 + j] = 0
        o = out[g]
        for j in range(N_COLS):
            o[j] = 0
        # roles
        role_deck[:hero_cards] = HERO          # plain fills: they vectorise
        role_deck[hero_cards:n_role] = CULTIST
        shuffle(rng, role_deck, n_role)
        mask = 0
        n_cultists = 0
        for p in range(players):
            role[p] = role_deck[p]
            cultist = role[p] == CULTIST        # counted without a branch on a random role
            n_cultists += cultist
            mask |= cultist << p
            step = record(trace, g, step, EV_ROLE, p, role[p], 0, 0)
        step = record(trace, g, step, EV_UNDEALT, role_deck[players] if n_role > players else -1, 0, 0, 0)
        o[C_CULTIST_MASK] = mask
        o[C_N_CULTISTS] = n_cultists
        # search deck: relics, the dragon, artifacts (advanced game), gold
        total = cards_per_player * players
        special = relics_total + dragons
        deck[:relics_total] = RELIC
        deck[relics_total:special] = DRAGON
        deck[special:total] = GOLD
        if artifacts:
            for i in range(n_candle + n_fate):
                deck[special + i] = CANDLE if i < n_candle else FATE
        shuffle(rng, deck, total)
        n_deck = total
        rb = below(rng, players)
        o[C_FIRST_RB] = rb
        o[C_FINDER] = -1
        o[C_FINDER_ROLE] = -1
        state[PUB_ROW, P_PLAYERS] = players
        state[PUB_ROW, P_RELICS_TOTAL] = relics_total
        state[PUB_ROW, P_CULTIST_CARDS] = cultist_cards
        state[PUB_ROW, P_ROLE_CARDS] = n_role
        state[PUB_ROW, P_REVEALED_TOTAL] = 0
        state[PUB_ROW, P_RELICS_FOUND] = 0
        state[PUB_ROW, P_DRAGON_FOUND] = 0
        if events:
            shuffle(rng, event_deck, len(event_deck))
        if advanced:
            state[PUB_ROW, P_ASK] = ASK_NONE
            state[PUB_ROW, P_LAST] = -1
            state[PUB_ROW, P_LAST_CARD] = -1
            state[PUB_ROW, P_HUNTED] = 0
            for p in range(players):
                for j in range(MAX_POWERS):
                    state[p, PV_POWER0 + j] = 0
        if powers:        # power cards, per_player each from seat 0 while the deck lasts
            shuffle(rng, power_deck, n_power_cards)
            for p in range(players):
                for j in range(per_player):
                    k = p * per_player + j
                    if k < n_power_cards:
                        state[p, PV_POWER0 + j] = power_deck[k]
                        step = record(trace, g, step, EV_POWERS, p, power_deck[k], 0, 0)
        n_aside = 0
        n_silent = 0
        winner = -1
        mode = -1
        dragon_out = 0        # an early dragon waiting to be swapped back in
        rounds_played = 0
        for rnd in range(len(hand_sizes)):
            hand = hand_sizes[rnd]
            rounds_played += 1
            if rnd > 0:
                n_deck = 0
                for p in range(players):
                    for s in range(hand_sizes[rnd - 1]):   # branch-free compaction: a face-down card is kept
                        deck[n_deck] = state[p, CARDS0 + s]
                        n_deck += state[p, DOWN0 + s]
                for i in range(n_aside):       # Gluttony's cards come back for the shuffle
                    deck[n_deck] = aside[i]
                    n_deck += 1
                n_aside = 0
                if dragon_out == 1:
                    for i in range(n_deck):
                        if deck[i] == GOLD:
                            deck[i] = DRAGON
                            dragon_out = 0
                            break
                shuffle(rng, deck, n_deck)
            step = record(trace, g, step, EV_ROUND, rnd, hand, rb, 0)
            event = NO_EVENT
            if events:
                if rnd < len(hand_sizes) - 1 and rnd < len(event_deck):
                    event = event_deck[rnd]
                step = record(trace, g, step, EV_EVENT, rnd, event, 0, 0)
            state[PUB_ROW, P_EVENT] = event
            for p in range(players):
                for s in range(slots):
                    dealt = s < hand
                    state[p, CARDS0 + s] = deck[p * hand + s] if dealt else -1
                    state[p, DOWN0 + s] = dealt
                state[p, BOARD0 + B_DOWN] = hand
                state[p, BOARD0 + B_SHOWN_GOLD] = 0
                state[p, BOARD0 + B_SHOWN_RELIC] = 0
                state[p, BOARD0 + B_SHOWN_DRAGON] = 0
                caught_now[p] = 0
            if g < trace.shape[0]:
                for p in range(players):
                    for s in range(hand):
                        step = record(trace, g, step, EV_DEAL, p, s, state[p, CARDS0 + s], 0)
            if advanced:          # what was seen last round no longer applies after the shuffle
                for p in range(players):
                    state[p, PV_NPEEK] = 0
                    for s in range(MAX_HAND):
                        state[p, SHOWN0 + s] = 0
                state[PUB_ROW, P_SHOWN] = 0
            state[PUB_ROW, P_ROUND] = rnd
            state[PUB_ROW, P_HAND] = hand
            state[PUB_ROW, P_REVEALED_ROUND] = 0
            state[PUB_ROW, P_FACE_DOWN] = players * hand
            if event == GLUTTONY:
                for i in range(gluttony_cards):
                    choice = random_target(rng, -1, players, state, True)
                    p = choice // MAX_HAND
                    s = choice % MAX_HAND
                    aside[n_aside] = state[p, CARDS0 + s]
                    n_aside += 1
                    step = record(trace, g, step, EV_ASIDE, p, s, state[p, CARDS0 + s], 0)
                    state[p, CARDS0 + s] = -1
                    state[p, DOWN0 + s] = 0
                    state[p, BOARD0 + B_DOWN] -= 1
                    state[PUB_ROW, P_FACE_DOWN] -= 1
            state[PUB_ROW, P_ASIDE] = n_aside
            state[PUB_ROW, P_RUNEBEARER] = rb
            # declarations, from the runebearer clockwise (when both sides play `random`, everybody is
            # silent: the loop below then cost a tenth of a game)
            for i in range(players if not all_random else 0):
                p = rb + i if rb + i < players else rb + i - players    # (rb + i) % players, no division
                # the role is random: test it only when a strategy must be called, since a side playing
                # `random` mispredicted a branch per player
                claim = SILENT
                if not (hero_random if role[p] == HERO else cultist_random):
                    if role[p] == HERO:
                        claim = hero_declare(p, HERO, state, hero_params, memory[p])
                    else:
                        claim = cultist_declare(p, CULTIST, state, cultist_params, memory[p])
                if claim < SILENT or claim > 2 * hand + 1:
                    o[C_VIOLATIONS] += 1
                    claim = SILENT
                step = record(trace, g, step, EV_CLAIM, p, claim, 0, 0)
                if claim == SILENT:
                    n_silent += 1
                else:
                    tally_claim(o, state, p, hand, role[p], claim)
                state[p, BOARD0 + B_CLAIM_RELICS] = claim >> 1              # -1 when silent
                state[p, BOARD0 + B_CLAIM_DRAGON] = max(claim, 0) & 1
            if all_random:
                n_silent += players
                for p in range(players):
                    state[p, BOARD0 + B_CLAIM_RELICS] = -1
                    state[p, BOARD0 + B_CLAIM_DRAGON] = 0
                for i in range(players if g < trace.shape[0] else 0):
                    step = record(trace, g, step, EV_CLAIM, rb + i if rb + i < players else rb + i - players,
                                  SILENT, 0, 0)
            # search: a round ends after `players` reveals (a Chosen One's undo takes one back)
            while state[PUB_ROW, P_REVEALED_ROUND] < players:
                hunted = False
                if powers:
                    # before the runebearer lets go: each player, from the runebearer clockwise, may use
                    # a peek power, and the runebearer a Hunter; these resolve before the reveal
                    for i in range(players):
                        q = rb + i if rb + i < players else rb + i - players
                        usable = False
                        for j in range(MAX_POWERS):
                            c = state[q, PV_POWER0 + j]
                            usable |= usable_before_reveal(c, q, rb, hunted)
                        if not usable:
                            continue
                        state[PUB_ROW, P_ASK] = ASK_BEFORE
                        power = ask(q, role[q], state, memory, hero_power, cultist_power, hero_params,
                                    cultist_params)
                        state[PUB_ROW, P_ASK] = ASK_NONE
                        if power == 0:
                            continue
                        j = power_slot(state, q, power) if power > 0 else -1
                        if j < 0 or not usable_before_reveal(power, q, rb, hunted):
                            o[C_VIOLATIONS] += 1
                            continue
                        state[q, PV_POWER0 + j] = 0
                        state[q, BOARD0 + B_USED] += 1
                        o[C_POWERS] += 1
                        step = record(trace, g, step, EV_POWER, q, power, 0, 0)
                        if power == HUNTER:
                            hunted = True
                            state[PUB_ROW, P_HUNTED] = 1
                            for f in range(hunter_flips):
                                if state[PUB_ROW, P_FACE_DOWN] == 0:
                                    break
                                state[PUB_ROW, P_ASK] = ASK_HUNT
                                target = ask(q, role[q], state, memory, hero_power, cultist_power, hero_params,
                                             cultist_params)
                                state[PUB_ROW, P_ASK] = ASK_NONE
                                p = target // MAX_HAND if target >= 0 else -1
                                s = target % MAX_HAND if target >= 0 else -1
                                if not is_legal_target(p, s, q, players, state, True):
                                    o[C_VIOLATIONS] += 1
                                    target = random_target(rng, q, players, state, True)
                                    p = target // MAX_HAND
                                    s = target % MAX_HAND
                                if state[p, SHOWN0 + s] == 0:
                                    state[PUB_ROW, P_SHOWN] += 1
                                state[p, SHOWN0 + s] = state[p, CARDS0 + s] + 1
                                step = record(trace, g, step, EV_FLIP, q, p, s, state[p, CARDS0 + s])
                        else:
                            state[PUB_ROW, P_ASK] = ASK_PEEK
                            target = ask(q, role[q], state, memory, hero_power, cultist_power, hero_params,
                                         cultist_params)
                            state[PUB_ROW, P_ASK] = ASK_NONE
                            step, _ = peek(state, rng, q, target, players, o, trace, g, step)
                if hero_random if role[rb] == HERO else cultist_random:
                    choice = pick_uniform(rng, rb, state)
                elif role[rb] == HERO:
                    choice = hero_pick(rb, HERO, state, hero_params, memory[rb])
                else:
                    choice = cultist_pick(rb, CULTIST, state, cultist_params, memory[rb])
                p = choice // MAX_HAND
                s = choice % MAX_HAND
                own_ok = self_reveal and not hunted      # after a Hunter, never one's own card
                if choice < 0 or not is_legal_target(p, s, rb, players, state, own_ok):
                    o[C_VIOLATIONS] += 1
                    choice = random_target(rng, rb, players, state, own_ok)
                    p = choice // MAX_HAND
                    s = choice % MAX_HAND
                card = state[p, CARDS0 + s]
                state[p, CARDS0 + s] = -1
                state[p, DOWN0 + s] = 0
                state[p, BOARD0 + B_DOWN] -= 1
                state[p, BOARD0 + B_SHOWN_GOLD + (card if card <= DRAGON else GOLD)] += 1
                state[PUB_ROW, P_REVEALED_ROUND] += 1
                state[PUB_ROW, P_REVEALED_TOTAL] += 1
                state[PUB_ROW, P_FACE_DOWN] -= 1
                newly_caught = caught_now[p] == 0 and claim_contradicted(state, p, hand)
                if newly_caught:
                    caught_now[p] = 1
                    state[p, BOARD0 + B_CAUGHT] += 1
                step = record(trace, g, step, EV_REVEAL, rb, p, s, card)
                if advanced:
                    state[PUB_ROW, P_HUNTED] = 0
                    # the artifact acts on the runebearer who revealed it
                    peeked = False
                    old_role = role[rb]
                    old_fate = state[rb, BOARD0 + B_FATE]
                    if card == CANDLE:
                        state[PUB_ROW, P_ASK] = ASK_PEEK
                        target = ask(rb, role[rb], state, memory, hero_power, cultist_power, hero_params,
                                     cultist_params)
                        state[PUB_ROW, P_ASK] = ASK_NONE
                        step, peeked = peek(state, rng, rb, target, players, o, trace, g, step)
                    elif card == FATE:
                        state[PUB_ROW, P_ASK] = ASK_FATE
                        partner = ask(rb, role[rb], state, memory, hero_power, cultist_power, hero_params,
                                      cultist_params)
                        state[PUB_ROW, P_ASK] = ASK_NONE
                        if partner < 0 or partner >= players or partner == rb:
                            o[C_VIOLATIONS] += 1
                            partner = below(rng, players - 1)
                            partner += partner >= rb
                        role[rb] = role[partner]
                        state[rb, BOARD0 + B_FATE] = partner + 1
                        step = record(trace, g, step, EV_FATE, rb, partner, role[rb], old_role)
                    # right after the reveal: a Chosen One may undo it, before it takes effect
                    undone = False
                    if powers:
                        state[PUB_ROW, P_LAST] = p * MAX_HAND + s
                        state[PUB_ROW, P_LAST_CARD] = card
                        for i in range(players):
                            q = rb + i if rb + i < players else rb + i - players
                            j = power_slot(state, q, CHOSEN)
                            if j < 0:
                                continue
                            state[PUB_ROW, P_ASK] = ASK_AFTER
                            power = ask(q, role[q], state, memory, hero_power, cultist_power, hero_params,
                                        cultist_params)
                            state[PUB_ROW, P_ASK] = ASK_NONE
                            if power == 0:
                                continue
                            if power != CHOSEN:
                                o[C_VIOLATIONS] += 1
                                continue
                            state[q, PV_POWER0 + j] = 0
                            state[q, BOARD0 + B_USED] += 1
                            o[C_POWERS] += 1
                            o[C_UNDOS] += 1
                            step = record(trace, g, step, EV_POWER, q, CHOSEN, 0, 0)
                            step = record(trace, g, step, EV_UNDO, p, s, card, 0)
                            undone = True
                            break
                        state[PUB_ROW, P_LAST] = -1
                        state[PUB_ROW, P_LAST_CARD] = -1
                    if undone:
                        # the card goes back face down where it was; everybody saw it
                        state[p, CARDS0 + s] = card
                        state[p, DOWN0 + s] = 1
                        state[p, BOARD0 + B_DOWN] += 1
                        state[p, BOARD0 + B_SHOWN_GOLD + (card if card <= DRAGON else GOLD)] -= 1
                        state[PUB_ROW, P_REVEALED_ROUND] -= 1
                        state[PUB_ROW, P_REVEALED_TOTAL] -= 1
                        state[PUB_ROW, P_FACE_DOWN] += 1
                        if newly_caught:
                            caught_now[p] = 0
                            state[p, BOARD0 + B_CAUGHT] -= 1
                        if state[p, SHOWN0 + s] == 0:
                            state[PUB_ROW, P_SHOWN] += 1
                        state[p, SHOWN0 + s] = card + 1
                        if peeked:
                            state[rb, PV_NPEEK] -= 1
                            o[C_PEEKS] -= 1
                        role[rb] = old_role
                        state[rb, BOARD0 + B_FATE] = old_fate
                        if check:
                            o[C_VIOLATIONS] += count_violations(
                                state, players, hand, state[PUB_ROW, P_REVEALED_ROUND], relics_total,
                                state[PUB_ROW, P_RELICS_FOUND], dragons, state[PUB_ROW, P_DRAGON_FOUND] + dragon_out,
                                aside, n_aside)
                        continue          # the same runebearer reveals again
                    if card >= CANDLE:
                        o[C_ARTIFACTS] += 1
                # one rarely taken branch rather than a test per card kind (a random card mispredicts)
                state[PUB_ROW, P_RELICS_FOUND] += card == RELIC
                if (card == DRAGON) | (state[PUB_ROW, P_RELICS_FOUND] == relics_total):
                    if card == RELIC:
                        winner = HERO
                        mode = END_RELICS
                    elif state[PUB_ROW, P_REVEALED_TOTAL] >= min_reveals:
                        state[PUB_ROW, P_DRAGON_FOUND] = 1
                        winner = CULTIST
                        mode = END_DRAGON
                        o[C_FINDER] = rb
                        o[C_FINDER_ROLE] = role[rb]
                    else:
                        dragon_out = 1
                        o[C_EARLY] += 1
                        step = record(trace, g, step, EV_SWAP, rnd, 0, 0, 0)
                if check:
                    o[C_VIOLATIONS] += count_violations(state, players, hand, state[PUB_ROW, P_REVEALED_ROUND],
                                                        relics_total, state[PUB_ROW, P_RELICS_FOUND], dragons,
                                                        state[PUB_ROW, P_DRAGON_FOUND] + dragon_out, aside, n_aside)
                rb = p
                state[PUB_ROW, P_RUNEBEARER] = rb
                if winner >= 0:
                    break
            if winner >= 0:
                break
        if winner < 0:
            winner = CULTIST
            mode = END_TIME
        o[C_WINNER] = winner
        o[C_SILENT] = n_silent
        o[C_END_MODE] = mode
        o[C_REVEALS] = state[PUB_ROW, P_REVEALED_TOTAL]
        o[C_ROUNDS] = rounds_played
        o[C_RELICS_FOUND] = state[PUB_ROW, P_RELICS_FOUND]
        side = mask
        if advanced:          # a Figure of Fate may have moved players between the sides
            side = 0
            for p in range(players):
                side |= role[p] << p
            if check:
                dealt = 0
                for p in range(players):
                    dealt += state[p, BOARD0 + B_USED]
                    for j in range(MAX_POWERS):
                        dealt += state[p, PV_POWER0 + j] != 0
                o[C_VIOLATIONS] += dealt != min(n_power_cards, players * per_player) if powers else 0
        o[C_SIDE_MASK] = side
        step = record(trace, g, step, EV_END, winner, mode, state[PUB_ROW, P_REVEALED_TOTAL], rounds_played)


@njit(PLAY_BATCH_SIG, cache=True)
def play_batch(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power,
               hero_params, cultist_params, hero_builtin, cultist_builtin, out, trace, check):
    """Play n games: allocate the working arrays, then play them without reference counting.

    mods: Candle cards, Figure of Fate cards, powers on (0/1), powers per player, power cards, Hunter
    flips; power_cards: the power deck (one dummy card when empty)."""
    np.random.seed(seed)      # for user strategies that draw from np.random
    state = np.zeros((MAX_PLAYERS + 1, STATE_WIDTH), np.int64)
    memory = np.zeros((MAX_PLAYERS, MEMORY), np.float64)
    work = np.zeros((W_ROWS, max(hero_cards + cultist_cards, players * max(MAX_HAND, cards_per_player), len(event_cards),
                                 gluttony_cards, MAX_PLAYERS, len(power_cards))), np.int64)
    work[W_EVENTS, :len(event_cards)] = event_cards
    work[W_POWERS, :len(power_cards)] = power_cards
    play_games(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, len(event_cards), gluttony_cards, mods,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power,
               hero_params, cultist_params, hero_builtin, cultist_builtin, out, trace, check, state, memory, work)
