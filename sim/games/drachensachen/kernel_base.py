"""Drachensachen kernel, part 1: the state array and the helpers every part uses.

Layout. Nearly all state lives in one int64 array `st` at the S_* / ST_* offsets below, so helpers take
few arguments. A player's own cards are counted by type in their row of `v` (the row strategies read as
their view); face-down cards stay in deal order in `st[ST_HIDDEN + p * MAX_HIDDEN + i]` and are played
from the end. Strategies are called only from `play_round` and `deal_round` (kernel_round).

Also here: trace rows (`queue` and `flush` keep the trace array out of the hot helpers), bit helpers
(`lowest_bit`, `type_bits`, the type bits kept by `set_held` and `note`), what may go on the pile, the pile
itself and the redraw pile, the view a strategy reads (`round_view`, `fill_view`), a strategy's answer
checked, and the invariant check.
"""

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.engine.kernel_rows import put_row
from sim.games.drachensachen.records import (
    AB_ONE_ON_NINE, EXTERMINO, F_DRAW_LIMIT, G_PICKUPS, G_VIOLATIONS, MAX_DECK, MAX_HIDDEN, MAX_PLAYERS, NULLO,
    N_ABILITIES, N_GAME_COLS, N_RINT, N_TYPES, PROTECTO, R_HOUSE_PROTECTO, R_THREE_EQUAL, V_BEAT, V_DECK_LEFT,
    V_DIRECTION, V_DRAW, V_FEWEST, V_HAND, V_HAND_N, V_HIDDEN_N, V_LOST, V_LOW3, V_MOST_LOST, V_MULTI_PROTECTO,
    V_NEXT_CARDS, V_NO_DRAGON, V_NO_NINE, V_OPEN, V_OPEN_N, V_PHASE, V_PILE_N, V_PLAYERS, V_PREV_CARDS, V_ROUND,
    V_RUN_N, V_RUN_TYPE, V_SEAT, V_SKIP, V_STALL,
)


