"""`dsim sweep`: a grid over rule parameters, every point on the same seeds, with interval bands."""

from __future__ import annotations

import dataclasses
import itertools
import tomllib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.core import store  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.game import Game  # noqa: E402
from sim.core.html import write_report
from sim.core.report import ChartSaver  # noqa: E402
from sim.core.runner import RunSpec, run  # noqa: E402
from sim.core.summary import fmt, summarize  # noqa: E402


def parse_param(text: str) -> tuple[str, list]:
    """`key=a:b` (inclusive, step 1), `key=a:b:step`, or a list `key=v1|v2|v3` (TOML values).

    `key` is a rule name, or `players`.
    """
    if "=" not in text:
        raise DsimError(f"--param expects key=values, got '{text}'")
    key, spec = (s.strip() for s in text.split("=", 1))
    if ":" in spec and not spec.startswith("["):
        parts = [_literal(p) for p in spec.split(":")]
        if len(parts) not in (2, 3) or not all(isinstance(p, (int, float)) for p in parts):
            raise DsimError(f"--param range must be a:b or a:b:step with numbers, got '{spec}'")
        start, stop = parts[0], parts[1]
        step = parts[2] if len(parts) == 3 else 1
        if step <= 0 or stop < start:
            raise DsimError(f"--param range '{spec}' is empty")
        values = list(np.arange(start, stop + step / 2, step))
        values = [int(v) if all(isinstance(p, int) for p in parts) else float(v) for v in values]
    else:
        values = [_literal(v) for v in spec.split("|")]
    return key, values


def _literal(text: str):
    try:
        return tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def grid(params: list[str]) -> tuple[list[str], list[tuple]]:
    parsed = [parse_param(p) for p in params]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise DsimError("each --param may appear once")
    return keys, list(itertools.product(*[v for _, v in parsed]))


def sweep(game: Game, base: RunSpec, params: list[str], out: Path, to: Path, jobs: int = 1,
          rules_file=None, variants=(), base_sets=()) -> Path:
    if not params:
        raise DsimError("sweep needs at least one --param")
    keys, points = grid(params)
    specs = []
    for point in points:      # validate every point before playing any
        values = dict(zip(keys, point))
        players = values.pop("players", base.players)      # the player count is swept like a rule
        rules = game.load_rules(rules_file, variants, [*base_sets, *values.items()])
        if not isinstance(players, int):
            raise DsimError(f"players must be whole numbers, got {players!r}")
        game.check_players(rules, players)
        specs.append(dataclasses.replace(base, rules=rules, players=players, extra={"sweep": dict(zip(keys, point))}))
    rows = []
    for point, spec in zip(points, specs):
        run(spec, out, jobs=jobs, progress=False)
        part = spec.partition()
        lf = store.scan(out, part["game"]).filter(*[pl.col(k) == v for k, v in part.items()])
        for r in summarize(game, lf, []):
            rows.append({**dict(zip(keys, point)), **r})
    to.mkdir(parents=True, exist_ok=True)
    table = pl.DataFrame([{**{k: str(r[k]) for k in keys}, "outcome": r["outcome"], "value": r["estimate"].value,
                           "lo": r["estimate"].lo, "hi": r["estimate"].hi, "n": r["estimate"].n} for r in rows])
    table.write_parquet(to / f"sweep_{game.name}.parquet")
    chart = ChartSaver(to, f"sweep_{game.name}")
    lines = [f"# {game.title}: sweep over {', '.join(keys)}", "", "## Findings", "",
             *[f"- {f}" for f in sweep_findings(game, keys, rows)], "",
             f"{base.n:,} games per point" + ("" if "players" in keys else f", {base.players} players")
             + f", seed {base.seed} (every point plays the same "
             "seeds); 95% intervals.", ""]
    for o in game.outcomes():
        sel = [r for r in rows if r["outcome"] == o.name]
        lines += [f"## {o.label or o.name}", "", "| " + " | ".join(keys) + " | estimate [95% CI] |",
                  "|" + "---|" * (len(keys) + 1)]
        lines += ["| " + " | ".join(str(r[k]) for k in keys) + f" | {fmt(r['estimate'], r['kind'])} |" for r in sel]
        lines += ["", band_chart(game, keys, sel, o, chart), ""]
    path = write_report(to, f"sweep_{game.name}", "\n".join(lines), game.title)
    return path


def sweep_findings(game: Game, keys: list[str], rows: list[dict]) -> list[str]:
    """For each headline outcome: its lowest and highest point of the grid, and whether they differ."""
    out = []
    for o in game.outcomes():
        if not o.headline:
            continue
        sel = [r for r in rows if r["outcome"] == o.name]
        if not sel:
            continue
        low = min(sel, key=lambda r: r["estimate"].value)
        high = max(sel, key=lambda r: r["estimate"].value)
        def at(r):
            return ", ".join(f"{k}={r[k]}" for k in keys)
        apart = high["estimate"].lo > low["estimate"].hi
        out.append(f"{o.label or o.name}: from {fmt(low['estimate'], low['kind'])} at {at(low)} to "
                   f"{fmt(high['estimate'], high['kind'])} at {at(high)}"
                   + ("." if apart else "; the grid's points cannot be told apart."))
    return out


def band_chart(game, keys, rows, outcome, chart) -> str:
    """The outcome against the first parameter, one line (with its interval band) per other setting."""
    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    others = sorted({tuple(str(r[k]) for k in keys[1:]) for r in rows})
    numeric = all(isinstance(r[keys[0]], (int, float)) for r in rows)
    for other in others:
        sel = [r for r in rows if tuple(str(r[k]) for k in keys[1:]) == other]
        xs = [r[keys[0]] if numeric else i for i, r in enumerate(sel)]
        scale = 100 if outcome.kind == "rate" else 1
        ys = np.array([r["estimate"].value for r in sel]) * scale
        lo = np.array([r["estimate"].lo for r in sel]) * scale
        hi = np.array([r["estimate"].hi for r in sel]) * scale
        label = ", ".join(f"{k}={v}" for k, v in zip(keys[1:], other)) or None
        ax.plot(xs, ys, marker="o", label=label)
        ax.fill_between(xs, lo, hi, alpha=0.25)
        if not numeric:
            ax.set_xticks(xs, [str(r[keys[0]]) for r in sel], rotation=20, fontsize=8)
    if numeric and all(isinstance(r[keys[0]], int) for r in rows):
        ax.set_xticks(sorted({r[keys[0]] for r in rows}))
    ax.set_xlabel(keys[0])
    ax.set_ylabel((outcome.label or outcome.name) + (" (%)" if outcome.kind == "rate" else ""))
    ax.set_title(f"{game.title}: {outcome.label or outcome.name}")
    if len(others) > 1:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return chart(outcome.name, fig)
