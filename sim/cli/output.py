"""What a report command prints: the report's findings and caveats, its first table as a compact rich table that
fits the terminal, and the path of the full report; or, with --format json, its findings and its figures as
numbers and booleans for scripts (`sim.report.numbers`; the fields are listed in the README)."""

from __future__ import annotations

import json
import re
import textwrap
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich import box
from rich.table import Table

from sim.engine.errors import DsimError
from sim.report.numbers import plain as json_ready

FormatOpt = Annotated[str, typer.Option("--format", metavar="FORMAT", help="text (findings, a table and the report's path) or json")]
FORMATS = ("text", "json")


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise DsimError(f"--format must be text or json, got '{fmt}'")
    return fmt


def sections(markdown: str) -> dict[str, list[str]]:
    """The report's level-2 sections (and the title under ''), as lists of lines."""
    out: dict[str, list[str]] = {"": []}
    current = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        else:
            out.setdefault(current, []).append(line)
    return out


def bullets(lines: list[str]) -> list[str]:
    return [plain(line[2:]) for line in lines if line.startswith("- ")]


def plain(text: str) -> str:
    """Markdown emphasis, code and links as plain text."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    return re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)


def first_table(markdown: str) -> list[list[str]]:
    rows = []
    for line in markdown.splitlines():
        if line.startswith("|"):
            if not re.fullmatch(r"\|(:?-+:?\|)+", line.replace(" ", "")):
                rows.append([plain(c.strip()) for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows


def summary(path: Path) -> dict:
    """A written report's title, findings and caveats (sentences), and where it is."""
    text = path.read_text()
    parts = sections(text)
    title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), path.stem)
    return {"title": title, "findings": bullets(parts.get("Findings", [])),
            "caveats": bullets(parts.get("What these findings rest on", [])),
            "report": str(path), "html": str(path.with_suffix(".html"))}


def show(path: Path, fmt: str = "text", extra: dict | None = None, table: list[list[str]] | None = None,
         note: str = "") -> None:
    """Print a written report's title, findings, caveats and a table: its first one, or `table` (header first)
    under a `note`; with json, its summary and `extra` (the figures as numbers) instead."""
    data = {**summary(path), **(extra or {})}
    if fmt == "json":
        print(json.dumps(json_ready(data)))
        return
    console = Console()
    say = partial(console.print, markup=False, highlight=False)
    say(data["title"], style="bold")
    for line in data["findings"]:
        say(hanging("• ", line, console.width))
    if data["caveats"]:
        say("Rests on:", style="bold")
        for line in data["caveats"]:
            say(hanging("  – ", line, console.width))
    rows = first_table(path.read_text()) if table is None else table
    if rows:
        if note:
            say(hanging("", note, console.width))
        rows, left = fitting(rows, console.width)
        console.print(compact_table(rows, console.width))
        if left:
            say(hanging("", f"In the report, not shown here: {', '.join(left)}.", console.width))
    say(f"report: {data['report']}")
    say(f"HTML:   {data['html']}")


def hanging(mark: str, text: str, width: int) -> str:
    """A paragraph after a mark, wrapped to the width under its own first word (no trailing spaces)."""
    return textwrap.fill(text, width, initial_indent=mark, subsequent_indent=" " * len(mark),
                         break_on_hyphens=False)


def compact_table(rows: list[list[str]], width: int = 80) -> Table:
    """A header row and rows as a table with no vertical rules: the first column left-aligned words, wrapped to fit
    the width, the others right-aligned figures, each as wide as its figures and as much of its header as fits."""
    heads = rows[0][1:]
    widths = column_widths(rows, width) or [None] * len(heads)   # None: rich shares the line out, folding cells
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1), pad_edge=False, expand=False, show_edge=False)
    table.add_column(rows[0][0])
    for head, w in zip(heads, widths):
        table.add_column(head, justify="right", width=w, overflow="fold")
    for row in rows[1:]:
        table.add_row(*row)
    return table


def column_widths(rows: list[list[str]], width: int) -> list[int] | None:
    """Each figure column's width, its figures whole and as much of its header as fits (wider headings while the
    words keep room); None when the figures alone overflow the line."""
    heads = rows[0][1:]
    words = min(24, max(len(r[0]) for r in rows))
    for cap in (16, 12, 10):
        widths = [max([len(r[i]) for r in rows[1:]] + [len(w) for w in head.split()] + [min(len(head), cap)])
                  for i, head in enumerate(heads, 1)]
        if words + sum(widths) + 2 * len(widths) <= width:
            return widths
    return None


def fitting(rows: list[list[str]], width: int) -> tuple[list[list[str]], list[str]]:
    """The table's columns from the left that fit the line with whole figures (at least one figure column; the
    headline ones come first), and the headers of those left for the report."""
    keep = len(rows[0])
    while keep > 2 and column_widths([r[:keep] for r in rows], width) is None:
        keep -= 1
    return [r[:keep] for r in rows], rows[0][keep:]
