"""Dragonwake's search player (sim/games/dragonwake/kernel_search.py): it plays legal, repeatable games that leave
the deal alone, its beliefs read every claim as the strategies it models would make it, it plays out against the
line-up it meets when informed, and it is stronger than the heuristics it plays out with. (That it never reads
what its player cannot see is checked by tests/test_search_common.py through tests/search_probe_dragonwake.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.dragonwake import kernel_search as ks
from sim.games.dragonwake.game import kernel_params, playout_functions
from sim.games.dragonwake.kernel_base import PH_CLAIM, PH_PICK, PR_PHASE, W_ROLE
from sim.games.dragonwake.records import DOWN0, EV_CLAIM, MAX_HAND, PUB_ROW, P_HAND, SILENT
from search_probe_dragonwake import ADVANCED, BASIC, GAME, PLAYERS, positions
from strategies.dragonwake import (
    LYING, P_BELIEFS, P_CULTIST_CLAIMS, P_HERO_CLAIMS, P_INFORMED, QUIET, REGISTRY, TRUTHFUL, UNKNOWN,
)

ALL = positions(BASIC, 12) + positions(ADVANCED, 8)


def test_the_positions_cover_claims_and_picks_of_both_sides():
    kinds = {(int(pos.work[W_ROLE, pos.me]), int(pos.prog[PR_PHASE])) for pos in ALL}
    assert len(kinds) == 4


@pytest.mark.parametrize("rules", [BASIC, ADVANCED], ids=["basic", "advanced"])
def test_search_games_are_legal_and_repeatable(rules):
    lineup = GAME.lineup("hero=search:budget=20,cultist=search:budget=20")
    for trace in GAME.traces(rules, PLAYERS, lineup, 5, 4):
        GAME.referee(rules, PLAYERS, trace)
    one = GAME.simulate(rules, PLAYERS, lineup, 5, 30, check=True)["games"]
    two = GAME.simulate(rules, PLAYERS, lineup, 5, 30)["games"]
    assert one["violations"].sum() == 0
    for col in two:
        assert np.array_equal(one[col], two[col])


def test_a_search_seat_leaves_the_deal_alone():
    """The search draws from its own stream: game i deals the same roles and first hands whoever searches."""
    base = GAME.traces(BASIC, PLAYERS, GAME.lineup("default"), 8, 3)
    searched = GAME.traces(BASIC, PLAYERS, GAME.lineup("hero=search:budget=20"), 8, 3)
    for a, b in zip(base, searched):
        dealt = np.argmax(a.events[:, 0] == EV_CLAIM)          # roles, the first round, its deal come first
        assert dealt > PLAYERS and np.array_equal(a.events[:dealt], b.events[:dealt])


def test_search_claims_and_picks_are_legal_answers():
    for pos in ALL:
        d = pos.search(9)
        if pos.prog[PR_PHASE] == PH_CLAIM:
            assert SILENT <= d <= 2 * pos.state[PUB_ROW, P_HAND] + 1
        else:
            p, s = divmod(d, MAX_HAND)
            assert pos.state[p, DOWN0 + s] == 1


@pytest.mark.parametrize("role, side", [("hero", 0), ("cultist", 1)])
def test_search_beats_the_default_heuristics_on_the_same_deals(role, side):
    """Paired on the same deals: the side searching at the default budget wins more often than the defaults in its
    place, by more than the noise of this many games allows (one-sided 95%)."""
    n = 800
    base = GAME.simulate(BASIC, PLAYERS, GAME.lineup("default"), 21, n)["games"]["winner"] == side
    searched = GAME.simulate(BASIC, PLAYERS, GAME.lineup(f"{role}=search"), 21, n)["games"]["winner"] == side
    diff = searched.astype(float) - base.astype(float)
    assert diff.mean() - 1.64 * diff.std(ddof=1) / np.sqrt(n) > 0


@pytest.mark.parametrize("name, role, params", [
    ("honest", "hero", {"hide_dragon": 0.3}), ("bayes", "hero", {}), ("bayes", "cultist", {"inflate": 2.0}),
    ("liar", "cultist", {"silent": 0.25}), ("random", "hero", {})])
def test_a_claims_chance_is_how_often_the_strategy_makes_it(name, role, params):
    """kernel_search.claim_chance under the model of strategies.dragonwake.claim_model against the strategy's own
    declare function, called 400 times on each of several hands (frequencies within 0.08)."""
    from strategies.dragonwake import claim_model
    strategy = REGISTRY.get(name)
    weights = strategy.params(params)
    model = claim_model(name, role, weights)
    pos = ALL[0].copy()
    me, hand = pos.me, int(pos.state[PUB_ROW, P_HAND])
    rng = np.random.default_rng(5)
    for _ in range(6):
        cards = rng.choice([0, 1, 2], size=hand, p=[0.5, 0.35, 0.15])          # gold, relic, dragon
        pos.state[me, ks.CARDS0:ks.CARDS0 + MAX_HAND] = -1
        pos.state[me, ks.CARDS0:ks.CARDS0 + hand] = cards
        made = [int(strategy.functions[0](me, 0 if role == "hero" else 1, pos.state, weights, pos.memory[me]))
                for _ in range(400)]
        relics, dragons = int((cards == 1).sum()), int((cards == 2).sum())
        for heard in range(SILENT, 2 * hand + 2):
            chance = ks.claim_chance(*model, relics, dragons, hand, heard)
            assert abs(made.count(heard) / 400 - chance) < 0.08, (heard, relics, dragons)


def test_the_true_deal_keeps_every_claim_under_the_default_models():
    """At picks of games the default strategies play, the claims heard accept the true roles and hands with
    beliefs (every claim is one the modelled strategies make), where the older rule (heroes truthful, hiding
    ignored) rejects some true deals."""
    picks = positions(BASIC, 40, keep=lambda p: p.prog[PR_PHASE] == PH_PICK)
    fits = [[ks.claims_fit(p.me, p.rint, p.state, p.work, p.prog, p.params, beliefs) for p in picks]
            for beliefs in (True, False)]
    assert all(chance == 1.0 and misses == 0 for chance, misses in fits[0])
    assert any(misses > 0 for _, misses in fits[1])


def search_counts(spec: str, n: int = 40) -> dict:
    counts = {}
    GAME._play(BASIC, PLAYERS, GAME.lineup(spec), 3, n, 0, False, counts)
    return counts


def test_informed_playouts_play_the_lineup_met_and_model_its_claims():
    lineup = GAME.lineup("hero=search:informed=1,cultist=liar:inflate=2:silent=0.5")
    assert playout_functions(lineup)[3] is REGISTRY.get("liar").functions[0]
    params = kernel_params(lineup["hero"], lineup)
    assert list(params[P_CULTIST_CLAIMS:P_CULTIST_CLAIMS + 3]) == [LYING, 2.0, 0.5]
    assert list(params[P_HERO_CLAIMS:P_HERO_CLAIMS + 3]) == [TRUTHFUL, 1.0, 0.0]     # its own role: the defaults
    against_random = GAME.lineup("hero=search:informed=1,cultist=random")
    assert playout_functions(against_random)[3] is REGISTRY.get("random").functions[0]
    assert kernel_params(against_random["hero"], against_random)[P_CULTIST_CLAIMS] == QUIET
    uninformed = GAME.lineup("hero=search,cultist=random")
    assert playout_functions(uninformed)[3] is REGISTRY.get("liar").functions[0]
    assert kernel_params(uninformed["hero"], uninformed)[P_INFORMED] == 0.0
    assert kernel_params(uninformed["hero"], uninformed)[P_BELIEFS] == 1.0


def test_claims_the_model_never_makes_fall_back_and_are_counted():
    """Heroes who claim a dragon they hold (hide_dragon=0): the default model (a hero always hides it) finds no
    deal that fits such a claim, and the fallbacks are counted; informed of the line-up, the model is theirs and
    the fallbacks are fewer (the searching cultists' own claims, off any model, remain: measured 25% of
    determinisations against 40%)."""
    met = "hero=honest:hide_dragon=0"
    rates = {}
    for informed in (0, 1):
        counts = search_counts(f"{met},cultist=search:budget=10:informed={informed}")
        assert 0 < counts["belief_fallbacks"] <= counts["determinisations"]
        rates[informed] = counts["belief_fallbacks"] / counts["determinisations"]
    assert rates[1] < 0.8 * rates[0]


def test_informed_search_plays_other_games_against_a_lineup_unlike_the_defaults():
    plain = GAME.simulate(BASIC, PLAYERS, GAME.lineup("hero=search:budget=20,cultist=random"), 9, 30)["games"]
    informed = GAME.simulate(BASIC, PLAYERS, GAME.lineup("hero=search:budget=20:informed=1,cultist=random"), 9,
                             30)["games"]
    assert any(not np.array_equal(plain[c], informed[c]) for c in plain)
