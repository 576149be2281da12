"""`dsim compare`'s report: what each variant changes, in words, with the base value, the new one and the change;
then, per headline outcome, a table of the variants (the base first, then by the change); then each variant's
every outcome and chart, folded when there are many variants."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.analysis.compare import Change, Comparison  # noqa: E402
from sim.analysis.coverage import identical_games, silent_rules  # noqa: E402
from sim.analysis.intervals_paired import PairedChange  # noqa: E402
from sim.report import layout, numbers  # noqa: E402
from sim.report.changes import change_text, family_reading  # noqa: E402
from sim.report.charts import ChartSaver, fit_span  # noqa: E402
from sim.report.coverage import silent_warning  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import DEFAULT_RULES, lineup_text, p_text, rules_text, words  # noqa: E402

SHOWN = 6           # detected changes named one by one in the findings (the first screen); the rest in the tables
FOLDED = 2          # more variants than this: each variant's own section is folded


def write(c: Comparison, to: Path) -> Path:
    """`compare_<game>.md` and its HTML twin, with a difference chart per variant."""
    to.mkdir(parents=True, exist_ok=True)
    chart = ChartSaver(to, f"compare_{c.game.name}")
    return write_report(to, f"compare_{c.game.name}", "\n".join(compare_lines(c, chart)), c.game.title)


def figures(c: Comparison) -> dict:
    """--format json: every outcome of every variant, with both arms' figures and the change (`sim.report.numbers`)."""
    percent = {o.name for o in c.game.outcomes() if o.shows_percent()}
    rows = []
    for ch in (ch for changes in c.results.values() for ch in changes):
        pct = ch.outcome in percent
        rows.append({"variant": ch.variant, "outcome": ch.outcome, "label": ch.label, "headline": ch.headline,
                     "base": numbers.estimate(ch.paired.a, pct), "new": numbers.estimate(ch.paired.b, pct),
                     "change": {**numbers.change(ch.shown, pct), "detected": ch.detected, "verdict": ch.verdict,
                                "p_adjusted": ch.p_adjusted, "p": ch.paired.p_value},
                     "games": ch.paired.n, "games_changed": ch.paired.changed,
                     "games_unpaired_would_need": ch.paired.n_unpaired})
    return {"base": c.variants[0], "games_per_arm": c.n, "interval": c.family, "changes": rows}


def change(c: Change, pct: bool | None = None) -> str:
    """The change as shown: the family's interval (points for a rate or a mean of shares), or, when no paired
    game differs, the exact bound in words."""
    return change_text(c.paired, c.shown, "rate" if (c.kind == "rate" if pct is None else pct) else "mean")


def value(c: Change, arm: str, pct: bool) -> str:
    """One arm's figure with its 95% interval: "45.2% [44.9, 45.5]", or a mean with one decimal ("6.3 [6.2, 6.3]";
    more only under 0.1)."""
    return numbers.estimate_text(c.paired.a if arm == "a" else c.paired.b, pct)


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


def findings(cells: list[Change], base: str, percent: set[str], others: list[Change] = ()) -> list[str]:
    """The detected changes, clearest first, each with the base value, the new one and the change; then the
    variants that changed no headline outcome detectably, in one sentence, and for each of them its clearest
    detected change among the other outcomes (`others`), if any: a variant can leave the headline alone and
    still change how games go. Every word is read off the interval printed beside it."""
    real = sorted([c for c in cells if c.detected], key=lambda c: -_strength(c))
    out = [_moves(c, base, percent) for c in real[:SHOWN]]
    if len(real) > SHOWN:
        out.append(f"{len(real) - SHOWN} more detected changes are in the tables below.")
    moved = {c.variant for c in real}
    quiet = list(dict.fromkeys(c.variant for c in cells if c.variant not in moved))
    if quiet:
        out.append(f"No headline change detected for {_names(quiet)} (each change's interval includes 0; the "
                   "tables give them).")
    for v in quiet[:SHOWN]:
        beyond = sorted([c for c in others if c.variant == v and c.detected and not c.headline],
                        key=lambda c: -_strength(c))
        if beyond:
            more = f" {len(beyond) - 1} other outcomes change detectably (tables below)." if len(beyond) > 1 else ""
            out.append(f"Beyond the headline, {_moves(beyond[0], base, percent)}{more}")
    return out


def _moves(c: Change, base: str, percent: set[str]) -> str:
    pct = c.outcome in percent
    return (f"**{c.variant}** moves {c.label} from {value(c, 'a', pct)} to {value(c, 'b', pct)} "
            f"({change(c, pct)} against {base}; adjusted p {p_text(c.p_adjusted, 2, relation=True)}).")


def _names(names: list[str]) -> str:
    names = [f"**{n}**" for n in names]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def reading(family: str) -> str:
    return family_reading(family, "all outcomes of all variants")


def caveats(variants, specs, frames, labels=()) -> list[str]:
    out = []
    for v, spec, f in zip(variants[1:], specs[1:], frames[1:]):
        silent = silent_rules(specs[0].rules, spec.rules, [frames[0], f])
        if silent:
            out.append(silent_warning(v, silent, f.height, spec.rules.ruleset))
        if identical_games(frames[0], f, labels):
            out.append(f"**{v} played exactly the same games as {variants[0]}**: under these strategies and seeds "
                       "its rules never changed a move or a result, so this comparison tested nothing about them.")
    return out


