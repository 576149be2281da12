"""sim.engine.dispatch: a kernel called through `call` runs the same compiled code as numba's own call, and a
tuple of strategy functions is typed once, not on every call."""

import numpy as np
from numba import njit, types

from sim.engine import dispatch

SIG = types.float64(types.float64)


@njit(SIG)
def double(x):
    return 2.0 * x


@njit(SIG)
def square(x):
    return x * x


@njit(types.void(types.float64[:], types.UniTuple(types.FunctionType(SIG), 2), types.float64[:]))
def apply(xs, fns, out):                # declared for any-layout arrays, called with C ones
    for i in range(len(xs)):
        out[i] = fns[0](xs[i]) + fns[1](xs[i])


def test_call_runs_the_compiled_kernel_and_types_a_function_tuple_once(monkeypatch):
    xs, fns = np.arange(4.0), (double, square)
    want, got = np.zeros(4), np.zeros(4)
    apply(xs, fns, want)
    typed = []
    real = dispatch.typeof
    monkeypatch.setattr(dispatch, "typeof", lambda v, p: typed.append(type(v)) or real(v, p))
    for _ in range(3):
        got[:] = 0.0
        dispatch.call(apply, xs, fns, got)
        np.testing.assert_array_equal(got, want)
    assert typed.count(tuple) == 1                              # the tuple once, the arrays every call
    assert dispatch._COMPILED[(id(apply), tuple(dispatch.arg_type(a) for a in (xs, fns, got)))] is not None
    dispatch.call(apply, xs, (square, double), got)             # another tuple: typed, and the same answer
    np.testing.assert_array_equal(got, want)
