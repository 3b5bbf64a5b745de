"""BibTeX as Zotero, DBLP, Google Scholar, OpenReview, arXiv and the proceedings (NeurIPS,
PMLR, the ACL Anthology) write it, to IncomingPaper.

bibtexparser 2 splits the file into blocks with their lines; this module resolves values
itself (`@string` macros, `#` concatenation, month macros), because bibtexparser's own
middleware leaves `iclr # " 2025"` as it is.

One bad entry never refuses the file. What is repaired with certainty is a warning of its
paper (a key or a field given twice: both papers kept, the first value kept); what cannot
be is a problem of its entry, which is then skipped (IncomingPaper.problems). A file that is
not BibTeX at all (a brace never closed, a file cut short) is refused whole.
"""

from __future__ import annotations

import datetime as dt
import logging
import re

import bibtexparser
from bibtexparser.model import (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry,
                               ParsingFailedBlock)

from .bibnames import read_names
from .citing import citation_of
from .cleaning import Links, Problems, one_line, short, split_keywords, tex_to_text, unwrap
from .crossref import containers, crossref_key, noting_containers
from .incoming import IncomingPaper
from .titles import decode_title
from .venues import short_venue

# why: bibtexparser also logs each block it cannot parse; we report those as file:line
# errors, and without a handler of its own Python would print its log lines to stderr
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAMES = {name: name.title() for name in MONTHS}
_TEXT_FIELDS = ("title", "journal", "booktitle", "series", "publisher", "address", "volume",
                "number", "pages")
# why: journals that are really "this is an arXiv preprint", not a venue
_PREPRINT_VENUE = re.compile(r"^\s*(?:arxiv|corr|biorxiv|medrxiv|ssrn)\b", re.I)
_ARXIV_IN_JOURNAL = re.compile(r"arxiv:\s*([a-z.-]*/?\d{4}\.?\d{3,5}(?:v\d+)?)", re.I)


def read_bibtex(text: str, shown: str) -> list[IncomingPaper]:
    """Every entry of a BibTeX file, in file order, each with what was repaired in it or why
    it cannot be imported; BuildFailed with file:line errors for a file that does not parse."""
    problems = Problems(shown)
    library = bibtexparser.parse_string(text, parse_stack=[])
    for block in library.failed_blocks:
        if not isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)):
            problems.error(_line(block), _failure(block))
    problems.raise_if_any()
    strings = _strings(library, problems)
    problems.raise_if_any()
    # why: only proceedings and books are left out; a paper others crossref is still a paper
    targets = containers(library.entries)
    papers = [_paper(entry, targets, strings, shown, again)
              for entry, again in _all_entries(library) if entry.key not in targets]
    return noting_containers(papers, library.entries, targets)


def _all_entries(library) -> list[tuple[Entry, str]]:
    """Every entry in file order, one whose key was used before included, with the warning
    that brings (bibtexparser sets such an entry aside, and one with a field given twice)."""
    found, first = [], {}
    for block in library.blocks:
        entry = block if isinstance(block, Entry) else block.ignore_error_block \
            if isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)) else None
        if entry is None:
            continue
        seen = first.setdefault(entry.key, entry)
        found.append((entry, "" if seen is entry else (
            f"entry key '{entry.key}' is used again (first at line {_line(seen)}): read as "
            "another paper; give each entry its own key")))
    return found


def _line(block) -> int:
    # why: bibtexparser counts lines from 0
    return (block.start_line or 0) + 1


def _failure(block: ParsingFailedBlock) -> str:
    """What a curator should read for a block bibtexparser could not parse."""
    first = (block.raw or "").strip().splitlines()[:1]
    start = f"'{first[0][:60]}'" if first else "this block"
    reason = getattr(block.error, "abort_reason", "") or getattr(block.error, "message", "")
    return (f"BibTeX syntax error in the block starting {start}: "
            f"{reason or type(block.error).__name__} (a '{{' without its '}}', or a file cut short?)")


def _strings(library, problems: Problems) -> dict[str, str]:
    """`@string` macros (case-insensitive, each may use the ones before) and the months."""
    strings = dict(_MONTH_NAMES)
    for block in library.strings:
        try:
            strings[block.key.lower()] = resolve_value(str(block.value), strings)
        except ValueError as err:
            strings[block.key.lower()] = ""  # why: one error, not one more per use of it
            problems.error(_line(block), f"@string {short(block.key)}: {err}")
    return strings


