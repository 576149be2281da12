"""Small helpers the solvers share: input checks, cleaning a mixture, an interval record."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WEIGHT_FLOOR = 1e-9     # a weight below this is solver noise: it is set to 0 and the rest renormalised


@dataclass(frozen=True, eq=False)    # holds arrays: compare fields, not objects
class Interval:
    """A point estimate with a (lo, hi) interval; the three fields are floats or equal-shaped arrays."""
    value: float | np.ndarray
    lo: float | np.ndarray
    hi: float | np.ndarray

    def covers(self, x) -> bool | np.ndarray:
        return (self.lo <= x) & (x <= self.hi)


def as_table(a, name: str = "payoff table", ndim: int | None = 2) -> np.ndarray:
    """A finite float array with at least one cell (and `ndim` axes when given), or ValueError."""
    t = np.asarray(a, dtype=np.float64)
    if ndim is not None and t.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} axes, got shape {t.shape}")
    if t.size == 0:
        raise ValueError(f"{name} is empty (shape {t.shape})")
    if not np.all(np.isfinite(t)):
        raise ValueError(f"{name} has a NaN or infinite cell")
    return t


def as_mixture(x, k: int, name: str = "mixture") -> np.ndarray:
    """A probability vector of length k (non-negative, summing to 1 within 1e-6), renormalised exactly."""
    v = np.asarray(x, dtype=np.float64).reshape(-1)
    if v.shape != (k,):
        raise ValueError(f"{name} must have {k} weights, got {v.shape[0]}")
    if not np.all(np.isfinite(v)) or np.any(v < -1e-9) or abs(v.sum() - 1.0) > 1e-6:
        raise ValueError(f"{name} is not a probability vector: {v}")
    v = np.clip(v, 0.0, None)
    return v / v.sum()


def clean(x, floor: float = WEIGHT_FLOOR) -> np.ndarray:
    """Clip tiny and negative weights to 0 and renormalise so the weights sum to 1 (uniform if nothing is left)."""
    v = np.asarray(x, dtype=np.float64).copy()
    v[~(v > floor)] = 0.0
    s = v.sum()
    return v / s if s > 0 else np.full(len(v), 1.0 / len(v))


def pure(i: int, k: int) -> np.ndarray:
    """The mixture that plays strategy i with certainty."""
    e = np.zeros(k)
    e[i] = 1.0
    return e
