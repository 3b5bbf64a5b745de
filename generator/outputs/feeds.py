"""RSS 2.0 feeds: the whole digest, and one per group of a grouping that has them (tags);
outputs/kinds.py says which."""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass
from email.utils import format_datetime
from xml.etree import ElementTree as ET

from ..model.citation import arxiv_base
from ..model import urls as paths
from ..model.records import FileJob, Group, Paper, Site, SiteConfig, Templates
from ..model.site import newest_day
from ..model.urls import Urls
from .interface import Interface, interface, link_label
from .xmlout import xml_document

ATOM = "http://www.w3.org/2005/Atom"
DC = "http://purl.org/dc/elements/1.1/"
ET.register_namespace("atom", ATOM)
ET.register_namespace("dc", DC)
GENERATOR = "paper-digest"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def paper_guid(paper: Paper) -> str:
    """An id that survives a change of slug or domain: the arXiv, OpenReview or DOI id."""
    if "arxiv" in paper.ids:
        return "arxiv:" + arxiv_base(paper.ids["arxiv"])
    for kind in ("openreview", "doi"):
        if kind in paper.ids:
            return f"{kind}:{paper.ids[kind]}"
    return f"paper:{paper.slug}"


def rfc822(day: dt.date | dt.datetime) -> str:
    """RFC 822 date as RSS wants it, in UTC."""
    if not isinstance(day, dt.datetime):
        day = dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
    return format_datetime(day.astimezone(dt.timezone.utc), usegmt=True)


@dataclass(frozen=True)
class Channel:
    """What one feed says about itself."""

    title: str
    link: str
    """Absolute URL of the page the feed follows."""
    description: str
    updated: dt.datetime
    """lastBuildDate: a paper's day or SOURCE_DATE_EPOCH, never the time of the build."""
    self_url: str


def feed_file(site: Site, templates: Templates) -> FileJob:
    """/feed.xml: the newest `feed_items` papers, newest first."""
    urls, config = Urls(site.config.base_url), site.config
    channel = Channel(config.title, urls.absolute(paths.HOME),
                      config.description or config.subtitle or config.title, site.updated,
                      urls.absolute(paths.FEED))
    return FileJob(paths.FEED, rss, (config, channel, site.papers[:config.feed_items]), templates)


def group_feed_file(site: Site, grouping: str, about: str, group: Group,
                    templates: Templates) -> FileJob:
    """<grouping>/<slug>/feed.xml (tags/llm/feed.xml): the group's newest papers, described
    as `about` says (a message with %(name)s and %(site)s); updated when its newest paper
    was added."""
    urls, name = Urls(site.config.base_url), group.name
    ui = interface(templates, site.config.language)
    # why: not SOURCE_DATE_EPOCH, which CI may set per commit; a feed whose papers did not
    # change must not look new to a reader.
    channel = Channel(f"{site.config.title}: {name}",
                      urls.absolute(paths.group_file(grouping, group.slug)),
                      ui.gettext(about) % {"name": name, "site": site.config.title},
                      newest_day(group.papers),
                      urls.absolute(paths.group_feed_file(grouping, group.slug)))
    return FileJob(paths.group_feed_file(grouping, group.slug), rss,
                   (site.config, channel, group.papers[:site.config.feed_items]), templates)


def rss(templates: Templates, config: SiteConfig, about: Channel, papers: tuple[Paper, ...]) -> bytes:
    """An RSS 2.0 document for `papers`, with autodiscovery's self link."""
    urls, ui = Urls(config.base_url), interface(templates, config.language)
    root = ET.Element("rss", {"version": "2.0"})
    channel = ET.SubElement(root, "channel")
    _text(channel, "title", about.title)
    _text(channel, "link", about.link)
    _text(channel, "description", about.description)
    _text(channel, "language", config.language)
    _text(channel, "lastBuildDate", rfc822(about.updated))
    _text(channel, "generator", GENERATOR)
    ET.SubElement(channel, f"{{{ATOM}}}link", {"href": about.self_url, "rel": "self",
                                                "type": "application/rss+xml"})
    for paper in papers:
        _item(channel, paper, urls, ui)
    return xml_document(root)


def _item(channel: ET.Element, paper: Paper, urls: Urls, ui: Interface) -> None:
    item = ET.SubElement(channel, "item")
    _text(item, "title", paper.title_text)
    _text(item, "link", urls.absolute(paths.paper_file(paper.slug)))
    ET.SubElement(item, "guid", {"isPermaLink": "false"}).text = xml_safe(paper_guid(paper))
    _text(item, "pubDate", rfc822(paper.date))
    _text(item, f"{{{DC}}}creator", ", ".join(paper.authors))
    _text(item, "description", item_html(paper, ui))
    for tag in paper.tags:
        _text(item, "category", tag.name)


def item_html(paper: Paper, ui: Interface) -> str:
    """An item's description as HTML: the abstract, the curator's notes, then the links, in
    the site's language."""
    # why: readers take an RSS description as HTML, so plain text is HTML-escaped here, once
    # (ElementTree then escapes the HTML for XML); '<T>' shows as '<T>', not as a tag.
    parts = [f"<p>{html.escape(' '.join(par.split()), quote=False)}</p>"
             for par in re.split(r"\n\s*\n", paper.abstract_text) if par.strip()]
    if paper.notes_html:
        parts += [f"<p><strong>{html.escape(ui.gettext('Curator’s notes'))}</strong></p>",
                  paper.notes_html]
    if paper.links:
        anchors = "".join(f'<li><a href="{html.escape(link.url)}">'
                          f'{html.escape(link_label(link.kind, link.label, ui))}</a></li>'
                          for link in paper.links)
        parts.append(f"<ul>{anchors}</ul>")
    return "\n".join(parts)


def _text(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, name).text = xml_safe(value)


def xml_safe(value: str) -> str:
    """Drop the control characters XML 1.0 cannot carry at all (ElementTree would emit them)."""
    return _XML_INVALID.sub("", value)
