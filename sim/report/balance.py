"""`dsim report`: a balance report per game, from Parquet results: Markdown and one self-contained HTML file.

Layout (the same for every game): the question and the findings (the game's own answers, such as each card's
weight or the strongest faction, then the headline estimates with intervals and a verdict against a reference),
the caveats they rest on, the headline chart, outcome tables (configurations as rows, the default first, then by
the effect; outcomes as columns, split to fit the page), calibration, the game's own sections, and a provenance
appendix. A game declares what it shows (its outcomes and references, extra sections); the layout lives here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis import calibration, coverage  # noqa: E402
from sim.analysis.summary import summarize  # noqa: E402
from sim.engine import store  # noqa: E402
from sim.engine.errors import DsimError  # noqa: E402
from sim.engine.strategy import lineup_label  # noqa: E402
from sim.engine.frames import collect  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.report import layout, numbers, sections  # noqa: E402
from sim.report.calibration import (  # noqa: E402
    calibration_section, claim_range, counts_text, search_findings, split_players,
)
from sim.report.charts import ChartSaver, error_bars, fit_span  # noqa: E402
from sim.report.coverage import exercised_section  # noqa: E402
from sim.report.findings import MANY, caveat_findings, fill_headlines, fmt, headline_findings  # noqa: E402
from sim.report.games import findings as own_findings  # noqa: E402
from sim.report.games import value_names  # noqa: E402
from sim.report.games import sections as own_sections  # noqa: E402
from sim.report.html import write_report  # noqa: E402
from sim.report.labels import Configs, column_words, names_words, partition_lineup, players_text  # noqa: E402
from sim.report.summary import KEYS, ordered  # noqa: E402

GROUP = ["players", "lineup", "rules"]


def varying(rows: list[dict]) -> list[str]:
    """The configuration dimensions that take more than one value in these results."""
    return [d for d in GROUP if len({r[d] for r in rows}) > 1]


def strategy_caveats(game, rows: list[dict], configs: Configs, dims: list[str]) -> list[str]:
    """Each headline whose value moves beyond its intervals between the lineups played with the same rules and
    player count: a figure of the strategies as much as of the rules. Over many rule settings, one sentence per
    player count names how many and the widest gap."""
    default = lineup_label(game.lineup("default"))
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        if r["headline"]:
            groups.setdefault((r["players"], r["rules"], r["outcome"]), []).append(r)
    moved: dict[tuple, list[tuple]] = {}
    played: dict[tuple, int] = {}
    for (players, rules, name), group in groups.items():
        if len(group) < 2:
            continue
        played[players, name] = played.get((players, name), 0) + 1
        low = min(group, key=lambda r: r["estimate"].value)
        high = max(group, key=lambda r: r["estimate"].value)
        if high["estimate"].lo > low["estimate"].hi:
            moved.setdefault((players, name), []).append((rules, low, high))

    def who(r):
        return configs.lineup(r["lineup"]) + (", the default" if r["lineup"] == default else "")

    def span(low, high, o):
        return f"from {fmt(low['estimate'], o)} ({who(low)}) to {fmt(high['estimate'], o)} ({who(high)})"

    out = []
    for (players, name), found in sorted(moved.items(), key=lambda kv: kv[0][:1]):
        o = game_outcome(game, name)
        label = (o.label or o.name)[:1].upper() + (o.label or o.name)[1:]
        at = f"at {players_text(players)}"
        if len(found) > MANY:
            rules, low, high = max(found, key=lambda f: f[2]["estimate"].value - f[1]["estimate"].value)
            some = "every one" if len(found) == played[players, name] else str(len(found))
            out.append(f"{label} depends on the strategies under {some} of the {played[players, name]} rule "
                       f"settings played {at}; most under {configs.rule(rules)}: {span(low, high, o)}; quote it "
                       f"with its lineup.")
            continue
        for rules, low, high in found:
            rule = f", {configs.rule(rules)}" if "rules" in dims else ""
            out.append(f"{label} depends on the strategies: {span(low, high, o)} {at}{rule}; quote it with its "
                       f"lineup.")
    return out


def with_config(games: pl.LazyFrame, configs: Configs, dims: list[str], order: list[tuple] = ()) -> pl.LazyFrame:
    """The games with a `config` column (their configuration in words, for the game's own sections to group by)
    and `config_order` (its place in the report's tables, `order`). Lazy: the games are only ever scanned."""
    keys = [k for k in KEYS if k in games.collect_schema().names()]
    if not keys:
        return games.with_columns(pl.lit("all games").alias("config"), pl.lit(0).alias("config_order"))
    combos = collect(games.select(keys).unique(maintain_order=True))
    names = [configs.text(dict(zip(keys, row)), dims) or "all games" for row in combos.iter_rows()]
    place = {tuple(dict(zip(KEYS, k))[c] for c in keys): i for i, k in enumerate(order)}
    ranks = [place.get(row, len(place) + i) for i, row in enumerate(combos.iter_rows())]
    return games.join(combos.with_columns(pl.Series("config", names), pl.Series("config_order", ranks)).lazy(),
                      on=keys, how="left", maintain_order="left")


def game_outcome(game, name: str):
    return next(o for o in game.outcomes() if o.name == name)


def design_caveats(game_name: str, to: Path) -> list[str]:
    """What `dsim sensitivity` and `dsim ladder` found, when their reports sit in the same folder."""
    out = []
    path = to / f"sensitivity_{game_name}.json"
    if path.exists():
        data = json.loads(path.read_text())
        base = data.get("base") or f"{data['players']} players"
        out += [f"Assumed values ([sensitivity](sensitivity_{game_name}.md), {base}): {line}"
                for line in data["findings"]]
    for path in sorted(to.glob(f"ladder_{game_name}_*.json")):
        data = json.loads(path.read_text())
        top = ", then the equilibrium" if "equilibrium" in data.get("levels", []) else ""
        out.append(f"Better play ([skill ladder]({path.stem}.md): best responses to the defaults{top}): "
                   f"{data['finding'].rstrip('.')}.")
    for path in sorted(to.glob(f"equilibrium_{game_name}_*p.json")):
        data = json.loads(path.read_text())
        out.append(f"The headline rests on the default strategies. When every player plays their best "
                   f"([equilibrium]({path.stem}.md), {data['players']} players): {data['finding']}.")
    if (to / "answer.md").exists():
        out.append("The game's question answered at the strongest play measured, with each side searching and what "
                   "to change: [answer page](answer.md).")
    return out


def readings_section(runs: list[dict]) -> list[str]:
    """The reading of every ambiguous rule the figures rest on (the other one is a flag to compare)."""
    by_key: dict[str, set[str]] = {}
    for r in runs:
        for key, text in r.get("readings", {}).items():
            by_key.setdefault(key, set()).add(text)
    if not by_key:
        return []
    lines = ["### Readings these figures rest on", "",
             "Where the rulebook can be read two ways, these runs used the reading below; `dsim games` names the "
             "other, and `dsim compare` measures what the choice changes.", ""]
    for key, texts in sorted(by_key.items()):
        lines.append(f"- `{key}`: {' / '.join(sorted(texts))}")
    return lines + [""]


def provenance_section(game, runs: list[dict], configs: Configs) -> list[str]:
    lines = ["### Runs", "", "| players | rules | lineup | rules hash | seed | games | code |",
             "|---|---|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r['players']} | {configs.rule(r['rules_hash'])} | "
                     f"{configs.lineup(_lineup_code(game, r))} | `{r['rules_hash']}` | {r['seed']} | {r['n']:,} | "
                     f"{r['code_version']} |")
    stops = [r for r in runs if r.get("stop_reason")]
    if stops:               # how a --precision run decided to stop, and which interval it reports
        lines += ["", *[f"- {r['players']} players, seed {r['seed']}: played to ±{r['precision_target']:g}, "
                        f"stopped: {r['stop_reason']}" for r in stops]]
    assumed: dict[str, set[str]] = {}
    for r in runs:
        for k, v in r.get("assumed", {}).items():
            assumed.setdefault(k, set()).add(str(v).replace("'", ""))
    if assumed:
        lines += ["", "### Assumed values", "", "Values no rulebook gives (labelled `assumed` in the rules file), or "
                  "overridden for these runs:", ""]
        lines += [f"- `{k}` = {' / '.join(sorted(v))}" for k, v in sorted(assumed.items())]
    return lines + [""]


def _lineup_code(game, run: dict) -> str:
    return partition_lineup(game, run.get("strategies", {}))


def outcome_tables(game, rows: list[dict], configs: Configs, dims: list[str]) -> list[str]:
    """Configurations as rows (the report's order: the default first, then by player count, then by the effect),
    outcomes as columns, split over several tables where they do not fit the page; a long table folded."""
    outcomes = [o for o in game.outcomes() if any(r["outcome"] == o.name for r in rows)]
    cells = {(r["players"], r["rules"], r["lineup"], r["outcome"]): r for r in rows}
    head = ["configuration", *[f"**{o.heading()}**" if o.headline else o.heading() for o in outcomes], "games"]
    body = []
    for k in ordered(game, rows, configs, dims):
        values = [cells.get((*k, o.name)) for o in outcomes]
        games = max((v["estimate"].n for v in values if v), default=0)
        body.append([configs.text(dict(zip(KEYS, k)), dims) or "all games",
                     *[fmt(v["estimate"], o) if v else "–" for v, o in zip(values, outcomes)], f"{games:,}"])
    if len(body) == 1:                 # one configuration: its outcomes as a list
        return layout.table(["outcome", body[0][0]], [[h, c] for h, c in zip(head[1:], body[0][1:])]) + [""]
    lines = layout.fold(f"{len(body)} configurations, the default first, then by {outcomes_sorted_by(outcomes)}",
                        layout.table(head, body), len(body)) + [""]
    if any(cell == "–" for row in body for cell in row):
        lines += ["–: the outcome does not apply to that configuration's games.", ""]
    return lines


def outcomes_sorted_by(outcomes) -> str:
    head = next((o for o in outcomes if o.headline), None)
    return f"player count, then {head.heading()}, highest first" if head else "player count"


CHART_ROWS = 40        # more configurations than this: the headline chart shows the highest and lowest


def headline_chart(game, rows: list[dict], configs: Configs, dims: list[str], chart) -> str:
    """Each headline outcome per configuration with its interval, its reference line, and a finding title; the
    configurations in the tables' order (the default first, then by value), the extremes only when there are
    too many to read."""
    outcomes = {o.name: o for o in game.outcomes()}
    names = list(dict.fromkeys(r["outcome"] for r in rows if r["headline"]))
    if not names:
        return ""
    o = outcomes[names[0]]
    place = {k: i for i, k in enumerate(ordered(game, rows, configs, dims))}
    head = sorted([r for r in rows if r["outcome"] == o.name and r["estimate"].lo == r["estimate"].lo],
                  key=lambda r: place[r["players"], r["rules"], r["lineup"]])
    if not head:                              # no interval anywhere (e.g. no game was decided)
        return ""
    if len(head) == 1 and o.reference_at(head[0]["players"]) is None:
        return ""                             # one figure and nothing to read it against: the finding says it
    title = chart_title(o, head)
    if len(head) > CHART_ROWS:
        by_value = sorted(head, key=lambda r: -r["estimate"].value)
        half = CHART_ROWS // 2
        head = by_value[:half] + by_value[-half:]
        title += f" (the {half} highest and {half} lowest of {len(by_value)})"
    scale = 100 if o.shows_percent() else 1
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + (0.42 if len(head) <= 12 else 0.24) * len(head)))
    ys = range(len(head))
    ax.errorbar([r["estimate"].value * scale for r in head], ys,
                xerr=error_bars([r["estimate"] for r in head]) * scale, fmt="o", capsize=4, color="tab:blue")
    refs = {o.reference_at(r["players"]) for r in head} - {None}
    for ref in refs:
        ax.axvline(ref * scale, color="black", lw=0.9, ls="--")
    ax.set_yticks(list(ys), [configs.text(r, dims) or "all games" for r in head], fontsize=9 if len(head) <= 12 else 7)
    ax.invert_yaxis()
    label = o.label or o.name
    ax.set_xlabel(f"{label} ({'%, ' if scale == 100 else ''}95% interval" + ("; dashed: reference" if refs else "")
                  + ")")
    ends = [e for r in head for e in (r["estimate"].lo * scale, r["estimate"].hi * scale)] + [x * scale for x in refs]
    pad = 0.05 * (max(ends) - min(ends)) or 1.0
    ax.set_xlim(min(ends) - pad, max(ends) + pad)      # the reference line inside the axes, not on its edge
    fit_span(ax, 10.0 if scale == 100 else 0.1 * max(abs(r["estimate"].value) for r in head) or 1.0,
             bounds=(0.0, 100.0) if scale == 100 else None)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return chart("headline", fig)


