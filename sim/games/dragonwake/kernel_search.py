"""Dragonwake's search player: flat Monte Carlo over determinisations (PIMC), run inside the batch kernel.

At each of its claims and picks the searching player plays each option on to the end of the game many times
and keeps the one its side wins most. Each playout starts from a copy of the true game in which everything the
player cannot see is dealt afresh (`determinise`): the other players' roles (with the undealt role cards), the
face-down cards it does not know (with the cards set aside by Gluttony), the unused power cards of the others
(with the undealt ones) and the order of the event cards still to come. Both sides then play the default
heuristics (bayes heroes, liar cultists, at their default weights), or with `informed` = 1 the strategies and
weights this line-up plays (strategies.dragonwake.playout_models); the searcher's own role keeps the defaults.
The options are weighed by the shared driver (sim.engine.search.choose): sequential halving on common random
numbers (within a round, playout j deals the same hidden roles and cards and draws the same random numbers for
every option), and the incumbent, what the default heuristics of the player's role answer here, kept unless
another option beats it on fresh playouts by more than the noise (docs/SEARCH.md).

Beliefs from the claims: a deal of roles and cards is kept with the chance that the strategies the playouts play
would have made every claim heard this round from it (rejection sampling, which weighs deals by that likelihood):
a hero's claim under its model of honesty (the default hero hides a held dragon by claiming "only gold"), a
cultist's under its model of lying (the default claims one relic more than it holds, never the dragon), each
claimant's hand at claim time being its face-down cards and what it revealed since (`claims_fit`). The claims
are the game's only information; without them every unknown card would look alike. After MAX_TRIES deals that
the claims all reject, the one that made the fewest claims impossible is kept and counted (a fallback: a claim
no modelled strategy would make, such as another searching player's, or a table where few deals fit). `beliefs` = 0 keeps the older rule: a hero's relics must be what it claimed (heroes
taken as truthful, hiding ignored), cultists' claims unread.

Why flat Monte Carlo and not information-set MCTS: a player makes few decisions a round (one claim, a pick when
runebearer), each with at most a few dozen options, and the outcome turns on the hidden roles and cards, which
the determinisations sample; a tree over the other players' claims and picks would spend the budget on nodes
visited once. The powers' own questions (advanced game) are answered by the default heuristics.

The searching player never reads what it cannot see: everything hidden is overwritten by `determinise` before
any playout reads it. Roles and cards are dealt from public counts (the role deck less the player's own card;
the search deck less the relics found, the dragon found or out, the artifacts revealed and the cards the player
knows). The power cards and the event cards to come are dealt from their own multiset, gathered and sorted
first, so that only which cards they are counts, never where they lie (which cards they are is public: the
power deck less the powers used face up, the event deck less the events drawn).
"""

import numpy as np
from numba import njit

from sim.engine import search as driver
from sim.engine.rng import mix, shuffle, uniform
from sim.games.dragonwake.kernel_base import (
    CALL, PH_CLAIM, PH_PICK, PR_ASIDE, PR_CANDLES_OUT, PR_CLAIM, PR_DRAGON_OUT, PR_DRAWN, PR_FATES_OUT, PR_FORCED,
    PR_HUNTED, PR_PHASE, PR_SIZE, PR_WINNER, R_CANDLES, R_CULTIST_CARDS, R_DRAGONS, R_EVENTS, R_FATES, R_HERO_CARDS,
    R_N_EVENTS, R_PER_PLAYER, R_PLAYERS, R_POWER_CARDS, R_RELICS_TOTAL, R_REPLACEMENT, R_SELF_REVEAL, W_ASIDE, W_EVENTS, W_POWERS, W_ROLE, W_ROLE_DECK,
)
from sim.games.dragonwake.kernel_game import play_on
from sim.games.dragonwake.records import (
    BOARD0, B_CLAIM_DRAGON, B_CLAIM_RELICS, B_FATE, B_SHOWN_DRAGON, B_SHOWN_RELIC, CANDLE, CARDS0, CULTIST, DOWN0,
    DRAGON, ECLIPSE, FATE, GOLD, HERO, K_PEEKS, MAX_HAND, MAX_PLAYERS, MAX_POWERS, PUB_ROW, PV_NPEEK, PV_PEEK0,
    PV_POWER0, P_DRAGON_FOUND, P_EVENT, P_HAND, P_RELICS_FOUND, P_RNG, P_RUNEBEARER, RELIC, SILENT, STATE_WIDTH,
    known_card,
)
from strategies.dragonwake import (
    LYING, P_BELIEFS, P_BUDGET, P_CULTIST, P_CULTIST_CLAIMS, P_CULTIST_END, P_HERO, P_HERO_CLAIMS, QUIET, TRUTHFUL,
)

