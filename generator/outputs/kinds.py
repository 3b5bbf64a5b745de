"""The registry of page kinds: every kind of page the site has, said once.

A kind says which pages it makes (their output paths, and the day each last changed, for the
sitemap), how each is made (its template and what it is given), whether it is in the sitemap
and the header's menu, and which feeds it has. The build's pages, feeds and sitemap are all
read from KINDS, and so are the tests that check every page (tests/test_kinds.py,
test_axe.py, test_html_valid.py): a new kind is built, listed, fed and checked by adding one
entry here and its template (docs/how-to/add-a-page-kind.md)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from ..model import urls as paths
from ..model.groupings import TAGS
from ..model.records import FileJob, Group, Grouping, Paper, PaperParts, Site, Templates, Theme
from ..model.site import newest_day
from ..model.urls import Urls
from .assets import asset_urls
from .feeds import feed_file, group_feed_file
from .interface import Interface, N_, Np_, interface
from .lists import page_links
from .pages import (GroupWords, Link, author_lines, author_page_context, authors_index_context,
                    browses,
                    common_context, group_context, group_counts, group_index_context,
                    home_context, not_found_context, paper_links, saved_context,
                    search_context, threads_context)
from .render import render_author_page, render_list_page, render_page, render_paper_page
from .settings import NAME as SETTINGS
from .settings import settings_job, settings_script


@dataclass(frozen=True)
class Page:
    """One page a kind makes."""

    path: str
    """Its output path."""
    day: str
    """The day, as YYYY-MM-DD, it last changed: the sitemap's lastmod."""
    shows: Any = None
    """What of the site it shows, as its kind needs it: a paper's place, a group, a number."""


@dataclass(frozen=True)
class Given:
    """What every page of one build is made with, made once (page_jobs)."""

    site: Site
    theme: Theme
    urls: Urls
    ui: Interface
    common: dict[str, Any]
    """What every page is given alike (pages.common_context)."""
    card_of: dict[str, bytes]
    """Each paper's card, by slug."""
    link_of: Mapping[str, Link]
    """Each paper as a link to it shows it, by slug (pages.paper_links)."""
    parts: Sequence[PaperParts]
    """The papers' parts, in the site's order."""
    related: Mapping[str, tuple[str, ...]]
    """Each paper's related papers, by slug."""


class PageKind(Protocol):
    """What the build, the sitemap and the tests ask of a kind of page."""

    name: str
    in_sitemap: bool
    menu: str
    """Its label in the header's menu (a message), '' for none; only a kind of one page."""

    def pages(self, site: Site) -> list[Page]:
        """Every page of this kind the site has, cheap to list: nothing is rendered."""

    def job(self, page: Page, given: Given) -> FileJob:
        """How one of its pages is made."""

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        """Its RSS feeds."""


def _day(moment: Any) -> str:
    return moment.date().isoformat()


def _newest_day(papers: tuple[Paper, ...]) -> str:
    """_day(newest_day(papers)) of papers in reading order, newest first, as a group's are: its
    first paper's day, not a max over all of them (30,000 author groups at 10,000 papers)."""
    return papers[0].date.isoformat() if papers else _day(newest_day(papers))


@dataclass(frozen=True)
class Single:
    """One page at one path, given `context(site, urls, ui)`: the search page, the 404."""

    name: str
    path: str
    template: str
    context: Callable[[Site, Urls, Interface], dict[str, Any]]
    in_sitemap: bool = True
    menu: str = ""
    shows: Callable[[Site, str], bool] | None = None
    """Whether the page shows the paper of a slug, by its link: the preview server makes it
    again with the lists that show a saved paper (quick_page_jobs)."""

    def pages(self, site: Site) -> list[Page]:
        return [Page(self.path, _day(site.updated))]

    def job(self, page: Page, given: Given) -> FileJob:
        context = self.context(given.site, given.urls, given.ui)
        return FileJob(page.path, render_page, (self.template, given.common, given.site.config,
                                                page.path, context), given.theme.templates)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return []


def listing(first_page: str, papers: tuple[Paper, ...], page_size: int, day: str,
            about: Any = None) -> list[Page]:
    """The pages of a list of papers, newest first: page n of `count` shows (about, n, count)."""
    count = paths.page_count(len(papers), page_size)
    return [Page(paths.listing_file(first_page, n, count), day, (about, n, count))
            for n in range(count, 0, -1)]


