"""Deciding what an import does: every incoming paper matched to the digest's files by
identity, merged with its twins of the same run, and planned as create, update, unchanged or
skip. Nothing is written until the whole plan is made."""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..content.config import load_config
from ..content.documents import (PAPERS_DIR, ContentErrorRaised, SourceDoc, load_documents,
                                 paper_names, parse_document, slugify)
from ..model.errors import BuildFailed, display_path
from ..model.identity import identities, near_tags, normalise_tag
from .aftercheck import AfterCheck, check_written
from .incoming import IncomingPaper
from .paperfile import new_paper_text, replaced_fields_text, write_atomically
from .sources import read_sources

SOURCE_OWNED = ("title", "authors", "venue", "presentation", "links", "citation", "abstract")
"""What `--update` refreshes. The rest (notes, tags, tldr, draft, extra, date) is the
curator's once the file exists; links are merged, so a link the curator added stays."""


@dataclass(frozen=True)
class ImportOptions:
    """What the command line adds to the sources."""

    date: dt.date
    """The day created papers join the digest."""
    venue: str = ""
    """Overrides every source's venue when given (one import is usually one venue)."""
    tags: tuple[str, ...] = ()
    """Added to every created paper."""
    update: bool = False
    """Refresh the source-owned fields of papers the digest has already."""
    strict: bool = False
    """Refuse the whole import (nothing written) when a source entry had to be repaired or
    cannot be read, instead of repairing it or skipping it."""


@dataclass(frozen=True)
class ExistingPaper:
    """A paper file of the digest, as matching and updating need it."""

    path: Path
    text: str
    doc: SourceDoc
    names: tuple[str, ...]
    """Its identities(): 'arxiv:…', 'doi:…', 'title:…'."""


@dataclass(frozen=True)
class Decision:
    """What the import does with one incoming paper."""

    action: str
    """'create', 'update', 'unchanged' or 'skip'."""
    origin: str
    """Where the paper was read, e.g. 'refs.bib:12'."""
    path: Path | None = None
    """The paper file created, updated or left as it is."""
    text: str = ""
    """The file's new text, for 'create' and 'update'."""
    note: str = ""
    """Why it is skipped; for an update, the fields that changed."""
    draft: bool = False
    """Created as a draft for want of an abstract."""
    failed: bool = False
    """Skipped because its source entry cannot be read: the import then exits 1."""


@dataclass(frozen=True)
class ImportPlan:
    """Every decision of one import, in the order the papers were read, and the warnings."""

    decisions: tuple[Decision, ...]
    warnings: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    """What the sources said that the readers left out, and why: 'refs.bib:12: doi '…' is not
    a valid doi id; left out' (IncomingPaper.dropped, with where it was read)."""
    repaired: tuple[str, ...] = ()
    """What the readers repaired in the sources, as 'file:line: what' (IncomingPaper.repaired)."""
    checked: AfterCheck = AfterCheck()
    """What `check --strict` would say of the files it writes (aftercheck.py)."""

    def writes(self) -> list[Decision]:
        """The decisions that write a file."""
        return [d for d in self.decisions if d.action in ("create", "update")]


def read_existing(content_dir: Path) -> list[ExistingPaper]:
    """Every paper file of the digest, parsed by the build's own reader; BuildFailed naming each
    file that cannot be read, since a paper hidden in one could be imported a second time."""
    existing, errors = [], []
    for source in load_documents(content_dir):
        try:
            doc = parse_document(source)
        except ContentErrorRaised as raised:
            errors.append(raised.error)
            continue
        text = source.data.decode("utf-8")
        existing.append(ExistingPaper(source.path, text, doc, _names(doc.front.values)))
    if errors:
        raise BuildFailed(errors)
    return existing


def _names(front: dict[str, Any]) -> tuple[str, ...]:
    links = front.get("links")
    links = {k: v for k, v in links.items() if isinstance(v, str)} if isinstance(links, dict) else {}
    title = front.get("title")
    return identities(links, title if isinstance(title, str) else "")


@dataclass
class _Group:
    """Incoming papers found to be one paper, and the file that already holds it."""

    merged: IncomingPaper
    target: ExistingPaper | None
    twins: list[IncomingPaper] = field(default_factory=list)


def plan_import(incoming: list[IncomingPaper], existing: list[ExistingPaper], papers_dir: Path,
                options: ImportOptions) -> ImportPlan:
    """The decision for every incoming paper; reads and writes nothing."""
    taken = {name[:-3].lower() for name in paper_names(papers_dir)}
    tags = TagSpeller(_digest_tags(existing))
    decisions = [_unreadable(paper) for paper in incoming if paper.problems]
    for group in match([paper for paper in incoming if not paper.problems], existing):
        decisions.append(_decide(group, papers_dir, options, taken, tags))
        decisions += [Decision("skip", twin.origin, note=f"same paper as {group.merged.origin}; "
                               "merged into it") for twin in group.twins]
    left_out = tuple(f"{paper.origin}: {note}" for paper in incoming for note in paper.dropped)
    repaired = tuple(str(note) for paper in incoming for note in paper.repaired)
    return ImportPlan(tuple(decisions), tuple(dict.fromkeys(tags.warnings)), left_out, repaired)


