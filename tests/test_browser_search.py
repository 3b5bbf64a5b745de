"""The built site in a real browser: Debian's chromium driven by Playwright, served by SiteHandler.

One build, one server and one browser per module; a fresh browser context per test. Every wait
has a deadline (Playwright's expect / wait_for_*), none is a sleep.
"""

from __future__ import annotations

import json
import re

import pytest
from lunr.index import Index
from playwright.sync_api import Page, expect

from browserkit import (READY, RESULT_LINKS, STATUS_OK, TIMEOUT_MS, open_search, result_titles,
                        type_query)
from generator.search.packed import unpack
from sitecheck import BASE_PATH, BASE_URL, said

UNLEARNING = "Towards Scalable Exact Machine Unlearning Using Parameter-Efficient Fine-Tuning"
PROMPTRIEVER = "Promptriever: Instruction-Trained Retrievers Can Be Prompted Like Language Models"


# --- searching ---------------------------------------------------------------------------------

def test_query_in_url_runs_on_load(page):
    open_search(page, "unlearning")
    expect(page.locator("#search-input")).to_have_value("unlearning")
    expect(page.locator(RESULT_LINKS).first).to_have_text(UNLEARNING, timeout=TIMEOUT_MS)
    expect(page.locator("#search-status")).to_have_text(STATUS_OK, timeout=TIMEOUT_MS)
    # what its worker read, which the preview server's reload script cannot see otherwise
    assert page.evaluate("window.Digest.readAside") == [
        f"{BASE_PATH}search/{name}" for name in ("index.json", "meta.json", "docs/")]
    assert not page.watch.problems(), page.watch.problems()


def test_typing_web_agents_lists_agentoccam_and_webrl(page):
    open_search(page)
    type_query(page, "web agents")
    first = result_titles(page)[:3]
    assert any(t.startswith("AgentOccam") for t in first), first
    assert any(t.startswith("WebRL") for t in first), first
    assert not page.watch.problems(), page.watch.problems()


def test_typo_still_finds_promptriever(page):
    open_search(page)
    type_query(page, "retreival")
    titles = result_titles(page)
    assert PROMPTRIEVER in titles, titles
    assert not page.watch.problems(), page.watch.problems()


def test_a_typo_beside_a_right_word_is_corrected_and_said(page):
    open_search(page)
    type_query(page, "exact unlaerning")
    assert result_titles(page)[0] == UNLEARNING
    notice = page.locator("#search-notice")
    expect(notice).to_have_text(said("Showing results for %(query)s", query="exact unlearning"))
    expect(notice.locator("em")).to_have_text("unlearning")
    type_query(page, "exact unlearning")
    expect(notice).to_have_text("")
    assert not page.watch.problems(), page.watch.problems()


def test_header_box_says_what_it_searched_instead(page):
    page.goto(BASE_PATH)
    page.keyboard.press("/")
    page.keyboard.type("unlaerning ")
    expect(page.locator("#site-search-notice")).to_have_text(
        said("Showing results for %(query)s", query="unlearning "))
    expect(page.locator("#site-search-results a").first).to_have_text(UNLEARNING)


ODD_QUERIES = ["foo:", "*", "~", "^", '"', "<img src=x onerror=alert(1)>", "title:", "+", "-",
               "\\", "%", ")(", "web~", "agents^10", "🙂", "a" * 300]


@pytest.mark.parametrize("query", ODD_QUERIES, ids=lambda q: q if len(q) <= 30 else f"{q[:5]}...x{len(q)}")
def test_odd_characters_are_harmless(page, query):
    # Once from the URL, once typed: neither may throw, inject markup or leave the status empty.
    open_search(page, query)
    expect(page.locator("#search-status")).to_have_text(STATUS_OK, timeout=TIMEOUT_MS)
    type_query(page, query + " x")
    expect(page.locator("#search-status")).to_have_text(STATUS_OK, timeout=TIMEOUT_MS)
    assert page.locator("#search-results img, #search-status img").count() == 0
    assert page.evaluate("document.images.length") == 0
    assert not page.watch.problems(), page.watch.problems()


def test_clicking_a_result_opens_the_paper(page):
    open_search(page, "unlearning")
    link = page.locator(RESULT_LINKS).first
    expect(link).to_have_text(UNLEARNING, timeout=TIMEOUT_MS)
    with page.expect_navigation():
        link.click()
    expect(page).to_have_url(re.compile(re.escape(BASE_PATH + "papers/") + r"[^/]+/$"))
    expect(page.locator("h1")).to_have_text(UNLEARNING, timeout=TIMEOUT_MS)
    assert not page.watch.problems(), page.watch.problems()


