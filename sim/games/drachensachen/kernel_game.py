"""Drachensachen kernel, part 4: a game as a resumable machine.

`start_game` sets a game up, `game_on` plays it from where the state says (a round's deal, the exchanges, the
turns) to its end, or, with `search`, to a searching seat's decision, and `finish_game` writes its rows. Where
the machine is between rounds (stage, round, starter, abilities active) lives in the state array, so a copy
of the arrays at a decision can be played on from (kernel_search); the plain path (`search` False) compiles
the stops away. `seed_game` gives each game its random streams.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.randomimpl import get_state_ptr
from numba.extending import intrinsic
from sim.engine.rng import mix, step
from sim.engine.strategy import njit_later

from sim.games.drachensachen.records import (
    C_ROUNDS, F_FROM_START, F_STALEMATE_SCORES, G_CHECK_FAILS, G_CURSES, G_FIRST_STARTER, G_LOSER, G_LOSER_LOST,
    G_LOST0, G_MAX_TURNS, G_PICKUPS, G_POS_LOST0, G_ROUNDS, G_STALEMATE, G_STALEMATE_ROUNDS, G_STARTER_OUT,
    G_WINNER, G_WINNER_LOST, MAX_PLAYERS, N_ABILITIES, N_GAME_COLS, N_RINT, N_TYPES, P_LOST, P_OUT, P_PICKUPS, P_WON, RD_GAME,
    RD_OUT, RD_PICKUPS, RD_POS_LOST0, RD_ROUND, RD_STARTER, RD_TURNS, R_ABILITIES_FROM_START, R_ABILITY0,
    R_END_LOSS, R_MAX_LOSS, R_MAX_ROUNDS, R_STALEMATE_SCORES, SEAT_FNS, T_ABILITY, T_CURSE, T_GAME_END,
    T_ROUND_END,
)
from sim.games.drachensachen.kernel_base import (
    A1, A2, A3, ASKED, AT_NONE, B, BIG, DONE, ROUND_DONE, F2, I, M2, ST, ST_ACTIVE, ST_COUNTS, ST_CURSE, ST_DECK, ST_G, ST_LOSS, ST_LOST, ST_ORDER,
    ST_PICK, ST_PILE, ST_R, ST_WENT, STAGE_DEAL, STAGE_SETUP, STAGE_TURNS, S_ASK, S_AT, S_DECK_N, S_NACTIVE, S_NENABLED, S_PICKUPS0,
    S_PLAYERS, S_QN, S_RND, S_ROUND_ONLY, S_STAGE, S_STARTER, TR, U1, count_faults, flush, rec,
)
from sim.games.drachensachen.kernel_round import (
    deal_round, draw_curse, exchanges, forget_seen, pick_starter, play_round, round_loss, round_machine, round_sizes,
)

NP_SALT = 0x6E9A11D5    # mixed into the batch seed: np.random's stream differs from the deal's
MT_N = 624              # the words of numba's np.random state (a Mersenne Twister)
U4 = types.uint32[::1]


@intrinsic
def np_random_words(typingctx, words):
    """Set numba's thread-local np.random state to the MT_N words given, to be drawn from the first (the twist
    comes when they are used up)."""
    def codegen(context, builder, sig, args):
        arr = context.make_array(sig.args[0])(context, builder, args[0])
        state = get_state_ptr(context, builder, "np")
        i32 = ir.IntType(32)
        field = lambda k: builder.gep(state, [i32(0), i32(k)], inbounds=True)     # noqa: E731
        byte = ir.IntType(8).as_pointer()
        cgutils.raw_memcpy(builder, builder.bitcast(field(1), byte), builder.bitcast(arr.data, byte),
                           ir.Constant(ir.IntType(64), 4 * MT_N), 1)
        builder.store(i32(0), field(0))     # index: the next word drawn
        builder.store(i32(0), field(2))     # no normal deviate kept
        builder.store(i32(1), field(4))     # initialised
        return context.get_dummy_value()

    return types.void(words), codegen


@njit(types.void(U1, U4, I, I), cache=True, _nrt=False)
def seed_game(state, words, seed, g):
    """Game g's random streams, from (seed, g) alone, so that game g is dealt and drawn for alike whatever the
    games before it did (variants compared on the same seeds stay paired game by game): the deal's fast stream
    (the starter and the shuffles) and numba's np.random (the strategies' draws and the kernel's rare ones: the
    abilities' order, curses, Monsterball). np.random.seed would cost a tenth of a game (a 624-step chain, then
    a twist at the first draw); here the words come from four xorshift streams side by side and are drawn
    directly (1-2%). A hash of each word's index costs as little alone, but LLVM vectorises it into 512-bit
    multiplies, which lowered the core's clock: 10% slower games (measured)."""
    state[0] = mix(seed, g)
    key = mix(seed ^ NP_SALT, g)
    a = mix(key, 1)
    b = mix(key, 2)
    c = mix(key, 3)
    d = mix(key, 4)
    w = words.view(np.uint64)
    for i in range(0, MT_N // 2, 4):      # four xorshift64 streams side by side (no 512-bit multiplies)
        a = step(a)
        b = step(b)
        c = step(c)
        d = step(d)
        w[i] = a
        w[i + 1] = b
        w[i + 2] = c
        w[i + 3] = d
    np_random_words(words)


@njit(types.void(ST, I, A1, A1, I), cache=True, _nrt=False)
def setup_state(st, players, rint, counts, ask):
    """A batch's state array: the players, the rule ints, the card counts and the seats whose decisions are asked
    (bits)."""
    st[S_PLAYERS] = players
    st[S_DECK_N] = 0
    for t in range(1, N_TYPES):
        st[S_DECK_N] += counts[t]
    for i in range(N_RINT):
        st[ST_R + i] = rint[i]
    for t in range(N_TYPES):
        st[ST_COUNTS + t] = counts[t]
    st[S_ASK] = ask


@njit(types.void(ST), cache=True, _nrt=False)
def deck_in_order(st):
    """The deck in type order (each round shuffles the cards it deals from the front)."""
    pos = ST_DECK
    for t in range(1, N_TYPES):
        for i in range(st[ST_COUNTS + t]):
            st[pos] = t
            pos += 1


@njit(types.void(ST, A1, TR), cache=True, _nrt=False)
def start_game(st, rint, tr):
    """Clear the game's counters; the deck in type order (a game's deals depend on its stream only); put the
    enabled abilities in a random order (all active if from the start); the machine at the first round's deal."""
    for i in range(ST_G, ST_PILE):
        st[i] = 0
    deck_in_order(st)
    for q in range(MAX_PLAYERS):
        st[ST_LOST + q] = 0
        st[ST_CURSE + q] = -1
        st[ST_PICK + q] = 0
        st[ST_WENT + q] = 0
    n_enabled = 0
    for a in range(N_ABILITIES):
        st[ST_ACTIVE + a] = 0
        if rint[R_ABILITY0 + a] == 1:
            st[ST_ORDER + n_enabled] = a
            n_enabled += 1
    for i in range(n_enabled - 1, 0, -1):
        j = ST_ORDER + np.random.randint(0, i + 1)
        c = st[ST_ORDER + i]
        st[ST_ORDER + i] = st[j]
        st[j] = c
    n_active = 0
    if rint[R_ABILITIES_FROM_START] == 1:
        while n_active < n_enabled:
            st[ST_ACTIVE + st[ST_ORDER + n_active]] = 1
            rec(tr, st, T_ABILITY, -1, st[ST_ORDER + n_active], 0, 0, 0, 0, 0)
            n_active += 1
    st[ST_G + F_FROM_START] = n_active
    st[S_NENABLED] = n_enabled
    st[S_NACTIVE] = n_active
    st[S_STAGE] = STAGE_DEAL
    st[S_RND] = 0
    st[S_STARTER] = 0
    st[S_AT] = AT_NONE


@njit(types.void(I, I, I, I, I, I, M2, ST, A1, A1, A2, A1, TR), cache=True, _nrt=False)
def score_round(g, rnd, starter, out, turns, pickups_before, v, st, rint, coins, rounds_out, counters, tr):
    """Coins for the round just played; one row of the rounds table."""
    players = st[S_PLAYERS]
    scored = out >= 0 or rint[R_STALEMATE_SCORES] == 1
    for q in range(MAX_PLAYERS):
        st[ST_LOSS + q] = 0
    if scored:
        for q in range(players):
            st[ST_LOSS + q] = round_loss(v, q, st, coins, rint[R_MAX_LOSS])
            st[ST_LOST + q] += st[ST_LOSS + q]
        for k in range(players):
            st[ST_G + G_POS_LOST0 + k] += st[ST_LOSS + (starter + k) % players]
    if out < 0:
        st[ST_G + G_STALEMATE_ROUNDS] += 1
        st[ST_G + F_STALEMATE_SCORES] += 1
    else:
        st[ST_WENT + out] += 1
        if out == starter:
            st[ST_G + G_STARTER_OUT] += 1
    st[ST_G + G_ROUNDS] = rnd + 1
    st[ST_G + G_MAX_TURNS] = max(st[ST_G + G_MAX_TURNS], turns)
    rec(tr, st, T_ROUND_END, out, st[ST_LOSS], st[ST_LOSS + 1], st[ST_LOSS + 2], st[ST_LOSS + 3],
        st[ST_LOSS + 4], st[ST_LOSS + 5])
    i = counters[C_ROUNDS]
    if i < rounds_out.shape[0]:
        rounds_out[i, RD_GAME] = g
        rounds_out[i, RD_ROUND] = rnd
        rounds_out[i, RD_STARTER] = starter
        rounds_out[i, RD_OUT] = out
        rounds_out[i, RD_TURNS] = turns
        rounds_out[i, RD_PICKUPS] = st[ST_G + G_PICKUPS] - pickups_before
        for k in range(players):
            rounds_out[i, RD_POS_LOST0 + k] = st[ST_LOSS + (starter + k) % players]
    counters[C_ROUNDS] = i + 1


@njit(types.void(I, I, ST, A2, A3, TR), cache=True, _nrt=False)
def finish_game(g, rnd, st, games_out, players_out, tr):
    """The winner (fewest coins lost, none after the round cap), the loser, and the output rows."""
    players = st[S_PLAYERS]
    fewest = BIG
    for q in range(players):
        fewest = min(fewest, st[ST_LOST + q])
    winner = -1
    loser = 0
    for q in range(players):
        if st[ST_LOST + q] > st[ST_LOST + loser]:
            loser = q
        if st[ST_G + G_STALEMATE] == 0 and st[ST_LOST + q] == fewest:
            winner = q
    st[ST_G + G_WINNER] = winner
    st[ST_G + G_LOSER] = loser
    st[ST_G + G_WINNER_LOST] = st[ST_LOST + winner] if winner >= 0 else -1
    st[ST_G + G_LOSER_LOST] = st[ST_LOST + loser]
    for q in range(MAX_PLAYERS):
        st[ST_G + G_LOST0 + q] = st[ST_LOST + q] if q < players else -1
    for i in range(N_GAME_COLS):
        games_out[g, i] = st[ST_G + i]
    for q in range(players):
        players_out[g, q, P_LOST] = st[ST_LOST + q]
        players_out[g, q, P_WON] = 1 if q == winner else 0
        players_out[g, q, P_OUT] = st[ST_WENT + q]
        players_out[g, q, P_PICKUPS] = st[ST_PICK + q]
    rec(tr, st, T_GAME_END, winner, loser, rnd, 0, 0, 0, 0)


@njit(B(ST, A1), cache=True, _nrt=False)
def game_over(st, rint):
    """Someone has lost enough, and exactly one player has lost the fewest."""
    most = -BIG
    fewest = BIG
    for q in range(st[S_PLAYERS]):
        most = max(most, st[ST_LOST + q])
        fewest = min(fewest, st[ST_LOST + q])
    n_fewest = 0
    for q in range(st[S_PLAYERS]):
        n_fewest += st[ST_LOST + q] == fewest
    return most >= rint[R_END_LOSS] and n_fewest == 1


@njit(cache=True, _nrt=False, inline='always')
def game_on(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters,
            tr, check, state, search):
    """Rounds from where the state says until the game is over (returns DONE); with `search` (a constant) it
    stops at a searching seat's decision instead (returns ASKED, where it stopped in the state), and, when
    S_ROUND_ONLY is 1, at the end of the round (ROUND_DONE; the next round's stage is not set up)."""
    stage = st[S_STAGE] if search else STAGE_DEAL
    while True:
        if stage == STAGE_DEAL:
            rnd = st[S_RND]
            starter = pick_starter(rnd, st[S_STARTER], st, preset, state)
            st[S_STARTER] = starter
            if rnd == 0:
                st[ST_G + G_FIRST_STARTER] = starter
            chaos = round_sizes(rnd, st, rint, preset, tr)
            deal_round(rnd, starter, chaos, preset, v, st, rint, tr, state)
            if search:
                forget_seen(st)
            stage = STAGE_SETUP
        if stage == STAGE_SETUP:
            if exchanges(v, st, moves, rint, setup_fns, params, tr, search):
                st[S_STAGE] = STAGE_SETUP
                return ASKED
            if check:
                st[ST_G + G_CHECK_FAILS] += count_faults(v, st)
            st[S_PICKUPS0] = st[ST_G + G_PICKUPS]
        if search:
            out, turns = round_machine(st[S_STARTER], v, st, moves, play_fns, choice_fns, params, tr, check)
            if out == ASKED:
                st[S_STAGE] = STAGE_TURNS
                return ASKED
        else:
            out, turns = play_round(st[S_STARTER], v, st, moves, play_fns, choice_fns, params, tr, check)
        if st[S_QN] > 0:
            flush(tr, st)
        rnd = st[S_RND]
        score_round(g, rnd, st[S_STARTER], out, turns, st[S_PICKUPS0], v, st, rint, coins, rounds_out, counters, tr)
        rnd += 1
        st[S_RND] = rnd
        if game_over(st, rint):
            return DONE
        if rnd >= rint[R_MAX_ROUNDS]:
            st[ST_G + G_STALEMATE] = 1
            return DONE
        if search and st[S_ROUND_ONLY] == 1:
            return ROUND_DONE
        if out >= 0:
            curse = draw_curse(rint, True)
            if curse >= 0:
                st[ST_CURSE + out] = curse
                st[ST_G + G_CURSES] += 1
                rec(tr, st, T_CURSE, out, curse, 0, 0, 0, 0, 0)
        n_active = st[S_NACTIVE]
        if n_active < st[S_NENABLED]:
            st[ST_ACTIVE + st[ST_ORDER + n_active]] = 1
            rec(tr, st, T_ABILITY, -1, st[ST_ORDER + n_active], 0, 0, 0, 0, 0)
            st[S_NACTIVE] = n_active + 1
        stage = STAGE_DEAL


@njit_later(I(I, M2, ST, M2, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A1, TR, B, U1), cache=True, _nrt=False)
def game_machine(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters,
                 tr, check, state):
    """`game_on` as a resumable machine: on to the game's end (DONE) or a searching seat's decision (ASKED)."""
    return game_on(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out,
                   counters, tr, check, state, True)
