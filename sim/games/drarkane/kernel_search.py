"""Drarkane kernel, part 6: the search player, flat Monte Carlo over determinisations (PIMC).

At each of its decisions with more than one option (a contract, a card, a placement, a card given to the
partner, an objective), the searching seat plays each option on to the end of the game many times and keeps
the one that wins most. A playout starts from a copy of the true state in which everything the seat cannot see
is dealt afresh (`determinise`), then every seat plays the default heuristics (the seeker at its default
weights; with `informed`, below, the line-up's strategies) to the end of the game, and scores the searching seat's share of the win (1/k when k players tie at
the top; solo: reaching Scale Slayer), with the final score margin as a small tie-break. Options are compared on
common random numbers by the shared driver (sim.engine.search.choose): within a round of its sequential halving,
playout j deals the same hidden cards and the same later rounds for every option. Drarkane names no incumbent, so
the driver's guard is off and the halving's winner is played: measured in seat 0 at budget 200 against three
seekers (600 games, seed 21), the guard keeping the seeker's answer unless beaten by one sign-test deviation on
fresh playouts won 56.3% where the winner alone wins 71.1% (+14.8 points [+9.8, +19.9], paired); with the guard
taking the winner whenever it does better on the fresh playouts at all, 66.1%. A trick's card is worth little on
its own, so 25 fresh pairs rarely confirm a better card, and the many small gains the halving finds are lost.

Why PIMC: it is the standard method of trick-taking programs (Skat, Bridge). A Drarkane decision's worth shows
within the round (tricks against the contract, the dragons it lets fall) and through the totals at the end;
the hidden information is the other hands, which the determinisation fills consistently with what was seen.
Strategy fusion (a playout acting as if it knew the hidden cards) does not arise: the playout heuristics never
look at another seat's hand. See docs/SEARCH.md.

What the seat sees and what is dealt afresh:
- the round's cards it has not seen (not in its hand, not played: the trick, the dragons, the discards are
  public) are shuffled and dealt to the other players (as many as each holds), the Fallen King's face-down deck
  and the cards left undealt; a player that did not follow a led colour has none of it (GS_VOID, noted as the
  cards are played), and is dealt none;
- the dragon deck's order (the dragons not yet revealed are known, not their order);
- with Treasures, the other players' objectives (not a partner's, shown; not one already completed) and the
  objective deck, from the objectives not known to the seat;
- solo: the order of the draw pile and the Demon's deck (the discard pile is public);
- the game's random stream, which deals the later rounds: each playout draws its own.
Everything is dealt from counts and sets the seat can see, listed in a fixed order before the shuffle, so the
result does not depend on where the hidden cards really are. The cards the seat gave its partner this round (the
teams' exchanges, kernel_base.GS_GAVE) and has not seen played or given back stay in the partner's hand: that is
what it saw, not a belief.

The seat's parameters (strategies.drarkane.SEARCH): the budget; `informed` 1: the playouts play every other seat
with the strategy and weights it really plays in this line-up (a searching seat, and the searcher's own later
moves, as the seeker at its default weights: kernel.informed_lineup), 0 (the default) every seat as the seeker;
`beliefs` 1: whole deals are drawn until each other player that has bid this round would have bid its contract
with the hand it is dealt (as that hand was at bidding time: with the cards it played since, a partner's less and
plus the cards swapped with the seat since) under the playouts' model of it (the seeker's estimate with the
model's weights; a seat whose model bids at random or by a function not inlined is not read, nor one whose hand
another team's swap changed). That is rejection sampling, exact for a deterministic bid; after BELIEF_TRIES deals
the last one stands (it keeps the voids and the passed cards) and is counted in ss[SS_FALLBACKS], which a run
reports (DrarkaneGame.search_counts: "belief_fallbacks" of "belief_deals").

The search has a random stream of its own (`ss`), seeded per game: a search seat leaves the game's deals and the
other strategies' draws as they would be without it; the game's stream deals the later rounds, which the seat cannot
see.
"""

