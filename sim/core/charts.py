"""Chart helpers every report uses."""

import numpy as np


def error_bars(estimates, scale: float = 1.0) -> np.ndarray:
    """Asymmetric (below, above) error bars of interval estimates, as matplotlib's yerr/xerr wants them."""
    bars = np.array([[e.value - e.lo for e in estimates], [e.hi - e.value for e in estimates]]).reshape(2, -1)
    return scale * np.clip(np.nan_to_num(bars), 0, None)      # no interval (n < 2): no bar
