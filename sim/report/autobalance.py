"""`dsim balance`'s report: how close the tuned content got to the target (each figure before and after, on
fresh seeds, with intervals and the paired change), what changed, and the search's steps; beside it the data
(Parquet) and the figures (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from sim.analysis.autobalance import Balanced, Checked, Row, inside, verdict
from sim.report import layout, numbers
from sim.report.html import write_report
from sim.report.labels import spec_words


def write(b: Balanced, to: Path) -> Path:
    """`balance_<game>.md` and its HTML twin, `.parquet` (every figure) and `.json` (the figures as numbers)."""
    to.mkdir(parents=True, exist_ok=True)
    stem = f"balance_{b.game.name}"
    b.table().write_parquet(to / f"{stem}.parquet")
    (to / f"{stem}.json").write_text(json.dumps(numbers.plain(figures(b)), indent=1))
    return write_report(to, stem, "\n".join(report_lines(b)), b.game.title)


def _pct(row: Row) -> bool:
    return row.target.measure != "quantile"


def _est(row: Row, which: str) -> str:
    return getattr(row, which).fmt(pct=_pct(row), digits=1)


def _bound(target, x) -> float | None:
    """A band's end in the unit of its estimate (% for a rate: the target's own scale; rounded so 0.55 reads 55.0)."""
    return None if x is None else numbers.num(round(x * target.scale(), 10))


def _change(row: Row) -> str:
    return "" if row.change is None else row.change.fmt(pct=_pct(row), digits=1, signed=True)


def figures(b: Balanced) -> dict:
    """--format json: each figure before and after with intervals, its band, whether it is inside, the changes."""
    rows = []
    for r in b.rows:
        pct = _pct(r)
        rows.append({"target": r.target.name, "of": r.label, "low": _bound(r.target, r.target.low),
                     "high": _bound(r.target, r.target.high), "before": numbers.estimate(r.before, pct),
                     "after": numbers.estimate(r.after, pct),
                     "change": None if r.change is None else numbers.change(r.change, pct),
                     "inside_before": r.inside("before"), "inside_after": r.inside()})
    return {"pool": shown(b.written), "loss_before": b.loss_before, "loss_after": b.loss_after,
            "inside_before": sum(r.inside("before") for r in b.rows), "inside_after": sum(r.inside() for r in b.rows),
            "figures": len(b.rows), "changes": [{"item": i, "field": f, "from": b.start[(i, f)], "to": v}
                                                for (i, f), v in sorted(b.changes.items())],
            "steps": len(b.steps), "stopped": b.stopped, "games_played": b.games_played, "rows": rows}


def terminal_table(b: Balanced) -> list[list[str]]:
    """One row per target for the terminal: its band and how many of its figures are inside, before and after."""
    rows = [["target", "band", "inside before", "inside after"]]
    for t in b.goal.targets:
        mine = [r for r in b.rows if r.target is t]
        rows.append([t.name, t.band(), f"{sum(r.inside('before') for r in mine)} of {len(mine)}",
                     f"{sum(r.inside() for r in mine)} of {len(mine)}"])
    return rows


def _count(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def shown(path: Path) -> str:
    """A path as a reader of the report finds it: from the working folder when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def findings(b: Balanced) -> list[str]:
    inside_b, inside_a = sum(r.inside("before") for r in b.rows), sum(r.inside() for r in b.rows)
    out = [f"- **{inside_a} of {len(b.rows)} figures inside their band** (the whole 95% interval) after tuning "
           f"({inside_b} before); the loss "
           f"(total distance outside the bands) went from {b.loss_before:.1f} to {b.loss_after:.1f} on fresh seeds.",
           f"- {_count(len(b.changes), 'number')} changed in {_count(len(b.steps), 'step')} (the search stopped: "
           f"{b.stopped}); "
           f"the new pool is `{b.written.stem}` ({shown(b.written)})."]
    for t in b.goal.targets:
        rows = [(r, r.after) for r in b.rows if r.target is t]
        out.append(target_line(t, rows, lambda r: f"; was {_est(r, 'before')}"))
    return out


def target_line(t, figures: list[tuple], was=lambda figure: "") -> str:
    """A target's finding: met by all its figures, or the one furthest from the band (its estimate, verdict and
    what `was` adds). `figures` holds (figure, its interval); a figure has `label`."""
    short = [(f, iv) for f, iv in figures if not inside(t, iv)]
    if not short:
        return f"- {t.name} ({t.band()}): met" + (f" by all {len(figures)}" if len(figures) > 1 else "") + "."
    f, iv = _furthest(t, short)
    of = f" ({len(short)} of {len(figures)} not inside; furthest: {f.label})" if len(figures) > 1 else ""
    return (f"- {t.name} ({t.band()}): not met{of}, {iv.fmt(pct=t.measure != 'quantile', digits=1)} "
            f"({verdict(t, iv)}{was(f)}).")


# Pairings share their seed (common random numbers): game i of two pairings is dealt alike.
DEAL = ("; every pairing plays game i from the same deal, so the intervals take the deal, not the game, as the "
        "independent unit")


