"""Every path works (issue #23): each command that takes a game, over every game, player count and variant.

A command either works (exit 0) or refuses in one line (exit 2, one line on stderr, nothing left behind): never a
traceback, another exit code, a stray file after a refusal, or a Python warning. The games, their player counts
and variants come from the Game API, so a new game or variant is walked without editing this file.

The fast slice (in every test run) plays each game once, at its smallest player count under its first variant,
through every command; the full walk (`make soak`) plays every combination.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from sim.cli.main import main
from sim.engine.errors import DsimError
from sim.games import all_games

GAMES = all_games()

# The smallest budgets each command accepts: the walk checks that every path runs, not what it finds.
TINY = ("--n", "40")
FIRST_CLASS = "First-class function type feature is experimental"
COMMANDS = ("run", "report", "replay", "compare", "sweep", "tournament", "optimize", "tune", "sensitivity",
            "ablate", "ladder", "equilibrium")


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    variant: str | None

    def __str__(self) -> str:
        return f"{self.game}-{self.players}-{self.variant or 'base'}"

    def options(self) -> list[str]:
        return ["--game", self.game, "--players", str(self.players)] + (["--variant", self.variant] if self.variant else [])


def variants(name: str) -> list[str]:
    return list(GAMES[name].load_rules().ruleset.available_variants)


def all_cases() -> list[Case]:
    return [Case(name, p, v) for name, g in GAMES.items() for p in range(g.min_players, g.max_players + 1)
            for v in [None, *variants(name)]]


def fast_cases() -> list[Case]:
    """One configuration per game: the fewest players (where the odd cases are: solo, heads-up) and the first
    variant the rules allow with them; and Drako's match play, the one path a new user found refused."""
    cases = [Case(name, g.min_players, next((v for v in variants(name) if allowed(name, g.min_players, v)), None))
             for name, g in GAMES.items()]
    return cases + [Case("drako", 2, "match")] * ("match" in variants("drako"))


def allowed(name: str, players: int, variant: str) -> bool:
    game = GAMES[name]
    try:
        game.check_players(game.load_rules(variants=[variant]), players)
    except DsimError:
        return False
    return True


# ---- what each command is given ----------------------------------------------------------------------------


def _literal(value) -> str:
    """A rule value as --set and --param read it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def first_flag(case: Case) -> tuple[str, object, object]:
    rules = GAMES[case.game].load_rules(variants=[case.variant] if case.variant else [])
    key, flag = next(iter(rules.ruleset.flags().items()))
    return key, rules.ruleset.entries[key].value, flag.other_value


def numeric_assumed(case: Case) -> tuple[str, float, float]:
    """An assumed whole-number rule with plausible other values, and the range they span."""
    rules = GAMES[case.game].load_rules(variants=[case.variant] if case.variant else [])
    for key, e in rules.ruleset.entries.items():
        values = [e.value, *e.alternatives]
        if e.source == "assumed" and all(type(v) is int for v in values) and len(set(values)) > 1:
            return key, min(values), max(values)
    raise AssertionError(f"{case.game} has no assumed whole-number rule to tune")


def entrants(case: Case) -> list[str]:
    """Two strategies that can play every active role."""
    g = GAMES[case.game]
    roles = g.active_roles(case.players)
    every = [n for n in g.strategies.names() if all(r in g.strategies.get(n).roles for r in roles)]
    return sorted(every, key=lambda n: n != "random")[:2]


def tunable(case: Case) -> tuple[str, str]:
    """A (strategy, role) with weights to search: a role's default if it has any, else any strategy."""
    g = GAMES[case.game]
    roles = g.active_roles(case.players)
    lineup = g.lineup(None, g.load_rules(variants=[case.variant] if case.variant else []))
    for role in roles:
        if lineup[role].strategy.bounds:
            return lineup[role].strategy.name, role
    return next((n, r) for r in roles for n in g.strategies.names(r) if g.strategies.get(n).bounds)


def headline(case: Case) -> str:
    return next(o.name for o in GAMES[case.game].outcomes() if o.headline)


def argv(command: str, case: Case, out: Path) -> list[str]:
    """The command line a new user would type, with tiny budgets."""
    opts, where = case.options(), ["--out", str(out)]
    if command == "run":
        return ["run", *opts, *TINY, *where, "--no-progress"]
    if command == "report":
        return ["report", *where]
    if command == "replay":
        return ["replay", *opts, "--game-id", "1"]
    if command == "compare":
        key, _, other = first_flag(case)
        arm = case.variant or f"{key}={_literal(other)}"
        base = ["--game", case.game, "--players", str(case.players)]
        return ["compare", *base, "--variant", "base", "--variant", arm, *TINY, *where]
    if command == "sweep":
        key, value, other = first_flag(case)
        return ["sweep", *opts, "--param", f"{key}={_literal(value)}|{_literal(other)}", *TINY, *where]
    if command == "tournament":
        return ["tournament", *opts, "--strategies", ",".join(entrants(case)), *TINY, *where]
    if command == "optimize":
        strategy, role = tunable(case)
        return ["optimize", *opts, "--strategy", strategy, "--role", role, *TINY, "--iters", "1", *where]
    if command == "tune":
        key, lo, hi = numeric_assumed(case)
        return ["tune", *opts, "--param", f"{key}={lo}:{hi}", "--target", f"{headline(case)}=0.5", *TINY,
                "--verify", "40", *where]
    if command == "sensitivity":
        key, _, _ = first_flag(case)
        return ["sensitivity", *opts, *TINY, "--only", key, *where]
    if command == "ablate":
        return ["ablate", *opts, *TINY, *where]
    if command == "ladder":
        return ["ladder", *opts, *TINY, "--iters", "1", "--no-equilibrium", "--search-games", "10",
                "--search-budgets", "4", *where]
    if command == "equilibrium":
        return ["equilibrium", *opts, "--precision", "0.1", "--n", "300", "--rounds", "1", "--iters", "1",
                "--refine", "1", "--search-games", "100", "--check-games", "20", "--no-search-joins", "--boot", "20",
                *where]
    raise AssertionError(command)


# ---- the check ---------------------------------------------------------------------------------------------


def files(folder: Path) -> set[Path]:
    return set(folder.rglob("*")) if folder.exists() else set()


def walk(case: Case, command: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results"
    if command == "report" and main(argv("run", case, out)) != 0:      # a report reads a run's results
        pytest.skip(f"no run to report: {capsys.readouterr().err.strip()}")      # the run's own test checks why
    capsys.readouterr()
    before = files(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", message=FIRST_CLASS)     # what dsim itself silences (sim/engine/strategy.py)
        code = main(argv(command, case, out))
    err = capsys.readouterr().err
    shown = [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]
    assert not shown, f"{' '.join(argv(command, case, out))}: warnings\n" + "\n".join(shown)
    assert "Traceback" not in err and "Warning" not in err, err       # nor a warning printed by other means
    if code == 2:                                # a refusal: one line, saying why, and nothing written
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dsim: error: "), err
        assert files(tmp_path) == before, f"a refusal left files: {sorted(files(tmp_path) - before)}"
        pytest.skip(f"refused: {lines[0]}")
    assert code == 0, f"{' '.join(argv(command, case, out))} exited {code}\n{err}"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", fast_cases(), ids=str)
def test_every_command_on_every_game(case, command, tmp_path, capsys):
    walk(case, command, tmp_path, capsys)


@pytest.mark.soak
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", all_cases(), ids=str)
def test_every_path(case, command, tmp_path, capsys):
    walk(case, command, tmp_path, capsys)
