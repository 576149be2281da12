"""Dragonwake kernel, part 1: the output columns and the helpers every part uses: the trace, legal and random
targets among the face-down cards, cards shown to everybody, claims and the conservation check."""

from numba import njit

from sim.engine.rng import below
from sim.games.dragonwake.records import (
    BOARD0, B_CLAIM_DRAGON, B_CLAIM_RELICS, B_DOWN, B_SHOWN_DRAGON, B_SHOWN_GOLD, B_SHOWN_RELIC, CARDS0, CULTIST,
    DOWN0, DRAGON, MAX_HAND, N_KERNEL_COLUMNS, PUB_ROW, P_SHOWN, RELIC, SHOWN0,
)

# output columns, in records.GAME_COLUMNS order
C_N_CULTISTS, C_CULTIST_MASK, C_WINNER, C_END_MODE, C_REVEALS, C_ROUNDS, C_RELICS_FOUND = 0, 1, 2, 3, 4, 5, 6
C_FIRST_RB, C_FINDER, C_FINDER_ROLE, C_EARLY, C_TRUE, C_FALSE, C_SILENT = 7, 8, 9, 10, 11, 12, 13
C_CULTIST_LIES, C_HERO_LIES, C_VIOLATIONS = 14, 15, 16
C_ARTIFACTS, C_POWERS, C_PEEKS, C_UNDOS, C_SIDE_MASK, C_LAST_ROUND = 17, 18, 19, 20, 21, 22
# fired counters, in records.FIRED order
F0 = 23
F_ECLIPSE, F_GLUTTONY, F_BLANK, F_CANDLE, F_FATE = F0, F0 + 1, F0 + 2, F0 + 3, F0 + 4
F_POWER = F0 + 4              # F_POWER + power code (DIVINATOR = 1 ... TRICKSTER = 9)
F_MIN_REVEALS, F_KTH, F_REPLACEMENT, F_SKIP_ROUND = F0 + 14, F0 + 15, F0 + 16, F0 + 17
F_ORDER, F_PER_PLAYER, F_SELF_REVEAL = F0 + 18, F0 + 19, F0 + 20
N_COLS = N_KERNEL_COLUMNS
assert N_COLS == F0 + 21
# What the plain batch (kernel.plain_games: no events, artifacts, powers or self_reveal, nobody searching) writes
# into a record that arrives uninitialised: the counts it adds to (zeroed at a game's start), the early dragon's
# counts only when min_reveals > 0, and every other column it sets outright, except PLAIN_UNWRITTEN, which it
# never writes (their modules are compiled out): the batch reports those, and the table has zeros there.
PLAIN_SUMS = (C_TRUE, C_FALSE, C_CULTIST_LIES, C_HERO_LIES, C_VIOLATIONS)
EARLY_SUMS = (C_EARLY, F_MIN_REVEALS, F_KTH)
PLAIN_UNWRITTEN = (C_ARTIFACTS, C_POWERS, C_PEEKS, C_UNDOS) + tuple(
    j for j in range(F0, N_COLS) if j not in EARLY_SUMS)


@njit(cache=True, _nrt=False)
def record(trace, g, step, code, a, b, c, d):
    """Append an event to game g's trace when it is traced; returns the next step."""
    if g < trace.shape[0] and step < trace.shape[1]:
        row = trace[g, step]
        row[0] = code
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = d
        return step + 1
    return step


@njit(cache=True, _nrt=False)
def is_legal_target(p, s, rb, players, state, self_reveal):
    if p < 0 or p >= players or s < 0 or s >= MAX_HAND:
        return False
    return state[p, DOWN0 + s] == 1 and (p != rb or self_reveal)


@njit(cache=True, _nrt=False)
def kth_face_down(state, players, a, b, k):
    """The k-th face-down card (from 0, seat by seat and slot by slot) of the players other than a and b, as
    p * MAX_HAND + s; -1 past the last."""
    for p in range(players):
        if p != a and p != b:
            for s in range(MAX_HAND):
                if state[p, DOWN0 + s] == 1:
                    if k == 0:
                        return p * MAX_HAND + s
                    k -= 1
    return -1


@njit(cache=True, _nrt=False)
def random_target(rng, rb, players, state, self_reveal):
    """Uniform over the face-down cards the runebearer may reveal (replaces an illegal choice)."""
    skip = -1 if self_reveal else rb
    count = 0
    for p in range(players):
        if p != skip:
            for s in range(MAX_HAND):
                count += state[p, DOWN0 + s]
    return kth_face_down(state, players, skip, skip, below(rng, count))


@njit(cache=True, _nrt=False)
def random_card_except(rng, a, b, players, state):
    """Uniform over face-down cards of players other than a and b, -1 when none."""
    count = 0
    for p in range(players):
        if p != a and p != b:
            count += state[p, BOARD0 + B_DOWN]
    if count == 0:
        return -1
    return kth_face_down(state, players, a, b, below(rng, count))


