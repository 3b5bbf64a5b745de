"""A lossless, smaller wire form of a serialised lunr index.

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

from typing import Any

FORMAT = "digest-lunr/1"


def _deltas(numbers: list[int]) -> list[int]:
    previous, out = 0, []
    for number in numbers:
        out.append(number - previous)
        previous = number
    return out


def pack(index: dict[str, Any]) -> dict[str, Any]:
    """The packed form of lunr's serialised index; refs must be integers written as strings."""
    fields = index["fields"]
    by_position = sorted(index["invertedIndex"], key=lambda entry: entry[1]["_index"])
    postings = []
    for _, posting in by_position:
        row: list[int] = []
        for number, field in enumerate(fields):
            refs = sorted(int(ref) for ref in posting[field])
            if refs:
                row += [number, len(refs), *_deltas(refs)]
        postings.append(row)
    vectors = []
    for field_ref, elements in index["fieldVectors"]:
        field, ref = field_ref.split("/", 1)
        positions = elements[0::2]
        # why: lunr.py rounds scores to 3 places, so x1000 is an exact integer
        scores = [round(score * 1000) for score in elements[1::2]]
        vectors.append([fields.index(field), int(ref), len(positions), *_deltas(positions), *scores])
    return {"format": FORMAT, "version": index["version"], "fields": fields,
            "pipeline": index["pipeline"], "terms": [term for term, _ in by_position],
            "postings": postings, "vectors": vectors}


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
