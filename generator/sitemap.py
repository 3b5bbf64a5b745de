"""sitemap.xml, robots.txt, .nojekyll and CNAME: what crawlers and GitHub Pages look for."""

from __future__ import annotations

from html import escape

from . import urls as paths
from .keyed import KeyedFile
from .records import OutputFile, Site
from .site import newest_day
from .urls import Urls
from .xmlout import DECLARATION

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap_entries(site: Site) -> list[tuple[str, str]]:
    """(output path, last-modified day) of every page a search engine should index."""
    updated = site.updated.date().isoformat()
    size = site.config.page_size
    entries = [(path, updated) for path in paths.listing_files(paths.HOME, len(site.papers), size)]
    entries += [(paths.TAGS_INDEX, updated), (paths.SEARCH, updated)]
    entries += [(paths.paper_file(p.slug), p.date.isoformat()) for p in site.papers]
    for group in site.tags:
        newest = newest_day(group.papers).date().isoformat()
        entries += [(path, newest) for path in paths.listing_files(paths.tag_file(group.tag.slug),
                                                                   len(group.papers), size)]
    return entries


def crawler_files(site: Site) -> list[OutputFile]:
    """sitemap.xml, robots.txt naming it, .nojekyll for Pages, CNAME for a custom domain."""
    return [file.made() for file in crawler_plan(site)]


def crawler_plan(site: Site) -> list[KeyedFile]:
    """crawler_files(), each described by its inputs and made only when asked."""
    urls = Urls(site.config.base_url)
    entries = sitemap_entries(site)
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {urls.absolute(paths.SITEMAP)}\n".encode()
    # why: keyed by output paths and the base URL, which make the absolute URLs: 11,000 of
    # those at 10,000 papers took ~0.03 s of every rebuild, most of which has no new one
    files = [KeyedFile(paths.SITEMAP, (urls.base_url, entries),
                       lambda: sitemap([(urls.absolute(path), day) for path, day in entries])),
             _plain(paths.ROBOTS, robots), _plain(paths.NOJEKYLL, b"")]
    if site.config.cname:
        files.append(_plain(paths.CNAME, f"{site.config.cname}\n".encode()))
    return files


def sitemap(entries: list[tuple[str, str]]) -> bytes:
    """sitemap.xml listing (absolute URL, last-modified day) pairs, laid out as xml_document
    lays out a tree. Written as text: one edit remakes it, and ElementTree took ~60 ms of a
    10,000-paper rebuild to build and lay out the tree; this takes a tenth of that."""
    # why: html.escape, not xml.sax.saxutils's, which imports urllib and ssl (~15 ms a build)
    urls = "".join(f" <url>\n  <loc>{escape(loc, False)}</loc>\n  <lastmod>{escape(lastmod, False)}"
                   "</lastmod>\n </url>\n" for loc, lastmod in entries)
    return DECLARATION + f'<urlset xmlns="{SITEMAP_NS}">\n{urls}</urlset>\n'.encode("utf-8")


def _plain(path: str, data: bytes) -> KeyedFile:
    return KeyedFile(path, data, lambda: data)
