"""The whole build, readable in one function."""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from .background import Background
from .freshness import (Inputs, Scan, fingerprint, fresh_files, keep_table, kept_file,
                        made_before, record_path, remember, remember_made, spare_folder,
                        unchanged_since)
from .output import Job, WriteReport, prepare_spare, staged_meanwhile, write_site
from .records import OutputFile, Paper, SiteConfig
from .urls import Urls

if TYPE_CHECKING:
    from .search import SearchIndex


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
    """Folder for results kept between builds (checked papers, page keys, the site before
    last); None builds from scratch."""
    workers: int = 1
    """Processes for independent work; output never depends on it."""
    resident: bool = False
    """Keep checked papers in memory for the next build in this process (the preview server)."""


@dataclass
class StageTimer:
    """Records how long each stage took and what it produced, for the build's report."""

    report: Callable[[str], None] = lambda line: None
    stages: list[tuple[str, float, str]] = field(default_factory=list)
    _start: float = field(default_factory=time.perf_counter)

    def done(self, stage: str, summary: str) -> None:
        now = time.perf_counter()
        self._line(stage, now - self._start, summary)
        self._start = now

    def alongside(self, stage: str, seconds: float, summary: str) -> None:
        """A stage that ran in another process while this one went on, with its own time."""
        self._line(stage, seconds, summary)

    def _line(self, stage: str, seconds: float, summary: str) -> None:
        self.stages.append((stage, seconds, summary))
        self.report(f"  {stage:<9} {summary:<40} {1000 * seconds:7.1f} ms")


def build(options: BuildOptions, timer: StageTimer | None = None,
          ready: Callable[[WriteReport], None] | None = None) -> WriteReport:
    """Content folder in, complete static site out; BuildFailed before anything is written.
    `ready` is called once a new site is in place, before what is kept for the next build
    is written (~0.2 s at 10,000 papers): a preview server reloads its pages meanwhile."""
    with rare_collections():
        return _build(options, timer or StageTimer(), ready or _nothing)


def _nothing(report: WriteReport) -> None:
    pass


def _build(options: BuildOptions, timer: StageTimer,
           ready: Callable[[WriteReport], None]) -> WriteReport:
    scan = Scan()
    try:
        record, key = _fingerprint(options, scan)
        unchanged = fresh_files(record, options.out, key) if record else None
        if unchanged is not None:
            timer.done("check", "nothing changed since the last build")
            return WriteReport(0, len(unchanged), 0, sum(size for size, _ in unchanged.values()))
        spare = spare_folder(record) if record else None
        # why: walking the current site and bringing the spare up to date (~0.25 s at 10,000
        # papers) is done in a forked process while the papers load
        with staged_meanwhile(options.out, spare, _fork(options, len(scan.stats))) as staged:
            return _make_site(options, timer, scan, (record, key), staged, ready)
    finally:  # why: a failed build's scan still spares the next one reading every file
        keep_table(scan)


def _make_site(options: BuildOptions, timer: StageTimer, scan: Scan,
               fingerprinted: tuple[Path | None, str], staged: Callable[[], Job],
               ready: Callable[[WriteReport], None]) -> WriteReport:
    """The build, once it has work to do: the site made and written into `staged()`."""
    record, key = fingerprinted
    # why: imported only when there is work: YAML, Markdown, LaTeX, Jinja and lunr take
    # ~0.2 s to import, as long as the whole no-op check above
    from .assets import asset_urls, load_assets
    from .bibtex import bib_plan
    from .config import config_warnings, load_config
    from .feeds import feed_plan
    from .keyed import Chained, FilePlan
    from .memo import KeptValues
    from .papers import collections_paused, load_papers
    from .render import make_environment, plan_pages
    from .search import document_plan
    from .sitemap import crawler_plan
    from .site import build_site, reading_order, updated_time
    if options.resident:
        # why: a server builds again and again: imported once here, numpy (~0.09 s) is not
        # imported again by each forked index build (see _search_index)
        from . import searchindex  # noqa: F401
    config = load_config(options.content, options.base_url)
    for warning in config_warnings(config):
        timer.report(f"  warning: {warning}")
    with collections_paused():
        checked = load_papers(options.content, options.cache, options.workers, options.resident,
                              scan.hashes)
        gc.freeze()  # why: see rare_collections; frozen before a collection walks it all
    papers = reading_order(p for p in checked if options.drafts or not p.draft)
    # why: the index is built in a forked process meanwhile, on the core the rest leaves idle;
    # forked before the site is assembled, it is ready sooner (it needs only the papers)
    with Background(partial(_search_index, papers, kept_file(record, "terms") if record else None),
                    fork=_fork(options, len(papers))) as index:
        entries = KeptValues(kept_file(record, "bibtex") if record else None)
        site = build_site(papers, config, updated_time(papers), entries)
        timer.done("papers", f"{len(papers)} papers ({len(checked) - len(papers)} drafts left out)")
        assets = load_assets(options.project / "static", options.project)
        env = make_environment(options.project / "templates",
                               options.cache / "templates" if options.cache else None)
        pages = plan_pages(site, env, asset_urls(assets, Urls(config.base_url)))
        timer.done("plan", f"{len(pages)} pages, {len(site.tags)} tags")
        keyed = FilePlan(document_plan(site) + feed_plan(site) + bib_plan(site) + crawler_plan(site))
        timer.done("files", f"{len(keyed)} search, feed, BibTeX and sitemap files; "
                            f"{len(assets)} assets")
        before, spare = (made_before(record), spare_folder(record)) if record else ({}, None)
        produced = Chained((pages, keyed))
        written = write_site(assets, options.out, produced, options.workers, before, spare,
                             later=lambda: _search_files(index.result(), config, timer),
                             staged=staged)
    ready(written)
    if record:
        try:
            keep_table(scan)  # why: ~0.03 s at 10,000 papers: after the site is in place
            entries.save()
            remember_made(record, written.stamps)
            # why: an edit made during the build is not in it
            if unchanged_since(_inputs(options), scan):
                remember(record, options.out, key, written.files)
        except OSError as error:  # why: the site is in place; records only spare work
            timer.report(f"  warning: this build's records were not kept ({error}); the next "
                         "build will do all its work again")
    timer.done("write", f"{len(produced) - written.reused} pages and files made; {written.written} "
                        f"written, {written.unchanged} unchanged")
    return written


