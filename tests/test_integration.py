"""End to end: build the real content/ as a user would and check the pages it writes.

Two builds (sitefixtures): under a project base path and at a domain root. A third build checks
that the output is reproducible. Feeds, sitemap, BibTeX and metadata: test_publishing.py.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree as ET

import pytest

import sitecheck
from sitecheck import BASE_PATH, BASE_URL
from sitefixtures import tag_index

# LaTeX that must have been turned into text or markup before it reaches a reader.
RAW_LATEX = ("$\\textbf", "\\textbf{", "\\href", "\\texttt", "$\\downarrow", "\\downarrow",
             "\\uparrow", "\\times")


@pytest.fixture(scope="module")
def paper_pages(base_site) -> dict[str, sitecheck.Element]:
    """Each paper page's tree, by the text of its <h1>."""
    pages = {}
    for page in sorted((base_site / "papers").glob("*/index.html")):
        tree = sitecheck.parse_html(page)
        h1s = tree.find_all("h1")
        assert len(h1s) == 1, f"{page.relative_to(base_site)} has {len(h1s)} <h1> elements"
        title = h1s[0].text()
        assert title not in pages, f"two paper pages have the title {title!r}"
        pages[title] = tree
    return pages


def card_titles(tree: sitecheck.Element) -> list[str]:
    """Titles of the paper cards a listing page shows, in order."""
    titles = []
    for heading in tree.find_all("h2", cls="card-title"):
        link = heading.find("a")
        assert link is not None, f"card title without a link at line {heading.line}"
        titles.append(link.text())
    return titles


# --- pages -------------------------------------------------------------------------------------

def test_every_paper_has_a_page_with_its_exact_title(base_site, metadata, paper_pages):
    assert len(list((base_site / "papers").glob("*/index.html"))) == 19
    assert sorted(paper_pages) == sorted(p["title"] for p in metadata)
    for paper in metadata:
        tree = paper_pages[paper["title"]]
        head_title = tree.find("title").text()
        assert head_title.startswith(paper["title"]), (
            f"<title> {head_title!r} does not start with the paper's title {paper['title']!r}")


def test_every_paper_page_names_its_authors_in_order(metadata, paper_pages):
    for paper in metadata:
        tree = paper_pages[paper["title"]]
        shown = tree.find("article").find("p", cls="authors")
        assert shown is not None, f"no authors line on the page of {paper['title']!r}"
        assert shown.text() == ", ".join(paper["authors"]), paper["title"]


def test_every_paper_page_links_its_tags(base_site, metadata, paper_pages):
    for paper in metadata:
        tree = paper_pages[paper["title"]]
        tag_list = tree.find("article").find("ul", cls="tags")
        names = [a.text() for a in tag_list.find_all("a")] if tag_list else []
        assert names == paper["tags"], paper["title"]


def test_home_page_lists_every_paper(base_site, metadata):
    titles = card_titles(sitecheck.parse_html(base_site / "index.html"))
    assert sorted(titles) == sorted(p["title"] for p in metadata)


def test_tags_index_lists_every_tag_with_its_count(base_site, metadata):
    expected = Counter(tag for paper in metadata for tag in paper["tags"])
    shown = tag_index(base_site)
    assert {name: count for name, (_, count) in shown.items()} == dict(expected)


def test_every_tag_page_lists_exactly_the_papers_with_that_tag(base_site, metadata):
    shown = tag_index(base_site)
    tag_pages = sorted(p.parent.name for p in (base_site / "tags").glob("*/index.html"))
    assert len(tag_pages) == len(shown), "a tag page exists that the tags index does not list"
    for tag, (url, _) in shown.items():
        page = sitecheck.resolve(url, BASE_PATH, base_site)
        assert page is not None, f"tag {tag!r} links to {url}, which is not a file of the site"
        tree = sitecheck.parse_html(page)
        expected = sorted(p["title"] for p in metadata if tag in p["tags"])
        assert sorted(card_titles(tree)) == expected, f"tag page of {tag!r} ({url})"
        assert tag in tree.find("h1").text()


# --- links -------------------------------------------------------------------------------------

