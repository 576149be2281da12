"""Dragonwake batches played by the resumable machine (kernel_game.play_on): the rules with a module on
(events, artifacts, powers, self_reveal), or a side that searches. Nothing here compiles until a run needs it
(`njit_later`, compiled by `machine`): the default rules without search, a newcomer's first run, never do."""

from numba import njit

from sim.engine.rng import mix
from sim.engine.strategy import compile_part, njit_later
from sim.games.dragonwake.kernel import PLAY_BATCH_SIG, PLAY_GAMES_SIG, run_batch
from sim.games.dragonwake.kernel_base import IN_RANDOM, PR_FORCED, PR_STOPPED, W_ROLE
from sim.games.dragonwake.kernel_game import finish_game, play_on, start_game
from sim.games.dragonwake.kernel_search import search, search_seed
from sim.games.dragonwake.records import HERO, PUB_ROW, P_RNG


@njit(cache=True, inline='always')
def machine_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                  cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state,
                  memory, work, prog, sc, o_play, dfns, searching):
    """Play n games, each dealt by start_game, played by play_on (asking kernel_search at a searching side's
    decisions: `searching`, a literal, compiles the search in or out) and recorded by finish_game."""
    all_random = hero_code == IN_RANDOM and cultist_code == IN_RANDOM
    for g in range(n):
        state[PUB_ROW, P_RNG] = mix(seed, g)
        if searching:
            search_seed(sc, seed, g)
        o = out[g]
        start_game(g, rint, o, trace, state, memory, work, prog, all_random, True)
        while True:
            play_on(g, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                    cultist_pick, hero_power, cultist_power, hero_params, cultist_params, o, trace, check, state,
                    memory, work, prog)
            me = prog[PR_STOPPED]
            if not searching or me < 0:
                break
            params = hero_params if work[W_ROLE, me] == HERO else cultist_params
            prog[PR_FORCED] = search(me, rint, hand_sizes, state, memory, work, prog, params, trace, sc, o_play, dfns)
        finish_game(g, rint, o, trace, check, state, work, prog, True)


# The games loops without reference counting, as kernel.play_games (see there); one per literal `searching`.
@njit_later(PLAY_GAMES_SIG, cache=True, _nrt=False)
def full_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
               cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state, memory,
               work, prog, sc, o_play, dfns):
    machine_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                  cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state,
                  memory, work, prog, sc, o_play, dfns, False)


@njit_later(PLAY_GAMES_SIG, cache=True, _nrt=False)
def searched_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                   cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state,
                   memory, work, prog, sc, o_play, dfns):
    machine_games(seed, n, rint, hand_sizes, hero_code, cultist_code, hero_declare, hero_pick, cultist_declare,
                  cultist_pick, hero_power, cultist_power, hero_params, cultist_params, out, trace, check, state,
                  memory, work, prog, sc, o_play, dfns, True)


@njit_later(PLAY_BATCH_SIG, cache=True, nogil=True)
def full_batch(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
               hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards,
               hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power, hero_params,
               cultist_params, hero_builtin, cultist_builtin, out, trace, check, searched, written, dfns):
    run_batch(full_games,
              (seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
               min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards),
              (hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power),
              (hero_params, cultist_params, hero_builtin, cultist_builtin),
              (out, trace, check, searched, written, dfns))


@njit_later(PLAY_BATCH_SIG, cache=True, nogil=True)
def searched_batch(seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player,
                   hand_sizes, min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards,
                   hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power, hero_params,
                   cultist_params, hero_builtin, cultist_builtin, out, trace, check, searched, written, dfns):
    run_batch(searched_games,
              (seed, n, players, hero_cards, cultist_cards, relics_per_player, dragons, cards_per_player, hand_sizes,
               min_reveals, self_reveal, events, event_cards, gluttony_cards, mods, power_cards),
              (hero_declare, hero_pick, cultist_declare, cultist_pick, hero_power, cultist_power),
              (hero_params, cultist_params, hero_builtin, cultist_builtin),
              (out, trace, check, searched, written, dfns))


def machine(searching: bool):
    """The batch (kernel.play_batch's arguments) that plays the rules by the machine, with the search player
    when a side searches; compiled on first use."""
    entry = (searched_games, searched_batch) if searching else (full_games, full_batch)
    compile_part((play_on, *entry), "search" if searching else "machine", exact=True)
    return entry[1]
