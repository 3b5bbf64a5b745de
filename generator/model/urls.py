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
"""The search results' documents, each paper's in the file its slug hashes to (bucket)."""
ASSETS = "assets/"


def paper_file(slug: str) -> str:
    """Output path of a paper page."""
    return f"papers/{slug}/index.html"


def group_index_file(grouping: str) -> str:
    """Output path of the page listing every group of a grouping: tags/index.html."""
    return f"{grouping}/index.html"


def group_file(grouping: str, slug: str) -> str:
    """Output path of a group's page (its first, newest): tags/<slug>/index.html."""
    return f"{grouping}/{slug}/index.html"


def group_feed_file(grouping: str, slug: str) -> str:
    """Output path of a group's RSS feed: tags/<slug>/feed.xml."""
    return f"{grouping}/{slug}/feed.xml"


def tag_file(tag_slug: str) -> str:
    """Output path of a tag page."""
    return group_file("tags", tag_slug)


MAX_BUCKETS = 4096
AUTHORS_PER_PAGE = 64
"""About this many authors are listed on each page of authors."""
DOCUMENTS_PER_CHUNK = 32
"""About this many papers' documents are in each file of the search's document store."""


def bucket_count(items: int, per_bucket: int) -> int:
    """How many files `items` are spread over, about `per_bucket` in each: a power of two (at
    most MAX_BUCKETS), so that as a digest grows the count changes only when it doubles. A file
    per item would be ~2 files a paper at 10,000 papers (18,000 authors); files of consecutive
    papers would all change when a paper is added before them."""
    count = 1
    while count < MAX_BUCKETS and count * per_bucket < items:
        count *= 2
    return count


@functools.lru_cache(maxsize=1 << 17)  # why: an author is looked up for every link, page and line
def bucket(key: str, count: int) -> str:
    """The name of the file of `count` that `key` is kept in: FNV-1a (32 bits) of its UTF-8
    bytes modulo `count`, in hex ('0'-'f' for 16, '00'-'3f' for 64), as static/reading/moved.js
    computes it too."""
    digest = 0x811C9DC5
    for byte in key.encode("utf-8"):
        digest = ((digest ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{digest % count:0{len(f'{count - 1:x}')}x}"


def author_page_file(page: str) -> str:
    """Output path of the page listing the authors whose slugs hash to `page`."""
    return f"authors/{page}/index.html"


def author_file(author_slug: str, pages: int) -> str:
    """Output path of the page, of `pages` pages of authors, an author is listed on."""
    return author_page_file(bucket(author_slug, pages))


def author_anchor(author_slug: str) -> str:
    """The id of an author's section on their page (prefixed: a slug could be a layout's id)."""
    return f"author-{author_slug}"


def listing_file(first_page: str, page: int, pages: int) -> str:
    """Page `page` of a paginated list of `pages`. Pages are numbered from the oldest paper, so
    a page, once full, never changes as papers are added: page `pages`, the newest, is
    `first_page` itself; page n is `<its folder>/page/<n>/index.html`."""
    if page == pages:
        return first_page
    return f"{first_page[: -len('index.html')]}page/{page}/index.html"


def page_count(items: int, page_size: int) -> int:
    """How many pages a list of `items` takes: every page but the first (the newest) holds
    `page_size` items, the first between one and two pages' worth; an empty list still has it."""
    return max(1, items // page_size)


def page_items(page: int, pages: int, items: int, page_size: int) -> slice:
    """The items (newest first) page `page` of `pages` shows."""
    end = items - (page - 1) * page_size
    return slice(0 if page == pages else end - page_size, end)


def listing_files(first_page: str, items: int, page_size: int) -> list[str]:
    """Every page's output path of a list of `items` starting at `first_page`, newest first."""
    pages = page_count(items, page_size)
    return [listing_file(first_page, n, pages) for n in range(pages, 0, -1)]


def tag_feed_file(tag_slug: str) -> str:
    """Output path of a tag's RSS feed."""
    return group_feed_file("tags", tag_slug)


def search_docs_file(chunk: str) -> str:
    """Output path of one chunk of the search results' document store (a bucket's name)."""
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

    def author(self, author_slug: str, pages: int) -> str:
        """Root-relative URL of an author's section on the page, of `pages`, that lists them."""
        anchor = author_anchor(author_slug)
        page = self.path(author_file(author_slug, pages))
        return f"{page}#{anchor if anchor.isascii() else quote(anchor)}"

    def absolute(self, output_path: str) -> str:
        """Absolute URL of an output file, for feeds, sitemaps and canonical links."""
        return _parts(self.base_url)[0] + self.path(output_path)


@functools.lru_cache(maxsize=16)
def _parts(base_url: str) -> tuple[str, str]:
    """The origin (scheme and host) and the path of a base URL. Kept: a build asks for them
    ~100,000 times at 10,000 papers, and urlsplit is ~1 µs each time."""
    base_path = urlsplit(base_url).path
    return (base_url[: -len(base_path)] if base_path != "/" else base_url[:-1]), base_path
