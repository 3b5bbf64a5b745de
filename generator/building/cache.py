"""One cache for the whole build: results of pure functions, kept by a hash of what each is given.

The pipeline wraps a stage's pure function with it (Cache.map); no stage knows of it. A result's
key is a hash of the generator's code and libraries, the function's name and the arguments it
is given, pickled: it is found again exactly when the same code is given equal values, so no
list of dependencies is kept by hand, and a page that shows one more value of another paper is
keyed by that value as soon as it is in its context.

Results that only another process uses (the papers' search terms, which the process aside turns
into related papers and the search index) are not read back here: Cache.map_kept gives their
keys, and that process reads them from the file (KeptResults).

Results are kept in one SQLite file, each with a hash of its bytes that is checked before use.
Cached bytes are untrusted: a result missing, garbled, of another version or unreadable is made
again; a cache file that SQLite cannot read is started afresh; one that cannot be written is only
not written. A cache never fails a build and never gives bytes it has not verified.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import itertools
import marshal
import operator
import os
import pickle
import sqlite3
import sys
import tempfile
import time
import types
import typing
import unicodedata
import weakref
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Sequence

from .workers import Workers, in_kept_aside

LIBRARIES = ("babel", "Jinja2", "latex2mathml", "lunr", "Markdown", "MarkupSafe", "nh3", "numpy",
             "Pygments", "pylatexenc", "PyYAML")
"""The libraries a build imports, whose versions may change what it makes (Babel writes every
date, number and plural; Markdown imports Pygments for its code blocks). tests/test_cache.py
builds a site and fails when it imported a library (or one a library needs) not named here."""
FILE = "results.sqlite3"
PLAIN = "plain"
"""The folder, beside FILE, of the values kept by Cache.remember_plain(), a file each."""
_PLAIN_CHUNK = 2000
"""Items of a value kept by Cache.remember_plain() marshalled at once (~8 MB of papers' parts)."""
_BATCH = 500
"""Keys asked for in one query (SQLite allows 999 parameters in older versions)."""
_PICKLE = pickle.HIGHEST_PROTOCOL
PAGE_BYTES = 32768
"""SQLite's page size for the cache file. A kept result is ~1-7 KB; in SQLite's default 4 KB
pages most spill into overflow pages: reading back the 60,000 results of two 10,000-paper
builds took 0.6-0.7 s against 0.25-0.3 s in 32 KB pages, and the file was a third larger."""


class Cache:
    """Results kept in `folder` (None: nothing is kept), and in memory too with `in_memory`, for
    a process that builds again and again (the preview server). `warn` is told, once, when the
    cache cannot be used as it should."""

    def __init__(self, folder: Path | None, in_memory: bool = False,
                 warn: Callable[[str], None] = lambda line: None) -> None:
        self.folder = folder
        self.warn = warn
        self._memory: dict[bytes, Any] | None = {} if in_memory else None
        self._used: set[bytes] = set()
        self._db: sqlite3.Connection | None = None
        self._writable = True
        self._code: bytes | None = None
        self._digests: dict[int, tuple[object, bytes]] = {}
        """Hashes of the values given so far in this build, by id (see _digest)."""
        self._token = f"the memory of cache {next(_CACHES)} of process {os.getpid()}"
        """What KeptResults name this cache's memory by, where it is read (_read_file)."""
        if in_memory:
            _IN_MEMORY[self._token] = self
        self._unwritten: dict[str, dict[Any, Any]] = {}
        """Values remember_plain() kept in memory that are not in their files yet, by name."""
        self._plain_used: set[str] = set()
        """The files of the values remember_plain() kept in this build."""
        self._recalled: dict[str, list[_Piece]] = {}
        """The pieces of each value recall_plain() read from its file, by name, until written."""

    def map(self, make: Callable[..., Any], items: Sequence[tuple[Any, ...]], shared: Any = None,
            keep: Callable[[Any], bool] = lambda result: True,
            workers: Workers | None = None, keys: list[bytes] | None = None) -> list[Any]:
        """make(*args), or make(shared, *args), for each args tuple of `items`, in order: a result
        kept from before if there is one, else made (by `workers`, if given), and kept if `keep`
        says so. `make` must be a pure function of what it is given. `keys`: the items' keys(),
        if they are known already."""
        workers = workers or Workers()
        if not self.keeps:
            return workers.map(make, shared, list(items))
        keys = self.keys(make, shared, items) if keys is None else keys
        return self._map(make, shared, items, keys, keep, workers)

    def _map(self, make: Callable[..., Any], shared: Any, items: Sequence[tuple[Any, ...]],
             keys: list[bytes], keep: Callable[[Any], bool], workers: Workers) -> list[Any]:
        found = self.found(keys)
        missing = [n for n, key in enumerate(keys) if key not in found]
        made = workers.map(make, shared, [items[n] for n in missing])
        self.keep({keys[n]: result for n, result in zip(missing, made) if keep(result)})
        made_here = dict(zip(missing, made))
        results = [made_here[n] if n in made_here else found[key] for n, key in enumerate(keys)]
        for key, result in zip(keys, results):
            _stand_for(result, key, self._digests)
        return results

    def map_kept(self, make: Callable[..., Any], items: Sequence[tuple[Any, ...]],
                 shared: Any = None, workers: Workers | None = None,
                 apart: bool = True, kept: Sequence[bool] = (),
                 holds: Collection[bytes] | None = None) -> KeptResults:
        """map(), for results another process uses (KeptResults.results()): with `apart`, those
        kept in the cache file are not read here but where they are used, and only those made
        now are carried along. An edit at 10,000 papers read back every paper's search terms
        here (~0.15 s) and pickled them for the process aside twice (~0.2 s), which alone
        needs them. `kept` says of each item whether the last build kept its result: it is
        then not looked for in the file (~0.1 s at 10,000); if it is gone, ResultsGone says so
        where it is read. `holds`: for a cache in memory too whose results are read by a process
        aside kept from build to build, the keys of those it holds (workers.KeptAside.holds)."""
        workers = workers or Workers()
        keys = self.keys(make, shared, items)
        if apart and self._memory is not None:
            return self._map_in_memory(make, shared, items, keys, workers, holds)
        db = self._open() if apart and self._memory is None else None
        if db is None:
            results = (self._map(make, shared, items, keys, lambda result: True, workers)
                       if self.keeps else workers.map(make, shared, list(items)))
            return KeptResults(None, tuple(keys), dict(zip(keys, results)))
        known = {key for key, was_kept in zip(keys, kept) if was_kept}
        there = known | (self._guarded(self._present, [k for k in keys if k not in known]) or set())
        missing = [n for n, key in enumerate(keys) if key not in there]
        made = dict(zip([keys[n] for n in missing],
                        workers.map(make, shared, [items[n] for n in missing])))
        self.keep(made)
        self._used.update(keys)
        assert self.folder is not None
        return KeptResults(str((self.folder / FILE).resolve()), tuple(keys), made)

    def _map_in_memory(self, make: Callable[..., Any], shared: Any,
                       items: Sequence[tuple[Any, ...]], keys: list[bytes],
                       workers: Workers, holds: Collection[bytes] | None) -> KeptResults:
        """map_kept() of a cache in memory too: the results this process held before it (kept
        by an earlier build) are read where they are used, from the memory the process aside
        was forked with at the build's start (Workers.start), or, in one kept from build to
        build, from those it `holds`; the rest are carried. A 10,000-paper rebuild in the
        preview server pickled every paper's search terms for it twice (~0.2 s)."""
        memory = self._memory
        assert memory is not None
        held = [key in memory and (holds is None or key in holds) for key in keys]
        rest = [n for n, was_held in enumerate(held) if not was_held]
        results = self._map(make, shared, [items[n] for n in rest], [keys[n] for n in rest],
                            lambda result: True, workers)
        self._used.update(keys)
        return KeptResults(self._token, tuple(keys), dict(zip([keys[n] for n in rest], results)))

    def use(self, keys: list[bytes]) -> set[bytes]:
        """`keys`, whose results are read later where they are used (lightpapers.py), kept in
        the cache for this build as if read now; those `keys` as a set."""
        used = set(keys)
        self._used.update(used)
        return used

    def file(self) -> str | None:
        """The cache file, for a process that reads results from it (read_kept()); None when
        results are not kept in one alone (none, or in memory too)."""
        if self._memory is not None or self._open() is None:
            return None
        assert self.folder is not None
        return str((self.folder / FILE).resolve())

    def stand_for(self, result: Any, key: bytes) -> None:
        """Let `result`, which stands in for the result kept under `key` (lightpapers.py), be
        hashed in keys as that result is (_stand_for)."""
        _stand_for(result, key, self._digests)

    @property
    def keeps(self) -> bool:
        """Whether results are kept at all (in a folder or in memory)."""
        return self.folder is not None or self._memory is not None

    def key_of(self, *values: Any) -> bytes:
        """A hash of `values` and the code, as map() keys what a function is given."""
        return hashlib.sha256(self._code_version() + _digest(values, self._digests)).digest()

    def digest(self, value: Any) -> bytes:
        """The hash that stands for `value` in keys (see _digest), made once a build."""
        return _digest(value, self._digests)

    def vouch(self, value: Any, digest: bytes) -> None:
        """Let `value` stand in keys for a value that an earlier build hashed to `digest`: a
        paper file not read again, whose stamp vouches for its bytes (building/stamps.py)."""
        self._digests[id(value)] = (value, digest)

    def recall(self, name: str) -> Any:
        """What remember() last kept under `name` (with this code), or None."""
        key = self._name_key(name)
        return self.found([key]).get(key) if self.keeps else None

    def remember(self, name: str, value: Any) -> None:
        """Keep `value` under `name` for later builds of this code."""
        self.keep({self._name_key(name): value})

    def recall_plain(self, name: str) -> dict[Any, Any] | None:
        """What remember_plain() last kept under `name` (with this code), or None."""
        key = self._name_key(name)
        if self._memory is not None and key in self._memory:
            return self._memory[key]
        if self.folder is None:
            return None
        try:
            with open(self.folder / PLAIN / _plain_file(name), "rb") as file:
                if file.read(32) != key:  # why: another code's, not read on
                    return None
                data = file.read()
            value: dict[Any, Any] = {}
            pieces: list[_Piece] = []
            view, at = memoryview(data), 0
            while at < len(data):  # why: pieces each after its length and hash (remember_plain)
                size = int.from_bytes(view[at:at + 8], "little")
                digest, piece = bytes(view[at + 8:at + 40]), view[at + 40:at + 40 + size]
                if len(piece) != size or hashlib.sha256(piece).digest() != digest:
                    return None
                items = marshal.loads(piece)
                value.update(items)
                pieces.append((tuple(items), digest, piece))
                at += 40 + size
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if self._memory is not None:
            self._memory[key] = value
        else:
            self._recalled[name] = pieces
        return value

    def remember_plain(self, name: str, value: dict[Any, Any]) -> None:
        """remember(), for a large dict of plain data (what marshal writes: tuples, dicts, texts,
        bytes, numbers) that the next build reads whole: kept in a file of its own beside the
        cache file, with its key and hash, not in it. The 40 MB of a 10,000-paper digest's parts
        took ~0.16 s to read back from SQLite and ~0.3 s to write; ~0.2 s and ~0.15 s so. It is
        written a few thousand items at a time, each piece after its length and hash: marshalled
        whole, 40 MB more were held at the end of a cold build, when it is largest. A piece
        whose keys are those of a piece recalled is written as it was read, neither marshalled
        nor hashed again: the value of a key must never change (a result's, made from what the
        key is a hash of). A cache in memory too writes it only when told (write_remembered) or
        closed."""
        key = self._name_key(name)
        self._used.add(key)
        self._plain_used.add(_plain_file(name))
        if self._memory is not None:
            self._memory[key] = value
            # why: the preview server reads it from memory; written when it is idle or stops
            # (write_remembered), not in the rebuild a save waits for (~0.1 s at 10,000 papers)
            self._unwritten[name] = value
            return
        self._write_plain(name, key, value)

    def write_remembered(self) -> None:
        """Write the values remember_plain() kept in memory alone (in_memory), for the next
        process: a build started later reads them from their files."""
        unwritten, self._unwritten = self._unwritten, {}
        for name, value in unwritten.items():
            self._write_plain(name, self._name_key(name), value)

    def _write_plain(self, name: str, key: bytes, value: dict[Any, Any]) -> None:
        if self.folder is None or not self._writable:
            return
        folder = self.folder / PLAIN
        try:
            folder.mkdir(parents=True, exist_ok=True)
            file = tempfile.NamedTemporaryFile(dir=folder, delete=False)
        except OSError:  # why: a value not kept is made again by the next build
            return
        # why: an edit changes a piece or two of the five of a 10,000-paper digest's parts
        recalled = {keys: (digest, piece) for keys, digest, piece in self._recalled.pop(name, ())}
        try:
            with file:
                file.write(key)
                items = list(value.items())
                for start in range(0, len(items), _PLAIN_CHUNK):
                    chunk = items[start:start + _PLAIN_CHUNK]
                    digest, data = recalled.get(tuple(k for k, _ in chunk)) or _piece(chunk)
                    file.write(len(data).to_bytes(8, "little") + digest)
                    file.write(data)
            os.replace(file.name, folder / _plain_file(name))
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(file.name)

    def _name_key(self, name: str) -> bytes:
        return hashlib.sha256(self._code_version() + b"remembered " + name.encode()).digest()

    def commit(self, complete: bool = True) -> None:
        """End of a build. After a `complete` one (not one that failed halfway), forget what it
        did not use, once that is most of what is kept."""
        used, self._used = self._used, set()
        plain_used, self._plain_used = self._plain_used, set()
        self._digests = {}
        if not complete:
            return
        if self._memory is not None:
            for key in self._memory.keys() - used:
                del self._memory[key]
        if self._open() is not None and self._writable:
            self._guarded(self._prune, used)
            assert self.folder is not None
            _prune_plain(self.folder / PLAIN, plain_used)

    def close(self) -> None:
        """Let go of the cache file, once what is kept in memory alone is written."""
        self.write_remembered()
        self._recalled.clear()
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def keys(self, make: Callable[..., Any], shared: Any,
             items: Sequence[tuple[Any, ...]]) -> list[bytes]:
        """The key of make(*args), or make(shared, *args), for each args tuple of `items`: a hash
        of the code, the function, `shared` and the args."""
        digests = self._digests
        name = f"{make.__module__}.{make.__qualname__}".encode()
        prefix = hashlib.sha256(self._code_version() + name + _digest(shared, digests)).digest()
        # why: a job's arguments are hashed item by item at once: they hold a record or a page's
        # values, which marshal stops at only after writing what comes before them
        return [hashlib.sha256(prefix + _items_digest(args, digests)).digest() for args in items]

    def _code_version(self) -> bytes:
        if self._code is None:
            self._code = code_version()
        return self._code

    def found(self, keys: list[bytes]) -> dict[bytes, Any]:
        """The kept results of those `keys` that have one."""
        found: dict[bytes, Any] = {}
        memory = self._memory or {}
        wanted = [key for key in keys if key not in memory]
        found.update((key, memory[key]) for key in keys if key in memory)
        if wanted and self._open() is not None:
            found.update(self._guarded(self._read, wanted) or {})
        if self._memory is not None:
            self._memory.update(found)
        self._used.update(found)
        return found

    def _read(self, keys: list[bytes]) -> dict[bytes, Any]:
        assert self._db is not None
        return _read_rows(self._db, keys)

    def _present(self, keys: list[bytes]) -> set[bytes]:
        """Which of `keys` the cache file holds a row of (unread, so unverified)."""
        assert self._db is not None
        return {key for (key,) in _rows(self._db, "key", keys)}

    def keep(self, new: dict[bytes, Any]) -> None:
        """Keep results by their keys, for this build and the next."""
        self._used.update(new)
        if self._memory is not None:
            self._memory.update(new)
        if new and self._open() is not None and self._writable:
            self._guarded(self._write, new)

    def _write(self, new: dict[bytes, Any]) -> None:
        assert self._db is not None
        # why: in key order, the table's order: placed at random, the 30,000 results of a cold
        # 10,000-paper build split pages all over the file (~1.2 s of this process, against
        # ~0.4 s, and a file ~10% larger)
        rows = map(_row, sorted(new.items(), key=_first))
        with self._db:  # why: rows made one at a time, so no second copy of them all is held
            self._db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?)", rows)

    def _prune(self, used: set[bytes]) -> None:
        assert self._db is not None
        (count,) = self._db.execute("SELECT count(*) FROM results").fetchone()
        if count <= 2 * len(used) + 1000:
            return
        with self._db:
            self._db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key BLOB PRIMARY KEY)")
            self._db.execute("DELETE FROM used")
            self._db.executemany("INSERT OR IGNORE INTO used VALUES (?)", ((k,) for k in used))
            self._db.execute("DELETE FROM results WHERE key NOT IN (SELECT key FROM used)")

    def _open(self) -> sqlite3.Connection | None:
        """The cache file, opened on first use; None when there is none or it cannot be had."""
        if self._db is None and self.folder is not None:
            self._guarded(self._connect)  # why: a broken file is started afresh (_recover)
        return self._db

    def _connect(self) -> None:
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.folder / FILE, timeout=30)
        try:
            db.execute(f"PRAGMA page_size = {PAGE_BYTES}")  # why: a new file's; one made is kept
            db.execute("CREATE TABLE IF NOT EXISTS results (key BLOB PRIMARY KEY, "
                       "digest BLOB NOT NULL, value BLOB NOT NULL) WITHOUT ROWID")
            db.execute("SELECT count(*) FROM results WHERE key = x''").fetchone()
        except sqlite3.OperationalError as error:
            if "readonly" not in str(error) or not _has_table(db):
                db.close()
                raise
            self._writable = False
            self.warn(f"warning: the cache in {self.folder} is read-only; results are read from "
                      "it but not kept")
        except sqlite3.Error:
            db.close()
            raise
        self._db = db

    def _guarded(self, step: Callable[..., Any], *args: Any) -> Any:
        """step(*args); on a cache file SQLite cannot read or write, the file is started afresh
        (a broken one) or left alone (one that cannot be written), and None is returned."""
        try:
            return step(*args)
        except sqlite3.DatabaseError as error:
            self._recover(error)
            return None
        except OSError as error:
            self._give_up(f"cannot be used ({error})")
            return None

    def _recover(self, error: sqlite3.DatabaseError) -> None:
        readonly = "readonly" in str(error) or "read-only" in str(error)
        if readonly and self._db is not None:
            self._writable = False
            self.warn(f"warning: the cache in {self.folder} is read-only; results are not kept")
            return
        if isinstance(error, sqlite3.OperationalError) and not _damaged(error):
            self._give_up(f"cannot be used ({error})")
            return
        self.close()
        assert self.folder is not None
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                (self.folder / (FILE + suffix)).unlink(missing_ok=True)
            self._connect()
            self.warn(f"warning: the cache in {self.folder} was damaged ({error}); it was "
                      "started afresh")
        except (OSError, sqlite3.Error) as again:
            self._give_up(f"was damaged and cannot be started afresh ({again})")

    def _give_up(self, why: str) -> None:
        self.close()
        self.warn(f"warning: the cache in {self.folder} {why}; this build goes on without it")
        self.folder = None


