"""The line-up a search player's informed playouts play (a search seat's `informed` = 1), for the games whose
kernels take one function per seat and decision and one parameter row per seat (Drarkane, Drachensachen)."""
from __future__ import annotations

import numpy as np


def informed_playouts(own: list, pfns: list[tuple], pparams: np.ndarray) -> tuple[list[tuple], np.ndarray]:
    """The informed playouts' functions (one tuple per decision, one function per seat) and parameters (a row per
    seat). `own[s]` is seat s's (functions, parameters) in the line-up, or None for a seat that searches or sits
    empty: it plays the playouts' default (pfns, pparams at that seat), so that a playout never searches (the
    searcher's own later moves included)."""
    width = max([pparams.shape[1]] + [len(mine[1]) for mine in own if mine is not None])
    params = np.zeros((len(own), width), np.float64)
    params[:, :pparams.shape[1]] = pparams[:len(own)]
    fns = [list(f) for f in pfns]
    for s, mine in enumerate(own):
        if mine is None:
            continue
        functions, row = mine
        params[s] = 0.0
        params[s, :len(row)] = row
        for d in range(len(fns)):
            fns[d][s] = functions[d]
    return [tuple(f) for f in fns], params
