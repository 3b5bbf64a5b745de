"""The preview server in a real browser: Debian's chromium driven by Playwright, no download.

One `build.py serve` subprocess for the module, the session's browser (browserkit), a fresh
context per test.
Every wait has a deadline (Playwright's expect); none is a sleep.
"""

from __future__ import annotations

import re
import shutil
import threading

import pytest
from playwright.sync_api import Page, expect

from factories import REPO
from generator.serve.handlers import PreviewServer, handler_for
from generator.serve.livereload import BuildStatus
from serveprocess import ServerProcess

TIMEOUT_MS = 15_000
PAPER = "content/papers/agentoccam.md"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser-serve")
    shutil.copytree(REPO / "content", root / "content")
    with ServerProcess("--content", "content", "--out", "_site", cwd=root) as server:
        yield root, server


@pytest.fixture()
def context(browser):
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


def set_front(root, key: str, value: str) -> None:
    """Rewrite one front-matter line of the paper on disk, as a curator's editor would."""
    path = root / PAPER
    text, count = re.subn(rf"(?m)^{key}: .*$", f"{key}: {value}", path.read_text(encoding="utf-8"))
    assert count == 1
    path.write_text(text, encoding="utf-8")


def wait_for_the_full_build(server, printed: int, pages: list[Page]) -> None:
    """Until the rebuild after the edit is done and every page shows its version: a save shows
    the paper's quick page first, then the full build's, so a tab reloads twice."""
    server.wait_for_output(r"^Rebuilt in ", after=printed)
    version = re.search(r'data-version="([^"]+)"', server.page("")).group(1)
    for page in pages:
        expect(page.locator(f'script[data-version="{version}"]')).to_have_count(1)


def open_paper(context, served) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(served[1].url + "papers/agentoccam/")
    page.evaluate("window.notReloaded = true")
    return page


def test_an_open_page_reloads_by_itself_when_a_papers_title_changes(context, served):
    root, server = served
    page = open_paper(context, served)
    printed = len(server.stdout)
    set_front(root, "title", "'AgentOccam, retitled on disk'")
    wait_for_the_full_build(server, printed, [page])
    expect(page.locator("h1")).to_have_text("AgentOccam, retitled on disk")
    assert page.evaluate("window.notReloaded") is None
    assert page.errors == []


def test_a_tab_whose_page_neither_the_quick_pages_nor_the_full_build_changed_is_not_reloaded(
        context, served):
    root, server = served
    paper, tags = open_paper(context, served), context.new_page()
    tags.goto(server.url + "tags/")  # its tags and their counts: a title is not on it
    tags.evaluate("window.notReloaded = true")
    printed = len(server.stdout)
    set_front(root, "title", "'AgentOccam, in one tab of two'")
    wait_for_the_full_build(server, printed, [paper, tags])
    expect(paper.locator("h1")).to_have_text("AgentOccam, in one tab of two")
    assert tags.evaluate("window.notReloaded") is True
    assert paper.errors == []


def test_every_open_tab_reloads_past_the_browsers_six_connections_per_host(context, served):
    pages = [open_paper(context, served) for _ in range(8)]
    printed = len(served[1].stdout)
    set_front(served[0], "title", "'AgentOccam, seen in eight tabs'")
    for page in pages:
        expect(page.locator("h1")).to_have_text("AgentOccam, seen in eight tabs")
    wait_for_the_full_build(served[1], printed, pages)


def test_a_broken_edit_shows_its_errors_over_the_page_until_it_is_fixed(context, served):
    root, _ = served
    page = open_paper(context, served)
    heading = page.locator("h1").inner_text()
    good_date = re.search(r"(?m)^date: (.*)$", (root / PAPER).read_text()).group(1)
    set_front(root, "date", "'<b>29/11/2026</b>'")
    overlay = page.locator("digest-build-errors")
    expect(overlay.locator("pre")).to_contain_text(
        re.compile(r"content/papers/agentoccam\.md:\d+: 'date' must be YYYY-MM-DD, "
                   r"got '<b>29/11/2026</b>'"))
    expect(overlay.locator("b")).to_have_count(0)  # the error's text, never its markup
    assert page.locator("h1").inner_text() == heading  # still the last good site
    set_front(root, "date", good_date)
    expect(overlay).to_have_count(0)
    assert page.evaluate("window.notReloaded")  # same site as before: cleared without a reload
    assert page.errors == []


@pytest.fixture()
def two_pages(tmp_path):
    """A home page and two papers' pages (one at a non-ASCII address), served live in this
    process, whose status a test sets."""
    site = tmp_path / "site"
    (site / "papers/x").mkdir(parents=True)
    (site / "papers/机器").mkdir(parents=True)
    for path, heading in (("index.html", "home"), ("papers/x/index.html", "paper"),
                          ("papers/机器/index.html", "机器")):
        (site / path).write_text(f"<!doctype html><title>{heading}</title><h1>{heading}</h1>"
                                 "<body></body>", encoding="utf-8")
    status = BuildStatus("/repo/")
    httpd = PreviewServer(("127.0.0.1", 0), handler_for(site, "/repo/", status))
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/repo/", status
    status.close()
    httpd.shutdown()
    httpd.server_close()


