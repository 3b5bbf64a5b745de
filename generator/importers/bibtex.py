"""BibTeX as Zotero, DBLP, Google Scholar, OpenReview and arXiv write it, to IncomingPaper.

bibtexparser 2 splits the file into blocks with their lines; this module resolves values
itself (`@string` macros, `#` concatenation, month macros), because bibtexparser's own
middleware leaves `iclr # " 2025"` as it is.
"""

from __future__ import annotations

import datetime as dt
import logging
import re

import bibtexparser
from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

from .cleaning import Links, Problems, one_line, short, split_keywords, tex_to_text, unwrap
from .crossref import containers, noting_containers
from .incoming import IncomingPaper

# why: bibtexparser also logs each block it cannot parse; we report those as file:line
# errors, and without a handler of its own Python would print its log lines to stderr
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAMES = {name: name.title() for name in MONTHS}
# why: journals that are really "this is an arXiv preprint", not a venue
_PREPRINT_VENUE = re.compile(r"^\s*(?:arxiv|corr|biorxiv|medrxiv|ssrn)\b", re.I)
# why: an accent command outside braces ('Jo\\~{a}o') is split at its '~' by the name
# parser, which reads '~' as a tie; braced, as BibTeX wants it ('Jo{\\~{a}}o'), it stays whole
_ACCENT = re.compile(r"(?<!{)\\(?:[~'\"`^=.]|[uvHckbdrt](?![A-Za-z]))\s*(?:\{[^{}]*\}|[A-Za-z])")
_ARXIV_IN_JOURNAL = re.compile(r"arxiv:\s*([a-z.-]*/?\d{4}\.?\d{3,5}(?:v\d+)?)", re.I)


def read_bibtex(text: str, shown: str) -> list[IncomingPaper]:
    """Every entry of a BibTeX file, in file order; BuildFailed with file:line errors for a
    file that does not parse or entries without a title (then no papers at all)."""
    problems = Problems(shown)
    library = bibtexparser.parse_string(text, parse_stack=[])
    for block in library.failed_blocks:
        problems.error(_line(block), _failure(block))
    problems.raise_if_any()
    strings = _strings(library, problems)
    # why: only proceedings and books are left out; a paper others crossref is still a paper
    targets = containers(library.entries)
    papers = [_paper(entry, _fields(entry, targets, strings, problems), problems, shown)
              for entry in library.entries if entry.key not in targets]
    problems.raise_if_any()
    return noting_containers([paper for paper in papers if paper], library.entries, targets)


def _line(block) -> int:
    # why: bibtexparser counts lines from 0
    return (block.start_line or 0) + 1


def _failure(block: ParsingFailedBlock) -> str:
    """What a curator should read for a block bibtexparser could not parse."""
    if isinstance(block, DuplicateBlockKeyBlock):
        return (f"entry key '{block.key}' is used again (first at line "
                f"{_line(block.previous_block)}); give each entry its own key")
    first = (block.raw or "").strip().splitlines()[:1]
    start = f"'{first[0][:60]}'" if first else "this block"
    reason = getattr(block.error, "abort_reason", "") or getattr(block.error, "message", "")
    return (f"BibTeX syntax error in the block starting {start}: "
            f"{reason or type(block.error).__name__} (a '{{' without its '}}', or a file cut short?)")


def _raw(entry: Entry, key: str) -> str:
    for item in entry.fields:
        if item.key.lower() == key:
            return str(item.value)
    return ""


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


