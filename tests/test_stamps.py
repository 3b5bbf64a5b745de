"""generator.building.stamps: a content folder's stamp changes with anything a build reads of
it, and names the files that changed too recently for their times to show a later change."""

import os
import pickle
import time

import pytest

import generator.building.stamps as stamps_module
from factories import paper_source, write_content
from generator.building.stamps import SourceChanged, UnreadSource, bytes_digest, content_stamp


@pytest.fixture
def settled(monkeypatch):
    """Every file counts as changed long ago, as after a curator's pause."""
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)


def content(tmp_path):
    return write_content(tmp_path, {"p1": paper_source(title="One"),
                                    "p2": paper_source(title="Two")})


def test_files_just_written_are_named_racy(tmp_path):
    assert content_stamp(content(tmp_path)).racy == {"site.yaml", "papers/p1.md", "papers/p2.md"}


def test_a_file_is_racy_until_its_change_is_two_seconds_old(tmp_path, monkeypatch):
    folder = content(tmp_path)
    settled_at = max(path.stat().st_ctime_ns for path in folder.rglob("*"))
    time.sleep(0.05)  # past a tick of the file system's clock
    (folder / "papers" / "p1.md").write_text(paper_source(title="Uno"))
    written_at = (folder / "papers" / "p1.md").stat().st_ctime_ns
    assert written_at > settled_at
    monkeypatch.setattr(stamps_module, "now", lambda: settled_at + 2 * 10**9)
    stamped = content_stamp(folder)
    assert stamped.racy == {"papers/p1.md"}
    monkeypatch.setattr(stamps_module, "now", lambda: written_at + 3 * 10**9)
    assert content_stamp(folder).racy == set()


def test_a_folder_left_alone_keeps_its_stamp(tmp_path, settled):
    folder = content(tmp_path)
    assert content_stamp(folder) == content_stamp(folder)
    assert content_stamp(folder).racy == set()


def same_size_and_times(path, text):
    """Writes `text` over `path`, of the same length, and sets its times back."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.mark.parametrize("change", [
    "a paper written, its size and times set back",
    "a paper added", "a paper removed", "a paper renamed",
    "site.yaml written", "the file a linked paper points to written",
])
def test_anything_a_build_reads_changes_the_stamp(tmp_path, settled, change):
    folder = content(tmp_path)
    papers = folder / "papers"
    if change.startswith("the file a linked"):
        target = tmp_path / "elsewhere.md"
        target.write_text(paper_source(title="Far"))
        (papers / "p3.md").symlink_to(target)
    before = content_stamp(folder).stamp
    if change.startswith("a paper written"):
        same_size_and_times(papers / "p1.md", paper_source(title="Uno"))
    elif change == "a paper added":
        (papers / "p3.md").write_text(paper_source(title="Three"))
    elif change == "a paper removed":
        (papers / "p2.md").unlink()
    elif change == "a paper renamed":
        (papers / "p2.md").rename(papers / "p9.md")
    elif change == "site.yaml written":
        (folder / "site.yaml").write_text((folder / "site.yaml").read_text() + "\n")
    else:
        (tmp_path / "elsewhere.md").write_text(paper_source(title="Near"))
    assert content_stamp(folder).stamp != before


def test_a_stamp_gives_each_paper_files_look(tmp_path, settled):
    folder = content(tmp_path)
    stamped = content_stamp(folder)
    assert set(stamped.papers) == {"papers/p1.md", "papers/p2.md"}
    assert stamped.papers["papers/p1.md"][3] == (folder / "papers/p1.md").stat().st_ino
    (folder / "papers/p1.md").write_text(paper_source(title="One, again"))
    again = content_stamp(folder)
    assert again.papers["papers/p1.md"] != stamped.papers["papers/p1.md"]
    assert again.papers["papers/p2.md"] == stamped.papers["papers/p2.md"]


def test_a_paper_not_read_is_read_when_asked_for_here_or_where_it_is_sent(tmp_path):
    path = content(tmp_path) / "papers/p1.md"
    data = path.read_bytes()
    unread = UnreadSource(path.parent, path.name, bytes_digest(data))
    sent = pickle.loads(pickle.dumps(unread))  # as a worker is given it: not read yet
    assert unread.path == path and unread.data == data
    assert type(sent) is UnreadSource and sent.path == path and sent.data == data


def test_a_paper_not_read_that_changed_since_is_a_build_failure_naming_it(tmp_path):
    path = content(tmp_path) / "papers/p1.md"
    unread = UnreadSource(path.parent, path.name, bytes_digest(path.read_bytes()))
    sent = pickle.loads(pickle.dumps(unread))
    path.write_text(paper_source(title="Changed"))
    for ask in (lambda: unread.data, lambda: sent.data):
        with pytest.raises(SourceChanged, match=r"p1\.md:1: changed while the build was reading"):
            ask()
    with pytest.raises(SourceChanged) as raised:
        sent.data
    back = pickle.loads(pickle.dumps(raised.value))  # as a worker sends it back
    assert type(back) is SourceChanged and back.errors == raised.value.errors
