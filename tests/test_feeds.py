import datetime as dt
import html

import feedparser

from factories import make_paper, make_site
from generator.feeds import feed_file, paper_guid, rfc822


def parsed(site):
    feed = feedparser.parse(feed_file(site).data)
    assert not feed.bozo, feed.bozo_exception
    return feed


def test_feed_lists_papers_newest_first_with_absolute_links():
    site = make_site([make_paper("old", title="Old", date=dt.date(2025, 1, 1)),
                      make_paper("new", title="New", date=dt.date(2025, 2, 1))])
    feed = parsed(site)
    assert [e.title for e in feed.entries] == ["New", "Old"]
    assert feed.entries[0].link == "https://example.org/digest/papers/new/"
    assert feed.feed.link == "https://example.org/digest/"


def test_feed_item_carries_guid_date_description_and_categories():
    site = make_site([make_paper("x", ids={"arxiv": "2406.16257v2"}, tags=["llm", "rag"],
                                 abstract_text="Plain & simple <text>.")])
    [entry] = parsed(site).entries
    assert entry.id == "arxiv:2406.16257"
    assert entry.guidislink is False
    assert entry.published == "Thu, 24 Apr 2025 00:00:00 GMT"
    assert html.unescape(entry.summary) == "Plain & simple <text>."
    assert [t.term for t in entry.tags] == ["llm", "rag"]


def test_paper_guid_survives_a_change_of_slug():
    assert paper_guid(make_paper("a", ids={"openreview": "oe51"})) == paper_guid(
        make_paper("b", ids={"openreview": "oe51"}))
    assert paper_guid(make_paper("c")) == "paper:c"


def test_feed_escapes_markup_once_and_drops_control_characters():
    site = make_site([make_paper("x", title="<script>alert(1)</script> & \x0b")])
    data = feed_file(site).data
    assert b"<script>" not in data
    assert parsed(site).entries[0].title == "<script>alert(1)</script> &"


def test_rfc822_formats_days_in_gmt():
    assert rfc822(dt.date(2025, 4, 24)) == "Thu, 24 Apr 2025 00:00:00 GMT"
