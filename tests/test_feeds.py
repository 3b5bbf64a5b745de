import datetime as dt

import feedparser

from factories import make_paper, make_site, theme
from feedcheck import expected_item, feed_problems, visible_text
from generator.model import urls as paths
from generator.outputs.feeds import feed_file, group_feed_file, item_html, paper_guid, rfc822
from generator.outputs.kinds import TAG_WORDS, feed_jobs
from generator.model.records import Link
from generator.model.urls import Urls
from generator.outputs.interface import interface



def templates():
    return theme().templates


def english():
    return interface(templates(), "en")


HOSTILE = "<script>alert(1)</script> & &amp; <T> \"quotes\" 'single' ]]>"


def parsed(data):
    feed = feedparser.parse(data)
    assert not feed.bozo, feed.bozo_exception
    return feed


def site_urls(site) -> set[str]:
    """Absolute URLs of every page and feed the site would write."""
    urls = Urls(site.config.base_url)
    outputs = [paths.HOME, paths.FEED] + [paths.paper_file(p.slug) for p in site.papers]
    outputs += [out for g in site.tags for out in (paths.tag_file(g.slug),
                                                     paths.tag_feed_file(g.slug))]
    return {urls.absolute(out) for out in outputs}


def check(site, data):
    """The full feed check against the site's own papers."""
    urls = Urls(site.config.base_url)
    expected = {urls.absolute(paths.paper_file(p.slug)): expected_item(p) for p in site.papers}
    in_feed = {e.link for e in parsed(data).entries}
    problems = feed_problems(data, site.config.base_url, site_urls(site).__contains__,
                             {k: v for k, v in expected.items() if k in in_feed})
    assert not problems, "\n".join(problems)


def test_feed_lists_papers_newest_first_with_absolute_links():
    site = make_site([make_paper("old", title="Old", date=dt.date(2025, 1, 1)),
                      make_paper("new", title="New", date=dt.date(2025, 2, 1))])
    feed = parsed(feed_file(site, templates()).made().data)
    assert [e.title for e in feed.entries] == ["New", "Old"]
    assert feed.entries[0].link == "https://example.org/digest/papers/new/"
    assert feed.feed.link == "https://example.org/digest/"
    check(site, feed_file(site, templates()).made().data)


def test_feed_item_carries_guid_date_abstract_notes_links_and_categories():
    paper = make_paper("x", ids={"arxiv": "2406.16257v2"}, tags=["llm", "rag"],
                       abstract_text="Plain & simple <text>.\n\nSecond paragraph.",
                       notes_html="<p>Read <em>this</em> &amp; that.</p>", notes_text="Read this & that.",
                       links=(Link("pdf", "PDF", "https://arxiv.org/pdf/2406.16257"),
                              Link("code", "Code", "https://github.com/a/b?x=1&y=2")))
    site = make_site([paper])
    [entry] = parsed(feed_file(site, templates()).made().data).entries
    assert entry.id == "arxiv:2406.16257"
    assert entry.guidislink is False
    assert entry.published == "Thu, 24 Apr 2025 00:00:00 GMT"
    assert entry.summary == item_html(paper, english())
    assert visible_text(entry.summary) == ("Plain & simple <text>. Second paragraph. "
                                           "Curator’s notes Read this & that. PDF Code")
    assert 'href="https://github.com/a/b?x=1&amp;y=2"' in entry.summary
    assert [t.term for t in entry.tags] == ["llm", "rag"]
    check(site, feed_file(site, templates()).made().data)


def test_item_without_notes_or_links_is_just_the_abstract():
    assert item_html(make_paper("x", abstract_text="A < B"), english()) == "<p>A &lt; B</p>"


def test_paper_guid_survives_a_change_of_slug():
    assert paper_guid(make_paper("a", ids={"openreview": "oe51"})) == paper_guid(
        make_paper("b", ids={"openreview": "oe51"}))
    assert paper_guid(make_paper("c")) == "paper:c"


def test_guids_do_not_change_when_papers_are_added_or_the_domain_moves():
    papers = [make_paper("a", title="A", ids={"arxiv": "2401.00001"}),
              make_paper("b", title="B", ids={"doi": "10.1000/x"})]
    before = {e.title: e.id for e in parsed(feed_file(make_site(papers), templates()).made().data).entries}
    later = make_site(papers + [make_paper("c", title="C", date=dt.date(2025, 6, 1))],
                      base_url="https://digest.example.com/")
    after = {e.title: e.id for e in parsed(feed_file(later, templates()).made().data).entries}
    assert {k: after[k] for k in before} == before == {"A": "arxiv:2401.00001", "B": "doi:10.1000/x"}


