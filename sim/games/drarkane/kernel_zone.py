"""Drarkane kernel, part 2: the battle zone.

Revealing dragons, placing a trick's cards on them (a strategy's choice, or a built-in placement inline over
bit masks of the open (card, dragon) pairs), defeats and discards, and the greedy placement's rank table.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros
from strategies.drarkane import TERROR_WEIGHT, draw, greedy_key, spread_key

from sim.games.drarkane.records import (
    ARCANA, CF_AUTO_TERROR, CF_FK_DRAGONS_COUNT, CF_MODE, CF_N_DRAGONS, CF_TREASURES, CF_TRICK_ORDER, CF_ZONE_LIMIT,
    EV_DEFEAT, EV_DISCARD, EV_PLACE, EV_REVEAL, MAX_DRAGONS, MAX_SEATS, MERCENARY, MODE_FALLEN_KING, MODE_SOLO, OBSCURE,
    PLACE_COLS, P_CARD, P_COLOUR, P_DAMAGE, P_DEFEATS, P_DRAGON, P_LEFT, P_POS, P_RESIST, P_STRENGTH, P_TERROR,
    S_DRAGONS, S_POOL, S_ZONE_N,
)
from sim.games.drarkane.kernel_base import (
    CALL, D_PLACE, FD_DEFEAT, FD_DEMON_DEFEAT, FD_DISCARDED, FD_FK_DRAGONS, FD_FK_TERROR, FD_PLACE_ORDER, FD_ZONE_LIMIT,
    GS_AUTO_DEF, GS_AUTO_TERROR, GS_COLS_TRICK, GS_DEF_TRICK, GS_DISC, GS_DPTR, GS_LOST, GS_MAXRES_TRICK, GS_PDONE,
    GS_POOL, GS_TN, GS_ZONE_N, GS_ZSLOTS, ID_MASK, ON_DRAGON, PAIR_BITS, PAIR_SHIFT, PLACE_AUTO, PLACE_GREEDY,
    PLACE_RANDOM, PLACE_SABOTEUR, PLACE_SPREAD, PS_BID, PS_COLOURS, PS_DEF, PS_TERROR, PS_TRICKS, RANK_OFF, RANK_W,
    SEARCH, T_CARD, T_MODE, ZONE_BITS, Z_COL, Z_COLS, Z_DMG, Z_ID, Z_RB, Z_RES, Z_TERROR, answer, ask, by_question,
    checked, fill_state, imin, popcount, rec,
)


@njit(cache=True, _nrt=False)
def reveal(zone, gs, ddeck, dr, cf, trace):
    """Turn the next dragon into the zone; False when the deck is empty."""
    if gs[GS_DPTR] >= cf[CF_N_DRAGONS]:
        return False
    d = ddeck[gs[GS_DPTR]]
    gs[GS_DPTR] += 1
    z = gs[GS_ZONE_N]
    zone[z, Z_ID] = d
    zone[z, Z_DMG] = 0
    zone[z, Z_COL] = dr[d, 0]
    zone[z, Z_RES] = dr[d, 1]
    zone[z, Z_TERROR] = dr[d, 2]
    zone[z, Z_RB] = d * RANK_W + RANK_OFF + dr[d, 1]
    gs[GS_ZONE_N] = z + 1
    gs[GS_ZSLOTS] |= np.int64(1) << (ZONE_BITS * (dr[d, 0] & 3) + z)
    rec(trace, gs, EV_REVEAL, d, z + 1, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def zone_full(gs, cf):
    """Whether the zone has reached its limit, which loses the round."""
    full = gs[GS_ZONE_N] >= cf[CF_ZONE_LIMIT]
    if full:
        gs[GS_LOST] = 1
        gs[FD_ZONE_LIMIT] += 1
    return full


# ---- placement ------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def placeable(c, m, kind):
    k = kind[c]
    return k == ARCANA or k == OBSCURE or (k == MERCENARY and m == 0)


# a rank table index is never negative (new_tables builds the table only for values and resistances it covers); masked
# with RANK_MASK, which changes none, numba sees it too and drops its negative-index fix-up from the greedy loop
RANK_MASK = (1 << 16) - 1
assert (MAX_SEATS + 1) * MAX_DRAGONS * RANK_W <= RANK_MASK + 1

ROWS = np.int64(0x0001000100010001)         # bit 0 of each PAIR_BITS-bit row of a pair mask
LOW_BYTES = np.int64(0x00FF00FF00FF00FF)    # the low half of each row


@njit(cache=True, _nrt=False)
def drop_slot(m, z, last):
    """A pair mask after the dragon in zone slot z fell and the last slot's dragon moved into z: in every card's
    row, bit z goes and bit `last` moves to z."""
    zbits = ROWS << z
    lbits = ROWS << last
    return (m & ~(zbits | lbits)) | (((m & lbits & ~zbits) >> (last - z)) & zbits)


@njit(cache=True, _nrt=False)
def row_flags(m):
    """Bit i set when row i (PAIR_BITS bits) of a pair mask is not empty, for rows 0-3."""
    t = (m | (m >> 8)) & LOW_BYTES          # each row folded into its low byte, then into its bit 0
    t |= t >> 4
    t |= t >> 2
    t |= t >> 1
    t &= ROWS
    return (t | (t >> 15) | (t >> 30) | (t >> 45)) & 15


@njit(cache=True, _nrt=False)
def nth_bit(m, k):
    """Position of the k-th (from 0) set bit of m."""
    for _ in range(k):
        m &= m - 1
    return trailing_zeros(m)


@njit(cache=True, inline='always', _nrt=False)
def place_inline(code, w, auto, tn, cf, kind, colour, value, dr, zone, gs, ps, tr, state, card_loc, discard,
                 params, ranks, trace):
    """place_trick's loop for a built-in placement strategy (or the automaton).

    The open (card, dragon) pairs are bit masks: bit PAIR_BITS * i + z of `lo` (trick positions 0-3) or `hi`
    (positions 4-5) is card i on zone slot z, so the bits in order are the pairs in the order the strategy
    would see them (cards in trick order, dragons in zone order). The masks are built at the start and after a
    defeat (the zone's order changes), where a card with no dragon of its colour left is discarded; a
    placement clears its card's bits. Each decision scans the set bits only: no per-card loop, whose
    exits and skips went either way at random. After a defeat the masks are not rebuilt: the defeated slot's bits
    go and the zone's last slot's bits move into it (`drop_slot`), as the zone's own rows do."""
    tw = 0.0
    rank_row = MAX_SEATS            # the automaton's row of the rank table (no Terror)
    if code == PLACE_SABOTEUR:       # greedy while the contract is open, spread once it is made
        code = PLACE_SPREAD if ps[w, PS_TRICKS] >= ps[w, PS_BID] else PLACE_GREEDY
    if code == PLACE_GREEDY:
        tw = params[w, TERROR_WEIGHT]
        rank_row = w
    elif code == PLACE_AUTO:         # auto_place: the greedy key without Terror
        code = PLACE_GREEDY
    greedy = code == PLACE_GREEDY
    ranked = greedy and ranks.shape[0] > 0
    rbase = rank_row * (MAX_DRAGONS * RANK_W)
    in_order = cf[CF_TRICK_ORDER] != 0
    card_bits = (np.int64(1) << PAIR_BITS) - 1
    # the zone slots of each colour (GS_ZSLOTS: ZONE_BITS bits per colour) and of any colour
    slots = gs[GS_ZSLOTS]
    every = (np.int64(1) << gs[GS_ZONE_N]) - 1
    # each card's pairs, the cards that cannot be placed (the Egg, the Wizards, a Mercenary as 0) and those with
    # no dragon of their colour left, as masks: no branch per card; then the discards (few), in trick order
    lo = 0
    hi = 0
    unplaceable = 0
    nofit = 0
    vals = 0        # the cards' values, a byte each
    for i in range(tn):
        c = tr[i, T_CARD] & ID_MASK
        k = kind[c]
        pl = np.int64((k == ARCANA) | (k == OBSCURE) | ((k == MERCENARY) & (tr[i, T_MODE] == 0)))
        wild = np.int64(k != ARCANA)
        own = (slots >> (ZONE_BITS * (colour[c] & 3))) & every      # (a wild card's colour -1 is masked to 3)
        fit = (own + wild * (every - own)) & -pl
        if i < 4:
            lo |= fit << (PAIR_BITS * i)
        else:
            hi |= fit << (PAIR_BITS * (i - 4))
        unplaceable |= (pl ^ 1) << i
        nofit |= (pl & np.int64(fit == 0)) << i
        vals |= (value[c] & 255) << (8 * i)
    done = unplaceable | nofit
    while unplaceable != 0:
        i = trailing_zeros(unplaceable)
        unplaceable &= unplaceable - 1
        discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)
    while nofit != 0:                   # no dragon of its colour is left: discarded
        i = trailing_zeros(nofit)
        nofit &= nofit - 1
        gs[FD_DISCARDED] += 1
        discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)
    while lo != 0 or hi != 0:
        clo = lo        # the pairs open to this choice: all, or only the first card left in trick order
        chi = hi
        if in_order:
            if lo != 0:
                clo = lo & (card_bits << (PAIR_BITS * (trailing_zeros(lo) >> PAIR_SHIFT)))
                chi = 0
            else:
                chi = hi & (card_bits << (PAIR_BITS * (trailing_zeros(hi) >> PAIR_SHIFT)))
        if ranked:
            # the greedy key's rank (build_ranks: the same order, equal keys equal ranks), then the pair's bit: the
            # lowest is the first lowest key, as place_greedy picks
            bkey = np.int64(1) << 62
            m = clo
            first = 0       # bit of m's bit 0 among all pairs
            for _ in range(2):
                while m != 0:
                    b = trailing_zeros(m) + first
                    m &= m - 1
                    v = (vals >> ((b >> 1) & ~7)) & 255
                    key = (np.int64(ranks[(rbase + zone[b & (PAIR_BITS - 1), Z_RB] - v) & RANK_MASK]) << 7) | b
                    bkey = imin(bkey, key)
                m = chi
                first = 4 * PAIR_BITS
            bi = (bkey & 127) >> PAIR_SHIFT
            bz = bkey & (PAIR_BITS - 1)
        elif code == PLACE_RANDOM:
            n_lo = popcount(clo)
            k = draw(state, n_lo + popcount(chi))
            b = nth_bit(clo, k) if k < n_lo else 4 * PAIR_BITS + nth_bit(chi, k - n_lo)
            bi = b >> PAIR_SHIFT
            bz = b & (PAIR_BITS - 1)
        else:
            bi = -1
            bz = -1
            bkey = 1e300 if greedy else -1e300
            m = clo
            first = 0       # trick position of bit 0 of m
            for _ in range(2):
                while m != 0:
                    b = trailing_zeros(m)
                    m &= m - 1
                    i = first + (b >> PAIR_SHIFT)
                    z = b & (PAIR_BITS - 1)
                    left = zone[z, Z_RES] - zone[z, Z_DMG] - value[tr[i, T_CARD] & ID_MASK]
                    if greedy:
                        key = greedy_key(left, zone[z, Z_TERROR], tw)
                        better = key < bkey
                    else:
                        key = spread_key(left, 1 if left <= 0 else 0)
                        better = key > bkey
                    bkey = key if better else bkey
                    bi = i if better else bi
                    bz = z if better else bz
                m = chi
                first = 4
        if bi < 4:
            lo &= ~(card_bits << (PAIR_BITS * bi))
        else:
            hi &= ~(card_bits << (PAIR_BITS * (bi - 4)))
        c = tr[bi, T_CARD]
        d = zone[bz, Z_ID]
        done |= 1 << bi
        rec(trace, gs, EV_PLACE, c, d, 0, 0)
        card_loc[c] = d
        card_loc[ON_DRAGON + d] |= np.int64(1) << c
        zone[bz, Z_DMG] += value[c]
        zone[bz, Z_RB] -= value[c]
        if zone[bz, Z_DMG] >= dr[d, 1]:
            last = gs[GS_ZONE_N] - 1
            defeat(bz, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace)
            if (lo | hi) != 0:
                gs[FD_PLACE_ORDER] += 1     # cards of the trick still to place after a defeat
            # the zone's order changed (its last dragon moved into slot bz) and cards may have lost their dragon
            lo = drop_slot(lo, bz, last)
            hi = drop_slot(hi, bz, last)
            lost = ~done & ((1 << tn) - 1) & ~(row_flags(lo) | (row_flags(hi) << 4))
            while lost != 0:                # discarded, in trick order
                i = trailing_zeros(lost)
                lost &= lost - 1
                done |= 1 << i
                gs[FD_DISCARDED] += 1
                discard_card(tr[i, T_CARD], card_loc, discard, gs, trace)


