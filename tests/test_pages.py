import datetime as dt
import json
import pickle
import re
import shutil

import jinja2
import pytest

from factories import REPO, make_paper, make_site, page_jobs_with_cards, pages_of, parts_of, theme
from generator.content.links import build_links
from generator.content.theme import load_theme
from generator.model.records import Link
from generator.outputs.pages import excerpt
from generator.outputs.render import environment

ASSET_VERSION = r"\?v=[0-9a-f]{10}"
"""An asset URL's query: a hash of the file's bytes."""


def test_page_jobs_make_home_paper_tag_search_and_404_pages():
    site = make_site([make_paper("x", tags=["llm"])])
    assert sorted(pages_of(site)) == ["404.html", "assets/settings.js", "authors/0/index.html",
                                      "authors/index.html", "index.html", "papers/x/index.html",
                                      "saved/index.html", "search/index.html", "tags/index.html",
                                      "tags/llm/index.html"]


def test_paper_page_shows_every_field():
    paper = make_paper("x", title="Exact Unlearning", authors=("A B", "C D"), venue="ICLR 2025",
                       tags=["llm"], tldr="Short.", notes_html="<p>Good.</p>",
                       abstract_html="<p>With <math><mi>x</mi></math>.</p>",
                       links=(Link("code", "Code", "https://github.com/a/b"),))
    page = pages_of(make_site([paper]))["papers/x/index.html"]
    for expected in ("<h1>Exact Unlearning</h1>",
                     '<a href="/digest/authors/0/#author-a-b">A B</a>, '
                     '<a href="/digest/authors/0/#author-c-d">C D</a>',
                     "ICLR 2025", "24 April 2025",
                     'href="/digest/tags/llm/"', 'href="https://github.com/a/b"', "Short.",
                     "<p>Good.</p>", "<math><mi>x</mi></math>",
                     '<link rel="canonical" href="https://example.org/digest/papers/x/">',
                     'type="application/rss+xml"', 'href="https://example.org/digest/feed.xml"'):
        assert expected in page


def test_pages_escape_curator_text():
    paper = make_paper("x", title="<img src=x onerror=alert(1)>", authors=("</script>",),
                       tags=["<b>"])
    for page in pages_of(make_site([paper])).values():
        assert "<img src=x" not in page and "</script>," not in page and "<b>" not in page


def test_paper_page_shows_its_bibtex_for_the_copy_script():
    page = pages_of(make_site([make_paper("x", title="A & B")]))["papers/x/index.html"]
    assert ('<pre class="bibtex" id="bibtex-entry" tabindex="0" data-copy="copyBibtex">'
            '<code>@misc{lovelace2025b,\n') in page
    assert "  title = {{A \\&amp; B}},\n" in page
    # why: reading/copy-text.js makes the button; without JavaScript it could do nothing
    assert "Copy BibTeX</button>" not in page
    assert re.search(f'<script src="/digest/assets/reading/copy-text.js{ASSET_VERSION}" defer></script>', page)


def test_tag_page_offers_its_own_feed_first_for_autodiscovery():
    page = pages_of(make_site([make_paper("x", tags=["llm"])]))["tags/llm/index.html"]
    feeds = [line for line in page.splitlines() if 'type="application/rss+xml"' in line]
    assert feeds == [
        '<link rel="alternate" type="application/rss+xml" title="Test Digest: llm" '
        'href="https://example.org/digest/tags/llm/feed.xml">',
        '<link rel="alternate" type="application/rss+xml" title="Test Digest" '
        'href="https://example.org/digest/feed.xml">']
    assert 'href="/digest/tags/llm/feed.xml"' in page
    assert '<a href="/digest/all.bib" data-bib-tag="llm" download>BibTeX</a>' in page
    assert "1 paper tagged llm" in page


def test_tags_index_lists_each_tags_feed_and_bibtex():
    page = pages_of(make_site([make_paper("x", tags=["llm"])]))["tags/index.html"]
    assert '<a class="feed" href="/digest/tags/llm/feed.xml" aria-label="RSS feed of llm">RSS</a>' in page
    # why: reading/reading.js cuts the tag's entries from all.bib; without JavaScript, all.bib is had
    assert ('<a class="bib" href="/digest/all.bib" data-bib-tag="llm" aria-label="BibTeX of llm" '
            'download>') in page


