"""Typed records that flow through the build pipeline."""

from __future__ import annotations

import copyreg
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .citation import base_key
from .slugs import author_slug


@dataclass(frozen=True)
class SiteConfig:
    """The curator's `content/site.yaml`, validated."""

    title: str
    """The site's name, shown in every header and the feed."""
    base_url: str
    """Absolute URL the site is served from; its path is the site's base path."""
    subtitle: str = ""
    """A second line under the title (e.g. an English name for a Chinese title)."""
    description: str = ""
    """One or two sentences for the home page, feed and meta description."""
    language: str = "en"
    """BCP 47 language tag of the site's own text."""
    title_language: str = ""
    """BCP 47 tag of the title when it is in another language than the site's text, so screen
    readers pronounce it right (e.g. 'zh' for a Chinese title on an English site)."""
    curator: str = ""
    """Who keeps the digest; shown in the footer and the feed."""
    home_excerpt_words: int = 20
    """How many words of an abstract the home page and tag pages show."""
    search_budget_kb: int = 1024
    """The build warns when the search index a reader downloads is larger, gzipped."""
    site_budget_mb: int = 800
    """The build warns when the whole site is larger: GitHub Pages publishes sites up to 1 GB."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Free mapping for templates; never checked."""
    source: Path = Path("content/site.yaml")
    """The file this came from, for error messages."""
    cname: str = ""
    """Custom domain (e.g. 'digest.example.org'); the build writes it to CNAME."""
    citation_tags: bool = False
    """Add Highwire `citation_*` tags to paper pages (off: a digest is not the paper's home)."""
    twitter: str = ""
    """The site's account for Twitter cards, '@name'."""
    page_size: int = 50
    """Papers per page on the home and tag pages; later pages live at page/<n>/."""
    feed_items: int = 50
    """Newest papers in each RSS feed: readers fetch feeds often, and keep what they have seen."""
    macros: dict[str, str] = field(default_factory=dict)
    """The digest's own LaTeX macros, name (sorted) -> definition with `#1`… its arguments:
    expanded in every title and abstract (content/latexmacros.py)."""


@dataclass(frozen=True)
class SourceFile:
    """One paper file as read from disk: the only input of its checking."""

    path: Path
    """The file, as the build was pointed at it."""
    data: bytes


@dataclass(frozen=True)
class Link:
    """One outbound link of a paper, resolved to a URL."""

    kind: str
    """One of LINK_KINDS: arxiv, openreview, page, pdf, code, project, doi."""
    label: str
    """Button text."""
    url: str
    """Absolute http(s) URL."""


LINK_KINDS = ("arxiv", "openreview", "page", "pdf", "code", "project", "doi")


@dataclass(frozen=True)
class Citation:
    """What a reference to the paper needs beyond the digest's own fields, as its source gave
    it (front matter `citation:`); written back into its BibTeX entry and CSL-JSON item."""

    booktitle: str = ""
    """The proceedings' full name ('Advances in Neural Information Processing Systems')."""
    journal: str = ""
    """The journal's full name; the entry is then an article."""
    series: str = ""
    """The series of the proceedings ('Proceedings of Machine Learning Research')."""
    editor: tuple[str, ...] = ()
    """The proceedings' editors, 'First Last'."""
    publisher: str = ""
    address: str = ""
    """Where the proceedings were published or the conference held ('Dublin, Ireland')."""
    volume: str = ""
    number: str = ""
    """The issue of a journal, or the number in a series."""
    pages: str = ""
    """'4445–4455', its range with an en dash."""

    def __reduce__(self) -> tuple[Any, ...]:
        # why: most papers give none; kept as a reference to the one empty Citation, each of
        # 10,000 papers read back from the cache is not a record and a dict made again (~0.03 s)
        if self == _NO_CITATION:
            return _no_citation, ()
        return copyreg.__newobj__, (Citation,), self.__dict__  # type: ignore[attr-defined]


def _no_citation() -> Citation:
    return _NO_CITATION


_NO_CITATION = Citation()


CITATION_KEYS = ("booktitle", "journal", "series", "editor", "publisher", "address", "volume",
                 "number", "pages")
"""The keys of `citation:` in the order they are written."""


@dataclass(frozen=True)
class Tag:
    """A topic label and where its page lives."""

    name: str
    """As the curator wrote it."""
    slug: str
    """URL-safe form, unique across the site."""