@njit(cache=True, inline='always', _nrt=False)
def place_trick(w, auto, cf, kind, colour, value, dr, zone, gs, ps, tr, pairs, state, hand_n, card_loc,
                discard, place_fns, params, codes, ranks, trace, search):
    """The trick winner puts every card it can on a dragon of its colour (wild: any); the rest is discarded.
    Returns -1; with `search` (a constant, see play_round), a question when a searching winner is asked (the
    positions done so far in gs[GS_PDONE]), and it goes on from there when called again with the answer."""
    tn = gs[GS_TN]
    resumed = search and gs[GS_PDONE] != 0
    if not resumed:
        gs[GS_DEF_TRICK] = 0
        gs[GS_MAXRES_TRICK] = 0
        gs[GS_COLS_TRICK] = 0
    human = w != auto
    code = codes[D_PLACE, w] if human else PLACE_AUTO
    if code != CALL and not (search and (code == SEARCH or resumed)):
        place_inline(code, w, auto, tn, cf, kind, colour, value, dr, zone, gs, ps, tr, state, card_loc,
                     discard, params, ranks, trace)
        return -1
    done = 0        # bit mask of trick positions already placed or discarded
    if resumed:
        done = gs[GS_PDONE] - 1
        gs[GS_PDONE] = 0
    else:
        for i in range(tn):
            c = tr[i, T_CARD]
            if not placeable(c, tr[i, T_MODE], kind):
                done |= 1 << i
                discard_card(c, card_loc, discard, gs, trace)
    pw = params[w]
    fill_state(state, w, cf, gs, ps, hand_n, 0)     # facts a defeat changes are refreshed per decision
    in_order = cf[CF_TRICK_ORDER] != 0
    rebuild = True
    n = 0
    while True:
        zn = gs[GS_ZONE_N]
        if rebuild or in_order:
            # every (card, dragon) pair, cards in trick order, dragons in zone order
            n = 0
            for i in range(tn):
                if (done >> i) & 1:
                    continue
                c = tr[i, T_CARD]
                wild = kind[c] != ARCANA
                cc = colour[c]
                v = value[c]
                # placement_order = trick: only the first card left in trick order gets rows (the others are
                # still scanned, so that a card no dragon can take is discarded now, as place_inline does)
                keep = not in_order or n == 0
                fits = 0
                for z in range(zn):
                    d = zone[z, Z_ID]
                    dcol = dr[d, 0]
                    if not wild and cc != dcol:
                        continue
                    fits += 1
                    if not keep:
                        continue
                    res = dr[d, 1]
                    dmg = zone[z, Z_DMG]
                    left = res - dmg - v
                    pairs[n, P_POS] = i
                    pairs[n, P_CARD] = c
                    pairs[n, P_STRENGTH] = v
                    pairs[n, P_DRAGON] = d
                    pairs[n, P_COLOUR] = dcol
                    pairs[n, P_RESIST] = res
                    pairs[n, P_DAMAGE] = dmg
                    pairs[n, P_TERROR] = dr[d, 2]
                    pairs[n, P_LEFT] = left
                    pairs[n, P_DEFEATS] = 1 if left <= 0 else 0
                    n += 1
                if fits == 0:       # no dragon of its colour is left: discarded
                    done |= 1 << i
                    gs[FD_DISCARDED] += 1
                    discard_card(c, card_loc, discard, gs, trace)
        if n == 0:
            break
        state[S_ZONE_N] = zn
        state[S_POOL] = gs[GS_POOL]
        state[S_DRAGONS] = ps[w, PS_DEF]
        if search and by_question(code, gs):
            k = answer(gs)
            if k < 0:
                gs[GS_PDONE] = done + 1
                return ask(gs, D_PLACE, w, n, n)
        else:
            k = checked(place_fns[w](pairs, n, state, pw), 0, n, gs)
        i = pairs[k, P_POS]
        c = pairs[k, P_CARD]
        d = pairs[k, P_DRAGON]
        v = value[c]
        done |= 1 << i
        rec(trace, gs, EV_PLACE, c, d, 0, 0)
        card_loc[c] = d
        card_loc[ON_DRAGON + d] |= np.int64(1) << c
        rebuild = False
        for z in range(zn):
            if zone[z, Z_ID] == d:
                zone[z, Z_DMG] += v
                zone[z, Z_RB] -= v
                if zone[z, Z_DMG] >= dr[d, 1]:
                    defeat(z, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace)
                    if done != (1 << tn) - 1:
                        gs[FD_PLACE_ORDER] += 1     # cards of the trick still to place after a defeat
                    rebuild = True      # the zone's order changed and cards may have lost their dragon
                break
        if not rebuild:
            # what a rebuild would give: the card's rows leave, the dragon's rows take the new damage
            j = 0
            for r in range(n):
                if pairs[r, P_POS] == i:
                    continue
                if j != r:
                    for f in range(PLACE_COLS):
                        pairs[j, f] = pairs[r, f]
                if pairs[j, P_DRAGON] == d:
                    dmg = pairs[j, P_DAMAGE] + v
                    left = pairs[j, P_RESIST] - dmg - pairs[j, P_STRENGTH]
                    pairs[j, P_DAMAGE] = dmg
                    pairs[j, P_LEFT] = left
                    pairs[j, P_DEFEATS] = 1 if left <= 0 else 0
                j += 1
            n = j
    return -1


