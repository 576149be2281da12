"""Markdown building blocks that keep every report inside the page: a table with more columns than fit at 1280
px is split into several that repeat its first column, and a long table or section is folded under a line that
says what it holds (`<details>`, which the HTML twin renders as a fold and Markdown viewers show as is)."""

from __future__ import annotations

MAX_COLUMNS = 7     # never more, the first column included: the most that fit 60rem of text at 1280 px
COLUMNS = 6         # what a table is split to by default: "54.0% [52.2, 55.8]" then fits on one line
FOLD_ROWS = 15      # longer tables are folded (the findings above them say what they hold)


def table(head: list[str], rows: list[list[str]], max_columns: int = COLUMNS) -> list[str]:
    """A Markdown table; with more than `max_columns` columns, several tables, each repeating the first column
    (the row's name) and a share of the others, separated by a blank line."""
    per = max(1, min(max_columns, MAX_COLUMNS) - 1)
    rest = list(range(1, len(head)))
    chunks = [rest[i:i + per] for i in range(0, len(rest), per)] or [[]]
    # share the columns out evenly: 8 columns over two tables as 4 + 4, not 6 + 2
    if len(chunks) > 1:
        size = -(-len(rest) // len(chunks))
        chunks = [rest[i:i + size] for i in range(0, len(rest), size)]
    lines: list[str] = []
    for chunk in chunks:
        cols = [0, *chunk]
        if lines:
            lines.append("")
        lines += ["| " + " | ".join(head[c] for c in cols) + " |", "|" + "---|" * len(cols)]
        lines += ["| " + " | ".join(row[c] if c < len(row) else "" for c in cols) + " |" for row in rows]
    return lines


def fold(summary: str, lines: list[str], rows: int | None = None, limit: int = FOLD_ROWS) -> list[str]:
    """`lines` folded under `summary` when they hold more than `limit` rows (None: always folded)."""
    if rows is not None and rows <= limit:
        return lines
    return ["<details>", f"<summary>{summary}</summary>", "", *lines, "", "</details>", ""]
