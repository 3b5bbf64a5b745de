"""generator.building.writer: the site swapped into place whole, unchanged files left alone."""

import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

import generator.building.writer as writer
from generator.building.writer import (KeptFile, LiveSite, OutputRefused, WriteReport,
                                       clear_leftovers, site_holds, spare_folder, temp_folders,
                                       write_site)
from generator.model.records import OutputFile

REPO = Path(__file__).resolve().parent.parent


def site(pages):
    """Output files: .nojekyll (which marks a folder as a site we built) and `pages`."""
    return [OutputFile(".nojekyll", b"")] + [OutputFile(path, data.encode() if isinstance(
        data, str) else data) for path, data in pages.items()]


OLD = {"index.html": "<p>home</p>", "papers/a/index.html": "<p>a</p>",
       "papers/b/index.html": "<p>b</p>", "assets/site.css": "body {}"}


def files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def as_bytes(output):
    return {f.path: f.data for f in output}


def inodes(out):
    return {path: ((out / path).stat().st_ino, (out / path).stat().st_mtime_ns)
            for path in files(out)}


@pytest.fixture
def out(tmp_path):
    return tmp_path / "_site"


@pytest.fixture(params=["exchange", "two renames"])
def swap(request, monkeypatch):
    """Both ways of swapping the site in: renameat2's exchange, and the two renames without."""
    if request.param == "two renames":
        monkeypatch.setattr(writer, "_exchange", lambda first, second: False)
    return request.param


def test_every_file_is_written(out, swap):
    report = write_site(site(OLD), out)
    assert files(out) == as_bytes(site(OLD))
    assert report == WriteReport(written=5, unchanged=0, removed=0,
                                 total_bytes=sum(len(v) for v in OLD.values()))
    assert temp_folders(out) == set()


def test_a_second_identical_write_changes_nothing(out, swap):
    write_site(site(OLD), out)
    before = inodes(out)
    folder = out.stat().st_ino
    time.sleep(0.01)
    report = write_site(site(OLD), out)
    assert report == WriteReport(written=0, unchanged=5, removed=0,
                                 total_bytes=sum(len(v) for v in OLD.values()))
    assert inodes(out) == before
    assert out.stat().st_ino == folder
    assert temp_folders(out) == set()


def test_unchanged_files_keep_their_inode_and_mtime_when_others_change(out, swap):
    write_site(site(OLD), out)
    before = inodes(out)
    time.sleep(0.01)
    report = write_site(site({**OLD, "index.html": "<p>new home</p>"}), out)
    assert (report.written, report.unchanged, report.removed) == (1, 4, 0)
    assert report.changed == ("index.html",)
    after = inodes(out)
    assert after["index.html"] != before["index.html"]
    assert {p: v for p, v in after.items() if p != "index.html"} == \
        {p: v for p, v in before.items() if p != "index.html"}
    assert (out / "index.html").read_bytes() == b"<p>new home</p>"


def test_a_file_of_the_same_size_with_other_bytes_is_written(out, swap):
    write_site(site(OLD), out)
    write_site(site({**OLD, "papers/a/index.html": "<p>A</p>"}), out)
    assert (out / "papers/a/index.html").read_bytes() == b"<p>A</p>"


def test_stale_files_and_folders_are_removed(out, swap):
    write_site(site(OLD), out)
    fewer = {"index.html": OLD["index.html"], "papers/b/index.html": "<p>b</p>"}
    report = write_site(site(fewer), out)
    assert (report.written, report.unchanged, report.removed) == (0, 3, 2)
    assert files(out) == as_bytes(site(fewer))
    assert not (out / "papers/a").exists() and not (out / "assets").exists()


def test_a_stray_file_in_the_site_is_removed(out, swap):
    write_site(site(OLD), out)
    (out / "stray.txt").write_text("left by hand")
    (out / "papers" / "a" / "stray.swp").write_text("left by an editor")
    report = write_site(site(OLD), out)
    assert report.removed == 2
    assert files(out) == as_bytes(site(OLD))


