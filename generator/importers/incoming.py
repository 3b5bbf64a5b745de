"""What every importer hands on: one paper as a source describes it, before it is a content file."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from ..model.errors import ContentError


@dataclass(frozen=True)
class IncomingPaper:
    """One paper read from a BibTeX, arXiv, OpenReview, CSL-JSON or abstract-list file.

    Every value is plain text decoded from its source (TeX accents and braces resolved in
    title, authors and venue; the abstract's LaTeX kept as written). Nothing here has been
    checked against the digest: merging and writing decide what becomes a file.
    """

    origin: str
    """Where it came from, for messages: 'refs.bib:12' or 'listing.xml:40'."""
    title: str
    authors: tuple[str, ...] = ()
    """'First Last' names in the source's order; 'others' dropped."""
    abstract: str = ""
    """Empty when the source has none (DBLP): such a paper is written as a draft."""
    venue: str = ""
    """Short venue, e.g. 'ICLR 2025'."""
    presentation: str = ""
    """'oral', 'spotlight' or 'poster' when the source says so (OpenReview)."""
    date: dt.date | None = None
    """When the paper appeared, if the source says (arXiv `published`, CSL `issued`)."""
    tags: tuple[str, ...] = ()
    """Keywords as the source spells them; normalised when merged."""
    links: dict[str, str] = field(default_factory=dict)
    """Link kind (arxiv, openreview, doi, pdf, code, project) to an id or http(s) URL,
    in the form a content file's `links:` takes."""
    key: str = ""
    """The source's own name for the entry (a BibTeX key, an OpenReview forum id)."""
    tldr: str = ""
    """A one-line summary, when the source has one (an abstract list's metadata, OpenReview's TL;DR)."""
    dropped: tuple[str, ...] = ()
    """What the reader left out and why ("doi '10.1/x y' is not a valid doi id; left out"),
    so the import report can show the curator what the source said but the digest won't."""
    citation: dict[str, Any] = field(default_factory=dict)
    """What a reference needs beyond the digest's fields, as the front matter's `citation:`
    takes it: the proceedings' or journal's full name, editors, publisher, volume, pages..."""
    repaired: tuple[ContentError, ...] = ()
    """What the reader repaired with certainty, each with its file and line (authors separated
    by commas, a key or a field given twice): warnings, or errors with `import --strict`."""
    problems: tuple[ContentError, ...] = ()
    """Why the entry cannot be imported, each with its file and line: the import skips it,
    imports the rest and exits 1 (`--strict`: nothing is written)."""
