"""Knowing, cheaply, that a build would write exactly what the output folder already holds.

The build is deterministic, so the same inputs give the same bytes. A fingerprint of every
input (the content files, templates, static files, the npm libraries the site ships, the
generator's code and its libraries' versions, the options and SOURCE_DATE_EPOCH) is kept with a
list of the files written (size and mtime). When both match, nothing would change and the
build stops early; anything else, including an edited or deleted output file, builds in full.

The fingerprint hashes file contents and names, so a file touched but unchanged is no change.
Reading every input each time is slow on a large digest, so, as git's index does, a table
beside the build record keeps each input's stat (size, mtime, ctime, inode) and content hash;
a file whose stat is unchanged reuses its hash and is not read. A file changed within RACY_NS
of the scan that hashed it could have been edited again in the same clock tick without its
stat showing it, so it is read again until a later scan sees it settled ("racy", in git's
words; ctime, which no program can set back, catches most of these too). The table is
rewritten whole beside itself and renamed over, and one missing or unreadable is as empty:
every file is then read, as before there was a table.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from .memo import LIBRARIES, library_version, read_kept, write_aside

RACY_NS = 2_000_000_000
"""How close to a scan a file's timestamps make it suspect: file systems keep times as coarsely
as 2 s (FAT), and an edit inside one tick leaves the stat as it was."""

NOT_INPUTS = frozenset({"__pycache__"})
"""Folders skipped among the inputs: Python's bytecode, rewritten by merely running the code."""


@dataclass(frozen=True)
class Inputs:
    """What a build reads, for its fingerprint."""

    content: Path
    project: Path
    options: str
    """The build options that change output (base URL, drafts), as text."""


@dataclass
class Scan:
    """What a fingerprint saw of each input file, by absolute path."""

    hashes: dict[str, str] = field(default_factory=dict)
    """Its sha256."""
    stats: dict[str, list[int]] = field(default_factory=dict)
    """Its [size, mtime_ns, ctime_ns, inode]."""
    table: tuple[Path, int, dict[str, list]] | None = None
    """The input table to write (path, scan time, rows), if it changed: keep_table writes it."""


def fingerprint(inputs: Inputs, record: Path | None = None, scan: Scan | None = None) -> str:
    """A hash of every byte and setting the build's output depends on. Given the build's
    `record`, files as the last fingerprint saw them are not read again. `scan`, if given,
    gets what was seen of each input file, and the input table to write with keep_table
    (a build writes it once the site is in place); without it, the table is written now."""
    table = record.with_suffix(".inputs.json") if record else None
    last_scan, known = _load_table(table) if table else (0, {})
    started = time.time_ns()  # why: taken before any stat, so an edit racing this scan is racy
    digest = hashlib.sha256(_settings(inputs))
    rows, read = {}, 0
    for name, entry in _input_files(inputs):
        old = known.get(entry.path)
        rows[entry.path] = row = _row(entry, old, last_scan)
        read += row is not old
        # why: a file name that is not UTF-8 reaches Python as surrogates: its own bytes back
        digest.update(f"{name}\0{row[4]}".encode("utf-8", "surrogateescape"))
        if scan is not None:
            scan.hashes[entry.path], scan.stats[entry.path] = row[4], row[:4]
    # why: rewritten after a read even if equal, so the newer scan time lets racy rows settle
    if table and (read or rows.keys() != known.keys()):
        if scan is None:
            _save_table(table, started, rows)
        else:
            scan.table = (table, started, rows)
    return digest.hexdigest()


def keep_table(scan: Scan) -> None:
    """Write the input table `scan` saw, if it changed (see fingerprint)."""
    if scan.table is not None:
        _save_table(*scan.table)
        scan.table = None


def unchanged_since(inputs: Inputs, scan: Scan) -> bool:
    """Whether every input file is still as `scan` saw it and no file came or went: a stat of
    each, not a fingerprint. A file changed within the same clock tick as the scan could still
    look the same, but the scan's fingerprint saw it as racy and the next one reads it again."""
    seen = 0
    for _, entry in _input_files(inputs, ordered=False):
        try:
            stat = entry.stat()
        except FileNotFoundError:  # why: gone since it was listed (an editor's temporary file)
            return False
        if scan.stats.get(entry.path) != [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns,
                                          stat.st_ino]:
            return False
        seen += 1
    return seen == len(scan.stats)


def fresh_files(record: Path, out: Path, key: str) -> dict[str, list[int]] | None:
    """The output's files (size, mtime) when the last build had this fingerprint and they are
    still as it left them; None when a build has work to do."""
    last = read_kept(record, _read_json)
    if not isinstance(last, dict) or last.get("key") != key:
        return None
    files, folders = last.get("files"), last.get("folders")
    if not isinstance(files, dict) or not isinstance(folders, dict):
        return None
    return files if _as_listed(out, files, folders) else None


def remember(record: Path, out: Path, key: str, files: dict[str, list[int]]) -> None:
    """Keep the fingerprint of a build that just succeeded, the [size, mtime_ns] of each file it
    left in `out` (as its writer saw them: no walk of the tree again) and each folder's mtime."""
    _write_aside(record, {"key": key, "files": files, "folders": _folder_times(out, files)})


