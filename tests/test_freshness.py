import pytest

import generator.pipeline as pipeline
from factories import REPO, paper_source, write_content
from generator.pipeline import BuildOptions, build


@pytest.fixture()
def options(tmp_path):
    content = write_content(tmp_path, {"a": paper_source(title="First")})
    return BuildOptions(content=content, out=tmp_path / "site", project=REPO, cache=tmp_path / "cache")


def no_render(monkeypatch):
    monkeypatch.setattr(pipeline, "plan_pages", lambda *a: pytest.fail("the build did work"))


def test_a_build_with_nothing_changed_does_no_work(options, monkeypatch):
    first = build(options)
    no_render(monkeypatch)
    again = build(options)
    assert (again.written, again.unchanged, again.total_bytes) == (0, first.written, first.total_bytes)


def test_an_edited_paper_is_built(options):
    build(options)
    (options.content / "papers/a.md").write_text(paper_source(title="Second"))
    assert build(options).written > 0
    assert "Second" in (options.out / "papers/a/index.html").read_text()


def test_a_touched_but_unchanged_file_is_not_a_change(options, monkeypatch):
    build(options)
    path = options.content / "papers/a.md"
    path.write_bytes(path.read_bytes())
    no_render(monkeypatch)
    assert build(options).written == 0


@pytest.mark.parametrize("damage", ["edit", "delete"])
def test_a_damaged_output_folder_is_built_again(options, damage):
    build(options)
    page = options.out / "papers/a/index.html"
    page.write_text("broken") if damage == "edit" else page.unlink()
    assert build(options).written == 1
    assert "First" in page.read_text()


def test_other_options_or_epoch_build_again(options, monkeypatch):
    build(options)
    assert build(BuildOptions(**{**options.__dict__, "base_url": "https://x.org/y/"})).written > 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    assert build(options).written > 0


def test_without_a_cache_every_build_is_full(options, monkeypatch):
    uncached = BuildOptions(**{**options.__dict__, "cache": None})
    build(uncached)
    calls = []
    real = pipeline.plan_pages
    monkeypatch.setattr(pipeline, "plan_pages", lambda *a: calls.append(1) or real(*a))
    build(uncached)
    assert calls == [1]


def test_an_edit_made_during_a_build_is_built_next_time(options, monkeypatch):
    paper = options.content / "papers/a.md"
    before = paper.read_text()
    real = pipeline.load_papers

    def edit_then_load(*args):
        paper.write_text(paper_source(title="Edited meanwhile"))  # after the fingerprint
        return real(*args)

    monkeypatch.setattr(pipeline, "load_papers", edit_then_load)
    build(options)
    monkeypatch.setattr(pipeline, "load_papers", real)
    paper.write_text(before)  # back to the bytes the first fingerprint saw
    build(options)
    assert "First" in (options.out / "papers/a/index.html").read_text()
