"""Rewrite an experiment's report from the results it already played, after a change to the report code only.

    python -m sim.tooling.rereport experiments/X.toml

Resuming keeps a run only when its recorded code version is the running one; this tool takes the version the
results were played with (every run of the experiment must share one) as the running one, so nothing is
replayed and the report states the code that played the games. A developer's tool: use it only when no code
that plays a game has changed since (the report's figures would otherwise describe other code).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sim.engine import version


def played_with(results: Path) -> str:
    versions = {json.loads(p.read_text()).get("code_version") for p in results.rglob("run.json")
                if ".partial" not in p.parts}           # an interrupted run's leftovers play no part
    if len(versions) != 1:
        raise SystemExit(f"{results}: runs from {len(versions)} code versions ({sorted(map(str, versions))}); "
                         "rerun the experiment instead")
    return versions.pop()


def main(argv: list[str] | None = None) -> None:
    spec = Path((argv or sys.argv[1:])[0])
    results = Path("results") / "experiments" / spec.stem
    recorded = played_with(results)
    version.code_version = lambda: recorded
    from sim.engine import spec as run_spec          # it imported code_version by name
    run_spec.code_version = version.code_version
    from sim.workflows.experiment import run_experiment
    for path in run_experiment(spec, results, resume=True):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