def test_every_internal_link_resolves_to_a_file(any_site):
    site, base_url, base_path = any_site
    ids = {p.relative_to(site).as_posix(): sitecheck.page_ids(p) for p in sitecheck.html_pages(site)}
    broken = []
    checked = 0
    for ref in sitecheck.all_urls(site):
        path = sitecheck.internal_path(ref.url, base_url)
        if path is None:
            continue  # external (arXiv, OpenReview, code)
        fragment = unquote(urlsplit(ref.url).fragment)
        if path == "":  # same-page fragment, e.g. the skip link
            if fragment not in ids[ref.page]:
                broken.append(f"{ref}: no element with id {fragment!r} on the page")
            continue
        checked += 1
        if not path.startswith(base_path):
            broken.append(f"{ref}: not under the base path {base_path} (internal URLs must be "
                          "root-relative and carry the base path)")
            continue
        target = sitecheck.resolve(path, base_path, site)
        if target is None:
            broken.append(f"{ref}: names no file of the built site")
        elif fragment and target.suffix == ".html":
            if fragment not in ids[target.relative_to(site).as_posix()]:
                broken.append(f"{ref}: {target.relative_to(site)} has no id {fragment!r}")
    assert checked > 500, f"only {checked} internal URLs found; is the collector broken?"
    assert not broken, "broken internal URLs:\n" + "\n".join(broken)


def test_asset_urls_carry_a_version(any_site):
    site, base_url, base_path = any_site
    unversioned = [str(ref) for ref in sitecheck.all_urls(site)
                   if urlsplit(ref.url).path.startswith(base_path + "assets/")
                   and not re.fullmatch(r"v=[0-9a-f]{6,}", urlsplit(ref.url).query)]
    assert not unversioned, "asset URLs without ?v=<hash>:\n" + "\n".join(unversioned)


def test_no_javascript_or_data_urls(any_site):
    site, base_url, _ = any_site
    unsafe = [str(ref) for ref in sitecheck.all_urls(site) if sitecheck.is_unsafe_scheme(ref.url)]
    docs = sitecheck.search_docs(site)
    unsafe += [f"search/docs: {d['url']}" for d in docs if sitecheck.is_unsafe_scheme(d["url"])]
    feed = ET.parse(site / "feed.xml").getroot()
    unsafe += [f"feed.xml: {e.text}" for e in feed.iter("link") if sitecheck.is_unsafe_scheme(e.text or "")]
    assert not unsafe, "javascript:/data: URLs:\n" + "\n".join(unsafe)


def test_search_docs_link_to_paper_pages(any_site, metadata):
    site, base_url, base_path = any_site
    docs = sitecheck.search_docs(site)
    assert sorted(d["title"] for d in docs) == sorted(p["title"] for p in metadata)
    for doc in docs:
        target = sitecheck.resolve(doc["url"], base_path, site)
        assert target is not None, f"search/docs: {doc['url']} names no file"
        assert sitecheck.parse_html(target).find("h1").text() == doc["title"]


# --- reproducibility ---------------------------------------------------------------------------

def test_second_build_is_byte_identical(base_site, tmp_path):
    # A different hash seed and time zone must not change a byte.
    again = sitecheck.build(tmp_path / "again", BASE_URL, PYTHONHASHSEED="12345", TZ="Asia/Shanghai")
    first, second = sitecheck.site_files(base_site), sitecheck.site_files(again)
    assert sorted(first) == sorted(second)
    differing = [name for name in first if first[name].read_bytes() != second[name].read_bytes()]
    assert not differing, f"files that differ between two builds: {differing}"


# --- no raw LaTeX ------------------------------------------------------------------------------

def _raw_latex(text: str) -> list[str]:
    found = []
    for needle in RAW_LATEX:
        for match in re.finditer(re.escape(needle), text):
            found.append(f"{needle!r} in …{text[max(0, match.start() - 40):match.end() + 40]}…")
    return found


def test_no_raw_latex_in_visible_text(base_site):
    problems = []
    for page in sitecheck.html_pages(base_site):
        tree = sitecheck.parse_html(page)
        texts = [tree.text()] + [e.attrs[a] for e in tree.iter() for a in ("content", "title", "alt")
                                 if a in e.attrs]
        problems += [f"{page.relative_to(base_site)}: {p}" for t in texts for p in _raw_latex(t)]
    assert not problems, "\n".join(problems)


def test_no_raw_latex_in_feed(base_site):
    root = ET.parse(base_site / "feed.xml").getroot()
    problems = [f"feed.xml <{e.tag}>: {p}" for e in root.iter() for p in _raw_latex(e.text or "")]
    assert not problems, "\n".join(problems)


def test_no_raw_latex_in_search_docs(base_site):
    docs = sitecheck.search_docs(base_site)
    problems = [f"search/docs[{i}].{key}: {p}" for i, doc in enumerate(docs) for key, value in doc.items()
                for text in (value if isinstance(value, list) else [value]) for p in _raw_latex(str(text))]
    assert not problems, "\n".join(problems)
