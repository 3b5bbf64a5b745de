"""Strict YAML reading: a top-level mapping with the line of every key and list item."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

# why: the C parser is ~15x faster (MEASUREMENTS.md); the pure one is the fallback.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """SafeLoader that leaves dates as text, so validation can report bad ones by line."""


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _BaseLoader.construct_scalar)


class YamlProblem(Exception):
    """A syntax or structure problem at a 1-based line of the YAML text."""

    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message
        super().__init__(f"{line}: {message}")


@dataclass(frozen=True)
class YamlMapping:
    """A parsed top-level mapping, with source lines (1-based, offset applied)."""

    values: dict[str, Any]
    raw: dict[str, str]
    """The scalar text as written, for keys whose value is a plain scalar."""
    lines: dict[str, int]
    item_lines: dict[str, list[int]]
    """List-valued key -> line of each item."""
    child_lines: dict[str, dict[str, int]]
    """Mapping-valued key -> line of each of its keys."""
    last_lines: dict[str, int] = field(default_factory=dict)
    """Key -> the last line its value takes (comments after it not included), so a tool can
    replace one field's lines and keep the others byte for byte."""
    value_lines: dict[str, int] = field(default_factory=dict)
    """Scalar-valued key -> the line where its text starts: the key's own line, or the line
    after it for a block scalar (`abstract: |-`) or a value written under its key."""


def read_mapping(text: str, first_line: int = 1) -> YamlMapping:
    """Parse `text` (which starts at `first_line` of its file) as a mapping of string keys."""
    offset = first_line - 1
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        raise _syntax_problem(err, offset, first_line) from None
    except yaml.reader.ReaderError as err:  # why: a character YAML forbids, often from a PDF
        line = text.count("\n", 0, err.position) + first_line
        raise YamlProblem(line, f"the character {chr(err.character)!r} (U+{err.character:04X}) "
                                "cannot be in YAML; delete it or write it as an escape in a "
                                "double-quoted string") from None
    if node is None:
        return YamlMapping({}, {}, {}, {}, {})
    if not isinstance(node, yaml.MappingNode):
        raise YamlProblem(first_line, "expected 'key: value' lines, got a single value")
    return _mapping(node, offset)


def _syntax_problem(err: yaml.MarkedYAMLError, offset: int, first_line: int) -> YamlProblem:
    mark = err.problem_mark or err.context_mark
    line = mark.line + 1 + offset if mark else first_line
    message = f"YAML syntax error: {err.problem or err.context}"
    if err.context and err.context_mark and err.context_mark.line + 1 + offset != line:
        message += f" ({err.context} that starts on line {err.context_mark.line + 1 + offset})"
    return YamlProblem(line, message + "; check quotes, brackets and indentation")


def _mapping(node: yaml.MappingNode, offset: int) -> YamlMapping:
    values: dict[str, Any] = {}
    raw: dict[str, str] = {}
    lines: dict[str, int] = {}
    item_lines: dict[str, list[int]] = {}
    child_lines: dict[str, dict[str, int]] = {}
    last_lines: dict[str, int] = {}
    value_lines: dict[str, int] = {}
    loader = _Loader("")
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1 + offset
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if not isinstance(key, str):
            raise YamlProblem(line, "keys must be plain words")
        if key in lines:
            raise YamlProblem(line, f"duplicate key '{key}' (first on line {lines[key]}); keep one")
        lines[key] = line
        last_lines[key] = _last_line(value_node) + offset
        check_shape(value_node, offset)  # why: before constructing, which recurses and expands
        values[key] = _construct(loader, value_node, line)
        if isinstance(value_node, yaml.ScalarNode):
            raw[key] = value_node.value
            block = value_node.style in ("|", ">")
            value_lines[key] = value_node.start_mark.line + 1 + block + offset
        if isinstance(value_node, yaml.SequenceNode):
            item_lines[key] = [n.start_mark.line + 1 + offset for n in value_node.value]
        if isinstance(value_node, yaml.MappingNode):
            child_lines[key] = {str(getattr(k, "value", "")): k.start_mark.line + 1 + offset
                                for k, _ in value_node.value}
    loader.dispose()
    return YamlMapping(values, raw, lines, item_lines, child_lines, last_lines, value_lines)


def _last_line(node: yaml.Node) -> int:
    """The 1-based line where a value's text ends: its last item's, for a block collection,
    whose own end mark lies past any comment that follows it."""
    while isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and node.value \
            and node.flow_style is not True:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end = node.end_mark
    # why: a block scalar ends at the start of the line after it
    return end.line + 1 if end.column else end.line


def _construct(loader: Any, node: yaml.Node, line: int) -> Any:
    try:
        return loader.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as err:
        raise YamlProblem(line, f"cannot read value: {err.problem}") from None


MAX_DEPTH = 32
"""How deep values may nest: far more than front matter needs, far less than Python's stack."""


def check_shape(node: yaml.Node, offset: int) -> None:
    """No duplicate key at any depth, no alias (`*name`: a few lines of them expand to billions
    of values), nesting no deeper than MAX_DEPTH; walked without recursion."""
    seen: set[int] = set()
    to_visit = [(node, 1)]
    while to_visit:
        node, depth = to_visit.pop()
        line = node.start_mark.line + 1 + offset
        if id(node) in seen:
            raise YamlProblem(line, "this value is repeated by an alias (*name), which is not "
                                    "allowed: write the value out where it is repeated")
        if depth > MAX_DEPTH:
            raise YamlProblem(line, f"values are nested more than {MAX_DEPTH} levels deep; "
                                    "flatten them")
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            to_visit += [(item, depth + 1) for item in node.value]
        elif isinstance(node, yaml.MappingNode):
            keys: set[object] = set()
            for key_node, value_node in node.value:
                key = getattr(key_node, "value", None)
                if key in keys:
                    raise YamlProblem(key_node.start_mark.line + 1 + offset,
                                      f"duplicate key '{key}'; keep one")
                keys.add(key)
                to_visit += [(key_node, depth + 1), (value_node, depth + 1)]
