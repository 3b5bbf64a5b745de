"""Paper files to Paper records: each file checked on its own, cached by its bytes, in parallel.

Checking a paper is a pure function of its file (and of this generator's code), so its result
is kept in a cache folder under a key made of both; a rebuild reads back every paper it has
seen. Errors are never cached, and checks across papers run every time. Files not in the cache
are checked in worker processes when there are enough of them to pay for starting those.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .content import PAPERS_DIR, ContentErrorRaised, read_document
from .records import Paper
from .validate import Checked, check, combine

PARALLEL_FROM = 200
"""Fewer uncached papers than this are checked in this process: workers take ~0.2 s to start."""


def load_papers(content_dir: Path, cache_dir: Path | None = None, workers: int = 1) -> list[Paper]:
    """Every papers/*.md as a Paper, sorted by file name; BuildFailed with every error."""
    paths = sorted((content_dir / PAPERS_DIR).glob("*.md"))
    cache = PaperCache(cache_dir, content_dir) if cache_dir else None
    keys = {path: cache.key(path) for path in paths} if cache else {}
    found = {path: cache.get(keys[path]) for path in paths} if cache else {}
    missing = [path for path in paths if found.get(path) is None]
    for path, checked in zip(missing, _check_all(missing, workers)):
        found[path] = checked
        if cache and checked.paper is not None:
            cache.put(keys[path], checked)
    if cache:
        cache.keep_only(set(keys.values()))
    return combine([found[path] for path in paths])


def check_file(path: Path) -> Checked:
    """One paper file read and checked."""
    try:
        return check(read_document(path))
    except ContentErrorRaised as raised:
        return Checked(None, (raised.error,), 1)


def _check_all(paths: list[Path], workers: int) -> list[Checked]:
    if workers < 2 or len(paths) < PARALLEL_FROM:
        return [check_file(path) for path in paths]
    # why: fork shares the loaded modules; results come back in input order, so output is
    # the same whatever the scheduling
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(check_file, paths, chunksize=max(1, len(paths) // (workers * 8))))


def code_version() -> str:
    """A hash of this generator's Python code: a new version makes every cached paper stale."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


class PaperCache:
    """Checked papers of one content folder, one file each, keyed by file bytes and code."""

    def __init__(self, cache_dir: Path, content_dir: Path) -> None:
        where = hashlib.sha256(str(content_dir.resolve()).encode()).hexdigest()[:12]
        self.folder = cache_dir / "papers" / where
        self.version = code_version()

    def key(self, path: Path) -> str:
        """What a paper's check depends on: its name, its bytes, the generator's code."""
        digest = hashlib.sha256(f"{self.version}\0{path.name}\0".encode())
        digest.update(path.read_bytes())
        return digest.hexdigest()

    def get(self, key: str) -> Checked | None:
        """The cached result, or None (a missing or unreadable entry is a miss)."""
        try:
            with open(self.folder / key, "rb") as entry:
                return pickle.load(entry)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return None

    def put(self, key: str, checked: Checked) -> None:
        """Store a result; written aside and renamed, so a reader never sees half of it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = self.folder / f".{key}.{os.getpid()}"
        partial.write_bytes(pickle.dumps(checked, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, self.folder / key)

    def keep_only(self, keys: set[str]) -> None:
        """Forget papers that are gone or changed, so the cache does not grow for ever."""
        if not self.folder.is_dir():
            return
        for entry in self.folder.iterdir():
            if entry.name not in keys:
                entry.unlink(missing_ok=True)
