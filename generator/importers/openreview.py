"""A saved OpenReview `/notes` response (API v2, or v1's plain values) to IncomingPaper.

Choices: the venue string says both where and how a paper was presented: 'ICLR 2025 Oral'
gives venue 'ICLR 2025' and presentation 'oral' (ICLR 2023's 'notable top 5%' and 'top
25%' are its orals and spotlights). A venue that is no acceptance ('Submitted to ICLR
2025', withdrawn, rejected) is left out with a note: a digest's venue says where a paper
was accepted. The date is `pdate` (publication), else `cdate` (creation). The authors'
one-line summary (v2's `TLDR`, v1's `TL;DR`) becomes the tldr. Notes that
answer another note (reviews, comments: `forum` differs from `id`) are not papers and are
skipped.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..content.fields import describe
from .cleaning import Links, Problems, one_line, unwrap
from .incoming import IncomingPaper
from .jsonitems import entries_with_lines, load_json, text_list, text_value

SITE = "https://openreview.net"
_PRESENTATIONS = {"oral": "oral", "spotlight": "spotlight", "poster": "poster",
                  "notable top 5%": "oral", "notable top 25%": "spotlight"}
_HOW = re.compile(r"^(.*?)[\s(]+(oral|spotlight|poster|notable[- ]top[- ](?:5|25)%)\)?$", re.I)
_NOT_ACCEPTED = re.compile(r"^submitted to\b|\b(?:withdrawn|rejected|under review)\b|"
                           r"\bsubmission$", re.I)


def read_openreview(text: str, shown: str) -> list[IncomingPaper]:
    """Every paper note of an OpenReview JSON file, in file order."""
    problems = Problems(shown)
    return openreview_papers(load_json(text, problems), text, problems)


def openreview_papers(data: Any, text: str, problems: Problems) -> list[IncomingPaper]:
    """Papers from the decoded `data` of `text`: {"notes": [...]}, a list, or one note."""
    path: tuple[str, ...] = ("notes",) if isinstance(data, dict) and "notes" in data else ()
    notes = data["notes"] if path else data
    if not isinstance(notes, (list, dict)):
        problems.error(1, f"'notes' must be a list of notes, got {describe(notes)}")
        problems.raise_if_any()
    papers = [_paper(note, line, problems) for line, note in entries_with_lines(text, path)]
    problems.raise_if_any()
    return [paper for paper in papers if paper]


def _field(content: dict, name: str, line: int, problems: Problems) -> Any:
    """v2's `{"value": …}` or v1's plain value of `content.<name>`."""
    value = content.get(name)
    if isinstance(value, dict):
        if "value" not in value:
            problems.error(line, f"content.{name} must be a value or {{\"value\": ...}}")
            return None
        return value["value"]
    return value


def _paper(note: Any, line: int, problems: Problems) -> IncomingPaper | None:
    if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
        problems.error(line, "a note must be an object with a 'content' object")
        return None
    forum = text_value(note.get("forum") or note.get("id"), "the note's id", line, problems)
    if note.get("id") and forum and note["id"] != forum:
        return None  # why: a review or comment in a forum's notes, not a paper

    def get(name: str) -> Any:
        return _field(note["content"], name, line, problems)

    title = one_line(text_value(get("title"), "content.title", line, problems, required=True))
    if not title:
        return None
    venue, presentation, why = split_venue(one_line(text_value(get("venue"), "content.venue",
                                                               line, problems)))
    links = _links(forum, get, line, problems)
    tags = text_list(get("keywords"), "content.keywords", line, problems)
    tldr = get("TLDR") if "TLDR" in note["content"] else get("TL;DR")
    return IncomingPaper(
        origin=f"{problems.shown}:{line}", title=title,
        authors=tuple(filter(None, map(one_line, text_list(get("authors"), "content.authors",
                                                          line, problems)))),
        abstract=unwrap(text_value(get("abstract"), "content.abstract", line, problems)),
        venue=venue, presentation=presentation, date=_date(note, line, problems),
        tags=tuple(dict.fromkeys(filter(None, map(one_line, tags)))), links=links.found,
        tldr=one_line(text_value(tldr, "content.TLDR", line, problems)),
        key=one_line(forum), dropped=tuple(links.dropped + ([why] if why else [])))


def split_venue(venue: str) -> tuple[str, str, str]:
    """(venue, presentation, why left out): 'ICLR 2025 Oral' -> ('ICLR 2025', 'oral', '');
    'Submitted to ICLR 2025' -> ('', '', "venue 'Submitted to ICLR 2025' is …")."""
    if _NOT_ACCEPTED.search(venue):
        return "", "", f"venue '{venue}' is not an acceptance; left out"
    if found := _HOW.match(venue):
        how = re.sub(r"[- ]+", " ", found.group(2).lower())
        return found.group(1).strip(), _PRESENTATIONS[how], ""
    return venue, "", ""


def _links(forum: str, get, line: int, problems: Problems) -> Links:
    """The forum id; the PDF (OpenReview gives '/pdf/<hash>.pdf', relative to its site)."""
    links = Links()
    if forum:
        links.add_id("openreview", forum, "id")
    pdf = text_value(get("pdf"), "content.pdf", line, problems)
    if pdf:
        links.add_url(SITE + pdf if pdf.startswith("/") else pdf, "content.pdf", "pdf")
    code = text_value(get("code"), "content.code", line, problems)
    if code:
        links.add_url(code, "content.code", "code")
    return links


def _date(note: dict, line: int, problems: Problems) -> dt.date | None:
    """The UTC day of `pdate`, else `cdate` (milliseconds since 1970)."""
    stamp = note.get("pdate") or note.get("cdate")
    if stamp is None:
        return None
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
        problems.error(line, f"pdate/cdate must be milliseconds since 1970, got {describe(stamp)}")
        return None
    try:
        return dt.datetime.fromtimestamp(stamp / 1000, tz=dt.timezone.utc).date()
    except (OverflowError, OSError, ValueError):
        problems.error(line, f"pdate/cdate {stamp} is not a possible date")
        return None