@dataclass(frozen=True)
class Paper:
    """One validated paper of the digest."""

    slug: str
    """File name stem; the paper page's URL segment."""
    source: str
    """The Markdown file it came from, as the build was pointed at it: text, not a Path, which
    is made again from its parts for each paper read back from the cache (~0.07 s of a
    10,000-paper rebuild)."""
    title: str
    """Verbatim, LaTeX and all (the BibTeX entry keeps it)."""
    authors: tuple[str, ...]
    date: dt.date
    """The day the paper joined the digest."""
    abstract: str
    """Verbatim, LaTeX and all."""
    abstract_html: str
    """Safe HTML with math as MathML."""
    abstract_text: str
    """Plain Unicode text for search, feeds and excerpts."""
    title_html: str
    """Safe inline HTML with math as MathML, for headings and cards (no links: it is one)."""
    title_text: str
    """Plain Unicode text ('ℓ₁-regression'), for <title>, OpenGraph, JSON-LD, feeds and search."""
    venue: str = ""
    presentation: str = ""
    """'oral', 'spotlight' or 'poster', when the venue says."""
    tags: tuple[Tag, ...] = ()
    links: tuple[Link, ...] = ()
    ids: dict[str, str] = field(default_factory=dict)
    """Stable identifiers (arxiv, openreview, doi) by kind."""
    tldr: str = ""
    notes_html: str = ""
    """The curator's Markdown body rendered and sanitised."""
    notes_text: str = ""
    """The body as plain text, for search."""
    draft: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    citation: Citation = _NO_CITATION
    """The proceedings, journal, editors, pages... its source gave, for citing it."""
    author_slugs: tuple[str, ...] = field(init=False)
    """Each author's slug (slugs.author_slug), in order: made with the paper and kept with it,
    not made again by every build for each of its authors (18,000 at 10,000 papers)."""
    cite_base: str = field(init=False)
    """Its citation key before the site makes it unique (citation.base_key), made and kept
    with it as author_slugs are (~0.1 s of every build at 10,000 papers)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "author_slugs", tuple(map(author_slug, self.authors)))
        object.__setattr__(self, "cite_base", base_key(self))


@dataclass(frozen=True)
class Group:
    """The papers one value of a grouping gathers (a tag's, an author's), newest first."""

    slug: str
    """Its page's URL segment, unique in its grouping."""
    name: str
    """As its newest paper spells it."""
    other_names: tuple[str, ...]
    """Other spellings with the same slug ('Zoe Muller' beside 'Zoë Müller'), newest first."""
    papers: tuple[Paper, ...]


@dataclass(frozen=True)
class Grouping:
    """A field of the paper whose values gather papers into pages: tags, authors (see
    model/groupings.py). Spellings that share a slug are one group (Group.other_names)."""

    name: str
    """Its key in Site.groups, and the folder its pages live in: 'tags'."""
    values: Callable[[Paper], Iterable[tuple[str, str]]]
    """(name, slug) of each value a paper has; a value whose slug is '' has no page."""
    order: Callable[[Group], Any]
    """How its groups are sorted."""


@dataclass(frozen=True)
class Site:
    """Everything the output stages need, already sorted and grouped."""

    config: SiteConfig
    papers: tuple[Paper, ...]
    """Newest first, then by title."""
    updated: dt.datetime
    """SOURCE_DATE_EPOCH if set, else the newest paper's date: never 'now'."""
    groups: dict[str, tuple[Group, ...]] = field(default_factory=dict)
    """Each grouping's groups, by its name ('tags', 'authors', and any a page kind adds)."""
    cite_keys: dict[str, str] = field(default_factory=dict)
    """BibTeX citation key of every paper, by slug: stable and unique."""
    author_pages: int = 1
    """How many pages list the authors, each on the one its slug hashes to (urls.bucket_count)."""

    @property
    def tags(self) -> tuple[Group, ...]:
        """By tag name (slugs.name_order)."""
        return self.groups.get("tags", ())

    @property
    def authors(self) -> tuple[Group, ...]:
        """By slug, which sorts names as written, accents aside."""
        return self.groups.get("authors", ())


@dataclass(frozen=True)
class PaperParts:
    """What one paper alone puts in the site's files, made once per paper
    (outputs/paperparts.py), so a rebuild keeps them all from one kept result."""

    card: bytes
    """Its card in lists of papers, UTF-8 HTML (outputs.render.render_card)."""
    bibtex: str
    """Its entry in the .bib files."""
    csl: str
    """Its item's line in papers.json."""
    listed: str
    """Its entry's JSON in list.json."""


@dataclass(frozen=True)
class OutputFile:
    """One file of the built site, rendered in memory."""

    path: str
    """Relative POSIX path inside the output folder."""
    data: bytes


@dataclass(frozen=True)
class Templates:
    """The Jinja templates of the site."""

    folder: str
    """Where they were read from, so an error names the template's file."""
    sources: tuple[tuple[str, str], ...]
    """(name with '/', source) of every template, by name."""


@dataclass(frozen=True)
class Theme:
    """How the site looks: the templates and the static files it ships."""

    templates: Templates
    assets: tuple[OutputFile, ...]
    """static/ and the npm libraries, at their output paths."""


@dataclass(frozen=True)
class FileJob:
    """One output file before it is made: a pure function and everything it is given.

    The build may reuse bytes made before by the same code from equal `shared` and `args`
    (see building/cache.py), so `make` must depend on nothing else."""

    path: str
    make: Callable[..., bytes]
    """Called as make(*args), or make(shared, *args) when `shared` is not None."""
    args: tuple[Any, ...]
    shared: Any = None
    """A large value many jobs are given alike (the templates): hashed once per build."""
    aside: Callable[[], bytes] | None = None
    """Waits for its bytes, begun aside (building.workers.Workers.later) with what the job is
    given: taken in place of calling `make` when the file is to be made."""

    def made(self) -> OutputFile:
        """The file, made here and now (or taken from aside)."""
        if self.aside is not None:
            return OutputFile(self.path, self.aside())
        data = self.make(*self.args) if self.shared is None else self.make(self.shared, *self.args)
        return OutputFile(self.path, data)
