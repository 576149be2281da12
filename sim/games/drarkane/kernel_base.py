"""Drarkane kernel, part 1: the game state's layout and the helpers every part uses.

The state arrays' slots (gs: GS_* and the rule counters FD_*, ps: PS_*, hx: HX_*, zone: Z_*, the trick: T_*),
the codes of the built-in strategies the kernel runs inline, the trace row writer, card keys under a regime,
hands kept in step with their bit masks, option rows, and the public facts a strategy sees (`fill_state`).
Its numba functions are compiled `_nrt=False` and allocate nothing (kernel.py says why).
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from sim.engine.rng import mix, shuffle as rng_shuffle

from sim.games.drarkane.records import (
    CF_CONTRACT_MAX, CF_MODE, CF_N_DRAGONS, CF_PLAYERS, CF_SEATS, CF_TEAMS, CF_TRUMP, CF_ZONE_LIMIT, DECISIONS, EGG,
    EV_OVERFLOW, F, FIRED, MAX_CARDS, MAX_SEATS, MAX_ZONE, MERCENARY, M_CARD, M_COLOUR, M_KIND, M_MODE, M_SLOT, M_VALUE,
    M_WINS, N_COLOURS, OBSCURE, REG_HIGH, REG_LOW, REG_STD, S_BID, S_BIDS_SUM, S_CONTEXT, S_CONTRACT_MAX, S_DEALT,
    S_DRAGONS, S_DRAGONS_LEFT, S_HAND_N, S_LAST, S_LED, S_MODE, S_N_BIDS, S_OFFER, S_PARTNER, S_PARTNER_BID,
    S_PARTNER_OBJ, S_PARTNER_OBJ_COND, S_PARTNER_OBJ_PARAM, S_PARTNER_TRICKS, S_PLAYERS, S_POOL, S_POS, S_REGIME, S_RNG,
    S_ROUND, S_SEAT, S_SEATS, S_TRICK, S_TRICKS, S_TRUMP, S_WINNER, S_WINNER_PARTNER, S_ZONE_LIMIT, S_ZONE_N, WIZ_HIGH,
    WIZ_LOW,
)


# ---- scalar game state (gs) -----------------------------------------------------------------------
GS_ZONE_N = 0       # dragons in the zone
GS_POOL = 1         # Terror pool of the round
GS_TRICK = 2        # tricks played this round
GS_DPTR = 3         # next dragon card in the deck
GS_PILE = 4         # solo: next card of the draw pile
GS_PILE_N = 5       # solo: cards in the draw pile
GS_DISC = 6         # solo: cards in the discard pile
GS_AUTO_TERROR = 7  # Terror of dragons the Demon defeated
GS_LOST = 8         # the round ended with a full zone
GS_TS = 9           # trace row
GS_BAD = 10         # strategy answers out of range
GS_VIOL = 11        # invariant failures
GS_AUTO_PTR = 12    # Fallen King: next card of its deck
GS_TN = 13          # cards in the trick
GS_ROUND = 14
GS_FIRST = 15       # first player of the round
GS_TG = 16          # traced game index, -1 when not tracing
GS_BIDS_SUM = 17
GS_N_BIDS = 18
GS_ZOBJ_N = 19      # objectives in the Treasure zone
GS_LAST_WINNER = 20
GS_AUTO_TRICKS = 21
GS_DEF_TRICK = 22   # dragons defeated in this trick
GS_MAXRES_TRICK = 23
GS_COLS_TRICK = 24  # colours (bit mask) defeated in this trick
GS_STALEMATE = 25
GS_OBJ_DONE = 26    # objectives completed in the game
GS_PLAYED = 27      # cards played this round (invariant)
GS_AUTO_DEF = 28    # dragons the Fallen King or the Demon defeated this round
GS_DPILE = 29       # solo with separate piles: next card of the Demon's deck
GS_DPILE_N = 30     # solo with separate piles: cards in the Demon's deck
GS_SINK = 31        # play_trick: where a card without a counter of its own is counted (never read)
GS_ZSLOTS = 32      # the zone slots of each colour as bit masks (ZONE_BITS bits per colour), kept by reveal/defeat
# the round as a resumable machine (only when a seat searches: play_round's `search`): where it stopped
GS_PHASE = 33       # PH_*
GS_STEP = 34        # the phase's step: the bidder, the drafter, the opening exchange's give (2 * pair + step)
GS_T = 35           # the trick (0-based) and its step (TS_*), its leader, winner and winning position
GS_TSTEP = 36
GS_LEADER = 37
GS_TWIN = 38
GS_TWPOS = 39
GS_PDONE = 40       # placement: 1 + the trick positions placed or discarded (0: not begun)
GS_XSTEP = 41       # trick exchange: 0 the offer, 1 the reply; and the slot of the card offered
GS_XSLOT = 42
GS_DCARRY = 43      # draft: objectives carried to the next drafter (in zobj), objectives dealt
GS_DDEALT = 44
GS_ANSWER = 45      # 1 + the answer to the pending question (0: none)
GS_Q = 46           # the pending question (ask), its options and its option rows
GS_QN = 47
GS_QROWS = 48
GS_VOID = 49       # gs[GS_VOID + s]: colours (bit mask) seat s showed it lacks this round (not following suit)
GS_F0 = GS_VOID + MAX_SEATS     # rule counters (records.FIRED): gs[GS_F0 + F[name]], copied to the fired_* columns
# what the search reads of the teams' exchanges and of the cards played (kept only by the round machine: kernel_search)
GS_GAVE = GS_F0 + len(FIRED)    # gs[GS_GAVE + s]: the cards (bit mask) seat s gave its partner this round
GS_XIN = GS_GAVE + MAX_SEATS    # the cards seat s received from its partner after the contracts, net of those
                                # given back
GS_XOUT = GS_XIN + MAX_SEATS    # the cards seat s gave its partner after the contracts, net of cards given back
GS_XN = GS_XOUT + MAX_SEATS     # the swaps seat s took part in after the contracts (public: a count, not the cards)
GS_BY = GS_XN + MAX_SEATS       # the cards (bit mask) seat s played this round
GS_SIZE = GS_BY + MAX_SEATS

# gs slots of the rule counters
FD_KNIGHT = GS_F0 + F["knight"]     # knight, queen, king follow (strength 11, 12, 13)
FD_MERC = GS_F0 + F["mercenary_high"]   # mercenary_low follows (mode 1)
FD_EGG = GS_F0 + F["egg"]
FD_WIZ_LOW = GS_F0 + F["wizard_low"]
FD_WIZ_HIGH = GS_F0 + F["wizard_high"]
FD_WIZ_CANCEL = GS_F0 + F["wizards_cancel"]
FD_DEFEAT = GS_F0 + F["dragon_defeat"]
FD_DISCARDED = GS_F0 + F["card_discarded"]
FD_DEMON_DEFEAT = GS_F0 + F["demon_defeat"]
FD_RESHUFFLE = GS_F0 + F["solo_reshuffle"]
FD_ZONE_LIMIT = GS_F0 + F["zone_limit"]
FD_NEAR = GS_F0 + F["near_miss"]
FD_HALF = GS_F0 + F["half_terror_rounding"]
FD_EGG_LOW = GS_F0 + F["egg_loses_under_low_wizard"]
FD_AUTO_MERC = GS_F0 + F["automaton_mercenary_high"]
FD_FK = GS_F0 + F["fallen_king"]
FD_FK_TERROR = GS_F0 + F["fallen_king_terror"]
FD_FK_LEAD = GS_F0 + F["fallen_king_may_lead"]
FD_FK_DRAGONS = GS_F0 + F["fallen_king_dragons_count"]
FD_PLACE_ORDER = GS_F0 + F["placement_order"]
FD_TEAMS = GS_F0 + F["teams"]
FD_OPEN_EXCHANGE = GS_F0 + F["team_opening_exchange"]
FD_EXCH_RETURN = GS_F0 + F["team_exchange_may_return"]
FD_TRICK_EXCHANGE = GS_F0 + F["team_trick_exchange"]
FD_TRICK_SWAP = GS_F0 + F["team_trick_swap"]
FD_TREASURES = GS_F0 + F["treasures"]
FD_OBJ_FIRST = GS_F0 + F["objectives_before_contracts"]
FD_PARTNER_OBJ = GS_F0 + F["partner_objective_seen"]
FD_SOLO_EVERY = GS_F0 + F["solo_dragon_every_trick"]
FD_SOLO_PILE = GS_F0 + F["solo_shared_pile"]
FD_SOLO_80 = GS_F0 + F["solo_80_is_legend"]
FD_OBJ0 = GS_F0 + F["objective_00"]
N_FIRED = len(FIRED)

# ---- per seat (ps) ----------------------------------------------------------------------------
PS_BID = 0
PS_TRICKS = 1
PS_DEF = 2          # dragons defeated this round
PS_TERROR = 3       # Terror of those dragons
PS_COLOURS = 4      # colours of those dragons (bit mask)
PS_STREAK = 5       # tricks won in a row
PS_TREASURE = 6     # Treasure points earned this round (paid if the round is not lost)
PS_TOTAL = 7        # game score
PS_OBJ = 8          # personal objective, -1 if none
PS_OBJ_DONE = 9
PS_SCORE = 10       # round score
PS_EXACT = 11       # exact contracts in the game
PS_WON_LAST = 12
PS_OBJ_COND = 13    # personal objective's condition and parameter (what a partner is shown)
PS_OBJ_PARAM = 14
PS_SIZE = 16

# card ids are 0..63: `c & ID_MASK` is the same id, and numba, seeing it cannot be negative, drops its
# negative-index fix-up (three instructions) from every table look-up in the hot loops below
ID_MASK = MAX_CARDS - 1
SEAT_MASK = 7        # seats are 0..MAX_SEATS - 1 < 8: `s & SEAT_MASK` likewise
NO_KEY = -(1 << 50)     # the seeker's composite keys: below any real one
FAR = np.int64(1) << 52  # a rejected option's key is pushed this far out of reach (below NO_KEY, above -NO_KEY)
ZONE_BITS = MAX_ZONE     # place_inline: bits per colour in its mask of zone slots (4 colours x 16 <= 64)
PAIR_SHIFT = 4           # place_inline: 1 << PAIR_SHIFT bits per trick position in its pair masks
PAIR_BITS = 1 << PAIR_SHIFT
assert MAX_ZONE <= PAIR_BITS and MAX_SEATS <= 8     # two 64-bit masks hold every (card, slot) pair of a trick

# card_loc[c]: where card c is (-1 hand or pile, -2 discarded, else the dragon it lies on);
# card_loc[ON_DRAGON + d]: bit mask of the cards lying on dragon d (card ids < MAX_CARDS = 64)
ON_DRAGON = MAX_CARDS

# hx: the hands of a table game as bit masks of card ids and each card's slot in its holder's hand (kept in step
# with `hand` by deal_card / take_slot / the exchanges), and per-batch card masks by colour (build_hx). Following
# suit is then one test of the hand's mask, and the seeker folds only its legal cards.
HX_BITS = 0                         # hx[HX_BITS + s]: the cards in seat s's hand
HX_SLOT = HX_BITS + MAX_SEATS       # hx[HX_SLOT + c]: card c's slot in its holder's hand
HX_COLOUR = HX_SLOT + MAX_CARDS     # hx[HX_COLOUR + colour]: the cards of that colour (arcana)
HX_NONE = HX_COLOUR + N_COLOURS     # the cards without a colour (legal on any lead)
HX_MERC = HX_NONE + 1               # the Mercenaries (a second option each: played as 0)
HX_SIZE = HX_MERC + 1

# zone columns: the dragon, the strength on it, and copies of its colour, resistance and Terror (placement
# reads them in the slot's row instead of after a second, dependent load)
Z_ID, Z_DMG, Z_COL, Z_RES, Z_TERROR = 0, 1, 2, 3, 4
# and the row of the greedy placement's rank table (`build_ranks`) for the resistance left on it:
# dragon * RANK_W + RANK_OFF + resistance - strength on it (a card of value v then reads entry Z_RB - v)
Z_RB = 5
Z_COLS = 6
RANK_W = 64         # entries per dragon in the rank table: resistance left after a card, from -RANK_OFF
RANK_OFF = 16
# trick columns
T_CARD, T_MODE, T_SEAT = 0, 1, 2

# built-in strategies the kernel runs inline (`codes[decision, seat]`; CALL: call the seat's function).
# Inline, a decision needs no option rows and no indirect call; it makes the same choice from the same
# facts (with the formulas it shares with strategies/drarkane.py) and draws the same random numbers.
D_BID, D_PLAY, D_PLACE = 0, 1, 2
CALL = 0
# rows of `codes` after the decisions': the inline seeker's per-seat habits, known once per batch
C_CHEAP = len(DECISIONS)        # follow_cheap and a short table: a follower takes the trick with its cheapest winner
C_LEAD_TL = C_CHEAP + 1         # lead_trumps_last and a short table: a leader under its contract leads trumps last
CODE_ROWS = C_LEAD_TL + 1
BID_ESTIMATE, BID_RANDOM = 1, 2
PLAY_SEEKER, PLAY_RANDOM = 1, 2
PLACE_GREEDY, PLACE_SPREAD, PLACE_SABOTEUR, PLACE_RANDOM, PLACE_AUTO = 1, 2, 3, 4, 5
# the search player (kernel_search), in every decision row: the round machine stops and asks
D_GIVE, D_DRAFT = 3, 4
SEARCH = 9

# the round machine's phases and a trick's steps (play_round with `search`)
PH_DEAL, PH_DRAFT_FIRST, PH_EXCHANGE, PH_BID, PH_DRAFT_AFTER, PH_TRICKS = 0, 1, 2, 3, 4, 5
TS_REVEAL, TS_PLAY, TS_PLACE, TS_EXCHANGE = 0, 1, 2, 3


# ---- small helpers ----------------------------------------------------------------------------------


@intrinsic
def popcount(typingctx, x):
    """Number of bits set in an integer (one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, _nrt=False)
