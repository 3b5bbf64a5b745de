"""The whole build, readable in one function: _build(), which build() runs."""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Collection, Mapping

from ..content.config import config_warnings, load_config
from ..content.documents import PAPERS_DIR, content_warnings, load_documents
from ..content.papers import Checked, check_file, combine
from ..content.theme import load_templates
from ..model import urls as paths
from ..model.errors import BuildFailed
from ..model.languages import catalogue_languages
from ..model.records import FileJob, PaperParts, Site, SiteConfig, SourceFile, Theme
from ..model.site import build_site, reading_key, updated_time
from ..outputs.bibtex import bib_jobs
from ..outputs.csljson import csl_jobs
from ..outputs.interface import OVERLAY_MESSAGES, interface
from ..outputs.lists import list_jobs
from ..outputs.kinds import feed_jobs, groupings, page_jobs
from ..outputs.paperparts import parts_inputs
from ..outputs.sitemap import crawler_jobs
from ..search.index import gzipped_size, index_of_terms, search_jobs
from ..search.lunrindex import BuiltIndex
from ..search.packed import packed_json
from ..search.related import related_papers, tagged
from ..search.terms import paper_terms
from .cache import Cache, KeptResults, ResultsGone
from .files import Manifest, make_files
from .keptparts import kept_parts, parts_column
from .lightpapers import LightPaper, checked_papers, rows_of
from .stamps import SITE_YAML, ContentStamp, Look, SourceChanged, UnreadSource, bytes_digest
from .memory import return_freed_memory, trim
from .workers import Awaited, KeptAside, Workers
from .unchanged import (Begun, BuildOptions, LastBuild, StageTimer, begin, remembered_as,
                        unchanged, unchanged_report, warn)
from .writer import LiveSite, WriteReport, site_holds, write_site


