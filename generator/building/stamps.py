"""Stamps: a hash of what the file system says of some files (size, times, inode, type), so a
build can tell that none was added, removed, written or touched without reading them.

A file's change time (ctime) moves whenever its bytes or its other times are changed, and no
program can set it back, so equal stamps mean the same bytes, with one exception that git calls
"racy": a file written again within the file system's clock tick of its last change (a whole
second on some) keeps its times. A stamp is therefore not given (None) while any of its files
changed less than RACY_SECONDS ago; the build then reads them all, as without a stamp.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from pathlib import Path

from ..content.documents import PAPERS_DIR, paper_names

Look = tuple[int, int, int, int, int] | None
"""(size, modified, changed, inode, type) of a path, None where there is none."""
RACY_SECONDS = 2
"""How recently a file may have changed for a stamp to be given: more than a tick of any file
system's clock (FAT's is 2 s), so a later write moves its times."""


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


def content_stamp(content: Path) -> bytes | None:
    """The stamp of a content folder as a build reads it: site.yaml, the papers' folder, the
    names of the paper files and what each is (a linked file's own); None while any of them
    changed too recently for a later change to show (see above)."""
    names = [f"{PAPERS_DIR}/{name}" for name in paper_names(content / PAPERS_DIR)]
    found = looks(os.fspath(content), ["site.yaml", PAPERS_DIR] + names, follow=True)
    newest = max((look[2] for look in found if look), default=0)
    if newest > time.time_ns() - RACY_SECONDS * 10**9:
        return None
    return stamp([*found, tuple(names)])
