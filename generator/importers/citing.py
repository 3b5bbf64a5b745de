"""What a citation needs beyond the digest's fields, as the readers hand it on
(IncomingPaper.citation) and a paper file's `citation:` keeps it."""

from __future__ import annotations

import re
from typing import Any

from ..model.records import CITATION_KEYS
from .cleaning import one_line

_RANGE = re.compile(r"\s*(?:-{1,3}|–|—)\s*")


def citation_of(venue: str, values: dict[str, Any]) -> dict[str, Any]:
    """The citation keys of `values` (plain text; `editor` a list of names) in CITATION_KEYS
    order, empty ones left out, and so is a booktitle or journal that is the venue itself."""
    found: dict[str, Any] = {}
    for key in CITATION_KEYS:
        if key == "editor":
            value: Any = [name for name in map(one_line, values.get(key) or ()) if name]
        else:
            value = one_line(values.get(key) or "")
        if key == "pages":
            value = page_range(value)
        if value and not (key in ("booktitle", "journal") and value == venue):
            found[key] = value
    return found


def page_range(pages: str) -> str:
    """'4445--4455' and '4445-4455' as '4445–4455'; one page as it is."""
    return _RANGE.sub("–", pages.strip())
