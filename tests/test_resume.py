"""Runs that survive faults: a run cut short keeps its completed chunks, `--resume` plays only the rest,
and the result is the uninterrupted run's, file for file."""

import errno
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.analysis.precision import run_to_precision
from sim.analysis.sweep import sweep
from sim.cli.main import main
from sim.engine import store
from sim.engine.errors import DsimError
from sim.engine.runner import run
from sim.engine.spec import RunSpec
from sim.games import get_game
from sim.report.sweep import write

ROOT = Path(__file__).resolve().parents[1]
DW = get_game("dragonwake")


def spec(n=30_000, seed=3, chunk=5_000, resume=False, extra=None, **kw):
    return RunSpec(DW, DW.load_rules(**kw), 5, DW.lineup("hero=bayes,cultist=liar"), n, seed, chunk_size=chunk,
                   resume=resume, extra=extra or {})


def published(out: Path) -> dict[str, bytes]:
    """Every file a reader can see under `out` (the partial folder excluded), by relative path."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and store.PARTIAL not in p.parts}


def failing_after(monkeypatch, chunks: int, error=RuntimeError("boom")):
    """Make the game's simulate fail on the call after `chunks` calls; returns the call counter."""
    calls = {"n": 0}
    original = DW.simulate

    def flaky(*a, **k):
        if a[-1] == 1:                           # a run's one warm-up game before its clock: not a chunk
            return original(*a, **k)
        calls["n"] += 1
        if calls["n"] == chunks + 1:
            raise error
        return original(*a, **k)

    monkeypatch.setattr(DW, "simulate", flaky)
    return calls


def test_a_failed_run_publishes_nothing_and_resume_completes_it_identically(tmp_path, monkeypatch):
    run(spec(), tmp_path / "whole", progress=False)
    failing_after(monkeypatch, 2)
    with pytest.raises(RuntimeError):
        run(spec(), tmp_path / "cut", progress=False)
    assert store.tables(tmp_path / "cut") == [] and published(tmp_path / "cut") == {}
    assert len(store.partial_runs(tmp_path / "cut")) == 1
    calls = failing_after(monkeypatch, 99)
    result = run(spec(resume=True), tmp_path / "cut", progress=False)
    assert calls["n"] == 4 and result["resumed_chunks"] == 2        # six chunks, two kept
    assert published(tmp_path / "cut") == published(tmp_path / "whole")
    assert not (tmp_path / "cut" / store.PARTIAL).exists()


def test_without_resume_the_same_run_starts_afresh(tmp_path, monkeypatch):
    failing_after(monkeypatch, 2)
    with pytest.raises(RuntimeError):
        run(spec(), tmp_path, progress=False)
    calls = failing_after(monkeypatch, 99)
    run(spec(), tmp_path, progress=False)
    assert calls["n"] == 6 and store.partial_runs(tmp_path) == []


@pytest.mark.parametrize("change, words", [({"seed": 4}, "seed 3, not 4"),
                                           ({"sets": ["min_reveals=3"]}, "rules "),
                                           ({"n": 40_000}, "games 30000, not 40000")])
def test_resume_refuses_another_configuration(tmp_path, monkeypatch, change, words):
    failing_after(monkeypatch, 2)
    with pytest.raises(RuntimeError):
        run(spec(), tmp_path, progress=False)
    with pytest.raises(DsimError, match="another configuration") as e:
        run(spec(resume=True, **change), tmp_path, progress=False)
    assert words in str(e.value)
    assert len(store.partial_runs(tmp_path)) == 1          # the interrupted run is still there


def test_a_half_written_chunk_is_never_read(tmp_path, monkeypatch):
    run(spec(), tmp_path / "whole", progress=False)
    failing_after(monkeypatch, 3)
    with pytest.raises(RuntimeError):
        run(spec(), tmp_path / "cut", progress=False)
    (partial,) = (tmp_path / "cut" / store.PARTIAL).iterdir()
    folder = next((partial / "games").rglob("part-000002.parquet")).parent
    (partial / "done" / "000002").unlink()                        # chunk 2 cut short: file without marker
    (folder / "part-000002.parquet").write_bytes(b"half a file")
    (folder / ".part-000003.tmp").write_bytes(b"half a file")     # and chunk 3 cut mid-write
    monkeypatch.undo()
    assert run(spec(resume=True), tmp_path / "cut", progress=False)["resumed_chunks"] == 2
    assert published(tmp_path / "cut") == published(tmp_path / "whole")