def test_a_quick_page_reloads_only_the_tabs_that_show_it_and_the_full_build_every_tab(
        context, two_pages):
    url, status = two_pages
    home, paper = context.new_page(), context.new_page()
    for page, path in ((home, ""), (paper, "papers/x/")):
        page.goto(url + path)
        page.evaluate("window.notReloaded = true")
    status.publish_quick({"papers/x/index.html": b"<!doctype html><title>x</title>"
                                                 b"<h1>quick</h1><body></body>"},
                         ["/repo/papers/x/"])
    expect(paper.locator("h1")).to_have_text("quick")
    # the home tab had the same event, at the same time, and took the version without reloading
    assert home.evaluate("window.notReloaded")
    status.publish([], site_changed=False)  # the full build: the paper's page from its file
    expect(paper.locator("h1")).to_have_text("paper")
    expect(home.locator("h1")).to_have_text("home")
    home.wait_for_function("window.notReloaded === undefined")


def test_a_build_that_names_what_it_changed_reloads_the_tabs_that_show_or_read_it_alone(
        context, two_pages):
    url, status = two_pages
    tabs = {name: context.new_page() for name in ("home", "paper", "fetched", "searched")}
    for name, page in tabs.items():
        page.goto(url + ("papers/x/" if name == "paper" else ""))
        page.evaluate("window.notReloaded = true")
    # a list's data read by the page; the search index read by its worker, which says so
    tabs["fetched"].evaluate("fetch('/repo/list.json').then((r) => r.text())")
    tabs["fetched"].wait_for_function(
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/list.json'))")
    tabs["searched"].evaluate("window.Digest = {readAside: ['/repo/search/index.json', "
                              "'/repo/search/docs/']}")

    def version_of(page: Page) -> str:
        return page.locator("script[data-version]").get_attribute("data-version")

    def reloaded_by(only: list[str], expected: set[str]) -> None:
        built = status.publish([], site_changed=True, base_path="/repo/", only=only)
        for name, page in tabs.items():
            expect(page.locator(f'script[data-version="{built.version}"]')).to_have_count(1)
            assert page.evaluate("window.notReloaded") is (None if name in expected else True)
            page.evaluate("window.notReloaded = true")
            if name == "searched":
                page.evaluate("window.Digest = {readAside: ['/repo/search/index.json', "
                              "'/repo/search/docs/']}")
        assert len({version_of(page) for page in tabs.values()}) == 1

    reloaded_by(["/repo/papers/x/"], {"paper"})
    reloaded_by(["/repo/papers/y/", "/repo/feed.xml"], set())
    reloaded_by(["/repo/list.json"], {"fetched"})
    reloaded_by(["/repo/search/docs/3.json"], {"searched"})
    reloaded_by(["/repo/"], {"home", "fetched", "searched"})


def test_a_tab_fetching_a_named_file_a_404_tab_and_one_at_an_address_escaped_otherwise_reload(
        context, two_pages):
    url, status = two_pages
    fetching, missing, escaped = (context.new_page() for _ in range(3))
    fetching.goto(url)
    missing.goto(url + "no/such/page/")  # the 404 page, which no build names at this address
    escaped.goto(url + "papers/%e6%9c%ba%e5%99%a8/")  # lowercase: Python's quote is uppercase
    expect(escaped.locator("h1")).to_have_text("机器")
    held = []
    fetching.route("**/list.json", lambda route: held.append(route))  # its answer held back
    with fetching.expect_request("**/list.json"):
        fetching.evaluate("fetch('/repo/list.json'); 0")
    assert not fetching.evaluate(  # so it is not in the resource timing: the fetch is not done
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/list.json'))")
    for page in (fetching, missing, escaped):
        page.evaluate("window.notReloaded = true")
    built = status.publish([], site_changed=True, base_path="/repo/",
                           only=["/repo/list.json", "/repo/papers/%E6%9C%BA%E5%99%A8/"])
    for page in (fetching, missing, escaped):
        expect(page.locator(f'script[data-version="{built.version}"]')).to_have_count(1)
        page.wait_for_function("window.notReloaded === undefined")
    # the 404 tab reloads even when the build names nothing it shows
    missing.evaluate("window.notReloaded = true")
    again = status.publish([], site_changed=True, base_path="/repo/", only=["/repo/feed.xml"])
    expect(missing.locator(f'script[data-version="{again.version}"]')).to_have_count(1)
    assert missing.evaluate("window.notReloaded") is None
