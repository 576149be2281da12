"""Tooling beside the product: benchmarks (`bench`, `bench_design`, `bench_scale`: `make bench`), the compile
warm-up `make test` runs first (`warm`), the numba cache hook (`_numba_cache`, which `sim/__init__.py` installs
before any kernel compiles and which imports nothing of the project), and output fingerprints (`fingerprint`).
These modules may import any layer; nothing in the product imports them, except that hook."""
