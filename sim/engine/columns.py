"""A kernel's record array as a table's columns, each in its own type, with as few passes over memory as possible."""

from __future__ import annotations

import numpy as np

_ZEROS: dict[np.dtype, np.ndarray] = {}


def zeros(n: int, dtype) -> np.ndarray:
    """A read-only column of n zeros, shared by every zero column of its type (most fired counters of a batch):
    a fresh one per counter cost a memset of 4 bytes a game each once freed memory comes back from the heap
    (Dragonwake's 21 as much as copying the rest of its table); the shared one is written once per length."""
    dtype = np.dtype(dtype)
    z = _ZEROS.get(dtype)
    if z is None or len(z) < n:
        z = np.zeros(n, dtype)
        z.flags.writeable = False
        _ZEROS[dtype] = z
    return z[:n]


def table_columns(records: np.ndarray, types: list, unwritten=frozenset()) -> dict[str, np.ndarray]:
    """The columns of `records` (n games by one column per (name, dtype) of `types`, column-major) in their table
    types. The record's own type: a view. A narrower type: copied into one block per type (one allocation, in
    huge pages, rather than a page fault per 4 KiB of each column). A wider type: widened, unless the column is
    all zeros (a fired counter of a rule that is off). The columns named in `unwritten` were never written by the
    kernel (every value 0, the memory uninitialised); these and the all-zero wide ones are `zeros`."""
    n, size = len(records), records.itemsize
    columns = {name: zeros(n, t) for name, t in types if name in unwritten}
    types_left = [(i, name, np.dtype(t)) for i, (name, t) in enumerate(types) if name not in unwritten]
    for dtype in {t for _, _, t in types_left if t.itemsize < size}:
        narrow = [(i, name) for i, name, t in types_left if t == dtype]
        block = np.empty((len(narrow), n), dtype)
        for row, (i, name) in zip(block, narrow):
            np.copyto(row, records[:, i], casting="unsafe")
            columns[name] = row
    for i, name, t in types_left:
        if t.itemsize == size:
            columns[name] = records[:, i].astype(t, copy=False)
        elif t.itemsize > size:
            columns[name] = records[:, i].astype(t) if records[:, i].any() else zeros(n, t)
    return {name: columns[name] for name, _ in types}
