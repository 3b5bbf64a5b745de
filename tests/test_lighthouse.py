"""Lighthouse (npm's, pinned) on each page kind of the real digest, served over HTTP, in mobile
emulation: performance 95 or more; accessibility, best practices and SEO 100.

Every page in one Node process and one chromium (~6 s a page, most of it CPU), each page its
own navigation with the cache cleared; a page under the performance floor is measured up to
twice more, and a failure lists the audits that did not pass."""

from __future__ import annotations

import pytest

import lighthousekit
import sitecheck
from sitecheck import BASE_PATH, shipped_author_page

PAGES = {"home": "", "paper": "papers/webrl/", "tag": "tags/llm/", "author": shipped_author_page("orion-weller"),
         "search": "search/?q=agents", "saved": "saved/"}
FLOORS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
AGAIN = 2
"""Runs more of a page under the performance floor, at most."""

pytestmark = pytest.mark.lighthouse


@pytest.fixture(scope="module")
def origin(site):
    assert lighthousekit.LIGHTHOUSE.is_file(), (
        f"{lighthousekit.LIGHTHOUSE} is missing; run `npm ci` (or `make test-install`)")
    with sitecheck.serve(site, BASE_PATH) as url:
        yield url


@pytest.fixture(scope="module")
def reports(site, origin) -> dict[str, lighthousekit.Report]:
    """Each page's report, by page name; the saved page only where the build has one."""
    pages = {name: path for name, path in PAGES.items()
             if path != "saved/" or (site / "saved/index.html").is_file()}
    urls = dict(zip(pages, (origin + BASE_PATH + path for path in pages.values())))
    reports = dict(zip(pages, lighthousekit.run_pages(list(urls.values()))))
    # why: performance is timed, on a shared machine beside the other worker's tests (a paper
    # page once scored 93, its Total Blocking Time 311 ms, and 100 alone; an author page twice
    # 90, its Total Blocking Time ~390 ms, on a host twice as busy as usual): a page under the
    # floor is measured up to twice more, as Lighthouse CI runs a page three times, and its
    # best run counts; a real slowdown fails all three
    for _ in range(AGAIN):
        slow = [name for name, report in reports.items()
                if report.scores["performance"] < FLOORS["performance"]]
        if not slow:
            break
        for name, again in zip(slow, lighthousekit.run_pages([urls[name] for name in slow])):
            if again.scores["performance"] > reports[name].scores["performance"]:
                reports[name] = again
    return reports


@pytest.mark.parametrize("name", PAGES)
def test_lighthouse_scores(reports, name):
    if name not in reports:
        pytest.skip("this build has no saved page (saved/index.html): nothing to measure")
    report = reports[name]
    print(report.describe())
    low = {c: s for c, s in report.scores.items() if s < FLOORS[c]}
    assert not low, f"under the floor: {low}\n{report.describe()}"