def summary_tables(cells: list[Change], variants: list[str], percent: set[str],
                   headings: dict[str, str] | None = None) -> list[str]:
    """Per headline outcome (under its short heading): the base's value first, then each variant's value and
    change, largest rise first."""
    headings = headings or {}
    lines = []
    for outcome in dict.fromkeys(c.outcome for c in cells):
        mine = sorted([c for c in cells if c.outcome == outcome], key=lambda c: -c.shown.value)
        pct = outcome in percent
        body = [[f"{variants[0]}", value(mine[0], "a", pct), "", ""]]
        body += [[c.variant, value(c, "b", pct), change(c, pct) + (" *" if c.detected else ""), verdict_word(c)]
                 for c in mine]
        lines += [f"### {headings.get(outcome, mine[0].label)}", ""]
        lines += layout.fold(f"{len(mine)} variants, largest rise first",
                             layout.table(["arm", "value [95% CI]", f"change against {variants[0]}", "verdict"], body),
                             len(body))
        lines.append("")
    return lines + ["* = change detected (its interval leaves out 0). Changes of rates and shares are in "
                    "percentage points.", ""]


def compare_lines(c: Comparison, chart) -> list[str]:
    game, variants, specs, results, n = c.game, c.variants, c.specs, c.results, c.n
    base = specs[0]
    who = lineup_text(game, base.provenance()["strategies"])
    arms = " vs ".join(variants) if len(variants) <= 3 else f"{variants[0]} vs {len(variants) - 1} variants"
    cells = headline_cells(results)
    percent = {o.name for o in game.outcomes() if o.shows_percent()}
    lines = [f"# {game.title}: {arms}", "", "## Findings", "",
             *[f"- {f}" for f in findings(cells, variants[0], percent,
                                                  [c for rows in results.values() for c in rows])], "",
             f"{n:,} games per arm, {base.players} players, {who}, seed {base.seed}; every arm played the same "
             "seeds (common random numbers), so each difference is paired game by game.", "", reading(c.family), ""]
    warn = caveats(variants, specs, c.frames, game.label_columns())
    if warn:
        lines += ["## What these findings rest on", "", *[f"- {w}" for w in warn], ""]
    headings = {o.name: o.heading() for o in game.outcomes()}
    lines += ["## Headline outcomes, variant by variant", "", *summary_tables(cells, variants, percent, headings)]
    fold = len(results) > FOLDED
    for (v, rows), spec in zip(results.items(), specs[1:]):
        title = f"{arm_text(spec, v)} against {variants[0]}"
        section = [*variant_table(v, variants[0], rows, c.family, percent), "",
                   difference_chart(v, variants[0], rows, chart, percent, headings), ""]
        lines += [f"## {title}", "", *(layout.fold(f"every outcome of {v}, and its chart", section) if fold
                                        else section)]
    return lines


def variant_table(v: str, base: str, rows: list[Change], family: str, percent: set[str]) -> list[str]:
    """Every outcome of one variant: both arms' figures, the shown change, the verdict read off it."""
    body = []
    for ch in rows:
        pct, r = ch.outcome in percent, ch.paired
        body.append([ch.label, value(ch, "a", pct), value(ch, "b", pct), change(ch, pct), verdict_word(ch),
                     p_text(ch.p_adjusted), _unpaired(r)])
    methods = list(dict.fromkeys(method_name(ch.paired) for ch in rows))
    return [*layout.table(["outcome", base, v, f"change [{family}]", "verdict", "adjusted p",
                           "games unpaired would need"], body, layout.MAX_COLUMNS), "",
            f"Tested by {', '.join(methods)}."]


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


def difference_chart(v, base, rows: list[Change], chart, percent: set[str] = frozenset(),
                     headings: dict[str, str] | None = None) -> str:
    """The changes of rates and shares with the shown (family) intervals, largest rise at the top; red where a
    change is detected; each outcome by its short heading."""
    headings = headings or {}
    rates = sorted([c for c in rows if c.outcome in percent or c.kind == "rate"], key=lambda c: -c.shown.value)
    if not rates:
        return ""
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.42 * len(rates)))
    for i, c in enumerate(rates):
        e = c.shown
        ax.errorbar([100 * e.value], [i], xerr=[[100 * (e.value - e.lo)], [100 * (e.hi - e.value)]],
                    fmt="o", capsize=4, color="tab:red" if c.detected else "tab:gray")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(rates)), [headings.get(c.outcome, c.label) for c in rates], fontsize=8)
    ax.invert_yaxis()
    fit_span(ax, 2.0)
    ax.set_xlabel(f"{v} minus {base} (percentage points; simultaneous 95% intervals over the whole comparison; "
                  "red: change detected)")
    moved = [headings.get(c.outcome, c.label) for c in rates if c.detected]
    ax.set_title(f"{v} changes {', '.join(moved[:2])}{' and more' if len(moved) > 2 else ''}" if moved
                 else f"{v}: no change detected in any rate", fontsize=10)
    return chart(f"{v}_vs_{base}".replace("=", "-").replace(";", "_"), fig)
