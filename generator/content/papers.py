"""Turning paper files into Paper records, collecting every error with its line."""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass

from ..model.errors import BuildFailed, ContentError, display_path, unknown_key_message
from ..model.records import CITATION_KEYS, LINK_KINDS, Citation, Paper, SourceFile, Tag
from .documents import ContentErrorRaised, SourceDoc, parse_document, slugify
from .fields import FORBIDDEN, FieldReader, describe
from .latexmacros import expand_macros
from ..model.citation import arxiv_base
from ..model.lazy import library
from .links import LinkProblem, build_links, resolve
from .notes import html_to_text, notes_to_html
from .yamltext import YamlMapping

latex = library(f"{__package__}.latex")  # why: its tables (~40 ms of imports) a no-op build skips

PAPER_KEYS = {"title", "authors", "date", "abstract", "venue", "presentation", "tags", "links",
              "citation", "tldr", "draft", "extra"}
PRESENTATIONS = ("oral", "spotlight", "poster")
Macros = dict[str, str]
"""site.yaml's `macros:` (SiteConfig.macros)."""
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PLACEHOLDER = "TODO:"
"""How `build.py new` starts every value the curator must write."""


@dataclass(frozen=True)
class Checked:
    """One document checked: its Paper, or the errors that stop it being one."""

    paper: Paper | None
    errors: tuple[ContentError, ...]
    tags_line: int
    """Where its tags are, for errors that involve another paper."""
    id_lines: tuple[tuple[str, int], ...] = ()
    """(link kind, line) of each identifier it gives, for the same reason."""
    warnings: tuple[ContentError, ...] = ()
    """What builds but was guessed: unknown LaTeX macros, unbalanced $ (see
    latex.latex_findings). The build prints them; a strict check fails on them."""
    unknown_macros: tuple[str, ...] = ()
    """The LaTeX macros of its title and abstract the reader did not know ('\\eps'), sorted."""
    placeholder_lines: tuple[tuple[str, int], ...] = ()
    """(field, line) of the title, the authors and the abstract that start with PLACEHOLDER:
    the line the placeholder is on (for the authors, the first author holding one)."""
    title_line: int = 1
    """Where its title is, for a paper entered twice under one title."""
    links_line: int = 1
    """Where a missing link is reported: the `links:` line if there is one, else `title:`'s,
    which names the paper and starts every file `build.py new` makes."""

    def ok(self) -> bool:
        """Whether it is a Paper: an error is shown again by every build, never kept."""
        return self.paper is not None


def validate(sources: list[SourceFile], macros: Macros | None = None) -> list[Paper]:
    """Every paper file as a Paper, or BuildFailed listing every problem in every file."""
    return combine([check_file(source, macros) for source in sources])


def check_file(source: SourceFile, macros: Macros | None = None) -> Checked:
    """One paper file read and checked, the digest's `macros` expanded: a pure function of
    its path, its bytes and the macros."""
    try:
        return check(parse_document(source), macros)
    except ContentErrorRaised as raised:
        return Checked(None, (raised.error,), 1)


def check(doc: SourceDoc, macros: Macros | None = None) -> Checked:
    """One document on its own: every problem in it, or its Paper."""
    shown = display_path(doc.path)
    fields = FieldReader(shown, doc.front, "front matter")
    paper, readings = _paper(doc, fields, macros)
    id_lines = tuple((kind, fields.child_line("links", kind)) for kind in paper.ids) if paper else ()
    warnings = tuple(ContentError(shown, fields.line(field), message)
                     for field, message in latex.latex_findings(readings))
    unknown = tuple(sorted({name for reading in readings.values()
                            for name in reading.unknown_macros}))
    links_line = fields.line("links" if "links" in doc.front.lines else "title")
    return Checked(paper, tuple(fields.errors), fields.line("tags"), id_lines, warnings, unknown,
                   _placeholder_lines(doc.front), fields.line("title"), links_line)


