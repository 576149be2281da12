"""Built-in Dragonwake strategies.

Each strategy is a pair of numba functions, `declare` and `pick`, plus optionally a third, `power`, for
the advanced game's artifacts and powers (a strategy without one gets `no_power`), compiled with
`STRATEGY_SIG` from `sim.games.dragonwake.records`: `(me, role, state, params, memory) -> int`. They read only public
information plus their own cards (see that module's docstring); parameters come in a float64 array so
they can be swept and optimised.
"""

import numpy as np
from numba import njit

from sim.engine.errors import DsimError
from sim.engine.strategy import Strategy, StrategyRegistry, njit_later
from sim.games.dragonwake.records import (
    ASK_BANDIT, ASK_INQUIRE, ASK_PLAYER, ASK_TRICK, BANDIT, CARD_KEYS, INQUISITOR, P_HUNTED, P_POWER,
    PREACHER, TRICKSTER, WITCH, usable_before_reveal, ASK_AFTER, ASK_BEFORE, ASK_FATE, ASK_HUNT, ASK_PEEK, B_CAUGHT, B_CLAIM_DRAGON, B_CLAIM_RELICS, B_DOWN,
    B_SHOWN_DRAGON, B_SHOWN_RELIC, CHOSEN, CULTIST, DECLARE_SIG, DIVINATOR, DRAGON, ECLIPSE, HERO, HUNTER,
    MAX_HAND, MAX_POWERS, MENTOR, P_ASK, P_CULTIST_CARDS, P_DRAGON_FOUND, P_EVENT, P_FACE_DOWN, P_HAND,
    P_LAST_CARD, P_PLAYERS, P_RELICS_FOUND, P_RELICS_TOTAL, P_RNG, P_ROLE_CARDS, P_RUNEBEARER, P_SHOWN, PICK_SIG,
    POWER_SIG, PUB_ROW, PV_NPEEK, PV_POWER0, RELIC, SILENT, chance, draw, holds, known_card, pick_uniform, views,
)

REGISTRY = StrategyRegistry("dragonwake")
RANDOM_ID = 0      # the kernel calls the random strategy's functions directly
SEARCH_ID = 1      # the kernel's search player (sim/games/dragonwake/kernel_search.py) answers claims and picks


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
def down_count(down, p):
    """Face-down cards player p holds."""
    n = 0
    for s in range(MAX_HAND):
        n += down[p, s]
    return n


@njit(cache=True, inline='always')
def kth_down_slot(down, p, k):
    """The slot of player p's k-th face-down card (from 0), -1 past the last."""
    for s in range(MAX_HAND):
        if down[p, s] == 1:
            if k == 0:
                return s
            k -= 1
    return -1


@njit(cache=True, inline='always')
def pick_best_player(me, state, down, pub, scores):
    """A random face-down card of the other player with the highest score (ties broken at random)."""
    best = -1e300
    chosen = -1
    ties = 0
    for p in range(pub[P_PLAYERS]):
        if p == me:
            continue
        if down_count(down, p) == 0:
            continue
        if scores[p] > best + 1e-12:
            best = scores[p]
            chosen = p
            ties = 1
        elif abs(scores[p] - best) <= 1e-12:
            ties += 1
            if draw(state, ties) == 0:
                chosen = p
    s = kth_down_slot(down, chosen, draw(state, down_count(down, chosen)))
    return chosen * MAX_HAND + s if s >= 0 else -1


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
def trust_scores(me, role, cards, board, pub, memory, dragon_fear, seek_relics):
    """Score each player from their claim taken at face value (base rates when silent), in `memory`:
    relic chance minus `dragon_fear` times dragon chance when seeking relics, else dragon minus relic."""
    base_relic, base_dragon = base_rates(me, role, cards, board, pub)
    scores = memory[:pub[P_PLAYERS]]
    for j in range(pub[P_PLAYERS]):
        r, d = claimed_density(j, board)
        if r < 0:
            r, d = base_relic, base_dragon
        scores[j] = r - dragon_fear * d if seek_relics else d - r
    return scores


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


