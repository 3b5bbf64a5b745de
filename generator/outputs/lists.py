"""Lists of papers as readers scan them: short author lines, numbered page links,
and list.json, the data the browser sorts, filters and saves papers from."""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..model import urls as paths
from ..model.languages import text_language
from ..model.records import FileJob, Paper, Site
from ..model.slugs import author_slug
from ..model.urls import Urls
from .csljson import csl_name
from .interface import Interface

AUTHORS_SHOWN = 3
"""A row names this many authors in full; a longer list shows one fewer and '+N'."""
PAGE_WINDOW = 2
"""Numbered page links: this many on each side of the current page, besides the first and last."""


def short_name(name: str) -> str:
    """'Ada Lovelace' -> 'A. Lovelace', 'Benjamin Van Durme' -> 'B. Van Durme'; a name of one
    word (or in a script without spaces) is left whole."""
    parts = csl_name(name)
    if "family" not in parts or not parts["given"][:1].isalpha():
        return " ".join(name.split())
    return f"{parts['given'][0]}. {parts['family']}"


def short_authors(names: tuple[str, ...], urls: Urls, author_pages: int) -> dict[str, Any]:
    """The authors a row names ('A. Lovelace', with their URLs on the site's `author_pages`
    pages of authors) and how many it leaves out."""
    shown = names if len(names) <= AUTHORS_SHOWN else names[:AUTHORS_SHOWN - 1]
    return {"names": [{"name": short_name(name), "url": _author_url(name, urls, author_pages)}
                      for name in shown], "more": len(names) - len(shown)}


def _author_url(name: str, urls: Urls, author_pages: int) -> str:
    slug = author_slug(name)
    return urls.author(slug, author_pages) if slug else ""


def page_numbers(page: int, pages: int) -> list[int]:
    """The page numbers a numbered pagination shows, 0 where it leaves a gap:
    1 0 4 5 6 7 8 0 60 around page 6 of 60."""
    near = range(max(1, page - PAGE_WINDOW), min(pages, page + PAGE_WINDOW) + 1)
    shown = sorted({1, pages, *near})
    numbers: list[int] = []
    for n in shown:
        if numbers and n - numbers[-1] == 2:
            numbers.append(n - 1)  # why: a gap of one page is shorter as its number than as '…'
        elif numbers and n - numbers[-1] > 2:
            numbers.append(0)
        numbers.append(n)
    return numbers


def page_links(page: int, pages: int, first_page: str, urls: Urls) -> list[dict[str, Any]]:
    """The numbered links of page `page` of a list, newest first ('gap' where numbers are left
    out). The first page, the newest, is named rather than numbered: its number grows as papers
    are added, and every page that showed it would change."""
    return [{"gap": True, "number": 0, "url": "", "current": False, "newest": False} if n == 0 else
            {"gap": False, "number": n, "current": n == page, "newest": n == pages,
             "url": urls.path(paths.listing_file(first_page, n, pages))}
            for n in reversed(page_numbers(page, pages))]


def list_entry_json(paper: Paper, cite_key: str, urls: Urls, ui: Interface,
                    author_pages: int) -> str:
    """What the browser needs of one paper to list, sort, filter and export it, as list.json
    writes it. The title is the page's own escaped HTML (math as MathML), so a row drawn by
    script shows what a row drawn by the build does."""
    authors = short_authors(paper.authors, urls, author_pages)
    entry = {"slug": paper.slug, "key": cite_key, "title": paper.title_html,
             "text": paper.title_text, "url": urls.path(paths.paper_file(paper.slug)),
             "authors": authors["names"], "more": authors["more"], "venue": paper.venue,
             "presentation": paper.presentation, "added": paper.date.isoformat(),
             "added_human": ui.short_date(paper.date), "tags": [tag.slug for tag in paper.tags],
             "draft": paper.draft, "lang": text_language(paper.title_text, ui.language)}
    return _compact(entry)


def list_orders(papers: tuple[Paper, ...]) -> dict[str, list[int]]:
    """Each sort the home page offers, as positions in reading order: decided here, so the
    browser needs no collation of its own. 'added' is reading order itself."""
    by_position = list(enumerate(papers))
    title = sorted(by_position, key=lambda item: (item[1].title_text.casefold(), item[1].slug))
    venue = sorted(by_position, key=lambda item: (not item[1].venue, item[1].venue.casefold(),
                                                  item[0]))
    return {"added": list(range(len(papers))), "title": [n for n, _ in title],
            "venue": [n for n, _ in venue]}


def list_jobs(site: Site, entries: tuple[str, ...],
              related: Mapping[str, tuple[str, ...]]) -> list[FileJob]:
    """list.json: every paper of the site (its entry, as its paperparts.paper_parts() give it, in
    the site's order), its tags, the sort orders, and each paper's related papers (by place in
    the list: the saved page finds papers like the ones saved)."""
    urls = Urls(site.config.base_url)
    tags = tuple({"slug": g.slug, "name": g.name, "url": urls.path(paths.tag_file(g.slug))}
                 for g in site.tags)
    at = {paper.slug: n for n, paper in enumerate(site.papers)}
    near = [[at[slug] for slug in related.get(paper.slug, ())] for paper in site.papers]
    return [FileJob(paths.LIST_DATA, list_json, (entries, tags, list_orders(site.papers), near))]


def list_json(entries: tuple[str, ...], tags: tuple[dict[str, str], ...],
              orders: dict[str, list[int]], related: list[list[int]]) -> bytes:
    """Compact, key-sorted UTF-8 JSON of the list, its papers' entries given as JSON text: the
    same list always gives the same bytes."""
    # why: an entry is hashed and held as one string, not as a dict of a dozen values; the object
    # around the entries is written in the key order json.dumps(sort_keys=True) gives
    return (f'{{"orders":{_compact(orders)},"papers":[{",".join(entries)}],'
            f'"related":{_compact(related)},"tags":{_compact(list(tags))}}}').encode()


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