def _fields(entry: Entry, targets: dict[str, Entry], strings: dict[str, str],
            problems: Problems) -> dict[str, str]:
    """The entry's fields by lowercase name, values resolved; a `crossref` target's fields
    fill the gaps (DBLP's 'with crossref' export keeps the booktitle there)."""
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    parent = targets.get(crossref_key(entry))
    inherited = [(f, True) for f in parent.fields] if parent else []
    for item, from_parent in [(f, False) for f in entry.fields] + inherited:
        name = item.key.lower()
        if from_parent and name == "title":
            name = "booktitle"  # why: the parent's title is the proceedings' or book's name
        if name in lines and not from_parent:
            problems.warn(item.start_line + 1, f"field '{item.key}' of entry '{entry.key}' is "
                          f"given again (first at line {lines[name]}): the first is read; "
                          "delete one")
        if name in lines:
            continue
        lines[name] = item.start_line + 1
        try:
            values[name] = resolve_value(str(item.value), strings)
        except ValueError as err:
            problems.error(item.start_line + 1, f"field '{short(item.key)}' of entry "
                                                f"'{short(entry.key)}': {err}")
    return values


MAX_VALUE = 1 << 20
"""The longest `@string` macros may make a value (a paper file is at most 1 MiB): forty
`@string`s that each join the one before twice would otherwise be a terabyte."""


def resolve_value(raw: str, strings: dict[str, str]) -> str:
    """A field's value: `{…}` and `"…"` pieces, numbers and macros joined by `#`; ValueError
    when it is not defined or longer than MAX_VALUE."""
    pieces, i, size = [], 0, 0
    while i < len(raw):
        if raw[i].isspace() or raw[i] == "#":
            i += 1
        elif raw[i] in '{"':
            end = _closing(raw, i)
            pieces.append(raw[i + 1:end])
            size += len(pieces[-1])
            i = end + 1
        else:
            word = re.match(r"[^\s#]+", raw[i:]).group()
            if not word.isdigit() and word.lower() not in strings:
                raise ValueError(f"'{short(word)}' is not defined; add @string{{{short(word)} = "
                                 "\"...\"} or put the value in braces")
            pieces.append(word if word.isdigit() else strings[word.lower()])
            size += len(pieces[-1])
            i += len(word)
        if size > max(MAX_VALUE, len(raw)):  # why: only macros make a value outgrow its text
            raise ValueError(f"expands to more than {MAX_VALUE:,} characters (@string macros "
                             "that repeat each other?); write the value out")
    return "".join(pieces)


