"""`dsim equilibrium`'s report: the balance figure at equilibrium beside the default one, the mixtures each
side plays, how exploitable the defaults are, the payoff table as a heat map and the oracle's rounds; beside it
the table and the solution as Parquet."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.calibration import verdict as claim_verdict  # noqa: E402
from sim.analysis.equilibrium import STARTS, STRONGER, Study  # noqa: E402
from sim.analysis.gametheory._util import Interval  # noqa: E402
from sim.report import numbers  # noqa: E402
from sim.report.charts import ChartSaver, heat_colours, label_cells  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import rules_text  # noqa: E402

SHOWN = 0.005        # weights below this are "not played"


def pct(e: Interval, digits: int = 1) -> str:
    return f"{100 * e.value:.{digits}f}% [{100 * e.lo:.{digits}f}, {100 * e.hi:.{digits}f}]"


def points(e: Interval) -> str:
    return f"{100 * e.value:.1f} points [{100 * e.lo:.1f}, {100 * e.hi:.1f}]"


def figure_name(s: Study) -> str:
    if s.kind == "symmetric":
        return "seat 0's share of the wins"
    side = s.sides[0].replace("seat", "seat ") if s.sides[0][4:].isdigit() else s.sides[0]
    return f"{side}'s score (a win 1, a draw ½)"


def write(s: Study, to: Path) -> Path:
    """`equilibrium_<game>.md` and its HTML twin, the heat map, and the table and solution as Parquet."""
    to.mkdir(parents=True, exist_ok=True)
    stem = f"equilibrium_{s.game.name}_{s.base.players}p"
    table_frame(s).write_parquet(to / f"{stem}_table.parquet")
    solution_frame(s).write_parquet(to / f"{stem}_solution.parquet")
    (to / f"{stem}.json").write_text(json.dumps(summary(s)))
    chart = ChartSaver(to, stem)
    lines = [f"# {s.game.title}: balance at equilibrium ({s.base.players} players)", "", "## Findings", "",
             *[f"- {f}" for f in findings(s)], "", "## What these findings rest on", "",
             *[f"- {r}" for r in rests_on(s)], ""]
    for side, options in s.options.items():
        lines += [f"## What {side} plays at equilibrium", "", "| strategy | weight [95%] | where it comes from |",
                  "|---|---|---|"]
        w, wi = s.weights[side], s.weight_intervals[side]
        for i in np.argsort(-w):
            lines.append(f"| {options[i].label()} | {100 * w[i]:.1f}% [{100 * wi.lo[i]:.1f}, {100 * wi.hi[i]:.1f}] "
                         f"| {options[i].origin} |")
        lines.append("")
    lines += [*seat_lines(s), "## Payoff table", "", heat_map(s, chart), "", *oracle_lines(s), *tuned_lines(s)]
    return write_report(to, stem, "\n".join(lines), s.game.title)


def summary(s: Study) -> dict:
    """What other reports quote: the figure at equilibrium beside the default one (the balance report's caveats,
    reports/README.md)."""
    br = s.bracket()
    return {"figure": figure_name(s), "players": s.base.players, "equilibrium": [s.value.value, s.value.lo, s.value.hi],
            "bracket": [br.lo, br.hi], "fresh_converged": s.fresh_converged(),
            "default": [s.default.value, s.default.lo, s.default.hi], "converged": s.converged,
            "seat_regret": {r: [g.value, g.lo, g.hi] for r, (_, g) in s.seats.items()},
            "fresh_gain": {side: [g.value, g.lo, g.hi] for side, g in s.fresh.items()},
            "search_gain": {side: [g.value, g.lo, g.hi] for side, g in s.search_fresh.items()},
            "solution": {side: {c.label(): float(s.weights[side][i]) for i, c in enumerate(options)
                                if s.weights[side][i] > 0.005} for side, options in s.options.items()},
            "finding": f"{figure_name(s)} at equilibrium is {headline(s)}; {pct(s.default)} with the default "
                       f"strategies ({defaults_text(s)})",
            "seconds": s.seconds}


def headline(s: Study) -> str:
    """The figure at equilibrium as a designer should read it: the bracket, which counts what fresh best
    responses still gain, and the table's value inside it; "not converged" when a fresh check fails."""
    br, v = s.bracket(), s.value
    if not s.fresh and not s.search_fresh:
        return f"{pct(v)} (table value; no fresh best-response check)"
    if br.lo == v.lo and br.hi == v.hi:
        return f"{pct(v)} (fresh best responses gain nothing beyond it)"
    state = "not converged: " if not s.fresh_converged() else ""
    return (f"between {100 * br.lo:.1f}% and {100 * br.hi:.1f}% ({state}the table's value, {100 * v.value:.1f}% "
            f"[{100 * v.lo:.1f}, {100 * v.hi:.1f}], widened by what fresh best responses still gain)")


