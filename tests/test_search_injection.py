"""A paper whose every field carries markup is built, searched and opened: nothing runs, and the
text shows literally."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import sitecheck
from browserkit import RESULT_LINKS
from factories import paper_source, write_content

BASE = "https://example.org/evil/"
IMG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = '</script><script>window.__pwned=2</script>'
TITLE = f"Onerror study {IMG} {SCRIPT}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("evil")
    content = write_content(root, {"evil": paper_source(
        title=TITLE, authors=[f"Mallory {IMG}", SCRIPT], tags=[f"tag {IMG}"],
        abstract=f"An abstract with {IMG} and {SCRIPT} and $\\text{{{IMG}}}$.",
        body=f"Notes {IMG} {SCRIPT} [x](javascript:window.__pwned=3)\n")},
        site_yaml=f"title: Evil {SCRIPT}\nbase_url: {BASE}\n")
    return sitecheck.build(root / "site", BASE, content=content)


@pytest.fixture(scope="module")
def origin(site) -> str:
    with sitecheck.serve(site, "/evil/") as url:
        yield url


def assert_nothing_ran(page) -> None:
    assert page.evaluate("window.__pwned") is None
    handlers = "[...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length"
    assert page.evaluate(handlers) == 0
    assert not page.watch.dialogs


def test_search_results_show_markup_as_text(page):
    page.goto("/evil/search/")
    page.focus("#search-input")
    page.wait_for_selector('#search-input[data-ready="true"]', state="attached")
    page.fill("#search-input", "onerror")
    link = page.locator(RESULT_LINKS).first
    expect(link).to_have_text(TITLE)
    expect(page.locator("#search-results .authors").first).to_contain_text(f"Mallory {IMG}")
    expect(page.locator("#search-results .excerpt").first).to_contain_text(IMG)
    assert_nothing_ran(page)


@pytest.mark.parametrize("path", ["", "papers/evil/", "tags/", "search/?q=script"])
def test_pages_show_markup_as_text(page, path):
    page.goto("/evil/" + path)
    page.wait_for_load_state("load")
    page.watch.expected_status[page.url.split("?")[0] + "x"] = 404  # the notes' <img src=x>
    if path.startswith("search"):
        expect(page.locator(RESULT_LINKS).first).to_have_text(TITLE)
    assert_nothing_ran(page)
    if path == "papers/evil/":
        expect(page.locator("h1")).to_have_text(TITLE)
        expect(page.locator(".abstract")).to_contain_text(IMG)
        assert page.locator(".notes a[href^='javascript:']").count() == 0
