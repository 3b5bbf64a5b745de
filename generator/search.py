"""The prebuilt Lunr index and the small document store that search results are drawn from."""

from __future__ import annotations

import gzip
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import urls as paths
from .keyed import KeyedFile, identities
from .lunrbuild import BuiltIndex, FieldTerms, TermIds, build_from_ids, document_terms
from .lunrpack import packed_json
from .memo import keep_pickled, load_pickled_dict
from .records import OutputFile, Paper, Site
from .urls import Urls

FIELDS = (("title", 10), ("authors", 5), ("tags", 5), ("abstract", 1), ("notes", 1))
"""The indexed fields, in search_texts() order, with their boosts."""
# why: lunr.py keeps tokens with inner punctuation whole ('e.g.,', '$\texttt{x}$') while
# lunr.js strips it, so the browser could not find them; index only letters and digits.
_WORD = re.compile(r"[^\W_]+")


def index_text(text: str) -> str:
    """Text reduced to words (letters and digits) separated by single spaces, as both lunr.py
    and lunr.js see it."""
    return " ".join(_WORD.findall(text))


def search_texts(paper: Paper) -> list[str]:
    """The text lunr indexes for one paper, one string per field of FIELDS."""
    return [index_text(paper.title), index_text(" ".join(paper.authors)),
            index_text(" ".join(tag.name for tag in paper.tags)),
            index_text(paper.abstract_text), index_text(paper.notes_text)]


def paper_terms(paper: Paper) -> tuple[FieldTerms, ...]:
    """The terms lunr indexes for one paper, counted, per field of FIELDS."""
    return document_terms(search_texts(paper))


def build_index(papers: tuple[Paper, ...], term_ids: TermIds | None = None) -> BuiltIndex:
    """The lunr index lunr.py would build, refs being the papers' positions (short integers).
    `term_ids` may hold the papers' terms as the last build named them (see kept_term_ids)."""
    term_ids = term_ids or TermIds()
    documents = [term_ids.document(paper.source_key or None,
                                   paper.search_terms or paper_terms(paper)) for paper in papers]
    return build_from_ids(documents, term_ids, [name for name, _ in FIELDS],
                          [boost for _, boost in FIELDS])


def kept_term_ids(path: Path | None) -> TermIds:
    """The terms and papers' term ids the last build kept at `path`, or none."""
    kept = load_pickled_dict(path) if path else {}
    terms, documents = kept.get("terms"), kept.get("documents")
    if not isinstance(terms, list) or not isinstance(documents, dict):
        return TermIds()
    return TermIds(terms, documents)


def keep_term_ids(term_ids: TermIds, path: Path) -> None:
    """Keep this build's term ids for the next, by paper (source_key). Terms met once and no
    longer in any paper are dropped, by starting afresh, once they outnumber those in use."""
    if term_ids.used == term_ids.kept:
        return
    if len(term_ids.terms) > 2 * term_ids.in_use + 1000:
        term_ids = TermIds()
    keep_pickled(path, {"terms": term_ids.terms, "documents": term_ids.used})


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
    return index_files(site) + [chunk.made() for chunk in document_plan(site)]


def index_files(site: Site, term_ids: TermIds | None = None) -> list[OutputFile]:
    """The lunr index and the facet table: what a reader fetches before the first answer."""
    return [OutputFile(paths.SEARCH_INDEX, packed_json(build_index(site.papers, term_ids))),
            OutputFile(paths.SEARCH_META, to_json(facet_table(site.papers)))]


@dataclass(frozen=True)
class SearchIndex:
    """The files a reader fetches before the first answer, their sizes, how long they took."""

    files: list[OutputFile]
    raw: int
    gzipped: int
    seconds: float


def search_index(site: Site, kept: Path | None) -> SearchIndex:
    """index_files(), naming terms with the ids kept at `kept` by the last build (and keeping
    this build's there), with the sizes a reader downloads; a pure step, for a forked process."""
    started = time.perf_counter()
    term_ids = kept_term_ids(kept)
    files = index_files(site, term_ids)
    if kept is not None:
        keep_term_ids(term_ids, kept)
    raw, gzipped = index_sizes(files)
    return SearchIndex(files, raw, gzipped, time.perf_counter() - started)


def document_plan(site: Site) -> list[KeyedFile]:
    """The document store in chunks of DOC_CHUNK papers, by ref: an edit remakes one chunk."""
    urls = Urls(site.config.base_url)
    return [_chunk(k // DOC_CHUNK, site.papers[k:k + DOC_CHUNK], urls)
            for k in range(0, len(site.papers), DOC_CHUNK)]


def _chunk(number: int, papers: tuple[Paper, ...], urls: Urls) -> KeyedFile:
    return KeyedFile(paths.search_docs_file(number), (urls.base_url, identities(papers)),
                     lambda: to_json([result_entry(p, urls) for p in papers]))


def index_sizes(files: list[OutputFile]) -> tuple[int, int]:
    """Raw and (at most) gzipped bytes of what a reader downloads before the first answer."""
    first = [f.data for f in files if f.path in (paths.SEARCH_INDEX, paths.SEARCH_META)]
    # why: gzip's fastest level, an upper bound of what a server sends; level 6 would be ~10%
    # smaller but takes seconds on a 10,000-paper index (bench/search_bench.py reports it)
    return sum(map(len, first)), sum(len(gzip.compress(d, compresslevel=1, mtime=0)) for d in first)


def to_json(value: Any) -> bytes:
    """Compact, key-sorted UTF-8 JSON: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
