"""Browser fixtures shared by the end-to-end tests: Debian's chromium driven by Playwright.

conftest.py registers this module as a plugin: one chromium a test process, `site` (the shipped
digest under /iclr-digest/, built once a process) served over HTTP as `origin` for each module,
and a fresh `page` a test. A module may define its own `site` (or `origin`) to serve another.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import sitecheck
from sitecheck import BASE_PATH

TIMEOUT_MS = 10_000
RESULT_LINKS = "#search-results li.card h2.card-title a"
READY = '#search-input[data-ready="true"]'


def status_pattern(language: str) -> re.Pattern[str]:
    """What the search status may say in `language`: no match, or a count of matches, and the
    filters it is counted under."""
    from generator.content.theme import load_templates
    from generator.outputs.interface import interface, script_messages
    said = script_messages(interface(load_templates(sitecheck.REPO / "templates"), language))
    texts = [said["noMatch"], said["noMatchFilters"], *said["matches"].values()]
    parts = [re.escape(text).replace(re.escape("%(query)s"), ".*").replace(re.escape("%(num)s"), r"[\d,]+")
             for text in texts]
    filtered = re.escape(said["filteredBy"]).replace(re.escape("%(filters)s"), ".*")
    return re.compile("^(" + "|".join(parts) + ")( " + filtered + ")?$", re.S)


STATUS_OK = status_pattern(sitecheck.shipped_language())


@pytest.fixture(scope="module")
def site(base_site) -> Path:
    """The real digest built under /iclr-digest/ (a module may define its own)."""
    return base_site


@pytest.fixture(scope="module")
def origin(site) -> str:
    """`site` served over HTTP under its base path, for the module's tests."""
    with sitecheck.serve(site, BASE_PATH) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Browser:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=sitecheck.CHROMIUM, headless=True,
                                             args=sitecheck.CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watch:
    """What went wrong in a page: script errors, console errors, failed or 4xx/5xx requests."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.bad_responses: list[str] = []
        self.dialogs: list[str] = []
        self.expected_status: dict[str, int] = {}
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", self._console)
        page.on("requestfailed", lambda req: self.bad_responses.append(
            f"{req.url}: {req.failure}"))
        page.on("response", self._response)

        def dialog(d) -> None:
            self.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()
        page.on("dialog", dialog)

    def _console(self, msg) -> None:
        if msg.type != "error":
            return
        url = msg.location.get("url", "")
        # why: chromium asks for /favicon.ico at the origin's root once per browser, outside the
        # base path where the site has no say; whichever test runs then would see its 404.
        if url.endswith("/favicon.ico"):
            return
        if "status of" in msg.text and self.expected_status.get(url) is not None:
            return  # the page we asked for is meant to be an error page; chromium logs that
        self.errors.append(f"console.error: {msg.text} at {url}")

    def _response(self, response) -> None:
        if response.status >= 400 and self.expected_status.get(response.url) != response.status:
            self.bad_responses.append(f"{response.url}: HTTP {response.status}")

    def problems(self) -> list[str]:
        return self.errors + self.bad_responses + self.dialogs


def open_page(browser: Browser, origin: str, **options) -> Page:
    """A page in a fresh browser context (`options`: viewport, colour scheme, ...) at `origin`,
    its problems watched; the caller closes `page.context`."""
    context = browser.new_context(base_url=origin, **options)
    context.set_default_timeout(TIMEOUT_MS)
    # why: the site must not need anything from another host; and tests send nothing out.
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:\d+/)"), lambda route: route.abort())
    page = context.new_page()
    page.watch = Watch(page)  # listeners attached before the test navigates anywhere
    return page


@pytest.fixture
def page(browser, origin):
    page = open_page(browser, origin)
    yield page
    page.context.close()




def open_search(page: Page, query: str | None = None) -> None:
    url = BASE_PATH + "search/" + (f"?q={quote(query, safe='')}" if query is not None else "")
    response = page.goto(url)
    assert response is not None and response.status == 200, f"GET {url}: {response and response.status}"
    page.focus("#search-input")  # why: the index is fetched on first focus (or with a query)
    page.wait_for_selector(READY, state="attached")


def type_query(page: Page, text: str) -> None:
    """Type into the search box as a person would, then wait until search.js has run it."""
    box = page.locator("#search-input")
    box.fill("")
    box.press_sequentially(text)
    # search/page.js marks the list with the URL of the search whose results it shows.
    page.wait_for_function(
        """t => new URL(location.href).searchParams.get('q') === t &&
               document.getElementById('search-results').dataset.shown === location.pathname + location.search""",
        arg=text, timeout=TIMEOUT_MS)


def result_titles(page: Page) -> list[str]:
    return page.locator(RESULT_LINKS).all_inner_texts()
