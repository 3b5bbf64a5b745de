"""One folder per kind of bad content under tests/bad/, each with the exact expected errors."""

import subprocess
import sys
from pathlib import Path

import pytest

from factories import REPO

CASES = sorted(p.name for p in (Path(__file__).parent / "bad").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES)
def test_bad_content_is_reported_exactly_and_leaves_the_site_alone(case, tmp_path):
    folder = Path(__file__).parent / "bad" / case
    out = tmp_path / "site"
    out.mkdir()
    (out / ".nojekyll").write_text("")
    (out / "index.html").write_text("last good site")
    result = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "build", "--out", str(out), "--no-cache"],
        cwd=folder, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == (folder / "expected.txt").read_text(encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == [".nojekyll", "index.html"]
    assert (out / "index.html").read_text() == "last good site"
    assert [p.name for p in tmp_path.iterdir()] == ["site"], "a temporary folder was left behind"
