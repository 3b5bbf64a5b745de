"""What every format reader does to untrusted values: plain text, checked ids, http(s) links.

Nothing a source file says is trusted: text stays text (the site escapes it), control
characters go, ids must be ids, links must be http(s). A value that fails is left out
and the reason kept for the import report (IncomingPaper.dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pylatexenc.latex2text import LatexNodes2Text

from ..content.links import PAGE_SITES, is_http_url, page_site, resolve
from ..model.errors import BuildFailed, ContentError

MAX_TEX_DEPTH = 24
"""Deeper brace nesting in a title or name is refused: the TeX decoder recurses on it."""

_TEX = LatexNodes2Text()  # why: costly to make; stateless between calls
_SPACES = re.compile(r"\s+")
_TERMINAL_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# why: the build's FORBIDDEN and C1's controls (U+0080-U+009F), which no title needs
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
_PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_BARE_PERCENT = re.compile(r"(?<!\\)%")
_ARXIV_URL = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?/?$",
                        re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
_OPENREVIEW_URL = re.compile(r"^https?://(?:www\.)?openreview\.net/(?:forum|pdf)\?id=([^&#]+)",
                             re.I)
_DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(.+)$", re.I)
_CODE_HOSTS = re.compile(r"^https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/", re.I)
_VERSION = re.compile(r"v\d+$")
# why: the text macros a .bib writes for a literal backslash, brace or caret (all.bib does,
# and the NeurIPS proceedings write `\lbrace`); they pass the decoder as private-use
# characters, since its output loses every \, { and }
_LITERAL_MACROS = {"textbackslash": "\\", "textbraceleft": "{", "textbraceright": "}",
                   "textasciicircum": "^", "lbrace": "{", "rbrace": "}"}
_LITERAL_MACRO = re.compile(r"\\(" + "|".join(_LITERAL_MACROS) + r")(?:\{\}|(?![A-Za-z])\s*)")
STAND_IN = {char: chr(0xE000 + n) for n, char in enumerate("\\{}^$~")}
"""A literal character as it passes the decoder (see tex_to_text and importers/titles.py)."""
_FROM_STAND_IN = {ord(stand_in): char for char, stand_in in STAND_IN.items()}
_PLANTED = re.compile("[\ue000-\ue1ff]")
# why: most names and titles are plain text, which the decoder (~150 µs a call, half of a
# large import) would give back as it is; only these characters ask it for anything
_TEX_MARKUP = re.compile(r"[\\{}$%~^&#_`\"<>]|--|''|[!?]`")


MAX_MESSAGE = 400
"""A longer message is cut in its middle: a value quoted whole (ten thousand braces) is noise."""
REPEATS_SHOWN = 10
"""How many errors with one message are printed before 'and N more like it'."""


class Problems:
    """The errors found in one file (or one entry of it), raised together once it is read,
    and what was repaired in it, kept as warnings."""

    def __init__(self, shown: str):
        self.shown = shown
        self.errors: list[ContentError] = []
        self.warnings: list[ContentError] = []
        self._seen: dict[str, int] = {}

    def error(self, line: int, message: str) -> None:
        """Record one problem at `line` of the file (its text safe for a terminal, cut when
        long); past REPEATS_SHOWN of one message, only counted."""
        message = terminal_safe(message)
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE * 2 // 3]} […] {message[-MAX_MESSAGE // 3:]}"
        seen = self._seen[message] = self._seen.get(message, 0) + 1
        if seen <= REPEATS_SHOWN:
            self.errors.append(ContentError(self.shown, line, message))

    def warn(self, line: int, message: str) -> None:
        """Record what was repaired at `line` of the file."""
        self.warnings.append(ContentError(self.shown, line, terminal_safe(message)))

    def raise_if_any(self) -> None:
        """BuildFailed with every problem, if there was one; a message repeated past
        REPEATS_SHOWN times is followed by one line 'and N more like it'."""
        more = [ContentError(self.shown, line, f"and {seen - REPEATS_SHOWN:,} more like it ('{message[:40]}…')")
                for message, seen in self._seen.items() if seen > REPEATS_SHOWN
                for line in [max(e.line for e in self.errors if e.message == message)]]
        if self.errors:
            raise BuildFailed(self.errors + more)


def short(value: str, limit: int = 60) -> str:
    """An untrusted value quoted in a message: one line, cut to `limit` characters."""
    value = one_line(value)
    return value if len(value) <= limit else f"{value[:limit]}… ({len(value):,} characters)"


def terminal_safe(message: str) -> str:
    """A message quoting untrusted text, as one line with no control characters: an escape
    sequence in a title must not reach the curator's terminal as one."""
    return _SPACES.sub(" ", _TERMINAL_CONTROL.sub("", message)).strip()


def printable(text: str) -> str:
    """A report line quoting untrusted text, its spacing kept: a line break or tab is a space,
    every other control character (C1's U+009B, an escape sequence's ESC) is gone."""
    return _TERMINAL_CONTROL.sub("", text.replace("\n", " ").replace("\t", " "))


def without_controls(text: str) -> str:
    """Text with its line breaks and tabs, and no other control character."""
    return _CONTROLS.sub("", text)


def one_line(text: str) -> str:
    """A title, name or venue: control characters gone, every run of whitespace one space."""
    return _SPACES.sub(" ", _CONTROLS.sub("", text)).strip()


def unwrap(text: str) -> str:
    """An abstract with its hard line breaks joined: paragraphs (a blank line between) kept,
    every other run of whitespace one space; LaTeX and everything else kept as written."""
    text = _CONTROLS.sub("", text.replace("\r\n", "\n"))
    paragraphs = _PARAGRAPH.split(text.strip())
    return "\n\n".join(p for p in (_SPACES.sub(" ", p).strip() for p in paragraphs) if p)


