"""`dsim tournament`'s report: the test of whether one strength per entrant explains the head-to-head scores,
every pairing in words, the head-to-head matrix, the Bradley–Terry ratings and their charts; beside it one row
per pair (Parquet).

When Bradley–Terry does not fit (strengths are intransitive: A beats B, B beats C, C beats A), no ranking is
the result: the findings say so with the test, and the matrix comes first; the ratings stay below, labelled
as not fitting."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.analysis.stats import Z95  # noqa: E402
from sim.analysis.tournament import Standings, Tournament, plays_defaults, search_knowledge  # noqa: E402
from sim.report import layout, numbers  # noqa: E402
from sim.report.charts import ChartSaver, heat_colours, label_cells  # noqa: E402
from sim.report.html import write_report  # noqa: E402


def write(t: Tournament, to: Path) -> Path:
    """`tournament_<game>.md` and its HTML twin, the matrix and ratings charts, and `.parquet` (one row a pair)."""
    game, base, s = t.game, t.base, t.standings
    to.mkdir(parents=True, exist_ok=True)
    s.table().write_parquet(to / f"tournament_{game.name}.parquet")
    chart = ChartSaver(to, f"tournament_{game.name}")
    fits = s.fit.fits is not False
    lines = [f"# {game.title}: tournament", "", "## Findings", "",
             *[f"- {f}" for f in tournament_findings(s, t.specs, game.default_strategies(base.rules))], "",
             "## Head to head" + ("" if fits else " (the result: one strength per strategy does not fit)"), "",
             f"{base.n:,} deals per pair, {base.players} players, seed {base.seed}; each pair plays every "
             "seat/side rotation on the same deals. Cell = the row's score against the column: the share of the "
             "points it takes (a win 100%, a draw 50%; 50% = even), with its 95% interval; the deal is the unit "
             "(a deal's rotations are averaged first).",
             "", *matrix_table(s), "", matrix_chart(game, s.entrants, s.score, chart), "",
             *sides_section(s), *ratings_section(s), "", ratings_chart(game, s, chart), ""]
    return write_report(to, f"tournament_{game.name}", "\n".join(lines), game.title)


def figures(t: Tournament) -> dict:
    """--format json: every pairing's score (row against column, in %), the ratings and the test of fit."""
    s = t.standings
    k = len(s.entrants)
    deals = {(r["a"], r["b"]): r["deals"] for r in s.rows}
    scores = [{"strategy": s.entrants[i], "against": s.entrants[j], "value": numbers.num(100 * s.score[i, j]),
               "low": numbers.num(100 * s.lo[i, j]), "high": numbers.num(100 * s.hi[i, j]),
               "n": deals.get((s.entrants[i], s.entrants[j]), deals.get((s.entrants[j], s.entrants[i]))), "unit": "%"}
              for i in range(k) for j in range(k) if i != j]
    ratings = [{"strategy": s.entrants[i], "rating": numbers.num(s.strength[i]),
                "low": numbers.num(s.strength[i] - Z95 * s.se[i]), "high": numbers.num(s.strength[i] + Z95 * s.se[i]),
                "unit": "log-odds"} for i in np.argsort(-s.strength)]
    sides = [{"strategy": r["a"], "against": r["b"], "holds": r["a_holds"], "value": numbers.num(100 * r["score_a"]),
              "low": numbers.num(100 * r["lo"]), "high": numbers.num(100 * r["hi"]), "n": r["deals"], "unit": "%"}
             for r in s.sides]
    return {"entrants": s.entrants, "deals_per_pair": t.base.n, "scores": scores, "sides": sides,
            "ratings": ratings, "fit": fit_summary(s),
            "search_knew_its_opponent": {name: search_knowledge(spec) for name, spec in t.specs.items()
                                         if search_knowledge(spec)}}


def fit_text(s: Standings) -> str:
    f = s.fit
    p = "< 0.001" if f.p_fit < 0.001 else f"= {f.p_fit:.3g}"
    return f"X² = {f.x2:,.1f}, df = {f.df}, p {p}"


