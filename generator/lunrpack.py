"""A lossless, smaller wire form of a lunr index.

lunr's own JSON repeats every field name in every term's posting (empty ones included) and
writes every document vector key as a string. Readers download the index whole before the
first answer, so we send the same data packed; `static/search-index.js` unpacks it into
exactly lunr's JSON before `lunr.Index.load`, so lunr.js 2.3.9 answers as lunr.py does.

    {"format": FORMAT, "version", "fields", "pipeline",
     "terms":    [term, ...]                                   # in lunr's _index order
     "postings": [[field no, n, ref delta x n, ...], ...]      # per term; empty fields left out
     "vectors":  [[field no, ref, n, term-index delta x n, score x 1000 x n], ...]}
"""

from __future__ import annotations

from typing import Any, Iterable

from .lunrbuild import SEARCH_PIPELINE, VERSION, BuiltIndex

FORMAT = "digest-lunr/1"


def _deltas(numbers: Iterable[int]) -> list[int]:
    previous, out = 0, []
    for number in numbers:
        out.append(number - previous)
        previous = number
    return out


def pack(index: BuiltIndex) -> dict[str, Any]:
    """The packed form of an index built by generator.lunrbuild."""
    postings = []
    for by_field in index.postings:
        row: list[int] = []
        for number, refs in enumerate(by_field):
            if refs:
                row += [number, len(refs), *_deltas(refs)]
        postings.append(row)
    # why: lunr rounds scores to 3 places, so x1000 is an exact integer
    vectors = [[number, ref, len(pairs), *_deltas(p for p, _ in pairs),
                *(round(score * 1000) for _, score in pairs)]
               for number, ref, pairs in index.vectors]
    return {"format": FORMAT, "version": VERSION, "fields": index.fields,
            "pipeline": SEARCH_PIPELINE, "terms": index.terms, "postings": postings,
            "vectors": vectors}


def unpack(packed: dict[str, Any]) -> dict[str, Any]:
    """lunr's serialised index back from the packed form (the JavaScript reader's twin)."""
    fields = packed["fields"]
    inverted = []
    for position, (term, row) in enumerate(zip(packed["terms"], packed["postings"])):
        posting: dict[str, Any] = {"_index": position, **{field: {} for field in fields}}
        at = 0
        while at < len(row):
            field, count = fields[row[at]], row[at + 1]
            ref = 0
            for delta in row[at + 2: at + 2 + count]:
                ref += delta
                posting[field][str(ref)] = {}
            at += 2 + count
        inverted.append([term, posting])
    inverted.sort(key=lambda entry: entry[0])
    vectors = []
    for field, ref, count, *rest in packed["vectors"]:
        positions, position = [], 0
        for delta in rest[:count]:
            position += delta
            positions.append(position)
        elements = [x for pair in zip(positions, (s / 1000 for s in rest[count:])) for x in pair]
        vectors.append([f"{fields[field]}/{ref}", elements])
    return {"version": packed["version"], "fields": fields, "fieldVectors": vectors,
            "invertedIndex": inverted, "pipeline": packed["pipeline"]}
