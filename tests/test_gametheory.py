"""Solvers of sim.analysis.gametheory on games whose answers are known (issue #24)."""

import itertools

import numpy as np
import pytest
from scipy.optimize import brentq

from sim.analysis.gametheory import (CellSummary, SymmetricGame, alpha_rank, bootstrap_solution, clean, double_oracle,
                                     exploitability, fictitious_play, is_constant_sum, mixture_payoff, nash_conv,
                                     opponent_profiles, polish, pure, regret, regret_matching, replicator,
                                     side_exploitability, solve_symmetric, solve_symmetric_matrix, solve_zero_sum,
                                     stationary, strategy_payoffs)

RPS = np.array([[0.5, 0.0, 1.0],          # rock, paper, scissors; row's win rate, a tie counts half
                [1.0, 0.5, 0.0],
                [0.0, 1.0, 0.5]])
THIRD = np.full(3, 1 / 3)


def assert_mixture(x, k):
    assert x.shape == (k,) and np.all(x >= 0) and x.sum() == pytest.approx(1, abs=1e-12)


# -- two sides, constant-sum ------------------------------------------------------------------------------------

def test_rock_paper_scissors_is_uniform_with_value_one_half_or_zero():
    sol = solve_zero_sum(RPS)
    np.testing.assert_allclose(sol.row, THIRD, atol=1e-9)
    np.testing.assert_allclose(sol.col, THIRD, atol=1e-9)
    assert sol.value == pytest.approx(0.5, abs=1e-9) and sol.gap < 1e-9
    zero_sum = solve_zero_sum(2 * RPS - 1)                  # the same game in the win = 1, loss = -1 convention
    assert zero_sum.value == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(zero_sum.row, THIRD, atol=1e-9)


