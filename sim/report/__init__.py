"""Report: turns results (analysis dataclasses and frames, and the Parquet store) into Markdown, one
self-contained HTML file and PNG charts, with one layout. The balance report of a game (`balance`) with its
findings, caveats, outcome tables, the sections every game declares (`sections`), calibration and coverage, and a
game's own sections (`games/<name>.py`, found by the game's name); one module per design command (compare,
sweep, tournament, optimize, tune, sensitivity, ablate, ladder), each with `write(result, to) -> Path`; and the
shared pieces (`html`, `charts`, `labels`, `findings`, `summary`, `arms`). It may import the engine, the games,
strategies and analysis, never workflows or the CLI."""
