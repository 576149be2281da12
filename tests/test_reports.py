"""Every game's report, from a small run, reads as a balance report: findings first, no rules hashes or lineup
codes in its tables or chart labels (only in the provenance appendix), one self-contained HTML file, and no table
wider than the page: configurations as rows, at most `layout.MAX_COLUMNS` columns, long tables folded."""

import re

import pytest

from sim.cli.common import build_spec
from sim.engine import runner
from sim.games import game_names, get_game
from sim.report import balance as report
from sim.report import layout
from sim.cli.main import main


def html_tables(html: str) -> list[list[int]]:
    """Each HTML table's cells per row."""
    return [[len(re.findall(r"<t[dh][ >]", row)) for row in re.findall(r"<tr>(.*?)</tr>", table)]
            for table in re.findall(r"<table>(.*?)</table>", html, re.S)]


def markdown_tables(text: str) -> list[list[int]]:
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line.strip().strip("|").count("|") + 1)
        elif current:
            tables.append(current)
            current = []
    return tables


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Two lineups of every game at its default player count, and their reports with every chart's words."""
    out = tmp_path_factory.mktemp("reports")
    texts: dict[str, list[str]] = {}
    original = report.ChartSaver.__call__

    def recording(saver, name, fig):
        link = original(saver, name, fig)
        texts.update(saver.texts)
        return link
    report.ChartSaver.__call__ = recording
    try:
        codes = {}
        for name in game_names():
            for lineup in (None, "random"):
                spec = build_spec(name, 1500, None, lineup, None, 4, None, None, None)
                runner.run(spec, out, progress=False)
                codes.setdefault(name, set()).update({spec.partition()["rules"], spec.partition()["lineup"]})
        paths = {p.stem: p for p in report.build(out, out / "report")}
    finally:
        report.ChartSaver.__call__ = original
    return paths, texts, codes


@pytest.mark.parametrize("name", game_names())
def test_a_report_opens_with_findings(reports, name):
    text = reports[0][name].read_text()
    first = text.split("\n## ")[1]
    assert first.startswith("Findings\n")
    assert re.search(r"^- .*\d%? \[-?\d", first, re.M), "no finding with an interval"


@pytest.mark.parametrize("name", game_names())
def test_no_hash_or_code_outside_the_appendix(reports, name):
    paths, texts, codes = reports
    body = paths[name].read_text().split("## Appendix: provenance")[0]
    hashes = {c for c in codes[name] if re.fullmatch(r"[0-9a-f]{12}", c)}
    lineups = {c for c in codes[name] if "-" in c or "(" in c}
    for line in body.splitlines():
        if line.startswith("|"):
            assert not any(h[:6] in line for h in hashes), line
            assert not any(code in line for code in lineups), line
    for chart, words in texts.items():
        if chart.startswith(name):
            assert not any(h[:6] in w for h in hashes for w in words), (chart, words)
            assert not any(code in w for code in lineups for w in words), (chart, words)


@pytest.mark.parametrize("name", game_names())
def test_the_html_is_one_self_contained_file(reports, name):
    html = reports[0][name].with_suffix(".html").read_text()
    assert "<h2>Findings</h2>" in html and html.count("<img") >= 1
    assert not re.search(r"""(src|href)=["'](?!data:|#|[\w-]+\.html)""", html), "an external asset"
    assert "<script" not in html and "<link" not in html


def test_a_finding_over_many_configurations_quotes_the_default_first():
    from sim.analysis.stats import Estimate
    from sim.report.findings import headline_findings
    from sim.report.labels import Configs
    game = get_game("dragonwake")
    strategies = {"hero": {"name": "bayes", "params": {}}, "cultist": {"name": "liar", "params": {}}}
    configs = Configs(game, [{"game": "dragonwake", "rules_hash": "abc", "variants": [], "values": {},
                              "strategies": strategies}])
    hero = next(o for o in game.outcomes() if o.name == "hero_win")
    rows = [{"outcome": "hero_win", "headline": True, "players": p, "rules": "abc", "lineup": "hero-bayes_cultist-liar",
             "estimate": Estimate(v, v - 0.01, v + 0.01, 1000)}
            for p, v in zip(range(4, 10), (0.30, 0.12, 0.20, 0.25, 0.05, 0.40))]
    (line,) = headline_findings(rows, {"hero_win": hero}, configs, ["players"])
    assert re.match(r".*: 12\.0% \[11\.0, 13\.0\] with the defaults \(5 players\).*ranges from 5\.0%.*"
                    r"\(8 players\) to 40\.0%.*\(9 players\) over 6 configurations", line), line
    rows = [r for r in rows if r["players"] != 5]
    (line,) = headline_findings(rows + rows[:1], {"hero_win": hero}, configs, ["players"])
    assert "defaults" not in line


