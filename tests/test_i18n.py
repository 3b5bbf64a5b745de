"""The translated interface: the catalogues against what the templates and code ask for, the
language site.yaml selects, Babel's dates and numbers, and both interfaces built from files."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil

import pytest

import catalogues
import sitecheck
from factories import REPO, SITE_YAML, make_paper, make_site, pages_of, theme, write_content
from generator.building.cache import Cache
from generator.building.pipeline import BuildOptions, build
from generator.content.config import load_config
from generator.model.citation import assign_keys
from generator.model.errors import BuildFailed
from generator.model.languages import catalogue_languages, interface_language, og_locale
from generator.model.site import build_site
from generator.model.slugs import name_order
from generator.outputs.interface import interface, plural_examples, script_messages
from generator.building.pipeline import overlay_messages

LANGUAGES = ("en", "zh-CN")
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
PAPER_DAY = dt.date(2026, 11, 29)


# --- the catalogues ------------------------------------------------------------------------

def test_the_templates_carry_a_catalogue_for_each_supported_language():
    assert catalogue_languages(theme().templates) == LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_asked_for_is_translated_in_each_catalogue(language):
    catalogue = catalogues.catalogue(language)
    untranslated = [msgid for msgid in catalogues.used_messages()
                    if msgid not in catalogue or not _translated(catalogue[msgid])]
    assert not untranslated, f"{language}: untranslated or missing: {untranslated}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_keeps_a_message_nothing_asks_for(language):
    used = catalogues.used_messages()
    unused = [m.id for m in catalogues.catalogue(language) if m.id and
              (m.id if isinstance(m.id, str) else m.id[0]) not in used]
    assert not unused, f"{language}: unused messages: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalogue_is_as_make_messages_writes_it(language):
    # why: a new kind of page (docs/how-to/add-a-page-kind.md) adds its words by `make messages`
    path = catalogues.LOCALES / language / "messages.po"
    assert path.read_text(encoding="utf-8") == catalogues.updated_catalogue(language), (
        f"{path.relative_to(REPO)} is not up to date: run `make messages`")


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_and_plural_forms_of_their_messages(language):
    catalogue = catalogues.catalogue(language)
    problems = [(message.id, errors) for message, errors in catalogue.check()]
    assert not problems, problems
    for message in catalogue:
        if message.id and "<" in str(message.id):  # why: markup the page relies on stays
            assert _tags(message.id) == _tags(message.string), message.id


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and all(strings)


def _tags(text) -> list[str]:
    text = text[0] if isinstance(text, tuple) else text
    return sorted(re.findall(r"<[^>]+>", text))


# --- which language ------------------------------------------------------------------------

@pytest.mark.parametrize("tag, chosen", [("en", "en"), ("EN", "en"), ("en-GB", "en"),
                                         ("zh-CN", "zh-CN"), ("zh-cn", "zh-CN"), ("zh", "zh-CN"),
                                         ("zh-Hans", "zh-CN"), ("zh-SG", "zh-CN"),
                                         ("zh-TW", None), ("zh-Hant", None), ("fr", None)])
def test_a_language_tag_selects_the_catalogue_of_its_language_and_script(tag, chosen):
    assert interface_language(tag, LANGUAGES) == chosen


def test_an_unsupported_language_is_an_error_at_its_line_naming_the_supported_ones(tmp_path):
    (tmp_path / "site.yaml").write_text(SITE_YAML + "language: fr\n", encoding="utf-8")
    with pytest.raises(BuildFailed) as raised:
        load_config(tmp_path, languages=LANGUAGES)
    [error] = raised.value.errors
    assert error.line == 6
    assert "'language' is 'fr', but the interface is translated only into en, zh-CN" in error.message
    assert "templates/locales/fr/messages.po" in error.message


def test_the_build_rejects_an_unsupported_language_before_writing(tmp_path):
    content = write_content(tmp_path, {}, SITE_YAML + "language: zh-TW\n")
    with pytest.raises(BuildFailed) as raised:
        build(BuildOptions(content=content, out=tmp_path / "site", project=REPO))
    assert "translated only into en, zh-CN" in str(raised.value.errors[0])
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("tag, locale", [("en", "en_US"), ("en-GB", "en_GB"), ("zh-CN", "zh_CN"),
                                         ("zh", "zh_CN"), ("zh-Hans", "zh_CN")])
def test_og_locale_is_the_language_and_territory(tag, locale):
    assert og_locale(tag) == locale


# --- Babel's dates and numbers -------------------------------------------------------------

@pytest.mark.parametrize("language, day, number", [("en", "29 November 2026", "12,345"),
                                                   ("en-US", "November 29, 2026", "12,345"),
                                                   ("zh-CN", "2026年11月29日", "12,345")])
def test_dates_and_numbers_are_written_as_the_locale_writes_them(language, day, number):
    ui = interface(theme().templates, language)
    assert ui.date(PAPER_DAY) == day
    assert ui.number(12345) == number


def test_plurals_follow_the_catalogues_rule():
    en, zh = (interface(theme().templates, language) for language in LANGUAGES)
    assert en.ngettext("%(num)s paper", "%(num)s papers", 1) == "1 paper"
    assert en.ngettext("%(num)s paper", "%(num)s papers", 1200) == "1,200 papers"
    assert zh.ngettext("%(num)s paper", "%(num)s papers", 1) == "1 篇论文"
    assert zh.ngettext("%(num)s paper", "%(num)s papers", 2) == "2 篇论文"


def test_the_scripts_get_one_form_per_plural_category_of_the_language():
    en, zh = (script_messages(interface(theme().templates, language)) for language in LANGUAGES)
    assert en["matches"] == {"one": "%(num)s paper matches.", "other": "%(num)s papers match."}
    assert zh["matches"] == {"other": "找到 %(num)s 篇论文。"}
    assert plural_examples(interface(theme().templates, "en").locale) == {"one": 1, "other": 0}
    assert set(en) == set(zh) and all(en.values()) and all(zh.values())


# --- pages, feeds and the preview server in each language ----------------------------------

def test_a_chinese_site_speaks_chinese_and_marks_its_language():
    site = make_site([make_paper("x", tags=["机器学习"], date=PAPER_DAY)], language="zh-CN")
    pages = pages_of(site)
    paper = pages["papers/x/index.html"]
    assert '<html lang="zh-CN">' in paper and '<meta property="og:locale" content="zh_CN">' in paper
    assert ">论文</a>" in paper and 'placeholder="搜索（按 / 键）"' in paper
    assert '收录于<time datetime="2026-11-29">2026年11月29日</time>' in paper
    assert "<h1>找不到页面</h1>" in pages["404.html"]
    assert "1 篇论文" in pages["index.html"]


def test_an_english_site_has_no_chinese_interface_text():
    site = make_site([make_paper("x", tags=["llm"], date=PAPER_DAY, notes_html="<p>Notes.</p>")])
    for path, page in pages_of(site).items():
        assert not CJK.findall(page), f"{path}: {CJK.findall(page)[:5]}"
    assert "29 November 2026" in pages_of(site)["papers/x/index.html"]


def test_a_chinese_tag_gets_an_encoded_url_under_the_base_path():
    site = make_site([make_paper("x", tags=["机器学习"])], language="zh-CN")
    card = pages_of(site)["index.html"]
    assert 'href="/digest/tags/%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0/"' in card
    assert "tags/机器学习/index.html" in pages_of(site)


def test_bibtex_keys_of_non_latin_names_are_ascii_and_stable():
    papers = [make_paper("a", authors=("张伟",), title="图神经网络 Graph Networks"),
              make_paper("b", authors=("张伟",), title="Graph Networks Again"),
              make_paper("c", authors=("王芳",), title="图神经网络")]
    keys = assign_keys(tuple(papers))
    assert all(key.isascii() and re.fullmatch(r"[A-Za-z0-9:_-]+", key) for key in keys.values())
    assert keys == assign_keys(tuple(reversed(papers)))
    assert len(set(keys.values())) == 3


def test_names_sort_latin_letters_without_accents_first_then_han_by_code_point():
    names = ["王芳", "Zoë", "émile", "Émile", "ada", "张伟", "Bob"]
    assert sorted(names, key=name_order) == ["ada", "Bob", "Émile", "émile", "Zoë", "张伟", "王芳"]
    tags = [make_paper(str(n), tags=[name]) for n, name in enumerate(["图", "Équité", "zebra", "alpha"])]
    site = build_site(tags, make_site([]).config, dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc))
    assert [g.name for g in site.tags] == ["alpha", "Équité", "zebra", "图"]


def test_feeds_carry_the_language_and_their_words_in_it(tmp_path):
    content = write_content(tmp_path, {"x": _paper_file(tags=["检索"], body="要点。")},
                            SITE_YAML + "language: zh-CN\n")
    out = tmp_path / "site"
    build(BuildOptions(content=content, out=out, project=REPO))
    feed = (out / "feed.xml").read_text(encoding="utf-8")
    assert "<language>zh-CN</language>" in feed and "编者按" in feed
    tag_feed = next((out / "tags").glob("*/feed.xml")).read_text(encoding="utf-8")
    assert "<description>Test Digest 中标签为 检索 的论文</description>" in tag_feed


def test_the_preview_overlay_speaks_the_sites_language(tmp_path):
    content = write_content(tmp_path, {}, SITE_YAML + "language: zh-CN\n")
    words = overlay_messages(BuildOptions(content=content, project=REPO))
    assert words == {"hide": "隐藏", "buildFailed": "构建失败；这是上一次成功构建的网站。修正文件并保存后，本页会自动更新。"}
    (content / "site.yaml").write_text("title: [", encoding="utf-8")
    untranslated = overlay_messages(BuildOptions(content=content, project=REPO))
    assert untranslated["hide"] == "Hide"


def test_an_edited_catalogue_rerenders_the_pages_of_a_cached_build(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    for name in ("templates", "static"):
        shutil.copytree(REPO / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    content = write_content(tmp_path, {"x": _paper_file()}, SITE_YAML + "language: zh-CN\n")
    out, project = tmp_path / "site", tmp_path
    with Cache(tmp_path / "cache") as cache:
        build(BuildOptions(content=content, out=out, project=project), cache=cache)
        assert ">摘要</h2>" in (out / "papers/x/index.html").read_text(encoding="utf-8")
        po = tmp_path / "templates/locales/zh-CN/messages.po"
        po.write_text(po.read_text(encoding="utf-8").replace('msgstr "摘要"', 'msgstr "内容摘要"'),
                      encoding="utf-8")
        build(BuildOptions(content=content, out=out, project=project), cache=cache)
    assert ">内容摘要</h2>" in (out / "papers/x/index.html").read_text(encoding="utf-8")
    clean = tmp_path / "clean"
    build(BuildOptions(content=content, out=clean, project=project))
    assert sitecheck_files(clean) == sitecheck_files(out)


def _paper_file(**fields) -> str:
    from factories import paper_source
    return paper_source(**fields)


def sitecheck_files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# --- the shipped digest, in both interfaces ------------------------------------------------

@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The shipped digest built as it is (zh-CN) and with an English interface."""
    root = tmp_path_factory.mktemp("shipped")
    english = sitecheck.content_in("en", root / "content-en")
    return {"zh-CN": sitecheck.build(root / "zh", sitecheck.BASE_URL),
            "en": sitecheck.build(root / "en", sitecheck.BASE_URL, content=english)}


