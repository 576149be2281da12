"""Drachensachen referee (stub)."""
def referee(rules, players, trace):
    raise NotImplementedError
