"""One direction through the code: every import under `sim/` and `strategies/` goes down the layers, and no
two modules import each other, directly or round a longer loop.

    tooling                  benchmarks, compile warm-up, fingerprints (may import anything)
    cli                      one module per `dsim` command
    workflows                experiment specs: analysis and report in one call
    report                   Markdown, HTML and charts
    analysis                 methods that play games to answer a question; they return data
    games, strategies        the five games and their built-in strategies (one layer)
    engine                   rules, seeding, the Game and Strategy protocols, runner, store, resume
    (setup)                  `sim` itself and the numba cache hook it installs before any kernel compiles

Imports are read with `ast`, including those inside functions and under `if TYPE_CHECKING:`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("setup", "engine", "games", "analysis", "report", "workflows", "cli", "tooling")
SETUP = {"sim", "sim.tooling._numba_cache"}          # loaded before anything else, imports no other module
PREFIXES = (("sim.engine", "engine"), ("sim.games", "games"), ("strategies", "games"),
            ("sim.analysis", "analysis"), ("sim.report", "report"), ("sim.workflows", "workflows"),
            ("sim.cli", "cli"), ("sim.tooling", "tooling"))


def layer(module: str) -> str | None:
    if module in SETUP:
        return "setup"
    for prefix, name in PREFIXES:
        if module == prefix or module.startswith(prefix + "."):
            return name
    return None


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path, tops=("sim", "strategies")) -> dict[str, Path]:
    return {module_name(p, root): p for top in tops for p in sorted((root / top).rglob("*.py"))}


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The project modules a file imports, anywhere in it: `from a.b import c` counts as a.b.c when that is a
    module, else as a.b; relative imports are resolved against the file's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:          # `import a.b.c` of a non-module attribute: its module
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph(root: Path, tops=("sim", "strategies")) -> dict[str, set[str]]:
    mods = modules(root, tops)
    return {name: imports(path, name, set(mods)) for name, path in mods.items()}


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer by a lower one, and every module in no layer."""
    out = []
    for a, targets in sorted(edges.items()):
        la = layer(a)
        if la is None:
            out.append(f"{a} is in no layer")
            continue
        for b in sorted(targets):
            lb = layer(b)
            if lb is not None and LAYERS.index(lb) > LAYERS.index(la):
                out.append(f"{a} ({la}) imports {b} ({lb})")
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: every strongly connected group of two or more modules (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_every_import_goes_down_the_layers():
    assert upward(graph(ROOT)) == []


def test_no_import_cycles():
    assert cycles(graph(ROOT)) == []


def test_every_layer_is_a_package_that_says_what_it_may_import():
    for name in ("engine", "analysis", "report", "workflows", "tooling"):
        init = ROOT / "sim" / name / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and "import" in doc, f"sim/{name}/__init__.py should say what the layer holds and may import"


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checker_catches_an_upward_import_anywhere_in_a_file(tmp_path):
    root = write(tmp_path, {
        "sim/__init__.py": "", "sim/engine/__init__.py": "", "sim/report/__init__.py": "",
        "sim/report/html.py": "X = 1\n",
        "sim/engine/runner.py": "def f():\n    from sim.report.html import X\n    return X\n",
        "sim/engine/store.py": "from ..report import html\n",
        "strategies/__init__.py": "", "strategies/a.py": "from sim.engine import runner\n",
    })
    assert upward(graph(root)) == ["sim.engine.runner (engine) imports sim.report.html (report)",
                                   "sim.engine.store (engine) imports sim.report.html (report)"]


def test_the_checker_catches_a_cycle_and_a_relative_import(tmp_path):
    root = write(tmp_path, {
        "sim/__init__.py": "", "sim/engine/__init__.py": "",
        "sim/engine/a.py": "from . import b\n",
        "sim/engine/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sim.engine.c import C\n",
        "sim/engine/c.py": "import sim.engine.a\n",
        "sim/engine/d.py": "from sim.engine import a\n",
    })
    edges = graph(root, ("sim",))
    assert edges["sim.engine.a"] == {"sim.engine.b"}
    assert cycles(edges) == [["sim.engine.a", "sim.engine.b", "sim.engine.c"]]
    assert upward(edges) == []


@pytest.mark.parametrize("module,expected", [("sim", "setup"), ("sim.engine.runner", "engine"),
                                             ("strategies.drako", "games"), ("sim.cli.run", "cli"),
                                             ("sim.core.report", None)])
def test_layer_of_a_module(module, expected):
    assert layer(module) == expected