def test_404_page_uses_only_root_relative_urls():
    page = pages_of(make_site([make_paper("x")]))["404.html"]
    assert re.search(f'href="/digest/assets/site.css{ASSET_VERSION}"', page)
    assert 'href="/digest/search/"' in page
    assert "canonical" not in page


def test_home_page_lists_papers_newest_first():
    site = make_site([make_paper("old", title="Old", date=dt.date(2025, 1, 1)),
                      make_paper("new", title="New", date=dt.date(2025, 2, 1))])
    home = pages_of(site)["index.html"]
    assert home.index(">New<") < home.index(">Old<")


def test_templates_fail_on_an_undefined_name():
    env = environment(theme().templates)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing }}").render()


def test_excerpt_cuts_at_a_word_count():
    assert excerpt("one two three", 2) == "one two …"
    assert excerpt("one  two", 5) == "one two"


def paginated_site(count: int = 7):
    papers = [make_paper(f"p{i}", title=f"Paper {i}", date=dt.date(2025, 1, 10 - i), tags=["llm"])
              for i in range(count)]
    return make_site(papers, page_size=2)


def test_home_and_tag_pages_are_split_into_pages_numbered_from_the_oldest():
    pages = pages_of(paginated_site())
    for first in ("", "tags/llm/"):
        # why: 7 papers, 2 a page: pages 1 and 2 hold two each, the first page (3) the newest 3
        assert f"{first}index.html" in pages
        assert f"{first}page/1/index.html" in pages and f"{first}page/2/index.html" in pages
        assert f"{first}page/3/index.html" not in pages


def test_each_page_shows_its_papers_in_order_with_newer_and_older_links():
    pages = pages_of(paginated_site())
    first, middle, last = pages["index.html"], pages["page/2/index.html"], pages["page/1/index.html"]
    assert first.index(">Paper 0<") < first.index(">Paper 1<") < first.index(">Paper 2<")
    assert ">Paper 3<" in middle and ">Paper 4<" in middle and ">Paper 2<" not in middle
    assert ">Paper 5<" in last and ">Paper 6<" in last
    assert 'rel="next" href="/digest/page/2/"' in first and 'rel="prev"' not in first
    assert 'rel="prev" href="/digest/"' in middle and 'rel="next" href="/digest/page/1/"' in middle
    assert 'rel="next"' not in last and '<a href="/digest/page/1/" aria-current="page">1</a>' in last
    assert "<title>Papers, page 2 · Test Digest</title>" in middle
    assert 'rel="prev" href="/digest/tags/llm/"' in pages["tags/llm/page/2/index.html"]


def growing_site(count: int):
    """`count` papers, each added a day after the one before."""
    papers = [make_paper(f"p{i}", title=f"Paper {i}", date=dt.date(2025, 1, 1) + dt.timedelta(i),
                         tags=["llm"]) for i in range(count)]
    return make_site(papers, page_size=2)


def test_a_paper_added_changes_the_first_page_and_no_full_page():
    before, after = pages_of(growing_site(6)), pages_of(growing_site(7))
    # why: one more paper: the first page holds 3 of them, pages 1 and 2 are as they were
    assert before["page/1/index.html"] == after["page/1/index.html"]
    assert before["page/2/index.html"] == after["page/2/index.html"]
    assert before["index.html"] != after["index.html"] and "page/3/index.html" not in after
    split = pages_of(growing_site(8))
    # why: a fourth would make the first page two pages' worth: it splits, page 3 is new, and
    # the pages beside it gain its number; their papers stay as they were
    assert "page/3/index.html" in split and ">Paper 4<" in split["page/3/index.html"]
    assert after["page/1/index.html"].count("<article") == split["page/1/index.html"].count("<article")


def test_a_short_list_has_one_page_and_no_page_links():
    page = pages_of(make_site([make_paper("x")]))["index.html"]
    assert 'class="pagination"' not in page


def page_jobs_of(site, templates=None):
    """What each page is made from: its function's arguments, and the templates it shares."""
    used = theme() if templates is None else load_theme(templates)
    return {job.path: (job.args, job.shared) for job in page_jobs_with_cards(site, used)}


