"""Resuming runs: the writer of a run (refusing to resume another configuration's partial run), the
runs a command of several already finished, and keeping the completed chunks when a run fails.

A run's partial folder is keyed by its provenance, so only the same game, rules, lineup, seed, --n,
chunk size and code version resume it; anything else is refused in one line naming the difference.
Chunk i is seeded from (seed, i) alone, so a resumed run's files are those of an uninterrupted one.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from sim.engine import store
from sim.engine.errors import DsimError, RunInterrupted
from sim.engine.spec import RunSpec
from sim.engine.store import RunWriter


def open_writer(spec: RunSpec, out: Path) -> RunWriter:
    """The run's writer; resuming, refuse when the interrupted run under `out` was another configuration."""
    provenance = spec.provenance()
    if spec.resume:
        check_resumable(out, provenance)
    return RunWriter(out, spec.partition(), provenance, resume=spec.resume)


def _normal(provenance: dict) -> dict:
    return json.loads(json.dumps(provenance, sort_keys=True, default=str))


def check_resumable(out: Path, provenance: dict) -> None:
    partials = store.partial_runs(out)
    mine = _normal(provenance)
    if not partials or mine in partials:
        return
    other = min(partials, key=lambda p: len(_differences(p, mine)))
    raise DsimError(f"--resume: the interrupted run under {out} is another configuration "
                    f"({'; '.join(_differences(other, mine))}); run without --resume to start afresh")


def _differences(theirs: dict, mine: dict) -> list[str]:
    """What tells two runs apart, in words: 'seed 3, not 0'."""
    names = {"rules_hash": "rules", "strategies": "lineup", "code_version": "code version", "n": "games"}
    out = []
    for k in sorted(set(theirs) | set(mine)):
        if k in ("values", "assumed", "data_files", "rules_file", "variants") and "rules_hash" in theirs:
            continue                      # the rules hash already says the rules differ
        if theirs.get(k) != mine.get(k):
            out.append(f"{names.get(k, k)} {_short(theirs.get(k))}, not {_short(mine.get(k))}")
    return out


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def finished(spec: RunSpec, out: Path) -> dict | None:
    """Resuming a command of several runs: the provenance of this run if it was already committed."""
    if not spec.resume:
        return None
    done = store.committed(out, spec.partition())
    if done is None:
        return None
    asked = _normal(spec.provenance())
    as_started = {**done, "n": done.get("n_cap", done.get("n"))}
    return done if {k: as_started.get(k) for k in asked} == asked else None


@contextmanager
def keeping_chunks(writers: list[RunWriter], out: Path):
    """On failure keep the writers' completed chunks and say how to resume; Ctrl-C becomes RunInterrupted."""
    try:
        yield
    except KeyboardInterrupt:
        _abort(writers)
        raise RunInterrupted(f"interrupted; {_kept(writers, out)}") from None
    except OSError as e:
        _abort(writers)
        raise DsimError(f"cannot write results under {out}: {e.strerror or e}; {_kept(writers, out)}") from None
    except BaseException as e:
        _abort(writers)
        if type(e).__name__ in ("TerminatedWorkerError", "KilledWorker"):
            raise DsimError(f"a worker process died ({type(e).__name__}); {_kept(writers, out)}") from None
        raise


def _abort(writers: list[RunWriter]) -> None:
    for w in writers:
        w.abort()


def _kept(writers: list[RunWriter], out: Path) -> str:
    kept = sum(w.completed() for w in writers)
    if not kept:
        return "nothing was kept"
    return (f"{kept} completed chunk{'s' * (kept != 1)} kept under {out}; "
            "the same command with --resume plays the rest")
