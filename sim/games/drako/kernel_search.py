"""Drako's search player: flat Monte Carlo over determinisations (PIMC), run inside the batch kernel.

At each of its decisions with more than one option, the searching side plays each option on to the end
of the game many times and keeps the option that wins most. Each playout starts from a copy of the true
state in which everything the side cannot see is dealt afresh (`determinise`): the opponent's hand and the
order of both decks, drawn from the cards not yet played or discarded (discards are public in Drako).
Both sides then play the default heuristics (brawler and coordinated, at their default weights), or, with the
search's `informed` = 1, the other side plays the strategy and weights it really plays in this line-up (the
searcher's own later moves keep the default heuristic for its side; an opponent that searches too is played
by its default heuristic, so a playout never searches). The options are weighed by the shared
driver (sim.engine.search.choose): sequential halving on common random numbers (within a round, playout j deals
the same hidden cards and draws the same random numbers for every option), and the side's own heuristic's
answer kept unless another option beats it on fresh playouts by more than the noise.

Why flat Monte Carlo and not information-set MCTS: a Drako turn is a chain of small decisions (a card,
then its target, then the opponent's block) whose consequences show only at the end of the fight, and
hidden information is only the hands and deck order, which matter through the cards drawn later; a flat
search over the current decision with strong playouts measures that directly, while a tree over chained
decisions of both sides would spread the same budget over mostly unvisited nodes. See docs/SEARCH.md.

The searching side never reads what it cannot see: the opponent's hand and both deck orders are
overwritten by `determinise` before any playout reads them, from counts the side can see (cards per kind
in each deck list, cards gone, cards in each hand, cards left in each deck).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.engine import search
from sim.engine.rng import shuffle
from sim.games.drako.kernel_base import FAST, take_row
from sim.games.drako.kernel_cards import hand_add
from sim.games.drako.kernel_game import next_question
from sim.games.drako.records import (
    C_NTYPES_D, MAX_DECK, MAX_OPTS, MAX_TYPES, N_SYM, OPT_WIDTH, R_NOPTS, S_DECK_TOP, S_HAND,
    S_HAND_MASK, S_HAND_N, S_RNG, S_SYM, S_WINNER, W_BOARD, W_CARDS, W_DECKS, W_GONE, W_NSEARCH, W_OPTS,
    W_SRNG, W_ST, W_TRACING, WIN_NOBODY,
)
from strategies import drako as builtin


# scratch (int64): the saved root state, a card pile, then the driver's words (sim.engine.search)
SAVE_FIXED = W_CARDS - W_BOARD                 # board, deck orders, cards gone
SAVE_ST = W_OPTS - W_ST                        # the state vector (option rows follow it)
AT_PILE = SAVE_FIXED + SAVE_ST + MAX_OPTS * OPT_WIDTH
AT_DRIVER = AT_PILE + MAX_DECK
N_SCRATCH = AT_DRIVER + search.words(MAX_OPTS)

# search parameters: budget, informed, then the playout heuristics' weights (strategies.drako.search_params)
P_BUDGET, P_INFORMED, P_DRAGON, P_DWARVES = builtin.P_BUDGET, builtin.P_INFORMED, builtin.P_DRAGON, builtin.P_DWARVES

# how a decision slot is answered (kernel.inline_codes): its function called, a built-in inlined, or the search
CALL, IN_BRAWLER, IN_COORDINATED, IN_RANDOM, IN_SEARCH = 0, 1, 2, 3, 4

@njit(inline="always", **FAST)
def search_stream(w):
    """The search stream's cell of w, as the one-element state sim.engine.rng draws from (inlined: without
    numba's reference counting a function cannot return a view it made)."""
    return w[W_SRNG:W_SRNG + 1]


@njit(**FAST)
def save(w, sc, nopts):
    for i in range(SAVE_FIXED):
        sc[i] = w[W_BOARD + i]
    for i in range(SAVE_ST + nopts * OPT_WIDTH):
        sc[SAVE_FIXED + i] = w[W_ST + i]


@njit(**FAST)
def restore(w, sc, nopts):
    for i in range(SAVE_FIXED):
        w[W_BOARD + i] = sc[i]
    for i in range(SAVE_ST + nopts * OPT_WIDTH):
        w[W_ST + i] = sc[SAVE_FIXED + i]


