"""`make bench`: the published studies' solve times against their targets, read from the studies' JSON (a study
takes minutes to an hour, too long to rerun in a benchmark; `make reports` reruns them and records the times).

Targets: Drako's equilibrium with search best responses at most 15 minutes on 2 cores; a Drako tune at
equilibrium over one integer lever at most 20 minutes; a compare of two variants at equilibrium at most twice
its game's equilibrium study."""

from __future__ import annotations

import json
from pathlib import Path

REPORTS = Path("reports")
STUDY_TARGET = {"drako": 15 * 60}
TUNE_TARGET = {"drako": 20 * 60}


def rows(root: Path = REPORTS) -> list[dict]:
    """One row per published study with a recorded time: its kind, path, seconds and target (None: no target)."""
    out = []
    studies = {}
    for path in sorted(root.glob("*/equilibrium_*p.json")):
        game, seconds = path.parent.name, json.loads(path.read_text()).get("seconds")
        if seconds is None:
            continue
        studies[game] = seconds
        out.append({"kind": "equilibrium", "path": path, "seconds": seconds, "target": STUDY_TARGET.get(game)})
    for path in sorted(root.glob("*/tune_*_equilibrium_*.json")):
        game, seconds = path.parent.name, json.loads(path.read_text()).get("seconds")
        if seconds is not None:
            out.append({"kind": "tune at equilibrium", "path": path, "seconds": seconds,
                        "target": TUNE_TARGET.get(game)})
    for kind in ("compare", "sweep"):
        for path in sorted(root.glob(f"*/{kind}_*_equilibrium.json")):
            found = json.loads(path.read_text())
            game, seconds = path.parent.name, found.get("seconds")
            if seconds is None:
                continue
            arms = 1 + len(found["arms"])
            # two variants: twice the game's study; more, in proportion (a sweep's grid has no target)
            target = studies[game] * arms if kind == "compare" and game in studies else None
            out.append({"kind": f"{kind} at equilibrium ({arms} arms)", "path": path, "seconds": seconds,
                        "target": target})
    return out


def studies_section(root: Path = REPORTS) -> list[str]:
    lines = ["", "## Published studies' solve times", "",
             "From each study's JSON (`sim/tooling/bench_studies.py`): an equilibrium study's time, a tune's solves, "
             "a compare's arms. Targets: Drako's equilibrium ≤ 15 min, Drako's tune at equilibrium ≤ 20 min, a "
             "compare at equilibrium ≤ 2× its game's study per two variants.", "",
             "| study | kind | minutes | target | met |", "|---|---|---|---|---|"]
    for r in rows(root):
        target = "—" if r["target"] is None else f"{r['target'] / 60:.0f}"
        met = "—" if r["target"] is None else ("yes" if r["seconds"] <= r["target"] else "NO")
        lines.append(f"| {r['path'].relative_to(root).as_posix()} | {r['kind']} | {r['seconds'] / 60:.1f} | "
                     f"{target} | {met} |")
    return lines
