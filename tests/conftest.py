"""Shared pytest settings: the import path, the fixtures every module may use, the markers that
make the fast tier, and the golden-site regeneration flag."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

pytest_plugins = ("sitefixtures", "browserkit")

MARKERS = {
    "browser": "drives Debian's chromium (given to every test that uses the browser fixture)",
    "lighthouse": "runs Lighthouse in chromium",
    "nu": "runs the Nu Html Checker (Java)",
    "slow": "a long run: the cache property's long shards, a whole corpus built",
}
"""What the fast tier (make test-fast) leaves out: `-m "not (browser or lighthouse or nu or slow)"`."""

SLOW_FIRST = ("slow", "lighthouse", "nu")
"""Markers of the longest tests, handed out first so that no worker is left with one at the end."""

BUILT_ONCE = frozenset({
    "test_browser_cjk", "test_browser_i18n", "test_browser_readers_tools", "test_browser_reading",
    "test_i18n", "test_import_end_to_end", "test_import_round_trip", "test_neurips_corpus",
    "test_lighthouse", "test_relevance", "test_search_injection", "test_serve_browser",
    "test_serve_live"})
"""Modules whose tests share a site (or server) that a module-scoped fixture builds: each is
kept on one worker (pytest-xdist's loadgroup), or every worker would build it again."""


def pytest_configure(config):
    # why: without pytest-xdist (-p no:xdist) its marker is unknown, and markers are strict
    config.addinivalue_line("markers", "xdist_group(name): tests kept on one pytest-xdist worker")
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker("browser")
        module = item.module.__name__ if item.module else ""
        if module in BUILT_ONCE and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(module))
    items.sort(key=lambda item: not any(item.get_closest_marker(m) for m in SLOW_FIRST))


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true",
                     help="rewrite tests/golden/site from the current build instead of comparing")
