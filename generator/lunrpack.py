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
     "terms":   [term, ...]                                     # in lunr's _index order
     "vectors": [[n, term-number delta x n, (place, count) x k], ...]}

There is a vector for every field of every document, by ref, then field, so vector v is field
v % len(fields) of ref v // len(fields), and neither is written. A count is 1 unless listed
after the deltas, by its term's place in the vector: 95% of counts are 1, and writing them all
made the file a third larger, which the reader's browser then had to read through.
"""

from __future__ import annotations

import itertools
import json
import math
from operator import sub
from typing import Any

import numpy as np

from .lunrbuild import SEARCH_PIPELINE, VERSION, BuiltIndex

FORMAT = "digest-lunr/3"
K1, B = 1.2, 0.75  # lunr's Builder defaults


def pack(index: BuiltIndex) -> dict[str, Any]:
    """The packed form of an index built by generator.lunrbuild."""
    vectors = [[len(terms), *map(sub, terms, [0, *terms]),
                *[x for place, count in enumerate(counts) if count != 1 for x in (place, count)]]
               for _, _, terms, counts in index.vectors()]
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
    """The vectors as pack() writes them, [n, n term-number deltas, (place, count) for each
    count above 1] each, every number as JSON writes an int."""
    lengths = index.lengths
    vectors = len(lengths)
    if not vectors:
        return "[]"
    starts = np.cumsum(lengths) - lengths
    vector_of = np.repeat(np.arange(vectors), lengths)  # why: of each term, its vector
    within = np.arange(len(index.numbers)) - starts[vector_of]  # why: and its place there
    deltas = np.diff(index.numbers, prepend=0)
    deltas[within == 0] = index.numbers[within == 0]  # why: a vector's first number is its own delta
    above = np.flatnonzero(index.counts != 1)
    listed = np.bincount(vector_of[above], minlength=vectors)  # why: counts above 1, per vector
    sizes = 1 + lengths + 2 * listed
    places = np.cumsum(sizes) - sizes  # why: where each vector's numbers begin
    numbers = np.empty(int(sizes.sum()), np.int64)
    numbers[places] = lengths
    numbers[places[vector_of] + 1 + within] = deltas
    rank = np.arange(len(above)) - (np.cumsum(listed) - listed)[vector_of[above]]
    at = places[vector_of[above]] + 1 + lengths[vector_of[above]] + 2 * rank
    numbers[at] = within[above]
    numbers[at + 1] = index.counts[above]
    # each number as text, followed by "," or, closing its vector, by "],["
    closing = np.zeros(len(numbers), bool)
    closing[places + sizes - 1] = True
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
    width = len(fields)
    if len(packed["vectors"]) != documents * width:
        raise ValueError(f"{len(packed['vectors'])} vectors for {documents} documents of {width} fields")
    rows = [(v % width, v // width, *_row(vector)) for v, vector in enumerate(packed["vectors"])]
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


def _row(vector: list[int]) -> tuple[list[int], list[int]]:
    """A vector's term numbers and their counts; ValueError unless it is as pack() writes it
    (the JavaScript readers refuse the same)."""
    size, rest = vector[0], vector[1:]
    listed = rest[size:]
    if size < 0 or len(rest) < size or len(listed) % 2 or any(d < 1 for d in rest[1:size]) \
            or (size and rest[0] < 0):
        raise ValueError(f"malformed vector {vector}")
    terms = list(itertools.accumulate(rest[:size]))
    counts = [1] * size
    places = listed[::2]
    if places != sorted(set(places)) or any(not 0 <= p < size for p in places) \
            or any(c < 2 for c in listed[1::2]):
        raise ValueError(f"malformed vector {vector}")
    for place, count in zip(places, listed[1::2]):
        counts[place] = count
    return terms, counts


def _idf(with_term: int, documents: int) -> float:
    """lunr's idf; like lunr, a document counts once for each field that has the term."""
    return math.log(1 + abs((documents - with_term + 0.5) / (with_term + 0.5)))