_MISSING = object()
_first = operator.itemgetter(0)


class ResultsGone(Exception):
    """A result KeptResults stands for was not in the cache file, or did not verify, when the
    process using it read it: another build using the same cache forgot it meanwhile."""


@dataclasses.dataclass(frozen=True)
class KeptResults:
    """The results of Cache.map_kept(), in order, for the process that uses them: those not
    `made` are read there from the cache `file` (results()). In keys it is hashed by its
    results' keys, each of which stands for one result, wherever they are read."""

    file: str | None
    keys: tuple[bytes, ...]
    made: dict[bytes, Any]
    """The results that are not read from the file, by key: those made by this build (all of
    them without a file)."""

    def results(self) -> list[Any]:
        """Every result, in order; ResultsGone if one is no longer in the file as it was kept."""
        wanted = list({key for key in self.keys if key not in self.made})
        found = _read_file(self.file, wanted) if wanted else {}
        if len(found) < len(wanted):
            raise ResultsGone(f"{len(wanted) - len(found)} of the results kept in {self.file} "
                              "were gone when read")
        results = [self.made[key] if key in self.made else found[key] for key in self.keys]
        if self.file is not None and self.file.startswith(_MEMORY_TOKEN) and in_kept_aside():
            _carry(self.file, self.keys, results)
        return results

    def in_order(self, order: Sequence[int]) -> KeptResults:
        """The results numbered `order`, in that order."""
        return dataclasses.replace(self, keys=tuple(self.keys[n] for n in order))

    def digest(self) -> bytes:
        return hashlib.sha256(b"kept " + b"".join(self.keys)).digest()