import numpy as np
from numba import njit, types

from sim.engine import search
from sim.engine.rng import shuffle
from sim.engine.strategy import njit_later

from sim.games.drarkane.records import (
    CF_CONTRACT_MAX, CF_DECK_N, CF_MODE, CF_N_DRAGONS, CF_N_OBJECTIVES, CF_PLAYERS, CF_RANK_1, CF_ROUNDS, CF_SEATS, CF_SOLO_SPLIT,
    CF_TREASURES, MAX_CARDS, MAX_HAND, MAX_OBJECTIVES, MAX_PAIRS, MAX_SEATS, MODE_FALLEN_KING, MODE_SOLO, SEAT_FNS,
    S_RNG,
)
from sim.games.drarkane.kernel_base import (
    BID_ESTIMATE, D_BID, D_DRAFT, D_GIVE, D_PLACE, D_PLAY, GS_ANSWER, GS_AUTO_PTR, GS_BY, GS_DDEALT, GS_DPILE,
    GS_DPILE_N, GS_DPTR, GS_FIRST, GS_GAVE, GS_N_BIDS, GS_PILE, GS_PILE_N, GS_QN, GS_QROWS, GS_ROUND, GS_TG, GS_TN,
    GS_VOID, GS_XIN, GS_XN, GS_XOUT, GS_ZOBJ_N, HX_BITS, PS_BID, PS_OBJ, PS_OBJ_COND, PS_OBJ_DONE, PS_OBJ_PARAM,
    PS_TOTAL, T_CARD, card_bit, deal_card, new_game, partner_of,
)
from strategies.drarkane import estimate_contract
from sim.games.drarkane.kernel_round import next_first, round_on

SEARCH_SEED = 0x5EA2C5      # mixed into the batch seed: the search stream differs from the game's
# the search state `ss`: its stream, decisions searched in the batch, determinisations dealt with beliefs and those
# of them that fell back to the hard constraints (no deal within BELIEF_TRIES gave every contract)
SS_RNG, SS_DECISIONS, SS_BELIEF_DEALS, SS_FALLBACKS = 0, 1, 2, 3
SS_SIZE = 4
TRIES = 20          # determinisations tried with the voids before one that ignores them
BELIEF_TRIES = 64   # beliefs: whole deals tried for one whose modelled contracts are the real ones
TIE = 60            # a point of the final score margin (a tie-break); every count of tied winners divides it
WIN = 1000 * TIE    # a win's reward (the driver's rewards are integers: a win shared by k is WIN // k)
assert all(TIE % k == 0 for k in range(1, MAX_SEATS + 1))

# scratch (int64): the root's arrays (`keep`), the driver's words (sim.engine.search), a pile to shuffle, the cards
# each hidden holder is dealt (scratch_size)
MAX_OPTS = MAX_PAIRS
DRIVER_WORDS = search.words(MAX_OPTS)
MAX_PILE = MAX_CARDS + MAX_OBJECTIVES
BUDGET, INFORMED, BELIEFS = 0, 1, 2     # the search seat's parameters (strategies.drarkane.SEARCH)
# `deal` (search_choice): 1 the search, 3 the search with beliefs; the tests' 0 a cheat (the true deal), 2 a leak
DEAL_CHEAT, DEAL, DEAL_LEAK, DEAL_BELIEFS = 0, 1, 2, 3


@njit(cache=True, inline='always', _nrt=False)
def search_stream(ss):
    """The search stream's cell of ss, as the one-element state sim.engine.rng draws from."""
    return ss[SS_RNG:SS_RNG + 1]


# ---- the root's copy ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def put1(a, sc, at, back):
    for i in range(a.shape[0]):
        if back:
            a[i] = sc[at + i]
        else:
            sc[at + i] = a[i]
    return at + a.shape[0]


