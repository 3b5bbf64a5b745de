"""The folder a site is staged in before it is swapped into place: the site before last, kept
as a spare, or else a new folder; either is first made a mirror of the current site.

Staging a whole site afresh means making every folder and linking every unchanged file again,
and retiring the old site means deleting as many: at 10,000 papers, 11,000 of each, seconds of
work for an edit that changes ten files. So a build with a cache keeps the site it retires as a
spare. The next build first makes the spare mirror the current site (hard links; only files
whose inode differs are touched), then changes only what changed. Nothing in the spare is ever
written into: a file to change is unlinked and written anew, so the live site's inodes, which
the spare shares, are never modified.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .freshness import files_below


def take_spare(out: Path, spare: Path | None) -> Path:
    """A staging folder beside `out`: the spare, moved there, or else a new empty one."""
    staging = _new_folder(out)
    if spare is None or not spare.is_dir():
        return staging
    try:
        staging.rmdir()
        os.rename(spare, staging)
        return staging
    except OSError:  # why: a spare in another file system or in an odd state; start afresh
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(spare, ignore_errors=True)
        return _new_folder(out)


def mirror_or_empty(staging: Path, out: Path, current: dict[str, int]) -> bool:
    """Make `staging` (the spare, taken, or a new empty folder) mirror the current site, whose
    files' inodes are `current`, by path; True once it does. If it cannot, it is emptied
    instead (False), and stays where it is."""
    try:
        _mirror(staging, out, current)
        return True
    except OSError:  # why: a spare in an odd state; start afresh, in the same place
        shutil.rmtree(staging, ignore_errors=True)
        _new_folder(out, staging)
        return False


def retire(folder: Path, spare: Path | None) -> None:
    """Keep a site that is no longer current as the spare, or delete it."""
    if spare is not None:
        try:
            shutil.rmtree(spare, ignore_errors=True)
            spare.parent.mkdir(parents=True, exist_ok=True)
            os.rename(folder, spare)
            return
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def remove_files(folder: Path, names: set[str]) -> None:
    """Delete these files of `folder` and the folders they leave empty."""
    emptied = set()
    for name in names:
        os.unlink(folder / name)
        emptied.add((folder / name).parent)
    for parent in sorted(emptied, key=lambda p: len(p.parts), reverse=True):
        while parent != folder and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def temp_prefix(out: Path, kind: str) -> str:
    """The name beginning of the sibling folders made while writing `out`."""
    return f".{out.name}.{kind}-"


def _new_folder(out: Path, where: Path | None = None) -> Path:
    """A new empty staging folder: at `where`, or a fresh temporary name beside `out`."""
    if where is None:
        staging = Path(tempfile.mkdtemp(prefix=temp_prefix(out, "tmp"), dir=out.parent))
    else:
        staging = where
        staging.mkdir()
    staging.chmod(0o755)  # why: mkdtemp makes it private; a web server must read the site.
    return staging


def _mirror(staging: Path, out: Path, current: dict[str, int]) -> None:
    """Make `staging` hold hard links to exactly the files of the current site."""
    held = {name: entry.inode() for name, entry in files_below(str(staging))}
    remove_files(staging, held.keys() - current.keys())
    for name, inode in current.items():
        if held.get(name) == inode:
            continue
        target = staging / name
        if name in held:
            os.unlink(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(out / name, target)