# --- lunr.js and lunr.py agree -----------------------------------------------------------------

PARITY_QUERIES = ["unlearning", "retrieval", "agents", "graph", "language models", "transf*",
                  "diffus*", "title:agents", "authors:weller", "+web +agents", "-llm agents",
                  "retreival~1", "audio", "conformal"]


def test_lunr_js_ranks_like_lunr_py(page, site):
    open_search(page)
    browser_results = page.evaluate(
        """async (queries) => {
            const config = window.DigestSettings.search;
            const load = (src) => new Promise((resolve, reject) => {
                const script = document.createElement("script");  // as the worker loads them
                script.src = src;
                script.onload = resolve;
                script.onerror = reject;
                document.head.appendChild(script);
            });
            await load(config.scripts.lunr);
            await load(config.scripts.read);  // why: index.js takes its digits from read.js
            await load(config.scripts.unpack);
            const packed = await (await fetch(config.index)).json();
            const index = lunr.Index.load(DigestIndex.unpackIndex(packed));
            return queries.map(q => {
                try { return index.search(q).map(r => [r.ref, r.score]); }
                catch (e) { return "error: " + e; }
            });
        }""", PARITY_QUERIES)
    index = Index.load(unpack(json.loads((site / "search/index.json").read_text(encoding="utf-8"))))
    mismatches = []
    for query, in_browser in zip(PARITY_QUERIES, browser_results):
        in_python = [(r["ref"], r["score"]) for r in index.search(query)]
        js_refs = in_browser if isinstance(in_browser, str) else [ref for ref, _ in in_browser]
        if js_refs != [ref for ref, _ in in_python]:
            mismatches.append(f"{query!r}: lunr.js {in_browser} != lunr.py {in_python}")
        elif [s for _, s in in_browser] != pytest.approx([s for _, s in in_python], rel=1e-3):
            mismatches.append(f"{query!r}: scores differ: lunr.js {in_browser}, lunr.py {in_python}")
    assert any(browser_results), "no query found anything"
    assert not mismatches, "\n".join(mismatches)


# --- pages in the browser ----------------------------------------------------------------------

def _check_links(page: Page, origin: str) -> list[str]:
    """GET every link, stylesheet and script of the current page that points into the site."""
    urls = page.eval_on_selector_all(
        "a[href], link[href], script[src], img[src]",
        "els => els.filter(e => !(e.getAttribute('href') || '').startsWith('#'))"
        "          .map(e => e.href || e.src)")
    broken = []
    for url in sorted(set(urls)):
        url = url.split("#")[0]
        if url.startswith(BASE_URL):  # absolute URLs (feed autodiscovery) point at the real host
            url = origin + BASE_PATH + url[len(BASE_URL):]
        if not url.startswith(origin):
            continue
        response = page.request.get(url, max_redirects=0)
        if response.status != 200:
            broken.append(f"{url}: HTTP {response.status}")
    return broken


def _stylesheet_applied(page: Page) -> None:
    header = page.locator(".site-header")
    expect(header).to_have_css("border-bottom-style", "solid")
    expect(header).to_have_css("border-bottom-width", "1px")


def test_404_page_at_a_deep_missing_path(page, origin):
    url = BASE_PATH + "no/such/page/"
    page.watch.expected_status[origin + url] = 404
    response = page.goto(url)
    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text(said("Page not found"))
    _stylesheet_applied(page)
    links = page.locator("main a")
    assert links.count() >= 3
    assert not _check_links(page, origin), _check_links(page, origin)
    assert not page.watch.problems(), page.watch.problems()


@pytest.mark.parametrize("path", ["", "tags/", "tags/web-agents/", "papers/webrl/", "search/",
                                  "papers/dynamic-low-rank-sparse-adaptation-for-large-language-models/"])
def test_pages_load_cleanly(page, origin, path):
    response = page.goto(BASE_PATH + path)
    assert response is not None and response.status == 200
    _stylesheet_applied(page)
    if path == "search/":
        page.focus("#search-input")
        page.wait_for_selector(READY, state="attached")
    else:
        page.wait_for_load_state("load")
    assert not _check_links(page, origin), _check_links(page, origin)
    assert not page.watch.problems(), page.watch.problems()
