"""Calling a compiled kernel without numba typing its tuples of strategy functions again on every call.

numba types every argument of a call to a jitted function. For a tuple of first-class functions that means
unifying the functions' types (reading each one's Python signature) on every call: for Drachensachen's three
6-tuples about as long as the kernel takes for a few hundred games. An equilibrium study or an optimiser makes
thousands of such calls with the same few tuples. `call` works out a tuple's type once per tuple of functions
and goes straight to the compiled code for those argument types; a call numba has not compiled yet goes
through numba as usual (and compiles).
"""

from __future__ import annotations

from numba import typeof
from numba.core.dispatcher import Dispatcher
from numba.core.typing.typeof import Purpose

_TUPLES: dict[tuple[int, ...], tuple] = {}     # ids of a tuple's functions -> (the tuple, kept alive; its type)
_COMPILED: dict[tuple, object] = {}            # (kernel id, argument types) -> the compiled code numba would run


def arg_type(value):
    """numba's type for an argument, as its dispatcher would type it; a tuple of functions typed once."""
    if type(value) is tuple and value and all(isinstance(f, Dispatcher) for f in value):
        key = tuple(map(id, value))
        if key not in _TUPLES:
            _TUPLES[key] = (value, typeof(value, Purpose.argument))
        return _TUPLES[key][1]
    return typeof(value, Purpose.argument)


def compiled_for(kernel: Dispatcher, types: tuple):
    """The compiled overload numba calls for these argument types: the exact one, else the only one they
    convert to (a kernel declared for any-layout arrays, given C arrays); None when numba has to decide."""
    if types in kernel.overloads:
        return kernel.overloads[types]
    fits = [c for formal, c in kernel.overloads.items() if len(formal) == len(types) and
            all(kernel.typingctx.can_convert(a, f) is not None for a, f in zip(types, formal))]
    return fits[0] if len(fits) == 1 else None


def call(kernel: Dispatcher, *args):
    """kernel(*args), the same compiled code, without typing known tuples of functions again."""
    types = tuple(arg_type(a) for a in args)
    key = (id(kernel), types)
    if key not in _COMPILED:
        result = kernel(*args)                  # numba types, compiles if needed, and runs
        _COMPILED[key] = compiled_for(kernel, types)
        return result
    compiled = _COMPILED[key]
    return kernel(*args) if compiled is None else compiled.entry_point(*args)
