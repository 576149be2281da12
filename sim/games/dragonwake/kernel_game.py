"""Dragonwake kernel, part 3: one game as a resumable machine. `start_game` deals the roles, the search deck and
the powers; `play_on` plays the rounds from wherever `prog` says the game stands (a round's start, a claim, the
runebearer's pick) to the end; `finish_game` writes the game's record. Everything a game needs to go on lives in
the state, work and prog arrays, so the search player (kernel_search) can copy a game at one of its decisions
and play it on under other strategies."""

from numba import njit, types

from sim.engine.rng import below, shuffle
from sim.engine.strategy import njit_later
from sim.games.dragonwake.kernel_base import (
    C_ARTIFACTS, C_CULTIST_MASK, C_EARLY, C_END_MODE, C_FINDER, C_FINDER_ROLE, C_FIRST_RB, C_LAST_ROUND,
    C_N_CULTISTS, C_PEEKS, C_POWERS, C_RELICS_FOUND, C_REVEALS, C_ROUNDS, C_SIDE_MASK, C_SILENT, C_UNDOS,
    C_VIOLATIONS, C_WINNER, F_BLANK, F_CANDLE, F_ECLIPSE, F_FATE, F_KTH, F_MIN_REVEALS, F_PER_PLAYER, F_POWER,
    F_REPLACEMENT, F_SELF_REVEAL, F_SKIP_ROUND, IN_RANDOM, IN_SEARCH, NO_FORCE, PH_CLAIM, PH_PICK, PH_ROUND,
    PR_ASIDE, PR_CANDLES_OUT, PR_CLAIM, PR_DRAGON_OUT, PR_DRAWN, PR_FATES_OUT, PR_FORCED, PR_HUNTED, PR_MODE, PR_PHASE, PR_ROUND, PR_ROUNDS,
    PR_SILENT, PR_STEP, PR_STOPPED, PR_WINNER, R_CANDLES, R_CULTIST_CARDS, R_DRAGONS, R_EVENTS, R_FATES, R_GLUTTONY,
    R_CARDS_PER_PLAYER, R_HERO_CARDS, R_HUNTER_FLIPS, R_MENTOR_PEEKS, R_MIN_REVEALS, R_N_EVENTS, R_PER_PLAYER, R_PLAYERS,
    R_POWER_CARDS, R_POWERS, R_REAL_EVENTS, R_RELICS_TOTAL, R_REPLACEMENT, R_ROUNDS, R_RUNESTONE, R_SELF_REVEAL,
    R_SKIP_ROUND, R_SLOTS, R_WAKE_FROM, W_ASIDE, W_CAUGHT, W_DECK, W_EVENTS, W_POWERS, W_ROLE, W_ROLE_DECK,
    claim_contradicted, count_violations, is_legal_target, random_target, record, show, tally_claim,
)
from sim.games.dragonwake.kernel_powers import ask, offer_start, peek, power_slot, use_power
from sim.games.dragonwake.records import (
    ASK_AFTER, ASK_BEFORE, ASK_FATE, ASK_NONE, ASK_PEEK, BOARD0, BOARD_COLS, B_CAUGHT, B_CLAIM_DRAGON,
    B_CLAIM_RELICS, B_DOWN, B_FATE, B_SHOWN_DRAGON, B_SHOWN_GOLD, B_SHOWN_RELIC, B_USED, CANDLE, CARDS0, CHOSEN,
    CULTIST, DOWN0, DRAGON, ECLIPSE, END_DRAGON, END_RELICS, END_TIME, EV_ASIDE, EV_CLAIM, EV_DEAL, EV_END, EV_EVENT, EV_FATE,
    EV_POWER, EV_POWERS, EV_REVEAL, EV_ROLE, EV_ROUND, EV_SWAP, EV_UNDEALT, EV_UNDO, FATE, GLUTTONY, GOLD, HERO,
    HUNTER, MAX_HAND, MAX_POWERS, NO_EVENT, PUB_ROW, PV_NPEEK, PV_POWER0, P_ASIDE, P_ASK,
    P_CULTIST_CARDS, P_DRAGON_FOUND, P_EVENT, P_FACE_DOWN, P_HAND, P_HUNTED, P_LAST, P_LAST_CARD, P_PLAYERS,
    P_RELICS_FOUND, P_RELICS_TOTAL, P_REVEALED_ROUND, P_REVEALED_TOTAL, P_RNG, P_ROLE_CARDS, P_ROUND, P_RUNEBEARER,
    P_SHOWN, RELIC, SHOWN0, SILENT, STRATEGY_FN, pick_uniform, usable_before_reveal,
)

