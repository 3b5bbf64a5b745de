"""Runs the JavaScript unit tests (tests/js/*.test.js) with node's own test runner."""

import shutil
import subprocess
from pathlib import Path

JS_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.js"))


def test_javascript_unit_tests_pass():
    assert JS_TESTS, "no JavaScript tests found"
    node = shutil.which("node")
    assert node, "node is needed for the JavaScript tests (and npm for the site's libraries)"
    result = subprocess.run([node, "--test", *map(str, JS_TESTS)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