@njit(cache=True, _nrt=False)
def discard_card(c, card_loc, discard, gs, trace):
    card_loc[c] = -2
    discard[gs[GS_DISC]] = c
    gs[GS_DISC] += 1
    rec(trace, gs, EV_DISCARD, c, 0, 0, 0)


@njit(cache=True, inline='always', _nrt=False)
def defeat(z, w, auto, cf, dr, zone, gs, ps, card_loc, discard, trace):
    """Dragon in slot z falls to seat w: trophy, Terror, its cards to the discard pile. The zone's last dragon
    moves into slot z (inlined: a call passed some sixty words of array arguments)."""
    d = zone[z, Z_ID]
    last = gs[GS_ZONE_N] - 1
    one = np.int64(1)
    cl = zone[last, Z_COL] & 3
    gs[GS_ZSLOTS] = ((gs[GS_ZSLOTS] & ~(one << (ZONE_BITS * (zone[z, Z_COL] & 3) + z))
                      & ~(one << (ZONE_BITS * cl + last))) | ((one << (ZONE_BITS * cl + z)) & -np.int64(z != last)))
    for k in range(Z_COLS):
        zone[z, k] = zone[last, k]
    gs[GS_ZONE_N] = last
    rec(trace, gs, EV_DEFEAT, d, w, 0, 0)
    terror = dr[d, 2]
    gs[FD_DEFEAT] += 1
    king = w == auto and cf[CF_MODE] == MODE_FALLEN_KING
    if king:
        gs[FD_FK_TERROR] += 1
        if cf[CF_TREASURES] != 0:
            gs[FD_FK_DRAGONS] += 1
    if not king or cf[CF_FK_DRAGONS_COUNT] != 0:
        # what the objectives see (the Fallen King's dragons count for them only under fallen_king_dragons_count)
        gs[GS_DEF_TRICK] += 1
        if dr[d, 1] > gs[GS_MAXRES_TRICK]:
            gs[GS_MAXRES_TRICK] = dr[d, 1]
        gs[GS_COLS_TRICK] |= 1 << dr[d, 0]
        ps[w, PS_DEF] += 1
        ps[w, PS_TERROR] += terror
        ps[w, PS_COLOURS] |= 1 << dr[d, 0]
    if w == auto:
        gs[GS_AUTO_DEF] += 1
        if cf[CF_MODE] == MODE_SOLO:
            gs[GS_AUTO_TERROR] += terror
            gs[FD_DEMON_DEFEAT] += 1
        elif cf[CF_AUTO_TERROR] != 0:
            gs[GS_POOL] += terror
    else:
        gs[GS_POOL] += terror
    m = card_loc[ON_DRAGON + d]         # its cards, in increasing id order
    card_loc[ON_DRAGON + d] = 0
    while m != 0:
        c = trailing_zeros(m)
        m &= m - 1
        card_loc[c] = -2
        discard[gs[GS_DISC]] = c
        gs[GS_DISC] += 1


@njit(cache=True)
def build_ranks(dr, nd, params, ranks):
    """ranks[row * MAX_DRAGONS * RANK_W + dragon * RANK_W + RANK_OFF + left]: the rank of greedy_key(left, the
    dragon's Terror, that row's terror_weight) among all of that row's keys (equal keys, equal ranks), so the
    greedy placement compares integers and picks what place_greedy picks. Rows: seats 0-5 (their
    terror_weight), then the automaton (no Terror)."""
    n = nd * RANK_W
    keys = np.empty(n, np.float64)
    for row in range(MAX_SEATS + 1):
        tw = params[row, TERROR_WEIGHT] if row < MAX_SEATS and params.shape[1] > TERROR_WEIGHT else 0.0
        for d in range(nd):
            for j in range(RANK_W):
                keys[d * RANK_W + j] = greedy_key(j - RANK_OFF, dr[d, 2], tw)
        order = np.argsort(keys)
        r = 0
        for k in range(n):
            if k > 0 and keys[order[k]] != keys[order[k - 1]]:
                r += 1
            ranks[row * MAX_DRAGONS * RANK_W + order[k]] = r
