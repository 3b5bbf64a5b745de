"""sitemap.xml, robots.txt, .nojekyll and CNAME: what crawlers and GitHub Pages look for."""

from __future__ import annotations

from html import escape

from ..model import urls as paths
from ..model.records import FileJob, Site
from ..model.urls import Urls
from .kinds import sitemap_pages
from .xmlout import DECLARATION

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def crawler_jobs(site: Site) -> list[FileJob]:
    """sitemap.xml, robots.txt naming it, .nojekyll for Pages, CNAME for a custom domain."""
    urls = Urls(site.config.base_url)
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {urls.absolute(paths.SITEMAP)}\n".encode()
    files = [FileJob(paths.SITEMAP, sitemap_of, (urls.base_url, sitemap_pages(site))),
             _plain(paths.ROBOTS, robots), _plain(paths.NOJEKYLL, b"")]
    if site.config.cname:
        files.append(_plain(paths.CNAME, f"{site.config.cname}\n".encode()))
    return files


def sitemap_of(base_url: str, entries: list[tuple[str, str]]) -> bytes:
    """sitemap.xml of (output path, last-modified day) pairs."""
    urls = Urls(base_url)
    return sitemap([(urls.absolute(path), day) for path, day in entries])


def sitemap(entries: list[tuple[str, str]]) -> bytes:
    """sitemap.xml listing (absolute URL, last-modified day) pairs, laid out as xml_document
    lays out a tree. Written as text: one edit remakes it, and ElementTree took ~60 ms of a
    10,000-paper rebuild to build and lay out the tree; this takes a tenth of that."""
    # why: html.escape, not xml.sax.saxutils's, which imports urllib and ssl (~15 ms a build)
    urls = "".join(f" <url>\n  <loc>{escape(loc, False)}</loc>\n  <lastmod>{escape(lastmod, False)}"
                   "</lastmod>\n </url>\n" for loc, lastmod in entries)
    return DECLARATION + f'<urlset xmlns="{SITEMAP_NS}">\n{urls}</urlset>\n'.encode("utf-8")


def _plain(path: str, data: bytes) -> FileJob:
    return FileJob(path, bytes, (data,))
