"""HTML pages: one context function per page kind; Jinja only lays out.

Each page is a FileJob: a render function given the templates and what the page shows (its
paper, the papers of a list page, its own values), so the build can tell which pages changed
by what they are made from."""

from __future__ import annotations

import functools
from typing import Any, Callable, Mapping, Sequence

import jinja2
from markupsafe import Markup, escape

from ..model import urls as paths
from ..model.languages import text_language
from ..model.records import (AuthorGroup, FileJob, Paper, PaperParts, Site, SiteConfig, TagGroup,
                             Templates, Theme)
from ..model.slugs import author_slug
from ..model.urls import Urls
from .assets import asset_urls
from .interface import Interface, interface, link_label, presentation_label
from .lists import page_links, short_authors
from .metadata import page_meta
from .settings import NAME as SETTINGS
from .settings import settings_job, settings_script

CARD = "_partials/paper_card.html"


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


@functools.lru_cache(maxsize=4)  # why: compiled once per process, not once per page
def environment(templates: Templates, language: str = "en") -> jinja2.Environment:
    """Autoescaping, strict Jinja over the given templates, speaking `language` through the
    templates' catalogue: a typo in a template fails the build."""
    sources = dict(templates.sources)
    ui = interface(templates, language)

    def load(name: str) -> tuple[str, str, Callable[[], bool]] | None:
        source = sources.get(name)
        return None if source is None else (source, f"{templates.folder}/{name}", lambda: True)

    env = _Environment(
        loader=jinja2.FunctionLoader(load), extensions=["jinja2.ext.i18n"],
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.policies["ext.i18n.trimmed"] = True  # why: a message is one line, however it is wrapped
    env.install_gettext_translations(ui.translations, newstyle=True)  # type: ignore[attr-defined]
    env.filters.update(number=ui.number, as_list=ui.as_list, lang_attr=lang_attr)
    return env


def lang_attr(tag: str) -> Markup:
    """' lang="en"' for an element whose text is in `tag`, nothing for ''."""
    return Markup(f' lang="{escape(tag)}"') if tag else Markup("")


def paper_languages(paper: Paper, site_language: str) -> dict[str, str]:
    """The `lang` of each part of a paper's own text on a site in `site_language`, '' where it
    reads as the page does (see model.languages.text_language)."""
    return {"title": text_language(paper.title_text, site_language),
            "excerpt": text_language(paper.tldr or paper.abstract_text, site_language),
            "tldr": text_language(paper.tldr, site_language),
            "abstract": text_language(paper.abstract_text, site_language),
            "notes": text_language(paper.notes_html, site_language)}


def render_card(templates: Templates, paper: Paper, base_url: str, excerpt_words: int,
                language: str, author_pages: int) -> bytes:
    """The card a list of papers shows for one paper, as UTF-8 HTML, in the site's `language`.
    Bytes, not a str: every card is held through the build, and one character beyond Latin-1
    (an excerpt's '…', a Chinese label) makes Python hold a str at two bytes a character."""
    card = paper_card(paper, Urls(base_url), excerpt_words, interface(templates, language),
                      author_pages)
    return environment(templates, language).get_template(CARD).render(card=card).encode("utf-8")


def page_jobs(site: Site, theme: Theme, parts: Sequence[PaperParts],
              related: Mapping[str, tuple[str, ...]]) -> list[FileJob]:
    """Every HTML page of the site, each made from its template and what it shows; `parts`
    are the papers' paperparts.paper_parts(), in the site's order, whose cards the lists of
    papers show; `related` each paper's related papers by slug (search.related)."""
    urls, config = Urls(site.config.base_url), site.config
    ui = interface(theme.templates, config.language)
    card_of = {paper.slug: part.card for paper, part in zip(site.papers, parts)}
    link_of = paper_links(site, urls)
    assets = asset_urls(theme.assets, urls)
    settings, assets[SETTINGS] = settings_job(
        settings_script(urls, assets, ui, config.page_size, site.author_pages), urls)
    common = _common(site, urls, assets, ui)
    jobs = [settings]
    jobs += [FileJob(path, render_page, (template, common, config, path, context), theme.templates)
             for path, template, context in (
                (paths.TAGS_INDEX, "tags.html", tags_index_context(site, urls, ui)),
                (paths.AUTHORS_INDEX, "authors.html", authors_index_context(site, urls, ui)),
                (paths.SEARCH, "search.html", search_context(site, urls, ui)),
                (paths.SAVED, "saved.html", saved_context(urls, ui)),
                (paths.NOT_FOUND, "404.html", not_found_context(urls, ui)))]
    jobs += listing_jobs(paths.HOME, "index.html", {"page_title": "",
                                                     "description": config.description},
                         home_context(site, urls, ui), site.papers, card_of, common, site, theme)
    jobs += [FileJob(paths.paper_file(p.slug), render_paper_page,
                     (common, config, p, part.bibtex, threads, site.author_pages), theme.templates)
             for p, part, threads in zip(site.papers, parts, threads_contexts(site, link_of, related))]
    for g in site.tags:
        jobs += listing_jobs(paths.tag_file(g.tag.slug), "tag.html", tag_context(g, site, urls, ui),
                             tag_counts(g, ui), g.papers, card_of, common, site, theme)
    jobs += author_page_jobs(site, common, theme, link_of)
    return jobs


def author_page_jobs(site: Site, common: dict[str, Any], theme: Theme,
                     link_of: dict[str, dict[str, str]]) -> list[FileJob]:
    """The pages that list the authors, each author with every paper of theirs, on the page
    their slug hashes to (urls.bucket_count): a paper added rewrites its authors' pages;
    `link_of` is paper_links()."""
    config = site.config
    ui = interface(theme.templates, config.language)
    by_page: dict[str, list[AuthorGroup]] = {}
    for group in site.authors:
        by_page.setdefault(paths.bucket(group.slug, site.author_pages), []).append(group)
    return [FileJob(path, render_page, ("author.html", common, config, path,
                                        author_page_context(groups, site, link_of, ui)),
                    theme.templates)
            for path, groups in ((paths.author_page_file(page), groups)
                                 for page, groups in sorted(by_page.items()))]


def listing_jobs(first_page: str, template: str, context: dict[str, Any], newest: dict[str, Any],
                 papers: tuple[Paper, ...], card_of: dict[str, bytes], common: dict[str, Any],
                 site: Site, theme: Theme) -> list[FileJob]:
    """A list of papers split into pages of `page_size`, numbered from the oldest (see
    urls.listing_file), each with newer/older links and the papers' cards (`card_of` by slug).
    Only the first page, the newest, is given `newest` (counts and dates), so the others, once
    full, never change."""
    size, urls = site.config.page_size, Urls(site.config.base_url)
    ui = interface(theme.templates, site.config.language)
    pages, jobs = paths.page_count(len(papers), size), []
    for n in range(pages, 0, -1):
        path, title = paths.listing_file(first_page, n, pages), context["page_title"]
        pagination = {"page": n, "pages": pages, "links": page_links(n, pages, first_page, urls),
                      "newer": urls.path(paths.listing_file(first_page, n + 1, pages))
                      if n < pages else "",
                      "older": urls.path(paths.listing_file(first_page, n - 1, pages))
                      if n > 1 else ""}
        numbered = ui.gettext("%(title)s, page %(page)s") % {
            "title": title or ui.gettext("Papers"), "page": ui.number(n)}
        page = {**context, **(newest if n == pages else {}), "first_page": n == pages,
                "pagination": pagination, "page_title": title if n == pages else numbered}
        shown = tuple(card_of[p.slug] for p in papers[paths.page_items(n, pages, len(papers), size)])
        jobs.append(FileJob(path, render_list_page, (template, common, site.config, path, page,
                                                     shown), theme.templates))
    return jobs


def render_page(templates: Templates, template: str, common: dict[str, Any], config: SiteConfig,
                path: str, context: dict[str, Any], paper: Paper | None = None) -> bytes:
    """One page: `template` given what every page has, its own `context` and its metadata."""
    meta = page_meta(config, path, context["page_title"], context["description"], paper)
    html = environment(templates, config.language).get_template(template).render(
        {**common, **context, "meta": meta})
    return html.encode("utf-8")


def render_paper_page(templates: Templates, common: dict[str, Any], config: SiteConfig,
                      paper: Paper, bibtex: str, threads: dict[str, Any], author_pages: int) -> bytes:
    """A paper's own page, with its `bibtex` entry (its parts'); `threads` are the other papers
    it leads to (threads_contexts); its authors are listed on `author_pages` pages."""
    urls, path = Urls(config.base_url), paths.paper_file(paper.slug)
    ui = interface(templates, config.language)
    card = paper_card(paper, urls, config.home_excerpt_words, ui, author_pages)
    context = paper_context(paper, card, bibtex, urls, ui, author_pages)
    return render_page(templates, "paper.html", common, config, path, {**context, **threads}, paper)


def render_list_page(templates: Templates, template: str, common: dict[str, Any],
                     config: SiteConfig, path: str, context: dict[str, Any],
                     cards: tuple[bytes, ...]) -> bytes:
    """One page of a list of papers, given their cards (render_card())."""
    return render_page(templates, template, common, config, path,
                       {**context, "cards": [Markup(card.decode("utf-8")) for card in cards]})


def _common(site: Site, urls: Urls, asset_urls: dict[str, str], ui: Interface) -> dict[str, Any]:
    """What every page is given alike. Nothing here changes when a paper is added or edited:
    a count or a date in every page's chrome would make one new paper rewrite every file."""
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
        "assets": asset_urls,
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
            "filter_tags": [{"slug": g.tag.slug, "name": g.tag.name, "count": len(g.papers)}
                            for g in site.tags]}