def _as_listed(out: Path, files: dict[str, list], folders: dict[str, int]) -> bool:
    """Whether every listed file has its size and mtime and every listed folder its mtime.

    A folder's mtime changes whenever an entry is added to it, removed or renamed, so stat-ing
    the listed paths sees a new file as surely as walking the tree, in half the time."""
    top = str(out)
    try:
        return all(os.stat(os.path.join(top, name)).st_mtime_ns == mtime
                   for name, mtime in folders.items()) and \
            all(_size_and_mtime(os.stat(os.path.join(top, name))) == row
                for name, row in files.items())
    except OSError:
        return False


def _size_and_mtime(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns]


def made_before(record: Path) -> dict[str, list]:
    """The stamps of the pages the last build made (see output.Stamps); none if unreadable."""
    stamps = read_kept(_stamps_path(record), _read_json)
    return stamps if isinstance(stamps, dict) else {}


def remember_made(record: Path, stamps: dict[str, list]) -> None:
    """Keep the stamps of the pages this build made, for the next build to link, not remake."""
    try:
        _write_aside(_stamps_path(record), stamps)
    except OSError:
        pass  # why: the stamps only save time; without them every page is made


def _stamps_path(record: Path) -> Path:
    return record.with_suffix(".pages.json")


def spare_folder(record: Path) -> Path:
    """Where the site before last is kept, for the next build to stage in (see staging.py)."""
    return record.with_suffix(".spare")


def kept_file(record: Path, step: str) -> Path:
    """Where results of one pure step are kept for the next build (see memo.KeptValues)."""
    return record.with_suffix(f".{step}.pickle")


def record_path(cache: Path, out: Path) -> Path:
    """Where the last build into `out` is remembered."""
    return cache / "builds" / (hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16] + ".json")


def _settings(inputs: Inputs) -> bytes:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    versions = "".join(f"{name}={library_version(name)}\0" for name in LIBRARIES)
    return f"{inputs.options}\0{epoch}{versions}".encode()


def _input_files(inputs: Inputs, ordered: bool = True) -> list[tuple[str, os.DirEntry[str]]]:
    """(path below its folder, entry) for every input file, folder by folder, by path when
    `ordered` (as a fingerprint needs them), else in no order."""
    project = inputs.project
    folders = [inputs.content, project / "templates", project / "static", project / "generator",
               project / "node_modules" / "lunr"]
    listed = [files_below(os.path.abspath(folder), NOT_INPUTS) for folder in folders]
    return [found for files in listed
            for found in (sorted(files, key=_by_name) if ordered else files)]


def _by_name(found: tuple[str, os.DirEntry[str]]) -> str:
    return found[0]


def _row(entry: os.DirEntry[str], known: object, last_scan: int) -> list:
    """[size, mtime_ns, ctime_ns, inode, sha256] of a file: the table's own row if the file's
    stat is as it was and it had settled by the last scan, else a new row from reading it."""
    stat = entry.stat()
    row = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]
    if isinstance(known, list) and len(known) == 5 and known[:4] == row \
            and max(stat.st_mtime_ns, stat.st_ctime_ns) < last_scan - RACY_NS:
        return known
    return row + [_hash_file(entry.path)]


def _hash_file(path: str) -> str:
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def _load_table(table: Path) -> tuple[int, dict[str, object]]:
    """When the last scan began and what it saw; nothing (hash everything) if unreadable."""
    data = read_kept(table, _read_json)
    try:
        scan, files = data["scan_ns"], data["files"]
    except (TypeError, KeyError):
        return 0, {}
    if not (isinstance(scan, int) and isinstance(files, dict)):
        return 0, {}
    return scan, files


def _save_table(table: Path, scan: int, files: dict[str, list]) -> None:
    try:
        _write_aside(table, {"scan_ns": scan, "files": files})
    except OSError:
        pass  # why: the table only saves time; the next fingerprint hashes what it must


def _write_aside(path: Path, data: object) -> None:
    """Write `data` as JSON, atomically (see memo.write_aside). It holds only dicts with text
    keys, lists, text and numbers, so it reads back equal to itself (memo.read_kept)."""
    write_aside(path, json.dumps(data).encode("utf-8"), holds=data)


def _read_json(path: Path) -> object:
    """What a JSON file holds; None if it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _folder_times(out: Path, files: dict[str, list[int]]) -> dict[str, int]:
    """The mtime of every folder holding `files`, up to `out`: a file added, removed or renamed
    there shows in it."""
    folders = {""}
    for name in files:  # why: names use '/' (see files_below); rpartition is 4x dirname's speed
        folder = name.rpartition("/")[0]
        while folder not in folders:  # why: each folder up to the top, each once
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    top = os.path.join(out, "")
    return {folder: os.stat(top + folder).st_mtime_ns for folder in folders}


def files_below(top: str,
                prune: frozenset[str] = frozenset()) -> list[tuple[str, os.DirEntry[str]]]:
    """(path below `top` with '/', entry) for every file, in no order. As with Path.rglob,
    symlinked files count and symlinked folders are not followed."""
    found, folders = [], [("", top)]
    while folders:  # why: a stack, not recursion: nested generators cost more than the I/O
        prefix, folder = folders.pop()
        try:
            listing = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in prune:
                        folders.append((prefix + entry.name + "/", entry.path))
                elif entry.is_file():
                    found.append((prefix + entry.name, entry))
    return found
