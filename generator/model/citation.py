"""Citation keys: `lastname` + year + first significant title word, unique across the site."""

from __future__ import annotations

import operator
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # why: records make each paper's base_key() as the paper is made
    from .records import Paper

_STOPWORDS = frozenset(
    "a an the on of in for to and or with without from by at via is are be do does can "
    "how what why when where which who towards toward into onto over under your our its "
    "not no beyond all".split())
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_ARXIV_NEW = re.compile(r"^(\d\d)(\d\d)\.\d{4,5}")
_NOT_KEY_CHAR = re.compile(r"[^a-z0-9]")
_TITLE_WORD_BREAK = re.compile(r"[\s\-–—:/]+")
_VERSION = re.compile(r"v\d+$")


def arxiv_base(arxiv_id: str) -> str:
    """An arXiv id without its version: '2406.16257v2' and '2406.16257' are one paper."""
    return _VERSION.sub("", arxiv_id) if "v" in arxiv_id else arxiv_id


def ascii_word(text: str) -> str:
    """Lowercase ASCII letters and digits of `text` ('Müller-Lee' -> 'mullerlee')."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_KEY_CHAR.sub("", folded.lower())


def publication_year(paper: Paper) -> int:
    """The venue's year ('ICLR 2025'), else the arXiv id's (2409.x), else the date added."""
    found = _YEAR.search(paper.venue)
    if found:
        return int(found.group())
    arxiv = _ARXIV_NEW.match(paper.ids.get("arxiv", ""))
    if arxiv:
        return 2000 + int(arxiv.group(1))
    return paper.date.year


def work_url(paper: Paper, page_url: str) -> str:
    """The URL a reference manager should keep for the work: its own page at the proceedings
    (links.page), else its arXiv, OpenReview or DOI page, else its PDF; `page_url` (its page in
    this digest) only when the paper has none of these."""
    links = {link.kind: link.url for link in paper.links}
    return next((links[kind] for kind in _WORK_KINDS if kind in links), page_url)


_WORK_KINDS = ("page", "arxiv", "openreview", "doi", "pdf")


def own_pdf(paper: Paper, url: str) -> str:
    """The paper's PDF when it is given (not the one its arXiv or OpenReview id gives) and is
    not `url` (its work_url) already, else '' (PMLR's entries give both the page and the PDF)."""
    pdf = next((link.url for link in paper.links if link.kind == "pdf"), "")
    derived = (f"https://arxiv.org/pdf/{paper.ids['arxiv']}" if "arxiv" in paper.ids else
               f"https://openreview.net/pdf?id={paper.ids['openreview']}"
               if "openreview" in paper.ids else "")
    return "" if pdf in (url, derived) else pdf


def openreview_beside(paper: Paper, url: str) -> str:
    """The paper's OpenReview id when `url` (its work_url) does not already give it, else ''
    (an arXiv paper's URL is its arXiv page, so a citation would lose the id)."""
    forum = paper.ids.get("openreview", "")
    return forum if forum and forum not in url else ""


def base_key(paper: Paper) -> str:
    """`lastname` + year + first significant title word, all lowercase ASCII."""
    first = paper.authors[0] if paper.authors else ""
    last = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    words = map(ascii_word, _TITLE_WORD_BREAK.split(paper.title))
    word = next((w for w in words if w and w not in _STOPWORDS), "")
    return f"{ascii_word(last) or 'anon'}{publication_year(paper)}{word}"


def assign_keys(papers: tuple[Paper, ...] | list[Paper]) -> dict[str, str]:
    """slug -> citation key, unique across the site."""
    # why: on a collision the paper added first keeps the plain key and later ones get b, c, ...,
    # so adding a paper never changes the key of one someone has already cited.
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in sorted(papers, key=_added):
        base = paper.cite_base
        key, n = base, 1
        while key in taken:
            n += 1
            key = base + _suffix(n)
        taken.add(key)
        keys[paper.slug] = key
    return keys


_added = operator.attrgetter("date", "slug")


def _suffix(n: int) -> str:
    """2 -> 'b', 26 -> 'z', 27 -> 'aa': a letter suffix for the n-th paper with one key."""
    letters = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters
