"""analysis layer: methods that play games and return data; imports sim.engine and sim.games only"""