def listing_job(page: Page, template: str, first_page: str, papers: tuple[Paper, ...],
                context: dict[str, Any], newest: Callable[[], dict[str, Any]],
                given: Given) -> FileJob:
    """One page of a list of papers split into pages of `page_size`, numbered from the oldest
    (see urls.listing_file), with newer/older links and its papers' cards. Only the first
    page, the newest, is given `newest()` (counts and dates), so the others, once full, never
    change."""
    _, n, pages = page.shows
    config, urls, ui = given.site.config, given.urls, given.ui
    pagination = {"page": n, "pages": pages, "links": page_links(n, pages, first_page, urls),
                  "newer": urls.path(paths.listing_file(first_page, n + 1, pages))
                  if n < pages else "",
                  "older": urls.path(paths.listing_file(first_page, n - 1, pages))
                  if n > 1 else ""}
    title = context["page_title"]
    numbered = ui.gettext("%(title)s, page %(page)s") % {
        "title": title or ui.gettext("Papers"), "page": ui.number(n)}
    shown = {**context, **(newest() if n == pages else {}), "first_page": n == pages,
             "pagination": pagination, "page_title": title if n == pages else numbered}
    cards = tuple(given.card_of[p.slug]
                  for p in papers[paths.page_items(n, pages, len(papers), config.page_size)])
    return FileJob(page.path, render_list_page, (template, given.common, config, page.path,
                                                 shown, cards), given.theme.templates)


@dataclass(frozen=True)
class Home:
    """Every paper, newest first, in pages; the digest's feed."""

    name: str = "home"
    template: str = "index.html"
    in_sitemap: bool = True
    menu: str = N_("Papers")

    def pages(self, site: Site) -> list[Page]:
        return listing(paths.HOME, site.papers, site.config.page_size, _day(site.updated))

    def job(self, page: Page, given: Given) -> FileJob:
        site = given.site
        return listing_job(page, self.template, paths.HOME, site.papers,
                           {"page_title": "", "description": site.config.description},
                           lambda: home_context(site, given.urls, given.ui), given)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return [feed_file(site, templates)]


@dataclass(frozen=True)
class PaperPages:
    """A page per paper: its record, BibTeX, related papers and its neighbours."""

    name: str = "paper"
    template: str = "paper.html"
    in_sitemap: bool = True
    menu: str = ""

    def pages(self, site: Site) -> list[Page]:
        return [Page(paths.paper_file(paper.slug), paper.date.isoformat(), n)
                for n, paper in enumerate(site.papers)]

    def job(self, page: Page, given: Given) -> FileJob:
        site, n = given.site, page.shows
        threads = threads_context(site.papers, n, given.link_of, given.related)
        return FileJob(page.path, render_paper_page,
                       (given.common, site.config, site.papers[n], given.parts[n].bibtex,
                        threads, site.author_pages), given.theme.templates)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return []


@dataclass(frozen=True)
class GroupPages:
    """A page per group of a grouping (a tag's papers, newest first, in pages), and a feed
    per group when `feeds_too`."""

    name: str
    grouping: Grouping
    template: str
    words: GroupWords
    feeds_too: bool = True
    in_sitemap: bool = True
    menu: str = ""

    def pages(self, site: Site) -> list[Page]:
        return [page for group in site.groups[self.grouping.name]
                for page in listing(paths.group_file(self.grouping.name, group.slug),
                                    group.papers, site.config.page_size,
                                    _newest_day(group.papers), group)]

    def job(self, page: Page, given: Given) -> FileJob:
        group: Group = page.shows[0]
        name = self.grouping.name
        context = group_context(name, self.words, group, given.site, given.urls, given.ui)
        return listing_job(page, self.template, paths.group_file(name, group.slug),
                           group.papers, context,
                           lambda: group_counts(self.words, group, given.ui), given)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return [group_feed_file(site, self.grouping.name, self.words.feed, group, templates)
                for group in site.groups[self.grouping.name]] if self.feeds_too else []


@dataclass(frozen=True)
class GroupIndex:
    """The page of every group of a grouping, with its count: tags/."""

    name: str
    grouping: Grouping
    template: str
    words: GroupWords
    in_sitemap: bool = True
    menu: str = ""

    def pages(self, site: Site) -> list[Page]:
        return [Page(paths.group_index_file(self.grouping.name), _day(site.updated))]

    def job(self, page: Page, given: Given) -> FileJob:
        context = group_index_context(self.grouping.name, self.words, given.site, given.urls,
                                      given.ui)
        return FileJob(page.path, render_page, (self.template, given.common, given.site.config,
                                                page.path, context), given.theme.templates)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return []


