"""Papers stood in for by their rows: what a rebuild reads of each paper whose checking it keeps.

A rebuild keeps the checking of every paper file that did not change (building/cache.py), and
read each back whole: its abstract, notes, links and the rest, ~20 objects a paper, ~0.45 s of a
10,000-paper edit. Yet most of a build needs only a paper's short fields, to sort and group the
papers and to link to them; a page keys the paper it shows by the hash that stands for it.

So a build remembers the row of each paper it checked (those short fields as plain values, and
what the checking said of the file), and the next one stands in for each paper it keeps with a
LightPaper made from its row: ~10 µs a paper. The rest of the record (HEAVY) is read from the
cache file the first time something asks for it (a page to make shows the paper), in the process
that asks. A stand-in sent to a worker goes as its row. If the cache no longer holds the whole
record then (another build forgot it), ResultsGone is raised and the build starts again reading
every paper (pipeline.build). A LightPaper is equal to another one with equal fields, not to a
Paper: the build compares none."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any, Callable, Sequence, TypeVar

from ..content.papers import Checked
from ..model.errors import ContentError
from ..model.records import Paper, Tag
from .cache import Cache, ResultsGone, read_kept

HEAVY = ("abstract", "abstract_html", "abstract_text", "links", "tldr", "notes_html",
         "notes_text", "extra", "citation")
"""The fields of a Paper not in its row: long texts, and records no list or key reads."""
LIGHT = tuple(field.name for field in dataclasses.fields(Paper) if field.name not in HEAVY)
"""The fields of a Paper in its row: what sorting, grouping and linking to papers read."""
_CHECKED = tuple(field.name for field in dataclasses.fields(Checked) if field.name != "paper")
"""What a checking says of a file besides its Paper, all in the row."""
_ERRORS = ("errors", "warnings")
"""Those of _CHECKED that are ContentErrors."""

Row = tuple[Any, ...]


def paper_row(checked: Checked) -> Row:
    """A paper's row, from its checking (which must have a paper): plain values marshal keeps."""
    paper = checked.paper
    assert paper is not None
    light = [getattr(paper, name) for name in LIGHT]
    light[_DATE] = paper.date.toordinal()
    light[_TAGS] = tuple((tag.name, tag.slug) for tag in paper.tags)
    said = [tuple((e.path, e.line, e.message) for e in getattr(checked, name))
            if name in _ERRORS else getattr(checked, name) for name in _CHECKED]
    return (*light, *said)


_DATE, _TAGS = LIGHT.index("date"), LIGHT.index("tags")


class LightPaper(Paper):
    """A Paper made from its row: its HEAVY fields are read whole when first asked for
    (_Heavy), by the key of its checking from the cache file `file`."""

    def __reduce__(self) -> tuple[Any, ...]:
        # why: sent to a worker as its row, which reads the rest there if it needs it
        fields = self.__dict__
        return _light_paper, (fields["_row"], fields["_key"], fields["_file"])


class _Heavy:
    """A field of LightPaper not in its row, asked of the class only while the instance does not
    hold it: then the paper's whole record is read, and its HEAVY fields put in the instance."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, paper: Paper | None, owner: type | None = None) -> Any:
        if paper is None:
            return self
        fields = paper.__dict__
        if self.name not in fields:
            fields.update(_whole(fields["_file"], fields["_key"]))
        return fields[self.name]


for _name in HEAVY:
    setattr(LightPaper, _name, _Heavy(_name))


def _light_paper(row: Row, key: bytes, file: str) -> LightPaper:
    # why: made without __init__, whose work (author slugs, citation key) the row holds done
    paper = object.__new__(LightPaper)
    fields = paper.__dict__
    fields.update(zip(LIGHT, row))
    fields["date"] = dt.date.fromordinal(row[_DATE])
    fields["tags"] = tuple(_record(Tag, name=name, slug=slug) for name, slug in row[_TAGS])
    fields["_row"], fields["_key"], fields["_file"] = row, key, file
    return paper


def _record(kind: type[T], **fields: Any) -> T:
    """A frozen record made as unpickling makes one: ~2x as fast as its __init__."""
    record = object.__new__(kind)
    record.__dict__.update(fields)
    return record


T = TypeVar("T")


def _whole(file: str, key: bytes) -> dict[str, Any]:
    """The HEAVY fields of the paper whose checking is kept under `key` in the cache `file`."""
    checked = read_kept(file, [key]).get(key)
    if not isinstance(checked, Checked) or checked.paper is None:
        raise ResultsGone(f"the paper checked as {key.hex()[:12]} was gone from {file} when "
                          "a page that shows it was made")
    return {name: getattr(checked.paper, name) for name in HEAVY}


def stand_in(row: Row, key: bytes, file: str) -> Checked:
    """A checking like the one kept under `key` in the cache `file`, its Paper a LightPaper made
    from `row` (paper_row())."""
    said = dict(zip(_CHECKED, row[len(LIGHT):]))
    for name in _ERRORS:
        if said[name]:
            said[name] = tuple(ContentError(*error) for error in said[name])
    return _record(Checked, paper=_light_paper(row, key, file), **said)


def checked_papers(cache: Cache, check: Callable[..., Checked], items: Sequence[tuple[Any, ...]],
                   rows: dict[bytes, Row], keep: Callable[[Checked], bool],
                   **mapped: Any) -> tuple[list[Checked], dict[bytes, Row]]:
    """cache.map(check, items, keep=keep, ...), but each result kept in the cache file whose row
    `rows` holds (the last build's, by key) is its stand_in(); with the rows of every paper
    given, by key, for the next build."""
    keys = cache.keys(check, None, items)
    file = cache.file()
    # why: not asked of the cache file (~0.1 s at 10,000): a whole record gone is found when read
    standing = cache.use([key for key in keys if key in rows]) if file and rows else set()
    rest = [n for n, key in enumerate(keys) if key not in standing]
    made = dict(zip(rest, cache.map(check, [items[n] for n in rest], keep=keep,
                                    keys=[keys[n] for n in rest], **mapped)))
    checked, kept_rows = [], {}
    for n, key in enumerate(keys):
        if n in made:
            result = made[n]
            if result.paper is not None:
                # why: a result found in memory (the preview server's) has its row already
                kept_rows[key] = rows[key] if key in rows else paper_row(result)
        else:
            assert file is not None
            result = stand_in(rows[key], key, file)
            cache.stand_for(result, key)
            kept_rows[key] = rows[key]
        checked.append(result)
    return checked, kept_rows


def rows_of(remembered: object) -> dict[bytes, Row]:
    """The rows the cache remembered (Cache.remember_plain), or none if it remembered none."""
    return remembered if isinstance(remembered, dict) else {}
