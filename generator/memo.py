"""Keys for results kept between builds: a hash of everything a result depends on.

A cached result is reused only when its key is the same, so a key must change with any input
that could change the result: the generator's own code, the libraries' versions, the files
read, and the values passed in. Values are hashed by what they hold (their repr), never by
which objects hold them, so two builds that compute equal values get equal keys.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")

LIBRARIES = ("Jinja2", "Markdown", "PyYAML", "lunr", "latex2mathml", "pylatexenc", "nh3")
"""The libraries whose output ends up in the site."""


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of this generator's Python code and its libraries' versions: a new version of
    either makes every cached result stale."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    digest.update("".join(f"{name}={library_version(name)}\0" for name in LIBRARIES).encode())
    return digest.hexdigest()[:16]


def source_key(name: str, data: bytes) -> str:
    """What a record made from one file depends on: the file's name, its bytes, the code."""
    return hashed_source_key(name, hashlib.sha256(data).hexdigest())


def hashed_source_key(name: str, sha256: str) -> str:
    """source_key() from the sha256 (hex) of the file's bytes, as the input fingerprint has it."""
    return hashlib.sha256(f"{code_version()}\0{name}\0{sha256}".encode()).hexdigest()


def library_version(name: str) -> str:
    """The installed version of a library, or 'none'."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"


def value_key(*values: Any) -> str:
    """A hash of plain values (text, numbers, dates, paths, lists, tuples, dicts, Markup).

    repr writes each by value and with its type (Markup('<b>') is not '<b>'), in the order a
    dict was filled, which is the order the build's code fills it in."""
    return hashlib.sha256(repr(values).encode("utf-8", "surrogatepass")).hexdigest()


class KeptValues:
    """Results of one pure step, kept between builds in a file of the cache folder, by their
    inputs (plain, hashable values). A build saves only the results it used, so results of
    papers gone or changed are dropped; an unreadable file is as empty."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.before: dict[Hashable, Any] = read_kept(path, load_pickled_dict) if path else {}
        self.used: dict[Hashable, Any] = {}

    def get(self, inputs: Hashable, make: Callable[[], Any]) -> Any:
        """The result for `inputs`: the kept one, else make()'s."""
        value = self.before.get(inputs)
        if value is None:
            value = make()
        self.used[inputs] = value
        return value

    def save(self) -> None:
        """Keep this build's results for the next."""
        if self.path is not None and self.used != self.before:
            keep_pickled(self.path, self.used, holds=True)


_LAST_KEPT: dict[str, tuple[tuple[int, int, int], Any]] = {}
"""By path, a value this process wrote to a file of the cache folder or read from it, and the
file's (size, mtime, inode) then: see read_kept."""


def read_kept(path: Path, load: Callable[[Path], T]) -> T:
    """load(path), or the value this process last wrote there (write_aside's `holds`) or read
    there, while the file is still as it was then. A process that builds again and again (the
    preview server) so reads its own records back only when another changed them: reading
    them took ~0.08 s of every rebuild at 10,000 papers. The value is shared: never change it."""
    try:
        seen = _identity(os.stat(path))
    except OSError:
        return load(path)
    last = _LAST_KEPT.get(str(path))
    if last is not None and last[0] == seen:
        return last[1]
    value = load(path)
    _LAST_KEPT[str(path)] = (seen, value)
    return value


def _identity(stat: os.stat_result) -> tuple[int, int, int]:
    # why: a file written aside and renamed over is a new inode, even with the same size and time
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def write_aside(path: Path, data: bytes | list[bytes], holds: object = None) -> None:
    """Write `data` (or its parts, one after the other) beside `path`, then rename it over: a
    reader, or a build stopped midway, sees the old file or the new, never half of one.
    `holds`, if given, is the value `data` reads back as, for read_kept to give without reading."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    with open(partial, "wb") as file:
        file.writelines([data] if isinstance(data, bytes) else data)
    if holds is not None:  # why: the file renamed keeps its size, mtime and inode
        _LAST_KEPT[str(path)] = (_identity(os.stat(partial)), holds)
    os.replace(partial, path)


def keep_pickled(path: Path, value: object, holds: bool = False) -> None:
    """Keep `value` by pickle at `path`, written aside so a reader never sees half of it; with
    `holds`, read_kept gives `value` back until the file changes."""
    write_aside(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL),
                value if holds else None)


def load_pickled(path: str | Path) -> object:
    """A value kept by pickle at `path`, or None if it is missing or unreadable."""
    try:
        with open(path, "rb") as file:
            return pickle.load(file)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        return None


def load_pickled_dict(path: Path) -> dict[Hashable, Any]:
    """A dict kept by pickle at `path`; empty if missing, unreadable or not a dict."""
    value = load_pickled(path)
    return value if isinstance(value, dict) else {}
