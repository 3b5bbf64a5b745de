"""Writing the site atomically: a sibling temp folder swapped into place, or nothing at all."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Protocol

from . import urls as paths
from .background import Background
from .freshness import files_below
from .staging import mirror_or_empty, remove_files, retire, take_spare, temp_prefix
from .records import OutputFile


class OutputRefused(Exception):
    """The output folder holds something that is not a site we built; we will not replace it."""


Stamps = dict[str, list]
"""Produced file's path -> [key, size, mtime_ns, inode] as a build left it: while the file
is still so and its key the same, the next build links it instead of making it again."""


@dataclass(frozen=True)
class WriteReport:
    """What a write did: files written anew and files kept because their bytes were equal."""

    written: int
    unchanged: int
    removed: int
    total_bytes: int
    reused: int = 0
    """Produced files linked from the last build by their key, without being made again."""
    stamps: Stamps = field(default_factory=dict, compare=False)
    """How the produced files were left, for the next build's `before`."""
    files: dict[str, list[int]] = field(default_factory=dict, compare=False)
    """[size, mtime_ns] of every file of the site, as left."""


class Producer(Protocol):
    """Files made one at a time, by number: the writer makes and places each, never holding all."""

    def __len__(self) -> int: ...

    def keys(self) -> list[tuple[str, str]]:
        """Each file's (path, a hash of everything its bytes depend on), by number, without
        making it. All at once: asked one by one, the calls cost more than the hashing."""

    def make(self, number: int) -> OutputFile: ...

    def near(self, number: int) -> int:
        """Where in the site's order of papers the file's papers are (-1: none or all): files
        near each other share work, such as the cards of a list page, so one worker makes them."""


PARALLEL_FROM = 200
"""Fewer produced files than this are made in this process: workers take ~0.2 s to start."""


def write_site(files: list[OutputFile], out: Path, produced: Producer | None = None,
               workers: int = 1, before: Stamps | None = None, spare: Path | None = None,
               later: Callable[[], list[OutputFile]] = list,
               staged: Callable[[], Job] | None = None) -> WriteReport:
    """Make `out` hold exactly `files`, the produced ones and those `later` gives once the
    others are placed (files made meanwhile elsewhere); a failure leaves the previous `out`
    as it was. Produced files are made and written by `workers` processes, except those
    whose key and file are as the last build's `before` stamps say: those are linked. With a
    `spare` folder, the retired site is kept there and staged in next time (see staging.py).
    `staged`, if given, stages the site in place of stage_site(out, spare) (see
    staged_meanwhile)."""
    job = staged() if staged else stage_site(out, spare)
    try:
        placed = [_place_file(f, job) for f in files]
        placed += _place_produced(produced, job, before or {}, workers) if produced else []
        placed += [_place_file(f, job) for f in later()]
        report = _report(placed, job.old)
        if job.mirrored:
            remove_files(job.staging, set(job.old) - {p.path for p in placed})
        if report.written or report.removed:
            _swap(job.staging, out, spare)
        else:  # why: the site is already exactly this; leave every file and folder untouched
            retire(job.staging, spare)
    except BaseException:
        shutil.rmtree(job.staging, ignore_errors=True)
        raise
    return report


def stage_site(out: Path, spare: Path | None) -> Job:
    """The folder a new `out` is put together in, and what `out` holds now. OutputRefused if
    `out` is not a site this generator built. The staging folder, the spare if there is one,
    is made a mirror of `out` (see staging.py)."""
    staging = _take_staging(out, spare)
    return Job(staging, *_mirrored(out, staging))


@contextmanager
def staged_meanwhile(out: Path, spare: Path | None, fork: bool) -> Iterator[Callable[[], Job]]:
    """What write_site's `staged` asks for: stage_site(out, spare), with its linking (~0.25 s
    at 10,000 papers, ~1 s without a spare) forked now (`fork`), or else all done when first
    asked for.

    Forked, this process takes the staging folder first, so it always knows where it is: a
    build that fails before it writes keeps it as the spare, mirrored or half so (the next
    build's mirror puts right what differs)."""
    if not fork or not _replaceable(out):
        yield partial(stage_site, out, spare)
        return
    staging = _take_staging(out, spare)
    try:
        with Background(partial(_mirrored, out, staging), fork=True) as mirroring:
            yield lambda: Job(staging, *mirroring.result())
    finally:
        if staging.is_dir():  # why: write_site, once called, swaps it in, retires or deletes it
            retire(staging, spare)


