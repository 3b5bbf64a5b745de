"""When two records are the same paper, and when two tags are the same topic.

Importing matches an incoming paper to an existing file with these; `check --strict`
reports duplicates with the same rules, so the two can never disagree.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable

# Strongest first: a shared arXiv id outranks a shared title.
ID_KINDS = ("arxiv", "openreview", "doi")
_ARXIV_VERSION = re.compile(r"v\d+$")
_ID_IN_URL = {
    "arxiv": re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?$", re.I),
    "openreview": re.compile(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_-]+)", re.I),
    "doi": re.compile(r"doi\.org/(10\..+)$", re.I),
}
# why: arXiv's own DOIs name the same paper as its arXiv id
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
# why: a word, with the '++' or '#' that makes 'C++' and 'C#' other languages than 'C' (and
# other pages: see model.slugs)
_WORD = re.compile(r"[^\W_]+\+\+|(?<![^\W_])[^\W\d_]#(?![^\W_])|[^\W_]+")


def normalise_title(title: str) -> str:
    """Lowercase letters and digits of a title, one space apart: 'Attention Is All You
    Need.' and 'attention is all you need' are the same title."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", title).casefold()
                    if not unicodedata.combining(c))
    return " ".join(_WORD.findall(plain))


def paper_id(kind: str, value: str) -> str:
    """The bare, comparable id in a link value (an id or a URL), '' when there is none."""
    found = _ID_IN_URL[kind].search(value) if "://" in value else None
    bare = found.group(1) if found else value.strip()
    if kind == "arxiv":
        bare = _ARXIV_VERSION.sub("", bare)
    if kind == "doi":
        bare = bare.lower()
    return bare if bare and "://" not in bare else ""


def identities(links: dict[str, str], title: str) -> tuple[str, ...]:
    """Every name a paper is known by, strongest first: 'arxiv:2409.05657', 'doi:10…',
    'title:attention is all you need'. Two papers sharing any of these are one paper."""
    names = []
    for kind in ID_KINDS:
        bare = paper_id(kind, links.get(kind, ""))
        if bare:
            names.append(f"{kind}:{bare}")
    arxiv_doi = _ARXIV_DOI.match(paper_id("doi", links.get("doi", "")))
    if arxiv_doi:
        names.append(f"arxiv:{_ARXIV_VERSION.sub('', arxiv_doi.group(1))}")
    if normalise_title(title):
        names.append(f"title:{normalise_title(title)}")
    return tuple(dict.fromkeys(names))


def conflicting_id(names: tuple[str, ...], others: tuple[str, ...]) -> str:
    """The first id kind both papers give with no value in common ('arxiv'), '' when none:
    two records with different arXiv, OpenReview or publisher DOI ids are two papers, however
    alike their titles ('Introduction'). An arXiv DOI counts as its arXiv id, not as a DOI, so a
    preprint and its published version are not told apart by it."""
    mine, theirs = _ids_by_kind(names), _ids_by_kind(others)
    return next((kind for kind in ID_KINDS
                 if mine.get(kind) and theirs.get(kind) and not mine[kind] & theirs[kind]), "")


def shared_identity(names: tuple[str, ...], others: tuple[str, ...]) -> str:
    """The strongest name that makes two papers one, '' when they are two: a shared id, else a
    shared title when no id of one kind differs (see conflicting_id)."""
    theirs = set(others)
    shared = [name for name in names if name in theirs]
    if not shared or (shared[0].startswith("title:") and conflicting_id(names, others)):
        return ""
    return shared[0]


def _ids_by_kind(names: tuple[str, ...]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name in names:
        kind, _, value = name.partition(":")
        if kind in ID_KINDS and not (kind == "doi" and _ARXIV_DOI.match(value)):
            found.setdefault(kind, set()).add(value)
    return found


@functools.lru_cache(maxsize=1 << 16)
def normalise_tag(name: str) -> str:
    """A tag as the site files it: lowercase words joined by hyphens ('Large Language
    Models' -> 'large-language-models'); letters of other scripts kept ('机器学习')."""
    return "-".join(_WORD.findall(unicodedata.normalize("NFKC", name).casefold()))


def _tag_stem(name: str) -> str:
    """What is left of a tag once case, separators and a plural 's' are gone."""
    words = normalise_tag(name).split("-")
    return "".join(word[:-1] if len(word) > 3 and word.endswith("s") else word for word in words)


def _initials(name: str) -> str:
    words = normalise_tag(name).split("-")
    return "".join(word[0] for word in words if word) if len(words) > 1 else ""


def near_tags(tag: str, known: list[str] | tuple[str, ...]) -> list[str]:
    """Known tags that differ from `tag` only in case, separators or a plural, or that are
    its initials ('LLM' near 'llms' and 'large-language-models'); `tag` itself excluded."""
    return TagIndex(known).near(tag)


class TagIndex:
    """Tags filed by what near_tags compares (their stem, their initials), so that the near
    spellings of one tag are a few look-ups, not a pass over every tag: a conference's 9,000
    keywords are checked against each other in linear time, not quadratic."""

    def __init__(self, tags: Iterable[str] = ()):
        self._order: dict[str, int] = {}
        self._by_stem: dict[str, list[str]] = {}
        self._by_initials: dict[str, list[str]] = {}
        for tag in tags:
            self.add(tag)

    def add(self, tag: str) -> None:
        """File one more tag; one filed already is left as it is."""
        if tag in self._order:
            return
        self._order[tag] = len(self._order)
        self._by_stem.setdefault(_tag_stem(tag), []).append(tag)
        if initials := _initials(tag):
            for key in (initials, initials + "s"):
                self._by_initials.setdefault(key, []).append(tag)

    def near(self, tag: str) -> list[str]:
        """The filed tags near `tag` (see near_tags), in the order they were filed."""
        stem, initials = _tag_stem(tag), _initials(tag)
        found = {*self._by_stem.get(stem, ()), *self._by_initials.get(stem, ())}
        if initials:
            found.update(self._by_stem.get(initials, ()), self._by_stem.get(initials + "s", ()))
        found.discard(tag)
        return sorted(found, key=self._order.__getitem__)
