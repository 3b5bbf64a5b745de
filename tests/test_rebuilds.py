"""What a curator sees when building again with the cache: every edit shows, nothing else is
rewritten, and the output folder ends up holding exactly the site. (Ported from the tests of the
old freshness records and paper cache, whose machinery is gone; the behaviour stays.)"""

import os
from dataclasses import replace

import pytest

import generator.building.pipeline as pipeline_module
from factories import REPO, paper_source, write_content
from generator.building.pipeline import BuildOptions, build
from generator.model.errors import BuildFailed


@pytest.fixture()
def options(tmp_path):
    content = write_content(tmp_path, {"a": paper_source(title="First")})
    return BuildOptions(content=content, out=tmp_path / "site", project=REPO, cache=tmp_path / "cache")


def page(options, slug="a"):
    return (options.out / f"papers/{slug}/index.html").read_text(encoding="utf-8")


def test_a_build_with_nothing_changed_writes_nothing(options):
    first = build(options)
    again = build(options)
    assert (again.written, again.unchanged, again.removed, again.total_bytes) == (
        0, first.written, 0, first.total_bytes)


def test_an_edited_paper_is_built(options):
    build(options)
    (options.content / "papers/a.md").write_text(paper_source(title="Second"))
    assert build(options).written > 0
    assert "Second" in page(options)


def test_a_touched_but_unchanged_file_is_not_a_change(options):
    build(options)
    path = options.content / "papers/a.md"
    path.write_bytes(path.read_bytes())
    assert build(options).written == 0


@pytest.mark.parametrize("damage", ["edit", "delete"])
def test_a_damaged_output_folder_is_built_again(options, damage):
    build(options)
    path = options.out / "papers/a/index.html"
    path.write_text("broken") if damage == "edit" else path.unlink()
    assert build(options).written == 1
    assert "First" in path.read_text()


@pytest.mark.parametrize("stray", ["papers/stray.html", "papers/a/stray.html", "new/stray.html"])
def test_a_file_added_to_the_output_folder_is_removed_by_the_next_build(options, stray):
    build(options)
    (options.out / stray).parent.mkdir(exist_ok=True)
    (options.out / stray).write_text("not ours")
    assert build(options).removed == 1
    assert not (options.out / stray).exists()


def test_other_options_or_epoch_build_again(options, monkeypatch):
    build(options)
    assert build(replace(options, base_url="https://x.org/y/")).written > 0
    assert 'href="/y/papers/a/"' in (options.out / "index.html").read_text()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    assert build(options).written > 0
    assert 'href="/digest/papers/a/"' in (options.out / "index.html").read_text()


def test_without_a_cache_a_build_gives_the_same_site(options, tmp_path):
    build(options)
    uncached = replace(options, cache=None, out=tmp_path / "uncached")
    build(uncached)
    files = lambda out: {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}  # noqa: E731
    assert files(options.out) == files(uncached.out)


def test_an_edit_made_during_a_build_is_built_next_time(options, monkeypatch):
    paper = options.content / "papers/a.md"
    real = pipeline_module.load_documents

    def load_then_edit(*args):
        sources = real(*args)
        paper.write_text(paper_source(title="Edited meanwhile"))  # after the build read it
        return sources

    monkeypatch.setattr(pipeline_module, "load_documents", load_then_edit)
    build(options)
    assert "First" in page(options)
    monkeypatch.setattr(pipeline_module, "load_documents", real)
    build(options)
    assert "Edited meanwhile" in page(options)


def test_errors_are_shown_by_every_build_never_kept(options):
    (options.content / "papers/bad.md").write_text(paper_source(title=None))
    for _ in range(2):
        with pytest.raises(BuildFailed, match="missing required 'title'"):
            build(options)
    (options.content / "papers/bad.md").write_text(paper_source(title="Fixed"))
    build(options)
    assert "Fixed" in page(options, "bad")


def test_a_paper_that_is_gone_is_gone_from_the_site(options):
    (options.content / "papers/b.md").write_text(paper_source(title="Other"))
    build(options)
    assert "Other" in page(options, "b")
    (options.content / "papers/b.md").unlink()
    assert build(options).removed > 0
    assert not (options.out / "papers/b").exists()
    assert "Other" not in (options.out / "index.html").read_text()


def test_an_edit_behind_a_symlinked_papers_folder_is_in_the_next_cached_build(tmp_path):
    real = write_content(tmp_path / "real", {"p1": paper_source(title="Before")}) / "papers"
    content = tmp_path / "content"
    content.mkdir()
    (content / "site.yaml").write_text((real.parent / "site.yaml").read_text())
    (content / "papers").symlink_to(real, target_is_directory=True)
    options = BuildOptions(content=content, out=tmp_path / "site", project=REPO,
                           cache=tmp_path / "cache")
    build(options)
    (real / "p1.md").write_text(paper_source(title="After"))
    build(options)
    assert "After" in (tmp_path / "site/papers/p1/index.html").read_text()


def test_a_paper_file_whose_name_is_not_utf8_is_an_error_with_the_cache_too(tmp_path):
    content = write_content(tmp_path, {"good": paper_source()})
    name = os.fsencode(str(content / "papers")) + b"/caf\xe9.md"
    with open(name, "wb") as file:
        file.write(paper_source().encode())
    options = BuildOptions(content=content, out=tmp_path / "site", project=REPO,
                           cache=tmp_path / "cache")
    for _ in range(2):
        with pytest.raises(BuildFailed, match="must be lowercase letters"):
            build(options)
