"""`build.py import`: a plain-text list of abstracts (plus metadata) to one paper file each."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import yaml

from ..content.documents import slugify
from ..model.errors import BuildFailed, ContentError, display_path

# Metadata keys that become `links:` entries, with the name they take there.
LINK_KEYS = {"arxiv": "arxiv", "openreview": "openreview", "pdf": "pdf", "code": "code",
             "project": "project", "project_page": "project", "doi": "doi"}
META_KEYS = {"n", "title", "authors", "tags", "venue", "tldr", *LINK_KEYS}


class _Literal(str):
    """A string written as a YAML literal block, so LaTeX and backslashes stay verbatim."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Literal, lambda d, s: d.represent_scalar(
    "tag:yaml.org,2002:str", str(s), style="|"))


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
    errors += [ContentError(shown, line, f"unknown metadata key '{key}'; known: {', '.join(sorted(META_KEYS))}")
               for line, entry in entries if isinstance(entry, dict) for key in entry if key not in META_KEYS]
    if errors:
        raise BuildFailed(errors)
    return entries


def front_matter(abstract: str, meta: dict[str, Any], date: dt.date, venue: str | None,
                 number: int) -> dict[str, Any]:
    """The paper's fields in the order a curator reads them."""
    fields: dict[str, Any] = {"title": str(meta.get("title") or f"Paper {number}"),
                              "authors": [str(a) for a in meta.get("authors", [])] or ["Unknown"]}
    if venue or meta.get("venue"):
        fields["venue"] = str(meta.get("venue") or venue)
    fields["date"] = date
    if meta.get("tags"):
        fields["tags"] = [str(t) for t in meta["tags"]]
    links = {LINK_KEYS[k]: str(v) for k, v in meta.items() if k in LINK_KEYS and v}
    if links:
        fields["links"] = links
    if meta.get("tldr"):
        fields["tldr"] = str(meta["tldr"])
    if not meta.get("title"):
        fields["draft"] = True  # why: no real title yet; keep it off the site until there is one
    fields["abstract"] = _Literal(abstract)
    return fields


def paper_text(fields: dict[str, Any]) -> str:
    """A paper file: YAML front matter and an empty body for the curator's notes."""
    dumped = yaml.dump(fields, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{dumped}---\n"


def import_papers(abstracts: Path, metadata: Path | None, papers_dir: Path, *,
                  date: str | None = None, venue: str | None = None,
                  force: bool = False) -> list[Path]:
    """Write one file per abstract; nothing is written if any file exists and not `force`."""
    blocks = read_abstracts(abstracts)
    entries = read_metadata(metadata) if metadata else []
    if blocks and (_is_header(blocks[0][1]) or (entries and len(blocks) == len(entries) + 1)):
        blocks = blocks[1:]
    shown = display_path(abstracts)
    if entries and len(entries) != len(blocks):
        raise BuildFailed([ContentError(shown, 1, f"{len(blocks)} abstracts but {len(entries)} "
                                                  "metadata entries; they are merged by position")])
    day = _parse_date(date)
    planned = _plan(blocks, entries, papers_dir, day, venue)
    existing = [path for path, _ in planned if path.exists()]
    if existing and not force:
        raise BuildFailed([ContentError(display_path(p), 1, "exists already; not overwritten "
                                        "(pass --force to replace it)") for p in existing])
    papers_dir.mkdir(parents=True, exist_ok=True)
    for path, text in planned:
        path.write_text(text, encoding="utf-8")
    return [path for path, _ in planned]


def _plan(blocks: list[tuple[int, str]], entries: list[tuple[int, dict[str, Any]]],
          papers_dir: Path, day: dt.date, venue: str | None) -> list[tuple[Path, str]]:
    planned: list[tuple[Path, str]] = []
    used: set[str] = set()
    for number, (_, abstract) in enumerate(blocks, start=1):
        meta = entries[number - 1][1] if entries else {}
        fields = front_matter(abstract, meta, day, venue, number)
        slug = _unique(slug_for_title(fields["title"]) or f"paper-{number}", used)
        planned.append((papers_dir / f"{slug}.md", paper_text(fields)))
    return planned


def slug_for_title(title: str) -> str:
    """'AgentOccam: A Simple ...' -> 'agentoccam'; otherwise the title's first words."""
    name, colon, _ = title.partition(":")
    return slugify(name if colon and slugify(name) else title)


def _unique(slug: str, used: set[str]) -> str:
    candidate, n = slug, 2
    while candidate in used:
        candidate, n = f"{slug}-{n}", n + 1
    used.add(candidate)
    return candidate


def _parse_date(value: str | None) -> dt.date:
    if value is None:
        return dt.date.today()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise SystemExit(f"error: --date must be YYYY-MM-DD, got '{value}'")
    return dt.date.fromisoformat(value)