def test_a_full_disk_keeps_the_chunks_and_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    failing_after(monkeypatch, 2, OSError(errno.ENOSPC, "No space left on device"))
    out = tmp_path / "res"
    assert main(["run", "--game", "dragonwake", "--n", "3e5", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0] and "--resume" in err[0]
    assert "2 completed chunks kept" in err[0] and store.tables(out) == []


def test_a_precision_run_resumes_to_the_same_stop(tmp_path, monkeypatch):
    whole = run_to_precision(spec(n=300_000), tmp_path / "whole", 0.004)
    assert 2 < whole["n"] // 5_000 < 60                  # it stops before the cap, after a few looks
    failing_after(monkeypatch, 2)
    with pytest.raises(RuntimeError):
        run_to_precision(spec(n=300_000), tmp_path / "cut", 0.004)
    monkeypatch.undo()
    again = run_to_precision(spec(n=300_000, resume=True), tmp_path / "cut", 0.004)
    assert again["n"] == whole["n"] and again["reason"] == whole["reason"]
    assert published(tmp_path / "cut") == published(tmp_path / "whole")


def test_a_sweep_resumes_without_replaying_finished_points(tmp_path, monkeypatch):
    params = ["min_reveals=0|3|5"]
    write(sweep(DW, spec(n=10_000), params, tmp_path / "whole"), tmp_path / "r1")
    failing_after(monkeypatch, 3)             # the first point (2 chunks) and half the second
    with pytest.raises(RuntimeError):
        sweep(DW, spec(n=10_000), params, tmp_path / "cut")
    calls = failing_after(monkeypatch, 99)
    write(sweep(DW, spec(n=10_000, resume=True), params, tmp_path / "cut"), tmp_path / "r2")
    assert calls["n"] == 3                    # the second point's last chunk and the third point
    assert published(tmp_path / "cut") == published(tmp_path / "whole")
    assert (tmp_path / "r1" / "sweep_dragonwake.md").read_text() == (tmp_path / "r2" / "sweep_dragonwake.md").read_text()


# ---- the real thing: a process killed or interrupted, then resumed from the command line -------------------

def dsim_process(*args):
    return subprocess.Popen([sys.executable, "-m", "sim.cli.main", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_chunks(out: Path, k: int, proc, timeout=120.0):
    """Wait until the run in `proc` has completed k chunks (and not finished)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sum(1 for _ in (out / store.PARTIAL).glob("*/done/*")) >= k:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError("the run did not get going")


RUN = ["run", "--game", "drako", "--n", "6e5", "--seed", "11", "--no-progress"]     # twelve chunks


def test_sigkill_then_resume_matches_an_uninterrupted_run(tmp_path):
    out = tmp_path / "cut"
    proc = dsim_process(*RUN, "--out", out)
    wait_for_chunks(out, 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert store.tables(out) == []
    done = subprocess.run([sys.executable, "-m", "sim.cli.main", *RUN, "--out", str(out), "--resume"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resumed: kept" in done.stderr
    whole = subprocess.run([sys.executable, "-m", "sim.cli.main", *RUN, "--out", str(tmp_path / "whole")],
                           cwd=ROOT, capture_output=True, text=True)
    assert whole.returncode == 0
    assert published(out) == published(tmp_path / "whole")


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path):
    out = tmp_path / "cut"
    proc = dsim_process(*RUN, "--jobs", 2, "--out", out)
    wait_for_chunks(out, 2, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0] and "--resume" in lines[0], err
    assert "Traceback" not in err and store.tables(out) == []
    assert len(store.partial_runs(out)) == 1


def test_a_compare_to_precision_resumes_its_arms_in_lockstep(tmp_path, monkeypatch):
    from sim.analysis.compare import run_arms
    arms = lambda: [spec(n=200_000, resume=True, extra={"arm": "base"}),                   # noqa: E731
                    spec(n=200_000, resume=True, sets=["min_reveals=3"], extra={"arm": "min_reveals=3"})]
    whole = run_arms(arms(), tmp_path / "whole", 1, 0.001)      # width-only: past the third chunk
    assert 15_000 < whole < 200_000
    failing_after(monkeypatch, 5)                  # both arms' first two chunks, then the third fails
    with pytest.raises(RuntimeError):
        run_arms(arms(), tmp_path / "cut", 1, 0.001)
    calls = failing_after(monkeypatch, 99)
    assert run_arms(arms(), tmp_path / "cut", 1, 0.001) == whole
    assert calls["n"] == 2 * (whole // 5_000 - 2)
    assert published(tmp_path / "cut") == published(tmp_path / "whole")
