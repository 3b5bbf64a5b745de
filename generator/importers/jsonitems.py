"""JSON for the readers: decoding with file:line errors, entries with the line they start on,
and type checks that name what was found instead of converting it."""

from __future__ import annotations

import json
import re
from typing import Any

from ..content.fields import describe
from .cleaning import Problems

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def load_json(text: str, problems: Problems) -> Any:
    """The decoded document; a file:line error (raised at once) when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        problems.error(err.lineno, f"not valid JSON: {err.msg} (column {err.colno})")
    except RecursionError:
        problems.error(1, "JSON nested too deeply to read")
    except ValueError as err:  # why: Python refuses integers of more than 4,300 digits
        problems.error(1, f"a number in it cannot be read: {str(err).split(';')[0]}")
    problems.raise_if_any()


def entries_with_lines(text: str, path: tuple[str, ...]) -> list[tuple[int, Any]]:
    """(line, value) for each item of the array found by following the object keys `path`
    from the root, or for the one object there. `text` must be valid JSON.

    The json module keeps no positions, so this walks to the array and decodes one item at
    a time with `raw_decode`, which says where each item ends.
    """
    at = _value_at(text, path)
    if text[at] != "[":
        return [(text.count("\n", 0, at) + 1, _DECODER.raw_decode(text, at)[0])]
    items, line, counted = [], 1, 0
    at = _skip(text, at + 1)
    while text[at] != "]":
        line, counted = line + text.count("\n", counted, at), at
        value, at = _DECODER.raw_decode(text, at)
        items.append((line, value))
        at = _skip(text, at)
        at = _skip(text, at + 1) if text[at] == "," else at
    return items


def _skip(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()


def _value_at(text: str, path: tuple[str, ...]) -> int:
    """Where the value at `path` starts; the last of repeated keys, as json.loads takes."""
    at = _skip(text, 0)
    for key in path:
        found, at = -1, _skip(text, at + 1)
        while text[at] != "}":
            name, at = json.decoder.scanstring(text, at + 1)
            at = _skip(text, _skip(text, at) + 1)
            found = at if name == key else found
            at = _skip(text, _DECODER.raw_decode(text, at)[1])
            at = _skip(text, at + 1) if text[at] == "," else at
        at = found
    return at


def text_value(value: Any, what: str, line: int, problems: Problems,
               required: bool = False) -> str:
    """A string, or '' with an error when it is anything else (never converted)."""
    if isinstance(value, str) and (value.strip() or not required):
        return value
    if value is None and not required:
        return ""
    problems.error(line, f"{what} must be text, got {describe(value)}")
    return ""


def text_list(value: Any, what: str, line: int, problems: Problems) -> list[str]:
    """A list of strings (None is an empty list); anything else is an error."""
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    got = "a list holding " + describe(next(i for i in value if not isinstance(i, str))) \
        if isinstance(value, list) else describe(value)
    problems.error(line, f"{what} must be a list of text, got {got}")
    return []