def read_kept(file: str, keys: list[bytes]) -> dict[bytes, Any]:
    """The verified results of those `keys` the cache `file` holds, read through a connection
    this process keeps open to it (a query of one key takes ~50 µs, opening one ~0.3 ms)."""
    try:
        return _read_rows(_reader(file), keys)
    except sqlite3.Error:
        _readers.pop(file, None)
        return {}


def _reader(file: str) -> sqlite3.Connection:
    """A read-only connection to the cache `file` of this process's own: a forked process does
    not use its parent's. The last few files' are kept (a test session builds with many)."""
    found = _readers.get(file)
    if found is not None and found[0] == os.getpid():
        return found[1]
    db = sqlite3.connect(Path(file).as_uri() + "?mode=ro", uri=True, timeout=30)
    _readers[file] = (os.getpid(), db)
    while len(_readers) > _READERS:
        pid, oldest = _readers.pop(next(iter(_readers)))
        if pid == os.getpid():
            oldest.close()
    return db


_readers: dict[str, tuple[int, sqlite3.Connection]] = {}
_READERS = 4


def _read_file(file: str | None, keys: list[bytes]) -> dict[bytes, Any]:
    """The verified results of those `keys` the cache `file` holds, read without writing it;
    or those the memory of a cache in memory too holds, where `file` names it: this process's
    own, or its parent's as the process was forked with it, and those the last KeptResults
    that named it gave here (_CARRIED); none in any other process."""
    if file is None:
        return {}
    if file.startswith(_MEMORY_TOKEN):
        in_memory = _IN_MEMORY.get(file)
        memory = (in_memory._memory or {}) if in_memory is not None else {}
        carried = _CARRIED.get(file, {})
        return {key: pickle.loads(carried[key]) if key in carried else memory[key]
                for key in keys if key in carried or key in memory}
    return read_kept(file, keys)