def report_lines(b: Balanced) -> list[str]:
    cells = f"{b.cells} deck pairings (both seat orders)" if b.cells > 1 else "the rules' own pairing"
    lines = [f"# {b.game.title}: content tuned toward \"{b.goal.title}\"", "", "## Findings", "", *findings(b), "",
             f"Rests on: {spec_words(b.game, b.spec)}; target file `{b.goal.path.name}`; bounds "
             + ", ".join(f"{f} ±{s}" for f, s in b.goal.bounds.items()) + ".", "",
             "## Method", "",
             f"Every pool tried played {cells}, {b.n:,} games each on the same seeds (seed {b.spec.seed}: common "
             "random numbers). Each step played single changes (one number of one item, one unit, the way that "
             "helps the decks furthest from their band), combined the ones that lowered the loss (at most "
             f"{b.goal.cards_per_step} items) and kept the combination if it lowered the loss further. The first "
             f"and last pools were then replayed on fresh seeds (seed {b.spec.seed} + 7919), {b.verify_n:,} games "
             "per pairing, paired game by game: the intervals and changes below (95%; scores and rates in %, "
             f"changes in points{DEAL if b.cells > 1 else ''}). {b.games_played:,} games in all. See "
             "`sim/analysis/autobalance.py`.", "",
             "## Each figure before and after", ""]
    body = [[r.target.name + (f": {r.label}" if r.label else ""), r.target.band(), _est(r, "before"),
             _est(r, "after"), _change(r), r.verdict()] for r in b.rows]
    lines += layout.table(["figure", "band", "before", "after", "change", "after tuning"], body, 7) + [""]
    lines += ["## What changed", ""]
    if b.changes:
        lines += layout.table(["item", "field", "from", "to"],
                              [[i, f, str(b.start[(i, f)]), str(v)] for (i, f), v in sorted(b.changes.items())])
    else:
        lines.append("Nothing: no change tried lowered the loss.")
    lines += ["", "## The search, step by step (search seeds)", ""]
    lines += layout.table(["step", "changes", "loss before", "loss after", "tried"],
                          [[str(k), "; ".join(f"{i} {f} → {v}" for (i, f), v in s.changes.items()),
                            f"{s.loss_before:.1f}", f"{s.loss_after:.1f}", str(s.tried)]
                           for k, s in enumerate(b.steps, 1)])
    return lines


# ---- `dsim balance --check`: a pool against the target as it is --------------------------------------------------

def write_check(c: Checked, to: Path) -> Path:
    """`target_<game>.md` and its HTML twin, `.json` (the figures as numbers)."""
    to.mkdir(parents=True, exist_ok=True)
    stem = f"target_{c.game.name}"
    (to / f"{stem}.json").write_text(json.dumps(numbers.plain(check_figures(c)), indent=1))
    return write_report(to, stem, "\n".join(check_lines(c)), c.game.title)


def check_figures(c: Checked) -> dict:
    rows = [{"target": e.target.name, "of": e.label, "low": _bound(e.target, e.target.low),
             "high": _bound(e.target, e.target.high), "estimate": numbers.estimate(iv, e.target.measure != "quantile"),
             "inside": inside(e.target, iv), "verdict": verdict(e.target, iv)} for e, iv in c.figures()]
    return {"figures_inside": sum(r["inside"] for r in rows), "figures": len(rows), "loss": c.loss(),
            "games_played": c.games_played, "rows": rows}


def check_terminal(c: Checked) -> list[list[str]]:
    rows = [["target", "band", "inside", "furthest out"]]
    for t in c.goal.targets:
        mine = [(e, iv) for e, iv in c.figures() if e.target is t]
        short = [(e, iv) for e, iv in mine if not inside(t, iv)]
        e, iv = _furthest(t, short) if short else (None, None)
        worst = f"{e.label or 'all'} {iv.fmt(pct=t.measure != 'quantile', digits=1)}" if short else ""
        rows.append([t.name, t.band(), f"{sum(inside(t, iv) for _, iv in mine)} of {len(mine)}", worst])
    return rows


def _furthest(t, figures: list) -> tuple:
    """The figure furthest from its band: by its estimate, then by its interval's ends."""
    return max(figures, key=lambda m: (t.miss(m[1].value), t.miss(m[1].lo) + t.miss(m[1].hi)))


def check_findings(c: Checked) -> list[str]:
    figs = c.figures()
    out = [f"- **{sum(inside(e.target, iv) for e, iv in figs)} of {len(figs)} figures inside their band** (the "
           f"whole 95% interval), with {spec_words(c.game, c.spec)}."]
    for t in c.goal.targets:
        out.append(target_line(t, [(e, iv) for e, iv in figs if e.target is t]))
    return out


def check_lines(c: Checked) -> list[str]:
    cells = f"{c.cells} deck pairings (both seat orders)" if c.cells > 1 else "the rules' own pairing"
    lines = [f"# {c.game.title}: does the pool meet \"{c.goal.title}\"?", "", "## Findings", "",
             *check_findings(c), "",
             f"Rests on: {spec_words(c.game, c.spec)}; target file `{c.goal.path.name}`.", "", "## Method", "",
             f"The pool as it is played {cells}, {c.spec.n:,} games each (seed {c.spec.seed}; {c.games_played:,} "
             "games in all). A figure is inside its band when its whole 95% interval is; outside when the whole "
             "interval is out of it; unsettled otherwise (more games would decide). Scores and rates in %"
             f"{DEAL if c.cells > 1 else ''}.", "",
             "## Each figure", ""]
    body = [[e.target.name + (f": {e.label}" if e.label else ""), e.target.band(),
             iv.fmt(pct=e.target.measure != "quantile", digits=1), verdict(e.target, iv)] for e, iv in c.figures()]
    return lines + layout.table(["figure", "band", "estimate", "verdict"], body, 7)
