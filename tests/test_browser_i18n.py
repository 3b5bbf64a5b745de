"""Both interfaces in Debian's chromium: the shipped digest in Chinese, with Chinese notes and a
Chinese tag added, and the same digest in English; axe-core on both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import sitecheck
from browserkit import TIMEOUT_MS, open_page
from sitecheck import BASE_PATH, REPO

AXE = REPO / "node_modules/axe-core/axe.min.js"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
PAPER = "content/papers/promptriever.md"
TAG = "指令检索"
NOTES = "\n编者按：这篇论文把指令微调用到检索模型上。\n"


def chinese_content(folder: Path) -> Path:
    """The shipped digest (zh-CN) with Chinese notes and a Chinese tag on one paper."""
    content = sitecheck.content_in("zh-CN", folder)
    paper = content / "papers" / Path(PAPER).name
    text = paper.read_text(encoding="utf-8").replace("tags:\n", f"tags:\n- {TAG}\n", 1)
    paper.write_text(text + NOTES, encoding="utf-8")
    return content


@pytest.fixture(scope="module")
def origins(tmp_path_factory):
    """Origins serving the Chinese and the English build, under the base path."""
    root = tmp_path_factory.mktemp("i18n")
    zh = sitecheck.build(root / "zh", sitecheck.BASE_URL, content=chinese_content(root / "c-zh"))
    en = sitecheck.build(root / "en", sitecheck.BASE_URL,
                         content=sitecheck.content_in("en", root / "c-en"))
    with sitecheck.serve(zh, BASE_PATH) as zh_url, sitecheck.serve(en, BASE_PATH) as en_url:
        yield {"zh-CN": zh_url, "en": en_url}


@pytest.fixture
def zh(browser, origins):
    page = open_page(browser, origins["zh-CN"])
    yield page
    page.context.close()


@pytest.fixture
def en(browser, origins):
    page = open_page(browser, origins["en"])
    yield page
    page.context.close()


def header_search(page: Page, text: str) -> None:
    page.goto(BASE_PATH)
    page.keyboard.press("/")
    page.keyboard.type(text)
    expect(page.locator("#site-search-panel")).to_be_visible()


def test_the_chinese_interface_speaks_chinese(zh, tmp_path):
    zh.goto(BASE_PATH)
    expect(zh.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(zh.locator(".site-header nav a")).to_have_text(["论文", "标签", "作者", "搜索", "收藏", "RSS"])
    expect(zh.locator("#site-search-input")).to_have_attribute("placeholder", "搜索（按 / 键）")
    expect(zh.locator(".card time").first).to_have_text("2026年11月29日")
    expect(zh.locator(".intro .meta")).to_contain_text("19 篇论文")
    zh.screenshot(path=str(tmp_path / "home-zh.png"))  # why: shows whether the CJK font is there
    assert not zh.watch.problems(), zh.watch.problems()


def test_chinese_search_counts_results_and_labels_its_filters(zh):
    header_search(zh, "retrieval")
    expect(zh.locator("#site-search-status")).to_have_text(re.compile(r"^找到 \d+ 篇论文。$"),
                                                           timeout=TIMEOUT_MS)
    zh.goto(BASE_PATH + "search/?q=retrieval")
    expect(zh.locator("#search-status")).to_have_text(re.compile(r"^找到 \d+ 篇论文。$"),
                                                      timeout=TIMEOUT_MS)
    expect(zh.locator(".facet-title").first).to_have_text("标签")
    zh.goto(BASE_PATH + "search/?q=zzzzqqq")
    expect(zh.locator("#search-status")).to_have_text("没有与“zzzzqqq”匹配的论文。",
                                                      timeout=TIMEOUT_MS)
    assert not zh.watch.problems(), zh.watch.problems()


def test_a_chinese_tag_and_chinese_notes_are_served_under_the_base_path(zh):
    zh.goto(BASE_PATH + "papers/promptriever/")
    expect(zh.locator("#notes")).to_have_text("编者按")
    expect(zh.locator(".notes")).to_contain_text("指令微调")
    zh.locator(".tags a", has_text=TAG).click()
    expect(zh.locator("h1")).to_have_text(f"标签：{TAG}")
    assert "/iclr-digest/tags/%E6%8C%87" in zh.url
    # why: leaving a page cancels the search scripts it was warming; only script errors count
    assert not zh.watch.errors, zh.watch.errors


def test_the_chinese_404_page(zh, origins):
    url = BASE_PATH + "no/such/page/"
    zh.watch.expected_status[origins["zh-CN"] + url] = 404
    zh.goto(url)
    expect(zh.locator("h1")).to_have_text("找不到页面")


def test_the_english_interface_has_no_chinese(en):
    config_words = ["ICLR 2025 论文列表", "ICLR 2025 论文精选阅读列表", "读书会"]
    for path in ("", "papers/promptriever/", "tags/", "authors/", "search/?q=retrieval"):
        en.goto(BASE_PATH + path)
        if "q=" in path:
            expect(en.locator("#search-status")).to_have_text(re.compile(r"papers? match"),
                                                              timeout=TIMEOUT_MS)
        text = en.locator("body").inner_text()
        for words in config_words + [en.locator(".intro p").nth(1).inner_text() if not path else ""]:
            text = text.replace(words, "")
        assert not CJK.findall(text), f"{path}: {CJK.findall(text)[:10]}"
    assert not en.watch.errors, en.watch.errors  # why: as above, leaving pages cancels loads


@pytest.mark.parametrize("language", ["zh-CN", "en"])
@pytest.mark.parametrize("path", ["", "papers/promptriever/", "search/?q=agents"])
def test_axe_finds_no_serious_or_critical_violation_in_either_language(browser, origins,
                                                                     language, path):
    page = open_page(browser, origins[language])
    try:
        page.goto(BASE_PATH + path)
        if "q=" in path:
            expect(page.locator("#search-results li").first).to_be_visible(timeout=TIMEOUT_MS)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    finally:
        page.context.close()
    bad = [f"{v['id']} ({v['impact']}): {v['help']}" for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, "\n".join(bad)
