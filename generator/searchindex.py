"""The prebuilt Lunr index: what a reader fetches before the first answer, with the facets.

Built from the papers' terms (terms.py) by lunrbuild.py, written in our packed form by
lunrpack.py. The build runs it in a forked process while the pages are written (pipeline.py).
"""

from __future__ import annotations

import gzip
import time
from pathlib import Path

from . import urls as paths
from .lunrbuild import BuiltIndex, TermIds, build_from_ids
from .lunrpack import packed_json
from .memo import keep_pickled, load_pickled_dict
from .records import OutputFile, Paper, Site
from .search import SearchIndex, document_plan, facet_table, to_json
from .terms import FIELDS, paper_terms


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


def index_files(papers: tuple[Paper, ...], term_ids: TermIds | None = None) -> list[OutputFile]:
    """The lunr index and the facet table of the papers in reading order: what a reader
    fetches before the first answer."""
    return [OutputFile(paths.SEARCH_INDEX, packed_json(build_index(papers, term_ids))),
            OutputFile(paths.SEARCH_META, to_json(facet_table(papers)))]


def search_files(site: Site) -> list[OutputFile]:
    """The lunr index, the facet table and the document store in chunks, by ref."""
    return index_files(site.papers) + [chunk.made() for chunk in document_plan(site)]


def search_index(papers: tuple[Paper, ...], kept: Path | None) -> SearchIndex:
    """index_files(), naming terms with the ids kept at `kept` by the last build (and keeping
    this build's there), with the sizes a reader downloads. The build runs it in a forked
    process while the pages are written (pipeline.py)."""
    started = time.perf_counter()
    term_ids = kept_term_ids(kept)
    files = index_files(papers, term_ids)
    if kept is not None:
        keep_term_ids(term_ids, kept)
    raw, gzipped = index_sizes(files)
    return SearchIndex(files, raw, gzipped, time.perf_counter() - started)


def index_sizes(files: list[OutputFile]) -> tuple[int, int]:
    """Raw and (at most) gzipped bytes of what a reader downloads before the first answer."""
    first = [f.data for f in files if f.path in (paths.SEARCH_INDEX, paths.SEARCH_META)]
    # why: gzip's fastest level, an upper bound of what a server sends; level 6 would be ~10%
    # smaller but takes seconds on a 10,000-paper index (bench/search_bench.py reports it)
    return sum(map(len, first)), sum(len(gzip.compress(d, compresslevel=1, mtime=0)) for d in first)