@njit(cache=True, inline='always')
def wanted(role, card):
    """How a player of this role likes revealing a known card: 1 wanted, -1 harmful, 0 neutral."""
    if role == HERO:
        return 1 if card == RELIC else (-1 if card == DRAGON else 0)
    return 1 if card == DRAGON else (-1 if card == RELIC else 0)


@njit(cache=True, inline='always')
def use_knowledge(me, role, state, choice):
    """Adjust a pick with what I know of face-down cards (advanced game: peeks and shown cards).

    A known wanted card (a relic for a hero, the dragon for a cultist) is taken at once; a known harmful
    one is swapped for an unknown card of the same player, else of anyone. Without knowledge (always in
    the basic game) the pick is returned untouched, without drawing any randomness.
    """
    cards, down, board, pub = views(state)
    if pub[P_SHOWN] == 0 and state[me, PV_NPEEK] == 0:
        return choice
    players = pub[P_PLAYERS]
    for p in range(players):
        if p == me:
            continue
        for s in range(MAX_HAND):
            if down[p, s] == 1 and wanted(role, known_card(state, me, p, s)) > 0:
                return p * MAX_HAND + s
    if choice < 0:
        return choice
    cp = choice // MAX_HAND
    if wanted(role, known_card(state, me, cp, choice % MAX_HAND)) >= 0:
        return choice
    for s in range(MAX_HAND):
        if down[cp, s] == 1 and wanted(role, known_card(state, me, cp, s)) >= 0:
            return cp * MAX_HAND + s
    for p in range(players):
        for s in range(MAX_HAND):
            if p != me and down[p, s] == 1 and wanted(role, known_card(state, me, p, s)) >= 0:
                return p * MAX_HAND + s
    return choice


@njit(cache=True, inline='always')
def random_other(state, me, players):
    q = draw(state, players - 1)
    return q + (q >= me)


@njit(cache=True, inline='always')
def any_face_down(state, down, players):
    """A uniformly random face-down card of anyone (mine included), -1 when none."""
    return any_card_except(state, down, -1, -1, players)


@njit(cache=True, inline='always')
def unknown_card_of_best(me, state, down, board, pub, scores, include_me):
    """A face-down card nobody has shown and I have not peeked at, of the best-scored player that has one
    (ties to the lower seat); any face-down card of another player when every card is known."""
    best = -1e300
    chosen = -1
    slot = -1
    for p in range(pub[P_PLAYERS]):
        if p == me and not include_me:
            continue
        for s in range(MAX_HAND):
            if down[p, s] == 1 and known_card(state, me, p, s) < 0:
                sc = scores[p] if p != me else 1e299
                if sc > best:
                    best = sc
                    chosen = p
                    slot = s
                break
    if chosen < 0:
        return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)
    return chosen * MAX_HAND + slot


@njit_later(POWER_SIG, cache=True, _nrt=False)
def no_power(me, role, state, params, memory):
    """Never uses a power; when an artifact forces a choice, chooses at random."""
    cards, down, board, pub = views(state)
    ask = pub[P_ASK]
    if ask == ASK_PEEK:
        return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)
    if ask == ASK_FATE:
        return random_other(state, me, pub[P_PLAYERS])
    if ask == ASK_HUNT:
        return any_face_down(state, down, pub[P_PLAYERS])
    return 0


@njit(cache=True, inline='always')
def any_card_except(state, down, a, b, players):
    """A uniformly random face-down card of a player other than a and b, -1 when none."""
    count = 0
    for p in range(players):
        if p != a and p != b:
            count += down_count(down, p)
    if count == 0:
        return -1
    k = draw(state, count)
    for p in range(players):
        if p != a and p != b:
            held = down_count(down, p)
            if k < held:
                return p * MAX_HAND + kth_down_slot(down, p, k)
            k -= held
    return -1


