"""Lighthouse (npm's, pinned) on each page kind of the real digest, served over HTTP, in mobile
emulation: performance 95 or more; accessibility, best practices and SEO 100.

One run per page (each ~10 s, ~6 s of it CPU); a failure lists the audits that did not pass."""

from __future__ import annotations

import pytest

import lighthousekit
import sitecheck
from sitecheck import BASE_PATH, shipped_author_page

PAGES = {"home": "", "paper": "papers/webrl/", "tag": "tags/llm/", "author": shipped_author_page("orion-weller"),
         "search": "search/?q=agents", "saved": "saved/"}
FLOORS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}

pytestmark = pytest.mark.lighthouse


@pytest.fixture(scope="module")
def origin(site):
    assert lighthousekit.LIGHTHOUSE.is_file(), (
        f"{lighthousekit.LIGHTHOUSE} is missing; run `npm ci` (or `make test-install`)")
    with sitecheck.serve(site, BASE_PATH) as url:
        yield url


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_lighthouse_scores(site, origin, path):
    if path == "saved/" and not (site / "saved/index.html").is_file():
        pytest.skip("this build has no saved page (saved/index.html): nothing to measure")
    report = lighthousekit.run(origin + BASE_PATH + path)
    print(report.describe())
    low = {c: s for c, s in report.scores.items() if s < FLOORS[c]}
    assert not low, f"under the floor: {low}\n{report.describe()}"
