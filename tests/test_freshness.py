import os
import time

import pytest

import generator.freshness as freshness
import generator.papers as papers_module
import generator.render as render_module
from factories import REPO, paper_source, write_content
from generator.freshness import Inputs, Scan, fingerprint, unchanged_since
from generator.errors import BuildFailed
from generator.pipeline import BuildOptions, build


@pytest.fixture()
def options(tmp_path):
    content = write_content(tmp_path, {"a": paper_source(title="First")})
    return BuildOptions(content=content, out=tmp_path / "site", project=REPO, cache=tmp_path / "cache")


def no_render(monkeypatch):
    monkeypatch.setattr(render_module, "plan_pages", lambda *a: pytest.fail("the build did work"))


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


@pytest.mark.parametrize("stray", ["papers/stray.html", "papers/a/stray.html", "new/stray.html"])
def test_a_file_added_to_the_output_folder_is_removed_by_the_next_build(options, stray):
    build(options)
    (options.out / stray).parent.mkdir(exist_ok=True)
    (options.out / stray).write_text("not ours")
    assert build(options).removed == 1
    assert not (options.out / stray).exists()


def test_other_options_or_epoch_build_again(options, monkeypatch):
    build(options)
    assert build(BuildOptions(**{**options.__dict__, "base_url": "https://x.org/y/"})).written > 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    assert build(options).written > 0


def test_without_a_cache_every_build_is_full(options, monkeypatch):
    uncached = BuildOptions(**{**options.__dict__, "cache": None})
    build(uncached)
    calls = []
    real = render_module.plan_pages
    monkeypatch.setattr(render_module, "plan_pages", lambda *a: calls.append(1) or real(*a))
    build(uncached)
    assert calls == [1]


def test_an_edit_made_during_a_build_is_built_next_time(options, monkeypatch):
    paper = options.content / "papers/a.md"
    before = paper.read_text()
    real = papers_module.load_papers

    def edit_then_load(*args):
        paper.write_text(paper_source(title="Edited meanwhile"))  # after the fingerprint
        return real(*args)

    monkeypatch.setattr(papers_module, "load_papers", edit_then_load)
    build(options)
    monkeypatch.setattr(papers_module, "load_papers", real)
    paper.write_text(before)  # back to the bytes the first fingerprint saw
    build(options)
    assert "First" in (options.out / "papers/a/index.html").read_text()


# The table of input hashes: files are read only when their stat says they may have changed.


@pytest.fixture()
def inputs(tmp_path):
    """Two papers and a site.yaml; the project (templates, generator...) is left out."""
    content = write_content(tmp_path, {"a": paper_source(title="First"), "b": paper_source()})
    return Inputs(content, tmp_path / "project", "options")


@pytest.fixture()
def record(tmp_path):
    return tmp_path / "cache" / "builds" / "site.json"


def reads(monkeypatch) -> list[str]:
    """The paths of the files fingerprint reads from now on."""
    paths = []
    real = freshness._hash_file
    monkeypatch.setattr(freshness, "_hash_file", lambda path: paths.append(path) or real(path))
    return paths


def settled_fingerprint(inputs, record, monkeypatch) -> str:
    """The fingerprint as if taken 10 s from now, when no file is racy any more."""
    later = time.time_ns() + 10 * 10**9
    with monkeypatch.context() as clock:
        clock.setattr(freshness.time, "time_ns", lambda: later)
        return fingerprint(inputs, record)


def test_only_changed_files_are_read_again(inputs, record, monkeypatch):
    first = settled_fingerprint(inputs, record, monkeypatch)
    assert fingerprint(inputs) == first  # the same as with no table: every file read
    read = reads(monkeypatch)
    assert fingerprint(inputs, record) == first
    assert read == []
    paper = inputs.content / "papers/a.md"
    paper.write_text(paper_source(title="Second"))
    assert fingerprint(inputs, record) != first
    assert read == [str(paper)]


@pytest.mark.parametrize("racy", [True, False])
def test_an_edit_leaving_the_stat_as_it_was_is_caught_while_racy(inputs, record, monkeypatch,
                                                                  racy):
    """An edit in the clock tick of the last scan can leave size, mtime, ctime and inode as the
    scan saw them. Simulated: same length, mtime put back, and the table given the new ctime.
    Only the racy guard can then see it: the file changed within RACY_NS of that scan, so it
    is read again. A file settled before the scan is trusted, as git trusts its index."""
    first = fingerprint(inputs, record) if racy else settled_fingerprint(inputs, record, monkeypatch)
    paper = inputs.content / "papers/a.md"
    before = paper.stat()
    paper.write_text(paper.read_text().replace("First", "Other"))
    os.utime(paper, ns=(before.st_atime_ns, before.st_mtime_ns))
    now = paper.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (before.st_size, before.st_mtime_ns,
                                                          before.st_ino)
    table = freshness._load_table(record.with_suffix(".inputs.json"))
    table[1][str(paper)][2] = now.st_ctime_ns  # why: as if the edit were in the scan's tick
    freshness._save_table(record.with_suffix(".inputs.json"), *table)
    assert (fingerprint(inputs, record) != first) is racy


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"scan_ns": 0, "files": []}',
                                    '{"scan_ns": 0, "files": {"x": 1}}', "missing"])
def test_a_missing_or_corrupt_table_means_every_file_is_read(inputs, record, monkeypatch,
                                                             damage):
    expected = settled_fingerprint(inputs, record, monkeypatch)
    table = record.with_suffix(".inputs.json")
    table.unlink() if damage == "missing" else table.write_text(damage)
    read = reads(monkeypatch)
    assert fingerprint(inputs, record) == expected
    assert sorted(read) == sorted(str(p) for p in inputs.content.rglob("*") if p.is_file())


@pytest.mark.parametrize("change", ["none", "edit", "add", "remove"])
def test_unchanged_since_sees_a_file_edited_added_or_removed_after_the_scan(inputs, change):
    scan = Scan()
    fingerprint(inputs, None, scan)
    paper = inputs.content / "papers/a.md"
    if change == "edit":
        paper.write_text(paper_source(title="Edited after the scan"))
    elif change == "add":
        paper.with_name("c.md").write_text(paper_source())
    elif change == "remove":
        paper.unlink()
    assert unchanged_since(inputs, scan) is (change == "none")


def test_what_a_build_keeps_in_memory_is_what_its_records_read_back_as(options):
    import json

    from generator.memo import _LAST_KEPT
    build(options)
    records = [p for p in (options.cache / "builds").glob("*.json")]
    assert len(records) == 3  # the no-op record, the input table, the stamps
    for path in records:
        assert _LAST_KEPT[str(path)][1] == json.loads(path.read_text())


def test_a_failed_build_still_keeps_what_its_scan_read(options, monkeypatch):
    (options.content / "papers/a.md").write_text("no front matter\n")
    read = []
    real = freshness._hash_file
    monkeypatch.setattr(freshness, "_hash_file", lambda path: read.append(path) or real(path))
    monkeypatch.setattr(freshness, "RACY_NS", 0)  # every file settled at once
    for _ in range(2):
        with pytest.raises(BuildFailed):
            build(options)
    assert len(read) == len(set(read))  # the second build read no file again


def test_a_file_name_that_is_not_utf8_is_fingerprinted_by_its_bytes(inputs, record):
    first = fingerprint(inputs, record)
    try:
        open(os.path.join(os.fsencode(inputs.content), b"notes-\xe9.txt"), "wb").close()
    except OSError:
        pytest.skip("this file system takes only UTF-8 names")
    second = fingerprint(inputs, record)
    assert second != first and fingerprint(inputs, record) == second