def test_a_page_job_is_made_alike_from_a_pickled_copy_of_what_it_is_given():
    site = make_site([make_paper("x", tags=["llm"])])
    for job in page_jobs_with_cards(site):
        shared, args = pickle.loads(pickle.dumps((job.shared, job.args)))
        made = job.make(*args) if shared is None else job.make(shared, *args)
        assert made == job.made().data, job.path


def test_page_jobs_are_the_same_for_the_same_inputs():
    site = lambda: make_site([make_paper("x", tags=["llm"]), make_paper("y")])  # noqa: E731
    assert page_jobs_of(site()) == page_jobs_of(site())


def test_a_changed_paper_changes_its_page_and_the_pages_showing_it_only():
    def site(title):
        return make_site([make_paper("x", title=title, tags=["llm"], authors=("A B",),
                                     abstract_text="Graphs.", date=dt.date(2025, 1, 3)),
                          make_paper("y", title="Y", tags=["cv"], abstract_text="Quokkas.",
                                     date=dt.date(2025, 1, 2)),
                          make_paper("z", title="Z", tags=["cv"], abstract_text="Quokkas.",
                                     date=dt.date(2025, 1, 1))])
    before, after = page_jobs_of(site("One")), page_jobs_of(site("Two"))
    changed = {path for path in before if before[path] != after[path]}
    # why: y's page leads to x (its newer paper); z's does not, neither as related nor beside it;
    # the search page lists x among the papers added last; x's author is on the one page of them
    assert changed == {"papers/x/index.html", "papers/y/index.html", "index.html",
                       "tags/llm/index.html", "authors/0/index.html", "search/index.html"}


def test_a_related_papers_title_is_part_of_what_a_page_is_made_from():
    def site(title):
        return make_site([make_paper("x", title=title, abstract_text="Graphs.",
                                     date=dt.date(2025, 1, 1)),
                          make_paper("y", abstract_text="Quokkas.", date=dt.date(2025, 1, 2)),
                          make_paper("z", abstract_text="Graphs.", date=dt.date(2025, 1, 3))])
    before, after = page_jobs_of(site("One")), page_jobs_of(site("Two"))
    # why: z is neither beside x in reading order nor on its tag's page: only related to it
    assert before["papers/z/index.html"] != after["papers/z/index.html"]


def test_a_changed_template_or_setting_changes_every_page_job(tmp_path):
    for name in ("templates", "static"):
        shutil.copytree(REPO / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    papers = [make_paper("x", tags=["llm"])]
    before = page_jobs_of(make_site(papers), tmp_path)
    card = tmp_path / "templates/_partials/paper_card.html"
    card.write_text(card.read_text() + "\n", encoding="utf-8")
    after = page_jobs_of(make_site(papers), tmp_path)
    renamed = page_jobs_of(make_site(papers, title="Another Digest"))
    # why: the settings script holds no template and no site title, only where files are
    assert all(before[p] != after[p] and before[p] != renamed[p] for p in before
               if p != "assets/settings.js")


def test_a_title_in_another_language_is_marked_so_screen_readers_say_it_right():
    marked = pages_of(make_site([make_paper("x")], title="论文列表", title_language="zh"))
    assert '<span class="brand-title" lang="zh">论文列表</span>' in marked["papers/x/index.html"]
    assert '<h1 lang="zh">论文列表</h1>' in marked["index.html"]
    plain = pages_of(make_site([make_paper("x")]))["index.html"]
    assert '<span class="brand-title">Test Digest</span>' in plain


def test_templates_are_compiled_once_per_process():
    assert environment(theme().templates) is environment(load_theme(REPO).templates)


def test_templates_read_dict_keys_and_attributes_as_jinja_does():
    env = environment(theme().templates)
    plain = jinja2.Environment(undefined=jinja2.StrictUndefined)
    source = "{{ d.title }} {{ d.items is callable }} {{ d['items'] }} {{ n.real }} {{ d.tags[0].name }}"
    context = {"d": {"title": "T", "items": "a key named like a dict method", "tags": [{"name": "llm"}]},
               "n": 3}
    assert env.from_string(source).render(context) == plain.from_string(source).render(context)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ d.missing }}").render(context)


