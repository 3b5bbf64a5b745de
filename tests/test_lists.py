"""Lists of papers as readers scan them: short names and dates, page numbers, list.json."""

import datetime as dt
import json

from factories import make_paper, make_site, parts_of, theme
from generator.model.urls import Urls
from generator.outputs.interface import interface
from generator.outputs.lists import list_jobs, list_orders, page_numbers, short_authors, short_name

URLS = Urls("https://example.org/digest/")


def test_short_name_keeps_the_family_name_and_the_first_initial():
    assert short_name("Ada Lovelace") == "A. Lovelace"
    assert short_name("Benjamin Van Durme") == "B. Van Durme"
    assert short_name("Somnath Basu Roy Chowdhury") == "S. Chowdhury"
    assert short_name("Lovelace, Ada") == "A. Lovelace"


def test_short_name_leaves_a_one_word_name_whole():
    assert short_name("Plato") == "Plato"
    assert short_name("王小明") == "王小明"


def test_short_authors_names_three_in_full_and_counts_the_rest_of_a_longer_list():
    three = short_authors(("Ada Lovelace", "Charles Babbage", "Alan Turing"), URLS, 1)
    assert [a["name"] for a in three["names"]] == ["A. Lovelace", "C. Babbage", "A. Turing"]
    assert three["more"] == 0
    five = short_authors(("Ada Lovelace", "Charles Babbage", "A B", "C D", "E F"), URLS, 1)
    assert [a["name"] for a in five["names"]] == ["A. Lovelace", "C. Babbage"] and five["more"] == 3
    assert five["names"][0]["url"] == "/digest/authors/0/#author-ada-lovelace"


def test_short_authors_links_no_page_for_a_name_without_letters():
    assert short_authors(("???",), URLS, 1)["names"] == [{"name": "???", "url": ""}]


def test_a_rows_short_date_is_written_as_the_sites_language_writes_it():
    day = dt.date(2026, 11, 29)
    assert interface(theme().templates, "en").short_date(day) == "29 Nov 2026"
    assert interface(theme().templates, "en-US").short_date(day) == "Nov 29, 2026"
    assert interface(theme().templates, "zh-CN").short_date(day) == "2026年11月29日"


def test_page_numbers_show_the_ends_and_the_pages_around_the_current_one():
    assert page_numbers(1, 1) == [1]
    assert page_numbers(1, 5) == [1, 2, 3, 4, 5]
    assert page_numbers(6, 60) == [1, 0, 4, 5, 6, 7, 8, 0, 60]
    assert page_numbers(1, 60) == [1, 2, 3, 0, 60]
    assert page_numbers(60, 60) == [1, 0, 58, 59, 60]


def test_page_numbers_write_a_single_left_out_page_as_its_number():
    assert page_numbers(4, 10) == [1, 2, 3, 4, 5, 6, 0, 10]


def listed(site):
    """The list.json entries of a site's papers, in its order, as the build gives them."""
    return tuple(part.listed for part in parts_of(site))


def three_papers():
    return make_site([make_paper("b", title="beta", venue="NeurIPS 2024", tags=["llm"],
                                 date=dt.date(2025, 3, 1)),
                      make_paper("a", title="Alpha", date=dt.date(2025, 2, 1), tags=["llm", "rl"]),
                      make_paper("c", title="Gamma", venue="ICLR 2025", date=dt.date(2025, 1, 1))])


def test_list_orders_sort_by_title_ignoring_case_and_by_venue_with_none_last():
    site = three_papers()
    assert [p.slug for p in site.papers] == ["b", "a", "c"]
    assert list_orders(site.papers) == {"added": [0, 1, 2], "title": [1, 0, 2], "venue": [2, 0, 1]}


def test_list_json_has_what_a_row_shows_and_each_papers_citation_key():
    site = three_papers()
    (job,) = list_jobs(site, listed(site), {"b": ("c", "a")})
    data = json.loads(job.made().data)
    assert job.path == "list.json"
    assert data["tags"] == [{"name": "llm", "slug": "llm", "url": "/digest/tags/llm/"},
                            {"name": "rl", "slug": "rl", "url": "/digest/tags/rl/"}]
    first = data["papers"][0]
    assert first == {"slug": "b", "key": site.cite_keys["b"], "title": "beta", "text": "beta",
                     "url": "/digest/papers/b/",
                     "authors": [{"name": "A. Lovelace", "url": "/digest/authors/0/#author-ada-lovelace"}],
                     "more": 0, "venue": "NeurIPS 2024", "presentation": "", "added": "2025-03-01",
                     "added_human": "1 Mar 2025", "tags": ["llm"], "draft": False,
                     "lang": ""}
    assert data["orders"]["title"] == [1, 0, 2]


def test_list_json_carries_a_hostile_title_as_escaped_html_only():
    # why: rows drawn by script set the title as HTML (it may hold MathML), so it must be the
    # build's escaped HTML, never the curator's text
    site = make_site([make_paper("x", title="<img src=x onerror=alert(1)> & $x^2$")])
    entry = json.loads(list_jobs(site, listed(site), {})[0].made().data)["papers"][0]
    assert "<img" not in entry["title"] and "&lt;img src=x onerror=alert(1)&gt; &amp;" in entry["title"]
    assert entry["text"].startswith("<img src=x onerror=alert(1)> & ")
