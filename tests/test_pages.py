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
from generator.outputs.pages import environment, excerpt

ASSET_VERSION = r"\?v=[0-9a-f]{10}"
"""An asset URL's query: a hash of the file's bytes."""


def test_page_jobs_make_home_paper_tag_search_and_404_pages():
    site = make_site([make_paper("x", tags=["llm"])])
    assert sorted(pages_of(site)) == ["404.html", "authors/ada-lovelace/index.html",
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
                     '<a href="/digest/authors/a-b/">A B</a>, <a href="/digest/authors/c-d/">C D</a>',
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


def test_paper_page_shows_its_bibtex_with_a_copy_button_and_the_script():
    page = pages_of(make_site([make_paper("x", title="A & B")]))["papers/x/index.html"]
    assert '<pre class="bibtex" id="bibtex-entry" tabindex="0"><code>@misc{lovelace2025b,\n' in page
    assert "  title = {{A \\&amp; B}},\n" in page
    assert 'data-copy-target="bibtex-entry"' in page and " hidden>Copy BibTeX</button>" in page
    assert re.search(f'<script src="/digest/assets/copy-text.js{ASSET_VERSION}" defer></script>', page)
    assert 'href="/digest/all.bib" download' in page


def test_tag_page_offers_its_own_feed_first_for_autodiscovery():
    page = pages_of(make_site([make_paper("x", tags=["llm"])]))["tags/llm/index.html"]
    feeds = [line for line in page.splitlines() if 'type="application/rss+xml"' in line]
    assert feeds == [
        '<link rel="alternate" type="application/rss+xml" title="Test Digest: llm" '
        'href="https://example.org/digest/tags/llm/feed.xml">',
        '<link rel="alternate" type="application/rss+xml" title="Test Digest" '
        'href="https://example.org/digest/feed.xml">']
    assert 'href="/digest/tags/llm/feed.xml"' in page and 'href="/digest/tags/llm.bib"' in page
    assert "1 paper tagged llm" in page


def test_tags_index_lists_each_tags_feed_and_bibtex():
    page = pages_of(make_site([make_paper("x", tags=["llm"])]))["tags/index.html"]
    assert '<a class="feed" href="/digest/tags/llm/feed.xml" aria-label="RSS feed of llm">RSS</a>' in page
    assert '<a class="bib" href="/digest/tags/llm.bib" aria-label="BibTeX of llm" download>' in page


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


def paginated_site():
    papers = [make_paper(f"p{i}", title=f"Paper {i}", date=dt.date(2025, 1, 10 - i), tags=["llm"])
              for i in range(5)]
    return make_site(papers, page_size=2)


def test_home_and_tag_pages_are_split_into_pages_at_stable_urls():
    pages = pages_of(paginated_site())
    for first in ("", "tags/llm/"):
        assert f"{first}index.html" in pages
        assert f"{first}page/2/index.html" in pages and f"{first}page/3/index.html" in pages
        assert f"{first}page/4/index.html" not in pages


def test_each_page_shows_its_papers_in_order_with_previous_and_next_links():
    pages = pages_of(paginated_site())
    first, middle, last = pages["index.html"], pages["page/2/index.html"], pages["page/3/index.html"]
    assert first.index(">Paper 0<") < first.index(">Paper 1<") and ">Paper 2<" not in first
    assert ">Paper 2<" in middle and ">Paper 3<" in middle and ">Paper 1<" not in middle
    assert ">Paper 4<" in last
    assert 'rel="next" href="/digest/page/2/"' in first and 'rel="prev"' not in first
    assert 'rel="prev" href="/digest/"' in middle and 'rel="next" href="/digest/page/3/"' in middle
    assert 'rel="next"' not in last and '<a href="/digest/page/3/" aria-current="page">3</a>' in last
    assert "<title>Papers, page 2 · Test Digest</title>" in middle
    assert 'rel="prev" href="/digest/tags/llm/"' in pages["tags/llm/page/2/index.html"]


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
        assert job.make(shared, *args) == job.made().data, job.path


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
    # the search page lists x among the papers added last
    assert changed == {"papers/x/index.html", "papers/y/index.html", "index.html",
                       "tags/llm/index.html", "authors/a-b/index.html", "search/index.html"}


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
    assert all(before[p] != after[p] and before[p] != renamed[p] for p in before)


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
    badge = '<span>ICLR 2025</span> <span class="badge">oral</span> ·'
    assert badge in pages["papers/x/index.html"] and badge in pages["index.html"]
    # why: a presentation means nothing without the venue it was given at
    assert 'class="badge">poster' not in pages["papers/y/index.html"]


def test_the_pdf_is_the_first_link_and_the_primary_button_of_a_paper_page():
    links = build_links({"arxiv": "https://arxiv.org/abs/2406.16257", "code": "https://github.com/a/b"})
    pages = pages_of(make_site([make_paper("x", links=links)]))
    page, home = pages["papers/x/index.html"], pages["index.html"]
    assert ('<a class="button primary link-pdf" href="https://arxiv.org/pdf/2406.16257" '
            'rel="noopener">PDF</a><a class="button link-arxiv"') in page
    assert home.index('class="link link-pdf"') < home.index('class="link link-arxiv"')


def author_site(**config):
    papers = [make_paper("x", title="First", authors=("Zoë Müller", "Ada Lovelace"),
                         date=dt.date(2025, 2, 1)),
              make_paper("y", title="Second", authors=("Zoe Muller",), date=dt.date(2025, 1, 1)),
              make_paper("z", title="Third", authors=("Émile Borel", "—", "王芳"))]
    return make_site(papers, **config)


def test_author_names_link_to_their_pages_on_cards_and_paper_pages():
    pages = pages_of(author_site())
    links = ('<p class="authors"><a href="/digest/authors/zoe-muller/">Zoë Müller</a>, '
             '<a href="/digest/authors/ada-lovelace/">Ada Lovelace</a></p>')
    assert links in pages["papers/x/index.html"] and links in pages["index.html"]
    # why: a name with no letters has no page, and is shown as it is
    assert ('<a href="/digest/authors/emile-borel/">Émile Borel</a>, —, '
            '<a href="/digest/authors/%E7%8E%8B%E8%8A%B3/">王芳</a>') in pages["papers/z/index.html"]


def test_an_author_page_lists_every_paper_of_theirs_under_every_spelling():
    page = pages_of(author_site())["authors/zoe-muller/index.html"]
    assert "<h1>Zoë Müller</h1>" in page and "Also written Zoe Muller" in page
    assert "2 papers in this digest" in page and 'href="/digest/authors/"' in page
    assert page.index(">First<") < page.index(">Second<") and ">Third<" not in page
    assert "<title>Zoë Müller · Test Digest</title>" in page
    assert '<link rel="canonical" href="https://example.org/digest/authors/zoe-muller/">' in page


def test_a_long_author_page_is_split_into_pages():
    papers = [make_paper(f"p{i}", title=f"Paper {i}", date=dt.date(2025, 1, 10 - i)) for i in range(3)]
    pages = pages_of(make_site(papers, page_size=2))
    assert ">Paper 2<" in pages["authors/ada-lovelace/page/2/index.html"]
    assert 'rel="next" href="/digest/authors/ada-lovelace/page/2/"' in pages[
        "authors/ada-lovelace/index.html"]


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


def test_a_paper_page_lists_its_related_papers_with_their_venues():
    pages = pages_of(threads_site())
    assert ('<li><a href="/digest/papers/new/">Newest</a> <span class="meta">ICLR 2025</span></li>'
            in pages["papers/old/index.html"])
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


def test_a_paper_page_has_a_copy_link_button_hidden_without_javascript():
    page = pages_of(make_site([make_paper("x")]))["papers/x/index.html"]
    assert ('<a id="permalink" href="https://example.org/digest/papers/x/">'
            'https://example.org/digest/papers/x/</a>') in page
    assert ('data-copy-target="permalink" data-copy-status="permalink-status" hidden>Copy link'
            '</button>') in page
    assert '<span id="permalink-status" class="meta" role="status" aria-live="polite">' in page


def test_a_row_names_short_authors_labels_the_added_date_and_folds_the_abstract():
    paper = make_paper("x", title="Exact", authors=("Ada Lovelace", "B C", "D E", "F G"),
                       venue="ICLR 2025", presentation="oral", tldr="Short.",
                       abstract_html="<p>With <math><mi>x</mi></math>.</p>",
                       date=dt.date(2026, 11, 29), tags=["llm"])
    home = pages_of(make_site([paper]))["index.html"]
    assert '<article class="card" data-paper="x" data-added="2026-11-29">' in home
    assert ('<a href="/digest/authors/ada-lovelace/">A. Lovelace</a>, '
            '<a href="/digest/authors/b-c/">B. C</a> +2<span class="visually-hidden"> more</span>') in home
    assert 'added <time datetime="2026-11-29">29 Nov 2026</time>' in home
    assert '<span class="badge">oral</span>' in home
    folded = home[home.index('<details class="card-more">'):home.index("</details>")]
    assert "<summary>Abstract" in folded and "<p>With <math><mi>x</mi></math>.</p>" in folded
    assert "Short." in folded and '<a href="/digest/authors/d-e/">D E</a>' in folded


def test_save_buttons_and_list_controls_are_hidden_until_a_script_shows_them():
    pages = pages_of(make_site([make_paper("x", tags=["llm"])]))
    assert ('<button type="button" class="save-toggle" data-save="x" aria-pressed="false" hidden>'
            in pages["index.html"])
    assert 'data-save="x" aria-pressed="false" hidden>Save</button>' in pages["papers/x/index.html"]
    assert re.search(r'<form id="list-controls" [^>]*hidden>', pages["index.html"])
    assert '<option value="llm" data-name="llm">llm (1)</option>' in pages["index.html"]
    assert re.search(f'<script src="/digest/assets/list-controls.js{ASSET_VERSION}" defer>',
                     pages["index.html"])
    for page in pages.values():
        assert re.search(f'<script src="/digest/assets/reading.js{ASSET_VERSION}" defer>', page)


def test_every_page_tells_the_reading_scripts_where_the_sites_files_are():
    page = pages_of(make_site([make_paper("x")]))["tags/index.html"]
    config = json.loads(re.search(r'<script type="application/json" id="reading-config">(.*?)</script>',
                                  page).group(1))
    assert config == {"home": "/digest/", "saved": "/digest/saved/", "list": "/digest/list.json",
                      "bib": "/digest/all.bib", "csl": "/digest/papers.json",
                      "docs": "/digest/search/docs/", "docs_chunk": 25, "page_size": 50,
                      "store": "paper-digest:/digest/"}


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
    assert re.findall(r">(\d+|…)</", nav) == ["1", "…", "4", "5", "6", "7", "8", "…", "15"]
    assert '<a href="/digest/page/6/" aria-current="page">6</a>' in nav
    assert '<a href="/digest/">1</a>' in nav and nav.count("aria-current") == 1
