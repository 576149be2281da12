"""Numba helpers the games' kernels share for their traces (inlined where they are used)."""

from numba import njit


@njit(inline="always", cache=True, _nrt=False)
def put_row(table, r, values):
    """table[r, k] = values[k] for each value of the tuple `values` (the rest of the row is left as it is)."""
    for k in range(len(values)):
        table[r, k] = values[k]


@njit(inline="always", cache=True, _nrt=False)
def start_trace(w, g, n_traced, starts, tracing_at, row_at):
    """Before game g of a batch: mark in w[tracing_at] whether it is traced (the first n_traced games are) and,
    if so, note where its rows start (w[row_at], the next free row)."""
    w[tracing_at] = 1 if g < n_traced else 0
    if g < n_traced:
        starts[g] = w[row_at]
