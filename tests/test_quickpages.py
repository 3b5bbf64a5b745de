"""The preview server's quick pages (generator/building/quickpages.py), against the full build's."""

from __future__ import annotations

import pytest

from factories import REPO, SITE_YAML, paper_source, write_content
from generator.building.pipeline import BuildOptions, build
from generator.building.quickpages import page_urls, quick_pages
from generator.model import urls as paths

TAGS = ["agents", "planning"]


@pytest.fixture()
def built(tmp_path):
    """A three-paper digest that shares tags (so each has related papers), built once."""
    papers = {slug: paper_source(title=f"Paper {slug}", tags=TAGS, body=f"Notes on {slug}.\n",
                                 date=f"2025-04-2{n}")
              for n, slug in enumerate(("first", "second", "third"))}
    content = write_content(tmp_path, papers)
    options = BuildOptions(content=content, out=tmp_path / "_site", project=REPO)
    made = []
    build(options, made=made.append)
    return options, made[0]


def paper(options, slug):
    return options.content / "papers" / f"{slug}.md"


def rewrite(options, slug, old, new):
    path = paper(options, slug)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_quick_page_is_the_page_the_full_build_makes_when_only_its_notes_change(built):
    options, made = built
    rewrite(options, "second", "Notes on second.", "Notes on second, *read again*.")
    pages = quick_pages(made, {str(paper(options, "second"))})
    assert list(pages) == ["papers/second/index.html"]
    assert b"<em>read again</em>" in pages["papers/second/index.html"]
    build(options)
    assert pages["papers/second/index.html"] == \
        (options.out / "papers/second/index.html").read_bytes()


def test_a_quick_page_shows_a_new_title_and_the_last_builds_related_papers(built):
    options, made = built
    rewrite(options, "first", "title: Paper first", "title: Paper first, retitled")
    page = quick_pages(made, {str(paper(options, "first"))})["papers/first/index.html"]
    assert b"<h1>Paper first, retitled</h1>" in page
    assert b"Paper second" in page and b"Paper third" in page  # its related papers
    assert page_urls(made, {"papers/first/index.html": page}) == ["/digest/papers/first/"]


def test_quick_pages_are_made_for_every_paper_of_a_burst_of_saves(built):
    options, made = built
    for slug in ("first", "third"):
        rewrite(options, slug, f"Notes on {slug}.", f"Notes on {slug}, again.")
    pages = quick_pages(made, {str(paper(options, slug)) for slug in ("first", "third")})
    assert sorted(pages) == ["papers/first/index.html", "papers/third/index.html"]
    assert b"Notes on third, again." in pages["papers/third/index.html"]


LISTS = ["index.html", "tags/agents/index.html", "tags/planning/index.html", paths.SEARCH]
"""The pages of lists that show each paper of the digest `built`: home's, its tags' and the
search page's papers added last (all three)."""


def lists_of(made, slug):
    """The paths of the pages of `built` that show the paper `slug` in a list."""
    return LISTS + [f"authors/{page}/index.html" for page in author_pages(made, slug)]


def author_pages(made, slug):
    paper, = [p for p in made.site.papers if p.slug == slug]
    return sorted({paths.bucket(a, made.site.author_pages) for a in paper.author_slugs})


def test_a_new_title_makes_the_lists_that_show_the_paper_as_the_full_build_does(built):
    options, made = built
    rewrite(options, "second", "title: Paper second", "title: Paper second, retitled")
    pages = quick_pages(made, {str(paper(options, "second"))})
    showing = ["papers/first/index.html", "papers/third/index.html"]  # beside it, related
    assert sorted(pages) == sorted(["papers/second/index.html", *showing,
                                    *lists_of(made, "second")])
    build(options)
    for path in lists_of(made, "second") + showing:
        assert b"Paper second, retitled" in pages[path]
    for path in lists_of(made, "second"):
        assert pages[path] == (options.out / path).read_bytes(), path


