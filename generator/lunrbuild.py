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

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

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
    """A lunr index before serialisation; refs are the documents' positions."""

    fields: list[str]
    boosts: list[float]
    documents: int = 0
    terms: list[str] = field(default_factory=list)
    """In lunr's `_index` order: first seen first."""
    vectors: list[tuple[int, int, list[int], list[int]]] = field(default_factory=list)
    """(field number, ref, term indexes ascending, their counts in the field), in lunr's order
    (by ref, then field)."""


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
    index = BuiltIndex(list(fields), list(boosts))
    positions: dict[str, int] = {}  # why: a dict keeps first-seen order, lunr's _index order
    number_of = positions.setdefault
    vectors = index.vectors
    for ref, by_field in enumerate(documents):
        index.documents += 1
        for number, (words, counts) in enumerate(by_field):
            # (a term's number, its count), by number; numbers are unique within a field
            terms = words.split(" ") if words else ()  # why: not split(), which splits more
            pairs = sorted(zip([number_of(term, len(positions)) for term in terms], counts))
            vectors.append((number, ref, [at for at, _ in pairs], [count for _, count in pairs]))
    index.terms = list(positions)
    return index
