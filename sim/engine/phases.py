"""Wall time per phase of one command, for `make bench`'s per-phase table.

With DSIM_PHASES=FILE set, a command writes {"start": unix time its code began, "end": unix time of writing,
"phases": {name: seconds}} to FILE as it exits (registered on import, so late in the exit: loky's handlers,
registered later, run before it); otherwise `phase` only times. The time before "start" (interpreter start and
imports), and after "end", are what the caller measures from outside.
"""

from __future__ import annotations

import atexit
import json
import os
import time
from contextlib import contextmanager

_started = time.time()
_seconds: dict[str, float] = {}


@contextmanager
def phase(name: str):
    """Add the block's wall time to phase `name`."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        _seconds[name] = _seconds.get(name, 0.0) + time.perf_counter() - t0


def add(name: str, seconds: float) -> None:
    """Add time measured elsewhere (e.g. between two points of a loop) to phase `name`."""
    _seconds[name] = _seconds.get(name, 0.0) + seconds


def begin() -> None:
    """Mark where the command's own code begins (after its imports)."""
    global _started
    _started = time.time()


def _write() -> None:
    path = os.environ.get("DSIM_PHASES")
    if path:
        with open(path, "w") as f:
            json.dump({"start": _started, "end": time.time(), "phases": _seconds}, f)


atexit.register(_write)
