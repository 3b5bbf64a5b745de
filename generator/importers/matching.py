"""Which incoming papers are one paper, and which file of the digest already holds each: by
model.identity's rules, so that `check --strict` and importing never disagree."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from ..model.errors import display_path
from ..model.identity import conflicting_id, identities, shared_identity
from .incoming import IncomingPaper

T = TypeVar("T")
_ID_NAMES = {"arxiv": "arXiv id", "openreview": "OpenReview id", "doi": "DOI"}


@dataclass
class Group:
    """Incoming papers found to be one paper, and the file that already holds it."""

    merged: IncomingPaper
    target: object | None
    """The ExistingPaper that holds it (anything with `path` and `names`), or None."""
    twins: list[IncomingPaper] = field(default_factory=list)
    alike: list[str] = field(default_factory=list)
    """Papers with its title but another id, kept apart: what the report says of each."""

    def names(self) -> tuple[str, ...]:
        """Every identity of the merged paper."""
        return identities(self.merged.links, self.merged.title)


def match(incoming: list[IncomingPaper], existing: Iterable) -> list[Group]:
    """Incoming papers grouped by identity, in reading order, each group with its file in the
    digest if it has one. A paper that is the same paper as an earlier one (model.identity's
    shared_identity: a shared id, or a shared title that no id contradicts), or that matches
    the same file, joins its group."""
    files: dict[str, list] = {}
    for paper in existing:
        for name in paper.names:
            files.setdefault(name, []).append(paper)
    groups: list[Group] = []
    by_name: dict[str, list[Group]] = {}
    by_file: dict[Path, Group] = {}
    for paper in incoming:
        names = identities(paper.links, paper.title)
        target = _same(names, files, lambda file: file.names)
        group = _same(names, by_name, Group.names) or (by_file.get(target.path) if target else None)
        if group is None:
            group = Group(paper, target)
            groups.append(group)
        else:
            group.merged = combine(group.merged, paper)
            group.twins.append(paper)
            # why: a twin may carry the id that ties the group to a file the first did not match
            group.target = group.target or target
        group.alike += _kept_apart(paper, names, files, by_name, group)
        if group.target:
            by_file.setdefault(group.target.path, group)
        for name in group.names():
            if group not in by_name.setdefault(name, []):
                by_name[name].append(group)
    return groups


def _same(names: tuple[str, ...], index: dict[str, list[T]],
          names_of: Callable[[T], tuple[str, ...]]) -> T | None:
    """The first item of `index` that is the same paper as `names`, strongest name first."""
    for name in names:
        for item in index.get(name, ()):
            if shared_identity(names, names_of(item)):
                return item
    return None


def _kept_apart(paper: IncomingPaper, names: tuple[str, ...], files: dict[str, list],
                by_name: dict[str, list[Group]], group: Group) -> list[str]:
    """What the report says of each file or earlier paper with this paper's title whose id
    differs: two papers, kept apart, named so the curator can check."""
    title = next((name for name in names if name.startswith("title:")), "")
    notes = []
    for file in files.get(title, ()):
        if file is not group.target and (kind := conflicting_id(names, file.names)):
            notes.append(f"{paper.origin}: has the title of {display_path(file.path)} but "
                         f"another {_ID_NAMES[kind]}; imported as a paper of its own")
    for other in by_name.get(title, ()):
        if other is not group and (kind := conflicting_id(names, other.names())):
            notes.append(f"{paper.origin}: has the title of {other.merged.origin} but another "
                         f"{_ID_NAMES[kind]}; kept as two papers")
    return notes


def combine(first: IncomingPaper, later: IncomingPaper) -> IncomingPaper:
    """One paper from two records of it: the first wins where both have a value, the later
    fills the gaps (a link kind the first lacks included)."""
    return replace(
        first, authors=first.authors or later.authors, abstract=first.abstract or later.abstract,
        venue=first.venue or later.venue, presentation=first.presentation or later.presentation,
        date=first.date or later.date, tags=first.tags or later.tags, tldr=first.tldr or later.tldr,
        links={**first.links, **{k: v for k, v in later.links.items() if k not in first.links}},
        key=first.key or later.key, citation=first.citation or later.citation)
