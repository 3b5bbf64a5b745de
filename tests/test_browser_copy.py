"""The BibTeX copy button in Debian's chromium: copies when allowed, degrades when refused.

One build, one server and one browser for the module; a fresh browser context per test.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

import sitecheck
from browserkit import TIMEOUT_MS
from sitecheck import BASE_PATH

PAPER = BASE_PATH + "papers/agentoccam/"
BUTTON = "button[data-copy-target='bibtex-entry']"
# why: a browser that refuses the clipboard rejects writeText and makes execCommand fail;
# doing both by hand makes the refusal certain whatever chromium's own policy is today.
REFUSE_CLIPBOARD = """
Object.defineProperty(Navigator.prototype, 'clipboard', {get() { return {
  writeText() { return Promise.reject(new DOMException('denied', 'NotAllowedError')); } }; }});
Document.prototype.execCommand = function () { throw new DOMException('denied', 'SecurityError'); };
"""


def entry(site: Path) -> str:
    tree = sitecheck.parse_html(site / "papers/agentoccam/index.html")
    return "".join(sitecheck.raw_text(tree.find("pre", id="bibtex-entry")))


def test_copy_button_puts_the_entry_on_the_clipboard(page, origin, site):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    page.goto(PAPER)
    page.locator(BUTTON).click()
    expect(page.locator("#bibtex-entry-status")).to_have_text(sitecheck.said("Copied to the clipboard."), timeout=TIMEOUT_MS)
    assert page.evaluate("navigator.clipboard.readText()") == entry(site)
    assert entry(site).startswith("@inproceedings{yang2025agentoccam,\n")
    assert not page.watch.problems(), page.watch.problems()


REFUSED = sitecheck.said("The browser did not allow copying: the text is selected, press Ctrl+C "
                         "(⌘C on a Mac).")


def test_refused_clipboard_selects_the_entry_and_says_how_to_copy(page, site):
    page.add_init_script(REFUSE_CLIPBOARD)
    page.goto(PAPER)
    page.locator(BUTTON).click()
    expect(page.locator("#bibtex-entry-status")).to_have_text(REFUSED, timeout=TIMEOUT_MS)
    assert page.evaluate("String(window.getSelection())").rstrip() == entry(site).rstrip()
    page.locator(BUTTON).click()  # a second try still does not throw
    expect(page.locator("#bibtex-entry-status")).to_have_text(REFUSED)
    assert not page.watch.problems(), page.watch.problems()


def test_without_javascript_the_entry_shows_and_the_button_stays_hidden(browser, origin, site):
    context = browser.new_context(base_url=origin, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(PAPER)
        expect(page.locator("#bibtex-entry")).to_be_visible()
        assert page.locator("#bibtex-entry").inner_text().strip() == entry(site).strip()
        expect(page.locator(BUTTON)).to_be_hidden()
    finally:
        context.close()
