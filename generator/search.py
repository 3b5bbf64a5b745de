"""The prebuilt Lunr index and the small document store that search results are drawn from."""

from __future__ import annotations

import json
import re
from typing import Any

from lunr import lunr

from . import urls as paths
from .records import OutputFile, Paper, Site
from .render import excerpt
from .urls import Urls

FIELDS = (
    {"field_name": "title", "boost": 10},
    {"field_name": "authors", "boost": 5},
    {"field_name": "tags", "boost": 5},
    {"field_name": "abstract"},
    {"field_name": "notes"},
)
# why: lunr.py keeps tokens with inner punctuation whole ('e.g.,', '$\texttt{x}$') while
# lunr.js strips it, so the browser could not find them; index only letters and digits.
_NON_WORD = re.compile(r"[^\w]+|_+")


def index_text(text: str) -> str:
    """Text reduced to words separated by single spaces, as both lunr.py and lunr.js see it."""
    return " ".join(_NON_WORD.sub(" ", text).split())


def search_document(ref: int, paper: Paper) -> dict[str, str]:
    """The fields lunr indexes for one paper; refs are short integers to keep the index small."""
    return {
        "id": str(ref),
        "title": index_text(paper.title),
        "authors": index_text(" ".join(paper.authors)),
        "tags": index_text(" ".join(tag.name for tag in paper.tags)),
        "abstract": index_text(paper.abstract_text),
        "notes": index_text(paper.notes_text),
    }


def build_index(papers: tuple[Paper, ...]) -> dict[str, Any]:
    """A serialised lunr index, loadable by lunr.js 2.3.9's lunr.Index.load."""
    documents = [search_document(ref, paper) for ref, paper in enumerate(papers)]
    return lunr(ref="id", fields=list(FIELDS), documents=documents).serialize()


def result_entry(paper: Paper, urls: Urls, words: int) -> dict[str, Any]:
    """What a search result shows: plain text only, the browser inserts it as text."""
    return {"title": paper.title, "url": urls.path(paths.paper_file(paper.slug)),
            "authors": list(paper.authors), "tags": [tag.name for tag in paper.tags],
            "venue": paper.venue, "excerpt": excerpt(paper.abstract_text, words)}


def search_files(site: Site) -> list[OutputFile]:
    """search/index.json (the lunr index) and search/docs.json (results by ref)."""
    urls = Urls(site.config.base_url)
    docs = [result_entry(p, urls, site.config.home_excerpt_words) for p in site.papers]
    return [OutputFile(paths.SEARCH_INDEX, to_json(build_index(site.papers))),
            OutputFile(paths.SEARCH_DOCS, to_json(docs))]


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