def _placeholder_lines(front: YamlMapping) -> tuple[tuple[str, int], ...]:
    """Where the title, the authors and the abstract hold a `build.py new` placeholder."""
    found = []
    for key in ("title", "authors", "abstract"):
        value = front.values.get(key)
        items = value if isinstance(value, list) else [value]
        lines = front.item_lines.get(key) or [front.value_lines.get(key, front.lines.get(key, 1))]
        for number, item in enumerate(items):
            if isinstance(item, str) and item.strip().startswith(PLACEHOLDER):
                found.append((key, lines[number] if number < len(lines) else lines[0]))
                break
    return tuple(found)


def combine(checked: list[Checked]) -> list[Paper]:
    """The papers of every checked document, or BuildFailed with all errors, across files too."""
    errors = [error for c in checked for error in c.errors]
    good = [c for c in checked if c.paper is not None]
    errors.extend(_duplicate_id_errors(good))
    if errors:
        raise BuildFailed(errors)
    return [c.paper for c in good]


def _paper(doc: SourceDoc, fields: FieldReader,
           macros: Macros | None) -> tuple[Paper | None, dict[str, latex.Reading]]:
    """The Paper (None if a field is wrong), and how its title and abstract were read."""
    fields.reject_unknown(PAPER_KEYS)
    draft = fields.boolean("draft")
    title = expand_macros(fields.text("title", required=True), macros)
    # why: an importer writes a paper whose source has no abstract (DBLP) as a draft to finish
    abstract = expand_macros(fields.text("abstract", required=not draft), macros)
    urls, ids = _links(fields)
    notes_html = notes_to_html(doc.body)
    readings = {"title": latex.read_title(title), "abstract": latex.read_abstract(abstract)}
    paper = Paper(
        slug=doc.slug, source=os.fspath(doc.path),
        title=title,
        authors=_authors(fields),
        date=_date(fields),
        abstract=abstract,
        abstract_html=readings["abstract"].html,
        abstract_text=_one_copy(readings["abstract"].text, abstract),
        title_html=_one_copy(readings["title"].html, title),
        title_text=_one_copy(readings["title"].text, title),
        venue=fields.text("venue"),
        presentation=_presentation(fields),
        tags=tuple(Tag(name, slugify(name, max_length=80, ascii_only=False)) for name in _tags(fields)),
        links=build_links(urls), ids=ids,
        tldr=fields.text("tldr"),
        notes_html=notes_html, notes_text=html_to_text(notes_html),
        draft=draft,
        extra=fields.mapping_of("extra"),
        citation=_citation(fields),
    )
    return (None if fields.errors else paper), readings


def _one_copy(text: str, same_as: str) -> str:
    """`same_as` where `text` equals it: a plain title or abstract is held, pickled and kept
    once, not as each of its readings (~1.3 KB a paper, 13 MB of a 10,000-paper build)."""
    return same_as if text == same_as else text


def _date(fields: FieldReader) -> dt.date:
    raw = fields.mapping.raw.get("date")
    if "date" not in fields.mapping.values:
        fields.error("date", "missing required 'date'; add 'date: YYYY-MM-DD' (the day the "
                             "paper joined the digest)")
    elif raw is None or not _DATE_RE.match(raw):
        got = describe(fields.mapping.values["date"]) if raw is None else f"'{raw}'"
        fields.error("date", f"'date' must be YYYY-MM-DD, got {got}")
    else:
        try:
            return dt.date.fromisoformat(raw)
        except ValueError as err:
            fields.error("date", f"'date' must be a real day as YYYY-MM-DD, got '{raw}' ({err})")
    return dt.date(1970, 1, 1)


_NOT_AN_AUTHOR = re.compile(r"(?:and\s+)?(?:others|et\.?\s*al(?:ii|ia)?\.?)", re.I)


def not_an_author(name: str) -> bool:
    """Whether an author list's item stands for the authors left out ('et al.', 'and others')."""
    return bool(_NOT_AN_AUTHOR.fullmatch(name.strip()))


