"""Drarkane: contracts, tricks and a battle zone of dragons (every variant)."""
