"""Drakerion's report sections: the faction matrix (both seat orders on the same deals), the first
player's edge, how and when games end, and each card's weight — measured by replacing it with a vanilla
card of the same cost on the same deals, beside the naive "win rate when played" and the costing rule
of thumb (melee + riposte + HP) / cost ≈ 3."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from scipy import stats  # noqa: E402

from sim.analysis.stats import bounded, mean_ci, mean_from_moments  # noqa: E402
from sim.analysis.summary import deal_estimates  # noqa: E402
from sim.engine.frames import collect, count, lazy  # noqa: E402
from sim.report import layout  # noqa: E402
from sim.report.charts import heat_colours, label_cells, whole_ticks  # noqa: E402
from sim.report.numbers import estimate_text  # noqa: E402
from sim.report.sections import quantile_of_counts, value_counts  # noqa: E402
from sim.games.drakerion import records as R  # noqa: E402
from sim.games.drakerion.game import deal_columns  # noqa: E402


def sections(games: pl.LazyFrame, chart, tables=None) -> list[str]:
    """Read lazily: a plain run's sections are streamed aggregates, whatever its size; only the per-card study
    and pairings played in both seat orders collect the few columns they pair game by game."""
    games = lazy(games)
    base = _base(games)
    out = []
    if count(base):
        measured = over_deals(base, {**SEAT_MEASURES, **END_MEASURES})      # one design-effect pass for both
        out += [matrix_section(base, chart), seat_section(measured), end_section(base, measured, chart)]
    if count(games.filter(pl.col("vanilla_s0") != "")):
        plays = tables.get("plays") if tables else None
        out.append(card_section(_card_games(games), plays, chart))
    return out


def findings(games: pl.LazyFrame, tables=None) -> list[str]:
    """The answers the faction and card studies exist for, at the top of the report: the strongest and weakest
    deck over the field, and the card that weighs most and least."""
    games = lazy(games)
    out = []
    base = _base(games)
    if count(base):
        runs = _runs(base)
        decks = _decks(runs)
        line = _extremes(decks, [field_rate(runs, d, decks) for d in decks])
        if line:
            out.append(line)
    if count(games.filter(pl.col("vanilla_s0") != "")):
        line = card_finding(card_effects(_card_games(games)))
        if line:
            out.append(line)
    return out


def _base(games: pl.LazyFrame) -> pl.LazyFrame:
    return games.filter((pl.col("vanilla_s0") == "") & (pl.col("vanilla_s1") == ""))


def _card_games(games: pl.LazyFrame) -> pl.DataFrame:
    columns = ["rules", "seed", "lineup", "game_id", "winner", "deck_s0", "deck_s1", "vanilla_s0", "vanilla_s1",
               "vanilla_ratio_s0"]
    return collect(games.select(columns))


SEAT0_SCORE = pl.when(pl.col("winner") == 0).then(1.0).when(pl.col("winner") == 1).then(0.0).otherwise(0.5)


def seat0_score(frame: pl.DataFrame) -> np.ndarray:
    w = frame["winner"].to_numpy()
    return np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5))


class _Runs(dict):
    """Base games of each (seat 0 deck, seat 1 deck) pairing, as lazy scans (the first lineup of each)."""

    def __init__(self, base: pl.LazyFrame):
        super().__init__()
        self.scores: dict[tuple[str, str], np.ndarray | None] = {}     # pairing_scores, read once per pairing
        keys = collect(base.select("deck_s0", "deck_s1", "lineup").unique(maintain_order=True))
        for d0, d1, lineup in keys.iter_rows():
            self.setdefault((d0, d1), base.filter((pl.col("deck_s0") == d0) & (pl.col("deck_s1") == d1)
                                                  & (pl.col("lineup") == lineup)))


def _runs(base: pl.LazyFrame) -> _Runs:
    return _Runs(base)


def pairing_scores(runs, a: str, b: str) -> np.ndarray | None:
    """Deck a's score against a different deck b in each deal, averaged over the two seat orders (paired deals);
    read once per pairing (the matrix cell and the field column both use it)."""
    if (a, b) not in runs.scores:
        first, second = runs.get((a, b)), runs.get((b, a))
        if first is None or second is None:
            runs.scores[a, b] = None
        else:
            first, second = (collect(f.select("game_id", "winner").sort("game_id")) for f in (first, second))
            m = min(first.height, second.height)
            runs.scores[a, b] = (seat0_score(first[:m]) + 1.0 - seat0_score(second[:m])) / 2
    return runs.scores[a, b]


def faction_rate(runs, a: str, b: str):
    """Deck a's score against deck b, averaged over both seat orders game by game (paired deals)."""
    if a == b:
        frame = runs.get((a, a))
        if frame is None:
            return None
        n, s, q = collect(frame.select(SEAT0_SCORE.alias("x")).select(
            pl.len().alias("n"), pl.col("x").sum().alias("s"), (pl.col("x") ** 2).sum().alias("q"))).row(0)
        return mean_from_moments(s, q, n, lower=0.0, upper=1.0)
    scores = pairing_scores(runs, a, b)
    return None if scores is None else mean_ci(scores, lower=0.0, upper=1.0)


