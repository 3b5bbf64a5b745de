"""What the Python lunr package itself builds, for tests that hold our index to it."""

from lunr import lunr

from generator.search.terms import FIELDS, search_texts


def lunr_py_index(texts: list[list[str]]) -> dict:
    """lunr.lunr(...).serialize() for documents given as one text per field of FIELDS."""
    documents = [{"id": str(ref), **{name: text for (name, _), text in zip(FIELDS, doc)}}
                 for ref, doc in enumerate(texts)]
    fields = [{"field_name": name, "boost": boost} for name, boost in FIELDS]
    return lunr(ref="id", fields=fields, documents=documents).serialize()


def lunr_py_index_of(papers) -> dict:
    """lunr.py's index of papers, as searchindex.build_index indexes them."""
    return lunr_py_index([search_texts(paper) for paper in papers])
