"""`dsim report`: Markdown + HTML balance reports with matplotlib charts, from Parquet results."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sim.core import calibration, coverage, store  # noqa: E402
from sim.core.charts import error_bars  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.strategy import lineup_label  # noqa: E402
from sim.core.summary import markdown_table, summarize  # noqa: E402
from sim.games import get_game  # noqa: E402

GROUP = ["players", "lineup", "rules"]


class ChartSaver:
    """Saves figures as PNGs in the report folder and returns the Markdown that shows them."""

    def __init__(self, folder: Path, prefix: str):
        self.folder = folder
        self.prefix = prefix
        self.files: list[Path] = []

    def __call__(self, name: str, fig) -> str:
        path = self.folder / f"{self.prefix}_{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        self.files.append(path)
        return f"![{name}]({path.name})"


def headline_chart(game, rows: list[dict], chart: ChartSaver) -> str:
    """Headline rate per configuration with its interval, as horizontal error bars."""
    head = [r for r in rows if r["headline"]]
    if not head:
        return ""
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(head)))
    labels = [f"{r['players']}p {r['lineup']} {r['rules'][:6]}" for r in head]
    values = [r["estimate"].value for r in head]
    ax.errorbar(values, range(len(head)), xerr=error_bars([r["estimate"] for r in head]), fmt="o", capsize=4)
    ax.set_yticks(range(len(head)), labels, fontsize=8)
    ax.set_xlabel(f"{head[0]['label']} (95% CI)")
    ax.set_title(f"{game.title}: headline")
    ax.grid(axis="x", alpha=0.3)
    return chart("headline", fig)


def strategy_section(game, rows: list[dict]) -> list[str]:
    """Whether each headline figure is the game's or its strategies': its spread over the lineups played
    with the same rules and player count."""
    default = lineup_label(game.lineup("default"))
    lines = []
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        if r["headline"]:
            groups.setdefault((r["players"], r["rules"], r["outcome"]), []).append(r)
    for (players, _, _), group in sorted(groups.items(), key=lambda kv: kv[0][:1]):
        if len(group) < 2:
            continue
        low = min(group, key=lambda r: r["estimate"].value)
        high = max(group, key=lambda r: r["estimate"].value)
        pct = low["kind"] == "rate"
        apart = high["estimate"].lo > low["estimate"].hi
        verdict = ("so this figure depends on the strategies as much as on the rules: quote it with its lineup"
                   if apart else "the lineups agree within their intervals")
        lines.append(f"- {players} players, {low['label'] or low['outcome']}: from "
                     f"{low['estimate'].fmt(pct=pct, digits=1)} ({_who(low['lineup'], default)}) to "
                     f"{high['estimate'].fmt(pct=pct, digits=1)} ({_who(high['lineup'], default)}); {verdict}.")
    if not lines:
        return []
    return ["## Does the headline depend on the strategies?", "",
            "The headline under the weakest and the strongest lineups these runs played with the same rules.",
            "", *lines, ""]


def _who(lineup: str, default: str) -> str:
    return f"{lineup}, the default" if lineup == default else lineup


def sensitivity_findings(game_name: str, to: Path) -> list[str]:
    """The assumptions the headline rests on most, from a `dsim sensitivity` report in the same folder."""
    path = to / f"sensitivity_{game_name}.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return ["## What the assumed values change", "",
            f"From [the sensitivity report](sensitivity_{game_name}.md) ({data['players']} players, lineup "
            f"{data['lineup']}, {data['games_per_arm']:,} paired games per alternative):", "",
            *[f"- {line}" for line in data["findings"]], ""]


def readings_section(runs: list[dict]) -> list[str]:
    """The reading of every ambiguous rule the figures rest on (the other one is a flag to compare)."""
    by_key: dict[str, set[str]] = {}
    for r in runs:
        for key, text in r.get("readings", {}).items():
            by_key.setdefault(key, set()).add(text)
    if not by_key:
        return []
    lines = ["## Readings these figures rest on", "",
             "Where the rulebook can be read two ways, these runs used the reading below; `dsim games` names the "
             "other, and `dsim compare` measures what the choice changes.", ""]
    for key, texts in sorted(by_key.items()):
        lines.append(f"- `{key}`: {' / '.join(sorted(texts))}")
    return lines + [""]


def provenance_section(runs: list[dict]) -> str:
    lines = ["## Provenance", "", "| rules | players | lineup | seed | games | code | assumed values |", "|---|---|---|---|---|---|---|"]
    for r in runs:
        strategies = ", ".join(f"{role}={s['name']}" for role, s in r.get("strategies", {}).items())
        assumed = ", ".join(f"{k}={v}" for k, v in sorted(r.get("assumed", {}).items()))
        lines.append(f"| {r['rules_hash']} {'+'.join(r.get('variants', []))} | {r['players']} | {strategies} | "
                     f"{r['seed']} | {r['n']:,} | {r['code_version']} | {assumed} |")
    return "\n".join(lines)


def game_report(game_name: str, out: Path, to: Path) -> Path:
    game = get_game(game_name)
    lf = store.scan(out, game_name)
    rows = summarize(game, lf, GROUP)
    chart = ChartSaver(to, game_name)
    runs = [r for r in store.runs(out) if r["game"] == game_name]
    parts = [f"# {game.title}: balance report", "",
             "Every rate is shown with its 95% Wilson interval, every mean with its 95% t interval.", "",
             headline_chart(game, rows, chart), "", "## Outcomes", "", markdown_table(rows, GROUP), ""]
    extra = game.group_columns()
    if extra:
        parts += [f"## Outcomes by {', '.join(extra)}", "",
                  markdown_table(summarize(game, lf, GROUP + extra), GROUP + extra), ""]
    games = lf.collect()
    others = {name: store.scan(out, game_name, name) for name in store.tables(out)
              if name != "games" and game_name in store.games_in(out, name)}
    parts += strategy_section(game, rows)
    parts += sensitivity_findings(game_name, to)
    parts += calibration.section(game, games)
    parts += game.report_sections(games, to, chart, others)
    parts += coverage.exercised_section(games, runs)
    parts += readings_section(runs)
    parts += ["", provenance_section(runs), ""]
    path = to / f"{game_name}.md"
    path.write_text("\n".join(parts))
    (to / f"{game_name}.html").write_text(markdown_to_html("\n".join(parts), game.title))
    return path


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


def markdown_to_html(text: str, title: str) -> str:
    """Just enough Markdown (headings, tables, images, lists, paragraphs) for the reports."""
    body = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.fullmatch(r"\|(-+\|)+", lines[i].replace(" ", "")):
                    rows.append([html.escape(c.strip()) for c in lines[i].strip("|").split("|")])
                i += 1
            body.append("<table>" + "".join(
                "<tr>" + "".join(f"<{'th' if r == 0 else 'td'}>{c}</{'th' if r == 0 else 'td'}>" for c in row) + "</tr>"
                for r, row in enumerate(rows)) + "</table>")
            continue
        m = re.fullmatch(r"(#+) (.*)", line)
        img = re.fullmatch(r"!\[(.*)\]\((.*)\)", line.strip())
        if m:
            body.append(f"<h{len(m[1])}>{html.escape(m[2])}</h{len(m[1])}>")
        elif img:
            body.append(f'<img alt="{html.escape(img[1])}" src="{html.escape(img[2])}">')
        elif line.startswith("- "):
            body.append(f"<li>{html.escape(line[2:])}</li>")
        elif line.strip():
            body.append(f"<p>{html.escape(line)}</p>")
        i += 1
    style = "body{font-family:sans-serif;max-width:1000px;margin:auto}table{border-collapse:collapse}" \
            "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}img{max-width:100%}"
    return f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>" \
           f"<style>{style}</style></head><body>{''.join(body)}</body></html>"
