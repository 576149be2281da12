"""Dragonwake numba kernel: plays a batch of games from one seed into a record array (and traces)."""

import numpy as np
from numba import njit, types

from sim.core.rng import below, mix, shuffle
from sim.games.dragonwake.records import (
    pick_uniform, views, BOARD_COLS, B_CAUGHT, B_CLAIM_DRAGON, B_CLAIM_RELICS, B_DOWN, B_SHOWN_DRAGON, B_SHOWN_GOLD, B_SHOWN_RELIC,
    CULTIST, DRAGON, END_DRAGON, END_RELICS, END_TIME, EV_ASIDE, EV_CLAIM, EV_DEAL, EV_END, EV_EVENT,
    EV_REVEAL, EV_ROLE, EV_ROUND, EV_SWAP, EV_UNDEALT, GLUTTONY, GOLD, HERO, MAX_HAND, MAX_PLAYERS, MEMORY,
    NO_EVENT, PUB_ROW, P_ASIDE, P_CULTIST_CARDS, P_DRAGON_FOUND, P_EVENT, P_FACE_DOWN, P_HAND, P_PLAYERS,
    P_RELICS_FOUND, P_RELICS_TOTAL, P_REVEALED_ROUND, P_REVEALED_TOTAL, P_RNG, P_ROLE_CARDS, P_ROUND,
    P_RUNEBEARER, RELIC, SILENT, STATE_WIDTH, STRATEGY_FN,
)
from strategies.dragonwake import RANDOM_ID

# output columns, in records.GAME_COLUMNS order
C_N_CULTISTS, C_CULTIST_MASK, C_WINNER, C_END_MODE, C_REVEALS, C_ROUNDS, C_RELICS_FOUND = 0, 1, 2, 3, 4, 5, 6
C_FIRST_RB, C_FINDER, C_FINDER_ROLE, C_EARLY, C_TRUE, C_FALSE, C_SILENT = 7, 8, 9, 10, 11, 12, 13
C_CULTIST_LIES, C_HERO_LIES, C_VIOLATIONS = 14, 15, 16
N_COLS = 17


@njit(cache=True, inline='always')
def record(trace, g, step, code, a, b, c, d):
    """Append an event to game g's trace when it is traced; returns the next step."""
    if g < trace.shape[0]:
        row = trace[g, step]
        row[0] = code
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = d
        return step + 1
    return step


@njit(cache=True, inline='always')
def is_legal_target(p, s, rb, players, down, self_reveal):
    if p < 0 or p >= players or s < 0 or s >= MAX_HAND:
        return False
    return down[p, s] == 1 and (p != rb or self_reveal)


@njit(cache=True, inline='always')
def random_target(rng, rb, players, down, self_reveal):
    """Uniform over the face-down cards the runebearer may reveal (replaces an illegal choice)."""
    count = 0
    for p in range(players):
        if p != rb or self_reveal:
            for s in range(MAX_HAND):
                count += down[p, s]
    k = below(rng, count)
    for p in range(players):
        if p != rb or self_reveal:
            for s in range(MAX_HAND):
                if down[p, s] == 1:
                    if k == 0:
                        return p * MAX_HAND + s
                    k -= 1
    return -1


@njit(cache=True, inline='always')
def claim_contradicted(board, p, hand):
    """Whether what has been revealed of p's cards proves p's claim false."""
    cr = board[p, B_CLAIM_RELICS]
    if cr < 0:
        return False
    cd = board[p, B_CLAIM_DRAGON]
    return (board[p, B_SHOWN_RELIC] > cr or board[p, B_SHOWN_DRAGON] > cd
            or board[p, B_SHOWN_GOLD] > hand - cr - cd)


@njit(cache=True, inline='always')
def count_violations(cards, down, players, hand, reveals_round, relics_total, relics_found,
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
            if down[p, s] == 1:
                face_down += 1
                relics += cards[p, s] == RELIC
                dragon += cards[p, s] == DRAGON
            elif cards[p, s] != -1:
                return 1
    bad = 0
    bad += face_down != players * hand - reveals_round - n_aside
    bad += relics + relics_found != relics_total
    bad += dragon + dragon_gone != dragons
    return bad


@njit(cache=True, inline='always')
def tally_claim(o, cards, p, hand, role, claim):
    """Count true, false and silent claims (a claim is true when it states the hand exactly)."""
    if claim == SILENT:
        o[C_SILENT] += 1
        return
    relics = 0
    dragon = 0
    for s in range(hand):
        relics += cards[p, s] == RELIC
        dragon += cards[p, s] == DRAGON
    if claim == relics * 2 + dragon:
        o[C_TRUE] += 1
    else:
        o[C_FALSE] += 1
        if role == CULTIST:
            o[C_CULTIST_LIES] += 1
        else:
            o[C_HERO_LIES] += 1


# Declared so that any strategy with the right signatures plugs in without recompiling the kernel.
PLAY_BATCH_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64[:], types.int64,
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int16[:, :], types.int64[:, :, :],
    types.boolean)


