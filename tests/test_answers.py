"""The answer pages and the question table of reports/README.md are generated from the studies' files: the
committed text must be what the generator writes now, and every Markdown table must render as one table."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from sim.report import answers

REPORTS = Path(__file__).resolve().parents[1] / "reports"


def broken_tables(text: str) -> list[int]:
    """Line numbers where a table row starts a new block without a header and separator (a blank line inside a
    table, or a row with no header), or a table's rows differ in column count from its header."""
    lines, bad, columns = text.splitlines(), [], None
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            columns = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line)) - 1
        if columns is None:
            header_ok = i + 1 < len(lines) and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 1].strip())
            if not header_ok:
                bad.append(i + 1)
            columns = cells
        elif cells != columns:
            bad.append(i + 1)
    return bad


def test_committed_answers_are_what_the_studies_say():
    for q in answers.QUESTIONS:
        committed = (REPORTS / q.game / "answer.md").read_text()
        assert committed == answers.page(q, REPORTS) + "\n", f"{q.game}/answer.md: rerun python -m sim.report.answers"
    assert (REPORTS / "README.md").read_text() == answers.readme(REPORTS), "rerun python -m sim.report.answers"


def test_no_broken_tables_and_drako_answered_first():
    readme = (REPORTS / "README.md").read_text()
    root = REPORTS.parent
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted(REPORTS.rglob("*.md"))]:
        assert broken_tables(path.read_text()) == [], path
    rows = readme.split(answers.START)[1].split(answers.END)[0].strip().splitlines()
    assert rows[2].startswith("| [Drako: Does the dragon win too often?]")
    assert broken_tables("| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n") == [5]
    assert broken_tables("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n") == [3]


def test_the_answer_follows_the_study(tmp_path):
    """Move the study's bracket above a half and the verdict says so; give the game a tune at equilibrium and its
    setting becomes the row's change."""
    q = answers.QUESTIONS[0]
    root = tmp_path / "reports"
    shutil.copytree(REPORTS / q.game, root / q.game)
    shutil.copy(REPORTS / "README.md", root / "README.md")
    for other in answers.QUESTIONS[1:]:
        shutil.copytree(REPORTS / other.game, root / other.game)
    path = root / f"{q.equilibrium}.json"
    eq = json.loads(path.read_text())
    eq.update(bracket=[0.61, 0.72], equilibrium=[0.66, 0.64, 0.68], fresh_converged=False,
              search_gain={"dragon": [0.03, 0.01, 0.04]})
    path.write_text(json.dumps(eq))
    tune = {"best": {"dragon_deck[defense]": 3}, "note": "no whole value hits the target: it lies between 3 and 4",
            "settings": [{"setting": {"dragon_deck[defense]": 3}, "outcomes": [
                {"outcome": "equilibrium", "target": 50.0, "value": 51.2, "low": 40.1, "high": 60.3, "unit": "%",
                 "target_inside": True}]}]}
    (root / q.game / "tune_drako_equilibrium_dragon_deck_defense.json").write_text(json.dumps(tune))
    answers.write_all(root)
    page = (root / q.game / "answer.md").read_text()
    assert "**Above 50%, whichever way it settles.**" in page and "between 61.0% and 72.0%" in page
    assert "the search player for dragon +3.0 points [+1.0, +4.0]" in page
    assert "3 defense cards in the dragon deck (the rules have 8): between 40.1% and 60.3% at equilibrium (51.2%)" in page
    row = (root / "README.md").read_text().split(answers.START)[1].splitlines()[4]
    assert "**Above 50%" in row and "3 defense cards in the dragon deck" in row


def test_each_report_explains_the_words_it_uses():
    from sim.report.html import markdown_to_html
    page = markdown_to_html("The figure at equilibrium lies in its bracket.", "t")
    assert "Words used here" in page and "<dt>bracket</dt>" in page and "<dt>equilibrium</dt>" in page
    assert "<dt>playouts</dt>" not in page
    assert "Words used here" not in markdown_to_html("Nothing technical.", "t")