def test_a_claim_failing_at_several_player_counts_is_named_once():
    """With this run's figures beside its range; the cause (traced on other runs, with their own figures) is
    left to the calibration section."""
    from types import SimpleNamespace as checked
    from sim.analysis.stats import Estimate
    from sim.report.balance import claim_caveats

    def claim(text, cause, verdict, value=None, low=None, high=None):
        est = None if value is None else Estimate(value, value - 0.01, value + 0.01, 1000)
        return checked(claim=checked(text=text, cause=cause, low=low, high=high), verdict=verdict, estimate=est,
                       kind="rate")
    claims = [claim(f"close to even ({n} players)", "a hero habit", "fails", v, 0.4, 0.6)
              for n, v in ((4, 0.12), (5, 0.09), (6, 0.11))]
    claims += [claim("rarely all die", "", "unsettled", 0.15, None, 0.15), claim("dragon first", "", "holds", 0.05)]
    assert claim_caveats(claims) == [
        "The rulebook's claim \"close to even\" fails at 4, 5 and 6 players here: measured 12.0% [11.0, 13.0], "
        "9.0% [8.0, 10.0] and 11.0% [10.0, 12.0] against 40% to 60% (the report's calibration section "
        "says why).",
        "The rulebook's claim \"rarely all die\" is unsettled here: measured 15.0% [14.0, 16.0] against at most 15%."]


def test_a_claim_about_a_mean_reads_its_figure_as_every_mean_does():
    """One decimal, as the outcome tables print the same quantity ("3.7 [3.5, 4.0]", not "3.700 [3.455, 3.962]")."""
    from types import SimpleNamespace as checked
    from sim.analysis.stats import Estimate
    from sim.report.balance import claim_caveats
    from sim.report.calibration import calibration_section

    c = checked(claim=checked(text="a game lasts about two rounds", cause="", low=1.0, high=3.0, players=4),
                verdict="fails", estimate=Estimate(3.7, 3.455, 3.962, 40), kind="mean")
    assert claim_caveats([c]) == ["The rulebook's claim \"a game lasts about two rounds\" fails here: measured "
                                  "3.7 [3.5, 4.0] against 1 to 3."]
    assert "| 4 | 1 to 3 | 3.7 [3.5, 4.0] | fails |" in "\n".join(calibration_section([c]))


def test_a_section_reads_a_mean_as_the_outcome_table_does():
    """Drako's wounds read "8.5 [8.4, 8.6]" in its own table as in the outcome table, not "8.49 [8.40, 8.57]"."""
    import polars as pl
    from sim.analysis.stats import Estimate
    from sim.engine.sections import Measure
    from sim.report.sections import shown

    assert shown(Measure("to the dragon", pl.col("x"), "mean"), Estimate(8.49, 8.40, 8.57, 2000)) == "8.5 [8.4, 8.6]"
    assert shown(Measure("net", pl.col("x"), "mean"), Estimate(0.012, 0.008, 0.016, 2000)) == "0.01 [0.01, 0.02]"
    assert shown(Measure("hit", pl.col("x")), Estimate(0.5, 0.49, 0.51, 2000)) == "50.0% [49.0, 51.0]"


def test_a_long_chart_title_or_axis_label_is_wrapped_inside_the_figure(tmp_path):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4))
    ax.barh(range(2), [1, 2])
    ax.set_yticks(range(2), ["dragon brawler_v1, dwarves coordinated_v1"] * 2)
    title = "dragon wins: above its reference in 10, below in 3 of 13 configurations"
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(title + ": alternative minus as given (change, paired 95% CI)")
    report.ChartSaver(tmp_path, "t")("wrap", fig)
    assert "\n" in ax.title.get_text() and ax.title.get_text().replace("\n", " ") == title
    assert "\n" in ax.get_xlabel()
    fig, ax = plt.subplots(figsize=(7.5, 4))
    ax.set_title("short", fontsize=10)
    report.ChartSaver(tmp_path, "t")("short", fig)
    assert ax.title.get_text() == "short"


