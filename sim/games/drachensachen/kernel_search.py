"""Drachensachen kernel, part 5: the search player, flat Monte Carlo over determinisations (PIMC).

At each of its decisions with more than one option (a turn's play, pick-up, draw or missed turn; an ability's
choice; the exchange before a round) the searching seat plays each option on many times and keeps the one that
wins most. A playout starts from a copy of the true state in which everything the seat cannot see is dealt
afresh (`determinise`); then every seat plays the default heuristics (weighted, at its default weights), or, with
the seat's `informed` = 1, the other seats play the strategies and weights they really play in this line-up (a
searching seat, the searcher's own later moves included, plays the default heuristic: a playout never searches), to
the end of the round, and the rest of the game is valued (`value`): its chance to win, from the coins lost so far,
over SAMPLES games finished with round losses drawn from those of the heuristics' own games. A playout that ends
the game scores WIN points for a win, 0 for a loss; the coins it lost fewer than the best other player add a point
each, a tie-break. A play row is tried at its largest size and as a single card.

Why the round's end: coins are counted per round and a game is three or four rounds, so a decision shows in
its round's coins; playing the later rounds out took twice the time and won less (31% of 4-player games against
three weighted players, against 34.5% at the round's end, before the seen cards were kept; 300 and 200 games).

The options are weighed by the shared driver (sim.engine.search.choose): sequential halving on common random
numbers (a playout's stream deals the same hidden cards, the same later rounds and the same strategy draws for
every option), then a guard on fresh playouts. The incumbent the guard keeps is the seat's own playout heuristic's
answer at the root (weighted, at its default weights, with its strategy draws on the search stream; a play of
another size than the options' is added as an option): the halving's winner replaces it only if it beats it on
fresh paired playouts by more than the noise (Dragonwake's lesson: without it a lucky option replaces a good
answer).

What the seat sees and what is dealt afresh: it sees its hand, every open row (face up on the table), the pile,
the cards that left the round in plain view (burnt, put out, removed by Extermino) and every count. The other
cards (the other hands, every face-down card, its own included, the redraw pile and the cards sitting the round
out) are dealt from their counts by type, shuffled on the search stream, except that the cards a player was seen
to take into its hand (a pile picked up, an open card taken up or exchanged), less those of each type it played
since, stay in that hand (kernel_round's `seen_*`, kept by the machine's search path only). With the seat's
`beliefs` = 1 the deal also follows what the others' plays say under the default heuristic (which scores every play
above taking the pile): a seat that took the pile with cards in hand held none that fitted, so its unseen cards
are dealt from the other types (ST_NOT, forgotten when it draws unseen cards; a seat whose plays contradict it, not
playing as modelled, is dealt as it comes and counted: SS_FALLBACKS). This memory is most of
the search's strength: without it a searching seat won 34.5% of the games above, with it 51%. The deck the
later rounds are shuffled from is reset to a fixed order, the abilities still to come are reordered, and the
playout's later deals and strategy draws come from streams of its own.

Why PIMC: a turn's worth shows over the rest of the round (what the next players can answer, who takes the
pile), and the hidden cards act through what the others can play, which the determinisations sample; a tree over
three opponents' chained turns would spread the budget over nodes visited once. The heuristics never look at
another hand, so strategy fusion does not arise in the playouts. See docs/SEARCH.md.

The search has random streams of its own (`ss`), seeded per game, and it saves and restores numba's np.random
state (which the game's strategies and rare rules draw from) around a decision: a search seat leaves the game's
deals and the other seats' draws as they would be without it.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.randomimpl import get_state_ptr, rnd_state_t
from numba.extending import intrinsic
from sim.engine import search
from sim.engine.strategy import njit_later
from sim.engine.rng import below, mix, next_u64, shuffle, uniform

from sim.games.drachensachen.records import (
    G_STALEMATE, K_PLAY, MAX_DECK, N_ABILITIES, R_ABILITY0, R_END_LOSS, MAX_HIDDEN, MAX_MOVES, MAX_PLAYERS, MOVE_COLS, N_TYPES, SEAT_FNS, VIEW_LEN, V_HAND,
    V_HAND_N, V_HIDDEN_N, V_OPEN,
)
from sim.games.drachensachen.kernel_base import (
    A1, A2, ASKED, AT_PLAY, AT_SETUP, BIG, DONE, F2, I, M2, ST, checked, ST_ACTIVE, ST_COUNTS, ST_G, ST_HIDDEN, ST_KNOWN, ST_LEN,
    ST_LOST, ST_ORDER, ST_OUT, ST_PILE, ST_R, ST_REDRAW, ST_REST, ST_SCRATCH, S_ANSWER, S_ASK, S_AT, S_DRAW_END,
    S_DRAW_POS, S_NACTIVE, S_NOPT, S_P, S_PLAYERS, S_RND, S_ROUND_ONLY, S_TRACING, ST_NOT, TR, U1, set_held,
)
from sim.games.drachensachen.kernel_game import MT_N, deck_in_order, finish_game, game_machine, seed_game, start_game

SEARCH_SEED = 0x5EA2C5D5    # mixed into the batch seed: the search stream differs from the game's
WIN = 1024                  # a win's points (a coin of margin is one: a tie-break); SAMPLES divides it
# the search seat's parameters: playouts per decision; 1 if its playouts know the line-up; 1 if its determinisations
# deal the others' hands as their plays say (ST_NOT)
BUDGET, INFORMED, BELIEFS = 0, 1, 2
SAMPLES = 16                # games finished by `value` from a playout's round end (8 won as much; 64 no more)
MAX_VALUE_ROUNDS = 50       # rounds a valued game is finished in at most
VALUE_SALT = np.uint64(0x7A1E)
# the search state `ss` (uint64): its stream, the playouts' deal stream, decisions searched in the batch, hands the
# beliefs could not be kept in (a seat that did not play as the default heuristic would)
SS_RNG, SS_DEAL, SS_PLAY, SS_DECISIONS, SS_FALLBACKS = 0, 1, 2, 3, 4
SS_SIZE = 5
# numba's np.random state (a Mersenne Twister), saved in int64 words: the game's, and a playout stream's
MT_WORDS = 320
MAX_OPTS = 2 * MAX_MOVES + 1
# scratch (int64): the root's state, view rows and options rows; the options (row, hand, open); a pile to deal
# from; the playout stream whose np.random state mt[MT_WORDS:] holds; the driver's words (sim.engine.search)
SC_ST = 0
SC_V = SC_ST + ST_LEN
SC_MOVES = SC_V + MAX_PLAYERS * VIEW_LEN
SC_OPT = SC_MOVES + MAX_MOVES * MOVE_COLS
SC_PILE = SC_OPT + 3 * MAX_OPTS
SC_MT_STREAM = SC_PILE + MAX_DECK
SC_DRIVER = SC_MT_STREAM + 1
SC_SIZE = SC_DRIVER + search.words(MAX_OPTS)
U2 = types.uint64[::1]
F1 = types.float64[::1]


@intrinsic
def np_random_state(typingctx, buf, back):
    """Copy numba's thread-local np.random state into buf (an int64 array of MT_WORDS), or `back` from it."""
    def codegen(context, builder, sig, args):
        arr = context.make_array(sig.args[0])(context, builder, args[0])
        state = builder.bitcast(get_state_ptr(context, builder, "np"), ir.IntType(8).as_pointer())
        data = builder.bitcast(arr.data, ir.IntType(8).as_pointer())
        size = ir.Constant(ir.IntType(64), context.get_abi_sizeof(rnd_state_t))
        with builder.if_else(args[1]) as (restore, save):
            with restore:
                cgutils.raw_memcpy(builder, state, data, size, 1)
            with save:
                cgutils.raw_memcpy(builder, data, state, size, 1)
        return context.get_dummy_value()

    return types.void(buf, back), codegen


