"""Workflows: what runs a whole question through analysis and report in one call: experiment specs
(`experiment`, a TOML file per published study). It may import every layer below it (engine, games,
strategies, analysis, report), never the CLI."""
