"""A paper file's text: written new, or with some fields replaced and every other byte kept."""

from __future__ import annotations

from typing import Any

import yaml

from ..content.documents import SourceDoc

KEY_ORDER = ("title", "authors", "venue", "presentation", "date", "tags", "links", "tldr",
             "draft", "abstract")
"""Front matter keys in the order the digest's files give them: what a curator reads first."""


class _Literal(str):
    """A string written as a YAML literal block, so LaTeX and backslashes stay verbatim."""


class _Dumper(yaml.SafeDumper):
    """SafeDumper that writes `_Literal` strings as `|-` blocks."""


# why: PyYAML falls back to a quoted style itself when a block cannot hold the text exactly
# (trailing spaces, control characters), so every value still reads back as it was given
_Dumper.add_representer(_Literal, lambda d, s: d.represent_scalar(
    "tag:yaml.org,2002:str", str(s), style="|"))


def dump_fields(fields: dict[str, Any]) -> str:
    """YAML lines for `fields` in the given order; the abstract as a literal block."""
    shown = {key: _Literal(value) if key == "abstract" else value for key, value in fields.items()}
    return yaml.dump(shown, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def new_paper_text(fields: dict[str, Any]) -> str:
    """A paper file: front matter in KEY_ORDER and an empty body for the curator's notes."""
    ordered = {key: fields[key] for key in KEY_ORDER if key in fields}
    return f"---\n{dump_fields(ordered)}---\n"


def replaced_fields_text(text: str, doc: SourceDoc, changes: dict[str, Any]) -> str:
    """`text` (the file `doc` was read from) with each key of `changes` given its new value:
    a key's lines are replaced where it stands, a missing key goes after the key that comes
    before it in KEY_ORDER; every other line, the notes included, is kept as it was."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)
    front = doc.front
    replaced: dict[int, tuple[int, str]] = {}  # first line (0-based) -> (past the end, new text)
    inserted: dict[int, list[str]] = {}  # 0-based line -> new keys' text to put before it
    for key, value in changes.items():
        if key in front.lines:
            replaced[front.lines[key] - 1] = (front.last_lines[key], dump_fields({key: value}))
        else:
            at = _insertion_line(key, front.lines, front.last_lines, doc.body_line)
            inserted.setdefault(at, []).append(dump_fields({key: value}))
    out: list[str] = []
    number = 0
    while number < len(lines):
        out.extend(inserted.pop(number, []))
        if number in replaced:
            end, new = replaced[number]
            out.append(new)
            number = end
        else:
            out.append(lines[number])
            number += 1
    return "".join(out)


def _insertion_line(key: str, lines: dict[str, int], last_lines: dict[str, int],
                    body_line: int) -> int:
    """The 0-based line a missing key goes before: after the last present key that comes
    before it in KEY_ORDER, else before the first key, else before the closing '---'."""
    before = KEY_ORDER[:KEY_ORDER.index(key)]
    present = [k for k in before if k in lines]
    if present:
        return last_lines[present[-1]]
    return min(lines.values(), default=body_line - 1) - 1