@njit_later(types.void(U2, I, I), cache=True, _nrt=False)
def search_seed(ss, seed, game):
    """The search stream of game `game` of a batch from `seed`."""
    ss[SS_RNG] = mix(seed ^ SEARCH_SEED, game)


# ---- the root's copy -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline='always')
def keep_rows(a, rows, sc, at, back):
    """Copy the first rows of a into sc[at:] (or `back` from it)."""
    width = a.shape[1]
    for i in range(rows):
        for j in range(width):
            if back:
                a[i, j] = sc[at + i * width + j]
            else:
                sc[at + i * width + j] = a[i, j]


@njit_later(types.void(M2, ST, M2, A1, types.boolean), cache=True, _nrt=False)
def keep(v, st, moves, sc, back):
    """Copy the state, the view rows and the option rows into the scratch (or `back` from it)."""
    for i in range(ST_LEN):
        if back:
            st[i] = sc[SC_ST + i]
        else:
            sc[SC_ST + i] = st[i]
    keep_rows(v, MAX_PLAYERS, sc, SC_V, back)
    keep_rows(moves, sc[SC_ST + S_NOPT], sc, SC_MOVES, back)


# ---- dealing what the seat cannot see --------------------------------------------------------------


@njit_later(types.void(I, I, I, I, A1, U2), cache=True, _nrt=False)
def believe(absent, i, left, end, sc, ss):
    """The pile sc[i:end] with its first `left` cards of types not in the bits `absent` (each the first such card
    on, swapped in), the rest reshuffled; counted in ss[SS_FALLBACKS] when there are too few."""
    for a in range(i, i + left):
        if (absent >> sc[a]) & 1:
            b = a + 1
            while b < end and (absent >> sc[b]) & 1:
                b += 1
            if b == end:
                ss[SS_FALLBACKS] += 1
                return
            c = sc[a]
            sc[a] = sc[b]
            sc[b] = c
    shuffle(ss[SS_DEAL:SS_DEAL + 1], sc[i + left:end], end - i - left)


