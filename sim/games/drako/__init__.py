"""Drako: one player's dragon against the other player's three dwarves on a small hex valley."""
