"""Drarkane numba kernel: whole batches of games (normal, Fallen King, solo; teams and Treasures).

`play_batch` plays n games from one seed and fills the games and rounds tables; the first
`trace.shape[0]` games also write their action trace. Game state lives in a few preallocated int64
arrays: `gs` (scalars, GS_*), `ps` (per seat, PS_*), `zone` (dragons in the battle zone: id, damage, Z_*),
`tr` (the trick: card, mode, seat). Nothing is allocated inside the per-game loop.

The kernel's parts, each importing only those before it: kernel_base (the state's layout, small helpers, the
facts a strategy sees), kernel_zone (the battle zone: dragons, placement, defeats), kernel_trick (playing a
trick, the per-batch tables it reads), kernel_score (Treasures, round scores, the table rows), kernel_round (a
round of the table game, a solo game), kernel_search (the search player) and this module: the batch (`run_batch`,
`play_batch_jit`, `play_batch`) and the choice of the built-in strategies that run inline.

A round is a resumable machine (play_round and play_solo with `search`): at a decision of a seat coded SEARCH
(the search strategy) it stops and returns the question, and goes on from there with the answer; kernel_search
copies the arrays at a question and plays each option on from the copy. The batch plays its games through the
machine only when a seat searches; otherwise run_batch inlines play_round with `search` False, a constant that
compiles the machine's code away: the plain path is the kernel it was.

Speed notes (measured with perf on this kernel):
- numba increments and decrements an array's reference count (an atomic instruction) whenever an array
  enters a function or a variable; that was about 40% of the time. `play_batch_jit` owns the arrays and hands
  `run_batch` *borrowed* views (`borrow`: same data, null meminfo), for which those calls do nothing.
- borrowed views still left calls to NRT_incref/NRT_decref (on a null pointer): every function below
  `play_batch_jit` (except the per-batch table builders) is compiled `_nrt=False`, which drops them (about
  1.3x faster games). Those functions may not allocate.
- the built-in bid, play and placement strategies run inline. `play_batch` (Python) recognises them by
  identity (`INLINE`) and passes `codes[decision, seat]`; such a decision builds no option rows, writes no
  strategy state and makes no indirect call: it computes the same choice from the kernel's own data, with
  the formulas it shares with strategies/drarkane.py (`card_power`, `seeker_aim`, `greedy_key`,
  `spread_key`, `card_worth`, `estimate_contract`) and the same random draws. Any other function (a user's
  strategy) is called as before with its option rows and state. `INLINE_BUILTINS = False` calls every
  function instead; both give the same games (check both after changing a built-in strategy). About 1.9x.
  - play: options are scanned in the order the strategy would see them (hand order, a Mercenary as 14 then
    as 0); the seeker's choice is a max/min over integer keys that hold the power and then the option index
    (first among equals), so no unpredictable branch is taken per card.
  - placement (`place_inline`, also the Fallen King's): the open (card, dragon) pairs are two bit masks,
    built from per-colour masks of the zone slots at the start and after a defeat (where a card no dragon
    can take is discarded); each decision scans their set bits; zone rows carry a copy of the dragon's
    colour, resistance and Terror.
  - no branch depends on a card inside the seeker's and the random player's loops: the seeker's tests are
    sign masks, follow-suit legality is read from `follows` (built once per batch), the random pick is
    found by selects rather than an early exit, and LLVM's x86 cmov converter is off (sim/_numba_cache.py),
    since it turned the seeker's running max back into a branch. Under callgrind (docs/ENGINE-GUIDE.md)
    these took a third of the mispredicted branches out of a seeker game.
  - bids: each seat's card worths and seat factor are tabled once per batch (`build_worths`).
- a table game's tricks run in `play_trick`: the trick's standing (regime, led colour, best key) is updated
  card by card, and card keys are read from a table built once per batch (`build_keys`) instead of
  recomputing the whole trick for every candidate card. `choose_card` / `trick_eval` / `legal_moves` remain
  the reference versions (solo games and the tests use them).
- the cards lying on each dragon are a bit mask (`card_loc[ON_DRAGON + d]`), so a defeat does not scan
  every card; `c & ID_MASK` in the hot loops lets numba drop its negative-index fix-up.
- the tables are written in their own types, one column-major block per type (records.GAME_BLOCKS, ROUND_BLOCKS;
  a game's row is summed in a scratch row first): the int32 records they replaced, their page clearing and the
  copies into the tables' types took about a tenth of a batch's time. record_round, score_round and
  finish_game are inlined (their array arguments cost more than their work).
`play_round`, `play_trick`, `place_trick` and `place_inline` are inlined at numba's IR level (`inline='always'`:
their ~15-20 array arguments cost a few hundred pushes per call), and so are the few helpers that return a view
(`follow_row`, `search_stream`: a plain call may not, under `_nrt=False`). The small helpers (trace rows, card
keys, up to ~25 lines) are plain calls, which LLVM inlines: as fast, with the same games, and a quarter less to
compile (docs/ENGINE-GUIDE.md). Inlining the other large ones made compiling several times slower.
Not done yet: hands as bit masks (has-led and legality without a scan), per-seat colour counts; the seeker's
loop still reloads spilled values from the stack on every card (play_round is one large function).
"""

