"""Drarkane kernel, part 3: playing a trick.

The reference trick evaluation and legal moves (solo games and the tests use them), the table game's
`play_trick` with the built-in seeker and random player inline, a trick's rule counters, and the per-batch
tables `play_trick` reads (card keys, the seeker's powers, follow-suit masks, colour masks).
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros
from strategies.drarkane import card_power, draw, lead_power, seeker_aim

from sim.games.drarkane.records import (
    ARCANA, CF_AUTO_MERC_HIGH, CF_CHECK, CF_EGG_LOW, CF_MODE, CF_SEATS, CF_TRUMP, EGG, EV_PLAY, MAX_CARDS, MERCENARY,
    MODE_SOLO, M_CARD, M_MODE, M_SLOT, M_WINS, N_COLOURS, OBSCURE, REG_STD, S_LAST, S_LED, S_PARTNER, S_POS, S_REGIME,
    S_WINNER, S_WINNER_PARTNER, WIZ_HIGH, WIZ_LOW,
)
from sim.games.drarkane.kernel_base import (
    C_CHEAP, C_LEAD_TL, D_PLAY, FAR, FD_AUTO_MERC, FD_EGG, FD_EGG_LOW, FD_KNIGHT, FD_MERC, FD_WIZ_CANCEL, FD_WIZ_HIGH,
    FD_WIZ_LOW, GS_ANSWER, GS_AUTO_PTR, GS_PLAYED, GS_SINK, GS_TN, GS_VIOL, GS_VOID, GS_BY, HX_BITS, HX_COLOUR, HX_MERC,
    HX_NONE, HX_SLOT, ID_MASK, NO_KEY, PLAY_RANDOM, PLAY_SEEKER, PS_BID, PS_TRICKS, SEARCH, SEAT_MASK, T_CARD, T_MODE,
    T_SEAT, answer, ask, by_question, card_bit, card_key, checked, fill_seat, fill_state, fill_table, imax, imin, option_row,
    rec, regime_of, remove_slot, take_slot,
)


@njit(cache=True, _nrt=False)
def trick_eval(tr, tn, kind, colour, value, trump, egg_low):
    """(winner position, best key, first non-Wizard position, regime, led colour) of the trick so far."""
    nlow = 0
    nhigh = 0
    led = -1
    for i in range(tn):
        k = kind[tr[i, T_CARD]]
        if k == WIZ_LOW:
            nlow += 1
        elif k == WIZ_HIGH:
            nhigh += 1
        elif k == ARCANA and led < 0:
            led = colour[tr[i, T_CARD]]
    reg = regime_of(nlow, nhigh)
    best = -1
    bkey = -1
    fnw = -1
    for i in range(tn):
        c = tr[i, T_CARD]
        if fnw < 0 and kind[c] != WIZ_LOW and kind[c] != WIZ_HIGH:
            fnw = i
        key = card_key(c, tr[i, T_MODE], reg, led, kind, colour, value, trump, egg_low)
        if key > bkey:
            bkey = key
            best = i
    if best < 0:
        best = fnw if fnw >= 0 else 0
    return best, bkey, fnw, reg, led


@njit(cache=True, _nrt=False)
def legal_moves(hand, hand_n, s, led, kind, colour, value, moves):
    """Fill `moves` with the cards seat s may play (the Mercenary twice: as 14 and as 0)."""
    has_led = False
    if led >= 0:
        for i in range(hand_n[s]):
            c = hand[s, i]
            if kind[c] == ARCANA and colour[c] == led:
                has_led = True
                break
    n = 0
    for i in range(hand_n[s]):
        c = hand[s, i]
        k = kind[c]
        if has_led and k == ARCANA and colour[c] != led:
            continue
        option_row(moves, n, c, 0, k, colour[c], value[c], 0, i)
        n += 1
        if k == MERCENARY:
            option_row(moves, n, c, 1, k, -1, 0, 0, i)
            n += 1
    return n


@njit(cache=True, _nrt=False)
def play_card(s, slot, c, m, hand, hand_n, gs, tr, played, cf, trace):
    tn = gs[GS_TN]
    tr[tn, T_CARD] = c
    tr[tn, T_MODE] = m
    tr[tn, T_SEAT] = s
    gs[GS_TN] = tn + 1
    if slot >= 0:
        remove_slot(hand, hand_n, s, slot)
    rec(trace, gs, EV_PLAY, s, c, m, 0)
    if cf[CF_CHECK] != 0 and cf[CF_MODE] != MODE_SOLO:
        if played[c] != 0:
            gs[GS_VIOL] += 1
        played[c] = 1
        gs[GS_PLAYED] += 1


@njit(cache=True, _nrt=False)
def choose_card(s, cf, kind, colour, value, hand, hand_n, gs, ps, tr, moves, state, play_fns, params, codes, dealt):
    """Ask seat s's play strategy for a legal card; returns the move row (-1: a searching seat was asked)."""
    tn = gs[GS_TN]
    trump = cf[CF_TRUMP]
    egg_low = cf[CF_EGG_LOW]
    best, bkey, fnw, reg, led = trick_eval(tr, tn, kind, colour, value, trump, egg_low)
    n = legal_moves(hand, hand_n, s, led, kind, colour, value, moves)
    for i in range(n):
        c = moves[i, M_CARD]
        k = kind[c]
        if tn == 0:
            moves[i, M_WINS] = 1
        elif k == WIZ_LOW or k == WIZ_HIGH:
            moves[i, M_WINS] = 0
        else:
            lc = led if led >= 0 or k != ARCANA else colour[c]
            key = card_key(c, moves[i, M_MODE], reg, lc, kind, colour, value, trump, egg_low)
            moves[i, M_WINS] = 1 if key > bkey or (key == -1 and bkey == -1 and fnw < 0) else 0
    fill_state(state, s, cf, gs, ps, hand_n, dealt)
    state[S_POS] = tn
    state[S_LAST] = 1 if tn == cf[CF_SEATS] - 1 else 0
    state[S_LED] = led
    if tn > 0:
        ws = tr[best, T_SEAT]
        state[S_WINNER] = ws
        state[S_WINNER_PARTNER] = 1 if ws == state[S_PARTNER] else 0
    state[S_REGIME] = reg
    if by_question(codes[D_PLAY, s], gs):
        i = answer(gs)
        if i < 0:
            ask(gs, D_PLAY, s, n, n)
        return i
    return checked(play_fns[s](moves, n, state, params[s]), 0, n, gs)


