"""A real Dask cluster on loopback, started as a user would (`dask scheduler`, `dask worker`): the same
games as a local run, also when a worker is killed mid-run."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from dask.distributed import Client  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
RUN = ["run", "--game", "drako", "--n", "6e5", "--seed", "11", "--no-progress"]     # twelve chunks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster():
    """A scheduler and two single-threaded worker processes (no nanny, so a killed worker stays dead)."""
    address = f"tcp://127.0.0.1:{free_port()}"
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                               "--no-dashboard"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        time.sleep(1.0)
        for _ in range(2):
            procs.append(subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--no-nanny",
                                           "--no-dashboard"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[1:]
    finally:
        for p in procs:
            p.kill()
            p.wait()


def dsim(*args, **kw):
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, **kw)


def parquet_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.parquet"))}


def test_a_scheduler_and_two_workers_give_the_local_games(tmp_path, cluster):
    address, _ = cluster
    local = dsim(*RUN, "--out", tmp_path / "local")
    remote = dsim("--scheduler", address, *RUN, "--out", tmp_path / "remote")
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr
    assert parquet_files(tmp_path / "remote") == parquet_files(tmp_path / "local")


def test_a_worker_killed_mid_run_changes_nothing(tmp_path, cluster):
    address, workers = cluster
    out = tmp_path / "remote"
    proc = subprocess.Popen([sys.executable, "-m", "sim.cli.main", "--scheduler", address, *RUN, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 120
    while sum(1 for _ in out.glob(".partial/*/done/*")) < 2:
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.02)
    os.kill(workers[0].pid, signal.SIGKILL)           # its chunks in flight are replayed on the other worker
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert workers[0].wait() == -signal.SIGKILL and workers[1].poll() is None
    local = dsim(*RUN, "--out", tmp_path / "local")
    assert local.returncode == 0
    assert parquet_files(out) == parquet_files(tmp_path / "local")