I = types.int64
A1 = types.int64[::1]       # contiguous: an index is one address computation, no stride
F1 = types.float64[:]
ROW = types.int16[:]
TRACE = types.int64[:, :, :]
STATE = types.int64[:, ::1]
MEMORY = types.float64[:, :]
WORK = types.int64[:, ::1]

PLAY_ON_SIG = types.void(
    I, A1, A1, I, I, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, F1, F1,
    ROW, TRACE, types.boolean, STATE, MEMORY, WORK, A1)


# start_game and finish_game are inlined into the batch loop (their one caller): a call passes every array as
# five to nine machine words, and a random game is short enough for two such calls to cost several per cent.
# `full` (a literal at every call): False when the rules switch off every module rint[R_FULL] names, so that
# the plain batch compiles without them (kernel.play_games). Only functions with such a flag are inlined by
# numba (`inline='always'`): numba inlines every such call, dead branches included, before it prunes them, and
# its inlining is slow. A whole game inlined that way took 5 minutes to compile, the flagged parts alone 30 s;
# the small helpers (kernel_base's, stop_at) are plain calls that LLVM inlines, the advanced game's
# (powers_before, after_reveal) calls the plain batch prunes before they are ever compiled.
@njit(cache=True, inline='always')
def start_game(g, rint, o, trace, state, memory, work, prog, all_random, full):
    """Deal game g (its stream already seeded in state's public row): roles, the search deck, the first
    runebearer, the event order and the power cards; prog then stands at the first round's start."""
    players = rint[R_PLAYERS]
    hero_cards = rint[R_HERO_CARDS]
    n_role = hero_cards + rint[R_CULTIST_CARDS]
    relics_total = rint[R_RELICS_TOTAL]
    role_deck = work[W_ROLE_DECK]
    role = work[W_ROLE]
    deck = work[W_DECK]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]
    n_candle = rint[R_CANDLES]
    artifacts = full and n_candle + rint[R_FATES] > 0
    powers = full and rint[R_POWERS] != 0
    advanced = artifacts or powers
    step = 0
    if not all_random:
        memory[:players, :] = 0.0
    for p in range(players):
        for j in range(BOARD_COLS):
            state[p, BOARD0 + j] = 0
    # o, game g's record, arrives zeroed where the game counts into it (kernel.play_batch, plain_games)
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
    total = rint[R_CARDS_PER_PLAYER] * players
    special = relics_total + rint[R_DRAGONS]
    deck[:relics_total] = RELIC
    deck[relics_total:special] = DRAGON
    deck[special:total] = GOLD
    if artifacts:
        for i in range(n_candle + rint[R_FATES]):
            deck[special + i] = CANDLE if i < n_candle else FATE
    shuffle(rng, deck, total)
    rb = below(rng, players)
    o[C_FIRST_RB] = rb
    o[C_FINDER] = -1
    o[C_FINDER_ROLE] = -1
    state[PUB_ROW, P_PLAYERS] = players
    state[PUB_ROW, P_RELICS_TOTAL] = relics_total
    state[PUB_ROW, P_CULTIST_CARDS] = rint[R_CULTIST_CARDS]
    state[PUB_ROW, P_ROLE_CARDS] = n_role
    state[PUB_ROW, P_REVEALED_TOTAL] = 0
    state[PUB_ROW, P_RELICS_FOUND] = 0
    state[PUB_ROW, P_DRAGON_FOUND] = 0
    state[PUB_ROW, P_RUNEBEARER] = rb
    if full and rint[R_EVENTS] != 0:
        shuffle(rng, work[W_EVENTS, :rint[R_N_EVENTS]], rint[R_N_EVENTS])
    if advanced:
        state[PUB_ROW, P_ASK] = ASK_NONE
        state[PUB_ROW, P_LAST] = -1
        state[PUB_ROW, P_LAST_CARD] = -1
        state[PUB_ROW, P_HUNTED] = 0
        for p in range(players):
            for j in range(MAX_POWERS):
                state[p, PV_POWER0 + j] = 0
    if powers:        # power cards, per_player each from seat 0 while the deck lasts
        power_deck = work[W_POWERS]
        per_player = rint[R_PER_PLAYER]
        shuffle(rng, power_deck, rint[R_POWER_CARDS])
        for p in range(players):
            for j in range(per_player):
                k = p * per_player + j
                if k < rint[R_POWER_CARDS]:
                    state[p, PV_POWER0 + j] = power_deck[k]
                    o[F_PER_PLAYER] += 1
                    step = record(trace, g, step, EV_POWERS, p, power_deck[k], 0, 0)
    for i in range(len(prog)):
        prog[i] = 0
    prog[PR_PHASE] = PH_ROUND
    prog[PR_WINNER] = -1
    prog[PR_MODE] = -1
    prog[PR_STEP] = step
    prog[PR_FORCED] = NO_FORCE


