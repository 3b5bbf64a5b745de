"""What each kind of page shows: one context function per page kind; Jinja only lays out
(outputs/render.py), and outputs/kinds.py says which pages there are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from markupsafe import Markup

from ..model import urls as paths
from ..model.languages import text_language
from ..model.records import Group, Paper, Site
from ..model.slugs import author_slug
from ..model.urls import Urls
from .interface import Interface, link_label, presentation_label
from .lists import short_authors

Link = tuple[str, str, str, str]
"""A paper as a link to it shows it (paper_link()): its title's HTML, its page's URL, its venue
and its title's `lang`. Plain values, so that the keys of the pages that show links hash them
with marshal, in one call a page (building/cache.py); link_values() is what a template reads."""
Threads = tuple[tuple[Link, ...], Link | None, Link | None]
"""A paper page's related papers, and its newer and older neighbours (threads_context())."""


def paper_languages(paper: Paper, site_language: str) -> dict[str, str]:
    """The `lang` of each part of a paper's own text on a site in `site_language`, '' where it
    reads as the page does (see model.languages.text_language)."""
    return {"title": text_language(paper.title_text, site_language),
            "excerpt": text_language(paper.tldr or paper.abstract_text, site_language),
            "tldr": text_language(paper.tldr, site_language),
            "abstract": text_language(paper.abstract_text, site_language),
            "notes": text_language(paper.notes_html, site_language)}


def common_context(site: Site, urls: Urls, asset_urls: dict[str, str],
                   menu: list[dict[str, str]]) -> dict[str, Any]:
    """What every page is given alike: the site, the header's `menu` and the places every
    page may link to. Nothing here changes when a paper is added or edited: a count or a date
    in every page's chrome would make one new paper rewrite every file."""
    config = site.config
    return {
        "site": {"title": config.title, "subtitle": config.subtitle,
                 "description": config.description, "language": config.language,
                 "title_language": config.title_language,
                 "curator": config.curator, "extra": config.extra},
        "nav": {"home": urls.path(paths.HOME), "tags": urls.path(paths.TAGS_INDEX),
                "authors": urls.path(paths.AUTHORS_INDEX), "saved": urls.path(paths.SAVED),
                "search": urls.path(paths.SEARCH), "feed": urls.path(paths.FEED),
                "all_bib": urls.path(paths.ALL_BIB), "papers_json": urls.path(paths.PAPERS_JSON)},
        "feeds": [{"title": config.title, "url": urls.absolute(paths.FEED)}],
        "menu": menu, "assets": asset_urls,
        "hide_header_search": False, "wide": False,
    }


def paper_card(paper: Paper, urls: Urls, excerpt_words: int, ui: Interface,
               author_pages: int) -> dict[str, Any]:
    """What a list of papers shows for one paper: a compact row that points to its page (the
    abstract, links and notes live there, and a row opened fetches them)."""
    return {
        "slug": paper.slug, "title": Markup(paper.title_html), "title_text": paper.title_text,
        "url": urls.path(paths.paper_file(paper.slug)),
        "short_authors": short_authors(paper.authors, urls, author_pages), "venue": paper.venue,
        "presentation": paper.presentation,
        "presentation_label": presentation_label(paper.presentation, ui),
        "date": paper.date.isoformat(), "date_human": ui.date(paper.date),
        "date_short": ui.short_date(paper.date),
        "tags": [tag_link(tag, urls) for tag in paper.tags],
        "excerpt": excerpt(paper.tldr or paper.abstract_text, excerpt_words),
        "tldr": paper.tldr, "draft": paper.draft, "lang": paper_languages(paper, ui.language),
    }


def tag_link(tag: Any, urls: Urls) -> dict[str, str]:
    """A tag's name and page URL."""
    return {"name": tag.name, "url": urls.path(paths.tag_file(tag.slug))}


