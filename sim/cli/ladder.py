"""`dsim ladder`: a headline finding at rising skill (random, defaults, each side's best response)."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from sim.cli.common import (DeckOpt, deck_sets, GameOpt, NOpt, OutOpt, PlayersOpt, PluginOpt, RulesOpt, SeedOpt,
                            SetOpt, StrategyOpt, VariantOpt, build_spec)
from sim.core.ladder import ladder as run_ladder


def ladder(game: GameOpt = "dragonwake", n: NOpt = 50_000, players: PlayersOpt = None, strategy: StrategyOpt = None,
           variant: VariantOpt = None, seed: SeedOpt = 0, out: OutOpt = Path("results"), rules: RulesOpt = None,
           set_: SetOpt = None, deck: DeckOpt = None, plugin: PluginOpt = None,
           outcome: Annotated[Optional[str], typer.Option(help="the outcome the finding is about (default: the headline)")] = None,
           reference: Annotated[Optional[float], typer.Option(
               help="the value the finding is measured against, e.g. 0.5 or a fair share 0.25")] = None,
           iters: Annotated[int, typer.Option(help="differential-evolution generations per side")] = 4,
           format_: Annotated[str, typer.Option("--format", help="text or json (a summary for scripts)")] = "text",
           to: Annotated[Optional[Path], typer.Option("--to", help="report folder (default OUT/report)")] = None) -> None:
    """Play a finding at rising skill and say whether it holds, grows or vanishes."""
    set_ = deck_sets(game, deck, set_)
    spec = build_spec(game, n, players, strategy, variant, seed, rules, set_, plugin)
    path, steps, words = run_ladder(spec.game, spec, to or Path(out) / "report", outcome, reference, iters)
    if format_ == "json":
        print(json.dumps({"report": str(path), "finding": words, "levels": [
            {"level": s.name, "value": s.estimate.value, "lo": s.estimate.lo, "hi": s.estimate.hi} for s in steps]}))
        return
    text = path.read_text()
    Console().print(text[:text.index("\n| level")].rstrip() + f"\n\nreport: {path}", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
