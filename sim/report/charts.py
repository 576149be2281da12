"""Chart helpers every report uses: saving a figure as a PNG beside the report, and interval error bars."""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def error_bars(estimates, scale: float = 1.0) -> np.ndarray:
    """Asymmetric (below, above) error bars of interval estimates, as matplotlib's yerr/xerr wants them."""
    bars = np.array([[e.value - e.lo for e in estimates], [e.hi - e.value for e in estimates]]).reshape(2, -1)
    return scale * np.clip(np.nan_to_num(bars), 0, None)      # no interval (n < 2): no bar


class ChartSaver:
    """Saves figures as PNGs in the report folder and returns the Markdown that shows them."""

    def __init__(self, folder: Path, prefix: str):
        self.folder = folder
        self.prefix = prefix
        self.files: list[Path] = []
        self.texts: dict[str, list[str]] = {}     # every chart's words (titles, labels, ticks), for tests

    def __call__(self, name: str, fig) -> str:
        path = self.folder / f"{self.prefix}_{name}.png"
        self.texts[path.name] = [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
        fitted = _tight(fig)
        if _wrap_titles(fig):
            fitted = _tight(fig)
        # where tight_layout cannot fit everything (very long labels), let the saved image grow around it instead
        fig.savefig(path, dpi=110, bbox_inches=None if fitted else "tight")
        plt.close(fig)
        self.files.append(path)
        return f"![{name}]({path.name})"


def _tight(fig) -> bool:
    """tight_layout, silently; whether it could fit every label (matplotlib warns when it cannot)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.tight_layout()
    return not any("Tight layout not applied" in str(w.message) for w in caught)


def _wrap_titles(fig) -> bool:
    """Wrap an axes title or x label that would run past the figure's edge (both are centred on the axes, which
    long tick labels push to the right); whether any was wrapped."""
    wrapped = False
    for ax in fig.axes:
        box = ax.get_position()
        centre = (box.x0 + box.x1) / 2
        room = 2 * min(centre, 1 - centre) * fig.get_figwidth() * 72      # points either side of the centre
        for text in (ax.title, ax.xaxis.label):
            words = text.get_text()
            chars = int(room / (text.get_fontsize() * 0.55))
            if words and "\n" not in words and len(words) > chars > 10:
                text.set_text(textwrap.fill(words, chars))
                wrapped = True
    return wrapped
