"""CSL-JSON to IncomingPaper: Zotero's export (a list), doi.org's content negotiation (one
object) and Crossref's API (`{"message": {...}}`, or `{"message": {"items": [...]}}`).

Choices: the date is `issued` (Crossref's `published` when `issued` is missing), its
missing month or day read as the first; the venue is `container-title-short`, else
`container-title`, as readers name it (venues.py), and an 'arXiv' container is no venue;
the container's full name, `collection-title`, `editor`, `publisher`, `publisher-place`,
`volume`, `issue` and `page` are kept for citing it; `keyword` (comma separated) gives tags,
Crossref's journal-wide `subject` does not. Ids come from
`DOI`, `URL`, `number` "arXiv:<id>" (Zotero's Archive ID) and `archive` "OpenReview" with
its `archive_location` (as papers.json writes them).
"""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

from ..content.fields import describe
from .citing import citation_of
from .cleaning import Links, Problems, one_line, split_keywords, unwrap
from .incoming import IncomingPaper
from .jsonitems import entries_with_lines, load_json, text_list, text_value
from .venues import short_venue

_PREPRINT = re.compile(r"^\s*(?:arxiv|corr|biorxiv|medrxiv|ssrn)\b", re.I)
_ARXIV_NUMBER = re.compile(r"^\s*arxiv:\s*(.+?)\s*$", re.I)
_DATE_PART = re.compile(r"[0-9]{1,9}")
_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")
_JOURNAL_TYPES = ("article-journal", "journal-article", "article-magazine", "article-newspaper")
_CITED = {"collection-title": "series", "publisher": "publisher", "publisher-place": "address",
          "volume": "volume", "issue": "number", "page": "pages"}


def read_csl(text: str, shown: str) -> list[IncomingPaper]:
    """Every item of a CSL-JSON file, in file order."""
    problems = Problems(shown)
    return csl_papers(load_json(text, problems), text, problems)


def csl_papers(data: Any, text: str, problems: Problems) -> list[IncomingPaper]:
    """Papers from the decoded `data` of `text`: a list, one item, or Crossref's wrapper."""
    path: tuple[str, ...] = ()
    if isinstance(data, dict) and isinstance(data.get("message"), dict):
        path = ("message", "items") if isinstance(data["message"].get("items"), list) \
            else ("message",)
    papers = [_paper(item, line, problems) for line, item in entries_with_lines(text, path)]
    problems.raise_if_any()
    return [paper for paper in papers if paper]


def _paper(item: Any, line: int, problems: Problems) -> IncomingPaper | None:
    if not isinstance(item, dict):
        problems.error(line, f"a CSL item must be an object, got {describe(item)}")
        return None
    if not item.get("title"):
        problems.error(line, "the item has no title")
        return None
    title = one_line(_first(item["title"], "title", line, problems))
    if not title:
        return None
    links = _links(item, line, problems)
    container = one_line(_first(item.get("container-title"), "container-title", line, problems))
    short = one_line(_first(item.get("container-title-short"), "container-title-short", line,
                            problems))
    date, why = _issued(item)
    venue = "" if _PREPRINT.match(container) else short_venue(
        short or container, str(date.year) if date else "")
    return IncomingPaper(
        origin=f"{problems.shown}:{line}", title=title,
        authors=_authors(item, line, problems),
        abstract=_abstract(text_value(item.get("abstract"), "abstract", line, problems)),
        venue=venue, date=date,
        tags=_keywords(item.get("keyword"), line, problems), links=links.found,
        key=one_line(item["id"]) if isinstance(item.get("id"), str) else "",
        dropped=tuple(links.dropped + ([why] if why else [])),
        citation=_citation(item, container, venue, line, problems))


def _citation(item: dict, container: str, venue: str, line: int, problems: Problems) -> dict:
    """What a citation needs, by the front matter's names; 'arXiv' as publisher is no more
    than the preprint's archive, which the arXiv id gives."""
    values = {"journal" if item.get("type") in _JOURNAL_TYPES else "booktitle":
              "" if _PREPRINT.match(container) else container,
              "editor": _authors(item, line, problems, "editor")}
    for variable, key in _CITED.items():
        values[key] = _text_or_number(item.get(variable), variable, line, problems, keep=True)
    if values["publisher"].strip().lower() == "arxiv":
        values["publisher"] = ""
    return citation_of(venue, values)


