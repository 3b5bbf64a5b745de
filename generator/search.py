"""The prebuilt Lunr index and the small document store that search results are drawn from."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

from lunr import lunr

from . import urls as paths
from .lunrpack import pack
from .records import OutputFile, Paper, Site
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
    rows = [[[tag_no[t.name] for t in p.tags], venues.index(p.venue) if p.venue else -1, p.date.year]
            for p in papers]
    return {"chunk": DOC_CHUNK, "tags": tags, "venues": venues, "papers": rows}


def search_files(site: Site) -> list[OutputFile]:
    """The lunr index, the facet table and the document store in chunks, by ref."""
    urls = Urls(site.config.base_url)
    entries = [result_entry(p, urls) for p in site.papers]
    chunks = [OutputFile(paths.search_docs_file(k // DOC_CHUNK), to_json(entries[k:k + DOC_CHUNK]))
              for k in range(0, len(entries), DOC_CHUNK)]
    return [OutputFile(paths.SEARCH_INDEX, to_json(pack(build_index(site.papers)))),
            OutputFile(paths.SEARCH_META, to_json(facet_table(site.papers)))] + chunks


def index_sizes(files: list[OutputFile]) -> tuple[int, int]:
    """Raw and gzipped bytes of what a reader downloads before the first answer."""
    first = [f.data for f in files if f.path in (paths.SEARCH_INDEX, paths.SEARCH_META)]
    return sum(map(len, first)), sum(len(gzip.compress(d, mtime=0)) for d in first)


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