# ---- the state array ------------------------------------------------------------------------------
# scalars
S_BEAT, S_LOW3, S_NO_DRAGON, S_NO_NINE, S_DRAW, S_SKIP, S_FORCED, S_RUN_T, S_RUN_N, S_PILE_N = range(10)
S_DRAW_POS, S_DRAW_END, S_DIR, S_PLAYERS, S_ROUND, S_TRACING, S_TPOS, S_DECK_N, S_PENDING, S_QN = range(10, 20)
# who played the 5s now pending; a quick Nullo's extra turn comes next / is this turn; progress marks
S_SKIP_SRC, S_QUICK, S_QUICK_TURN, S_LOWMARK, S_SINCE = range(20, 25)
ST_R = 32                                   # the rule ints (records.R_*)
ST_COUNTS = ST_R + N_RINT                   # the deck's card counts by type
ST_QUEUE = ST_COUNTS + N_TYPES              # trace rows waiting for `flush`, 8 ints each
ST_G = ST_QUEUE + 8 * 8                     # this game's output row (records.G_*)
ST_PILE = ST_G + N_GAME_COLS                # pile by type
ST_OUT = ST_PILE + N_TYPES                  # cards out of the round by type
ST_SCRATCH = ST_OUT + N_TYPES               # invariant check
ST_LOSS = ST_SCRATCH + N_TYPES              # this round's losses by seat
ST_LOST = ST_LOSS + MAX_PLAYERS             # coins lost so far by seat
ST_SIZE = ST_LOST + MAX_PLAYERS             # this round's hand, hidden, open by seat
ST_CURSE = ST_SIZE + 3 * MAX_PLAYERS        # curse for the next round by seat (-1 none)
ST_ACTIVE = ST_CURSE + MAX_PLAYERS          # abilities in play
ST_ORDER = ST_ACTIVE + N_ABILITIES          # order the enabled abilities join in
ST_PICK = ST_ORDER + N_ABILITIES            # pile pick-ups by seat
ST_WENT = ST_PICK + MAX_PLAYERS             # rounds each seat went out first
ST_HELD = ST_WENT + MAX_PLAYERS             # card types in each seat's hand and open row, as bits (2 per seat)
ST_HIDDEN = ST_HELD + 2 * MAX_PLAYERS       # face-down cards by seat
ST_REDRAW = ST_HIDDEN + MAX_PLAYERS * MAX_HIDDEN
ST_DECK = ST_REDRAW + MAX_DECK
ST_REST = ST_DECK + MAX_DECK                # cards sitting the round out by type (unseen; counted in ST_OUT too)
ST_KNOWN = ST_REST + N_TYPES                # cards each seat is seen to hold in hand, by type (a search's lower bound)
ST_PSNAP = ST_KNOWN + MAX_PLAYERS * N_TYPES  # the pile before a move (the search's account of what is seen)
# the game as a resumable machine (kernel_game.game_on): where it stopped at a searching seat's decision (S_AT:
# AT_*), the seat, the turn's count, phase, pending ability and result, the options, the answer (an option row);
# the seats that are asked (bits); the game's stage (STAGE_*), round, starter, pick-ups before the round,
# abilities active and enabled; 1 when the machine stops at the round's end (a search's playout). (After the
# plain path's cells, which keep their offsets.)
S_AT, S_P, S_TURNS, S_PHASE, S_PEND, S_RES, S_NOPT, S_ANSWER = range(ST_PSNAP + N_TYPES, ST_PSNAP + N_TYPES + 8)
S_ASK, S_STAGE, S_RND, S_STARTER, S_PICKUPS0, S_NACTIVE, S_NENABLED, S_ROUND_ONLY = range(S_ANSWER + 1, S_ANSWER + 9)
# what a searching seat infers of the others' hands from their plays (the machine's search path only): per seat,
# the card types the part of its hand not seen taken (beyond ST_KNOWN) holds none of, as bits; the redraw pile's
# position before a move (a move that drew from it forgets the seat's bits)
ST_NOT = S_ROUND_ONLY + 1
S_DRAW_SNAP = ST_NOT + MAX_PLAYERS
ST_LEN = S_DRAW_SNAP + 1

# argument types of the helpers (explicit signatures: compiled once, no per-constant specialisations)
I = types.int64
B = types.boolean
ST = types.int64[::1]            # the state array
M2 = types.int64[:, ::1]         # moves and the view rows
A1 = types.int64[:]
A2 = types.int64[:, :]
A3 = types.int64[:, :, :]
F2 = types.float64[:, :]
TR = types.int16[:, :]
U1 = types.uint64[::1]
PAIR = types.UniTuple(types.int64, 2)

# what an action leads to
R_MORE, R_NEXT, R_EXTRA, R_OUT, R_MISSED = -1, 0, 1, 2, 3
# where the machine stopped (S_AT), what a round or the game returns when it stopped there, the game's stages
AT_NONE, AT_PLAY, AT_CHOICE, AT_SETUP = 0, 1, 2, 3
ASKED, DONE, ROUND_DONE = -2, -3, -4
STAGE_DEAL, STAGE_SETUP, STAGE_TURNS = 0, 1, 2

ALL_TYPES = 0b1111111111110          # bits 1..12
PUSH_DRAW = (1 << 4) | (1 << PROTECTO)
CANCEL_DRAW = (1 << NULLO) | (1 << EXTERMINO)
PUSH_SKIP = 1 << PROTECTO
BIG = 1 << 40
MONSTERS = 0b1111111110                # bits 1..9
DRAGONS = (1 << NULLO) | (1 << EXTERMINO) | (1 << PROTECTO)