def test_matching_pennies_is_uniform():
    sol = solve_zero_sum([[1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_allclose(sol.row, [0.5, 0.5])
    np.testing.assert_allclose(sol.col, [0.5, 0.5])
    assert sol.value == pytest.approx(0.5)
    lp = solve_zero_sum([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])     # a dominated third row forces the LP path
    assert lp.value == pytest.approx(0.5, abs=1e-9) and lp.row[2] == 0


@pytest.mark.parametrize("A, row, col, value", [
    ([[0.6, 0.7], [0.4, 0.3]], 0, 0, 0.6),                  # 2x2, closed form
    ([[0.2, 0.9, 0.4], [0.6, 0.8, 0.7], [0.5, 0.1, 0.9]], 1, 0, 0.6),   # 3x3, LP
])
def test_a_pure_saddle_point_is_found(A, row, col, value):
    sol = solve_zero_sum(A)
    np.testing.assert_allclose(sol.row, pure(row, len(A)), atol=1e-9)
    np.testing.assert_allclose(sol.col, pure(col, len(A[0])), atol=1e-9)
    assert sol.value == pytest.approx(value, abs=1e-9)


def test_a_strictly_dominated_strategy_gets_weight_zero():
    A = np.array(RPS)
    A = np.vstack([A, A[0] - 0.05])                         # a worse rock for the row side
    A = np.hstack([A, A[:, [1]] + 0.05])                     # a worse paper for the column side (it concedes more)
    sol = solve_zero_sum(A)
    assert sol.row[3] == 0 and sol.col[3] == 0
    np.testing.assert_allclose(sol.row[:3], THIRD, atol=1e-9)
    assert sol.value == pytest.approx(0.5, abs=1e-9)


def test_the_lp_value_equals_fictitious_play_on_a_random_table():
    A = np.random.default_rng(11).random((7, 5))
    sol = solve_zero_sum(A)
    fp = fictitious_play(A, 200_000, tol=1e-3)
    assert fp.lower - 1e-12 <= sol.value <= fp.upper + 1e-12     # fictitious play brackets the value
    assert abs(fp.value - sol.value) < 1e-3
    assert sol.gap < 1e-9 and exploitability(A, sol.row, sol.col).nash_conv < 1e-9
    assert_mixture(sol.row, 7)
    assert_mixture(sol.col, 5)


def test_lp_solutions_are_unexploitable_on_many_random_tables():
    rng = np.random.default_rng(3)
    for m, n in [(1, 4), (4, 1), (2, 2), (3, 8), (9, 6), (12, 12)]:
        for _ in range(5):
            A = rng.random((m, n))
            if m == n == 2:
                A = np.round(A * 3) / 3                     # ties and weak saddles for the closed form
            sol = solve_zero_sum(A)
            assert_mixture(sol.row, m)
            assert_mixture(sol.col, n)
            assert exploitability(A, sol.row, sol.col).nash_conv < 1e-8
            lp = solve_zero_sum(np.vstack([A, np.full(n, A.min() - 1)]))   # same game through the LP
            assert lp.value == pytest.approx(sol.value, abs=1e-9)


def test_degenerate_tables():
    flat = solve_zero_sum(np.full((3, 4), 0.4))
    np.testing.assert_allclose(flat.row, THIRD)
    np.testing.assert_allclose(flat.col, np.full(4, 0.25))
    assert flat.value == pytest.approx(0.4)
    one_row = solve_zero_sum([[0.7, 0.3, 0.5]])
    assert one_row.value == pytest.approx(0.3) and one_row.col.tolist() == [0, 1, 0]
    one_col = solve_zero_sum([[0.7], [0.3], [0.5]])
    assert one_col.value == pytest.approx(0.7) and one_col.row.tolist() == [1, 0, 0]
    assert solve_zero_sum([[0.25]]).value == 0.25
    for bad in ([[np.nan, 1.0]], np.zeros((0, 3)), [0.1, 0.2], [[[0.5]]]):
        with pytest.raises(ValueError):
            solve_zero_sum(bad)


def test_exploitability_of_pure_strategies_in_rock_paper_scissors():
    rock, paper = pure(0, 3), pure(1, 3)
    e = exploitability(RPS, rock, rock)
    assert (e.payoff, e.row_gain, e.col_gain) == (0.5, 0.5, 0.5)
    assert e.row_best_response == e.col_best_response == 1          # paper beats rock, for either side
    assert exploitability(RPS, paper, rock).row_gain == 0.0
    assert side_exploitability(RPS, rock, "row") == pytest.approx(0.5)   # a best response holds rock to 0
    assert side_exploitability(RPS, THIRD, "row") == pytest.approx(0, abs=1e-9)
    assert side_exploitability(RPS, rock, "col", value=0.5) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        exploitability(RPS, [0.5, 0.6, 0.0], THIRD)


def test_a_symmetric_constant_sum_table_has_a_symmetric_solution():
    rng = np.random.default_rng(5)
    for k in (3, 5, 8):
        R = rng.random((k, k))
        M = 0.5 + (R - R.T) / 2                             # M + M^T = 1: the two sides are interchangeable
        sol = solve_zero_sum(M)
        np.testing.assert_allclose(sol.row, sol.col, atol=1e-7)
        assert sol.value == pytest.approx(0.5, abs=1e-9)
        sym = solve_symmetric_matrix(M)
        assert sym.method == "lp" and sym.regret < 1e-9
        np.testing.assert_allclose(sym.x, sol.row, atol=1e-9)


# -- symmetric n-player ----------------------------------------------------------------------------------------

def crowding(b, n):
    """n seats each pick a site; a site is worth b[i], split equally between the seats that pick it."""
    b = np.asarray(b, dtype=float)
    return SymmetricGame.from_function(n, len(b), lambda i, c: b[i] / (1 + c[i]))


def crowding_equilibrium(b, n):
    """The symmetric equilibrium in closed form: u_i(x) = b_i (1 - (1-x_i)^n) / (n x_i), equal on the support."""
    def weight(bi, v):
        if bi <= v:
            return 0.0
        if bi / n >= v:
            return 1.0
        return brentq(lambda x: -bi * np.expm1(n * np.log1p(-x)) / (n * x) - v, 1e-300, 1 - 1e-16, xtol=1e-16)
    v = brentq(lambda v: sum(weight(bi, v) for bi in b) - 1, max(b) / n, max(b), xtol=1e-16)
    return np.array([weight(bi, v) for bi in b]), v


def test_payoffs_against_a_mixture_match_brute_force_enumeration():
    rng = np.random.default_rng(2)
    n, k = 4, 3
    table = rng.random((k,) * n)                            # payoff of a seat playing a[0] against a[1:], any order
    f = lambda i, c: np.mean([table[(i,) + p] for p in itertools.permutations(np.repeat(np.arange(k), c))])
    g = SymmetricGame.from_function(n, k, f)
    assert len(opponent_profiles(n - 1, k)) == 10
    x = np.array([0.5, 0.3, 0.2])
    expected = [sum(np.prod(x[list(opp)]) * g.payoff(i, np.bincount(opp, minlength=k))
                    for opp in itertools.product(range(k), repeat=n - 1)) for i in range(k)]
    np.testing.assert_allclose(strategy_payoffs(g, x), expected, rtol=1e-12)
    M = rng.random((k, k))
    np.testing.assert_allclose(strategy_payoffs(SymmetricGame.from_matrix(M), x), M @ x, rtol=1e-12)
    assert mixture_payoff(g, x) == pytest.approx(x @ np.array(expected))


def test_a_three_player_crowding_game_replicator_and_regret_matching_agree_with_the_closed_form():
    b = [1.0, 0.9, 0.7]
    g = crowding(b, 3)
    truth, v = crowding_equilibrium(b, 3)
    assert np.all(truth > 0.1)                              # a fully mixed equilibrium
    rep, rm = replicator(g), regret_matching(g)
    assert rep.converged and rm.converged
    for sol in (rep, rm):
        np.testing.assert_allclose(sol.x, truth, atol=1e-6)
        assert sol.regret < 1e-8 and sol.value == pytest.approx(v, abs=1e-8)
    np.testing.assert_allclose(rep.x, rm.x, atol=1e-6)
    best = solve_symmetric(g)
    np.testing.assert_allclose(best.x, truth, atol=1e-9)
    assert nash_conv(g, best.x) == pytest.approx(3 * regret(g, best.x)) and best.regret < 1e-12
    assert regret(g, THIRD) > 0.01                          # the uniform mixture is not an equilibrium


def reference_regret_matching(game, iters, plus=True, tol=1e-9):
    """Regret matching(+) written out in numpy, one step at a time, as the compiled loop must compute it."""
    k = game.k
    x, R, avg, wsum = np.full(k, 1.0 / k), np.zeros(k), np.zeros(k), 0.0
    stop = tol * np.ptp(game.payoffs)
    for t in range(1, iters + 1):
        w = float(t) if plus else 1.0
        avg, wsum = avg + w * x, wsum + w
        u = strategy_payoffs(game, x)
        R = R + u - x @ u
        R = np.maximum(R, 0.0) if plus else R
        pos = np.maximum(R, 0.0)
        x = pos / pos.sum() if pos.sum() > 0 else np.full(k, 1.0 / k)
        if t % 100 == 0 and regret(game, avg / wsum) <= stop:
            return avg / wsum, t
    return avg / wsum, iters


def reference_replicator(game, max_steps, step=0.5, tol=1e-9):
    """Replicator steps written out in numpy, as the compiled loop must compute them: (x, steps, at rest)."""
    x = np.full(game.k, 1.0 / game.k)
    avg, scale = np.zeros(game.k), np.ptp(game.payoffs)
    for t in range(1, max_steps + 1):
        u = strategy_payoffs(game, x)
        adv = (u - x @ u) / scale
        if adv.max() <= tol:
            return x, t, True
        avg += x
        x = x * np.exp(step * np.clip(adv, -50, 50))
        x = np.maximum(x / x.sum(), 1e-15)
        x /= x.sum()
    last, mean = x, avg / max_steps
    return (last if regret(game, last) <= regret(game, mean) else mean), max_steps, False


def random_symmetric_game(seed: int) -> SymmetricGame:
    rng = np.random.default_rng(seed)
    n, k = ((3, 3), (4, 5), (5, 4), (4, 6))[seed]      # seats and strategies: 6 to 56 opponent profiles
    return SymmetricGame(n, rng.random((k, len(opponent_profiles(n - 1, k)))))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("plus", [True, False])
def test_compiled_regret_matching_matches_a_plain_numpy_reference(seed, plus):
    g = random_symmetric_game(seed)
    want, steps = reference_regret_matching(g, 2_000, plus)
    got = regret_matching(g, 2_000, plus=plus)
    assert got.iterations == steps
    np.testing.assert_allclose(got.x, clean(want), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_compiled_replicator_matches_a_plain_numpy_reference(seed):
    g = random_symmetric_game(seed)
    want, steps, rest = reference_replicator(g, 2_000)
    got = replicator(g, max_steps=2_000)
    assert (got.iterations, got.converged) == (steps, rest)
    np.testing.assert_allclose(got.x, clean(want), rtol=1e-9, atol=1e-12)


def test_a_dominated_strategy_dies_out_in_a_symmetric_game():
    b = [1.0, 0.8, 0.2]                                     # site 2 is worth less than a shared site 0
    truth, _ = crowding_equilibrium(b, 3)
    assert truth[2] == 0
    for sol in (replicator(crowding(b, 3)), regret_matching(crowding(b, 3)), solve_symmetric(crowding(b, 3))):
        assert sol.x[2] < 1e-8
        np.testing.assert_allclose(sol.x, truth, atol=1e-6)


def test_a_three_player_rock_paper_scissors_game_is_solved_although_replicator_cycles():
    M = np.array([[0.5, 0.2, 0.9], [0.8, 0.5, 0.3], [0.1, 0.7, 0.5]])    # M + M^T = 1, unequal stakes
    g = SymmetricGame.from_function(3, 3, lambda i, c: c @ M[i] / 2)    # average result against both others
    assert is_constant_sum(g) == (True, pytest.approx(1.5))
    truth = solve_zero_sum(M).row                           # same equilibrium as the 2-player game: u(x) = M x
    np.testing.assert_allclose(truth, [2 / 9, 4 / 9, 3 / 9], atol=1e-9)
    assert not replicator(g, max_steps=3000).converged      # the dynamics circle the equilibrium
    assert regret_matching(g, 3000).regret < 0.01
    sol = solve_symmetric(g, max_steps=3000)
    np.testing.assert_allclose(sol.x, truth, atol=1e-9)
    assert sol.regret < 1e-12 and sol.method.endswith("+ polish")


def test_a_symmetric_game_gives_a_symmetric_and_label_free_solution():
    b = np.array([1.0, 0.9, 0.7])
    g = crowding(b, 3)
    normal = np.empty((3,) + (3,) * 3)                     # every seat's payoff for every pure profile
    for prof in itertools.product(range(3), repeat=3):
        for seat in range(3):
            normal[(seat,) + prof] = b[prof[seat]] / prof.count(prof[seat])
    from_full = SymmetricGame.from_normal_form(normal)
    np.testing.assert_allclose(from_full.payoffs, g.payoffs)
    broken = normal.copy()
    broken[2, 0, 1, 2] += 0.1                               # seat 2 treated differently
    with pytest.raises(ValueError, match="not symmetric: seat 2"):
        SymmetricGame.from_normal_form(broken)
    perm = [2, 0, 1]                                        # relabel the strategies: the solution follows
    sol, sol_perm = solve_symmetric(g), solve_symmetric(crowding(b[perm], 3))
    np.testing.assert_allclose(sol_perm.x, sol.x[perm], atol=1e-9)


def test_heuristic_payoff_table_round_trip_and_checks():
    g = crowding([1.0, 0.6, 0.3, 0.2], 4)
    counts, pay = g.to_hpt()
    assert counts.shape == (35, 4) and np.all(counts.sum(axis=1) == 4)
    assert np.all(np.isnan(pay[counts == 0])) and not np.any(np.isnan(pay[counts > 0]))
    np.testing.assert_array_equal(SymmetricGame.from_hpt(counts, pay).payoffs, g.payoffs)
    with pytest.raises(ValueError, match="no payoff"):
        SymmetricGame.from_hpt(counts[1:], pay[1:])
    with pytest.raises(ValueError):
        SymmetricGame(3, np.zeros((2, 4)))                  # 3 seats, 2 strategies: 3 opponent profiles
    assert not is_constant_sum(g)[0]                        # an unpicked site's worth is lost
    with pytest.raises(ValueError):
        SymmetricGame.from_matrix(np.ones((2, 3)))


def test_polish_sharpens_an_approximate_equilibrium():
    b = [1.0, 0.9, 0.7]
    truth, _ = crowding_equilibrium(b, 5)
    g = crowding(b, 5)
    rough = truth + np.array([0.01, -0.004, -0.006])
    sharp = polish(g, rough)
    assert regret(g, rough) > 1e-3 and sharp.regret < 1e-12
    np.testing.assert_allclose(sharp.x, truth, atol=1e-9)


# -- alpha-rank ------------------------------------------------------------------------------------------------

def test_alpha_rank_reproduces_the_published_han_2013_example():
    """Payoffs of Han et al. 2013 with m = 20, alpha = 0.1: the stationary distribution OpenSpiel's own test
    expects (open_spiel/python/egt/alpharank_test.py)."""
    r, t, p, s, delta, eps = 1.0, 2.0, 0.0, -1.0, 4.0, 0.25
    M = np.array([[r - eps / 2, r - eps, 0, s + delta - eps, r - eps], [r, r, s, s, s], [0, t, p, p, p],
                  [t - delta, t, p, p, p], [r, t, p, p, p]])
    expected = [0.40966787, 0.07959841, 0.20506998, 0.08505983, 0.2206039]
    np.testing.assert_allclose(alpha_rank(M, alpha=0.1, m=20).pi, expected, atol=1e-7)
    counts, pay = SymmetricGame.from_matrix(M).to_hpt()
    np.testing.assert_allclose(alpha_rank(SymmetricGame.from_hpt(counts, pay), alpha=0.1, m=20).pi, expected,
                               atol=1e-7)


@pytest.mark.parametrize("alpha", [0.1, 10.0, 1000.0, np.inf])
def test_alpha_rank_of_rock_paper_scissors_is_uniform(alpha):
    np.testing.assert_allclose(alpha_rank(RPS, alpha=alpha, m=50).pi, THIRD, atol=1e-9)


def test_alpha_rank_puts_all_mass_on_a_strictly_dominant_strategy_at_large_alpha():
    M = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])
    assert alpha_rank(M, alpha=1.0, m=50).pi[0] < 1 - 1e-6  # some mass elsewhere at weak selection
    for alpha in (100.0, np.inf):
        assert alpha_rank(M, alpha=alpha, m=50).pi[0] > 1 - 1e-9
    A = np.array([[0.6, 0.7, 0.9], [0.5, 0.4, 0.8], [0.3, 0.2, 0.1]])   # two sides, saddle point at (0, 0)
    for alpha in (100.0, np.inf):
        res = alpha_rank([A, 1 - A], alpha=alpha, m=50)
        assert res.pi.shape == (3, 3) and res.ranking()[0][0] == (0, 0) and res.pi[0, 0] > 1 - 1e-9
        np.testing.assert_allclose(res.marginals[0].sum(), 1.0)
    mp = np.array([[1.0, 0.0], [0.0, 1.0]])                 # matching pennies: a cycle through all four profiles
    np.testing.assert_allclose(alpha_rank([mp, 1 - mp], alpha=100.0, m=50).pi, np.full((2, 2), 0.25))


def test_alpha_rank_fixation_matches_the_constant_sum_closed_form():
    M = np.array([[0.5, 0.3, 0.9], [0.7, 0.5, 0.2], [0.1, 0.8, 0.5]])
    alpha, m = 3.0, 30
    res = alpha_rank(M, alpha=alpha, m=m)
    for s, r in itertools.permutations(range(3), 2):
        u = alpha * m / (m - 1) * (M[r, s] - 0.5)
        assert res.fixation[s, r] == pytest.approx((1 - np.exp(-u)) / (1 - np.exp(-m * u)), rel=1e-10)
    np.testing.assert_allclose(res.transitions.sum(axis=1), 1.0)


def test_alpha_rank_of_an_n_player_game_that_averages_pairwise_results_equals_the_pairwise_one():
    """With opponents drawn without replacement from the population, a seat that scores the mean of its
    pairwise results has the same expected fitness as in the 2-player game, so the ranks must agree."""
    M = np.random.default_rng(8).random((4, 4))
    for n in (3, 5):
        g = SymmetricGame.from_function(n, 4, lambda i, c: c @ M[i] / (n - 1))
        for alpha in (0.5, 20.0, np.inf):
            np.testing.assert_allclose(alpha_rank(g, alpha=alpha, m=12).pi, alpha_rank(M, alpha=alpha, m=12).pi,
                                       atol=1e-9)
    with pytest.raises(ValueError):
        alpha_rank(SymmetricGame.from_function(5, 2, lambda i, c: 0.0), m=4)   # population smaller than a table


def test_stationary_handles_transient_states_and_refuses_two_closed_classes():
    P = np.array([[0.5, 0.5, 0.0], [0.0, 0.9, 0.1], [0.0, 0.2, 0.8]])   # state 0 is transient
    np.testing.assert_allclose(stationary(P), [0.0, 2 / 3, 1 / 3])
    with pytest.raises(ValueError, match="closed classes"):
        stationary(np.eye(2))


# -- bootstrap -------------------------------------------------------------------------------------------------

A_MIXED = np.array([[0.7, 0.3], [0.4, 0.6]])                # no saddle point, value 0.5


def coverage(rng, crn: bool, paired: bool, reps=100, games=600, B=200):
    value = solve_zero_sum(A_MIXED).value
    hits = 0
    for _ in range(reps):
        u = rng.random(games) if crn else rng.random((2, 2, games))   # CRN: one uniform per game for every cell
        samples = (u < A_MIXED[:, :, None]).astype(float)
        hits += bool(bootstrap_solution(samples, solve_zero_sum, B=B, rng=rng, paired=paired).value.covers(value))
    return hits


def test_bootstrap_interval_covers_the_true_value():
    assert solve_zero_sum(A_MIXED).value == pytest.approx(0.5)
    assert coverage(np.random.default_rng(2024), crn=False, paired=False) >= 90


def test_bootstrap_on_common_random_numbers_needs_the_paired_resample():
    assert coverage(np.random.default_rng(99), crn=True, paired=True) >= 90
    assert coverage(np.random.default_rng(99), crn=True, paired=False, reps=60) < 50    # ignoring CRN: too narrow


def test_paired_resampling_draws_the_same_games_in_every_cell():
    x = np.random.default_rng(0).random(300)
    same = np.broadcast_to(x, (2, 3, 300))                  # every cell saw exactly the same games
    spread = lambda sol, table: {"spread": float(np.ptp(table))}
    paired = bootstrap_solution(same, solve_zero_sum, B=50, rng=1, paired=True, extra=spread)
    assert np.all(paired.replicates["extra.spread"] == 0)
    unpaired = bootstrap_solution(same, solve_zero_sum, B=50, rng=1, paired=False, extra=spread)
    assert np.all(unpaired.replicates["extra.spread"] > 0)
    ragged = [[x[:300], x[:200], x[:100]], [x[:300], x[:300], x[:300]]]   # seeds shared as a prefix
    res = bootstrap_solution(ragged, solve_zero_sum, B=200, rng=2, paired=True, extra=spread)
    np.testing.assert_allclose(res.table[0], [x[:300].mean(), x[:200].mean(), x[:100].mean()])
    assert np.all(res.replicates["extra.spread"] < np.ptp(x)) and res.weights["row"].value.shape == (2,)


def test_unpaired_resampling_has_the_bootstrap_spread_of_a_mean():
    x = np.random.default_rng(4).choice([0.0, 0.25, 1.0], size=(1, 1, 500), p=[0.5, 0.2, 0.3])
    res = bootstrap_solution(x, lambda t: float(t[0, 0]), B=4000, rng=5)
    assert res.replicates["value"].mean() == pytest.approx(x.mean(), abs=0.002)
    assert res.replicates["value"].std() == pytest.approx(x.std() / np.sqrt(500), rel=0.05)


def test_bootstrap_from_cell_summaries_and_a_derived_scalar():
    rng = np.random.default_rng(6)
    A = np.array([[0.5, 0.2, 0.8], [0.7, 0.5, 0.3], [0.3, 0.6, 0.5]])
    games = (rng.random((3, 3, 4000)) < A[:, :, None]).astype(float)
    summary = CellSummary(games.sum(axis=2), (games ** 2).sum(axis=2), np.full((3, 3), 4000))
    default_exploited = lambda sol, table: {"default": side_exploitability(table, pure(0, 3), "row", sol.value)}
    res = bootstrap_solution(summary, solve_zero_sum, B=300, rng=7, extra=default_exploited)
    truth = solve_zero_sum(A)
    assert res.value.covers(truth.value) and res.value.hi - res.value.lo < 0.05
    assert np.all(res.weights["row"].covers(truth.row) | (np.abs(res.weights["row"].value - truth.row) < 0.05))
    assert res.extra["default"].covers(side_exploitability(A, pure(0, 3), "row"))
    assert res.replicates["weights.col"].shape == (300, 3)
    with pytest.raises(ValueError):
        bootstrap_solution(summary, solve_zero_sum, B=10, paired=True)
    with pytest.raises(ValueError):
        bootstrap_solution(np.array([[[0.5, np.nan]]]), solve_zero_sum, B=10)


def test_bootstrap_of_a_symmetric_game_resamples_its_payoff_table():
    b = np.array([1.0, 0.9, 0.7])
    g = crowding(b, 3)
    rng = np.random.default_rng(12)
    games = g.payoffs[:, :, None] + rng.normal(0, 0.05, size=g.payoffs.shape + (400,))
    res = bootstrap_solution(games, lambda t: solve_symmetric(SymmetricGame(3, t), methods=("replicator",)),
                             B=40, rng=13)
    truth, v = crowding_equilibrium(b, 3)
    assert res.value.covers(v) and res.value.hi - res.value.lo < 0.01
    w = res.weights["x"]
    assert w.value.shape == (3,) and np.all(w.lo < w.value) and np.all(w.value < w.hi)
    assert np.all(w.lo - 0.005 < truth) and np.all(truth < w.hi + 0.005)


# -- double oracle ---------------------------------------------------------------------------------------------

def test_double_oracle_solves_a_discretised_continuous_game_touching_a_few_strategies():
    """Row picks x, column picks y on a grid of 1001 points in [0, 1]; the row side gets (x - y)^2. The
    column side plays 1/2, the row side mixes 0 and 1 evenly: value 1/4."""
    grid = np.linspace(0, 1, 1001)

    def br_row(cols, y_mix, value):
        payoff = ((grid[:, None] - np.array(cols)[None, :]) ** 2) @ y_mix
        return float(grid[payoff.argmax()]), float(payoff.max() - value)

    def br_col(rows, x_mix, value):
        payoff = x_mix @ ((np.array(rows)[:, None] - grid[None, :]) ** 2)
        return float(grid[payoff.argmin()]), float(value - payoff.min())

    res = double_oracle(lambda x, y: (x - y) ** 2, [0.3], [0.3], br_row, br_col, tol=1e-12)
    assert res.converged and res.value == pytest.approx(0.25, abs=1e-12)
    assert res.lower == pytest.approx(0.25) and res.upper == pytest.approx(0.25)
    assert len(res.row_strategies) <= 5 and len(res.col_strategies) <= 15
    assert res.cells_measured == len(res.row_strategies) * len(res.col_strategies)
    assert sorted(np.array(res.row_strategies)[res.solution.row > 0]) == [0.0, 1.0]


def test_double_oracle_reaches_the_value_of_a_random_matrix_game_on_a_subset():
    A = np.random.default_rng(5).random((60, 60))
    full = solve_zero_sum(A)

    def br_row(cols, y, value):
        payoff = A[:, cols] @ y
        return int(payoff.argmax()), float(payoff.max() - value)

    def br_col(rows, x, value):
        payoff = x @ A[rows]
        return int(payoff.argmin()), float(value - payoff.min())

    calls = []
    res = double_oracle(lambda i, j: calls.append((i, j)) or A[i, j], [0], [0], br_row, br_col, tol=1e-12,
                        max_iters=200)
    assert res.converged and res.value == pytest.approx(full.value, abs=1e-9)
    assert len(calls) == len(set(calls)) == res.cells_measured < A.size
    assert res.lower <= full.value + 1e-12 and full.value - 1e-12 <= res.upper
    short = double_oracle(lambda i, j: A[i, j], [0], [0], br_row, br_col, tol=1e-12, max_iters=3)
    assert not short.converged and len(short.history) == 3
    assert short.history[-1].value == short.value and short.lower <= full.value <= short.upper