import numpy as np
from numba import literal_unroll, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from sim.engine.dispatch import call
from sim.engine.playouts import informed_playouts
from sim.engine.rng import mix
from sim.engine.strategy import compile_now, compile_part, compile_pending, njit_later
from strategies import drarkane as builtin
from strategies.drarkane import FOLLOW_CHEAP, LEAD_TRUMPS_LAST, SHORT_FROM, card_worth, rivals_factor

from sim.games.drarkane.records import (
    CARD_COLS, CF_CHECK, CF_EGG_LOW, CF_MODE, CF_NEAR, CF_N_DRAGONS, CF_PLAYERS, CF_ROUNDS, CF_SEATS, CF_TRUMP,
    DECISIONS, EV_GAME_END, GAME_COLUMNS, GAME_SLOTS, MAX_CARDS, MAX_DRAGONS, MAX_HAND, MAX_MOVES, MAX_OBJECTIVES,
    MAX_PAIRS, MAX_SEATS, MAX_ZONE, MODE_SOLO, N_COLOURS, OBJ_COLS, PLACE_COLS, SEAT_FNS, STATE_SIZE,
)
from sim.games.drarkane.kernel_base import (
    BID_ESTIMATE, BID_RANDOM, CODE_ROWS, C_CHEAP, C_LEAD_TL, D_BID, D_PLACE, D_PLAY, GS_AUTO_TRICKS, GS_BAD, GS_F0,
    GS_FIRST, GS_LOST, GS_OBJ_DONE, GS_POOL, GS_ROUND, GS_SIZE, GS_STALEMATE, GS_TRICK, GS_VIOL, HX_SIZE, N_FIRED,
    ON_DRAGON, PLACE_GREEDY, PLACE_RANDOM, PLACE_SABOTEUR, PLACE_SPREAD, PLAY_RANDOM, PLAY_SEEKER, PS_BID, PS_DEF,
    PS_SCORE, PS_SIZE, PS_TERROR, PS_TREASURE, PS_TRICKS, RANK_OFF, RANK_W, SEARCH, Z_COLS, new_game, rec,
)
from sim.games.drarkane.kernel_zone import build_ranks
from sim.games.drarkane.kernel_trick import build_follows, build_hx, build_keys, build_powers
from sim.games.drarkane.kernel_score import (
    G_AUTO_TRICKS, G_BAD, G_CONTRACTS, G_DEFEATED, G_EXACT, G_F0, G_LOST, G_MISSED, G_MODE, G_NEAR, G_OBJ_DONE,
    G_ROUNDS, G_SEATS, G_SOLO_RANK, G_SOLO_SCORE, G_SOLO_TRICKS, G_STALEMATE, G_TERROR, G_TREASURE, G_TRICKS, G_VIOL,
    finish_game, record_round,
)
from sim.games.drarkane.kernel_round import next_first, play_round, play_solo, solo_rank
from sim.games.drarkane import kernel_search as ks
from sim.games.drarkane.kernel_search import (
    DRIVER_WORDS, MAX_PILE, SEARCH_SEED, SS_DECISIONS, SS_RNG, SS_SIZE, searched_round,
)


