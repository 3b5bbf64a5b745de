"""Deciding what an import does: every incoming paper matched to the digest's files by
identity, merged with its twins of the same run, and planned as create, update, unchanged or
skip. Nothing is written until the whole plan is made."""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..content.config import load_config
from ..content.documents import (PAPERS_DIR, ContentErrorRaised, SourceDoc, load_documents,
                                 paper_names, parse_document)
from ..content.fields import describe
from ..content.papers import not_an_author
from ..model.errors import BuildFailed, ContentError, display_path
from ..model.identity import identities
from ..model.slugs import file_slug, slugify
from .acceptance import build_refusals
from .aftercheck import AfterCheck, check_written
from .incoming import IncomingPaper
from .matching import Group, match
from .paperfile import new_paper_text, replaced_fields_text
from .sources import read_sources
from .tagspelling import TagSpeller
from .writing import WriteStopped, remove_stale_temps, write_all

SOURCE_OWNED = ("title", "authors", "venue", "presentation", "links", "citation", "abstract")
"""What `--update` refreshes. The rest (notes, tags, tldr, draft, extra, date) is the
curator's once the file exists; links are merged, so a link the curator added stays, and a link
of a kind the file has keeps the file's value (the curator's camera-ready PDF) unless
`replace_links`."""


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
    replace_links: bool = False
    """With `update`, the source's links replace the file's links of the same kind."""
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
    kept_apart: tuple[str, ...] = ()
    """Papers with the title of another but another id, imported as papers of their own."""
    removed: tuple[Path, ...] = ()
    """Temp files an interrupted import had left in the papers folder, removed by this one."""

    def writes(self) -> list[Decision]:
        """The decisions that write a file."""
        return [d for d in self.decisions if d.action in ("create", "update")]


def read_existing(content_dir: Path) -> list[ExistingPaper]:
    """Every paper file of the digest, parsed by the build's own reader; BuildFailed naming each
    file that cannot be read, or whose ids cannot be read as ids (an unquoted arXiv id is a
    number), since a paper hidden in one could be imported a second time."""
    existing, errors = [], []
    for source in load_documents(content_dir):
        try:
            doc = parse_document(source)
        except ContentErrorRaised as raised:
            errors.append(raised.error)
            continue
        errors += _unreadable_links(doc)
        text = source.data.decode("utf-8")
        existing.append(ExistingPaper(source.path, text, doc, _names(doc.front.values)))
    if errors:
        raise BuildFailed(errors)
    return existing


def _unreadable_links(doc: SourceDoc) -> list[ContentError]:
    """An error for each link that YAML read as no text: `arxiv: 2409.11136` is a number (and
    2410.12730 one that has lost its last zero), which matches no paper."""
    links = doc.front.values.get("links")
    lines = doc.front.child_lines.get("links", {})
    return [ContentError(display_path(doc.path), lines.get(str(kind), doc.front.lines["links"]),
                         f"links.{kind} is {describe(value)}, not text, so no paper can be "
                         f"matched to it; quote it as written: {kind}: '...'")
            for kind, value in (links.items() if isinstance(links, dict) else ())
            if not isinstance(value, str)]


def _names(front: dict[str, Any]) -> tuple[str, ...]:
    links = front.get("links")
    links = {k: v for k, v in links.items() if isinstance(v, str)} if isinstance(links, dict) else {}
    title = front.get("title")
    return identities(links, title if isinstance(title, str) else "")


def plan_import(incoming: list[IncomingPaper], existing: list[ExistingPaper], papers_dir: Path,
                options: ImportOptions) -> ImportPlan:
    """The decision for every incoming paper; reads and writes nothing. BuildFailed, naming
    the source's file and line, when a file it would write is one the build refuses."""
    taken = {name[:-3].lower() for name in paper_names(papers_dir)}
    tags = TagSpeller(_digest_tags(existing))
    incoming = [_named_authors(paper) for paper in incoming]
    decisions = [_unreadable(paper) for paper in incoming if paper.problems]
    kept_apart: list[str] = []
    for group in match([paper for paper in incoming if not paper.problems], existing):
        decisions.append(_decide(group, papers_dir, options, taken, tags))
        decisions += [Decision("skip", twin.origin, note=f"same paper as {group.merged.origin}; "
                               "merged into it") for twin in group.twins]
        kept_apart += group.alike
    _refuse_what_the_build_would(decisions, {paper.path: paper.text for paper in existing})
    left_out = tuple(f"{paper.origin}: {note}" for paper in incoming for note in paper.dropped)
    repaired = tuple(str(note) for paper in incoming for note in paper.repaired)
    return ImportPlan(tuple(decisions), tuple(dict.fromkeys(tags.warnings)), left_out,
                      repaired=repaired, kept_apart=tuple(dict.fromkeys(kept_apart)))


def _unreadable(paper: IncomingPaper) -> Decision:
    """The skip of a source entry that cannot be read, saying where and why."""
    line = paper.origin.rpartition(":")[2]
    why = "; ".join(problem.message + ("" if str(problem.line) == line else
                                       f" (line {problem.line})") for problem in paper.problems)
    return Decision("skip", paper.origin, note=f"not imported: {why}", failed=True)


def _named_authors(paper: IncomingPaper) -> IncomingPaper:
    """The paper without the 'et al.' or 'others' a source may list as an author: the build
    refuses one, which would get an author page."""
    if not any(map(not_an_author, paper.authors)):
        return paper
    return replace(paper, authors=tuple(a for a in paper.authors if not not_an_author(a)))


def _refuse_what_the_build_would(decisions: list[Decision], before: dict[Path, str]) -> None:
    """BuildFailed when a file to write has an error the build would stop on (and that the
    file, for an update, did not have already): the importer never writes what the build
    refuses, for every later build and import would fail on it."""
    errors = [error for d in decisions if d.action in ("create", "update") and d.path
              for error in build_refusals(d.path, d.text, d.origin, before.get(d.path))]
    if errors:
        raise BuildFailed(errors)


def _decide(group: Group, papers_dir: Path, options: ImportOptions, taken: set[str],
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
    new value; a field the source leaves empty keeps the file's, and so does a link of a kind
    the file has, unless `options.replace_links`."""
    links = front.get("links") if isinstance(front.get("links"), dict) else {}
    merged = {**links, **paper.links} if options.replace_links else {**paper.links, **links}
    wanted = {"title": paper.title, "authors": list(paper.authors),
              "venue": options.venue or paper.venue, "presentation": paper.presentation,
              # why: in the file's order, new kinds after, so equal links compare equal
              "links": {**links, **merged} if paper.links else {},
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
    """'AgentOccam: A Simple ...' -> 'agentoccam'; otherwise the title's first words (see
    model.slugs.file_slug: a Chinese title keeps its characters)."""
    name, colon, _ = title.partition(":")
    return file_slug(name if colon and file_slug(name) else title)


def _digest_tags(existing: list[ExistingPaper]) -> list[str]:
    tags = [tag for paper in existing for tag in _list(paper.doc.front.values.get("tags"))]
    return list(dict.fromkeys(tags))


def _list(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def apply_plan(plan: ImportPlan) -> None:
    """Write every created and updated file, each through a temp file and a rename;
    WriteStopped (see .writing) at the first that cannot be written, naming those before it."""
    try:
        write_all([(d.path, d.text) for d in plan.writes() if d.path])
    except WriteStopped as stopped:
        stopped.plan = plan
        raise


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
    if dry_run:
        return plan
    plan = replace(plan, removed=tuple(remove_stale_temps(content_dir / PAPERS_DIR)))
    apply_plan(plan)
    return plan
