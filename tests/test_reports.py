"""Every game's report, from a small run, reads as a balance report: findings first, no rules hashes or lineup
codes in its tables or chart labels (only in the provenance appendix), and one self-contained HTML file."""

import re

import pytest

from sim.cli.common import build_spec
from sim.core import report, runner
from sim.games import game_names, get_game


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
