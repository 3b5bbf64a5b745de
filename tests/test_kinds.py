"""The registry of page kinds (generator/outputs/kinds.py) against the site the build makes:
every page built belongs to a kind and every kind's pages are built, every page in the sitemap
can be reached from the home page by its links, and the header's menu is the kinds' menu."""

from __future__ import annotations

import datetime as dt
import gc
import weakref
from collections import deque

import pytest

import sitecheck
from factories import make_paper, make_site, parts_of, related_of, theme
from generator.building.cache import Cache
from generator.outputs import kinds
from generator.outputs.interface import interface
from generator.outputs.kinds import KINDS
from sitecheck import BASE_PATH, BASE_URL


@pytest.fixture(scope="module")
def model():
    return sitecheck.site_model()


def test_every_page_built_belongs_to_one_kind_and_every_kinds_page_is_built(base_site, model):
    built = {p.relative_to(base_site).as_posix() for p in sitecheck.html_pages(base_site)}
    listed = [page.path for kind in KINDS for page in kind.pages(model)]
    assert len(listed) == len(set(listed)), "two kinds make one page"
    assert set(listed) == built
    assert {kind.name for kind in KINDS if kind.pages(model)} == {kind.name for kind in KINDS}


def test_every_page_in_the_sitemap_is_reached_from_the_home_page_by_links(base_site, model):
    sitemap = {sitecheck.page_url_path(page.path, BASE_PATH)
               for kind in KINDS if kind.in_sitemap for page in kind.pages(model)}
    assert len(sitemap) > 19 + 10
    reached, queue = {BASE_PATH}, deque([base_site / "index.html"])
    while queue:
        refs, _ = sitecheck.collect_urls(queue.popleft(), base_site)
        for ref in refs:
            if ref.tag != "a":
                continue
            path = sitecheck.internal_path(ref.url, BASE_URL)
            target = path and sitecheck.resolve(path, BASE_PATH, base_site)
            if target and target.suffix == ".html" and path not in reached:
                reached.add(path)
                queue.append(target)
    assert sitemap - reached == set()


def test_the_header_menu_is_the_kinds_that_have_a_menu_label(base_site, model):
    ui = interface(theme().templates, model.config.language)
    expected = [(ui.gettext(kind.menu), sitecheck.page_url_path(kind.pages(model)[0].path, BASE_PATH))
                for kind in KINDS if kind.menu]
    nav = sitecheck.parse_html(base_site / "search/index.html").find("nav")
    shown = [(link.text(), link.attrs["href"]) for link in nav.find_all("a")]
    assert shown[:-1] == expected and shown[-1][0] == "RSS"
    assert len(expected) >= 4


def test_the_pages_listed_for_a_site_are_let_go_with_it():
    """site_pages() lists a site's pages once a build; what it keeps must not hold a built
    site's papers after the build (the preview server builds again and again)."""
    site = make_site([make_paper("x", tags=["t"])])
    paper = weakref.ref(site.papers[0])
    assert kinds.site_pages(site) is kinds.site_pages(site)
    del site
    gc.collect()
    assert paper() is None
    assert kinds._listed is None


class Watched(dict):
    """Related papers that say how many jobs had been made when they were first read."""

    def __init__(self, values, made):
        super().__init__(values)
        self.made, self.first_read = made, None

    def get(self, key, default=None):
        if self.first_read is None:
            self.first_read = len(self.made)
        return super().get(key, default)


def test_the_paper_pages_jobs_are_made_apart_when_asked_for_after_the_rest(monkeypatch):
    """Related papers may still be being found aside when the jobs are made: the other kinds'
    jobs are made without reading them, each kind's in the order of KINDS, and the paper pages
    when asked for."""
    site = make_site([make_paper(f"p{n}", tags=["LLM"]) for n in range(3)])
    made = []
    for kind in {type(kind) for kind in KINDS}:
        monkeypatch.setattr(kind, "job", lambda self, page, given, real=kind.job:
                            made.append(page.path) or real(self, page, given))
    related = Watched(related_of(site.papers), made)
    jobs, paper_pages = kinds.page_jobs(site, theme(), parts_of(site), related)
    assert related.first_read is None and len(made) == len(jobs) - 1
    pages = kinds.site_pages(site)
    assert [job.path for job in jobs[1:]] == [
        page.path for kind in KINDS if kind.name != "paper" for page in pages[kind.name]]
    assert [job.path for job in paper_pages()] == [page.path for page in pages["paper"]]
    assert related.first_read == len(jobs)  # read by the first paper page (made: len(jobs) - 1 + 1)


def test_quick_page_jobs_are_the_jobs_page_jobs_makes_for_the_lists_that_show_a_paper():
    """The preview server's quick pages (building/quickpages.py): for papers first, last and
    at the edges of pages (of home, of a tag, of authors), the same jobs as the full build's."""
    papers = [make_paper(f"p{n:03}", date=dt.date(2024, 1, 1) + dt.timedelta(days=n),
                         tags=["LLM"] + (["RL"] if n % 3 == 0 else []),
                         authors=(f"Author {n % 40}", "Ada Lovelace"))
              for n in range(130)]
    site = make_site(papers, page_size=20)
    parts, related = parts_of(site), related_of(site.papers)
    jobs, paper_pages = kinds.page_jobs(site, theme(), parts, related)
    every = {job.path: job for job in jobs + paper_pages()}
    cache = Cache(None)
    for n in (0, 1, 19, 20, 21, 39, 40, 100, 128, 129):
        slug = site.papers[n].slug
        quick = kinds.quick_page_jobs(site, theme(), parts, related, [slug], [slug])
        paths_shown = [job.path for job in quick]
        assert paths_shown[0] == f"papers/{slug}/index.html"
        assert any(p.startswith("tags/llm/") for p in paths_shown)
        assert any(p.startswith("authors/") for p in paths_shown)
        for job in quick:
            same = every[job.path]
            assert cache.keys(job.make, job.shared, [job.args]) == \
                cache.keys(same.make, same.shared, [same.args]), job.path
            assert slug.encode() in job.made().data, job.path