def keep_times(path, change):
    """change(path), then its times put back as they were: only its ctime tells."""
    before = path.stat()
    change(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


CHANGES_BY_HAND = {
    "a file touched": lambda out: os.utime(out / "index.html", ns=(10**9, 10**9)),
    "a file edited, size and times kept": lambda out: keep_times(
        out / "index.html", lambda path: path.write_text("<p>HOME</p>")),
    "a file deleted": lambda out: (out / "papers/a/index.html").unlink(),
    "a file added at the top": lambda out: (out / "stray.txt").write_text("x"),
    "a file added in a folder": lambda out: (out / "papers/a/stray.swp").write_text("x"),
    "a folder added": lambda out: (out / "papers/c").mkdir(),
    "a file made a link to itself": lambda out: (
        os.replace(out / "papers/b/index.html", out / "papers/b/old"),
        os.symlink("old", out / "papers/b/index.html")),
}


@pytest.mark.parametrize("change", CHANGES_BY_HAND)
def test_the_state_a_write_leaves_tells_any_change_made_to_the_site_since(out, change):
    state = write_site(site(OLD), out).state
    assert site_holds(out, state)
    CHANGES_BY_HAND[change](out)
    assert not site_holds(out, state)


def test_a_site_as_left_is_listed_from_its_state_as_a_walk_lists_it(out):
    state = write_site(site(OLD), out).state
    live = LiveSite(out, state)
    walked, folders = writer._listing(out)
    assert live.as_left and live.listing()[1] == folders
    assert {path: entry[:2] for path, entry in live.listing()[0].items()} == \
        {path: entry[:2] for path, entry in walked.items()}
    # the sizes its look found, which a walk does not ask for
    assert {path: entry.size for path, entry in live.listing()[0].items()} == \
        {path: len(data) for path, data in as_bytes(site(OLD)).items()}


def test_kept_files_of_a_site_as_left_are_counted_by_the_sizes_looked_at(out, monkeypatch):
    from generator.building.writer import KeptFile
    state = write_site(site(OLD), out).state
    monkeypatch.setattr(os.path, "getsize", lambda path: pytest.fail(f"{path} looked at again"))
    kept = [KeptFile(f.path) for f in site(OLD) if f.path != "index.html"]
    report = write_site(kept + [OutputFile("index.html", b"<p>new</p>")], out,
                        LiveSite(out, state))
    assert report.total_bytes == sum(map(len, OLD.values())) - len(OLD["index.html"]) + 10
    assert (report.written, report.unchanged) == (1, 4)


@pytest.mark.parametrize("change", ["a file added in a folder", "a folder added"])
def test_a_write_told_the_site_is_as_left_finds_what_was_added_since(out, change):
    state = write_site(site(OLD), out).state
    CHANGES_BY_HAND[change](out)
    report = write_site(site(OLD), out, LiveSite(out, state))
    assert files(out) == as_bytes(site(OLD)) and not (out / "papers/c").exists()
    assert report.removed == (change == "a file added in a folder")


def test_a_symlink_in_the_site_is_replaced_by_the_file(out, tmp_path):
    write_site(site(OLD), out)
    elsewhere = tmp_path / "elsewhere.css"
    elsewhere.write_text("body {}")
    (out / "assets/site.css").unlink()
    (out / "assets/site.css").symlink_to(elsewhere)
    write_site(site(OLD), out)
    assert not (out / "assets/site.css").is_symlink()
    assert (out / "assets/site.css").read_bytes() == b"body {}"
    assert elsewhere.read_text() == "body {}"


def test_two_files_with_one_path_are_refused_and_nothing_is_written(out):
    with pytest.raises(ValueError, match="index.html"):
        write_site(site(OLD) + [OutputFile("index.html", b"twice")], out)
    assert not out.exists()
    write_site(site(OLD), out)
    with pytest.raises(ValueError):
        write_site(site({"x.html": "x"}) + [OutputFile("x.html", b"twice")], out)
    assert files(out) == as_bytes(site(OLD))
    assert temp_folders(out) == set()


def test_a_folder_of_other_things_is_not_replaced(out):
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(OutputRefused, match="not empty"):
        write_site(site(OLD), out)
    assert files(out) == {"thesis.tex": b"years of work"}
    assert temp_folders(out) == set()


def test_a_plain_file_is_not_replaced(out):
    out.write_text("a file")
    with pytest.raises(OutputRefused, match="is a file"):
        write_site(site(OLD), out)
    assert out.read_text() == "a file"


def test_an_empty_folder_is_written_into(out):
    out.mkdir()
    write_site(site(OLD), out)
    assert files(out) == as_bytes(site(OLD))


def test_the_site_is_readable_by_others(out, swap):
    umask = os.umask(0o022)
    try:
        write_site(site(OLD), out)
        write_site(site({**OLD, "papers/c/index.html": "<p>c</p>"}), out)
    finally:
        os.umask(umask)
    for path in [out, *out.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o755 if path.is_dir() else 0o644), path


V2 = {**OLD, "index.html": "<p>home 2</p>", "papers/c/index.html": "<p>c</p>"}
"""OLD edited: the site a second build writes, the spare then holding OLD."""


@pytest.fixture(params=["first build", "with a spare"])
def written(request, out):
    """`out` as one build left it, or as two left it (the spare beside holding the first)."""
    write_site(site(OLD), out)
    if request.param == "with a spare":
        write_site(site(V2), out)
        assert spare_folder(out).is_dir()
    return files(out)


def test_a_failure_while_linking_leaves_the_old_site_and_no_temp_folder(out, swap, written,
                                                                       monkeypatch):
    before, ids = files(out), inodes(out)

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(writer, "_link_or_copy", fail)
    new = [OutputFile("index.html", b"<p>new</p>"), OutputFile("papers/d/index.html", b"d")]
    with pytest.raises(OSError, match="disk full"):  # after writing those two, at a link
        write_site(new + [f for f in site(V2) if f.path != "index.html"], out)
    assert files(out) == before and inodes(out) == ids
    assert temp_folders(out) == set()


def test_a_failure_while_writing_leaves_the_old_site_and_no_temp_folder(out, swap, written,
                                                                       monkeypatch):
    before, ids = files(out), inodes(out)
    written = []

    def failing_open(path, mode="r", *args, **kwargs):
        if "w" in mode or "x" in mode:
            written.append(path)
            if len(written) == 3:
                raise KeyboardInterrupt  # Ctrl-C midway
        return open(path, mode, *args, **kwargs)

    monkeypatch.setattr(writer, "open", failing_open, raising=False)
    changed = {path: data + " changed" for path, data in OLD.items()}
    with pytest.raises(KeyboardInterrupt):
        write_site(site(changed), out)
    assert files(out) == before and inodes(out) == ids
    assert temp_folders(out) == set()
    monkeypatch.undo()
    write_site(site(changed), out)
    assert files(out) == as_bytes(site(changed))


def test_a_failure_of_the_second_rename_brings_the_old_site_back(out, monkeypatch):
    monkeypatch.setattr(writer, "_exchange", lambda first, second: False)
    write_site(site(OLD), out)
    before = files(out)
    real_rename = Path.rename

    def failing_rename(self, target):
        if self.name.startswith("._site.tmp-"):
            raise OSError("rename failed")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", failing_rename)
    with pytest.raises(OSError, match="rename failed"):
        write_site(site({**OLD, "index.html": "<p>new</p>"}), out)
    monkeypatch.undo()
    assert files(out) == before
    write_site(site(OLD), out)
    assert temp_folders(out) == set()


def test_leftovers_of_a_killed_build_are_removed_by_the_next_write(out, swap):
    write_site(site(OLD), out)
    leftover = out.parent / "._site.tmp-xyz"
    (leftover / "papers").mkdir(parents=True)
    (leftover / "papers" / "half.html").write_text("half")
    assert temp_folders(out) == {leftover}
    write_site(site(OLD), out)
    assert not leftover.exists()
    assert files(out) == as_bytes(site(OLD))


def test_leftovers_of_a_killed_build_are_removed_even_when_nothing_changed(out):
    write_site(site(OLD), out)
    (out.parent / "._site.tmp-xyz").mkdir()
    (out.parent / "._site.old-abc").mkdir()
    write_site(site(OLD), out)
    assert temp_folders(out) == set()


def test_clear_leftovers_removes_them(out):
    write_site(site(OLD), out)
    (out.parent / "._site.tmp-xyz" / "a").mkdir(parents=True)
    clear_leftovers(out)
    assert temp_folders(out) == set()
    assert files(out) == as_bytes(site(OLD))


def test_folders_of_other_sites_beside_are_not_leftovers(out, tmp_path):
    write_site(site(OLD), out)
    other = tmp_path / "._site2.tmp-xyz"
    other.mkdir()
    (tmp_path / "_site.tmp-xyz").mkdir()
    write_site(site(OLD), out)
    assert other.exists() and (tmp_path / "_site.tmp-xyz").exists()


def killed_between_renames(out):
    """The state a build leaves when killed after moving the live site aside, before moving
    the new one in: no `out`, the old site retired, the new one staged."""
    write_site(site(OLD), out)
    staged = out.parent / "._site.tmp-xyz"
    (staged / "papers").mkdir(parents=True)
    (staged / "index.html").write_text("<p>new</p>")
    out.rename(out.parent / "._site.old-abc")


def test_a_build_killed_between_two_renames_gets_its_site_back_from_the_next_write(out, swap):
    killed_between_renames(out)
    new = {**OLD, "index.html": "<p>new home</p>"}
    report = write_site(site(new), out)
    assert files(out) == as_bytes(site(new))
    assert report.unchanged == 4  # the old site came back, so its files were linked
    assert temp_folders(out) == set()


def test_a_build_killed_between_two_renames_gets_its_site_back_from_clear_leftovers(out):
    killed_between_renames(out)
    clear_leftovers(out)
    assert files(out) == as_bytes(site(OLD))
    assert temp_folders(out) == set()


def test_a_symlinked_out_is_written_into_its_target_and_stays_a_symlink(out, tmp_path, swap):
    target = tmp_path / "real" / "site"
    target.parent.mkdir()
    out.symlink_to(target, target_is_directory=True)
    write_site(site(OLD), out)
    assert out.is_symlink() and os.readlink(out) == str(target)
    assert files(target) == as_bytes(site(OLD))
    new = {**OLD, "index.html": "<p>new</p>"}
    write_site(site(new), out)
    assert out.is_symlink() and os.readlink(out) == str(target)
    assert files(target) == as_bytes(site(new))
    assert temp_folders(target) == set() and temp_folders(out) == set()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site", "real"]


def test_a_relative_symlink_to_an_existing_site_is_followed(out, tmp_path, swap):
    target = tmp_path / "real"
    write_site(site(OLD), target)
    out.symlink_to("real")
    write_site(site({**OLD, "index.html": "<p>new</p>"}), out)
    assert out.is_symlink() and os.readlink(out) == "real"
    assert (target / "index.html").read_bytes() == b"<p>new</p>"


def test_a_write_into_a_new_nested_folder_makes_its_parents(tmp_path):
    out = tmp_path / "a" / "b" / "_site"
    write_site(site(OLD), out)
    assert files(out) == as_bytes(site(OLD))


def test_a_file_may_become_a_folder_and_a_folder_a_file(out, swap):
    write_site(site({"x": "file", "y/index.html": "in a folder"}), out)
    write_site(site({"x/index.html": "in a folder", "y": "file"}), out)
    assert files(out) == as_bytes(site({"x/index.html": "in a folder", "y": "file"}))


def test_deep_paths_are_written(out, swap):
    deep = {"a/b/c/d/e/f.html": "deep", "a/b/g.html": "g"}
    write_site(site(deep), out)
    write_site(site({**deep, "a/b/c/x.html": "x"}), out)
    assert files(out) == as_bytes(site({**deep, "a/b/c/x.html": "x"}))


# The spare: the site a build retired, where the next one stages


def test_staging_in_the_spare_never_writes_into_the_live_sites_files(out, swap, monkeypatch):
    write_site(site(OLD), out)
    write_site(site(V2), out)  # the spare now shares every unchanged file with the live site
    live = files(out)
    real_swap = writer._swap_in

    def swap_checking_the_live_site(staging, where):
        assert files(out) == live  # staged, not yet swapped: the live site is as it was
        real_swap(staging, where)

    monkeypatch.setattr(writer, "_swap_in", swap_checking_the_live_site)
    v3 = {path: data + " 3" for path, data in V2.items()}
    write_site(site(v3), out)
    assert files(out) == as_bytes(site(v3))


def test_a_spare_changed_by_hand_does_not_reach_the_site(out, swap, tmp_path):
    write_site(site(OLD), out)
    write_site(site(V2), out)
    spare = spare_folder(out)
    (spare / "index.html").unlink()
    (spare / "index.html").write_text("<p>changed in the spare</p>")
    shutil.rmtree(spare / "papers" / "b")
    (spare / "papers" / "b").write_text("a file where a folder belongs")
    (spare / "extra.html").write_text("not in any site")
    (tmp_path / "elsewhere").mkdir()
    (spare / "assets" / "site.css").unlink()
    (spare / "assets" / "site.css").symlink_to(tmp_path / "elsewhere")
    (spare / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    v3 = {**V2, "papers/c/index.html": "<p>c 3</p>"}
    write_site(site(v3), out)
    assert files(out) == as_bytes(site(v3))
    assert not any(p.is_symlink() for p in out.rglob("*"))
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_an_empty_folder_in_the_spare_where_a_file_belongs_does_not_reach_the_site(out, swap):
    write_site(site(OLD), out)
    write_site(site(V2), out)
    spare = spare_folder(out)
    (spare / "papers" / "a" / "index.html").unlink()
    (spare / "papers" / "a" / "index.html").mkdir()
    write_site(site(V2), out)  # unchanged: nothing is staged
    v3 = {**V2, "papers/c/index.html": "<p>c 3</p>"}
    write_site(site(v3), out)
    assert files(out) == as_bytes(site(v3))


def test_a_spare_of_folders_alone_one_where_a_file_belongs_does_not_fail_the_write(out, swap):
    # a spare without a file is not the empty folder a first build after a cold one stages in
    write_site(site(OLD), out)
    write_site(site(V2), out)
    spare = spare_folder(out)
    for path in [p for p in spare.rglob("*") if not p.is_dir()]:
        path.unlink()
    (spare / "papers" / "a" / "index.html").mkdir()
    v3 = {**V2, "papers/c/index.html": "<p>c 3</p>"}
    write_site(site(v3), out)
    assert files(out) == as_bytes(site(v3))


@pytest.mark.parametrize("second", [
    [OutputFile("a", b"file"), OutputFile("a/b", b"b")],
    [OutputFile("a/b", b"b"), OutputFile("a", b"file")],
    [OutputFile("a/b", b"b"), KeptFile("a")],
], ids=["file, then a file in it", "file in it, then the file", "kept file where a folder is"])
@pytest.mark.parametrize("spare", [False, True])
def test_a_file_that_is_also_a_folder_of_others_is_refused_and_nothing_is_written(
        out, swap, second, spare):
    write_site(site({**OLD, "a": "file a"}), out)
    if spare:
        write_site(site({**OLD, "a": "file a", "index.html": "<p>home 2</p>"}), out)
    before, ids = files(out), inodes(out)
    with pytest.raises(ValueError, match="also a folder"):
        write_site(site(OLD) + second, out)
    assert files(out) == before and inodes(out) == ids
    assert temp_folders(out) == set()


def test_a_new_file_where_one_stands_already_is_refused_not_written_through(tmp_path):
    # where a file system takes two names for one (case): the name is taken when it comes
    live = tmp_path / "live.html"
    live.write_bytes(b"the live site's")
    os.link(live, tmp_path / "staged.html")
    with pytest.raises(OutputRefused, match="another file.s name"):
        writer._write_new(str(tmp_path / "staged.html"), OutputFile("Staged.html", b"new"))
    with pytest.raises(OutputRefused, match="another file.s name"):
        writer._link_or_copy(str(live), str(tmp_path / "staged.html"), "Staged.html")
    (tmp_path / "folder").mkdir()
    with pytest.raises(OutputRefused, match="another file.s name"):
        writer._link_or_copy(str(live), str(tmp_path / "folder"), "Folder")
    assert live.read_bytes() == b"the live site's"
    assert list((tmp_path / "folder").iterdir()) == []


def test_the_first_write_after_a_cold_one_links_every_unchanged_file_to_the_live_sites(out, swap):
    write_site(site(OLD), out)
    assert not spare_folder(out).exists()
    before = inodes(out)
    write_site(site(V2), out)
    assert files(out) == as_bytes(site(V2))
    after = inodes(out)
    old, new = as_bytes(site(OLD)), as_bytes(site(V2))
    assert {path for path in before.keys() & after.keys() if before[path] == after[path]} == {
        path for path in old.keys() & new.keys() if old[path] == new[path]}


@pytest.mark.parametrize("kind", ["file", "symlink to a folder"])
def test_something_else_where_the_spare_belongs_does_not_fail_the_write(out, tmp_path, kind):
    write_site(site(OLD), out)
    spare = spare_folder(out)
    if kind == "file":
        spare.write_text("not a spare")
    else:
        (tmp_path / "elsewhere").mkdir()
        spare.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    write_site(site(V2), out)
    assert files(out) == as_bytes(site(V2))
    assert temp_folders(out) == set()


def test_a_series_of_writes_gives_each_site_exactly(out, swap):
    rng = random.Random(11)
    paths = [f"papers/p{n}/index.html" for n in range(15)] + ["index.html", "a/b/c.html",
                                                              "a/b", "tags/x.html", "tags"]
    previous = {}
    for _ in range(25):
        chosen = [p for p in paths if rng.random() < 0.6]
        # a path may be a file in one site and a folder in the next, never both in one
        chosen = [p for p in chosen if not any(q.startswith(p + "/") for q in chosen)]
        pages = {p: rng.choice(["one", "two", "three "]) + p for p in chosen}
        before = inodes(out) if out.exists() else {}
        write_site(site(pages), out)
        assert files(out) == as_bytes(site(pages))
        after = inodes(out)
        kept = {p for p in pages if previous.get(p) == pages[p] and p in before}
        assert all(after[p] == before[p] for p in kept)
        assert temp_folders(out) == set()
        previous = pages


# A build killed at any moment


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {repo!r})
    import generator.building.writer as writer
    from generator.building.writer import write_site
    from generator.model.records import OutputFile
    from pathlib import Path
    if {no_exchange!r}:
        writer._exchange = lambda first, second: False
    files = [OutputFile(".nojekyll", b"")] + [
        OutputFile(f"papers/p{{n}}/index.html", (f"new {{n}} " if n % 2 else f"old {{n}} ").encode()
                   * 50) for n in range(1, {count})]
    print("go", flush=True)
    write_site(files, Path({out!r}))
    print("done", flush=True)
""")

COUNT = 2000


def old_site():
    return [OutputFile(".nojekyll", b"")] + [
        OutputFile(f"papers/p{n}/index.html", f"old {n} ".encode() * 50) for n in range(COUNT - 1)]


def new_site():
    return [OutputFile(".nojekyll", b"")] + [
        OutputFile(f"papers/p{n}/index.html", (f"new {n} " if n % 2 else f"old {n} ").encode() * 50)
        for n in range(1, COUNT)]


def start_write(out, no_exchange):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(repo=str(REPO), count=COUNT, out=str(out),
                                            no_exchange=no_exchange)],
        stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "go\n"
    return child


@pytest.fixture
def fast_out(tmp_path):
    """An output folder in memory where the system has one (/dev/shm): thousands of files are
    written there in a tenth of the time they take on a slow disk."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path / "_site"
        return
    folder = Path(tempfile.mkdtemp(dir=shm, prefix="test_writer-"))
    try:
        yield folder / "_site"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("no_exchange", [False, True], ids=["exchange", "two renames"])
def test_a_build_killed_at_any_moment_leaves_the_old_site_or_the_new(fast_out, no_exchange):
    out = fast_out
    old, new = as_bytes(old_site()), as_bytes(new_site())
    write_site(old_site(), out)
    child = start_write(out, no_exchange)
    started = time.perf_counter()
    assert child.wait() == 0
    took = time.perf_counter() - started
    assert files(out) == new
    rng = random.Random(20250424)
    outcomes = set()
    for kill in range(10):  # half at any moment, half near the end, where the swap is
        write_site(old_site(), out)
        assert temp_folders(out) == set() and files(out) == old
        child = start_write(out, no_exchange)
        time.sleep(rng.uniform(0 if kill % 2 else 0.7 * took, took))
        child.send_signal(signal.SIGKILL)
        child.wait()
        if not no_exchange:  # with the exchange the site is never missing nor mixed
            assert out.is_dir() and files(out) in (old, new)
        clear_leftovers(out)  # what any next build does first
        now = files(out)
        assert now == old or now == new
        outcomes.add("old" if now == old else "new")
        assert temp_folders(out) == set()
    print(f"a write took {took:.3f} s; killed builds left {sorted(outcomes)}")
    write_site(new_site(), out)
    assert files(out) == new and temp_folders(out) == set()


def test_files_given_one_at_a_time_are_placed_as_they_come(out, swap):
    write_site(site(OLD), out)
    written = []

    def one_at_a_time():
        for file in site(V2):
            yield file
            written.append(file.path)  # why: the writer has placed it before asking for more
            staged = [p for p in temp_folders(out) if (p / file.path).exists()]
            assert staged, f"{file.path} was not placed before the next file was asked for"

    write_site(one_at_a_time(), out)
    assert files(out) == as_bytes(site(V2)) and len(written) == len(site(V2))


def test_files_that_fail_to_come_leave_the_old_site(out, swap):
    write_site(site(OLD), out)
    before = files(out)

    def failing():
        yield from site(V2)[:2]
        raise RuntimeError("a page's template failed")

    with pytest.raises(RuntimeError):
        write_site(failing(), out)
    assert files(out) == before and temp_folders(out) == set()


def test_a_link_in_the_spare_where_a_folder_belongs_is_not_written_through(out, tmp_path, swap):
    write_site(site(OLD), out)
    write_site(site(V2), out)  # the old site is now the spare
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "index.html").write_text("not the site's")
    spare = spare_folder(out)
    shutil.rmtree(spare / "papers" / "a")
    (spare / "papers" / "a").symlink_to(outside, target_is_directory=True)
    write_site(site({**V2, "papers/a/index.html": "<p>a 3</p>"}), out)
    assert files(out) == as_bytes(site({**V2, "papers/a/index.html": "<p>a 3</p>"}))
    assert (outside / "index.html").read_text() == "not the site's"
    assert not (out / "papers" / "a").is_symlink()


