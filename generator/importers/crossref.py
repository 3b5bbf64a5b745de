"""BibTeX `crossref`: which targets are containers (proceedings, books) whose fields their
papers inherit and which are no papers themselves, and saying what was left out.

DBLP's 'with crossref' export gives each paper a `crossref` to its proceedings, whose `title`
is the papers' venue. A target that is itself a paper (a preprint's `crossref` to its
published version, an entry naming itself, two entries naming each other) is imported as the
paper it is, and passes nothing on.
"""

from __future__ import annotations

from dataclasses import replace

from bibtexparser.model import Entry

from .cleaning import short
from .incoming import IncomingPaper

CONTAINERS = frozenset({"proceedings", "mvproceedings", "book", "mvbook", "collection",
                        "mvcollection", "reference", "mvreference", "periodical"})
"""Entry types that hold papers rather than being one (BibTeX's and biblatex's)."""


def crossref_key(entry: Entry) -> str:
    """The key an entry's `crossref` names, '' when it has none."""
    for item in entry.fields:
        if item.key.lower() == "crossref":
            return str(item.value).strip("{}\" ")
    return ""


def containers(entries: list[Entry]) -> dict[str, Entry]:
    """The entries some other entry crossrefs that are containers, by key: what papers
    inherit from and what is not imported."""
    named = {crossref_key(entry) for entry in entries if crossref_key(entry) != entry.key}
    return {entry.key: entry for entry in entries
            if entry.key in named and entry.entry_type.lower() in CONTAINERS}


def noting_containers(papers: list[IncomingPaper], entries: list[Entry],
                      held: dict[str, Entry]) -> list[IncomingPaper]:
    """`papers`, the first paper that crossrefs each container saying it was left out, so
    that the import report lists every entry of the file."""
    notes: dict[str, list[str]] = {}
    claimed: set[str] = set()
    for entry in entries:
        key = crossref_key(entry)
        if key in held and key not in claimed and entry.key not in held:
            claimed.add(key)
            notes.setdefault(entry.key, []).append(key)
    out = []
    for paper in papers:
        said = [_note(held[key]) for key in notes.get(paper.key, ())]
        out.append(replace(paper, dropped=paper.dropped + tuple(said)) if said else paper)
    return out


def _note(entry: Entry) -> str:
    title = next((str(f.value).strip("{}\" ") for f in entry.fields if f.key.lower() == "title"), "")
    return (f"@{entry.entry_type} '{short(entry.key)}' (line {(entry.start_line or 0) + 1}"
            f"{', ' + repr(short(title)) if title else ''}) is the {entry.entry_type} its papers "
            "crossref, not a paper; left out (its fields fill theirs)")