def _carry(token: str, keys: tuple[bytes, ...], results: list[Any]) -> None:
    """Hold `results` for the next build, in a process aside kept from build to build
    (workers.KeptAside): forked before they were made, it is carried only those it holds not
    (its `holds`, which the build sets once it took what the process made of them). Each is held
    pickled, ~16 MB at 10,000 papers' search terms against ~55 MB as objects, and the process
    holds them while it finds related papers; loading them back takes it ~0.04 s."""
    before = _CARRIED.get(token, {})
    _CARRIED[token] = {key: before[key] if key in before else pickle.dumps(result, _PICKLE)
                       for key, result in zip(keys, results)}


_IN_MEMORY: weakref.WeakValueDictionary[str, Cache] = weakref.WeakValueDictionary()
"""The caches in memory too, by what names their memory (Cache._token)."""
_CARRIED: dict[str, dict[bytes, bytes]] = {}
"""The results, pickled, that the last KeptResults of a cache in memory too gave in a process
aside kept from build to build, by what names that memory (_carry)."""
_CACHES = itertools.count(1)
_MEMORY_TOKEN = "the memory of cache "


def _read_rows(db: sqlite3.Connection, keys: list[bytes]) -> dict[bytes, Any]:
    """The verified results of those `keys` that `db` holds."""
    found = {}
    for key, digest, value in _rows(db, "key, digest, value", keys):
        result = _verified(digest, value)
        if result is not _MISSING:
            found[key] = result
    return found