SEARCH_SEED = 0x5EA2C4DA      # mixed into the batch seed: the search stream differs from the game's
MAX_TRIES = 64                # role and card deals tried for one the claims heard this round accept
MAX_OPTS = MAX_PLAYERS * MAX_HAND + 2

# scratch (int64): the search stream, its decisions, determinisations and fallbacks (deals kept after MAX_TRIES
# without one the claims accept), then the saved prog, the options, the driver's words (sim.engine.search), a
# pile to deal from, the hidden places, the saved state; the saved work at the end (SC_WORK + the work array's size
# in all)
SC_SRNG, SC_NSEARCH, SC_DEALS, SC_FALLBACKS = 0, 1, 2, 3
SC_PROG = 4
SC_OPTS = SC_PROG + PR_SIZE
SC_DRIVER = SC_OPTS + MAX_OPTS
N_DRIVER = driver.words(MAX_OPTS)
SC_PILE = SC_DRIVER + N_DRIVER
PILE = MAX_PLAYERS * (MAX_HAND + MAX_POWERS) + 64
SC_PLACE = SC_PILE + PILE
SC_BEST = SC_PLACE + PILE             # the deal the claims fit best so far: roles, undealt role cards, card pile
BEST_ROLES = 3 * MAX_PLAYERS
SC_STATE = SC_BEST + BEST_ROLES + PILE
SC_WORK = SC_STATE + (MAX_PLAYERS + 1) * STATE_WIDTH


@njit(cache=True)
def search_seed(sc, seed, game):
    sc[SC_SRNG] = np.int64(mix(seed ^ SEARCH_SEED, game))


@njit(cache=True, inline='always')
def search_stream(sc):
    """The search stream's cell of sc, as the one-element state sim.engine.rng draws from."""
    return sc[SC_SRNG:SC_SRNG + 1]


@njit(cache=True, inline='always')
def shuffle_pile(sc, k):
    """Fisher-Yates over the pile's first k entries on the search stream."""
    shuffle(search_stream(sc), sc[SC_PILE:SC_PILE + k], k)


@njit(cache=True, inline='always')
def shuffle_sorted_pile(sc, k):
    """Sort the pile's first k entries, then shuffle them: the result depends on which cards the pile holds,
    never on the order they were gathered in (that order is the hidden arrangement)."""
    for i in range(1, k):
        c = sc[SC_PILE + i]
        j = i - 1
        while j >= 0 and sc[SC_PILE + j] > c:
            sc[SC_PILE + j + 1] = sc[SC_PILE + j]
            j -= 1
        sc[SC_PILE + j + 1] = c
    shuffle_pile(sc, k)


@njit(cache=True, inline='always')
def save(state, work, prog, sc):
    for i in range(PR_SIZE):
        sc[SC_PROG + i] = prog[i]
    k = SC_STATE
    for i in range(state.shape[0]):
        for j in range(state.shape[1]):
            sc[k] = state[i, j]
            k += 1
    k = SC_WORK
    for i in range(work.shape[0]):
        for j in range(work.shape[1]):
            sc[k] = work[i, j]
            k += 1


@njit(cache=True, inline='always')
def restore(state, work, prog, sc):
    for i in range(PR_SIZE):
        prog[i] = sc[SC_PROG + i]
    k = SC_STATE
    for i in range(state.shape[0]):
        for j in range(state.shape[1]):
            state[i, j] = sc[k]
            k += 1
    k = SC_WORK
    for i in range(work.shape[0]):
        for j in range(work.shape[1]):
            work[i, j] = sc[k]
            k += 1


@njit(cache=True, inline='always')
def known_to(me, state, p, s, eclipse):
    """The card in p's face-down slot s as player `me` knows it (its own hand, unless an Eclipse hides it; a
    card shown to all or peeked at), -1 when unknown."""
    if p == me and not eclipse:
        return state[p, CARDS0 + s]
    return known_card(state, me, p, s)


