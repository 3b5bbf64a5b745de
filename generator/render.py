"""Rendering HTML pages: one context function per page kind, Jinja only lays out."""

from __future__ import annotations

import contextlib
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from . import urls as paths
from .keyed import identities, identity
from .memo import code_version, value_key
from .metadata import page_meta
from .records import OutputFile, Paper, Site, TagGroup
from .urls import Urls


class _Environment(jinja2.Environment):
    """Jinja, reading `card.title` from a dict as the key it is, at once.

    Every context is made of dicts, and Jinja tries `card.title` as an attribute first: the
    AttributeError it raises and catches for each took over half of rendering a list page's
    cards. The result is Jinja's own: a key named like a dict method is left to Jinja."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_NAMES = frozenset(dir(dict))


def make_environment(templates_dir: Path, compiled: Path | None = None) -> jinja2.Environment:
    """Autoescaping, strict Jinja: a typo in a template fails the build. With a `compiled`
    folder, templates compiled by an earlier build are read back from it, not compiled again."""
    return _Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        auto_reload=False,  # why: each build makes its own environment; no stat per page
        bytecode_cache=_compiled_templates(compiled) if compiled else None,
    )


def _compiled_templates(folder: Path) -> jinja2.BytecodeCache:
    """Jinja's own cache of compiled templates, under this code's version: compiling the
    templates took ~0.1 s of every rebuild, more than rendering the pages an edit changes.
    Jinja checks each template's source against what it compiled, and the options the
    environment compiles with are in the code, so the folder is this code's alone. Other
    versions' folders go once unused for a day (a preview server may still run one)."""
    here = folder / code_version()
    with contextlib.suppress(OSError):
        here.mkdir(parents=True, exist_ok=True)
        stale = time.time() - 24 * 3600
        for other in folder.iterdir():
            if other != here and other.stat().st_mtime < stale:
                shutil.rmtree(other, ignore_errors=True)
    return _KeptTemplates(str(here))