def _rows(db: sqlite3.Connection, columns: str, keys: list[bytes]) -> Iterator[tuple[Any, ...]]:
    """The `columns` of the rows of those `keys` that `db` holds."""
    keys = sorted(keys)  # why: lookups in key order read the file's pages in order, ~3x faster
    for start in range(0, len(keys), _BATCH):
        batch = keys[start:start + _BATCH]
        yield from db.execute(f"SELECT {columns} FROM results WHERE key IN "
                              f"({','.join('?' * len(batch))})", batch)


def _row(item: tuple[bytes, Any]) -> tuple[bytes, bytes, bytes]:
    """(key, digest, value) of one result: its pickle and that pickle's hash."""
    value = pickle.dumps(item[1], _PICKLE)
    return item[0], hashlib.sha256(value).digest(), value


def _verified(digest: bytes, value: bytes) -> Any:
    """The result kept as `value` if its bytes are those hashed to `digest`, else _MISSING."""
    if not isinstance(value, bytes) or hashlib.sha256(value).digest() != digest:
        return _MISSING
    try:
        return pickle.loads(value)
    except Exception:  # why: bytes that hash right but do not load are a result of other code
        return _MISSING


_Piece = tuple[tuple[Any, ...], bytes, Any]
"""A piece of a plain value's file: its keys in order, its hash and its bytes as read."""


