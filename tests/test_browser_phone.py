"""Issue #20 in Debian's chromium: search that fits a phone (390 x 844) and the desktop, light
and dark, by keyboard only and without JavaScript; the one-row header, print, lone math symbols."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browserkit import RESULT_LINKS, TIMEOUT_MS, Watch, type_query
from sitecheck import BASE_PATH, said

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LOSA = "papers/dynamic-low-rank-sparse-adaptation-for-large-language-models/"


def new_page(browser, origin, viewport, scheme="light", javascript=True) -> Page:
    context = browser.new_context(base_url=origin, viewport=viewport, color_scheme=scheme,
                                  java_script_enabled=javascript)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.watch = Watch(page)
    return page


@pytest.fixture(params=["light", "dark"])
def phone(request, browser, origin):
    page = new_page(browser, origin, PHONE, request.param)
    yield page
    page.context.close()


@pytest.fixture(params=["light", "dark"])
def desktop(request, browser, origin):
    page = new_page(browser, origin, DESKTOP, request.param)
    yield page
    page.context.close()


def search_page(page: Page, query: str) -> None:
    page.goto(BASE_PATH + "search/?" + query)
    expect(page.locator(RESULT_LINKS).first).to_be_visible()


def tab_to(page: Page, selector: str, most: int = 40) -> None:
    """Press Tab until the focused element matches `selector`, as a keyboard user would."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{most} presses of Tab never reached {selector}")


def focused(page: Page) -> dict:
    return page.evaluate("() => ({facet: document.activeElement.dataset.facet,"
                         " value: document.activeElement.dataset.value,"
                         " id: document.activeElement.id, cls: document.activeElement.className})")


# --- results first on a phone --------------------------------------------------------------

