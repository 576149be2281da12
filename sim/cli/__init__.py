"""The `dsim` command line: one module per command."""