FORK_FROM = 200
"""Papers (for the index) or input files (for staging, which has work only with a cache
folder's spare) from which work is forked to go on alongside: below, a fork would cost
more than the work."""


def _fork(options: BuildOptions, size: int) -> bool:
    return options.workers > 1 and size >= FORK_FROM


def _search_index(papers: tuple[Paper, ...], kept: Path | None) -> SearchIndex:
    # why: the index needs numpy, ~0.15 s to import: imported here, it is imported by the
    # forked process that builds the index (when there is one), off a rebuild's path
    from .searchindex import search_index
    return search_index(papers, kept)


def _search_files(index: SearchIndex, config: SiteConfig, timer: StageTimer) -> list[OutputFile]:
    """The index's files, once its stage is reported (with its own time: it ran alongside)."""
    timer.alongside("search", index.seconds, f"index {index.raw:,} bytes, {index.gzipped:,} gzipped")
    if index.gzipped > config.search_budget_kb * 1024:
        timer.report(f"  warning: the search index is {index.gzipped // 1024:,} KB gzipped, over "
                     f"the search_budget_kb of {config.search_budget_kb:,} set in site.yaml")
    return index.files


@contextmanager
def rare_collections() -> Iterator[None]:
    """Run the cyclic garbage collector far less often while a build runs.

    A build makes millions of small objects and almost no cycles, and every collection walks
    all the papers in memory: at 10,000 papers the collector took up to half the time of the
    index stage. As mypy does, let the young generation grow large before collecting. And once
    the papers are loaded, a build freezes what is alive (gc.freeze), all of which lasts until
    it ends: walking it still took ~0.3 s of a one-edit rebuild. It is unfrozen at the end.
    Freezing also holds any cyclic garbage of the build before, which, unfrozen, only a full
    collection (rare) clears: a process that builds again and again calls collect_garbage
    between builds (the preview server does when idle), or it grows with every build."""
    before = gc.get_threshold()
    gc.set_threshold(200_000, 50, 100)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def collect_garbage() -> None:
    """A full collection of what the builds so far left in cycles (see rare_collections):
    ~0.3 s at 10,000 papers, so best done when nothing waits for a build."""
    gc.collect()


def prepare_next_build(options: BuildOptions) -> None:
    """In idle time, what spares the next build work: the input table brought up to date, so
    files saved just before the last build are not read again as racy (see freshness; at
    10,000 new papers, ~1.5 s of the next build), and a spare site to stage it in, if the
    last build left none (see output.prepare_spare)."""
    if options.cache is None:
        return
    record = record_path(options.cache, options.out)
    for step in (partial(fingerprint, _inputs(options), record),
                 partial(prepare_spare, options.out, spare_folder(record))):
        try:
            step()
        except Exception:  # why: each only saves time; the next build does (and reports)
            pass           # what is left undone, and a preview server must go on watching


def _fingerprint(options: BuildOptions, scan: Scan) -> tuple[Path | None, str]:
    """Where the last build is remembered and this one's input fingerprint; none uncached.
    `scan` gets what was seen of each input file (see freshness.fingerprint)."""
    if options.cache is None:
        return None, ""
    record = record_path(options.cache, options.out)
    return record, fingerprint(_inputs(options), record, scan)


def _inputs(options: BuildOptions) -> Inputs:
    return Inputs(options.content, options.project, f"{options.base_url}\0{options.drafts}")
