"""`dsim sensitivity`: how much each assumed value moves the headline outcomes.

Every value a rules file labels `assumed` declares its plausible alternatives (`range = [low, high]` or
`alternatives = [...]`), and every rule flag has its other reading. Each alternative is played alone against the
rules as given, all arms on the same seeds, so each change is a paired difference with its interval. The
assumptions are ranked by the largest change any of their alternatives makes.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from sim.core.compare import arm_games, compare_frames, identical_games, run_arms  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.game import Game  # noqa: E402
from sim.core.report import ChartSaver, markdown_to_html  # noqa: E402
from sim.core.runner import RunSpec  # noqa: E402
from sim.core.stats import PairedResult  # noqa: E402
from sim.core.strategy import lineup_label  # noqa: E402


@dataclass(frozen=True)
class Effect:
    key: str
    alternative: object
    outcome: str
    label: str
    kind: str
    result: PairedResult
    identical: bool          # the alternative changed no game at all


def assumptions(game: Game, rules) -> dict[str, tuple]:
    """Every assumed value and rule flag with its plausible alternatives, in file order."""
    entries = rules.ruleset.entries
    return {k: e.alternatives for k, e in entries.items()
            if (e.source != "rulebook" or e.flag is not None) and e.alternatives}


def undeclared(game: Game) -> list[str]:
    """Assumed values that declare no alternative: sensitivity cannot say what they change."""
    entries = game.load_rules().ruleset.entries
    return [k for k, e in entries.items() if e.source == "assumed" and not e.alternatives]


def short(value) -> str:
    text = str(value).replace("'", "")
    return text if len(text) <= 28 else text[:25] + "..."


def arms(game: Game, base: RunSpec, only=(), rules_file=None, variants=(), base_sets=()) -> list[tuple]:
    """(key, alternative, spec) for every alternative, validated before anything plays."""
    table = assumptions(game, base.rules)
    unknown = [k for k in only if k not in table]
    if unknown:
        raise DsimError(f"no assumed value with alternatives named {', '.join(unknown)} in {game.name} "
                        f"(known: {', '.join(table)})")
    out = []
    for key, alternatives in table.items():
        if only and key not in only:
            continue
        for alt in alternatives:
            try:
                rules = game.load_rules(rules_file, variants, [*base_sets, (key, alt)])
                game.check_players(rules, base.players)
            except DsimError as e:
                raise DsimError(f"{game.name}: the alternative {key}={short(alt)} is not valid rules: {e}") from None
            extra = {"sensitivity": f"{key}={alt}"}
            out.append((key, alt, dataclasses.replace(base, rules=rules, extra=extra)))
    if not out:
        raise DsimError(f"{game.name} declares no alternatives for its assumed values")
    return out


def sensitivity(game: Game, base: RunSpec, out: Path, to: Path, jobs: int = 1, precision: float | None = None,
                only=(), rules_file=None, variants=(), base_sets=()) -> tuple[Path, list[Effect]]:
    planned = arms(game, base, only, rules_file, variants, tuple(base_sets))
    specs = [dataclasses.replace(base, extra={"sensitivity": "as given"})] + [s for *_, s in planned]
    played = run_arms(specs, out, jobs, precision)
    frames = [arm_games(out, s) for s in specs]
    effects = []
    for (key, alt, _), frame in zip(planned, frames[1:]):
        same = identical_games(frames[0], frame)
        for name, kind, r, label, headline in compare_frames(game, frames[0], frame):
            if headline:
                effects.append(Effect(key, alt, name, label or name, kind, r, same))
    to.mkdir(parents=True, exist_ok=True)
    pl.DataFrame([{"assumption": e.key, "alternative": str(e.alternative), "outcome": e.outcome,
                   "difference": e.result.diff.value, "lo": e.result.diff.lo, "hi": e.result.diff.hi,
                   "p": e.result.p_value, "identical": e.identical, "games": played} for e in effects]
                 ).write_parquet(to / f"sensitivity_{game.name}.parquet")
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    (to / f"sensitivity_{game.name}.json").write_text(json.dumps(
        {"findings": [sentence(effects, o) for o in outcomes], "games_per_arm": played,
         "players": base.players, "lineup": lineup_label(base.lineup)}, indent=1))
    chart = ChartSaver(to, f"sensitivity_{game.name}")
    lines = report_lines(game, base, effects, played, chart)
    path = to / f"sensitivity_{game.name}.md"
    path.write_text("\n".join(lines) + "\n")
    (to / f"sensitivity_{game.name}.html").write_text(markdown_to_html("\n".join(lines), game.title))
    return path, effects


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


def sentence(effects: list[Effect], outcome: str) -> str:
    """The finding in words: what moves this outcome most, and how much the rest move it at most."""
    rows = ranked(effects, outcome)
    if not rows:
        return ""
    key, size, es = rows[0]
    label, kind = es[0].label, es[0].kind
    alts = ", ".join(short(e.alternative) for e in es)
    text = f"{label} moves up to {units(kind, size)} across the plausible {key} ({alts})"
    if len(rows) > 1:
        text += f"; {rows[1][0]} moves it up to {units(kind, rows[1][1])}"
    if len(rows) > 2:
        text += f"; nothing else moves it more than {units(kind, rows[2][1])}"
    return text + "."


def report_lines(game: Game, base: RunSpec, effects: list[Effect], played: int, chart: ChartSaver) -> list[str]:
    outcomes = list(dict.fromkeys(e.outcome for e in effects))
    lines = [f"# {game.title}: what the assumed values change", "", "## Findings", ""]
    lines += [f"- {sentence(effects, o)}" for o in outcomes]
    lines += ["", f"Each alternative was played alone against the rules as given: {played:,} games per arm, "
              f"{base.players} players, lineup {lineup_label(base.lineup)}, seed {base.seed}, every arm on the "
              "same seeds, so each change is a paired difference with its 95% interval. The alternatives come "
              "from each assumed value's `range` or `alternatives` in the rules file, and each flag's other "
              "reading.", ""]
    for o in outcomes:
        rows = ranked(effects, o)
        label, kind = rows[0][2][0].label, rows[0][2][0].kind
        lines += [f"## {label}", "", tornado(game, rows, label, kind, chart, o), "",
                  "| assumption | alternative | change [95% CI] | p |", "|---|---|---|---|"]
        for key, _, es in rows:
            for e in es:
                change = e.result.diff.fmt(pct=kind == "rate", digits=2 if kind == "rate" else 3)
                if e.identical:
                    change += " (no game changed)"
                lines.append(f"| {key} | {short(e.alternative)} | {change} | {e.result.p_value:.3g} |")
        lines.append("")
    return lines


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
