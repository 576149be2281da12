"""What a report says about the rules a run exercised (`sim.analysis.coverage` reads the `fired_<name>`
counters): the table of how often each fired, and the warning when a compared rule never applied."""

from __future__ import annotations

import polars as pl

from sim.analysis.coverage import counter_names, exercised
from sim.report import layout
from sim.report.labels import names_words, rule_words
from sim.report.numbers import mean_digits


def silent_warning(variant: str, keys: list[str], n: int, ruleset=None) -> str:
    names = ", ".join(rule_words(k, ruleset) for k in keys)
    return (f"**Warning: {names}, which {variant} changes, never applied in {n:,} games** (the situation it "
            "decides never arose under these strategies and seeds), so this comparison tested nothing about it.")


def share_text(share: float) -> str:
    """A share of games in % with one decimal; a rare rule that did apply is not rounded to 0.0%."""
    return f"{100 * share:.1f}%" if share == 0 or share >= 0.0005 else "under 0.1%"


def per_game(times: float) -> str:
    """Times a rule applied per game, as every mean reads (`mean_digits`)."""
    return f"{times:.{mean_digits(times)}f}"


def exercised_section(games: pl.DataFrame, runs: list[dict], gates: dict[str, str] | None = None) -> list[str]:
    """Report section: how often each counted rule fired, with the ones that never did named first."""
    if not counter_names(games):
        return []
    rows, never, off = exercised(games, runs, gates)
    lines = ["## Rules exercised", "",
             "How often each counted rule, card effect and variant rule applied (a rule turned on by a variant is "
             "counted only in the runs where it was on).", ""]
    if never:
        lines += [f"**Never applied in these games: {names_words(never)}.** No figure here says anything about "
                  "them.", ""]
    if off:
        lines += [f"Off in every run here: {names_words(off)}.", ""]
    table = ["| rule or effect | games where it applied | times per game |", "|---|---|---|"]
    for f in sorted(rows, key=lambda f: f.share):
        table.append(f"| {rule_words(f.name)} | {share_text(f.share)} of {f.n:,} | {per_game(f.times / f.n)} |")
    return lines + layout.fold(f"All {len(rows)} counted rules, the rarest first", table, len(rows)) + [""]