@njit_later(types.void(I, M2, ST, A1, U2, types.boolean, types.boolean), cache=True, _nrt=False)
def determinise(me, v, st, sc, ss, leak, beliefs):
    """Deal afresh everything seat `me` cannot see (the module's docstring) on the stream ss[SS_DEAL]: the
    unseen cards by type, in type order, shuffled, then dealt to the other hands (besides the cards each is seen
    to hold: ST_KNOWN), every face-down row, the redraw pile and the cards sitting the round out. Only counts the
    seat can see are read. `leak` (the tests' deliberate fault) leaves the other hands' type bits (ST_HELD) as the
    true hands had them: the types those seats may play in the playouts are then the true ones. With `beliefs` a
    seat's unseen cards are dealt from the types its plays say it holds none of (ST_NOT: a pick-up while no card in
    hand fitted), each the first such card on in the pile, the rest reshuffled after; where too few are left, the
    seat keeps what it was dealt and ss[SS_FALLBACKS] counts it."""
    players = st[S_PLAYERS]
    k = 0
    for t in range(1, N_TYPES):
        unseen = st[ST_COUNTS + t] - v[me, V_HAND + t] - st[ST_PILE + t] - (st[ST_OUT + t] - st[ST_REST + t])
        for q in range(players):
            unseen -= v[q, V_OPEN + t] + (st[ST_KNOWN + q * N_TYPES + t] if q != me else 0)
        for j in range(unseen):
            sc[SC_PILE + k] = t
            k += 1
    shuffle(ss[SS_DEAL:SS_DEAL + 1], sc[SC_PILE:SC_PILE + k], k)
    i = SC_PILE
    for q in range(players):
        if q != me:
            left = v[q, V_HAND_N]
            for t in range(N_TYPES):
                v[q, V_HAND + t] = st[ST_KNOWN + q * N_TYPES + t]
                left -= v[q, V_HAND + t]
            if beliefs and st[ST_NOT + q] != 0:
                believe(st[ST_NOT + q], i, left, SC_PILE + k, sc, ss)
            for j in range(left):
                v[q, V_HAND + sc[i]] += 1
                i += 1
            if not leak:
                set_held(v, st, q)
    for q in range(players):
        for j in range(v[q, V_HIDDEN_N]):
            st[ST_HIDDEN + q * MAX_HIDDEN + j] = sc[i]
            i += 1
    for j in range(st[S_DRAW_POS], st[S_DRAW_END]):
        st[ST_REDRAW + j] = sc[i]
        i += 1
    for t in range(N_TYPES):
        st[ST_OUT + t] -= st[ST_REST + t]
        st[ST_REST + t] = 0
    while i < SC_PILE + k:
        st[ST_OUT + sc[i]] += 1
        st[ST_REST + sc[i]] += 1
        i += 1
    # the deck the later rounds are shuffled from, in a fixed order; the abilities to come in a new one
    deck_in_order(st)
    rest = 0
    for a in range(N_ABILITIES):
        if st[ST_R + R_ABILITY0 + a] == 1 and st[ST_ACTIVE + a] == 0:
            sc[SC_PILE + rest] = a
            rest += 1
    shuffle(ss[SS_DEAL:SS_DEAL + 1], sc[SC_PILE:SC_PILE + rest], rest)
    for j in range(rest):
        st[ST_ORDER + st[S_NACTIVE] + j] = sc[SC_PILE + j]


