"""The prebuilt Lunr index and the facet table: what a reader fetches before the first answer.

Built from the papers' terms (terms.py) by lunrindex.py, written in our packed form by
packed.py; lunr.js 2.3.9 loads it in the browser (static/search/index.js)."""

from __future__ import annotations

import gzip
from typing import Callable

from ..model import urls as paths
from ..model.records import FileJob, OutputFile, Paper, Site
from .documents import FacetRow, document_jobs, facet_rows, facet_table_of, to_json
from .lunrindex import BuiltIndex, build_from_terms
from .packed import packed_json
from .terms import FIELDS, FieldTerms, paper_terms


def build_index(papers: tuple[Paper, ...]) -> BuiltIndex:
    """The lunr index lunr.py would build, refs being the papers' positions (short integers)."""
    return index_of_terms(tuple(map(paper_terms, papers)))


def index_of_terms(terms: tuple[tuple[FieldTerms, ...], ...]) -> BuiltIndex:
    """build_index() of the papers' paper_terms(), in reading order."""
    return build_from_terms(terms, [name for name, _ in FIELDS], [boost for _, boost in FIELDS])


def index_json(terms: tuple[tuple[FieldTerms, ...], ...]) -> bytes:
    """The index of the papers' terms, in reading order, packed."""
    return packed_json(index_of_terms(terms))


def facets_json(rows: tuple[FacetRow, ...]) -> bytes:
    """The facet table of the papers' facet_rows(), in reading order."""
    return to_json(facet_table_of(rows))


def search_jobs(site: Site, terms: tuple[tuple[FieldTerms, ...], ...] | object,
                index: Callable[[], bytes] | None = None) -> list[FileJob]:
    """The document store in chunks, by ref, the facet table and the lunr index of the papers'
    `terms` (paper_terms() of each, in the site's order); `index` waits for index_json(terms)
    begun aside, if it was. The build gives what stands for the terms where they are read
    aside (building/cache.py's KeptResults), and `index`: the index's key is a hash of it."""
    return document_jobs(site) + [
        FileJob(paths.SEARCH_META, facets_json, (facet_rows(site.papers),)),
        FileJob(paths.SEARCH_INDEX, index_json, (terms,), aside=index)]


def gzipped_size(data: bytes) -> int:
    """The bytes of `data` gzipped at gzip's fastest level: an upper bound of what a server
    sends (level 6 would be ~10% smaller but takes seconds on a 10,000-paper index;
    bench/search_bench.py reports it)."""
    return len(gzip.compress(data, compresslevel=1, mtime=0))
