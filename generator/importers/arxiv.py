"""A saved arXiv API response (the Atom feed of export.arxiv.org/api/query) to IncomingPaper.

Choices: arXiv categories (cs.LG, stat.ML) do not become tags, because they are far
coarser than a digest's topics and every paper would carry two or three of them; the
`journal_ref` is free text the authors typed, so it is not a venue; the date is
`published` (the first version), when the paper appeared.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat

from .cleaning import Links, Problems, one_line, unwrap
from .incoming import IncomingPaper

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ENTRY_TAG = "http://www.w3.org/2005/Atom entry"
_ABS_ID = re.compile(r"^https?://(?:www\.)?arxiv\.org/abs/(.+)$")
_ERROR_ID = re.compile(r"^https?://(?:www\.)?arxiv\.org/api/errors")
# why: a DTD may declare entities, and expanding them is how a small file becomes gigabytes
# ("billion laughs"); arXiv never sends one, and without defusedxml refusing is the safe way
_DTD = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.I)


def read_arxiv(text: str, shown: str) -> list[IncomingPaper]:
    """Every entry of an arXiv Atom feed, in feed order; BuildFailed naming file and line
    for a DTD, broken XML, arXiv's error entry or an entry without title or id."""
    problems = Problems(shown)
    if found := _DTD.search(text):
        problems.error(text.count("\n", 0, found.start()) + 1,
                       "the file declares a DTD (<!DOCTYPE or <!ENTITY); arXiv's feeds have "
                       "none, and entities are refused for safety")
        problems.raise_if_any()
    try:
        root = ET.fromstring(text)
    except ET.ParseError as err:
        problems.error(err.position[0], f"not well-formed XML: {_expat_reason(err)}")
        problems.raise_if_any()
    lines = entry_lines(text)
    papers = [_paper(entry, line, problems)
              for entry, line in zip(root.iter(f"{ATOM}entry"), lines)]
    problems.raise_if_any()
    return [paper for paper in papers if paper]


def _expat_reason(err: ET.ParseError) -> str:
    return expat.ErrorString(err.code) if isinstance(err.code, int) else str(err)


def entry_lines(text: str) -> list[int]:
    """The line each <entry> starts on, in order: ElementTree keeps no positions, so a
    second, handler-only expat pass reads them (cheap beside building the tree)."""
    lines: list[int] = []
    parser = expat.ParserCreate(namespace_separator=" ")

    def start(name: str, _attrs: dict) -> None:
        if name == _ENTRY_TAG:
            lines.append(parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.Parse(text, True)
    return lines


def _text(entry: ET.Element, tag: str) -> str:
    found = entry.find(tag)
    return "".join(found.itertext()) if found is not None else ""


def _paper(entry: ET.Element, line: int, problems: Problems) -> IncomingPaper | None:
    entry_id = one_line(_text(entry, f"{ATOM}id"))
    if _ERROR_ID.match(entry_id):
        problems.error(line, f"arXiv answered with an error: '{unwrap(_text(entry, f'{ATOM}summary'))}'")
        return None
    title = one_line(_text(entry, f"{ATOM}title"))
    links = Links()
    if found := _ABS_ID.match(entry_id):
        links.add_id("arxiv", found.group(1), "id")
    if not title or "arxiv" not in links.found:
        problems.error(line, f"entry '{entry_id}' has no title or no arXiv id: "
                             "is this a complete arXiv API response?")
        return None
    _pdf_and_doi(entry, links)
    return IncomingPaper(
        origin=f"{problems.shown}:{line}", title=title, authors=_authors(entry),
        abstract=unwrap(_text(entry, f"{ATOM}summary")), date=_published(entry),
        links=links.found, key=links.found["arxiv"], dropped=tuple(links.dropped))


def _authors(entry: ET.Element) -> tuple[str, ...]:
    names = (one_line(_text(author, f"{ATOM}name")) for author in entry.iter(f"{ATOM}author"))
    return tuple(name for name in names if name)


def _pdf_and_doi(entry: ET.Element, links: Links) -> None:
    """The PDF of the version read (arXiv gives http://; it serves https://) and the DOI of
    the published version when the authors registered one."""
    for link in entry.iter(f"{ATOM}link"):
        if link.get("title") == "pdf" and link.get("href"):
            href = re.sub(r"^http://(?:www\.)?arxiv\.org/", "https://arxiv.org/", link.get("href"))
            links.add_url(href, "pdf link", "pdf")
    if doi := one_line(_text(entry, f"{ARXIV}doi")):
        links.add_doi(doi, "arxiv:doi")


def _published(entry: ET.Element) -> dt.date | None:
    """The day of `published` ('2024-09-09T14:44:24Z'), None when it is missing or wrong."""
    match = re.match(r"\s*(\d{4}-\d{2}-\d{2})", _text(entry, f"{ATOM}published"))
    try:
        return dt.date.fromisoformat(match.group(1)) if match else None
    except ValueError:
        return None