def _piece(items: list[tuple[Any, Any]]) -> tuple[bytes, bytes]:
    """The hash and bytes of a piece of a plain value's file (Cache.remember_plain)."""
    data = marshal.dumps(dict(items))
    return hashlib.sha256(data).digest(), data


def _prune_plain(folder: Path, used: set[str]) -> None:
    """The plain values' files a build did not keep, once they are most of those in `folder`
    (as _prune forgets results): those of output folders built no more (~43 MB each at
    10,000 papers). And what a build stopped while writing one left, a day on."""
    try:
        with os.scandir(folder) as entries:
            found = [(entry.name, entry.path, entry.stat().st_mtime) for entry in entries]
    except OSError:
        return
    others = [(name, path) for name, path, _ in found
              if name.endswith(".marshal") and name not in used]
    dropped = others if len(others) > len(used) else []
    day_ago = time.time() - 86400
    dropped += [(name, path) for name, path, mtime in found
                if not name.endswith(".marshal") and mtime < day_ago]
    for _, path in dropped:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _plain_file(name: str) -> str:
    """The file a value remembered by `name` is kept in (Cache.remember_plain)."""
    return hashlib.sha256(name.encode()).hexdigest()[:32] + ".marshal"


def _has_table(db: sqlite3.Connection) -> bool:
    try:
        db.execute("SELECT count(*) FROM results WHERE key = x''").fetchone()
        return True
    except sqlite3.Error:
        return False


