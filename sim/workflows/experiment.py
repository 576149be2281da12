"""Experiment specs: a TOML file describing a run, comparison, sweep, tournament or optimisation, played through
the analysis layer and written by the report layer (this module sits above both, below the CLI).

    [experiment]
    kind = "compare"                  # run | compare | sweep | tournament | optimize | tune | sensitivity | ablate
                                      # | ladder | equilibrium
    game = "dragonwake"
    title = "Does the FAQ's fuse help the heroes?"
    n = 200000
    players = 5                       # or a list, for kind = "run": one run per player count
    strategy = "hero=bayes,cultist=liar"
    seed = 1
    variants = ["base", "min_reveals"]    # compare
    params = ["min_reveals=0:10:5"]       # sweep; tune: ["dwarf_spaces[0]=3:12"] (a range to search)
    targets = ["dragon_win=0.5"]          # tune: outcome=value (verify = games on fresh seeds)
    precision = 0.01                      # equilibrium (n = most games per cell): also tol, rounds, iters,
    decks = ["ember", "tide"]             #   search_games, boot, decks, with_search, search_budget, check_games
                                          #   (as for `dsim equilibrium`)
    only = ["dwarf_spaces"]               # sensitivity: only these assumed values; ablate: elements or groups
    mode = "neutral"                      # ablate: neutral | remove | force
    at_equilibrium = true                 # ablate, compare, sweep, tune: solve each arm, point or setting as a game
                                          # (n: most games per cell; tune's target: equilibrium=VALUE)
    band = "40%:60%"                      # sweep at equilibrium: the settings that bring the figure into this range
    outcome = "dragon_win"                # ladder: the finding's outcome, and the reference it is read against
    reference = 0.5
    equilibrium = true                    # ladder: the equilibrium as the top rung (the default); search_games
    search_budgets = [50, 200]            #   (deals per search rung, 0: none) and the search rungs' playouts
                                          #   (default: a quarter of the game's default budget, and the default)
    strategies = ["random", "bayes"]      # tournament; for kind = "run", one run per lineup
    configs = [["seat0_deck=ember"], ["seat0_deck=tide"]]   # kind = "run": one run per rule-override set
    role = "hero"                         # optimize (with strategy = the one to tune, field = the rest)
    set = ["hand_sizes=[5,4,3,2]"]        # rule overrides for every arm
    report = "reports/dragonwake"         # where the Markdown, charts and tables go

`dsim experiment FILE` reruns it; results (Parquet) go to `results/experiments/<file stem>`.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from sim.analysis.ablate import ablate
from sim.analysis.ablate_equilibrium import ablate_at_equilibrium
from sim.analysis.arms_equilibrium import compare_at_equilibrium, parse_band, sweep_at_equilibrium
from sim.analysis.compare import compare
from sim.analysis.equilibrium import Search, equilibrium, search_player, standard_study
from sim.analysis.payoffs import Budget
from sim.analysis.ladder import ladder
from sim.analysis.optimize import optimize
from sim.analysis.sensitivity import sensitivity
from sim.analysis.sweep import sweep
from sim.analysis.tournament import tournament
from sim.analysis.tune import tune
from sim.engine.errors import DsimError
from sim.engine.rules import read_toml
from sim.engine.runner import run
from sim.engine.spec import RunSpec, check_n
from sim.engine.strategy import load_plugin
from sim.games import get_game
from sim.report import ablate as ablate_report
from sim.report import ablate_equilibrium as ablate_equilibrium_report
from sim.report import arms_equilibrium as arms_report
from sim.report import balance
from sim.report import compare as compare_report
from sim.report import equilibrium as equilibrium_report
from sim.report import ladder as ladder_report
from sim.report import optimize as optimize_report
from sim.report import sensitivity as sensitivity_report
from sim.report import sweep as sweep_report
from sim.report import tournament as tournament_report
from sim.report import tune as tune_report
from sim.report.html import write_report

KINDS = ("run", "compare", "sweep", "tournament", "optimize", "tune", "sensitivity", "ablate", "ladder", "equilibrium")
KEYS = {"kind", "game", "title", "n", "players", "strategy", "seed", "jobs", "variants", "variant", "params",
        "strategies", "configs", "role", "field", "set", "report", "rules", "iters", "refine", "plugins", "precision",
        "targets", "verify", "only", "mode", "outcome", "reference", "tol", "rounds", "search_games", "decks", "boot",
        "equilibrium", "at_equilibrium", "search_budgets", "with_search", "search_budget", "check_games",
        "search_joins", "band"}


def load_spec(path: Path) -> dict:
    data = read_toml(path, "experiment file")
    spec = data.get("experiment")
    if not isinstance(spec, dict):
        raise DsimError(f"experiment file {path} has no [experiment] table")
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise DsimError(f"experiment file {path}: unknown keys {', '.join(unknown)}")
    if spec.get("kind") not in KINDS:
        raise DsimError(f"experiment file {path}: kind must be one of {', '.join(KINDS)}")
    if "game" not in spec:
        raise DsimError(f"experiment file {path}: 'game' is required")
    return spec


def _as_list(config) -> list[str]:
    """One entry of `configs`: a list of `key=value` overrides, or a single one."""
    return [config] if isinstance(config, str) else list(config)


def base_spec(spec: dict, players: int | None = None) -> RunSpec:
    game = get_game(spec["game"])
    for p in spec.get("plugins", []):
        load_plugin(p)
    rules = game.load_rules(spec.get("rules"), tuple(spec.get("variant", [])), tuple(spec.get("set", [])))
    players = players or spec.get("players") or game.default_players
    if isinstance(players, list):
        players = players[0]
    game.check_players(rules, players)
    lineup = game.lineup(spec.get("field") if spec["kind"] == "optimize" else spec.get("strategy"))
    return RunSpec(game, rules, players, lineup, check_n(float(spec.get("n", 100_000))), int(spec.get("seed", 0)),
                   tuple(spec.get("plugins", [])))


def cell_budget(spec: dict, base: RunSpec) -> Budget:
    """How much each cell of a solve plays, from an experiment file (n: most games per cell)."""
    return Budget(float(spec.get("precision", 0.01)), min(2_000, base.n), base.n if "n" in spec else 200_000)


def equilibrium_search(spec: dict) -> Search:
    """The best-response search of a solve, from an experiment file (the command's defaults where a key is
    absent)."""
    return Search(iters=int(spec.get("iters", 3)), refine=int(spec.get("refine", Search.refine)),
                  games=int(spec.get("search_games", 1_000)), rounds=int(spec.get("rounds", 4)),
                  tol=float(spec.get("tol", 0.01)), check_games=int(spec.get("check_games", 400)),
                  search_joins=bool(spec.get("search_joins", True)))


def run_equilibrium(spec: dict, base: RunSpec, jobs: int):
    """An equilibrium study from an experiment file (the command's defaults where a key is absent)."""
    budget, search = cell_budget(spec, base), equilibrium_search(spec)
    decks = spec.get("decks")
    if decks == "all":
        decks = base.game.decks(base.rules)
    budget_of_search = spec.get("search_budget")
    searcher = search_player(base.game, bool(spec.get("with_search", False)),
                             None if budget_of_search is None else int(budget_of_search))
    return equilibrium(base.game, base, budget, search, jobs, decks, int(spec.get("boot", 200)), searcher)


def run_experiment(path: Path, results: Path | None = None, to: Path | None = None,
                   resume: bool = False) -> list[Path]:
    """Run an experiment spec; returns the report files written. `resume` keeps the runs an interrupted
    call committed or left in part, and plays the rest."""
    spec = load_spec(path)
    name = Path(path).stem
    results = results or Path("results") / "experiments" / name
    to = Path(to or spec.get("report") or Path("reports") / name)
    if results.exists() and not resume:
        shutil.rmtree(results)       # an experiment is rerun from scratch, so its figures match its spec
    kind = spec["kind"]
    jobs = int(spec.get("jobs", 1))
    base = dataclasses.replace(base_spec(spec), resume=resume)
    game = base.game
    sets = tuple(spec.get("set", []))
    if kind == "run":
        counts = spec.get("players") if isinstance(spec.get("players"), list) else [base.players]
        lineups = [game.lineup(s) for s in spec["strategies"]] if "strategies" in spec else [base.lineup]
        configs = [game.load_rules(spec.get("rules"), tuple(spec.get("variant", [])), sets + tuple(_as_list(c)))
                   for c in spec["configs"]] if "configs" in spec else [base.rules]
        for p in counts:
            game.check_players(base.rules, p)
        for rules in configs:
            for p in counts:
                for lineup in lineups:
                    run(dataclasses.replace(base, rules=rules, players=p, lineup=lineup), results, jobs=jobs,
                        progress=False)
        paths = balance.build(results, to, game.name)
    elif kind == "compare" and spec.get("at_equilibrium"):
        arms = compare_at_equilibrium(game, base, list(spec.get("variants", [])), cell_budget(spec, base),
                                      equilibrium_search(spec), jobs, spec.get("rules"), sets)
        paths = [arms_report.write(arms, to, f"compare_{game.name}_equilibrium",
                                   f"{game.title}: rule variants at equilibrium", "variant")]
    elif kind == "compare":
        paths = [compare_report.write(compare(game, base, list(spec.get("variants", [])), results, jobs,
                                              spec.get("precision"), spec.get("rules"), sets), to)]
    elif kind == "sweep" and spec.get("at_equilibrium"):
        arms = sweep_at_equilibrium(game, base, list(spec.get("params", [])), cell_budget(spec, base),
                                    equilibrium_search(spec), jobs, spec.get("rules"), tuple(spec.get("variant", [])),
                                    sets)
        paths = [arms_report.write(arms, to, f"sweep_{game.name}_equilibrium",
                                   f"{game.title}: rule settings at equilibrium", "point",
                                   band=parse_band(spec.get("band")))]
    elif kind == "sweep":
        paths = [sweep_report.write(sweep(game, base, list(spec.get("params", [])), results, jobs, spec.get("rules"),
                                          tuple(spec.get("variant", [])), sets), to)]
    elif kind == "tune":
        verify_n = check_n(float(spec["verify"])) if "verify" in spec else None
        solved = (cell_budget(spec, base), equilibrium_search(spec)) if spec.get("at_equilibrium") else None
        paths = [tune_report.write(tune(game, base, list(spec.get("params", [])), list(spec.get("targets", [])), jobs,
                                        verify_n, spec.get("rules"), tuple(spec.get("variant", [])), sets, solved),
                                   to)]
    elif kind == "sensitivity":
        paths = [sensitivity_report.write(sensitivity(game, base, results, jobs, spec.get("precision"),
                                                      tuple(spec.get("only", [])), spec.get("rules"),
                                                      tuple(spec.get("variant", [])), sets), to)]
    elif kind == "ablate" and spec.get("at_equilibrium"):
        paths = [ablate_equilibrium_report.write(ablate_at_equilibrium(
            game, base, cell_budget(spec, base), equilibrium_search(spec), spec.get("mode", "neutral"), jobs,
            tuple(spec.get("only", [])), spec.get("rules"), tuple(spec.get("variant", [])), sets), to)]
    elif kind == "ablate":
        paths = [ablate_report.write(ablate(game, base, results, spec.get("mode", "neutral"), jobs,
                                            spec.get("precision"), tuple(spec.get("only", [])), spec.get("rules"),
                                            tuple(spec.get("variant", [])), sets), to)]
    elif kind == "ladder":
        # search_joins = false: the search player checks the study's solution but plays no cell of its table
        study_search = Search(search_joins=bool(spec.get("search_joins", True)))
        study = standard_study(game, base, jobs, study_search) if spec.get("equilibrium", True) else None
        budgets = spec.get("search_budgets")
        paths = [ladder_report.write(ladder(game, base, spec.get("outcome"), spec.get("reference"),
                                            int(spec.get("iters", 4)), study=study, jobs=jobs,
                                            search_budgets=tuple(budgets) if budgets else None,
                                            search_games=spec.get("search_games")), to)[0]]
    elif kind == "equilibrium":
        paths = [equilibrium_report.write(run_equilibrium(spec, base, jobs), to)]
    elif kind == "tournament":
        paths = [tournament_report.write(tournament(game, base, list(spec.get("strategies", [])), results, jobs), to)]
    else:
        if "strategy" not in spec or "role" not in spec:
            raise DsimError(f"experiment file {path}: optimize needs 'strategy' and 'role'")
        paths = [optimize_report.write(optimize(game, base, spec["strategy"], spec["role"],
                                                iters=int(spec.get("iters", 8))), to)]
    if spec.get("title"):
        for p in paths:
            head, _, rest = p.read_text().partition("\n")     # the question under the title, in both twins
            write_report(p.parent, p.stem, f"{head}\n\n*{spec['title']}* (spec: `{path}`)\n{rest}", game.title)
    return paths
