"""The shared machinery of #13: rule flags in a rules file, rule counters in reports and comparisons,
and calibration verdicts."""

import polars as pl
import pytest

from sim.analysis import calibration, coverage
from sim.analysis.stats import Estimate
from sim.engine.errors import RulesError
from sim.engine.rules import load_ruleset
from sim.games import get_game
from sim.report.coverage import exercised_section, silent_warning

FLAGGED = """
[meta]
game = "drako"
[rules.order]
value = "first"
source = "assumed"
reading = "the first one decides"
other = "the last one decides"
other_value = "last"
[rules.quick]
value = false
source = "assumed"
reading = "not quick"
other = "quick"
[rules.plain]
value = 3
source = "rulebook"
"""


def test_a_flag_names_both_readings_and_provenance_says_which_is_in_effect(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(FLAGGED)
    rules = load_ruleset(path, "drako")
    flags = rules.flags()
    assert set(flags) == {"order", "quick"}
    assert flags["quick"].other_value is True and flags["order"].other_value == "last"
    assert rules.readings() == {"order": "the first one decides", "quick": "not quick"}
    other = rules.with_overrides({"order": "last"})
    assert other.readings()["order"] == "the last one decides"
    assert other.provenance()["readings"]["order"] == "the last one decides"


@pytest.mark.parametrize("leaf, message", [
    ('value = false\nreading = "one"', "needs both"),
    ('value = "first"\nreading = "one"\nother = "two"', "needs 'other_value'"),
    ('value = "first"\nreading = "one"\nother = "two"\nother_value = "first"', "equal to its value"),
    ('value = "first"\nreading = "one"\nother = "two"\nother_value = 3', "must be like"),
])
def test_malformed_flags_are_refused(tmp_path, leaf, message):
    path = tmp_path / "r.toml"
    path.write_text(f'[meta]\ngame = "drako"\n[rules.order]\nsource = "assumed"\n{leaf}\n')
    with pytest.raises(RulesError, match=message):
        load_ruleset(path, "drako")


def test_a_compared_rule_that_never_fired_is_named():
    game = get_game("drachensachen")
    base = game.load_rules()
    on = game.load_rules(sets=[("house_protecto", True)])
    assert coverage.changed_rules(base, on) == ["house_protecto"]
    quiet = pl.DataFrame({"fired_house_protecto": [0, 0, 0]})
    busy = pl.DataFrame({"fired_house_protecto": [0, 2, 0]})
    assert coverage.silent_rules(base, on, [quiet, quiet]) == ["house_protecto"]
    assert coverage.silent_rules(base, on, [quiet, busy]) == []
    assert coverage.silent_rules(base, base, [quiet, quiet]) == []        # nothing changed, nothing to warn about
    assert "never applied in 3 games" in silent_warning("house_protecto", ["house_protecto"], 3)


def test_the_exercised_section_skips_runs_where_a_rule_was_off():
    games = pl.DataFrame({"rules": ["a", "a", "b", "b"], "fired_card": [1, 0, 0, 0],
                          "fired_rule": [0, 0, 0, 0], "fired_never": [0, 0, 0, 0]})
    runs = [{"rules_hash": "a", "values": {"rule": {"value": False}}},
            {"rules_hash": "b", "values": {"rule": {"value": True}}}]
    text = "\n".join(exercised_section(games, runs))
    assert "Never applied in these games: rule, never." in text
    assert "| card | 25.0% of 4 | 0.2 |" in text                 # a mean, read as every mean is
    assert "| rule | 0.0% of 2 | 0.0 |" in text          # looked at only in run b, where it was on
    games = games.with_columns(pl.lit(0).alias("fired_rule"))
    runs[1]["values"]["rule"]["value"] = False
    assert "Off in every run here: rule." in "\n".join(exercised_section(games, runs))


def test_rules_that_never_applied_are_named_in_words_not_keys():
    games = pl.DataFrame({"rules": ["a"] * 2, "fired_half_terror_rounding": [0, 0], "fired_team_trick_swap": [0, 1],
                          **{f"fired_objective_{k:02d}": [0, 0] for k in range(20)}})
    text = "\n".join(exercised_section(games, [{"rules_hash": "a", "values": {}}]))
    assert "Never applied in these games: half terror rounding, objectives 00 to 19." in text
    assert "| team trick swap | 50.0% of 2 |" in text and "_" not in text.split("| rule or effect")[0]
    drako = get_game("drako").load_rules().ruleset
    warning = silent_warning("short_fury", ["dwarf_spaces[0]", "dwarf_reveal"], 3, drako)
    assert f"**Warning: dwarf spaces of the {drako.entries['dwarf_spaces'].items[0]}, dwarf reveal, which" in warning
    assert "dwarf spaces, value 2" in silent_warning("v", ["dwarf_spaces[1]"], 3)        # no rules: by position


@pytest.mark.parametrize("lo, hi, low, high, expected", [
    (0.02, 0.08, None, 0.10, "holds"), (0.12, 0.20, None, 0.10, "fails"), (0.08, 0.12, None, 0.10, "unsettled"),
    (0.40, 0.45, 0.30, 0.50, "holds"), (0.20, 0.25, 0.30, 0.50, "fails"), (0.52, 0.60, 0.30, 0.50, "fails"),
])
def test_calibration_verdicts(lo, hi, low, high, expected):
    assert calibration.verdict(Estimate((lo + hi) / 2, lo, hi, 1000), low, high) == expected


def test_the_report_says_when_a_headline_depends_on_the_strategies():
    from sim.report.balance import strategy_caveats
    from sim.report.labels import Configs
    game = get_game("drako")
    configs = Configs(game, [])

    def row(lineup, lo, hi):
        return {"players": 2, "rules": "r", "outcome": "dragon_win", "label": "dragon wins", "kind": "rate",
                "headline": True, "lineup": lineup, "estimate": Estimate((lo + hi) / 2, lo, hi, 1000)}
    apart = " ".join(strategy_caveats(game, [row("random", 0.80, 0.85), row("x", 0.50, 0.55)], configs, ["lineup"]))
    assert "from 52.5% [50.0, 55.0] (x) to 82.5% [80.0, 85.0] (random) at 2 players" in apart
    assert "depends on the strategies" in apart
    assert strategy_caveats(game, [row("random", 0.50, 0.56), row("x", 0.52, 0.55)], configs, ["lineup"]) == []
    assert strategy_caveats(game, [row("random", 0.5, 0.6)], configs, ["lineup"]) == []


def test_calibration_under_search_names_each_changed_verdict():
    """Default games where the dragon kills all three dwarves in 60% (the claim, at most 15%, fails; so does "the
    dragon mostly wins by the clock", 40%); games where the dragon searches, 5% (both hold); games where the
    dwarves search, 70% (both still fail). Only the dragon's lineup changes verdicts, and the report says so in
    words and in the table; a lineup without a searching side is left out."""
    from sim.engine.strategy import lineup_label
    from sim.games.drako import records as R
    from sim.report.calibration import search_findings, search_section, searcher_words
    game = get_game("drako")
    rules = game.load_rules().hash
    default = lineup_label(game.lineup("default"))
    frames = []
    for lineup, slain in [(default, 0.6), ("dragon-search_dwarves-coordinated", 0.05),
                          ("dragon-brawler_dwarves-search(50)", 0.7), ("dragon-kiter_dwarves-rush", 0.05)]:
        n = 2000
        k = int(slain * n)
        end = [R.END_DWARVES_SLAIN] * k + [R.END_OUT_OF_CARDS] * (n - k)
        frames.append(pl.DataFrame({"rules": [rules] * n, "lineup": [lineup] * n, "players": [2] * n,
                                    "end": end, "dragon_win": [1] * n}))
    games = pl.concat(frames)
    default_checked = calibration.check(game, games)
    searched = calibration.under_search(game, games, default_checked)
    assert [u.lineup for u in searched] == ["dragon-brawler_dwarves-search(50)", "dragon-search_dwarves-coordinated"]
    assert default_checked[0].verdict == "fails"
    assert [(d.verdict, c.verdict) for d, c in searched[1].changed] == [("fails", "holds")] * 2
    assert searched[0].changed == []
    assert searcher_words(searched[0].lineup) == "the dwarves search (50 playouts)"
    assert searcher_words(searched[1].lineup) == "the dragon searches"
    assert searcher_words("seat0-search_seat1-value") == "seat 0 searches"
    assert searcher_words("search") == "every side searches"
    findings = search_findings(searched)
    assert len(findings) == 2 and findings[0].startswith("When the dragon searches, the rulebook claim \"the dragon "
                                                         "rarely kills all three dwarves\" holds (with the default "
                                                         "strategies it fails)")
    table = "\n".join(search_section(default_checked, searched))
    assert "| the dragon rarely kills all three dwarves | 2 | 60.0% [57.8, 62.1]: fails |" in table
    assert "5.0% [4.1, 6.0]: holds" in table


def test_a_lineup_is_named_by_the_seats_that_play():
    """A seat game stores a strategy for all six seats; at 4 players seats 4 and 5 sit out and are not named."""
    from sim.report.labels import lineup_text
    game = get_game("drachensachen")
    stored = {f"seat{k}": {"name": "search" if k == 0 else "weighted", "params": {}} for k in range(6)}
    four = lineup_text(game, stored, 4)
    assert four.startswith("seat 0 search") and four.endswith("seat 3 weighted") and "seat 4" not in four
    assert "seat 5 weighted" in lineup_text(game, stored)          # no player count: every stored seat
    assert lineup_text(game, {f"seat{k}": {"name": "weighted", "params": {}} for k in range(6)}, 4) == \
        "weighted at every seat"
