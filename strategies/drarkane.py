"""Built-in Drarkane strategies.

A strategy is five numba functions, one per decision point (bid, play, place, exchange, draft), all
compiled with `CHOOSE_SIG` from `sim.games.drarkane.records`: `choose(options, n, state, params) -> int`.
They see their own hand, the trick so far (through the M_WINS column the kernel fills) and public facts.

Heuristic parameters (one array shared by the heuristic bundles, so a sweep can vary any of them):
  w_obscure, w_trump_high, w_trump_low, w_suit_high, w_suit_mid, w_wizard
        expected tricks each card class is worth in a full-length round (bid estimator)
  round_share   scales the estimate (rounds cut short by the zone, tricks lost to stronger hands)
  seat_exponent the estimate is multiplied by (4 / seats) ** seat_exponent: more rivals, fewer tricks each
  bias          added to the estimate before rounding
  terror_weight greedy placement: how much a dragon's Terror counts against the resistance left on it
  offer         teams: 1 = a winner whose contract is made offers its best card to a partner still short
  lead_bias     added to the estimate of the round's first bidder, who leads the first trick
  lead_trumps_last  1 = a leader under its contract leads its strongest card that is not a trump (a trump
                only when it holds nothing else); 0 = its strongest card, trumps included
  follow_cheap  1 = a follower that wants the trick takes it with its cheapest winner wherever it sits
                (0: its strongest winner unless it plays last)
  short_from    the three habits above apply only at tables of at least this many seats

The first-player habit (found by the calibration). With seekers, the round's first player took fewer tricks for the same
contract (6 players: 0.47 fewer, 36% of its contracts hit against 50% for the others; 4 players: 0.37
fewer); random players show no such effect (+0.02 to +0.04), so it comes from purposeful play: the first
player commits its card to trick 1 before players who all still want tricks and answer it, and
seeker_v1's contract ignored that. At 5-6 seats (the whole deck or nearly is dealt, every top card is
out) the seeker now bids half a trick lower as first player, leads trumps last and wins with its cheapest
winner; head to head it beats seeker_v1 (6 players 0.575 [0.570, 0.580], 5 players 0.507 [0.502, 0.512],
20,000 games per rotation). At 3-4 seats none of the habits beat seeker_v1 (a lower first bid 0.486 and
0.495, trumps last 0.449-0.460, cheapest winner 0.478-0.482), so there the seeker plays as seeker_v1: at
4 players the first player's exact rate is as high as the others' (45.6% against 45.0%) because every
seeker takes about half a trick more than it bids.
"""

import numpy as np
from numba import njit

from sim.engine.rng import _MUL, _S32, step
from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.drarkane.records import (
    ARCANA, CHOOSE_SIG, CTX_OFFER, CTX_OPENING, M_COLOUR, M_KIND, M_MODE, M_VALUE, M_WINS, MAX_SEATS, MERCENARY,
    O_POINTS, OBSCURE, P_DEFEATS, P_LEFT, P_TERROR, S_BID, S_CONTEXT, S_CONTRACT_MAX, S_OFFER,
    S_LAST, S_PARTNER, S_PARTNER_BID, S_PARTNER_TRICKS, S_POS, S_RNG, S_SEATS, S_TRICKS, S_TRUMP, WIZ_HIGH, WIZ_LOW,
    S_N_BIDS, S_PLAYERS, S_PARTNER_OBJ, S_PARTNER_OBJ_COND, S_PARTNER_OBJ_PARAM, O_COND, O_PARAM,
    C_EXACT_CONTRACT_OF, C_EXACT_AT_LEAST, C_NO_TRICKS, C_WIN_WITH_VALUE,
)

REGISTRY = StrategyRegistry("drarkane")
ROLES = tuple(f"seat{k}" for k in range(MAX_SEATS))

