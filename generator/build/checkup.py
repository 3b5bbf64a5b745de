"""`build.py check`: the content read and checked as a build does, then as a whole digest."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..content.digest_checks import Finding, digest_findings
from ..content.papers import check_file, combine
from ..model.errors import BuildFailed, ContentError
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


def check_content(content: Path) -> Checkup:
    """A content folder read and checked as build() reads and checks it, and then as a whole
    digest; nothing is written, the cache included. BuildFailed when site.yaml or a paper file
    cannot be read at all, as a build does."""
    _, sources, warnings = read_content(content)
    checked = [check_file(source) for source in sources]
    try:
        papers, errors = combine(checked), []
    except BuildFailed as failed:
        papers, errors = [c.paper for c in checked if c.paper is not None], failed.errors
    return Checkup(len(sources), tuple(papers), tuple(errors), tuple(warnings),
                   tuple(digest_findings(checked)))
