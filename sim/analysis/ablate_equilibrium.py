"""`dsim ablate --at-equilibrium`: each element's weight when both sides play their best.

Restricted play in the sense of Jaffe et al. (AIIDE 2012): an element is taken out, neutralised or forced in
(`sim.analysis.ablate.arms`), and the game is re-solved — every side re-optimises against the restricted game
(`sim.analysis.equilibrium`) — so the change measured is that of the balance figure at equilibrium, not under
the default strategies. Each study has its own bootstrap interval; a change's standard error adds the two
studies' variances as if independent. Both studies deal their cells from the same seeds, which makes them
positively correlated, so this overstates the noise: a change that is called is called conservatively. The
elements are one family (simultaneous intervals, `intervals_paired.simultaneous`, correlated through the
shared solve of the rules as given).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.analysis.ablate import arms
from sim.analysis.equilibrium import Search, Study, equilibrium
from sim.analysis.intervals import Interval, z_of
from sim.analysis.intervals_paired import Family, simultaneous
from sim.analysis.payoffs import Budget
from sim.engine.game import Game
from sim.engine.spec import RunSpec


@dataclass(frozen=True)
class EquilibriumAblation:
    """The base study and one study per element (same budget and seeds), with each element's change of the figure
    at equilibrium as the family shows it."""

    game: Game
    base: RunSpec
    mode: str
    studies: dict[str, Study]          # "as given" first, then element -> its study
    family: Family

    def elements(self) -> list[str]:
        return [k for k in self.studies if k != "as given"]


def se_of(study: Study) -> float:
    """The bootstrap interval of the figure at equilibrium, read as a normal interval's standard error."""
    return (study.value.hi - study.value.lo) / (2 * z_of(0.95))


def ablate_at_equilibrium(game: Game, base: RunSpec, budget: Budget, search: Search, mode: str = "neutral",
                          jobs: int = 1, only=(), rules_file=None, variants=(), base_sets=(),
                          boot: int = 200) -> EquilibriumAblation:
    planned = arms(game, base, mode, only, rules_file, variants, tuple(base_sets))
    studies = {"as given": equilibrium(game, base, budget, search, jobs, boot=boot)}
    for name, _, spec in planned:
        studies[name] = equilibrium(game, dataclasses.replace(spec, extra={}), budget, search, jobs, boot=boot)
    b = studies["as given"]
    changes = [(s.value.value - b.value.value, (se_of(s) ** 2 + se_of(b) ** 2) ** 0.5)
               for k, s in studies.items() if k != "as given"]
    # every change subtracts the same solve of the rules as given: their errors share its variance
    ses = np.array([se for _, se in changes])
    shared = se_of(b) ** 2 / np.outer(ses, ses) if len(ses) else np.zeros((0, 0))
    corr = np.where(np.eye(len(ses), dtype=bool), 1.0, np.nan_to_num(shared))
    family = simultaneous([c for c, _ in changes], ses, n=len(changes), corr=corr)
    return EquilibriumAblation(game, base, mode, studies, family)


def shown(a: EquilibriumAblation, element: str) -> Interval:
    return a.family.intervals[a.elements().index(element)]
