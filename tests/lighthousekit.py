"""Lighthouse (npm's lighthouse, pinned in package.json) run on Debian's chromium, as the suite and
bench/lighthouse_bench.py use it: mobile emulation (its default form factor), JSON out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitecheck import CHROMIUM, CHROMIUM_ARGS, REPO

LIGHTHOUSE = REPO / "node_modules/lighthouse/cli/index.js"
PAGES_SCRIPT = REPO / "tests/js/lighthouse_pages.mjs"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
RUN_TIMEOUT = 180


@dataclass(frozen=True)
class Report:
    """One Lighthouse run: each category's score (0-100) and the audits that did not pass."""

    url: str
    scores: dict[str, int]
    failing: dict[str, list[str]]
    metrics: dict[str, float]

    def describe(self) -> str:
        """The scores, then each category's failing audits by title, for a failure message."""
        lines = [f"{self.url}: " + ", ".join(f"{c} {s}" for c, s in self.scores.items())]
        lines += [f"  {c}: {title}" for c, titles in self.failing.items() for title in titles]
        lines.append("  metrics: " + ", ".join(f"{k} {v:g}" for k, v in self.metrics.items()))
        return "\n".join(lines)


def run(url: str) -> Report:
    """Lighthouse's four categories for `url`, in mobile emulation with simulated throttling."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        node = shutil.which("node")
        assert node, "Lighthouse needs Node.js ('node' on PATH); `make install` needs it too"
        cmd = [node, str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
               f"--chrome-path={CHROMIUM}", f"--chrome-flags={' '.join(CHROMIUM_ARGS)}",
               f"--only-categories={','.join(CATEGORIES)}",
               "--disable-full-page-screenshot"]  # why: no scored audit reads it; ~1 s of CPU a run
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                              env={**os.environ, "TMPDIR": tmp})  # why: chromium's profile goes with tmp
        assert done.returncode == 0 and out.is_file(), (
            f"lighthouse failed ({done.returncode}) on {url}:\n{done.stderr[-3000:]}")
        return read(url, json.loads(out.read_text(encoding="utf-8")))


def run_pages(urls: list[str]) -> list[Report]:
    """Lighthouse's four categories for each of `urls`, as run() gives them, in one Node
    process and one chromium (tests/js/lighthouse_pages.mjs): ~5 s less a page."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        node = shutil.which("node")
        assert node, "Lighthouse needs Node.js ('node' on PATH); `make install` needs it too"
        cmd = [node, str(PAGES_SCRIPT), CHROMIUM, " ".join(CHROMIUM_ARGS), ",".join(CATEGORIES),
               tmp, *urls]
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT * len(urls), env={**os.environ, "TMPDIR": tmp})
        outs = [Path(tmp) / f"{n}.json" for n in range(len(urls))]
        assert done.returncode == 0 and all(out.is_file() for out in outs), (
            f"lighthouse failed ({done.returncode}) on {urls}:\n{done.stderr[-3000:]}")
        return [read(url, json.loads(out.read_text(encoding="utf-8"))) for url, out in zip(urls, outs)]


def read(url: str, lhr: dict) -> Report:
    """The scores and failing audits of a Lighthouse result (its JSON)."""
    audits = lhr["audits"]
    scores, failing = {}, {}
    for name in CATEGORIES:
        category = lhr["categories"][name]
        scores[name] = round((category["score"] or 0) * 100)
        failing[name] = [f"{audits[ref['id']]['title']} ({audits[ref['id']]['score']})"
                         for ref in category["auditRefs"]
                         if ref["weight"] and audits[ref["id"]]["score"] not in (None, 1)]
    metrics = {key: audits[key].get("numericValue", 0) for key in (
        "first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
        "cumulative-layout-shift", "speed-index")}
    return Report(url, scores, failing, metrics)