def paper_links(site: Site, urls: Urls) -> dict[str, dict[str, str]]:
    """Each paper's paper_link, by slug: made once a paper, not once a page that shows it (about
    seven paper pages and five author sections each)."""
    return {paper.slug: paper_link(paper, urls, site.config.language) for paper in site.papers}


def threads_contexts(site: Site, link_of: dict[str, dict[str, str]],
                     related: Mapping[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    """What each paper's page shows of other papers, in the site's order: its related papers,
    and the newer and older papers beside it in reading order (none past either end);
    `link_of` is paper_links()."""
    papers = site.papers
    return [{"related": [link_of[slug] for slug in related.get(p.slug, ())],
             "newer": link_of[papers[n - 1].slug] if n > 0 else None,
             "older": link_of[papers[n + 1].slug] if n + 1 < len(papers) else None}
            for n, p in enumerate(papers)]


def paper_link(paper: Paper, urls: Urls, site_language: str) -> dict[str, str]:
    """A paper as a link to it shows it: its title (and the title's `lang`), page URL and venue."""
    return {"title": Markup(paper.title_html), "url": urls.path(paths.paper_file(paper.slug)),
            "venue": paper.venue, "lang": text_language(paper.title_text, site_language)}


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


def tags_index_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """Every tag with its paper count."""
    description = ui.ngettext("The %(num)s tag of %(site)s", "All %(num)s tags of %(site)s",
                              len(site.tags), site=site.config.title)
    return {"page_title": ui.gettext("Tags"), "description": description,
            "tags": [{**tag_link(g.tag, urls), "count": len(g.papers),
                      "feed": urls.path(paths.tag_feed_file(g.tag.slug)),
                      "slug": g.tag.slug} for g in site.tags]}


def tag_context(group: TagGroup, site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """One tag's papers, newest first (cards and pages added by listing_pages)."""
    slug, name = group.tag.slug, group.tag.name
    feed = {"title": f"{site.config.title}: {name}",
            "url": urls.absolute(paths.tag_feed_file(slug))}
    return {"page_title": ui.gettext("Tag: %(tag)s") % {"tag": name}, "tag": name,
            "description": ui.gettext("Papers tagged %(tag)s") % {"tag": name},
            "feeds": [feed, {"title": site.config.title, "url": urls.absolute(paths.FEED)}],
            "tag_feed": urls.path(paths.tag_feed_file(slug)),
            "tag_slug": slug}


def tag_counts(group: TagGroup, ui: Interface) -> dict[str, Any]:
    """What a tag's first page shows besides its papers: how many there are."""
    description = ui.ngettext("%(num)s paper tagged %(tag)s", "%(num)s papers tagged %(tag)s",
                              len(group.papers), tag=group.tag.name)
    return {"total": len(group.papers), "description": description}


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


def author_page_context(groups: list[AuthorGroup], site: Site, link_of: dict[str, dict[str, str]],
                        ui: Interface) -> dict[str, Any]:
    """A page of authors (by slug), each with their other spellings and every paper of theirs,
    newest first, as a line: its title and venue (`link_of` each paper's paper_link, by slug)."""
    names = [group.name for group in groups]
    title = names[0] if len(names) == 1 else ui.gettext("Authors: %(first)s to %(last)s") % {
        "first": names[0], "last": names[-1]}
    description = ui.ngettext("%(num)s author of %(site)s and their papers",
                              "%(num)s authors of %(site)s and their papers", len(groups),
                              site=site.config.title)
    authors = [{"id": paths.author_anchor(group.slug), "name": group.name,
                "other_names": group.other_names,
                "papers": [link_of[paper.slug] for paper in group.papers]}
               for group in groups]
    return {"page_title": title, "description": description, "authors": authors}


BROWSE_RECENT = 10
"""Papers the search page lists as recently added while its query is empty."""


def search_context(site: Site, urls: Urls, ui: Interface) -> dict[str, Any]:
    """The search page; results and facets are drawn by search/page.js from the prebuilt index.
    While the query is empty it shows a browse view, written here so that it needs no script:
    every tag with its count and the papers added last."""
    recent = sorted(site.papers, key=lambda p: p.date, reverse=True)[:BROWSE_RECENT]
    return {"page_title": ui.gettext("Search"),
            "description": ui.gettext("Search titles, authors, tags and abstracts"),
            "hide_header_search": True, "wide": True, "total": len(site.papers),
            "browse": {"tags": [{**tag_link(g.tag, urls), "count": len(g.papers)} for g in site.tags],
                       "recent": [{**paper_link(p, urls, site.config.language), "date": p.date.isoformat(),
                                   "date_human": ui.date(p.date)} for p in recent]}}


def saved_context(urls: Urls, ui: Interface) -> dict[str, Any]:
    """The reader's saved papers; reading/saved-page.js draws them from the browser's storage."""
    return {"page_title": ui.gettext("Saved papers"),
            "description": ui.gettext("Papers you saved, kept in your browser, to export as "
                                      "BibTeX or CSL-JSON")}


def not_found_context(urls: Urls, ui: Interface) -> dict[str, Any]:
    """404.html, served by GitHub Pages at any depth: every URL in it is root-relative."""
    return {"page_title": ui.gettext("Page not found"),
            "description": ui.gettext("This page does not exist.")}


def excerpt(text: str, words: int) -> str:
    """The first `words` words, with an ellipsis when cut."""
    parts = text.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + " …"