@njit(cache=True, _nrt=False)
def stop_at(prog, phase, rnd, i, hunted, n_aside, n_silent, dragon_out, rounds_played, n_drawn, step):
    """Write where the game stands into prog, before the search copies it."""
    prog[PR_PHASE] = phase
    prog[PR_ROUND] = rnd
    prog[PR_CLAIM] = i
    prog[PR_HUNTED] = hunted
    prog[PR_ASIDE] = n_aside
    prog[PR_SILENT] = n_silent
    prog[PR_DRAGON_OUT] = dragon_out
    prog[PR_ROUNDS] = rounds_played
    prog[PR_DRAWN] = n_drawn
    prog[PR_STEP] = step


@njit(cache=True, inline='always')
def start_round(g, rnd, rint, hand_sizes, o, trace, step, state, work, n_aside, dragon_out, n_drawn, full):
    """Gather and shuffle the face-down cards (after the first round), draw the round's event, deal, and set
    Gluttony's cards aside. Returns (step, n_aside, dragon_out, n_drawn)."""
    players = rint[R_PLAYERS]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]
    deck = work[W_DECK]
    aside = work[W_ASIDE]
    caught_now = work[W_CAUGHT]
    hand = hand_sizes[rnd]
    rb = state[PUB_ROW, P_RUNEBEARER]
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
    if full and rint[R_EVENTS] != 0:
        n_real = rint[R_REAL_EVENTS]
        with_replacement = rint[R_REPLACEMENT] != 0
        if rnd == rint[R_SKIP_ROUND]:
            o[F_SKIP_ROUND] += 1
        elif n_real > 0 and (with_replacement or n_drawn < n_real):
            o[F_REPLACEMENT] += n_drawn > 0
            event = work[W_EVENTS, below(rng, n_real) if with_replacement else n_drawn]
            n_drawn += 1
            if event == NO_EVENT:
                o[F_BLANK] += 1
            else:
                o[F_ECLIPSE + event - ECLIPSE] += 1
        step = record(trace, g, step, EV_EVENT, rnd, event, 0, 0)
    state[PUB_ROW, P_EVENT] = event
    slots = rint[R_SLOTS]       # a local: a store into state could alias rint, so a read in the loop repeats
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
    if full and (rint[R_CANDLES] + rint[R_FATES] > 0 or rint[R_POWERS] != 0):
        # what was seen last round no longer applies after the shuffle
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
        for i in range(rint[R_GLUTTONY]):
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
    return step, n_aside, dragon_out, n_drawn


@njit(cache=True, _nrt=False)
def powers_before(g, rint, rb, role, state, memory, hero_power, cultist_power, hero_params, cultist_params, o,
                  trace, step):
    """Before the runebearer lets go: each player may use a power (Hunter only the runebearer); these resolve
    before the reveal, offered from the runebearer clockwise, or from where a runestone spin points when several
    players could act (flag power_order). Returns (whether the runebearer hunted, the next trace step)."""
    players = rint[R_PLAYERS]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]
    hunted = False
    eligible = 0
    for q in range(players):
        usable = False
        for j in range(MAX_POWERS):
            usable |= usable_before_reveal(state, state[q, PV_POWER0 + j], q, rb, hunted, players)
        eligible += usable
    start, step = offer_start(rng, rb, players, eligible, rint[R_RUNESTONE] != 0, 0, o, trace, g, step)
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
                         cultist_params, o, trace, g, step, q, power, rb, players, rint[R_HUNTER_FLIPS],
                         rint[R_MENTOR_PEEKS])
        hunted |= power == HUNTER
    return hunted, step


@njit(cache=True, _nrt=False)
def after_reveal(g, rint, rb, p, s, card, newly_caught, hand, n_aside, dragon_out, role, state, memory, work,
                 hero_power, cultist_power, hero_params, cultist_params, o, trace, step, check):
    """The advanced game after a reveal of p's slot s: the artifact acts on the runebearer who revealed it, then
    a Chosen One may undo the reveal before it takes effect. Returns (whether it was undone, the next step)."""
    players = rint[R_PLAYERS]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]
    state[PUB_ROW, P_HUNTED] = 0
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
    undone = False
    if rint[R_POWERS] != 0:
        state[PUB_ROW, P_LAST] = p * MAX_HAND + s
        state[PUB_ROW, P_LAST_CARD] = card
        holders = 0
        for q in range(players):
            holders += power_slot(state, q, CHOSEN) >= 0
        start, step = offer_start(rng, rb, players, holders, rint[R_RUNESTONE] != 0, 1, o, trace, g, step)
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
            work[W_CAUGHT, p] = 0
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
                state, players, hand, state[PUB_ROW, P_REVEALED_ROUND], rint[R_RELICS_TOTAL],
                state[PUB_ROW, P_RELICS_FOUND], rint[R_DRAGONS], state[PUB_ROW, P_DRAGON_FOUND] + dragon_out,
                work[W_ASIDE], n_aside)
        return True, step
    if card >= CANDLE:
        o[C_ARTIFACTS] += 1
    return False, step