@dataclass(frozen=True)
class AuthorPages:
    """The pages that list the authors, each author with every paper of theirs, on the page
    their slug hashes to (urls.bucket_count): a paper added rewrites its authors' pages."""

    name: str = "author"
    template: str = "author.html"
    in_sitemap: bool = True
    menu: str = ""

    def pages(self, site: Site) -> list[Page]:
        by_page: dict[str, list[Group]] = {}
        for group in site.authors:
            by_page.setdefault(paths.author_file(group.slug, site.author_pages), []).append(group)
        return [Page(path, max(_newest_day(g.papers) for g in groups), tuple(groups))
                for path, groups in sorted(by_page.items())]

    def job(self, page: Page, given: Given) -> FileJob:
        groups = list(page.shows)
        context = author_page_context(groups, given.site, given.ui)
        return FileJob(page.path, render_author_page,
                       (self.template, given.common, given.site.config, page.path, context,
                        author_lines(groups, given.link_of)), given.theme.templates)

    def feeds(self, site: Site, templates: Templates) -> list[FileJob]:
        return []


TAG_WORDS = GroupWords(
    title=N_("Tag: %(name)s"), description=N_("Papers tagged %(name)s"),
    counted=Np_("%(num)s paper tagged %(name)s", "%(num)s papers tagged %(name)s"),
    feed=N_("Papers tagged %(name)s in %(site)s"), index_title=N_("Tags"),
    index_description=Np_("The %(num)s tag of %(site)s", "All %(num)s tags of %(site)s"))

KINDS: tuple[PageKind, ...] = (
    Home(),
    GroupIndex("tags", TAGS, "tags.html", TAG_WORDS, menu=N_("Tags")),
    Single("authors", paths.AUTHORS_INDEX, "authors.html", authors_index_context,
           menu=N_("Authors")),
    Single("search", paths.SEARCH, "search.html", search_context, menu=N_("Search"),
           shows=browses),
    Single("saved", paths.SAVED, "saved.html", saved_context, in_sitemap=False, menu=N_("Saved")),
    Single("404", paths.NOT_FOUND, "404.html", not_found_context, in_sitemap=False),
    PaperPages(),
    GroupPages("tag", TAGS, "tag.html", TAG_WORDS),
    AuthorPages(),
)
"""Every kind of page, in the order the sitemap lists them and the header's menu shows them."""


def groupings() -> list[Grouping]:
    """The groupings the kinds show, for model.site.build_site."""
    found = (getattr(kind, "grouping", None) for kind in KINDS)
    return list(dict.fromkeys(grouping for grouping in found if grouping is not None))


def page_jobs(site: Site, theme: Theme, parts: Sequence[PaperParts],
              related: Mapping[str, tuple[str, ...]]
              ) -> tuple[list[FileJob], Callable[[], list[FileJob]]]:
    """assets/settings.js and the pages of every kind that shows no related papers, and a
    function that makes the rest (the paper pages), each kind's in the order of KINDS; `parts`
    are the papers' paperparts.paper_parts(), in the site's order, whose cards the lists of
    papers show; `related` each paper's related papers by slug (search.related), which may
    still be being found aside: a build asks for the paper pages once it has worked out the
    other files' keys (a 10,000-paper edit waited ~0.3 s for them before)."""
    settings, given = _given(site, theme, parts, related)
    pages = site_pages(site)
    last = [kind for kind in KINDS if isinstance(kind, PaperPages)]
    return ([settings] + [kind.job(page, given) for kind in KINDS if kind not in last
                          for page in pages[kind.name]],
            lambda: [kind.job(page, given) for kind in last for page in pages[kind.name]])


def quick_page_jobs(site: Site, theme: Theme, parts: Sequence[PaperParts],
                    related: Mapping[str, tuple[str, ...]], slugs: Sequence[str],
                    listed: Sequence[str] = (), before: Site | None = None,
                    linking: Sequence[str] = ()) -> list[FileJob]:
    """The pages of the papers `slugs`, the pages of lists that show the papers `listed`
    (home's, their tags' and their authors' page that holds each, and every page between the
    one that held it in the site `before`, if it moved, and the one that holds it now), then
    the pages of the papers `linking`, as page_jobs() makes them: the preview server's quick
    pages (building/quickpages.py), without listing every page of the site."""
    _, given = _given(site, theme, parts, related)
    place = {paper.slug: n for n, paper in enumerate(site.papers)}
    papers = PaperPages()

    def paper_jobs(chosen: Sequence[str]) -> list[FileJob]:
        return [papers.job(Page(paths.paper_file(slug), site.papers[place[slug]].date.isoformat(),
                                place[slug]), given) for slug in chosen]

    pages: dict[str, tuple[PageKind, Page]] = {}
    for slug in listed:
        for kind, page in _lists_showing(site, site.papers[place[slug]], before or site):
            pages.setdefault(page.path, (kind, page))
    return (paper_jobs(slugs) + [kind.job(page, given) for kind, page in pages.values()]
            + paper_jobs(linking))