def tex_to_text(tex: str) -> str:
    """Plain Unicode for a TeX title, name or venue: '{\\"O}ptimal {GANs}' -> 'Öptimal GANs'.

    Raises ValueError when braces nest too deep to decode. A backslash, brace or caret is
    kept only when written as its text macro ('\\textbraceleft{}'): a bare one is TeX's.
    """
    return decode_tex(without_stand_ins(tex))


def without_stand_ins(text: str) -> str:
    """`text` without the private-use characters the decoder lends a meaning to: a source
    cannot plant one."""
    return _PLANTED.sub("", text) if _PLANTED.search(text) else text


def decode_tex(tex: str) -> str:
    """tex_to_text() of a text whose STAND_IN characters stand for their literal characters."""
    if not _TEX_MARKUP.search(tex):
        return one_line(tex.translate(_FROM_STAND_IN))
    if _depth(tex) > MAX_TEX_DEPTH:
        raise ValueError(f"braces nest more than {MAX_TEX_DEPTH} deep")
    tex = _LITERAL_MACRO.sub(lambda m: STAND_IN[_LITERAL_MACROS[m.group(1)]], tex)
    # why: a bare % starts a TeX comment, but Scholar writes '5% faster' unescaped
    escaped = _BARE_PERCENT.sub(r"\\%", tex)
    try:
        text = _TEX.latex_to_text(escaped)
    except (IndexError, KeyError, ValueError):
        # why: pylatexenc fails on a few macros (`\href{url}{text}`); dropping the macro
        # names and keeping their arguments' text is what a reader of the title needs
        text = re.sub(r"\\[A-Za-z]+\*?\s*|\\(?=[^A-Za-z])", "", tex)
    return one_line(re.sub(r"[\\{}]", "", text).translate(_FROM_STAND_IN))


def _depth(tex: str) -> int:
    deepest = depth = 0
    for char in tex:
        if char in "{}":
            depth += 1 if char == "{" else -1
            deepest = max(deepest, depth)
    return deepest


def split_keywords(text: str) -> tuple[str, ...]:
    """'GANs; causal inference, robustness' -> ('GANs', 'causal inference', 'robustness')."""
    return tuple(dict.fromkeys(k for k in (one_line(part) for part in re.split(r"[,;]", text)) if k))


@dataclass
class Links:
    """A paper's links as a reader finds them, each checked before it is kept."""

    found: dict[str, str] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)

    def add_id(self, kind: str, value: str, source: str) -> None:
        """Keep `value` as the paper's `kind` id if it is a valid one; the first one wins."""
        bare = _VERSION.sub("", value.strip()) if kind == "arxiv" else value.strip()
        if not checked_id(kind, bare):
            self.dropped.append(f"{source} '{one_line(value)}' is not a valid {kind} id; left out")
        elif kind not in self.found:
            self.found[kind] = bare

    def add_url(self, url: str, source: str, kind: str = "") -> None:
        """Keep an http(s) URL as `kind`; with no kind given, arXiv, OpenReview and DOI URLs as
        their ids, a code host's as 'code', a .pdf as 'pdf', anything else as 'project'."""
        url = url.strip()
        if not is_http_url(url):
            self.dropped.append(f"{source} '{one_line(url)}' is not an http(s) URL; left out")
            return
        if not kind and _DOI_URL.match(url):
            self.add_doi(url, source)
            return
        for id_kind, pattern in (("arxiv", _ARXIV_URL), ("openreview", _OPENREVIEW_URL)):
            if not kind and (match := pattern.match(url)):
                self.add_id(id_kind, match.group(1), source)
                return
        kind = kind or ("code" if _CODE_HOSTS.match(url) else "pdf" if _is_pdf(url) else "project")
        self.found.setdefault(kind, url)

    def add_paper_url(self, url: str, source: str) -> None:
        """A reference's own `url`: an arXiv, OpenReview or DOI address as its id, a PDF as
        the PDF, a code host's as code; a page of a proceedings' site (the ACL Anthology,
        PMLR, the NeurIPS proceedings: content/links.py's PAGE_SITES), or any other page next
        to an id (Zotero writes the publisher's), as the paper's own `page`; else a project."""
        url = url.strip()
        beside_id = bool({"doi", "arxiv", "openreview"} & set(self.found))
        ids = (_DOI_URL, _ARXIV_URL, _OPENREVIEW_URL, _CODE_HOSTS)
        page = is_http_url(url) and not any(pattern.match(url) for pattern in ids) \
            and not _is_pdf(url) and (beside_id or page_site(url) in PAGE_SITES.values())
        self.add_url(url, source, "page" if page else "")

    def add_doi(self, value: str, source: str) -> None:
        """A DOI, written bare or as a doi.org URL; arXiv's own DOIs give the arXiv id instead."""
        value = value.strip()
        if match := _DOI_URL.match(value):
            value = match.group(1)
        if match := _ARXIV_DOI.match(value):
            # why: 10.48550/arXiv.X names the arXiv preprint; a DOI link would repeat it
            self.add_id("arxiv", match.group(1), source)
        else:
            self.add_id("doi", value, source)


def _is_pdf(url: str) -> bool:
    return url.lower().split("?")[0].endswith(".pdf")


def checked_id(kind: str, value: str) -> bool:
    """True when `value` is an id of `kind` as a content file's `links:` accepts it."""
    try:
        return resolve(kind, value)[1] == value
    except ValueError:  # why: a LinkProblem says why; the importer only needs yes or no
        return False
