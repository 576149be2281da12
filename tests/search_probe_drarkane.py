"""Drarkane's probe for the shared no-peeking tests (tests/search_harness.py): decisions of several seats in every
mode (four players, the Fallen King, solo, teams of six, Treasures), and the hidden part (the other hands, the
Fallen King's deck, the dragon deck's order, the others' objectives and the objective deck, solo's piles, the
game's stream) redealt by this file's own code; the cards the seat gave its partner stay with the partner, and the
cards another team passed (kernel_base.GS_GAVE, GS_XIN, GS_XOUT) count as hidden (poisoned with the hands). A position's `array` is the game's eighteen arrays laid end to end."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from sim.games import get_game
from sim.games.drarkane import kernel, kernel_search as ks
from sim.games.drarkane.kernel_base import (
    GS_GAVE, GS_XIN, GS_XOUT, GS_AUTO_PTR, GS_DDEALT, GS_DPILE, GS_DPILE_N, GS_DPTR, GS_PILE, GS_PILE_N, GS_Q, GS_QN, GS_QROWS, GS_TN, GS_VOID,
    GS_ZOBJ_N, HX_BITS, HX_SLOT, ID_MASK, PS_OBJ, PS_OBJ_COND, PS_OBJ_DONE, PS_OBJ_PARAM, T_CARD, partner_of,
)
from sim.games.drarkane.records import (
    CF_DECK_N, CF_MODE, CF_N_DRAGONS, CF_N_OBJECTIVES, CF_PLAYERS, CF_SEATS, CF_SOLO_SPLIT, CF_TREASURES,
    MODE_FALLEN_KING, MODE_SOLO, S_RNG, TRACE_WIDTH,
)

warnings.simplefilter("ignore")   # numba's first-class functions are marked experimental

GAME = get_game("drarkane")
TRACE = np.zeros((0, 1, TRACE_WIDTH), np.int16)
HAND, HAND_N, HX, GS, PS, TR, OBJOPT, STATE, DECK, DDECK, ODECK, ZOBJ, CARD_LOC, PLAYED = (
    0, 1, 2, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 17)
# (name, players, variants): every mode, with the variants whose decisions the search also answers
TABLES = [("four", 4, ()), ("fallen_king", 2, ()), ("solo", 1, ()), ("teams_six", 6, ("teams",)),
          ("treasures_four", 4, ("treasures",))]


def setup(players, variants, me):
    rules = GAME.load_rules(variants=variants).typed
    return kernel.search_setup(rules, players, me)


def copy(work):
    return tuple(a.copy() for a in work)


@dataclass
class Position:
    arrays: tuple           # search_setup's arrays (cf, tables, ..., play, sc, ss)
    work: tuple             # the game's arrays at the question
    q: int
    me: int
    budget: int

    @property
    def cf(self):
        return self.arrays[0]

    @property
    def array(self) -> np.ndarray:
        return np.concatenate([a.reshape(-1) for a in self.work])

    @property
    def options(self) -> int:
        return int(self.work[GS][GS_QN])

    @property
    def drafting(self) -> bool:
        return self.q // 6 == ks.D_DRAFT

    def with_work(self, work) -> "Position":
        return Position(self.arrays, work, self.q, self.me, self.budget)


def table_positions(players, variants, count, budget):
    """Decisions of several seats of one table, early and late in games."""
    out = []
    for g in range(400):
        me = g % players
        arrays = setup(players, variants, me)
        cf, tables, work, fns, params, codes = arrays[:6]
        if ks.to_question(11, g, me, (0, 3, 9, 20, 35)[g % 5], cf, tables, work, fns, params, codes, TRACE):
            out.append(Position(arrays, copy(work), int(work[GS][GS_Q]), me, budget))
        if len(out) == count:
            return out
    raise AssertionError("too few decision points")


def positions(count, budget):
    return [pos for _, players, variants in TABLES for pos in table_positions(players, variants, count, budget)]


def decide(pos: Position, stream: int, deal: int = 1) -> int:
    """The search's choice from a copy of the position, on search stream `stream`."""
    play, sc, ss = pos.arrays[6:]
    ss = ss.copy()
    ss[ks.SS_RNG] = stream
    return int(ks.decide(pos.q, pos.budget, copy(pos.work), TRACE, play, sc.copy(), ss, deal))


def determinised(pos: Position, stream: int, leak: bool, beliefs: bool = False, ss=None) -> Position:
    """The search's own determinisation of pos (`beliefs`: with the contracts read, the seeker the model; `ss`, if
    given, the search state to use, its stream overwritten, its counts kept)."""
    play, sc = pos.arrays[6], pos.arrays[7].copy()
    ss = pos.arrays[8].copy() if ss is None else ss
    ss[ks.SS_RNG] = stream
    work = copy(pos.work)
    ks.redeal(pos.me, pos.drafting, work, sc, ss, play, ks.DEAL_LEAK if leak else (ks.DEAL_BELIEFS if beliefs else ks.DEAL))
    return pos.with_work(work)


# ---- what the seat sees --------------------------------------------------------------------------------------


def auto_seat(cf) -> int:
    return 2 if cf[CF_MODE] == MODE_FALLEN_KING else -1


def held_cards(cf, work, s):
    start = work[GS][GS_AUTO_PTR] if s == auto_seat(cf) else 0
    return work[HAND][s, start:start + work[HAND_N][s]]


def hidden_seats(cf, me):
    return [s for s in range(cf[CF_SEATS]) if s != me and cf[CF_MODE] != MODE_SOLO]


def hidden_cells(cf, work, me):
    """(array index, flat cell) pairs of `work` that seat `me` cannot see."""
    cells = []
    gs, ps = work[GS], work[PS]
    width = work[HAND].shape[1]
    for s in hidden_seats(cf, me):
        start = gs[GS_AUTO_PTR] if s == auto_seat(cf) else 0
        cells += [(HAND, s * width + i) for i in range(start, start + work[HAND_N][s])]
        if s != auto_seat(cf):
            cells.append((HX, HX_BITS + s))
        if s != partner_of(cf, me):     # the cards another team passed (a partner's flows are with the seat)
            cells += [(GS, base + s) for base in (GS_GAVE, GS_XIN, GS_XOUT)]
    if cf[CF_MODE] != MODE_SOLO:       # the slots of the cards not in my hand (another's, or stale)
        mine = set(held_cards(cf, work, me) & ID_MASK)
        cells += [(HX, HX_SLOT + c) for c in range(64) if c not in mine]
    cells += [(DDECK, i) for i in range(gs[GS_DPTR], cf[CF_N_DRAGONS])]
    cells.append((STATE, S_RNG))
    if cf[CF_MODE] == MODE_SOLO:
        cells += [(DECK, i) for i in range(gs[GS_PILE], gs[GS_PILE_N])]
        cells += [(PLAYED, i) for i in range(gs[GS_DPILE], gs[GS_DPILE_N])]
    if cf[CF_TREASURES]:
        for s in other_objectives(cf, work, me):
            cells += [(PS, s * ps.shape[1] + c) for c in (PS_OBJ, PS_OBJ_COND, PS_OBJ_PARAM)]
        cells += [(ODECK, i) for i in range(gs[GS_DDEALT], cf[CF_N_OBJECTIVES])]
    return cells


def other_objectives(cf, work, me):
    """The players whose objective `me` does not know: not its own or its partner's, held, not completed."""
    ps, partner = work[PS], partner_of(cf, me)
    return [s for s in range(cf[CF_PLAYERS]) if s not in (me, partner) and ps[s, PS_OBJ] >= 0
            and ps[s, PS_OBJ_DONE] == 0]


def offsets(work):
    return np.cumsum([0] + [a.size for a in work])


def seen(pos: Position) -> np.ndarray:
    at = offsets(pos.work)
    mask = np.ones(at[-1], bool)
    for i, c in hidden_cells(pos.cf, pos.work, pos.me):
        mask[at[i] + c] = False
    return mask


def poison(pos: Position) -> Position:
    work = copy(pos.work)
    for i, c in hidden_cells(pos.cf, pos.work, pos.me):
        work[i].reshape(-1)[c] = 0 if i != STATE else 12345
    return pos.with_work(work)


# ---- the hidden part, dealt from the observation alone -------------------------------------------------------


def unseen_cards(cf, tables, work, me):
    """The round's cards `me` has not seen, in the deck's order: not in its hand (solo: the player's), not in the
    trick, not on a dragon or discarded."""
    seen_ids = set(held_cards(cf, work, max(me, 0)) & ID_MASK)
    seen_ids |= {int(work[TR][i, T_CARD]) & ID_MASK for i in range(work[GS][GS_TN])}
    return [int(c) for c in tables[8][:cf[CF_DECK_N]]
            if work[CARD_LOC][c & ID_MASK] == -1 and c & ID_MASK not in seen_ids]


def given_away(cf, tables, work, me):
    """The cards `me` gave its partner this round that it has not seen since: the partner holds them."""
    if partner_of(cf, me) < 0:
        return []
    gave = int(work[GS][GS_GAVE + me])
    return [c for c in unseen_cards(cf, tables, work, me) if (gave >> (c & ID_MASK)) & 1]


def deal_hands(cf, tables, work, me, rng):
    """The other hands (the Fallen King's deck from its pointer) from the cards `me` has not seen, none of a colour a
    seat showed it lacks (whole deals redrawn until every void is kept); the cards `me` gave its partner stay with
    the partner."""
    colour, gs, hand, hand_n, hx = tables[1], work[GS], work[HAND], work[HAND_N], work[HX]
    seats = hidden_seats(cf, me)
    given = given_away(cf, tables, work, me)
    cards = [c for c in unseen_cards(cf, tables, work, me) if c not in given]
    for _ in range(10_000):
        pile = list(rng.permutation(cards))
        deal = {}
        for s in seats:
            void = gs[GS_VOID + s] if s != auto_seat(cf) else 0
            take = [c for c in pile if not (colour[c & ID_MASK] >= 0 and (void >> colour[c & ID_MASK]) & 1)]
            mine = given if s == partner_of(cf, me) else []
            deal[s] = mine + take[:hand_n[s] - len(mine)]
            pile = [c for c in pile if c not in deal[s]]
        if all(len(deal[s]) == hand_n[s] for s in seats):
            break
    else:
        raise AssertionError("no deal keeps the voids")
    for s in seats:
        start = gs[GS_AUTO_PTR] if s == auto_seat(cf) else 0
        hand[s, start:start + hand_n[s]] = deal[s]
        if s != auto_seat(cf):
            hx[HX_BITS + s] = sum(1 << (c & ID_MASK) for c in deal[s])
            for i, c in enumerate(deal[s]):
                hx[HX_SLOT + (c & ID_MASK)] = i


def deal_objectives(cf, tables, work, me, drafting, rng):
    """The objectives `me` does not know, from those it has not seen, to the other players and the objective deck."""
    ob, gs, ps = tables[10], work[GS], work[PS]
    partner = partner_of(cf, me)
    known = {int(ps[s, PS_OBJ]) for s in range(cf[CF_PLAYERS])
             if ps[s, PS_OBJ] >= 0 and (s in (me, partner) or ps[s, PS_OBJ_DONE] != 0)}
    if drafting:
        known |= {int(work[OBJOPT][i, 0]) for i in range(gs[GS_QROWS])}
    else:
        known |= {int(work[ZOBJ][j, 0]) for j in range(gs[GS_ZOBJ_N])}
    pile = list(rng.permutation([o for o in range(cf[CF_N_OBJECTIVES]) if o not in known]))
    for s in other_objectives(cf, work, me):
        o = pile.pop(0)
        ps[s, PS_OBJ], ps[s, PS_OBJ_COND], ps[s, PS_OBJ_PARAM] = o, ob[o, 1], ob[o, 2]
    for j, o in zip(range(gs[GS_DDEALT], cf[CF_N_OBJECTIVES]), pile):
        work[ODECK][j] = o


def deal_solo(cf, tables, work, rng):
    """The draw pile and the Demon's deck from the cards not in the hand, the trick, on a dragon or discarded."""
    gs = work[GS]
    cells = [(DECK, j) for j in range(gs[GS_PILE], gs[GS_PILE_N])]
    if cf[CF_SOLO_SPLIT] != 0:
        cells += [(PLAYED, j) for j in range(gs[GS_DPILE], gs[GS_DPILE_N])]
    for (i, j), c in zip(cells, rng.permutation(unseen_cards(cf, tables, work, 0))):
        work[i][j] = c


def redeal(pos: Position, seed: int) -> Position:
    """The same observation for the seat with another arrangement of what it cannot see, consistent with it."""
    rng = np.random.default_rng(seed)
    cf, tables, work, me = pos.cf, pos.arrays[1], copy(pos.work), pos.me
    if cf[CF_MODE] == MODE_SOLO:
        deal_solo(cf, tables, work, rng)
    else:
        deal_hands(cf, tables, work, me, rng)
        if cf[CF_TREASURES]:
            deal_objectives(cf, tables, work, me, pos.drafting, rng)
    gs, ddeck = work[GS], work[DDECK]
    shown = set(ddeck[:gs[GS_DPTR]])
    ddeck[gs[GS_DPTR]:cf[CF_N_DRAGONS]] = rng.permutation([d for d in range(cf[CF_N_DRAGONS]) if d not in shown])
    work[STATE][S_RNG] = int(rng.integers(1, 2 ** 62))
    return pos.with_work(work)


def cache_errors(pos: Position) -> list[str]:
    """Each held hand's card mask and its cards' slots (hx) against the hand, and each held objective's condition and
    parameter against the objective."""
    cf, tables, work = pos.cf, pos.arrays[1], pos.work
    errors = []
    if cf[CF_MODE] != MODE_SOLO:
        for s in range(cf[CF_SEATS]):
            if s == auto_seat(cf):
                continue
            cards = held_cards(cf, work, s) & ID_MASK
            if work[HX][HX_BITS + s] != sum(1 << int(c) for c in cards):
                errors.append(f"hand mask {s}")
            if any(work[HX][HX_SLOT + c] != i for i, c in enumerate(cards)):
                errors.append(f"slots {s}")
    ob, ps = tables[10], work[PS]
    for s in range(cf[CF_PLAYERS]) if cf[CF_TREASURES] else ():
        o = ps[s, PS_OBJ]
        if o >= 0 and (ps[s, PS_OBJ_COND] != ob[o, 1] or ps[s, PS_OBJ_PARAM] != ob[o, 2]):
            errors.append(f"objective {s}")
    return errors


def probe_positions():
    """The decision points the shared checks (tests/search_harness.py) run on."""
    return positions(4, 12)
