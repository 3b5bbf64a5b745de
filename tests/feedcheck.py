"""The feed check: what a validator and a feed reader would say about one RSS file.

`feed_problems()` returns every problem found, as readable lines; an empty list is a pass.
It checks: well-formed XML (lxml), the RSS 2.0 elements a channel and an item need, RFC 822
dates, absolute links that resolve inside the built site, unique guids, and that every title
and description comes back out of feedparser as exactly the source text (escaped once, never
twice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.utils import format_datetime, parsedate_to_datetime
from typing import Callable
from urllib.parse import urlsplit

import feedparser
from lxml import etree
from lxml import html as lxml_html

ATOM_LINK = "{http://www.w3.org/2005/Atom}link"
RFC822 = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep"
                    r"|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$")
CHANNEL_REQUIRED = ("title", "link", "description")
ITEM_REQUIRED = ("title", "link", "description", "guid", "pubDate")


@dataclass(frozen=True)
class Expected:
    """What one item must say, keyed by its link."""

    title: str
    text: str
    """The visible text of the description, whitespace collapsed."""


def visible_text(fragment: str) -> str:
    """The text a reader sees in an HTML fragment, whitespace collapsed."""
    if not fragment.strip():
        return ""
    root = lxml_html.fragment_fromstring(fragment, create_parent="div")
    return " ".join(" ".join(root.itertext()).split())


def rfc822_problem(where: str, value: str | None) -> str | None:
    """None for a valid RFC 822 date in the form RSS readers expect."""
    if not value or not RFC822.match(value):
        return f"{where}: {value!r} is not an RFC 822 date like 'Thu, 24 Apr 2025 00:00:00 GMT'"
    parsed = parsedate_to_datetime(value)
    if value.endswith("GMT") and format_datetime(parsed, usegmt=True) != value:
        return f"{where}: {value!r} names the wrong weekday or an impossible day"
    return None


def feed_problems(data: bytes, base_url: str, resolves: Callable[[str], bool],
                  expected: dict[str, Expected] | None = None) -> list[str]:
    """Every problem of one RSS feed; `resolves(url)` says if an absolute URL names a file."""
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as error:
        return [f"not well-formed XML: {error}"]
    found = _structure(root) + _links(root, base_url, resolves) + _guids(root)
    return found + _round_trip(data, expected)


def _structure(root: etree._Element) -> list[str]:
    found = []
    if root.tag != "rss" or root.get("version") != "2.0":
        return [f"root is <{root.tag} version={root.get('version')!r}>, not <rss version='2.0'>"]
    channels = root.findall("channel")
    if len(channels) != 1:
        return [f"{len(channels)} <channel> elements, RSS 2.0 needs exactly one"]
    channel = channels[0]
    found += [f"channel has no <{name}>" for name in CHANNEL_REQUIRED
              if not (channel.findtext(name) or "").strip()]
    found += filter(None, [rfc822_problem("channel lastBuildDate", channel.findtext("lastBuildDate"))])
    if not [link for link in channel.findall(ATOM_LINK) if link.get("rel") == "self"]:
        found.append("channel has no atom:link rel='self'")
    for i, item in enumerate(channel.findall("item")):
        where = f"item {i + 1} ({item.findtext('title')!r})"
        found += [f"{where} has no <{name}>" for name in ITEM_REQUIRED
                  if not (item.findtext(name) or "").strip()]
        found += filter(None, [rfc822_problem(f"{where} pubDate", item.findtext("pubDate"))])
    return found


def _links(root: etree._Element, base_url: str, resolves: Callable[[str], bool]) -> list[str]:
    channel = root.find("channel")
    urls = [("channel link", channel.findtext("link"))]
    urls += [("atom:link self", link.get("href")) for link in channel.findall(ATOM_LINK)]
    urls += [(f"item {i + 1} link", item.findtext("link"))
             for i, item in enumerate(channel.findall("item"))]
    found = []
    for where, url in urls:
        parts = urlsplit(url or "")
        if parts.scheme not in ("http", "https") or not parts.netloc:
            found.append(f"{where}: {url!r} is not an absolute http(s) URL")
        elif not url.startswith(base_url):
            found.append(f"{where}: {url!r} is not under the site's base URL {base_url}")
        elif not resolves(url):
            found.append(f"{where}: {url!r} names no file of the built site")
    return found


def _guids(root: etree._Element) -> list[str]:
    guids = [item.findtext("guid") for item in root.iter("item")]
    return [f"guid {g!r} is used by {guids.count(g)} items" for g in sorted(set(guids), key=str)
            if guids.count(g) > 1]


def _round_trip(data: bytes, expected: dict[str, Expected] | None) -> list[str]:
    feed = feedparser.parse(data)
    if feed.bozo:
        return [f"feedparser: {feed.bozo_exception!r}"]
    if feed.version != "rss20":
        return [f"feedparser reads the feed as {feed.version!r}, not rss20"]
    if expected is None:
        return []
    found = []
    for entry in feed.entries:
        want = expected.get(entry.link)
        if want is None:
            found.append(f"item {entry.link} is not one of the expected papers")
            continue
        if entry.title != want.title:
            found.append(f"{entry.link}: title comes back as {entry.title!r}, source is {want.title!r}")
        shown = visible_text(entry.get("summary", ""))
        if shown != want.text:
            found.append(f"{entry.link}: description reads {shown[:160]!r}…, "
                         f"source is {want.text[:160]!r}…")
    missing = set(expected) - {entry.link for entry in feed.entries}
    found += [f"expected item {link} is missing" for link in sorted(missing)]
    return found


def expected_item(paper, said: Callable[[str], str] = str) -> Expected:  # noqa: ANN001 - a Paper
    """What a paper's feed item must read as: its title, and abstract, notes and link labels;
    `said` gives the interface's words in the site's language (English as written by default)."""
    parts = [paper.abstract_text]
    if paper.notes_html:
        parts += [said("Curator’s notes"), paper.notes_text]
    # why: 'Code' and 'Project page' are words of the interface; arXiv, PDF, DOI are names
    parts += [said(link.label) if link.kind in ("code", "project") else link.label
              for link in paper.links]
    return Expected(paper.title, " ".join(" ".join(parts).split()))
