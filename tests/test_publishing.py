"""End to end, what readers arrive through besides pages: feeds, sitemap, BibTeX, metadata.

Built as a user would (sitefixtures): under a project base path and at a domain root.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

import feedparser

import feedcheck
import sitecheck
from sitecheck import BASE_PATH, BASE_URL, ROOT_URL
from sitefixtures import tag_index

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


# --- feed, sitemap, robots ---------------------------------------------------------------------

def _autodiscovered_feeds(page: Path) -> list[str]:
    """The RSS URLs a feed reader finds in a page's <head>, in order."""
    return [link.attrs["href"] for link in sitecheck.parse_html(page).find_all("link", rel="alternate")
            if link.attrs.get("type") == "application/rss+xml"]


def test_every_feed_passes_the_feed_check(any_site, metadata, source_papers):
    site, base_url, base_path = any_site
    feeds = [site / "feed.xml"] + sorted((site / "tags").glob("*/feed.xml"))
    assert len(feeds) == 1 + len({tag for paper in metadata for tag in paper["tags"]})
    expected = {base_url + f"papers/{p.slug}/": feedcheck.expected_item(p, sitecheck.said)
                for p in source_papers}

    def resolves(url: str) -> bool:
        return sitecheck.resolve(urlsplit(url).path, base_path, site) is not None
    problems = []
    for feed in feeds:
        data = feed.read_bytes()
        listed = {entry.link for entry in feedparser.parse(data).entries}
        problems += [f"{feed.relative_to(site)}: {problem}" for problem in feedcheck.feed_problems(
            data, base_url, resolves, {k: v for k, v in expected.items() if k in listed})]
    assert not problems, "\n".join(problems)
    titles = [entry.title for entry in feedparser.parse(feeds[0].read_bytes()).entries]
    assert sorted(titles) == sorted(p["title"] for p in metadata)


def test_every_tag_page_and_the_tags_index_offer_the_tags_feed(base_site, metadata):
    index = sitecheck.parse_html(base_site / "tags/index.html")
    for tag, (url, _) in tag_index(base_site).items():
        page = sitecheck.resolve(url, BASE_PATH, base_site)
        found = _autodiscovered_feeds(page)
        assert found[0] == ROOT_URL.rstrip("/") + url + "feed.xml", (tag, found)
        assert found[1] == BASE_URL + "feed.xml", "the whole digest's feed is offered second"
        assert index.find("a", href=url + "feed.xml") is not None, f"tags index lacks {tag}'s feed"
        feed = feedparser.parse(sitecheck.resolve(url + "feed.xml", BASE_PATH, base_site).read_bytes())
        assert sorted(e.title for e in feed.entries) == sorted(
            p["title"] for p in metadata if tag in p["tags"]), tag
    assert _autodiscovered_feeds(base_site / "index.html") == [BASE_URL + "feed.xml"]


def test_guids_are_the_same_whatever_the_base_url(base_site, root_site):
    def guids(site: Path) -> dict[str, str]:
        return {e.title: e.id for e in feedparser.parse((site / "feed.xml").read_bytes()).entries}
    assert guids(base_site) == guids(root_site)
    assert len(set(guids(base_site).values())) == 19


def test_feed_item_titles_are_the_source_titles(base_site, metadata):
    """Titles straight from the XML, so feedparser's own clean-up cannot hide a difference."""
    root = ET.parse(base_site / "feed.xml").getroot()
    titles = [item.findtext("title") for item in root.iter("item")]
    assert sorted(titles) == sorted(p["title"] for p in metadata)


def _expected_sitemap(site: Path, base_url: str) -> set[str]:
    pages = [p.relative_to(site).as_posix() for p in sitecheck.html_pages(site)]
    path = urlsplit(base_url).path
    origin = base_url[: -len(path)]
    # why: the 404 page is noindex; the saved page shows nothing but a reader's own papers
    return {origin + sitecheck.page_url_path(p, path) for p in pages
            if p not in ("404.html", "saved/index.html")}


def test_sitemap_lists_every_page_with_absolute_urls(any_site):
    site, base_url, _ = any_site
    root = ET.parse(site / "sitemap.xml").getroot()
    assert root.tag == SITEMAP_NS + "urlset"
    locs = [loc.text for loc in root.iter(SITEMAP_NS + "loc")]
    assert len(locs) == len(set(locs)), "sitemap lists a URL twice"
    assert all(loc.startswith(base_url) for loc in locs), [l for l in locs if not l.startswith(base_url)]
    assert set(locs) == _expected_sitemap(site, base_url)
    for url in root.iter(SITEMAP_NS + "url"):
        lastmod = url.findtext(SITEMAP_NS + "lastmod")
        assert lastmod and re.fullmatch(r"\d{4}-\d{2}-\d{2}", lastmod), lastmod


