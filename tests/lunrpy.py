"""What the Python lunr package itself builds, for tests that hold our index to it."""

from lunr import lunr
from lunr.builder import Builder
from lunr.stemmer import stemmer
from lunr.stop_word_filter import stop_word_filter
from lunr.trimmer import trimmer

from generator.search.terms import FIELDS, NAME_FIELDS, search_texts


def names_as_names_builder() -> Builder:
    """lunr.py's default builder, its pipeline skipping the stop-word filter and the stemmer
    for the name fields (lunr.py's own Pipeline.skip), as our index is built."""
    builder = Builder()
    builder.pipeline.add(trimmer, stop_word_filter, stemmer)
    builder.pipeline.skip(stop_word_filter, sorted(NAME_FIELDS))
    builder.pipeline.skip(stemmer, sorted(NAME_FIELDS))
    builder.search_pipeline.add(stemmer)
    return builder


def lunr_py_index(texts: list[list[str]]) -> dict:
    """lunr.lunr(...).serialize() for documents given as one text per field of FIELDS, built
    with names_as_names_builder()."""
    documents = [{"id": str(ref), **{name: text for (name, _), text in zip(FIELDS, doc)}}
                 for ref, doc in enumerate(texts)]
    fields = [{"field_name": name, "boost": boost} for name, boost in FIELDS]
    return lunr(ref="id", fields=fields, documents=documents,
                builder=names_as_names_builder()).serialize()


def lunr_py_index_of(papers) -> dict:
    """lunr.py's index of papers, as searchindex.build_index indexes them."""
    return lunr_py_index([search_texts(paper) for paper in papers])
