"""Keys for results kept between builds: a hash of everything a result depends on.

A cached result is reused only when its key is the same, so a key must change with any input
that could change the result: the generator's own code, the libraries' versions, the files
read, and the values passed in. Values are hashed by what they hold (their repr), never by
which objects hold them, so two builds that compute equal values get equal keys.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path
from typing import Any

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
    digest = hashlib.sha256(f"{code_version()}\0{name}\0".encode())
    digest.update(data)
    return digest.hexdigest()


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
