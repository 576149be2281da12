"""`dsim ablate --at-equilibrium`'s report: which elements move the balance figure when both sides re-solve the
restricted game (`sim.report.arms_equilibrium`, with the element's mode in its words)."""

from __future__ import annotations

from pathlib import Path

from sim.analysis.ablate import MODES
from sim.analysis.ablate_equilibrium import EquilibriumAblation
from sim.report import arms_equilibrium


def write(a: EquilibriumAblation, to: Path) -> Path:
    """`ablate_<game>_<mode>_equilibrium.md`, its HTML twin, `.parquet` and `.json`."""
    return arms_equilibrium.write(a.arms, to, f"ablate_{a.game.name}_{a.mode}_equilibrium",
                                  f"{a.game.title}: each element's weight at equilibrium ({MODES[a.mode]})", "element",
                                  MODES[a.mode])


def figures(a: EquilibriumAblation) -> dict:
    return {"mode": a.mode, **arms_equilibrium.figures(a.arms)}
