"""`dsim balance`: tune a game's content (card costs and stats) toward a designer's target file, write the result
as a new named pool and report how close it got."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.analysis.autobalance import balance as run_balance, check as run_check
from sim.cli.common import (game_spec, GameOpt, JobsOpt, OutOpt, PluginOpt, RulesOpt, SeedOpt, SetOpt, StrategyOpt,
                            ToOpt, VariantOpt)
from sim.cli.output import FormatOpt, show
from sim.engine.spec import check_n
from sim.engine.errors import DsimError
from sim.report.autobalance import check_figures, check_terminal, figures, terminal_table, write, write_check


def balance(target: Annotated[Path, typer.Option(
                "--target", metavar="FILE", help="the target file (TOML): measures, their bands, what may change "
                "(docs/DRAKERION.md)")],
            pool_out: Annotated[Optional[str], typer.Option(
                "--pool-out", metavar="NAME", help="name of the new pool written (never over an existing one)")]
            = None,
            check: Annotated[bool, typer.Option(
                "--check", help="measure the pool as it is against the target: change and write no pool")] = False,
            game: GameOpt = "drakerion",
            n: Annotated[float, typer.Option(
                "--n", "-n", metavar="N", help="games per deck pairing for each pool tried (same seeds)")] = 2_000,
            steps: Annotated[int, typer.Option("--steps", metavar="K", help="most search steps")] = 5,
            verify: Annotated[Optional[float], typer.Option(
                "--verify", metavar="N", help="games per pairing on fresh seeds, before and after (default 2 x --n)")]
            = None,
            strategy: StrategyOpt = None, variant: VariantOpt = None, seed: SeedOpt = 0, jobs: JobsOpt = 1,
            out: OutOpt = Path("results"), rules: RulesOpt = None, set_: SetOpt = None, plugin: PluginOpt = None,
            format_: FormatOpt = "text", to: ToOpt = None) -> None:
    """Tune card costs and stats toward a target file.

    Every pool tried plays the same games; the first and the last are replayed
    on fresh seeds for the intervals. The result is a new named pool. With
    --check: the pool as it is, measured against the target."""
    if not check and not pool_out:
        raise DsimError("--pool-out NAME is needed to tune (or --check to measure the pool as it is)")
    spec, _ = game_spec(game, n, None, strategy, variant, seed, rules, set_, None, plugin, format_)
    if check:
        checked = run_check(spec.game, spec, target, jobs, strategy)
        show(write_check(checked, to or Path(out) / "report"), format_, check_figures(checked),
             check_terminal(checked), "Figures inside their band:")
        return
    verify_n = check_n(verify) if verify is not None else None
    result = run_balance(spec.game, spec, target, pool_out, steps, jobs, verify_n, strategy)
    show(write(result, to or Path(out) / "report"), format_, figures(result), terminal_table(result),
         "Figures inside their band, on fresh seeds:")


def register(app: typer.Typer) -> None:
    app.command("balance")(balance)
