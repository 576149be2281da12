"""Rewrite an experiment's report from the results it already played, or finish an interrupted one, after
changes that do not touch the code that plays its game.

    python -m sim.tooling.rereport experiments/X.toml

Resuming keeps a run only when its recorded code version is the running one; this tool takes the version the
results were played with (every committed run of the experiment must share one) as the running one, so the runs
played are kept, the missing ones played, and the report states the code that played the games. It refuses when
the code that plays the game (sim/engine, the game's package, the strategies) differs between that version's
commit and the checkout, or the version was played from modified code.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from sim.engine import version


def played_with(results: Path) -> str:
    versions = {json.loads(p.read_text()).get("code_version") for p in results.rglob("run.json")
                if ".partial" not in p.parts}           # an interrupted run's leftovers play no part
    if len(versions) != 1:
        raise SystemExit(f"{results}: runs from {len(versions)} code versions ({sorted(map(str, versions))}); "
                         "rerun the experiment instead")
    return versions.pop()


def check_same_play(recorded: str, game: str) -> None:
    """Refuse unless the code that plays `game` is the same at the recorded commit as in the checkout."""
    commit = recorded.partition("+")[2]
    if not commit or commit.endswith(".dirty"):
        raise SystemExit(f"the results were played from modified or unversioned code ({recorded}); rerun")
    paths = ["sim/engine", f"sim/games/{game}", "strategies", "pyproject.toml"]
    changed = subprocess.run(["git", "diff", "--name-only", commit, "--", *paths], capture_output=True, text=True)
    if changed.returncode != 0 or changed.stdout.strip():
        raise SystemExit(f"the code that plays {game} changed since {commit}: "
                         f"{' '.join(changed.stdout.split()) or changed.stderr.strip()}; rerun the experiment")


def main(argv: list[str] | None = None) -> None:
    spec = Path((argv or sys.argv[1:])[0])
    results = Path("results") / "experiments" / spec.stem
    recorded = played_with(results)
    check_same_play(recorded, tomllib.loads(spec.read_text())["experiment"]["game"])
    version.code_version = lambda: recorded
    from sim.engine import spec as run_spec          # it imported code_version by name
    run_spec.code_version = version.code_version
    from sim.workflows.experiment import run_experiment
    for path in run_experiment(spec, results, resume=True):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
