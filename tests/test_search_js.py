"""Runs the JavaScript unit tests (tests/js/*.test.js) with node's own test runner."""

import json
import shutil
import subprocess
from pathlib import Path

from factories import REPO
from generator.content import load_documents
from generator.lunrpack import pack
from generator.search import build_index
from generator.validate import validate

JS_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.js"))


def test_javascript_unit_tests_pass():
    assert JS_TESTS, "no JavaScript tests found"
    node = shutil.which("node")
    assert node, "node is needed for the JavaScript tests (and npm for the site's libraries)"
    result = subprocess.run([node, "--test", *map(str, JS_TESTS)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def test_browser_unpacks_the_real_index_into_exactly_lunr_py_output(tmp_path):
    index = build_index(tuple(validate(load_documents(REPO / "content"))))
    (tmp_path / "packed.json").write_text(json.dumps(pack(index)), encoding="utf-8")
    (tmp_path / "raw.json").write_text(json.dumps(index), encoding="utf-8")
    result = subprocess.run(["node", str(Path(__file__).parent / "js/unpack_check.js"),
                             str(tmp_path / "packed.json"), str(tmp_path / "raw.json")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
