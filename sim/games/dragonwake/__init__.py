"""Dragonwake: hidden-role search game, heroes against cultists."""