def figures(s: Study) -> dict:
    """--format json: the figure at equilibrium beside the default one (%), each strategy's weight (%), the
    defaults' exploitability and a fresh best response's gain (points)."""
    return {"figure": figure_name(s), "players": s.base.players, "equilibrium": numbers.estimate(s.value, True),
            "bracket": numbers.estimate(s.bracket(), True), "fresh_converged": s.fresh_converged(),
            "default": numbers.estimate(s.default, True), "converged": s.converged, "games": s.games,
            "solution": [{"side": side, "strategy": c.label(), "origin": c.origin,
                          "weight": {"value": numbers.num(100 * s.weights[side][i]),
                                     "low": numbers.num(100 * s.weight_intervals[side].lo[i]),
                                     "high": numbers.num(100 * s.weight_intervals[side].hi[i]), "unit": "%"}}
                         for side, options in s.options.items() for i, c in enumerate(options)],
            "exploitability": {side: numbers.change(e, True) for side, e in s.exploit.items()},
            "fresh_gain": {side: numbers.change(g, True) for side, g in s.fresh.items()},
            "search_gain": {side: numbers.change(g, True) for side, g in s.search_fresh.items()},
            "seats": {r: {"share": numbers.estimate(share, True), "regret": numbers.change(regret, True)}
                      for r, (share, regret) in s.seats.items()},
            "equilibria_found": len(s.equilibria) if s.kind == "symmetric" else 1}


def players_words(s: Study) -> str:
    """Who plays well in a study's sentences: every seat of a symmetric game, or both sides."""
    return "every seat plays its" if s.kind == "symmetric" else "both sides play their"


def findings(s: Study) -> list[str]:
    name = figure_name(s)
    who = players_words(s)
    out = [f"When {who} best among the strategies measured, {name} is **{headline(s)}**; "
           f"with the default strategies ({defaults_text(s)}) it is {pct(s.default)}."]
    br = s.bracket()
    if br.lo > s.default.hi or br.hi < s.default.lo:
        out.append(f"Better play changes the answer: the equilibrium figure and the default one exclude each other, "
                   f"so a headline measured with the defaults describes the default players, not the game.")
    else:
        out.append("The default figure is not told apart from the equilibrium: the default interval overlaps the "
                   "equilibrium's bracket.")
    if s.kind == "symmetric":
        n = len(s.sides)
        fair = "above" if br.lo > 1 / n else "below" if br.hi < 1 / n else "indistinguishable from"
        out.append(f"Seat 0's share at equilibrium is {fair} an even 1/{n} ({100 / n:.1f}%).")
        out += seat_findings(s)
    for side in s.options:
        out.append(f"Equilibrium mixture for {side}: {mixture_text(s, side)}.")
        decks = deck_text(s, side)
        if decks:
            out.append(decks)
    for side, e in s.exploit.items():
        if s.kind == "symmetric":
            out.append(f"The default strategy is exploitable by {points(e)}: one seat that switches to the best "
                       "measured strategy, while the others keep the default, gains that much.")
        else:
            out.append(f"The default {side} strategy is exploitable by {points(e)}: the other side's best response "
                       "holds it that far below the equilibrium figure.")
    out.append(convergence_text(s))
    for side, g in s.fresh.items():
        if g.lo == g.hi == 0:
            out.append(f"Checked on fresh seeds: a new best-response search for {side} found no new strategy (only "
                       "the one the equilibrium already plays).")
            continue
        out.append(f"Checked on fresh seeds: a new best-response search for {side} gains {points(g)} over the "
                   f"equilibrium's own mixture, both played on the same fresh games{fresh_verdict(g, s.search.tol)}")
    for side in s.options:
        if side not in s.fresh and s.kind == "two-sided" and plays_search_only(s, other_side(s, side)):
            out.append(f"No weight search was checked for {side}: the other side's solution is the search player "
                       "alone, too slow to train hundreds of weight settings against; the search player's check "
                       "below stands for it.")
    for side, g in getattr(s, "search_fresh", {}).items():
        if plays_search_only(s, side):
            out.append(f"The solution for {side} is the search player itself; checked with the search player at "
                       f"{STRONGER} times its playouts per decision, it gains {points(g)} over it on the same "
                       f"{s.search.check_games:,} fresh games{fresh_verdict(g, s.search.tol)}")
            continue
        out.append(f"Checked with the search player for {side}, playing out against the strategies the solution "
                   f"plays (informed): it gains {points(g)} over the equilibrium's own mixture on the same "
                   f"{s.search.check_games:,} fresh games{fresh_verdict(g, s.search.tol)}")
    return out


