"""Dragonwake numba kernel: plays a batch of games from one seed into a record array (and traces). The helpers
every part shares are in kernel_base, the advanced game's powers in kernel_powers, one game as a resumable
machine in kernel_game, and the search player in kernel_search."""

import numpy as np
from numba import njit, types

from sim.engine.rng import mix
from sim.games.dragonwake.kernel_base import (
    CALL, EARLY_SUMS, IN_RANDOM, IN_SEARCH, PLAIN_SUMS, PLAIN_UNWRITTEN, PR_SIZE, R_CANDLES,
    R_CARDS_PER_PLAYER, R_CULTIST_CARDS, R_DRAGONS, R_EVENTS,
    R_FATES, R_GLUTTONY, R_HERO_CARDS, R_HUNTER_FLIPS, R_KTH, R_MENTOR_PEEKS, R_MIN_REVEALS, R_N_EVENTS,
    R_PER_PLAYER, R_PLAYERS, R_POWER_CARDS, R_POWERS, R_REAL_EVENTS, R_RELICS_TOTAL, R_REPLACEMENT, R_ROUNDS,
    R_FULL, R_RUNESTONE, R_SELF_REVEAL, R_SIZE, R_SKIP_ROUND, R_SLOTS, R_WAKE_FROM, W_EVENTS, W_POWERS,
    W_ROWS,
)
from sim.games.dragonwake.kernel_game import finish_game, play_rounds, start_game
from sim.games.dragonwake.kernel_search import SC_DEALS, SC_FALLBACKS, SC_NSEARCH, SC_WORK
from sim.games.dragonwake.records import MAX_HAND, MAX_PLAYERS, MEMORY, PUB_ROW, P_RNG, STATE_WIDTH, STRATEGY_FN
from strategies.dragonwake import RANDOM_ID, SEARCH_ID


# mods: the advanced modules' numbers, as game.py packs them
M_CANDLE, M_FATE, M_POWERS, M_PER_PLAYER, M_POWER_CARDS, M_HUNTER_FLIPS = 0, 1, 2, 3, 4, 5
M_MENTOR_PEEKS = 6     # cards a Mentor peeks at
M_ORDER = 7            # power_order: 0 from the runebearer clockwise, 1 from a runestone spin
M_KTH = 8              # kth_reveal_dragon_wakes (0/1)
M_REPLACEMENT = 9      # events_with_replacement (0/1)
M_SKIP_ROUND = 10      # the round index without an event
M_EVENT_CARDS = 11     # event cards in the deck (the array holds a dummy when it is empty)
M_SIZE = 12

# Declared so that any strategy with the right signatures plugs in without recompiling the kernel.
# Contiguous rules, hand sizes and progress (`::1`): play_on indexes them
# thousands of times a game, and a strided array costs a multiplication per index.
PLAY_BATCH_SIG = types.void(
    types.uint32, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64[::1], types.int64, types.boolean, types.boolean, types.int64[:], types.int64,
    types.int64[:], types.int64[:],
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int64, types.int64, types.int16[:, :], types.int64[:, :, :],
    types.boolean, types.int64[:], types.boolean[:], types.UniTuple(STRATEGY_FN, 6))

PLAY_GAMES_SIG = types.void(
    types.uint32, types.int64, types.int64[::1], types.int64[::1], types.int64, types.int64,
    STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN, STRATEGY_FN,
    types.float64[:], types.float64[:], types.int16[:, :], types.int64[:, :, :], types.boolean,
    types.int64[:, ::1], types.float64[:, :], types.int64[:, ::1], types.int64[::1], types.int64[:], types.int16[:],
    types.UniTuple(STRATEGY_FN, 6))


@njit(cache=True)
def code_of(builtin):
    """How play_on answers a side's decisions (kernel_base CALL, IN_RANDOM, IN_SEARCH), from its strategy's id."""
    return IN_RANDOM if builtin == RANDOM_ID else IN_SEARCH if builtin == SEARCH_ID else CALL


@njit(cache=True, inline='always')
def plays_plain(rint, hero_code, cultist_code):
    """Whether a batch is played by plain_games: the plain rules (rint[R_FULL] 0), and no side searches."""
    return hero_code != IN_SEARCH and cultist_code != IN_SEARCH and rint[R_FULL] == 0