@njit(cache=True)
def build_keys(kind, colour, value, trump, egg_low, keys):
    """keys[regime, led + 1, mode, card] = card_key(...): a trick's keys become table look-ups."""
    for reg in range(3):
        for led in range(-1, keys.shape[1] - 1):
            for m in range(2):
                for c in range(kind.shape[0]):
                    key = card_key(c, m, reg, led, kind, colour, value, trump, egg_low)
                    # a Wizard never takes the trick and, unlike the other cards that cannot, never makes a
                    # card played into it "winning" either: -2 (both orders and the -1 tie test still hold)
                    keys[reg, led + 1, m, c] = -2 if kind[c] == WIZ_LOW or kind[c] == WIZ_HIGH else key


@njit(cache=True, _nrt=False)
def kix(reg, led, m):
    """Offset of keys[reg, led + 1, m, 0] in the flat key table (rows padded to MAX_CARDS: the offsets are
    shifts, not multiplications by strides read from the array)."""
    return ((reg * (N_COLOURS + 1) + led + 1) * 2 + m) * MAX_CARDS


@njit(cache=True, _nrt=False)
def seeker_fold(top, bottom, key, p, sp, legal, j, bound, want_win):
    """play_trick's inline play_seeker when following: fold option j (trick key `key`, power p, sign * power
    sp) into the running choices. `top` = (sign * power, then the first option) of the options with the
    wanted M_WINS, `bottom` = (power, then the first option) of every legal option; kept as single integers
    so each fold is a max/min.

    An option wins when key > bound (play_trick lowers the bound by one for a tie on -1). `legal` and
    `want_win` (M_WINS = 1 wanted, else 0) are masks (-1 true, 0 false) and every test is sign arithmetic:
    written with comparisons and selects, the compiler turned them back into a branch that went either way
    at random, once per card."""
    wins = (bound - key) >> 63
    ok = legal & ~(wins ^ want_win)
    top = imax(top, (sp << 6) + 63 - j - (FAR & ~ok))
    bottom = imin(bottom, (p << 6) + j + (FAR & ~legal))
    return top, bottom