def test_a_band_names_the_settings_that_reach_it_with_their_figures():
    found = {"reference": "a=1, b=0", "at_reference": {"value": 18.2}, "reference_bracket": {"low": 1.7, "high": 35.7},
             "arms": [{"arm": "a=5, b=10", "at_equilibrium": {"value": 33.5}, "bracket": {"low": 18.6, "high": 51.2},
                       "change": {"value": 15.3, "low": -16.1, "high": 49.4, "verdict": "no change detected"}}],
             "band": {"low": 40.0, "high": 60.0, "reaches": {"a=1, b=0": "no", "a=5, b=10": "maybe"}}}
    text = answers.arms_text(found, "sweep.md")
    assert text.startswith("40–60%: no setting reaches it") and "`a=5, b=10` (33.5%, between 18.6% and 51.2%)" in text
    found["band"]["reaches"]["a=5, b=10"] = "yes"
    assert answers.arms_text(found, "sweep.md", short=True).startswith("40–60%: reached by `a=5, b=10` whichever")


FIGURE = re.compile(r"[−+-]?\d+(?:\.\d+)?%?(?:\s+points)?\s*"              # the figure, then its interval
                    r"([\[(][−+-]?\d+(?:\.\d+)?)%?,\s+([−+-]?\d+(?:\.\d+)?)%?([\])])")


def quoted_figures(text: str) -> list[tuple[str, str, str]]:
    """Every 'value [lo, hi]' in `text` (an open end, '(0, 2.4]' or '[−30.4, 0)', kept with its bracket): (the
    whole figure, its opening with lo, hi with its closing), signs as ASCII, '%' dropped in the brackets."""
    return [(m[0], m[1].replace("−", "-"), m[2].replace("−", "-") + m[3]) for m in FIGURE.finditer(text)]


def published() -> str:
    """Every published report's Markdown and JSON, figures normalised as `quoted_figures` reads them."""
    text = "\n".join(p.read_text() for p in sorted(REPORTS.rglob("*.md")) + sorted(REPORTS.rglob("*.json"))
                     if p.name not in ("README.md", "bench.md"))
    return re.sub(r"(\d)%(?=[,\]])", r"\1", text.replace("−", "-"))


RECORD_HEADINGS = ("Development record", "Worked example")


def outside_records(text: str) -> str:
    """`text` without the passages a doc marks as not a product answer: each heading (any level) whose title starts
    with one of RECORD_HEADINGS, and everything under it up to the next heading of the same or a higher level.
    Lines in fenced code blocks are never headings."""
    kept, skip_level, fenced = [], None, False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#{1,6})\s+(.*)", line)
        if heading:
            level = len(heading[1])
            if skip_level is not None and level <= skip_level:
                skip_level = None
            if skip_level is None and heading[2].startswith(RECORD_HEADINGS):
                skip_level = level
        if skip_level is None:
            kept.append(line)
    return "\n".join(kept)


def test_every_interval_the_indexes_and_docs_quote_is_in_a_published_report():
    """The hand-written rows of reports/README.md ("Every study"), the README and docs/*.md quote figures: each
    interval must appear, digit for digit, in a published report or its JSON, so a figure copied wrong or left
    behind by a rerun fails here. A doc keeps development measurements and worked examples of a method only under
    headings that say so ("Development record: ...", "Worked example: ..."), which are not checked."""
    reports = published()
    root = REPORTS.parent
    for page in (REPORTS / "README.md", root / "README.md", *sorted((root / "docs").glob("*.md"))):
        figures = quoted_figures(outside_records(page.read_text()))
        assert len(figures) > 0 or page.name != "README.md"
        missing = [whole for whole, lo, hi in figures if re.search(rf"{re.escape(lo)},\s+{re.escape(hi)}",
                                                                   reports) is None]
        assert not missing, f"{page.relative_to(root)} quotes figures no report holds: {missing}"