def chart_title(o, head: list[dict]) -> str:
    label = o.label or o.name
    refs = [(r, o.reference_at(r["players"])) for r in head]
    above = sum(1 for r, ref in refs if ref is not None and r["estimate"].lo > ref)
    below = sum(1 for r, ref in refs if ref is not None and r["estimate"].hi < ref)
    if len(head) == 1:
        return f"{label}: {fmt(head[0]['estimate'], o)}"
    if above == len(head):
        return f"{label} is above its reference in every configuration"
    if below == len(head):
        return f"{label} is below its reference in every configuration"
    if above or below:
        return f"{label}: above its reference in {above}, below in {below} of {len(head)} configurations"
    lo = min(r["estimate"].value for r in head)
    hi = max(r["estimate"].value for r in head)
    return f"{label}: from {fmt_value(lo, o)} to {fmt_value(hi, o)} across configurations"


def fmt_value(v: float, o) -> str:
    return f"{100 * v:.1f}%" if o.shows_percent() else f"{v:.3g}"


def claim_caveats(checked) -> list[str]:
    """Claims that fail or are unsettled, one line per claim with what this run measured: a claim checked at
    several player counts ("... (5 players)") is named once with the counts it fails at. What causes it is told in
    the calibration section, where its figures are marked as those of the runs it was traced on."""
    groups: dict[tuple, list] = {}
    for c in checked:
        if c.verdict in ("fails", "unsettled"):
            text, players = split_players(c.claim.text)
            groups.setdefault((text, c.verdict, bool(c.claim.cause)), []).append((players, c))
    out = []
    for (text, verdict, cause), found in groups.items():
        words = "fails" if verdict == "fails" else "is unsettled"
        measured = [c for _, c in found if getattr(c, "estimate", None) is not None]
        figures = ""
        if measured:
            pct = measured[0].kind == "rate"
            values = [numbers.estimate_text(c.estimate, pct) for c in measured]
            figures = (f": measured {', '.join(values[:-1]) + ' and ' if len(values) > 1 else ''}{values[-1]} against "
                       f"{claim_range(measured[0].claim, pct)}")
        out.append(f"The rulebook's claim \"{text}\" {words}{counts_text([n for n, _ in found])} here{figures}"
                   + (" (the report's calibration section says why)." if cause else "."))
    return out


