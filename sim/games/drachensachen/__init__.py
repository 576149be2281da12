"""Drachensachen: shed your monsters over rounds until someone has lost 21 coins."""