@njit(**FAST)
def unseen_pile(w, sc, side, hand_too):
    """Lay out in sc[AT_PILE:] the cards of `side` not gone (played or discarded, public), less those in its
    hand unless `hand_too`, in order of kind, then shuffle them on the search stream. Built from counts
    alone, so the result does not depend on where the cards really are. Returns how many."""
    k = 0
    for t in range(w[C_NTYPES_D + side]):
        left = w[W_CARDS + (side * MAX_TYPES + t) * 5] - w[W_GONE + side * MAX_TYPES + t]
        if not hand_too:
            left -= w[W_ST + S_HAND + side * MAX_TYPES + t]
        for _ in range(left):
            sc[AT_PILE + k] = t
            k += 1
    shuffle(search_stream(w), sc[AT_PILE:AT_PILE + k], k)
    return k


@njit(**FAST)
def deck_from_pile(w, sc, side, first, count):
    """The deck of `side` from its next card on: sc[AT_PILE + first:][:count]."""
    top = W_DECKS + side * MAX_DECK + w[W_ST + S_DECK_TOP + side]
    for i in range(count):
        w[top + i] = sc[AT_PILE + first + i]


@njit(**FAST)
def determinise(w, sc, me, leak=False):
    """Deal afresh what side `me` cannot see: the opponent's hand and the order of both decks.

    The opponent's unseen cards (its deck list less the cards gone) are shuffled; its hand takes as many as
    it holds and its deck the rest. Our own hand is known; the rest of our cards not gone make our deck, in
    a new order. Reads only counts `me` can see: cards per kind in each deck list, gone, in its own hand,
    and how many each side holds. `leak` forgets to reset the opponent's symbol counts (a cached sum over its
    hand), so they still follow the true hand: a deliberately broken determinisation the no-peeking tests must
    catch.
    """
    opp = 1 - me
    k = unseen_pile(w, sc, opp, True)
    held = w[W_ST + S_HAND_N + opp]
    for t in range(MAX_TYPES):
        w[W_ST + S_HAND + opp * MAX_TYPES + t] = 0
    for s in range(N_SYM):
        if not leak:
            w[W_ST + S_SYM + opp * N_SYM + s] = 0
    w[W_ST + S_HAND_MASK + opp] = 0
    w[W_ST + S_HAND_N + opp] = 0
    for i in range(held):
        hand_add(w, opp, sc[AT_PILE + i])
    deck_from_pile(w, sc, opp, held, k - held)
    deck_from_pile(w, sc, me, 0, unseen_pile(w, sc, me, False))


@njit(inline="always", **FAST)
def inline_choice(code, kind, opts, n, st, geo, p, b):
    """The built-in strategy `code` (not CALL or IN_SEARCH) answering one decision, as its *_choice function
    would, its weights at p[b:]."""
    if code == IN_BRAWLER:
        return builtin.brawler2(kind, opts, n, st, geo, p, b)
    if code == IN_COORDINATED:
        return builtin.coordinated2(kind, opts, n, st, geo, p, b)
    return builtin.draw(st, n)


@njit(**FAST)
def playout(w, sc, tr, st, opts, geo, me, option, nopts, stream, p, informed, fns, codes, pd, pw, deal):
    """Restore the root, deal the hidden cards from `stream` (unless `deal` is 0: a cheat that sees them; 2 deals
    with the leaky determinisation; both for the tests), answer `option`, play on with the playout policy.
    Returns 2 for a win of `me`, 1 for a stalemate, 0 for a loss."""
    restore(w, sc, nopts)
    w[W_SRNG] = stream
    if deal:
        determinise(w, sc, me, deal == 2)
    w[W_ST + S_RNG] = search.next_stream(search_stream(w))     # the playout's own future draws
    take_row(w, option)
    play_on(w, tr, st, opts, geo, me, p, informed, fns, codes, pd, pw)
    winner = st[S_WINNER]
    if winner == me:
        return 2
    return 1 if winner == WIN_NOBODY else 0


