"""Writing the site atomically: a sibling temp folder swapped into place, or nothing at all."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from . import urls as paths
from .records import OutputFile


class OutputRefused(Exception):
    """The output folder holds something that is not a site we built; we will not replace it."""


@dataclass(frozen=True)
class WriteReport:
    """What a write did: files written anew and files kept because their bytes were equal."""

    written: int
    unchanged: int
    removed: int
    total_bytes: int


class Producer(Protocol):
    """Files made one at a time, by number: the writer makes and places each, never holding all."""

    def __len__(self) -> int: ...

    def make(self, number: int) -> OutputFile: ...


PARALLEL_FROM = 200
"""Fewer produced files than this are made in this process: workers take ~0.2 s to start."""


def write_site(files: list[OutputFile], out: Path, produced: Producer | None = None,
               workers: int = 1) -> WriteReport:
    """Make `out` hold exactly `files` and the produced ones; a failure leaves the previous
    `out` as it was. Produced files are made and written by `workers` processes."""
    _check_replaceable(out)
    old = _existing(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_temp_prefix(out, "tmp"), dir=out.parent))
    staging.chmod(0o755)  # why: mkdtemp makes it private; a web server must read the site.
    try:
        placed = [(f.path, _place(f, staging, old.get(f.path)), len(f.data)) for f in files]
        placed += _place_produced(produced, staging, old, workers) if produced else []
        report = _report(placed, old)
        if report.written or report.removed:
            _swap(staging, out)
        else:  # why: the site is already exactly this; leave every file and folder untouched
            shutil.rmtree(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return report


Placed = tuple[str, int, int]
"""(path, 1 if written anew else 0, bytes) for each file placed."""


def _report(placed: list[Placed], old: dict[str, Path]) -> WriteReport:
    paths = {path for path, _, _ in placed}
    if len(paths) != len(placed):
        raise ValueError("two output files have the same path")
    written = sum(new for _, new, _ in placed)
    return WriteReport(written, len(placed) - written, len(set(old) - paths),
                       sum(size for _, _, size in placed))


_job: tuple[Producer, Path, dict[str, Path]] | None = None
"""What forked writers make and where they put it (inherited, never pickled)."""


def _place_produced(produced: Producer, staging: Path, old: dict[str, Path],
                    workers: int) -> list[Placed]:
    global _job
    count = len(produced)
    _job = (produced, staging, old)
    try:
        if workers < 2 or count < PARALLEL_FROM:
            return _place_range((0, count))
        step = max(1, count // (workers * 8))
        ranges = [(start, min(start + step, count)) for start in range(0, count, step)]
        # why: fork hands the plan to the workers without pickling it; each file is made on
        # its own, so the bytes do not depend on which worker made it
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            return [placed for part in pool.map(_place_range, ranges) for placed in part]
    finally:
        _job = None


def _place_range(bounds: tuple[int, int]) -> list[Placed]:
    assert _job is not None
    produced, staging, old = _job
    placed = []
    for number in range(*bounds):
        file = produced.make(number)
        placed.append((file.path, _place(file, staging, old.get(file.path)), len(file.data)))
    return placed


def temp_folders(out: Path) -> set[Path]:
    """The sibling folders write_site makes while it works: the new site being staged and the
    old one being retired."""
    return {p for kind in ("tmp", "old") for p in out.parent.glob(_temp_prefix(out, kind) + "*")}


def _temp_prefix(out: Path, kind: str) -> str:
    return f".{out.name}.{kind}-"


def _check_replaceable(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out} is a file, not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not (out / paths.NOJEKYLL).exists():
        raise OutputRefused(f"{out} is not empty and is not a site this generator built; "
                            "choose a new or empty --out folder so nothing of yours is replaced")


def _existing(out: Path) -> dict[str, Path]:
    if not out.is_dir():
        return {}
    return {p.relative_to(out).as_posix(): p for p in out.rglob("*") if p.is_file()}


def _same(path: Path, data: bytes) -> bool:
    return path.stat().st_size == len(data) and path.read_bytes() == data


def _place(file: OutputFile, staging: Path, previous: Path | None) -> int:
    """Put one file in the staging folder; 1 if written anew, 0 if the old file was reused."""
    target = staging / file.path
    target.parent.mkdir(parents=True, exist_ok=True)  # why: exist_ok, as workers race to make it
    if previous is not None and _same(previous, file.data):
        # why: an unchanged file keeps its inode and mtime, so rsync and browsers see no change.
        try:
            os.link(previous, target)
        except OSError:
            shutil.copy2(previous, target)
        return 0
    target.write_bytes(file.data)
    return 1


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        staging.rename(out)
        return
    retired = Path(tempfile.mkdtemp(prefix=_temp_prefix(out, "old"), dir=out.parent))
    retired.rmdir()
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
