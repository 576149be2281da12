"""`dsim tournament`: round robin between strategies, seats and sides rotated over the same deals.

For each pair (A, B) every rotation of the active roles is played on the same seeds: in a two-sided or
hidden-role game A takes one side then the other; in a seat game A and B alternate seats, starting once
with A and once with B. A's score in a game is the share of the game's result its roles earned, so
A vs B is A's average score over all rotations (0.5 = even). Ratings are a Bradley-Terry fit of those
scores, with intervals from the fit's observed information.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from scipy import optimize as opt  # noqa: E402

from sim.core import store  # noqa: E402
from sim.core.errors import DsimError  # noqa: E402
from sim.core.game import Game  # noqa: E402
from sim.core.html import write_report
from sim.core.report import ChartSaver  # noqa: E402
from sim.core.runner import RunSpec, run  # noqa: E402
from sim.core.stats import Z95, mean_ci  # noqa: E402


def strategy_for(entrant: str, role: str) -> str:
    """An entrant is one strategy name, or per-role names joined by '/': `hero=honest/cultist=liar`."""
    if "=" not in entrant:
        return entrant
    parts = dict(p.split("=", 1) for p in entrant.split("/"))
    if role not in parts:
        raise DsimError(f"entrant '{entrant}' names no strategy for role '{role}'")
    return parts[role]


def rotations(roles: tuple[str, ...]) -> list[tuple[bool, ...]]:
    """Which roles A holds in each rotation (the rest are B's)."""
    if len(roles) == 2:
        return [(True, False), (False, True)]
    alternate = tuple(i % 2 == 0 for i in range(len(roles)))
    return [alternate, tuple(not a for a in alternate)]


def play_pair(game: Game, base: RunSpec, a: str, b: str, out: Path, jobs: int) -> np.ndarray:
    """A's per-game scores against B, over every rotation."""
    roles = game.active_roles(base.players)
    scores = []
    for held in rotations(roles):
        text = ",".join(f"{r}={strategy_for(a if mine else b, r)}" for r, mine in zip(roles, held))
        spec = dataclasses.replace(base, lineup=game.lineup(text), extra={"tournament": [a, b]})
        run(spec, out, jobs=jobs, progress=False)
        part = spec.partition()
        games = (store.scan(out, part["game"]).filter(*[pl.col(k) == v for k, v in part.items()])
                 .sort("game_id").collect())
        result = game.role_scores(games, base.players)
        mine = [result[r] for r, m in zip(roles, held) if m]
        theirs = [result[r] for r, m in zip(roles, held) if not m]
        total = np.sum(mine, axis=0) + np.sum(theirs, axis=0)
        scores.append(np.divide(np.sum(mine, axis=0), total, out=np.full(len(total), 0.5), where=total > 0))
    return np.concatenate(scores)


def bradley_terry(names: list[str], wins: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strengths (sum to zero) and standard errors from fractional wins[i, j] out of games[i, j]."""
    k = len(names)

    def nll(free):
        r = np.append(free, -free.sum())
        d = r[:, None] - r[None, :]
        p = 1 / (1 + np.exp(-d))
        return -(wins * np.log(np.clip(p, 1e-300, 1))).sum()

    res = opt.minimize(nll, np.zeros(k - 1), method="BFGS")
    free = res.x
    r = np.append(free, -free.sum())
    # observed information of the free parameters by finite differences of the gradient
    h = 1e-4
    grad = opt.approx_fprime
    info = np.array([(grad(free + h * e, nll, 1e-6) - grad(free - h * e, nll, 1e-6)) / (2 * h)
                     for e in np.eye(k - 1)])
    cov_free = np.linalg.pinv(info)
    jac = np.vstack([np.eye(k - 1), -np.ones(k - 1)])
    se = np.sqrt(np.clip(np.diag(jac @ cov_free @ jac.T), 0, None))
    return r, se


def tournament(game: Game, base: RunSpec, entrants: list[str], out: Path, to: Path, jobs: int = 1) -> Path:
    if len(entrants) < 2:
        raise DsimError("a tournament needs at least two strategies")
    for e in entrants:       # check every entrant can play every role before playing anything
        for r in game.active_roles(base.players):
            game.strategies.get(strategy_for(e, r), r)
    k = len(entrants)
    score = np.full((k, k), np.nan)
    lo, hi = score.copy(), score.copy()
    wins = np.zeros((k, k))
    counts = np.zeros((k, k))
    rows = []
    for i, j in itertools.combinations(range(k), 2):
        s = play_pair(game, base, entrants[i], entrants[j], out, jobs)
        est = mean_ci(s)
        score[i, j], lo[i, j], hi[i, j] = est.value, est.lo, est.hi
        score[j, i], lo[j, i], hi[j, i] = 1 - est.value, 1 - est.hi, 1 - est.lo
        wins[i, j], wins[j, i] = s.sum(), len(s) - s.sum()
        counts[i, j] = counts[j, i] = len(s)
        rows.append({"a": entrants[i], "b": entrants[j], "score_a": est.value, "lo": est.lo, "hi": est.hi, "games": len(s)})
    strength, se = bradley_terry(entrants, wins, counts)
    to.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(rows).write_parquet(to / f"tournament_{game.name}.parquet")
    chart = ChartSaver(to, f"tournament_{game.name}")
    lines = [f"# {game.title}: tournament", "", "## Findings", "",
             *[f"- {f}" for f in tournament_findings(entrants, score, lo, hi, strength, se)], "",
             "## Head to head", "",
             f"{base.n:,} games per rotation, {base.players} players, seed {base.seed}; each pair plays every "
             "seat/side rotation on the same deals. Cell = row's average score against the column "
             "(0.5 = even), with its 95% interval.", "",
             "| | " + " | ".join(entrants) + " |", "|" + "---|" * (k + 1)]
    for i in range(k):
        cells = ["—" if i == j else f"{score[i, j]:.3f} [{lo[i, j]:.3f}, {hi[i, j]:.3f}]" for j in range(k)]
        lines.append(f"| **{entrants[i]}** | " + " | ".join(cells) + " |")
    lines += ["", "## Bradley-Terry ratings (log-odds, sum to zero)", "", "| strategy | rating [95% CI] |", "|---|---|"]
    order = np.argsort(-strength)
    for i in order:
        lines.append(f"| {entrants[i]} | {strength[i]:+.3f} [{strength[i] - Z95 * se[i]:+.3f}, {strength[i] + Z95 * se[i]:+.3f}] |")
    lines += ["", matrix_chart(game, entrants, score, chart), "", ratings_chart(game, entrants, strength, se, chart), ""]
    path = write_report(to, f"tournament_{game.name}", "\n".join(lines), game.title)
    return path


def tournament_findings(names, score, lo, hi, strength, se) -> list[str]:
    """The strongest entrant, then every pairing, decided or not, strongest first."""
    order = list(np.argsort(-strength))
    top = order[0]
    out = [f"**{names[top]}** is the strongest (Bradley-Terry rating {strength[top]:+.2f} "
           f"[{strength[top] - Z95 * se[top]:+.2f}, {strength[top] + Z95 * se[top]:+.2f}])."]
    for a_pos, i in enumerate(order):
        for j in order[a_pos + 1:]:
            cell = f"{100 * score[i, j]:.1f}% [{100 * lo[i, j]:.1f}, {100 * hi[i, j]:.1f}]"
            if lo[i, j] > 0.5:
                out.append(f"{names[i]} beats {names[j]}: it scores {cell} against it.")
            else:
                out.append(f"{names[i]} and {names[j]} cannot be told apart: {cell}.")
    return out


def matrix_chart(game, names, score, chart) -> str:
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * len(names), 1 + 0.9 * len(names)))
    im = ax.imshow(score, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j:
                ax.text(j, i, f"{score[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="row's score vs column")
    ax.set_title(f"{game.title}: head to head")
    return chart("matrix", fig)


def ratings_chart(game, names, strength, se, chart) -> str:
    order = np.argsort(strength)
    fig, ax = plt.subplots(figsize=(6, 0.6 + 0.4 * len(names)))
    ax.errorbar(strength[order], range(len(names)), xerr=Z95 * se[order], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), [names[i] for i in order], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("Bradley-Terry rating (95% CI)")
    return chart("ratings", fig)