def test_the_interval_check_skips_development_records_and_worked_examples():
    doc = ("# Page\nkept 1.0% [0.5, 1.5]\n## Development record: tuning\nskipped 2.0% [1.5, 2.5]\n"
           "### Detail\nskipped 3.0% [2.5, 3.5]\n```\n# not a heading\n```\nskipped 4.0% [3.5, 4.5]\n"
           "## Next\nkept 5.0% [4.5, 5.5]\n### Worked example: a few games\nskipped 6.0% [5.5, 6.5]\n"
           "#### Worked example inside\n## Last\nkept 7.0% [6.5, 7.5]\n")
    assert [lo for _, lo, _ in quoted_figures(outside_records(doc))] == ["[0.5", "[4.5", "[6.5"]
    assert outside_records("## Development record: x\n1.0% [0.5, 1.5]\n") == ""


def test_the_figure_check_reads_intervals_as_reports_print_them():
    got = quoted_figures("won 8.5% [7.2%, 10.0%], moved −1.3 points [−1.6, −1.0] and 54.5% [54.3,\n54.7]; "
                         "+2.2 points (0, +2.4] and −29.7 points [−30.4, 0)")
    assert [(lo, hi) for _, lo, hi in got] == [("[7.2", "10.0]"), ("[-1.6", "-1.0]"), ("[54.3", "54.7]"),
                                               ("(0", "+2.4]"), ("[-30.4", "0)")]


def test_a_lever_that_cannot_reach_the_target_is_said_so_with_both_ends():
    def setting(v, value, lo, hi):
        return {"setting": {"dwarf_deck[defense]": v},
                "outcomes": [{"target": 50, "value": value, "low": lo, "high": hi, "target_inside": False}]}
    found = {"best": {"dwarf_deck[defense]": 20}, "range": {"dwarf_deck[defense]": [0.0, 20.0]}, "out_of_reach": True,
             "settings": [setting(0, 88.2, 79.1, 99.4), setting(20, 81.0, 70.2, 95.0)], "note": ""}
    text = answers.tune_text(found, "tune.md", game="drako")
    assert text.startswith("No setting of defense cards in the dwarf deck from 0 to 20 (the rules have 8) brings the "
                           "figure to 50%")
    assert "88.2% at 0 (between 79.1% and 99.4%); 81.0% at 20 (between 70.2% and 95.0%)" in text


def test_a_ladder_of_another_figure_gets_its_own_table():
    """Drachensachen's ladder measures who goes out first in a round, not seat 0's share of the wins: its rungs
    must not sit in the table of the equilibrium's figure."""
    q = next(q for q in answers.QUESTIONS if q.game == "drachensachen")
    page = answers.page(q, REPORTS)
    first, _, second = page.partition("measures another figure")
    assert second and "searches" not in first and "seat0 searches" in second
    assert "| the default strategies |" in first


def test_an_unsettled_bracket_across_the_band_reads_unknown_not_balanced(tmp_path):
    """A bracket that reaches both sides of the band is 'unknown' while best play is unsettled; the same interval
    from a settled study is 'not told apart'."""
    q = answers.QUESTIONS[0]
    (tmp_path / f"{q.equilibrium}.json").parent.mkdir(parents=True)
    path = tmp_path / f"{q.equilibrium}.json"
    base = {"equilibrium": [0.5, 0.47, 0.53], "bracket": [0.2, 0.8]}
    path.write_text(json.dumps({**base, "fresh_converged": False}))
    assert answers.verdict(q, tmp_path) == f"**Unknown: it could settle on either side of {answers.band_text(q)}.**"
    path.write_text(json.dumps({**base, "fresh_converged": True}))
    assert answers.verdict(q, tmp_path) == f"**Not told apart from {answers.band_text(q)}.**"


def test_an_ablation_at_equilibrium_lists_the_largest_change_first_in_the_mode_words():
    def arm(name, value, low, high, verdict):
        return {"arm": name, "change": {"value": value, "low": low, "high": high, "verdict": verdict}}
    found = {"arms": [arm("small", 3.04, -20.0, 30.0, "no change detected"), arm("big", -56.25, -92.4, -12.2, "down")]}
    text = answers.ablation_text(found, "ablate.md", "remove")
    assert text.startswith("What it rests on: 2 elements, each taken out and the game solved again: `big` -56.2 "
                           "points [-92.4, -12.2] (down); `small` +3.0 points [-20.0, +30.0]")
    assert text.endswith("[ablation at equilibrium](ablate.md)")