# The rounds, for play_on (resumable: searching True) and, inlined, for a batch where no side searches
# (searching False): there the game starts at its first round and is never stopped, so the resume logic
# compiles away and the batch loop holds the whole game, with no call per game.
@njit(cache=True, inline='always')
def play_rounds(g, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare, cultist_pick,
                hero_power, cultist_power, hero_params, cultist_params, o, trace, check, state, memory, work, prog,
                searching, full):
    players = rint[R_PLAYERS]
    relics_total = rint[R_RELICS_TOTAL]
    dragons = rint[R_DRAGONS]
    min_reveals = rint[R_MIN_REVEALS]
    wake_from = rint[R_WAKE_FROM]
    self_reveal = full and rint[R_SELF_REVEAL] != 0
    powers = full and rint[R_POWERS] != 0
    advanced = full and (rint[R_CANDLES] + rint[R_FATES] > 0 or powers)
    role = work[W_ROLE]
    caught_now = work[W_CAUGHT]
    aside = work[W_ASIDE]
    rng = state[PUB_ROW, P_RNG:P_RNG + 1]
    hero_random = hero_code == IN_RANDOM
    cultist_random = cultist_code == IN_RANDOM
    all_random = hero_random and cultist_random
    hero_search = searching and hero_code == IN_SEARCH
    cultist_search = searching and cultist_code == IN_SEARCH
    # a game that is not resumed stands at its first round's start (start_game)
    rnd = prog[PR_ROUND] if searching else 0
    phase = prog[PR_PHASE] if searching else PH_ROUND
    n_aside = prog[PR_ASIDE] if searching else 0
    n_silent = prog[PR_SILENT] if searching else 0
    dragon_out = prog[PR_DRAGON_OUT] if searching else 0      # an early dragon waiting to be swapped back in
    rounds_played = prog[PR_ROUNDS] if searching else 0
    n_drawn = prog[PR_DRAWN] if searching else 0              # event cards drawn this game
    step = prog[PR_STEP]
    forced = prog[PR_FORCED] if searching else NO_FORCE
    prog[PR_FORCED] = NO_FORCE
    winner = -1
    mode = -1
    n_rounds = rint[R_ROUNDS]
    while rnd < n_rounds:
        hand = hand_sizes[rnd]
        claim_from = 0
        if phase == PH_ROUND:
            rounds_played += 1
            step, n_aside, dragon_out, n_drawn = start_round(g, rnd, rint, hand_sizes, o, trace, step, state, work,
                                                             n_aside, dragon_out, n_drawn, full)
        else:
            claim_from = prog[PR_CLAIM] if phase == PH_CLAIM else players
        resume_pick = phase == PH_PICK
        phase = PH_ROUND
        rb = state[PUB_ROW, P_RUNEBEARER]
        # declarations, from the runebearer clockwise (when both sides play `random`, everybody is
        # silent: the loop below then cost a tenth of a game)
        for i in range(claim_from, players if not all_random else 0):
            p = rb + i if rb + i < players else rb + i - players    # (rb + i) % players, no division
            # the role is random: test it only when a strategy must be called, since a side playing
            # `random` mispredicted a branch per player
            claim = SILENT
            if forced != NO_FORCE:
                claim = forced
                forced = NO_FORCE
            elif not (hero_random if role[p] == HERO else cultist_random):
                if hero_search if role[p] == HERO else cultist_search:
                    stop_at(prog, PH_CLAIM, rnd, i, 0, n_aside, n_silent, dragon_out, rounds_played, n_drawn, step)
                    prog[PR_STOPPED] = p
                    return
                elif role[p] == HERO:
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
            if resume_pick:
                hunted = prog[PR_HUNTED] != 0
                resume_pick = False
            elif powers:
                hunted, step = powers_before(g, rint, rb, role, state, memory, hero_power, cultist_power,
                                             hero_params, cultist_params, o, trace, step)
            if forced != NO_FORCE:
                choice = forced
                forced = NO_FORCE
            elif hero_random if role[rb] == HERO else cultist_random:
                if self_reveal:      # uniform over every legal card, one's own included (not after Hunter)
                    choice = random_target(rng, rb, players, state, not hunted)
                else:
                    choice = pick_uniform(rng, rb, state)
            elif hero_search if role[rb] == HERO else cultist_search:
                stop_at(prog, PH_PICK, rnd, players, hunted, n_aside, n_silent, dragon_out, rounds_played, n_drawn,
                        step)
                prog[PR_STOPPED] = rb
                return
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
            if self_reveal:          # without it, p is never rb (an own card is illegal, and replaced)
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
                undone, step = after_reveal(g, rint, rb, p, s, card, newly_caught, hand, n_aside, dragon_out, role,
                                            state, memory, work, hero_power, cultist_power, hero_params,
                                            cultist_params, o, trace, step, check)
                if undone:
                    continue          # the same runebearer reveals again
                prog[PR_CANDLES_OUT] += card == CANDLE
                prog[PR_FATES_OUT] += card == FATE
            # one rarely taken branch rather than a test per card kind (a random card mispredicts)
            state[PUB_ROW, P_RELICS_FOUND] += card == RELIC
            if (card == DRAGON) | (state[PUB_ROW, P_RELICS_FOUND] == relics_total):
                total = state[PUB_ROW, P_REVEALED_TOTAL]
                if card == RELIC:
                    winner = HERO
                    mode = END_RELICS
                elif total >= wake_from:
                    if min_reveals > 0:      # (a branch: an add of 0 would touch the column's pages)
                        o[F_KTH] += total == min_reveals
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
        rnd += 1
    if winner < 0:
        winner = CULTIST
        mode = END_TIME
    prog[PR_STOPPED] = -1
    prog[PR_WINNER] = winner
    prog[PR_MODE] = mode
    prog[PR_SILENT] = n_silent
    prog[PR_ROUNDS] = rounds_played
    prog[PR_STEP] = step


