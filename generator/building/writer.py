"""Writing the site atomically: a sibling folder put together, then swapped into place.

The new site is staged in a folder beside the output: files whose bytes are unchanged are hard
links to the live site's (so they keep their inode and mtime, and rsync and browsers see no
change), the others are written anew. The staged folder and the live site are then exchanged in
one step, so a reader, a web server or a build stopped at any moment sees the old site or the new
one, never a mix and never none. Builds into one folder take turns (a lock), and each first
clears what a stopped build left behind.

The site a build retires is kept beside the output as the spare (`.<name>.spare`), and the next
build stages in it: it already holds the site's folders and, as hard links, nearly all of its
files, so only what differs from the live site is linked or written again. Staging afresh made
and linked every folder and file (and retiring a site removed as many): at 10,000 papers, seconds
of file-system work for an edit of ten files. Nothing in the spare is written into: a file to
change is unlinked and written anew, as the live site shares the spare's other files.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from ..model import urls as paths
from ..model.records import OutputFile
from .stamps import looks, stamp


class OutputRefused(Exception):
    """The output folder holds something that is not a site we built; we will not replace it."""


@dataclass(frozen=True)
class KeptFile:
    """A file of the live site that the new site holds as it is (see building/files.py)."""

    path: str


@dataclass(frozen=True)
class SiteState:
    """What a write left in the output: its files, and a hash of the size, times, inode and type
    of each of them and of each folder they are in. A folder's times change when anything is
    added to it or removed from it, so the hash changes when anything below the output is
    added, removed, written or touched, and the site is not walked to see it."""

    files: tuple[str, ...] = ()
    stamp: bytes = b""


@dataclass(frozen=True)
class WriteReport:
    """What a write did: files written anew, files kept because their bytes were equal."""

    written: int
    unchanged: int
    removed: int
    total_bytes: int
    state: SiteState = field(default=SiteState(), compare=False)
    """The output as this write left it."""
    changed: tuple[str, ...] = field(default=(), compare=False)
    """The paths of the files written or removed, in no set order (the preview server reloads
    the tabs showing them: livereload.py); not kept with the last build."""


class LiveSite:
    """The output folder as a write finds it: whether it is exactly as the last write left it
    (its `last` state), and the files it holds. Looked at once, when first asked: under the
    writer's lock, when the writer asks first (write_site does, before it takes any file)."""

    def __init__(self, out: Path, last: SiteState = SiteState()) -> None:
        self.out, self._last = out, last
        self._as_left: bool | None = None
        self._looks: list[tuple[int, int, int, int, int]] = []
        self._listing: tuple[dict[str, Entry], set[str]] | None = None

    @property
    def as_left(self) -> bool:
        if self._as_left is None:
            self._as_left = bool(self._last.stamp) and self._look()
        return self._as_left

    def _look(self) -> bool:
        files = self._last.files
        found = looks(str(_real(self.out)), _entries(files))
        if stamp(found) != self._last.stamp:
            return False
        # why: the files come last in what is looked at, and none is missing in a site as left
        self._looks = [look for look in found[len(found) - len(files):] if look]
        return True

    def listing(self) -> tuple[dict[str, Entry], set[str]]:
        """Every file by its path in the site, and every folder ('' for the top): those of the
        last state when the site is as that left it, else as a walk of the folder finds them."""
        if self._listing is None and self.as_left:
            top, files = str(_real(self.out)), self._last.files
            self._listing = ({path: Entry(f"{top}/{path}", look[3], look[0])
                              for path, look in zip(files, self._looks)}, _folders(files))
        elif self._listing is None:
            self._listing = _listing(_real(self.out))
        return self._listing


def site_holds(out: Path, state: SiteState) -> bool:
    """Whether `out` is exactly as the write that left `state` left it."""
    return LiveSite(out, state).as_left