def author_links(names: tuple[str, ...], urls: Urls, author_pages: int) -> list[dict[str, str]]:
    """Each name with its author's URL ('' for a name with no letters, which has none)."""
    slugs = [author_slug(name) for name in names]
    return [{"name": name, "url": urls.author(slug, author_pages) if slug else ""}
            for name, slug in zip(names, slugs)]


def home_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """What the home page's first page shows besides its papers: how many there are and when
    the digest was last updated, the tags its filter offers, with their paper counts, and the
    kinds of presentation (oral, spotlight, poster) its papers have, if any."""
    shown = {paper.presentation for paper in site.papers if paper.presentation}
    kinds = [{"value": kind, "label": presentation_label(kind, ui)}
             for kind in ("oral", "spotlight", "poster") if kind in shown]
    return {"total": len(site.papers), "tag_count": len(site.tags), "kinds": kinds,
            "updated": site.updated.date().isoformat(), "updated_human": ui.date(site.updated.date()),
            "filter_tags": [{"slug": g.slug, "name": g.name, "count": len(g.papers)}
                            for g in site.tags]}


def paper_links(site: Site, urls: Urls) -> Mapping[str, Link]:
    """Each paper's paper_link, by slug: made once a paper, not once a page that shows it (about
    seven paper pages and five author sections each), and when first asked for: the preview
    server's quick pages ask for a few of 10,000 (~0.03 s)."""
    return _PaperLinks({paper.slug: paper for paper in site.papers}, urls, site.config.language)


class _PaperLinks(Mapping[str, Link]):
    """paper_links(): every paper's link, each made as it is first looked up."""

    def __init__(self, papers: dict[str, Paper], urls: Urls, language: str) -> None:
        self._papers, self._urls, self._language = papers, urls, language
        self._made: dict[str, Link] = {}

    def __getitem__(self, slug: str) -> Link:
        link = self._made.get(slug)
        if link is None:
            link = self._made[slug] = paper_link(self._papers[slug], self._urls, self._language)
        return link

    def __iter__(self) -> Iterator[str]:
        return iter(self._papers)

    def __len__(self) -> int:
        return len(self._papers)


def threads_context(papers: tuple[Paper, ...], n: int, link_of: Mapping[str, Link],
                    related: Mapping[str, tuple[str, ...]]) -> Threads:
    """What the page of `papers[n]` shows of other papers: its related papers, and the newer
    and older papers beside it in reading order (none past either end); `link_of` is
    paper_links(). Tuples of plain values, not dicts, so that the build's key of the page
    hashes them with marshal, in one call (building/cache.py)."""
    return (tuple(link_of[slug] for slug in related.get(papers[n].slug, ())),
            link_of[papers[n - 1].slug] if n > 0 else None,
            link_of[papers[n + 1].slug] if n + 1 < len(papers) else None)


def threads_values(threads: Threads) -> dict[str, Any]:
    """threads_context() as the paper page's template reads it."""
    related, newer, older = threads
    return {"related": [link_values(link) for link in related],
            "newer": newer and link_values(newer), "older": older and link_values(older)}


def paper_link(paper: Paper, urls: Urls, site_language: str) -> Link:
    """A paper as a link to it shows it: its title (and the title's `lang`), page URL and venue."""
    return (paper.title_html, urls.path(paths.paper_file(paper.slug)), paper.venue,
            text_language(paper.title_text, site_language))


def link_values(link: Link) -> dict[str, Any]:
    """A paper_link() as a template reads it: its title as the markup it is."""
    title, url, venue, lang = link
    return {"title": Markup(title), "url": url, "venue": venue, "lang": lang}


DESCRIPTION_WORDS = 24
"""Words of the abstract in a paper page's description: about the 160 characters a search
engine shows (and the page says it twice, for search engines and for social cards)."""


