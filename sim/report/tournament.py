"""`dsim tournament`'s report: the strongest entrant and every pairing in words, the head-to-head matrix, the
Bradley-Terry ratings and their charts; beside it one row per pair (Parquet)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.analysis.stats import Z95  # noqa: E402
from sim.analysis.tournament import Tournament  # noqa: E402
from sim.report.charts import ChartSaver  # noqa: E402
from sim.report.html import write_report  # noqa: E402


def write(t: Tournament, to: Path) -> Path:
    """`tournament_<game>.md` and its HTML twin, the matrix and ratings charts, and `.parquet` (one row a pair)."""
    game, base, entrants, score, lo, hi, strength, se = (t.game, t.base, t.entrants, t.score, t.lo, t.hi,
                                                          t.strength, t.se)
    k = len(entrants)
    to.mkdir(parents=True, exist_ok=True)
    t.table().write_parquet(to / f"tournament_{game.name}.parquet")
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
    return write_report(to, f"tournament_{game.name}", "\n".join(lines), game.title)


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
