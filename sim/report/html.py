"""Markdown reports → one self-contained HTML file: charts embedded, no external assets, prints well.

Only the Markdown the reports write is supported: headings, tables, images, bullet lists, paragraphs, folds
(`<details>` and `<summary>` on lines of their own) and inline **bold**, `code` and [links](target). Tables wrap
their cells instead of running past the page; `sim.report.layout` keeps their columns few enough to fit.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from sim.report.glossary import glossary_html

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
     color:#222;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.3rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd}
h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.6rem 0;font-size:.85rem;max-width:100%}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
.num{text-align:right}th{background:#f3f3f3}
details{margin:.6rem 0}summary{cursor:pointer;color:#3a6fd8}
.glossary dt{font-weight:600}.glossary dd{margin:0 0 .4rem 1rem}
img{max-width:100%;height:auto;display:block;margin:.6rem 0}
code{background:#f4f4f4;padding:0 .2rem;border-radius:3px;font-size:.9em}
ul{padding-left:1.3rem}li{margin:.2rem 0}
.findings{background:#f6f9ff;border-left:4px solid #3a6fd8;padding:.4rem 1rem}
@media print{body{max-width:none;margin:0}h2{page-break-after:avoid}img{page-break-inside:avoid}
             a{color:inherit;text-decoration:none}}
"""


def inline(text: str) -> str:
    """Escape, then apply **bold**, `code` and [links](target)."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"(?<!\*)\*([^*]+)\*(?!\*)", r"<em>\1</em>", out)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", lambda m: f'<a href="{_link(m[2])}">{m[1]}</a>', out)


def _link(target: str) -> str:
    """Links between reports point at their HTML versions."""
    return target[:-3] + ".html" if target.endswith(".md") and "://" not in target else target


def image(alt: str, src: str, folder: Path | None) -> str:
    path = (folder / src) if folder else Path(src)
    if path.exists():
        data = base64.b64encode(path.read_bytes()).decode()
        src = f"data:image/png;base64,{data}"
    return f'<img alt="{html.escape(alt)}" src="{src}">'


FIGURE = re.compile(r"[+\-−]?(\d[\d,.]*|∞)(%| points)?( [\[(].*[\])])?( \*)?|–|—|n/a|")


def table_html(rows: list[list[str]]) -> str:
    """A table: columns of figures right-aligned (text left), and an interval kept on one line ("[52.2, 55.8]"
    never breaks inside), so that a narrow column wraps between a figure and its interval only."""
    width = max(len(r) for r in rows)
    figures = [all(FIGURE.fullmatch(r[c].strip()) for r in rows[1:] if c < len(r)) and c > 0 for c in range(width)]

    def cell(c: int, text: str, tag: str) -> str:
        html_text = inline(text)
        if figures[c] and tag == "td":
            html_text = re.sub(r"[\[(][^\])]*[\])]", lambda m: m[0].replace(" ", "&nbsp;"), html_text)
        return f"<{tag} class='num'>{html_text}</{tag}>" if figures[c] else f"<{tag}>{html_text}</{tag}>"
    head = "".join(cell(c, t, "th") for c, t in enumerate(rows[0]))
    body = "".join("<tr>" + "".join(cell(c, t, "td") for c, t in enumerate(r)) + "</tr>" for r in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def markdown_to_html(text: str, title: str, folder: Path | None = None) -> str:
    """The report as one HTML page; images found in `folder` are embedded as data URIs."""
    body: list[str] = []
    lines = text.splitlines()
    i = 0
    in_list = False
    while i < len(lines):
        line = lines[i]
        if in_list and not line.startswith("- "):
            body.append("</ul>")
            in_list = False
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.fullmatch(r"\|(:?-+:?\|)+", lines[i].replace(" ", "")):
                    rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            body.append(table_html(rows))
            continue
        heading = re.fullmatch(r"(#+) (.*)", line)
        img = re.fullmatch(r"!\[(.*)\]\((.*)\)", line.strip())
        summary = re.fullmatch(r"<summary>(.*)</summary>", line.strip())
        if line.strip() in ("<details>", "</details>"):
            body.append(line.strip())
        elif summary:
            body.append(f"<summary>{inline(summary[1])}</summary>")
        elif heading:
            body.append(f"<h{len(heading[1])}>{inline(heading[2])}</h{len(heading[1])}>")
        elif img:
            body.append(image(img[1], img[2], folder))
        elif line.startswith("- "):
            if not in_list:
                body.append("<ul>")
                in_list = True
            body.append(f"<li>{inline(line[2:])}</li>")
        elif line.strip():
            body.append(f"<p>{inline(line)}</p>")
        i += 1
    if in_list:
        body.append("</ul>")
    page = "\n".join(body)
    # the answer in a box: the findings' list (the paragraphs after it say how they were measured)
    start = page.find("<h2>Findings</h2>\n<ul>")
    if start != -1:
        end = page.index("</ul>", start) + len("</ul>")
        inner = page[start + len("<h2>Findings</h2>\n"):end]
        page = page[:start] + f'<h2>Findings</h2>\n<div class="findings">{inner}</div>' + page[end:]
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
            f"content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{page}\n{glossary_html(text)}\n</body></html>\n")


def write_report(folder: Path, stem: str, text: str, title: str) -> Path:
    """The Markdown and its self-contained HTML twin; returns the Markdown path."""
    path = folder / f"{stem}.md"
    path.write_text(text if text.endswith("\n") else text + "\n")
    (folder / f"{stem}.html").write_text(markdown_to_html(text, title, folder))
    return path
