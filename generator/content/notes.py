"""The curator's Markdown notes: rendered, then sanitised so no markup or script gets through."""

from __future__ import annotations

import functools
import html
import re

import markdown
import nh3

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
    rendered = converter.convert(_escape_open_brackets(body))
    rendered = _demote_headings(rendered)
    return nh3.clean(rendered, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_SCHEMES,
                     link_rel="noopener nofollow").strip()


OPEN_BRACKETS = 50
"""Brackets no ']' closes, beyond which they are escaped before Markdown reads the notes."""


def _escape_open_brackets(body: str) -> str:
    """The body with each '[' that no ']' closes escaped ('\\['), when there are more than
    OPEN_BRACKETS of them: Python-Markdown looks for the ']' of every '[' to the end of the
    text, so 20 KB of '[' took 37 s. A few open brackets, as real notes have, stay as written."""
    open_at, i = [], 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            i += 1  # why: an escaped bracket opens or closes nothing
        elif char == "[":
            open_at.append(i)
        elif char == "]" and open_at:
            open_at.pop()
        i += 1
    if len(open_at) <= OPEN_BRACKETS:
        return body
    pieces, start = [], 0
    for at in open_at:
        pieces += [body[start:at], "\\"]
        start = at
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