W_OBSCURE, W_TRUMP_HIGH, W_TRUMP_LOW, W_SUIT_HIGH, W_SUIT_MID, W_WIZARD = 0, 1, 2, 3, 4, 5
ROUND_SHARE, BIAS, TERROR_WEIGHT, OFFER, SEAT_EXPONENT = 6, 7, 8, 9, 10
LEAD_BIAS, LEAD_TRUMPS_LAST, FOLLOW_CHEAP, SHORT_FROM = 11, 12, 13, 14
PARAM_NAMES = ("w_obscure", "w_trump_high", "w_trump_low", "w_suit_high", "w_suit_mid", "w_wizard",
               "round_share", "bias", "terror_weight", "offer", "seat_exponent", "lead_bias", "lead_trumps_last",
               "follow_cheap", "short_from")
# round_share and seat_exponent were tuned on 3, 4 and 6 players (exact-hit rate of seekers against seekers)
DEFAULTS_V1 = (0.95, 0.75, 0.3, 0.35, 0.1, 0.05, 0.85, 0.0, 0.3, 1.0, 0.7, 0.0, 0.0, 0.0, 5.0)
# the seeker since the calibration: the first bidder bids half a trick lower, and leads trumps last
DEFAULTS = DEFAULTS_V1[:11] + (-0.5, 1.0, 1.0, 5.0)
BOUNDS = ((0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0),
          (0.1, 1.5), (-3.0, 3.0), (0.0, 3.0), (0.0, 1.0), (0.0, 2.0), (-3.0, 3.0), (0.0, 1.0), (0.0, 1.0), (2.0, 7.0))


# ---- helpers ----------------------------------------------------------------------------------------

