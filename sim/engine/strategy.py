"""Strategies: numba functions a game's kernel calls at its decision points, plus their parameters.

A game declares, in its `records.py`, one numba signature per decision point (e.g. Dragonwake's
`DECLARE_SIG` and `PICK_SIG`). A strategy is a tuple of functions compiled with exactly those
signatures (`@njit(SIG, cache=True)`), so the kernel takes them as first-class function arguments,
compiles once and stays in the disk cache whatever strategy is plugged in. Parameters are a float64
array, so they can be swept and optimised without recompiling anything.

The built-in strategies declare theirs with `njit_later`: the same compile, done when a strategy of the module is
first played rather than when the module is imported, so listing the games (`dsim games`) compiles nothing.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.engine.errors import DsimError
from sim.tooling import _numba_cache

# Strategies are first-class functions by design (see the module docstring); numba flags the feature.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


_COMPILING = threading.RLock()


def one_at_a_time(fn):
    """`fn` under one lock per process: chunks play on threads (sim.engine.runner), and two of them reaching a cold
    kernel together must not both compile it, nor one play it half-imported. numba compiles one function at a time
    anyway, so this waits for nothing that was not already waited for."""
    @functools.wraps(fn)
    def locked(*args, **kwargs):
        with _COMPILING:
            return fn(*args, **kwargs)
    return locked


_PENDING: dict[str, list] = {}        # module -> [(dispatcher, signature)], in the order they were defined


def njit_later(signature, **options):
    """`numba.njit(signature, **options)`, compiled by `compile_pending` (when the game's kernels are first
    asked for, `Game.kernels`, after every argument was checked) instead of at import: a cold numba cache takes
    up to a minute per game to compile them."""
    from numba import njit

    def decorate(fn):
        dispatcher = njit(**options)(fn)
        _PENDING.setdefault(fn.__module__, []).append((dispatcher, signature))
        return dispatcher
    return decorate


@one_at_a_time
def compile_pending(functions) -> None:
    """Compile the `njit_later` functions of the modules defining `functions`, every one of a module in the order
    written (as importing it with eager signatures would: one may call another), then fix each to its signature."""
    modules = {getattr(getattr(f, "py_func", f), "__module__", None) for f in functions}
    for module in [m for m in _PENDING if m in modules]:      # as imported: a callee's module first
        for dispatcher, signature in _PENDING.pop(module):
            _compile(module, dispatcher, signature)


@one_at_a_time
def compile_now(functions) -> None:
    """Compile these `njit_later` functions alone, in the order given (a callee before its callers), leaving the
    rest of their modules pending: a kernel's part that only some runs play (the search player's batch, an
    optional rules module) compiles when a run first plays it, not with the game."""
    for fn in functions:
        for module, pending in _PENDING.items():
            match = [entry for entry in pending if entry[0] is fn]
            if match:
                pending.remove(match[0])
                _compile(module, *match[0])
                break


@one_at_a_time
def compile_part(functions, part: str, exact: bool = False) -> None:
    """compile_pending (or, `exact`, compile_now) for a part of a game's kernels that only some runs play
    (`part`: "search", ...), said on stderr first when the cache does not hold it yet, as the kernels are."""
    waiting = {id(d) for entries in _PENDING.values() for d, _ in entries}
    todo = [f for f in functions if id(f) in waiting]
    if not todo:
        return
    game = _numba_cache.game_of(sys.modules[todo[0].py_func.__module__].__file__)
    if game:
        _numba_cache.announce(game, part)
    (compile_now if exact else compile_pending)(todo)
    if game:
        _numba_cache.mark_warm(game, part)


def pending_in(package: str) -> list:
    """The `njit_later` functions of `package`'s modules not compiled yet (what warming a cache compiles)."""
    return [d for module, entries in _PENDING.items() if module == package or module.startswith(package + ".")
            for d, _ in entries]


def _compile(module: str, dispatcher, signature) -> None:
    game = _numba_cache.game_of(sys.modules[module].__file__)
    if game:
        _numba_cache.announce(game)
    from numba.core import typeinfer
    with typeinfer.register_dispatcher(dispatcher):
        dispatcher.compile(signature)
    dispatcher.disable_compile()