def field_rate(runs, deck: str, decks: list[str]):
    """Deck's score against the field: the plain mean of its scores against each other deck it met (each
    opponent weighs the same, whatever its number of games), with the t interval of that mean (the pairings are
    independent games, so their variances add)."""
    parts = [x for x in (pairing_scores(runs, deck, other) for other in decks if other != deck)
             if x is not None and len(x) > 1]
    if not parts:
        return None
    k = len(parts)
    m = float(np.mean([x.mean() for x in parts]))
    se = math.sqrt(sum(x.var(ddof=1) / len(x) for x in parts)) / k
    return bounded(m, se, sum(len(x) for x in parts), lower=0.0, upper=1.0)


def _decks(runs) -> list[str]:
    return sorted({d for pair in runs for d in pair})


def faction_grid(runs) -> tuple[list[str], np.ndarray]:
    """The decks played and each pairing's score estimate (row deck against column deck), None where unplayed."""
    decks = _decks(runs)
    grid = np.empty((len(decks), len(decks)), dtype=object)
    for i, a in enumerate(decks):
        for j, b in enumerate(decks):
            grid[i, j] = faction_rate(runs, a, b)
    return decks, grid


def matrix_section(base: pl.DataFrame, chart) -> str:
    runs = _runs(base)
    decks, grid = faction_grid(runs)
    paired = any(grid[i, j] is not None for i in range(len(decks)) for j in range(len(decks)) if i != j)
    if not paired:                 # mirror matches only (the card study): one figure per deck, no matrix
        body = [[d, grid[i, i].fmt(pct=True, digits=1), f"{grid[i, i].n:,}"] for i, d in enumerate(decks)
                if grid[i, i] is not None]
        return "\n".join(["## Mirror matches", "",
                           "Each deck against itself: seat 0's score (a win 1, a draw ½), with its 95% interval. "
                           "No two different decks met in these games, so no deck is measured against another.", "",
                           *layout.table(["deck", "seat 0's score [95% CI]", "games"], body), ""])
    lines = ["## Faction against faction", "",
             "Each cell: the row deck's score against the column deck (a win 1, a draw ½), each pairing played "
             "in both seat orders on the same deals and averaged game by game, with its 95% interval. "
             "Mirror cells show seat 0's score in the mirror match. The last column: the row deck's mean score "
             "over the other decks, each weighing the same.", ""]
    fields = [field_rate(runs, d, decks) for d in decks]
    body = [[f"**{a}**", *[grid[i, j].fmt(pct=True, digits=1) if grid[i, j] is not None else "not played"
                           for j in range(len(decks))], fields[i].fmt(pct=True, digits=1) if fields[i] else ""]
            for i, a in enumerate(decks)]
    lines += layout.table(["deck \\ opponent", *decks, "against the field"], body)
    values = np.array([[100 * e.value if e is not None else np.nan for e in row] for row in grid], dtype=float)
    fig, ax = plt.subplots(figsize=(1.6 + 1.1 * len(decks), 1.0 + 0.9 * len(decks)))
    image = ax.imshow(values, vmin=0, vmax=100, cmap=heat_colours())
    label_cells(ax, image, values, "{:.0f}%", fontsize=9)
    ax.set_xticks(range(len(decks)), decks)
    ax.set_yticks(range(len(decks)), decks)
    ax.set_xlabel("opponent deck")
    ax.set_ylabel("deck")
    ax.set_title("Drakerion: the row deck's score, both seat orders")
    fig.colorbar(image, ax=ax, fraction=0.046, label="score (%; a win 100, a draw 50)")
    best = _extremes(decks, fields)
    lines += ["", best, "", chart("factions", fig), ""]
    return "\n".join(lines)


