"""One entry point for every reader: a file's bytes to IncomingPaper, the format told by the
content (a `.txt` that holds BibTeX is BibTeX), never by the name alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..model.errors import BuildFailed, ContentError, display_path
from .arxiv import read_arxiv
from .bibtex import read_bibtex
from .cleaning import Problems
from .csljson import csl_papers
from .incoming import IncomingPaper
from .jsonitems import load_json
from .openreview import openreview_papers

MAX_BYTES = 50 * 1024 * 1024
"""A larger file is refused: a whole conference's BibTeX is a few MB."""

_BIBTEX = re.compile(r"\A(?:\s*%[^\n]*\n)*\s*@\s*[A-Za-z]+\s*[{(]")
_ATOM = re.compile(r"<feed\b[^>]*\bxmlns\s*=\s*[\"']http://www\.w3\.org/2005/Atom[\"']")


class UnknownFormat(BuildFailed):
    """A file none of the readers knows (a plain list of abstracts, say), so the command
    can send it elsewhere; it is still a BuildFailed with the file's error."""


def read_papers(path: Path) -> list[IncomingPaper]:
    """The papers of a BibTeX, arXiv Atom, OpenReview or CSL-JSON file, in file order;
    BuildFailed with file:line errors, UnknownFormat when it is none of these."""
    shown = display_path(path)
    text = decode(_read(path, shown), shown)
    stripped = text.lstrip()
    if _BIBTEX.match(text):
        return read_bibtex(text, shown)
    if stripped.startswith("<") and _ATOM.search(text[:4096]):
        return read_arxiv(text, shown)
    if stripped[:1] in ("{", "["):
        problems = Problems(shown)
        return _read_json(load_json(text, problems), text, problems)
    raise UnknownFormat([_unknown(shown)])


def _read(path: Path, shown: str) -> bytes:
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as err:
        raise BuildFailed([ContentError(shown, 1, f"cannot read the file: {err.strerror}")]) from None
    if len(data) > MAX_BYTES:
        raise BuildFailed([ContentError(shown, 1, f"larger than {MAX_BYTES // 2**20} MB; split "
                                                  "it into smaller files")])
    return data


def decode(data: bytes, shown: str) -> str:
    """UTF-8 text (a byte-order mark is fine); UTF-16 or bad bytes are a file:line error."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise BuildFailed([ContentError(shown, 1, "the file is UTF-16; save it as UTF-8")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise BuildFailed([ContentError(shown, line, f"not UTF-8 (byte 0x{data[err.start]:02x}); "
                                                     "save the file as UTF-8")]) from None


def _read_json(data: Any, text: str, problems: Problems) -> list[IncomingPaper]:
    """OpenReview has notes with `content`/`forum`; CSL items have `type`/`title`/`DOI`."""
    first = data[0] if isinstance(data, list) and data else data
    if isinstance(data, list) and not data:
        return []
    if isinstance(first, dict) and ("notes" in first or "content" in first or "forum" in first):
        return openreview_papers(data, text, problems)
    if isinstance(first, dict) and ({"message", "DOI", "type", "title"} & set(first)):
        return csl_papers(data, text, problems)
    raise UnknownFormat([_unknown(problems.shown, "JSON, but ")])


def _unknown(shown: str, prefix: str = "") -> ContentError:
    return ContentError(shown, 1, f"{prefix}not a BibTeX, arXiv Atom, OpenReview or CSL-JSON "
                                  "file; a plain list of abstracts needs --metadata")
