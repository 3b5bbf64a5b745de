"""Writing an import's files without losing anything: each through a temp file and a rename,
keeping an existing file's mode and group and a symlink's link, and stopping on the first
write that fails (a full disk) with what was written before it."""

from __future__ import annotations

import errno
import os
import re
import secrets
from pathlib import Path

TEMP = re.compile(r"^\..+\.md\.[A-Za-z0-9_]{8}\.tmp$")
"""A temp file of write_atomically: '.<name>.md.<8 characters>.tmp'."""


class WriteStopped(Exception):
    """A file could not be written (the disk is full, say): the ones before it were."""

    def __init__(self, written: tuple[Path, ...], path: Path, reason: str):
        self.written = written
        """The files written before it, in order."""
        self.path = path
        self.reason = reason
        """The system's words: 'No space left on device'."""
        self.plan = None
        """The import plan being written, when the importer knows it (see merge.apply_plan)."""
        super().__init__(f"{path}: {reason}")


def write_all(files: list[tuple[Path, str]]) -> None:
    """Write every (path, text) in order; WriteStopped at the first that fails."""
    written: list[Path] = []
    for path, text in files:
        try:
            write_atomically(path, text)
        except OSError as error:
            raise WriteStopped(tuple(written), path,
                               error.strerror or str(error)) from None
        written.append(path)


def write_atomically(path: Path, text: str) -> None:
    """Write `text` as UTF-8 beside `path`, then move it into place in one step: a reader
    (or `serve`'s watcher) never sees half a file. A new file gets the mode the umask gives
    (as any editor's would); an existing one keeps its mode and group; a symlink stays a link,
    and the file it points at is the one updated."""
    # why: replacing the link itself would cut it from the shared file it points at
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    # why: a leading dot and no '.md' at the end, so a temp file left by a crash is never read
    # as a paper; remove_stale_temps finds it by this name
    temp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
    # why: 0o666 through the umask, as open() creates files; mkstemp would give 0o600
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            if found is not None:
                _keep_owner_and_mode(out.fileno(), found)
            out.write(text.encode("utf-8"))
        os.replace(temp, target)
    except BaseException:
        os.unlink(temp)
        raise


def _keep_owner_and_mode(handle: int, found: os.stat_result) -> None:
    try:
        os.fchown(handle, -1, found.st_gid)
    except OSError as error:  # why: only the owner's groups may be given; the mode still is
        if error.errno not in (errno.EPERM, errno.EACCES):
            raise
    os.fchmod(handle, found.st_mode & 0o7777)


def remove_stale_temps(folder: Path) -> list[Path]:
    """Remove the temp files an import killed mid-write left in `folder` (SIGKILL, a power
    cut); the ones removed."""
    try:
        names = sorted(name for name in os.listdir(folder) if TEMP.match(name))
    except (FileNotFoundError, NotADirectoryError):
        return []
    removed = []
    for name in names:
        try:
            (folder / name).unlink()
            removed.append(folder / name)
        except FileNotFoundError:
            continue
    return removed