def test_feed_escapes_markup_once():
    site = make_site([make_paper("x", title=HOSTILE, abstract_text=HOSTILE, authors=(HOSTILE,))])
    data = feed_file(site, templates()).made().data
    assert b"<script>" not in data
    [entry] = parsed(data).entries
    assert entry.title == HOSTILE
    assert visible_text(entry.summary) == HOSTILE
    check(site, data)


def test_feed_drops_control_characters_xml_cannot_carry():
    site = make_site([make_paper("x", title="Bell \x07 and tab\x0b")])
    assert parsed(feed_file(site, templates()).made().data).entries[0].title == "Bell and tab"


def test_every_tag_gets_a_feed_of_its_papers_with_its_own_links():
    site = make_site([make_paper("a", title="A", tags=["llm"], date=dt.date(2025, 1, 1)),
                      make_paper("b", title="B", tags=["llm", "rag"], date=dt.date(2025, 3, 1))])
    files = {f.path: f.data for f in (job.made() for job in feed_jobs(site, templates()))}
    assert sorted(files) == ["feed.xml", "tags/llm/feed.xml", "tags/rag/feed.xml"]
    llm = parsed(files["tags/llm/feed.xml"])
    assert [e.title for e in llm.entries] == ["B", "A"]
    assert llm.feed.link == "https://example.org/digest/tags/llm/"
    assert llm.feed.title == "Test Digest: llm"
    assert [e.title for e in parsed(files["tags/rag/feed.xml"]).entries] == ["B"]
    for data in files.values():
        check(site, data)


def test_tag_feed_last_build_date_is_its_newest_paper_not_the_build_time():
    site = make_site([make_paper("a", tags=["llm"], date=dt.date(2025, 1, 2)),
                      make_paper("b", tags=["rag"], date=dt.date(2025, 3, 1))])
    llm = group_feed_file(site, "tags", TAG_WORDS.feed, site.tags[0], templates()).made().data
    assert b"<lastBuildDate>Thu, 02 Jan 2025 00:00:00 GMT</lastBuildDate>" in llm
    assert b"<lastBuildDate>Thu, 01 May 2025 00:00:00 GMT</lastBuildDate>" in feed_file(site, templates()).made().data


def test_feed_check_catches_double_escaping_and_broken_links():
    site = make_site([make_paper("x", abstract_text="A & B")])
    data = feed_file(site, templates()).made().data.replace(b"A &amp;amp; B", b"A &amp;amp;amp; B")
    data = data.replace(b"/digest/papers/x/", b"/digest/papers/y/")
    urls = Urls(site.config.base_url)
    found = feed_problems(data, site.config.base_url, site_urls(site).__contains__,
                          {urls.absolute(paths.paper_file("y")): expected_item(site.papers[0])})
    assert any("names no file" in p for p in found), found
    assert any("description reads 'A &amp; B'" in p for p in found), found


def test_feed_check_rejects_malformed_xml_and_bad_dates():
    assert feed_problems(b"<rss><channel>", "https://x/", lambda u: True)[0].startswith("not well-formed")
    site = make_site([make_paper("x")])
    bad = feed_file(site, templates()).made().data.replace(b"Thu, 24 Apr 2025", b"Fri, 24 Apr 2025")
    assert any("wrong weekday" in p for p in feed_problems(bad, site.config.base_url, lambda u: True))


def test_rfc822_formats_days_in_gmt():
    assert rfc822(dt.date(2025, 4, 24)) == "Thu, 24 Apr 2025 00:00:00 GMT"


def test_feeds_carry_only_the_newest_feed_items_papers():
    papers = [make_paper(f"p{i}", title=f"P{i}", tags=["llm"], date=dt.date(2025, 1, 1 + i))
              for i in range(5)]
    site = make_site(papers, feed_items=2)
    for file in (job.made() for job in feed_jobs(site, templates())):
        assert [e.title for e in feedparser.parse(file.data).entries] == ["P4", "P3"]


def test_hostile_link_values_leave_every_feed_well_formed_for_lxml():
    from lxml import etree

    from generator.content.links import resolve
    papers = []
    for n, (kind, value) in enumerate([("arxiv", "https://arxiv.org/abs/</script>\"x"),
                                       ("doi", "https://doi.org/10.1000/a<b>&c"),
                                       ("openreview", "https://openreview.net/forum?id=abc&x=<y>")]):
        url, found_id = resolve(kind, value)
        papers.append(make_paper(f"p{n}", tags=["t"], links=(Link(kind, kind, url),),
                                 ids={kind: found_id} if found_id else {}))
    site = make_site(papers)
    for job in feed_jobs(site, templates()):
        etree.fromstring(job.made().data, etree.XMLParser(resolve_entities=False))  # raises if not
    assert {paper_guid(p) for p in site.papers} == {"paper:p0", "paper:p1", "paper:p2"}
