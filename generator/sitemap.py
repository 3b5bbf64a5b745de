"""sitemap.xml, robots.txt, .nojekyll and CNAME: what crawlers and GitHub Pages look for."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from . import urls as paths
from .records import OutputFile, Site
from .urls import Urls

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap_entries(site: Site) -> list[tuple[str, str]]:
    """(output path, last-modified day) of every page a search engine should index."""
    updated = site.updated.date().isoformat()
    entries = [(path, updated) for path in _listing(paths.HOME, len(site.papers), site)]
    entries += [(paths.TAGS_INDEX, updated), (paths.SEARCH, updated)]
    entries += [(paths.paper_file(p.slug), p.date.isoformat()) for p in site.papers]
    for group in site.tags:
        newest = max(p.date for p in group.papers).isoformat()
        entries += [(path, newest) for path in _listing(paths.tag_file(group.tag.slug),
                                                        len(group.papers), site)]
    return entries


def _listing(first_page: str, items: int, site: Site) -> list[str]:
    pages = paths.page_count(items, site.config.page_size)
    return [paths.listing_file(first_page, n) for n in range(1, pages + 1)]


def crawler_files(site: Site) -> list[OutputFile]:
    """sitemap.xml, robots.txt naming it, .nojekyll for Pages, CNAME for a custom domain."""
    urls = Urls(site.config.base_url)
    root = ET.Element("urlset", {"xmlns": SITEMAP_NS})
    for path, lastmod in sitemap_entries(site):
        url = ET.SubElement(root, "url")
        ET.SubElement(url, "loc").text = urls.absolute(path)
        ET.SubElement(url, "lastmod").text = lastmod
    ET.indent(root, space=" ")
    sitemap = ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {urls.absolute(paths.SITEMAP)}\n"
    files = [OutputFile(paths.SITEMAP, sitemap), OutputFile(paths.ROBOTS, robots.encode()),
             OutputFile(paths.NOJEKYLL, b"")]
    if site.config.cname:
        files.append(OutputFile(paths.CNAME, f"{site.config.cname}\n".encode()))
    return files
