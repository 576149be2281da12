"""analysis layer: methods that play games to answer a question and return data; may import sim.engine and sim.games, never sim.report or sim.cli."""
