"""Reading the digest in Debian's chromium: compact rows on a phone and a desktop, abstracts
opened in place, sorting and tag filters across every page (kept in the URL), numbered pages,
saving papers, the saved page's exports and clear button, "new" badges, what shows without
JavaScript, and that nothing is asked of another origin."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import browserkit
import sitecheck
from factories import paper_source, write_content
from sitecheck import BASE_PATH, BASE_URL, said, said_count

ROWS = "#paper-list article.card"
ROW_TITLES = ROWS + " .card-title a"
SAVED = "paper-digest:" + BASE_PATH + "saved"
VISITS = "paper-digest:" + BASE_PATH + "visits"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WORDS = ("Sparse", "attention", "graphs", "Bayesian", "agents", "retrieval", "diffusion", "kernel",
         "Robust", "causal", "memory", "vision", "tokens", "policy", "zebra", "audio", "proof")
VENUES = ("ICLR 2025", "NeurIPS 2024", "", "ACL 2025")
BIG = 120


# --- a digest bigger than one page --------------------------------------------------------------

def big_papers() -> list[dict]:
    """120 papers whose title order, venue order and added order all differ."""
    papers = []
    for n in range(BIG):
        words = [WORDS[(n * 7 + k * 5) % len(WORDS)] for k in range(8)]
        tags = [t for t, every in (("llm", 3), ("agents", 4), ("vision", 5)) if n % every == 0]
        papers.append({"slug": f"paper-{n:03d}", "title": " ".join(words) + f" {n}",
                       "date": dt.date(2025, 1, 1) + dt.timedelta(days=n), "venue": VENUES[n % 4],
                       "tags": tags or ["misc"]})
    return papers


def added_order(papers: list[dict]) -> list[dict]:
    return sorted(papers, key=lambda p: (-p["date"].toordinal(), p["title"].casefold(), p["slug"]))


def title_order(papers: list[dict]) -> list[dict]:
    return sorted(papers, key=lambda p: (p["title"].casefold(), p["slug"]))


@pytest.fixture(scope="module")
def big_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("big")
    sources = {p["slug"]: paper_source(title=p["title"], date=p["date"].isoformat(),
                                       venue=p["venue"] or None, tags=p["tags"],
                                       authors=["Ada Lovelace", "Charles Babbage", "Alan Turing",
                                                "Grace Hopper", "Edsger Dijkstra"],
                                       abstract=f"Abstract of paper {p['slug']}.")
               for p in big_papers()}
    site_yaml = f"title: Big Digest\nbase_url: {BASE_URL}\n"
    return sitecheck.build(root / "site", BASE_URL, write_content(root, sources, site_yaml))


@pytest.fixture(scope="module")
def big_origin(big_site) -> str:
    with sitecheck.serve(big_site, BASE_PATH) as url:
        yield url


def open_page(browser, origin: str, **options) -> Page:
    """A page in a fresh context as browserkit's `page`, which also records every request."""
    page = browserkit.open_page(browser, origin, **options)
    page.requested = []
    page.on("request", lambda request: page.requested.append(request.url))
    return page


@pytest.fixture
def reader(browser, origin):
    """A desktop page of the real digest."""
    page = open_page(browser, origin, viewport=DESKTOP)
    yield page
    page.context.close()


@pytest.fixture
def big(browser, big_origin):
    page = open_page(browser, big_origin, viewport=DESKTOP)
    yield page
    page.context.close()


def only_this_site(page: Page, origin: str) -> None:
    """Nothing asked of another origin (the route would abort it, and we look anyway)."""
    elsewhere = [url for url in page.requested
                 if not url.startswith(origin) and not url.startswith(("blob:", "data:"))]
    assert elsewhere == [], elsewhere
    # why: going to another page cancels what the one before was loading (the search's scripts)
    problems = [p for p in page.watch.problems() if not p.endswith("net::ERR_ABORTED")]
    assert not problems, problems


def titles(page: Page) -> list[str]:
    return page.locator(ROW_TITLES).all_inner_texts()


def wait_for_status(page: Page, pattern: str) -> None:
    expect(page.locator("#list-status")).to_have_text(re.compile(pattern))


# --- compact rows --------------------------------------------------------------------------------

@pytest.mark.parametrize("viewport, at_least, typical", [(PHONE, 3, 170), (DESKTOP, 5, 100)],
                         ids=["phone", "desktop"])