def write_site(files: Iterable[OutputFile | KeptFile], out: Path,
               live: LiveSite | None = None,
               placed_all: Callable[[WriteReport], None] = lambda report: None) -> WriteReport:
    """Make `out` hold exactly `files`, placed as they come (none is held once placed); on any
    failure the previous `out` stays as it was. `live`: `out` as the last write left it, if that
    is known (else it is walked). `placed_all` is told what was done as soon as `out` holds
    them, before their state is looked at (~0.05 s at 10,000 files)."""
    out = _real(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        _check_replaceable(out)
        clear_leftovers(out)
        live_files, folders = (live or LiveSite(out)).listing()
        staging = _staging(out)
        try:
            report, placed = _fill(staging, files, live_files, out)
            # why: else the site is exactly this already: leave every file and folder untouched
            if report.written or report.removed or folders - _folders(placed):
                os.chmod(staging, 0o755)  # why: mkdtemp made it 0700; a web server reads it
                _swap_in(staging, out)
            else:
                _retire(staging, out)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        placed_all(report)
        return replace(report, state=site_state(out, placed))  # why: under the lock


def live_digest(out: Path, path: str) -> bytes | None:
    """The sha256 of the live site's file at `path`, or None if there is none."""
    try:
        with open(os.path.join(out, path), "rb") as file:
            return hashlib.sha256(file.read()).digest()
    except OSError:
        return None


def temp_folders(out: Path) -> set[Path]:
    """The folders beside `out` that a build makes while it writes (not the spare, which stays)."""
    return {p for kind in ("tmp-", "old-") for p in out.parent.glob(_temp_prefix(out) + kind + "*")}


def site_state(out: Path, files: Iterable[str]) -> SiteState:
    """The state of `out`, which holds `files` (see SiteState)."""
    files = tuple(sorted(files))
    return SiteState(files, stamp(looks(str(_real(out)), _entries(files))))


def _entries(files: tuple[str, ...]) -> list[str]:
    """The files of a site and the folders they are in, as SiteState hashes them."""
    return sorted(_folders(files)) + list(files)


def spare_folder(out: Path) -> Path:
    """Where the site the last build retired is kept, for the next build to stage in."""
    return out.parent / f"{_temp_prefix(out)}spare"


def clear_leftovers(out: Path) -> None:
    """Remove what a build stopped midway left beside `out`; bring back the site it was
    retiring if it was stopped between the two renames of a swap without exchange."""
    for folder in sorted(temp_folders(out)):
        if not out.exists() and folder.name.startswith(_temp_prefix(out) + "old-"):
            folder.rename(out)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _real(out: Path) -> Path:
    """The folder a symlinked `out` points to: that is where the site belongs."""
    return Path(os.path.realpath(out)) if out.is_symlink() else out


def _check_replaceable(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out} is a file, not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not (out / paths.NOJEKYLL).exists():
        raise OutputRefused(f"{out} is not empty and is not a site this generator built; "
                            "choose a new or empty --out folder so nothing of yours is replaced")


class Entry(NamedTuple):
    """A file of a site folder: where it is, its inode and, when it was looked at, its size."""

    where: str
    inode: int
    size: int | None = None
    """Known for the live site as the last build left it (its look), not for a walked folder."""


def _listing(folder: Path) -> tuple[dict[str, Entry], set[str]]:
    """Every file below `folder` by its path in the site, and every folder ('' for the top)."""
    found: dict[str, Entry] = {}
    folders: set[str] = set()
    to_read = [("", str(folder))] if folder.is_dir() and not folder.is_symlink() else []
    while to_read:
        prefix, where = to_read.pop()
        folders.add(prefix.rstrip("/"))
        with os.scandir(where) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    to_read.append((prefix + entry.name + "/", entry.path))
                else:
                    found[prefix + entry.name] = Entry(entry.path, entry.inode())
    return found, folders


def _same(previous: Entry | None, data: bytes) -> bool:
    if previous is None or os.path.islink(previous.where) or len(data) != (
            os.path.getsize(previous.where) if previous.size is None else previous.size):
        return False
    with open(previous.where, "rb") as file:
        return file.read() == data


def _staging(out: Path) -> Path:
    """A folder beside `out` to stage the new site in: the spare if there is one (see above),
    else a new, empty one."""
    spare = spare_folder(out)
    staging = Path(tempfile.mkdtemp(prefix=_temp_prefix(out) + "tmp-", dir=out.parent))
    try:
        if spare.is_dir() and not spare.is_symlink():
            staging.rmdir()
            spare.rename(staging)
        else:
            _remove(str(spare))  # why: anything else there is in the way of the next spare
    except OSError:  # why: a spare that cannot be used or removed is left; staging starts empty
        staging.mkdir(exist_ok=True)
    return staging


def _fill(staging: Path, files: Iterable[OutputFile | KeptFile], live: dict[str, Entry],
          out: Path) -> tuple[WriteReport, set[str]]:
    """Make `staging` hold exactly `files`, touching only what is not so already: a file whose
    bytes the live site's has is linked to it (if staging does not hold that link already), any
    other written anew. What was done, and the paths placed."""
    there, folders_there = _listing(staging)
    # why: in a staging folder that starts empty (no spare: the first build after a cold one)
    # nothing stands in the way of a folder or a file: each is made without a look first
    # (~23,000 looks, ~0.1 s of an edit at 10,000 papers). A spare of folders alone is not
    # empty: a folder may stand where a file belongs.
    empty = not there and folders_there == {""}
    placed: set[str] = set()
    in_folders: set[str] = {""}
    size, written = 0, []
    for file in files:
        _claim(file.path, placed, in_folders)
        _make_folders(staging, file.path.rpartition("/")[0], folders_there, empty)
        target, had = f"{staging}/{file.path}", there.get(file.path)
        previous = live.get(file.path)
        if isinstance(file, KeptFile) and previous is None:
            file = _kept_bytes(file, out)
        if isinstance(file, OutputFile) and not _same(previous, file.data):
            if not empty:  # why: it may be the live site's file: write a new one, not into it
                _clear(target, had)
            _write_new(target, file)
            written.append(file.path)
            size += len(file.data)
            continue
        assert previous is not None
        if had is None or had.inode != previous.inode:
            if not empty:
                _clear(target, had)
            _link_or_copy(previous.where, target, file.path)
        # why: its size as the live site was looked at, if it was: ~12,000 files at 10,000 papers
        size += os.path.getsize(previous.where) if previous.size is None else previous.size
    for path in there.keys() - placed:
        where = there[path].where
        if os.path.islink(where) or os.path.isfile(where):  # why: a folder may stand there now
            os.unlink(where)
    for folder in sorted(folders_there - in_folders, key=len, reverse=True):
        where = os.path.join(staging, folder)
        if os.path.isdir(where) and not os.path.islink(where):  # why: a file may stand there now
            shutil.rmtree(where)
    removed = live.keys() - placed
    return WriteReport(len(written), len(placed) - len(written), len(removed), size,
                       changed=tuple(written) + tuple(removed)), placed


def _claim(path: str, placed: set[str], in_folders: set[str]) -> None:
    """`path` noted as a file of the new site, and the folders it is in; ValueError if another
    file has its path, is one of those folders, or is in it: nothing else would catch it where
    the staging folder starts empty, and a spare would lose one of the two."""
    if path in placed:
        raise ValueError(f"two output files have the same path: {path}")
    if path in in_folders:
        raise ValueError(f"an output file is also a folder of other output files: {path}")
    folder = path.rpartition("/")[0]
    while folder not in in_folders:
        if folder in placed:
            raise ValueError(f"an output file is also a folder of other output files: {folder}")
        in_folders.add(folder)
        folder = folder.rpartition("/")[0]
    placed.add(path)


def _write_new(target: str, file: OutputFile) -> None:
    """`file` written where nothing is: created, never opened as it is, so a name another file
    of the site has already (on a file system blind to case) fails here, rather than be written
    through into the live site's file it may be a link to."""
    try:
        with open(target, "xb") as handle:
            handle.write(file.data)
    except FileExistsError:
        raise _one_name(file.path) from None


def _one_name(path: str) -> OutputRefused:
    """The error of a name taken already, on a file system that takes two names for one: by
    another file of the site, or by one of the spare's, renamed since in case alone (which the
    next build, staging afresh as this one's staging folder is removed, gets past)."""
    return OutputRefused(f"{path} has another file's name on this file system, which takes upper "
                         "and lower case, or an accent written two ways, as one: if two files of "
                         "the site differ so, rename one; if a file was renamed so, build again")


def _kept_bytes(file: KeptFile, out: Path) -> OutputFile:
    """A kept file the listing of `out` does not show (behind a symlinked folder someone made
    there), read where it is, to be written as a file of the new site's own."""
    try:
        return OutputFile(file.path, (out / file.path).read_bytes())
    except OSError:
        raise OutputRefused(f"{file.path} left the output folder while the site was being "
                            "built; build again") from None


def _make_folders(staging: Path, folder: str, made: set[str], empty: bool = False) -> None:
    """`folder` and those above it in `staging`, where a file of an older site may stand,
    unless staging started `empty`."""
    missing = []
    while folder not in made:
        missing.append(folder)
        folder = folder.rpartition("/")[0]
    for folder in reversed(missing):
        where = f"{staging}/{folder}"
        if empty:
            try:
                os.mkdir(where)
            except FileExistsError:  # why: made already under another case, where case is one
                if os.path.islink(where) or not os.path.isdir(where):
                    raise _one_name(folder) from None
        else:
            if os.path.islink(where) or (os.path.lexists(where) and not os.path.isdir(where)):
                os.unlink(where)  # why: a file or link where a folder now belongs, in an odd spare
            os.makedirs(where, exist_ok=True)
        made.add(folder)


def _clear(target: str, had: Entry | None) -> None:
    """Make way for a file at `target`: the file staging holds there, or a folder of an older
    site where the file now belongs."""
    if had is not None:
        os.unlink(target)
    elif os.path.isdir(target) and not os.path.islink(target):
        shutil.rmtree(target)


def _folders(paths: set[str] | Iterable[str]) -> set[str]:
    """Every folder the `paths` are in, up to the top ('')."""
    folders = {""}
    for path in paths:
        folder = path.rpartition("/")[0]
        while folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    return folders


def _remove(where: str) -> None:
    """A folder no file belongs in any more, with anything left in it."""
    if os.path.isdir(where) and not os.path.islink(where):
        shutil.rmtree(where)
    elif os.path.lexists(where):
        os.unlink(where)


def _link_or_copy(source: str, target: str, path: str) -> None:
    """`target` (the site's `path`), where nothing is, made a link to `source`, or a copy."""
    try:
        os.link(source, target)
    except FileExistsError:  # why: copied, it would go into a folder or through another link
        raise _one_name(path) from None
    except OSError:  # why: a file system without hard links
        if os.path.lexists(target):
            raise _one_name(path) from None
        shutil.copy2(source, target)


def _retire(folder: Path, out: Path) -> None:
    """A site just replaced, or a staging folder not needed, becomes the spare; if it cannot
    (something stands where the spare goes), it is removed."""
    try:
        folder.rename(spare_folder(out))
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)


def _swap_in(staging: Path, out: Path) -> None:
    """Put `staging` where `out` is, in one step where the system allows it; the site it
    replaces becomes the spare."""
    if not out.exists():
        staging.rename(out)
        return
    if _exchange(staging, out):
        _retire(staging, out)
        return
    retired = Path(tempfile.mkdtemp(prefix=_temp_prefix(out) + "old-", dir=out.parent))
    retired.rmdir()
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    _retire(retired, out)


_RENAME_EXCHANGE = 2


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux's renameat2); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_cwd = -100
    done = renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), _RENAME_EXCHANGE)
    return done == 0


def _temp_prefix(out: Path) -> str:
    return f".{out.name}."


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold the lock of the folder `out` is in, so builds into it take turns."""
    try:
        import fcntl
    except ImportError:  # why: not on Windows; builds there do not take turns
        yield
        return
    handle = os.open(out.parent, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        # why: unlocked, not only closed: a process forked meanwhile holds the handle too (a
        # worker, or the preview server's process aside, which lives on), and would keep the
        # folder locked until it ends, each later build waiting for it
        fcntl.flock(handle, fcntl.LOCK_UN)
        os.close(handle)
