"""The equilibrium's best-response search, old against new, on Drako's published solution: for each side, the
old search (differential evolution from the strategies the solution plays, no refining run) and the new one
(every strategy family, then the refining run), each candidate's gain over the side's own mixture measured on
the same fresh games (paired). docs/EQUILIBRIUM.md quotes it.

    python -m sim.tooling.br_compare [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import re
import time

import numpy as np
import polars as pl

from sim.analysis import equilibrium as eq
from sim.analysis.payoffs import Budget, Candidate, Player
from sim.engine.spec import RunSpec
from sim.games import get_game

ROLES = ("dragon", "dwarves")
CHECK = Budget(0.005, 2_000, 20_000)


def published(game) -> dict:
    """Each side's candidates and weights, as the published solution's Parquet holds them."""
    sol = pl.read_parquet("reports/drako/equilibrium_drako_2p_solution.parquet")
    out = {}
    for side in ROLES:
        rows = sol.filter(pl.col("side") == side)
        out[side] = ([Candidate(game.strategies.get(re.split(r"\+|, ", r["strategy"])[0]),
                                np.array(list(json.loads(r["params"]).values()), dtype=float), None, r["origin"],
                                r["strategy"] if r["origin"] != "built-in" else "")
                      for r in rows.iter_rows(named=True)],
                     rows["weight"].to_numpy())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    game = get_game("drako")
    base = RunSpec(game, game.load_rules(), 2, game.lineup(None), 1, 24)
    options = published(game)
    for k, side in enumerate(ROLES):
        mine, mix = options[side]
        plan = eq.two_sided_plan(ROLES, k, *options[ROLES[1 - k]])
        played = [i for i, w in enumerate(mix) if w >= eq.SUPPORT]
        for name, search, pool, weights in (("old", eq.Search(refine=0), [mine[i] for i in played], mix[played]),
                                            ("new", eq.Search(), mine, mix)):
            player = Player(game, base.rules, 2, base.seed, (), args.jobs, dict(base.lineup))
            start = time.perf_counter()
            cand = eq.best_response(player, search, plan, pool, weights, 5, search.games)
            seconds, trained = time.perf_counter() - start, player.games_played
            seed = base.seed + 104_729
            gain = eq.paired_gain(player, plan, eq.play_plan(player, plan(cand), seed, CHECK),
                                  eq.support_of(mine, mix), seed, CHECK)
            print(f"{side} {name}: {cand.label()} gains {100 * gain.value:+.1f} points "
                  f"[{100 * gain.lo:+.1f}, {100 * gain.hi:+.1f}] on fresh games; {seconds:.0f} s, "
                  f"{trained:,} training games", flush=True)


if __name__ == "__main__":
    main()
