"""The small document store search results are drawn from, the facet table, and the index's
files as the build gets them; the index itself is searchindex.py's."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import urls as paths
from .keyed import KeyedFile, identities
from .records import OutputFile, Paper, Site
from .urls import Urls


@dataclass(frozen=True)
class SearchIndex:
    """The files a reader fetches before the first answer, their sizes, how long they took.
    Here, not in searchindex.py: the build unpickles it from the process that built the
    index, and should not import numpy to do so."""

    files: list[OutputFile]
    raw: int
    gzipped: int
    seconds: float


DOC_CHUNK = 25
"""Papers per document-store file: a page of results fetches a few small files, not all."""


def result_entry(paper: Paper, urls: Urls) -> dict[str, Any]:
    """What a search result shows and searches phrases in: plain text only."""
    entry = {"title": paper.title, "url": urls.path(paths.paper_file(paper.slug)),
             "authors": list(paper.authors), "tags": [tag.name for tag in paper.tags],
             "venue": paper.venue, "year": paper.date.year, "text": paper.abstract_text}
    if paper.notes_text:
        entry["notes"] = paper.notes_text
    return entry


def facet_table(papers: tuple[Paper, ...]) -> dict[str, Any]:
    """Per paper (by ref): tag numbers, venue number (-1 for none) and year, for facet counts."""
    tags = sorted({tag.name for paper in papers for tag in paper.tags})
    venues = sorted({paper.venue for paper in papers if paper.venue})
    tag_no = {name: i for i, name in enumerate(tags)}
    venue_no = {name: i for i, name in enumerate(venues)} | {"": -1}
    rows = [[[tag_no[t.name] for t in p.tags], venue_no[p.venue], p.date.year] for p in papers]
    return {"chunk": DOC_CHUNK, "tags": tags, "venues": venues, "papers": rows}


def document_plan(site: Site) -> list[KeyedFile]:
    """The document store in chunks of DOC_CHUNK papers, by ref: an edit remakes one chunk."""
    urls = Urls(site.config.base_url)
    return [_chunk(k // DOC_CHUNK, site.papers[k:k + DOC_CHUNK], urls)
            for k in range(0, len(site.papers), DOC_CHUNK)]


def _chunk(number: int, papers: tuple[Paper, ...], urls: Urls) -> KeyedFile:
    return KeyedFile(paths.search_docs_file(number), (urls.base_url, identities(papers)),
                     lambda: to_json([result_entry(p, urls) for p in papers]))


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
