"""The whole site as a host serves it: built under /<repo>/, served over HTTP, every link followed.

Every href and src of every page, every URL of every feed (the item descriptions' links too),
every sitemap URL, the robots.txt sitemap line and the BibTeX files' urls: each internal one must answer 200 from the
server, and none anywhere may be a javascript: or data: URL. 404.html must work at any depth.
"""

from __future__ import annotations

import http.client
import re
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

import pytest
from lxml import html as lxml_html

import sitecheck
from sitecheck import BASE_PATH, BASE_URL

SITEMAP_LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
ATOM_LINK = "{http://www.w3.org/2005/Atom}link"


def get(origin: str, path: str) -> tuple[int, str, bytes]:
    """Status, Content-Type and body of a GET to the test server."""
    parts = urlsplit(origin)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        conn.close()


def feed_urls(feed: Path, site: Path) -> list[tuple[str, str]]:
    """(where, URL) of a feed's links, self link and the links inside item descriptions."""
    where = feed.relative_to(site).as_posix()
    root = ET.parse(feed).getroot()
    found = [(where, e.text or "") for e in root.iter("link")]
    found += [(where, e.get("href", "")) for e in root.iter(ATOM_LINK)]
    for description in root.iter("description"):
        if (description.text or "").lstrip().startswith("<"):
            tree = lxml_html.fragment_fromstring(description.text, create_parent="div")
            found += [(f"{where} description", a.get("href", "")) for a in tree.iter("a")]
    return found


def every_url(site: Path) -> list[tuple[str, str]]:
    """(where, URL) of everything a reader, a feed reader or a crawler can follow."""
    found = [(str(ref), ref.url) for ref in sitecheck.all_urls(site)]
    for feed in [site / "feed.xml", *sorted((site / "tags").glob("*/feed.xml"))]:
        found += feed_urls(feed, site)
    found += [("sitemap.xml", e.text or "") for e in ET.parse(site / "sitemap.xml").iter(SITEMAP_LOC)]
    for bib in sorted(site.rglob("*.bib")):
        found += [(bib.relative_to(site).as_posix(), m) for m in re.findall(
            r"^  url = \{(.*)\},$", bib.read_text(encoding="utf-8"), re.M)]
    robots = (site / "robots.txt").read_text(encoding="utf-8").splitlines()
    found += [("robots.txt", line.split(":", 1)[1].strip()) for line in robots
              if line.startswith("Sitemap:")]
    return found


def test_every_link_of_pages_feeds_and_sitemap_answers_200(site, origin):
    urls = every_url(site)
    assert len(urls) > 1000, f"only {len(urls)} URLs collected; is a collector broken?"
    answers: dict[str, int] = {}
    broken = []
    for where, url in urls:
        path = sitecheck.internal_path(url, BASE_URL)
        if path is None or path == "":
            continue  # another host's page, or a fragment of this one (checked on disk)
        target = path + (f"?{urlsplit(url).query}" if urlsplit(url).query else "")
        if target not in answers:
            answers[target] = get(origin, target)[0]
        if answers[target] != 200:
            broken.append(f"{where}: {url} -> HTTP {answers[target]}")
    assert not broken, "broken links:\n" + "\n".join(broken)
    linked = {urlsplit(target).path for target in answers}
    files = [p.relative_to(site).as_posix() for p in site.rglob("*")
             if p.suffix in (".html", ".xml", ".bib") and p.name != "404.html"]
    unlinked = sorted(f for f in files if sitecheck.page_url_path(f, BASE_PATH) not in linked)
    assert not unlinked, "files no page, feed or sitemap links to:\n" + "\n".join(unlinked)


def test_no_javascript_or_data_url_anywhere(site):
    unsafe = [f"{where}: {url}" for where, url in every_url(site) if sitecheck.is_unsafe_scheme(url)]
    unsafe += [f"search/docs: {d['url']}" for d in sitecheck.search_docs(site)
               if sitecheck.is_unsafe_scheme(d["url"])]
    assert not unsafe, "javascript:/data: URLs:\n" + "\n".join(unsafe)


@pytest.mark.parametrize("missing", ["nope", "papers/nope/", "a/b/c/d/e.html", "tags/x/y/z/"])
def test_404_page_renders_with_its_styles_at_any_depth(origin, missing):
    status, kind, body = get(origin, BASE_PATH + missing)
    assert status == 404 and kind.startswith("text/html")
    tree = sitecheck.parse_html(body.decode("utf-8"))
    assert tree.find("h1").text() == sitecheck.said("Page not found")
    sheets = [link.attrs["href"] for link in tree.find_all("link", rel="stylesheet")]
    assert sheets and all(href.startswith(BASE_PATH) for href in sheets), sheets
    for href in sheets:
        status, kind, css = get(origin, href)
        assert status == 200 and kind.startswith("text/css") and b".wrap" in css, href
    for element in tree.iter():
        for attr in ("href", "src", "action"):
            value = element.attrs.get(attr)
            assert value is None or value.startswith(("/", "#", "https://")), (
                f"404.html: {attr}={value!r} would break at depth")