@njit(cache=True, inline='always', _nrt=False)
def follow_row(follows, led, has_led):
    """Follow-suit legality of every card as a mask row: the led colour's row of `follows`, or its last row (all
    legal) for a hand void in the led colour."""
    return follows[led + 1] if has_led else follows[N_COLOURS + 1]


@njit(cache=True, _nrt=False)
def random_options(c, frow, kind):
    """play_random's options for card c (frow: its follow-suit row): 0 when it may not be played, else 1, or
    2 for the Mercenary (as 14 and as 0)."""
    return (frow[c] & 1) * (1 + (kind[c] == MERCENARY))


@njit(cache=True, inline='always', _nrt=False)
def joined(c, m, tn, tr, kind, colour, keys, nlow, nhigh, led, reg, best, bkey, fnw):
    """The trick's standing (Wizards, led colour, regime, best position and key, first non-Wizard) once card c,
    played in mode m, is the tn-th card of the trick `tr`."""
    kc = kind[c]
    if kc == WIZ_LOW or kc == WIZ_HIGH:
        if kc == WIZ_LOW:
            nlow += 1
        else:
            nhigh += 1
        reg = regime_of(nlow, nhigh)
        best = -1
        bkey = -1
        for j in range(tn):
            key = keys[kix(reg, led, tr[j, T_MODE]) + (tr[j, T_CARD] & ID_MASK)]
            if key > bkey:
                bkey = key
                best = j
    else:
        if kc == ARCANA and led < 0:
            led = colour[c]
        if fnw < 0:
            fnw = tn - 1
        key = keys[kix(reg, led, m) + (c & ID_MASK)]
        if key > bkey:
            bkey = key
            best = tn - 1
    return nlow, nhigh, led, reg, best, bkey, fnw


