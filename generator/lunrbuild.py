"""lunr.py's index builder, made fast: the same index, without lunr's per-token objects.

`lunr.lunr(...)` spends most of a large build on objects per token (a Token, a metadata dict,
a pass of every pipeline function), on stemming the same words again and again, and on a dict
per posting that the packed wire form (generator/lunrpack.py) then takes apart. This runs the
same steps with lunr's own parts (its separators, trimmer pattern, stop words, Porter stemmer,
idf and BM25 parameters) over plain strings, stems each distinct word once, and keeps postings
as lists of refs. tests/test_lunrbuild.py checks that, unpacked, it equals
`lunr.lunr(...).serialize()`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from lunr import __TARGET_JS_VERSION__
from lunr.stemmer import porter_stemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS
from lunr.tokenizer import SEPARATOR_CHARS
from lunr.trimmer import full_re

K1, B = 1.2, 0.75  # lunr's Builder defaults
VERSION = __TARGET_JS_VERSION__
SEARCH_PIPELINE = ["stemmer"]
_SEPARATORS = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]+")
_UNSEEN = object()


@dataclass
class BuiltIndex:
    """A lunr index before serialisation; refs are the documents' positions."""

    fields: list[str]
    terms: list[str] = field(default_factory=list)
    """In lunr's `_index` order: first seen first."""
    postings: list[list[list[int]]] = field(default_factory=list)
    """For each term, for each field, the refs of the documents that have it, ascending."""
    vectors: list[tuple[int, int, list[tuple[int, float]]]] = field(default_factory=list)
    """(field number, ref, [(term index, BM25 score)] ascending), in lunr's order."""


class _Terms:
    """What lunr's default pipeline (trimmer, stop-word filter, stemmer) makes of each word."""

    def __init__(self) -> None:
        self._seen: dict[str, Any] = {}

    def __call__(self, text: str) -> list[str]:
        terms = []
        for word in _SEPARATORS.split(text.lower()):
            term = self._seen.get(word, _UNSEEN)
            if term is _UNSEEN:
                term = self._seen[word] = self._term(word)
            if term is not None:
                terms.append(term)
        return terms

    @staticmethod
    def _term(word: str) -> str | None:
        match = full_re.match(word)
        trimmed = match.group(1) if match else word
        if not trimmed or trimmed in STOP_WORDS:
            return None
        return porter_stemmer.stem(trimmed)


def build(documents: Iterable[list[str | None]], fields: list[str],
          boosts: list[float]) -> BuiltIndex:
    """Index documents given as one text per field; a document's ref is its position."""
    index = BuiltIndex(list(fields))
    positions: dict[str, int] = {}
    terms_of = _Terms()
    counts: list[tuple[int, int, Counter[str], int]] = []
    for ref, texts in enumerate(documents):
        for number, text in enumerate(texts):
            terms = terms_of(text) if text is not None else []
            counted = Counter(terms)  # why: keeps first-seen order, as lunr's dict does
            counts.append((number, ref, counted, len(terms)))
            for term in counted:
                position = positions.get(term)
                if position is None:
                    position = positions[term] = len(index.terms)
                    index.terms.append(term)
                    index.postings.append([[] for _ in fields])
                index.postings[position][number].append(ref)
    index.vectors = _vectors(index, positions, counts, boosts)
    return index


def _vectors(index: BuiltIndex, positions: dict[str, int],
             counts: list[tuple[int, int, Counter[str], int]], boosts: list[float]) -> list:
    """BM25 field vectors exactly as lunr.py's Builder computes and serialises them."""
    documents = max((ref for _, ref, _, _ in counts), default=-1) + 1
    totals = [0] * len(index.fields)
    for number, _, _, length in counts:
        totals[number] += length
    average = [total / documents if documents else 0 for total in totals]
    idfs: dict[int, float] = {}
    vectors = []
    for number, ref, counted, length in counts:
        pairs = []
        if counted:
            norm = K1 * (1 - B + B * (length / average[number]))
            for term, tf in counted.items():
                position = positions[term]
                term_idf = idfs.get(position)
                if term_idf is None:
                    term_idf = idfs[position] = _idf(index.postings[position], documents)
                # why: the same expression, in the same order, as lunr.py, for identical floats
                score = term_idf * ((K1 + 1) * tf) / (norm + tf) * boosts[number]
                pairs.append((position, round(score, 3)))
            pairs.sort()
        vectors.append((number, ref, pairs))
    return vectors


def _idf(posting: list[list[int]], documents: int) -> float:
    """lunr's idf; like lunr, a document counts once for each field that has the term."""
    with_term = sum(len(refs) for refs in posting)
    return math.log(1 + abs((documents - with_term + 0.5) / (with_term + 0.5)))
