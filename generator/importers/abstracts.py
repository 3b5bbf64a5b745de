"""A plain-text list of abstracts and a YAML list of their metadata, merged by position into
the papers `build.py import --metadata` hands to merging."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..content.yamltext import YamlProblem, check_shape
from ..model.errors import BuildFailed, ContentError, display_path
from .cleaning import Links, one_line, without_controls
from .incoming import IncomingPaper

# why: the C parser reads deep nesting without Python's recursion; the pure one is the fallback
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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
    root = _compose(path.read_text(encoding="utf-8"), shown)
    if not isinstance(root, yaml.SequenceNode):
        raise BuildFailed([ContentError(shown, 1, "metadata must be a list, one '- title: ...' per paper")])
    loader = _Loader("")
    entries = [(node.start_mark.line + 1, loader.construct_object(node, deep=True)) for node in root.value]
    errors = [ContentError(shown, line, "entry must be a mapping with title, authors, ...")
              for line, entry in entries if not isinstance(entry, dict)]
    errors += [ContentError(shown, line, message) for line, entry in entries
               if isinstance(entry, dict) for message in _entry_problems(entry)]
    if errors:
        raise BuildFailed(errors)
    return entries


def _compose(text: str, shown: str) -> yaml.Node | None:
    """The YAML document's node tree, its shape checked (no alias, nesting at most yamltext's
    MAX_DEPTH); BuildFailed with the file's line for anything YAML or the check refuses."""
    try:
        root = yaml.compose(text, Loader=_Loader)
        if root is not None:
            check_shape(root, 0)
        return root
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, message = (mark.line + 1 if mark else 1), f"YAML syntax error: {err.problem}"
    except yaml.reader.ReaderError as err:  # why: a character YAML forbids, often from a PDF
        line = text.count("\n", 0, err.position) + 1
        message = (f"the character U+{err.character:04X} cannot be in YAML; delete it, or write "
                   "it as an escape in a double-quoted string")
    except YamlProblem as problem:
        line, message = problem.line, problem.message
    except RecursionError:
        line, message = 1, "values are nested too deeply to read; flatten them"
    raise BuildFailed([ContentError(shown, line, message)])


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
    """One abstract and its (checked) metadata entry as the record every importer hands on,
    cleaned as every reader cleans: control characters gone, ids that are ids, http(s) links
    (what is left out is said in `dropped`)."""
    meta = {key: value for key, value in meta.items() if value is not None}
    links = Links()
    for key, value in meta.items():
        if key not in LINK_KEYS or not value:
            continue
        kind = LINK_KEYS[key]
        if kind == "doi":
            links.add_doi(value, key)
        elif kind in ("arxiv", "openreview"):
            links.add_id(kind, value, key)
        else:
            links.add_url(value, key, kind)
    return IncomingPaper(
        origin=origin, title=one_line(meta["title"]),
        authors=tuple(filter(None, map(one_line, meta["authors"]))),
        abstract=without_controls(abstract), venue=one_line(meta.get("venue", "")),
        tags=tuple(filter(None, map(one_line, meta.get("tags", ())))),
        tldr=one_line(meta.get("tldr", "")), links=links.found, dropped=tuple(links.dropped))
