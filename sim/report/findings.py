"""Findings written from the data: each headline estimate with its interval and a verdict against its reference,
most important first; and the caveats a reader must know before quoting them."""

from __future__ import annotations

import math

from sim.analysis.stats import Estimate
from sim.engine.game import Outcome
from sim.report.labels import Configs
from sim.report.numbers import estimate_text

MANY = 5        # more configurations than this: one sentence with the range instead of one each


def fmt(est: Estimate, outcome: Outcome) -> str:
    return estimate_text(est, outcome.shows_percent())


def show(value: float, outcome: Outcome) -> str:
    return f"{100 * value:.1f}%" if outcome.shows_percent() else f"{value:.3g}"


def against(est: Estimate, ref: float | None, outcome: Outcome, players: int) -> tuple[str, float]:
    """The verdict against the reference in words, and how far off it is in interval half-widths."""
    if ref is None or math.isnan(est.lo):
        return "", 0.0
    what = f"a fair {show(ref, outcome)}" if outcome.reference == "fair" else show(ref, outcome)
    half = max(est.half_width(), 1e-12)
    if est.lo > ref:
        return f"above {what}", (est.value - ref) / half
    if est.hi < ref:
        return f"below {what}", (ref - est.value) / half
    return f"consistent with {what}", 0.0


def fill_headlines(game, rows: list[dict]) -> list[dict]:
    """The rows, with the headline flag also on, for each configuration that none of the game's headline outcomes
    applies to (Drarkane's solo games bid no contract), for the first rate that does apply: every configuration
    then has a figure to quote."""
    out = list(rows)
    configs = {(r["players"], r["rules"], r["lineup"]) for r in rows}
    quoted = {(r["players"], r["rules"], r["lineup"]) for r in rows if r["headline"]}
    rates = [o.name for o in game.outcomes() if o.kind == "rate" and not o.caveat]
    for key in configs - quoted:
        mine = {r["outcome"]: i for i, r in enumerate(rows) if (r["players"], r["rules"], r["lineup"]) == key}
        name = next((n for n in rates if n in mine), None)
        if name is not None:
            out[mine[name]] = {**rows[mine[name]], "headline": True}
    return out


def headline_findings(rows: list[dict], outcomes: dict[str, Outcome], configs: Configs, dims: list[str]) -> list[str]:
    """One sentence per headline outcome, ordered by how far it sits from its reference: over a few configurations
    with a reference, each configuration's figure and verdict (by player count); else the range."""
    scored = []
    for name in dict.fromkeys(r["outcome"] for r in rows if r["headline"]):
        o = outcomes[name]
        mine = [r for r in rows if r["outcome"] == name and r["headline"]]
        label = o.label or o.name
        if len(mine) > 1 and o.reference is None and len({r["estimate"].value for r in mine}) == 1:
            scored.append((0.0, f"{_cap(label)}: {show(mine[0]['estimate'].value, o)} in every one of the "
                                f"{len(mine)} configurations."))
            continue
        if len(mine) == 1:
            r = mine[0]
            verdict, score = against(r["estimate"], o.reference_at(r["players"]), o, r["players"])
            where = f" ({configs.text(r, dims)})" if dims else ""
            scored.append((score, f"{_cap(label)}: {fmt(r['estimate'], o)}{where}"
                                  + (f", {verdict}." if verdict else ".")))
            continue
        if len(mine) <= MANY and o.reference is not None:      # a verdict each, in one sentence
            parts, score = [], 0.0
            for r in mine:
                verdict, distance = against(r["estimate"], o.reference_at(r["players"]), o, r["players"])
                score = max(score, distance)
                parts.append(f"{fmt(r['estimate'], o)} at {configs.text(r, dims)}"
                             + (f", {verdict}" if verdict else ""))
            scored.append((score, f"{_cap(label)}: " + "; ".join(parts) + "."))
            continue
        low = min(mine, key=lambda r: r["estimate"].value)
        high = max(mine, key=lambda r: r["estimate"].value)
        verdicts = [against(r["estimate"], o.reference_at(r["players"]), o, r["players"])[0].split(" ")[0]
                    for r in mine]
        tally = ", ".join(f"{verdicts.count(v)} {v}" for v in ("above", "below", "consistent") if verdicts.count(v))
        spread = (f"ranges from {fmt(low['estimate'], o)} ({configs.text(low, dims)}) to "
                  f"{fmt(high['estimate'], o)} ({configs.text(high, dims)}) over {len(mine)} configurations"
                  + (f"; against its reference: {tally}." if tally else "."))
        default = next((r for r in mine if configs.is_default(r, dims)), None)
        if default is not None:      # the figure a designer quotes first, then how far the other setups move it
            verdict, _ = against(default["estimate"], o.reference_at(default["players"]), o, default["players"])
            text = (f"{_cap(label)}: {fmt(default['estimate'], o)} with the defaults ({configs.text(default, dims)})"
                    + (f", {verdict}" if verdict else "") + f"; it {spread}")
        else:
            text = f"{_cap(label)} {spread}"
        scored.append((max(against(r["estimate"], o.reference_at(r["players"]), o, r["players"])[1] for r in mine),
                       text))
    return [text for _, text in sorted(scored, key=lambda s: -s[0])]


def caveat_findings(rows: list[dict], outcomes: dict[str, Outcome], configs: Configs, dims: list[str]) -> list[str]:
    """Outcomes that should be zero (stalemates, strategy violations) and are not; a rare one as a count of games
    (a share would round to 0.0%)."""
    out = []
    for name in dict.fromkeys(r["outcome"] for r in rows):
        o = outcomes[name]
        if not o.caveat:
            continue
        bad = [r for r in rows if r["outcome"] == name and r["estimate"].value > 0]
        if bad:
            worst = max(bad, key=lambda r: r["estimate"].value)
            where = f" in {configs.text(worst, dims)}" if dims else ""
            e = worst["estimate"]
            figure = (f"{round(e.value * e.n):,} of {e.n:,} games" if o.kind == "rate" and e.value < 0.0005
                      else fmt(e, o))
            out.append(f"{_cap(o.label or o.name)}: up to {figure}{where} "
                       f"({len(bad)} of {sum(1 for r in rows if r['outcome'] == name)} configurations affected).")
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