def _fields(entry: Entry, entries: dict[str, Entry], strings: dict[str, str],
            problems: Problems) -> dict[str, str]:
    """The entry's fields by lowercase name, values resolved; a `crossref` target's fields
    fill the gaps (DBLP's 'with crossref' export keeps the booktitle there)."""
    values: dict[str, str] = {}
    parent = entries.get(_raw(entry, "crossref").strip("{}\" "))
    inherited = [(f, True) for f in parent.fields] if parent else []
    for item, from_parent in [(f, False) for f in entry.fields] + inherited:
        name = item.key.lower()
        if from_parent and name == "title":
            name = "booktitle"  # why: the parent's title is the proceedings' or book's name
        if name in values:
            continue
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
            i = end + 1
            size += len(pieces[-1])
        else:
            word = re.match(r"[^\s#]+", raw[i:]).group()
            if not word.isdigit() and word.lower() not in strings:
                raise ValueError(f"'{short(word)}' is not defined; add @string{{{short(word)} = "
                                 "\"...\"} or put the value in braces")
            pieces.append(word if word.isdigit() else strings[word.lower()])
            i += len(word)
            size += len(pieces[-1])
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


def _paper(entry: Entry, fields: dict[str, str], problems: Problems,
           shown: str) -> IncomingPaper | None:
    line = _line(entry)
    if not fields.get("title", "").strip():
        problems.error(line, f"entry '{short(entry.key)}' has no title; add title = {{...}}")
        return None
    decoded = {}
    for name in ("title", "booktitle", "journal"):
        try:
            decoded[name] = tex_to_text(fields.get(name, ""))
        except ValueError as err:
            problems.error(line, f"the {name} of entry '{entry.key}': {err}")
    if decoded.get("title") == "":
        problems.error(line, f"entry '{entry.key}' has an empty title; write the title in it")
    links = _links(fields)
    date, why = bib_date(fields)
    return IncomingPaper(
        origin=f"{shown}:{line}", title=decoded.get("title", ""),
        authors=_authors(fields.get("author", ""), entry.key, line, problems),
        abstract=unwrap(fields.get("abstract", "")),
        venue=_venue(decoded.get("journal", ""), decoded.get("booktitle", "")), date=date,
        tags=_tags(fields), links=links.found, key=one_line(entry.key),
        dropped=tuple(links.dropped + ([why] if why else [])))


def _authors(raw: str, key: str, line: int, problems: Problems) -> tuple[str, ...]:
    """'Last, First', 'First Last' and 'von Last, Jr, First' names as 'First von Last Jr';
    'and others' dropped."""
    names = []
    for name in split_names(_ACCENT.sub(r"{\g<0>}", raw)):
        if name.strip().lower() in ("others", "et al.", "et al"):
            continue
        try:
            names.append(tex_to_text(parse_single_name_into_parts(name).merge_first_name_first))
        except (InvalidNameError, ValueError) as err:
            problems.error(line, f"author '{short(name)}' of entry '{short(key)}': {err}")
    return tuple(name for name in names if name)


def split_names(raw: str) -> list[str]:
    """The names of an author field, split at each ' and ' outside braces.

    bibtexparser's own splitter loses a name's first letter when it is an accent
    ('\\"{O}ktem, Ozan' comes back as '{O}ktem, Ozan'), so this one is ours.
    """
    names, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", raw):
        if match.group() in "{}":
            depth = depth + 1 if match.group() == "{" else max(depth - 1, 0)
        elif depth == 0:
            names.append(raw[start:match.start()])
            start = match.end()
    return [name.strip() for name in names + [raw[start:]] if name.strip()]


def _venue(journal: str, booktitle: str) -> str:
    """The journal or proceedings as written; an arXiv/CoRR 'journal' is no venue."""
    venue = journal or booktitle
    return "" if _PREPRINT_VENUE.match(venue) else venue


def _tags(fields: dict[str, str]) -> tuple[str, ...]:
    """Zotero's and Scholar's `keywords`, comma or semicolon separated, TeX decoded."""
    try:
        return split_keywords(tex_to_text(fields.get("keywords", "")))
    except ValueError:
        return split_keywords(fields.get("keywords", ""))


def _links(fields: dict[str, str]) -> Links:
    """arXiv from eprint, an arXiv URL or DOI or Scholar's 'arXiv preprint arXiv:…' journal;
    OpenReview from its URL or an `openreview` field; the DOI; any other http(s) `url` as
    pdf, code or project."""
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