def fit_summary(s: Standings) -> dict:
    """The test of fit for --format json."""
    f = s.fit
    return {"model": "Bradley–Terry", "test": "Pearson X² of observed against fitted head-to-head scores, "
            "deals as the unit", "x2": f.x2, "df": f.df, "p": f.p_fit if f.df > 0 else None, "fits": f.fits}


def tournament_findings(s: Standings, specs: dict[str, str] | None = None,
                        defaults: dict[str, str] | None = None) -> list[str]:
    """Whether one strength per entrant fits, then the strongest entrant (only when it does), then every
    pairing, decided or not, strongest first, each with its score per side and whether a search knew its
    opponent."""
    names, strength, se = s.entrants, s.strength, s.se
    order = list(np.argsort(-strength))
    top = order[0]
    if s.fit.fits is False:
        out = [f"**Strengths are intransitive: Bradley–Terry does not fit**, {fit_text(s)}. No ranking describes "
               "these strategies; the head-to-head matrix is the result."]
    else:
        out = [f"**{names[top]}** is the strongest: Bradley–Terry rating {strength[top]:+.2f} "
               f"[{strength[top] - Z95 * se[top]:+.2f}, {strength[top] + Z95 * se[top]:+.2f}] on the log-odds "
               f"scale (ratings sum to 0; a gap of 1 is a score of {100 / (1 + np.exp(-1)):.0f}% against the other)."]
        if s.fit.fits:
            out.append(f"One strength per strategy explains the head-to-head scores: Bradley–Terry fits, "
                       f"{fit_text(s)}.")
    for a_pos, i in enumerate(order):
        for j in order[a_pos + 1:]:
            cell = f"{100 * s.score[i, j]:.1f}% [{100 * s.lo[i, j]:.1f}, {100 * s.hi[i, j]:.1f}]"
            if s.lo[i, j] > 0.5:
                said = f"{names[i]} beats {names[j]}: it scores {cell} against it"
            elif s.hi[i, j] < 0.5:
                said = f"{names[j]} beats {names[i]}: {names[i]} scores {cell} against it"
            else:
                said = f"{names[i]} and {names[j]} cannot be told apart: {cell}"
            out.append(said + per_side_text(s, names[i], names[j]) + "." + knowledge_text(specs or {}, names[i],
                                                                                           names[j], defaults))
    return out


def side_rows(s: Standings, a: str, b: str) -> list[tuple[str, float, float, float]]:
    """(what a holds, a's score, lo, hi) in each rotation against b, from whichever order the pair was played.
    Played as (b, a), the rotation in which b held one side is the one in which a held the other (the rotations
    are complementary: two of them)."""
    out = []
    played = [r for r in s.sides if {r["a"], r["b"]} == {a, b}]
    held = [r["a_holds"] for r in played]
    for r in played:
        if r["a"] == a:
            out.append((r["a_holds"], r["score_a"], r["lo"], r["hi"]))
        else:
            other = next(h for h in held if h != r["a_holds"])
            out.append((other, 1 - r["score_a"], 1 - r["hi"], 1 - r["lo"]))
    return sorted(out, key=lambda row: held.index(row[0]))


def per_side_text(s: Standings, a: str, b: str) -> str:
    rows = side_rows(s, a, b)
    if not rows:
        return ""
    return " (" + "; ".join(f"{a} as {held}: {100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                            for held, v, lo, hi in rows) + ")"


def knowledge_text(specs: dict[str, str], a: str, b: str, defaults: dict[str, str] | None = None) -> str:
    """Whether a searching entrant of the pair knew the other: "search beats X" means little without it. An
    uninformed search knew an opponent that plays the default heuristics: its playouts assume exactly them."""
    out = []
    for me, other in ((a, b), (b, a)):
        knows = search_knowledge(specs.get(me, ""))
        if knows == "informed" and search_knowledge(specs.get(other, "")):
            # informed playouts stand the default heuristics in for a searching seat (the searcher's stated policy)
            out.append(f" {me}'s playouts played the default heuristics for {other}, which searches (the search "
                       "did not know its opponent).")
        elif knows == "informed":
            out.append(f" {me}'s playouts played {other} (the search knew its opponent).")
        elif knows == "uninformed" and defaults and plays_defaults(specs.get(other, ""), defaults):
            out.append(f" {me}'s playouts assumed the default heuristics, which {other} plays (the search knew "
                       "its opponent).")
        elif knows == "uninformed":
            out.append(f" {me}'s playouts assumed the default heuristics, not {other} (the search did not know "
                       "its opponent).")
    return "".join(out)


