"""Paper files to Paper records: each file checked on its own, cached by its bytes, in parallel.

Checking a paper is a pure function of its file (and of this generator's code), so its result
is kept in a cache folder under a key made of both; a rebuild reads back every paper it has
seen. Errors are never cached, and checks across papers run every time. Files not in the cache
are checked in worker processes when there are enough of them to pay for starting those.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .content import PAPERS_DIR, ContentErrorRaised, read_document
from .memo import hashed_source_key, load_pickled, source_key, write_aside
from .records import Paper
from .validate import Checked, check, combine

PARALLEL_FROM = 200
"""Fewer uncached papers than this are checked in this process: workers take ~0.2 s to start."""

BUNDLE = "bundle.pickle"
"""The cache's file of many papers at once (no key is named so: keys are hex)."""
STALE_SHARE = 50
"""The bundle is written again once more than 1/STALE_SHARE of the papers differ from it."""

_RESIDENT: dict[str, dict[str, Checked]] = {}
"""Checked papers kept in memory, by cache folder and then source_key, for a process that
builds again and again (the preview server): its rebuilds read only what changed. Pruned to
the current papers by keep_only."""
_BUNDLES_READ: set[str] = set()
"""Cache folders whose bundle has been read into _RESIDENT: a resident cache reads it once, as
every paper it holds is then in memory; a paper missing from memory is new since."""


def load_papers(content_dir: Path, cache_dir: Path | None = None, workers: int = 1,
                resident: bool = False, hashes: dict[str, str] | None = None) -> list[Paper]:
    """Every papers/*.md as a Paper, sorted by file name; BuildFailed with every error. With
    `resident`, cached papers stay in memory for the next call. `hashes` (sha256 by absolute
    path, from the input fingerprint) spares reading the files the cache holds."""
    folder = content_dir / PAPERS_DIR
    names = paper_names(folder)
    cache = PaperCache(cache_dir, content_dir, resident, hashes) if cache_dir else None
    with collections_paused():
        keys = cache.keys(folder, names) if cache else {}
        found = {name: cache.get(keys[name]) for name in names} if cache else {}
    missing = [name for name in names if found.get(name) is None]
    # why: with this many new papers the bundle is written again, and their own files would
    # be written only to be deleted (10,000 of them in a first build)
    rebundle = len(missing) > len(names) // STALE_SHARE
    checked, pickled = _check_all([folder / name for name in missing], workers,
                                  None if rebundle else cache)
    found.update(zip(missing, checked))
    if cache:
        cache.hold(checked)
        cache.keep_only(set(keys.values()))
        cache.bundle_if_stale([found[name] for name in names], always=rebundle, pickled=pickled)
    return combine([found[name] for name in names])


