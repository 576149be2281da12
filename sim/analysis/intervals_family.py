"""A family of element effects (ablate: each element taken out; sensitivity: each alternative value), all
played against one base on the same seeds: which effects are detected once the family is controlled, and
how sure the ranking is.

Detection is `simultaneous` (single-step max-|t|) over every element's paired change. Ranks come
from a paired bootstrap over games: every resample recomputes every element's effect on the same resampled
games, ranks them, and each element's rank interval is the percentile interval of its rank. Two neighbours
in the ranking are "resolved" when the difference of their ranking keys is detected (bootstrap standard
error, Holm over the K - 1 adjacent pairs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as st

from sim.analysis.intervals_paired import Family, PairedChange, boot_ratios, family_of_changes, holm, paired_change


@dataclass(frozen=True)
class Neighbours:
    above: str
    below: str
    gap: float              # ranking key of `above` minus that of `below` (≥ 0)
    p_adjusted: float       # Holm over the adjacent pairs
    resolved: bool          # the data tell their order apart


@dataclass(frozen=True)
class ElementFamily:
    """`changes[i]`/`family.intervals[i]`/`family.verdicts[i]`: element i against the base. `ranked` are the
    groups (elements, or assumptions holding several alternatives) from largest key to smallest, with point
    rank, rank interval [rank_lo, rank_hi] (1 = largest) and whether each is told apart from the next."""

    names: list[str]
    changes: list[PairedChange]
    family: Family
    ranked: list[str]
    rank: dict[str, int]
    rank_lo: dict[str, int]
    rank_hi: dict[str, int]
    neighbours: list[Neighbours]
    rank_by: str
    n_boot: int

    def detected(self) -> list[str]:
        return [n for n, v in zip(self.names, self.family.verdicts) if v in ("up", "down")]

    def resolved_text(self) -> str:
        """Which adjacent differences the data resolve, in words."""
        if not self.neighbours:
            return ""
        parts = [f"{x.above} {'>' if x.resolved else '≈'} {x.below}" for x in self.neighbours]
        return "; ".join(parts) + " (> resolved, ≈ not told apart; Holm over adjacent pairs)"


def _keys(eff: np.ndarray, members: list[list[int]], rank_by: str) -> np.ndarray:
    """Ranking key per group: the largest |effect| (rank_by="abs") or largest signed effect of its members."""
    e = np.abs(eff) if rank_by == "abs" else eff
    return np.stack([e[..., m].max(axis=-1) for m in members], axis=-1)


def rank_intervals(boot_keys: np.ndarray, conf: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of each column's rank (1 = largest key) over bootstrap rows."""
    ranks = (-boot_keys).argsort(axis=1, kind="stable").argsort(axis=1) + 1
    lo = np.quantile(ranks, (1 - conf) / 2, axis=0, method="lower")
    hi = np.quantile(ranks, (1 + conf) / 2, axis=0, method="higher")
    return lo.astype(int), hi.astype(int)


def adjacent_resolved(point_keys: np.ndarray, boot_keys: np.ndarray, alpha: float = 0.05):
    """For neighbours in the point ranking: the gap of their keys, Holm-adjusted two-sided p-value (normal,
    with the bootstrap standard error of the gap) and whether it is resolved. The order is chosen by the data,
    so the test is two-sided. Returns (order, gaps, p_adjusted, resolved)."""
    order = np.argsort(-point_keys, kind="stable")
    gaps = point_keys[order[:-1]] - point_keys[order[1:]]
    se = (boot_keys[:, order[:-1]] - boot_keys[:, order[1:]]).std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, gaps / se, np.where(gaps > 0, np.inf, 0.0))
    p_adj = holm(2 * st.norm.sf(z)) if len(gaps) else np.zeros(0)
    return order, gaps, p_adj, p_adj <= alpha


def element_family(base: np.ndarray, arms, names: list[str], groups: list[str] | None = None,
                   alpha: float = 0.05, method: str = "maxt", n_boot: int = 1000, seed: int = 0,
                   rank_by: str = "abs", conf: float = 0.95) -> ElementFamily:
    """Every element's paired change against the base (per-game arrays, NaN where the outcome does not apply),
    detected under family-wise control, and ranked with bootstrap rank intervals.

    `groups[i]` names the group element i belongs to (sensitivity: the assumption an alternative value belongs
    to); a group's key is the largest |change| of its members (rank_by="abs") or largest signed change. With
    n_boot = 0 only detection is done (no ranks)."""
    arms = [np.asarray(x, dtype=np.float64) for x in arms]
    if len(arms) != len(names):
        raise ValueError("one name per arm")
    groups = list(names) if groups is None else list(groups)
    gnames = list(dict.fromkeys(groups))
    members = [[i for i, g in enumerate(groups) if g == name] for name in gnames]
    changes = [paired_change(base, x, conf) for x in arms]
    fam = family_of_changes(changes, alpha, method)
    if n_boot <= 0 or not arms:
        return ElementFamily(list(names), changes, fam, [], {}, {}, {}, [], rank_by, 0)
    reps = boot_ratios([base, *arms], n_boot, seed)
    reps = reps[np.isfinite(reps).all(axis=1)]
    eff = reps[:, 1:] - reps[:, :1]
    point = _keys(np.array([c.diff.value for c in changes]), members, rank_by)
    boot = _keys(eff, members, rank_by)
    lo, hi = rank_intervals(boot, conf)
    order, gaps, p_adj, ok = adjacent_resolved(point, boot, alpha)
    ranked = [gnames[i] for i in order]
    rank = {g: r + 1 for r, g in enumerate(ranked)}
    neigh = [Neighbours(gnames[order[j]], gnames[order[j + 1]], float(gaps[j]), float(p_adj[j]), bool(ok[j]))
             for j in range(len(gaps))]
    return ElementFamily(list(names), changes, fam, ranked, rank,
                         {g: int(lo[i]) for i, g in enumerate(gnames)}, {g: int(hi[i]) for i, g in enumerate(gnames)},
                         neigh, rank_by, len(reps))