def _closing(raw: str, start: int) -> int:
    """Where the brace or quote opened at `start` closes (braces inside count)."""
    depth = 0
    for i in range(start, len(raw)):
        char = raw[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if i > start and depth == 0 and char == ("}" if raw[start] == "{" else '"'):
            return i
    return len(raw)


def _paper(entry: Entry, targets: dict[str, Entry], strings: dict[str, str], shown: str,
           again: str) -> IncomingPaper:
    """One entry as a paper, with what was repaired in it and why it cannot be imported."""
    line, problems = _line(entry), Problems(shown)
    if again:
        problems.warn(line, again)
    fields = _fields(entry, targets, strings, problems)
    text = {name: _decoded(fields, name, entry.key, line, problems) for name in _TEXT_FIELDS
            if fields.get(name, "").strip()}
    if not fields.get("title", "").strip():
        problems.error(line, f"entry '{short(entry.key)}' has no title; add title = {{...}}")
    elif not text["title"] and not problems.errors:
        problems.error(line, f"entry '{entry.key}' has an empty title; write the title in it")
    authors = read_names(fields.get("author", ""), "author", entry.key, line, problems)
    venue = _venue(fields, text.get("journal", "") or text.get("booktitle", ""))
    links = _links(fields)
    date, why = bib_date(fields)
    return IncomingPaper(
        origin=f"{shown}:{line}", title=text.get("title", ""), authors=authors,
        abstract=unwrap(fields.get("abstract", "")), venue=venue, date=date,
        tags=_tags(fields), links=links.found, key=one_line(entry.key),
        dropped=tuple(links.dropped + ([why] if why else [])),
        citation=_citation(fields, text, venue, read_names(
            fields.get("editor", ""), "editor", entry.key, line, problems)),
        repaired=tuple(problems.warnings), problems=tuple(problems.errors))


def _decoded(fields: dict[str, str], name: str, key: str, line: int, problems: Problems) -> str:
    """A title (its math kept as TeX) or another field as plain text."""
    try:
        return (decode_title if name == "title" else tex_to_text)(fields[name])
    except ValueError as err:
        problems.error(line, f"the {name} of entry '{key}': {err}")
        return ""


def _venue(fields: dict[str, str], name: str) -> str:
    """The journal or proceedings as readers name it ('NeurIPS 2018', see venues.py); an
    arXiv/CoRR 'journal' is no venue."""
    return "" if _PREPRINT_VENUE.match(name) else short_venue(name, fields.get("year", ""))


def _citation(fields: dict[str, str], text: dict[str, str], venue: str,
              editors: tuple[str, ...]) -> dict:
    """The fields a citation needs, as plain text; a preprint's 'journal' and volume left out."""
    preprint = bool(_PREPRINT_VENUE.match(fields.get("journal", "")))
    kept = {name: value for name, value in text.items()
            if not (preprint and name in ("journal", "volume"))}
    return citation_of(venue, {**kept, "editor": editors})


def _tags(fields: dict[str, str]) -> tuple[str, ...]:
    """Zotero's and Scholar's `keywords`, comma or semicolon separated, TeX decoded."""
    try:
        return split_keywords(tex_to_text(fields.get("keywords", "")))
    except ValueError:
        return split_keywords(fields.get("keywords", ""))


def _links(fields: dict[str, str]) -> Links:
    """arXiv from eprint, an arXiv URL or DOI or Scholar's 'arXiv preprint arXiv:…' journal;
    OpenReview from its URL or an `openreview` field; the DOI; any other http(s) `url` as
    page, pdf, code or project (Links.add_paper_url); PMLR's `pdf` field."""
    links = Links()
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    if fields.get("eprint") and prefix == "arxiv":
        links.add_id("arxiv", fields["eprint"], "eprint")
    if found := _ARXIV_IN_JOURNAL.search(fields.get("journal", "")):
        links.add_id("arxiv", found.group(1), "journal")
    volume = re.fullmatch(r"\s*abs/(\S+)\s*", fields.get("volume", ""))
    if volume and _PREPRINT_VENUE.match(fields.get("journal", "")):
        links.add_id("arxiv", volume.group(1), "volume")  # why: DBLP's and S2's CoRR entries
    if fields.get("doi"):
        links.add_doi(fields["doi"], "doi")
    if fields.get("openreview"):
        links.add_id("openreview", fields["openreview"], "openreview")  # why: all.bib's own field
    if fields.get("url"):
        links.add_paper_url(fields["url"], "url")
    if fields.get("pdf"):
        links.add_url(fields["pdf"], "pdf", "pdf")  # why: PMLR's, beside its landing page
    return links


def bib_date(fields: dict[str, str]) -> tuple[dt.date | None, str]:
    """(date, why not) from biblatex's `date` or from `year` and `month`.

    BibTeX gives no day: a year and month is read as the first of that month, a year alone
    as the first of January.
    """
    if match := re.fullmatch(r"\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?\s*", fields.get("date", "")):
        try:
            return dt.date(int(match[1]), int(match[2] or 1), int(match[3] or 1)), ""
        except ValueError:
            return None, f"date '{one_line(fields['date'])}' is not a real date; left out"
    year = fields.get("year", "").strip()
    if not year:
        return None, ""
    if not re.fullmatch(r"\d{4}", year):
        return None, f"year '{one_line(year)}' is not a four-digit year; date left out"
    return dt.date(int(year), _month(fields.get("month", "")), 1), ""


def _month(text: str) -> int:
    """1-12 from '3', '03', 'mar', 'March' or 'Mar.'; January when it is none of these."""
    word = text.strip().lower().rstrip(".")
    if word.isdigit() and 1 <= int(word) <= 12:
        return int(word)
    return MONTHS.index(word[:3]) + 1 if word[:3] in MONTHS else 1
