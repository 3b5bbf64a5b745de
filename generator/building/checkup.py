"""`build.py check`: the content read and checked as a build does, then as a whole digest."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..content.digest_checks import Finding, digest_findings
from ..content.theme import load_templates
from ..content.papers import check_file, combine
from ..model.errors import BuildFailed, ContentError
from ..model.languages import catalogue_languages
from ..model.records import Paper
from .pipeline import read_content


@dataclass(frozen=True)
class Checkup:
    """What `build.py check` reports of a content folder: what a build would say, and more."""

    files: int
    """Paper files read."""
    papers: tuple[Paper, ...]
    """Those that are papers, drafts included."""
    errors: tuple[ContentError, ...]
    """Every error a build would stop on."""
    warnings: tuple[str, ...]
    """What a build would warn of."""
    findings: tuple[Finding, ...]
    """What no build checks: duplicates, near tags, papers without links (see digest_checks)."""


def check_content(content: Path, project: Path | None = None) -> Checkup:
    """A content folder read and checked as build() reads and checks it, and then as a whole
    digest; nothing is written, the cache included. BuildFailed when site.yaml or a paper file
    cannot be read at all, as a build does. With `project`, site.yaml's language must be one
    its templates are translated into."""
    languages = None if project is None else catalogue_languages(load_templates(project / "templates"))
    config, sources, warnings = read_content(content, None, languages)
    checked = [check_file(source, config.macros) for source in sources]
    try:
        papers, errors = combine(checked), []
    except BuildFailed as failed:
        papers, errors = [c.paper for c in checked if c.paper is not None], failed.errors
    return Checkup(len(sources), tuple(papers), tuple(errors), tuple(warnings),
                   tuple(digest_findings(checked)))
