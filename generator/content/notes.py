"""The curator's Markdown notes: rendered, then sanitised so no markup or script gets through."""

from __future__ import annotations

import functools
import html
import re

import nh3

from ..model.lazy import library

markdown = library("markdown")

_EXTENSIONS = ["extra", "sane_lists"]
# why: Markdown passes raw HTML and any link scheme through; ammonia (nh3) is a maintained
# allow-list sanitiser, safer than hand-written filtering of python-markdown's output.
_SCHEMES = {"http", "https", "mailto"}
_TAGS = {"a", "abbr", "blockquote", "br", "code", "del", "dd", "dl", "dt", "em", "h3",
         "h4", "h5", "h6", "hr", "img", "li", "ol", "p", "pre", "strong", "sub", "sup", "table",
         "tbody", "td", "th", "thead", "tr", "ul"}
_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "td": {"align"},
               "th": {"align"}, "abbr": {"title"}}


def notes_to_html(body: str) -> str:
    """Markdown body to safe HTML; '' for an empty body."""
    if not body.strip():
        return ""
    converter = _converter()
    converter.reset()
    prepared = _escape_open_brackets(body)
    rendered = converter.convert(prepared)
    if prepared is not body:
        for bracket, stand_in in _STAND_INS.items():
            rendered = rendered.replace(stand_in, bracket)
    rendered = _demote_headings(rendered)
    return nh3.clean(rendered, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_SCHEMES,
                     link_rel="noopener nofollow").strip()


OPEN_BRACKETS = 50
"""Brackets of one kind that nothing closes, beyond which Markdown is not shown them."""
_CLOSERS = {"[": "]", "(": ")"}
_STAND_INS = {"[": "\ue000", "(": "\ue001"}
"""Private-use characters that stand for open brackets while Markdown reads the notes: plain
text to it, and put back as the brackets in what it writes."""


def _escape_open_brackets(body: str) -> str:
    """The body with each '[' or '(' that nothing closes replaced by its stand-in, when there are
    more than OPEN_BRACKETS of that kind: Python-Markdown looks for the end of every link to the
    end of the text, so 20 KB of '[' took 37 s and 20 KB of '[a](' minutes (escaping them with
    a backslash or as entities still took seconds). A few open brackets, as real notes have,
    stay as written."""
    open_at: dict[str, list[int]] = {"[": [], "(": []}
    closing = {closer: opener for opener, closer in _CLOSERS.items()}
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            i += 1  # why: an escaped bracket opens or closes nothing
        elif char in open_at:
            open_at[char].append(i)
        elif char in closing and open_at[closing[char]]:
            open_at[closing[char]].pop()
        i += 1
    escaped = sorted(at for kind in open_at.values() if len(kind) > OPEN_BRACKETS for at in kind)
    if not escaped:
        return body
    pieces, start = [], 0
    for at in escaped:
        pieces += [body[start:at], _STAND_INS[body[at]]]
        start = at + 1
    return "".join(pieces) + body[start:]


@functools.cache
def _converter() -> markdown.Markdown:
    # why: making a Markdown instance costs more than converting a short note with it
    return markdown.Markdown(extensions=_EXTENSIONS, output_format="html")


def html_to_text(fragment: str) -> str:
    """Visible text of an HTML fragment, whitespace collapsed."""
    text = re.sub(r"<[^>]*>", " ", fragment)
    return " ".join(html.unescape(text).split())


def _demote_headings(rendered: str) -> str:
    # why: notes sit under the page's <h1> and the "Curator's notes" <h2>, so '# x' is an <h3>.
    return re.sub(r"<(/?)h([1-6])\b", lambda m: f"<{m[1]}h{min(int(m[2]) + 2, 6)}", rendered)
