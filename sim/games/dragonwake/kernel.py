"""Dragonwake numba kernel: plays a batch of games from one seed into a record array (and traces). The helpers
it shares with the advanced game's powers are in kernel_base, the powers themselves in kernel_powers."""

import numpy as np
from numba import njit, types

from sim.engine.rng import below, mix, shuffle
from sim.games.dragonwake.kernel_base import (
    C_ARTIFACTS, C_CULTIST_MASK, C_EARLY, C_END_MODE, C_FINDER, C_FINDER_ROLE, C_FIRST_RB, C_LAST_ROUND,
    C_N_CULTISTS, C_PEEKS, C_POWERS, C_RELICS_FOUND, C_REVEALS, C_ROUNDS, C_SIDE_MASK, C_SILENT, C_UNDOS,
    C_VIOLATIONS, C_WINNER, F_BLANK, F_CANDLE, F_ECLIPSE, F_FATE, F_KTH, F_MIN_REVEALS, F_PER_PLAYER,
    F_POWER, F_REPLACEMENT, F_SELF_REVEAL, F_SKIP_ROUND, N_COLS, claim_contradicted, count_violations,
    is_legal_target, random_target, record, show, tally_claim,
)
from sim.games.dragonwake.kernel_powers import ask, offer_start, peek, power_slot, use_power
from sim.games.dragonwake.records import (
    ASK_AFTER, ASK_BEFORE, ASK_FATE, ASK_NONE, ASK_PEEK, BOARD0, BOARD_COLS, B_CAUGHT, B_CLAIM_DRAGON,
    B_CLAIM_RELICS, B_DOWN, B_FATE, B_SHOWN_DRAGON, B_SHOWN_GOLD, B_SHOWN_RELIC, B_USED, CANDLE, CARDS0, CHOSEN,
    CULTIST, DOWN0, DRAGON, ECLIPSE, END_DRAGON, END_RELICS, END_TIME, EV_ASIDE, EV_CLAIM, EV_DEAL, EV_END,
    EV_EVENT, EV_FATE, EV_POWER, EV_POWERS, EV_REVEAL, EV_ROLE, EV_ROUND, EV_SWAP, EV_UNDEALT, EV_UNDO,
    FATE, GLUTTONY, GOLD, HERO, HUNTER, MAX_HAND, MAX_PLAYERS, MAX_POWERS, MEMORY, NO_EVENT, PUB_ROW, PV_NPEEK,
    PV_POWER0, P_ASIDE, P_ASK, P_CULTIST_CARDS, P_DRAGON_FOUND, P_EVENT, P_FACE_DOWN, P_HAND, P_HUNTED, P_LAST,
    P_LAST_CARD, P_PLAYERS, P_RELICS_FOUND, P_RELICS_TOTAL, P_REVEALED_ROUND, P_REVEALED_TOTAL, P_RNG,
    P_ROLE_CARDS, P_ROUND, P_RUNEBEARER, P_SHOWN, RELIC, SHOWN0, SILENT, STATE_WIDTH, STRATEGY_FN, pick_uniform,
    usable_before_reveal,
)
from strategies.dragonwake import RANDOM_ID


# Declared so that any strategy with the right signatures plugs in without recompiling the kernel.
PLAY_BATCH_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64[:], types.int64,
    types.int64[:], types.int64[:],
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int32[:, :], types.int64[:, :, :],
    types.boolean)


# rows of the kernel's integer work array
W_ROLE_DECK, W_ROLE, W_DECK, W_CAUGHT, W_EVENTS, W_ASIDE, W_POWERS, W_ROWS = 0, 1, 2, 3, 4, 5, 6, 7

# mods: the advanced modules' numbers
M_CANDLE, M_FATE, M_POWERS, M_PER_PLAYER, M_POWER_CARDS, M_HUNTER_FLIPS = 0, 1, 2, 3, 4, 5
M_MENTOR_PEEKS = 6     # cards a Mentor peeks at
M_ORDER = 7            # power_order: 0 from the runebearer clockwise, 1 from a runestone spin
M_KTH = 8              # kth_reveal_dragon_wakes (0/1)
M_REPLACEMENT = 9      # events_with_replacement (0/1)
M_SKIP_ROUND = 10      # the round index without an event
M_EVENT_CARDS = 11     # event cards in the deck (the array holds a dummy when it is empty)
M_SIZE = 12

