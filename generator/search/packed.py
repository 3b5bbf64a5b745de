"""The small wire form of a lunr index: what lunr's index is made of, not what follows from it.

lunr's own JSON holds each field's term vector with BM25 scores, and, for every term, the
documents that have it (per field, empty fields included). Both follow from each field's terms
and their counts: a term's postings are the vectors that hold it, its idf is their number, and
a score is lunr's BM25 of the count, the idf and the field's length against its average. So we
send the counts, and `static/search/index.js` derives the rest exactly as lunr.py computes it
(the same float operations in the same order) before `lunr.Index.load`, so lunr.js 2.3.9
answers as lunr.py does. `unpack` below is the reader's Python twin, which the tests compare
with `lunr.lunr(...).serialize()`.

    {"format": FORMAT, "version", "fields", "boosts", "bm25": [k1, b], "documents", "pipeline",
     "terms":   [term, ...]                                     # in lunr's _index order
     "vectors": ["<n, term-number delta x n, (place, count) x k>", ...]}

There is a vector for every field of every document, by ref, then field, so vector v is field
v % len(fields) of ref v // len(fields), and neither is written. A count is 1 unless listed
after the deltas, by its term's place in the vector: 95% of counts are 1. A vector's numbers
are written as one string, each number in base 32, most significant digit first: its last
digit is one of the 32 characters from FINAL, any before it from MORE, so it needs no
separator. That is half the bytes of decimal numbers and commas, which the reader's browser
reads through before search is ready.
"""

from __future__ import annotations

import itertools
import json
import math
from operator import sub
from typing import Any

from ..model.lazy import library
from .lunrindex import SEARCH_PIPELINE, VERSION, BuiltIndex

np = library("numpy")

FORMAT = "digest-lunr/4"
K1, B = 1.2, 0.75  # lunr's Builder defaults
FINAL, MORE = 0x23, 0x5D
"""The first of the 32 characters that end a number ("#" to "B") and of those that go before
its last digit ("]" to "|"): none of them is escaped in JSON."""
LIMIT = 2 ** 31  # why: the reader keeps the numbers in an Int32Array


def pack(index: BuiltIndex) -> dict[str, Any]:
    """The packed form of an index built by generator.search.lunrindex."""
    _check(index)
    vectors = [number_text([len(terms), *map(sub, terms, [0, *terms]),
                            *[x for place, count in enumerate(counts) if count != 1
                              for x in (place, count)]])
               for _, _, terms, counts in index.vectors()]
    return {**_header(index), "vectors": vectors}


def _check(index: BuiltIndex) -> None:
    """ValueError unless the readers can hold the index: term numbers known and ascending in
    each vector, counts of 1 or more, and the sum of all counts (so of any vector's, its
    length) an int32."""
    numbers, counts, lengths = index.numbers, index.counts, index.lengths
    starts = np.cumsum(lengths) - lengths
    ascending = np.ones(len(numbers), bool)
    ascending[1:] = numbers[1:] > numbers[:-1]
    ascending[starts[lengths > 0]] = True  # why: a vector's first term follows no other
    if len(numbers) and (numbers.min() < 0 or numbers.max() >= len(index.terms)
                         or not ascending.all() or counts.min() < 1 or counts.sum() >= LIMIT):
        raise ValueError("not an index the readers can hold")


def number_text(numbers: list[int]) -> str:
    """Whole numbers written as a vector's string holds them."""
    text = []
    for number in numbers:
        if not 0 <= number < LIMIT:
            raise ValueError(f"{number} is not a number a vector holds")
        digits = [chr(FINAL + number % 32)]
        while number >= 32:
            number //= 32
            digits.append(chr(MORE + number % 32))
        text.extend(reversed(digits))
    return "".join(text)