def test_rows_are_compact_several_to_a_first_screen(browser, origin, viewport, at_least, typical):
    # why: a card was ~380 px tall on a desktop; one fitted a phone's first screen
    page = open_page(browser, origin, viewport=viewport)
    try:
        page.goto(BASE_PATH)
        boxes = page.eval_on_selector_all(ROWS, "rows => rows.map(r => r.getBoundingClientRect())"
                                                " .map(b => ({top: b.top, height: b.height}))")
        on_first_screen = [b for b in boxes if b["top"] < viewport["height"]]
        assert len(on_first_screen) >= at_least, boxes[:6]
        heights = sorted(b["height"] for b in boxes)
        assert heights[len(heights) // 2] <= typical and heights[-1] <= 1.5 * typical, heights
        only_this_site(page, origin)
    finally:
        page.context.close()


def test_rows_label_the_added_date_and_name_authors_short(reader):
    reader.goto(BASE_PATH)
    first = reader.locator(ROWS).first
    day = sitecheck._interface(sitecheck.shipped_language()).short_date(dt.date(2026, 11, 29))
    expect(first.locator(".added")).to_have_text(said("added %(date)s", date=day))
    more = re.escape(said("more"))
    expect(first.locator(".short-authors")).to_have_text(re.compile(rf"^[A-Z]\. \S+, [A-Z]\. \S+ \+\d+ {more}$"))


def test_an_opened_row_shows_the_abstract_and_links_of_its_papers_page(reader, origin):
    reader.goto(BASE_PATH)
    first = reader.locator(ROWS).first
    expect(first.locator(".abstract")).to_have_count(0)
    first.locator("summary").click()
    # why: a row points to its paper; its abstract is fetched from the paper's page, once
    expect(first.locator(".abstract")).to_contain_text("Data attribution")
    expect(first.locator(".teaser")).to_be_hidden()
    expect(first.locator(".links a.link-arxiv")).to_have_attribute("href", re.compile("arxiv.org"))
    expect(first.locator(".on-paper-page a")).to_have_attribute(
        "href", BASE_PATH + "papers/adversarial-attacks-on-data-attribution/")
    fetched = [u for u in reader.requested if "/papers/" in u]
    first.locator("summary").click()
    first.locator("summary").click()
    expect(first.locator(".abstract")).to_have_count(1)
    assert [u for u in reader.requested if "/papers/" in u] == fetched
    only_this_site(reader, origin)


def test_a_row_opened_keeps_the_markup_of_the_papers_abstract(reader):
    reader.goto(BASE_PATH)
    paper = "a[href$='/dynamic-low-rank-sparse-adaptation-for-large-language-models/']"
    row = reader.locator(ROWS).filter(has=reader.locator(paper))
    row.locator("summary").click()
    # why: the abstract's LaTeX, as the paper's page shows it (\textbf, \downarrow)
    expect(row.locator(".abstract strong", has_text="68.73")).to_have_count(1)
    expect(row.locator(".abstract .math-symbol").first).to_have_text("↓")


def test_a_row_opens_to_its_whole_excerpt_without_javascript(browser, origin):
    page = open_page(browser, origin, java_script_enabled=False)
    try:
        page.goto(BASE_PATH)
        first = page.locator(ROWS).first
        teaser = first.locator(".teaser")
        closed = teaser.bounding_box()["height"]
        first.locator("summary").click()
        expect(teaser).to_be_visible()
        expect(teaser).to_contain_text("Data attribution")
        assert teaser.bounding_box()["height"] > closed  # why: on one line no more, but whole
        expect(page.locator("#list-controls")).to_be_hidden()
        expect(page.locator("button[data-save]").first).to_be_hidden()
        page.goto(BASE_PATH + "saved/")
        expect(page.locator("#saved-needs-script")).to_be_visible()
        expect(page.locator("#saved-needs-script")).to_contain_text("JavaScript")
        expect(page.locator("#saved-tools")).to_be_hidden()
        page.goto(BASE_PATH + "papers/agentoccam/")
        expect(page.locator("button[data-save]")).to_be_hidden()
    finally:
        page.context.close()


# --- sorting and filtering -----------------------------------------------------------------------

def test_the_built_pages_are_numbered_from_the_oldest(big):
    # why: 120 papers, 50 a page: page 1 holds the oldest 50, the first page the newest 70
    big.goto(BASE_PATH + "page/1/")
    nav = big.locator("nav.pagination[aria-label='Pages']")
    expect(nav.locator(".page-numbers a")).to_have_text(["Newest", "1"])
    expect(nav.locator("a[aria-current='page']")).to_have_text("1")
    expect(big.locator(ROWS)).to_have_count(50)
    assert titles(big) == [p["title"] for p in added_order(big_papers())[70:]]
    expect(big.locator("#list-controls")).to_have_count(0)
    big.locator("a[rel='prev']").click()
    expect(big.locator(ROWS)).to_have_count(70)
    assert titles(big) == [p["title"] for p in added_order(big_papers())[:70]]


def test_sorting_by_title_orders_every_paper_across_the_pages(big, big_origin):
    big.goto(BASE_PATH)
    expect(big.locator("#list-controls")).to_be_visible()
    assert not [u for u in big.requested if u.endswith("/list.json")], "list.json before it is used"
    big.focus("#list-sort")
    big.keyboard.press("ArrowDown")  # Newest added -> Title, by keyboard
    wait_for_status(big, r"^120 papers, by title, page 1 of 3\.$")
    assert big.url.endswith(BASE_PATH + "?sort=title")
    seen = titles(big)
    for number in ("2", "3"):
        big.locator(f"#paper-list .page-numbers a:text-is('{number}')").focus()
        big.keyboard.press("Enter")
        wait_for_status(big, rf"page {number} of 3\.$")
        expect(big.locator("#paper-list a[aria-current='page']")).to_have_text(number)
        seen += titles(big)
    assert big.url.endswith(BASE_PATH + "?sort=title&page=3")
    assert seen == [p["title"] for p in title_order(big_papers())]
    expect(big.locator("#paper-list")).to_be_focused()
    big.go_back()
    wait_for_status(big, r"page 2 of 3\.$")
    assert titles(big) == seen[50:100]
    only_this_site(big, big_origin)


def test_a_tag_filter_and_a_sort_combine_and_come_back_from_the_url(big, big_origin):
    papers = big_papers()
    big.goto(BASE_PATH + "?sort=title&tag=llm")
    llm = [p for p in title_order(papers) if "llm" in p["tags"]]
    wait_for_status(big, rf"^{len(llm)} papers tagged llm, by title\.$")
    assert titles(big) == [p["title"] for p in llm]
    expect(big.locator("#list-sort")).to_have_value("title")
    expect(big.locator("#list-filters button")).to_have_text(["llm ×"])
    # a second tag, chosen by keyboard: papers with both
    both = [p for p in llm if "agents" in p["tags"]]
    expect(big.locator("#list-tag option[value='agents']")).to_have_text(f"agents ({len(both)})")
    big.focus("#list-tag")
    big.keyboard.press("ArrowDown")  # passing an option by keyboard does not add it
    expect(big.locator("#list-filters button")).to_have_text(["llm ×"])
    big.select_option("#list-tag", "agents")
    big.keyboard.press("Enter")
    wait_for_status(big, rf"^{len(both)} papers tagged llm and agents, by title\.$")
    assert big.url.endswith(BASE_PATH + "?sort=title&tag=llm&tag=agents")
    assert titles(big) == [p["title"] for p in both]
    big.reload()
    wait_for_status(big, rf"^{len(both)} papers tagged llm and agents, by title\.$")
    assert titles(big) == [p["title"] for p in both]
    # removed by keyboard, the filter goes and focus stays in the controls
    big.locator("#list-filters button[data-tag='llm']").focus()
    big.keyboard.press("Enter")
    agents = [p for p in title_order(papers) if "agents" in p["tags"]]
    wait_for_status(big, rf"^{len(agents)} papers tagged agents, by title\.$")
    expect(big.locator("#list-tag")).to_be_focused()
    big.go_back()
    wait_for_status(big, rf"^{len(both)} papers tagged llm and agents")
    only_this_site(big, big_origin)


def test_sorting_by_venue_puts_papers_without_one_last(big):
    big.goto(BASE_PATH + "?sort=venue&tag=vision")
    vision = [p for p in added_order(big_papers()) if "vision" in p["tags"]]
    expected = sorted(vision, key=lambda p: (not p["venue"], p["venue"].casefold()))  # stable
    wait_for_status(big, rf"^{len(vision)} papers tagged vision, by venue\.$")
    assert titles(big) == [p["title"] for p in expected]


def test_back_to_the_page_as_built(big):
    big.goto(BASE_PATH)
    built = titles(big)
    big.select_option("#list-sort", "title")
    wait_for_status(big, "by title")
    assert big.url.endswith(BASE_PATH + "?sort=title")
    big.go_back()
    expect(big.locator(ROW_TITLES).first).to_have_text(built[0])
    assert titles(big) == built


# --- authors and a tag's BibTeX ---------------------------------------------------------------

def test_an_author_link_leads_to_their_section_and_every_paper_of_theirs(reader, origin):
    reader.goto(BASE_PATH + "papers/promptriever/")
    reader.locator("p.authors a", has_text="Orion Weller").click()
    section = reader.locator("section.author:target")
    expect(section.locator("h2")).to_have_text("Orion Weller")
    expect(section.locator(".author-papers a")).to_have_text(
        ["Promptriever: Instruction-Trained Retrievers Can Be Prompted Like Language Models"])
    assert "#author-orion-weller" in reader.url
    only_this_site(reader, origin)


def test_an_authors_old_address_is_sent_on_to_their_section(reader, origin):
    old = BASE_PATH + "authors/orion-weller/"
    reader.watch.expected_status[origin + old] = 404
    reader.goto(old)
    # why: authors had a page each; the page-not-found page sends the old address on (reading/moved.js)
    reader.wait_for_url(re.compile(r"/authors/[0-9a-f]+/#author-orion-weller$"))
    expect(reader.locator("section.author:target h2")).to_have_text("Orion Weller")
    # a section asked of the wrong page of authors is found on its own
    wrong = "0" if not reader.url.split("/authors/")[1].startswith("0/") else "1"
    reader.goto(f"{BASE_PATH}authors/{wrong}/#author-orion-weller")
    reader.wait_for_url(re.compile(r"/authors/[0-9a-f]+/#author-orion-weller$"))
    expect(reader.locator("section.author:target h2")).to_have_text("Orion Weller")


def test_a_tags_bibtex_is_its_papers_entries_of_all_bib(browser, origin, site):
    page = open_page(browser, origin, accept_downloads=True)
    try:
        page.goto(BASE_PATH + "tags/")
        link = page.locator("a[data-bib-tag='retrieval']")
        with page.expect_download() as download:
            link.click()
        assert download.value.suggested_filename == "retrieval.bib"
        bib = Path(download.value.path()).read_text(encoding="utf-8")
        tagged = [p for p in (site / "papers").glob("*/index.html")
                  if 'href="/iclr-digest/tags/retrieval/"' in p.read_text(encoding="utf-8")]
        everything = (site / "all.bib").read_text(encoding="utf-8")
        assert bib.count("@") == len(tagged) > 0
        assert all(entry in everything for entry in bib.split("\n\n"))
        only_this_site(page, origin)
    finally:
        page.context.close()


# --- saving --------------------------------------------------------------------------------------

def test_the_save_toggle_is_pressed_by_keyboard_and_kept_across_reloads(reader, origin):
    page = reader
    page.goto(BASE_PATH)
    toggle = page.locator(ROWS).nth(1).locator("button[data-save]")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    size = toggle.bounding_box()
    assert size["width"] >= 24 and size["height"] >= 24, size
    toggle.focus()
    page.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    slug = toggle.get_attribute("data-save")
    page.reload()
    expect(page.locator(f"{ROWS} button[data-save='{slug}']")).to_have_attribute("aria-pressed", "true")
    page.goto(f"{BASE_PATH}papers/{slug}/")
    on_page = page.locator("button[data-save]")
    expect(on_page).to_have_attribute("aria-pressed", "true")
    on_page.focus()
    page.keyboard.press("Enter")
    expect(on_page).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(f"JSON.parse(localStorage.getItem({SAVED!r}))") == []
    only_this_site(page, origin)


def bib_entries(site: Path) -> dict[str, str]:
    """all.bib's entries by key, each as the file has it."""
    text = (site / "all.bib").read_text(encoding="utf-8")
    entries = [e if e.endswith("\n") else e + "\n" for e in re.split(r"\n(?=@)", text)]
    return {re.match(r"@\w+\{([^,]+),", e).group(1): e.rstrip("\n") + "\n" for e in entries}


def test_the_saved_page_lists_exports_and_clears(browser, origin, site):
    page = open_page(browser, origin, accept_downloads=True)
    try:
        page.goto(BASE_PATH)
        for n in (3, 0):  # saved in this order: the page lists the latest first
            page.locator(ROWS).nth(n).locator("button[data-save]").click()
        wanted = [page.locator(ROWS).nth(n).get_attribute("data-paper") for n in (0, 3)]
        page.goto(BASE_PATH + "saved/")
        expect(page.locator("#saved-status")).to_have_text(
            said_count("%(num)s saved paper.", "%(num)s saved papers.", 2))
        expect(page.locator("#saved-list article.card")).to_have_count(2)
        assert [page.locator("#saved-list article.card").nth(n).get_attribute("data-paper")
                for n in (0, 1)] == wanted
        listed = json.loads((site / "list.json").read_text())["papers"]
        keys = {p["key"] for p in listed if p["slug"] in wanted}
        with page.expect_download() as download:
            page.locator("#saved-export-bib").click()
        bib = Path(download.value.path()).read_text(encoding="utf-8")
        entries = bib_entries(site)
        assert bib == "\n".join(entries[key] for key in sorted(entries) if key in keys)
        with page.expect_download() as download:
            page.locator("#saved-export-csl").click()
        items = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        published = {i["id"]: i for i in json.loads((site / "papers.json").read_text())}
        assert {i["id"] for i in items} == keys and all(i == published[i["id"]] for i in items)
        expect(page.locator("#saved-status")).to_have_text(said_count(
            "Exported %(num)s saved paper as CSL-JSON (saved-papers.json).",
            "Exported %(num)s saved papers as CSL-JSON (saved-papers.json).", 2))
        # clearing asks first; "Keep them" keeps them
        page.locator("#saved-clear").click()
        expect(page.locator("#saved-confirm")).to_be_visible()
        expect(page.locator("#saved-clear-no")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#saved-confirm")).to_be_hidden()
        expect(page.locator("#saved-list article.card")).to_have_count(2)
        page.locator("#saved-clear").click()
        page.locator("#saved-clear-yes").click()
        expect(page.locator("#saved-list article.card")).to_have_count(0)
        expect(page.locator("#saved-status")).to_have_text(said_count(
            "Removed %(num)s saved paper from this browser.",
            "Removed %(num)s saved papers from this browser.", 2))
        assert page.evaluate(f"localStorage.getItem({SAVED!r})") == "[]"
        page.reload()
        expect(page.locator("#saved-status")).to_have_text(
            said("No saved papers yet: press Save on a paper to keep it here."))
        expect(page.locator("#saved-export-bib")).to_be_disabled()
        only_this_site(page, origin)
    finally:
        page.context.close()


# --- new since the last visit --------------------------------------------------------------------

def test_no_new_badges_on_a_first_visit(big):
    big.goto(BASE_PATH)
    expect(big.locator(ROWS)).to_have_count(70)
    expect(big.locator(".badge-new")).to_have_count(0)
    assert big.evaluate(f"JSON.parse(localStorage.getItem({VISITS!r})).last") == ""


def test_papers_added_since_the_previous_visit_are_marked_new(big, big_origin):
    # a previous visit on 10 April 2025 (the digest's last paper was added on 30 April)
    big.add_init_script(f"""if (!sessionStorage.getItem('seeded')) {{
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem({VISITS!r}, JSON.stringify({{current: '2025-04-10', last: ''}}));
    }}""")
    big.goto(BASE_PATH)
    newer = [p for p in big_papers() if p["date"] > dt.date(2025, 4, 10)]
    expect(big.locator(".badge-new")).to_have_count(len(newer))
    marked = big.locator(f"{ROWS}:has(.badge-new) .card-title a").all_inner_texts()
    assert marked == [p["title"] for p in added_order(newer)]
    big.reload()  # the same day: the same badges
    expect(big.locator(".badge-new")).to_have_count(len(newer))
    big.select_option("#list-sort", "title")  # rows drawn by script are marked too
    wait_for_status(big, "by title")
    drawn = big.locator(f"{ROWS}:has(.badge-new) .card-title a").all_inner_texts()
    assert drawn == [p["title"] for p in title_order(big_papers())[:50] if p in newer]
    only_this_site(big, big_origin)