def test_a_list_page_shows_each_papers_card_as_its_parts_hold_it():
    site = make_site([make_paper("x", title="Card <Title>", tags=["llm"]), make_paper("y")])
    cards = {paper.slug: part.card.decode("utf-8")
             for paper, part in zip(site.papers, parts_of(site))}
    page = pages_of(site)["tags/llm/index.html"]
    assert cards["x"] in page and cards["y"] not in page


def test_a_papers_presentation_is_a_badge_beside_its_venue_on_its_card_and_page():
    site = make_site([make_paper("x", venue="ICLR 2025", presentation="oral"),
                      make_paper("y", presentation="poster")])
    pages = pages_of(site)
    assert '<span>ICLR 2025</span> <span class="badge">oral</span> ·' in pages["papers/x/index.html"]
    assert ' · ICLR 2025 <span class="badge">oral</span> ·' in pages["index.html"]
    # why: a presentation means nothing without the venue it was given at
    assert 'class="badge">poster' not in pages["papers/y/index.html"]


def test_the_pdf_is_the_first_link_and_the_primary_button_of_a_paper_page():
    links = build_links({"arxiv": "https://arxiv.org/abs/2406.16257", "code": "https://github.com/a/b"})
    pages = pages_of(make_site([make_paper("x", links=links)]))
    page = pages["papers/x/index.html"]
    assert ('<a class="button primary link-pdf" href="https://arxiv.org/pdf/2406.16257" '
            'rel="noopener">PDF</a><a class="button link-arxiv"') in page
    # why: a row points to its page, whose links reading/reading.js shows when the row is opened
    assert "link-pdf" not in pages["index.html"]


def author_site(**config):
    papers = [make_paper("x", title="First", authors=("Zoë Müller", "Ada Lovelace"),
                         date=dt.date(2025, 2, 1)),
              make_paper("y", title="Second", authors=("Zoe Muller",), date=dt.date(2025, 1, 1)),
              make_paper("z", title="Third", authors=("Émile Borel", "—", "王芳"))]
    return make_site(papers, **config)


def test_author_names_link_to_their_section_on_paper_pages_and_cards():
    pages = pages_of(author_site())
    links = ('<p class="authors"><a href="/digest/authors/0/#author-zoe-muller">Zoë Müller</a>, '
             '<a href="/digest/authors/0/#author-ada-lovelace">Ada Lovelace</a></p>')
    assert links in pages["papers/x/index.html"]
    assert ('<a href="/digest/authors/0/#author-zoe-muller">Z. Müller</a>, '
            '<a href="/digest/authors/0/#author-ada-lovelace">A. Lovelace</a>') in pages["index.html"]
    # why: a name with no letters has no section, and is shown as it is
    assert ('<a href="/digest/authors/0/#author-emile-borel">Émile Borel</a>, —, '
            '<a href="/digest/authors/0/#author-%E7%8E%8B%E8%8A%B3">王芳</a>') in pages["papers/z/index.html"]


def test_an_author_section_lists_every_paper_of_theirs_under_every_spelling():
    page = pages_of(author_site())["authors/0/index.html"]
    section = page[page.index('<section class="author" id="author-zoe-muller">'):]
    section = section[:section.index("</section>")]
    assert "<h2>Zoë Müller</h2>" in section and "Also written Zoe Muller" in section
    assert section.index(">First<") < section.index(">Second<") and ">Third<" not in section
    assert 'href="/digest/authors/"' in page
    assert "<title>Authors: Ada Lovelace to 王芳 · Test Digest</title>" in page
    assert '<link rel="canonical" href="https://example.org/digest/authors/0/">' in page


def test_authors_are_spread_over_pages_as_their_number_grows():
    papers = [make_paper(f"p{i}", authors=(f"Author {i}",)) for i in range(200)]
    pages = pages_of(make_site(papers))
    listed = sorted(path for path in pages if path.startswith("authors/") and path != "authors/index.html")
    # why: about 64 authors a page, a power of two of pages: 200 authors on 4
    assert listed == [f"authors/{n}/index.html" for n in range(4)]
    sections = [page.count('<section class="author"') for path, page in pages.items() if path in listed]
    assert sum(sections) == 200 and min(sections) > 20