def test_on_a_phone_the_first_result_is_on_the_first_screen_and_facets_wait_behind_filters(phone):
    search_page(phone, "q=learning")
    top = phone.locator(RESULT_LINKS).first.bounding_box()["y"]
    assert top < PHONE["height"] - 100, f"first result {top} px down"
    toggle = phone.locator("#search-filters-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(phone.locator("#search-facets")).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(phone.locator('#search-facets button[data-facet="tag"]').first).to_be_visible()
    assert not phone.watch.problems(), phone.watch.problems()


def test_on_a_desktop_the_facets_are_beside_the_results_with_no_filters_button(desktop):
    search_page(desktop, "q=learning")
    expect(desktop.locator("#search-filters-toggle")).to_be_hidden()
    facets = desktop.locator("#search-facets").bounding_box()
    results = desktop.locator("#search-results").bounding_box()
    assert facets["x"] > results["x"] + results["width"] - 1


# --- active filters are named, and removable ----------------------------------------------------

def test_an_active_filter_is_a_chip_and_named_in_the_count(phone):
    search_page(phone, "q=models&tag=llm")
    chip = phone.locator("#search-chips button.chip")
    expect(chip).to_have_count(1)
    name = said("tag: %(value)s", value="llm")
    expect(chip).to_have_text(re.compile(rf"^{re.escape(name)}\s*×$"))
    expect(chip).to_have_attribute("aria-label", said("Remove filter %(filter)s", filter=name))
    filtered = re.escape(said("Filtered by %(filters)s.", filters=name))
    expect(phone.locator("#search-status")).to_have_text(re.compile(rf"\S {filtered}$"))
    expect(phone.locator("#search-filters-toggle")).to_have_text(said("Filters (%(num)s)", num="1"))


def test_removing_the_last_chip_by_keyboard_keeps_focus_in_the_search(phone):
    search_page(phone, "q=models&tag=llm")
    phone.focus("#search-input")
    tab_to(phone, "button.chip")
    phone.keyboard.press("Enter")
    expect(phone).not_to_have_url(re.compile("tag=llm"))
    expect(phone.locator("#search-chips button")).to_have_count(0)
    expect(phone.locator("#search-input")).to_be_focused()


def test_removing_a_chip_moves_focus_to_the_next_chip(desktop):
    search_page(desktop, "q=models&tag=llm&tag=retrieval")
    chips = desktop.locator("#search-chips button.chip")
    expect(chips).to_have_count(2)
    chips.first.focus()
    desktop.keyboard.press("Enter")
    expect(chips).to_have_count(1)
    assert focused(desktop)["value"] == "retrieval"


# --- a facet toggled by keyboard keeps the focus -----------------------------------------------

def test_a_facet_toggled_by_keyboard_keeps_focus_on_the_desktop(desktop):
    search_page(desktop, "q=models")
    desktop.focus("#search-input")
    tab_to(desktop, '#search-facets button[data-facet="tag"]')
    name = focused(desktop)["value"]
    desktop.keyboard.press("Space")
    expect(desktop).to_have_url(re.compile(r"[?&]tag=" + re.escape(name)))
    button = desktop.locator(f'#search-facets button[data-facet="tag"][data-value="{name}"]')
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_be_focused()
    desktop.keyboard.press("Space")  # and off again, still there
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_be_focused()


def test_a_facet_toggled_by_keyboard_keeps_focus_on_a_phone(phone):
    search_page(phone, "q=models")
    phone.focus("#search-input")
    tab_to(phone, "#search-filters-toggle")
    phone.keyboard.press("Enter")
    expect(phone.locator("#search-filters-toggle")).to_have_attribute("aria-expanded", "true")
    tab_to(phone, '#search-facets button[data-facet="tag"]')
    name = focused(phone)["value"]
    phone.keyboard.press("Enter")
    button = phone.locator(f'#search-facets button[data-facet="tag"][data-value="{name}"]')
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_be_focused()


# --- the header combobox --------------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_header_box_is_a_combobox_that_keeps_focus(browser, origin, viewport):
    page = new_page(browser, origin, viewport)
    page.goto(BASE_PATH + "tags/")
    box = page.locator("#site-search-input")
    expect(box).to_have_attribute("role", "combobox")
    expect(box).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("/")
    page.keyboard.type("retrieval")
    options = page.locator("#site-search-results [role=option]")
    expect(options.first).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", options.first.get_attribute("id"))
    expect(box).to_be_focused()
    panel = page.locator("#site-search-panel").bounding_box()
    content = page.locator("main .wrap").evaluate(
        "el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);"
        " return {left: r.left + parseFloat(s.paddingLeft), right: r.right - parseFloat(s.paddingRight)}; }")
    assert abs(panel["x"] - content["left"]) <= 1 and abs(panel["x"] + panel["width"] - content["right"]) <= 1, (
        f"dropdown {panel} is not the content column {content}")
    page.keyboard.press("Escape")
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(box).to_be_focused()
    page.context.close()


def test_the_desktop_header_is_one_row(desktop):
    desktop.goto(BASE_PATH)
    boxes = [desktop.locator(s).bounding_box() for s in (".brand", ".site-header nav", "#site-search-input")]
    middles = [b["y"] + b["height"] / 2 for b in boxes]
    assert max(middles) - min(middles) < 12, boxes
    assert desktop.locator(".site-header").bounding_box()["height"] < 70


# --- the empty search page, and no layout shift ------------------------------------------------

def test_an_empty_search_shows_tags_and_recent_papers_until_a_query_is_typed(phone):
    phone.goto(BASE_PATH + "search/")
    browse = phone.locator("#search-browse")
    expect(browse.locator(".browse-tags a").first).to_be_visible()
    expect(browse.locator(".browse-tags .count").first).to_have_text(re.compile(r"^\d+$"))
    expect(browse.locator(".recent li")).to_have_count(10)
    type_query(phone, "agents")
    expect(browse).to_be_hidden()
    expect(phone.locator(RESULT_LINKS).first).to_be_visible()
    phone.fill("#search-input", "")
    phone.dispatch_event("#search-input", "input")
    expect(browse).to_be_visible()


LAYOUT_SHIFT = """() => new Promise(done => {
  let total = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value; })
    .observe({type: "layout-shift", buffered: true});
  setTimeout(() => done(total), 1500);
})"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("query", ["q=learning", "q=models&tag=llm", ""])
def test_the_search_page_does_not_shift_as_results_arrive(browser, origin, viewport, query):
    page = new_page(browser, origin, viewport)
    page.goto(BASE_PATH + "search/?" + query)
    if query:
        expect(page.locator(RESULT_LINKS).first).to_be_visible()
    shift = page.evaluate(LAYOUT_SHIFT)
    assert shift < 0.01, f"cumulative layout shift {shift}"
    page.context.close()


# --- without JavaScript -------------------------------------------------------------------------

@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_without_javascript_the_search_page_serves_the_reader(browser, origin, viewport):
    page = new_page(browser, origin, viewport, javascript=False)
    page.goto(BASE_PATH + "tags/")
    page.fill("#site-search-input", "agents")
    with page.expect_navigation():
        page.press("#site-search-input", "Enter")
    assert page.url.endswith(BASE_PATH + "search/?q=agents")
    expect(page.locator(".noscript")).to_be_visible()
    expect(page.locator("#search-filters-toggle")).to_be_hidden()
    expect(page.locator("#search-browse .recent a").first).to_be_visible()
    with page.expect_navigation():
        page.locator("#search-browse .browse-tags a").first.click()
    expect(page.locator("h1")).to_contain_text(said("Tag: %(name)s", name="").strip())
    page.context.close()


# --- print ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_print_is_black_on_white_without_chrome_and_bibtex_wraps(browser, origin, scheme):
    page = new_page(browser, origin, {"width": 700, "height": 900}, scheme)
    page.goto(BASE_PATH + LOSA)
    page.emulate_media(media="print")
    for chrome in (".site-header", ".site-footer", ".cite .buttons", ".paper-nav"):
        expect(page.locator(chrome)).to_be_hidden()
    colours = page.evaluate("() => [getComputedStyle(document.body).color,"
                            " getComputedStyle(document.body).backgroundColor]")
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    bibtex = page.locator(".bibtex")
    assert bibtex.evaluate("el => getComputedStyle(el).whiteSpace") == "pre-wrap"
    assert bibtex.evaluate("el => el.scrollWidth <= el.clientWidth"), "a BibTeX line is cut"
    page.context.close()


# --- lone math symbols ----------------------------------------------------------------------------

def test_a_lone_math_symbol_sits_in_the_sentence_like_text(desktop):
    desktop.goto(BASE_PATH + LOSA)
    arrow = desktop.locator(".abstract .math-symbol", has_text="↓")
    expect(arrow).to_have_count(1)
    # no operator spacing: the arrow is as wide as the character, and touches "68.73"
    gap = arrow.evaluate("el => el.getBoundingClientRect().left - el.previousElementSibling.getBoundingClientRect().right")
    assert abs(gap) < 1, f"{gap} px between 68.73 and ↓"
    assert not desktop.locator(".abstract mo", has_text="↓").count()


LAYOUT_SHIFTS = """() => new Promise(done => {
  const shifts = [];
  new PerformanceObserver(list => shifts.push(...list.getEntries().map(e => e.value)))
    .observe({type: "layout-shift", buffered: true});
  setTimeout(() => done(shifts), 1500);
})"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_list_does_not_move_when_its_controls_come_to_life(browser, origin, viewport):
    # why: the sort and filter form, hidden until reading/list-controls.js showed it, pushed the
    # list down 121 px on a phone: Lighthouse's layout shift 0.088 on the 10,000-paper home page
    page = new_page(browser, origin, viewport)
    page.goto(BASE_PATH)
    expect(page.locator("#list-controls")).to_be_visible()
    assert page.evaluate(LAYOUT_SHIFTS) == []
    page.context.close()
