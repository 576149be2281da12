"""`dsim` entry point: registers one module per command; user errors become one line and exit 2."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer
from typer.exceptions import TyperException

from sim.engine import phases
from sim.engine.errors import DsimError, RunInterrupted

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo balance and strategy simulator for dragon card games.")


@app.callback()
def _global_options(scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="play chunks on a Dask cluster: the scheduler's address, or 'local' for a local "
        "cluster of --jobs processes (default: --jobs threads here; also read from DSIM_SCHEDULER)")] = None) -> None:
    if scheduler:
        os.environ["DSIM_SCHEDULER"] = scheduler


COMMANDS = ("games", "run", "report", "replay", "compare", "sweep", "tournament", "optimize", "experiment", "tune", "sensitivity", "ablate", "ladder", "equilibrium", "balance", "decks")


def _register(argv: list[str] | None) -> None:
    """Import the command asked for, or every command when none is named (help lists them all): one command's
    module, not all of their analysis and report libraries, makes `dsim games` start in a second."""
    import importlib
    wanted = _command(sys.argv[1:] if argv is None else argv)
    for name in COMMANDS:
        if wanted in COMMANDS and name != wanted:
            continue
        try:
            module = importlib.import_module(f"sim.cli.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"sim.cli.{name}":
                raise
            continue
        module.register(app)


def _command(argv: list[str]) -> str | None:
    """The first word that is not an option (nor the value of --scheduler, the one global option)."""
    words = iter(argv)
    for word in words:
        if word == "--scheduler":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def main(argv: list[str] | None = None) -> int:
    phases.begin()
    with phases.phase("import the command"):
        _register(argv)
    before = os.environ.get("DSIM_SCHEDULER")
    try:
        app(args=argv, standalone_mode=False)
    except RunInterrupted as e:
        print(f"dsim: {e}", file=sys.stderr)
        return _exit(130)
    except DsimError as e:
        print(f"dsim: error: {e}", file=sys.stderr)
        return _exit(2)
    except TyperException as e:      # bad usage: unknown option, wrong type
        print(f"dsim: error: {e.format_message()}", file=sys.stderr)
        return _exit(2)
    except typer.Exit as e:
        return _exit(e.exit_code)
    except typer.Abort:
        print("dsim: aborted", file=sys.stderr)
        return _exit(130)
    except KeyboardInterrupt:
        print("dsim: interrupted", file=sys.stderr)
        return _exit(130)
    except _polars_error() as e:    # results that do not read as this version expects
        print(f"dsim: error: cannot read the results: {str(e).splitlines()[0]}", file=sys.stderr)
        return _exit(2)
    except OSError as e:             # a file or folder we cannot read or write: one line, not a traceback
        where = f" ({e.filename})" if e.filename else ""
        print(f"dsim: error: {e.strerror or e}{where}", file=sys.stderr)
        return _exit(2)
    finally:                        # --scheduler holds for this call only
        if before is None:
            os.environ.pop("DSIM_SCHEDULER", None)
        else:
            os.environ["DSIM_SCHEDULER"] = before
    return _exit(0)


def _polars_error() -> type:
    import polars.exceptions
    return polars.exceptions.PolarsError


def _exit(code: int) -> int:
    if __name__ == "__main__" or sys.argv and sys.argv[0].endswith("dsim"):
        sys.exit(code)
    return code


if __name__ == "__main__":
    main()