def _extremes(decks, fields) -> str:
    """The strongest and weakest deck against the field (the figures of the table's last column), named as such
    only where its interval clears every other deck's; otherwise the highest (lowest) and the deck whose interval
    it overlaps, so the verdict can be read off the intervals shown."""
    met = sorted(((f.value, d, f) for d, f in zip(decks, fields) if f is not None), key=lambda t: t[0])
    if len(met) < 2:
        return ""
    (_, weak, low), (_, strong, high) = met[0], met[-1]
    show = lambda f: f.fmt(pct=True, digits=1)
    rest = " These figures rest on the invented card pool and on the strategies named in the provenance."
    _, near_top, rival_top = max(met[:-1], key=lambda t: t[2].hi)
    _, near_bottom, rival_bottom = min(met[1:], key=lambda t: t[2].lo)
    if high.lo > rival_top.hi:
        strongest = f"Strongest deck over the field: **{strong}** ({show(high)})"
    else:
        strongest = (f"No deck is measurably the strongest (the highest, **{strong}**, {show(high)}, overlaps "
                     f"{near_top}, {show(rival_top)})")
    if low.hi < rival_bottom.lo:
        weakest = f"weakest: **{weak}** ({show(low)})"
    else:
        weakest = (f"none measurably the weakest (the lowest, **{weak}**, {show(low)}, overlaps {near_bottom}, "
                   f"{show(rival_bottom)})")
    return f"{strongest}; {weakest}." + rest


def over_deals(base: pl.LazyFrame, measures: dict[str, tuple[pl.Expr, str]]) -> dict:
    """Each measure over the games with its interval over deals (`game.deal_columns`: a pairing and its seat
    swap are dealt alike): name -> (expression, null where it does not apply; "rate" or "mean")."""
    return deal_estimates(base, deal_columns, measures)


_W = pl.col("winner")
SEAT_MEASURES = {"first": (pl.when(_W >= 0).then(_W == pl.col("first_seat")), "rate"),
                 "seat0": (_W == 0, "rate"), "draws": (_W < 0, "rate")}
END_MEASURES = {"turns": (pl.col("turns"), "mean"),
                **{name: (pl.col("end") == code, "rate") for code, name in enumerate(R.END_NAMES)}}


def seat_section(rates: dict) -> str:
    """`rates`: `over_deals` of SEAT_MEASURES."""
    est, seat0, draws = rates["first"], rates["seat0"], rates["draws"]
    decided = est.n
    verdict = "an advantage" if est.lo > 0.5 else ("a disadvantage" if est.hi < 0.5 else "no measurable edge")
    return "\n".join([
        "## Is going first an advantage?", "",
        f"The first player (chosen by the higher Banner initiative, or at random on a tie) wins "
        f"{est.fmt(pct=True, digits=1)} of decided games ({decided:,} games): {verdict} against a fair 50%.",
        f"Seat 0 wins {seat0.fmt(pct=True, digits=1)} of all games; {draws.fmt(pct=True, digits=1)} are draws "
        f"(turn cap or both players winning at once).", ""])