def _damaged(error: sqlite3.OperationalError) -> bool:
    """An OperationalError that means the file is not a sound database (others mean it is busy,
    locked, on a full disk, or cannot be opened)."""
    text = str(error)
    return any(word in text for word in ("malformed", "corrupt", "not a database", "no such",
                                         "has no column", "disk I/O"))


def _digest(value: Any, seen: dict[int, tuple[object, bytes]]) -> bytes:
    """A hash of `value`, made once per build however often the value is given (a paper to its
    page, its tags' pages, feeds and BibTeX files), by its id: a build changes none of the
    values it gives. A tuple is hashed item by item (a tag's papers, the papers' search terms,
    a list page's cards), so each item that is not a short plain value is hashed once, if at
    all; anything else, pickled."""
    if type(value) is str and len(value) < _LONG:  # why: the most common argument; no pickler
        return _str_digest(value)
    known = seen.get(id(value))
    if known is not None:
        return known[1]
    if type(value) is str:
        digest = _str_digest(value)
    elif type(value) is tuple:
        digest = _tuple_digest(value, seen)
    elif type(value) is KeptResults:
        digest = value.digest()
    else:
        digest = hashlib.sha256(_pickled(value)).digest()
    seen[id(value)] = (value, digest)  # why: holding the value keeps its id its own
    return digest


def _tuple_digest(value: tuple[Any, ...], seen: dict[int, tuple[object, bytes]]) -> bytes:
    """A hash of a tuple: of it marshalled, when it holds plain values alone (a page's facet
    rows, a page of authors' lines), in one call; else of its items (_items_digest)."""
    try:
        return hashlib.sha256(b"m" + marshal.dumps(value, 2)).digest()
    except ValueError:  # why: a record, a Markup or another value marshal does not write
        return _items_digest(value, seen)


def _items_digest(value: tuple[Any, ...], seen: dict[int, tuple[object, bytes]]) -> bytes:
    """A hash of a tuple's items (see _tuple_parts)."""
    parts = [b"("]
    _tuple_parts(value, seen, parts)
    return hashlib.sha256(b"".join(parts)).digest()