@njit(inline="always", **FAST)
def default_policy(who):
    """Decision slot `who`'s default heuristic (brawler for the dragon, coordinated for the dwarves) and where its
    weights start in the search's parameters."""
    if who < 4:
        return IN_BRAWLER, P_DRAGON
    return IN_COORDINATED, P_DWARVES


@njit(inline="always", **FAST)
def playout_choice(q, st, opts, geo, me, p, informed, fns, codes, pd, pw):
    """The playout policy's answer to question q: brawler for the dragon, coordinated for the dwarves, at their
    default weights; when `informed`, the other side's line-up strategy with its weights (unless it searches).
    One call site per heuristic keeps the inlined playout small."""
    who = q >> 4
    kind = q & 15
    n = st[R_NOPTS]
    code, b = default_policy(who)
    pp = p
    if informed and (who >> 2) != me and codes[who] != IN_SEARCH:
        code = codes[who]
        pp = pd if who < 4 else pw
        b = 0
    if code == CALL:
        i = fns[who](kind, opts, n, st, geo, pp)
    else:
        i = inline_choice(code, kind, opts, n, st, geo, pp, b)
    return i if 0 <= i < n else 0


@njit(**FAST)
def play_on(w, tr, st, opts, geo, me, p, informed, fns, codes, pd, pw):
    """Both sides play the playout policy to the game's end."""
    while True:
        q = next_question(w, tr)
        if q < 0:
            return
        take_row(w, playout_choice(q, st, opts, geo, me, p, informed, fns, codes, pd, pw))


@njit(**FAST)
def play_option(ctx, option, stream):
    """The driver's playout (sim.engine.search.choose): option `option` played out on stream `stream`."""
    w, sc, tr, st, opts, geo, me, nopts, p, informed, fns, codes, pd, pw, deal = ctx
    return playout(w, sc, tr, st, opts, geo, me, option, nopts, stream, p, informed, fns, codes, pd, pw, deal)


@njit(inline="always", **FAST)
def own_choice(q, st, opts, geo, p):
    """What the searcher's own heuristic (its side's default, at the search's weights) answers to question q:
    the option the driver keeps unless another beats it on fresh playouts."""
    n = st[R_NOPTS]
    code, b = default_policy(q >> 4)
    i = inline_choice(code, q & 15, opts, n, st, geo, p, b)
    return i if 0 <= i < n else 0


@njit(**FAST)
def search_choice(w, sc, tr, st, opts, geo, q, p, fns, codes, pd, pw, deal=1):
    """The option the side asked question q takes (see the module docstring). `st`, `opts` and `geo` are the
    batch's views of `w`; `sc` is scratch of N_SCRATCH words; fns, codes, pd and pw are the line-up's decision
    functions, how each slot is answered and the sides' weights (kernel.play_games)."""
    nopts = w[W_ST + R_NOPTS]
    if nopts <= 1:
        return 0
    me = q >> 6
    informed = p[P_INFORMED] > 0.5
    w[W_NSEARCH] += 1
    tracing = w[W_TRACING]
    w[W_TRACING] = 0
    save(w, sc, nopts)
    inc = own_choice(q, st, opts, geo, p)
    restore(w, sc, nopts)               # the heuristic may have drawn from the game's stream
    ctx = (w, sc, tr, st, opts, geo, me, nopts, p, informed, fns, codes, pd, pw, deal)
    best = search.choose(nopts, inc, max(int(p[P_BUDGET]), 1), sc[AT_DRIVER:], search_stream(w), play_option, ctx)
    restore(w, sc, nopts)
    w[W_TRACING] = tracing
    return best


@njit(**FAST)
def play_to_decision(w, tr, st, opts, geo, me, k, p):
    """From a freshly started game, play the default heuristics up to side `me`'s k-th decision with more
    than one option (0 = the first); returns the question there, -1 if the game ended first (tests and the
    benchmark)."""
    seen = 0
    while True:
        q = next_question(w, tr)
        if q < 0:
            return -1
        if (q >> 6) == me and st[R_NOPTS] > 1:
            if seen == k:
                return q
            seen += 1
        n = st[R_NOPTS]
        code, b = default_policy(q >> 4)
        i = inline_choice(code, q & 15, opts, n, st, geo, p, b)
        take_row(w, i if 0 <= i < n else 0)
