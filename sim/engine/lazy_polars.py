"""`pl`, polars imported on first use: a Dask worker that only plays games never imports it, which keeps about
24 MiB and a quarter of a second off each worker's start. The modules that build or read tables
(`sim.engine.game`, `store`, the games' outcome definitions) take `pl` from here."""

from __future__ import annotations

import importlib


class _Polars:
    def __getattr__(self, name: str):
        return getattr(importlib.import_module("polars"), name)

    def __repr__(self) -> str:
        return "<polars, imported on first use>"


pl = _Polars()
