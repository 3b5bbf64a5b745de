"""`build.py new`: one new paper file, from a title or an id, offline.

The file is a draft whose front matter names every field with an example, and whose values the
curator must still write start with 'TODO:'; it passes `build.py check` as it is, and
digest_checks reports a placeholder left in a paper once it is no longer a draft.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..model.errors import display_path
from ..model.identity import ID_KINDS, identities
from ..model.records import LINK_KINDS, SourceFile
from ..model.slugs import file_slug
from .digest_checks import PLACEHOLDER, identity_text
from .documents import PAPERS_DIR, ContentErrorRaised, load_documents, parse_document, slugify
from .fields import FORBIDDEN
from .links import EXAMPLES, LABELS, LinkProblem, is_http_url, resolve


class ScaffoldRefused(Exception):
    """Why no file was written: a bad title or id, or the paper or file exists already."""


@dataclass(frozen=True)
class NewPaper:
    """What the curator asked for, checked."""

    title: str
    """As given, or a placeholder naming the id."""
    slug: str
    """The file name without '.md'."""
    links: dict[str, str]
    """Link kind -> id, for a paper named by its id."""


def scaffold_paper(content: Path, title_or_id: str, day: dt.date, venue: str = "",
                   tags: tuple[str, ...] | list[str] = ()) -> Path:
    """Write a new draft paper file under `content` and return its path; ScaffoldRefused when
    the title or id is not one, or the paper or its file is there already."""
    paper = new_paper(title_or_id)
    venue, cleaned = checked_values(venue, list(tags))
    found = same_paper_in(load_documents(content), paper)
    if found:
        raise ScaffoldRefused(f"{display_path(found[0])} is this paper already: both have "
                              f"{identity_text(found[1])}; edit that file instead")
    return write_new_paper(content, paper, paper_file_text(paper, day, venue, cleaned))


def new_paper(title_or_id: str) -> NewPaper:
    """A title ('Attention Is All You Need') or an id ('arxiv:2409.05657', 'openreview:XXXX',
    'doi:10.…', a bare arXiv id, or an arXiv, OpenReview or DOI URL) as a NewPaper."""
    text = " ".join(title_or_id.split())
    if bad := FORBIDDEN.search(text):
        raise ScaffoldRefused(f"the title holds the control character U+{ord(bad.group()):04X}")
    links = _id_links(text)
    if links:
        [(kind, value)] = links.items()
        return NewPaper(f"{PLACEHOLDER} title of {LABELS[kind]} {value}",
                        slugify(f"{kind} {value}"), links)
    if not file_slug(text):
        raise ScaffoldRefused(f"'{title_or_id}' has no letters or digits to name the file by; "
                              "give the paper's title or its id, e.g. arxiv:2409.05657")
    return NewPaper(text, file_slug(text), {})


_ID_NAMES = {"arxiv": ("an arXiv id", "arxiv:2409.05657"),
             "openreview": ("an OpenReview id", "openreview:oe51Q5Uo37"),
             "doi": ("a DOI", "doi:10.1000/xyz123")}


def _id_links(text: str) -> dict[str, str]:
    """{kind: id} when `text` names a paper by an id or its address, {} when it is a title."""
    prefix, _, value = text.partition(":")
    if prefix.casefold() in ID_KINDS and value.strip():
        kind = prefix.casefold()
        found = _found_id(kind, value.strip())
        if not found:
            what, example = _ID_NAMES[kind]
            raise ScaffoldRefused(f"'{value.strip()}' is not {what}; e.g. {example}")
        return {kind: found}
    if is_http_url(text):
        for kind in ID_KINDS:
            if found := _found_id(kind, text):
                return {kind: found}
        raise ScaffoldRefused(f"'{text}' is not an arXiv, OpenReview or DOI address; give the "
                              "paper's title, or an id such as arxiv:2409.05657")
    found = _found_id("arxiv", text)
    return {"arxiv": found} if found else {}


def _found_id(kind: str, value: str) -> str | None:
    """The id in `value` (an id, or an address holding one) as the checker reads links."""
    try:
        return resolve(kind, value)[1]
    except LinkProblem:
        return None


def paper_file_text(paper: NewPaper, day: dt.date, venue: str = "",
                    tags: tuple[str, ...] = ()) -> str:
    """The new file: a draft naming every field, with an example of each one not given."""
    lines = [
        "---",
        "# Made by `build.py new`: replace each TODO, then delete `draft: true` to publish.",
        "# Every field is described in docs/reference/front-matter.md. Below the closing '---'",
        "# you may write notes in Markdown; they are shown under the abstract.",
        f"title: {_quoted(paper.title)}",
        "authors:                  # in published order, one per line",
        f"  - '{PLACEHOLDER} First Author'",
        f"date: {day.isoformat()}          # the day the paper joins the digest",
        f"venue: {_quoted(venue)}" if venue else "# venue: 'ICLR 2025'       # for a published paper",
        f"tags: [{', '.join(map(_quoted, tags))}]" if tags
        else "# tags: [retrieval, llm]   # topic labels; each gets a page",
        *_link_lines(paper.links),
        "# tldr: 'One line shown above the abstract and in lists'",
        "abstract: |-",
        f"  {PLACEHOLDER} paste the abstract as arXiv or OpenReview gives it (LaTeX math such as $x^2$ is fine).",
        "draft: true",
        "---",
    ]
    return "\n".join(lines) + "\n"


def _link_lines(links: dict[str, str]) -> list[str]:
    """`links:` with the given ids and an example of each other kind, commented out; all of
    it commented out when there is no id, since a `links:` with nothing under it is an error."""
    head = "links:                    # ids or http(s) URLs; quote ids that look like numbers"
    if not links:
        return ["# " + head] + [f"#   {kind}: {EXAMPLES[kind]}" for kind in LINK_KINDS]
    return [head] + [f"  {kind}: {_quoted(links[kind])}" if kind in links
                     else f"  # {kind}: {EXAMPLES[kind]}" for kind in LINK_KINDS]


def _quoted(value: str) -> str:
    """`value` as a single-quoted YAML scalar: read back as the very same text."""
    return "'" + value.replace("'", "''") + "'"


def checked_values(venue: str, tags: list[str]) -> tuple[str, tuple[str, ...]]:
    """The venue and tags given on the command line, whitespace collapsed, or ScaffoldRefused."""
    venue = " ".join(venue.split())
    cleaned = tuple(dict.fromkeys(" ".join(tag.split()) for tag in tags))
    for value in (venue, *cleaned):
        if FORBIDDEN.search(value):
            raise ScaffoldRefused(f"'{value}' holds a control character")
    for tag in cleaned:
        if not slugify(tag, ascii_only=False):
            raise ScaffoldRefused(f"tag '{tag}' has no letters or digits to make its URL from")
    return venue, cleaned


def same_paper_in(sources: list[SourceFile], paper: NewPaper) -> tuple[Path, str] | None:
    """The first file holding the same paper (by model.identity's rules) and the identity they
    share; files that cannot be parsed are skipped: they are no paper yet."""
    wanted = identities(paper.links, paper.title)
    for source in sources:
        try:
            front = parse_document(source).front.values
        except ContentErrorRaised:
            continue
        links = front.get("links") if isinstance(front.get("links"), dict) else {}
        title = front.get("title") if isinstance(front.get("title"), str) else ""
        given = {str(kind): value for kind, value in links.items() if isinstance(value, str)}
        shared = [name for name in identities(given, title) if name in wanted]
        if shared:
            return source.path, shared[0]
    return None


def write_new_paper(content: Path, paper: NewPaper, text: str) -> Path:
    """Write `text` to papers/<slug>.md under `content`; ScaffoldRefused if it exists."""
    path = content / PAPERS_DIR / f"{paper.slug}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8") as file:  # why: 'x' never overwrites, even in a race
            file.write(text)
    except FileExistsError:
        raise ScaffoldRefused(f"{display_path(path)} exists already; edit it, or give another "
                              "title") from None
    return path