INLINE = (
    (D_BID, builtin.bid_estimate, BID_ESTIMATE), (D_BID, builtin.bid_random, BID_RANDOM),
    (D_PLAY, builtin.play_seeker, PLAY_SEEKER), (D_PLAY, builtin.play_random, PLAY_RANDOM),
    (D_PLACE, builtin.place_greedy, PLACE_GREEDY), (D_PLACE, builtin.place_spread, PLACE_SPREAD),
    (D_PLACE, builtin.place_saboteur, PLACE_SABOTEUR), (D_PLACE, builtin.place_random, PLACE_RANDOM),
)
INLINE_BUILTINS = True      # False: every decision calls its strategy function (to check the inline paths)
SLOTS8, SLOTS16, SLOTS32 = (GAME_SLOTS[t] for t in (np.int8, np.int16, np.int32))
N_GAME_COLS = len(GAME_COLUMNS)
assert len(GAME_SLOTS) == 3


@intrinsic
def borrow(typingctx, arr):
    """A view of `arr` without a reference count (its meminfo is null).

    numba increments and decrements an array's reference count (atomic operations) every time the array
    enters a function or a variable, which cost more than a third of the kernel's time. The kernel works on
    borrowed views; the caller keeps the owning arrays alive until the batch is done."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, value=args[0])
        dst = context.make_array(sig.return_type)(context, builder)
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
        dst.nitems = src.nitems
        dst.itemsize = src.itemsize
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        return dst._getvalue()

    return arr(arr), codegen


# the games' int8, int16 and int32 blocks and the rounds' int8 and int16 blocks (records.GAME_BLOCKS, ROUND_BLOCKS):
# any layout (the caller's are column-major; a one-row table is C-contiguous as well, and numba types it as such);
# then the playouts' functions, parameters and codes (the search player's, kernel_search), the informed playouts'
# (a search seat's `informed` = 1: the line-up's), and the search's counts (written: kernel_search.SS_*)
KERNEL_SIG = types.int64(
    types.int64, types.int64, types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1],
    types.int64[::1], types.int64[:, ::1], types.int64[:, ::1], SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS,
    types.float64[:, ::1], types.int64[:, ::1], types.int8[:, :], types.int16[:, :], types.int32[:, :],
    types.int8[:, :], types.int16[:, :], types.int16[:, :, ::1],
    SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, types.float64[:, ::1], types.int64[:, ::1],
    SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, SEAT_FNS, types.float64[:, ::1], types.int64[:, ::1], types.int64[::1])


@njit(cache=True, _nrt=False)
def run_batch(seed, n, cf, kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob, bid_fns, play_fns,
              place_fns, give_fns, draft_fns, params, codes, g8, g16, g32, r8, r16, trace, row, hand, hand_n, hx, zone, gs,
              ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard, played, plays, sc, ss,
              searched, solo):
    """The batch's games. A game's row is summed in `row` (records.G), then written to the games table's blocks
    g8, g16 and g32. `plays` (the playouts' and the informed playouts'), sc and ss are the search player's
    (kernel_search.searched_round, passed as `searched`, a first-class function: a plain run passes
    `no_search_round` and never compiles the search player); sc has one word when no seat searches, and the games
    are then played by play_round's plain path. `solo` plays a solo game without a searching seat: `solo_game`, or
    `no_search_round` in a table game (which then never compiles play_solo, a sixth of the kernels' compile)."""
    mode = cf[CF_MODE]
    players = cf[CF_PLAYERS]
    n_rounds = cf[CF_ROUNDS]
    n_traced = trace.shape[0]
    searching = sc.shape[0] > 1
    tables = (kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob)
    work = (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
            played)
    fns = (bid_fns, play_fns, place_fns, give_fns, draft_fns)
    for g in range(n):
        new_game(seed, g, g < n_traced, state, gs, ps)
        row[:] = 0
        if searching:
            search_seed(ss, seed, g)
        if mode == MODE_SOLO:
            if searching:
                searched(cf, tables, work, fns, params, codes, trace, plays, sc, ss)
            else:
                solo(cf, tables, work, fns, params, codes, trace, plays, sc, ss)
            rank = solo_rank(cf, ps[0, PS_SCORE])
            record_round(g, cf, gs, ps, r8, r16, 0)
            row[G_SOLO_SCORE] = ps[0, PS_SCORE]
            row[G_SOLO_RANK] = rank
            row[G_SOLO_TRICKS] = ps[0, PS_TRICKS]
            row[G_DEFEATED] = ps[0, PS_DEF]
            row[G_TERROR] = ps[0, PS_TERROR]
            row[G_TRICKS] = gs[GS_TRICK]
            row[G_LOST] = gs[GS_LOST]
            row[G_ROUNDS] = 1
            rec(trace, gs, EV_GAME_END, gs[GS_STALEMATE], ps[0, PS_SCORE], rank, 0)
        else:
            for r in range(n_rounds):
                gs[GS_ROUND] = r
                if searching:
                    searched(cf, tables, work, fns, params, codes, trace, plays, sc, ss)
                else:
                    play_round(cf, tables, work, fns, params, codes, trace, False)
                for s in range(players):
                    record_round((g * n_rounds + r) * players + s, cf, gs, ps, r8, r16, s)
                    d = abs(ps[s, PS_TRICKS] - ps[s, PS_BID])
                    row[G_CONTRACTS] += 1
                    row[G_EXACT] += d == 0          # (counts, not branches: the outcome goes either way)
                    row[G_NEAR] += (d != 0) & (d <= cf[CF_NEAR])
                    row[G_MISSED] += d > cf[CF_NEAR]
                    row[G_DEFEATED] += ps[s, PS_DEF]
                    row[G_TREASURE] += ps[s, PS_TREASURE]
                row[G_LOST] += gs[GS_LOST]
                row[G_TRICKS] += gs[GS_TRICK]
                row[G_TERROR] += gs[GS_POOL]
                gs[GS_FIRST] = next_first(cf, gs, r)
            row[G_ROUNDS] = n_rounds
            rec(trace, gs, EV_GAME_END, 0, 0, 0, 0)
            finish_game(cf, gs, ps, row, trace)
        row[G_MODE] = mode
        row[G_SEATS] = cf[CF_SEATS]
        row[G_STALEMATE] = gs[GS_STALEMATE]
        row[G_AUTO_TRICKS] = gs[GS_AUTO_TRICKS]
        row[G_OBJ_DONE] = gs[GS_OBJ_DONE]
        row[G_VIOL] = gs[GS_VIOL]
        row[G_BAD] = gs[GS_BAD]
        for k in range(N_FIRED):
            row[G_F0 + k] = gs[GS_F0 + k]
        write_game(g, row, g8, g16, g32)


@njit(cache=True, _nrt=False)
def write_game(g, row, g8, g16, g32):
    """Game g's row (records.G) into the games table's int8, int16 and int32 blocks (records.GAME_SLOTS)."""
    for j in range(SLOTS8.shape[0]):
        g8[g, j] = row[SLOTS8[j]]
    for j in range(SLOTS16.shape[0]):
        g16[g, j] = row[SLOTS16[j]]
    for j in range(SLOTS32.shape[0]):
        g32[g, j] = row[SLOTS32[j]]


@njit(cache=True)
def build_worths(kind, colour, value, cf, params, codes, worths):
    """worths[seat, card]: bid_estimate's card_worth for each seat that bids with it; worths[seat, -1]: its
    rivals_factor (the hand's total adds these up in hand order, as bid_estimate does)."""
    for s in range(MAX_SEATS):
        if codes[D_BID, s] == BID_ESTIMATE:
            for c in range(kind.shape[0]):
                worths[s, c] = card_worth(kind[c], value[c], colour[c], cf[CF_TRUMP], params[s])
            worths[s, -1] = rivals_factor(cf[CF_SEATS], params[s])


@njit(cache=True)
def new_work():
    """The game's state arrays, in the order play_round unpacks them."""
    hand = np.zeros((MAX_SEATS, MAX_HAND + 2), np.int64)
    hand_n = np.zeros(MAX_SEATS, np.int64)
    hx = np.zeros(HX_SIZE, np.int64)
    zone = np.zeros((MAX_ZONE + 1, Z_COLS), np.int64)
    gs = np.zeros(GS_SIZE, np.int64)
    ps = np.zeros((MAX_SEATS, PS_SIZE), np.int64)
    tr = np.zeros((MAX_SEATS, 3), np.int64)
    moves = np.zeros((MAX_MOVES, CARD_COLS), np.int64)
    pairs = np.zeros((MAX_PAIRS, PLACE_COLS), np.int64)
    objopt = np.zeros((MAX_OBJECTIVES, OBJ_COLS), np.int64)
    state = np.zeros(STATE_SIZE, np.int64)
    deck = np.zeros(MAX_CARDS, np.int64)
    ddeck = np.zeros(MAX_DRAGONS, np.int64)
    odeck = np.zeros(MAX_OBJECTIVES, np.int64)
    zobj = np.zeros((MAX_OBJECTIVES, 2), np.int64)
    card_loc = np.full(ON_DRAGON + MAX_DRAGONS, -1, np.int64)
    discard = np.zeros(MAX_CARDS, np.int64)
    played = np.zeros(MAX_CARDS, np.int64)
    return (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
            played)


@njit(cache=True)
def new_tables(cf, kind, colour, value, deck_cards, dr, ob, params, codes, hx):
    """The per-batch tables play_round reads, in its order (worths and ranks from params and codes), and hx's
    per-batch masks."""
    keys = np.zeros((3, N_COLOURS + 1, 2, MAX_CARDS), np.int64)     # rows padded: see kix
    build_keys(kind, colour, value, cf[CF_TRUMP], cf[CF_EGG_LOW], keys)
    flat_keys = keys.reshape(keys.size)
    ptab = np.zeros((6, kind.shape[0]), np.int64)
    build_powers(kind, colour, value, cf[CF_TRUMP], ptab)
    follows = np.zeros((N_COLOURS + 2, kind.shape[0]), np.int64)
    build_follows(colour, follows)
    worths = np.zeros((MAX_SEATS, kind.shape[0] + 1), np.float64)
    build_worths(kind, colour, value, cf, params, codes, worths)
    build_hx(kind, colour, hx)
    nd = cf[CF_N_DRAGONS]
    ranked = nd <= MAX_DRAGONS and dr[:nd, 1].max() <= RANK_W - RANK_OFF and value.max() <= RANK_OFF + 1
    ranks = np.zeros((MAX_SEATS + 1) * MAX_DRAGONS * RANK_W if ranked else 0, np.int32)
    if ranked:
        build_ranks(dr, nd, params, ranks)
    return kind, colour, value, flat_keys, ptab, follows, worths, ranks, deck_cards, dr, ob


# The search's setup, which the plain batch types too (it never runs it): here, so that kernel_search compiles only
# when a run searches.
@njit(cache=True, _nrt=False)
def search_seed(ss, seed, game):
    """The search stream of game `game` of a batch from `seed`."""
    ss[SS_RNG] = np.int64(mix(seed ^ SEARCH_SEED, game))


@njit(cache=True)
def scratch_size(work):
    """Words of scratch the search needs: the root's arrays (`keep`), the driver's, a pile, the cards dealt."""
    n = DRIVER_WORDS + MAX_PILE + MAX_SEATS * MAX_HAND - work[7].size - work[8].size      # (moves, pairs: not kept)
    for a in literal_unroll(work):
        n += a.size
    return n


@njit(cache=True)
def searching(codes):
    """Whether a seat searches (kernel_search) at some decision."""
    for d in range(len(DECISIONS)):
        for s in range(MAX_SEATS):
            if codes[d, s] == SEARCH:
                return True
    return False


@njit(cache=True)
def playout_tables(cf, tables, pparams, pcodes, search):
    """A playout line-up's configuration (no invariant checks), worths and ranks (from its parameters)."""
    kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob = tables
    pcf = cf.copy()
    pcf[CF_CHECK] = 0
    pworths = np.zeros_like(worths)
    pranks = np.zeros_like(ranks)
    if search:
        build_worths(kind, colour, value, cf, pparams, pcodes, pworths)
        if ranks.size > 0:
            build_ranks(dr, cf[CF_N_DRAGONS], pparams, pranks)
    return pcf, pworths, pranks


@njit(cache=True)
def search_arrays(cf, tables, work, pparams, pcodes, search):
    """The playouts' configuration (no invariant checks) and tables (their worths and ranks from the playouts'
    parameters), the search's scratch and state; one-word scratch when no seat searches."""
    pcf, pworths, pranks = playout_tables(cf, tables, pparams, pcodes, search)
    kind, colour, value, keys, ptab, follows, worths, ranks, deck_cards, dr, ob = tables
    sc = np.zeros(scratch_size(work) if search else 1, np.int64)
    ss = np.zeros(SS_SIZE, np.int64)
    return pcf, (kind, colour, value, keys, ptab, follows, pworths, pranks, deck_cards, dr, ob), sc, ss


@njit(ks.ROUND_SIG, cache=True, _nrt=False)
def no_search_round(cf, tables, work, fns, params, codes, trace, plays, sc, ss):
    """What the plain batch passes for a round with a searching seat: never called (no seat searches)."""
    return


@njit_later(ks.ROUND_SIG, cache=True, _nrt=False)
def solo_game(cf, tables, work, fns, params, codes, trace, plays, sc, ss):
    """A solo game where no seat searches (run_batch's `solo`; compiled when a run first plays solo)."""
    play_solo(cf, tables, work, fns, params, codes, trace, False)


@njit(types.int64(*KERNEL_SIG.args, types.FunctionType(ks.ROUND_SIG), types.FunctionType(ks.ROUND_SIG)), cache=True,
      nogil=True)
def play_batch_jit(seed, n, cf, kind, colour, value, deck_cards, dr, ob, bid_fns, play_fns, place_fns, give_fns,
                   draft_fns, params, codes, g8, g16, g32, r8, r16, trace, pbid, pplay, pplace, pgive, pdraft, pparams,
                   pcodes, ibid, iplay, iplace, igive, idraft, iparams, icodes, counts, searched, solo):
    """play_batch's kernel; returns the decisions the search player searched, and leaves the search state's counts
    in `counts` (kernel_search.SS_*). `searched` plays a round with a searching seat: kernel_search.searched_round,
    compiled when a run first searches, or no_search_round (a first-class function: one kernel for both); `solo`
    a solo game where none searches, solo_game or (a table game) no_search_round."""
    np.random.seed(seed)      # for user strategies that draw from np.random
    work = new_work()
    (hand, hand_n, hx, zone, gs, ps, tr, moves, pairs, objopt, state, deck, ddeck, odeck, zobj, card_loc, discard,
     played) = work
    row = np.zeros(N_GAME_COLS, np.int64)
    tables = new_tables(cf, kind, colour, value, deck_cards, dr, ob, params, codes, hx)
    flat_keys, ptab, follows, worths, ranks = tables[3], tables[4], tables[5], tables[6], tables[7]
    search = searching(codes)
    pcf, pt, sc, ss = search_arrays(cf, tables, work, pparams, pcodes, search)
    ptables = (borrow(kind), borrow(colour), borrow(value), borrow(flat_keys), borrow(ptab), borrow(follows),
               borrow(pt[6]), borrow(pt[7]), borrow(deck_cards), borrow(dr), borrow(ob))
    play = (borrow(pcf), ptables, (pbid, pplay, pplace, pgive, pdraft), borrow(pparams), borrow(pcodes))
    icf, iworths, iranks = playout_tables(cf, tables, iparams, icodes, search)
    itables = (borrow(kind), borrow(colour), borrow(value), borrow(flat_keys), borrow(ptab), borrow(follows),
               borrow(iworths), borrow(iranks), borrow(deck_cards), borrow(dr), borrow(ob))
    iplayout = (borrow(icf), itables, (ibid, iplay, iplace, igive, idraft), borrow(iparams), borrow(icodes))
    run_batch(seed, n, borrow(cf), borrow(kind), borrow(colour), borrow(value), borrow(flat_keys), borrow(ptab),
              borrow(follows), borrow(worths), borrow(ranks), borrow(deck_cards), borrow(dr), borrow(ob), bid_fns, play_fns, place_fns,
              give_fns, draft_fns, borrow(params), borrow(codes), borrow(g8), borrow(g16), borrow(g32), borrow(r8),
              borrow(r16), borrow(trace), borrow(row), borrow(hand), borrow(hand_n), borrow(hx), borrow(zone), borrow(gs), borrow(ps), borrow(tr), borrow(moves), borrow(pairs),
              borrow(objopt), borrow(state), borrow(deck), borrow(ddeck), borrow(odeck), borrow(zobj),
              borrow(card_loc), borrow(discard), borrow(played), (play, iplayout), borrow(sc), borrow(ss), searched,
              solo)
    # the owners stay alive until here: the borrowed views above hold no reference
    keep = (hand[0, 0] + hand_n[0] + zone[0, 0] + gs[0] + ps[0, 0] + tr[0, 0] + moves[0, 0] + pairs[0, 0]
            + objopt[0, 0] + state[0] + deck[0] + ddeck[0] + odeck[0] + zobj[0, 0] + card_loc[0] + discard[0]
            + played[0] + flat_keys[0] + ptab[0, 0] + follows[0, 0] + worths[0, 0] + hx[0]
            + ranks.size + pcf[0] + pt[6][0, 0] + pt[7].size + sc[0] + row[0] + icf[0] + iworths[0, 0] + iranks.size)
    gs[1] = keep
    for k in range(min(counts.shape[0], ss.shape[0])):
        counts[k] = ss[k]
    return ss[SS_DECISIONS]


# What a run with a searching seat compiles besides the plain kernel (compile_part): its round and the tests' entries.
SEARCH_PARTS = (searched_round, ks.to_question, ks.decide, ks.redeal, ks.machine_games)


def inline_codes(bid_fns, play_fns, place_fns):
    """codes[decision, seat]: which seats' decisions run a built-in strategy inline (CALL: call it)."""
    codes = np.zeros((len(DECISIONS), MAX_SEATS), np.int64)
    if INLINE_BUILTINS:
        fns = {D_BID: bid_fns, D_PLAY: play_fns, D_PLACE: place_fns}
        for decision, fn, code in INLINE:
            for s in range(MAX_SEATS):
                if fns[decision][s] is fn:
                    codes[decision, s] = code
    return codes


def seat_codes(bid_fns, play_fns, place_fns, params, seats):
    """inline_codes, and the inline seeker's per-seat habits (rows C_CHEAP, C_LEAD_TL; the same tests as
    play_seeker: `follow_cheap` / `lead_trumps_last` above 0.5 at a table of `short_from` seats or more); a
    searching seat (its play function is the search strategy's) has SEARCH in every decision row."""
    codes = np.zeros((CODE_ROWS, MAX_SEATS), np.int64)
    codes[:len(DECISIONS)] = inline_codes(bid_fns, play_fns, place_fns)
    if params.shape[1] > max(FOLLOW_CHEAP, LEAD_TRUMPS_LAST, SHORT_FROM):
        short = seats >= params[:, SHORT_FROM]
        codes[C_CHEAP] = (params[:, FOLLOW_CHEAP] > 0.5) & short
        codes[C_LEAD_TL] = (params[:, LEAD_TRUMPS_LAST] > 0.5) & short
    for s in range(MAX_SEATS):
        if play_fns[s] is builtin.search_play:
            codes[:len(DECISIONS), s] = SEARCH
    return codes


def playout_lineup(seats):
    """The playouts' functions, parameters and codes: every seat plays the default heuristics (the seeker, inline) at
    their default weights. (A playout's first decision, the option tried, goes by the answer pending whatever the
    seat's code: kernel_base.by_question.)"""
    seeker = builtin.REGISTRY.get(builtin.SEARCH_PLAYOUTS)
    pfns = [(fn,) * MAX_SEATS for fn in seeker.functions]
    pparams = np.tile(seeker.params(), (MAX_SEATS, 1))
    return pfns, pparams, seat_codes(*pfns[:3], pparams, seats)


def informed_lineup(fns, params, seats):
    """The informed playouts' functions, parameters and codes (a search seat's `informed` = 1): every seat plays its
    line-up strategy with its parameters, a searching seat the playouts' default (playout_lineup)."""
    pfns, pparams, _ = playout_lineup(seats)
    own = [None if fns[D_PLAY][s] is builtin.search_play else (tuple(f[s] for f in fns), params[s])
           for s in range(MAX_SEATS)]
    ifns, iparams = informed_playouts(own, pfns, pparams)
    return ifns, iparams, seat_codes(*ifns[:3], iparams, seats)


def play_batch(seed, n, cf, kind, colour, value, deck_cards, dr, ob, bid_fns, play_fns, place_fns, give_fns,
               draft_fns, params, g8, g16, g32, r8, r16, trace, counts: dict | None = None):
    """Play n games from `seed` into the games table's blocks g8, g16, g32 and the rounds table's r8, r16
    (records.GAME_BLOCKS, ROUND_BLOCKS; zeros or not) and the first trace.shape[0] traces; returns the decisions the
    search player searched. `counts`, if given, receives them ("search_decisions"), the determinisations dealt with
    beliefs ("belief_deals") and those of them that fell back to the voids alone ("belief_fallbacks")."""
    fns = (bid_fns, play_fns, place_fns, give_fns, draft_fns)
    seats = int(cf[CF_SEATS])
    codes = seat_codes(bid_fns, play_fns, place_fns, params, seats)
    if (codes[:len(DECISIONS)] == SEARCH).any():
        pfns, pparams, pcodes = playout_lineup(seats)
        informed = params.shape[1] > ks.INFORMED and any(
            play_fns[s] is builtin.search_play and params[s, ks.INFORMED] > 0.5 for s in range(MAX_SEATS))
        ifns, iparams, icodes = informed_lineup(fns, params, seats) if informed else (pfns, pparams, pcodes)
        compile_now([f for seat_fns in (*pfns, *ifns) for f in seat_fns])
        compile_part(SEARCH_PARTS, "search")
        rounds = searched_round
    else:
        pfns, pparams, pcodes = fns, params, codes
        ifns, iparams, icodes = pfns, pparams, pcodes
        rounds = no_search_round
    solo = no_search_round
    if cf[CF_MODE] == MODE_SOLO and rounds is no_search_round:
        compile_part((solo_game,), "solo")
        solo = solo_game
    out = np.zeros(ks.SS_SIZE, np.int64)
    searched = call(play_batch_jit, seed, n, cf, kind, colour, value, deck_cards, dr, ob, *fns, params, codes, g8, g16,
                    g32, r8, r16, trace, *pfns, pparams, pcodes, *ifns, iparams, icodes, out, rounds, solo)
    if counts is not None:
        counts["search_decisions"] = int(out[ks.SS_DECISIONS])
        counts["belief_deals"] = int(out[ks.SS_BELIEF_DEALS])
        counts["belief_fallbacks"] = int(out[ks.SS_FALLBACKS])
    return searched


def search_setup(rules, players: int, me: int, check: bool = False):
    """The arrays of a batch in which seat `me` is asked its decisions (coded SEARCH) and every seat plays the
    seeker at its default weights, as play_batch makes them, for the tests: (cf, tables, work, fns, params, codes,
    play, sc, ss) for kernel_search's entries (to_question, decide, redeal, machine_games)."""
    cf = rules.config(players, check)
    kind, colour, value = rules.card_arrays()
    seats = int(cf[CF_SEATS])
    pfns, pparams, pcodes = playout_lineup(seats)
    compile_pending([f for fns in pfns for f in fns])
    compile_part(SEARCH_PARTS, "search")
    codes = pcodes.copy()
    if me >= 0:
        codes[:len(DECISIONS), me] = SEARCH
    work = new_work()
    tables = new_tables(cf, kind, colour, value, rules.deck(players), rules.dragon_array(), rules.objective_array(),
                        pparams, codes, work[2])
    pcf, ptables, sc, ss = search_arrays(cf, tables, work, pparams, pcodes, True)
    fns = tuple(tuple(f) for f in pfns)
    return cf, tables, work, fns, pparams, codes, (pcf, ptables, fns, pparams, pcodes), sc, ss
