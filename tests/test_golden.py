"""A small golden site, built and compared byte for byte; `--regen-golden` rewrites it."""

import difflib
import shutil
from pathlib import Path

from factories import REPO
from generator.building.pipeline import BuildOptions, build

GOLDEN = Path(__file__).parent / "golden"
ASSETS = "assets/"


def asset_sources():
    """Where each copied asset comes from: static/, or node_modules for npm libraries."""
    sources = {f"{ASSETS}{p.relative_to(REPO / 'static').as_posix()}": p
               for p in (REPO / "static").rglob("*") if p.is_file()}
    sources[f"{ASSETS}lunr.min.js"] = REPO / "node_modules/lunr/lunr.min.js"
    return sources


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_golden_site_is_byte_for_byte_the_expected_one(tmp_path, monkeypatch, request):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    out = tmp_path / "site"
    build(BuildOptions(content=GOLDEN / "content", out=out, project=REPO))
    built = files_of(out)
    # why: assets are copies of files the repo has (or npm brings); the golden site would only
    # hold them twice, so each is compared with its source instead (settings.js, made by the
    # build, is compared as a page is).
    sources = asset_sources()
    for path in [p for p in built if p in sources]:
        assert built.pop(path) == sources[path].read_bytes(), path
    if request.config.getoption("--regen-golden"):
        shutil.rmtree(GOLDEN / "site", ignore_errors=True)
        for path, data in built.items():
            (GOLDEN / "site" / path).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / "site" / path).write_bytes(data)
    expected = files_of(GOLDEN / "site")
    assert sorted(built) == sorted(expected)
    for path in sorted(built):
        if built[path] != expected[path]:
            diff = difflib.unified_diff(expected[path].decode().splitlines(),
                                        built[path].decode().splitlines(),
                                        f"golden/site/{path}", f"built/{path}", lineterm="")
            raise AssertionError("\n".join(diff) + "\n(run `make golden` if the change is intended)")


def test_two_builds_give_identical_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    for name in ("a", "b"):
        build(BuildOptions(content=GOLDEN / "content", out=tmp_path / name, project=REPO))
    assert files_of(tmp_path / "a") == files_of(tmp_path / "b")