def end_section(base: pl.LazyFrame, ends: dict, chart) -> str:
    """`ends`: `over_deals` of END_MEASURES; `base` gives the length distribution."""
    lines = ["## How games end", "", "| end | share of games |", "|---|---|"]
    for name in R.END_NAMES:
        lines.append(f"| {name} | {ends[name].fmt(pct=True, digits=1)} |")
    turns, counts, _ = value_counts(base, pl.col("turns"))
    mean = ends["turns"]
    lines += ["", f"Game length: {estimate_text(mean, False)} turns on average, "
              f"median {quantile_of_counts(turns, counts):.0f}, "
              f"95th percentile {quantile_of_counts(turns, counts, 0.95):.0f}.", ""]
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    ax.hist(turns, bins=np.arange(0.5, turns.max() + 1.5), weights=counts * 100.0 / counts.sum())
    ax.set_xlabel("turns")
    ax.set_ylabel("% of games")
    whole_ticks(ax)
    ax.set_title("Drakerion: game length")
    lines += [chart("length", fig), ""]
    return "\n".join(lines)


# ---- per-card weight --------------------------------------------------------------------------


def card_effects(games: pl.DataFrame) -> list[dict]:
    """For each card replaced by a vanilla card in seat 0's deck: the paired change in seat 0's score
    against the unchanged deck on the same deals (same seed, same game ids)."""
    base = games.filter((pl.col("vanilla_s0") == "") & (pl.col("vanilla_s1") == ""))
    rows = []
    for (deck, opp, card), arm in games.filter(pl.col("vanilla_s0") != "").partition_by(
            ["deck_s0", "deck_s1", "vanilla_s0"], as_dict=True, maintain_order=True).items():
        ref = base.filter((pl.col("deck_s0") == deck) & (pl.col("deck_s1") == opp)
                          & (pl.col("seed") == arm["seed"][0]) & (pl.col("lineup") == arm["lineup"][0]))
        joined = ref.select("game_id", "winner").join(arm.select("game_id", pl.col("winner").alias("w_arm")),
                                                      on="game_id")
        if joined.height < 2:
            continue
        s_ref = seat0_score(joined)
        s_arm = seat0_score(joined.rename({"winner": "w_ref", "w_arm": "winner"}))
        diff = mean_ci(s_ref - s_arm)      # positive: the card helps its deck
        rows.append({"deck": deck, "opponent": opp, "card": card, "effect": diff,
                     "base": mean_ci(s_ref).value, "identical": bool(np.all(s_ref == s_arm))})
    return sorted(rows, key=lambda r: -r["effect"].value)


def naive_rates(games: pl.DataFrame, plays) -> dict[tuple[str, str], tuple[float, int]]:
    """Seat 0's score in base games where the card was played (the biased 'win rate when played')."""
    if plays is None:
        return {}
    base = games.filter((pl.col("vanilla_s0") == "") & (pl.col("vanilla_s1") == ""))
    keys = base.select("rules", "seed", "lineup", "game_id", "deck_s0", "winner")
    played = (plays.filter(pl.col("seat") == 0).select("rules", "seed", "lineup", "game_id", "card")
              .collect().join(keys, on=["rules", "seed", "lineup", "game_id"]))
    out = {}
    for (deck, card), frame in played.partition_by(["deck_s0", "card"], as_dict=True).items():
        out[(deck, card)] = (float(seat0_score(frame).mean()), frame.height)
    return out


def card_finding(rows: list[dict]) -> str:
    """The card whose replacement moves its deck's score most, and the least, with the same figures as the
    table (individual 95% intervals: a ranking over many cards, not a test of each)."""
    if not rows:
        return ""
    top, low = rows[0], rows[-1]
    moved = sum(1 for r in rows if r["effect"].lo > 0 or r["effect"].hi < 0)
    text = (f"Each card's weight (replaced by a vanilla character of its cost, same deals): **{top['card']}** "
            f"({top['deck']}) weighs most, {points(top['effect'])} of its deck's score")
    if len(rows) > 1 and low["identical"]:
        text += f"; {low['card']} ({low['deck']}) changes no game"
    elif len(rows) > 1 and low["effect"].hi < 0:
        text += (f"; {low['card']} ({low['deck']}) is the most over-costed, {points(low['effect'])}: its deck does "
                 "better with vanilla stats")
    elif len(rows) > 1:
        text += f"; {low['card']} ({low['deck']}) weighs least, {points(low['effect'])}"
    return text + f"; {moved} of {len(rows)} cards' intervals leave out 0 (individual 95% intervals)."


