import os
import shutil
import tempfile
from pathlib import Path

import pytest

import generator.output as output_module
from generator.output import OutputRefused, prepare_spare, write_site
from generator.records import OutputFile


def tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def site_files(**extra):
    files = {".nojekyll": b"", "index.html": b"home", "a/index.html": b"a"}
    files.update(extra)
    return [OutputFile(path, data) for path, data in files.items()]


def test_write_site_writes_every_file(tmp_path):
    report = write_site(site_files(), tmp_path / "out")
    assert tree(tmp_path / "out") == {".nojekyll": b"", "index.html": b"home", "a/index.html": b"a"}
    assert report.written == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_site_with_no_change_rewrites_nothing(tmp_path):
    out = tmp_path / "out"
    write_site(site_files(), out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    report = write_site(site_files(), out)
    assert (report.written, report.unchanged) == (0, 3)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_write_site_keeps_unchanged_files_and_removes_stale_ones(tmp_path):
    out = tmp_path / "out"
    write_site(site_files(**{"old.html": b"old"}), out)
    inode = (out / "a/index.html").stat().st_ino
    report = write_site(site_files(**{"index.html": b"new home"}), out)
    assert (report.written, report.unchanged, report.removed) == (1, 2, 1)
    assert (out / "a/index.html").stat().st_ino == inode
    assert tree(out)["index.html"] == b"new home" and "old.html" not in tree(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_site_failure_leaves_the_old_site_and_no_temp_folder(tmp_path):
    out = tmp_path / "out"
    write_site(site_files(), out)
    bad = site_files(**{"a/index.html/oops": b"cannot be both a file and a folder"})
    with pytest.raises(OSError):
        write_site(bad, out)
    assert tree(out) == {".nojekyll": b"", "index.html": b"home", "a/index.html": b"a"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_site_refuses_to_replace_a_folder_it_did_not_build(tmp_path):
    out = tmp_path / "content"
    out.mkdir()
    (out / "precious.md").write_text("mine")
    with pytest.raises(OutputRefused, match="not a site this generator built"):
        write_site(site_files(), out)
    assert (out / "precious.md").read_text() == "mine"


def test_write_site_leaves_the_site_readable_by_a_web_server(tmp_path):
    write_site(site_files(), tmp_path / "out")
    assert os.stat(tmp_path / "out").st_mode & 0o055 == 0o055


class Numbered:
    """Files made on demand, as the page plan makes them."""

    def __init__(self, count):
        self.count = count

    def __len__(self):
        return self.count

    def keys(self):
        return [self.key(number) for number in range(self.count)]

    def key(self, number):
        return f"p/{number}/index.html", f"key {number}"

    def make(self, number):
        return OutputFile(f"p/{number}/index.html", f"page {number}".encode())

    def near(self, number):
        return -number  # why: workers then make them last first, which must change nothing


def test_produced_files_are_the_same_made_here_or_by_workers(tmp_path, monkeypatch):
    import generator.output as output_module
    monkeypatch.setattr(output_module, "PARALLEL_FROM", 2)
    here = write_site(site_files(), tmp_path / "here", Numbered(40), workers=1)
    there = write_site(site_files(), tmp_path / "there", Numbered(40), workers=2)
    assert tree(tmp_path / "here") == tree(tmp_path / "there")
    assert len(tree(tmp_path / "there")) == 43 and here == there


def test_two_files_with_one_path_fail_and_write_nothing(tmp_path):
    with pytest.raises(ValueError, match="same path"):
        write_site(site_files(), tmp_path / "out", _Clash())
    assert not (tmp_path / "out").exists()


class _Clash(Numbered):
    def __init__(self):
        super().__init__(1)

    def key(self, number):
        return "index.html", "again"

    def make(self, number):
        return OutputFile("index.html", b"again")


class Counted(Numbered):
    """Numbered files whose keys can be changed, counting what is made."""

    def __init__(self, count, keys=None):
        super().__init__(count)
        self.changed = keys or {}
        self.made = []

    def key(self, number):
        return f"p/{number}/index.html", self.changed.get(number, f"key {number}")

    def make(self, number):
        self.made.append(number)
        return OutputFile(f"p/{number}/index.html",
                          f"page {number} {self.changed.get(number, '')}".encode())


def test_a_produced_file_with_the_same_key_is_linked_not_made_again(tmp_path):
    out = tmp_path / "out"
    first = write_site(site_files(), out, Counted(3))
    again = Counted(3, keys={1: "changed"})
    report = write_site(site_files(), out, again, before=first.stamps)
    assert again.made == [1] and report.reused == 2
    assert (out / "p/1/index.html").read_bytes() == b"page 1 changed"
    assert tree(out)["p/2/index.html"] == b"page 2 "


def test_workers_start_only_for_many_files_to_make_not_for_many_files(tmp_path, monkeypatch):
    out = tmp_path / "out"
    first = write_site(site_files(), out, Counted(output_module.PARALLEL_FROM), workers=2)

    def no_pool(*args, **kwargs):
        raise AssertionError("a process pool for one file to make")

    monkeypatch.setattr(output_module, "ProcessPoolExecutor", no_pool)
    again = Counted(output_module.PARALLEL_FROM, keys={7: "changed"})
    report = write_site(site_files(), out, again, workers=2, before=first.stamps)
    assert again.made == [7] and report.written == 1


def test_a_produced_file_edited_by_hand_is_made_again_whatever_its_key(tmp_path):
    out = tmp_path / "out"
    first = write_site(site_files(), out, Counted(2))
    (out / "p/0/index.html").write_bytes(b"hand edited, same key")
    again = Counted(2)
    write_site(site_files(), out, again, before=first.stamps)
    assert again.made == [0]
    assert (out / "p/0/index.html").read_bytes() == b"page 0 "


def test_stamps_describe_the_files_as_left(tmp_path):
    out = tmp_path / "out"
    report = write_site(site_files(), out, Counted(2))
    stat = (out / "p/1/index.html").stat()
    assert report.stamps["p/1/index.html"] == ["key 1", stat.st_size, stat.st_mtime_ns, stat.st_ino]
    assert set(report.stamps) == {"p/0/index.html", "p/1/index.html"}


def test_the_report_lists_every_file_of_the_site_as_left(tmp_path):
    out, spare = tmp_path / "out", tmp_path / "cache/spare"
    for extra, keys in [({"old.html": b"old"}, {}), ({}, {1: "changed"}), ({}, {1: "changed"})]:
        report = write_site(site_files(**extra), out, Counted(2, keys=keys), spare=spare)
        assert report.files == {p.relative_to(out).as_posix(): [p.stat().st_size, p.stat().st_mtime_ns]
                                for p in out.rglob("*") if p.is_file()}


def test_with_a_spare_folder_the_retired_site_is_kept_and_staged_in_next(tmp_path):
    out, spare = tmp_path / "out", tmp_path / "cache/spare"
    write_site(site_files(**{"old.html": b"old"}), out, spare=spare)
    write_site(site_files(**{"index.html": b"v2"}), out, spare=spare)
    assert tree(spare) == tree_of(site_files(**{"old.html": b"old"}))
    write_site(site_files(**{"index.html": b"v3", "b/c/new.html": b"new"}), out, spare=spare)
    assert tree(out) == tree_of(site_files(**{"index.html": b"v3", "b/c/new.html": b"new"}))
    assert tree(spare) == tree_of(site_files(**{"index.html": b"v2"}))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "out"]


def test_staging_in_the_spare_never_writes_into_the_live_sites_files(tmp_path):
    out, spare = tmp_path / "out", tmp_path / "spare"
    write_site(site_files(), out, spare=spare)
    write_site(site_files(), out, spare=spare)  # nothing changed: the staged copy is the spare
    kept = (out / "index.html").stat().st_ino
    assert (spare / "index.html").stat().st_ino == kept  # the spare links the live file
    write_site(site_files(**{"index.html": b"new home"}), out, spare=spare)
    assert (spare / "index.html").read_bytes() == b"home"  # the old file, not overwritten
    assert (spare / "index.html").stat().st_ino == kept


def test_a_spare_in_an_odd_state_still_gives_the_exact_site(tmp_path):
    out, spare = tmp_path / "out", tmp_path / "spare"
    write_site(site_files(), out, spare=spare)
    write_site(site_files(**{"x.html": b"x"}), out, spare=spare)
    (spare / "a").rename(spare / "moved")
    (spare / "a").write_bytes(b"a file where a folder was")
    (spare / "stray.txt").write_bytes(b"stray")
    write_site(site_files(**{"y.html": b"y"}), out, spare=spare)
    assert tree(out) == tree_of(site_files(**{"y.html": b"y"}))


def test_a_prepared_spare_mirrors_the_site_so_the_next_write_links_nothing(tmp_path, monkeypatch):
    out, spare = tmp_path / "out", tmp_path / "cache/spare"
    write_site(site_files(**{"b/c/d.html": b"d"}), out, spare=spare)  # into nothing: no spare
    assert not spare.exists()
    assert prepare_spare(out, spare) and not prepare_spare(out, spare)
    assert tree(spare) == tree(out)
    assert {p.stat().st_ino for p in spare.rglob("*") if p.is_file()} == \
        {p.stat().st_ino for p in out.rglob("*") if p.is_file()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "out"]
    linked = []
    real_link = os.link
    monkeypatch.setattr(os, "link", lambda *args: linked.append(args) or real_link(*args))
    write_site(site_files(**{"b/c/d.html": b"d", "index.html": b"v2"}), out, spare=spare)
    assert linked == []  # the spare already held every unchanged file
    assert tree(out) == tree_of(site_files(**{"b/c/d.html": b"d", "index.html": b"v2"}))


def test_no_spare_is_prepared_for_a_folder_that_is_not_a_built_site(tmp_path):
    out, spare = tmp_path / "out", tmp_path / "spare"
    assert not prepare_spare(out, spare)  # no site yet
    out.mkdir()
    (out / "precious.md").write_text("mine")
    assert not prepare_spare(out, spare) and not spare.exists()


def test_a_spare_that_cannot_be_prepared_leaves_no_folder_behind(tmp_path, monkeypatch):
    out, spare = tmp_path / "out", tmp_path / "cache/spare"
    write_site(site_files(), out)
    monkeypatch.setattr(output_module, "mirror_or_empty", lambda *args: False)
    assert not prepare_spare(out, spare)
    monkeypatch.setattr(output_module, "mirror_or_empty", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        prepare_spare(out, spare)
    monkeypatch.undo()
    monkeypatch.setattr(output_module, "retire", lambda folder, spare: shutil.rmtree(folder))
    assert not prepare_spare(out, spare)  # made, but it could not be kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_no_spare_is_prepared_on_another_file_system(tmp_path):
    other = Path("/dev/shm")
    if not other.is_dir() or other.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second file system to try")
    out = tmp_path / "out"
    write_site(site_files(), out)
    with tempfile.TemporaryDirectory(dir=other) as cache:
        assert not prepare_spare(out, Path(cache) / "builds/spare")
        assert list(Path(cache).iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def tree_of(files):
    return {f.path: f.data for f in files}


def test_later_files_are_asked_for_once_the_produced_ones_are_placed(tmp_path):
    produced = Counted(2)

    def index_made_meanwhile():
        assert produced.made == [0, 1]
        return [OutputFile("search/index.json", b"{}")]

    report = write_site(site_files(), tmp_path / "out", produced, later=index_made_meanwhile)
    assert tree(tmp_path / "out")["search/index.json"] == b"{}"
    assert report.written == 6


def test_a_failure_to_give_the_later_files_leaves_the_old_site(tmp_path):
    out = tmp_path / "out"
    write_site(site_files(), out)

    def failed():
        raise RuntimeError("the index could not be built")

    with pytest.raises(RuntimeError):
        write_site(site_files(**{"index.html": b"new"}), out, Counted(2), later=failed)
    assert tree(out) == {".nojekyll": b"", "index.html": b"home", "a/index.html": b"a"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