@contextlib.contextmanager
def _collections_paused():
    """Python's cycle collector off for the build: it would walk the build's millions of
    objects again and again for the few cycles a build makes (a 10,000-paper one-edit rebuild
    spends ~0.7 s in it); what those hold is freed at the next collection after the build."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@dataclass(frozen=True)
class Kept:
    """What a process that builds again and again (the preview server) keeps from build to
    build and gives each: its `cache` (in memory too), the process for work begun `aside`, and
    who is told once the new site is in place (`published`): before the build has looked at
    the files it placed and remembered what it made them of (~0.15 s at 10,000 papers)."""

    cache: Cache
    aside: KeptAside | None = None
    published: Callable[[WriteReport], None] = lambda report: None


@_collections_paused()
def build(options: BuildOptions, timer: StageTimer | None = None,
          cache: Cache | Kept | None = None, made: Callable[[Made], None] | None = None,
          held: list[object] | None = None, begun: Begun | None = None) -> WriteReport:
    """Content folder in, complete static site out; BuildFailed before anything is written.
    A preview server passes the `cache` it keeps from build to build (with its other Kept
    things), and is told by `made` what the build made the site of (for its quick pages,
    building/quickpages.py): a build given `made` makes the site even when nothing changed
    since the last. A caller whose process ends after the build gives `held`: what the build
    made its site of is put there, not freed, as freeing it object by object takes ~0.15 s at
    10,000 papers (build.py). One that asked unchanged() first gives what it found (`begun`)
    with `cache`: not found again."""
    timer = timer or StageTimer()
    kept = cache if isinstance(cache, Kept) else None if cache is None else Kept(cache)
    try:
        return _build(options, timer, kept, made, held, trusting=True, begun=begun)
    except SourceChanged as changed:  # why: a paper not read changed after it was stamped
        timer.report(f"  {changed.errors[0].path} changed as it was read: reading every paper")
    except ResultsGone as gone:  # why: another build with this cache forgot them meanwhile
        timer.report(f"  {gone}: building again, reading them here")
    except BrokenProcessPool:  # why: the process aside died (a kept one is forked again)
        timer.report("  the process aside stopped: building again")
    return _build(options, timer, kept, made, held, trusting=False)


def _build(options: BuildOptions, timer: StageTimer, kept: Kept | None,
           made: Callable[[Made], None] | None, held: list[object] | None,
           trusting: bool, begun: Begun | None = None) -> WriteReport:
    """build(); `trusting` what the last build left: the paper files whose stamps are those it
    read them with are not read again (_unread), and the papers' search terms it kept are read
    by the process aside alone (Cache.map_kept)."""
    return_freed_memory()
    own_cache, complete = kept is None, False
    cache = kept.cache if kept is not None else Cache(options.cache, warn=timer.report)
    aside = kept.aside if kept is not None else None
    workers = Workers(options.workers, aside)
    try:
        if begun is None:
            begun = begin(options, cache)
            if made is None and (report := unchanged(begun, options, cache, timer)) is not None:
                return report
        theme, key, last, stamped = begun.theme, begun.key, begun.last, begun.stamped
        config, sources, read_warnings = read_content(
            options.content, options.base_url, catalogue_languages(theme.templates),
            _unread(cache, options, last, stamped) if trusting else None)
        warn(timer, read_warnings)
        timer.done("read", f"{len(sources)} paper files, {len(theme.templates.sources)} templates, "
                           f"{len(theme.assets)} assets")
        # why: a tuple, so each source is hashed once, for this key and for its checking's
        inputs = cache.key_of(*key, config, tuple(sources))
        if made is None and last.inputs == inputs and site_holds(options.out, last.report.state):
            # why: touched, not changed: the next build need not read them again
            cache.remember(_sources_of(options), _as_read(cache, stamped, sources))
            cache.remember(remembered_as(options), replace(
                last, looked=begun.looked, racy=_racy(cache, stamped, config, sources)))
            return unchanged_report(timer, last, last.warnings)
        workers.start()  # why: now, while this process is small (Workers.start)
        # why: each paper kept is stood in for by its row, not read back whole (lightpapers.py)
        checked, rows = checked_papers(
            cache, check_file, [(source, config.macros) for source in sources],
            rows_of(cache.recall_plain(_rows_of(options))) if trusting else {}, keep=Checked.ok,
            workers=workers)
        guessed = [str(w) for w in sorted(w for c in checked for w in c.warnings)]
        warn(timer, guessed)
        papers = [paper for paper in combine(checked) if options.drafts or not paper.draft]
        # why: the build that remembered a paper's row kept its search terms too (a draft's, if
        # it built drafts: else they are found gone where they are read, and the build restarts)
        read_aside = trusting and workers.apart
        terms = cache.map_kept(paper_terms, [(paper,) for paper in papers], workers=workers,
                               apart=read_aside,
                               kept=[isinstance(paper, LightPaper) for paper in papers],
                               holds=aside.holds if aside is not None and read_aside else None)
        # why: in the site's order, as the search index numbers them (site.reading_order)
        in_order = sorted(range(len(papers)), key=lambda n: reading_key(papers[n]))
        terms = terms.in_order(in_order)
        # why: found on another core while this one puts the site together (~0.5 s at 10,000);
        # the terms sent once, in a list the first to build the index takes them from
        given, digest = [terms], terms.digest()
        related = Awaited(workers.later(_related_aside, tagged([papers[n] for n in in_order]),
                                        digest, given))
        if aside is not None and read_aside:  # why: it may hold these terms or the last build's
            aside.holds = frozenset()
        index = _Aside(workers.later(_index_aside, digest, [] if workers.apart else given))
        site = build_site(papers, config, updated_time(papers, os.environ), groupings())
        drafts = len(sources) - len(papers)
        timer.done("papers", f"{_count(len(papers), 'paper')} ({_count(drafts, 'draft')} left "
                             f"out), {_count(len(site.tags), 'tag')}")
        parts, parts_rows = kept_parts(cache, theme.templates, parts_inputs(site),
                                       cache.recall_plain(_parts_of(options)), workers)
        feeds, bibs = feed_jobs(site, theme.templates), bib_jobs(site, parts)
        csls = csl_jobs(parts_column(cache, parts, parts_rows, "csl"))
        crawlers, searches = crawler_jobs(site), search_jobs(site, terms, lambda: index()[0])
        pages, paper_pages = page_jobs(site, theme, parts, related)
        jobs = pages + feeds + bibs + csls + crawlers + searches

        def showing_related() -> list[FileJob]:
            # why: listed once the others' keys are worked out (kinds.page_jobs)
            more = paper_pages() + list_jobs(site, parts_column(cache, parts, parts_rows,
                                                                "listed"), related)
            timer.done("files", f"{len(theme.assets) + len(jobs) + len(more)} files to make or "
                                "keep")
            return more

        manifest: Manifest = {}
        live = LiveSite(options.out, last.report.state)
        files = make_files(jobs, cache, live, workers, last.files, manifest, showing_related)
        report = write_site(itertools.chain(theme.assets, files), options.out, live,
                            kept.published if kept is not None else lambda report: None)
        timer.done("write", f"{report.written} written, {report.unchanged} unchanged, "
                            f"{report.removed} removed")
        _check_search_budget(options.out, config, timer, index() if index.taken else None)
        _check_site_budget(report, config, timer)
        cache.remember(_sources_of(options), _as_read(cache, stamped, sources))
        cache.remember_plain(_rows_of(options), rows)
        cache.remember_plain(_parts_of(options), parts_rows)
        cache.remember(remembered_as(options), LastBuild(
            inputs, replace(report, changed=()), guessed, manifest, begun.looked, read_warnings,
            _racy(cache, stamped, config, sources)))
        complete = True
        if aside is not None and read_aside and related.taken:  # why: read there to make them
            aside.holds = frozenset(terms.keys)
        if made is not None:
            made(Made(options, config, theme, site, parts, related))
        return report
    finally:  # why: what was made is kept, even by a build that failed
        workers.close()
        _BUILT.clear()
        cache.commit(complete)
        if own_cache:
            cache.close()
        if held is not None:
            held.append(locals())


def _related_aside(papers: list[tuple[str, tuple[str, ...]]], digest: bytes,
                   terms: list[KeptResults]) -> dict[str, tuple[str, ...]]:
    """related_papers() of `papers` (tagged(), in the site's order) over the search index of
    their terms (_built_index)."""
    return related_papers(_built_index(digest, terms), papers)


def _index_aside(digest: bytes, terms: list[KeptResults]) -> tuple[bytes, int]:
    """The search index of the papers' terms (_built_index), packed (index_json()), and its
    gzipped_size() for the search budget (~0.05 s at 10,000 papers, not spent here)."""
    index = packed_json(_built_index(digest, terms))
    return index, gzipped_size(index)


def _built_index(digest: bytes, terms: list[KeptResults]) -> BuiltIndex:
    """index_of_terms() of the terms whose KeptResults.digest() is `digest`, built once for both
    asides (~0.25 s at 10,000 papers): the one given the terms (the first to ask) builds it of
    the KeptResults it takes from `terms` and keeps it, the other takes it. Aside, the related
    papers are asked first (one process, in order) and the index is sent no terms: sent twice,
    the terms of a cold 10,000-paper build were pickled twice. The terms are let go, and their
    memory given back, before the related papers are found, the process's largest moment (~25
    MB less). Given terms, it builds even if it holds an index of the same digest: that one was
    left by a build that failed before the index's task began (a kept process aside), and taken
    here it would leave these terms unread and the index's task nothing."""
    if terms:
        _BUILT.clear()
        built = _BUILT[digest] = index_of_terms(tuple(terms.pop().results()))
        trim()
        return built
    built = _BUILT.pop(digest, None)
    if built is None:  # why: never, while one process makes both in order; else start again
        raise ResultsGone("the search index built aside was gone when its file was made")
    return built


