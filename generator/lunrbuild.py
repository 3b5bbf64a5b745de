"""lunr.py's index builder, made fast: the same index, without lunr's per-token objects.

`lunr.lunr(...)` spends most of a large build on objects per token (a Token, a metadata dict,
a pass of every pipeline function), on stemming the same words again and again, and on a dict
per posting that the packed wire form (generator/lunrpack.py) then takes apart. This runs the
same steps with lunr's own parts (its separators, trimmer pattern, stop words, Porter stemmer)
over plain strings and stems each distinct word once. It keeps what lunr's index is made of,
each field's terms and their counts; postings, idf and BM25 scores all follow from those, so
the reader derives them (generator/lunrpack.py's unpack, static/search-index.js).
tests/test_lunrbuild.py checks that, unpacked, it equals `lunr.lunr(...).serialize()`.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from lunr import __TARGET_JS_VERSION__
from lunr.stemmer import porter_stemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS
from lunr.tokenizer import SEPARATOR_CHARS
from lunr.trimmer import full_re

VERSION = __TARGET_JS_VERSION__
SEARCH_PIPELINE = ["stemmer"]
_SEPARATORS = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]+")


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


class _TermMaker(dict):
    """What lunr's default pipeline (trimmer, stop-word filter, stemmer) makes of each word:
    a dict from word to term (None: no term), filled as words are first seen."""

    def __call__(self, text: str) -> list[str]:
        # why: map over the dict's own lookup keeps the loop in C; only new words run Python
        return [term for term in map(self.__getitem__, _SEPARATORS.split(text.lower()))
                if term is not None]

    def __missing__(self, word: str) -> str | None:
        match = full_re.match(word)
        trimmed = match.group(1) if match else word
        term = None if not trimmed or trimmed in STOP_WORDS else porter_stemmer.stem(trimmed)
        self[word] = term
        return term


_TERMS = _TermMaker()  # why: one memo per process; a digest's vocabulary is bounded

FieldTerms = tuple[str, tuple[int, ...]]
"""One field's terms, joined by spaces in first-seen order (as lunr's dict keeps them), and
their counts. A term never holds a space (spaces separate words). Kept with each paper between
builds, it loads as two objects instead of a tuple per term: reading 10,000 cached papers back
took three times as long with (term, count) pairs."""


def document_terms(texts: list[str | None]) -> tuple[FieldTerms, ...]:
    """What lunr indexes of one document, given one text per field: the per-document half of
    the build, which callers may compute in parallel and keep between builds."""
    return tuple(_counted(Counter(_TERMS(text))) if text is not None else ("", ()) for text in texts)


def _counted(counter: Counter[str]) -> FieldTerms:
    return " ".join(counter), tuple(counter.values())


def build(documents: Iterable[list[str | None]], fields: list[str],
          boosts: list[float]) -> BuiltIndex:
    """Index documents given as one text per field; a document's ref is its position."""
    return build_from_terms((document_terms(texts) for texts in documents), fields, boosts)


def build_from_terms(documents: Iterable[tuple[FieldTerms, ...]], fields: list[str],
                     boosts: list[float]) -> BuiltIndex:
    """Index documents given as document_terms(); a document's ref is its position."""
    by_vector = [terms for document in documents for terms in document]
    number: dict[str, int] = {}
    numbers = np.concatenate([np.zeros(0, np.int64)] + [
        _numbered(by_vector[start:start + _BLOCK], number)
        for start in range(0, len(by_vector), _BLOCK)])
    counts = np.fromiter(itertools.chain.from_iterable(c for _, c in by_vector), np.int64,
                         len(numbers))
    lengths = np.fromiter(map(len, [c for _, c in by_vector]), np.int64, len(by_vector))
    # each vector's terms by number: one sort of (vector, number), unique within a vector
    vector = np.repeat(np.arange(len(by_vector), dtype=np.int64), lengths)
    order = np.argsort(vector * max(len(number), 1) + numbers)
    return BuiltIndex(list(fields), list(boosts), len(by_vector) // max(len(fields), 1),
                      list(number), lengths, numbers[order], counts[order])


_BLOCK = 5_000
"""Vectors numbered at a time: a block's words are strings in memory at once (all 10,000
papers' would be 1.2 million, ~80 MB)."""


def _numbered(vectors: list[FieldTerms], number: dict[str, int]) -> np.ndarray:
    """The numbers of the vectors' terms, in order, numbering terms not seen before as lunr
    does: first seen, first numbered (by ref, field and place)."""
    joined = " ".join([words for words, _ in vectors if words])
    terms = joined.split(" ") if joined else []
    # why: dict.fromkeys finds the block's distinct terms in first-seen order in C, so only
    # those, not every word, pass through Python
    for term in dict.fromkeys(terms):
        number.setdefault(term, len(number))
    return np.fromiter(map(number.__getitem__, terms), np.int64, len(terms))