# ---- options and playouts ----------------------------------------------------------------------------


@njit_later(I(I, I, M2, A1), cache=True, _nrt=False)
def list_options(at, n, moves, sc):
    """The options of the decision (row, hand cards, open cards): every row; a play row at its largest size and,
    when that is more than one card, as a single card. Returns how many."""
    m = 0
    for i in range(n):
        nh = moves[i, 2] if at == AT_PLAY and moves[i, 0] == K_PLAY else 0
        no = moves[i, 3] if at == AT_PLAY and moves[i, 0] == K_PLAY else 0
        sc[SC_OPT + 3 * m] = i
        sc[SC_OPT + 3 * m + 1] = nh
        sc[SC_OPT + 3 * m + 2] = no
        m += 1
        if nh + no > 1:
            sc[SC_OPT + 3 * m] = i
            sc[SC_OPT + 3 * m + 1] = 1 if nh > 0 else 0
            sc[SC_OPT + 3 * m + 2] = 0 if nh > 0 else 1
            m += 1
    return m


@njit_later(types.void(I, ST, M2, A1), cache=True, _nrt=False)
def answer(o, st, moves, sc):
    """Option o as the machine's answer: its row, and a play row's counts."""
    row = sc[SC_OPT + 3 * o]
    st[S_ANSWER] = row
    if st[S_AT] == AT_PLAY and moves[row, 0] == K_PLAY:
        moves[row, 2] = sc[SC_OPT + 3 * o + 1]
        moves[row, 3] = sc[SC_OPT + 3 * o + 2]


@njit_later(I(I, ST), cache=True, _nrt=False)
def reward(me, st):
    """WIN points when seat `me` won the game (the fewest coins lost; no winner after the round cap), plus the coins
    it lost fewer than the best other player."""
    other = BIG
    for q in range(st[S_PLAYERS]):
        if q != me:
            other = min(other, st[ST_LOST + q])
    margin = other - st[ST_LOST + me]
    won = WIN if margin > 0 and st[ST_G + G_STALEMATE] == 0 else 0
    return won + margin