_BUILT: dict[bytes, BuiltIndex] = {}
"""The index _built_index() built that the other aside has not taken: one at most, in the
process aside (or in this one, with one worker: build() lets it go when it ends)."""


class _Aside:
    """A result begun aside (Workers.later), and whether the build has taken it."""

    def __init__(self, result: Callable[[], tuple[bytes, int]]) -> None:
        self._result, self.taken = result, False

    def __call__(self) -> tuple[bytes, int]:
        self.taken = True
        return self._result()


def read_content(content: Path, base_url: str | None = None,
                 languages: Collection[str] | None = None,
                 unread: Mapping[str, SourceFile] | None = None
                 ) -> tuple[SiteConfig, list[SourceFile], list[str]]:
    """site.yaml and the paper files, with what builds but is probably not what the curator
    meant; BuildFailed when either cannot be read. `languages`: the interface's (load_config);
    `unread`: paper files not read, by name, and what stands for each (_unread)."""
    config = load_config(content, base_url, languages)
    sources = load_documents(content, unread)
    return config, sources, config_warnings(config) + content_warnings(content, sources)


def overlay_messages(options: BuildOptions) -> dict[str, str]:
    """What the preview server's error overlay says, in site.yaml's language; untranslated
    while site.yaml or the catalogue cannot be read."""
    try:
        templates = load_templates(options.project / "templates")
        config = load_config(options.content, options.base_url, catalogue_languages(templates))
        ui = interface(templates, config.language)
    except (BuildFailed, OSError, ValueError, KeyError):
        return dict(OVERLAY_MESSAGES)
    return {key: ui.gettext(message) for key, message in OVERLAY_MESSAGES.items()}


@dataclass(frozen=True)
class Made:
    """What a build made the site of, for the preview server to make one page again at once."""

    options: BuildOptions
    config: SiteConfig
    theme: Theme
    site: Site
    parts: list[PaperParts]
    """The papers' parts, in the site's order."""
    related: Mapping[str, tuple[str, ...]]