@njit(cache=True, _nrt=False)
def put2(a, sc, at, back):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if back:
                a[i, j] = sc[at]
            else:
                sc[at] = a[i, j]
            at += 1
    return at


@njit(cache=True, _nrt=False)
def keep(work, sc, back):
    """Copy the game's state into the scratch (or `back` from it); returns the words used. The option rows of a
    play or placement are rebuilt when the machine goes on; an objective draft's stay in objopt, kept here."""
    (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
     played) = work
    at = put2(hand, sc, 0, back)
    at = put1(hand_n, sc, at, back)
    at = put1(hx, sc, at, back)
    at = put2(zone, sc, at, back)
    at = put1(gs, sc, at, back)
    at = put2(ps, sc, at, back)
    at = put2(tr, sc, at, back)
    at = put2(objopt, sc, at, back)
    at = put1(state, sc, at, back)
    at = put1(deck, sc, at, back)
    at = put1(ddeck, sc, at, back)
    at = put1(odeck, sc, at, back)
    at = put2(zobj, sc, at, back)
    at = put1(card_loc, sc, at, back)
    at = put1(discard, sc, at, back)
    return put1(played, sc, at, back)


# ---- dealing what the seat cannot see ------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def shuffled(ss, sc, at, k):
    """Shuffle sc[at:at + k] on the search stream."""
    shuffle(search_stream(ss), sc[at:at + k], k)


@njit(cache=True, _nrt=False)
def unknown_ids(known, n, sc, at, ss):
    """Lay out in sc[at:] the ids below n that are not in the bit mask `known`, in order, then shuffle them on the
    search stream; returns how many."""
    k = 0
    for x in range(n):
        if (known >> x) & 1 == 0:
            sc[at + k] = x
            k += 1
    shuffled(ss, sc, at, k)
    return k


@njit(cache=True, _nrt=False)
def hidden_cards(me, cf, tables, work, sc, at, known):
    """Lay out in sc[at:] the round's cards seat `me` has not seen, in the fixed order of the game's deck: not in
    its hand, not in the trick, not on a dragon or discarded, nor in the bit mask `known` (cards whose holder it
    knows). Returns how many."""
    deck_cards = tables[8]
    hand, hand_n, gs, tr, card_loc = work[0], work[1], work[4], work[6], work[15]
    seen = known
    for i in range(hand_n[me]):
        seen |= card_bit(hand[me, i])
    for i in range(gs[GS_TN]):
        seen |= card_bit(tr[i, T_CARD])
    k = 0
    for i in range(cf[CF_DECK_N]):
        c = deck_cards[i]
        if card_loc[c] == -1 and (seen >> c) & 1 == 0:
            sc[at + k] = c
            k += 1
    return k


@njit(cache=True, _nrt=False)
def given_cards(me, cf, tables, work):
    """The cards `me` gave its partner this round that it has not seen since (not back in its hand, not in the trick,
    not played): the partner holds them (teams; 0 otherwise). What `me` did, not a belief."""
    deck_cards = tables[8]
    hand, hand_n, gs, tr, card_loc = work[0], work[1], work[4], work[6], work[15]
    gave = gs[GS_GAVE + me] if partner_of(cf, me) >= 0 else np.int64(0)
    if gave == 0:
        return gave
    for i in range(hand_n[me]):
        gave &= ~card_bit(hand[me, i])
    for i in range(gs[GS_TN]):
        gave &= ~card_bit(tr[i, T_CARD])
    for i in range(cf[CF_DECK_N]):
        c = deck_cards[i]
        if card_loc[c] != -1:
            gave &= ~card_bit(c)
    return gave


