"""The papers' parts remembered together: what a rebuild reads of the parts it keeps.

Each paper's parts (outputs/paperparts.py: its card, BibTeX entry, CSL-JSON line and list.json
entry) were kept in the cache file one result a paper, and a rebuild read back all of them:
10,000 lookups, hashes and unpicklings, ~1 s of a 10,000-paper edit, for the three files that
gather every paper's parts (all.bib, papers.json, list.json) and the few pages it makes again.

So a build remembers every paper's parts as one value, by key, in a file of its own
(Cache.remember_plain), and the next one takes from it those whose key it finds and makes the
rest. What is remembered is plain text, checked as every kept value is, and holds no reference
to other results, so no result another build forgot can be missing from it.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from ..model.records import PaperParts, Templates
from ..outputs.paperparts import paper_parts
from .cache import Cache
from .workers import Workers

PartsRow = tuple[bytes, str, str, str]
"""A paper's parts as remembered: (card, bibtex, csl, listed)."""


def kept_parts(cache: Cache, templates: Templates, inputs: Sequence[tuple[Any, ...]],
               remembered: object, workers: Workers) -> tuple[list[PaperParts],
                                                             dict[bytes, PartsRow]]:
    """paper_parts(templates, *args) of each args tuple of `inputs`, in order: those of the
    rows the last build `remembered` (what this returned it, second) taken from them, the rest
    made; with every paper's row, by the key of its parts, for the next build to remember."""
    if not cache.keeps:
        return workers.map(paper_parts, templates, list(inputs)), {}
    keys = cache.keys(paper_parts, templates, inputs)
    last = _rows_of(remembered)
    rest = [n for n, key in enumerate(keys) if key not in last]
    made = dict(zip(rest, workers.map(paper_parts, templates, [inputs[n] for n in rest])))
    # why: not stood for by their keys (Cache.stand_for): the files' keys hash their texts in
    # ~0.1 s at 10,000 papers, less than five hashes of a key a paper took
    parts = [made[n] if n in made else PaperParts(*last[key]) for n, key in enumerate(keys)]
    rows = {key: (part.card, part.bibtex, part.csl, part.listed)
            for key, part in zip(keys, parts)}
    return parts, rows


def parts_column(cache: Cache, parts: Sequence[PaperParts], rows: dict[bytes, PartsRow],
                 field: str) -> tuple[Any, ...]:
    """One field of every paper's parts, in the site's order (`rows`: kept_parts()'s), which a
    file's key hashes by the parts' keys, not by its texts: the same keys give the same parts.
    papers.json's and list.json's keys hashed their 25 MB of text, ~0.05 s of a 10,000-paper
    edit; now an edit that changes a paper's parts but not this field of them (its notes)
    makes the file again, and the writer finds its bytes unchanged."""
    column = tuple(getattr(part, field) for part in parts)
    if len(rows) == len(parts):  # why: a key a paper, in the same order (none without a cache)
        cache.stand_for(column, hashlib.sha256(field.encode() + b"".join(rows)).digest())
    return column


def _rows_of(remembered: object) -> dict[bytes, PartsRow]:
    """The parts a build remembered (kept_parts()), or none if it remembered none."""
    return remembered if isinstance(remembered, dict) else {}
