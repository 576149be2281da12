"""dsim: Monte Carlo balance and strategy simulator for dragon-themed card games."""

from sim.tooling._numba_cache import install as _install_numba_cache

__version__ = "0.1.0"

_install_numba_cache()      # before any kernel is decorated: see sim/tooling/_numba_cache.py
