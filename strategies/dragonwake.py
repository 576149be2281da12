"""Built-in Dragonwake strategies.

Each strategy is a pair of numba functions, `declare` and `pick`, compiled with `STRATEGY_SIG` from
`sim.games.dragonwake.records`: `(me, role, state, params, memory) -> int`. They read only public
information plus their own cards (see that module's docstring); parameters come in a float64 array so
they can be swept and optimised.
"""

from numba import njit

from sim.core.strategy import Strategy, StrategyRegistry
from sim.games.dragonwake.records import (
    B_CAUGHT, B_CLAIM_DRAGON, B_CLAIM_RELICS, B_DOWN, B_SHOWN_DRAGON, B_SHOWN_RELIC, CULTIST, DECLARE_SIG, chance, draw, views,
    DRAGON, ECLIPSE, HERO, MAX_HAND, P_EVENT, P_CULTIST_CARDS, P_DRAGON_FOUND, P_FACE_DOWN, P_HAND, P_PLAYERS,
    P_RELICS_FOUND, P_RELICS_TOTAL, P_RNG, P_ROLE_CARDS, PICK_SIG, PUB_ROW, RELIC, SILENT, pick_uniform,
)

REGISTRY = StrategyRegistry("dragonwake")
RANDOM_ID = 0      # the kernel calls the random strategy's functions directly


# ---- helpers (plain njit, inlined into the strategies) ---------------------------------------------

@njit(cache=True, inline='always')
def own_hand(me, cards, pub):
    """(relics, dragons) among my own face-down cards (revealed slots hold -1); unknown under Eclipse."""
    if pub[P_EVENT] == ECLIPSE:
        return 0, 0
    relics = 0
    dragons = 0
    for s in range(MAX_HAND):
        relics += cards[me, s] == RELIC
        dragons += cards[me, s] == DRAGON
    return relics, dragons


@njit(cache=True, inline='always')
def pick_best_player(me, state, down, pub, scores):
    """A random face-down card of the other player with the highest score (ties broken at random)."""
    best = -1e300
    chosen = -1
    ties = 0
    for p in range(pub[P_PLAYERS]):
        if p == me:
            continue
        has = 0
        for s in range(MAX_HAND):
            has += down[p, s]
        if has == 0:
            continue
        if scores[p] > best + 1e-12:
            best = scores[p]
            chosen = p
            ties = 1
        elif abs(scores[p] - best) <= 1e-12:
            ties += 1
            if draw(state, ties) == 0:
                chosen = p
    count = 0
    for s in range(MAX_HAND):
        count += down[chosen, s]
    k = draw(state, count)
    for s in range(MAX_HAND):
        if down[chosen, s] == 1:
            if k == 0:
                return chosen * MAX_HAND + s
            k -= 1
    return -1


@njit(cache=True, inline='always')
def base_rates(me, role, cards, board, pub):
    """Chance that an unknown face-down card (not mine) is a relic / the dragon."""
    my_relics, my_dragons = own_hand(me, cards, pub)
    unknown = pub[P_FACE_DOWN] - (board[me, B_DOWN] if pub[P_EVENT] != ECLIPSE else 0)
    if unknown <= 0:
        return 0.0, 0.0
    relics = pub[P_RELICS_TOTAL] - pub[P_RELICS_FOUND] - my_relics
    dragons = max(0, 1 - pub[P_DRAGON_FOUND] - my_dragons)
    return max(0, relics) / unknown, dragons / unknown


@njit(cache=True, inline='always')
def honesty(me, role, j, board, pub, honest_caught, liar_caught):
    """P(player j tells the truth): prior from the role deck, updated by rounds j was caught lying."""
    players = pub[P_PLAYERS]
    cultists_expected = pub[P_CULTIST_CARDS] * players / pub[P_ROLE_CARDS]
    others_cultists = cultists_expected - (1.0 if role == CULTIST else 0.0)
    prior = 1.0 - max(0.0, others_cultists) / (players - 1)
    c = board[j, B_CAUGHT]
    h = prior * honest_caught ** c
    lie = (1.0 - prior) * liar_caught ** c
    return h / (h + lie) if h + lie > 0 else 0.0


@njit(cache=True, inline='always')
def claimed_density(j, board):
    """(relic, dragon) density of j's face-down cards if j's claim is true; (-1, -1) when silent."""
    left = board[j, B_DOWN]
    if board[j, B_CLAIM_RELICS] < 0 or left <= 0:
        return -1.0, -1.0
    relics = max(0, board[j, B_CLAIM_RELICS] - board[j, B_SHOWN_RELIC])
    dragons = max(0, board[j, B_CLAIM_DRAGON] - board[j, B_SHOWN_DRAGON])
    return min(1.0, relics / left), min(1.0, dragons / left)


@njit(cache=True, inline='always')
def truthful_claim(me, state, cards, pub, hide_dragon):
    if pub[P_EVENT] == ECLIPSE:
        return SILENT      # nobody has seen their cards: an honest player has nothing to say
    relics, dragons = own_hand(me, cards, pub)
    if dragons > 0 and chance(state) < hide_dragon:
        return 0           # "only gold": keeps searchers away from the dragon, at the cost of relics
    return relics * 2 + dragons