def shuffle(state, a, n):
    """Shuffle with the game's own random stream (a cell of `state`, shared with the strategies)."""
    rng_shuffle(state[S_RNG:S_RNG + 1], a, n)


@njit(cache=True, _nrt=False)
def rec(trace, gs, code, a, b, c, d):
    """Append one trace row for the traced game (no-op otherwise)."""
    g = gs[GS_TG]
    if g < 0:
        return
    t = gs[GS_TS]
    last = trace.shape[1] - 1
    if t >= last:
        trace[g, last, 0] = EV_OVERFLOW
        return
    trace[g, t, 0] = code
    trace[g, t, 1] = a
    trace[g, t, 2] = b
    trace[g, t, 3] = c
    trace[g, t, 4] = d
    gs[GS_TS] = t + 1


@njit(cache=True, _nrt=False)
def regime_of(nlow, nhigh):
    if nlow > 0 and nhigh == 0:
        return REG_LOW
    if nhigh > 0 and nlow == 0:
        return REG_HIGH
    return REG_STD     # no Wizard, or both (they cancel)


@njit(cache=True, _nrt=False)
def card_key(c, m, reg, led, kind, colour, value, trump, egg_low):
    """How strongly a played card claims the trick under a regime; -1 when it cannot win."""
    k = kind[c]
    if k == WIZ_LOW or k == WIZ_HIGH:
        return -1
    if k == EGG or (k == MERCENARY and m == 1):
        if reg == REG_LOW and egg_low == 0:
            return 1000     # value 0 is the lowest of all
        return -1
    v = value[c]
    if reg == REG_LOW:
        return 1000 - v
    if reg == REG_HIGH:
        return v
    if k == OBSCURE or k == MERCENARY:
        return 3000 + v
    s = colour[c]
    if s == trump:
        return 2000 + v
    if s == led:
        return 1000 + v
    return -1