# rows of the kernel's integer work array
W_ROLE_DECK, W_ROLE, W_DECK, W_CAUGHT, W_EVENTS, W_ASIDE, W_ROWS = 0, 1, 2, 3, 4, 5, 6

PLAY_GAMES_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[:], types.int64, types.boolean, types.boolean, types.int64, types.int64,
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int16[:, :], types.int64[:, :, :],
    types.boolean, types.int64[:, :], types.float64[:, :], types.int64[:, ::1])


# Compiled without numba's reference counting (`_nrt=False`): every array view made in the loop would
# otherwise cost an atomic increment and decrement, about a fifth of a random game's time. The price is
# that this function may not allocate; play_batch hands it every array it needs.
@njit(PLAY_GAMES_SIG, cache=True, _nrt=False)
def play_games(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, n_events, gluttony_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_params, cultist_params,
               hero_builtin, cultist_builtin, out, trace, check, state, memory, work):
    """Play n games. The `random` strategy (builtin id RANDOM_ID) is played inline rather than through
    an indirect call, so that the baseline measures the game, not the call."""
    role_deck = work[W_ROLE_DECK]
    role = work[W_ROLE]
    deck = work[W_DECK]
    caught_now = work[W_CAUGHT]
    event_deck = work[W_EVENTS, :n_events]
    aside = work[W_ASIDE]
    cards, down, board, pub = views(state)
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]     # the game's own stream, shared with the strategies
    cards[:, :] = -1
    relics_total = relics_per_player * players
    slots = 0              # hand slots ever used: the rest stay empty
    for h in hand_sizes:
        slots = min(MAX_HAND, max(slots, h))
    n_role = hero_cards + cultist_cards
    for g in range(n):
        rng[0] = mix(seed, g)
        step = 0
        if hero_builtin != RANDOM_ID or cultist_builtin != RANDOM_ID:
            memory[:players, :] = 0.0
        for p in range(players):
            for j in range(BOARD_COLS):
                board[p, j] = 0
        o = out[g]
        for j in range(N_COLS):
            o[j] = 0
        # roles
        for i in range(n_role):
            role_deck[i] = HERO if i < hero_cards else CULTIST
        shuffle(rng, role_deck, n_role)
        mask = 0
        for p in range(players):
            role[p] = role_deck[p]
            if role[p] == CULTIST:
                o[C_N_CULTISTS] += 1
                mask |= 1 << p
            step = record(trace, g, step, EV_ROLE, p, role[p], 0, 0)
        step = record(trace, g, step, EV_UNDEALT, role_deck[players] if n_role > players else -1, 0, 0, 0)
        o[C_CULTIST_MASK] = mask
        # search deck
        total = cards_per_player * players
        for i in range(total):
            deck[i] = RELIC if i < relics_total else (DRAGON if i < relics_total + dragons else GOLD)
        shuffle(rng, deck, total)
        n_deck = total
        rb = below(rng, players)
        o[C_FIRST_RB] = rb
        o[C_FINDER] = -1
        o[C_FINDER_ROLE] = -1
        pub[P_PLAYERS] = players
        pub[P_RELICS_TOTAL] = relics_total
        pub[P_CULTIST_CARDS] = cultist_cards
        pub[P_ROLE_CARDS] = n_role
        pub[P_REVEALED_TOTAL] = 0
        pub[P_RELICS_FOUND] = 0
        pub[P_DRAGON_FOUND] = 0
        if events:
            shuffle(rng, event_deck, len(event_deck))
        n_aside = 0
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
                    for s in range(slots):     # branch-free compaction: a face-down card is kept
                        deck[n_deck] = cards[p, s]
                        n_deck += down[p, s]
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
            pub[P_EVENT] = event
            k = 0
            for p in range(players):
                for s in range(slots):
                    if s < hand:
                        cards[p, s] = deck[k]
                        down[p, s] = 1
                        step = record(trace, g, step, EV_DEAL, p, s, deck[k], 0)
                        k += 1
                    else:
                        cards[p, s] = -1
                        down[p, s] = 0
                board[p, B_DOWN] = hand
                board[p, B_SHOWN_GOLD] = 0
                board[p, B_SHOWN_RELIC] = 0
                board[p, B_SHOWN_DRAGON] = 0
                caught_now[p] = 0
            pub[P_ROUND] = rnd
            pub[P_HAND] = hand
            pub[P_REVEALED_ROUND] = 0
            pub[P_FACE_DOWN] = players * hand
            if event == GLUTTONY:
                for i in range(gluttony_cards):
                    choice = random_target(rng, -1, players, down, True)
                    p = choice // MAX_HAND
                    s = choice % MAX_HAND
                    aside[n_aside] = cards[p, s]
                    n_aside += 1
                    step = record(trace, g, step, EV_ASIDE, p, s, cards[p, s], 0)
                    cards[p, s] = -1
                    down[p, s] = 0
                    board[p, B_DOWN] -= 1
                    pub[P_FACE_DOWN] -= 1
            pub[P_ASIDE] = n_aside
            pub[P_RUNEBEARER] = rb
            # declarations, from the runebearer clockwise
            for i in range(players):
                p = rb + i if rb + i < players else rb + i - players    # (rb + i) % players, no division
                if role[p] == HERO:
                    if hero_builtin == RANDOM_ID:
                        claim = SILENT
                    else:
                        claim = hero_declare(p, HERO, state, hero_params, memory[p])
                elif cultist_builtin == RANDOM_ID:
                    claim = SILENT
                else:
                    claim = cultist_declare(p, CULTIST, state, cultist_params, memory[p])
                if claim < SILENT or claim > 2 * hand + 1:
                    o[C_VIOLATIONS] += 1
                    claim = SILENT
                step = record(trace, g, step, EV_CLAIM, p, claim, 0, 0)
                tally_claim(o, cards, p, hand, role[p], claim)
                board[p, B_CLAIM_RELICS] = claim // 2 if claim >= 0 else -1
                board[p, B_CLAIM_DRAGON] = claim % 2 if claim >= 0 else 0
            # search
            for t in range(players):
                if role[rb] == HERO:
                    if hero_builtin == RANDOM_ID:
                        choice = pick_uniform(rng, rb, down, board, pub)
                    else:
                        choice = hero_pick(rb, HERO, state, hero_params, memory[rb])
                elif cultist_builtin == RANDOM_ID:
                    choice = pick_uniform(rng, rb, down, board, pub)
                else:
                    choice = cultist_pick(rb, CULTIST, state, cultist_params, memory[rb])
                p = choice // MAX_HAND
                s = choice % MAX_HAND
                if choice < 0 or not is_legal_target(p, s, rb, players, down, self_reveal):
                    o[C_VIOLATIONS] += 1
                    choice = random_target(rng, rb, players, down, self_reveal)
                    p = choice // MAX_HAND
                    s = choice % MAX_HAND
                card = cards[p, s]
                cards[p, s] = -1
                down[p, s] = 0
                board[p, B_DOWN] -= 1
                board[p, B_SHOWN_GOLD + card] += 1
                pub[P_REVEALED_ROUND] += 1
                pub[P_REVEALED_TOTAL] += 1
                pub[P_FACE_DOWN] -= 1
                if caught_now[p] == 0 and claim_contradicted(board, p, hand):
                    caught_now[p] = 1
                    board[p, B_CAUGHT] += 1
                step = record(trace, g, step, EV_REVEAL, rb, p, s, card)
                if card == DRAGON:
                    if pub[P_REVEALED_TOTAL] >= min_reveals:
                        pub[P_DRAGON_FOUND] = 1
                        winner = CULTIST
                        mode = END_DRAGON
                        o[C_FINDER] = rb
                        o[C_FINDER_ROLE] = role[rb]
                    else:
                        dragon_out = 1
                        o[C_EARLY] += 1
                        step = record(trace, g, step, EV_SWAP, rnd, 0, 0, 0)
                elif card == RELIC:
                    pub[P_RELICS_FOUND] += 1
                    if pub[P_RELICS_FOUND] == relics_total:
                        winner = HERO
                        mode = END_RELICS
                if check:
                    o[C_VIOLATIONS] += count_violations(cards, down, players, hand, pub[P_REVEALED_ROUND],
                                                        relics_total, pub[P_RELICS_FOUND], dragons,
                                                        pub[P_DRAGON_FOUND] + dragon_out, aside, n_aside)
                rb = p
                pub[P_RUNEBEARER] = rb
                if winner >= 0:
                    break
            if winner >= 0:
                break
        if winner < 0:
            winner = CULTIST
            mode = END_TIME
        o[C_WINNER] = winner
        o[C_END_MODE] = mode
        o[C_REVEALS] = pub[P_REVEALED_TOTAL]
        o[C_ROUNDS] = rounds_played
        o[C_RELICS_FOUND] = pub[P_RELICS_FOUND]
        step = record(trace, g, step, EV_END, winner, mode, pub[P_REVEALED_TOTAL], rounds_played)


@njit(PLAY_BATCH_SIG, cache=True)
def play_batch(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_params, cultist_params,
               hero_builtin, cultist_builtin, out, trace, check):
    """Play n games: allocate the working arrays, then play them without reference counting."""
    np.random.seed(seed)      # for user strategies that draw from np.random
    state = np.zeros((MAX_PLAYERS + 1, STATE_WIDTH), np.int64)
    memory = np.zeros((MAX_PLAYERS, MEMORY), np.float64)
    work = np.zeros((W_ROWS, max(hero_cards + cultist_cards, players * max(MAX_HAND, cards_per_player), len(event_cards),
                                 gluttony_cards, MAX_PLAYERS)), np.int64)
    work[W_EVENTS, :len(event_cards)] = event_cards
    play_games(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, len(event_cards), gluttony_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_params, cultist_params,
               hero_builtin, cultist_builtin, out, trace, check, state, memory, work)