@njit(cache=True)
def draw(state, n):
    """A uniform integer in [0, n) from the game's own random stream (`sim.engine.rng.below` on the cell
    state[S_RNG], written out here so that no array view is made)."""
    x = step(np.uint64(state[S_RNG]))
    state[S_RNG] = x
    return np.int64((((x * _MUL) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def chance(state):
    """A uniform float in [0, 1) from the game's own random stream (`sim.engine.rng.uniform`)."""
    x = step(np.uint64(state[S_RNG]))
    state[S_RNG] = x
    return np.float64((x * _MUL) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def card_power(k, v, m, colour, trump):
    """A card's raw strength, context-free: Obscure > trump > other colours; Egg, 0 and Wizards at the bottom.
    (k, v, m, colour) as in an option row: kind, value as played, mode, colour."""
    top = (k == OBSCURE) | ((k == MERCENARY) & (m == 0))
    arcana = k == ARCANA
    trumps = arcana & (colour == trump)
    return top * (20 + v) + arcana * (v + 10 * trumps)     # written without branches: cheaper to predict


@njit(cache=True)
def lead_power(k, v, m, colour, trump):
    """card_power for a leader that leads trumps last: every trump ranks below every other card."""
    return card_power(k, v, m, colour, trump) - 100 * ((k == ARCANA) & (colour == trump))


@njit(cache=True)
def power(options, i, trump):
    return card_power(options[i, M_KIND], options[i, M_VALUE], options[i, M_MODE], options[i, M_COLOUR], trump)


@njit(cache=True)
def extreme(options, n, trump, wins, want, highest):
    """Index of the highest/lowest-power option whose M_WINS equals `want` (any when want < 0); -1 if none.
    Ties go to the first such option."""
    best = -1
    bp = -(1 << 40)
    sign = 1 if highest else -1
    for i in range(n):
        if want >= 0 and options[i, M_WINS] != want:
            continue
        p = sign * power(options, i, trump)
        if p > bp:
            best = i
            bp = p
    return best


# ---- bids -----------------------------------------------------------------------------------------

@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def bid_random(options, n, state, params):
    return draw(state, state[S_CONTRACT_MAX] + 1)


@njit(cache=True)
def card_worth(k, v, colour, trump, params):
    """Expected tricks of one card for the bid estimator (its class weight)."""
    if k == OBSCURE or k == MERCENARY:
        return params[W_OBSCURE]
    if k == ARCANA and colour == trump:
        return params[W_TRUMP_HIGH] if v >= 7 else params[W_TRUMP_LOW]
    if k == ARCANA:
        if v >= 9:
            return params[W_SUIT_HIGH]
        if v >= 6:
            return params[W_SUIT_MID]
        return 0.0
    if k == WIZ_LOW or k == WIZ_HIGH:
        return params[W_WIZARD]
    return 0.0


@njit(cache=True)
def rivals_factor(seats, params):
    """The estimate's scale for the number of seats: more rivals, fewer tricks each."""
    return (4.0 / seats) ** params[SEAT_EXPONENT]


@njit(cache=True)
def short_table(seats, params):
    """Whether the short-round habits apply: at `short_from` seats or more the zone starts within two dragons of
    full (6 players: one), so most rounds last a few tricks and the first trick weighs heavily."""
    return seats >= params[SHORT_FROM]


@njit(cache=True)
def estimate_contract(total, rivals, contract_max, params, bids_before, seats):
    """The contract for a hand worth `total` tricks (`bids_before`: contracts taken before mine; 0 = I am the
    round's first player, who leads its first trick)."""
    bias = params[BIAS] + (params[LEAD_BIAS] if bids_before == 0 and short_table(seats, params) else 0.0)
    b = int(np.floor(total * params[ROUND_SHARE] * rivals + bias + 0.5))
    return min(max(b, 0), contract_max)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def bid_estimate(options, n, state, params):
    """Sum of per-class trick values, scaled by the share of the round expected to be played."""
    trump = state[S_TRUMP]
    total = 0.0
    for i in range(n):
        total += card_worth(options[i, M_KIND], options[i, M_VALUE], options[i, M_COLOUR], trump, params)
    return estimate_contract(total, rivals_factor(state[S_SEATS], params), state[S_CONTRACT_MAX], params,
                             state[S_N_BIDS], state[S_SEATS])


# ---- play -----------------------------------------------------------------------------------------

@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def play_random(options, n, state, params):
    return draw(state, n)


@njit(cache=True)
def seeker_aim(pos, last, need, cheap):
    """(M_WINS wanted or -1 for any, highest?) of the seeker's first choice; when no option has the wanted
    M_WINS it plays its weakest card. `cheap` (follow_cheap): a follower takes the trick with its cheapest
    winner wherever it sits, not only when it plays last."""
    if pos == 0:
        return -1, need > 0          # lead: strongest while under the contract, weakest once made
    if need > 0:
        return 1, (last == 0) & (not cheap)     # a winner: the cheapest one when last, else the strongest
    return 0, True                   # duck with the strongest loser


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def play_seeker(options, n, state, params):
    """Win while under the contract (cheapest sure winner when last, strongest otherwise); duck once made."""
    trump = state[S_TRUMP]
    want, highest = seeker_aim(state[S_POS], state[S_LAST], state[S_BID] - state[S_TRICKS],
                               params[FOLLOW_CHEAP] > 0.5 and short_table(state[S_SEATS], params))
    if state[S_POS] == 0 and highest and params[LEAD_TRUMPS_LAST] > 0.5 and short_table(state[S_SEATS], params):
        best = 0        # lead the strongest card, trumps last (the first of equals)
        bp = -(1 << 40)
        for j in range(n):
            p = lead_power(options[j, M_KIND], options[j, M_VALUE], options[j, M_MODE], options[j, M_COLOUR], trump)
            if p > bp:
                best = j
                bp = p
        return best
    i = extreme(options, n, trump, 0, want, highest)
    if i >= 0:
        return i
    return extreme(options, n, trump, 0, -1, False)


# ---- placement --------------------------------------------------------------------------------------

@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def place_random(options, n, state, params):
    return draw(state, n)


@njit(cache=True)
def greedy_key(left, terror, terror_weight):
    """place_greedy takes the placement with the lowest key (the first of equals)."""
    key = float(left if left > 0 else -1000 - left)       # (an integer select: no branch to mispredict)
    return key - terror_weight * terror


@njit(cache=True)
def spread_key(left, defeats):
    """place_spread takes the placement with the highest key (the first of equals)."""
    return float(left) if defeats == 0 else -1000.0 + left


@njit(cache=True)
def placement(options, n, terror_weight, spread):
    """The placement with the lowest greedy_key, or with `spread` the highest spread_key (the first of equals)."""
    best = 0
    bkey = 1e300
    for i in range(n):
        if spread:
            key = -spread_key(options[i, P_LEFT], options[i, P_DEFEATS])
        else:
            key = greedy_key(options[i, P_LEFT], options[i, P_TERROR], terror_weight)
        if key < bkey:
            bkey = key
            best = i
    return best


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def place_greedy(options, n, state, params):
    """Finish the dragon closest to defeat (least strength wasted), favouring Terror-rich dragons."""
    return placement(options, n, params[TERROR_WEIGHT], False)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def place_spread(options, n, state, params):
    """Spread strength over the dragons furthest from defeat; defeat one only when nothing else is left."""
    return placement(options, n, 0.0, True)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def place_saboteur(options, n, state, params):
    """Greedy while the contract is open; once it is made, let the dragons pile up."""
    if state[S_TRICKS] >= state[S_BID]:
        return place_spread(options, n, state, params)
    return place_greedy(options, n, state, params)


# ---- team exchanges ---------------------------------------------------------------------------------

@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def give_random(options, n, state, params):
    if state[S_CONTEXT] != CTX_OPENING and chance(state) < 0.5:
        return -1
    return draw(state, n)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def give_team(options, n, state, params):
    """Open with the weakest card; offer the best card to a partner still short once my contract is made;
    accept an offer only while short myself, giving back my weakest card."""
    trump = state[S_TRUMP]
    ctx = state[S_CONTEXT]
    if ctx == CTX_OPENING:
        return extreme(options, n, trump, 0, -1, False)
    if ctx == CTX_OFFER:
        made = state[S_TRICKS] >= state[S_BID]
        partner_short = state[S_PARTNER] >= 0 and state[S_PARTNER_TRICKS] < state[S_PARTNER_BID]
        if params[OFFER] > 0.5 and made and partner_short:
            return extreme(options, n, trump, 0, -1, True)
        return -1
    if state[S_TRICKS] < state[S_BID] and state[S_OFFER] >= 0:
        return extreme(options, n, trump, 0, -1, False)
    return -1


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def give_partner(options, n, state, params):
    """give_team, and it uses the partner's objective (teams with Treasures: partners show each other theirs):
    a winner whose contract is made offers the card of the value its partner's objective asks for."""
    if state[S_CONTEXT] == CTX_OFFER and state[S_TRICKS] >= state[S_BID] and state[S_PARTNER_OBJ] >= 0:
        if state[S_PARTNER_OBJ_COND] == C_WIN_WITH_VALUE:
            for i in range(n):
                if options[i, M_VALUE] == state[S_PARTNER_OBJ_PARAM]:
                    return i
    return give_team(options, n, state, params)


# ---- objective draft ------------------------------------------------------------------------------

@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def draft_random(options, n, state, params):
    return draw(state, n)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def draft_points(options, n, state, params):
    best = 0
    for i in range(1, n):
        if options[i, O_POINTS] > options[best, O_POINTS]:
            best = i
    return best


@njit(cache=True)
def draft_value(cond, p, points, bid, known):
    """An objective's worth to a drafter: its points, or nothing when my contract (once known) rules it out."""
    if known == 0:
        return points
    if cond == C_EXACT_CONTRACT_OF:
        return points + 2 if bid == p else 0
    if cond == C_EXACT_AT_LEAST:
        return points if bid >= p else 0
    if cond == C_NO_TRICKS:
        return points + 2 if bid == 0 else 0
    return points


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def draft_contract(options, n, state, params):
    """draft_points, but once the contracts are known (contracts before objectives) it passes the objectives
    its own contract rules out and favours one its contract aims at."""
    known = 1 if state[S_N_BIDS] >= state[S_PLAYERS] else 0
    best = 0
    bv = -1
    for i in range(n):
        v = draft_value(options[i, O_COND], options[i, O_PARAM], options[i, O_POINTS], state[S_BID], known)
        if v > bv:
            best = i
            bv = v
    return best


# ---- the search player -------------------------------------------------------------------------------
# The kernel runs it (sim/games/drarkane/kernel_search.py): it needs the whole game state, which a strategy
# function does not see. A seat whose play function is search_play searches every decision (kernel.seat_codes);
# its functions are the playouts' heuristics (the seeker's), so called anywhere else it plays as the seeker. Its
# parameters: the budget (playouts per decision); informed (0: the playouts play every other seat as the seeker at
# its default weights; 1: as it really plays in this line-up, a searching seat as the seeker; the searcher's own
# later moves are the seeker's either way: kernel.informed_lineup); beliefs (1: the other hands are dealt so that
# each contract bid this round is what that seat's modelled bid gives on it, kernel_search.bid_fits).
SEARCH_PLAYOUTS = "seeker"
SEARCH, SEARCH_DEFAULTS = ("budget", "informed", "beliefs"), (200.0, 0.0, 0.0)


@njit_later(CHOOSE_SIG, cache=True, _nrt=False)
def search_play(options, n, state, params):
    """Recognised by identity in kernel.seat_codes and never called there; called anywhere else, the seeker."""
    return play_seeker(options, n, state, params)


# ---- bundles ----------------------------------------------------------------------------------------

REGISTRY.register(Strategy(
    "random", ROLES, (bid_random, play_random, place_random, give_random, draft_random),
    "uniform contract 0..hand size; uniformly random legal card, placement, exchange and objective"))
REGISTRY.register(Strategy(
    "seeker", ROLES, (bid_estimate, play_seeker, place_greedy, give_partner, draft_contract),
    "hand-strength contract (half a trick lower for the round's first player); wins tricks while under it "
    "(leading trumps last) and ducks once made; finishes the closest dragons; drafts with its contract in mind",
    PARAM_NAMES, DEFAULTS, BOUNDS))
# the first seeker (its bids and play, DEFAULTS_V1) with one placement or another
for name, placer, description in (
        ("seeker_v1", place_greedy,
         "the first seeker: bids ignore the seat, leads its strongest card even a trump (kept for comparison)"),
        ("saboteur", place_saboteur,
         "plays like the first seeker, but once its contract is made spreads the trick's cards so the dragons pile up"),
        ("spread", place_spread,
         "plays like the first seeker but always spreads cards over the dragons furthest from defeat")):
    REGISTRY.register(Strategy(name, ROLES, (bid_estimate, play_seeker, placer, give_team, draft_points), description,
                               PARAM_NAMES, DEFAULTS_V1, BOUNDS))
REGISTRY.register(Strategy(
    "random_bid", ROLES, (bid_random, play_seeker, place_greedy, give_team, draft_points),
    "the seeker's play with a uniformly random contract (isolates the value of the bid estimator)",
    PARAM_NAMES, DEFAULTS, BOUNDS))
REGISTRY.register(Strategy(
    "search", ROLES, (bid_estimate, search_play, place_greedy, give_partner, draft_contract),
    "plays each option of a decision (contract, card, placement, exchange, objective) on to the end of the game "
    "(budget: playouts per decision, spread over the options by sequential halving) with the cards it cannot see "
    "dealt afresh each time (the cards it gave its partner stay there), and keeps the one that wins most; every "
    "seat plays out as the seeker, or with informed=1 as it really plays in this line-up; with beliefs=1 the other "
    "hands are dealt so that the contracts bid this round are what the modelled bids give",
    SEARCH, SEARCH_DEFAULTS))
