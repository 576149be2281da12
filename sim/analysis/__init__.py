"""Analysis: every method that plays games to answer a question, and the statistics they rest on. Intervals and
paired tests (`stats`), outcome estimates from results (`summary`), precision targets (`precision`), calibration
against the rulebook's claims and which rules a run exercised (`calibration`, `coverage`), and the design
commands: compare, sweep, tournament, optimize, tune, sensitivity, ablate (both built on `arms`), ladder. Each
returns data (dataclasses or polars frames), never Markdown, HTML or charts: `sim.report` writes those. It may
import the engine and the games (and strategies), never report, workflows or the CLI."""