def prepare_spare(out: Path, spare: Path) -> bool:
    """Make `spare` a mirror of `out` if there is no spare yet: a build into an empty `out`
    leaves none, so the next would stage the site by linking every file of it (~1 s at
    10,000 papers, on the path of an edit). For idle time, such as a preview server has
    between saves; True if a spare was made and kept."""
    if spare.exists() or not out.is_dir() or not _replaceable(out) or not _same_device(out, spare):
        return False
    staging = take_spare(out, None)
    try:
        if _mirrored(out, staging)[1]:
            retire(staging, spare)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # why: gone once retired, else unwanted
    return spare.is_dir()


def _same_device(out: Path, spare: Path) -> bool:
    """Whether a folder beside `out` can be renamed to `spare` (not across file systems), so a
    spare made ahead is not made only to be deleted, idle period after idle period."""
    where = spare.parent
    while not where.exists() and where.parent != where:  # why: retire makes what is missing
        where = where.parent
    try:
        return os.stat(out.parent).st_dev == os.stat(where).st_dev
    except OSError:
        return False


def _take_staging(out: Path, spare: Path | None) -> Path:
    _check_replaceable(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return take_spare(out, spare)


def _mirrored(out: Path, staging: Path) -> tuple[dict[str, str], bool]:
    """What `out` holds (see Job.old), and whether `staging` now mirrors it."""
    old, inodes = _existing(out)
    return old, mirror_or_empty(staging, out, inodes)


class Job(NamedTuple):
    """Where files are staged and what the site held before."""

    staging: Path
    old: dict[str, str]
    """The current site's files (where they are), by path."""
    mirrored: bool
    """The staging folder already holds a hard link to each of them."""


class Placed(NamedTuple):
    """One file put in the staging folder."""

    path: str
    written: int
    """1 if written anew, 0 if the old file was linked."""
    size: int
    mtime_ns: int
    stamp: list | None = None
    """For a produced file: its Stamps row."""
    reused: bool = False
    """A produced file linked by its stamp, without being made."""


def _report(placed: list[Placed], old: dict[str, str]) -> WriteReport:
    paths = {p.path for p in placed}
    if len(paths) != len(placed):
        raise ValueError("two output files have the same path")
    written = sum(p.written for p in placed)
    return WriteReport(written, len(placed) - written, len(set(old) - paths),
                       sum(p.size for p in placed), sum(p.reused for p in placed),
                       {p.path: p.stamp for p in placed if p.stamp is not None},
                       {p.path: [p.size, p.mtime_ns] for p in placed})


_job: tuple[Producer, Job] | None = None
"""What forked writers make and where they put it (inherited, never pickled)."""


def _place_produced(produced: Producer, job: Job, before: Stamps, workers: int) -> list[Placed]:
    """Link the files still as the last build left them, then make the others, in `workers`
    processes when there are enough of them to pay for starting those."""
    global _job
    _job = (produced, job)
    try:
        placed, to_make = [], []
        for number, (path, key) in enumerate(produced.keys()):
            kept = _kept_as_left(path, key, job, before.get(path))
            if kept is None:
                to_make.append((number, path, key))
            else:
                placed.append(kept)
        if workers < 2 or len(to_make) < PARALLEL_FROM:
            return placed + _make_all(to_make)
        # why: in site order, each worker's share of list pages shows much the same papers, so
        # their cards are made once, not once per worker (at 10,000 papers: ~1.5 s of CPU)
        to_make.sort(key=lambda item: produced.near(item[0]))
        step = max(1, len(to_make) // (workers * 8))
        parts = [to_make[start:start + step] for start in range(0, len(to_make), step)]
        # why: fork hands the plan to the workers without pickling it; each file is made on
        # its own, so the bytes do not depend on which worker made it
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            return placed + [one for part in pool.map(_make_all, parts) for one in part]
    finally:
        _job = None


def _kept_as_left(path: str, key: str, job: Job, stamp: list | None) -> Placed | None:
    """The last build's file, put in the staging folder, if its key and file are as it left
    them; None if it must be made."""
    previous = job.old.get(path)
    if previous is None or not _as_left(previous, stamp, key):
        return None
    assert stamp is not None
    if job.mirrored:  # why: staging holds a link to the very file: its stamp is as it was
        return Placed(path, 0, stamp[1], stamp[2], stamp, reused=True)
    target = os.path.join(job.staging, path)  # why: no Path objects for 10,000 reused pages
    return _stamped(path, target, key, _keep(previous, target, job), reused=True)


def _make_all(to_make: list[tuple[int, str, str]]) -> list[Placed]:
    """Make and place produced files given as (number, path, key)."""
    assert _job is not None
    produced, job = _job
    return [_stamped(path, os.path.join(job.staging, path), key,
                     _place(produced.make(number), job), reused=False)
            for number, path, key in to_make]


def _stamped(path: str, target: str, key: str, written: int, reused: bool) -> Placed:
    stat = os.stat(target)
    stamp = [key, stat.st_size, stat.st_mtime_ns, stat.st_ino]
    return Placed(path, written, stat.st_size, stat.st_mtime_ns, stamp, reused)


def _as_left(previous: str, stamp: list | None, key: str) -> bool:
    """Whether `previous` is the file a build made from inputs with this key, untouched since."""
    if not stamp or stamp[0] != key:
        return False
    try:
        stat = os.stat(previous)
    except OSError:
        return False
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino] == stamp[1:]


def temp_folders(out: Path) -> set[Path]:
    """The sibling folders write_site makes while it works: the new site being staged and the
    old one being retired."""
    return {p for kind in ("tmp", "old") for p in out.parent.glob(temp_prefix(out, kind) + "*")}


def _replaceable(out: Path) -> bool:
    try:
        _check_replaceable(out)
        return True
    except OutputRefused:
        return False


def _check_replaceable(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out} is a file, not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not (out / paths.NOJEKYLL).exists():
        raise OutputRefused(f"{out} is not empty and is not a site this generator built; "
                            "choose a new or empty --out folder so nothing of yours is replaced")


def _existing(out: Path) -> tuple[dict[str, str], dict[str, int]]:
    """Where the site's files are and their inodes, by path."""
    found = files_below(str(out)) if out.is_dir() else []
    return ({name: entry.path for name, entry in found},
            {name: entry.inode() for name, entry in found})


def _same(path: str, data: bytes) -> bool:
    if os.stat(path).st_size != len(data):
        return False
    with open(path, "rb") as file:
        return file.read() == data


def _place_file(file: OutputFile, job: Job) -> Placed:
    written = _place(file, job)
    stat = os.stat(os.path.join(job.staging, file.path))
    return Placed(file.path, written, stat.st_size, stat.st_mtime_ns)


def _place(file: OutputFile, job: Job) -> int:
    """Put one file in the staging folder; 1 if written anew, 0 if the old file was reused."""
    target = job.staging / file.path
    previous = job.old.get(file.path)
    if previous is not None and _same(previous, file.data):
        return _keep(previous, str(target), job)
    if previous is not None and job.mirrored:
        target.unlink()  # why: it is the live site's file, linked: write a new one, not into it
    target.parent.mkdir(parents=True, exist_ok=True)  # why: exist_ok, as workers race to make it
    target.write_bytes(file.data)
    return 1


def _keep(previous: str, target: str, job: Job) -> int:
    """Put the old file in the staging folder (a mirror has it already); 0: nothing written."""
    if job.mirrored:
        return 0
    os.makedirs(os.path.dirname(target), exist_ok=True)
    # why: an unchanged file keeps its inode and mtime, so rsync and browsers see no change.
    try:
        os.link(previous, target)
    except OSError:
        shutil.copy2(previous, target)
    return 0


def _swap(staging: Path, out: Path, spare: Path | None) -> None:
    if not out.exists():
        staging.rename(out)
        return
    retired = Path(tempfile.mkdtemp(prefix=temp_prefix(out, "old"), dir=out.parent))
    retired.rmdir()
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    retire(retired, spare)