def sides_section(s: Standings) -> list[str]:
    """Each pair's score per rotation: in an asymmetric game the head-to-head cell averages two different
    results (one per side)."""
    if not s.sides:
        return []
    held = list(dict.fromkeys(r["a_holds"] for r in s.sides))
    body = []
    for r in s.rows:
        rows = dict((h, (v, lo, hi)) for h, v, lo, hi in side_rows(s, r["a"], r["b"]))
        body.append([f"**{r['a']}** against {r['b']}",
                     *[f"{100 * rows[h][0]:.1f}% [{100 * rows[h][1]:.1f}, {100 * rows[h][2]:.1f}]" if h in rows
                       else "—" for h in held]])
    return ["## Each side apart", "",
            "The same games, the row's score when it holds each side (or seats): an asymmetric game's head-to-head "
            "cell is the mean of these, which can hide two opposite results.", "",
            *layout.table(["pair", *[f"row as {h}" for h in held]], body), ""]


def matrix_table(s: Standings) -> list[str]:
    k = len(s.entrants)
    body = [[f"**{s.entrants[i]}**", *["—" if i == j else f"{100 * s.score[i, j]:.1f}% [{100 * s.lo[i, j]:.1f}, "
                                       f"{100 * s.hi[i, j]:.1f}]" for j in range(k)]] for i in range(k)]
    return layout.table(["row's score against", *s.entrants], body)


def ratings_section(s: Standings) -> list[str]:
    if s.fit.fits is False:
        head = ["## Bradley–Terry ratings: they do not fit these scores", "",
                f"Not a ranking: the test of fit rejects one strength per strategy ({fit_text(s)}). Shown only to "
                "say what a single number would have claimed."]
    else:
        test = f"test of fit: {fit_text(s)}" if s.fit.fits else "two strategies: nothing to test"
        head = ["## Bradley–Terry ratings (log-odds scale, summing to zero)", "",
                f"Intervals with deals as the unit; {test}."]
    lines = [*head, "", "| strategy | rating on the log-odds scale [95% CI] |", "|---|---|"]
    for i in np.argsort(-s.strength):
        v, h = s.strength[i], Z95 * s.se[i]
        lines.append(f"| {s.entrants[i]} | {v:+.3f} [{v - h:+.3f}, {v + h:+.3f}] |")
    return lines


def matrix_chart(game, names, score, chart) -> str:
    values = 100 * np.asarray(score, dtype=float)
    np.fill_diagonal(values, np.nan)
    fig, ax = plt.subplots(figsize=(1.8 + 1.1 * len(names), 1 + 0.9 * len(names)))
    image = ax.imshow(values, vmin=0, vmax=100, cmap=heat_colours())
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    label_cells(ax, image, values, "{:.0f}%")
    fig.colorbar(image, ax=ax, label="row's score against the column (%)")
    ax.set_title(f"{game.title}: head to head")
    return chart("matrix", fig)


def ratings_chart(game, s: Standings, chart) -> str:
    names, strength, se = s.entrants, s.strength, s.se
    order = np.argsort(strength)
    fig, ax = plt.subplots(figsize=(6, 0.6 + 0.4 * len(names)))
    ax.errorbar(strength[order], range(len(names)), xerr=Z95 * se[order], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), [names[i] for i in order], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("Bradley–Terry rating, log-odds scale (95% interval)" + ("" if s.fit.fits is not False else
                                                                           ": does not fit"))
    return chart("ratings", fig)