def test_a_kept_file_behind_a_linked_folder_of_the_live_site_comes_into_the_new_site(out, tmp_path):
    from generator.building.writer import KeptFile
    write_site(site(OLD), out)
    moved = tmp_path / "moved"
    shutil.move(out / "papers" / "a", moved)
    (out / "papers" / "a").symlink_to(moved, target_is_directory=True)
    kept = [f if f.path != "papers/a/index.html" else KeptFile(f.path) for f in site(OLD)]
    write_site(kept + [OutputFile("extra.html", b"x")], out)
    assert files(out) == {**as_bytes(site(OLD)), "extra.html": b"x"}
    assert not (out / "papers" / "a").is_symlink()


def test_a_process_forked_while_the_site_is_written_does_not_keep_its_folder_locked(out):
    import threading
    forked = []

    def fork_one_that_lives_on(report):  # why: as a process the build forks while it writes
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        forked.append(pid)

    try:
        write_site(site(OLD), out, placed_all=fork_one_that_lives_on)
        second = threading.Thread(target=write_site, args=(site({"index.html": "new"}), out),
                                  daemon=True)
        second.start()
        second.join(timeout=10)
        assert not second.is_alive(), "the next write waited for the forked process's lock"
        assert files(out) == {".nojekyll": b"", "index.html": b"new"}
    finally:
        for pid in forked:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def test_the_report_names_the_files_written_and_removed_and_the_next_build_does_not_keep_them(
        out):
    write_site(site(OLD), out)
    changed = {**OLD, "papers/a/index.html": "<p>A, edited</p>", "papers/c/index.html": "<p>C</p>"}
    del changed["papers/b/index.html"]
    report = write_site(site(changed), out)
    assert sorted(report.changed) == ["papers/a/index.html", "papers/b/index.html",
                                      "papers/c/index.html"]
    assert write_site(site(changed), out).changed == ()
