"""Chinese and Japanese text cut into bigrams alike by the build (generator/search/terms.py) and
by the browser (static/search/query.js), on shared vectors (tests/js/cjk_vectors.json) and on
random text; and what the search worker finds with them (tests/js/rank_answers.js)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from lunr.index import Index
from lunr.query import Query, QueryPresence

from factories import make_paper
from lunrpy import lunr_py_index_of
from generator.model.urls import Urls
from generator.search.documents import document_chunks, facet_table, result_entry
from generator.search.index import build_index
from generator.search.packed import pack, unpack
from generator.search.terms import CJK_RANGES, cjk_grams, cut_cjk, fold, index_text

JS = Path(__file__).parent / "js"
VECTORS = json.loads((JS / "cjk_vectors.json").read_text(encoding="utf-8"))


def build_cut(text: str) -> list[str]:
    """The terms the build indexes of a text field's text, as lunr lowercases them."""
    return cut_cjk(index_text(text)).lower().split()


def build_names(text: str) -> list[str]:
    """The terms the build indexes of a name field's text."""
    return cut_cjk(index_text(fold(text))).lower().split()


def browser_cut(tmp_path: Path, texts: list[str]) -> list[dict]:
    (tmp_path / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "cut_text.js"), str(tmp_path / "texts.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_run_is_cut_into_overlapping_bigrams_and_one_character_is_kept():
    assert cjk_grams("知识蒸馏") == ["知识", "识蒸", "蒸馏"]
    assert cjk_grams("的") == ["的"] and cjk_grams("张伟") == ["张伟"]


def test_mixed_text_keeps_its_words_and_cuts_its_cjk_runs():
    assert cut_cjk(index_text("LLM的知识蒸馏方法")) == "LLM 的知 知识 识蒸 蒸馏 馏方 方法"


def test_text_without_cjk_is_left_as_it_is():
    # why: the index of a digest without CJK text stays byte for byte what it was
    rng = random.Random(5)
    alphabet = "ab cdé_\tx1-.,$ß한국어ÅΩ\u00a0"
    for _ in range(2000):
        words = index_text("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))))
        assert cut_cjk(words) is words


def test_the_shared_vectors_are_cut_as_written_down():
    for row in VECTORS:
        assert build_cut(row["text"]) == row["terms"], row["text"]
        assert build_names(row["text"]) == row["names"], row["text"]


def test_the_browser_cuts_the_shared_vectors_alike(tmp_path):
    cut = browser_cut(tmp_path, [row["text"] for row in VECTORS])
    for row, js in zip(VECTORS, cut):
        assert (js["terms"], js["names"]) == (row["terms"], row["names"]), row["text"]


def test_the_browser_cuts_random_text_alike(tmp_path):
    rng = random.Random(21)
    # why: the half-width voiced mark only after its kana: alone, fold() takes it away in the
    # build, joining the letters around it, while the browser folds word by word
    alphabet = list("ab Z9é-_.，。、\u3000知识蒸馏的模型ーカを々〇한국\uF900") + [
        "\U00020000", "\U00020BB7", "🙂", "ｶ", "ｶﾞ"]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25))) for _ in range(3000)]
    for text, js in zip(texts, browser_cut(tmp_path, texts)):
        assert (js["terms"], js["names"]) == (build_cut(text), build_names(text)), text


