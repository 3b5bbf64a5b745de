"""The small document store search results are drawn from, and the facet table."""

from __future__ import annotations

import json
from typing import Any

from ..model import urls as paths
from ..model.records import FileJob, Paper, Site
from ..model.urls import Urls


def result_entry(paper: Paper, urls: Urls) -> dict[str, Any]:
    """What a search result shows and searches phrases in: plain text only. Its tags, venue and
    year are in the facet table, which the browser has already."""
    entry = {"title": paper.title_text, "url": urls.path(paths.paper_file(paper.slug)),
             "authors": list(paper.authors), "text": paper.abstract_text}
    if paper.notes_text:
        entry["notes"] = paper.notes_text
    return entry


def facet_table(papers: tuple[Paper, ...]) -> dict[str, Any]:
    """Per paper (by ref): tag numbers, venue number (-1 for none), year, and where its document
    is: its chunk's name and its place in it (see document_chunks)."""
    tags = sorted({tag.name for paper in papers for tag in paper.tags})
    venues = sorted({paper.venue for paper in papers if paper.venue})
    tag_no = {name: i for i, name in enumerate(tags)}
    venue_no = {name: i for i, name in enumerate(venues)} | {"": -1}
    place = {paper.slug: (chunk, n) for chunk, members in document_chunks(papers).items()
             for n, paper in enumerate(members)}
    rows = [[[tag_no[t.name] for t in p.tags], venue_no[p.venue], p.date.year, *place[p.slug]]
            for p in papers]
    return {"tags": tags, "venues": venues, "papers": rows}


def document_chunks(papers: tuple[Paper, ...]) -> dict[str, tuple[Paper, ...]]:
    """The papers of each chunk of the document store, by the chunk's name: a paper is in the
    chunk its slug hashes to (urls.bucket), by slug within it, so a paper added or edited
    remakes its own chunk only, wherever it falls in reading order (and all of them when the
    digest doubles, the number of chunks with it)."""
    count = paths.bucket_count(len(papers), paths.DOCUMENTS_PER_CHUNK)
    chunks: dict[str, list[Paper]] = {}
    for paper in sorted(papers, key=lambda p: p.slug):
        chunks.setdefault(paths.bucket(paper.slug, count), []).append(paper)
    return {name: tuple(members) for name, members in sorted(chunks.items())}


def document_jobs(site: Site) -> list[FileJob]:
    """The document store in chunks (document_chunks)."""
    return [FileJob(paths.search_docs_file(name), documents_json, (members, site.config.base_url))
            for name, members in document_chunks(site.papers).items()]


def documents_json(papers: tuple[Paper, ...], base_url: str) -> bytes:
    """One chunk of the document store: each paper's result_entry."""
    urls = Urls(base_url)
    return to_json([result_entry(p, urls) for p in papers])


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