@njit(cache=True, _nrt=False)
def bid_fits(me, cf, work, sc, dealt, model):
    """Whether each other player that has bid this round would have bid its contract with the hand it is dealt (in
    sc[dealt:]), as that hand was at bidding time (with the cards it played since; a partner's also less the cards
    `me` gave it and plus those it gave `me` after the contracts), under its modelled bid: bid_estimate with the
    model's weights (the model's worths and parameters). A seat that does not bid so is not read (bid_random: every
    contract as likely; another function: not modelled), nor one whose hand an exchange `me` did not see changed
    after the contracts (another team's swap)."""
    mcodes, mparams, worths = model
    hand_n, gs, ps = work[1], work[4], work[5]
    seats = cf[CF_SEATS]
    players = cf[CF_PLAYERS]
    partner = partner_of(cf, me)
    bids = gs[GS_N_BIDS]
    k = 0
    for j in range(seats):
        s = (gs[GS_FIRST] + j) % seats
        if s >= players:
            continue
        if k >= bids:
            break
        before = k
        k += 1
        if s == me or mcodes[D_BID, s] != BID_ESTIMATE:
            continue
        held = gs[GS_BY + s]
        if s == partner:
            held = (held | gs[GS_XOUT + s]) & ~gs[GS_XIN + s]
        elif gs[GS_XN + s] != 0:
            continue
        for i in range(hand_n[s]):
            held |= card_bit(sc[dealt + s * MAX_HAND + i])
        total = 0.0
        for c in range(MAX_CARDS):
            if (held >> c) & 1:
                total += worths[s, c]
        if estimate_contract(total, worths[s, -1], cf[CF_CONTRACT_MAX], mparams[s], before, seats) != ps[s, PS_BID]:
            return False
    return True


@njit(cache=True, _nrt=False)
def deal_once(me, cf, tables, work, sc, ss, pile, dealt, k, partner, kn):
    """One deal of the k cards in sc[pile:] to the other hands (sc[dealt + s * MAX_HAND:]), the partner's first kn
    cards (those `me` gave it) already there; a seat that showed a colour void is dealt none of it (the seats with
    voids are dealt first; after TRIES failed shuffles the voids are ignored, which never happens with real void
    sets but keeps the deal total)."""
    colour = tables[1]
    hand_n, gs = work[1], work[4]
    seats = cf[CF_SEATS]
    auto = 2 if cf[CF_MODE] == MODE_FALLEN_KING else -1
    for attempt in range(TRIES + 1):
        shuffled(ss, sc, pile, k)
        taken = np.int64(0)
        ok = True
        for voids in range(2):      # the seats with voids, then the others
            for s in range(seats):
                vm = gs[GS_VOID + s] if s != auto and attempt < TRIES else 0
                if s == me or (vm != 0) != (voids == 0):
                    continue
                got = kn if s == partner else 0
                i = 0
                while got < hand_n[s] and i < k:
                    c = sc[pile + i]
                    i += 1
                    if (taken >> c) & 1 or (colour[c] >= 0 and (vm >> colour[c]) & 1):
                        continue
                    taken |= card_bit(c)
                    sc[dealt + s * MAX_HAND + got] = c
                    got += 1
                ok = ok and got == hand_n[s]
        if ok:
            return