def test_notes_alone_leave_the_pages_that_link_to_the_paper_to_the_full_build(built):
    options, made = built
    rewrite(options, "second", "Notes on second.", "Notes on second, again.")
    assert list(quick_pages(made, {str(paper(options, "second"))})) == [
        "papers/second/index.html"]


def list_pages(site):
    """The output paths of every page of a list of papers: home's, the tags' and the authors',
    and the search page's (it shows the papers added last: all of a digest of ten or fewer)."""
    from generator.outputs.kinds import KINDS, AuthorPages, GroupPages, Home, site_pages
    pages = site_pages(site)
    return {page.path for kind in KINDS if isinstance(kind, (Home, GroupPages, AuthorPages))
            for page in pages[kind.name]} | {paths.SEARCH}


def one_day_digest(tmp_path, related=True):
    """Nine papers of one day, two to a page (so a list runs over four pages), in reading
    order by title: T1 to T9; the odd ones tagged planning too, T3 and T4 by Grace Hopper.
    Not `related`: each has a tag and an abstract of its own instead, and no related papers."""
    papers = {f"p{n}": paper_source(title=f"T{n}", date="2025-04-20",
                                    abstract="We study things." if related else f"Qx{n}.",
                                    tags=(TAGS if n % 2 else TAGS[:1]) if related else [f"t{n}"],
                                    authors=["Grace Hopper"] if n in (3, 4) else ["Ada Lovelace"])
              for n in range(1, 10)}
    options = BuildOptions(content=write_content(tmp_path, papers, SITE_YAML + "page_size: 2\n"),
                           out=tmp_path / "_site", project=REPO)
    made = []
    build(options, made=made.append)
    return options, made[0]


def built_lists(options, made):
    """The bytes of every page of a list the site `made` has, as written."""
    return {path: (options.out / path).read_bytes() for path in list_pages(made.site)}


@pytest.mark.parametrize("titles", [{"p2": "T8b"}, {"p8": "T0"}, {"p3": "T9b", "p7": "T1b"},
                                    {"p5": "T5, revised", "p9": "T2b"}],
                         ids=["down", "up", "two-crossing", "one-stays-one-moves"])
def test_a_title_that_moves_a_paper_in_its_lists_makes_every_page_it_moved_across(tmp_path,
                                                                                   titles):
    """Its place in a list (newest first, then by title) changed, on the same day, with the same
    tags and authors: every page of a list between where it was and where it is is quick, and
    is what the full build makes; the pages the full build changes are among them."""
    options, made = one_day_digest(tmp_path)
    before = built_lists(options, made)
    for slug, title in titles.items():
        rewrite(options, slug, f"title: T{slug[1:]}\n", f"title: {title}\n")
    pages = quick_pages(made, {str(paper(options, slug)) for slug in titles})
    build(options)
    after = built_lists(options, made)
    assert {path for path in after if after[path] != before[path]} <= set(pages)
    for path in set(pages) & set(after):
        assert pages[path] == after[path], path
    assert {f"papers/{slug}/index.html" for slug in titles} <= set(pages)


@pytest.mark.parametrize("titles", [{"p2": "T8b"}, {"p5": "T5, revised"},
                                    {"p3": "T9b", "p7": "T1b"}],
                         ids=["moved", "in-place", "two-crossing"])
@pytest.mark.parametrize("related", [True, False], ids=["related", "alone"])
def test_the_pages_beside_a_saved_title_are_quick_and_as_the_full_build_makes_them(
        tmp_path, titles, related):
    """The papers beside it, where it is and where it was, link to it (newer, older) or now to
    another, and so may the papers it is related to: their pages are quick; with the related
    papers the last build found, so exactly the full build's where those did not change."""
    options, made = one_day_digest(tmp_path, related)
    before = {p.slug: (options.out / paths.paper_file(p.slug)).read_bytes()
              for p in made.site.papers}
    for slug, title in titles.items():
        rewrite(options, slug, f"title: T{slug[1:]}\n", f"title: {title}\n")
    pages = quick_pages(made, {str(paper(options, slug)) for slug in titles})
    again = []
    build(options, made=again.append)
    checked = 0
    for p in again[0].site.papers:  # the saved papers' own too: their citation keys changed
        path = paths.paper_file(p.slug)
        built_page = (options.out / path).read_bytes()
        if built_page != before[p.slug] and again[0].related[p.slug] == made.related[p.slug]:
            assert pages.get(path) == built_page, path
            checked += 1
    assert checked >= 2 + len(titles)
    # a title's first word is in its citation key: T2 is lovelace2025t2, T8b lovelace2025t8b
    renamed = [slug for slug, title in titles.items() if title.split(",")[0] != f"T{slug[1:]}"]
    assert all(again[0].site.cite_keys[s] != made.site.cite_keys[s] for s in renamed)


