"""Make numba's disk cache notice edits in the modules a kernel inlines.

numba stamps a cached function with its own source file only. Our kernels inline code from other
modules (the game's records and strategies, `sim.engine.rng`), so an edit there could leave a stale
compiled kernel that disagrees with a clean clone. This adds a hash of those files to the stamp of every
function defined in a game's package or its strategies (a module, or a package of them): an edit
recompiles that game only.
It relies on numba's `CacheImpl._locator_classes`; if that ever changes, numba's default applies.
"""

import functools
import hashlib
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = tuple(ROOT / "sim" / "engine" / f for f in ("rng.py", "kernel_rows.py", "search.py"))

# LLVM's x86 "cmov converter" turns a conditional move inside a loop back into a branch when the move sits on
# the loop's critical path, assuming the branch will be predicted well. In our kernels the condition is a
# card or a random draw: a max over a hand, a strategy's pick. The branch goes either way at random, and the
# rewrite cost the Drarkane seeker a mispredicted branch per card. Off for every kernel (codegen only: the
# same games), and part of the cache stamp so a kernel compiled under the other setting is rebuilt.
CODEGEN_OPTIONS = ("-x86-cmov-converter=false",) if platform.machine().lower() in ("x86_64", "amd64") else ()


def game_of(py_file: str) -> str | None:
    """The game a project source file belongs to ('' for sim/engine), None for any other file."""
    path = Path(py_file).resolve()
    parts = path.relative_to(ROOT).parts if path.is_relative_to(ROOT) else ()
    if parts[:2] == ("sim", "games") and len(parts) == 4:
        return parts[2]
    if parts[:1] == ("strategies",) and len(parts) in (2, 3):      # strategies/<g>.py or strategies/<g>/*.py
        return path.stem if len(parts) == 2 else parts[1]
    if parts[:2] == ("sim", "engine"):
        return ""
    return None


def dependencies(game: str) -> list[Path]:
    if not game:
        return list(SHARED)
    files = list(SHARED) + sorted((ROOT / "sim" / "games" / game).glob("*.py"))
    return files + [ROOT / "strategies" / f"{game}.py"] + sorted((ROOT / "strategies" / game).glob("*.py"))


def stamp(game: str) -> str:
    """Hash of the game's dependency files, recomputed when one changes on disk."""
    keys = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in dependencies(game) if p.exists())
    return _hash(keys) + ",".join(CODEGEN_OPTIONS) + (CALLS if widens(game) else "")


@functools.lru_cache(maxsize=None)
def _hash(keys) -> str:
    h = hashlib.sha256()
    for path, _, _ in keys:
        h.update(path.encode())
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def set_codegen_options() -> None:
    """Pass CODEGEN_OPTIONS to LLVM (before any kernel is compiled; an unknown option would end the process,
    hence the check on the machine above)."""
    import llvmlite.binding as llvm
    for option in CODEGEN_OPTIONS:
        llvm.set_option("dsim", option)


# numba compiles a jitted function called from jitted code once per combination of the constant integers its
# callers pass: `add_row(opts, n, 0, -1, -1, -1)` and `add_row(opts, n, 1, -1, -1, -1)` were two compiles, and
# Drakerion's `add_row` 26, `emit` 20, `replayed` 15 (one per decision kind). Our functions are typed with plain
# integers instead, so each compiles once; LLVM still sees the constants where it inlines the call. Booleans keep
# their literal types: a literal flag lets numba drop a branch (and what it calls) before compiling it. Part of
# the stamp, so a kernel compiled under the other rule is rebuilt.
CALLS = ",int-args"


def plain(t):
    """An argument's type with its integer constants widened to their integer type (tuples included)."""
    from numba.core import types
    if isinstance(t, types.IntegerLiteral):
        return t.literal_type
    if isinstance(t, types.BaseTuple) and not isinstance(t, types.BaseNamedTuple):
        members = [plain(m) for m in t]
        return t if all(a is b for a, b in zip(members, t)) else types.BaseTuple.from_types(members)
    return t


# Drarkane's kernel keeps numba's rule: typed with plain integers it played 13-15% slower (which callee gains from
# its constants was not isolated) and compiled only 3 s faster, 49 s against 46 (measured in one run).
LITERAL_GAMES = frozenset({"drarkane"})


def widens(game: str | None) -> bool:
    """Whether calls to a game's functions ('' for sim/engine; None: not the project's) are typed widened."""
    return game is not None and game not in LITERAL_GAMES


