"""Wall-clock of the design commands against their targets: whole `dsim` commands on both cores,
as a designer runs them, from a warm numba cache (one untimed run first)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

# (label, command after `dsim`, target seconds)
CASES = [
    ("tune one integer parameter (Drako Fury dwarf wounds for a 50% dragon)",
     ["tune", "--game", "drako", "--param", "dwarf_spaces[0]=2:14", "--target", "dragon_win=0.5",
      "--n", "20000", "--verify", "200000", "--jobs", "2", "--seed", "13"], 120.0),
    ("sensitivity over every Drako assumed value, headline changes to ±1 point",
     ["sensitivity", "--game", "drako", "--precision", "0.01", "--n", "400000", "--jobs", "2"], 300.0),
    ("Drako equilibrium to a 1-point tolerance, every built-in strategy per side",
     ["equilibrium", "--game", "drako", "--precision", "0.01", "--tol", "0.01", "--jobs", "2"], 600.0),
]


def timed(args: list[str]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sim.cli.main", *args, "--out", tmp], check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


def design_section() -> list[str]:
    lines = ["", "## Design commands (wall-clock on 2 cores)", "",
             "| command | seconds | target | meets |", "|---|---|---|---|"]
    for label, args, target in CASES:
        timed(args)                                   # compile and warm the cache
        seconds = min(timed(args) for _ in range(2))
        print(f"{label}: {seconds:.1f} s (target {target:.0f} s)", flush=True)
        lines.append(f"| {label} | {seconds:.1f} | {target:.0f} | {'yes' if seconds <= target else 'NO'} |")
    return lines