def other_side(s: Study, side: str) -> str:
    return next(r for r in s.sides if r != side)


def plays_search_only(s: Study, side: str) -> bool:
    """The side's solution puts (almost) all its weight on the search player."""
    return sum(w for c, w in zip(s.options[side], s.weights[side]) if c.searches()) >= 1 - SHOWN


def seat_name(role: str) -> str:
    return role.replace("seat", "seat ") if role[4:].isdigit() else role


def seat_findings(s: Study) -> list[str]:
    """Symmetric: whether one seat alone gains by deviating from the mixture every seat plays, and whether the
    solver found more than one equilibrium."""
    out = []
    if s.seats:
        gaining = [r for r, (_, g) in s.seats.items() if g.lo > s.search.tol]
        worst = max(s.seats, key=lambda r: s.seats[r][1].value)
        if gaining:
            out.append(f"One seat alone gains by deviating: {', '.join(map(seat_name, gaining))} would do better "
                       "with another measured strategy while the others keep the mixture (the interval of its "
                       f"regret lies above {100 * s.search.tol:.1f} points), so the mixture is not an equilibrium "
                       "once seats are told apart (table under \"Each seat\").")
        else:
            out.append(f"No seat alone gains beyond doubt by deviating: the largest regret is "
                       f"{seat_name(worst)}'s, {points(s.seats[worst][1])} (every seat in the table under \"Each "
                       "seat\").")
    if len(s.equilibria) > 1:
        options = s.options["every seat"]
        mixes = ["; ".join(f"{options[i].label()} {100 * x[i]:.0f}%" for i in np.argsort(-x) if x[i] >= SHOWN)
                 for x in s.equilibria]
        out.append(f"The solver found {len(mixes)} different equilibria of the measured table ("
                   + " | ".join(mixes) + "): the figures above are the first one's (the lowest regret).")
    return out


def seat_lines(s: Study) -> list[str]:
    if not s.seats:
        return []
    lines = ["## Each seat", "", "Each seat's share when every seat plays the equilibrium mixture, and its regret: "
             "what that seat alone gains by switching to its best measured strategy while the others keep the "
             "mixture (measured from its own games in every seating of every line-up).", "",
             "| seat | share [95%] | regret [95%] |", "|---|---|---|"]
    for r, (share, regret) in s.seats.items():
        lines.append(f"| {seat_name(r)} | {pct(share)} | {points(regret)} |")
    return lines + [""]


def fresh_verdict(g, tol: float) -> str:
    """What a fresh best response's gain says against the tolerance, read off its whole interval (the claim
    "at most `tol`", judged as every claim is)."""
    said = claim_verdict(g, None, tol)
    if said == "holds":
        return " (within the tolerance)."
    if said == "fails":
        return " — more than the tolerance: the equilibrium is not yet reached."
    return (f" — the interval reaches both sides of the tolerance ({100 * tol:.1f} points): whether the "
            "equilibrium is reached is unsettled.")