def _tuple_parts(value: tuple[Any, ...], seen: dict[int, tuple[object, bytes]],
                 parts: list[bytes]) -> None:
    """Each item of a tuple as `parts` of what is hashed: a short plain value marshalled
    (version 2: no references, so equal values give equal bytes; each self-delimiting and typed);
    a value already hashed, or any other but a small tuple, as its hash after a zero byte, which
    begins no marshalled value; a small tuple of plain values marshalled whole after the byte 3,
    and any other small tuple's items in place, between the bytes 1 and 2, which begin none
    either (a page's related links, an author's line on a page of authors: no hash of their own
    for each of the ~30,000 a build gives)."""
    known_of, dumps, plain = seen.get, marshal.dumps, _PLAIN
    for item in value:
        kind = type(item)
        if kind in plain and (kind not in _TEXT or len(item) < _LONG):
            parts.append(dumps(item, 2))
            continue
        known = known_of(id(item))
        if known is not None:
            parts.append(b"\0" + known[1])
        elif kind is tuple and len(item) <= _SMALL:
            try:
                parts.append(b"\3" + dumps(item, 2))
            except ValueError:
                parts.append(b"\1")
                _tuple_parts(item, seen, parts)
                parts.append(b"\2")
        else:
            parts.append(b"\0" + _digest(item, seen))


_PLAIN = frozenset({str, bytes, int, float, bool, type(None)})
_TEXT = (str, bytes)
_SMALL = 8
"""Items of a tuple given within another that are hashed in place (_tuple_parts)."""
_LONG = 256
"""Characters (or bytes) from which a string is worth remembering by its id (a paper's card,
~3,000)."""


def _str_digest(value: str) -> bytes:
    return hashlib.sha256(b"str " + value.encode("utf-8", "surrogatepass")).digest()


def _stand_for(result: Any, key: bytes, seen: dict[int, tuple[object, bytes]]) -> None:
    """Let a result be hashed by the key it was made from, and so each record or long text it
    holds (the Paper of a checked paper file, the card of a paper's parts): a pure function
    given equal values makes equal results, so a paper read back from the cache is not pickled
    again to key the pages that show it."""
    kind = type(result)
    if kind in _PLAIN:  # why: hashed by value as fast as looked up
        return
    seen.setdefault(id(result), (result, hashlib.sha256(b"=" + key).digest()))
    names = _FIELD_NAMES.get(kind)
    if names is None:  # why: once a type, not once a result (30,000 at 10,000 papers)
        names = _FIELD_NAMES[kind] = _record_or_text_fields(kind)
    for name, spelt in names:
        part = getattr(result, name)
        if part is not None and (type(part) not in _TEXT or len(part) >= _LONG):
            seen.setdefault(id(part), (part, hashlib.sha256(b"=" + key + spelt).digest()))


_FIELD_NAMES: dict[type, tuple[tuple[str, bytes], ...]] = {}
"""Each result type's fields that _stand_for looks at (see _record_or_text_fields)."""


def _record_or_text_fields(kind: type) -> tuple[tuple[str, bytes], ...]:
    """The fields of a result type declared as a record (a dataclass) or a text: those a page
    may be given alone (a paper's Paper, a card); none for a type that is not a dataclass."""
    if not dataclasses.is_dataclass(kind):
        return ()
    try:
        declared = typing.get_type_hints(kind)
    except (NameError, TypeError):  # why: a name imported for type checkers only
        declared = {}
    return tuple((field.name, field.name.encode()) for field in dataclasses.fields(kind)
                 if field.name not in declared or _record_or_text(declared[field.name]))


def _record_or_text(declared: Any) -> bool:
    """Whether a field declared so may hold a record or a text ('Paper | None' may)."""
    union = typing.get_origin(declared) in (typing.Union, types.UnionType)
    return any(kind in _TEXT or dataclasses.is_dataclass(kind)
               for kind in (typing.get_args(declared) if union else (declared,)))


def _pickled(value: Any) -> bytes:
    """`value` pickled without pickle's memo, so that equal values give equal bytes whether or
    not they share parts (a paper read back from the cache shares none; one made in a worker
    shares its venue with the papers made beside it). The values hashed hold no cycles."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, _PICKLE)
    pickler.fast = True
    pickler.dump(value)
    return buffer.getvalue()


def code_version() -> bytes:
    """A hash of this generator's Python code and its libraries' versions: a new version of
    either makes every kept result stale."""
    digest = hashlib.sha256()
    top = Path(__file__).resolve().parent.parent
    for source in sorted(top.rglob("*.py")):
        digest.update(source.relative_to(top).as_posix().encode() + b"\0" + source.read_bytes())
    digest.update("".join(f"{name}={_version(name)}\0" for name in LIBRARIES).encode())
    # why: slugs, word classes and escaping follow the Python and Unicode versions too
    digest.update(f"{sys.version}\0{unicodedata.unidata_version}".encode())
    return digest.digest()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"