@njit(cache=True, _nrt=False)
def deal_hidden(me, cf, tables, work, sc, ss, pile, dealt, leak, beliefs, model):
    """The other players' hands and the Fallen King's deck, from the cards `me` has not seen, shuffled (deal_once);
    the cards `me` gave its partner stay in the partner's hand. With `beliefs`, whole deals are tried until one gives
    every contract bid so far under the model (bid_fits: rejection sampling, exact for a deterministic bid); after
    BELIEF_TRIES the last deal stands, which keeps only the voids, and is counted (ss[SS_FALLBACKS]). `leak` (the
    tests' leaky determinisation) leaves each hand's card mask holding its true cards too: the playouts' seeker then
    follows suit with cards the seat does not hold."""
    hand, hand_n, hx, gs = work[0], work[1], work[2], work[4]
    seats = cf[CF_SEATS]
    auto = 2 if cf[CF_MODE] == MODE_FALLEN_KING else -1
    partner = partner_of(cf, me)
    known = given_cards(me, cf, tables, work)
    kn = 0
    if known != 0:
        for c in range(MAX_CARDS):
            if (known >> c) & 1 and kn < hand_n[partner]:
                sc[dealt + partner * MAX_HAND + kn] = c
                kn += 1
    k = hidden_cards(me, cf, tables, work, sc, pile, known)
    if beliefs:
        ss[SS_BELIEF_DEALS] += 1
        fits = False
        for _ in range(BELIEF_TRIES):
            deal_once(me, cf, tables, work, sc, ss, pile, dealt, k, partner, kn)
            if bid_fits(me, cf, work, sc, dealt, model):
                fits = True
                break
        ss[SS_FALLBACKS] += not fits
    else:
        deal_once(me, cf, tables, work, sc, ss, pile, dealt, k, partner, kn)
    for s in range(seats):
        if s == me:
            continue
        if s == auto:       # its face-down deck, played from the top
            for i in range(hand_n[s]):
                hand[s, gs[GS_AUTO_PTR] + i] = sc[dealt + s * MAX_HAND + i]
            continue
        held = hand_n[s]
        hand_n[s] = 0
        if not leak:
            hx[HX_BITS + s] = 0
        for i in range(held):
            deal_card(hand, hand_n, hx, s, sc[dealt + s * MAX_HAND + i])


@njit(cache=True, _nrt=False)
def deal_dragons(cf, work, sc, ss, pile):
    """The dragons not yet revealed, in a new order."""
    ddeck, gs = work[12], work[4]
    out = np.int64(0)
    for i in range(gs[GS_DPTR]):
        out |= np.int64(1) << ddeck[i]
    k = unknown_ids(out, cf[CF_N_DRAGONS], sc, pile, ss)
    for i in range(k):
        ddeck[gs[GS_DPTR] + i] = sc[pile + i]


@njit(cache=True, _nrt=False)
def deal_objectives(me, drafting, cf, tables, work, sc, ss, pile):
    """The objectives `me` does not know (the other players', not its partner's nor one completed; the objective
    deck's rest), from those it cannot see: not its own or its partner's, not in the Treasure zone, not completed,
    not among its options when it is `drafting`."""
    ob = tables[10]
    gs, ps, objopt, odeck, zobj = work[4], work[5], work[9], work[13], work[14]
    partner = partner_of(cf, me)
    known = np.int64(0)
    for s in range(cf[CF_PLAYERS]):
        o = ps[s, PS_OBJ]
        if o >= 0 and (s == me or s == partner or ps[s, PS_OBJ_DONE] != 0):
            known |= np.int64(1) << o
    if drafting:
        for i in range(gs[GS_QROWS]):
            known |= np.int64(1) << objopt[i, 0]
    else:
        for j in range(gs[GS_ZOBJ_N]):
            known |= np.int64(1) << zobj[j, 0]
    k = unknown_ids(known, cf[CF_N_OBJECTIVES], sc, pile, ss)
    i = 0
    for s in range(cf[CF_PLAYERS]):
        if s != me and s != partner and ps[s, PS_OBJ] >= 0 and ps[s, PS_OBJ_DONE] == 0 and i < k:
            o = sc[pile + i]
            i += 1
            ps[s, PS_OBJ] = o
            ps[s, PS_OBJ_COND] = ob[o, 1]
            ps[s, PS_OBJ_PARAM] = ob[o, 2]
    for j in range(gs[GS_DDEALT], cf[CF_N_OBJECTIVES]):
        if i < k:
            odeck[j] = sc[pile + i]
            i += 1