@njit(cache=True, _nrt=False)
def option_row(moves, n, c, m, k, col, v, wins, slot):
    """Row n of the option rows: card c played in mode m (kind, colour and value as the row shows them)."""
    moves[n, M_CARD] = c
    moves[n, M_MODE] = m
    moves[n, M_KIND] = k
    moves[n, M_COLOUR] = col
    moves[n, M_VALUE] = v
    moves[n, M_WINS] = wins
    moves[n, M_SLOT] = slot


@njit(cache=True, _nrt=False)
def hand_rows(hand, hand_n, s, kind, colour, value, moves):
    """Seat s's hand as option rows (bids and exchanges)."""
    for i in range(hand_n[s]):
        c = hand[s, i]
        option_row(moves, i, c, 0, kind[c], colour[c], value[c], 0, i)
    return hand_n[s]


@njit(cache=True, _nrt=False)
def remove_slot(hand, hand_n, s, i):
    last = hand_n[s] - 1
    hand[s, i] = hand[s, last]
    hand_n[s] = last


@njit(cache=True, _nrt=False)
def card_bit(c):
    return np.int64(1) << (c & ID_MASK)


@njit(cache=True, _nrt=False)
def deal_card(hand, hand_n, hx, s, c):
    """Card c joins the end of seat s's hand (table games: `hx` kept in step)."""
    i = hand_n[s]
    hand[s, i] = c
    hand_n[s] = i + 1
    hx[HX_SLOT + (c & ID_MASK)] = i
    hx[HX_BITS + s] |= card_bit(c)