def test_the_shipped_digest_is_chinese(shipped):
    assert sitecheck.shipped_language() == "zh-CN"
    home = (shipped["zh-CN"] / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in home and "19 篇论文" in home and "2026年11月29日" in home
    feed = (shipped["zh-CN"] / "feed.xml").read_text(encoding="utf-8")
    assert "<language>zh-CN</language>" in feed


def test_the_shipped_digest_in_english_has_no_chinese_but_its_own_words(shipped):
    config = load_config(REPO / "content")
    own = [config.title, config.subtitle, config.description, config.curator]
    for page in sitecheck.html_pages(shipped["en"]):
        text = page.read_text(encoding="utf-8")
        for words in own:
            text = text.replace(words, "").replace(json.dumps(words)[1:-1], "")
        assert not CJK.findall(text), f"{page}: {CJK.findall(text)[:5]}"
    home = (shipped["en"] / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in home and "19 papers" in home and "29 Nov 2026" in home


# --- the papers' own language --------------------------------------------------------------

def test_on_a_chinese_site_english_paper_text_is_marked_english_and_chinese_text_is_not():
    site = make_site([make_paper("x", title="Graph Networks", notes_html="<p>要点。</p>",
                                 date=PAPER_DAY),
                      make_paper("y", title="图神经网络", date=PAPER_DAY)], language="zh-CN")
    pages = pages_of(site)
    paper = pages["papers/x/index.html"]
    assert '<h1><span lang="en">Graph Networks</span></h1>' in paper
    assert '<div class="abstract" lang="en">' in paper and '<div class="notes">' in paper
    assert '<a href="/digest/papers/x/" lang="en">Graph Networks</a>' in pages["index.html"]
    assert '<a href="/digest/papers/y/">图神经网络</a>' in pages["index.html"]


def test_on_an_english_site_paper_text_carries_no_lang():
    site = make_site([make_paper("x", title="Graph Networks", date=PAPER_DAY)], language="en-GB")
    assert 'lang="en"' not in "".join(pages_of(site).values())


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_templates_messages_are_what_jinjas_own_i18n_makes_of_them(language):
    """render.py gives templates a `_()` of its own, each message translated once: the same
    markup as Jinja's new-style, autoescaped gettext, for every message of the catalogue, with
    and without values to fill in (escaped), and '%%' made '%'."""
    import jinja2
    from generator.outputs.render import environment

    templates = theme().templates
    ours = environment(templates, language)
    jinjas = jinja2.Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    jinjas.install_gettext_translations(interface(templates, language).translations,
                                        newstyle=True)
    messages = [m.id for m in catalogues.catalogue(language)
                if m.id and isinstance(m.id, str) and "%(" not in m.id] + ["100%% sure", "<b>"]
    assert len(messages) > 20
    for message in messages:
        source = "{{ _(m) }}|{{ _(m) }}"
        assert ours.from_string(source).render(m=message) == \
            jinjas.from_string(source).render(m=message), message
    for filled in ('{{ _("Also written %(names)s", names=n) }}',
                   '{{ _("Error: %(message)s", message=n) }}',
                   '{% autoescape false %}{{ _("Also written %(names)s", names=n) }}'
                   '{{ _("100%% <b>") | e }}{% endautoescape %}'):
        for names in ("Zoë Müller", "<script>&amp;"):
            assert ours.from_string(filled).render(n=names) == \
                jinjas.from_string(filled).render(n=names), filled
