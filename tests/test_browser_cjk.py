"""Chinese search in Debian's chromium: the ICLR digest with papers whose titles, abstracts,
notes, tags and authors are Chinese (an English interface), served over HTTP, searched by
typing as a reader does."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from lunr.index import Index
from playwright.sync_api import expect

from browserkit import open_search, result_titles, type_query
from factories import paper_source
from generator.search.packed import unpack
from sitecheck import BASE_URL, CONTENT, build, said

UNLEARNING = "Towards Scalable Exact Machine Unlearning Using Parameter-Efficient Fine-Tuning"
PROMPTRIEVER = "Promptriever: Instruction-Trained Retrievers Can Be Prompted Like Language Models"
DISTILLATION = "面向多模态大模型的知识蒸馏"
OFFLINE_RL = "离线强化学习中的价值函数估计"
REWARD = "Scaling Laws for Reward Models"
CHINESE_PAPERS = {
    "zh-distillation": paper_source(
        title=DISTILLATION, authors=["张伟", "欧阳修"], tags=["知识蒸馏", "多模态"], venue="ICLR 2025",
        abstract="我们提出一种把多模态大模型压缩为小模型的知识蒸馏方法，在图像描述和视觉问答上保持了原模型的准确率。",
        body="这篇论文研究了知识蒸馏，重点是多模态大模型的压缩。\n"),
    "zh-offline-rl": paper_source(
        title=OFFLINE_RL, authors=["李娜", "Ada Lovelace"], tags=["强化学习"], venue="ICLR 2025",
        abstract="离线强化学习只能使用固定的数据集。我们分析了价值函数估计的偏差，并与策略蒸馏做了比较。",
        body="值得复现。\n"),
    "zh-notes-only": paper_source(
        title=REWARD, authors=["Grace Hopper"], tags=["llm"], venue="ICLR 2025",
        abstract="We study how reward models scale with data and parameters.",
        body="本文讨论奖励模型的缩放定律，附带提到了知识蒸馏。\n"),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The ICLR digest and the Chinese papers, built under /iclr-digest/."""
    root = tmp_path_factory.mktemp("zh")
    content = Path(shutil.copytree(CONTENT, root / "content"))
    for slug, text in CHINESE_PAPERS.items():
        (content / "papers" / f"{slug}.md").write_text(text, encoding="utf-8")
    return build(root / "site", BASE_URL, content=content)


@pytest.mark.parametrize("query, first", [
    ("知识蒸馏", DISTILLATION),        # a word
    ("蒸馏", DISTILLATION),            # a two-character part of it
    ("模态", DISTILLATION),            # a part of 多模态
    ("tag:知识蒸馏", DISTILLATION),    # a Chinese tag
    ("tag:强化学习", OFFLINE_RL),
    ("欧阳", DISTILLATION),            # a part of an author's name
    ("价值函数", OFFLINE_RL),
    ("缩放定律", REWARD),              # in the notes alone
    ("LLM的知识蒸馏", DISTILLATION),   # mixed text: llm and 知识蒸馏
    ("unlearning", UNLEARNING),        # English as before
    ("promptriver", PROMPTRIEVER),
])
def test_the_right_paper_comes_first(page, query, first):
    open_search(page)
    type_query(page, query)
    assert result_titles(page)[0] == first
    assert not page.watch.problems(), page.watch.problems()


def test_a_word_is_not_found_by_some_of_its_bigrams(page):
    open_search(page)
    type_query(page, "蒸馏方法学")  # why: 蒸馏 and 方法 are there, 法学 is not
    no_match = said("No papers match “%(query)s”.").split("%(query)s")[0]
    expect(page.locator("#search-status")).to_have_text(re.compile("^" + re.escape(no_match)))


def test_chinese_matches_are_highlighted(page):
    open_search(page)
    type_query(page, "蒸馏")
    first = page.locator("#search-results li.card").first
    expect(first.locator("h2.card-title mark")).to_have_text(["蒸馏"])
    expect(first.locator(".excerpt mark")).to_have_text(["蒸馏"])
    type_query(page, "多模态大模型")
    expect(first.locator("h2.card-title mark")).to_have_text(["多模态大模型"])


BIGRAM_QUERIES = ["蒸馏", "知识 识蒸 蒸馏", "模型", "title:强化 强化学习", "tags:知识", "authors:欧阳", "函数 价值"]


def test_lunr_js_ranks_chinese_like_lunr_py(page, site):
    open_search(page)
    in_browser = page.evaluate(
        """async (queries) => {
            const config = window.DigestSettings.search;
            const load = (src) => new Promise((resolve, reject) => {
                const script = Object.assign(document.createElement("script"), {src, onload: resolve, onerror: reject});
                document.head.appendChild(script);
            });
            await load(config.scripts.lunr);
            await load(config.scripts.read);  // why: index.js takes its digits from read.js
            await load(config.scripts.unpack);
            const index = lunr.Index.load(DigestIndex.unpackIndex(await (await fetch(config.index)).json()));
            return queries.map(q => index.search(q).map(r => [r.ref, r.score]));
        }""", BIGRAM_QUERIES)
    index = Index.load(unpack(json.loads((site / "search/index.json").read_text(encoding="utf-8"))))
    for query, js in zip(BIGRAM_QUERIES, in_browser):
        python = [(r["ref"], r["score"]) for r in index.search(query)]
        assert js, query
        assert [ref for ref, _ in js] == [ref for ref, _ in python], query
        assert [s for _, s in js] == pytest.approx([s for _, s in python], rel=1e-9), query
