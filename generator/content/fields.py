"""Field checks shared by the site config and paper validation: strict types, no coercion."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..model.errors import ContentError, unknown_key_message
from .yamltext import YamlMapping


FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
"""Characters HTML and XML 1.0 cannot carry, which a YAML escape ("\\x01") can still give."""


def describe(value: Any) -> str:
    """How a YAML value reads to a curator: `the boolean false`, `a list`, `the number 3`."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "nothing"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"'{value}'"


@dataclass
class FieldReader:
    """Reads typed fields of one YAML mapping, collecting an error per bad field."""

    path: str
    mapping: YamlMapping
    where: str
    errors: list[ContentError] = field(default_factory=list)

    def line(self, key: str) -> int:
        """The line of `key`, or 1 when it is absent (the error is about the whole file)."""
        return self.mapping.lines.get(key, 1)

    def child_line(self, key: str, child: str) -> int:
        """The line of `key.child` in a nested mapping, else the line of `key`."""
        return self.mapping.child_lines.get(key, {}).get(child) or self.line(key)

    def error(self, key: str, message: str, line: int | None = None) -> None:
        """Record a problem with `key`."""
        self.errors.append(ContentError(self.path, line or self.line(key), message))

    def reject_unknown(self, known: set[str]) -> None:
        """An error for every key that is not in `known`."""
        for key in self.mapping.values:
            if key not in known:
                self.error(key, unknown_key_message(key, known, self.where))

    def text(self, key: str, required: bool = False, default: str = "") -> str:
        """A non-empty string; numbers, booleans and lists are errors, not coerced."""
        if key not in self.mapping.values:
            if required:
                self.error(key, f"missing required '{key}'; add a line '{key}: ...'")
            return default
        value = self.mapping.values[key]
        if isinstance(value, str) and (bad := FORBIDDEN.search(value)):
            self.error(key, f"'{key}' holds the control character U+{ord(bad.group()):04X}, "
                            "which no page, feed or BibTeX file can carry; delete it")
            return default
        if isinstance(value, str) and value.strip():
            return value.strip()
        raw = self.mapping.raw.get(key, "")
        fix = f"quote it: {key}: '{raw}'" if raw and not isinstance(value, str) else "write some text"
        self.error(key, f"'{key}' must be text, got {describe(value)}; {fix}")
        return default

    def text_list(self, key: str, required: bool = False) -> tuple[str, ...]:
        """A list of non-empty strings, e.g. authors or tags."""
        if key not in self.mapping.values:
            if required:
                self.error(key, f"missing required '{key}'; add a list:  {key}:\\n  - ...")
            return ()
        value = self.mapping.values[key]
        if not isinstance(value, list) or (required and not value):
            self.error(key, f"'{key}' must be a list, got {describe(value)}; write it as "
                            f"'{key}: [a, b]' or one '- item' per line")
            return ()
        items: list[str] = []
        lines = self.mapping.item_lines.get(key, [])
        for i, item in enumerate(value):
            if isinstance(item, str) and FORBIDDEN.search(item):
                line = lines[i] if i < len(lines) else self.line(key)
                self.error(key, f"item {i + 1} of '{key}' holds a control character; delete it",
                           line)
            elif isinstance(item, str) and item.strip():
                items.append(item.strip())
            else:
                line = lines[i] if i < len(lines) else self.line(key)
                self.error(key, f"item {i + 1} of '{key}' must be text, got {describe(item)}; "
                                "quote it", line)
        return tuple(items)

    def boolean(self, key: str, default: bool = False) -> bool:
        """true or false, nothing else."""
        value = self.mapping.values.get(key, default)
        if not isinstance(value, bool):
            self.error(key, f"'{key}' must be true or false, got {describe(value)}")
            return default
        return value

    def integer(self, key: str, default: int, minimum: int = 1) -> int:
        """A whole number no smaller than `minimum`."""
        value = self.mapping.values.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.error(key, f"'{key}' must be a whole number >= {minimum}, got {describe(value)}")
            return default
        return value

    def mapping_of(self, key: str) -> dict[str, Any]:
        """A free mapping such as `extra:`; only its shape is checked."""
        value = self.mapping.values.get(key, {})
        if not isinstance(value, dict):
            self.error(key, f"'{key}' must be a mapping of 'name: value' lines, got {describe(value)}")
            return {}
        return value