def configurations(game, games: pl.LazyFrame, runs: list[dict]) -> tuple[list[dict], Configs, list[str]]:
    """Every configuration's outcome estimates, the configurations' names in words, and the dimensions that vary
    between them (all three when there is one configuration: it is named in full)."""
    rows = fill_headlines(game, summarize(game, games, GROUP))
    return rows, Configs(game, runs), varying(rows) or list(GROUP)


def results(game, out: Path, only: dict | None = None) -> tuple[pl.LazyFrame, list[dict]]:
    """A game's games under `out` (lazily) and its runs' provenance, or only those of the run with partition
    `only`."""
    lf = store.scan(out, game.name)
    runs = [r for r in store.runs(out) if r["game"] == game.name]
    if only:
        lf = lf.filter(*[pl.col(k) == v for k, v in only.items()])
        runs = [r for r in runs if r["players"] == only["players"] and r["rules_hash"] == only["rules"]
                and r["seed"] == only["seed"] and _lineup_code(game, r) == only["lineup"]]
    return lf, runs


def figures(game_name: str, out: Path, only: dict | None = None) -> list[dict]:
    """--format json: every configuration (in the report's order, named in words) with every outcome's estimate
    as numbers (`sim.report.numbers`)."""
    game = get_game(game_name)
    rows, configs, dims = configurations(game, *results(game, out, only))
    outcomes = {o.name: o for o in game.outcomes()}
    out_rows = []
    for key in ordered(game, rows, configs, dims):
        mine = [r for r in rows if (r["players"], r["rules"], r["lineup"]) == key]
        config = dict(zip(KEYS, key))
        out_rows.append({"players": key[0], "rules": configs.rule(key[1]), "lineup": configs.lineup(key[2]),
                         "is_default": configs.is_default(config, list(GROUP)),
                         "games": max(r["estimate"].n for r in mine),
                         "outcomes": [{"outcome": r["outcome"], "label": outcomes[r["outcome"]].label,
                                       "headline": bool(r["headline"]),
                                       **numbers.estimate(r["estimate"], outcomes[r["outcome"]].shows_percent())}
                                      for r in mine]})
    return out_rows