@njit(cache=True, _nrt=False)
def deal_solo(cf, tables, work, sc, ss, pile):
    """Solo: the draw pile and the Demon's deck in a new order (the cards not in the hand, the trick, on a dragon
    or discarded)."""
    deck, played, gs = work[11], work[17], work[4]
    k = hidden_cards(0, cf, tables, work, sc, pile, np.int64(0))
    shuffled(ss, sc, pile, k)
    i = 0
    for j in range(gs[GS_PILE], gs[GS_PILE_N]):
        if i < k:
            deck[j] = sc[pile + i]
            i += 1
    if cf[CF_SOLO_SPLIT] != 0:
        for j in range(gs[GS_DPILE], gs[GS_DPILE_N]):
            if i < k:
                played[j] = sc[pile + i]
                i += 1


@njit(cache=True, _nrt=False)
def determinise(me, drafting, cf, tables, work, sc, ss, pile, dealt, leak, beliefs, model):
    """Deal afresh everything seat `me` cannot see (the module's docstring), on the search stream, and give the
    game's stream (which deals the later rounds) a new state. `leak`: the tests' leaky version; `beliefs` and
    `model` (the modelled seats' bid codes, parameters and worths): deals that give the contracts (deal_hidden)."""
    if cf[CF_MODE] == MODE_SOLO:
        deal_solo(cf, tables, work, sc, ss, pile)
    else:
        deal_hidden(me, cf, tables, work, sc, ss, pile, dealt, leak, beliefs, model)
        if cf[CF_TREASURES] != 0:
            deal_objectives(me, drafting, cf, tables, work, sc, ss, pile)
    deal_dragons(cf, work, sc, ss, pile)
    state = work[10]
    state[S_RNG] = search.next_stream(search_stream(ss))


# ---- playouts ---------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def heuristic(q, work, fns, params):
    """The heuristics' answer to question q: the seat's function in `fns` with its parameters (out of range: 0)."""
    gs, moves, pairs, objopt, state = work[4], work[7], work[8], work[9], work[10]
    d = q // MAX_SEATS
    s = q - d * MAX_SEATS
    n = gs[GS_QN]
    rows = gs[GS_QROWS]
    if d == D_BID:
        i = fns[0][s](moves, rows, state, params[s])
    elif d == D_PLAY:
        i = fns[1][s](moves, rows, state, params[s])
    elif d == D_PLACE:
        i = fns[2][s](pairs, rows, state, params[s])
    elif d == D_GIVE:
        i = fns[3][s](moves, rows, state, params[s])
        if i < 0 and n > rows:
            i = rows        # the option to give none
    else:
        i = fns[4][s](objopt, rows, state, params[s])
    return i if 0 <= i < n else 0


@njit(cache=True, _nrt=False)
def play_out(cf, tables, work, fns, params, codes, trace, me, k):
    """Play the game on to its end from where the machine stopped (an answer pending in gs, or a round's start).
    The playouts' codes run every seat inline; a question (a seat coded SEARCH) is answered by its function, or,
    the k-th (from 0) question of seat `me` with more than one option, stopped at: returns 1 there, else 0 (the
    tests; a playout passes me = -1). Every caller passes every argument: one compiled version serves them all."""
    gs = work[4]
    seen = 0
    while True:
        q = round_on(cf, tables, work, fns, params, codes, trace)
        if q >= 0:
            if q % MAX_SEATS == me and gs[GS_QN] > 1:
                if seen == k:
                    return 1
                seen += 1
            gs[GS_ANSWER] = heuristic(q, work, fns, params) + 1
        elif cf[CF_MODE] == MODE_SOLO or gs[GS_ROUND] >= cf[CF_ROUNDS] - 1:
            return 0
        else:
            gs[GS_FIRST] = next_first(cf, gs, gs[GS_ROUND])
            gs[GS_ROUND] += 1


