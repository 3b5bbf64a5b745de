"""Writing the site atomically: a sibling temp folder swapped into place, or nothing at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

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


def write_site(files: list[OutputFile], out: Path) -> WriteReport:
    """Make `out` hold exactly `files`; a failure leaves the previous `out` as it was."""
    _check_replaceable(out)
    old = _existing(out)
    if set(old) == {f.path for f in files} and all(_same(old[f.path], f.data) for f in files):
        return WriteReport(0, len(files), 0, sum(len(f.data) for f in files))
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    staging.chmod(0o755)  # why: mkdtemp makes it private; a web server must read the site.
    try:
        written = sum(_place(f, staging, old.get(f.path)) for f in sorted(files, key=lambda f: f.path))
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    removed = len(set(old) - {f.path for f in files})
    return WriteReport(written, len(files) - written, removed, sum(len(f.data) for f in files))


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
    target.parent.mkdir(parents=True, exist_ok=True)
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
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    retired.rmdir()
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
