"""`make bench`: each game's search player at its default budget: decisions per second of one core, and what
that makes of a skill-ladder rung (10,000 games with one search seat on 2 cores; the target is at most
10 minutes).

One search seat against the defaults, for each role it plays, in this process; CPU time of this thread, best of
three runs.
"""

from __future__ import annotations

import time

LADDER_GAMES = 10_000
LADDER_CORES = 2


def measure(game, role: str, games: int = 40, repeats: int = 3) -> dict:
    rules = game.load_rules()
    lineup = game.lineup(f"{role}=search")
    players = game.default_players
    game.search_decisions(rules, players, lineup, 1, 2)          # load or compile
    best, decisions = float("inf"), 0
    for r in range(repeats):
        t0 = time.thread_time()
        decisions = game.search_decisions(rules, players, lineup, 100 + r, games)
        best = min(best, time.thread_time() - t0)
    budget = lineup[role].params[0]
    return {"game": game.name, "role": role, "budget": budget, "games": games, "decisions": decisions,
            "decisions_s": decisions / best, "games_s": games / best,
            "rung_minutes": LADDER_GAMES / (LADDER_CORES * games / best) / 60}


def search_section(names: list[str]) -> list[str]:
    from sim.games import get_game
    rows = []
    for name in names:
        game = get_game(name)
        if "search" not in game.strategies.items:
            continue
        active = game.active_roles(game.default_players)     # (a seat game's seats past its default players sit out)
        for role in [r for r in game.strategies.get("search").roles if r in active]:
            r = measure(game, role)
            print(f"{name} {role} searching: {r['decisions_s']:,.0f} decisions/s per core", flush=True)
            rows.append(f"| {name} | {role} | {r['budget']:.0f} | {r['decisions_s']:,.0f} | {r['games_s']:,.1f} | "
                        f"{r['rung_minutes']:.1f} | {'yes' if r['rung_minutes'] <= 10 else 'NO'} |")
    if not rows:
        return []
    return ["", "## Search players", "",
            "One side plays `search` at its default budget (playouts per decision) against the defaults; one core, "
            "CPU time, best of three runs of 40 games. The rung column is what a skill-ladder rung of "
            f"{LADDER_GAMES:,} games with that search seat takes on {LADDER_CORES} cores at this rate "
            "(target: 10 minutes).", "",
            "| game | searching side | budget | decisions/s per core | games/s per core | ladder rung (min) | "
            "within 10 min |", "|---|---|---|---|---|---|---|", *rows]