def defaults_text(s: Study) -> str:
    if s.kind == "symmetric":
        return f"{s.base.lineup[s.sides[0]].label()} in every seat"
    return ", ".join(f"{r}={s.base.lineup[r].label()}" for r in s.sides)


def mixture_text(s: Study, side: str) -> str:
    w, wi, options = s.weights[side], s.weight_intervals[side], s.options[side]
    parts = [f"{options[i].label()} {100 * w[i]:.0f}% [{100 * wi.lo[i]:.0f}, {100 * wi.hi[i]:.0f}]"
             for i in np.argsort(-w) if w[i] >= SHOWN]
    never = [i for i in range(len(w)) if w[i] < SHOWN]
    if not never:
        return "; ".join(parts)
    # "never" is the point solution's word; a weight whose interval reaches up is not ruled out by the games played
    open_ = [f"{options[i].label()} [0, {100 * wi.hi[i]:.0f}]" for i in never if wi.hi[i] >= SHOWN]
    return ("; ".join(parts) + f" — and never the other {len(never)}"
            + (f", though the interval of {len(open_)} of them reaches up ({', '.join(open_)})" if open_ else ""))


def deck_text(s: Study, side: str) -> str:
    """With decks as part of the choice: each deck's total weight, and the decks an equilibrium never plays —
    ruled out only where every strategy with that deck has a weight interval that stays at 0."""
    options, w, hi = s.options[side], s.weights[side], s.weight_intervals[side].hi
    decks = list(dict.fromkeys(c.deck for c in options if c.deck is not None))
    if not decks:
        return ""
    total = {d: float(sum(x for c, x in zip(options, w) if c.deck == d)) for d in decks}
    reach = {d: max(float(h) for c, h in zip(options, hi) if c.deck == d) for d in decks}
    played = [f"{d} {100 * total[d]:.0f}%" for d in sorted(decks, key=lambda d: -total[d]) if total[d] >= SHOWN]
    untuned = set(s.untuned_decks(side))
    out = [d for d in decks if total[d] < SHOWN and reach[d] < SHOWN and d not in untuned]
    never_tuned = [d for d in decks if total[d] < SHOWN and reach[d] < SHOWN and d in untuned]
    open_ = [d for d in decks if total[d] < SHOWN and reach[d] >= SHOWN]
    text = f"Decks {side} brings at equilibrium: {', '.join(played)}"
    if out:
        text += f"; never {', '.join(out)} — against best play they are not worth choosing"
    if never_tuned:
        text += (f"; not {', '.join(never_tuned)}, untested at tuned weights: no best-response search tuned a "
                 f"strategy with {'it' if len(never_tuned) == 1 else 'them'}, so the study cannot say "
                 f"{'it is' if len(never_tuned) == 1 else 'they are'} not worth choosing")
    if open_:
        text += ("; " + ", ".join(f"{d} not in this solution, though a weight's interval with it reaches "
                                  f"{100 * reach[d]:.0f}%" for d in open_)
                 + " — the games played do not rule " + ("it" if len(open_) == 1 else "them") + " out")
    return text + "."


def convergence_text(s: Study) -> str:
    rounds = len(s.rounds)
    if s.converged and not getattr(s, "fresh_converged", lambda: True)():
        return (f"The double oracle stopped after {rounds} round(s): no best response it found gained more than "
                f"{100 * s.search.tol:.1f} points on the table's seeds, but a fresh check below gains more: the "
                "oracle missed it, and the solution is not an equilibrium of the game.")
    if s.converged and s.rounds and not s.rounds[-1].found and not s.rounds[-1].searched:
        return (f"The double oracle stopped after {rounds} round(s): its last round had nothing left to try (no weight "
                "search trains against a solution that is the search player alone, and the search player was "
                "already in); the checks below say how far the solution is from an equilibrium.")
    if s.converged:
        return (f"The double oracle converged after {rounds} round(s): no best response found by the search gained "
                f"more than {100 * s.search.tol:.1f} points against the solution, measured on the table's seeds.")
    if not s.rounds:
        return ("No best-response rounds were run (--rounds 0): the figure solves the table of the strategies "
                "listed, and a strategy outside it may do better.")
    last = max(s.rounds[-1].gain.values(), default=0.0)
    return (f"The double oracle did not converge in {rounds} round(s): the last best response still gained "
            f"{100 * last:.1f} points, so the equilibrium figure may move with more rounds (--rounds).")