def test_an_outcome_without_a_reference_over_a_few_configurations_is_one_sentence():
    """A verdict needs a reference; without one, a sentence per configuration repeats the table: one with the
    range instead, or one saying the value is the same everywhere."""
    from sim.analysis.stats import Estimate
    from sim.report.findings import headline_findings
    from sim.report.labels import Configs
    game = get_game("drachensachen")
    configs = Configs(game, [{"game": "drachensachen", "rules_hash": "abc", "variants": [], "values": {},
                              "strategies": {f"seat{i}": {"name": "weighted", "params": {}} for i in range(6)}}])
    outcomes = {o.name: o for o in game.outcomes()}

    def rows(name, values):
        return [{"outcome": name, "headline": True, "players": p, "rules": "abc", "lineup": "weighted",
                 "estimate": Estimate(v, v - 0.1 * (v > 0), v + 0.1, 1000)} for p, v in zip((2, 3, 4), values)]
    (line,) = headline_findings(rows("rounds", (4.8, 4.1, 3.6)), outcomes, configs, ["players"])
    assert "with the defaults (4 players)" in line and "over 3 configurations" in line, line
    (line,) = headline_findings(rows("stalemates", (0.0, 0.0, 0.0)), outcomes, configs, ["players"])
    assert line == "Rounds stopped by the turn cap, per 1,000 games: 0 in every one of the 3 configurations."
    (line,) = headline_findings(rows("seat0_win", (0.5, 0.33, 0.26)), outcomes, configs, ["players"])
    assert line.startswith("Seat 0 wins the game: 50.0% [40.0, 60.0] at 2 players, consistent with a fair 50.0%; ")
    assert line.count(" at ") == 3 and line.count("fair") == 3          # a verdict each, in one sentence


@pytest.mark.parametrize("name", game_names())
def test_no_table_is_wider_than_the_page(reports, name):
    """The width guarantee: no table (HTML or Markdown) has more than MAX_COLUMNS columns, so with cells that
    wrap it fits 60rem at 1280 px (checked in a headless browser when the reports were published); the outcomes
    are a table of configurations as rows."""
    md = reports[0][name]
    for table in markdown_tables(md.read_text()) + html_tables(md.with_suffix(".html").read_text()):
        assert max(table) <= layout.MAX_COLUMNS, table
    outcomes = md.read_text().split("## Outcomes\n")[1].split("\n## ")[0]
    assert "| configuration |" in outcomes


def test_a_long_table_is_folded_and_split_repeating_its_first_column():
    rows = [[f"row {i}", *[str(j) for j in range(9)]] for i in range(20)]
    lines = layout.table(["name", *[f"c{j}" for j in range(9)]], rows)
    heads = [line for line in lines if line.startswith("| name |")]
    assert len(heads) == 2 and all(h.count("|") - 1 <= layout.COLUMNS for h in heads)     # 9 columns: 5 + 4
    folded = layout.fold("20 rows", lines, len(rows))
    assert folded[:2] == ["<details>", "<summary>20 rows</summary>"] and "</details>" in folded
    from sim.report.html import markdown_to_html
    page = markdown_to_html("\n".join(folded), "t")
    assert "<details>" in page and "<summary>20 rows</summary>" in page and page.count("<table>") == 2


def test_drakerion_opens_with_the_strongest_deck_and_the_card_that_weighs_most(tmp_path):
    """Its answers sit in the findings at the top, from the same figures as the tables below; the faction chart
    is filled wherever a pairing was played."""
    out = tmp_path / "dk"
    for extra in (["--deck", "seat0=ember,seat1=tide"], ["--deck", "seat0=tide,seat1=ember"], ["--deck", "ember"],
                  ["--deck", "tide"], ["--deck", "ember", "--set", "vanilla_seat0=Flame Lancer"]):
        assert main(["run", "--game", "drakerion", "--n", "300", "--seed", "2", "--out", str(out), "--no-progress",
                     *extra]) == 0
    assert main(["report", "--out", str(out)]) == 0
    text = (out / "report" / "drakerion.md").read_text()
    findings = text.split("## Findings\n")[1].split("\n## ")[0]
    strongest = re.search(r"(?:Strongest deck over the field: |the highest, |to )\*\*(\w+)\*\*,? \(?(\d+\.\d% \[[\d.]+, [\d.]+\])",
                          findings)
    assert strongest and "Flame Lancer" in findings and "weighs most" in findings
    row = re.search(rf"^\| \*\*{strongest[1]}\*\* \|.* \| ([\d.]+% \[[\d.]+, [\d.]+\]) \|$", text, re.M)
    assert row and row[1] == strongest[2], "the finding and the table's field column disagree"
    assert (out / "report" / "drakerion_factions.png").exists()


def test_a_p_value_below_the_simulations_reach_is_not_printed_as_zero():
    """A max-|t| p comes from MAXT_DRAWS simulated draws: when none reaches the change, the p-value is below one
    in MAXT_DRAWS, and reports say so rather than "0"."""
    from sim.analysis.intervals_paired import MAXT_DRAWS
    from sim.report.labels import p_text
    assert p_text(0.0) == f"< {1 / MAXT_DRAWS:.0e}" == "< 5e-06"
    assert p_text(0.0312) == "0.0312" and p_text(0.0312, 2, relation=True) == "= 0.031"
    assert p_text(1.8e-17) == "1.8e-17"
