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


FacetRow = tuple[str, tuple[str, ...], str, int]
"""What the facet table reads of a paper: its slug, its tags' names, its venue and its year."""


def facet_rows(papers: tuple[Paper, ...]) -> tuple[FacetRow, ...]:
    """What the facet table reads of each paper, in order: the table's job is given these, not
    the papers, so that an edit of a title, an abstract or notes keeps it (its key, of ~10,000
    small tuples, is the same), and only a change of what it shows remakes it."""
    return tuple((p.slug, tuple(tag.name for tag in p.tags), p.venue, p.date.year)
                 for p in papers)


def facet_table(papers: tuple[Paper, ...]) -> dict[str, Any]:
    """Per paper (by ref): tag numbers, venue number (-1 for none), year, and where its document
    is: its chunk's name and its place in it (see document_chunks)."""
    return facet_table_of(facet_rows(papers))


def facet_table_of(rows: tuple[FacetRow, ...]) -> dict[str, Any]:
    """facet_table() of the papers' facet_rows()."""
    tags = sorted({tag for _, names, _, _ in rows for tag in names})
    venues = sorted({venue for _, _, venue, _ in rows if venue})
    tag_no = {name: i for i, name in enumerate(tags)}
    venue_no = {name: i for i, name in enumerate(venues)} | {"": -1}
    place = chunk_places([slug for slug, *_ in rows])
    table = [[[tag_no[t] for t in names], venue_no[venue], year, *place[slug]]
             for slug, names, venue, year in rows]
    return {"tags": tags, "venues": venues, "papers": table}


def chunk_places(slugs: list[str]) -> dict[str, tuple[str, int]]:
    """The chunk of the document store each paper's document is in, and its place there, by
    the paper's slug (see document_chunks)."""
    count = paths.bucket_count(len(slugs), paths.DOCUMENTS_PER_CHUNK)
    filled: dict[str, int] = {}
    places = {}
    for slug in sorted(slugs):
        chunk = paths.bucket(slug, count)
        places[slug] = (chunk, filled.get(chunk, 0))
        filled[chunk] = places[slug][1] + 1
    return places


def document_chunks(papers: tuple[Paper, ...]) -> dict[str, tuple[Paper, ...]]:
    """The papers of each chunk of the document store, by the chunk's name: a paper is in the
    chunk its slug hashes to (urls.bucket), by slug within it, so a paper added or edited
    remakes its own chunk only, wherever it falls in reading order (and all of them when the
    digest doubles, the number of chunks with it)."""
    places = chunk_places([paper.slug for paper in papers])
    chunks: dict[str, list[Paper]] = {}
    for paper in sorted(papers, key=lambda p: p.slug):
        chunks.setdefault(places[paper.slug][0], []).append(paper)
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