# ---- small helpers -------------------------------------------------------------------------------


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of x (x != 0): one instruction (tzcnt), where a look-up table indexed by the
    bit modulo 37 took a multiplication, four more and a load in the loops over a hand's card types."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@njit(types.void(TR, ST, I, I, I, I, I, I, I, I), cache=True, _nrt=False)
def rec(tr, st, code, p, a, b, c, d, e, f):
    """Append a trace row when this game is traced (rows past the buffer are only counted)."""
    if st[S_TRACING] == 1:
        i = st[S_TPOS]
        if i < tr.shape[0]:
            put_row(tr, i, (code, p, a, b, c, d, e, f))
        st[S_TPOS] = i + 1


@njit(types.void(ST, I, I, I, I, I, I), cache=True, _nrt=False)
def queue(st, code, p, a, b, c, d):
    """Hold a trace row in the state until `flush` (keeps the trace array out of the hot helpers)."""
    if st[S_TRACING] == 1:
        i = ST_QUEUE + 8 * st[S_QN]
        st[i] = code
        st[i + 1] = p
        st[i + 2] = a
        st[i + 3] = b
        st[i + 4] = c
        st[i + 5] = d
        st[S_QN] += 1


@njit(types.void(TR, ST), cache=True, _nrt=False)
def flush(tr, st):
    for r in range(st[S_QN]):
        i = ST_QUEUE + 8 * r
        rec(tr, st, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5], 0, 0)
    st[S_QN] = 0


@njit(cache=True, _nrt=False, inline='always')
def checked(k, n, st):
    """A strategy's answer, or 0 (counted as a violation) when it is not one of the n options."""
    if k < 0 or k >= n:
        st[ST_G + G_VIOLATIONS] += 1
        return 0
    return k


@njit(I(M2, I), cache=True, _nrt=False)
def cards_left(v, p):
    return v[p, V_HAND_N] + v[p, V_OPEN_N] + v[p, V_HIDDEN_N]


@njit(cache=True, _nrt=False, inline='always')
def asks(st, p):
    """Seat p's decisions are asked (the machine stops at them: a searching seat)."""
    return (st[S_ASK] >> p) & 1 == 1


@njit(I(ST), cache=True, _nrt=False)
def legal_mask(st):
    """The card types that may go on the pile now, as bits 1..12."""
    beat = st[S_BEAT]
    if st[S_LOW3] == 1:
        m = 0b110 | (0b1000 if st[ST_R + R_THREE_EQUAL] == 1 else 0)
    else:
        m = MONSTERS & ~((1 << beat) - 1)
        if beat == 9 and st[ST_ACTIVE + AB_ONE_ON_NINE] == 1:
            m |= 0b10
    if st[S_NO_NINE] == 1:
        m &= ~(1 << 9)
    if st[S_NO_DRAGON] == 0:
        m |= DRAGONS
    return m


@njit(B(I, ST), cache=True, _nrt=False)
def fits(t, st):
    return (legal_mask(st) >> t) & 1 == 1


@njit(I(I, ST), cache=True, _nrt=False)
def step(p, st):
    """The next seat in the direction of play."""
    p += st[S_DIR]
    if p >= st[S_PLAYERS]:
        return p - st[S_PLAYERS]
    if p < 0:
        return p + st[S_PLAYERS]
    return p


@njit(types.void(ST), cache=True, _nrt=False)
def reset_pile_state(st):
    for i in range(S_BEAT, S_PILE_N + 1):
        st[i] = 0


