"""The small document store search results are drawn from, and the facet table."""

from __future__ import annotations

import json
from typing import Any

from ..model import urls as paths
from ..model.records import FileJob, Paper, Site
from ..model.urls import Urls


DOC_CHUNK = paths.SEARCH_DOCS_CHUNK
"""Papers per document-store file: a page of results fetches a few small files, not all."""


def result_entry(paper: Paper, urls: Urls) -> dict[str, Any]:
    """What a search result shows and searches phrases in: plain text only."""
    entry = {"title": paper.title_text, "url": urls.path(paths.paper_file(paper.slug)),
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


def document_jobs(site: Site) -> list[FileJob]:
    """The document store in chunks of DOC_CHUNK papers, by ref: an edit remakes one chunk."""
    return [FileJob(paths.search_docs_file(k // DOC_CHUNK), documents_json,
                    (site.papers[k:k + DOC_CHUNK], site.config.base_url))
            for k in range(0, len(site.papers), DOC_CHUNK)]


def documents_json(papers: tuple[Paper, ...], base_url: str) -> bytes:
    """One chunk of the document store: each paper's result_entry."""
    urls = Urls(base_url)
    return to_json([result_entry(p, urls) for p in papers])


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