@njit(cache=True, inline='always')
def plain_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state, memory,
                work, prog, all_random):
    """Play n games of the plain rules (rint[R_FULL] 0) where no side searches: never stopped, so the resume
    logic compiles away too. out arrives uninitialised: a game zeroes the counts it adds to (kernel_base
    PLAIN_SUMS, EARLY_SUMS) and sets the rest of what it writes."""
    early = rint[R_MIN_REVEALS] > 0
    for g in range(n):
        state[PUB_ROW, P_RNG] = mix(seed, g)
        o = out[g]
        for j in PLAIN_SUMS:
            o[j] = 0
        if early:
            for j in EARLY_SUMS:
                o[j] = 0
        start_game(g, rint, o, trace, state, memory, work, prog, all_random, False)
        play_rounds(g, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                    cultist_pick, hero_power, cultist_power, hero_params, cultist_params, o, trace, check, state,
                    memory, work, prog, False, False)
        finish_game(g, rint, o, trace, check, state, work, prog, False)


# Compiled without numba's reference counting (`_nrt=False`): every array view made in the loop would
# otherwise cost an atomic increment and decrement, about a fifth of a random game's time. The price is
# that this function may not allocate; play_batch hands it every array it needs.
@njit(PLAY_GAMES_SIG, cache=True, _nrt=False)
def play_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
               cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state, memory,
               work, prog, sc, o_play, dfns):
    """Play n games of the plain rules (events, artifacts, powers and self_reveal off: the default), no side
    searching: the whole game inlined in one loop, compiled without those modules (their setup, counters and
    branches cost a tenth of a random game) and without the search. The other batches are kernel_machine's."""
    plain_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state,
                memory, work, prog, hero_code == IN_RANDOM and cultist_code == IN_RANDOM)


@njit(cache=True)
def rule_ints(players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
              min_reveals, self_reveal, events, n_events, gluttony_cards, mods):
    """The rules as play_on reads them (kernel_base.R_*)."""
    rint = np.zeros(R_SIZE, np.int64)
    rint[R_PLAYERS] = players
    rint[R_HERO_CARDS] = hero_cards
    rint[R_CULTIST_CARDS] = cultist_cards
    rint[R_RELICS_TOTAL] = relics_per_player * players
    rint[R_DRAGONS] = dragons
    rint[R_CARDS_PER_PLAYER] = cards_per_player
    rint[R_MIN_REVEALS] = min_reveals
    # a dragon wakes from this many reveals on (the k-th reveal itself counts unless the flag says not)
    rint[R_WAKE_FROM] = min_reveals + (1 if mods[M_KTH] == 0 and min_reveals > 0 else 0)
    rint[R_SELF_REVEAL] = self_reveal
    rint[R_EVENTS] = events
    rint[R_N_EVENTS] = n_events
    rint[R_GLUTTONY] = gluttony_cards
    rint[R_CANDLES] = mods[M_CANDLE]
    rint[R_FATES] = mods[M_FATE]
    rint[R_POWERS] = mods[M_POWERS] != 0
    rint[R_PER_PLAYER] = mods[M_PER_PLAYER]
    rint[R_POWER_CARDS] = mods[M_POWER_CARDS]
    rint[R_HUNTER_FLIPS] = mods[M_HUNTER_FLIPS]
    rint[R_MENTOR_PEEKS] = mods[M_MENTOR_PEEKS]
    rint[R_RUNESTONE] = mods[M_ORDER] != 0
    rint[R_KTH] = mods[M_KTH]
    rint[R_REPLACEMENT] = mods[M_REPLACEMENT] != 0
    rint[R_SKIP_ROUND] = mods[M_SKIP_ROUND]
    rint[R_REAL_EVENTS] = mods[M_EVENT_CARDS]
    slots = 0              # hand slots ever used: the rest stay empty
    for h in hand_sizes:
        slots = min(MAX_HAND, max(slots, h))
    rint[R_SLOTS] = slots
    rint[R_ROUNDS] = len(hand_sizes)
    rint[R_FULL] = events or self_reveal or rint[R_CANDLES] + rint[R_FATES] > 0 or rint[R_POWERS] != 0
    return rint