@dataclass(frozen=True)
class Strategy:
    name: str
    roles: tuple[str, ...]          # roles/sides/seats this strategy may play
    functions: tuple                # one numba function per decision point, in the game's order
    description: str = ""
    param_names: tuple[str, ...] = ()
    defaults: tuple[float, ...] = ()
    bounds: tuple[tuple[float, float], ...] = ()   # search box for `dsim optimize`
    builtin: int = -1        # >= 0: the kernel may call these functions directly (no indirect call)

    def params(self, values=None) -> np.ndarray:
        """Parameter array: defaults, or `values` (a sequence or a name→value mapping) over them."""
        p = np.array(self.defaults, dtype=np.float64) if self.defaults else np.zeros(1)
        if values is None:
            return p
        if isinstance(values, dict):
            for k, v in values.items():
                if k not in self.param_names:
                    raise DsimError(f"strategy '{self.name}' has no parameter '{k}' "
                                    f"(has: {', '.join(self.param_names) or 'none'})")
                p[self.param_names.index(k)] = float(v)
            return p
        values = np.asarray(values, dtype=np.float64)
        if values.shape != p.shape:
            raise DsimError(f"strategy '{self.name}' takes {len(p)} parameters, got {len(values)}")
        return values.copy()


@dataclass
class StrategyRegistry:
    """Name → Strategy for one game; users add theirs with `register`."""

    game: str
    items: dict[str, Strategy] = field(default_factory=dict)

    def register(self, strategy: Strategy) -> Strategy:
        self.items[strategy.name] = strategy
        return strategy

    def get(self, name: str, role: str | None = None) -> Strategy:
        if name not in self.items:
            raise DsimError(f"unknown strategy '{name}' for {self.game} (known: {', '.join(sorted(self.items))})")
        s = self.items[name]
        if role is not None and role not in s.roles:
            raise DsimError(f"strategy '{name}' cannot play {role} in {self.game} (it plays: {', '.join(s.roles)})")
        return s

    def names(self, role: str | None = None) -> list[str]:
        return sorted(n for n, s in self.items.items() if role is None or role in s.roles)


@dataclass(frozen=True)
class Seat:
    """One role's strategy in a run, with its parameters."""

    strategy: Strategy
    params: np.ndarray

    def label(self) -> str:
        if np.array_equal(self.params, self.strategy.params()):
            return self.strategy.name
        return self.strategy.name + "(" + ",".join(f"{v:g}" for v in self.params) + ")"


Lineup = dict  # role -> Seat


def parse_lineup(text: str, roles: tuple[str, ...], registry: StrategyRegistry,
                 defaults: dict[str, str]) -> Lineup:
    """`random` (everyone) or `hero=bayes,cultist=liar`; roles not named get the game's default.

    A strategy's parameters can be given inline: `hero=bayes:trust=0.9:dragon_fear=2`.
    """
    text = (text or "").strip() or "default"
    spec: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if "=" in part.split(":")[0]:
            role, name = part.split("=", 1)
            role = role.strip()
            if role not in roles:
                raise DsimError(f"unknown role '{role}' for {registry.game} (roles: {', '.join(roles)})")
            spec[role] = name.strip()
        else:
            spec["*"] = part
    lineup = {}
    for role in roles:
        choice = spec.get(role) or spec.get("*") or "default"
        if choice == "default":
            choice = defaults.get(role, "random")
        name, *param_parts = choice.split(":")
        strategy = registry.get(name, role)
        overrides = {}
        for p in param_parts:
            if "=" not in p:
                raise DsimError(f"strategy parameter '{p}' should be name=value")
            k, v = p.split("=", 1)
            try:
                overrides[k] = float(v)
            except ValueError:
                raise DsimError(f"strategy parameter '{k}' needs a number, got '{v}'") from None
        lineup[role] = Seat(strategy, strategy.params(overrides))
    return lineup


MAX_LABEL = 160       # characters of a line-up's folder name (the file system allows 255 bytes)


def lineup_label(lineup: Lineup) -> str:
    """Compact, path-safe name of a lineup, e.g. `hero-bayes_cultist-liar`."""
    labels = {seat.label() for seat in lineup.values()}
    label = labels.pop() if len(labels) == 1 else "_".join(f"{role}-{seat.label()}" for role, seat in lineup.items())
    if len(label) <= MAX_LABEL:
        return label
    # tuned parameters at several seats run past a file name's 255 bytes: keep a readable head, and a hash of
    # the whole label so that two line-ups never share a folder
    digest = hashlib.sha256(label.encode()).hexdigest()[:16]
    return f"{label[:MAX_LABEL - 17]}~{digest}"


_LOADED: set[Path] = set()


def load_plugin(path: str) -> None:
    """Import a user's Python file that registers strategies (see strategies/README.md), once per process."""
    p = Path(path).resolve()
    if p in _LOADED:
        return
    if not p.is_file():
        raise DsimError(f"plugin file not found: {path}")
    if p.suffix != ".py":
        raise DsimError(f"plugin {path} is not a Python file (.py)")
    name = f"dsim_plugin_{p.stem}"
    spec = importlib.util.spec_from_file_location(name, p)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # a user's file: report, don't crash with a traceback
        raise DsimError(f"plugin {path} failed to load: {type(e).__name__}: {e}") from None
    _LOADED.add(p)