def test_lists_wait_for_the_full_build_when_a_saved_paper_changes_lists(tmp_path):
    """A new day, new tags or new authors: only its own page is quick, and so for the papers
    saved with it, where it would still show as the last build had it."""
    options, made = one_day_digest(tmp_path)
    for old, new in (("date: '2025-04-20'", "date: '2025-04-19'"), ("- planning", "- search"),
                     ("- Ada Lovelace", "- Ada Byron")):
        rewrite(options, "p5", old, new)
        assert list(quick_pages(made, {str(paper(options, "p5"))})) == ["papers/p5/index.html"]
        rewrite(options, "p7", "title: T7", "title: T7, revised")
        saved = {str(paper(options, slug)) for slug in ("p5", "p7")}
        assert sorted(quick_pages(made, saved)) == ["papers/p5/index.html", "papers/p7/index.html"]
        rewrite(options, "p7", "title: T7, revised", "title: T7")
        rewrite(options, "p5", new, old)
    rewrite(options, "p5", "title: T5", "title: T5, revised")  # stays where it was
    assert len(quick_pages(made, {str(paper(options, "p5"))})) > 1


def test_lists_wait_when_a_paper_saved_with_the_one_shown_changed_what_they_show_of_it(tmp_path):
    """A fourth author renamed leaves its paper's row as it was (a row names the first two of
    more than three), but the pages of authors list every author: saved with another paper
    whose row changed, that paper's lists wait for the full build too."""
    papers = {"p1": paper_source(title="One", tags=TAGS, date="2025-04-20",
                                 authors=["Ada Lovelace", "Grace Hopper", "Alan Turing",
                                          "Dora Dorsey"]),
              "p2": paper_source(title="Two", tags=TAGS, date="2025-04-21",
                                 abstract="First abstract.")}
    options = BuildOptions(content=write_content(tmp_path, papers), out=tmp_path / "_site",
                           project=REPO)
    made = []
    build(options, made=made.append)
    rewrite(options, "p1", "Dora Dorsey", "Edna Everett")
    rewrite(options, "p2", "First abstract.", "Second abstract.")
    saved = {str(paper(options, slug)) for slug in ("p1", "p2")}
    assert sorted(quick_pages(made[0], saved)) == ["papers/p1/index.html", "papers/p2/index.html"]


@pytest.mark.parametrize("change", ["site.yaml", "new paper", "removed paper", "draft", "error",
                                    "not a paper", "nothing"])
def test_anything_but_edits_of_papers_that_still_build_waits_for_the_full_build(built, change):
    options, made = built
    changed = {str(paper(options, "second"))}
    if change == "site.yaml":
        changed.add(str(options.content / "site.yaml"))
    elif change == "new paper":
        (options.content / "papers/fourth.md").write_text(paper_source(title="Fourth"))
        changed = {str(options.content / "papers/fourth.md")}
    elif change == "removed paper":
        paper(options, "second").unlink()
    elif change == "draft":
        rewrite(options, "second", "title:", "draft: true\ntitle:")
    elif change == "error":
        rewrite(options, "second", "date: '2025-04-21'", "date: someday")
    elif change == "not a paper":
        changed = {str(REPO / "templates/paper.html")}
    elif change == "nothing":
        changed = set()
    assert quick_pages(made, changed) == {}
