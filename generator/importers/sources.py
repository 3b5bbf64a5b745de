"""Reading the files given to `build.py import`: every one read before anything is decided,
and every error of every file reported together."""

from __future__ import annotations

from pathlib import Path

from ..content.documents import ContentErrorRaised
from ..model.errors import BuildFailed, ContentError, display_path
from .abstracts import read_abstract_list
from .formats import read_papers
from .incoming import IncomingPaper


def read_sources(files: list[Path], metadata: Path | None) -> list[IncomingPaper]:
    """The papers of every file, in order; BuildFailed with the errors of all of them."""
    papers: list[IncomingPaper] = []
    errors: list[ContentError] = []
    for path in files:
        try:
            papers += _read(path, metadata)
        except BuildFailed as failed:
            errors += failed.errors
        except ContentErrorRaised as raised:
            errors.append(raised.error)
        except OSError as error:
            errors.append(ContentError(display_path(error.filename or path), 1,
                                       f"cannot be read: {error.strerror}"))
        except UnicodeDecodeError as error:
            errors.append(ContentError(display_path(path), 1, f"not valid UTF-8 (byte "
                                                             f"{error.start}); save it as UTF-8"))
    if errors:
        raise BuildFailed(errors)
    return papers


def _read(path: Path, metadata: Path | None) -> list[IncomingPaper]:
    """One source file's papers: an abstract list with its metadata, or any format
    generator/importers/formats.py reads (BibTeX, arXiv Atom, OpenReview, CSL-JSON)."""
    if metadata is not None:
        return read_abstract_list(path, metadata)
    return read_papers(path)
