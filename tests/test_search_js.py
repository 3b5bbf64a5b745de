"""Runs the JavaScript unit tests (tests/js/*.test.js) with node's own test runner."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from factories import REPO, make_paper
from generator.content.documents import load_documents
from generator.search.packed import pack
from generator.search.index import build_index
from generator.content.papers import validate
from lunrpy import lunr_py_index_of

JS_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.js"))


def test_javascript_unit_tests_pass():
    assert JS_TESTS, "no JavaScript tests found"
    node = shutil.which("node")
    assert node, "node is needed for the JavaScript tests (and npm for the site's libraries)"
    result = subprocess.run([node, "--test", *map(str, JS_TESTS)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


@pytest.mark.parametrize("which", ["real", "random", "chinese"])
def test_browser_derives_exactly_lunr_py_s_index_from_the_packed_one(tmp_path, which):
    # why: scores are computed in the browser; every float must be lunr.py's, to the last bit
    papers = tuple(validate(load_documents(REPO / "content"))) if which == "real" else tuple(
        random_papers(400) if which == "random" else chinese_papers(300))
    (tmp_path / "packed.json").write_text(json.dumps(pack(build_index(papers))), encoding="utf-8")
    (tmp_path / "raw.json").write_text(json.dumps(lunr_py_index_of(papers)), encoding="utf-8")
    result = subprocess.run(["node", str(Path(__file__).parent / "js/unpack_check.js"),
                             str(tmp_path / "packed.json"), str(tmp_path / "raw.json")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def write_packed(tmp_path, papers) -> Path:
    path = tmp_path / "packed.json"
    path.write_text(json.dumps(pack(build_index(tuple(papers)))), encoding="utf-8")
    return path


def random_papers(count: int):
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(1, 6))) for _ in range(400)]
    return [make_paper(str(i), title=" ".join(rng.choices(words, k=8)),
                       abstract_text=" ".join(rng.choices(words, k=60))) for i in range(count)]


# why: Chinese words, a kana one, characters beyond the BMP and an English word, so that the
# bigrams of one word share characters with those of others
CHINESE = ["知识蒸馏", "多模态", "大模型", "的", "强化学习", "注意力机制", "方法", "模型压缩", "トランス",
           "\U00020000\U00020001", "图神经网络", "LLM", "agents", "张伟", "欧阳修", "ｶﾞｸｼｭｳ", "\uF900\u4E00"]


def chinese_papers(count: int):
    """Papers with Chinese titles, notes, tags and authors, drawn at random."""
    rng = random.Random(21)
    def text(k): return "".join(rng.choice(CHINESE) + rng.choice(["", "", "，", " "]) for _ in range(k))
    return [make_paper(str(i), title=text(4), authors=(text(1), text(1)), tags=[text(1)],
                       abstract_text=text(20), notes_text=text(10) if i % 3 else "") for i in range(count)]


def check_with_node(tmp_path, script: str) -> None:
    """Run tests/js/`script` on the packed index of the real digest, of random papers and of
    papers in Chinese."""
    for name, papers in (("real", validate(load_documents(REPO / "content"))),
                         ("random", random_papers(100)), ("chinese", chinese_papers(100))):
        folder = tmp_path / name
        folder.mkdir()
        packed = write_packed(folder, papers)
        result = subprocess.run(["node", str(Path(__file__).parent / "js" / script), str(packed)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{name}: {result.stdout}{result.stderr}"


def test_lazy_index_answers_exactly_like_lunr_index_load(tmp_path):
    check_with_node(tmp_path, "lazy_check.js")


def test_worker_plans_are_answered_as_lunr_answers_their_clauses(tmp_path):
    # why: the worker skips wildcard clauses it can tell lunr would answer alike without,
    # and keeps lunr's order within its tiers
    check_with_node(tmp_path, "plan_check.js")
