"""What a reader does with search, in Debian's chromium: the header box, query syntax, facets,
the URL state, the keyboard, pages without JavaScript, and accessibility checked by axe-core."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from browserkit import (RESULT_LINKS, TIMEOUT_MS, open_page, open_search, result_titles,
                        type_query)
from sitecheck import BASE_PATH, REPO, said, said_count

UNLEARNING = "Towards Scalable Exact Machine Unlearning Using Parameter-Efficient Fine-Tuning"
AXE = REPO / "node_modules/axe-core/axe.min.js"
PANEL_LINKS = "#site-search-results a"


def search_for(page: Page, query: str) -> list[str]:
    open_search(page)
    type_query(page, query)
    return result_titles(page)


def header_search(page: Page, text: str) -> None:
    page.goto(BASE_PATH)
    page.keyboard.press("/")
    expect(page.locator("#site-search-input")).to_be_focused()
    page.keyboard.type(text)
    expect(page.locator("#site-search-panel")).to_be_visible()


# --- the header box on every page ----------------------------------------------------------

def test_header_box_shows_highlighted_results_as_you_type(page):
    header_search(page, "unlearning")
    first = page.locator(PANEL_LINKS).first
    expect(first).to_have_text(UNLEARNING)
    expect(first.locator("mark")).to_have_text(["Unlearning"])
    expect(page.locator("#site-search-results .excerpt mark").first).to_have_text(
        re.compile("unlearning", re.I))
    assert page.url.endswith(BASE_PATH), "typing must not load another page"
    assert not page.watch.problems(), page.watch.problems()


def test_index_is_fetched_only_when_the_box_is_first_focused(page):
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(BASE_PATH + "tags/")
    page.wait_for_load_state("load")
    # once the page is idle, the worker loads lunr.js and our scripts, and nothing of the index
    page.wait_for_function("window.DigestSearch.engine.worker !== null")
    page.evaluate("Promise.race([window.DigestSearch.engine.warmed,"
                  " new Promise(done => setTimeout(done, 5000))])")
    assert [u for u in fetched if "/assets/lunr.min.js" in u]
    assert not [u for u in fetched if "/iclr-digest/search/" in u]  # the index and documents
    page.focus("#site-search-input")
    page.wait_for_selector('#site-search-input[data-ready="true"]', state="attached")
    assert [u for u in fetched if u.endswith("/search/index.json")]


def test_a_worker_that_fails_to_load_before_the_first_focus_is_reported(page):
    # why: the idle worker's script can be gone (a deploy replaced it); the focus tries again
    page.route("**/search/worker.js*", lambda route: route.fulfill(status=404, body="gone"))
    # why: counts the workers made; the warm-up's worker fails at once (a 404 on this server),
    # so `warmed` is set and cleared again too fast to be seen: its failure is what to wait for
    page.add_init_script("window.workersMade = 0; const Made = window.Worker;"
                         " window.Worker = function (url) { window.workersMade++; return new Made(url); };")
    page.goto(BASE_PATH + "tags/")
    page.wait_for_function("window.workersMade === 1 && window.DigestSearch.engine.worker === null")
    page.focus("#site-search-input")
    page.keyboard.type("unlearning")
    expect(page.locator("#site-search-status")).to_have_text(said("The search index could not be loaded."))


def test_scripts_that_fail_to_load_when_idle_are_loaded_on_focus(page):
    # why: the reader focuses while the idle worker's scripts are still loading, and they fail
    failed: list[str] = []

    def once(route):
        if failed:
            route.continue_()
            return
        failed.append(route.request.url)
        time.sleep(0.5)  # why: the focus comes first
        route.abort()

    page.route(re.compile(r".*/assets/lunr\.min\.js.*"), once)
    page.goto(BASE_PATH)
    page.evaluate("window.DigestSearch.engine.warm(); undefined")
    page.keyboard.press("/")
    page.keyboard.type("unlearning")
    expect(page.locator(PANEL_LINKS).first).to_have_text(UNLEARNING)
    assert failed


def test_arrow_keys_move_the_active_option_while_focus_stays_in_the_box(page):
    header_search(page, "web agents")
    box = page.locator("#site-search-input")
    options = page.locator("#site-search-results [role=option]")
    expect(options).to_have_count(2)
    expect(box).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", options.nth(0).get_attribute("id"))
    page.keyboard.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", options.nth(1).get_attribute("id"))
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(box).not_to_have_attribute("aria-activedescendant", re.compile("."))
    expect(box).to_be_focused()
    page.keyboard.type(" x")  # typing goes on in the box: nothing took focus away
    expect(box).to_have_value("web agents x")


def test_enter_opens_the_active_option(page):
    header_search(page, "web agents")
    expect(page.locator("#site-search-results [role=option]")).to_have_count(2)
    page.keyboard.press("ArrowDown")
    target = page.locator("#site-search-results [role=option] a").first.get_attribute("href")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(target)


def test_enter_with_no_active_option_opens_the_search_page(page):
    header_search(page, "web agents")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(BASE_PATH + "search/?q=web%20agents")


def test_escape_clears_the_box(page):
    header_search(page, "retrieval")
    expect(page.locator(PANEL_LINKS).first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#site-search-input")).to_have_value("")
    expect(page.locator("#site-search-panel")).to_be_hidden()


def test_escape_drops_an_answer_still_on_its_way(browser, origin):
    page = open_page(browser, origin)
    held = []
    # why: the worker's script held back, so the search typed is still unanswered at Escape
    page.route("**/search/worker.js*", lambda route: held.append(route))
    page.goto(BASE_PATH)
    page.keyboard.press("/")
    page.keyboard.type("retrieval")
    page.wait_for_timeout(500)  # why: past the box's 120 ms pause, so the search has been asked
    page.keyboard.press("Escape")
    assert held, "the box did not start the search worker"
    held[0].continue_()
    expect(page.locator('#site-search-input[data-ready="true"]')).to_be_attached()
    page.wait_for_timeout(500)  # why: time for the answer to come, and (it must not) be shown
    expect(page.locator("#site-search-input")).to_have_value("")
    expect(page.locator("#site-search-panel")).to_be_hidden()
    page.context.close()


NO_SCRIPT = ('Search needs JavaScript, which is off. Browse <a href="%(tags)s">the tags</a>, '
             '<a href="%(authors)s">the authors</a> or <a href="%(home)s">all papers</a> instead, '
             'or the tags and recent papers below.')


def test_without_javascript_the_box_leads_to_the_search_page_which_offers_the_indexes(browser, origin):
    context = browser.new_context(base_url=origin, java_script_enabled=False)
    page = context.new_page()
    page.goto(BASE_PATH + "papers/webrl/")
    page.fill("#site-search-input", "agents")
    with page.expect_navigation():
        page.press("#site-search-input", "Enter")
    assert page.url.endswith(BASE_PATH + "search/?q=agents")
    expect(page.locator("h1")).to_have_text(said("Search"))
    notice = page.locator(".noscript")
    expect(notice).to_contain_text(said(NO_SCRIPT).split("<")[0].strip())
    assert {a.get_attribute("href") for a in notice.locator("a").all()} == {
        BASE_PATH + "tags/", BASE_PATH + "authors/", BASE_PATH}
    expect(page.locator("#search-browse .browse-tags a").first).to_be_visible()
    context.close()


# --- query syntax --------------------------------------------------------------------------

def test_quoted_phrase_matches_only_the_phrase(page):
    assert {t.split(":")[0] for t in search_for(page, '"web agents"')} == {"AgentOccam", "WebRL"}
    assert search_for(page, '"agents web"') == []
    assert len(search_for(page, "agents web")) >= 2


def test_tag_query_scopes_to_tags(page):
    assert sorted(t.split(":")[0] for t in search_for(page, "tag:web-agents")) == ["AgentOccam", "WebRL"]


def test_author_query_scopes_to_authors(page):
    titles = search_for(page, "author:choromanski")
    assert sorted(titles) == sorted([UNLEARNING, "Variance-Reducing Couplings for Random Features"])


def test_minus_excludes_a_word(page):
    titles = search_for(page, "web agents -reinforcement")
    assert [t.split(":")[0] for t in titles] == ["AgentOccam"]


def test_last_word_is_a_prefix_while_typing(page):
    assert any(t.startswith("Track-On: Transformer") for t in search_for(page, "transf"))


def test_all_words_rank_before_some_words(page):
    titles = search_for(page, "exact unlearning retrieval")
    assert titles[0] == UNLEARNING or "Promptriever" in titles[0]
    assert len(titles) >= 2


# --- facets and the URL --------------------------------------------------------------------

def facet(page: Page, name: str):
    return page.locator(f'#search-facets button[data-facet="tag"][data-value="{name}"]')


def test_facet_click_filters_results_and_counts_follow(page):
    titles = search_for(page, "models")
    expect(facet(page, "llm")).to_be_visible()
    count = int(facet(page, "llm").locator(".count").inner_text())
    facet(page, "llm").click()
    expect(page).to_have_url(re.compile(r"[?&]tag=llm"))
    expect(page.locator(RESULT_LINKS)).to_have_count(count)
    expect(facet(page, "llm")).to_have_attribute("aria-pressed", "true")
    expect(facet(page, "llm").locator(".count")).to_have_text(str(count))
    assert count < len(titles)


def test_facet_alone_lists_every_paper_with_the_tag(page):
    page.goto(BASE_PATH + "search/?tag=web-agents")
    expect(page.locator(RESULT_LINKS)).to_have_count(2)


def test_url_state_survives_reload_and_back(page):
    search_for(page, "models")
    before = result_titles(page)
    facet(page, "llm").click()
    expect(page).to_have_url(re.compile(r"q=models.*tag=llm"))
    expect(page.locator(RESULT_LINKS)).not_to_have_count(len(before))
    filtered = result_titles(page)
    page.reload()
    expect(page.locator("#search-input")).to_have_value("models")
    expect(page.locator(RESULT_LINKS)).to_have_count(len(filtered))
    page.go_back()
    expect(page).not_to_have_url(re.compile("tag=llm"))
    expect(page.locator(RESULT_LINKS)).to_have_count(len(before))
    expect(facet(page, "llm")).to_have_attribute("aria-pressed", "false")


def test_results_count_is_announced(page):
    search_for(page, "unlearning")
    status = page.locator("#search-status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_text(said_count("%(num)s paper matches.", "%(num)s papers match.", 1))


# --- accessibility -------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["", "papers/webrl/", "tags/", "tags/llm/", "search/?q=agents"])
def test_axe_finds_no_serious_or_critical_violation(page, path):
    page.goto(BASE_PATH + path)
    if "q=" in path:
        expect(page.locator(RESULT_LINKS).first).to_be_visible(timeout=TIMEOUT_MS)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)
