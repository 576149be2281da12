"""What a report command prints: the report's findings and caveats, its first table as a compact rich table that
fits the terminal, and the path of the full report; or, with --format json, the same as JSON for scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sim.engine.errors import DsimError

FormatOpt = Annotated[str, typer.Option("--format", help="text (findings, a table and the report's path) or json")]
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
    text = path.read_text()
    parts = sections(text)
    title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), path.stem)
    return {"title": title, "findings": bullets(parts.get("Findings", [])),
            "caveats": bullets(parts.get("What these findings rest on", [])), "table": first_table(text),
            "report": str(path), "html": str(path.with_suffix(".html"))}


def show(path: Path, fmt: str = "text", extra: dict | None = None) -> None:
    data = {**summary(path), **(extra or {})}
    if fmt == "json":
        print(json.dumps(data, default=str))
        return
    console = Console()
    console.print(data["title"], style="bold", markup=False, highlight=False)
    for line in data["findings"]:
        console.print(f"• {line}", markup=False, highlight=False)
    if data["caveats"]:
        console.print("Rests on:", style="bold")
        for line in data["caveats"]:
            console.print(f"  – {line}", markup=False, highlight=False)
    rows = data["table"]
    if rows:
        table = Table(show_lines=False, pad_edge=False, expand=False)
        for i, head in enumerate(rows[0]):
            table.add_column(head, overflow="fold", justify="left" if i == 0 else "right")
        for row in rows[1:]:
            table.add_row(*row)
        console.print(table)
    console.print(f"report: {data['report']} (HTML: {data['html']})", markup=False, highlight=False)
