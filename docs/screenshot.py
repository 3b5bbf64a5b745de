"""Retake docs/screenshot.png: the shipped digest's home page at 1280×800, as the README shows it.

    .venv/bin/python docs/screenshot.py      (or: make screenshot)

Builds content/ into a temporary folder, serves it with `build.py serve --no-reload` on a free
port, and photographs the home page with Playwright driving Debian's chromium (no browser is
downloaded). Needs the test requirements (Playwright) and `fonts-noto-cjk`, so the Chinese title
renders; `make screenshot` installs both.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "screenshot.png"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def serve(site: Path) -> tuple[subprocess.Popen, str]:
    """`build.py serve` on a free port, and the home page's URL once it is serving."""
    process = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--no-reload", "--port", "0", "--out", str(site),
         "--no-cache"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={"PYTHONUNBUFFERED": "1", "PATH": "/usr/bin:/bin"})
    for line in process.stdout:
        found = re.search(r"Serving \S+ at (http://\S+)", line)
        if found:
            return process, found.group(1)
    raise SystemExit(f"build.py serve stopped before serving (exit {process.wait()})")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(Path(folder) / "_site")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800},
                                        color_scheme="light", reduced_motion="reduce")
                page.goto(url, wait_until="networkidle")
                page.screenshot(path=str(OUT))
                browser.close()
        finally:
            process.terminate()
            process.wait()
    print(f"wrote {OUT.relative_to(REPO)} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
