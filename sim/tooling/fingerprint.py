"""Fingerprints of what dsim produces, to prove a refactoring changed nothing: `python -m sim.tooling.fingerprint
OUT.json [--compare BEFORE.json]`.

Everything is played through the `dsim` command line (in this process), so the script does not depend on where
the code lives. Recorded, each as a sha256:
- per game, the Parquet rows of a fixed-seed run (every table, rows sorted) for the default rules and for one
  variant, and the provenance of those runs without the code version;
- per game, the play-by-play of one game (`dsim replay`);
- per game, the balance report of a few runs chosen to reach the game's own report sections (Markdown, HTML,
  charts), and one report per design command (compare, sweep, tournament, optimize, tune, sensitivity, ablate,
  ladder, experiment) at a tiny n, with their data tables.
What legitimately varies is stripped first: the code version (git commit), seconds of wall clock, the temporary
folder, the checkout's folder, and the path of a source file a report names (the tune report points at the module of its method). `--compare` prints every key whose fingerprint differs and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("COLUMNS", "200")         # rich wraps replay lines to the terminal: one fixed width

N = 2000
SEED = 11
# (game, a variant other than the rules as given)
VARIANTS = {"dragonwake": "min_reveals", "drachensachen": "house_rules", "drakerion": "mulligan_shuffle_first",
            "drako": "free_placement", "drarkane": "treasures"}
# extra runs (besides the default one) that reach each game's own report sections
REPORT_RUNS = {
    "dragonwake": [["--players", "4"]],
    "drachensachen": [["--players", "3"]],
    "drakerion": [["--deck", "seat0=ember,seat1=tide"], ["--deck", "seat0=tide,seat1=ember"],
                  ["--deck", "ember", "--set", "vanilla_seat0=Cinder Scout"], ["--deck", "ember"]],
    "drako": [["--strategy", "dragon=kiter"]],
    "drarkane": [["--players", "1"]],
}
VERSION = re.compile(r"\d+\.\d+\.\d+\+[0-9a-f]{7,40}(\.dirty)?")
SECONDS = re.compile(r"\(\d+s\)")
CHECKOUT = Path(__file__).resolve().parents[2]      # provenance names the rules file by its path
SOURCE = re.compile(r"`sim/[a-z_/]+\.py`")     # a report naming the source file of its method


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def dsim(*args: str) -> str:
    """Run one `dsim` command in this process; its standard output. A failure stops the script."""
    from sim.cli.main import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main([str(a) for a in args])
    if code:
        raise SystemExit(f"dsim {' '.join(map(str, args))} exited {code}")
    return buf.getvalue()


def clean(text: str, tmp: Path) -> str:
    text = text.replace(str(tmp), "<tmp>").replace(str(CHECKOUT), "<checkout>")
    text = VERSION.sub("<version>", text)
    text = SOURCE.sub("`<source>`", text)
    return SECONDS.sub("(<s>)", text)


def rows(files: list[Path]) -> str:
    """The rows of Parquet files, as sorted CSV (the file's key-value metadata, the provenance, is not read)."""
    import polars as pl
    frame = pl.concat([pl.read_parquet(f) for f in files], how="diagonal_relaxed")
    schema = ";".join(f"{k}:{v}" for k, v in frame.schema.items())
    return schema + "\n" + frame.sort(frame.columns).write_csv()


def results(out: Path) -> dict[str, str]:
    """Every table under a results folder, by table and partition, plus the runs' provenance."""
    found = {}
    for table in sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if table.name == "runs":
            for run in sorted(table.rglob("run.json")):
                data = json.loads(run.read_text())
                data.pop("code_version", None)
                found[f"provenance/{run.parent.relative_to(table)}"] = sha(clean(json.dumps(data, sort_keys=True), out))
            continue
        for folder in sorted({p.parent for p in table.rglob("*.parquet")}):
            found[f"{table.name}/{folder.relative_to(table)}"] = sha(rows(sorted(folder.glob("*.parquet"))))
    return found


def report_files(folder: Path, tmp: Path) -> dict[str, str]:
    """Every file a report command wrote: text cleaned, Parquet by its rows, charts as bytes."""
    found = {}
    for f in sorted(folder.rglob("*")):
        if not f.is_file():
            continue
        if f.suffix in (".md", ".html", ".json"):
            found[f.name] = sha(clean(f.read_text(), tmp))
        elif f.suffix == ".parquet":
            found[f.name] = sha(rows([f]))
        else:
            found[f.name] = sha(f.read_bytes())
    return found


def games_part(tmp: Path) -> dict:
    out = {}
    for game, variant in VARIANTS.items():
        common = ["--game", game, "--n", N, "--seed", SEED, "--no-progress", "--format", "json"]
        for label, extra in (("default", []), (variant, ["--variant", variant])):
            folder = tmp / "runs" / f"{game}_{label}"
            dsim("run", *common, *extra, "--out", folder)
            out[f"parquet/{game}/{label}"] = results(folder)
        out[f"replay/{game}"] = sha(clean(dsim("replay", "--game", game, "--seed", 5, "--game-id", 3), tmp))
        folder = tmp / "reports" / game
        for extra in [[]] + REPORT_RUNS[game]:
            dsim("run", *common, "--n", 600, *extra, "--out", folder)
        dsim("report", "--out", folder, "--to", folder / "report")
        out[f"report/{game}"] = report_files(folder / "report", tmp)
    return out


def commands_part(tmp: Path) -> dict:
    out = {}
    base = ["--seed", SEED, "--format", "json"]
    commands = {
        "compare": ["compare", "--game", "dragonwake", "--variant", "base", "--variant", "min_reveals",
                    "--variant", "events", "--n", 1000],
        "compare_drako": ["compare", "--game", "drako", "--variant", "base", "--variant", "free_placement",
                          "--n", 500],
        "sweep": ["sweep", "--game", "dragonwake", "--param", "min_reveals=0:6:3", "--param", "players=4|5",
                  "--n", 500],
        "tournament": ["tournament", "--game", "dragonwake", "--strategies", "random,bayes,hero=honest/cultist=liar",
                       "--n", 400],
        "tournament_drako": ["tournament", "--game", "drako", "--strategies", "dragon=brawler/dwarves=coordinated,"
                             "dragon=kiter/dwarves=coordinated", "--n", 300],
        "optimize": ["optimize", "--game", "dragonwake", "--strategy", "bayes", "--role", "hero", "--n", 300,
                     "--iters", 1],
        "tune": ["tune", "--game", "dragonwake", "--param", "min_reveals=0:8", "--target", "hero_win=0.2",
                 "--n", 500, "--verify", 1000],
        "tune_two": ["tune", "--game", "drako", "--param", "dwarf_spaces[0]=3:9", "--param", "dwarf_spaces[1]=3:9",
                     "--target", "dragon_win=0.5", "--n", 200, "--verify", 400],
        "sensitivity": ["sensitivity", "--game", "dragonwake", "--n", 300],
        "sensitivity_drako": ["sensitivity", "--game", "drako", "--n", 200, "--only", "dwarf_spaces"],
        "ablate": ["ablate", "--game", "dragonwake", "--n", 300],
        "ablate_drarkane": ["ablate", "--game", "drarkane", "--n", 200, "--mode", "remove"],
        "ladder": ["ladder", "--game", "dragonwake", "--n", 1000, "--iters", 1],
    }
    for name, args in commands.items():
        folder = tmp / "cmd" / name
        json_out = json.loads(dsim(*args, *base, "--out", folder / "res", "--to", folder / "report"))
        out[f"{name}/stdout"] = sha(clean(json.dumps(json_out, sort_keys=True, default=str), tmp))
        out[f"{name}/report"] = report_files(folder / "report", tmp)
    # the game report reads the sensitivity and ladder findings written beside it
    folder = tmp / "cmd" / "design"
    dsim("run", "--game", "dragonwake", "--n", 500, "--seed", SEED, "--no-progress", "--format", "json",
         "--out", folder / "res")
    dsim("sensitivity", "--game", "dragonwake", "--n", 200, "--only", "kth_reveal_dragon_wakes", "--format", "json",
         "--out", folder / "sens", "--to", folder / "res" / "report")
    dsim("ladder", "--game", "dragonwake", "--n", 500, "--iters", 1, "--format", "json",
         "--out", folder / "sens", "--to", folder / "res" / "report")
    dsim("report", "--out", folder / "res", "--to", folder / "res" / "report")
    out["design_caveats/report"] = report_files(folder / "res" / "report", tmp)
    # an experiment spec with a title (the report's question line is rewritten)
    spec = tmp / "exp" / "fp_compare.toml"
    spec.parent.mkdir(parents=True)
    spec.write_text('[experiment]\nkind = "compare"\ngame = "drachensachen"\ntitle = "Fingerprint"\nn = 500\n'
                    'seed = 3\nvariants = ["base", "house_rules"]\n')
    dsim("experiment", spec, "--results", tmp / "exp" / "res", "--to", tmp / "exp" / "report")
    out["experiment/report"] = report_files(tmp / "exp" / "report", tmp)
    spec = tmp / "exp" / "fp_run.toml"
    spec.write_text('[experiment]\nkind = "run"\ngame = "drarkane"\nn = 400\nseed = 3\nplayers = [3, 4]\n'
                    'strategies = ["seeker", "random"]\n')
    dsim("experiment", spec, "--results", tmp / "exp" / "res2", "--to", tmp / "exp" / "report2")
    out["experiment_run/report"] = report_files(tmp / "exp" / "report2", tmp)
    return out


def flatten(data: dict, prefix: str = "") -> dict[str, str]:
    flat = {}
    for k, v in data.items():
        if isinstance(v, dict):
            flat.update(flatten(v, f"{prefix}{k}/"))
        else:
            flat[prefix + k] = v
    return flat


def compare(now: dict, before: dict) -> int:
    a, b = flatten(before), flatten(now)
    diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    for k in diff:
        print(f"differs: {k} ({'missing before' if k not in a else 'missing now' if k not in b else 'changed'})")
    print(f"{len(a)} fingerprints before, {len(b)} now, {len(diff)} differ")
    return 1 if diff else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where to write the fingerprints (JSON)")
    ap.add_argument("--compare", type=Path, help="fingerprints recorded before: list what differs")
    ap.add_argument("--keep", type=Path, help="play into this folder and keep it (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = (args.keep or Path(scratch)).resolve()
        tmp.mkdir(parents=True, exist_ok=True)
        cwd = os.getcwd()
        os.chdir(tmp)                   # reports name paths relative to here
        try:
            data = {"games": games_part(tmp), "commands": commands_part(tmp)}
        finally:
            os.chdir(cwd)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(flatten(data))} fingerprints)")
    if args.compare:
        sys.exit(compare(data, json.loads(args.compare.read_text())))


if __name__ == "__main__":
    main()