@njit(cache=True, _nrt=False)
def deal_hand(hand, hand_n, hx, s, deck, pos, cnt):
    """Seat s's whole hand: deck[pos:pos + cnt], as deal_card card by card into an empty hand (the count and the
    mask kept in registers, not read back from the arrays after every card)."""
    bits = np.int64(0)
    for i in range(cnt):
        c = deck[pos + i]
        hand[s, i] = c
        hx[HX_SLOT + (c & ID_MASK)] = i
        bits |= card_bit(c)
    hand_n[s] = cnt
    hx[HX_BITS + s] = bits


@njit(cache=True, _nrt=False)
def take_slot(hand, hand_n, hx, s, i):
    """remove_slot for a table game, `hx` kept in step: the last card moves into slot i."""
    last = hand_n[s] - 1
    c = hand[s, i]
    moved = hand[s, last]
    hand[s, i] = moved
    hx[HX_SLOT + (moved & ID_MASK)] = i
    hx[HX_BITS + s] &= ~card_bit(c)
    hand_n[s] = last


@njit(cache=True, _nrt=False)
def put_slot(hand, hx, s, i, c):
    """Card c replaces the card in slot i of seat s's hand (a swap of the teams' trick exchange)."""
    old = hand[s, i]
    hand[s, i] = c
    hx[HX_SLOT + (c & ID_MASK)] = i
    hx[HX_BITS + s] = (hx[HX_BITS + s] & ~card_bit(old)) | card_bit(c)


