"""The reader's tools in Debian's chromium, on a small digest made for them: following authors and
tags (and what is new from them on the home page), sharing saved papers by a link, papers like the
ones saved, words and kinds of presentation as filters, keys for everything, and storage that is
full (shown read-only, nothing lost)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import sitecheck
from browserkit import open_page
from factories import paper_source, write_content
from sitecheck import BASE_PATH, BASE_URL

STORE = "paper-digest:" + BASE_PATH
SAVED, FOLLOWS, VISITS = STORE + "saved", STORE + "follows", STORE + "visits"
ROWS = "#paper-list article.card"
TOPICS = ("graph", "kernel", "robot", "vision", "speech")
LONG_AUTHORS = ["Yu Yang", "Somnath Basu Roy Chowdhury", "Krzysztof Choromanski", "Arijit Sehanobish",
                "Avinava Dubey", "Snigdha Chaturvedi", "Jonghyeok Lee", "Yu Yang Li"]


def papers() -> dict[str, str]:
    """24 papers: the words of their titles and abstracts make related papers; four are orals,
    four spotlights; the newest four added on 2 May 2025, the others in April."""
    found = {}
    for n in range(24):
        topic = TOPICS[n % len(TOPICS)]
        found[f"p{n:02d}"] = paper_source(
            title=f"{topic.capitalize()} {'Survey' if n % 7 == 0 else 'Methods'} Number {n}",
            authors=LONG_AUTHORS if n == 1 else ["Ada Lovelace" if n % 3 == 0 else "Alan Turing", f"Writer {n}"],
            date=(dt.date(2025, 5, 2) if n >= 20 else dt.date(2025, 4, 1) + dt.timedelta(n)).isoformat(),
            tags=[topic], venue="ICLR 2025",
            presentation="oral" if n % 6 == 0 else "spotlight" if n % 6 == 1 else None,
            abstract=f"We study {topic} {topic} learning with {topic} models, case {n}.")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tools")
    site_yaml = f"title: A Digest With A Rather Longer Title\nbase_url: {BASE_URL}\n"
    return sitecheck.build(root / "site", BASE_URL, write_content(root, papers(), site_yaml))


@pytest.fixture
def reader(browser, origin):
    page = open_page(browser, origin)
    yield page
    # why: going to another page cancels what the one before was loading
    assert [p for p in page.watch.problems() if not p.endswith("net::ERR_ABORTED")] == []
    page.context.close()


def seed(page: Page, values: dict[str, str]) -> None:
    """Storage as a reader left it, before the first page of the test is opened."""
    script = "".join(f"localStorage.setItem({key!r}, {value!r});" for key, value in values.items())
    page.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1'); {script} }}")


# --- following -------------------------------------------------------------------------------------

def test_following_an_author_and_a_tag_marks_whats_new_from_them_first_on_the_home_page(reader):
    # a previous visit on 10 April: the papers added since then are new
    seed(reader, {VISITS: '{"current": "2025-04-10", "last": ""}'})
    reader.goto(BASE_PATH)
    reader.locator("#paper-list a", has_text="A. Lovelace").first.click()
    follow = reader.locator("section.author:target button.follow-toggle")
    expect(follow).to_have_text("Follow")
    follow.click()
    expect(follow).to_have_attribute("aria-pressed", "true")
    expect(follow).to_have_text("Following")
    reader.goto(BASE_PATH + "tags/speech/")
    reader.locator("button.follow-toggle").click()
    expect(reader.locator("button.follow-toggle")).to_have_attribute("aria-pressed", "true")
    reader.goto(BASE_PATH)
    followed = reader.locator("#followed article.card .card-title a")
    expect(reader.locator("#followed")).to_be_visible()
    number = lambda title: int(title.rsplit(" ", 1)[1])  # noqa: E731
    # why: by Ada Lovelace (n % 3 == 0) or tagged speech (n % 5 == 4), added after 10 April
    # (n >= 10), in the list's own order
    expected = [t for t in reader.locator(ROWS + " .card-title a").all_inner_texts()
                if (number(t) % 3 == 0 or number(t) % 5 == 4) and number(t) >= 10]
    assert followed.all_inner_texts() == expected and len(expected) == 6


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_the_follow_buttons_move_no_author_section(browser, origin, viewport):
    # why: an author's link scrolls to their section; buttons that pushed it down made Lighthouse's
    # layout shift 0.9 on a page of many authors
    where = {}
    for scripts in (False, True):
        page = open_page(browser, origin, viewport=viewport, java_script_enabled=scripts)
        page.goto(BASE_PATH)
        href = page.locator("#paper-list a[href$='#author-writer-23']").first.get_attribute("href")
        page.goto(href)
        if scripts:
            expect(page.locator("section.author:target button.follow-toggle")).to_be_visible()
            # why: and it sits beside its heading, on no line of the section's papers
            assert page.evaluate(
                "[...document.querySelectorAll('section.author')].filter(s => {"
                " const b = s.querySelector('.follow-toggle').getBoundingClientRect();"
                " return [...s.querySelectorAll('.author-papers li')].some(li => {"
                " const r = li.getBoundingClientRect();"
                " return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;"
                " }); }).length") == 0
        where[scripts] = page.evaluate(
            "[...document.querySelectorAll('section.author')].map(s => s.getBoundingClientRect().top"
            " + scrollY)")
        page.context.close()
    assert len(where[True]) > 10 and where[True] == where[False]


def test_the_saved_page_lists_what_is_followed_and_unfollows(reader):
    seed(reader, {FOLLOWS: '{"authors": {"ada-lovelace": "Ada Lovelace"}, "tags": {"graph": "graph"}}'})
    reader.goto(BASE_PATH + "saved/")
    items = reader.locator("#saved-follows li")
    expect(items).to_have_count(2)
    expect(items.first.locator("a")).to_have_text("Ada Lovelace")
    expect(items.first.locator("a")).to_have_attribute("href", re.compile(r"/authors/[0-9a-f]+/#author-ada-lovelace$"))
    items.first.locator("button").click()
    expect(items.first.locator("button")).to_have_attribute("aria-pressed", "false")
    assert reader.evaluate(f"JSON.parse(localStorage.getItem({FOLLOWS!r})).authors") == {}


# --- sharing by link -------------------------------------------------------------------------------

def test_a_shared_link_shows_its_papers_and_adds_them_to_the_readers_own(browser, origin):
    sender = open_page(browser, origin)
    seed(sender, {SAVED: '[{"slug": "p03", "title": "x"}, {"slug": "p07", "title": "y"}]'})
    sender.goto(BASE_PATH + "saved/")
    sender.locator("#saved-share-make").click()
    link = sender.locator("#saved-share-link").input_value()
    sender.context.close()
    assert link.startswith(origin + BASE_PATH + "saved/#papers=") and len(link) < 200
    receiver = open_page(browser, origin)
    try:
        seed(receiver, {SAVED: '[{"slug": "p07", "title": "y"}, {"slug": "p11", "title": "z"}]'})
        receiver.goto(link)
        expect(receiver.locator("#saved-shared-title")).to_have_text("A list of 2 papers shared with you")
        expect(receiver.locator("#saved-shared-list article.card")).to_have_count(2)
        receiver.locator("#saved-shared-add").click()
        expect(receiver.locator("#saved-shared-status")).to_have_text("Added 1 paper to your saved papers.")
        # why: merged, not replaced: the reader's own come first and nothing is lost
        kept = receiver.evaluate(f"JSON.parse(localStorage.getItem({SAVED!r})).map(i => i.slug)")
        assert kept == ["p07", "p11", "p03"]
        assert [p for p in receiver.watch.problems() if not p.endswith("net::ERR_ABORTED")] == []
    finally:
        receiver.context.close()


def test_a_hostile_or_stale_link_shows_what_it_can_and_says_what_it_could_not(reader):
    good = reader.evaluate("""() => {
        let d = 0x811c9dc5; new TextEncoder().encode("p05").forEach(b => { d = Math.imul(d ^ b, 0x01000193) >>> 0; });
        return d.toString(36); }""")
    reader.goto(f"{BASE_PATH}saved/#papers={good}.zzzzzz.<script>..%00.{good}")
    expect(reader.locator("#saved-shared-list article.card")).to_have_count(1)
    expect(reader.locator("#saved-shared-status")).to_have_text(re.compile(r"^3 papers of the link are not in this digest"))
    expect(reader.locator("script:not([src]):not([type])")).to_have_count(0)


# --- papers like the saved ones ----------------------------------------------------------------------

def test_the_saved_page_offers_papers_like_the_saved_ones_and_says_why(reader):
    seed(reader, {SAVED: '[{"slug": "p00", "title": "x"}, {"slug": "p05", "title": "y"}]'})
    reader.goto(BASE_PATH + "saved/")
    like = reader.locator("#saved-like article.card")
    expect(like.first).to_be_visible()
    titles = like.locator(".card-title a").all_inner_texts()
    assert 0 < len(titles) <= 10 and all(t.startswith("Graph") for t in titles[:3]), titles
    assert not [t for t in titles if t.endswith((" 0", " 5"))]  # not the saved ones
    expect(like.first.locator(".why")).to_have_text(re.compile(r"^related to [12] of your saved papers$"))


# --- words and kinds as filters --------------------------------------------------------------------

def test_words_to_include_and_exclude_filter_the_list_and_stay_in_the_url(reader):
    reader.goto(BASE_PATH)
    reader.fill("#list-words", "graph -survey")
    expect(reader.locator("#list-status")).to_have_text(re.compile(r"^4 papers with “graph -survey”"))
    assert "q=graph+-survey" in reader.url
    titles = reader.locator(ROWS + " .card-title a").all_inner_texts()
    assert titles and all(t.startswith("Graph Methods") for t in titles), titles
    reader.reload()
    expect(reader.locator("#list-words")).to_have_value("graph -survey")
    expect(reader.locator(ROWS)).to_have_count(4)


def test_the_kind_of_presentation_is_a_filter_with_tags_and_sort(reader):
    reader.goto(BASE_PATH + "?sort=title")
    reader.select_option("#list-kind", "oral")
    expect(reader.locator("#list-status")).to_have_text(re.compile(r"^4 papers presented as oral, by title"))
    assert "kind=oral" in reader.url and "sort=title" in reader.url
    expect(reader.locator(ROWS + " .badge", has_text="oral")).to_have_count(4)


# --- keys ----------------------------------------------------------------------------------------

def test_keys_move_through_a_list_save_open_and_show_themselves(reader):
    reader.goto(BASE_PATH)
    reader.keyboard.press("j")
    first = reader.locator(ROWS).first
    expect(first.locator(".card-title a")).to_be_focused()
    reader.keyboard.press("j")
    expect(reader.locator(ROWS).nth(1).locator(".card-title a")).to_be_focused()
    expect(reader.locator("[aria-live='polite']", has_text="2 of ")).to_have_count(1)
    reader.keyboard.press("k")
    reader.keyboard.press("s")
    expect(first.locator("button[data-save]")).to_have_attribute("aria-pressed", "true")
    reader.keyboard.press("?")
    expect(reader.locator("dialog.keys-help")).to_be_visible()
    reader.keyboard.press("Escape")
    expect(reader.locator("dialog.keys-help")).to_be_hidden()
    reader.keyboard.press("o")
    reader.wait_for_url(re.compile(r"/papers/p\d+/$"))


def test_keys_are_not_taken_while_typing(reader):
    reader.goto(BASE_PATH)
    reader.focus("#list-words")
    reader.keyboard.type("js")
    expect(reader.locator("#list-words")).to_have_value("js")
    assert reader.evaluate(f"localStorage.getItem({SAVED!r})") is None


# --- storage full ------------------------------------------------------------------------------------

FULL = """(() => {
  const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (!sessionStorage.getItem('filling')) { throw new DOMException('full', 'QuotaExceededError'); }
    return set.call(this, key, value);
  };
})();"""


def test_when_storage_is_full_what_is_kept_is_shown_read_only_and_said(reader):
    reader.add_init_script("sessionStorage.setItem('filling', '1');"
                           f"localStorage.setItem({SAVED!r}, '[{{\"slug\": \"p03\", \"title\": \"x\"}}]');"
                           "sessionStorage.removeItem('filling');")
    reader.add_init_script(FULL)
    reader.goto(BASE_PATH)
    button = reader.locator(ROWS + "[data-paper='p03'] button[data-save]")
    expect(button).to_be_visible()
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("aria-pressed", "true")
    reader.goto(BASE_PATH + "saved/")
    expect(reader.locator("#saved-needs-script")).to_have_text(re.compile(r"storage for this site is full"))
    expect(reader.locator("#saved-list article.card")).to_have_count(1)
    expect(reader.locator("#saved-clear")).to_be_disabled()


# --- polish ----------------------------------------------------------------------------------------

NO_LINE_STARTS_WITH_A_COMMA = """() => {
  const lines = new Map();
  const walker = document.createTreeWalker(document.querySelector("p.authors"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(",");
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at); range.setEnd(node, at + 1);
    const comma = range.getBoundingClientRect();
    const before = node.previousSibling.getBoundingClientRect();
    lines.set(node.previousSibling.textContent, comma.top < before.bottom && comma.bottom > before.top);
  }
  return [...lines].filter(([, same]) => !same).map(([name]) => name);
}"""


def test_no_line_of_a_papers_authors_starts_with_a_comma_or_splits_a_name(browser, origin):
    page = open_page(browser, origin, viewport={"width": 320, "height": 800})
    split = "[...document.querySelectorAll('.authors a')].filter(a => a.getClientRects().length > 1)" \
            ".map(a => a.textContent)"
    try:
        page.goto(BASE_PATH + "papers/p01/")
        for width in range(300, 800, 10):  # why: wherever the lines break
            page.set_viewport_size({"width": width, "height": 800})
            assert page.evaluate(NO_LINE_STARTS_WITH_A_COMMA) == [], width
            assert page.evaluate(split) == [], width  # why: "Yu / Yang" read as two people
    finally:
        page.context.close()


def test_a_saved_paper_says_saved(reader):
    reader.goto(BASE_PATH + "papers/p00/")
    button = reader.locator("article.paper button[data-save]")
    expect(button).to_have_text("Save")
    button.click()
    expect(button).to_have_text("Saved")
    expect(button).to_have_attribute("aria-pressed", "true")


def test_the_header_keeps_room_for_the_search_box_beside_a_long_title(browser, origin):
    page = open_page(browser, origin, viewport={"width": 1280, "height": 800})
    try:
        page.goto(BASE_PATH)
        box = page.locator("#site-search-input").bounding_box()
        assert box["width"] >= 13 * 16 - 1, box  # why: its placeholder was cut to "Search (pres"
    finally:
        page.context.close()