def rests_on(s: Study) -> list[str]:
    b, q = s.budget, s.search
    k = {side: len(o) for side, o in s.options.items()}
    added = any(r.added for r in s.rounds)
    return [
        f"Strategies: {', '.join(f'{n} for {side}' for side, n in k.items())} — every built-in strategy at its "
        f"default weights{', plus the best responses the search added' if added else ''}{search_words(s)}. "
        "Nothing here speaks for strategies outside this family.",
        f"Rules: {rules_text(s.base.rules.ruleset.provenance())}; {s.base.players} players; seed {s.base.seed}.",
        f"Each cell played on common random numbers until its 95% interval was within ±{100 * b.precision:.1f} "
        f"points (at most {b.cap:,} games, chunks of {b.chunk:,}); {s.games:,} games in all, {s.seconds:.0f}s. "
        + ("The final table was played again on fresh seeds before solving, so that no best response keeps the "
           "luck that got it admitted." if added else
           "No best response was admitted, so the table is solved as played (nothing was chosen on its seeds)."),
        (f"Best responses: differential evolution over a strategy's weights, from every strategy family the side "
         f"has ({q.iters} generations each), then {q.refine} more from the best family's answer (population "
         f"{q.popsize} per weight, {q.games:,} training games per opposing line-up, on seeds the table never uses, "
         "against the other side's strategies but the search player); kept only if it gains more than "
         f"{100 * q.tol:.1f} points on the table's seeds." if s.rounds or s.fresh else
         "Best responses: none searched (no rounds, and no weight search could train against the solution)."),
        "Intervals: paired bootstrap over the games behind every cell, re-solving each resample (95%). "
        + solver_text(s),
    ]


def search_words(s: Study) -> str:
    """Whether the search player was in the population, how it got there, and why not when it was not."""
    if "search" not in s.game.strategies.items:
        return ""
    joined = {side: i + 1 for i, r in enumerate(s.rounds) for side in s.sides if f"{side}: the search player" in r.added}
    slow = min(s.budget.chunk, s.search.check_games or s.budget.chunk)
    if any(c.searches() and not c.origin.startswith("the search player") for o in s.options.values() for c in o):
        return f", and the search player from the start (`--with-search`; its cells play {slow:,} games)"
    if joined:
        return ("; the search player, playing out against the strategies it meets, joined "
                + ", ".join(f"{side} in round {r}" for side, r in joined.items())
                + f" when it gained more than the tolerance on fresh games (its cells play {slow:,} games)")
    if s.kind == "symmetric":
        return ("; not the search player: with three or more seats each of its line-ups would be played in every "
                "seating at its speed, so it is checked against the final solution only (`--with-search` adds it)")
    if not s.search.check_games:
        return "; not the search player (its checks were turned off)"
    if not s.search.search_joins:
        return ("; not the search player: it was kept out of the table (its cells would cost too much here) and "
                "checked against the final solution only")
    return "; the search player was checked each round and never gained enough to join"


def solver_text(s: Study) -> str:
    if s.kind == "two-sided":
        return "Solver: maximin by linear programming."
    return (f"Solver: the symmetric equilibrium of lowest regret among replicator dynamics and regret matching+ from "
            f"the uniform mixture and replicator dynamics from {STARTS} random mixtures, each polished (this one: "
            f"{s.solver or 'not recorded'}); each resample re-solved by regret matching+. Every line-up was played "
            "in each of its distinct seatings.")


