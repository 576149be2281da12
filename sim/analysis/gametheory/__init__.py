"""Game-theoretic solvers for payoff tables measured by simulation: numpy/scipy (the symmetric dynamics' loops
compiled with numba), no engine.

- Two sides, constant-sum (`zerosum`): maximin mixtures by LP, fictitious play as a check, exploitability.
- Symmetric n-player (`symmetric`): the focal-player heuristic payoff table, payoffs against a mixture,
  replicator dynamics, regret matching, regret / NashConv.
- `alpharank`: α-Rank for one or several populations, with the α = ∞ limit.
- `bootstrap`: percentile intervals for a solved table, resampling each cell's games (paired under CRN).
- `oracle`: the double-oracle loop that grows the strategy sets with best responses.

docs/EQUILIBRIUM.md says which solver applies to which game.
"""

from ._util import Interval, clean, pure
from .alpharank import AlphaRankResult, alpha_rank, stationary
from .bootstrap import BootstrapResult, CellSummary, bootstrap_solution
from .oracle import DoubleOracleResult, OracleStep, double_oracle
from .symmetric import (SymmetricGame, SymmetricSolution, best_response, distinct_equilibria, is_constant_sum, mixture_payoff, polish,
                        nash_conv, opponent_profiles, profile_probabilities, regret, regret_matching, replicator,
                        solve_symmetric, solve_symmetric_matrix, strategy_payoffs)
from .zerosum import (Exploitability, FictitiousPlayResult, ZeroSumSolution, exploitability, fictitious_play,
                      side_exploitability, solve_zero_sum)

__all__ = [
    "AlphaRankResult", "BootstrapResult", "CellSummary", "DoubleOracleResult", "Exploitability",
    "FictitiousPlayResult", "Interval", "OracleStep", "SymmetricGame", "SymmetricSolution", "ZeroSumSolution",
    "alpha_rank", "best_response", "bootstrap_solution", "clean", "distinct_equilibria", "double_oracle", "exploitability",
    "fictitious_play", "is_constant_sum", "mixture_payoff", "nash_conv", "opponent_profiles", "polish",
    "profile_probabilities", "pure", "regret", "regret_matching", "replicator", "side_exploitability",
    "solve_symmetric", "solve_symmetric_matrix", "solve_zero_sum", "stationary", "strategy_payoffs",
]
