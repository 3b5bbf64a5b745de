"""Content errors that name the file and line, collected before the build fails."""

from __future__ import annotations

import difflib
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True, order=True)
class ContentError:
    """One problem in the curator's files: where, what, and how to fix it."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class BuildFailed(Exception):
    """Raised with every content error found, so the curator fixes them in one pass."""

    def __init__(self, errors: Iterable[ContentError]):
        self.errors = sorted(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def display_path(path: Path | str) -> str:
    """The path as the curator would type it: relative to the working directory if inside it."""
    folder, name = os.path.split(path)
    relative = _relative_folder(folder, os.getcwd())
    if relative is None:
        return Path(path).as_posix()
    return name if relative == "." else f"{relative}/{name}"


@functools.lru_cache(maxsize=64)
def _relative_folder(folder: str, cwd: str) -> str | None:
    # why: resolving costs a system call per path part; a digest's papers share one folder
    try:
        return Path(folder).resolve().relative_to(Path(cwd).resolve()).as_posix()
    except ValueError:
        return None


def unknown_key_message(key: str, known: Iterable[str], where: str) -> str:
    """'unknown key' text with the nearest valid spelling when there is one."""
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else f"valid keys: {', '.join(sorted(known))}"
    return f"unknown key '{key}' in {where}; {hint} (put free-form values under 'extra:')"