@functools.lru_cache(maxsize=None)
def _ours(py_file: str) -> bool:
    return widens(game_of(py_file))


def widen_integer_arguments() -> None:
    """Type the calls between our jitted functions with plain integers (see CALLS)."""
    from numba.core import dispatcher
    original = dispatcher.Dispatcher.get_call_template
    if getattr(original, "dsim", False):
        return

    def get_call_template(self, args, kws):
        if _ours(getattr(getattr(self.py_func, "__code__", None), "co_filename", "")):
            args = tuple(plain(a) for a in args)
            kws = {k: plain(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template.dsim = True
    dispatcher.Dispatcher.get_call_template = get_call_template


def install() -> None:
    set_codegen_options()
    widen_integer_arguments()
    try:
        from numba.core import caching
        defaults = list(caching.CacheImpl._locator_classes)
        base = caching._CacheLocator
    except (ImportError, AttributeError):
        return
    if any(getattr(c, "dsim", False) for c in defaults):
        return

    class DependencyLocator(base):
        """numba's usual locator, with the game's dependency hash added to the freshness stamp."""
        dsim = True

        def __init__(self, inner, game):
            self._inner = inner
            self._game = game

        def ensure_cache_path(self):
            self._inner.ensure_cache_path()

        def get_cache_path(self):
            return self._inner.get_cache_path()

        def get_source_stamp(self):
            return (self._inner.get_source_stamp(), stamp(self._game))

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        @classmethod
        def from_function(cls, py_func, py_file):
            game = game_of(py_file)
            if game is None:
                return None
            for other in defaults:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, game)
            return None

    caching.CacheImpl._locator_classes = [DependencyLocator] + defaults


# ---- saying so before a long compile ----------------------------------------------------------------------
# Loading a game's compiled code from the cache takes a second; compiling it takes minutes and looks like a hang.
# numba can only tell which by trying, so a marker file beside the cache records that a game's code was compiled
# under the current stamp: no marker, and the game is about to compile. A cleared cache clears the marker with it.

# (game, part) -> seconds on one core: the kernels with the default line-up's strategies, and what a first searching
# run adds: `make bench`'s "Cold compile" table on this project's 2-core machine, nothing else running (29 November
# 2026, 4e765a2; Drakerion 197476f): the plain line-up's compile, and the searching line-up's less it. The solo
# game: `play_solo`'s own.
COMPILE_SECONDS = {("dragonwake", "kernels"): 20, ("dragonwake", "search"): 65, ("drako", "kernels"): 20,
                   ("drako", "search"): 10, ("drakerion", "kernels"): 60, ("drakerion", "search"): 22,
                   ("drarkane", "kernels"): 60, ("drarkane", "search"): 90, ("drachensachen", "kernels"): 25,
                   ("drachensachen", "search"): 30, ("drarkane", "solo"): 20}
PART_NAMES = {"kernels": "kernels", "search": "search player", "machine": "kernels for the advanced rules",
              "solo": "solo game"}
_ANNOUNCED: set[tuple[str, str]] = set()


def _marker(game: str, part: str = "kernels") -> Path:
    import numba
    root = Path(os.environ.get("NUMBA_CACHE_DIR") or ROOT / "sim" / "games" / game / "__pycache__")
    key = hashlib.sha256(f"{stamp(game)}|{numba.__version__}|{sys.version}".encode()).hexdigest()[:16]
    return root / "dsim-compiled" / (f"{game}-{key}" if part == "kernels" else f"{game}-{part}-{key}")


def is_warm(game: str, part: str = "kernels") -> bool:
    """Whether the cache holds this part of the game's code (its kernels and strategies, its search player) as
    it is on disk now."""
    return _marker(game, part).exists()


def mark_warm(game: str, part: str = "kernels") -> None:
    marker = _marker(game, part)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:            # a read-only cache: we will say so again next time, nothing worse
        pass


def announce(game: str, part: str = "kernels") -> None:
    """One line on stderr, once per process, before a part of a game's code is compiled rather than loaded."""
    if (game, part) in _ANNOUNCED or is_warm(game, part):
        return
    _ANNOUNCED.add((game, part))
    seconds = COMPILE_SECONDS.get((game, part), 120)
    span = f"{round(seconds / 60)} minute{'s' * (round(seconds / 60) != 1)}" if seconds >= 90 else f"{seconds} s"
    print(f"compiling the {game.capitalize()} {PART_NAMES.get(part, part)} (about {span}, once per machine)…",
          file=sys.stderr, flush=True)