def oracle_lines(s: Study) -> list[str]:
    if not s.rounds:
        return []
    lines = ["## Double oracle", "", "| round | strategies | value | best response found | its gain | "
             "search player's gain (fresh games) | kept |", "|---|---|---|---|---|---|---|"]
    for i, r in enumerate(s.rounds, start=1):
        found = "; ".join(f"{side}: {label}" for side, label in r.found.items()) or "—"
        gains = "; ".join(f"{side}: {100 * g:+.1f} points" for side, g in r.gain.items()) or "—"
        searched = "; ".join(f"{side}: {points(g)}" for side, g in getattr(r, "searched", {}).items()) or "—"
        lines.append(f"| {i} | {' × '.join(map(str, r.size))} | {100 * r.value:.1f}% | {found} | {gains} | "
                     f"{searched} | {', '.join(r.added) or 'none'} |")
    return lines + [""]


def tuned_lines(s: Study) -> list[str]:
    """The weights of every best response kept in the table."""
    tuned = [(side, c) for side, options in s.options.items() for c in options if c.origin.startswith("best")]
    if not tuned:
        return []
    lines = ["## Weights of the best responses", ""]
    for side, c in tuned:
        pairs = ", ".join(f"{n}={v:.3g}" for n, v in zip(c.strategy.param_names, c.params))
        lines.append(f"- {side} **{c.label()}**: {pairs}")
    return lines + [""]


def table_frame(s: Study) -> pl.DataFrame:
    """Two-sided: one row per cell; symmetric: one row per (line-up, strategy in it)."""
    if s.kind == "two-sided":
        rows, cols = (s.options[x] for x in s.sides)
        return pl.DataFrame([{"row": rows[i].label(), "col": cols[j].label(), "row_score": float(s.means[i, j]),
                              "games": int(s.counts_games[i, j])}
                             for i in range(len(rows)) for j in range(len(cols))])
    options = s.options["every seat"]
    return pl.DataFrame([{"lineup": " + ".join(options[o].label() for o in lu), "strategy": options[o].label(),
                          "share": float(s.means[li, o]), "games": int(s.counts_games[li])}
                         for li, lu in enumerate(s.lineups) for o in sorted(set(lu))])


def solution_frame(s: Study) -> pl.DataFrame:
    return pl.DataFrame([{"side": side, "strategy": c.label(), "weight": float(s.weights[side][i]),
                          "lo": float(s.weight_intervals[side].lo[i]), "hi": float(s.weight_intervals[side].hi[i]),
                          "origin": c.origin, "params": json.dumps(dict(zip(c.strategy.param_names,
                                                                            c.params.tolist())))}
                         for side, options in s.options.items() for i, c in enumerate(options)])


def matrix_view(s: Study) -> tuple[np.ndarray, list[str], list[str], str]:
    """What the heat map shows: two sides, the row side's score; symmetric, a seat's share when it plays the row
    strategy and every other seat the column one."""
    if s.kind == "two-sided":
        rows, cols = (s.options[x] for x in s.sides)
        return (s.means, [c.label() for c in rows], [c.label() for c in cols],
                f"{s.sides[0]}'s score (rows: {s.sides[0]}, columns: {s.sides[1]})")
    options = s.options["every seat"]
    k, n = len(options), len(s.sides)
    index = {lu: li for li, lu in enumerate(s.lineups)}
    M = np.full((k, k), np.nan)
    for i in range(k):
        for j in range(k):
            M[i, j] = s.means[index[tuple(sorted([i] + [j] * (n - 1)))], i]
    labels = [c.label() for c in options]
    return M, labels, labels, f"a seat's share playing the row strategy, every other seat the column one"


def heat_map(s: Study, chart) -> str:
    M, rows, cols, what = matrix_view(s)
    values = 100 * np.asarray(M, dtype=float)
    fig, ax = plt.subplots(figsize=(2.5 + 0.75 * len(cols), 1.5 + 0.45 * len(rows)))
    image = ax.imshow(values, vmin=0, vmax=100, cmap=heat_colours(), aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    if M.size <= 400:
        label_cells(ax, image, values, "{:.0f}", fontsize=7)
    fig.colorbar(image, ax=ax, label="score (%)")
    ax.set_title(f"{s.game.title}: {what}, %", fontsize=9)
    return chart("payoffs", fig)