def _first(value: Any, what: str, line: int, problems: Problems) -> str:
    """A string, or the first of a list of strings (Crossref's titles are lists)."""
    if isinstance(value, list):
        return next(iter(text_list(value, what, line, problems)), "")
    return text_value(value, what, line, problems)


def _authors(item: dict, line: int, problems: Problems,
             role: str = "author") -> tuple[str, ...]:
    """'given family' (with particles and suffix), or an institution's `literal` name."""
    people = item.get(role) or []
    if not isinstance(people, list) or not all(isinstance(p, dict) for p in people):
        problems.error(line, f"{role} must be a list of name objects, got {describe(people)}")
        return ()
    names = []
    for person in people:
        parts = [text_value(person.get(k), f"{role} {k}", line, problems) for k in _NAME_PARTS]
        literal = text_value(person.get("literal"), f"{role} literal", line, problems)
        names.append(one_line(" ".join(parts) if any(parts) else literal))
    return tuple(name for name in names if name)


def _issued(item: dict) -> tuple[dt.date | None, str]:
    """(date, why not) from `issued` (or Crossref's `published`) date-parts [[y, m, d]]."""
    for key in ("issued", "published", "published-print", "published-online"):
        parts = item.get(key, {}).get("date-parts") if isinstance(item.get(key), dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            numbers = [_number(part) for part in parts[0][:3]]
            try:
                return dt.date(numbers[0], *(numbers[1:] + [1, 1])[:2]), ""
            except (TypeError, ValueError, OverflowError):
                return None, f"{key} {parts[0]!r:.40} is not a date; left out"
    return None, ""


def _number(part: Any) -> int | None:
    """A date part: a whole number, or ASCII digits as text ('2023'; not '²³', which
    str.isdigit() takes, nor five thousand digits); None for anything else."""
    if isinstance(part, int) and not isinstance(part, bool):
        return part
    return int(part) if isinstance(part, str) and _DATE_PART.fullmatch(part) else None


def _abstract(text: str) -> str:
    """The abstract's text; Crossref's JATS XML (`<jats:p>…`) loses its tags, keeps its LaTeX."""
    if "<jats:" not in text:
        return unwrap(text)
    text = re.sub(r"<jats:title>.*?</jats:title>", "", text, flags=re.S)
    text = re.sub(r"</jats:p>", "\n\n", text)
    # why: JATS is XML, so every literal '<' in it is written &lt; and every '<' is a tag
    return unwrap(html.unescape(re.sub(r"<[^>]*>", "", text)))


def _keywords(value: Any, line: int, problems: Problems) -> tuple[str, ...]:
    """CSL's `keyword` is one comma-separated string; a list of strings is taken too."""
    if isinstance(value, list):
        return split_keywords(",".join(text_list(value, "keyword", line, problems)))
    return split_keywords(text_value(value, "keyword", line, problems))


def _links(item: dict, line: int, problems: Problems) -> Links:
    links = Links()
    doi = text_value(item.get("DOI"), "DOI", line, problems)
    if doi:
        links.add_doi(doi, "DOI")
    number = _text_or_number(item.get("number"), "number", line, problems)
    if found := _ARXIV_NUMBER.match(number):
        links.add_id("arxiv", found.group(1), "number")
    if text_value(item.get("archive"), "archive", line, problems).strip().lower() == "openreview":
        location = text_value(item.get("archive_location"), "archive_location", line, problems)
        links.add_id("openreview", location, "archive_location")
    url = text_value(item.get("URL"), "URL", line, problems)
    if url:
        links.add_paper_url(url, "URL")
    return links


def _text_or_number(value: Any, what: str, line: int, problems: Problems,
                    keep: bool = False) -> str:
    """CSL allows a number where it means text (`number`, `volume`): '' for a number, or the
    number as text with `keep`."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value) if keep else ""
    return text_value(value, what, line, problems)
