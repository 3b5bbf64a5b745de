"""When two records are the same paper, and when two tags are the same topic.

Importing matches an incoming paper to an existing file with these; `check --strict`
reports duplicates with the same rules, so the two can never disagree.
"""

from __future__ import annotations

import re
import unicodedata

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


def normalise_title(title: str) -> str:
    """Lowercase letters and digits of a title, one space apart: 'Attention Is All You
    Need.' and 'attention is all you need' are the same title."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", title).casefold()
                    if not unicodedata.combining(c))
    return " ".join(re.findall(r"[^\W_]+", plain))


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


def normalise_tag(name: str) -> str:
    """A tag as the site files it: lowercase words joined by hyphens ('Large Language
    Models' -> 'large-language-models'); letters of other scripts kept ('机器学习')."""
    return "-".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", name).casefold()))


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
    stem = _tag_stem(tag)
    near = []
    for other in known:
        if other == tag:
            continue
        if _tag_stem(other) == stem or stem in (_initials(other), _initials(other) + "s") \
                or _tag_stem(other) in (_initials(tag), _initials(tag) + "s"):
            near.append(other)
    return near