@njit(cache=True, _nrt=False)
def reward(me, cf, ps):
    """Seat `me`'s share of the win at the game's end (WIN // k when k players tie at the top; solo: WIN for Scale
    Slayer or better), plus TIE times its score less the best other score (solo: less the Scale Slayer threshold)."""
    if cf[CF_MODE] == MODE_SOLO:
        margin = ps[0, PS_TOTAL] - cf[CF_RANK_1 + 1]
        return (WIN if margin >= 0 else 0) + TIE * margin
    mine = ps[me, PS_TOTAL]
    other = -(1 << 30)
    ties = 1
    for s in range(cf[CF_PLAYERS]):
        if s != me:
            other = max(other, ps[s, PS_TOTAL])
            ties += ps[s, PS_TOTAL] == mine
    share = WIN // ties if mine >= other else 0
    return share + TIE * (mine - other)


@njit(cache=True, _nrt=False)
def play_option(ctx, o, stream):
    """The driver's playout (sim.engine.search.choose): the root restored, what the seat cannot see dealt from
    `stream` (deal 1; the tests' 0 keeps the true deal, a cheat, and 2 deals leakily), option o answered, the game
    played to its end by the playouts' heuristics; returns the seat's reward. Deal 3: with beliefs, the playouts'
    seats (their bid codes, parameters and worths) the model of how the others bid."""
    me, drafting, pcf, ptables, work, pfns, pparams, pcodes, trace, sc, ss, pile, dealt, deal = ctx
    keep(work, sc, True)
    ss[SS_RNG] = stream
    if deal != DEAL_CHEAT:
        determinise(me, drafting, pcf, ptables, work, sc, ss, pile, dealt, deal == DEAL_LEAK, deal == DEAL_BELIEFS,
                    (pcodes, pparams, ptables[6]))
    else:
        work[10][S_RNG] = search.next_stream(search_stream(ss))
    work[4][GS_ANSWER] = o + 1
    play_out(pcf, ptables, work, pfns, pparams, pcodes, trace, -1, 0)
    return reward(me, pcf, work[5])