@njit(cache=True, inline='always', _nrt=False)
def play_trick(leader, auto, cf, kind, colour, value, keys, ptab, follows, hand, hand_n, hx, gs, ps, tr, moves, state,
               played, play_fns, params, codes, call_play, trace, dealt, search):
    """Every seat plays one card, from the leader on; returns the winning position in the trick.

    The same decisions as `choose_card` + `play_card` for each seat, with the trick's standing (regime, led
    colour, best key) kept up to date card by card and the keys read from the `build_keys` table (flat: `kix`).
    The cards' rule counters are counted as they join the trick (count_trick's counts for a table game).
    With `search` (a constant, see play_round): it goes on from the gs[GS_TN] cards already in the trick, returns
    -1 when a searching seat is asked (`ask`), and notes the colours each seat shows it lacks (GS_VOID)."""
    seats = cf[CF_SEATS]
    check = cf[CF_CHECK] != 0 and cf[CF_MODE] != MODE_SOLO
    merc_zero = cf[CF_AUTO_MERC_HIGH] == 0
    counters = ptab[5]
    zero = False
    nlow = 0
    nhigh = 0
    led = -1
    reg = REG_STD
    best = -1
    bkey = -1
    fnw = -1
    tn = 0
    # the public facts that stay the same through the trick, for the seats that call their play function (the
    # rest of fill_state is per seat below)
    if call_play:
        fill_table(state, cf, gs, dealt)
    s = leader
    if search:      # the trick's standing from the cards already in it
        while tn < gs[GS_TN]:
            c = tr[tn, T_CARD]
            m = tr[tn, T_MODE]
            tn += 1
            counter = counters[c & ID_MASK] + m
            zero |= (counter == FD_EGG) | (counter == FD_MERC + 1)
            nlow, nhigh, led, reg, best, bkey, fnw = joined(c, m, tn, tr, kind, colour, keys, nlow, nhigh, led, reg,
                                                            best, bkey, fnw)
            s = s + 1 if s + 1 < seats else 0
    k0 = tn
    for k in range(k0, seats):
        if k > k0:
            s += 1
            if s >= seats:      # (leader + k) % seats without a division
                s -= seats
        s &= SEAT_MASK          # (changes nothing: numba then drops its negative-index fix-ups below)
        if s == auto:
            c = hand[s, gs[GS_AUTO_PTR]]
            gs[GS_AUTO_PTR] += 1
            hand_n[s] -= 1
            m = 1 if kind[c] == MERCENARY and merc_zero else 0
            gs[FD_AUTO_MERC] += kind[c] == MERCENARY
        else:
            hn = hand_n[s]
            hb = hx[HX_BITS + s]
            led_bits = hx[HX_COLOUR + (led & 3)] if led >= 0 else 0
            has_led = (hb & led_bits) != 0
            bk = bkey if tn > 0 else -3         # leading: every card takes the trick for now
            tie = tn > 0 and bkey == -1 and fnw < 0
            code = codes[D_PLAY, s]
            if search and gs[GS_ANSWER] != 0:
                code = SEARCH       # the answer pending is this decision's
            if code == PLAY_SEEKER:
                # play_seeker over the same options in the same order (hand order, a Mercenary as 14 then 0):
                # its first choice (`aim`), else its weakest card; the first of equals in both
                want, highest = seeker_aim(tn, tn == seats - 1, ps[s, PS_BID] - ps[s, PS_TRICKS],
                                           codes[C_CHEAP, s] != 0)
                # option j = 2 * slot + mode. With keys that hold the power and then the option, the choice is a
                # plain max/min (no unpredictable branch): `top` = highest sign * power, first among equals;
                # `bottom` = lowest power, first among equals. ptab rows 2-3 hold the powers negated.
                top = NO_KEY
                bottom = -NO_KEY
                pow0 = ptab[0]
                pow1 = ptab[1]
                spow0 = ptab[0] if highest else ptab[2]
                spow1 = ptab[1] if highest else ptab[3]
                if tn == 0:     # leading: every card is legal and every option wanted
                    # lead_trumps_last: a leader under its contract ranks its trumps below its other cards
                    lead_tl = highest and codes[C_LEAD_TL, s] != 0
                    lpow0 = ptab[4] if lead_tl else spow0
                    for i in range(hn):
                        c = hand[s, i] & ID_MASK
                        top = imax(top, (lpow0[c] << 6) + 63 - 2 * i)
                else:
                    # following, the seeker wants M_WINS = want (0 or 1). A tie on -1 (only Wizards so far)
                    # lets every key above -2 win: one bound covers both cases
                    bound = bk - np.int64(tie)
                    win_m = -np.int64(want == 1)
                    if led >= 0:
                        kb = kix(reg, led, 0)
                        # only the legal cards, in card order (each key holds its option: the order does not
                        # matter): the led colour and the colourless cards, or all of a hand void in the colour
                        legal = hb & (led_bits | hx[HX_NONE]) if has_led else hb
                        while legal != 0:
                            c = trailing_zeros(legal)
                            legal &= legal - 1
                            j = 2 * hx[HX_SLOT + c]
                            top, bottom = seeker_fold(top, bottom, keys[kb + c], pow0[c], spow0[c], -1, j, bound,
                                                      win_m)
                    else:           # no colour led yet: every card is legal, and would set the led colour
                        for i in range(hn):
                            c = hand[s, i] & ID_MASK
                            key = keys[kix(reg, colour[c], 0) + c]
                            top, bottom = seeker_fold(top, bottom, key, pow0[c], spow0[c], -1, 2 * i, bound, win_m)
                # a Mercenary's option as 0 (option 2 * slot + 1; always legal, it has no colour), after the loops:
                # no test per card (the keys hold their option, so the order of the folds does not matter)
                mercs = hb & hx[HX_MERC]
                while mercs != 0:
                    c = trailing_zeros(mercs)
                    mercs &= mercs - 1
                    j = 2 * hx[HX_SLOT + c] + 1
                    if tn == 0:
                        top = imax(top, (spow1[c] << 6) + 63 - j)
                    else:       # (led < 0: kix(reg, -1, 1), the row of a card played with no colour led)
                        top, bottom = seeker_fold(top, bottom, keys[kix(reg, led, 1) + c], pow1[c], spow1[c], -1, j,
                                                  bk - np.int64(tie), -np.int64(want == 1))
                pick = 63 - (top & 63) if top > NO_KEY else bottom & 63
                slot = pick >> 1
                m = pick & 1
                c = hand[s, slot]
            elif code == PLAY_RANDOM:
                # play_random: a uniform option, counted and found again in the same order
                frow = follow_row(follows, led, has_led)
                n = 0
                for i in range(hn):
                    n += random_options(hand[s, i] & ID_MASK, frow, kind)
                k = draw(state, n)
                # option k lies in card i's range [first, first + r): found by selects over the whole hand, no
                # early exit (which was mispredicted once a decision)
                slot = 0
                m = 0
                first = 0
                for i in range(hn):
                    r = random_options(hand[s, i] & ID_MASK, frow, kind)
                    hit = (k >= first) & (k < first + r)
                    slot = i if hit else slot
                    m = k - first if hit else m
                    first += r
                c = hand[s, slot]
            else:
                # few data-dependent branches below: every row is written and `n` advances when the card is legal
                n = 0
                for i in range(hn):
                    c = hand[s, i]
                    kc = kind[c]
                    cc = colour[c]
                    li = (led if led >= 0 else cc) + 1
                    key = keys[kix(reg, li - 1, 0) + c]
                    option_row(moves, n, c, 0, kc, cc, value[c], (key > bk) | (tie & (key == -1)), i)
                    n += (not has_led) | (cc == led) | (cc < 0)
                    if kc == MERCENARY:
                        key = keys[kix(reg, li - 1, 1) + c]
                        option_row(moves, n, c, 1, kc, -1, 0, (key > bk) | (tie & (key == -1)), i)
                        n += 1
                # the public facts of this seat (as fill_state, then the trick's standing)
                p = fill_seat(state, s, cf, ps, hn)
                state[S_POS] = tn
                state[S_LAST] = 1 if tn == seats - 1 else 0
                state[S_LED] = led
                if tn > 0:
                    ws = tr[best if best >= 0 else (fnw if fnw >= 0 else 0), T_SEAT]
                    state[S_WINNER] = ws
                    state[S_WINNER_PARTNER] = 1 if ws == p else 0
                else:
                    state[S_WINNER] = -1
                    state[S_WINNER_PARTNER] = 0
                state[S_REGIME] = reg
                if search and code == SEARCH:
                    i = answer(gs)
                    if i < 0:
                        ask(gs, D_PLAY, s, n, n)
                        return -1
                else:
                    i = checked(play_fns[s](moves, n, state, params[s]), 0, n, gs)
                c = moves[i, M_CARD]
                m = moves[i, M_MODE]
                slot = moves[i, M_SLOT]
            take_slot(hand, hand_n, hx, s, slot)
        # the card joins the trick (a seat that does not follow the led colour shows it has none)
        if search and s != auto and kind[c] == ARCANA and led >= 0 and colour[c] != led:
            gs[GS_VOID + s] |= 1 << led
        if search:
            gs[GS_BY + s] |= card_bit(c)       # the cards each seat played (the search's beliefs)
        tr[tn, T_CARD] = c
        tr[tn, T_MODE] = m
        tr[tn, T_SEAT] = s
        tn += 1
        gs[GS_TN] = tn
        rec(trace, gs, EV_PLAY, s, c, m, 0)
        if check:
            if played[c] != 0:
                gs[GS_VIOL] += 1
            played[c] = 1
            gs[GS_PLAYED] += 1
        # its rule counter (ptab[5]: a Mercenary played as 0 counts one slot further; arcana count in GS_SINK)
        counter = counters[c & ID_MASK] + m
        gs[counter] += 1
        zero |= (counter == FD_EGG) | (counter == FD_MERC + 1)
        nlow, nhigh, led, reg, best, bkey, fnw = joined(c, m, tn, tr, kind, colour, keys, nlow, nhigh, led, reg, best,
                                                        bkey, fnw)
    # the trick's own counters: both Wizards, or the low Wizard alone with the Egg or a Mercenary as 0
    low = nlow > 0
    high = nhigh > 0
    gs[FD_WIZ_CANCEL] += low & high
    gs[FD_EGG_LOW] += low & (not high) & zero
    if best < 0:
        best = fnw if fnw >= 0 else 0
    return best