# compiled by kernel_machine when a run first needs it (a plain run never does)
@njit_later(PLAY_ON_SIG, cache=True, _nrt=False)
def play_on(g, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare, cultist_pick,
            hero_power, cultist_power, hero_params, cultist_params, o, trace, check, state, memory, work, prog):
    """Play game g on from where prog stands, to its end (prog[PR_STOPPED] -1; prog then holds the winner, the
    end and the counts finish_game writes) or to a claim or pick of a side playing IN_SEARCH (prog[PR_STOPPED]
    the seat; the caller asks kernel_search and plays on with the answer in prog[PR_FORCED], which answers the
    first decision reached). The other codes: CALL the side's functions, IN_RANDOM the random strategy inline
    (no indirect call: the baseline measures the game, not the call)."""
    play_rounds(g, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                cultist_pick, hero_power, cultist_power, hero_params, cultist_params, o, trace, check, state, memory,
                work, prog, True, True)


@njit(cache=True, inline='always')
def finish_game(g, rint, o, trace, check, state, work, prog, full):
    """Write game g's record from where play_on left it."""
    players = rint[R_PLAYERS]
    role = work[W_ROLE]
    winner = prog[PR_WINNER]
    rounds_played = prog[PR_ROUNDS]
    o[C_WINNER] = winner
    o[C_SILENT] = prog[PR_SILENT]
    o[C_END_MODE] = prog[PR_MODE]
    o[C_REVEALS] = state[PUB_ROW, P_REVEALED_TOTAL]
    o[C_ROUNDS] = rounds_played
    o[C_RELICS_FOUND] = state[PUB_ROW, P_RELICS_FOUND]
    side = o[C_CULTIST_MASK]
    if full and (rint[R_CANDLES] + rint[R_FATES] > 0 or rint[R_POWERS] != 0):
        # a Figure of Fate may have moved players between the sides
        side = 0
        for p in range(players):
            side |= role[p] << p
        if check and rint[R_POWERS] != 0:
            dealt = 0
            for p in range(players):
                dealt += state[p, BOARD0 + B_USED]
                for j in range(MAX_POWERS):
                    dealt += state[p, PV_POWER0 + j] != 0
            o[C_VIOLATIONS] += dealt != min(rint[R_POWER_CARDS], players * rint[R_PER_PLAYER])
    o[C_SIDE_MASK] = side
    o[C_LAST_ROUND] = rounds_played == rint[R_ROUNDS]
    record(trace, g, prog[PR_STEP], EV_END, winner, prog[PR_MODE], state[PUB_ROW, P_REVEALED_TOTAL],
           rounds_played)
