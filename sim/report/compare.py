"""`dsim compare`'s report: what each variant changes, in words, then the tables and charts."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.compare import Comparison  # noqa: E402
from sim.analysis.coverage import identical_games, silent_rules  # noqa: E402
from sim.analysis.stats import PairedResult, holm  # noqa: E402
from sim.engine.game import Game  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402
from sim.report.coverage import silent_warning  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import lineup_text, rules_text  # noqa: E402

WIDE = 4        # more variants than this: variants as rows, outcomes as columns


def write(c: Comparison, to: Path) -> Path:
    """`compare_<game>.md` and its HTML twin, with a difference chart per variant."""
    to.mkdir(parents=True, exist_ok=True)
    chart = ChartSaver(to, f"compare_{c.game.name}")
    lines = compare_lines(c.game, c.variants, c.specs, c.frames, c.results, c.n, chart)
    return write_report(to, f"compare_{c.game.name}", "\n".join(lines), c.game.title)


def change(r: PairedResult, kind: str) -> str:
    """A paired difference in words' units: percentage points for rates."""
    if kind == "rate":
        d = r.diff
        return f"{100 * d.value:+.2f} points [{100 * d.lo:+.2f}, {100 * d.hi:+.2f}]"
    return f"{r.diff.value:+.3g} [{r.diff.lo:+.3g}, {r.diff.hi:+.3g}]"


def arm_text(spec, name: str) -> str:
    """A variant's name, and the rules it changes when the name does not say it."""
    if name == "base":
        return "base (rules as given)"
    text = rules_text(spec.rules.ruleset.provenance())
    return name if text in (name, f"variant {name}") else f"{name} ({text})"


def headline_cells(results: dict[str, list[tuple]]) -> list[tuple]:
    """(variant, outcome name, label, kind, result, Holm-adjusted p) for every headline difference."""
    cells = [(v, name, label or name, kind, r) for v, rows in results.items()
             for name, kind, r, label, headline in rows if headline]
    adjusted = holm([c[-1].p_value for c in cells])
    return [(*c, p) for c, p in zip(cells, adjusted)]


def findings(cells: list[tuple], base: str) -> list[str]:
    """Significant changes first (largest first), then the variants with no detectable effect."""
    real = sorted([c for c in cells if c[-1] < 0.05], key=lambda c: -abs(c[4].diff.value) / max(c[4].diff.half_width(), 1e-12))
    out = [f"**{v}** changes {label} by {change(r, kind)} against {base} (Holm-adjusted p = {p:.2g})."
           for v, _, label, kind, r, p in real]
    quiet: dict[str, list[str]] = {}
    for v, _, label, kind, r, p in cells:
        if p >= 0.05:
            quiet.setdefault(v, []).append(f"{label} {change(r, kind)}")
    out += [f"**{v}**: no detectable change ({'; '.join(parts)})." for v, parts in quiet.items()]
    return out


def caveats(variants, specs, frames, labels=()) -> list[str]:
    out = []
    for v, spec, f in zip(variants[1:], specs[1:], frames[1:]):
        silent = silent_rules(specs[0].rules, spec.rules, [frames[0], f])
        if silent:
            out.append(silent_warning(v, silent, f.height))
        if identical_games(frames[0], f, labels):
            out.append(f"**{v} played exactly the same games as {variants[0]}**: under these strategies and seeds "
                       "its rules never changed a move or a result, so this comparison tested nothing about them.")
    return out


def summary_table(cells: list[tuple], variants: list[str]) -> list[str]:
    """Headline differences: outcomes as rows and variants as columns (variants as rows when there are many)."""
    outcomes = list(dict.fromkeys(c[2] for c in cells))
    cell = {(c[0], c[2]): f"{change(c[4], c[3])}{' *' if c[-1] < 0.05 else ''}" for c in cells}
    others = variants[1:]
    if len(others) <= WIDE:
        lines = ["| outcome | " + " | ".join(others) + " |", "|---|" + "---|" * len(others)]
        lines += [f"| {o} | " + " | ".join(cell.get((v, o), "") for v in others) + " |" for o in outcomes]
    else:
        lines = ["| variant | " + " | ".join(outcomes) + " |", "|---|" + "---|" * len(outcomes)]
        lines += [f"| {v} | " + " | ".join(cell.get((v, o), "") for o in outcomes) + " |" for v in others]
    return lines + ["", f"Differences against {variants[0]} with paired 95% intervals; * = significant after Holm's "
                    f"adjustment over the {len(cells)} headline tests.", ""]


def compare_lines(game: Game, variants, specs, frames, results, n: int, chart) -> list[str]:
    base = specs[0]
    who = lineup_text(game, base.provenance()["strategies"])
    arms = " vs ".join(variants) if len(variants) <= 3 else f"{variants[0]} vs {len(variants) - 1} variants"
    cells = headline_cells(results)
    lines = [f"# {game.title}: {arms}", "", "## Findings", "", *[f"- {f}" for f in findings(cells, variants[0])], "",
             f"{n:,} games per arm, {base.players} players, {who}, seed {base.seed}; every arm played the same "
             "seeds (common random numbers), so each difference is paired game by game.", ""]
    warn = caveats(variants, specs, frames, game.label_columns())
    if warn:
        lines += ["## What these findings rest on", "", *[f"- {w}" for w in warn], ""]
    lines += ["## Headline differences", "", *summary_table(cells, variants)]
    for (v, rows), spec in zip(results.items(), specs[1:]):
        lines += [f"## {arm_text(spec, v)} against {variants[0]}", "",
                  f"| outcome | {variants[0]} | {v} | difference [95% CI] | p | test | games unpaired would need |",
                  "|---|---|---|---|---|---|---|"]
        for name, kind, r, label, _ in rows:
            pct = kind == "rate"
            lines.append(f"| {label or name} | {r.a.fmt(pct=pct, digits=2 if pct else 3)} | "
                         f"{r.b.fmt(pct=pct, digits=2 if pct else 3)} | {change(r, kind)} | {r.p_value:.3g} | "
                         f"{r.test} | {_unpaired(r)} |")
        lines += ["", difference_chart(game, v, variants[0], rows, chart), ""]
    return lines


def _unpaired(r: PairedResult) -> str:
    if r.n_unpaired >= 10**12:
        return "∞ (pairing removes all noise)"
    return f"{r.n_unpaired:,} ({r.saving():.1f}×)"


def difference_chart(game, v, base, rows, chart) -> str:
    rates = [(label or name, r) for name, kind, r, label, _ in rows if kind == "rate"]
    if not rates:
        return ""
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.42 * len(rates)))
    for i, (label, r) in enumerate(rates):
        ax.errorbar([100 * r.diff.value], [i], xerr=[[100 * (r.diff.value - r.diff.lo)], [100 * (r.diff.hi - r.diff.value)]],
                    fmt="o", capsize=4, color="tab:red" if r.p_value < 0.05 else "tab:gray")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rates)), [lab for lab, _ in rates], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"{v} minus {base} (percentage points, paired 95% interval; red: p < 0.05)")
    moved = [lab for lab, r in rates if r.p_value < 0.05]
    ax.set_title(f"{v} changes {', '.join(moved[:2])}{' and more' if len(moved) > 2 else ''}" if moved
                 else f"{v}: no detectable change in any rate", fontsize=10)
    return chart(f"{v}_vs_{base}".replace("=", "-").replace(";", "_"), fig)
