"""A kernel's record array as a table's columns, each in its own type, with as few passes over memory as possible."""

from __future__ import annotations

import numpy as np


def table_columns(records: np.ndarray, types: list) -> dict[str, np.ndarray]:
    """The columns of `records` (n games by one column per (name, dtype) of `types`, column-major) in their table
    types. The record's own type: a view. A narrower type: copied into one block per type (one allocation, in
    huge pages, rather than a page fault per 4 KiB of each column). A wider type: widened, unless the column is
    all zeros (a fired counter of a rule that is off), then fresh zero pages, which cost no pass over memory."""
    n, size = len(records), records.itemsize
    columns = {}
    for dtype in {np.dtype(t) for _, t in types if np.dtype(t).itemsize < size}:
        narrow = [(i, name) for i, (name, t) in enumerate(types) if np.dtype(t) == dtype]
        block = np.empty((len(narrow), n), dtype)
        for row, (i, name) in zip(block, narrow):
            np.copyto(row, records[:, i], casting="unsafe")
            columns[name] = row
    for i, (name, t) in enumerate(types):
        if np.dtype(t).itemsize == size:
            columns[name] = records[:, i].astype(t, copy=False)
        elif np.dtype(t).itemsize > size:
            columns[name] = records[:, i].astype(t) if records[:, i].any() else np.zeros(n, t)
    return {name: columns[name] for name, _ in types}
