"""Machinery shared by every game: rules, seeding, running, storage, statistics, charts."""
