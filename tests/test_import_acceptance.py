"""What the build would refuse of a file an import is about to write
(generator/importers/acceptance.py)."""

from pathlib import Path

from factories import paper_source
from generator.importers.acceptance import build_refusals

PATH = Path("content/papers/x.md")


def test_a_file_the_build_refuses_is_an_error_at_the_sources_line():
    text = paper_source(links={"code": "javascript:alert(1)"})
    assert [str(e) for e in build_refusals(PATH, text, "refs.bib:12")] == [
        "refs.bib:12: its paper file content/papers/x.md would not build (line 8: links.code "
        "must be an http(s) URL, e.g. code: https://github.com/...; got 'javascript:alert(1)')"]
    assert build_refusals(PATH, paper_source(), "refs.bib:12") == []


def test_an_update_is_refused_only_for_errors_it_brings():
    broken = paper_source(date="someday")
    assert build_refusals(PATH, broken.replace("A Paper", "New Title"), "a.json:3", broken) == []
    assert len(build_refusals(PATH, broken, "a.json:3", paper_source())) == 1


def test_a_file_over_the_builds_size_limit_is_refused_before_it_is_read():
    [error] = build_refusals(PATH, paper_source(abstract="x" * (1 << 20)), "list.txt")
    assert (error.path, error.line) == ("list.txt", 1)
    assert "over the 1,048,576 the build reads a paper file to" in error.message
