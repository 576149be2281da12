"""Arms played against the rules as given, on the same seeds: the paired change each makes to the headline
outcomes, ranked, and the chart of it. `dsim sensitivity` and `dsim ablate` are built on this."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.core.compare import arm_games, compare_frames, run_arms  # noqa: E402
from sim.core.coverage import identical_games  # noqa: E402
from sim.core.game import Game  # noqa: E402
from sim.core.report import ChartSaver  # noqa: E402
from sim.core.runner import RunSpec  # noqa: E402
from sim.core.stats import PairedResult  # noqa: E402


@dataclass(frozen=True)
class Effect:
    key: str
    alternative: object
    outcome: str
    label: str
    kind: str
    result: PairedResult
    identical: bool          # the alternative changed no game at all


def effect_rows(effects: list[Effect], key_name: str) -> list[dict]:
    """The effects as plain rows (for --format json)."""
    return [{key_name: e.key, "alternative": str(e.alternative), "outcome": e.outcome, "difference": e.result.diff.value,
             "lo": e.result.diff.lo, "hi": e.result.diff.hi, "identical": e.identical} for e in effects]


def against_base(game: Game, base: RunSpec, planned: list[tuple], out: Path, jobs: int, precision: float | None,
                 label: str) -> tuple[list[Effect], int]:
    """Play (key, alternative, spec) arms and the base in lockstep; the headline effects and games per arm."""
    specs = [dataclasses.replace(base, extra={label: "as given"})] + [s for *_, s in planned]
    played = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    effects = []
    for (key, alt, _), frame in zip(planned, frames[1:]):
        same = identical_games(frames[0], frame, game.label_columns())
        for name, kind, r, text, headline in compare_frames(game, frames[0], frame):
            if headline:
                effects.append(Effect(key, alt, name, text or name, kind, r, same))
    return effects, played


def ranked(effects: list[Effect], outcome: str) -> list[tuple[str, float, list[Effect]]]:
    """Assumptions by the largest change any alternative makes to one outcome, largest first."""
    by_key: dict[str, list[Effect]] = {}
    for e in effects:
        if e.outcome == outcome:
            by_key.setdefault(e.key, []).append(e)
    rows = [(k, max(abs(e.result.diff.value) for e in es), es) for k, es in by_key.items()]
    return sorted(rows, key=lambda r: -r[1])


def units(kind: str, value: float) -> str:
    return f"{100 * value:.1f} points" if kind == "rate" else f"{value:.3g}"


def largest(es: list[Effect]) -> Effect:
    return max(es, key=lambda e: abs(e.result.diff.value))


def signed(e: Effect) -> str:
    """A paired change with its interval: "-5.0 points [-10.1, +0.1]" (rates) or "+0.31 [+0.12, +0.50]"."""
    d = e.result.diff
    if e.kind == "rate":
        return f"{100 * d.value:+.1f} points [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}]"
    return f"{d.value:+.3g} [{d.lo:+.3g}, {d.hi:+.3g}]"


def detected(e: Effect) -> bool:
    return e.result.diff.lo > 0 or e.result.diff.hi < 0


def untouched(effects: list[Effect], outcome: str) -> bool:
    """No arm moved this outcome at all (every difference and interval exactly zero)."""
    return all(e.result.diff.lo == e.result.diff.hi == 0 for e in effects if e.outcome == outcome)


def tornado(game: Game, rows, label: str, kind: str, chart: ChartSaver, name: str) -> str:
    """One bar per assumption from its lowest to its highest change, each alternative's interval on it."""
    scale = 100 if kind == "rate" else 1
    rows = rows[::-1]                                  # largest at the top
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.42 * len(rows)))
    for i, (key, _, es) in enumerate(rows):
        values = [e.result.diff.value * scale for e in es]
        ax.barh(i, max(values + [0]) - min(values + [0]), left=min(values + [0]), color="tab:blue", alpha=0.35)
        for e, v in zip(es, values):
            d = e.result.diff
            ax.errorbar([v], [i], xerr=[[v - d.lo * scale], [d.hi * scale - v]], fmt="o", color="tab:blue",
                        capsize=3, ms=4)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    unit = "percentage points" if kind == "rate" else "change"
    ax.set_xlabel(f"{label}: alternative minus as given ({unit}, paired 95% CI)")
    top = rows[-1]
    ax.set_title(f"{label} is most sensitive to {top[0]}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart(f"tornado_{name}", fig)