def _unreadable(paper: IncomingPaper) -> Decision:
    """The skip of a source entry that cannot be read, saying where and why."""
    line = paper.origin.rpartition(":")[2]
    why = "; ".join(problem.message + ("" if str(problem.line) == line else
                                       f" (line {problem.line})") for problem in paper.problems)
    return Decision("skip", paper.origin, note=f"not imported: {why}", failed=True)


def match(incoming: list[IncomingPaper], existing: list[ExistingPaper]) -> list[_Group]:
    """Incoming papers grouped by identity, in reading order, each group with its file in the
    digest if it has one. A paper that shares any identity with an earlier one, or that matches
    the same file, joins its group."""
    files: dict[str, ExistingPaper] = {}
    for paper in existing:
        for name in paper.names:
            files.setdefault(name, paper)
    groups: list[_Group] = []
    by_name: dict[str, _Group] = {}
    by_file: dict[Path, _Group] = {}
    for paper in incoming:
        names = identities(paper.links, paper.title)
        target = next((files[n] for n in names if n in files), None)
        group = next((by_name[n] for n in names if n in by_name), None) \
            or (by_file.get(target.path) if target else None)
        if group is None:
            group = _Group(paper, target)
            groups.append(group)
        else:
            group.merged = combine(group.merged, paper)
            group.twins.append(paper)
            # why: a twin may carry the id that ties the group to a file the first did not match
            group.target = group.target or target
        if group.target:
            by_file.setdefault(group.target.path, group)
        for name in identities(group.merged.links, group.merged.title):
            by_name.setdefault(name, group)
    return groups


def combine(first: IncomingPaper, later: IncomingPaper) -> IncomingPaper:
    """One paper from two records of it: the first wins where both have a value, the later
    fills the gaps (a link kind the first lacks included)."""
    return replace(
        first, authors=first.authors or later.authors, abstract=first.abstract or later.abstract,
        venue=first.venue or later.venue, presentation=first.presentation or later.presentation,
        date=first.date or later.date, tags=first.tags or later.tags, tldr=first.tldr or later.tldr,
        links={**first.links, **{k: v for k, v in later.links.items() if k not in first.links}},
        key=first.key or later.key, citation=first.citation or later.citation)


def _decide(group: _Group, papers_dir: Path, options: ImportOptions, taken: set[str],
            tags: TagSpeller) -> Decision:
    paper, target = group.merged, group.target
    missing = "title" if not paper.title.strip() else "authors" if not paper.authors else ""
    if target is None and missing:
        return Decision("skip", paper.origin, note=f"the source gives no {missing}, which a "
                                                   "new paper file needs")
    if target is None:
        return _create(paper, papers_dir, options, taken, tags)
    if not options.update:
        return Decision("skip", paper.origin, target.path,
                        note=f"exists as {display_path(target.path)} (use --update to refresh it)")
    changes = owned_changes(paper, target.doc.front.values, options)
    if not changes:
        return Decision("unchanged", paper.origin, target.path)
    return Decision("update", paper.origin, target.path,
                    replaced_fields_text(target.text, target.doc, changes), ", ".join(changes))


def _create(paper: IncomingPaper, papers_dir: Path, options: ImportOptions, taken: set[str],
            tags: TagSpeller) -> Decision:
    path = papers_dir / f"{choose_slug(paper, taken)}.md"
    spelled = [tags.spell(name) for name in (*paper.tags, *options.tags)]
    fields = new_fields(paper, options, tuple(dict.fromkeys(tag for tag in spelled if tag)))
    return Decision("create", paper.origin, path, new_paper_text(fields),
                    draft="abstract" not in fields)


def new_fields(paper: IncomingPaper, options: ImportOptions, tags: tuple[str, ...]) -> dict[str, Any]:
    """A created paper's front matter; a paper without an abstract is a draft to finish."""
    fields: dict[str, Any] = {"title": paper.title, "authors": list(paper.authors)}
    optional = {"venue": options.venue or paper.venue, "presentation": paper.presentation,
                "date": options.date, "tags": list(tags), "links": dict(paper.links),
                "citation": dict(paper.citation), "tldr": paper.tldr, "abstract": paper.abstract}
    fields.update({key: value for key, value in optional.items() if value})
    if not paper.abstract:
        fields["draft"] = True
    return fields