def test_the_authors_index_lists_every_author_by_initial_with_their_paper_count():
    page = pages_of(author_site())["authors/index.html"]
    assert '<a href="#initial-a">A</a><a href="#initial-e">E</a><a href="#initial-z">Z</a>' \
           '<a href="#initial-other">Other</a>' in page
    names = [re.search(f'<li><a href="[^"]+">{name}</a> <span class="count">(\\d+)</span>', page)
             for name in ("Ada Lovelace", "Émile Borel", "Zoë Müller", "王芳")]
    assert [int(found.group(1)) for found in names] == [1, 1, 2, 1]
    assert [found.start() for found in names] == sorted(found.start() for found in names)
    assert '<h2 id="initial-z">Z</h2>' in page and "Zoe Muller<" not in page


def threads_site():
    return make_site([make_paper("new", title="Newest", abstract_text="Graphs.", venue="ICLR 2025",
                                 date=dt.date(2025, 3, 1)),
                      make_paper("mid", title="Middle", abstract_text="Quokkas.",
                                 date=dt.date(2025, 2, 1)),
                      make_paper("old", title="Oldest", abstract_text="Graphs and quokkas.",
                                 date=dt.date(2025, 1, 1))])


def test_a_paper_page_lists_its_related_papers():
    pages = pages_of(threads_site())
    assert '<li><a href="/digest/papers/new/">Newest</a></li>' in pages["papers/old/index.html"]
    assert '<li><a href="/digest/papers/mid/">Middle</a></li>' in pages["papers/old/index.html"]
    assert 'href="/digest/papers/old/">Oldest</a></li>' in pages["papers/new/index.html"]


def test_a_paper_with_no_related_papers_has_no_related_section():
    site = make_site([make_paper("a", abstract_text="Graphs."), make_paper("b", abstract_text="Quokkas.")])
    assert 'id="related"' not in pages_of(site)["papers/a/index.html"]


def test_a_paper_page_links_its_newer_and_older_neighbours_in_reading_order():
    pages = pages_of(threads_site())
    middle, newest, oldest = (pages[f"papers/{slug}/index.html"] for slug in ("mid", "new", "old"))
    assert '<a rel="prev" href="/digest/papers/new/"><span class="meta">← Newer</span> Newest</a>' in middle
    assert '<a rel="next" href="/digest/papers/old/"><span class="meta">Older →</span> Oldest</a>' in middle
    assert 'rel="prev"' not in newest and 'rel="next" href="/digest/papers/mid/"' in newest
    assert 'rel="next"' not in oldest and 'rel="prev" href="/digest/papers/mid/"' in oldest
    assert 'class="pagination paper-nav"' not in pages_of(make_site([make_paper("x")]))[
        "papers/x/index.html"]


def test_a_paper_page_offers_its_address_to_the_copy_script():
    page = pages_of(make_site([make_paper("x")]))["papers/x/index.html"]
    assert ('<a id="permalink" href="https://example.org/digest/papers/x/" data-copy="copyLink">'
            'https://example.org/digest/papers/x/</a>') in page


def test_a_row_names_short_authors_labels_the_added_date_and_folds_the_abstract():
    paper = make_paper("x", title="Exact", authors=("Ada Lovelace", "B C", "D E", "F G"),
                       venue="ICLR 2025", presentation="oral", tldr="Short.",
                       abstract_html="<p>With <math><mi>x</mi></math>.</p>",
                       date=dt.date(2026, 11, 29), tags=["llm"])
    home = pages_of(make_site([paper]))["index.html"]
    assert '<article class="card" data-paper="x">' in home
    assert ('<a href="/digest/authors/0/#author-ada-lovelace">A. Lovelace</a>, '
            '<a href="/digest/authors/0/#author-b-c">B. C</a> +2 more</span>') in home
    assert 'added <time datetime="2026-11-29">29 Nov 2026</time>' in home
    assert '<span class="badge">oral</span>' in home
    folded = home[home.index('<details class="card-more">'):home.index("</details>")]
    # why: a row points to its paper; reading/reading.js fetches the abstract from the paper's page
    assert "<summary>Abstract" in folded and "Short." in folded
    assert "<math>" not in folded and "D E" not in folded