def test_robots_names_the_sitemap(any_site):
    site, base_url, _ = any_site
    lines = (site / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert f"Sitemap: {base_url}sitemap.xml" in lines
    assert (site / ".nojekyll").is_file()




# --- BibTeX ------------------------------------------------------------------------------------

ENTRY = re.compile(r"^@(\w+)\{([^,\s]+),\n(.*?)^\}\n", re.M | re.S)
UNESCAPE = {r"\&": "&", r"\%": "%", r"\$": "$", r"\#": "#", r"\_": "_",
            r"\textbackslash{}": "\\", r"\textbraceleft{}": "{", r"\textbraceright{}": "}",
            r"\textasciitilde{}": "~", r"\textasciicircum{}": "^"}


def bib_entries(text: str) -> dict[str, str]:
    """Key -> whole entry text, checking that nothing outside entries is left over."""
    found = {m.group(2): m.group(0) for m in ENTRY.finditer(text)}
    assert ENTRY.sub("", text).strip() == "", "text outside BibTeX entries"
    return found


def bib_title(entry: str) -> str:
    title = re.search(r"^  title = \{\{(.*)\}\},$", entry, re.M).group(1)
    for escaped, char in UNESCAPE.items():
        title = title.replace(escaped, char)
    return title


def test_all_bib_has_one_entry_per_paper_with_unique_stable_keys(base_site, root_site, metadata):
    entries = bib_entries((base_site / "all.bib").read_text(encoding="utf-8"))
    assert len(entries) == 19
    assert all(re.fullmatch(r"[a-z]+\d{4}[a-z0-9]*", key) for key in entries), sorted(entries)
    assert sorted(bib_title(e) for e in entries.values()) == sorted(p["title"] for p in metadata)
    for key, entry in entries.items():
        depth = 0
        for char in entry:
            depth += {"{": 1, "}": -1}.get(char, 0)
            assert depth >= 0, f"{key}: a '}}' closes more than was opened"
        assert depth == 0, f"{key}: unbalanced braces"
    assert sorted(entries) == sorted(bib_entries((root_site / "all.bib").read_text(encoding="utf-8")))


def test_paper_pages_carry_their_entry_of_all_bib(base_site, metadata):
    everything = bib_entries((base_site / "all.bib").read_text(encoding="utf-8"))
    assert len(everything) == len(metadata)
    for page in sorted((base_site / "papers").glob("*/index.html")):
        pre = sitecheck.parse_html(page).find("pre", id="bibtex-entry")
        assert pre is not None, f"{page.relative_to(base_site)} shows no BibTeX"
        shown = "".join(sitecheck.raw_text(pre))
        assert shown in everything.values(), f"{page.relative_to(base_site)}: entry not in all.bib"


# --- metadata for search engines and reference managers ----------------------------------------

def _meta(tree: sitecheck.Element) -> dict[str, list[str]]:
    """content of every <meta name|property>, by name."""
    found: dict[str, list[str]] = {}
    for meta in tree.find_all("meta"):
        name = meta.attrs.get("name") or meta.attrs.get("property")
        if name:
            found.setdefault(name, []).append(meta.attrs.get("content", ""))
    return found


def test_every_page_has_lang_canonical_description_and_social_tags(any_site):
    site, base_url, base_path = any_site
    origin = base_url[: -len(base_path)]
    for page in sitecheck.html_pages(site):
        relative = page.relative_to(site).as_posix()
        tree, where = sitecheck.parse_html(page), relative
        assert tree.find("html").attrs.get("lang") == sitecheck.shipped_language(), where
        meta = _meta(tree)
        for name in ("description", "og:title", "og:description", "og:type", "og:site_name"):
            assert len(meta.get(name, [])) == 1 and meta[name][0].strip(), f"{where}: {name}"
        assert meta["twitter:card"] == ["summary"], where
        assert meta["og:type"] == ["article" if relative.startswith("papers/") else "website"], where
        canonical = [l.attrs["href"] for l in tree.find_all("link", rel="canonical")]
        if relative == "404.html":
            assert canonical == [] and meta["robots"] == ["noindex"], "404.html must not be indexed"
            continue
        expected = origin + sitecheck.page_url_path(relative, base_path)
        assert canonical == [expected] and meta["og:url"] == [expected], where


def test_paper_pages_describe_the_paper_as_scholarly_article_json_ld(base_site, metadata):
    by_title = {p["title"]: p for p in metadata}
    for page in sorted((base_site / "papers").glob("*/index.html")):
        tree = sitecheck.parse_html(page)
        [script] = tree.find_all("script", type="application/ld+json")
        data = json.loads("".join(sitecheck.raw_text(script)))
        paper = by_title[data["headline"]]
        assert data["@type"] == "ScholarlyArticle"
        assert [a["name"] for a in data["author"]] == paper["authors"]
        assert data["keywords"] == paper["tags"] and data["datePublished"] == "2025"
        # why: the abstract is the page's own text; the JSON-LD does not say it again
        assert "abstract" not in data and data["url"].startswith(BASE_URL)
        same_as = data.get("sameAs", [])
        if "arxiv" in paper:
            assert f"https://arxiv.org/abs/{paper['arxiv']}" in same_as
        if "openreview" in paper:
            assert f"https://openreview.net/forum?id={paper['openreview']}" in same_as
        assert not [k for k in _meta(tree) if k.startswith("citation_")], "citation_tags is off"