@njit(cache=True, _nrt=False)
def legal_or_random(target, rng, q, players, state, own_ok, o):
    """(player, slot) of `target`, a face-down card q may act on (its own only when own_ok); an illegal choice
    is counted and replaced by a random legal card."""
    p = target // MAX_HAND if target >= 0 else -1
    s = target % MAX_HAND if target >= 0 else -1
    if not is_legal_target(p, s, q, players, state, own_ok):
        o[C_VIOLATIONS] += 1
        target = random_target(rng, q, players, state, own_ok)
        p = target // MAX_HAND
        s = target % MAX_HAND
    return p, s


@njit(cache=True, _nrt=False)
def show(state, p, s):
    """Everybody sees p's face-down card in slot s."""
    if state[p, SHOWN0 + s] == 0:
        state[PUB_ROW, P_SHOWN] += 1
    state[p, SHOWN0 + s] = state[p, CARDS0 + s] + 1


@njit(cache=True, _nrt=False)
def claim_contradicted(state, p, hand):
    """Whether what has been revealed of p's cards proves p's claim false."""
    cr = state[p, BOARD0 + B_CLAIM_RELICS]
    if cr < 0:
        return False
    cd = state[p, BOARD0 + B_CLAIM_DRAGON]
    return (state[p, BOARD0 + B_SHOWN_RELIC] > cr or state[p, BOARD0 + B_SHOWN_DRAGON] > cd
            or state[p, BOARD0 + B_SHOWN_GOLD] > hand - cr - cd)


@njit(cache=True, _nrt=False)
def count_violations(state, players, hand, reveals_round, relics_total, relics_found,
                     dragons, dragon_gone, aside, n_aside):
    """Cards conserved: face down plus set aside plus found equals the deck's contents."""
    relics = 0
    dragon = 0
    face_down = 0
    for i in range(n_aside):
        relics += aside[i] == RELIC
        dragon += aside[i] == DRAGON
    for p in range(players):
        for s in range(MAX_HAND):
            if state[p, DOWN0 + s] == 1:
                face_down += 1
                relics += state[p, CARDS0 + s] == RELIC
                dragon += state[p, CARDS0 + s] == DRAGON
            elif state[p, CARDS0 + s] != -1:
                return 1
    bad = 0
    bad += face_down != players * hand - reveals_round - n_aside
    bad += relics + relics_found != relics_total
    bad += dragon + dragon_gone != dragons
    return bad


@njit(cache=True, _nrt=False)
def tally_claim(o, state, p, hand, role, claim):
    """Count true and false claims (a claim is true when it states the hand exactly)."""
    relics = 0
    dragon = 0
    for s in range(hand):
        relics += state[p, CARDS0 + s] == RELIC
        dragon += state[p, CARDS0 + s] == DRAGON
    if claim == relics * 2 + dragon:
        o[C_TRUE] += 1
    else:
        o[C_FALSE] += 1
        if role == CULTIST:
            o[C_CULTIST_LIES] += 1
        else:
            o[C_HERO_LIES] += 1



# rows of the kernel's integer work array (kernel.play_batch allocates it)
W_ROLE_DECK, W_ROLE, W_DECK, W_CAUGHT, W_EVENTS, W_ASIDE, W_POWERS, W_ROWS = 0, 1, 2, 3, 4, 5, 6, 7

# rint: the rules as the kernel reads them (kernel.rule_ints packs them once per batch)
(R_PLAYERS, R_HERO_CARDS, R_CULTIST_CARDS, R_RELICS_TOTAL, R_DRAGONS, R_CARDS_PER_PLAYER, R_MIN_REVEALS,
 R_WAKE_FROM, R_SELF_REVEAL, R_EVENTS, R_N_EVENTS, R_GLUTTONY, R_CANDLES, R_FATES, R_POWERS, R_PER_PLAYER,
 R_POWER_CARDS, R_HUNTER_FLIPS, R_MENTOR_PEEKS, R_RUNESTONE, R_KTH, R_REPLACEMENT, R_SKIP_ROUND, R_REAL_EVENTS,
 R_SLOTS, R_ROUNDS, R_FULL, R_SIZE) = range(28)
# R_FULL: whether any module the plain batch compiles away is on (events, artifacts, powers, self_reveal)

# how each side's decisions are answered: through the strategy's functions, the random strategy inline, or by
# the search player (kernel_search)
CALL, IN_RANDOM, IN_SEARCH = 0, 1, 2

# prog: where a game stands, so that it can stop at a decision and be played on from a copy
(PR_ROUND, PR_PHASE, PR_CLAIM, PR_HUNTED, PR_ASIDE, PR_SILENT, PR_WINNER, PR_MODE, PR_DRAGON_OUT, PR_ROUNDS,
 PR_DRAWN, PR_STEP, PR_FORCED, PR_STOPPED, PR_CANDLES_OUT, PR_FATES_OUT, PR_SIZE) = range(17)
PH_ROUND, PH_CLAIM, PH_PICK = 0, 1, 2     # at a round's start; at claim number PR_CLAIM; at the runebearer's pick
NO_FORCE = -99                            # PR_FORCED when the next decision is not answered in advance
# PR_STOPPED: the seat whose search decision play_on stopped at, -1 when the game is over; PR_CANDLES_OUT and
# PR_FATES_OUT: artifacts revealed so far (public: the search deals the hidden cards from such counts)
