"""Play named line-ups of one game on the same seeds and compare pairs of them, game by game.

    python -m sim.tooling.lineups_paired --game drako --n 2000 --seed 777 --outcome dragon_win \
        --lineup "tuned=dragon=kiter:...,dwarves=coordinated:..." --lineup "informed=dragon=kiter:...,dwarves=search:informed=1" \
        --compare tuned:informed --out reports/drako/search/informed

Every line-up plays the same n deals (game i of each is dealt alike), so each comparison is a paired difference
(sim.analysis.intervals_paired.paired_change, per-comparison 95%). Writes OUT.json (the figures) and OUT.md (a
table generated from them). A developer's tool for checks that set one strategy against another, such as whether a
search player that knows its opponent holds it where the tuned heuristic does (docs/SEARCH.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import polars as pl

from sim.analysis.intervals_paired import paired_change, verdict
from sim.games import get_game


def outcome_values(game, games: dict, name: str) -> np.ndarray:
    """One outcome's per-game values (NaN where it does not apply)."""
    outcome = next(o for o in game.outcomes() if o.name == name)
    frame = pl.DataFrame({k: np.asarray(v) for k, v in games.items()})
    return frame.select(outcome.expr.cast(pl.Float64).alias("x"))["x"].to_numpy()


def interval(iv) -> dict:
    return {"value": float(iv.value), "lo": float(iv.lo), "hi": float(iv.hi)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--outcome", required=True)
    ap.add_argument("--lineup", action="append", required=True, help="NAME=SPEC (SPEC as --strategy takes it)")
    ap.add_argument("--compare", action="append", required=True, help="BASE:ARM, two line-up names")
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    game = get_game(args.game)
    rules = game.load_rules()
    specs = dict(item.split("=", 1) for item in args.lineup)
    values, seconds = {}, {}
    for name, spec in specs.items():
        start = time.perf_counter()
        games = game.simulate(rules, game.default_players, game.lineup(spec), args.seed, args.n)["games"]
        seconds[name] = round(time.perf_counter() - start, 1)
        values[name] = outcome_values(game, games, args.outcome)
    result = {"game": args.game, "title": args.title, "outcome": args.outcome, "n": args.n, "seed": args.seed,
              "lineups": specs, "seconds": seconds,
              "rates": {k: interval(paired_change(v, v).a) for k, v in values.items()}, "comparisons": []}
    for pair in args.compare:
        base, arm = pair.split(":")
        change = paired_change(values[base], values[arm])
        result["comparisons"].append({"base": base, "arm": arm, "change": interval(change.diff),
                                      "verdict": verdict(change.diff), "games_differing": change.changed})
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    out.with_suffix(".md").write_text(markdown(result))
    return result


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(r: dict) -> str:
    """The JSON's figures as a page: each line-up's rate, then each comparison (generated, never edited)."""
    lines = [f"# {r['game']}: {r['title'] or r['outcome']}", "",
             f"{r['n']:,} games per line-up, seed {r['seed']}, every line-up on the same deals; outcome "
             f"`{r['outcome']}`; 95% intervals, each comparison paired game by game (per comparison).", "",
             "| line-up | strategies | rate [95%] | seconds |", "|---|---|---|---|"]
    for name, spec in r["lineups"].items():
        x = r["rates"][name]
        lines.append(f"| {name} | `{spec}` | {pct(x['value'])} [{pct(x['lo'])}, {pct(x['hi'])}] | "
                     f"{r['seconds'][name]} |")
    lines += ["", "| comparison | change [95%] | verdict | games that differ |", "|---|---|---|---|"]
    for c in r["comparisons"]:
        d = c["change"]
        lines.append(f"| {c['arm']} against {c['base']} | {100 * d['value']:+.1f} points "
                     f"[{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}] | {c['verdict']} | {c['games_differing']:,} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