@njit(cache=True, inline='always')
def deal_cards(me, rint, state, work, prog, sc, eclipse):
    """The face-down cards `me` does not know and the cards set aside, dealt afresh from counts: the cards still
    in play (the deck less the relics found, the dragon found or out, the artifacts revealed) less those `me`
    knows. Returns how many places were dealt."""
    players = rint[R_PLAYERS]
    n_aside = prog[PR_ASIDE]
    left_relics = rint[R_RELICS_TOTAL] - state[PUB_ROW, P_RELICS_FOUND]
    left_dragons = rint[R_DRAGONS] - state[PUB_ROW, P_DRAGON_FOUND] - prog[PR_DRAGON_OUT]
    left_candles = rint[R_CANDLES] - prog[PR_CANDLES_OUT]
    left_fates = rint[R_FATES] - prog[PR_FATES_OUT]
    n_places = 0
    for p in range(players):
        for s in range(MAX_HAND):
            if state[p, DOWN0 + s] != 1:
                continue
            card = known_to(me, state, p, s, eclipse)
            if card < 0:
                sc[SC_PLACE + n_places] = p * MAX_HAND + s
                n_places += 1
            left_relics -= card == RELIC
            left_dragons -= card == DRAGON
            left_candles -= card == CANDLE
            left_fates -= card == FATE
    k = 0
    for kind, count in ((RELIC, left_relics), (DRAGON, left_dragons), (CANDLE, left_candles), (FATE, left_fates)):
        for _ in range(count):
            sc[SC_PILE + k] = kind
            k += 1
    for i in range(k, n_places + n_aside):
        sc[SC_PILE + i] = GOLD
    shuffle_pile(sc, n_places + n_aside)
    for i in range(n_places):
        c = sc[SC_PLACE + i]
        state[c // MAX_HAND, CARDS0 + c % MAX_HAND] = sc[SC_PILE + i]
    for i in range(n_aside):
        work[W_ASIDE, i] = sc[SC_PILE + n_places + i]
    return n_places


@njit(cache=True, inline='always')
def deal_roles(me, rint, state, work, sc):
    """The others' roles afresh, from the role deck less my own card: to those who took no Figure of Fate and to
    the undealt cards; one who took a Fate has the role of the player it named (public)."""
    players = rint[R_PLAYERS]
    role = work[W_ROLE]
    role_deck = work[W_ROLE_DECK]
    n_role = rint[R_HERO_CARDS] + rint[R_CULTIST_CARDS]
    heroes = rint[R_HERO_CARDS] - (role_deck[me] == HERO)
    for i in range(n_role - 1):
        sc[SC_PILE + i] = HERO if i < heroes else CULTIST
    shuffle_pile(sc, n_role - 1)
    k = 0
    for p in range(players):
        if p != me and state[p, BOARD0 + B_FATE] == 0:
            role[p] = sc[SC_PILE + k]
            k += 1
    for i in range(players, n_role):
        role_deck[i] = sc[SC_PILE + k]
        k += 1
    for p in range(players):
        if p != me and state[p, BOARD0 + B_FATE] > 0:
            role[p] = role[state[p, BOARD0 + B_FATE] - 1]


@njit(cache=True, _nrt=False)
def determinise(me, rint, state, work, prog, sc, params, leak=False):
    """Deal afresh what player `me` cannot see (module docstring): roles and cards until the claims heard this
    round accept the deal (claims_fit; after MAX_TRIES, the try that made the fewest claims impossible, counted
    as a fallback), the
    others' memories of what they peeked at, then the others' powers and the event cards to come. Returns the
    tries. `leak` (the tests' deliberately leaky variant) leaves the others' peeks as the true cards had them."""
    eclipse = state[PUB_ROW, P_EVENT] == ECLIPSE
    beliefs = params[P_BELIEFS] > 0.5
    tries = 0
    fewest = 1 << 30
    sc[SC_DEALS] += 1
    while True:
        tries += 1
        deal_roles(me, rint, state, work, sc)
        n_places = deal_cards(me, rint, state, work, prog, sc, eclipse)
        chance, misses = claims_fit(me, rint, state, work, prog, params, beliefs)
        if misses == 0 and (chance >= 1.0 or uniform(search_stream(sc)) < chance):
            break
        if misses < fewest:
            fewest = misses
            keep_deal(rint, work, prog, sc, n_places)
        if tries >= MAX_TRIES:
            sc[SC_FALLBACKS] += 1
            take_kept_deal(rint, state, work, prog, sc, n_places)
            break
    if not leak:
        others_peeks(me, rint[R_PLAYERS], state)
    deal_powers(me, rint, state, work, sc)
    if rint[R_EVENTS] and rint[R_REPLACEMENT] == 0:      # the event cards still to come, in a new order
        first = prog[PR_DRAWN]
        k = rint[R_N_EVENTS] - first
        for i in range(k):
            sc[SC_PILE + i] = work[W_EVENTS, first + i]
        shuffle_sorted_pile(sc, k)
        for i in range(k):
            work[W_EVENTS, first + i] = sc[SC_PILE + i]
    return tries


@njit(cache=True, inline='always')
def claim_chance(kind, weight, silence, relics, dragons, hand, heard):
    """The chance a player holding `relics` and `dragons` when it claimed makes the claim `heard` (SILENT, or
    2 x relics + 1 if the dragon), under a claim model of strategies.dragonwake (kind and two weights), as
    its declare function would make it."""
    if kind == QUIET:
        return 1.0 if heard == SILENT else 0.0
    if kind == TRUTHFUL:
        honest = relics * 2 + dragons
        honest = SILENT if honest > 2 * hand + 1 else honest      # the kernel turns a claim out of range silent
        if dragons > 0:
            return weight * (heard == 0) + (1.0 - weight) * (heard == honest)
        return 1.0 if heard == honest else 0.0
    if kind == LYING:
        return silence * (heard == SILENT) + (1.0 - silence) * (heard == min(hand, relics + int(weight)) * 2)
    return 1.0                      # UNKNOWN: a plug-in whose claims the search does not read


@njit(cache=True, inline='always')
def claims_fit(me, rint, state, work, prog, params, beliefs):
    """How well this deal of roles and cards fits the claims heard this round: (the chance of the claims it
    allows, how many it makes impossible). With `beliefs`, each claimant's claim model of its dealt role
    (params; the others' models as the playouts play them), its hand at claim time being its face-down cards
    and what it revealed since. Without, a hero's relic count must be what it claimed (heroes taken as
    truthful, cultists' claims unread). Under an Eclipse nobody saw their cards: a claim says nothing of them."""
    if state[PUB_ROW, P_EVENT] == ECLIPSE:
        return 1.0, 0
    players = rint[R_PLAYERS]
    hand = state[PUB_ROW, P_HAND]
    rb = state[PUB_ROW, P_RUNEBEARER]
    claimed = players if prog[PR_PHASE] == PH_PICK else prog[PR_CLAIM]
    chance = 1.0
    misses = 0
    for i in range(claimed):
        p = rb + i if rb + i < players else rb + i - players
        claim = state[p, BOARD0 + B_CLAIM_RELICS]
        hero = work[W_ROLE, p] == HERO
        if p == me or (not beliefs and (not hero or claim < 0)):
            continue
        relics = state[p, BOARD0 + B_SHOWN_RELIC]
        dragons = state[p, BOARD0 + B_SHOWN_DRAGON]
        for s in range(MAX_HAND):
            relics += state[p, DOWN0 + s] * (state[p, CARDS0 + s] == RELIC)
            dragons += state[p, DOWN0 + s] * (state[p, CARDS0 + s] == DRAGON)
        if beliefs:
            heard = SILENT if claim < 0 else 2 * claim + state[p, BOARD0 + B_CLAIM_DRAGON]
            m = P_HERO_CLAIMS if hero else P_CULTIST_CLAIMS
            c = claim_chance(params[m], params[m + 1], params[m + 2], relics, dragons, hand, heard)
        else:
            c = 1.0 if relics == claim else 0.0
        if c > 0.0:
            chance *= c
        else:
            misses += 1
    return chance, misses


@njit(cache=True, inline='always')
def keep_deal(rint, work, prog, sc, n_places):
    """Note this try's roles, undealt role cards and card pile (deal_cards leaves its pile in place)."""
    n_role = rint[R_HERO_CARDS] + rint[R_CULTIST_CARDS]
    for i in range(n_role):
        sc[SC_BEST + i] = work[W_ROLE, i] if i < rint[R_PLAYERS] else work[W_ROLE_DECK, i]
    for i in range(n_places + prog[PR_ASIDE]):
        sc[SC_BEST + BEST_ROLES + i] = sc[SC_PILE + i]


@njit(cache=True, inline='always')
def take_kept_deal(rint, state, work, prog, sc, n_places):
    """Deal again the try keep_deal noted (the places are the same in every try: they depend on what is seen)."""
    n_role = rint[R_HERO_CARDS] + rint[R_CULTIST_CARDS]
    for i in range(n_role):
        if i < rint[R_PLAYERS]:
            work[W_ROLE, i] = sc[SC_BEST + i]
        else:
            work[W_ROLE_DECK, i] = sc[SC_BEST + i]
    for i in range(n_places):
        c = sc[SC_PLACE + i]
        state[c // MAX_HAND, CARDS0 + c % MAX_HAND] = sc[SC_BEST + BEST_ROLES + i]
    for i in range(prog[PR_ASIDE]):
        work[W_ASIDE, i] = sc[SC_BEST + BEST_ROLES + n_places + i]


@njit(cache=True, inline='always')
def others_peeks(me, players, state):
    """What the others peeked at this round, read again from the dealt cards: they know this deal's cards."""
    for q in range(players):
        if q == me:
            continue
        for i in range(min(state[q, PV_NPEEK], K_PEEKS)):
            e = state[q, PV_PEEK0 + i]
            c = e // 8
            p, s = c // MAX_HAND, c % MAX_HAND
            state[q, PV_PEEK0 + i] = c * 8 + max(state[p, CARDS0 + s], 0)


@njit(cache=True, inline='always')
def deal_powers(me, rint, state, work, sc):
    """The others' unused (face-down) power cards, with the undealt ones, in new hands."""
    n_cards = rint[R_POWER_CARDS]
    if n_cards == 0:
        return
    players = rint[R_PLAYERS]
    k = 0
    for q in range(players):
        for j in range(MAX_POWERS):
            if q != me and state[q, PV_POWER0 + j] != 0:
                sc[SC_PILE + k] = state[q, PV_POWER0 + j]
                k += 1
    for i in range(min(n_cards, players * rint[R_PER_PLAYER]), n_cards):
        sc[SC_PILE + k] = work[W_POWERS, i]
        k += 1
    shuffle_sorted_pile(sc, k)
    k = 0
    for q in range(players):
        for j in range(MAX_POWERS):
            if q != me and state[q, PV_POWER0 + j] != 0:
                state[q, PV_POWER0 + j] = sc[SC_PILE + k]
                k += 1
    for i in range(min(n_cards, players * rint[R_PER_PLAYER]), n_cards):
        work[W_POWERS, i] = sc[SC_PILE + k]
        k += 1


@njit(cache=True, inline='always')
def options(me, rint, state, prog, sc):
    """Lay out the answers to the pending decision in sc[SC_OPTS:]; returns how many. A claim: silent, or any
    count of relics with or without the dragon that fits the hand. A pick: one unknown card of each player (to
    me they are alike), and every card I know, each on its own."""
    players = rint[R_PLAYERS]
    n = 0
    if prog[PR_PHASE] == PH_CLAIM:
        hand = state[PUB_ROW, P_HAND]
        sc[SC_OPTS] = SILENT
        n = 1
        for claim in range(2 * hand + 2):
            if (claim >> 1) + (claim & 1) <= hand:
                sc[SC_OPTS + n] = claim
                n += 1
        return n
    own_ok = rint[R_SELF_REVEAL] != 0 and prog[PR_HUNTED] == 0
    eclipse = state[PUB_ROW, P_EVENT] == ECLIPSE
    for p in range(players):
        if p == me and not own_ok:
            continue
        unknown_seen = False
        for s in range(MAX_HAND):
            if state[p, DOWN0 + s] != 1:
                continue
            known = (p == me and not eclipse) or known_card(state, me, p, s) >= 0
            if known or not unknown_seen:
                sc[SC_OPTS + n] = p * MAX_HAND + s
                n += 1
                unknown_seen |= not known
    return n


@njit(cache=True, _nrt=False)
def playout(me, option, stream, rint, hand_sizes, state, memory, work, prog, params, trace, sc, o_play, dfns, deal):
    """Restore the saved game, deal what `me` cannot see from `stream` (unless `deal` is 0: a cheat that sees
    it, for the tests; 2: the leaky determinisation), answer the pending decision with `option` and play on with
    the playout strategies (dfns). Returns 1 when me's side wins, else 0."""
    restore(state, work, prog, sc)
    sc[SC_SRNG] = stream
    if deal:
        determinise(me, rint, state, work, prog, sc, params, deal == 2)
    state[PUB_ROW, P_RNG] = driver.next_stream(search_stream(sc))     # the playout's own future draws
    prog[PR_FORCED] = option
    hero_declare, hero_pick, hero_power, cultist_declare, cultist_pick, cultist_power = dfns
    play_on(trace.shape[0], rint, hand_sizes, CALL, CALL, hero_declare, hero_pick, cultist_declare, cultist_pick,
            hero_power, cultist_power, params[P_HERO:P_CULTIST], params[P_CULTIST:P_CULTIST_END], o_play, trace,
            False, state, memory, work, prog)
    return 1 if prog[PR_WINNER] == work[W_ROLE, me] else 0


@njit(cache=True, inline='always')
def incumbent(me, state, memory, work, prog, params, sc, n, dfns):
    """The index among the options of what the default heuristics of me's role answer here (-1 if none matches):
    the driver keeps it unless another option beats it on fresh playouts by more than the noise. An unknown card
    stands for every unknown card of its player. Overwrites the game's stream cell (the caller restores it)."""
    hero_declare, hero_pick, _, cultist_declare, cultist_pick, _ = dfns
    claim = prog[PR_PHASE] == PH_CLAIM
    state[PUB_ROW, P_RNG] = driver.next_stream(search_stream(sc))      # its tie-breaks from the search's stream
    if work[W_ROLE, me] == HERO:
        p = params[P_HERO:P_CULTIST]
        answer = hero_declare(me, HERO, state, p, memory[me]) if claim else hero_pick(me, HERO, state, p, memory[me])
    else:
        p = params[P_CULTIST:P_CULTIST_END]
        answer = (cultist_declare(me, CULTIST, state, p, memory[me]) if claim
                  else cultist_pick(me, CULTIST, state, p, memory[me]))
    eclipse = state[PUB_ROW, P_EVENT] == ECLIPSE
    for i in range(n):
        o = sc[SC_OPTS + i]
        if o == answer:
            return i
        if (not claim and answer >= 0 and o // MAX_HAND == answer // MAX_HAND
                and known_to(me, state, o // MAX_HAND, o % MAX_HAND, eclipse) < 0
                and known_to(me, state, answer // MAX_HAND, answer % MAX_HAND, eclipse) < 0):
            return i
    return -1


@njit(cache=True, _nrt=False)
def play_option(ctx, i, stream):
    """The driver's playout (sim.engine.search.choose): option i played out on stream `stream`."""
    me, rint, hand_sizes, state, memory, work, prog, params, trace, sc, o_play, dfns, deal = ctx
    return playout(me, sc[SC_OPTS + i], stream, rint, hand_sizes, state, memory, work, prog, params, trace, sc,
                   o_play, dfns, deal)


@njit(cache=True, _nrt=False)
def search(me, rint, hand_sizes, state, memory, work, prog, params, trace, sc, o_play, dfns, deal=1):
    """The option player `me` takes at the decision prog stands at (module docstring). dfns: the default
    heuristics' functions (hero declare, pick, power, cultist declare, pick, power) that play the playouts."""
    n = options(me, rint, state, prog, sc)
    if n <= 1:
        return sc[SC_OPTS] if n == 1 else -1
    sc[SC_NSEARCH] += 1
    save(state, work, prog, sc)
    inc = incumbent(me, state, memory, work, prog, params, sc, n, dfns)
    restore(state, work, prog, sc)          # the heuristics' tie-breaks drew from the game's stream cell
    ctx = (me, rint, hand_sizes, state, memory, work, prog, params, trace, sc, o_play, dfns, deal)
    best = driver.choose(n, inc, max(int(params[P_BUDGET]), 1), sc[SC_DRIVER:SC_DRIVER + N_DRIVER],
                         search_stream(sc), play_option, ctx)
    restore(state, work, prog, sc)
    return sc[SC_OPTS + best]