def owned_changes(paper: IncomingPaper, front: dict[str, Any],
                  options: ImportOptions) -> dict[str, Any]:
    """The source-owned fields whose value in the file differs from the source's, with the
    new value; a field the source leaves empty keeps the file's."""
    links = front.get("links") if isinstance(front.get("links"), dict) else {}
    wanted = {"title": paper.title, "authors": list(paper.authors),
              "venue": options.venue or paper.venue, "presentation": paper.presentation,
              "links": {**links, **paper.links} if paper.links else {},
              "citation": dict(paper.citation), "abstract": paper.abstract}
    return {key: wanted[key] for key in SOURCE_OWNED
            if wanted[key] and front.get(key) != wanted[key]}


def choose_slug(paper: IncomingPaper, taken: set[str]) -> str:
    """A file name from the title (its short name before a colon when it has one), unique
    in `taken`: another paper's name gets the year the source gives, else -2, -3, ..."""
    base = slug_for_title(paper.title) or slugify(paper.key) or "paper"
    year = [f"{base}-{paper.date.year}"] if paper.date else []
    candidates = itertools.chain([base], year, (f"{base}-{n}" for n in itertools.count(2)))
    slug = next(c for c in candidates if c not in taken)
    taken.add(slug)
    return slug


def slug_for_title(title: str) -> str:
    """'AgentOccam: A Simple ...' -> 'agentoccam'; otherwise the title's first words."""
    name, colon, _ = title.partition(":")
    return slugify(name if colon and slugify(name) else title)


def _digest_tags(existing: list[ExistingPaper]) -> list[str]:
    tags = [tag for paper in existing for tag in _list(paper.doc.front.values.get("tags"))]
    return list(dict.fromkeys(tags))


def _list(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def digest_spelling(name: str, known: list[str], added: list[str] | None = None) -> tuple[str, str]:
    """A source's tag as the digest files it, and a warning when it is near another tag.

    'Large Language Models' becomes 'large-language-models'; a tag the digest already spells
    otherwise ('LLM' for 'llm') takes the digest's spelling; a tag only near one ('llms' by
    'llm') is kept, with a warning naming both. `added` are the tags new in this import, so
    'LLM' and 'llms' from two entries of one file are warned of as well.
    ('', warning) when nothing is left of it.
    """
    tag = normalise_tag(name)
    if not tag:
        return "", f"tag '{name}' has no letters or digits; left out"
    added = added or []
    same = next((other for other in [*known, *added] if normalise_tag(other) == tag
                 or _tag_page(other) == _tag_page(tag)), None)
    if same:
        return same, ""
    for near, whose in ((near_tags(tag, known), "the digest's"),
                        (near_tags(tag, added), "this import's new")):
        if near:
            names = ", ".join(f"'{other}'" for other in near)
            return tag, f"new tag '{tag}' is near {whose} {names}; kept as it is: rename one " \
                        "if they are the same topic"
    return tag, ""


class TagSpeller:
    """The tags of one import: each spelled as the digest or an earlier paper of the import
    spells it, the warnings collected, and every new tag remembered for the next paper."""

    def __init__(self, digest: list[str]):
        self.digest = digest
        self.added: list[str] = []
        self.warnings: list[str] = []

    def spell(self, name: str) -> str:
        """The tag to write for `name`, '' when nothing is left of it."""
        tag, warning = digest_spelling(name, self.digest, self.added)
        self.warnings += [warning] if warning else []
        if tag and tag not in self.digest and tag not in self.added:
            self.added.append(tag)
        return tag


def _tag_page(name: str) -> str:
    # why: as papers.py names a tag's page; two spellings with one page fail the build
    return slugify(name, max_length=80, ascii_only=False)


def apply_plan(plan: ImportPlan) -> None:
    """Write every created and updated file, each through a temp file and a rename."""
    for decision in plan.writes():
        assert decision.path is not None
        write_atomically(decision.path, decision.text)


def import_files(files: list[Path], metadata: Path | None, content_dir: Path,
                 options: ImportOptions, dry_run: bool = False) -> ImportPlan:
    """Read every source, plan against the digest, and write the plan unless `dry_run`;
    BuildFailed (nothing written) if any source or paper file cannot be read."""
    return import_papers(read_sources(files, metadata), content_dir, options, dry_run)


def import_papers(incoming: list[IncomingPaper], content_dir: Path, options: ImportOptions,
                  dry_run: bool = False) -> ImportPlan:
    """Plan papers already read against the digest, and write the plan unless `dry_run`;
    with `options.strict`, BuildFailed (nothing written) if a source entry was repaired or
    cannot be read."""
    refused = [error for paper in incoming for error in (*paper.repaired, *paper.problems)]
    if options.strict and refused:
        raise BuildFailed(refused)
    site_yaml = content_dir / "site.yaml"
    macros = load_config(content_dir).macros if site_yaml.is_file() else {}
    plan = plan_import(incoming, read_existing(content_dir), content_dir / PAPERS_DIR, options)
    plan = replace(plan, checked=check_written(
        [(d.path, d.text, d.origin) for d in plan.writes() if d.path], macros))
    if not dry_run:
        apply_plan(plan)
    return plan