def _racy(cache: Cache, stamped: ContentStamp, config: SiteConfig,
          sources: list[SourceFile]) -> dict[str, bytes]:
    """A hash of what was read of each file the stamp cannot vouch for (stamps.py), by its path
    below the content folder: a paper's bytes, site.yaml's config."""
    read = {_paper_name(source): source for source in sources}
    return {name: cache.key_of(config) if name == SITE_YAML else bytes_digest(read[name].data)
            for name in stamped.racy if name == SITE_YAML or name in read}


def _unread(cache: Cache, options: BuildOptions, last: LastBuild,
            stamped: ContentStamp) -> dict[str, SourceFile]:
    """The paper files a build need not read, by name, each with what stands for it: those
    whose stamp is the one the last build read them with (_as_read), unless a change to either
    would not show in it (racy: stamps.py). Each stands for its bytes by the hash they had in
    the last build's keys, and is read only if its checking is not kept (stamps.UnreadSource)."""
    folder, racy = options.content / PAPERS_DIR, stamped.racy | last.racy.keys()
    unread: dict[str, SourceFile] = {}
    for name, (look, digest, bytes_hash) in (cache.recall(_sources_of(options)) or {}).items():
        if stamped.papers.get(name) == look and name not in racy:
            source = UnreadSource(folder, name[len(PAPERS_DIR) + 1:], bytes_hash)
            cache.vouch(source, digest)
            unread[source.name] = source
    return unread


def _paper_name(source: SourceFile) -> str:
    """A paper file's name as a stamp gives it: `papers/NAME.md`."""
    return f"{PAPERS_DIR}/{source.name if isinstance(source, UnreadSource) else source.path.name}"


def _as_read(cache: Cache, stamped: ContentStamp,
             sources: list[SourceFile]) -> dict[str, tuple[Look, bytes, bytes]]:
    """What the next build's _unread needs of each paper file its stamp vouches for: the stamp
    as this build read it, the hash that stood for it in the keys and the hash of its bytes.
    Kept apart from LastBuild, which a build with nothing changed reads (~1 MB at 10,000)."""
    found: dict[str, tuple[Look, bytes, bytes]] = {}
    for source in sources if cache.keeps else ():
        name = _paper_name(source)
        look = stamped.papers.get(name)
        # why: a file added after the stamp is not vouched for by it, nor one too recent for it
        if look is not None and name not in stamped.racy:
            bytes_hash = (source.digest if isinstance(source, UnreadSource)
                          else bytes_digest(source.data))
            found[name] = (look, cache.digest(source), bytes_hash)
    return found


def _sources_of(options: BuildOptions) -> str:
    """The name the paper files the last build of `options.content` into `options.out` read
    are remembered by: the content folder as given, as a file's hash in the keys holds its
    path as given (papers/x.md is content/papers/x.md or /home/.../papers/x.md there)."""
    return (f"the paper files read by the last build of {os.fspath(options.content)!r} "
            f"into {options.out.resolve()}")


def _rows_of(options: BuildOptions) -> str:
    """The name the rows of the papers the last build of `options.content` into `options.out`
    checked are remembered by (lightpapers.py)."""
    return "the rows of the papers of " + _sources_of(options)


def _parts_of(options: BuildOptions) -> str:
    """The name the parts of the papers of the last build into `options.out` are remembered by
    (keptparts.py)."""
    return f"the papers' parts of the last build into {options.out.resolve()}"


def _check_search_budget(out: Path, config: SiteConfig, timer: StageTimer,
                         index: tuple[bytes, int] | None) -> None:
    """The search files' size said, and a warning past the budget; `index`: the index made by
    this build and its gzipped size, if it made one (else it is read from `out` and gzipped)."""
    meta = (out / paths.SEARCH_META).read_bytes()
    if index is None:
        index_bytes = (out / paths.SEARCH_INDEX).read_bytes()
        index = index_bytes, gzipped_size(index_bytes)
    raw, gzipped = len(index[0]) + len(meta), index[1] + gzipped_size(meta)
    timer.report(f"  search    index {raw:,} bytes, {gzipped:,} gzipped")
    if gzipped > config.search_budget_kb * 1024:
        timer.report(f"  warning: the search index is {gzipped // 1024:,} KB gzipped, over "
                     f"the search_budget_kb of {config.search_budget_kb:,} set in site.yaml")


def _check_site_budget(report: WriteReport, config: SiteConfig, timer: StageTimer) -> None:
    if report.total_bytes > config.site_budget_mb * 2**20:
        timer.report(f"  warning: the site is {report.total_bytes // 2**20:,} MB, over the "
                     f"site_budget_mb of {config.site_budget_mb:,} set in site.yaml; GitHub Pages "
                     "publishes sites up to 1 GB (see docs/how-to/thousands-of-papers.md)")


def _count(n: int, noun: str) -> str:
    """'1 paper', '2 papers', '0 papers'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
