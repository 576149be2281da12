"""Drachensachen's elements for `dsim ablate`: the monster values with a rule of their own, the three dragons,
and every ability, house rule and curse.

A value or a dragon is removed from the deck, or its copies are replaced by plain monsters (values with no
rule of their own under these rules) in proportion to their counts, so the deck and the deal keep their size.
A card type is in every game already: nothing to force. An ability, house rule or curse is a rule switched on
or off: removing it turns it off, forcing it turns it on (an ability then joins the game as the rules say:
after the first round unless `abilities_from_start`). No rule makes a neutral ability or curse.
"""

from __future__ import annotations

from sim.engine.game import Element, Rules, shares

# card type -> (element name, group); types 1-9 are monsters, 10-12 dragons (records.CARD_NAMES)
SPECIAL = {3: "3s (play lower)", 4: "4s (draw two)", 5: "5s (miss a turn)", 6: "6s (no dragon)",
           9: "9s (never on a dragon)"}
DRAGONS = {10: "Nullo", 11: "Extermino", 12: "Protecto"}
# the monster values an ability gives a rule to
ABILITY_OF_VALUE = {1: "ability_one_on_nine", 2: "ability_monsterball", 7: "ability_roundabout",
                    8: "ability_golden_feathers", 9: "ability_open_secrets"}

# rules switched on or off, by group: element name -> rule key
SWITCHES = {
    "abilities": {"Dragons are quick": "ability_nullo_quick", "Envious Monsters": "ability_envious_monsters",
                  "1 on 9": "ability_one_on_nine", "Monsterball": "ability_monsterball",
                  "Roundabout": "ability_roundabout", "Golden Feathers": "ability_golden_feathers",
                  "Open Secrets": "ability_open_secrets"},
    "house rules": {"house rule 4s": "house_fours", "house rule 5s": "house_fives",
                    "house rule Protecto": "house_protecto"},
    "curses": {"Many Monsters": "curse_many_monsters", "Unknowing": "curse_unknowing", "Chaos": "curse_chaos"},
}


def plain_values(values: dict) -> list[int]:
    """Monster values with no rule of their own under these rules: 1, 2, 7, 8 unless an ability is on."""
    return [v for v in (1, 2, 7, 8) if not values[ABILITY_OF_VALUE[v]]]


def card_elements(values: dict) -> list[Element]:
    counts = list(values["card_counts"])
    plain = [v for v in plain_values(values) if counts[v - 1] > 0]
    out = []
    for t, name, group in [*((t, n, "special values") for t, n in SPECIAL.items()),
                           *((t, n, "dragons") for t, n in DRAGONS.items())]:
        if counts[t - 1] == 0:
            continue
        removed = counts.copy()
        removed[t - 1] = 0
        neutral = ()
        if plain:
            swapped = removed.copy()
            for v, extra in zip(plain, shares(counts[t - 1], [counts[v - 1] for v in plain])):
                swapped[v - 1] += extra
            neutral = (("card_counts", swapped),)
        out.append(Element(name, group, remove=(("card_counts", removed),), neutral=neutral))
    return out


def elements(rules: Rules) -> list[Element]:
    values = rules.ruleset.values
    out = card_elements(values)
    for group, switches in SWITCHES.items():
        for name, key in switches.items():
            out.append(Element(name, group, remove=((key, False),), force=((key, True),)))
    return out