def test_save_buttons_are_made_by_the_script_and_list_controls_are_hidden_until_it_runs():
    pages = pages_of(make_site([make_paper("x", tags=["llm"])]))
    assert 'data-save=' not in pages["index.html"] and 'data-save=' not in pages["papers/x/index.html"]
    assert '<article class="wrap paper" data-paper="x">' in pages["papers/x/index.html"]
    assert re.search(r'<form id="list-controls" [^>]*hidden>', pages["index.html"])
    assert '<option value="llm" data-name="llm">llm (1)</option>' in pages["index.html"]
    assert re.search(f'<script src="/digest/assets/reading/list-controls.js{ASSET_VERSION}" defer>',
                     pages["index.html"])
    for path, page in pages.items():
        if path.endswith(".html"):
            assert re.search(f'<script src="/digest/assets/reading/reading.js{ASSET_VERSION}" defer>', page)


def test_every_page_loads_one_settings_script_that_tells_the_scripts_where_the_files_are():
    pages = pages_of(make_site([make_paper("x")]))
    script = pages["assets/settings.js"]
    settings = json.loads(script[script.index("= ") + 2:script.rindex(";")])
    assert settings["reading"] == {
        "home": "/digest/", "saved": "/digest/saved/", "list": "/digest/list.json",
        "bib": "/digest/all.bib", "csl": "/digest/papers.json", "page_size": 50,
        "author_pages": 1, "store": "paper-digest:/digest/"}
    assert settings["search"]["index"] == "/digest/search/index.json"
    assert settings["messages"]["save"] == "Save"
    for path, page in pages.items():
        if path.endswith(".html"):
            assert re.search(f'<script src="/digest/assets/settings.js{ASSET_VERSION}" defer>', page)
            # why: nothing site-wide in each page: the settings were ~3.5 KB of every one
            assert 'type="application/json"' not in page


def test_saved_page_says_it_needs_javascript_and_stays_indexable():
    page = pages_of(make_site([make_paper("x")]))["saved/index.html"]
    assert 'id="saved-needs-script"' in page and "needs JavaScript" in page
    assert '<div id="saved-tools" hidden>' in page
    # why: it says what saving is to anyone who lands on it (Lighthouse's SEO asks it be
    # crawlable); it stays out of the sitemap, having no papers of its own to show
    assert 'name="robots"' not in page
    assert 'href="/digest/saved/"' in page


def test_long_lists_number_their_pages_and_mark_the_current_one():
    papers = [make_paper(f"p{i}", title=f"Paper {i}", date=dt.date(2025, 1, 1) + dt.timedelta(i))
              for i in range(30)]
    pages = pages_of(make_site(papers, page_size=2))
    middle = pages["page/6/index.html"]
    nav = middle[middle.index('<nav class="pagination"'):]
    nav = nav[:nav.index("</nav>")]
    assert 'aria-label="Pages"' in nav
    # why: newest first, the first page (the 15th) named, not numbered: its number grows
    assert re.findall(r">(\d+|…|Newest)</", nav) == ["Newest", "…", "8", "7", "6", "5", "4", "…", "1"]
    assert '<a href="/digest/page/6/" aria-current="page">6</a>' in nav
    assert '<a href="/digest/">Newest</a>' in nav and nav.count("aria-current") == 1


def test_paper_links_are_made_as_they_are_first_asked_for(monkeypatch):
    import generator.outputs.pages as pages_module
    from generator.model.urls import Urls
    site = make_site([make_paper(slug=f"p{n}", title=f"Paper {n}") for n in range(3)])
    urls, made = Urls(site.config.base_url), []
    real = pages_module.paper_link
    monkeypatch.setattr(pages_module, "paper_link", lambda *args: made.append(args[0].slug)
                        or real(*args))
    links = pages_module.paper_links(site, urls)
    assert made == []  # a quick page asks for a few of thousands
    p1 = next(paper for paper in site.papers if paper.slug == "p1")
    assert links["p1"] == real(p1, urls, site.config.language) and links["p1"] is links["p1"]
    assert made == ["p1"]
    # every paper's, whichever were made: a mapping of them all
    assert sorted(links) == ["p0", "p1", "p2"] and len(links) == 3 and "p2" in links
    assert links.get("nobody") is None and "nobody" not in links
    with pytest.raises(KeyError):
        links["nobody"]