@njit(cache=True, _nrt=False)
def imax(a, b):
    return a if a > b else b


@njit(cache=True, _nrt=False)
def imin(a, b):
    return a if a < b else b


@njit(cache=True, _nrt=False)
def partner_of(cf, s):
    if cf[CF_TEAMS] == 0:
        return -1
    p = s + cf[CF_PLAYERS] // 2           # (s + half) % players, without a division
    return p - cf[CF_PLAYERS] if p >= cf[CF_PLAYERS] else p


@njit(cache=True, _nrt=False)
def fill_table(state, cf, gs, dealt):
    """The public facts that are the same for every seat at this moment."""
    state[S_PLAYERS] = cf[CF_PLAYERS]
    state[S_SEATS] = cf[CF_SEATS]
    state[S_ROUND] = gs[GS_ROUND]
    state[S_TRICK] = gs[GS_TRICK]
    state[S_DEALT] = dealt
    state[S_ZONE_N] = gs[GS_ZONE_N]
    state[S_ZONE_LIMIT] = cf[CF_ZONE_LIMIT]
    state[S_DRAGONS_LEFT] = cf[CF_N_DRAGONS] - gs[GS_DPTR]
    state[S_POOL] = gs[GS_POOL]
    state[S_BIDS_SUM] = gs[GS_BIDS_SUM]
    state[S_N_BIDS] = gs[GS_N_BIDS]
    state[S_CONTEXT] = 0
    state[S_OFFER] = -1
    state[S_MODE] = cf[CF_MODE]
    state[S_TRUMP] = cf[CF_TRUMP]
    state[S_CONTRACT_MAX] = cf[CF_CONTRACT_MAX]


