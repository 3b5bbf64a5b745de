"""A paper file's text: written new, or with some fields replaced and every other byte kept."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Any

import yaml

from ..content.documents import SourceDoc

KEY_ORDER = ("title", "authors", "venue", "presentation", "date", "tags", "links", "citation",
             "tldr", "draft", "abstract")
"""Front matter keys in the order the digest's files give them: what a curator reads first."""


class _Literal(str):
    """A string written as a YAML literal block, so LaTeX and backslashes stay verbatim."""


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
    a key's lines are replaced where it stands (a comment at the end of its line kept), a
    missing key goes after the key that comes before it in KEY_ORDER, and `links` is edited
    link by link; every other line, the notes included, keeps its bytes and its line end."""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    spans = front_spans(lines, doc.body_line)
    edits = _Edits()
    for key, value in changes.items():
        children = spans.children.get(key)
        if children is not None and isinstance(value, dict):
            _edit_children(edits, lines, children, value)
        elif key in spans.keys:
            edits.replace(spans.keys[key], dump_fields({key: value}))
        else:
            edits.insert(_insertion_line(key, spans.keys, doc.body_line), dump_fields({key: value}))
    return edits.apply(lines, newline)


@dataclass(frozen=True)
class Span:
    """Where one key's value stands in a file: 0-based lines [first, end), and its indent."""

    first: int
    end: int
    indent: int
    comment: str = ""
    """A comment after a one-line value (' # camera-ready'), kept when the value changes."""


@dataclass(frozen=True)
class Spans:
    """The front matter's keys, and the children of each block mapping (`links:`)."""

    keys: dict[str, Span]
    children: dict[str, dict[str, Span]]


def front_spans(lines: list[str], body_line: int) -> Spans:
    """Where each key of the front matter (lines 2 to body_line - 2) stands."""
    front = "".join(line.rstrip("\r\n") + "\n" for line in lines[1:body_line - 2])
    node = yaml.compose(front, Loader=_Loader)
    keys: dict[str, Span] = {}
    children: dict[str, dict[str, Span]] = {}
    for key_node, value_node in (node.value if isinstance(node, yaml.MappingNode) else ()):
        keys[key_node.value] = _span(key_node, value_node, lines)
        if isinstance(value_node, yaml.MappingNode) and not value_node.flow_style \
                and value_node.value:
            children[key_node.value] = {str(k.value): _span(k, v, lines) for k, v in value_node.value}
    return Spans(keys, children)


def _span(key: yaml.Node, value: yaml.Node, lines: list[str]) -> Span:
    first = key.start_mark.line + 1  # why: the front matter starts on the file's second line
    end = _last_line(value) + 2
    comment = ""
    if value.end_mark.line == key.start_mark.line and isinstance(value, yaml.ScalarNode):
        rest = lines[first].rstrip("\r\n")[value.end_mark.column:]
        comment = rest if re.match(r"\s+#", rest) else ""
    return Span(first, end, key.start_mark.column, comment)


def _last_line(node: yaml.Node) -> int:
    """The 0-based line of the front matter where a value's text ends (see yamltext)."""
    while isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and node.value \
            and node.flow_style is not True:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end = node.end_mark
    # why: a block scalar ends at the start of the line after it
    return end.line if end.column else end.line - 1


def _edit_children(edits: _Edits, lines: list[str], children: dict[str, Span],
                   value: dict[str, Any]) -> None:
    """A block mapping edited child by child: a changed one replaced, a new one added after
    the last; the others, their comments included, kept."""
    indent = next(iter(children.values())).indent
    last = max(span.end for span in children.values())
    for kind, item in value.items():
        shown = textwrap.indent(dump_fields({kind: item}), " " * indent)
        if kind not in children:
            edits.insert(last, shown)
        elif _scalar_text(lines, children[kind]) != item:
            edits.replace(children[kind], shown)


def _scalar_text(lines: list[str], span: Span) -> Any:
    """The value a one-key span holds, as YAML reads it."""
    text = "".join(line.rstrip("\r\n") + "\n" for line in lines[span.first:span.end])
    return next(iter((yaml.load(textwrap.dedent(text), Loader=_Loader) or {None: None}).values()))


class _Edits:
    """Lines to replace and lines to insert, applied in one pass."""

    def __init__(self) -> None:
        self.replaced: dict[int, tuple[int, str]] = {}  # first line -> (past the end, new text)
        self.inserted: dict[int, list[str]] = {}  # line -> new text to put before it

    def replace(self, span: Span, text: str) -> None:
        if span.comment and text.count("\n") == 1:
            text = text.rstrip("\n") + span.comment + "\n"
        self.replaced[span.first] = (span.end, text)

    def insert(self, at: int, text: str) -> None:
        self.inserted.setdefault(at, []).append(text)

    def apply(self, lines: list[str], newline: str) -> str:
        out: list[str] = []
        number = 0
        while number <= len(lines):
            out += [text.replace("\n", newline) for text in self.inserted.pop(number, [])]
            if number == len(lines):
                break
            if number in self.replaced:
                end, new = self.replaced[number]
                out.append(new.replace("\n", newline))
                number = end
            else:
                out.append(lines[number])
                number += 1
        return "".join(out)


def _insertion_line(key: str, keys: dict[str, Span], body_line: int) -> int:
    """The 0-based line a missing key goes before: after the last present key that comes
    before it in KEY_ORDER, else before the first key, else before the closing '---'."""
    before = KEY_ORDER[:KEY_ORDER.index(key)]
    present = [k for k in before if k in keys]
    if present:
        return keys[present[-1]].end
    return min((span.first for span in keys.values()), default=body_line - 2)