def outcome_list(game_name: str, out: Path, only: dict) -> list[list[str]]:
    """One run's outcomes as a table for the terminal: each outcome (headline ones first) with its estimate and
    interval; the first row is the header."""
    game = get_game(game_name)
    rows, _, _ = configurations(game, *results(game, out, only))
    outcomes = {o.name: o for o in game.outcomes()}
    rows = sorted(rows, key=lambda r: not r["headline"])
    return [["outcome", "estimate [95% CI]"]] + [[outcomes[r["outcome"]].label or r["outcome"],
                                                  fmt(r["estimate"], outcomes[r["outcome"]])] for r in rows]


def game_report(game_name: str, out: Path, to: Path, only: dict | None = None) -> Path:
    """The report of every run of a game under `out`, or only of the run with partition `only`."""
    game = get_game(game_name)
    lf, runs = results(game, out, only)
    rows, configs, dims = configurations(game, lf, runs)
    outcomes = {o.name: o for o in game.outcomes()}
    chart = ChartSaver(to, game_name)
    games = with_config(lf, configs, dims, ordered(game, rows, configs, dims))
    checked = calibration.check(game, games)
    searched = calibration.under_search(game, games, checked)
    gates = game.counter_gates()
    _, never, _ = coverage.exercised(games, runs, gates) if coverage.counter_names(games) else ([], [], [])
    caveats = (design_caveats(game_name, to) + strategy_caveats(game, rows, configs, dims)
               + caveat_findings(rows, outcomes, configs, dims)
               + claim_caveats(checked))
    if never:
        caveats.append(f"Never applied in these games, so nothing here speaks to them: {names_words(never)}.")
    others = {name: store.scan(out, game_name, name) for name in store.tables(out)
              if name != "games" and game_name in store.games_in(out, name)}
    answers = (own_findings(game, games, others) + headline_findings(rows, outcomes, configs, dims)
               + search_findings(searched))
    parts = [f"# {game.title}: balance report", "", "## Findings", "", *[f"- {line}" for line in answers], ""]
    if caveats:
        parts += ["## What these findings rest on", "", *[f"- {c}" for c in caveats], ""]
    parts += [headline_chart(game, rows, configs, dims, chart), "", "## Outcomes", "",
              "Every rate is shown with its 95% Wilson interval, every mean with its 95% t interval, taken on the "
              "log scale for a quantity no game took below 0, so that it never reaches below 0 "
              "(docs/STATISTICS.md).", "",
              *outcome_tables(game, rows, configs, dims)]
    extra = game.group_columns()
    if extra:
        by = summarize(game, lf, GROUP + extra)
        if len(by) > len(rows):        # an extra column that splits a configuration's games (not one it names)
            groups = len({tuple(r[e] for e in extra) for r in by})
            parts += [f"## Outcomes by {', '.join(column_words(e) for e in extra)}", "",
                      *layout.fold(f"{groups} groups: every outcome of each", outcome_tables_by(
                          game, by, configs, dims, extra), rows=groups, limit=4)]
    parts += calibration_section(checked, searched)
    for section in game.report_tables():
        parts += sections.render(section, games, chart)
    parts += own_sections(game, games, chart, others)
    parts += exercised_section(games, runs, gates)
    parts += ["## Appendix: provenance", "", *readings_section(runs), *provenance_section(game, runs, configs)]
    return write_report(to, game_name, "\n".join(parts), game.title)


def outcome_tables_by(game, rows: list[dict], configs: Configs, dims: list[str], extra: list[str]) -> list[str]:
    """The outcome tables again with the game's extra dimensions (e.g. a mode) as columns."""
    lines = []
    for value in sorted({tuple(r[e] for e in extra) for r in rows}):
        mine = [r for r in rows if tuple(r[e] for e in extra) == value]
        names = value_names(game)
        lines += [f"### {', '.join(column_words(e, v, names.get(e, ())) for e, v in zip(extra, value))}", ""]
        lines += outcome_tables(game, mine, configs, varying(mine))
    return lines


def build(out: Path, to: Path, game: str | None = None) -> list[Path]:
    """Write one report per game found under `out` (or just `game`), plus an index."""
    to.mkdir(parents=True, exist_ok=True)
    names = [n for n in store.games_in(out) if game in (None, n)]
    if not names:
        raise DsimError(f"no {game or 'game'} results under {out} (run `dsim run` first)")
    paths = [game_report(n, out, to) for n in names]
    index = ["# dsim reports", ""] + [f"- [{p.stem}]({p.name})" for p in paths]
    (to / "report.md").write_text("\n".join(index) + "\n")
    return paths