@njit(types.void(ST), cache=True, _nrt=False)
def remove_pile(st):
    """The pile leaves the round (burn, Extermino); its effects go with it."""
    for t in range(1, N_TYPES):
        st[ST_OUT + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    reset_pile_state(st)


@intrinsic
def type_bits(typingctx, v, p, base, least):
    """The card types t (bits 1..12) of which p holds at least `least` in the part of the row starting at base
    (V_HAND or V_OPEN): one vector compare of sixteen counts (the row must reach base + 15), where a loop took
    twelve compares, sets, shifts and ors."""
    def codegen(context, builder, sig, args):
        row = context.make_array(sig.args[0])(context, builder, args[0])
        first = cgutils.get_item_pointer2(context, builder, data=row.data,
                                          shape=cgutils.unpack_tuple(builder, row.shape),
                                          strides=cgutils.unpack_tuple(builder, row.strides),
                                          layout=sig.args[0].layout, inds=[args[1], args[2]])
        vec = ir.VectorType(ir.IntType(64), 16)
        counts = builder.load(builder.bitcast(first, vec.as_pointer()), align=8)
        least = builder.insert_element(ir.Constant(vec, ir.Undefined), args[3], ir.Constant(ir.IntType(32), 0))
        least = builder.shuffle_vector(least, ir.Constant(vec, ir.Undefined),
                                       ir.Constant(ir.VectorType(ir.IntType(32), 16), [0] * 16))
        bits = builder.bitcast(builder.icmp_signed(">=", counts, least), ir.IntType(16))
        return builder.and_(builder.zext(bits, ir.IntType(64)), ir.Constant(ir.IntType(64), ALL_TYPES))

    return types.int64(v, p, base, least), codegen


@njit(types.void(M2, ST, I), cache=True, _nrt=False)
def set_held(v, st, p):
    """p's card types by bits (st[ST_HELD + 2p]: hand, + 1: open row), from the counts.

    The kernel keeps them in step with every change of a count (`note` and the bits set where cards come in)
    instead of finding them in every decision: that took twelve compares a decision, a tenth of a turn."""
    st[ST_HELD + 2 * p] = type_bits(v, p, V_HAND, 1)
    st[ST_HELD + 2 * p + 1] = type_bits(v, p, V_OPEN, 1)


@njit(cache=True, _nrt=False, inline='always')
def note(v, st, p, part, t):
    """After p's count of type t in the hand (part 0) or the open row (part 1) went down: its bit follows."""
    i = ST_HELD + 2 * p + part
    st[i] = (st[i] & ~(1 << t)) | ((v[p, V_HAND + part * (V_OPEN - V_HAND) + t] > 0) << t)


@njit(cache=True, _nrt=False, inline='always')
def take_pile(v, st, p):
    held = 0
    for t in range(1, N_TYPES):
        held |= (st[ST_PILE + t] > 0) << t
        v[p, V_HAND + t] += st[ST_PILE + t]
        st[ST_PILE + t] = 0
    st[ST_HELD + 2 * p] |= held
    v[p, V_HAND_N] += st[S_PILE_N]
    reset_pile_state(st)
    st[ST_G + G_PICKUPS] += 1
    st[ST_PICK + p] += 1


@njit(I(M2, ST, I, I), cache=True, _nrt=False)
def draw_cards(v, st, p, k):
    """Up to k cards from the redraw pile into p's hand; returns how many there were."""
    drawn = 0
    while drawn < k and st[S_DRAW_POS] < st[S_DRAW_END]:
        t = st[ST_REDRAW + st[S_DRAW_POS]]
        st[S_DRAW_POS] += 1
        v[p, V_HAND + t] += 1
        v[p, V_HAND_N] += 1
        st[ST_HELD + 2 * p] |= 1 << t
        drawn += 1
    st[ST_G + F_DRAW_LIMIT] += drawn < k
    return drawn


@njit(types.void(M2, ST, I), cache=True, _nrt=False)
def round_view(v, st, p):
    """The part of p's view that stays the same for a whole round, written once after the deal (a strategy
    reads its view and never writes it, so `fill_view` need not rewrite these before every decision)."""
    players = st[S_PLAYERS]
    v[p, V_SEAT] = p
    v[p, V_PLAYERS] = players
    v[p, V_ROUND] = st[S_ROUND]
    v[p, V_LOST] = st[ST_LOST + p]
    v[p, V_MULTI_PROTECTO] = st[ST_R + R_HOUSE_PROTECTO]
    most = -BIG
    for q in range(players):
        if q != p:
            most = max(most, st[ST_LOST + q])
    v[p, V_MOST_LOST] = most


@njit(cache=True, _nrt=False, inline='always')
def fill_view(v, st, p, phase):
    """Write the public part of p's view that may change within a round, just before a decision (own cards
    are kept there already, the rest by `round_view`)."""
    players = st[S_PLAYERS]
    v[p, V_PHASE] = phase
    v[p, V_BEAT] = st[S_BEAT]
    v[p, V_LOW3] = st[S_LOW3]
    v[p, V_NO_DRAGON] = st[S_NO_DRAGON]
    v[p, V_NO_NINE] = st[S_NO_NINE]
    v[p, V_DRAW] = st[S_DRAW]
    v[p, V_SKIP] = st[S_SKIP]
    v[p, V_RUN_TYPE] = st[S_RUN_T]
    v[p, V_RUN_N] = st[S_RUN_N]
    v[p, V_PILE_N] = st[S_PILE_N]
    v[p, V_DECK_LEFT] = st[S_DRAW_END] - st[S_DRAW_POS]
    v[p, V_DIRECTION] = st[S_DIR]
    v[p, V_STALL] = st[S_SINCE]
    nxt = step(p, st)
    prv = p - st[S_DIR]
    prv = prv - players if prv >= players else (prv + players if prv < 0 else prv)
    v[p, V_NEXT_CARDS] = v[nxt, V_HAND_N] + v[nxt, V_OPEN_N] + v[nxt, V_HIDDEN_N]
    v[p, V_PREV_CARDS] = v[prv, V_HAND_N] + v[prv, V_OPEN_N] + v[prv, V_HIDDEN_N]
    fewest = BIG
    for q in range(players):
        if q != p:
            fewest = min(fewest, v[q, V_HAND_N] + v[q, V_OPEN_N] + v[q, V_HIDDEN_N])
    v[p, V_FEWEST] = fewest


# ---- invariants ----------------------------------------------------------------------------------


@njit(I(M2, ST), cache=True, _nrt=False)
def count_faults(v, st):
    """Every card of the deck is in exactly one place, and the counters agree with the cards."""
    bad = 0
    pile_n = 0
    for t in range(N_TYPES):
        st[ST_SCRATCH + t] = st[ST_PILE + t] + st[ST_OUT + t]
        pile_n += st[ST_PILE + t]
    bad += pile_n != st[S_PILE_N]
    for q in range(st[S_PLAYERS]):
        hn = 0
        on = 0
        for t in range(1, N_TYPES):
            h = v[q, V_HAND + t]
            o = v[q, V_OPEN + t]
            bad += h < 0 or o < 0
            hn += h
            on += o
            st[ST_SCRATCH + t] += h + o
        bad += hn != v[q, V_HAND_N] or on != v[q, V_OPEN_N]
        bad += st[ST_HELD + 2 * q] != type_bits(v, q, V_HAND, 1)
        bad += st[ST_HELD + 2 * q + 1] != type_bits(v, q, V_OPEN, 1)
        for i in range(v[q, V_HIDDEN_N]):
            st[ST_SCRATCH + st[ST_HIDDEN + q * MAX_HIDDEN + i]] += 1
    for i in range(st[S_DRAW_POS], st[S_DRAW_END]):
        st[ST_SCRATCH + st[ST_REDRAW + i]] += 1
    bad += st[ST_SCRATCH] != 0
    for t in range(1, N_TYPES):
        bad += st[ST_SCRATCH + t] != st[ST_COUNTS + t]
    bad += st[S_RUN_N] < 0 or st[S_RUN_N] > 3 or st[S_DRAW] < 0 or st[S_SKIP] < 0 or st[S_FORCED] < 0
    return bad