PLAY_GAMES_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64, types.int64, types.int64[:],
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int32[:, :], types.int64[:, :, :],
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
    mentor_peeks = mods[M_MENTOR_PEEKS]
    runestone_order = mods[M_ORDER] != 0
    with_replacement = mods[M_REPLACEMENT] != 0
    skip_round = mods[M_SKIP_ROUND]
    n_real_events = mods[M_EVENT_CARDS]
    # a dragon wakes from this many reveals on (the k-th reveal itself counts unless the flag says not)
    wake_from = min_reveals + (1 if mods[M_KTH] == 0 and min_reveals > 0 else 0)
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
                        o[F_PER_PLAYER] += 1
                        step = record(trace, g, step, EV_POWERS, p, power_deck[k], 0, 0)
        n_aside = 0
        n_silent = 0
        winner = -1
        mode = -1
        dragon_out = 0        # an early dragon waiting to be swapped back in
        rounds_played = 0
        n_drawn = 0           # event cards drawn this game
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
                if rnd == skip_round:
                    o[F_SKIP_ROUND] += 1
                elif n_real_events > 0 and (with_replacement or n_drawn < n_real_events):
                    o[F_REPLACEMENT] += n_drawn > 0
                    event = event_deck[below(rng, n_real_events) if with_replacement else n_drawn]
                    n_drawn += 1
                    if event == NO_EVENT:
                        o[F_BLANK] += 1
                    else:
                        o[F_ECLIPSE + event - ECLIPSE] += 1
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
                    # before the runebearer lets go: each player may use a power (Hunter only the runebearer);
                    # these resolve before the reveal, offered from the runebearer clockwise, or from where a
                    # runestone spin points when several players could act (flag power_order)
                    eligible = 0
                    for q in range(players):
                        usable = False
                        for j in range(MAX_POWERS):
                            usable |= usable_before_reveal(state, state[q, PV_POWER0 + j], q, rb, hunted, players)
                        eligible += usable
                    start, step = offer_start(rng, rb, players, eligible, runestone_order, 0, o, trace, g, step)
                    for i in range(players):
                        q = start + i if start + i < players else start + i - players
                        usable = False
                        for j in range(MAX_POWERS):
                            usable |= usable_before_reveal(state, state[q, PV_POWER0 + j], q, rb, hunted, players)
                        if not usable:
                            continue
                        power = ask(ASK_BEFORE, q, role[q], state, memory, hero_power, cultist_power, hero_params,
                                    cultist_params)
                        if power == 0:
                            continue
                        j = power_slot(state, q, power) if power > 0 else -1
                        if j < 0 or not usable_before_reveal(state, power, q, rb, hunted, players):
                            o[C_VIOLATIONS] += 1
                            continue
                        state[q, PV_POWER0 + j] = 0
                        state[q, BOARD0 + B_USED] += 1
                        o[C_POWERS] += 1
                        step = record(trace, g, step, EV_POWER, q, power, 0, 0)
                        step = use_power(state, rng, role, memory, hero_power, cultist_power, hero_params,
                                         cultist_params, o, trace, g, step, q, power, rb, players, hunter_flips,
                                         mentor_peeks)
                        hunted |= power == HUNTER
                if hero_random if role[rb] == HERO else cultist_random:
                    if self_reveal:      # uniform over every legal card, one's own included (not after Hunter)
                        choice = random_target(rng, rb, players, state, not hunted)
                    else:
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
                o[F_SELF_REVEAL] += p == rb
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
                        target = ask(ASK_PEEK, rb, role[rb], state, memory, hero_power, cultist_power, hero_params,
                                     cultist_params)
                        step, peeked = peek(state, rng, rb, target, players, o, trace, g, step)
                        o[F_CANDLE] += 1
                    elif card == FATE:
                        partner = ask(ASK_FATE, rb, role[rb], state, memory, hero_power, cultist_power,
                                      hero_params, cultist_params)
                        if partner < 0 or partner >= players or partner == rb:
                            o[C_VIOLATIONS] += 1
                            partner = below(rng, players - 1)
                            partner += partner >= rb
                        role[rb] = role[partner]
                        state[rb, BOARD0 + B_FATE] = partner + 1
                        step = record(trace, g, step, EV_FATE, rb, partner, role[rb], old_role)
                        o[F_FATE] += 1
                    # right after the reveal: a Chosen One may undo it, before it takes effect
                    undone = False
                    if powers:
                        state[PUB_ROW, P_LAST] = p * MAX_HAND + s
                        state[PUB_ROW, P_LAST_CARD] = card
                        holders = 0
                        for q in range(players):
                            holders += power_slot(state, q, CHOSEN) >= 0
                        start, step = offer_start(rng, rb, players, holders, runestone_order, 1, o, trace, g, step)
                        for i in range(players):
                            q = start + i if start + i < players else start + i - players
                            j = power_slot(state, q, CHOSEN)
                            if j < 0:
                                continue
                            power = ask(ASK_AFTER, q, role[q], state, memory, hero_power, cultist_power,
                                        hero_params, cultist_params)
                            if power == 0:
                                continue
                            if power != CHOSEN:
                                o[C_VIOLATIONS] += 1
                                continue
                            state[q, PV_POWER0 + j] = 0
                            state[q, BOARD0 + B_USED] += 1
                            o[C_POWERS] += 1
                            o[C_UNDOS] += 1
                            o[F_POWER + CHOSEN] += 1
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
                        show(state, p, s)
                        if peeked:
                            state[rb, PV_NPEEK] -= 1
                            o[C_PEEKS] -= 1
                        o[F_CANDLE] -= card == CANDLE
                        o[F_FATE] -= card == FATE
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
                    total = state[PUB_ROW, P_REVEALED_TOTAL]
                    if card == RELIC:
                        winner = HERO
                        mode = END_RELICS
                    elif total >= wake_from:
                        o[F_KTH] += (min_reveals > 0) & (total == min_reveals)
                        state[PUB_ROW, P_DRAGON_FOUND] = 1
                        winner = CULTIST
                        mode = END_DRAGON
                        o[C_FINDER] = rb
                        o[C_FINDER_ROLE] = role[rb]
                    else:
                        o[F_KTH] += total == min_reveals
                        dragon_out = 1
                        o[C_EARLY] += 1
                        o[F_MIN_REVEALS] += 1
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
        o[C_LAST_ROUND] = rounds_played == len(hand_sizes)
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
