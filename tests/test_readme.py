"""The README's example commands are commands dsim accepts: each `dsim ...` line of its code blocks is parsed by the
real CLI (every option name, every value's type and choices), without playing a game."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

from sim.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """Every indented `dsim` line of the README, its trailing comment dropped."""
    lines = (ROOT / "README.md").read_text().splitlines()
    found = [line.strip() for line in lines if re.match(r"\s{4}dsim ", line)]
    return [shlex.join(shlex.split(line, comments=True)) for line in found]


def test_the_readme_lists_its_examples():
    commands = readme_commands()
    assert len(commands) >= 25 and any(c.startswith("dsim balance") for c in commands)


@pytest.mark.parametrize("line", readme_commands())
def test_every_readme_example_parses(line):
    argv = shlex.split(line)[1:]
    cli._register(argv)
    group = typer.main.get_command(cli.app)
    words = argv[2:] if argv[0] == "--scheduler" else argv        # the one global option, and its value
    name, rest = words[0], words[1:]
    assert name in cli.COMMANDS, line
    with group.make_context("dsim", [name]) as ctx:
        group.get_command(ctx, name).make_context(name, rest, parent=ctx)   # raises on an unknown option or bad value