def test_the_browser_takes_the_same_characters_for_cjk():
    done = subprocess.run(["node", str(JS / "cut_text.js"), "--ranges"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [tuple(r) for r in json.loads(done.stdout)] == list(CJK_RANGES)


# --- what the search worker finds with them ---------------------------------------------------

def answers(tmp_path: Path, papers: list, queries: list[str]) -> list[dict]:
    """For each query, the worker's ranked refs (`refs`), its full answer after phrases and
    exclusions (`found`), and the shown results with highlights in [brackets] (`shown`)."""
    urls, papers = Urls("https://example.org/digest/"), tuple(papers)
    files = {"packed.json": pack(build_index(papers)), "queries.json": queries,
             "meta.json": facet_table(papers),
             "docs.json": {name: [result_entry(p, urls) for p in members]
                           for name, members in document_chunks(papers).items()}}
    for name, value in files.items():
        (tmp_path / name).write_text(json.dumps(value), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "rank_answers.js"), *(str(tmp_path / n) for n in files)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def chinese_papers() -> list:
    return [
        make_paper("kd", title="Knowledge Distillation Revisited", authors=("张伟", "欧阳修"),
                   tags=["知识蒸馏"], notes_text="这篇论文研究了知识蒸馏，并讨论了多模态大模型的压缩。"),
        make_paper("methods", title="A New Training Method", notes_text="本文提出一种新的训练方法。",
                   authors=("李娜",), tags=["优化"]),
        make_paper("llm", title="LLM的知识蒸馏方法", abstract_text="我们比较了大语言模型的知识蒸馏方法。",
                   authors=("Ada Lovelace",)),
        make_paper("english", title="Multimodal Models", abstract_text="Vision and language models."),
    ]


def test_a_chinese_word_and_its_two_character_parts_find_the_paper(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["多模态", "多模", "模态", "压缩", "大模型"])
    assert [f["found"] for f in found] == [[0]] * 5


def test_a_chinese_tag_is_found_whole_and_by_its_parts(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["tag:知识蒸馏", "tag:蒸馏", "tag:优化", "tag:模型"])
    assert [f["found"] for f in found] == [[0], [0], [1], []]


def test_chinese_author_names_are_found_by_their_two_character_parts(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["欧阳修", "欧阳", "阳修", "author:张伟", "author:李娜"])
    assert [f["found"] for f in found] == [[0], [0], [0], [0], [1]]


def test_a_word_needs_all_its_bigrams_in_one_field(tmp_path):
    # why: 方法 alone (method) is in two papers; 蒸馏方法 only in one
    found = answers(tmp_path, chinese_papers(), ["方法", "蒸馏方法", "训练方法", "蒸馏训练"])
    assert sorted(found[0]["found"]) == [1, 2]
    assert [f["found"] for f in found[1:]] == [[2], [1], []]


def test_mixed_text_is_its_english_word_and_its_chinese_word(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["LLM的知识蒸馏方法", "llm 知识蒸馏", "知识蒸馏"])
    assert found[0]["found"] == [2] and found[1]["found"][0] == 2
    assert sorted(found[2]["found"]) == [0, 2]


def test_one_character_finds_the_bigrams_it_is_part_of(tmp_path):
    assert sorted(answers(tmp_path, chinese_papers(), ["法"])[0]["found"]) == [1, 2]


def test_a_chinese_word_is_excluded_whole_and_phrases_are_checked(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["-方法", "蒸馏 -训练方法", '"知识蒸馏"', '"蒸馏知识"', "-法"])
    assert sorted(found[0]["found"]) == [0, 3] and sorted(found[4]["found"]) == [0, 3]
    assert sorted(found[1]["found"]) == [0, 2]
    assert sorted(found[2]["found"]) == [0, 2] and found[3]["found"] == []


def test_chinese_matches_are_highlighted(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["蒸馏方法", "LLM的知识蒸馏方法", "大语言"])
    assert found[0]["shown"][0]["title"] == "LLM的知识[蒸馏方法]"
    assert found[1]["shown"][0]["title"] == "[LLM][的知识蒸馏方法]"
    assert found[2]["shown"][0]["snippet"] == "我们比较了[大语言]模型的知识蒸馏方法。"


def test_english_queries_are_answered_as_before(tmp_path):
    found = answers(tmp_path, chinese_papers(), ["multimodal", "distillation", "trainng method"])
    assert found[0]["found"] == [3] and found[1]["found"] == [0]
    assert found[2]["found"][0] == 1 and found[2]["searched"] == "*training* method"


# --- lunr.py and lunr.js agree on them --------------------------------------------------------

def test_our_index_of_chinese_text_is_what_lunr_py_builds():
    papers = chinese_papers()
    assert unpack(pack(build_index(tuple(papers)))) == lunr_py_index_of(papers)


def lunr_py_answer(index: Index, clauses: list[dict]) -> list[tuple[str, float]]:
    """lunr.py's answer to the worker's clauses (tests/js/lunr_answers.js)."""
    query = index.create_query()
    for c in clauses:
        query.term(c["term"], fields=c["fields"], boost=c["boost"], use_pipeline=False,
                   presence=QueryPresence(c["presence"]),
                   wildcard=Query.WILDCARD_TRAILING if c["wildcard"] else Query.WILDCARD_NONE)
    return [(r["ref"], r["score"]) for r in index.query(query)]


def test_lunr_py_and_lunr_js_rank_chinese_queries_alike(tmp_path):
    papers = chinese_papers() + [make_paper(f"z{i}", title=f"第{i}篇：模型压缩与知识迁移",
                                            notes_text="模型" * i + "蒸馏方法", tags=["模型压缩"])
                                 for i in range(1, 6)]
    packed = pack(build_index(tuple(papers)))
    queries = ["知识蒸馏", "蒸馏", "模型压缩", "tag:模型压缩", "模型 蒸馏方法", "LLM的知识蒸馏方法",
               "欧阳修", "法", "多模态 knowledge", "-方法 模型"]
    (tmp_path / "packed.json").write_text(json.dumps(packed), encoding="utf-8")
    (tmp_path / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "lunr_answers.js"), str(tmp_path / "packed.json"),
                           str(tmp_path / "queries.json")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    index = Index.load(unpack(packed))
    for query, js in zip(queries, json.loads(done.stdout)):
        assert js["results"], query
        python = lunr_py_answer(index, js["clauses"])
        assert [ref for ref, _ in js["results"]] == [ref for ref, _ in python], query
        assert [s for _, s in js["results"]] == pytest.approx([s for _, s in python], rel=1e-9), query