@njit_later(I(I, ST, A1, F1, U1, I), cache=True, _nrt=False)
def value(me, st, rint, lossc, pstate, samples):
    """Seat `me`'s chance to win from the coins lost so far (in WIN points), by `samples` games finished with round
    losses drawn at random: one player out (no loss), the others' losses from the cumulative table lossc (measured
    from the heuristics' own rounds). Plus its coin margin, as `reward`. (ST_SCRATCH holds the totals.)"""
    players = st[S_PLAYERS]
    wins = 0
    top = lossc.shape[0] - 1
    for k in range(samples):
        for q in range(players):
            st[ST_SCRATCH + q] = st[ST_LOST + q]
        for r in range(MAX_VALUE_ROUNDS):
            out = below(pstate, players)
            for q in range(players):
                u = uniform(pstate)
                c = 0
                while c < top and u >= lossc[c]:
                    c += 1
                st[ST_SCRATCH + q] += c * (q != out)
            most = -BIG
            fewest = BIG
            for q in range(players):
                most = max(most, st[ST_SCRATCH + q])
                fewest = min(fewest, st[ST_SCRATCH + q])
            n_fewest = 0
            for q in range(players):
                n_fewest += st[ST_SCRATCH + q] == fewest
            if most >= rint[R_END_LOSS] and n_fewest == 1:
                break
        other = BIG
        for q in range(players):
            if q != me:
                other = min(other, st[ST_SCRATCH + q])
        wins += st[ST_SCRATCH + me] < other
    other = BIG
    for q in range(players):
        if q != me:
            other = min(other, st[ST_LOST + q])
    return wins * WIN // samples + other - st[ST_LOST + me]


PLAYOUT_SIG = I(I, I, M2, ST, M2, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A1, TR, A1, U2, A1, U1, F1, I, I,
                types.boolean)


@njit_later(PLAYOUT_SIG, cache=True, _nrt=False)
def playout(me, o, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters,
            tr, sc, ss, mt, pstate, lossc, samples, deal, beliefs):
    """From the root's copy with what `me` cannot see dealt afresh on the stream in ss[SS_DEAL] (`deal` 1; the
    tests' 0 is a cheat that plays on from the true cards, 2 the leaky determinisation; `beliefs` as determinise's),
    answer option o and play on to the game's end with the given functions; the later rounds are dealt from
    ss[SS_PLAY], the strategies draw from the np.random state in mt[MT_WORDS:]. With `samples` > 0 the playout
    stops at the round's end and the rest of the game is valued (`value`). Returns me's reward."""
    keep(v, st, moves, sc, True)
    st[S_TRACING] = 0
    st[S_ASK] = 0
    st[S_ROUND_ONLY] = samples > 0
    if deal > 0:
        determinise(me, v, st, sc, ss, deal == 2, beliefs)
    pstate[0] = ss[SS_PLAY]
    np_random_state(mt[MT_WORDS:], True)
    answer(o, st, moves, sc)
    if game_machine(0, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out,
                    counters, tr, False, pstate) == DONE:
        return reward(me, st)
    pstate[0] = ss[SS_PLAY] ^ VALUE_SALT
    return value(me, st, rint, lossc, pstate, samples)


@njit_later(I(I, I, M2, ST, M2, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A1), cache=True, _nrt=False)
def incumbent(me, m, v, st, moves, play_fns, setup_fns, choice_fns, params, sc):
    """The option the default heuristics take here (added to the options when it is not among them: a play of
    another size). Their draws come from the np.random state the caller set; the option rows are restored."""
    at = st[S_AT]
    n = st[S_NOPT]
    if at == AT_PLAY:
        k = play_fns[me](moves, n, v[me], params[me])
    elif at == AT_SETUP:
        k = setup_fns[me](moves, n, v[me], params[me])
    else:
        k = choice_fns[me](moves, n, v[me], params[me])
    k = k if 0 <= k < n else 0
    play = at == AT_PLAY and moves[k, 0] == K_PLAY
    nh = moves[k, 2] if play else 0
    no = moves[k, 3] if play else 0
    for i in range(n):
        for j in range(MOVE_COLS):
            moves[i, j] = sc[SC_MOVES + i * MOVE_COLS + j]
    if play and (nh < 1 and no < 1 or nh > moves[k, 2] or no > moves[k, 3]):
        nh = moves[k, 2]        # an illegal trim: the kernel would restore the largest play
        no = moves[k, 3]
    for o in range(m):
        if sc[SC_OPT + 3 * o] == k and sc[SC_OPT + 3 * o + 1] == nh and sc[SC_OPT + 3 * o + 2] == no:
            return o
    sc[SC_OPT + 3 * m] = k
    sc[SC_OPT + 3 * m + 1] = nh
    sc[SC_OPT + 3 * m + 2] = no
    return m


