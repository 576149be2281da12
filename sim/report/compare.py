"""`dsim compare`'s report: what each variant changes, in words, then the tables and charts."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.compare import Change, Comparison  # noqa: E402
from sim.analysis.coverage import identical_games, silent_rules  # noqa: E402
from sim.analysis.intervals_paired import PairedChange  # noqa: E402
from sim.report.changes import change_text, family_reading  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402
from sim.report.coverage import silent_warning  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import DEFAULT_RULES, lineup_text, rules_text, words  # noqa: E402

WIDE = 4        # more variants than this: variants as rows, outcomes as columns


def write(c: Comparison, to: Path) -> Path:
    """`compare_<game>.md` and its HTML twin, with a difference chart per variant."""
    to.mkdir(parents=True, exist_ok=True)
    chart = ChartSaver(to, f"compare_{c.game.name}")
    return write_report(to, f"compare_{c.game.name}", "\n".join(compare_lines(c, chart)), c.game.title)


def change(c: Change) -> str:
    """The change as shown: the family's interval, or, when no paired game differs, the exact bound in words."""
    return change_text(c.paired, c.shown, c.kind)


def verdict_word(c: Change) -> str:
    return "no game changed" if c.paired.identical else c.verdict


def arm_text(spec, name: str) -> str:
    """A variant's name, and the rules it changes when the name does not say it."""
    if name == "base":
        return f"base ({DEFAULT_RULES})"
    text = rules_text(spec.rules.ruleset.provenance())
    says = text == f"variant {words(name)}" or all("=" in part for part in name.split(";"))   # its own overrides
    return name if says else f"{name} ({text})"


def headline_cells(results: dict[str, list[Change]]) -> list[Change]:
    return [c for rows in results.values() for c in rows if c.headline]


def _strength(c: Change) -> float:
    """How far the change is from 0 in its own standard errors (to list the clearest findings first)."""
    return abs(c.paired.diff.value) / c.paired.se if c.paired.se > 0 else 0.0


def findings(cells: list[Change], base: str) -> list[str]:
    """Detected changes first (clearest first), then per variant the headline outcomes it did not detectably
    change. Every word is read off the interval printed beside it."""
    real = sorted([c for c in cells if c.detected], key=lambda c: -_strength(c))
    out = [f"**{c.variant}** changes {c.label} by {change(c)} against "
           f"{base} (adjusted p = {c.p_adjusted:.2g})." for c in real]
    quiet: dict[str, list[str]] = {}
    for c in cells:
        if not c.detected:
            quiet.setdefault(c.variant, []).append(f"{c.label}: {change(c)}")
    out += [f"**{v}**: no change detected ({'; '.join(parts)})." for v, parts in quiet.items()]
    return out


def reading(family: str) -> str:
    return family_reading(family, "all outcomes of all variants")


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


def summary_table(cells: list[Change], variants: list[str]) -> list[str]:
    """Headline differences: outcomes as rows and variants as columns (variants as rows when there are many)."""
    outcomes = list(dict.fromkeys(c.label for c in cells))
    cell = {(c.variant, c.label): f"{change(c)}{' *' if c.detected else ''}" for c in cells}
    others = variants[1:]
    if len(others) <= WIDE:
        lines = ["| outcome | " + " | ".join(others) + " |", "|---|" + "---|" * len(others)]
        lines += [f"| {o} | " + " | ".join(cell.get((v, o), "") for v in others) + " |" for o in outcomes]
    else:
        lines = ["| variant | " + " | ".join(outcomes) + " |", "|---|" + "---|" * len(outcomes)]
        lines += [f"| {v} | " + " | ".join(cell.get((v, o), "") for o in outcomes) + " |" for v in others]
    return lines + ["", f"Differences against {variants[0]}; * = change detected (its interval leaves out 0).", ""]


def compare_lines(c: Comparison, chart) -> list[str]:
    game, variants, specs, results, n = c.game, c.variants, c.specs, c.results, c.n
    base = specs[0]
    who = lineup_text(game, base.provenance()["strategies"])
    arms = " vs ".join(variants) if len(variants) <= 3 else f"{variants[0]} vs {len(variants) - 1} variants"
    cells = headline_cells(results)
    lines = [f"# {game.title}: {arms}", "", "## Findings", "", *[f"- {f}" for f in findings(cells, variants[0])], "",
             f"{n:,} games per arm, {base.players} players, {who}, seed {base.seed}; every arm played the same "
             "seeds (common random numbers), so each difference is paired game by game.", "", reading(c.family), ""]
    warn = caveats(variants, specs, c.frames, game.label_columns())
    if warn:
        lines += ["## What these findings rest on", "", *[f"- {w}" for w in warn], ""]
    lines += ["## Headline differences", "", *summary_table(cells, variants)]
    for (v, rows), spec in zip(results.items(), specs[1:]):
        lines += [f"## {arm_text(spec, v)} against {variants[0]}", "", *variant_table(v, variants[0], rows, c.family),
                  "", difference_chart(v, variants[0], rows, chart), ""]
    return lines


def variant_table(v: str, base: str, rows: list[Change], family: str) -> list[str]:
    """Every outcome of one variant: both arms' figures, the shown change, the verdict read off it."""
    lines = [f"| outcome | {base} | {v} | difference [{family}] | verdict | adjusted p | test | "
             "games unpaired would need |", "|---|---|---|---|---|---|---|---|"]
    for ch in rows:
        pct, r = ch.kind == "rate", ch.paired
        lines.append(f"| {ch.label} | {r.a.fmt(pct=pct, digits=2 if pct else 3)} | "
                     f"{r.b.fmt(pct=pct, digits=2 if pct else 3)} | {change(ch)} | {verdict_word(ch)} | "
                     f"{ch.p_adjusted:.3g} | {method_name(r)} | {_unpaired(r)} |")
    return lines


def method_name(r: PairedChange) -> str:
    """How the per-game differences were tested (the family adjusts the p-value and widens the interval)."""
    if r.identical:
        return "exact bound (no game differs)"
    name = "paired delta method, ratio of totals" if "ratio of totals" in r.diff.share_of else "paired normal"
    return name + (", McNemar's continuity correction" if r.cc else "")


def _unpaired(r: PairedChange) -> str:
    if r.n_unpaired >= 10**12:
        return "∞ (pairing removes all noise)"
    return f"{r.n_unpaired:,} ({r.saving():.1f}×)"


def difference_chart(v, base, rows: list[Change], chart) -> str:
    """The rate changes with the shown (family) intervals; red where a change is detected."""
    rates = [c for c in rows if c.kind == "rate"]
    if not rates:
        return ""
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.42 * len(rates)))
    for i, c in enumerate(rates):
        e = c.shown
        ax.errorbar([100 * e.value], [i], xerr=[[100 * (e.value - e.lo)], [100 * (e.hi - e.value)]],
                    fmt="o", capsize=4, color="tab:red" if c.detected else "tab:gray")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rates)), [c.label for c in rates], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"{v} minus {base} (percentage points; simultaneous 95% intervals over the whole comparison; "
                  "red: change detected)")
    moved = [c.label for c in rates if c.detected]
    ax.set_title(f"{v} changes {', '.join(moved[:2])}{' and more' if len(moved) > 2 else ''}" if moved
                 else f"{v}: no change detected in any rate", fontsize=10)
    return chart(f"{v}_vs_{base}".replace("=", "-").replace(";", "_"), fig)
