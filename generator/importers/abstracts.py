"""A plain-text list of abstracts and a YAML list of their metadata, merged by position into
the papers `build.py import --metadata` hands to merging."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..model.errors import BuildFailed, ContentError, display_path
from .incoming import IncomingPaper

# Metadata keys that become `links:` entries, with the name they take there.
LINK_KEYS = {"arxiv": "arxiv", "openreview": "openreview", "pdf": "pdf", "code": "code",
             "project": "project", "project_page": "project", "doi": "doi"}
META_KEYS = {"n", "title", "authors", "tags", "venue", "tldr", *LINK_KEYS}


def read_abstracts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each blank-line separated block, header line included."""
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            start = start if current else number
            current.append(line.rstrip())
        elif current:
            blocks.append((start, "\n".join(current)))
            current = []
    if current:
        blocks.append((start, "\n".join(current)))
    return blocks


def _is_header(block: str) -> bool:
    """A title line such as 'ICLR 2025 论文列表': one short line, not a sentence."""
    return "\n" not in block and len(block) < 120 and not block.rstrip().endswith(".")


def read_metadata(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line, entry) for each item of the metadata list, with unknown keys rejected."""
    shown = display_path(path)
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        line = err.problem_mark.line + 1 if err.problem_mark else 1
        raise BuildFailed([ContentError(shown, line, f"YAML syntax error: {err.problem}")]) from None
    if not isinstance(root, yaml.SequenceNode):
        raise BuildFailed([ContentError(shown, 1, "metadata must be a list, one '- title: ...' per paper")])
    loader = yaml.SafeLoader("")
    entries = [(node.start_mark.line + 1, loader.construct_object(node, deep=True)) for node in root.value]
    errors = [ContentError(shown, line, "entry must be a mapping with title, authors, ...")
              for line, entry in entries if not isinstance(entry, dict)]
    errors += [ContentError(shown, line, message) for line, entry in entries
               if isinstance(entry, dict) for message in _entry_problems(entry)]
    if errors:
        raise BuildFailed(errors)
    return entries


def _entry_problems(entry: dict[str, Any]) -> list[str]:
    """What is wrong with one metadata entry: unknown keys, and values that are not text
    (an unquoted id such as 2410.12730 is a number that has lost its last zero)."""
    problems = [f"unknown metadata key '{key}'; known: {', '.join(sorted(META_KEYS))}"
                for key in entry if key not in META_KEYS]
    for key in ("title", "authors"):
        if not entry.get(key):
            problems.append(f"entry has no '{key}'; a paper file needs its title and authors")
    for key, value in entry.items():
        if key in ("authors", "tags"):
            fine = isinstance(value, list) and all(isinstance(item, str) for item in value)
        else:
            fine = key == "n" or key not in META_KEYS or isinstance(value, (str, type(None)))
        if not fine:
            kind = "a list of text" if key in ("authors", "tags") else "text"
            problems.append(f"'{key}' must be {kind}; quote values YAML would read as numbers, "
                            "dates or booleans")
    return problems


def read_abstract_list(abstracts: Path, metadata: Path) -> list[IncomingPaper]:
    """The papers of an abstract list, each merged by position with its metadata entry."""
    blocks = read_abstracts(abstracts)
    entries = read_metadata(metadata)
    if blocks and (_is_header(blocks[0][1]) or len(blocks) == len(entries) + 1):
        blocks = blocks[1:]
    shown = display_path(abstracts)
    if len(entries) != len(blocks):
        raise BuildFailed([ContentError(shown, 1, f"{len(blocks)} abstracts but {len(entries)} "
                                                  "metadata entries; they are merged by position")])
    return [incoming_paper(f"{shown}:{line}", abstract, meta)
            for (line, abstract), (_, meta) in zip(blocks, entries)]


def incoming_paper(origin: str, abstract: str, meta: dict[str, Any]) -> IncomingPaper:
    """One abstract and its (checked) metadata entry as the record every importer hands on."""
    meta = {key: value for key, value in meta.items() if value is not None}
    return IncomingPaper(
        origin=origin, title=meta["title"], authors=tuple(meta["authors"]), abstract=abstract,
        venue=meta.get("venue", ""), tags=tuple(meta.get("tags", ())), tldr=meta.get("tldr", ""),
        links={LINK_KEYS[key]: value for key, value in meta.items() if key in LINK_KEYS and value})