class _KeptTemplates(jinja2.FileSystemBytecodeCache):
    """A template that cannot be kept (a cache folder removed or read-only) is compiled
    again next time, not a failed build."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


@dataclass(frozen=True)
class Page:
    """One HTML page, described by what it is made from."""

    path: str
    template: str
    context: dict[str, Any]
    """Everything the template shows, except a paper page's paper and a list's cards."""
    paper: Paper | None = None
    """The paper of a paper page; its context is made from it."""
    listed: tuple[Paper, ...] | None = None
    """The papers whose cards a list page shows; None on other pages."""


@dataclass(frozen=True)
class PagePlan:
    """Every HTML page of the site, described; each is made on its own, in any process."""

    site: Site
    env: jinja2.Environment
    common: dict[str, Any]
    pages: list[Page]
    shared_key: str
    """A hash of what every page depends on: code, templates, site settings, `common`."""
    _cards: dict[str, Markup] = field(default_factory=dict)
    """Cards made so far in this process: the home page and the tag pages show the same."""
    _positions: dict[str, int] = field(default_factory=dict)
    """Each paper's place in the site's order, by slug."""

    def __len__(self) -> int:
        return len(self.pages)

    def keys(self) -> list[tuple[str, str]]:
        """Each page's path and a hash of everything its bytes depend on.

        A paper stands for itself by its source_key (what its record was made from); so a
        page's key is known without making its context."""
        shared, cite_keys = self.shared_key, self.site.cite_keys
        return [(page.path, value_key(shared, page.path, page.template,
                                      (identity(page.paper), cite_keys[page.paper.slug]), ())
                 if page.paper else
                 value_key(shared, page.path, page.template, page.context,
                           identities(page.listed or ())))
                for page in self.pages]

    def near(self, number: int) -> int:
        """A paper page's paper's place in the site's order; a list page's middle paper's."""
        if not self._positions:
            self._positions.update((paper.slug, n) for n, paper in enumerate(self.site.papers))
        page = self.pages[number]
        shown = (page.paper,) if page.paper else page.listed or ()
        return self._positions[shown[len(shown) // 2].slug] if shown else -1

    def make(self, number: int) -> OutputFile:
        """Page `number` rendered: its bytes depend on nothing but the plan."""
        page = self.pages[number]
        urls = Urls(self.site.config.base_url)
        context = paper_context(page.paper, self.site, urls) if page.paper else page.context
        if page.listed is not None:
            context = {**context, "cards": [self._card(paper, urls) for paper in page.listed]}
        meta = page_meta(self.site, urls, page.path, context["page_title"],
                         context["description"], page.paper)
        html = self.env.get_template(page.template).render({**self.common, **context, "meta": meta})
        return OutputFile(page.path, html.encode("utf-8"))

    def _card(self, paper: Paper, urls: Urls) -> Markup:
        if paper.slug not in self._cards:
            card = paper_card(paper, urls, self.site.config.home_excerpt_words)
            template = self.env.get_template("_partials/paper_card.html")
            self._cards[paper.slug] = Markup(template.render(card=card))
        return self._cards[paper.slug]


def plan_pages(site: Site, env: jinja2.Environment, asset_urls: dict[str, str]) -> PagePlan:
    """Every page's template and what it is made from."""
    urls = Urls(site.config.base_url)
    pages = [Page(paths.TAGS_INDEX, "tags.html", tags_index_context(site, urls)),
             Page(paths.SEARCH, "search.html", search_context(urls)),
             Page(paths.NOT_FOUND, "404.html", not_found_context(urls))]
    pages += listing_pages(paths.HOME, "index.html", home_context(site, urls), site.papers, site, urls)
    pages += [Page(paths.paper_file(p.slug), "paper.html", {}, paper=p) for p in site.papers]
    for g in site.tags:
        pages += listing_pages(paths.tag_file(g.tag.slug), "tag.html", tag_context(g, site, urls),
                               g.papers, site, urls)
    common = _common(site, urls, asset_urls)
    shared = value_key(code_version(), _templates(env), site.config, common)
    return PagePlan(site, env, common, pages, shared)


def render_pages(site: Site, env: jinja2.Environment, asset_urls: dict[str, str]) -> list[OutputFile]:
    """Every HTML page of the site, rendered here."""
    plan = plan_pages(site, env, asset_urls)
    return [plan.make(number) for number in range(len(plan))]


def _templates(env: jinja2.Environment) -> dict[str, str]:
    """Every template's source by name: a page may include or extend any of them."""
    assert env.loader is not None
    return {name: env.loader.get_source(env, name)[0] for name in env.list_templates()}


def _common(site: Site, urls: Urls, asset_urls: dict[str, str]) -> dict[str, Any]:
    config = site.config
    return {
        "site": {"title": config.title, "subtitle": config.subtitle,
                 "description": config.description, "language": config.language,
                 "title_language": config.title_language,
                 "curator": config.curator, "extra": config.extra,
                 "updated": site.updated.date().isoformat(),
                 "paper_count": len(site.papers)},
        "nav": {"home": urls.path(paths.HOME), "tags": urls.path(paths.TAGS_INDEX),
                "search": urls.path(paths.SEARCH), "feed": urls.path(paths.FEED),
                "all_bib": urls.path(paths.ALL_BIB)},
        "feeds": [{"title": config.title, "url": urls.absolute(paths.FEED)}],
        "assets": asset_urls,
        "search": {"worker": asset_urls["search-worker.js"], "lunr": asset_urls["lunr.min.js"],
                   "query": asset_urls["search-query.js"], "read": asset_urls["search-read.js"],
                   "unpack": asset_urls["search-index.js"], "answer": asset_urls["search-answer.js"],
                   "index": urls.path(paths.SEARCH_INDEX),
                   "meta": urls.path(paths.SEARCH_META), "docs": urls.path(paths.SEARCH_DOCS)},
        "hide_header_search": False,
    }


def paper_card(paper: Paper, urls: Urls, excerpt_words: int) -> dict[str, Any]:
    """What a list of papers shows for one paper."""
    return {
        "title": paper.title, "url": urls.path(paths.paper_file(paper.slug)),
        "authors": paper.authors, "venue": paper.venue,
        "date": paper.date.isoformat(), "date_human": human_date(paper.date),
        "tags": [tag_link(tag, urls) for tag in paper.tags],
        "links": [{"label": l.label, "url": l.url, "kind": l.kind} for l in paper.links],
        "excerpt": excerpt(paper.tldr or paper.abstract_text, excerpt_words),
        "draft": paper.draft,
    }


def listing_pages(first_page: str, template: str, context: dict[str, Any],
                  papers: tuple[Paper, ...], site: Site, urls: Urls) -> list[Page]:
    """A list of papers split into pages of `page_size`, each with previous/next links."""
    size = site.config.page_size
    files = paths.listing_files(first_page, len(papers), size)
    count = len(files)
    pages = []
    for n, path in enumerate(files, start=1):
        title = context["page_title"] or "Papers"
        pagination = {"page": n, "pages": count,
                      "prev": urls.path(files[n - 2]) if n > 1 else "",
                      "next": urls.path(files[n]) if n < count else ""}
        pages.append(Page(path, template, {
            **context, "total": len(papers), "pagination": pagination,
            "page_title": f"{title}, page {n}" if n > 1 else context["page_title"]},
            listed=papers[(n - 1) * size: n * size]))
    return pages


def tag_link(tag: Any, urls: Urls) -> dict[str, str]:
    """A tag's name and page URL."""
    return {"name": tag.name, "url": urls.path(paths.tag_file(tag.slug))}


def home_context(site: Site, urls: Urls) -> dict[str, Any]:
    """The home page: every paper, newest first (cards and pages added by listing_pages)."""
    return {"page_title": "", "description": site.config.description, "tag_count": len(site.tags)}


def paper_context(paper: Paper, site: Site, urls: Urls) -> dict[str, Any]:
    """A paper's own page: every field of the record, and its BibTeX entry."""
    card = paper_card(paper, urls, site.config.home_excerpt_words)
    return {"page_title": paper.title, "description": excerpt(paper.abstract_text, 30),
            "paper": {**card, "abstract_html": Markup(paper.abstract_html),
                      "notes_html": Markup(paper.notes_html), "tldr": paper.tldr,
                      "extra": paper.extra},
            "bibtex": {"entry": site.bibtex[paper.slug]}}


def tags_index_context(site: Site, urls: Urls) -> dict[str, Any]:
    """Every tag with its paper count."""
    return {"page_title": "Tags", "description": f"All {len(site.tags)} tags of {site.config.title}",
            "tags": [{**tag_link(g.tag, urls), "count": len(g.papers),
                      "feed": urls.path(paths.tag_feed_file(g.tag.slug)),
                      "bib": urls.path(paths.tag_bib_file(g.tag.slug))} for g in site.tags]}


def tag_context(group: TagGroup, site: Site, urls: Urls) -> dict[str, Any]:
    """One tag's papers, newest first (cards and pages added by listing_pages)."""
    slug = group.tag.slug
    feed = {"title": f"{site.config.title}: {group.tag.name}",
            "url": urls.absolute(paths.tag_feed_file(slug))}
    return {"page_title": f"Tag: {group.tag.name}", "tag": group.tag.name,
            "description": f"{len(group.papers)} paper{'s' if len(group.papers) != 1 else ''} "
                           f"tagged {group.tag.name}",
            "feeds": [feed, {"title": site.config.title, "url": urls.absolute(paths.FEED)}],
            "tag_feed": urls.path(paths.tag_feed_file(slug)),
            "tag_bib": urls.path(paths.tag_bib_file(slug))}


def search_context(urls: Urls) -> dict[str, Any]:
    """The search page; results and facets are drawn by search-page.js from the prebuilt index."""
    return {"page_title": "Search", "description": "Search titles, authors, tags and abstracts",
            "hide_header_search": True}


def not_found_context(urls: Urls) -> dict[str, Any]:
    """404.html, served by GitHub Pages at any depth: every URL in it is root-relative."""
    return {"page_title": "Page not found", "description": "This page does not exist."}


def excerpt(text: str, words: int) -> str:
    """The first `words` words, with an ellipsis when cut."""
    parts = text.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + " …"


def human_date(day: Any) -> str:
    """'24 April 2025', the same in every locale."""
    months = ("January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December")
    return f"{day.day} {months[day.month - 1]} {day.year}"
