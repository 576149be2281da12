"""Open HTML reports in headless Chromium at 1280 px and say which scroll sideways.

    python -m sim.tooling.page_width reports/*/*.html reports/*/*/*.html

Prints each page's scroll width and height and how many tables, images or preformatted blocks end past the
page's right edge; exits 1 if any page is wider than the window. Needs `chromium` on the PATH
(`apt-get install chromium`). A designer reads the reports in a browser: this is the check that they fit.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH = 1280
# Run in the page once it has laid out: the widths land in the title, which --dump-dom prints.
PROBE = ("<script>window.addEventListener('load',()=>{const d=document.documentElement;"
         "const wide=[...document.querySelectorAll('table,img,pre,svg')]"
         ".filter(e=>e.getBoundingClientRect().right>d.clientWidth+1).length;"
         "document.title='SW='+d.scrollWidth+' SH='+d.scrollHeight+' WIDE='+wide;});</script>")


def measure(html: Path, browser: str) -> tuple[int, int, int] | None:
    """(scroll width, scroll height, elements past the right edge), or None if the page did not load."""
    text = html.read_text()
    text = text.replace("</body>", PROBE + "</body>") if "</body>" in text else text + PROBE
    with tempfile.NamedTemporaryFile("w", suffix=".html", dir=html.parent, delete=False) as f:
        f.write(text)      # beside the page, so its relative image paths still resolve
        probe = Path(f.name)
    try:
        out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},900",
                              "--virtual-time-budget=3000", "--dump-dom", probe.resolve().as_uri()],
                             capture_output=True, text=True, timeout=300).stdout
    except subprocess.TimeoutExpired:        # a browser that hangs (a loaded machine): named as not loaded
        return None
    finally:
        probe.unlink()
    m = re.search(r"<title>SW=(\d+) SH=(\d+) WIDE=(\d+)</title>", out)
    return tuple(int(x) for x in m.groups()) if m else None


def main(paths: list[str]) -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        print("page_width: no chromium on the PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    too_wide = 0
    for p in paths:
        got = measure(Path(p), browser)
        if got is None:
            print(f"{'?':>6} {'?':>7} {'?':>3}  {p} (did not load)")
            too_wide += 1
            continue
        width, height, wide = got
        too_wide += width > WIDTH or wide > 0
        print(f"{width:>6} {height:>7} {wide:>3}  {p}")
    return 1 if too_wide else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
