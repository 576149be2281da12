"""Tooling beside the product: benchmarks, the numba compile warm-up, fingerprints of outputs."""
