import datetime as dt
import os
import shutil
import time

import jinja2
import pytest

from factories import ASSETS, REPO, make_paper, make_site, pages_of
from generator.records import Link
from generator.memo import code_version
from generator.render import excerpt, human_date, make_environment


def test_render_pages_makes_home_paper_tag_search_and_404_pages():
    site = make_site([make_paper("x", tags=["llm"])])
    assert sorted(pages_of(site)) == ["404.html", "index.html", "papers/x/index.html",
                                      "search/index.html", "tags/index.html", "tags/llm/index.html"]


def test_paper_page_shows_every_field():
    paper = make_paper("x", title="Exact Unlearning", authors=("A B", "C D"), venue="ICLR 2025",
                       tags=["llm"], tldr="Short.", notes_html="<p>Good.</p>",
                       abstract_html="<p>With <math><mi>x</mi></math>.</p>",
                       links=(Link("code", "Code", "https://github.com/a/b"),))
    page = pages_of(make_site([paper]))["papers/x/index.html"]
    for expected in ("<h1>Exact Unlearning</h1>", "A B, C D", "ICLR 2025", "24 April 2025",
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
    assert '<script src="/digest/assets/copy-text.js?v=1" defer></script>' in page
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
    assert 'href="/digest/assets/site.css?v=1"' in page
    assert 'href="/digest/search/"' in page
    assert "canonical" not in page


def test_home_page_lists_papers_newest_first():
    site = make_site([make_paper("old", title="Old", date=dt.date(2025, 1, 1)),
                      make_paper("new", title="New", date=dt.date(2025, 2, 1))])
    home = pages_of(site)["index.html"]
    assert home.index(">New<") < home.index(">Old<")


def test_templates_fail_on_an_undefined_name():
    env = make_environment(REPO / "templates")
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing }}").render()


def test_excerpt_cuts_at_a_word_count():
    assert excerpt("one two three", 2) == "one two …"
    assert excerpt("one  two", 5) == "one two"


def test_human_date_is_the_same_in_every_locale():
    assert human_date(dt.date(2025, 4, 4)) == "4 April 2025"


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
    assert 'rel="next"' not in last and "Page 3 of 3" in last
    assert "<title>Papers, page 2 · Test Digest</title>" in middle
    assert 'rel="prev" href="/digest/tags/llm/"' in pages["tags/llm/page/2/index.html"]


def test_pages_are_near_the_papers_they_show_in_site_order():
    from generator.render import plan_pages
    plan = plan_pages(paginated_site(), make_environment(REPO / "templates"), ASSETS)
    near = {plan.pages[n].path: plan.near(n) for n in range(len(plan))}
    # five papers, newest first, two a page: a list page is near its middle paper
    assert [near[f"papers/p{i}/index.html"] for i in range(5)] == [0, 1, 2, 3, 4]
    assert [near["index.html"], near["page/2/index.html"], near["page/3/index.html"]] == [1, 3, 4]
    assert near["tags/llm/page/2/index.html"] == 3 and near["search/index.html"] == -1


def test_a_short_list_has_one_page_and_no_page_links():
    page = pages_of(make_site([make_paper("x")]))["index.html"]
    assert 'class="pagination"' not in page


def page_keys(site, templates=REPO / "templates"):
    from generator.render import plan_pages
    plan = plan_pages(site, make_environment(templates), ASSETS)
    return dict(plan.keys())


def keyed(slug, key, **fields):
    return make_paper(slug, source_key=key, **fields)


def test_page_keys_are_the_same_for_the_same_inputs():
    site = lambda: make_site([keyed("x", "kx", tags=["llm"]), keyed("y", "ky")])  # noqa: E731
    assert page_keys(site()) == page_keys(site())


def test_a_changed_paper_changes_its_page_and_the_lists_showing_it_only():
    before = page_keys(make_site([keyed("x", "kx", tags=["llm"]), keyed("y", "ky", tags=["cv"])]))
    after = page_keys(make_site([keyed("x", "kx2", tags=["llm"]), keyed("y", "ky", tags=["cv"])]))
    changed = {path for path in before if before[path] != after[path]}
    assert changed == {"papers/x/index.html", "index.html", "tags/llm/index.html"}


def test_a_paper_without_a_source_key_stands_for_itself_in_keys():
    before = page_keys(make_site([make_paper("x", title="One")]))
    after = page_keys(make_site([make_paper("x", title="Two")]))
    assert before["papers/x/index.html"] != after["papers/x/index.html"]


def test_a_changed_template_or_setting_changes_every_page_key(tmp_path):
    import shutil
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    papers = [keyed("x", "kx", tags=["llm"])]
    before = page_keys(make_site(papers), tmp_path / "templates")
    card = tmp_path / "templates/_partials/paper_card.html"
    card.write_text(card.read_text() + "\n", encoding="utf-8")
    after = page_keys(make_site(papers), tmp_path / "templates")
    renamed = page_keys(make_site(papers, title="Another Digest"))
    assert all(before[p] != after[p] and before[p] != renamed[p] for p in before)


def test_a_title_in_another_language_is_marked_so_screen_readers_say_it_right():
    marked = pages_of(make_site([make_paper("x")], title="论文列表", title_language="zh"))
    assert '<span class="brand-title" lang="zh">论文列表</span>' in marked["papers/x/index.html"]
    assert '<h1 lang="zh">论文列表</h1>' in marked["index.html"]
    plain = pages_of(make_site([make_paper("x")]))["index.html"]
    assert '<span class="brand-title">Test Digest</span>' in plain


def test_templates_compiled_once_are_read_back_by_the_next_build(tmp_path, monkeypatch):
    for name, age in (("unused-for-days", 3 * 86400), ("in-use-elsewhere", 60)):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (time.time() - age, time.time() - age))
    make_environment(REPO / "templates", tmp_path).get_template("paper.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([code_version(), "in-use-elsewhere"])

    def compile_again(*args, **kwargs):
        raise AssertionError("compiled again")

    uncached = make_environment(REPO / "templates")
    monkeypatch.setattr(uncached, "compile", compile_again)
    with pytest.raises(AssertionError, match="compiled again"):
        uncached.get_template("paper.html")
    env = make_environment(REPO / "templates", tmp_path)
    monkeypatch.setattr(env, "compile", compile_again)
    assert env.get_template("paper.html").name == "paper.html"  # read back, not compiled


def test_templates_read_dict_keys_and_attributes_as_jinja_does():
    env = make_environment(REPO / "templates")
    plain = jinja2.Environment(undefined=jinja2.StrictUndefined)
    source = "{{ d.title }} {{ d.items is callable }} {{ d['items'] }} {{ n.real }} {{ d.tags[0].name }}"
    context = {"d": {"title": "T", "items": "a key named like a dict method", "tags": [{"name": "llm"}]},
               "n": 3}
    assert env.from_string(source).render(context) == plain.from_string(source).render(context)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ d.missing }}").render(context)


def test_a_template_cache_that_cannot_be_written_fails_no_build(tmp_path):
    env = make_environment(REPO / "templates", tmp_path / "templates")
    shutil.rmtree(tmp_path / "templates")  # as another build pruning it would
    assert env.get_template("paper.html").name == "paper.html"