@njit(cache=True, _nrt=False)
def count_trick(tr, tn, kind, value, gs, auto):
    """Rule counters of a finished trick: the special cards played, both Wizards, the Egg under the low
    Wizard, the automaton's Mercenary and the Fallen King's tricks."""
    nlow = 0
    nhigh = 0
    zero = 0
    for i in range(tn):
        c = tr[i, T_CARD]
        k = kind[c]
        if k == OBSCURE:
            gs[FD_KNIGHT + min(max(value[c] - 11, 0), 2)] += 1
        elif k == MERCENARY:
            gs[FD_MERC + tr[i, T_MODE]] += 1
            zero += tr[i, T_MODE]
            if tr[i, T_SEAT] == auto:
                gs[FD_AUTO_MERC] += 1
        elif k == EGG:
            gs[FD_EGG] += 1
            zero += 1
        elif k == WIZ_LOW:
            gs[FD_WIZ_LOW] += 1
            nlow += 1
        elif k == WIZ_HIGH:
            gs[FD_WIZ_HIGH] += 1
            nhigh += 1
    if nlow > 0 and nhigh > 0:
        gs[FD_WIZ_CANCEL] += 1
    if nlow > 0 and nhigh == 0 and zero > 0:
        gs[FD_EGG_LOW] += 1