def _lists_showing(site: Site, paper: Paper, before: Site) -> list[tuple[PageKind, Page]]:
    """The kind and page of each list that shows `paper`: the pages of home and of each of its
    groups (its tags') from the one that held it in the site `before` to the one that holds it
    (one page, unless it moved: the rows between shifted), its authors' pages, and a single
    page that shows it now or did (the search page's papers added last). The paper is in the
    same groups `before`. Page.day is left empty: a job does not read it."""
    found: list[tuple[PageKind, Page]] = []
    size = site.config.page_size
    for kind in KINDS:
        if isinstance(kind, Single) and kind.shows is not None:
            if kind.shows(site, paper.slug) or kind.shows(before, paper.slug):
                found.extend((kind, page) for page in kind.pages(site))
        elif isinstance(kind, Home):
            found.extend((kind, page) for page in _listing_pages(
                paths.HOME, site.papers, before.papers, paper.slug, size))
        elif isinstance(kind, GroupPages):
            slugs = {slug for _, slug in kind.grouping.values(paper)}
            was = {group.slug: group for group in before.groups[kind.grouping.name]
                   if group.slug in slugs}
            for group in site.groups[kind.grouping.name]:
                if group.slug in slugs:
                    first = paths.group_file(kind.grouping.name, group.slug)
                    found.extend((kind, page) for page in _listing_pages(
                        first, group.papers, was[group.slug].papers, paper.slug, size, group))
        elif isinstance(kind, AuthorPages):
            wanted: dict[str, list[Group]] = {paths.author_file(slug, site.author_pages): []
                                              for slug in paper.author_slugs if slug}
            for group in site.authors:
                on = wanted.get(paths.author_file(group.slug, site.author_pages))
                if on is not None:
                    on.append(group)
            found.extend((kind, Page(path, "", tuple(groups))) for path, groups in wanted.items())
    return found


def _listing_pages(first_page: str, papers: tuple[Paper, ...], before: tuple[Paper, ...],
                   slug: str, page_size: int, about: Any = None) -> list[Page]:
    """The pages of a list of `papers` (see listing()) from the one that held the paper `slug`
    when the list was `before` (the same papers, in another order) to the one that holds it."""
    count = paths.page_count(len(papers), page_size)
    held = sorted(min(count, (len(papers) - 1 - _place(listed, slug)) // page_size + 1)
                  for listed in (before, papers))
    return [Page(paths.listing_file(first_page, n, count), "", (about, n, count))
            for n in range(held[0], held[1] + 1)]


def _place(papers: tuple[Paper, ...], slug: str) -> int:
    return next(n for n, paper in enumerate(papers) if paper.slug == slug)


def _given(site: Site, theme: Theme, parts: Sequence[PaperParts],
           related: Mapping[str, tuple[str, ...]]) -> tuple[FileJob, Given]:
    """assets/settings.js, and what every page of the site is made with."""
    urls, config = Urls(site.config.base_url), site.config
    ui = interface(theme.templates, config.language)
    assets = asset_urls(theme.assets, urls)
    settings, assets[SETTINGS] = settings_job(
        settings_script(urls, assets, ui, config.page_size, site.author_pages), urls)
    # why: only the menu's kinds listed, each a page or a list of pages: every kind's pages
    # (site_pages) take ~0.2 s at 10,000 papers, which a quick page need not wait for
    menu = [{"label": ui.gettext(kind.menu), "url": urls.path(kind.pages(site)[0].path)}
            for kind in KINDS if kind.menu]
    given = Given(site, theme, urls, ui, common_context(site, urls, assets, menu),
                  {paper.slug: part.card for paper, part in zip(site.papers, parts)},
                  paper_links(site, urls), parts, related)
    return settings, given


def sitemap_pages(site: Site) -> list[tuple[str, str]]:
    """(output path, last-modified day) of every page a search engine should index."""
    pages = site_pages(site)
    return [(page.path, page.day) for kind in KINDS if kind.in_sitemap
            for page in pages[kind.name]]


_listed: tuple[weakref.ref[Site], dict[str, list[Page]]] | None = None


def site_pages(site: Site) -> dict[str, list[Page]]:
    """Each kind's pages(site), by the kind's name: listed once for the sitemap and the page
    jobs alike (~0.2 s of a 10,000-paper build), and again for another site. Forgotten with
    the site: the pages hold its groups, and so all its papers."""
    global _listed
    if _listed is None or _listed[0]() is not site:
        _listed = (weakref.ref(site, _forget), {kind.name: kind.pages(site) for kind in KINDS})
    return _listed[1]


def _forget(gone: weakref.ref[Site]) -> None:
    global _listed
    if _listed is not None and _listed[0] is gone:
        _listed = None


def feed_jobs(site: Site, templates: Templates) -> list[FileJob]:
    """Every kind's feeds: /feed.xml, then each tag's; their words from the `templates`'
    catalogue for the site's language."""
    return [job for kind in KINDS for job in kind.feeds(site, templates)]
