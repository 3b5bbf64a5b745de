"""What the build would refuse of a file an import is about to write, found before anything
is written: the importer never writes a file that stops every later build and import."""

from __future__ import annotations

from pathlib import Path

from ..content.documents import MAX_FILE_BYTES
from ..content.papers import check_file
from ..model.errors import ContentError, display_path
from ..model.records import SourceFile
from .cleaning import terminal_safe


def build_refusals(path: Path, text: str, origin: str, before: str | None = None) -> list[ContentError]:
    """The errors the build would stop on in `text` written as `path`, each at `origin` (the
    source's 'file:line'); for an update, only those the file `before` did not have already."""
    data = text.encode("utf-8")
    where, _, line = origin.rpartition(":")
    where, number = (where, int(line)) if line.isdigit() and where else (origin, 1)
    shown = display_path(path)
    if len(data) > MAX_FILE_BYTES:
        return [ContentError(where, number, f"its paper file {shown} would be {len(data):,} "
                                            f"bytes, over the {MAX_FILE_BYTES:,} the build reads "
                                            "a paper file to; shorten its abstract in the source")]
    errors = check_file(SourceFile(path, data)).errors
    if before is not None and errors:
        known = {error.message for error in check_file(SourceFile(path, before.encode())).errors}
        errors = tuple(error for error in errors if error.message not in known)
    return [ContentError(where, number, terminal_safe(
        f"its paper file {shown} would not build (line {error.line}: {error.message})"))
        for error in errors]
