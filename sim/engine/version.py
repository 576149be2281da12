"""Code version recorded in every result's provenance."""

import functools
import subprocess
from pathlib import Path

from sim import __version__

CODE = ("sim", "strategies", "pyproject.toml")


@functools.cache
def code_version() -> str:
    """Package version plus the git commit when run from a checkout (and '.dirty' if the code is modified)."""
    root = Path(__file__).resolve().parents[2]
    try:
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"],
                             capture_output=True, text=True, timeout=5)
        if rev.returncode != 0:
            return __version__
        # only the code counts: regenerating the published reports must not mark the next experiment dirty
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
                                *CODE], capture_output=True, text=True, timeout=5).stdout.strip()
        return f"{__version__}+{rev.stdout.strip()}{'.dirty' if dirty else ''}"
    except (OSError, subprocess.SubprocessError):
        return __version__