def paper_context(paper: Paper, card: dict[str, Any], bibtex: str, urls: Urls,
                  ui: Interface, author_pages: int) -> dict[str, Any]:
    """A paper's own page: its `card` and every other field of the record (all its authors,
    links, abstract and notes), its BibTeX entry and its address to copy."""
    links = [{"label": link_label(link.kind, link.label, ui), "url": link.url, "kind": link.kind,
              "primary": link.kind == "pdf"} for link in paper.links]
    return {"page_title": paper.title_text,
            "description": excerpt(paper.abstract_text, DESCRIPTION_WORDS),
            "permalink": urls.absolute(paths.paper_file(paper.slug)),
            "paper": {**card, "authors": author_links(paper.authors, urls, author_pages),
                      "links": links,
                      "abstract_html": Markup(paper.abstract_html),
                      "notes_html": Markup(paper.notes_html), "extra": paper.extra},
            "bibtex": {"entry": bibtex}}


@dataclass(frozen=True)
class GroupWords:
    """What a grouping's pages call a group, each a message with `%(name)s` (the group's
    name), marked for the catalogue with N_ and Np_ (outputs/interface.py)."""

    title: str
    """A group's page title: 'Tag: %(name)s'."""
    description: str
    """Its pages' description: 'Papers tagged %(name)s'."""
    counted: tuple[str, str]
    """Its first page's description, with '%(num)s': '%(num)s papers tagged %(name)s'."""
    feed: str
    """Its feed's description, with '%(site)s': 'Papers tagged %(name)s in %(site)s'."""
    index_title: str
    """The page of every group: 'Tags'."""
    index_description: tuple[str, str]
    """Its description, with '%(num)s' and '%(site)s': 'All %(num)s tags of %(site)s'."""


def group_index_context(grouping: str, words: GroupWords, site: Site, urls: Urls,
                        ui: Interface) -> dict[str, Any]:
    """Every group of `grouping` with its paper count, page and feed."""
    groups = site.groups[grouping]
    return {"page_title": ui.gettext(words.index_title),
            "description": ui.ngettext(*words.index_description, len(groups),
                                       site=site.config.title),
            "groups": [{"name": g.name, "slug": g.slug, "count": len(g.papers),
                        "url": urls.path(paths.group_file(grouping, g.slug)),
                        "feed": urls.path(paths.group_feed_file(grouping, g.slug))}
                       for g in groups]}


def group_context(grouping: str, words: GroupWords, group: Group, site: Site, urls: Urls,
                  ui: Interface) -> dict[str, Any]:
    """One group's papers, newest first (cards and pages added by kinds.Listing)."""
    name, feed = group.name, paths.group_feed_file(grouping, group.slug)
    return {"page_title": ui.gettext(words.title) % {"name": name},
            "description": ui.gettext(words.description) % {"name": name},
            "feeds": [{"title": f"{site.config.title}: {name}", "url": urls.absolute(feed)},
                      {"title": site.config.title, "url": urls.absolute(paths.FEED)}],
            "group": {"name": name, "slug": group.slug, "other_names": group.other_names,
                      "feed": urls.path(feed),
                      "index": urls.path(paths.group_index_file(grouping))}}


def group_counts(words: GroupWords, group: Group, ui: Interface) -> dict[str, Any]:
    """What a group's first page shows besides its papers: how many there are."""
    return {"total": len(group.papers),
            "description": ui.ngettext(*words.counted, len(group.papers), name=group.name)}


def authors_index_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """Every author with their paper count, by name as written (family names cannot be told
    apart in every culture's names), under the initial letter: A to Z, then every other."""
    sections: dict[str, list[dict[str, Any]]] = {}
    for a in site.authors:
        initial = a.slug[0].upper() if "a" <= a.slug[0] <= "z" else OTHER_INITIALS
        sections.setdefault(initial, []).append(
            {"name": a.name, "url": urls.author(a.slug, site.author_pages), "count": len(a.papers)})
    description = ui.ngettext("The %(num)s author of %(site)s", "All %(num)s authors of %(site)s",
                              len(site.authors), site=site.config.title)
    return {"page_title": ui.gettext("Authors"), "description": description,
            "sections": [{"initial": ui.gettext("Other") if initial == OTHER_INITIALS else initial,
                          "id": f"initial-{initial.lower()}", "authors": names}
                         for initial, names in sorted(sections.items(),
                                                      key=lambda item: item[0] == OTHER_INITIALS)]}