@njit(cache=True, _nrt=False)
def play_option(ctx, o, stream):
    """The driver's playout (sim.engine.search.choose): option o played out on stream `stream`, which deals the
    hidden cards and seeds the later rounds' stream and the strategies' np.random state (seeded once per stream: the
    driver plays every option on one stream in turn). Returns me's reward in points."""
    (me, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters, tr, sc, ss,
     mt, pstate, lossc, samples, deal, beliefs) = ctx
    ss[SS_DEAL] = np.uint64(stream)
    ss[SS_PLAY] = mix(stream, 1)
    if sc[SC_MT_STREAM] != stream:
        sc[SC_MT_STREAM] = stream
        np.random.seed(np.int64(mix(stream, 2) >> np.uint64(33)))
        np_random_state(mt[MT_WORDS:], False)
    return playout(me, o, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out,
                   counters, tr, sc, ss, mt, pstate, lossc, samples, deal, beliefs)


SEARCH_SIG = types.void(I, M2, ST, M2, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A1, TR, A1, U2, A1, U1, F1, I,
                        I, types.boolean)


@njit_later(SEARCH_SIG, cache=True, _nrt=False)
def search_choice(budget, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out,
                  counters, tr, sc, ss, mt, pstate, lossc, samples, deal, beliefs):
    """Answer the decision the machine stopped at (S_AT, seat S_P, options in moves) for the searching seat: the
    driver's choice among the options, the incumbent the seat's playout heuristic's answer (the module's docstring);
    the functions and params are the playouts'. Leaves the answer in S_ANSWER (and a play row's counts in its row),
    everything else as it was."""
    me = st[S_P]
    ss[SS_DECISIONS] += 1
    m = list_options(st[S_AT], st[S_NOPT], moves, sc)
    keep(v, st, moves, sc, False)
    np_random_state(mt, False)
    srng = ss[SS_RNG:SS_RNG + 1]
    np.random.seed(np.int64(next_u64(srng) >> np.uint64(33)))      # the incumbent's strategy draws
    inc = incumbent(me, m, v, st, moves, play_fns, setup_fns, choice_fns, params, sc)
    ctx = (me, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out, counters, tr,
           sc, ss, mt, pstate, lossc, samples, deal, beliefs)
    best = search.choose(max(m, inc + 1), inc, budget, sc[SC_DRIVER:], srng, play_option, ctx)
    keep(v, st, moves, sc, True)
    np_random_state(mt, True)
    answer(best, st, moves, sc)


GAME_SIG = types.void(I, M2, ST, M2, A1, A1, A1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, types.int64[:, :, :], A2, A1,
                      TR, types.boolean, U1, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, SEAT_FNS, SEAT_FNS, SEAT_FNS, F2, A2, A1,
                      A1, U2, A1, U1, F1)