def text_numbers(text: str) -> list[int]:
    """The numbers of a vector's string; ValueError unless number_text() would write it."""
    numbers, value, more = [], 0, 0
    for character in text:
        code = ord(character)
        if FINAL <= code < FINAL + 32 and value * 32 + code - FINAL < LIMIT:
            numbers.append(value * 32 + code - FINAL)
            value, more = 0, 0
        elif MORE <= code < MORE + 32 and (more or code > MORE) and more < 6:  # why: no leading 0
            value, more = value * 32 + code - MORE, more + 1
        else:
            raise ValueError(f"{text!r} is not a vector's numbers")
    if more:
        raise ValueError(f"{text!r} ends within a number")
    return numbers


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
    """The vectors as pack() writes them, one string each of [n, n term-number deltas, (place,
    count) for each count above 1]. Arrays are int32 and let go of as soon as they are used:
    at 10,000 papers every one of them holds a million numbers."""
    vectors = len(index.lengths)
    if not vectors:
        return "[]"
    _check(index)  # why: then every number is an int32
    lengths = index.lengths.astype(np.int32)
    vector_of = np.repeat(np.arange(vectors, dtype=np.int32), lengths)  # why: of each term
    within = np.arange(len(index.numbers), dtype=np.int32)  # why: its place in its vector
    within -= (np.cumsum(lengths, dtype=np.int32) - lengths)[vector_of]
    deltas = np.diff(index.numbers.astype(np.int32), prepend=np.int32(0))
    first = within == 0
    deltas[first] = index.numbers[first]  # why: a vector's first number is its own delta
    above = np.flatnonzero(index.counts != 1)
    listed = np.bincount(vector_of[above], minlength=vectors).astype(np.int32)  # why: per vector
    sizes = 1 + lengths + 2 * listed  # why: how many numbers each vector has
    places = np.cumsum(sizes, dtype=np.int32) - sizes  # why: where each vector's numbers begin
    numbers = np.empty(int(sizes.sum()), np.int32)
    numbers[places] = lengths
    at = places[vector_of]
    at += 1 + within
    numbers[at] = deltas
    del at, deltas
    rank = np.arange(len(above), dtype=np.int32) - (np.cumsum(listed, dtype=np.int32) - listed)[vector_of[above]]
    at = places[vector_of[above]] + 1 + lengths[vector_of[above]] + 2 * rank
    numbers[at] = within[above]
    numbers[at + 1] = index.counts[above]
    del vector_of, within
    return _as_strings(numbers, sizes)


def _as_strings(numbers: np.ndarray, sizes: np.ndarray) -> str:
    """The JSON list of the vectors' strings (vector v: the next sizes[v] numbers), each number
    in number_text()'s digits."""
    digits = np.ones(len(numbers), np.int8)  # why: how many digits each number takes
    for power in range(1, 7):
        digits += numbers >= 32 ** power
    ends = np.cumsum(digits, dtype=np.int32)  # why: where each number's digits end, all told
    text_ends = ends[np.cumsum(sizes) - 1]
    text_sizes = np.diff(text_ends, prepend=np.int32(0))
    vectors = len(sizes)
    out = np.empty(3 * vectors + int(text_ends[-1]) + 1, np.uint8)
    out[0], out[-1] = ord("["), ord("]")
    # ["<vector 0>","<vector 1>",...]: 3 characters around each vector's digits
    opening = 3 * np.arange(vectors, dtype=np.int32) + 1 + (text_ends - text_sizes)
    out[opening] = ord('"')
    out[opening + 1 + text_sizes] = ord('"')
    out[(opening + 2 + text_sizes)[:-1]] = ord(",")
    last = ends  # why: where each number's last digit goes: its end, shifted by its vector's 3
    last += 3 * np.repeat(np.arange(vectors, dtype=np.int32), sizes) + 1
    out[last] = (numbers & 31).astype(np.uint8) + FINAL
    for power in range(1, 7):
        has = np.flatnonzero(digits > power)
        out[last[has] - power] = ((numbers[has] >> (5 * power)) & 31).astype(np.uint8) + MORE
    return out.tobytes().decode("ascii")


def unpack(packed: dict[str, Any]) -> dict[str, Any]:
    """lunr's serialised index back from the packed form (the JavaScript reader's twin)."""
    fields, documents = packed["fields"], packed["documents"]
    k1, b = packed["bm25"]
    width = len(fields)
    if len(packed["vectors"]) != documents * width:
        raise ValueError(f"{len(packed['vectors'])} vectors for {documents} documents of {width} fields")
    rows = [(v % width, v // width, *_row(vector)) for v, vector in enumerate(packed["vectors"])]
    if any(terms and terms[-1] >= len(packed["terms"]) for _, _, terms, _ in rows):
        raise ValueError("a vector names a term the index does not have")
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


def _row(vector: str) -> tuple[list[int], list[int]]:
    """A vector's term numbers and their counts; ValueError unless it is as pack() writes it
    (the JavaScript readers refuse the same)."""
    numbers = text_numbers(vector) if isinstance(vector, str) else []
    if not numbers:
        raise ValueError(f"malformed vector {vector!r}")
    size, rest = numbers[0], numbers[1:]
    listed = rest[size:]
    if len(rest) < size or len(listed) % 2 or any(d < 1 for d in rest[1:size]):
        raise ValueError(f"malformed vector {vector!r}")
    terms = list(itertools.accumulate(rest[:size]))
    counts = [1] * size
    places = listed[::2]
    if places != sorted(set(places)) or any(not 0 <= p < size for p in places) \
            or any(c < 2 for c in listed[1::2]):
        raise ValueError(f"malformed vector {vector!r}")
    for place, count in zip(places, listed[1::2]):
        counts[place] = count
    return terms, counts


def _idf(with_term: int, documents: int) -> float:
    """lunr's idf; like lunr, a document counts once for each field that has the term."""
    return math.log(1 + abs((documents - with_term + 0.5) / (with_term + 0.5)))