@njit(cache=True, _nrt=False)
def fill_seat(state, s, cf, ps, hn):
    """The public facts of seat s (holding hn cards) and its partner; returns the partner (-1: none)."""
    state[S_SEAT] = s
    state[S_HAND_N] = hn
    state[S_BID] = ps[s, PS_BID]
    state[S_TRICKS] = ps[s, PS_TRICKS]
    state[S_DRAGONS] = ps[s, PS_DEF]
    p = partner_of(cf, s)
    state[S_PARTNER] = p
    state[S_PARTNER_BID] = ps[p, PS_BID] if p >= 0 else -1
    state[S_PARTNER_TRICKS] = ps[p, PS_TRICKS] if p >= 0 else -1
    state[S_PARTNER_OBJ] = ps[p, PS_OBJ] if p >= 0 else -1     # partners show each other their objective
    state[S_PARTNER_OBJ_COND] = ps[p, PS_OBJ_COND] if p >= 0 else 0
    state[S_PARTNER_OBJ_PARAM] = ps[p, PS_OBJ_PARAM] if p >= 0 else 0
    return p


@njit(cache=True, _nrt=False)
def fill_state(state, s, cf, gs, ps, hand_n, dealt):
    """The public facts every decision sees (outside a trick: no card played yet)."""
    fill_table(state, cf, gs, dealt)
    fill_seat(state, s, cf, ps, hand_n[s])
    state[S_POS] = 0
    state[S_LAST] = 0
    state[S_LED] = -1
    state[S_WINNER] = -1
    state[S_WINNER_PARTNER] = 0
    state[S_REGIME] = REG_STD


@njit(cache=True, _nrt=False)
def checked(i, lo, hi, gs):
    """A strategy's answer, or `lo` (counted as a bad decision) when out of range."""
    if i < lo or i >= hi:
        gs[GS_BAD] += 1
        return lo
    return i


@njit(cache=True, _nrt=False)
def new_game(seed, g, traced, state, gs, ps):
    """Game g of a batch from `seed`: its own random stream (same seed and index, same deals), the state cleared, the
    totals at 0; `traced`: it writes its trace."""
    state[S_RNG] = mix(seed, g)
    gs[:] = 0
    gs[GS_TG] = g if traced else -1
    for s in range(MAX_SEATS):
        ps[s, PS_TOTAL] = 0
        ps[s, PS_EXACT] = 0


@njit(cache=True, _nrt=False)
def ask(gs, decision, s, n, rows):
    """The round machine stops: seat s must choose among n options (rows: the option rows behind them). Returns
    the question, decision * MAX_SEATS + s (the caller saves where it stopped)."""
    q = decision * MAX_SEATS + s
    gs[GS_Q] = q
    gs[GS_QN] = n
    gs[GS_QROWS] = rows
    return q


@njit(cache=True, _nrt=False)
def by_question(code, gs):
    """Whether a decision goes by the question: its seat searches (a question is asked, or its answer taken), or
    an answer is pending (a playout's first decision, kernel_search: whatever the seat's code there)."""
    return code == SEARCH or gs[GS_ANSWER] != 0


@njit(cache=True, _nrt=False)
def answer(gs):
    """The pending question's answer, or -1 when none is pending; taken (the machine goes on from there)."""
    a = gs[GS_ANSWER] - 1
    gs[GS_ANSWER] = 0
    return a


@njit(cache=True, _nrt=False)
def shuffled_ids(state, a, n, gs, trace, code):
    """a[:n] = 0..n-1 in the order of the game's stream (a deck of dragons or objectives), traced as `code` rows."""
    for i in range(n):
        a[i] = i
    shuffle(state, a, n)
    if gs[GS_TG] >= 0:
        for i in range(n):
            rec(trace, gs, code, i, a[i], 0, 0)