@njit(cache=True, inline='always')
def random_own_slot(state, down, me):
    """A uniformly random face-down slot of my own, -1 when none."""
    count = down_count(down, me)
    if count == 0:
        return -1
    return kth_down_slot(down, me, draw(state, count))


@njit_later(POWER_SIG, cache=True, _nrt=False)
def random_power(me, role, state, params, memory):
    """Uses a held power at a random legal moment (a quarter of the chances), with random targets."""
    cards, down, board, pub = views(state)
    ask = pub[P_ASK]
    if ask == ASK_BEFORE:
        if chance(state) >= 0.25:
            return 0
        j = draw(state, MAX_POWERS)
        power = state[me, PV_POWER0 + j]
        if usable_before_reveal(state, power, me, pub[P_RUNEBEARER], pub[P_HUNTED] != 0, pub[P_PLAYERS]):
            return power
        return 0
    if ask == ASK_AFTER:
        return CHOSEN if chance(state) < 0.25 else 0
    if ask == ASK_PLAYER:
        return random_other(state, me, pub[P_PLAYERS])
    if ask == ASK_INQUIRE:
        return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)
    if ask == ASK_BANDIT:
        return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state) * MAX_HAND + random_own_slot(state, down, me)
    if ask == ASK_TRICK:
        a = pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)
        return a * CARD_KEYS + any_card_except(state, down, me, a // MAX_HAND, pub[P_PLAYERS])
    return no_power(me, role, state, params, memory)


@njit(cache=True, inline='always')
def wanted_slot(me, role, cards, down, pub):
    """A face-down slot of mine holding the card my side wants revealed (hero: a relic, cultist: the
    dragon), -1 when none or when I have not seen my cards (Eclipse)."""
    if pub[P_EVENT] == ECLIPSE:
        return -1
    want = RELIC if role == HERO else DRAGON
    for s in range(MAX_HAND):
        if down[me, s] == 1 and cards[me, s] == want:
            return s
    return -1


@njit(cache=True, inline='always')
def most_caught(me, state, board, players):
    """The other player caught lying in the most rounds (ties at random), -1 when nobody was caught."""
    best = 0
    chosen = -1
    ties = 0
    for p in range(players):
        c = board[p, B_CAUGHT]
        if p == me or c < best or c == 0:
            continue
        if c > best:
            best = c
            chosen = p
            ties = 1
        else:
            ties += 1
            if draw(state, ties) == 0:
                chosen = p
    return chosen


@njit(cache=True, inline='always')
def least_caught(me, state, board, players):
    """The other player caught lying in the fewest rounds (ties at random)."""
    best = 1 << 30
    chosen = -1
    ties = 0
    for p in range(players):
        if p == me:
            continue
        c = board[p, B_CAUGHT]
        if c < best:
            best = c
            chosen = p
            ties = 1
        elif c == best:
            ties += 1
            if draw(state, ties) == 0:
                chosen = p
    return chosen


@njit(cache=True, inline='always')
def trick_pair(me, state, down, board, pub):
    """Trickster's swap for a cultist: an unknown face-down card of the other player whose claim promises
    the highest relic density, with a face-down card of the other player promising the lowest (silent
    players count at the base rate). Returns a * CARD_KEYS + b, -1 when no claim promises a relic."""
    cards = views(state)[0]
    base_relic, _ = base_rates(me, CULTIST, cards, board, pub)
    hi = -1.0
    lo = 2.0
    ph = -1
    plo = -1
    for p in range(pub[P_PLAYERS]):
        if p == me or board[p, B_DOWN] == 0:
            continue
        r, _ = claimed_density(p, board)
        if r < 0:
            r = base_relic
        if r > hi:
            hi = r
            ph = p
        if r < lo:
            lo = r
            plo = p
    if ph < 0 or plo < 0 or ph == plo or hi <= lo or hi <= base_relic:
        return -1
    a = -1
    for s in range(MAX_HAND):
        if down[ph, s] == 1 and known_card(state, me, ph, s) < 0:
            a = ph * MAX_HAND + s
            break
    b = -1
    for s in range(MAX_HAND):
        if down[plo, s] == 1:
            b = plo * MAX_HAND + s
            break
    if a < 0 or b < 0:
        return -1
    return a * CARD_KEYS + b


@njit(cache=True, inline='always')
def smart_power(me, role, state, params, memory, scores):
    """The heuristics' use of powers. `scores` holds the caller's per-player pick scores (higher: a
    better target for my side).

    - Divinator/Mentor, then Hunter, when I hold the runestone: the peek or the flips land on the player
      I would search, and my pick then uses what they showed.
    - Chosen One: a hero undoes the dragon's reveal, a cultist the reveal of the last relic.
    - Peeks and flips look at unknown cards of the best-scored player; a Hunter under Eclipse looks at its
      own cards first.
    - Figure of Fate: a hero takes the role of the player least often caught lying, a cultist of the most
      often caught (each wants to stay on its side).
    - Bandit, when I hold the runestone and a card my side wants (hero: a relic, cultist: the dragon): I put
      it into another player's hand in exchange for an unknown card, then reveal it myself. Never under
      Eclipse (I have not seen my cards).
    - Inquisitor, when I hold the runestone: like a peek, but everybody sees the card.
    - Preacher (heroes only, on the player most often caught lying, once someone was caught) and Witch
      (cultists only, at once, on the player least often caught): turn a player to my side. The other side
      never uses them.
    - Trickster (cultists only, when another player holds the runestone): swap an unknown card of the
      player whose claim promises the most relics (where heroes search) with a card of the player
      promising the fewest (where a hidden dragon sits, since heroes holding it claim 'only gold').
    """
    cards, down, board, pub = views(state)
    ask = pub[P_ASK]
    players = pub[P_PLAYERS]
    if ask == ASK_BEFORE:
        if pub[P_RUNEBEARER] == me:
            if holds(state, me, BANDIT) and wanted_slot(me, role, cards, down, pub) >= 0:
                return BANDIT
            if holds(state, me, DIVINATOR):
                return DIVINATOR
            if holds(state, me, MENTOR):
                return MENTOR
            if holds(state, me, INQUISITOR):
                return INQUISITOR
            if holds(state, me, HUNTER):
                return HUNTER
        if role == HERO and holds(state, me, PREACHER) and most_caught(me, state, board, players) >= 0:
            return PREACHER
        if role == CULTIST and holds(state, me, WITCH):
            return WITCH
        if (role == CULTIST and holds(state, me, TRICKSTER) and pub[P_RUNEBEARER] != me
                and usable_before_reveal(state, TRICKSTER, me, pub[P_RUNEBEARER], False, players)
                and trick_pair(me, state, down, board, pub) >= 0):
            return TRICKSTER
        return 0
    if ask == ASK_PLAYER:
        if pub[P_POWER] == PREACHER:
            t = most_caught(me, state, board, players)
            return t if t >= 0 else random_other(state, me, players)
        return least_caught(me, state, board, players)
    if ask == ASK_INQUIRE:
        return unknown_card_of_best(me, state, down, board, pub, scores, False)
    if ask == ASK_BANDIT:
        own = wanted_slot(me, role, cards, down, pub)
        if own < 0:
            own = random_own_slot(state, down, me)
        return unknown_card_of_best(me, state, down, board, pub, scores, False) * MAX_HAND + own
    if ask == ASK_TRICK:
        x = trick_pair(me, state, down, board, pub)
        if x >= 0:
            return x
        a = pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)
        return a * CARD_KEYS + any_card_except(state, down, me, a // MAX_HAND, players)
    if ask == ASK_AFTER:
        card = pub[P_LAST_CARD]
        if role == HERO and card == DRAGON:
            return CHOSEN
        if role == CULTIST and card == RELIC and pub[P_RELICS_FOUND] + 1 >= pub[P_RELICS_TOTAL]:
            return CHOSEN
        return 0
    if ask == ASK_PEEK:
        return unknown_card_of_best(me, state, down, board, pub, scores, False)
    if ask == ASK_HUNT:
        return unknown_card_of_best(me, state, down, board, pub, scores, pub[P_EVENT] == ECLIPSE)
    if ask == ASK_FATE:
        best = -1
        chosen = -1
        for p in range(pub[P_PLAYERS]):
            if p == me:
                continue
            c = board[p, B_CAUGHT] if role == CULTIST else -board[p, B_CAUGHT]
            if chosen < 0 or c > best:
                best = c
                chosen = p
        return chosen
    return 0


# ---- random ---------------------------------------------------------------------------------------

@njit_later(DECLARE_SIG, cache=True, _nrt=False)
def silent_declare(me, role, state, params, memory):
    return SILENT


@njit_later(PICK_SIG, cache=True, _nrt=False)
def random_pick(me, role, state, params, memory):
    return pick_uniform(state[PUB_ROW, P_RNG:P_RNG + 1], me, state)


# ---- honest heroes: tell the truth, trust the claims ---------------------------------------------
# params: hide_dragon, dragon_fear

@njit_later(DECLARE_SIG, cache=True, _nrt=False)
def honest_declare(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    return truthful_claim(me, state, cards, pub, params[0])


@njit_later(PICK_SIG, cache=True, _nrt=False)
def trust_pick(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    scores = trust_scores(me, role, cards, board, pub, memory, params[1], True)
    return use_knowledge(me, role, state, pick_best_player(me, state, down, pub, scores))


@njit_later(POWER_SIG, cache=True, _nrt=False)
def trust_power(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    scores = trust_scores(me, role, cards, board, pub, memory, params[1], role == HERO)
    return smart_power(me, role, state, params, memory, scores)


# ---- lying cultists: inflate relics, hide the dragon, hunt for it ----------------------------------
# params: inflate, silent, honest_caught, liar_caught, relic_aversion

@njit_later(DECLARE_SIG, cache=True, _nrt=False)
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


@njit(cache=True, inline='always')
def posterior_view(me, role, state, params, memory, relic_weight, dragon_weight):
    """(face-down cards, public row, pick scores) with the scores by posterior_scores under these weights, in
    `memory` (params[2], params[3]: honest_caught, liar_caught)."""
    cards, down, board, pub = views(state)
    scores = memory[:pub[P_PLAYERS]]
    posterior_scores(me, role, cards, board, pub, params[2], params[3], relic_weight, dragon_weight, scores)
    return down, pub, scores


@njit_later(PICK_SIG, cache=True, _nrt=False)
def dragon_pick(me, role, state, params, memory):
    down, pub, scores = posterior_view(me, role, state, params, memory, -params[4], 1.0)
    return use_knowledge(me, role, state, pick_best_player(me, state, down, pub, scores))


@njit_later(POWER_SIG, cache=True, _nrt=False)
def dragon_power(me, role, state, params, memory):
    _, _, scores = posterior_view(me, role, state, params, memory, -params[4], 1.0)
    return smart_power(me, role, state, params, memory, scores)


# ---- bayes: either role; truthful or lying claims by role, posterior picks ------------------------
# params: hide_dragon, dragon_fear, honest_caught, liar_caught, inflate, relic_aversion

@njit_later(DECLARE_SIG, cache=True, _nrt=False)
def role_declare(me, role, state, params, memory):
    cards, down, board, pub = views(state)
    if role == HERO:
        return truthful_claim(me, state, cards, pub, params[0])
    return lying_claim(me, state, cards, pub, params[4], 0.0)


@njit(cache=True, inline='always')
def bayes_weights(role, params):
    """bayes's (relic, dragon) weights: a hero seeks relics and fears the dragon (dragon_fear), a cultist seeks
    the dragon and shuns relics (relic_aversion)."""
    if role == HERO:
        return 1.0, -params[1]
    return -params[5], 1.0


@njit_later(PICK_SIG, cache=True, _nrt=False)
def bayes_pick(me, role, state, params, memory):
    relic_weight, dragon_weight = bayes_weights(role, params)
    down, pub, scores = posterior_view(me, role, state, params, memory, relic_weight, dragon_weight)
    return use_knowledge(me, role, state, pick_best_player(me, state, down, pub, scores))


@njit_later(POWER_SIG, cache=True, _nrt=False)
def bayes_power(me, role, state, params, memory):
    relic_weight, dragon_weight = bayes_weights(role, params)
    _, _, scores = posterior_view(me, role, state, params, memory, relic_weight, dragon_weight)
    return smart_power(me, role, state, params, memory, scores)


REGISTRY.register(Strategy(
    "random", ("hero", "cultist"), (silent_declare, random_pick, random_power),
    "stays silent; reveals a uniformly random legal card", builtin=RANDOM_ID))
REGISTRY.register(Strategy(
    "honest", ("hero",), (honest_declare, trust_pick, trust_power),
    "tells the truth (may hide a held dragon); takes every claim at face value",
    ("hide_dragon", "dragon_fear"), (1.0, 2.0), ((0.0, 1.0), (0.0, 10.0))))
REGISTRY.register(Strategy(
    "liar", ("cultist",), (liar_declare, dragon_pick, dragon_power),
    "claims extra relics and never the dragon; hunts the dragon with a claim-trust posterior",
    ("inflate", "silent", "honest_caught", "liar_caught", "relic_aversion"),
    (1.0, 0.0, 0.05, 0.5, 0.5), ((0.0, 3.0), (0.0, 1.0), (0.001, 1.0), (0.001, 1.0), (0.0, 5.0))))
REGISTRY.register(Strategy(
    "bayes", ("hero", "cultist"), (role_declare, bayes_pick, bayes_power),
    "truthful as a hero, lying as a cultist; picks by a posterior over relics and dragon from claims "
    "weighted by each player's honesty, itself updated from rounds they were caught lying",
    ("hide_dragon", "dragon_fear", "honest_caught", "liar_caught", "inflate", "relic_aversion"),
    (1.0, 3.0, 0.05, 0.5, 1.0, 0.5),
    ((0.0, 1.0), (0.0, 10.0), (0.001, 1.0), (0.001, 1.0), (0.0, 3.0), (0.0, 5.0))))


# ---- search: the kernel's search player; these functions play the defaults where it does not search ------
# A search seat's kernel parameters (search_params): budget, informed, beliefs; then how the playouts model each
# role's claims (CLAIM_WORDS words a role: kind, then two weights; kernel_search.claim_chance reads them); then
# the weights of the heuristics that play each role in the playouts, SLOT words a role (unused words zero).

SEARCH_BUDGET = 200
SEARCH_NAMES, SEARCH_DEFAULTS = ("budget", "informed", "beliefs"), (float(SEARCH_BUDGET), 0.0, 1.0)
P_BUDGET, P_INFORMED, P_BELIEFS = 0, 1, 2
CLAIM_WORDS = 3
P_HERO_CLAIMS = 3
P_CULTIST_CLAIMS = P_HERO_CLAIMS + CLAIM_WORDS
SLOT = 8
P_HERO = P_CULTIST_CLAIMS + CLAIM_WORDS
P_CULTIST = P_HERO + SLOT
P_CULTIST_END = P_CULTIST + SLOT

# how a strategy claims, as the search's beliefs model it: UNKNOWN (a plug-in: its claims are not read),
# QUIET (always silent), TRUTHFUL (weight: the chance a dragon holder hides it by claiming "only gold"),
# LYING (weights: relics added to the true count, the chance of silence; never the dragon)
UNKNOWN, QUIET, TRUTHFUL, LYING = 0, 1, 2, 3
CLAIM_MODELS = {
    "random": lambda role, p: (QUIET, 0.0, 0.0),
    "honest": lambda role, p: (TRUTHFUL, p[0], 0.0),
    "liar": lambda role, p: (LYING, p[0], p[1]),
    "bayes": lambda role, p: (TRUTHFUL, p[0], 0.0) if role == "hero" else (LYING, p[4], 0.0),
}
DEFAULT_LINEUP = {"hero": "bayes", "cultist": "liar"}


def claim_model(name: str, role: str, params) -> tuple[float, float, float]:
    """How strategy `name` playing `role` with `params` claims (CLAIM_MODELS; UNKNOWN for a plug-in)."""
    model = CLAIM_MODELS.get(name)
    return model(role, params) if model else (UNKNOWN, 0.0, 0.0)


def playout_models(informed: bool, lineup=None) -> dict:
    """role -> (strategy, params) that plays it in a search seat's playouts: the default line-up at its default
    weights, or, `informed`, the line-up's own strategy and weights for every role that does not search (a role
    that searches plays its defaults: that is the searcher's own stated policy)."""
    models = {}
    for role, name in DEFAULT_LINEUP.items():
        seat = lineup.get(role) if informed and lineup is not None else None
        if seat is not None and seat.strategy.builtin != SEARCH_ID:
            models[role] = (seat.strategy, np.asarray(seat.params, np.float64))
        else:
            default = REGISTRY.get(name)
            models[role] = (default, default.params())
    return models


def informed(params) -> bool:
    """Whether a search seat's own parameters ask for informed playouts."""
    return len(params) > P_INFORMED and params[P_INFORMED] > 0.5


def search_params(params, models=None) -> np.ndarray:
    """A search seat's kernel parameters (the layout above) from its own (budget, informed, beliefs; missing
    ones at their defaults) and the strategies that play each role in its playouts (default: the default
    line-up)."""
    models = models or playout_models(False)
    out = np.zeros(P_CULTIST_END, np.float64)
    own = list(params) + list(SEARCH_DEFAULTS[len(params):])
    out[:len(SEARCH_DEFAULTS)] = own[:len(SEARCH_DEFAULTS)]
    for role, claims, start in (("hero", P_HERO_CLAIMS, P_HERO), ("cultist", P_CULTIST_CLAIMS, P_CULTIST)):
        strategy, weights = models[role]
        if len(weights) > SLOT:
            raise DsimError(f"a search seat plays out '{strategy.name}' with {len(weights)} weights; "
                            f"the search holds at most {SLOT}")
        out[claims:claims + CLAIM_WORDS] = claim_model(strategy.name, role, weights)
        out[start:start + len(weights)] = weights
    return out


@njit_later(DECLARE_SIG, cache=True, _nrt=False)
def search_declare(me, role, state, params, memory):
    if role == HERO:
        return role_declare(me, role, state, params[P_HERO:P_CULTIST], memory)
    return liar_declare(me, role, state, params[P_CULTIST:P_CULTIST_END], memory)


@njit_later(PICK_SIG, cache=True, _nrt=False)
def search_pick(me, role, state, params, memory):
    if role == HERO:
        return bayes_pick(me, role, state, params[P_HERO:P_CULTIST], memory)
    return dragon_pick(me, role, state, params[P_CULTIST:P_CULTIST_END], memory)


@njit_later(POWER_SIG, cache=True, _nrt=False)
def search_power(me, role, state, params, memory):
    if role == HERO:
        return bayes_power(me, role, state, params[P_HERO:P_CULTIST], memory)
    return dragon_power(me, role, state, params[P_CULTIST:P_CULTIST_END], memory)


REGISTRY.register(Strategy(
    "search", ("hero", "cultist"), (search_declare, search_pick, search_power),
    "plays each claim and pick on to the end of the game (budget: playouts per decision, spread over the options "
    "by sequential halving) with the roles and face-down cards it cannot see dealt afresh each time, and keeps "
    "the one its side wins most; bayes heroes and liar cultists play out the game, or with informed=1 the roles "
    "as this line-up plays them; beliefs=1 weighs each deal by how likely the claims heard this round are under "
    "those strategies (beliefs=0: only heroes' relic counts, taken as true); powers as the defaults",
    SEARCH_NAMES, SEARCH_DEFAULTS, (), builtin=SEARCH_ID))
