"""What a build knows before it reads any paper, and whether nothing changed since the last one.

A module light to import: `build.py` given a site that is already built asks it first
(begin(), unchanged()) and loads the stages (building/pipeline.py, Jinja, Markdown, lunr, numpy and
the rest: ~0.2 s) only when there is something to build.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..content.theme import load_theme
from ..model.records import Theme
from .cache import Cache
from .stamps import SITE_YAML, ContentStamp, content_stamp, same_bytes
from .writer import WriteReport, site_holds

if TYPE_CHECKING:
    from .files import Manifest


@dataclass(frozen=True)
class BuildOptions:
    """Where to read from and write to, and what to include."""

    content: Path = Path("content")
    out: Path = Path("_site")
    project: Path = Path(".")
    """Holds templates/, static/ and node_modules/."""
    base_url: str | None = None
    """Overrides site.yaml's base_url (e.g. the URL GitHub Pages reports)."""
    drafts: bool = False
    cache: Path | None = None
    """Folder for results kept between builds; None builds everything anew."""
    workers: int = 1
    """Processes for independent work; output never depends on it."""


EPOCH = "SOURCE_DATE_EPOCH"
"""The environment variable that fixes the site's 'updated' time (see model.site.updated_time)."""


@dataclass(frozen=True)
class LastBuild:
    """What the cache remembers of the last build into an output folder."""

    inputs: bytes
    """The hash of its options, content, theme and code (Cache.key_of)."""
    report: WriteReport
    warnings: list[str]
    """What it warned of in the papers: a build that finds nothing changed says it again."""
    files: Manifest
    """What it made (see building/files.py)."""
    looked: bytes = b""
    """The hash of its options, theme and code and of the content's stamp (building/stamps.py)."""
    read_warnings: list[str] = field(default_factory=list)
    """What it warned of in site.yaml and the content folder."""
    racy: dict[str, bytes] = field(default_factory=dict)
    """A hash of what it read of each file too recent for its stamp to vouch for (pipeline._racy)."""


NO_BUILD = LastBuild(b"", WriteReport(0, 0, 0, 0), [], {})


@dataclass(frozen=True)
class Begun:
    """What a build knows before it reads any paper (begin())."""

    theme: Theme
    key: tuple[Any, ...]
    """What every key of the build is made with: its options, theme and SOURCE_DATE_EPOCH."""
    last: LastBuild
    """The last build into the same output folder."""
    stamped: ContentStamp
    """The content folder's stamp (building/stamps.py)."""
    looked: bytes
    """The hash of `key`, the code and the stamp."""


def begin(options: BuildOptions, cache: Cache) -> Begun:
    """What a build of `options` knows before it reads any paper."""
    theme = load_theme(options.project)
    key = replace(options, cache=None, workers=1), theme, os.environ.get(EPOCH)
    last = _last_build(cache.recall(remembered_as(options)))
    # why: a no-op reads no paper when the file system says none changed (building/stamps.py)
    stamped = content_stamp(options.content)
    return Begun(theme, key, last, stamped, cache.key_of(*key, stamped.stamp))


def unchanged(begun: Begun, options: BuildOptions, cache: Cache,
              timer: StageTimer) -> WriteReport | None:
    """The report of a build that finds nothing changed since the last one (the same options,
    theme, code and content stamp, into an output folder as it left it); None if it must read
    the content."""
    last = begun.last
    if last.looked != begun.looked or not _racy_as_read(cache, options, begun.theme, last) \
            or not site_holds(options.out, last.report.state):
        return None
    if last.racy and not begun.stamped.racy:  # why: compared until they settle, then no more
        cache.remember(remembered_as(options), replace(last, racy={}))
    return unchanged_report(timer, last, last.read_warnings + last.warnings)


def _racy_as_read(cache: Cache, options: BuildOptions, theme: Theme, last: LastBuild) -> bool:
    """Whether each file the last build's stamp could not vouch for still holds what it read."""
    papers = {name: digest for name, digest in last.racy.items() if name != SITE_YAML}
    if SITE_YAML in last.racy:
        # why: here, not at the top: a build with nothing to do imports none of the stages
        from ..content.config import load_config
        from ..model.errors import BuildFailed
        from ..model.languages import catalogue_languages
        try:
            config = load_config(options.content, options.base_url,
                                 catalogue_languages(theme.templates))
        except BuildFailed:
            return False
        if cache.key_of(config) != last.racy[SITE_YAML]:
            return False
    return same_bytes(options.content, papers)


def unchanged_report(timer: StageTimer, last: LastBuild, warnings: list[str]) -> WriteReport:
    """The report of a build that found nothing changed since `last`, its `warnings` said again.
    The cache is not committed as `complete`, so it forgets none of what it keeps."""
    warn(timer, warnings)
    timer.done("check", "nothing changed since the last build")
    return replace(last.report, written=0, removed=0,
                   unchanged=last.report.written + last.report.unchanged)


def remembered_as(options: BuildOptions) -> str:
    """The name the last build into `options.out` is remembered by in the cache."""
    return f"the last build into {options.out.resolve()}"


def _last_build(remembered: object) -> LastBuild:
    """The last build into an output folder as the cache remembers it; NO_BUILD if it does not."""
    return remembered if isinstance(remembered, LastBuild) else NO_BUILD


def warn(timer: StageTimer, warnings: list[str]) -> None:
    for warning in warnings:
        timer.report(f"  warning: {warning}")


@dataclass
class StageTimer:
    """Records how long each stage took and what it produced, for the build's report."""

    report: Callable[[str], None] = lambda line: None
    stages: list[tuple[str, float, str]] = field(default_factory=list)
    _start: float = field(default_factory=time.perf_counter)

    def done(self, stage: str, summary: str) -> None:
        now = time.perf_counter()
        self.stages.append((stage, now - self._start, summary))
        self.report(f"  {stage:<9} {summary:<48} {1000 * (now - self._start):7.1f} ms")
        self._start = now
