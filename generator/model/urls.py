"""The one place that knows where every page lives and what its URL is.

Output paths are relative to the output folder. Site URLs are root-relative and carry the
base path (GitHub project pages live under `/<repo>/`), so they work from any depth,
404.html included. Absolute URLs (feed, sitemap, canonical) come from `base_url`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

HOME = "index.html"
TAGS_INDEX = "tags/index.html"
AUTHORS_INDEX = "authors/index.html"
SEARCH = "search/index.html"
SAVED = "saved/index.html"
"""The reader's saved papers, drawn by script from what their browser keeps."""
NOT_FOUND = "404.html"
FEED = "feed.xml"
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
NOJEKYLL = ".nojekyll"
CNAME = "CNAME"
ALL_BIB = "all.bib"
PAPERS_JSON = "papers.json"
"""Every paper as CSL-JSON, for Zotero and other reference managers."""
LIST_DATA = "list.json"
"""Every paper as a list row needs it, for sorting, filtering and saving in the browser."""
SEARCH_INDEX = "search/index.json"
SEARCH_META = "search/meta.json"
SEARCH_DOCS = "search/docs/"
SEARCH_DOCS_CHUNK = 25
"""Papers per document-store file: paper n (in reading order) is in file n // 25."""
ASSETS = "assets/"


def paper_file(slug: str) -> str:
    """Output path of a paper page."""
    return f"papers/{slug}/index.html"


def tag_file(tag_slug: str) -> str:
    """Output path of a tag page."""
    return f"tags/{tag_slug}/index.html"


def author_file(author_slug: str) -> str:
    """Output path of an author's page, which lists their papers."""
    return f"authors/{author_slug}/index.html"


def listing_file(first_page: str, page: int) -> str:
    """Page `page` (from 1) of a paginated list: page 1 is `first_page` itself,
    page n is `<its folder>/page/<n>/index.html` (Hugo's URLs; stable as papers are added)."""
    if page == 1:
        return first_page
    return f"{first_page[: -len('index.html')]}page/{page}/index.html"


def page_count(items: int, page_size: int) -> int:
    """How many pages a list of `items` takes; an empty list still has its first page."""
    return max(1, -(-items // page_size))


def listing_files(first_page: str, items: int, page_size: int) -> list[str]:
    """Every page's output path of a list of `items` starting at `first_page`."""
    return [listing_file(first_page, n) for n in range(1, page_count(items, page_size) + 1)]


def tag_feed_file(tag_slug: str) -> str:
    """Output path of a tag's RSS feed."""
    return f"tags/{tag_slug}/feed.xml"


def tag_bib_file(tag_slug: str) -> str:
    """Output path of the BibTeX file of a tag's papers."""
    return f"tags/{tag_slug}.bib"


def search_docs_file(chunk: int) -> str:
    """Output path of one chunk of the search results' document store."""
    return f"{SEARCH_DOCS}{chunk}.json"


def asset_file(name: str) -> str:
    """Output path of a static asset (CSS, JS, images)."""
    return ASSETS + name


@dataclass(frozen=True)
class Urls:
    """Turns output paths into the URLs readers follow."""

    base_url: str
    """Absolute, ending in '/'."""

    @property
    def base_path(self) -> str:
        """'/' for a user site, '/<repo>/' for a project site."""
        return _parts(self.base_url)[1]

    def path(self, output_path: str) -> str:
        """Root-relative URL of an output file; `x/index.html` becomes `x/`."""
        if output_path == HOME:
            return self.base_path
        if output_path.endswith("/index.html"):
            output_path = output_path[: -len("index.html")]
        if not output_path.isascii():  # why: a URL is ASCII (sitemaps, HTTP); a slug may not be
            output_path = quote(output_path)
        return self.base_path + output_path

    def absolute(self, output_path: str) -> str:
        """Absolute URL of an output file, for feeds, sitemaps and canonical links."""
        return _parts(self.base_url)[0] + self.path(output_path)


@functools.lru_cache(maxsize=16)
def _parts(base_url: str) -> tuple[str, str]:
    """The origin (scheme and host) and the path of a base URL. Kept: a build asks for them
    ~100,000 times at 10,000 papers, and urlsplit is ~1 µs each time."""
    base_path = urlsplit(base_url).path
    return (base_url[: -len(base_path)] if base_path != "/" else base_url[:-1]), base_path