def points(e) -> str:
    return f"{100 * e.value:+.1f} points [{100 * e.lo:+.1f}, {100 * e.hi:+.1f}]"


def card_section(games: pl.DataFrame, plays, chart) -> str:
    rows = card_effects(games)
    naive = naive_rates(games, plays)
    ratios = stats_ratio(games)
    lines = ["## Each card's weight, without dead-card bias", "",
             "Effect: the change in its deck's score (seat 0, win 1, draw ½) when every copy of the card is "
             "replaced by a vanilla character of the same cost (no ability or keyword, stats by the rule of "
             "thumb), on the same deals; positive means the card is worth more than vanilla stats for its "
             "cost, negative that it is over-costed. The naive figure is the deck's score in the games "
             "where the card was played: it is inflated for cheap cards (played in most games, win or lose) "
             "and for cards a winning player gets to play late, and deflated for comeback cards, so it "
             "ranks cards by when they are played rather than by what they do.", ""]
    body = []
    for k, r in enumerate(rows, 1):
        nv = naive.get((r["deck"], r["card"]))
        naive_txt = f"{100 * nv[0]:.1f}% ({nv[1]:,} games) vs {100 * r['base']:.1f}% overall" if nv else "not played"
        ratio = ratios.get(r["card"])
        effect = "no game changed" if r["identical"] else points(r["effect"])
        body.append([str(k), r["card"], r["deck"], r["opponent"], effect, naive_txt,
                     "" if ratio is None else f"{ratio:.2f}"])
    table = layout.table(["rank", "card", "deck", "opponent", "effect [95% CI]", "naive: score when played",
                          "(melee+riposte+HP)/cost"], body)
    lines += layout.fold(f"All {len(rows)} cards, largest effect first", table, len(rows))
    lines += ["", costing_verdict(rows, ratios), ""]
    if rows:
        top = rows[:8] + rows[-8:] if len(rows) > 16 else rows
        fig, ax = plt.subplots(figsize=(7, 0.6 + 0.32 * len(top)))
        y = np.arange(len(top))[::-1]
        vals = [100 * r["effect"].value for r in top]
        err = [[100 * (r["effect"].value - r["effect"].lo) for r in top],
               [100 * (r["effect"].hi - r["effect"].value) for r in top]]
        ax.barh(y, vals, xerr=err, capsize=2, color=["tab:green" if v > 0 else "tab:red" for v in vals])
        ax.set_yticks(y, [f"{r['card']} ({r['deck']})" for r in top], fontsize=8)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("change in the deck's score when the card is replaced by vanilla stats (points, 95% interval)")
        ax.set_title("Drakerion: the cards that matter most and least" + (f" (8 of each end, of {len(rows)})"
                                                                           if len(rows) > 16 else ""))
        lines += [chart("cards", fig), ""]
    return "\n".join(lines)


def stats_ratio(games: pl.DataFrame) -> dict[str, float]:
    """(melee + riposte + HP) / cost of each replaced character, from the games table."""
    rows = games.filter(pl.col("vanilla_s0") != "").group_by("vanilla_s0").agg(pl.col("vanilla_ratio_s0").first())
    return {name: r for name, r in rows.iter_rows() if r == r}


def costing_verdict(rows, ratios) -> str:
    pairs = [(ratios[r["card"]], r["effect"].value) for r in rows if r["card"] in ratios]
    if len(pairs) < 4:
        return "Too few characters were measured to test the costing rule."
    x, y = np.array(pairs).T
    rho, p = stats.spearmanr(x, y)
    if p < 0.05 and rho > 0:                   # a detected tie can still be a weak one: say how much it explains
        held = (f"the formula tracks which characters pull their weight, accounting for {rho * rho:.0%} of the "
                f"variance of their ranks; abilities and keywords, which it ignores, account for the rest")
    else:
        held = ("the formula does not detectably predict which characters pull their weight; abilities and "
                "keywords, which it ignores, decide it")
    return (f"Costing rule of thumb: across {len(pairs)} characters, the rank correlation between "
            f"(melee + riposte + HP) / cost and the measured effect is {rho:+.2f} (p = {p:.3f}), so {held}.")
