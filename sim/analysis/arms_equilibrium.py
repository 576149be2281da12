"""Rule changes measured when both sides play their best: `compare`, `sweep` and `ablate` with `--at-equilibrium`.

Each arm (a rule variant, a point of a grid, an element taken out) is solved as a game (`sim.analysis.equilibrium`:
every built-in strategy per side, grown by best responses, the search player joining where it gains), so the
change measured is that of the balance figure at equilibrium, not under the default strategies (restricted play,
Jaffe et al. 2012). The reference arm is solved first; every other arm starts from its strategies, best responses
and search player included (warm start), and grows its own from there. Every arm plays the same seeds.

A change's interval has two parts:
- sampling: each study's bootstrap interval read as a standard error, the two added as if independent (their
  shared seeds make them positively correlated, so this overstates the noise), every arm's change in one family
  (simultaneous max-|t| intervals, correlated through the shared reference);
- convergence: an arm whose fresh best responses still gain has a bracket wider than its value's interval
  (`Study.bracket`). The change's interval is widened by what each arm's bracket adds on each side, so a change is
  called only if it holds wherever in their brackets the two values lie. The verdict is read off that interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.analysis.compare import variant_specs
from sim.analysis.equilibrium import Search, Study, equilibrium, warm_start
from sim.analysis.intervals import Interval, z_of
from sim.analysis.intervals_paired import Family, simultaneous, verdict
from sim.analysis.payoffs import Budget
from sim.analysis.sweep import point_label, point_specs
from sim.engine.errors import DsimError
from sim.engine.game import Game
from sim.engine.spec import RunSpec


@dataclass(frozen=True)
class Arms:
    """The reference study and one study per arm (same budget and seeds), with each arm's change of the figure at
    equilibrium: `family` the sampling part alone, `changes` widened by the brackets (the interval shown)."""

    game: Game
    base: RunSpec
    reference: str
    studies: dict[str, Study]          # the reference first, then each arm
    family: Family
    changes: dict[str, Interval]

    def arms(self) -> list[str]:
        return [k for k in self.studies if k != self.reference]

    def verdict(self, arm: str) -> str:
        return verdict(self.changes[arm])


def se_of(study: Study) -> float:
    """The bootstrap interval of the figure at equilibrium, read as a normal interval's standard error."""
    return (study.value.hi - study.value.lo) / (2 * z_of(0.95))


def slack(study: Study) -> tuple[float, float]:
    """How far the study's bracket reaches beyond its value's interval, below and above."""
    br, v = study.bracket(), study.value
    return max(0.0, v.lo - br.lo), max(0.0, br.hi - v.hi)


def widened(change: Interval, reference: Study, arm: Study) -> Interval:
    """A change (arm − reference) whose interval also spans both arms' brackets."""
    (ref_down, ref_up), (arm_down, arm_up) = slack(reference), slack(arm)
    method = change.method + ("; widened by the arms' convergence brackets" if ref_down + ref_up + arm_down + arm_up
                              else "")
    return Interval(change.value, change.lo - arm_down - ref_up, change.hi + arm_up + ref_down, change.n, method)


def solve_arms(game: Game, reference: tuple[str, RunSpec], arms: list[tuple[str, RunSpec]], budget: Budget,
               search: Search = Search(), jobs: int = 1, boot: int = 200, warm: bool = True) -> Arms:
    """Solve the reference arm, then every other (warm-started from the reference's strategies), and compare."""
    label, spec = reference
    studies = {label: equilibrium(game, spec, budget, search, jobs, boot=boot)}
    start = warm_start(studies[label]) if warm else None
    for name, arm in arms:
        studies[name] = equilibrium(game, arm, budget, search, jobs, boot=boot, start=start)
    return compare_studies(game, spec, label, studies)


def compare_studies(game: Game, base: RunSpec, reference: str, studies: dict[str, Study]) -> Arms:
    ref = studies[reference]
    names = [k for k in studies if k != reference]
    values = [studies[k].value.value - ref.value.value for k in names]
    ses = np.array([(se_of(studies[k]) ** 2 + se_of(ref) ** 2) ** 0.5 for k in names])
    # every change subtracts the same solve of the reference: their errors share its variance
    shared = se_of(ref) ** 2 / np.outer(ses, ses) if len(ses) else np.zeros((0, 0))
    corr = np.where(np.eye(len(ses), dtype=bool), 1.0, np.nan_to_num(shared))
    family = simultaneous(values, ses, n=len(names), corr=corr)
    changes = {k: widened(family.intervals[i], ref, studies[k]) for i, k in enumerate(names)}
    return Arms(game, base, reference, studies, family, changes)


def parse_band(text: str | None) -> tuple[float, float] | None:
    """A target band of the figure at equilibrium, "LO:HI" as shares or percentages (0.4:0.6, 40%:60%)."""
    if text is None:
        return None
    from sim.analysis.tune import target_value
    lo, sep, hi = str(text).partition(":")
    if not sep:
        raise DsimError(f"--band is LO:HI (e.g. 40%:60%), got '{text}'")
    band = target_value(lo.strip(), "each end of --band"), target_value(hi.strip(), "each end of --band")
    if not 0 <= band[0] <= band[1] <= 1:
        raise DsimError(f"--band must run from a low share to a higher one within 0 and 1 (or 0% and 100%), "
                        f"got '{text}'")
    return band


def compare_at_equilibrium(game: Game, base: RunSpec, variants: list[str], budget: Budget, search: Search = Search(),
                           jobs: int = 1, rules_file=None, base_sets=(), boot: int = 200) -> Arms:
    """`dsim compare --at-equilibrium`: each rule variant solved, the first the reference."""
    specs = variant_specs(game, base, variants, rules_file, base_sets)
    return solve_arms(game, (variants[0], specs[0]), list(zip(variants[1:], specs[1:])), budget, search, jobs, boot)


def sweep_at_equilibrium(game: Game, base: RunSpec, params: list[str], budget: Budget, search: Search = Search(),
                         jobs: int = 1, rules_file=None, variants=(), base_sets=(), boot: int = 200) -> Arms:
    """`dsim sweep --at-equilibrium`: each point of the grid solved, the first the reference."""
    keys, points, specs = point_specs(game, base, params, rules_file, variants, base_sets)
    labels = [point_label(keys, p) for p in points]
    return solve_arms(game, (labels[0], specs[0]), list(zip(labels[1:], specs[1:])), budget, search, jobs, boot)