def paper_names(folder: Path) -> list[str]:
    """The names of the Markdown files in `folder`, sorted; none if it is missing. As
    Path.glob("*.md") finds them, in a tenth of the time at 10,000 papers."""
    try:
        return sorted(name for name in os.listdir(folder) if name.endswith(".md"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def check_file(path: Path) -> Checked:
    """One paper file read and checked."""
    try:
        return check(read_document(path))
    except ContentErrorRaised as raised:
        return Checked(None, (raised.error,), 1)


Pickled = list[tuple[list[Checked], bytes]]
"""Checked papers as a worker pickled them, a chunk at a time: parts of a bundle as they are."""


def _check_all(paths: list[Path], workers: int,
               cache: PaperCache | None) -> tuple[list[Checked], Pickled]:
    """The papers checked, in order; checked by workers for a new bundle (no `cache`), also
    their chunks as the workers pickled them, so the bundle is written without pickling
    them again (~0.5 s at 10,000 papers)."""
    if workers < 2 or len(paths) < PARALLEL_FROM:
        return [_kept(check_file(path), cache) for path in paths], []
    # why: fork shares the loaded modules; results come back in input order, so output is
    # the same whatever the scheduling
    context = multiprocessing.get_context("fork")
    size = max(1, len(paths) // (workers * 8))
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        if cache is None:
            parts = [paths[start:start + size] for start in range(0, len(paths), size)]
            chunks = pool.map(_check_chunk, parts)
            with collections_paused():
                pickled = [(pickle.loads(data), data) for data in chunks]
            return [checked for chunk, _ in pickled for checked in chunk], pickled
        # why: a worker pickles its result once, both to keep it and to send it back
        kept = pool.map(functools.partial(_check_and_keep, cache), paths, chunksize=size)
        with collections_paused():
            return [pickle.loads(data) for data in kept], []


def _check_chunk(paths: list[Path]) -> bytes:
    return pickle.dumps([check_file(path) for path in paths], protocol=pickle.HIGHEST_PROTOCOL)


def _kept(checked: Checked, cache: PaperCache | None) -> Checked:
    if cache:
        _keep(checked, cache)
    return checked


_BUNDLE_FORMAT = "papers bundle 2"
"""The bundle: a pickled (_BUNDLE_FORMAT, number of parts), then that many pickled lists of
Checked (errors among them are skipped: they are never kept)."""


def _bundle_header(parts: int) -> bytes:
    return pickle.dumps((_BUNDLE_FORMAT, parts), protocol=pickle.HIGHEST_PROTOCOL)


def _read_bundle(path: str) -> dict[str, Checked]:
    """The bundle's papers by source_key; none if it is missing, unreadable or of another format."""
    found: dict[str, Checked] = {}
    try:
        with open(path, "rb") as file:
            header = pickle.load(file)
            if not (isinstance(header, tuple) and len(header) == 2 and header[0] == _BUNDLE_FORMAT):
                return {}
            for _ in range(header[1]):
                found.update((c.paper.source_key, c) for c in pickle.load(file) if c.paper)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError,
            TypeError):
        return {}
    return found


def _check_and_keep(cache: PaperCache, path: Path) -> bytes:
    return _keep(check_file(path), cache)


def _keep(checked: Checked, cache: PaperCache) -> bytes:
    """Put a result in the cache; its pickled bytes."""
    data = pickle.dumps(checked, protocol=pickle.HIGHEST_PROTOCOL)
    cache.put(checked, data)
    return data


@contextmanager
def collections_paused() -> Iterator[None]:
    """No cyclic garbage collection while papers load: loading makes a million objects and no
    cycles, and each collection would walk all of them (it took up to 40% of a warm load)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class PaperCache:
    """Checked papers of one content folder, keyed by file bytes and code.

    Most are kept together in one bundle file, the rest one file each: reading 10,000 papers
    back from as many files took ~1 s, most of it pickle's per-file start (each load looks
    up the record classes again), and one bundle reads in a third of that. A paper checked
    since the bundle was written has its own file until the bundle is written again."""

    def __init__(self, cache_dir: Path, content_dir: Path, resident: bool = False,
                 hashes: dict[str, str] | None = None) -> None:
        where = hashlib.sha256(str(content_dir.resolve()).encode()).hexdigest()[:12]
        self.folder = cache_dir / "papers" / where
        self.where = str(self.folder)  # why: no Path object per paper read back
        self.resident = resident
        # why: by folder, then key: a path joined per paper took a third of a resident load
        self.memory = _RESIDENT.setdefault(self.where, {}) if resident else {}
        self.hashes = hashes or {}
        self._bundle: dict[str, Checked] | None = None

    def keys(self, folder: Path, names: list[str]) -> dict[str, str]:
        """What each paper's check depends on, by file name: its name, its bytes, the
        generator's code."""
        top = os.path.abspath(folder) + os.sep  # why: no Path object per paper
        keys = {}
        for name in names:
            known = self.hashes.get(top + name)
            keys[name] = hashed_source_key(name, known) if known else \
                source_key(name, (folder / name).read_bytes())
        return keys

    def get(self, key: str) -> Checked | None:
        """The cached result, or None (a missing or unreadable entry is a miss)."""
        checked = self.memory.get(key)
        if checked is not None:
            return checked
        bundle = self.bundled() if self._may_read_bundle() else {}
        checked = bundle.get(key) or load_pickled(os.path.join(self.where, key))
        if checked is not None:
            self.memory[key] = checked
        return checked

    def bundled(self) -> dict[str, Checked]:
        """The papers in the bundle, read on first use; none if it is missing or unreadable."""
        if self._bundle is None:
            self._bundle = _read_bundle(os.path.join(self.where, BUNDLE))
            if self.resident:
                _BUNDLES_READ.add(self.where)
        return self._bundle

    def _may_read_bundle(self) -> bool:
        return self._bundle is not None or not self.resident or self.where not in _BUNDLES_READ

    def put(self, checked: Checked, data: bytes) -> None:
        """Keep a paper's result, pickled as `data`; written aside and renamed, so a reader
        never sees half of it. Errors are not kept: they are shown again each build."""
        if checked.paper is not None:
            write_aside(self.folder / checked.paper.source_key, data)

    def hold(self, checked: list[Checked]) -> None:
        """Keep new results in memory too (for the next build, when resident)."""
        self.memory.update((c.paper.source_key, c) for c in checked if c.paper)

    def keep_only(self, keys: set[str]) -> None:
        """Forget papers that are gone or changed, so the cache does not grow for ever."""
        for key in self.memory.keys() - keys:
            del self.memory[key]
        if not self.folder.is_dir():
            return
        for entry in self.folder.iterdir():
            if entry.name not in keys and entry.name != BUNDLE:
                entry.unlink(missing_ok=True)

    def bundle_if_stale(self, current: list[Checked], always: bool = False,
                        pickled: Pickled | None = None) -> None:
        """Write the bundle again, with exactly the `current` papers, `always` or when more
        than 1/STALE_SHARE of them are not in it or it holds that many others; then the
        papers' own files go. A resident cache that never needed the bundle leaves it be.
        Those of them in `pickled` are written as they were pickled."""
        if not always and self._bundle is None and self.resident:
            return
        # why: by the key of the bytes each was made from, which a file edited since the
        # fingerprint no longer has
        kept = {c.paper.source_key: c for c in current if c.paper is not None}
        if not always and not self._is_stale(kept):
            return
        parts = [data for _, data in pickled or []]
        done = {id(checked) for chunk, _ in pickled or [] for checked in chunk}
        parts.append(pickle.dumps([c for c in kept.values() if id(c) not in done],
                                  protocol=pickle.HIGHEST_PROTOCOL))
        # why: in parts, not joined: at 10,000 papers a joined copy was 60 MB more at the peak
        write_aside(self.folder / BUNDLE, [_bundle_header(len(parts)), *parts])
        self._bundle = kept
        for key in kept:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.where, key))

    def _is_stale(self, kept: dict[str, Checked]) -> bool:
        bundle = self.bundled()
        stale = len(kept.keys() - bundle.keys()) + len(bundle.keys() - kept.keys())
        return stale > len(kept) // STALE_SHARE
