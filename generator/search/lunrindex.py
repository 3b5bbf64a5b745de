"""lunr.py's index builder, made fast: the same index, without lunr's per-token objects.

`lunr.lunr(...)` spends most of a large build on objects per token (a Token, a metadata dict,
a pass of every pipeline function), on stemming the same words again and again, and on a dict
per posting that the packed wire form (search/packed.py) then takes apart. This runs the
same steps with lunr's own parts (its separators, trimmer pattern, stop words, Porter stemmer)
over plain strings and stems each distinct word once. It keeps what lunr's index is made of,
each field's terms and their counts; postings, idf and BM25 scores all follow from those, so
the reader derives them (search/packed.py's unpack, static/search-index.js).
tests/test_lunrindex.py checks that, unpacked, it equals `lunr.lunr(...).serialize()`.
"""

from __future__ import annotations

import itertools
from array import array
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from lunr import __TARGET_JS_VERSION__

from .terms import FieldTerms, document_terms

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
    numbers: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Each vector's term numbers (indexes in `terms`), ascending, vector after vector."""
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
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
    """Index documents given as one text per field; a document's ref is its position."""
    return build_from_terms(map(document_terms, documents), fields, boosts)


def build_from_terms(documents: Iterable[tuple[FieldTerms, ...]], fields: list[str],
                     boosts: list[float]) -> BuiltIndex:
    """Index documents given as document_terms(); a document's ref is its position."""
    term_ids = TermIds()
    return build_from_ids([term_ids.document(terms) for terms in documents], term_ids,
                          fields, boosts)


Document = tuple[bytes, bytes, bytes]
"""A document's terms as TermIds names them, each part int32s: how many terms each field has,
then the terms' ids, field after field, then their counts."""


@dataclass
class TermIds:
    """Every term met, given an id in the order met: documents' terms as arrays of ids, so
    that the index is laid out by a few array operations, not a loop over a million terms."""

    terms: list[str] = field(default_factory=list)
    in_use: int = 0
    """How many of the terms the last index built holds."""
    _ids: dict[str, int] = field(default_factory=dict)

    def document(self, terms: tuple[FieldTerms, ...]) -> Document:
        """A document's terms as ids."""
        ids = self._ids
        joined = " ".join([words for words, _ in terms if words])
        words = joined.split(" ") if joined else []
        for term in [t for t in dict.fromkeys(words) if t not in ids]:
            ids[term] = len(self.terms)
            self.terms.append(term)
        return (array("i", [len(counts) for _, counts in terms]).tobytes(),
                array("i", map(ids.__getitem__, words)).tobytes(),
                array("i", itertools.chain.from_iterable(c for _, c in terms)).tobytes())


def build_from_ids(documents: list[Document], term_ids: TermIds, fields: list[str],
                   boosts: list[float]) -> BuiltIndex:
    """Index documents given as TermIds.document(); a document's ref is its position."""
    lengths = _int32s(document[0] for document in documents).astype(np.int64)
    ids = _int32s(document[1] for document in documents)
    counts = _int32s(document[2] for document in documents).astype(np.int64)
    # lunr numbers terms as it first meets them, by ref, field and place in the field
    first = np.full(len(term_ids.terms), len(ids), np.int64)
    np.minimum.at(first, ids, np.arange(len(ids)))  # why: each id's first place, without a sort
    present = np.flatnonzero(first < len(ids))
    met = present[np.argsort(first[present])]
    term_ids.in_use = len(met)
    numbering = np.zeros(len(term_ids.terms), np.int64)
    numbering[met] = np.arange(len(met))
    numbers = numbering[ids]
    # each vector's terms by number: one sort of (vector, number), unique within a vector
    vector = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    order = np.argsort(vector * max(len(met), 1) + numbers)
    return BuiltIndex(list(fields), list(boosts), len(documents),
                      [term_ids.terms[i] for i in met.tolist()], lengths, numbers[order],
                      counts[order])


def _int32s(parts: Iterable[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(parts), np.int32)
