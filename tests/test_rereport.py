"""sim.tooling.rereport keeps played runs only when the code that plays the game is the same."""
import subprocess

import pytest

from sim.tooling.rereport import check_same_play


def head() -> str:
    return subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True).stdout.strip()


def test_refuses_modified_code_and_a_commit_whose_play_code_differs():
    with pytest.raises(SystemExit, match="modified"):
        check_same_play(f"0.1.0+{head()}.dirty", "drako")
    with pytest.raises(SystemExit, match="changed since"):
        check_same_play("0.1.0+eca671134f", "drachensachen")      # before sim/engine/playouts.py existed


def test_accepts_the_checkouts_own_commit_when_its_play_code_is_unmodified():
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "sim/engine", "sim/games/drako", "strategies"],
                           capture_output=True, text=True).stdout.strip()
    if dirty:
        pytest.skip("the play code is modified in this checkout")
    check_same_play(f"0.1.0+{head()}", "drako")
