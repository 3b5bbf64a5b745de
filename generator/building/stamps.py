"""Stamps: a hash of what the file system says of some files (size, times, inode, type), so a
build can tell that none was added, removed, written or touched without reading them.

A file's change time (ctime) moves whenever its bytes or its other times are changed, and no
program can set it back, so equal stamps mean the same bytes, with one exception that git calls
"racy": a file written again within the file system's clock tick of its last change (a whole
second on some) keeps its times. So, as git does, a file that changed less than RACY_SECONDS
before it was stamped is named in the stamp (ContentStamp.racy), and the build that stamped it
keeps a hash of what it read of it: the next one compares that. (A file system that keeps no
change time of its own, as FAT, gives its modified time: a tool that set that back, the size
unchanged, would go unseen there, as it would by git.)
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..content.documents import PAPERS_DIR, paper_names, read_content_file
from ..model.errors import BuildFailed, ContentError, display_path
from ..model.records import SourceFile

Look = tuple[int, int, int, int, int] | None
"""(size, modified, changed, inode, type) of a path, None where there is none."""
SITE_YAML = "site.yaml"
RACY_SECONDS = 2
"""A file changed less than this before it was stamped is racy: past a tick of any file system's
clock (FAT's is 2 s), a later write moves its times."""


def looks(top: str, paths: list[str], follow: bool = False) -> list[Look]:
    """The Look of each path below `top`; with `follow`, of what a symbolic link points to."""
    found: list[Look] = []
    append, stat = found.append, os.stat if follow else os.lstat  # why: 58,577 at 10,000 papers
    for path in paths:
        try:
            seen = stat(f"{top}/{path}")
        except OSError:
            append(None)
        else:
            append((seen.st_size, seen.st_mtime_ns, seen.st_ctime_ns, seen.st_ino, seen.st_mode))
    return found


def stamp(found: list[Look] | list[object]) -> bytes:
    """A hash of what looks() found (and of any other plain values given with it)."""
    return hashlib.sha256(marshal.dumps(found)).digest()


@dataclass(frozen=True)
class ContentStamp:
    """What the file system says of a content folder as a build reads it."""

    stamp: bytes
    """A hash of site.yaml's, the papers' folder's and each paper file's Look (a linked file's
    own), and of the paper files' names."""
    racy: frozenset[str]
    """The files, as `site.yaml` and `papers/NAME.md`, that changed too recently for a later
    change to show in their times: what was read of them is compared (see above)."""
    papers: dict[str, Look] = field(default_factory=dict)
    """Each paper file's Look, by its name as `papers/NAME.md`."""


def content_stamp(content: Path) -> ContentStamp:
    """The stamp of a content folder as a build reads it."""
    names = [f"{PAPERS_DIR}/{name}" for name in paper_names(content / PAPERS_DIR)]
    found = looks(os.fspath(content), [SITE_YAML, PAPERS_DIR] + names, follow=True)
    recent = now() - RACY_SECONDS * 10**9
    racy = frozenset(name for name, look in zip([SITE_YAML, ""] + names, found)
                     if name and look and look[2] > recent)
    return ContentStamp(stamp([*found, tuple(names)]), racy, dict(zip(names, found[2:])))


def now() -> int:
    """The time, in nanoseconds (file times' unit)."""
    return time.time_ns()


def bytes_digest(data: bytes) -> bytes:
    """The hash a stamp's racy file is compared by."""
    return hashlib.sha256(data).digest()


def same_bytes(content: Path, digests: dict[str, bytes]) -> bool:
    """Whether each file below `content` named in `digests` still has the bytes so hashed."""
    folder = os.fspath(content)  # why: a str joined, not a Path made per file (10,000 of them)
    try:
        return all(bytes_digest(read_content_file(f"{folder}/{name}")) == digest
                   for name, digest in digests.items())
    except OSError:
        return False


class SourceChanged(BuildFailed):
    """A paper file not read (UnreadSource) no longer holds the bytes its stamp vouched for."""

    def __reduce__(self) -> tuple[object, ...]:  # why: raised in a worker, sent back pickled
        return type(self), (self.errors,)


class UnreadSource(SourceFile):
    """A paper file, `name` in `folder`, that a build does not read: its stamp vouches that it
    holds the bytes the last build read (building/pipeline.py), whose hash was `digest`. Read
    when its bytes are asked for (its checking was not kept), here or in the worker it is sent
    to (pickled as it is: raised while a pool's feeder thread pickled it, an exception left the
    pool's shutdown hanging), and then only if it still holds them; else SourceChanged: it
    changed after this build stamped it."""

    def __init__(self, folder: Path, name: str, digest: bytes) -> None:
        object.__setattr__(self, "folder", folder)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "digest", digest)
        object.__setattr__(self, "_read", None)

    @property  # type: ignore[override]
    def path(self) -> Path:  # why: made when asked (a Path each: ~0.025 s at 10,000 papers)
        return self.folder / self.name

    @property  # type: ignore[override]
    def data(self) -> bytes:
        if self._read is None:
            try:
                data = read_content_file(self.path)
            except OSError as error:  # why: deleted, or made a folder, since it was stamped
                raise self._changed() from error
            if bytes_digest(data) != self.digest:
                raise self._changed()
            object.__setattr__(self, "_read", data)
        return self._read

    def _changed(self) -> SourceChanged:
        return SourceChanged([ContentError(display_path(self.path), 1, (
            "changed while the build was reading the papers; build again"))])