@njit_later(GAME_SIG, cache=True, _nrt=False)
def searched_game(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
                  players_out, rounds_out, counters, tr, check, state, pplay, psetup, pchoice, pparams, iplay, isetup,
                  ichoice, iparams, prounds, pcounters, sc, ss, mt, pstate, lossc):
    """A game with searching seats (S_ASK): the machine stops at each of their decisions, the search answers it
    (budget: the seat's first parameter) and the game goes on. The playouts play the default heuristics (pplay,
    ...) or, for a seat whose `informed` parameter is 1, the line-up's strategies (iplay, ...: each seat's own,
    a searching seat's the default heuristic)."""
    start_game(st, rint, tr)
    while game_machine(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds_out,
                       counters, tr, check, state) == ASKED:
        budget = np.int64(params[st[S_P], BUDGET])
        beliefs = params.shape[1] > BELIEFS and params[st[S_P], BELIEFS] > 0.5
        if params.shape[1] > INFORMED and params[st[S_P], INFORMED] > 0.5:
            search_choice(budget, v, st, moves, rint, coins, preset, iplay, isetup, ichoice, iparams, prounds,
                          pcounters, tr, sc, ss, mt, pstate, lossc, SAMPLES, 1, beliefs)
        else:
            search_choice(budget, v, st, moves, rint, coins, preset, pplay, psetup, pchoice, pparams, prounds,
                          pcounters, tr, sc, ss, mt, pstate, lossc, SAMPLES, 1, beliefs)
    finish_game(g, st[S_RND], st, games_out, players_out, tr)


# ---- entries for the tests (arrays made in Python) ------------------------------------------------------


@njit(cache=True, _nrt=False)
def answer_by(v, st, moves, play_fns, setup_fns, choice_fns, params):
    """The asked seat's own function answers the decision the machine stopped at, as the plain path would."""
    p = st[S_P]
    n = st[S_NOPT]
    if st[S_AT] == AT_PLAY:
        k = play_fns[p](moves, n, v[p], params[p])
    elif st[S_AT] == AT_SETUP:
        k = setup_fns[p](moves, n, v[p], params[p])
    else:
        k = choice_fns[p](moves, n, v[p], params[p])
    st[S_ANSWER] = checked(k, n, st)


@njit(cache=True)
def to_question(seed, me, k, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds, counters,
                tr, state):
    """Game 0 of a batch from `seed` (st from setup_state, seat `me` asked) played to me's k-th decision with more
    than one option (from 0): 1 there, 0 if the game ended first. Earlier decisions are answered by the functions."""
    seed_game(state, np.zeros(MT_N, np.uint32), seed, 0)
    start_game(st, rint, tr)
    seen = 0
    while game_machine(0, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds, counters,
                       tr, False, state) == ASKED:
        if seen == k:
            return 1
        seen += 1
        answer_by(v, st, moves, play_fns, setup_fns, choice_fns, params)
    return 0


@njit(cache=True)
def machine_games(seed, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, games_out,
                  players_out, rounds, counters, tr):
    """The batch's games from `seed` through the machine, every asked decision answered by the seat's own function
    (the tests: the machine plays the plain kernel's games)."""
    state = np.zeros(1, np.uint64)
    words = np.zeros(MT_N, np.uint32)
    for g in range(games_out.shape[0]):
        seed_game(state, words, seed, g)
        start_game(st, rint, tr)
        while game_machine(g, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds,
                           counters, tr, False, state) == ASKED:
            answer_by(v, st, moves, play_fns, setup_fns, choice_fns, params)
        finish_game(g, st[S_RND], st, games_out, players_out, tr)


@njit(cache=True)
def decide(budget, samples, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds, counters,
           tr, sc, ss, mt, pstate, lossc, deal, beliefs):
    """search_choice, callable with arrays made in Python: the row answered (its counts are left in moves)."""
    search_choice(budget, v, st, moves, rint, coins, preset, play_fns, setup_fns, choice_fns, params, rounds, counters,
                  tr, sc, ss, mt, pstate, lossc, samples, deal, beliefs)
    return st[S_ANSWER]


@njit(cache=True)
def redeal(me, v, st, sc, ss, leak, beliefs):
    """determinise, callable with arrays made in Python."""
    determinise(me, v, st, sc, ss, leak, beliefs)