@njit(cache=True)
def new_arrays(players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
               min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards, searching):
    """The arrays a batch plays in: (rint, state, memory, work, prog, the search's scratch); tests and tools
    that drive play_on and the search by hand take them from here too."""
    state = np.zeros((MAX_PLAYERS + 1, STATE_WIDTH), np.int64)
    state[:MAX_PLAYERS, :MAX_HAND] = -1
    memory = np.zeros((MAX_PLAYERS, MEMORY), np.float64)
    work = np.zeros((W_ROWS, max(hero_cards + cultist_cards, players * max(MAX_HAND, cards_per_player), len(event_cards),
                                 gluttony_cards, MAX_PLAYERS, len(power_cards))), np.int64)
    work[W_EVENTS, :len(event_cards)] = event_cards
    work[W_POWERS, :len(power_cards)] = power_cards
    rint = rule_ints(players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
                     min_reveals, self_reveal, events, len(event_cards), gluttony_cards, mods)
    sc = np.zeros(SC_WORK + work.size if searching else 1, np.int64)     # kernel_search.scratch_size
    return rint, state, memory, work, np.zeros(PR_SIZE, np.int64), sc


@njit(cache=True, inline='always')
def run_batch(games, rules, functions, sides, outputs):
    """Play n games: allocate the working arrays, then play them by `games` (play_games, or one of
    kernel_machine's when the rules need the machine or a side searches) without reference counting. The
    arguments are play_batch's in its order, packed in tuples (numba inlines no call of 30 arguments or more):
    rules (seed, n, players, ..., power_cards), the sides' six functions, sides (hero_params, cultist_params,
    hero_builtin, cultist_builtin) and outputs (out, trace, check, searched, written, dfns).

    searched (three words when a side plays `search`) receives the search player's decisions, determinisations
    and belief fallbacks (kernel_search.determinise); dfns: the functions its playouts use (hero declare, pick,
    power; cultist declare, pick, power). out may arrive uninitialised; written (all True on the way in) says
    which of its columns the batch left unwritten (False: zeros in every game). mods: Candle cards, Figure of Fate
    cards, powers on (0/1), powers per player, power cards, Hunter flips, ... (M_*); power_cards: the power deck
    (one dummy card when empty)."""
    (seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
     min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards) = rules
    hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power = functions
    hero_params, cultist_params, hero_builtin, cultist_builtin = sides
    out, trace, check, searched, written, dfns = outputs
    np.random.seed(seed)      # for user strategies that draw from np.random
    rint, state, memory, work, prog, sc = new_arrays(
        players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes, min_reveals,
        self_reveal, events, event_cards, gluttony_cards, mods, power_cards,
        hero_builtin == SEARCH_ID or cultist_builtin == SEARCH_ID)
    hero_code = code_of(hero_builtin)
    cultist_code = code_of(cultist_builtin)
    o_play = np.zeros(out.shape[1], np.int16)
    plain = plays_plain(rint, hero_code, cultist_code)
    if not plain:
        out[:, :] = 0          # play_on may count into any column (+=)
    games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare, cultist_pick,
          hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state, memory, work, prog, sc,
          o_play, dfns)
    if plain:                  # columns of modules compiled out of plain_games
        for j in PLAIN_UNWRITTEN:
            written[j] = False
        if rint[R_MIN_REVEALS] == 0:
            for j in EARLY_SUMS:
                written[j] = False
    if len(sc) > 1:
        searched[0] = sc[SC_NSEARCH]
        searched[1] = sc[SC_DEALS]
        searched[2] = sc[SC_FALLBACKS]


@njit(PLAY_BATCH_SIG, cache=True, nogil=True)
def play_batch(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power,
               hero_params, cultist_params, hero_builtin, cultist_builtin, out, trace, check, searched, written,
               dfns):
    """run_batch for the plain rules when no side searches (game.py asks kernel_machine otherwise)."""
    run_batch(play_games, (seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
                           hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards, mods,
                           power_cards),
              (hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power),
              (hero_params, cultist_params, hero_builtin, cultist_builtin),
              (out, trace, check, searched, written, dfns))