@njit(cache=True, inline='always')
def lying_claim(me, state, cards, pub, inflate, silent):
    if chance(state) < silent:
        return SILENT
    relics, _ = own_hand(me, cards, pub)
    hand = pub[P_HAND]
    return min(hand, relics + int(inflate)) * 2   # never admit the dragon


# ---- random ---------------------------------------------------------------------------------------

@njit(DECLARE_SIG, cache=True, _nrt=False)
def silent_declare(me, role, state, params, memory):
    return SILENT


@njit(PICK_SIG, cache=True, _nrt=False)
def random_pick(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, down, board, pub)


# ---- honest heroes: tell the truth, trust the claims ---------------------------------------------
# params: hide_dragon, dragon_fear

@njit(DECLARE_SIG, cache=True, _nrt=False)
def honest_declare(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    return truthful_claim(me, state, cards, pub, params[0])


@njit(PICK_SIG, cache=True, _nrt=False)
def trust_pick(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    base_relic, base_dragon = base_rates(me, role, cards, board, pub)
    scores = memory[:pub[P_PLAYERS]]
    for j in range(pub[P_PLAYERS]):
        r, d = claimed_density(j, board)
        if r < 0:
            r, d = base_relic, base_dragon
        scores[j] = r - params[1] * d
    return pick_best_player(me, state, down, pub, scores)


# ---- lying cultists: inflate relics, hide the dragon, hunt for it ----------------------------------
# params: inflate, silent, honest_caught, liar_caught, relic_aversion

@njit(DECLARE_SIG, cache=True, _nrt=False)
def liar_declare(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    return lying_claim(me, state, cards, pub, params[0], params[1])


@njit(cache=True, inline='always')
def posterior_scores(me, role, cards, board, pub, honest_caught, liar_caught, relic_weight, dragon_weight,
                     scores):
    """Score each player by the posterior relic and dragon density of their face-down cards.

    Each claim is believed with the player's honesty probability; otherwise (or when silent) the card
    is as likely as any unknown card to be a relic or the dragon.
    """
    base_relic, base_dragon = base_rates(me, role, cards, board, pub)
    for j in range(pub[P_PLAYERS]):
        r, d = claimed_density(j, board)
        if r < 0:
            r, d = base_relic, base_dragon
        else:
            t = honesty(me, role, j, board, pub, honest_caught, liar_caught)
            r = t * r + (1.0 - t) * base_relic
            d = t * d + (1.0 - t) * base_dragon
        scores[j] = relic_weight * r + dragon_weight * d


@njit(PICK_SIG, cache=True, _nrt=False)
def dragon_pick(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    scores = memory[:pub[P_PLAYERS]]
    posterior_scores(me, role, cards, board, pub, params[2], params[3], -params[4], 1.0, scores)
    return pick_best_player(me, state, down, pub, scores)


# ---- bayes: either role; truthful or lying claims by role, posterior picks ------------------------
# params: hide_dragon, dragon_fear, honest_caught, liar_caught, inflate, relic_aversion

@njit(DECLARE_SIG, cache=True, _nrt=False)
def role_declare(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    if role == HERO:
        return truthful_claim(me, state, cards, pub, params[0])
    return lying_claim(me, state, cards, pub, params[4], 0.0)


@njit(PICK_SIG, cache=True, _nrt=False)
def bayes_pick(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    scores = memory[:pub[P_PLAYERS]]
    if role == HERO:
        posterior_scores(me, role, cards, board, pub, params[2], params[3], 1.0, -params[1], scores)
    else:
        posterior_scores(me, role, cards, board, pub, params[2], params[3], -params[5], 1.0, scores)
    return pick_best_player(me, state, down, pub, scores)


REGISTRY.register(Strategy(
    "random", ("hero", "cultist"), (silent_declare, random_pick),
    "stays silent; reveals a uniformly random legal card", builtin=RANDOM_ID))
REGISTRY.register(Strategy(
    "honest", ("hero",), (honest_declare, trust_pick),
    "tells the truth (may hide a held dragon); takes every claim at face value",
    ("hide_dragon", "dragon_fear"), (1.0, 2.0), ((0.0, 1.0), (0.0, 10.0))))
REGISTRY.register(Strategy(
    "liar", ("cultist",), (liar_declare, dragon_pick),
    "claims extra relics and never the dragon; hunts the dragon with a claim-trust posterior",
    ("inflate", "silent", "honest_caught", "liar_caught", "relic_aversion"),
    (1.0, 0.0, 0.05, 0.5, 0.5), ((0.0, 3.0), (0.0, 1.0), (0.001, 1.0), (0.001, 1.0), (0.0, 5.0))))
REGISTRY.register(Strategy(
    "bayes", ("hero", "cultist"), (role_declare, bayes_pick),
    "truthful as a hero, lying as a cultist; picks by a posterior over relics and dragon from claims "
    "weighted by each player's honesty, itself updated from rounds they were caught lying",
    ("hide_dragon", "dragon_fear", "honest_caught", "liar_caught", "inflate", "relic_aversion"),
    (1.0, 3.0, 0.05, 0.5, 1.0, 0.5),
    ((0.0, 1.0), (0.0, 10.0), (0.001, 1.0), (0.001, 1.0), (0.0, 3.0), (0.0, 5.0))))
