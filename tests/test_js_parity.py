"""The Python and JavaScript twins agree: what the build does in Python and the browser does again
in JavaScript gives the same answers. The packed index's digits (generator/search/packed.py,
static/search/read.js)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

from factories import REPO
from generator.search import packed

STATIC = REPO / "static"


def node(script: str, data) -> object:
    """What `script` (node, given `data` as the JSON `input`) prints as JSON."""
    assert shutil.which("node"), "node is needed for the JavaScript tests"
    program = f"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n{script}"
    result = subprocess.run(["node", "-e", program], input=json.dumps(data), capture_output=True,
                            text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


# --- the packed index's digits --------------------------------------------------------------------

def test_the_packed_digits_are_declared_once_in_javascript_as_packed_py_has_them():
    digits = node("const r = require('./static/search/read.js');"
                  "console.log(JSON.stringify([r.FINAL, r.MORE]))", None)
    assert digits == [packed.FINAL, packed.MORE]
    # why: search/index.js takes them from read.js rather than declaring them again
    index_js = (STATIC / "search/index.js").read_text(encoding="utf-8")
    assert not re.search(r"\b(FINAL|MORE)\s*=\s*0x", index_js)

