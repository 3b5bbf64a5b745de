"""lunr.py's index builder, made fast: the same index, without lunr's per-token objects.

`lunr.lunr(...)` spends most of a large build on objects per token (a Token, a metadata dict,
a pass of every pipeline function), on stemming the same words again and again, and on a dict
per posting that the packed wire form (search/packed.py) then takes apart. This runs the
same steps with lunr's own parts (its separators, trimmer pattern, stop words, Porter stemmer)
over plain strings and stems each distinct word once. It keeps what lunr's index is made of,
each field's terms and their counts; postings, idf and BM25 scores all follow from those, so
the reader derives them (search/packed.py's unpack, static/search/index.js).
tests/test_lunrindex.py checks that, unpacked, it equals what lunr.py's Builder serialises with
its pipeline skipping the stop-word filter and the stemmer for the name fields (authors, tags).
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from lunr import __TARGET_JS_VERSION__

from ..model.lazy import library
from .terms import NAME_FIELDS, FieldTerms, Numbering, document_terms

np = library("numpy")

VERSION = __TARGET_JS_VERSION__
SEARCH_PIPELINE = ["stemmer"]


@dataclass
class BuiltIndex:
    """A lunr index before serialisation; refs are the documents' positions.

    Every document has one vector per field (empty fields too), by ref, then field: vector v
    is field v % len(fields) of document v // len(fields). The vectors are kept flat, as
    arrays, so that packing them is a few array operations rather than a Python loop over
    a million terms."""

    fields: list[str]
    boosts: list[float]
    documents: int = 0
    terms: list[str] = field(default_factory=list)
    """In lunr's `_index` order: first seen first."""
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """How many terms each vector has."""
    numbers: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    """Each vector's term numbers (indexes in `terms`), ascending, vector after vector."""
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    """How often each of those terms is in its field."""

    def vectors(self) -> Iterator[tuple[int, int, list[int], list[int]]]:
        """(field number, ref, term numbers ascending, their counts), vector by vector."""
        width, start = len(self.fields), 0
        numbers, counts = self.numbers.tolist(), self.counts.tolist()
        for vector, length in enumerate(self.lengths.tolist()):
            end = start + length
            yield vector % width, vector // width, numbers[start:end], counts[start:end]
            start = end


def build(documents: Iterable[list[str | None]], fields: list[str],
          boosts: list[float]) -> BuiltIndex:
    """Index documents given as one text per field; a document's ref is its position. Fields of
    NAME_FIELDS are indexed as names (neither stop words nor stems)."""
    names = tuple(name in NAME_FIELDS for name in fields)
    return build_from_terms((document_terms(texts, names) for texts in documents), fields, boosts)


def build_from_terms(documents: Iterable[tuple[FieldTerms, ...]], fields: list[str],
                     boosts: list[float]) -> BuiltIndex:
    """Index documents given as document_terms(); a document's ref is its position.

    All the documents' terms are numbered in one pass as they are split, so that the index is
    laid out by a few array operations, not a loop over a million terms."""
    documents = list(documents)
    vectors = [terms for document in documents for terms in document]
    lengths = np.array([len(counts) for _, counts in vectors], np.int64)
    # lunr numbers terms as it first meets them, by ref, field and place in the field; the
    # words are numbered as they come, not held (a million strings: ~110 MB of the peak)
    numbering = Numbering()
    numbers = np.fromiter(map(numbering.__getitem__, _words(vectors)), np.int64,
                          int(lengths.sum()))
    counts = np.fromiter(itertools.chain.from_iterable(c for _, c in vectors), np.int64,
                         len(numbers))
    # each vector's terms by number: one sort of (vector, number), unique within a vector; the
    # key made in place (each array here is a million numbers, 9 MB at 10,000 papers)
    key = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    key *= max(len(numbering), 1)
    key += numbers
    order = np.argsort(key)
    del key
    # why: kept as 32-bit numbers (the process aside holds them while it finds related papers)
    return BuiltIndex(list(fields), list(boosts), len(documents), list(numbering), lengths,
                      numbers.astype(np.int32)[order], counts.astype(np.int32)[order])


def _words(vectors: list[FieldTerms]) -> Iterator[str]:
    """Every term of the vectors, in order (each vector's terms are one string, space-separated),
    split vector by vector, in C."""
    return itertools.chain.from_iterable(map(_split, [words for words, _ in vectors if words]))


_split = operator.methodcaller("split", " ")
