"""Chart helpers every report uses: saving a figure as a PNG beside the report, interval error bars, and the
habits every chart shares: an axis wide enough to read a point on, whole-number ticks for seats and counts, a
legend beside the axes rather than over the data, heat-map text that reads on every colour."""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FixedLocator, MaxNLocator  # noqa: E402

TICK_CHARS = 60         # a y tick label longer than this is wrapped: it would squeeze the axes to nothing


def error_bars(estimates, scale: float = 1.0) -> np.ndarray:
    """Asymmetric (below, above) error bars of interval estimates, as matplotlib's yerr/xerr wants them."""
    bars = np.array([[e.value - e.lo for e in estimates], [e.hi - e.value for e in estimates]]).reshape(2, -1)
    return scale * np.clip(np.nan_to_num(bars), 0, None)      # no interval (n < 2): no bar


def fit_span(ax, minimum: float, axis: str = "x", bounds: tuple[float, float] | None = None) -> None:
    """Widen an axis to at least `minimum` around what it shows (a lone point, or points a fraction of a point
    apart, would otherwise fill the chart as if they differed a lot), within `bounds` (0 to 100 for a %)."""
    get, set_ = (ax.get_xlim, ax.set_xlim) if axis == "x" else (ax.get_ylim, ax.set_ylim)
    lo, hi = get()
    if not all(np.isfinite([lo, hi, minimum])) or minimum <= 0 or hi - lo >= minimum:
        return
    mid = (lo + hi) / 2
    lo, hi = mid - minimum / 2, mid + minimum / 2
    if bounds is not None:
        lo, hi = (bounds[0], bounds[0] + minimum) if lo < bounds[0] else (lo, hi)
        lo, hi = (bounds[1] - minimum, bounds[1]) if hi > bounds[1] else (lo, hi)
    set_(lo, hi)


def whole_ticks(ax, axis: str = "x") -> None:
    """Ticks at whole numbers only (seats, player counts, turns, contracts): never a seat 0.5."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def legend_beside(ax, **kw) -> None:
    """The legend to the right of the axes, where it covers no data (the saved figure grows to hold it)."""
    ax.legend(fontsize=kw.pop("fontsize", 8), loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
              frameon=False, **kw)


def text_colour(rgba) -> str:
    """Black or white, whichever reads better on a cell of this colour (by its relative luminance)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def heat_colours(name: str = "RdBu"):
    """A diverging colour map whose empty cells (NaN: not played, or a strategy against itself) are light grey,
    not the white of an even score."""
    return plt.get_cmap(name).with_extremes(bad="#d9d9d9")


def label_cells(ax, image, values: np.ndarray, fmt: str = "{:.0f}", fontsize: float = 8, empty: str = "–") -> None:
    """Write each cell's value on a heat map in the colour that reads on it; an empty (NaN) cell gets `empty`."""
    for (i, j), v in np.ndenumerate(values):
        text, colour = (fmt.format(v), text_colour(image.cmap(image.norm(v)))) if np.isfinite(v) else (empty, "black")
        ax.text(j, i, text, ha="center", va="center", fontsize=fontsize, color=colour)


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
        _wrap_ticks(fig)
        _tight(fig)
        if _wrap_titles(fig):
            _tight(fig)
        # the saved image fits what tight_layout could not (very long labels, a legend beside the axes)
        fig.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.08)
        plt.close(fig)
        self.files.append(path)
        return f"![{name}]({path.name})"


def _tight(fig) -> bool:
    """tight_layout, silently; whether it could fit every label (matplotlib warns when it cannot)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.tight_layout()
    return not any("Tight layout not applied" in str(w.message) for w in caught)


def _wrap_ticks(fig) -> None:
    """Wrap long y tick labels (outcome labels that are sentences) onto several lines."""
    for ax in fig.axes:
        if not isinstance(ax.yaxis.get_major_locator(), FixedLocator):
            continue
        labels = [t.get_text() for t in ax.get_yticklabels()]
        if any(len(text) > TICK_CHARS for text in labels):
            ax.set_yticks(ax.get_yticks(), [textwrap.fill(text, TICK_CHARS) for text in labels])


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