@njit(cache=True, _nrt=False)
def search_choice(q, budget, work, trace, play, sc, ss, deal):
    """The option the asking seat takes at question q (see the module's docstring): `play` holds the playouts'
    configuration, tables, functions, parameters and codes; sc is scratch (scratch_size words), ss the search
    state. The game's state is as it was when the search returns. `deal` 1 is the search, 3 the search with beliefs
    (deal_hidden); the tests' 0 plays out from the true hidden cards (a cheat), 2 from a leaky determinisation."""
    pcf, ptables, pfns, pparams, pcodes = play
    gs = work[4]
    me = q % MAX_SEATS
    nopts = gs[GS_QN]
    if nopts <= 1:
        return 0
    ss[SS_DECISIONS] += 1
    traced = gs[GS_TG]
    gs[GS_TG] = -1
    at = keep(work, sc, False)       # then the driver's words, a pile, the cards dealt to each holder
    pile = at + DRIVER_WORDS
    dealt = pile + MAX_PILE
    ctx = (me, q // MAX_SEATS == D_DRAFT, pcf, ptables, work, pfns, pparams, pcodes, trace, sc, ss, pile, dealt, deal)
    # no incumbent (-1): the guard costs this game's search 15 points (the module's docstring)
    best = search.choose(nopts, -1, budget, sc[at:pile], search_stream(ss), play_option, ctx)
    keep(work, sc, True)
    gs[GS_TG] = traced
    return best


# ---- the types run_batch passes (compiled once, shared by searched_round and the tests' entries) ------------------
I1, I2, F2 = types.int64[::1], types.int64[:, ::1], types.float64[:, ::1]
TABLES = types.Tuple((I1, I1, I1, I1, I2, I2, F2, types.int32[::1], I1, I2, I2))
WORK = types.Tuple((I2, I1, I1, I2, I1, I2, I2, I2, I2, I2, I1, I1, I1, I1, I2, I1, I1, I1))
FNS = types.UniTuple(SEAT_FNS, 5)
PLAY = types.Tuple((I1, TABLES, FNS, F2, I2))
TRACE = types.int16[:, :, ::1]
# a round with a searching seat, as run_batch calls it (through a first-class function: the plain batch passes
# kernel.no_search_round, and run_batch compiles once for both)
ROUND_SIG = types.void(I1, TABLES, WORK, FNS, F2, I2, TRACE, types.UniTuple(PLAY, 2), I1, I1)


@njit_later(ROUND_SIG, cache=True, _nrt=False)
def searched_round(cf, tables, work, fns, params, codes, trace, plays, sc, ss):
    """A round (solo: the game) of a game with a searching seat: every question the machine asks is searched, with
    the playouts of plays[0] (every seat the seeker at its default weights) or, for a seat whose `informed` is 1,
    of plays[1] (the line-up's strategies; a searching seat's, the seeker's); `beliefs` 1: deals that give the
    others' contracts under the same model."""
    gs = work[4]
    while True:
        q = round_on(cf, tables, work, fns, params, codes, trace)
        if q < 0:
            return
        s = q % MAX_SEATS
        budget = np.int64(params[s, BUDGET])
        deal = DEAL_BELIEFS if params.shape[1] > BELIEFS and params[s, BELIEFS] > 0.5 else DEAL
        if params.shape[1] > INFORMED and params[s, INFORMED] > 0.5:
            gs[GS_ANSWER] = search_choice(q, budget, work, trace, plays[1], sc, ss, deal) + 1
        else:
            gs[GS_ANSWER] = search_choice(q, budget, work, trace, plays[0], sc, ss, deal) + 1


# ---- entries for the tests and the benchmark -----------------------------------------------------------------------
@njit_later(types.int64(types.int64, types.int64, types.int64, types.int64, I1, TABLES, WORK, FNS, F2, I2, TRACE), cache=True)
def to_question(seed, g, me, k, cf, tables, work, fns, params, codes, trace):
    """Game g of a batch from `seed`, played up to seat me's k-th question with more than one option: 1 there, 0 if
    the game ended first. Seats coded SEARCH are asked; the others' questions answered by their functions."""
    new_game(seed, g, False, work[10], work[4], work[5])
    return play_out(cf, tables, work, fns, params, codes, trace, me, k)


@njit_later(types.int64(types.int64, types.int64, WORK, TRACE, PLAY, I1, I1, types.int64), cache=True)
def decide(q, budget, work, trace, play, sc, ss, deal):
    """search_choice, callable with arrays made in Python."""
    return search_choice(q, budget, work, trace, play, sc, ss, deal)


@njit_later(types.void(types.int64, types.boolean, WORK, I1, I1, PLAY, types.int64), cache=True)
def redeal(me, drafting, work, sc, ss, play, deal):
    """determinise, callable with arrays made in Python (sc: scratch_size words; `play` as search_choice's, its
    seats the model of beliefs; `deal` as search_choice's: 1, 2 leaky, 3 with beliefs)."""
    pcf, ptables, pfns, pparams, pcodes = play
    pile = sc.shape[0] - MAX_PILE - MAX_SEATS * MAX_HAND
    determinise(me, drafting, pcf, ptables, work, sc, ss, pile, pile + MAX_PILE, deal == DEAL_LEAK,
                deal == DEAL_BELIEFS, (pcodes, pparams, ptables[6]))


@njit_later(types.void(types.int64, I1, TABLES, WORK, FNS, F2, I2, TRACE, I2), cache=True)
def machine_games(seed, cf, tables, work, fns, params, codes, trace, totals):
    """Games 0, 1, ... of a batch from `seed` through the round machine (questions answered by the seats'
    functions), each game's final totals in totals[g] (the tests: the machine plays the plain kernel's games)."""
    ps = work[5]
    for g in range(totals.shape[0]):
        new_game(seed, g, False, work[10], work[4], ps)
        play_out(cf, tables, work, fns, params, codes, trace, -1, 0)
        for s in range(MAX_SEATS):
            totals[g, s] = ps[s, PS_TOTAL]
