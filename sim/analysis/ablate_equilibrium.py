"""`dsim ablate --at-equilibrium`: each element's weight when both sides play their best.

Restricted play in the sense of Jaffe et al. (AIIDE 2012): an element is taken out, neutralised or forced in
(`sim.analysis.ablate.arms`), and the game is re-solved — every side re-optimises against the restricted game —
so the change measured is that of the balance figure at equilibrium, not under the default strategies. The
elements are the arms of `sim.analysis.arms_equilibrium` (its docstring says how a change's interval is built),
the rules as given their reference.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sim.analysis.ablate import arms
from sim.analysis.arms_equilibrium import Arms, solve_arms
from sim.analysis.equilibrium import Search
from sim.analysis.intervals import Interval
from sim.analysis.payoffs import Budget
from sim.engine.game import Game
from sim.engine.spec import RunSpec

AS_GIVEN = "as given"


@dataclass(frozen=True)
class EquilibriumAblation:
    """The rules as given and one study per element, compared at equilibrium."""

    mode: str
    arms: Arms

    @property
    def game(self) -> Game:
        return self.arms.game

    @property
    def studies(self):
        return self.arms.studies

    def elements(self) -> list[str]:
        return self.arms.arms()


def ablate_at_equilibrium(game: Game, base: RunSpec, budget: Budget, search: Search, mode: str = "neutral",
                          jobs: int = 1, only=(), rules_file=None, variants=(), base_sets=(),
                          boot: int = 200) -> EquilibriumAblation:
    planned = arms(game, base, mode, only, rules_file, variants, tuple(base_sets))
    elements = [(name, dataclasses.replace(spec, extra={})) for name, _, spec in planned]
    return EquilibriumAblation(mode, solve_arms(game, (AS_GIVEN, base), elements, budget, search, jobs, boot))


def shown(a: EquilibriumAblation, element: str) -> Interval:
    return a.arms.changes[element]
