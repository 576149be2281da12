"""dsim: Monte Carlo balance and strategy simulator for dragon-themed card games."""

__version__ = "0.1.0"
