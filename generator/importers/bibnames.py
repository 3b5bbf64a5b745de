"""The names of a BibTeX `author` or `editor` field, as real exports write them.

BibTeX separates names with ' and '. Two slips of real exports are repaired, each with a
warning: OpenReview's export of some papers separates them with commas ('Matthew E Peters,
Mark Neumann, Mohit Iyyer'), and PMLR's ends some names with a comma ('Roeder, Geoffrey, and
Grant, Paul'). A field with one comma and no ' and ' is BibTeX's 'Last, First': it is never
taken for two names.
"""

from __future__ import annotations

import re

from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts

from .cleaning import Problems, short, tex_to_text

# why: an accent command outside braces ('Jo\\~{a}o') is split at its '~' by the name
# parser, which reads '~' as a tie; braced, as BibTeX wants it ('Jo{\\~{a}}o'), it stays whole
_ACCENT = re.compile(r"(?<!{)\\(?:[~'\"`^=.]|[uvHckbdrt](?![A-Za-z]))\s*(?:\{[^{}]*\}|[A-Za-z])")
_SUFFIX = re.compile(r"(?:jr|sr|[ivx]+)\.?", re.I)
_OTHERS = ("others", "et al.", "et al")


def read_names(raw: str, field: str, key: str, line: int, problems: Problems) -> tuple[str, ...]:
    """'Last, First', 'First Last' and 'von Last, Jr, First' names as 'First von Last Jr';
    'and others' dropped. A name that cannot be read is an error of `problems`."""
    names = []
    for name in repaired_names(_ACCENT.sub(r"{\g<0>}", raw), field, key, line, problems):
        if name.strip().lower() in _OTHERS:
            continue
        try:
            names.append(tex_to_text(parse_single_name_into_parts(name).merge_first_name_first))
        except (InvalidNameError, ValueError) as err:
            problems.error(line, f"{field} '{short(name)}' of entry '{short(key)}': {err}; separate "
                                 "names with ' and ', each as 'First Last' or 'Last, First'")
    return tuple(name for name in names if name)


def repaired_names(raw: str, field: str, key: str, line: int, problems: Problems) -> list[str]:
    """The field's names, comma-separated lists and trailing commas repaired (with warnings)."""
    names = split_names(raw)
    if len(names) == 1 and len(parts := _top_level(names[0], ",")) >= 3 and not (
            len(parts) == 3 and _SUFFIX.fullmatch(parts[1].strip())):
        names = [part.strip() for part in parts if part.strip()]
        problems.warn(line, f"the {field}s of entry '{key}' are separated by commas, not "
                            f"' and ': read as {len(names)} names")
    stripped = [name.strip(" ,") for name in names]
    if stripped != names:
        problems.warn(line, f"{field} names of entry '{key}' end with a comma, which BibTeX "
                            "would read as an empty first name: read without the commas")
    return [name for name in stripped if name]


def split_names(raw: str) -> list[str]:
    """The names of an author field, split at each ' and ' outside braces.

    bibtexparser's own splitter loses a name's first letter when it is an accent
    ('\\"{O}ktem, Ozan' comes back as '{O}ktem, Ozan'), so this one is ours.
    """
    names, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", raw):
        if match.group() in "{}":
            depth = depth + 1 if match.group() == "{" else max(depth - 1, 0)
        elif depth == 0:
            names.append(raw[start:match.start()])
            start = match.end()
    return [name.strip() for name in names + [raw[start:]] if name.strip()]


def _top_level(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` outside braces."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "{") - (char == "}")
        if char == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]
