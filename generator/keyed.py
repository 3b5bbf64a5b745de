"""Files described by what they are made from, so the writer makes only those whose inputs
changed: the feeds, the BibTeX files, the sitemap and the search documents, beside the pages.

After one paper is edited in a large digest, most of these files are still what the last
build made: a tag's feed whose papers are the same, a chunk of search documents that does not
hold the paper. Their key (a hash of their inputs) says so without making them, and the writer
links them from the last build as it does unchanged pages (output.write_site)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .memo import code_version, value_key
from .output import Producer
from .records import OutputFile, Paper


@dataclass(frozen=True)
class KeyedFile:
    """One output file: its path, everything its bytes depend on, and how to make them."""

    path: str
    inputs: Any
    """Plain values (see memo.value_key); the code's version is added to them."""
    make: Callable[[], bytes]

    def made(self) -> OutputFile:
        return OutputFile(self.path, self.make())


def identity(paper: Paper) -> str | Paper:
    """What stands for a paper in a key: its source_key, or all of it if made without one."""
    return paper.source_key or paper


def identities(papers: Sequence[Paper]) -> tuple[str | Paper, ...]:
    keys = tuple(map(_source_key, papers))  # why: in C; a list page's key shows 50 papers
    return keys if all(keys) else tuple(map(identity, papers))


_source_key = operator.attrgetter("source_key")


@dataclass(frozen=True)
class FilePlan:
    """KeyedFiles as a Producer for output.write_site."""

    files: list[KeyedFile]

    def __len__(self) -> int:
        return len(self.files)

    def keys(self) -> list[tuple[str, str]]:
        code = code_version()
        return [(file.path, value_key(code, file.path, file.inputs)) for file in self.files]

    def make(self, number: int) -> OutputFile:
        return self.files[number].made()

    def near(self, number: int) -> int:
        return -1  # why: the largest (all.bib, the sitemap) show every paper; made first


@dataclass(frozen=True)
class Chained:
    """Several Producers as one, numbered one after the other."""

    parts: tuple[Producer, ...]

    def __len__(self) -> int:
        return sum(map(len, self.parts))

    def keys(self) -> list[tuple[str, str]]:
        return [key for part in self.parts for key in part.keys()]

    def make(self, number: int) -> OutputFile:
        part, local = self._find(number)
        return part.make(local)

    def near(self, number: int) -> int:
        part, local = self._find(number)
        return part.near(local)

    def _find(self, number: int) -> tuple[Producer, int]:
        for part in self.parts:
            if number < len(part):
                return part, number
            number -= len(part)
        raise IndexError(number)