@njit(cache=True)
def build_powers(kind, colour, value, trump, ptab):
    """ptab[mode, card]: the seeker's card_power of each card as an option row shows it (a Mercenary
    played as 0 has value 0 and no colour); ptab[2 + mode, card]: the same negated; ptab[4, card]: its
    lead_power (trumps below every other card) for a seeker that leads trumps last; ptab[5, card]: the gs slot
    of its rule counter (play_trick counts the cards as they are played)."""
    for c in range(kind.shape[0]):
        ptab[0, c] = card_power(kind[c], value[c], 0, colour[c], trump)
        ptab[1, c] = card_power(kind[c], 0, 1, -1, trump)
        ptab[2, c] = -ptab[0, c]
        ptab[3, c] = -ptab[1, c]
        ptab[4, c] = lead_power(kind[c], value[c], 0, colour[c], trump)
        k = kind[c]
        slot = GS_SINK
        if k == OBSCURE:
            slot = FD_KNIGHT + min(max(value[c] - 11, 0), 2)
        elif k == MERCENARY:
            slot = FD_MERC
        elif k == EGG:
            slot = FD_EGG
        elif k == WIZ_LOW:
            slot = FD_WIZ_LOW
        elif k == WIZ_HIGH:
            slot = FD_WIZ_HIGH
        ptab[5, c] = slot


@njit(cache=True)
def build_follows(colour, follows):
    """follows[led + 1, card]: -1 when the card may be played to a trick led in that colour by a hand that holds
    the colour (the colour itself, or a colourless card), else 0; the last row, for a hand void in the led
    colour, is all -1. A mask read from a table: the same test computed in the loop was compiled into a
    branch that went either way at random."""
    for led in range(-1, follows.shape[0] - 2):
        for c in range(colour.shape[0]):
            follows[led + 1, c] = -1 if colour[c] == led or colour[c] < 0 else 0
    follows[-1, :] = -1


@njit(cache=True)
def build_hx(kind, colour, hx):
    """hx's per-batch masks: the cards of each colour and the colourless cards (card ids < MAX_CARDS)."""
    for c in range(colour.shape[0]):
        if colour[c] >= 0:
            hx[HX_COLOUR + colour[c]] |= np.int64(1) << c
        else:
            hx[HX_NONE] |= np.int64(1) << c
        if kind[c] == MERCENARY:
            hx[HX_MERC] |= np.int64(1) << c
