"""Keep freed memory for reuse: a batch's record arrays are tens of MiB, and glibc returns blocks that large to
the system on free (mmap), so the next batch pays a page fault and a zeroed page for every 4 KiB it writes
(a tenth of a random Dragonwake batch's time). Raising the thresholds keeps them in the heap; the peak memory
is the same, since the next batch reuses them."""

import ctypes
import ctypes.util

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
LIMIT = 1 << 30          # blocks under 1 GiB come from the heap and stay there when freed


def keep_freed_memory() -> bool:
    """Set glibc's malloc thresholds; False (and nothing changed) where there is no glibc."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, LIMIT)) and bool(libc.mallopt(M_TRIM_THRESHOLD, LIMIT))
    except (OSError, AttributeError, TypeError):
        return False