OTHER_INITIALS = "Other"
"""The authors index's last section: names starting with no letter from A to Z."""


AuthorLine = tuple[str, str, tuple[str, ...], tuple[Link, ...]]
"""One author on a page of authors: its anchor, name, other spellings and papers' links."""


def author_page_context(groups: list[Group], site: Site, ui: Interface) -> dict[str, Any]:
    """A page of authors (by slug): its title and description; author_lines() are its authors."""
    names = [group.name for group in groups]
    title = names[0] if len(names) == 1 else ui.gettext("Authors: %(first)s to %(last)s") % {
        "first": names[0], "last": names[-1]}
    description = ui.ngettext("%(num)s author of %(site)s and their papers",
                              "%(num)s authors of %(site)s and their papers", len(groups),
                              site=site.config.title)
    return {"page_title": title, "description": description}


def author_lines(groups: list[Group], link_of: Mapping[str, Link]) -> tuple[AuthorLine, ...]:
    """Each author of a page of authors with every paper of theirs, newest first, as a line:
    its title and venue (`link_of` each paper's paper_link, by slug). Tuples of plain values,
    not dicts, so that the build's key of the page hashes all its lines with marshal, in one
    call (building/cache.py): dicts were pickled whole, ~12 MB for ~500 pages at 10,000
    papers, and links with their titles as Markup were hashed item by item, ~0.15 s."""
    return tuple((paths.author_anchor(group.slug), group.name, group.other_names,
                  tuple(link_of[paper.slug] for paper in group.papers)) for group in groups)


def author_lines_values(lines: tuple[AuthorLine, ...]) -> list[dict[str, Any]]:
    """author_lines() as the author page's template reads them."""
    return [{"id": anchor, "name": name, "other_names": other_names,
             "papers": [link_values(link) for link in papers]}
            for anchor, name, other_names, papers in lines]


BROWSE_RECENT = 10
"""Papers the search page lists as recently added while its query is empty."""


def search_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """The search page; results and facets are drawn by search/page.js from the prebuilt index.
    While the query is empty it shows a browse view, written here so that it needs no script:
    every tag with its count and the papers added last."""
    recent = browsed(site)
    return {"page_title": ui.gettext("Search"),
            "description": ui.gettext("Search titles, authors, tags and abstracts"),
            "hide_header_search": True, "wide": True, "total": len(site.papers),
            "browse": {"tags": [{**tag_link(g, urls), "count": len(g.papers)} for g in site.tags],
                       "recent": [{**link_values(paper_link(p, urls, site.config.language)),
                                   "date": p.date.isoformat(),
                                   "date_human": ui.date(p.date)} for p in recent]}}


def browsed(site: Site) -> tuple[Paper, ...]:
    """The papers added last, that the search page shows while its query is empty: the site's
    first, as it has them newest first."""
    return site.papers[:BROWSE_RECENT]


def browses(site: Site, slug: str) -> bool:
    """Whether the search page shows the paper `slug` (browsed)."""
    return any(paper.slug == slug for paper in browsed(site))


def saved_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """The reader's saved papers; reading/saved-page.js draws them from the browser's storage."""
    return {"page_title": ui.gettext("Saved papers"),
            "description": ui.gettext("Papers you saved, kept in your browser, to export as "
                                      "BibTeX or CSL-JSON")}


def not_found_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """404.html, served by GitHub Pages at any depth: every URL in it is root-relative."""
    return {"page_title": ui.gettext("Page not found"),
            "description": ui.gettext("This page does not exist.")}


def excerpt(text: str, words: int) -> str:
    """The first `words` words, with an ellipsis when cut."""
    parts = text.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + " …"