def _authors(fields: FieldReader) -> tuple[str, ...]:
    names = fields.text_list("authors", required=True)
    lines = fields.mapping.item_lines.get("authors", [])
    for number, name in enumerate(names):
        if not_an_author(name):
            fields.error("authors", f"'{name}' is no author, and would get an author page; "
                                    "delete it (list the authors the paper names: pages shorten "
                                    "long lists themselves)",
                         lines[number] if number < len(lines) else None)
    return names


def _presentation(fields: FieldReader) -> str:
    given = fields.text("presentation")
    if given and given not in PRESENTATIONS:
        fields.error("presentation", f"'presentation' must be one of {', '.join(PRESENTATIONS)}, "
                                     f"got '{given}'")
    return given


def _tags(fields: FieldReader) -> tuple[str, ...]:
    names = fields.text_list("tags")
    for name in names:
        if not slugify(name, ascii_only=False):
            fields.error("tags", f"tag '{name}' has no letters or digits to make its URL from")
    return tuple(dict.fromkeys(names))


def _links(fields: FieldReader) -> tuple[dict[str, str], dict[str, str]]:
    given = fields.mapping_of("links")
    urls: dict[str, str] = {}
    ids: dict[str, str] = {}
    for kind, value in given.items():
        line = fields.child_line("links", str(kind))
        if kind not in LINK_KINDS:
            fields.error("links", unknown_key_message(str(kind), LINK_KINDS, "links"), line)
        elif not isinstance(value, str):
            fields.error("links", f"links.{kind} must be text, got {describe(value)}; quote it",
                         line)
        else:
            try:
                urls[kind], found_id = resolve(kind, value.strip())
            except LinkProblem as problem:
                fields.error("links", str(problem), line)
                continue
            if found_id:
                ids[kind] = found_id
    return urls, ids


def _citation(fields: FieldReader) -> Citation:
    """`citation:`: known keys only, each text (`editor` a list of names)."""
    values: dict[str, object] = {}
    for key, value in fields.mapping_of("citation").items():
        line = fields.child_line("citation", str(key))
        if key not in CITATION_KEYS:
            fields.error("citation", unknown_key_message(str(key), CITATION_KEYS, "citation"), line)
        elif key == "editor":
            names = value if isinstance(value, list) else [None]
            if all(isinstance(name, str) and name.strip() and not FORBIDDEN.search(name)
                   for name in names):
                values[key] = tuple(name.strip() for name in names)
            else:
                fields.error("citation", "citation.editor must be a list of names, e.g. "
                                         "editor: [Kate Larson]", line)
        elif isinstance(value, str) and value.strip() and not FORBIDDEN.search(value):
            values[key] = value.strip()
        else:
            fields.error("citation", f"citation.{key} must be text, got {describe(value)}; "
                                     "quote it", line)
    return Citation(**values)


def _duplicate_id_errors(checked: list[Checked]) -> list[ContentError]:
    """The same arXiv, OpenReview or DOI id in two files is one paper entered twice; its feed
    guid and BibTeX entry would clash."""
    ids = [_id_key(kind, c.paper.ids[kind]) for c in checked for kind, _ in c.id_lines]
    if len(set(ids)) == len(ids):
        return []  # why: no id twice, the usual case, seen in a set: ~2x as fast
    first: dict[tuple[str, str], Paper] = {}
    errors: list[ContentError] = []
    for c in checked:
        paper = c.paper
        assert paper is not None
        for kind, line in c.id_lines:
            value = paper.ids[kind]
            seen = first.setdefault(_id_key(kind, value), paper)
            if seen is not paper:
                errors.append(ContentError(
                    display_path(paper.source), line,
                    f"links.{kind} '{value}' is also given by {display_path(seen.source)}; "
                    "a paper belongs in the digest once: remove one of the two files"))
    return errors


def _id_key(kind: str, value: str) -> tuple[str, str]:
    """What makes two ids of one kind the same paper's."""
    return kind, arxiv_base(value) if kind == "arxiv" else value.lower()
