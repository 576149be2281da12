"""Built-in strategies, one module per game (see README.md to add your own)."""

import sim  # noqa: F401  (installs the cache stamp before any strategy compiles)
