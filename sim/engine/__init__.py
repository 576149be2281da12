"""The engine: what every game plugs into and what plays them. Rules files and their validated dataclasses
(`rules`), seeds and the kernels' random streams (`seeding`, `rng`), the `Game` protocol and the data a game
declares (`game`: Outcome, Claim, Element, CoverageRun, BenchCase, Trace; `sections`: Measure, Table, Series,
Histogram), the `Strategy` protocol and registry (`strategy`), what a run plays (`spec`), the runner that plays
it in chunks on workers or a Dask cluster (`runner`), the Parquet store (`store`), resuming (`resume`), errors and
the code version. It imports nothing above it: not the games (a worker finds a game by the module name the game
carries, `Game.module`), nor analysis, report, workflows or the CLI."""
