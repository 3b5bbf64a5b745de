"""The RSS 2.0 feed."""

from __future__ import annotations

import datetime as dt
import html
import re
from email.utils import format_datetime
from xml.etree import ElementTree as ET

from . import urls as paths
from .records import OutputFile, Paper, Site
from .urls import Urls

ATOM = "http://www.w3.org/2005/Atom"
DC = "http://purl.org/dc/elements/1.1/"
ET.register_namespace("atom", ATOM)
ET.register_namespace("dc", DC)
GENERATOR = "paper-digest"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def paper_guid(paper: Paper) -> str:
    """An id that survives a change of slug or domain: the arXiv, OpenReview or DOI id."""
    if "arxiv" in paper.ids:
        return "arxiv:" + re.sub(r"v\d+$", "", paper.ids["arxiv"])
    for kind in ("openreview", "doi"):
        if kind in paper.ids:
            return f"{kind}:{paper.ids[kind]}"
    return f"paper:{paper.slug}"


def rfc822(day: dt.date | dt.datetime) -> str:
    """RFC 822 date as RSS wants it, in UTC."""
    if not isinstance(day, dt.datetime):
        day = dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
    return format_datetime(day.astimezone(dt.timezone.utc), usegmt=True)


def feed_file(site: Site) -> OutputFile:
    """/feed.xml: every paper, newest first."""
    urls = Urls(site.config.base_url)
    return OutputFile(paths.FEED, rss(site, site.papers, urls, paths.FEED))


def rss(site: Site, papers: tuple[Paper, ...], urls: Urls, self_path: str) -> bytes:
    """An RSS 2.0 document for `papers`, with autodiscovery's self link."""
    config = site.config
    root = ET.Element("rss", {"version": "2.0"})
    channel = ET.SubElement(root, "channel")
    _text(channel, "title", config.title)
    _text(channel, "link", urls.absolute(paths.HOME))
    _text(channel, "description", config.description or config.subtitle or config.title)
    _text(channel, "language", config.language)
    _text(channel, "lastBuildDate", rfc822(site.updated))
    _text(channel, "generator", GENERATOR)
    ET.SubElement(channel, f"{{{ATOM}}}link", {"href": urls.absolute(self_path), "rel": "self",
                                                "type": "application/rss+xml"})
    for paper in papers:
        _item(channel, paper, urls)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _item(channel: ET.Element, paper: Paper, urls: Urls) -> None:
    item = ET.SubElement(channel, "item")
    _text(item, "title", paper.title)
    _text(item, "link", urls.absolute(paths.paper_file(paper.slug)))
    ET.SubElement(item, "guid", {"isPermaLink": "false"}).text = paper_guid(paper)
    _text(item, "pubDate", rfc822(paper.date))
    _text(item, f"{{{DC}}}creator", ", ".join(paper.authors))
    # why: readers take an RSS description as HTML, so plain text is HTML-escaped first
    # (ElementTree then escapes it for XML); '<T>' shows as '<T>', not as a tag.
    _text(item, "description", html.escape(paper.abstract_text, quote=False))
    for tag in paper.tags:
        _text(item, "category", tag.name)


def _text(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, name).text = xml_safe(value)


def xml_safe(value: str) -> str:
    """Drop the control characters XML 1.0 cannot carry at all (ElementTree would emit them)."""
    return _XML_INVALID.sub("", value)
