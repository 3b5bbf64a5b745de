"""The small wire form of a lunr index: what lunr's index is made of, not what follows from it.

lunr's own JSON holds each field's term vector with BM25 scores, and, for every term, the
documents that have it (per field, empty fields included). Both follow from each field's terms
and their counts: a term's postings are the vectors that hold it, its idf is their number, and
a score is lunr's BM25 of the count, the idf and the field's length against its average. So we
send the counts, and `static/search-index.js` derives the rest exactly as lunr.py computes it
(the same float operations in the same order) before `lunr.Index.load`, so lunr.js 2.3.9
answers as lunr.py does. `unpack` below is the reader's Python twin, which the tests compare
with `lunr.lunr(...).serialize()`.

    {"format": FORMAT, "version", "fields", "boosts", "bm25": [k1, b], "documents", "pipeline",
     "terms":   [term, ...]                                         # in lunr's _index order
     "vectors": [[field no, ref, n, term-index delta x n, count x n], ...]}   # by ref, field
"""

from __future__ import annotations

import json
import math
from operator import sub
from typing import Any

import numpy as np

from .lunrbuild import SEARCH_PIPELINE, VERSION, BuiltIndex

FORMAT = "digest-lunr/2"
K1, B = 1.2, 0.75  # lunr's Builder defaults


def pack(index: BuiltIndex) -> dict[str, Any]:
    """The packed form of an index built by generator.lunrbuild."""
    vectors = [[number, ref, len(terms), *map(sub, terms, [0, *terms]), *counts]
               for number, ref, terms, counts in index.vectors()]
    return {**_header(index), "vectors": vectors}


def packed_json(index: BuiltIndex) -> bytes:
    """search.to_json(pack(index)), the same bytes, made with array operations: at 10,000
    papers the vectors hold 2.5 million numbers, and packing them as lists of Python ints
    and encoding those took most of a second."""
    head = json.dumps(_header(index), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # why: "vectors" sorts after every key of the header, and "version" after "vectors"
    assert head.endswith(f',"version":{json.dumps(VERSION)}}}')
    cut = head.rindex(',"version":')
    return f'{head[:cut]},"vectors":{_vectors_json(index)}{head[cut:]}'.encode()


def _header(index: BuiltIndex) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "fields": index.fields, "boosts": index.boosts,
            "bm25": [K1, B], "documents": index.documents, "pipeline": SEARCH_PIPELINE,
            "terms": index.terms}


def _vectors_json(index: BuiltIndex) -> str:
    """The vectors as pack() writes them: [field no, ref, n, n term-number deltas, n counts]
    each, every number as JSON writes an int."""
    lengths = index.lengths
    vectors = len(lengths)
    if not vectors:
        return "[]"
    ends = np.cumsum(lengths)
    starts = ends - lengths
    deltas = np.diff(index.numbers, prepend=0)
    begins = starts[lengths > 0]
    deltas[begins] = index.numbers[begins]  # why: a vector's first number is its own delta
    # every number in writing order: 3 per vector, then its deltas, then its counts
    places = 3 * np.arange(vectors) + 2 * starts
    numbers = np.empty(3 * vectors + 2 * len(deltas), np.int64)
    numbers[places] = np.arange(vectors) % len(index.fields)
    numbers[places + 1] = np.arange(vectors) // len(index.fields)
    numbers[places + 2] = lengths
    within = np.arange(len(deltas)) - np.repeat(starts, lengths)
    at = np.repeat(places + 3, lengths) + within
    numbers[at] = deltas
    numbers[at + np.repeat(lengths, lengths)] = index.counts
    # each number as text, followed by "," or, closing its vector, by "],["
    closing = np.zeros(len(numbers), bool)
    closing[places + 2 + 2 * lengths] = True
    top = int(numbers.max()) + 1
    followed = (np.array([f"{k}," for k in range(top)], object),
                np.array([f"{k}],[" for k in range(top)], object))
    text = "".join(_as_text(numbers[block:block + _BLOCK], closing[block:block + _BLOCK], followed)
                   for block in range(0, len(numbers), _BLOCK))
    return "[[" + text[:-2] + "]"


_BLOCK = 250_000
"""Numbers made text at a time: each is an object reference while it is made (all 2.5 million
at 10,000 papers would be ~60 MB)."""


def _as_text(numbers: np.ndarray, closing: np.ndarray,
             followed: tuple[np.ndarray, np.ndarray]) -> str:
    comma, close = followed
    return "".join(np.where(closing, close[numbers], comma[numbers]).tolist())


def unpack(packed: dict[str, Any]) -> dict[str, Any]:
    """lunr's serialised index back from the packed form (the JavaScript reader's twin)."""
    fields, documents = packed["fields"], packed["documents"]
    k1, b = packed["bm25"]
    rows = [_row(v) for v in packed["vectors"]]
    postings: list[dict[str, Any]] = [{"_index": n, **{f: {} for f in fields}}
                                      for n in range(len(packed["terms"]))]
    totals, with_term = [0] * len(fields), [0] * len(postings)
    for number, ref, terms, counts in rows:
        totals[number] += sum(counts)
        for term in terms:
            postings[term][fields[number]][str(ref)] = {}
            with_term[term] += 1
    idf = [_idf(count, documents) for count in with_term]
    average = [total / documents if documents else 0 for total in totals]
    vectors = []
    for number, ref, terms, counts in rows:
        norm = k1 * (1 - b + b * (sum(counts) / average[number])) if counts else 0
        boost = packed["boosts"][number]
        # why: the same expression, in the same order, as lunr.py's Builder, for identical floats
        scores = [round(idf[t] * ((k1 + 1) * tf) / (norm + tf) * boost, 3) for t, tf in zip(terms, counts)]
        vectors.append([f"{fields[number]}/{ref}", [x for pair in zip(terms, scores) for x in pair]])
    inverted = sorted(([term, posting] for term, posting in zip(packed["terms"], postings)),
                      key=lambda entry: entry[0])
    return {"version": packed["version"], "fields": fields, "fieldVectors": vectors,
            "invertedIndex": inverted, "pipeline": packed["pipeline"]}


def _row(vector: list[int]) -> tuple[int, int, list[int], list[int]]:
    number, ref, count, rest = vector[0], vector[1], vector[2], vector[3:]
    terms, position = [], 0
    for delta in rest[:count]:
        position += delta
        terms.append(position)
    return number, ref, terms, rest[count:]


def _idf(with_term: int, documents: int) -> float:
    """lunr's idf; like lunr, a document counts once for each field that has the term."""
    return math.log(1 + abs((documents - with_term + 0.5) / (with_term + 0.5)))
