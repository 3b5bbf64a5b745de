"""The repository stands on its own: nothing in it reads a path outside it.

A clone from GitHub has nothing beside it, so a test, benchmark or doc that reaches into the
folder the repository sits in (the developers' `shared/` folder, a parent path, a developer's
machine) fails for everybody else.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from factories import REPO

CHECKED = ["tests", "bench", "generator", "docs", "data", "Makefile", ".ci", "build.py",
           "README.md"]
"""What the rule covers: everything that runs or documents a command."""

OUTSIDE_NAMES = [
    re.compile(r"\.\./" + "shared"),
    re.compile("shared" + r"""['"]?\s*/\s*['"]?data"""),
    re.compile(r"\b(REPO|ROOT|PROJECT|HERE)\.parent\b"),
    re.compile(r"(?<![\w.:/-])/work/[A-Za-z]"),
]
"""Ways of naming the folder beside the repository, or the absolute path it has on our machines."""

RELATIVE = re.compile(r"(?<![\w.])((?:\.\./)+)")
FILE_PARENTS = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?(\.parents\[(\d+)\]|(?:\.parent\b)+)")


def checked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                             "--", *CHECKED], cwd=REPO, capture_output=True, check=True)
    return [REPO / name for name in listed.stdout.decode().split("\0")
            if name and not name.startswith("tests/golden/") and (REPO / name).is_file()
            and (REPO / name).suffix not in (".gz", ".png")]


def outside(path: Path) -> bool:
    return not path.resolve().is_relative_to(REPO.resolve())


def reaches_outside(file: Path, text: str) -> list[str]:
    """Each place in `text` (the contents of `file`) that names a path outside the repository."""
    found = [f"{m.group(0)!r}" for pattern in OUTSIDE_NAMES for m in pattern.finditer(text)]
    if str(REPO.parent) != "/":
        found += [repr(str(REPO.parent))] * text.count(str(REPO.parent) + "/")
    # why: a relative path is read from the file's own folder (a require, a Markdown link)
    found += [m.group(0) for m in RELATIVE.finditer(text) if outside(file.parent / m.group(1))]
    for m in FILE_PARENTS.finditer(text):
        up = int(m.group(2)) + 1 if m.group(2) else m.group(1).count(".parent")
        if len(file.relative_to(REPO).parts) < up:
            found.append(m.group(0))
    return found


def test_nothing_in_the_repository_names_a_path_outside_it():
    found = {}
    for file in checked_files():
        if file == Path(__file__).resolve():
            continue
        places = reaches_outside(file, file.read_text(encoding="utf-8", errors="replace"))
        if places:
            found[str(file.relative_to(REPO))] = places
    assert found == {}


def test_the_rule_finds_each_way_of_naming_the_outside(tmp_path):
    probe = REPO / "tests" / "probe.py"
    beside = "../" + "shared/data/x.txt"
    assert reaches_outside(probe, f"open('{beside}')")
    assert reaches_outside(probe, "REPO" + ".parent / 'x'")
    assert reaches_outside(probe, "Path(__file__).resolve()" + ".parent.parent.parent / 'x'")
    assert reaches_outside(probe, "Path(__file__)" + ".parents[2]")
    assert reaches_outside(probe, "'/" + "work/other/file'")
    assert reaches_outside(REPO / "docs/how-to/x.md", "[a](../../" + "../elsewhere.md)")
    assert not reaches_outside(REPO / "docs/how-to/x.md", "[a](../reference/site-yaml.md)")
    assert not reaches_outside(REPO / "tests/js/x.js", 'require("../../static/a.js")')
    assert not reaches_outside(probe, "Path(__file__).resolve().parent.parent / 'data'")


def test_the_data_the_tests_use_is_in_the_repository():
    for name in ("iclr2025-abstracts.txt", "iclr2025-metadata.yaml", "neurips2018-papers.jsonl.gz"):
        assert (REPO / "data" / name).is_file(), name
        assert name in (REPO / "data" / "README.md").read_text(encoding="utf-8"), name
