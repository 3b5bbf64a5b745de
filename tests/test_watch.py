import os
import time

import pytest

import generator.serve.fileevents as fileevents
import generator.serve.watch as watch_module
from generator.content.theme import is_ignored
from generator.serve.watch import Debounce, Watcher, changed_paths, snapshot


def files(root, *names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    return root


def names(found, root):
    return sorted(os.path.relpath(p, root) for p in found)


@pytest.mark.parametrize("name", [".paper.md.swp", ".paper.md.swx", "paper.md~", ".#paper.md",
                                  "#paper.md#", "4913", ".DS_Store", "paper.md.tmp"])
def test_is_ignored_skips_editor_droppings(name):
    assert is_ignored(name)


@pytest.mark.parametrize("name", ["paper.md", "site.yaml", "base.html", "site.css", "4913.md"])
def test_is_ignored_keeps_real_files(name):
    assert not is_ignored(name)


def test_snapshot_lists_files_in_every_root_without_editor_files_or_hidden_folders(tmp_path):
    files(tmp_path, "content/site.yaml", "content/papers/a.md", "content/papers/.a.md.swp",
          "content/papers/a.md~", "content/.git/HEAD", "templates/base.html")
    found = snapshot([tmp_path / "content", tmp_path / "templates", tmp_path / "missing"])
    assert names(found, tmp_path) == ["content/papers/a.md", "content/site.yaml",
                                      "templates/base.html"]


def test_snapshot_skips_the_output_folder_and_follows_no_symlink_loop(tmp_path):
    files(tmp_path, "content/papers/a.md", "content/_site/index.html")
    (tmp_path / "content/papers/loop").symlink_to(tmp_path / "content", target_is_directory=True)
    found = snapshot([tmp_path / "content"], skip=tmp_path / "content/_site")
    assert names(found, tmp_path) == ["content/papers/a.md"]


def test_changed_paths_reports_added_removed_and_modified_files(tmp_path):
    files(tmp_path, "a.md", "b.md", "c.md")
    before = snapshot([tmp_path])
    (tmp_path / "a.md").write_text("longer text")
    (tmp_path / "b.md").unlink()
    files(tmp_path, "d.md")
    assert names(changed_paths(before, snapshot([tmp_path])), tmp_path) == ["a.md", "b.md", "d.md"]
    assert changed_paths(before, before) == set()


def test_changed_paths_sees_an_atomic_save_of_the_same_size(tmp_path):
    files(tmp_path, "a.md")
    before = snapshot([tmp_path])
    (tmp_path / "a.new").write_text("a.md")
    os.replace(tmp_path / "a.new", tmp_path / "a.md")
    assert names(changed_paths(before, snapshot([tmp_path])), tmp_path) == ["a.md"]


def test_debounce_reports_a_burst_once_it_has_been_quiet():
    debounce = Debounce(quiet=0.1)
    assert debounce.feed({"a"}, now=0.00) == set()
    assert debounce.feed({"b"}, now=0.08) == set()
    assert debounce.feed(set(), now=0.15) == set()  # only 0.07 s since the last save
    assert debounce.feed({"a", "c"}, now=0.17) == set()
    assert debounce.feed(set(), now=0.30) == {"a", "b", "c"}
    assert debounce.feed(set(), now=5.00) == set()


def test_debounce_says_how_long_a_burst_has_left_to_be_quiet():
    debounce = Debounce(quiet=0.1)
    debounce.feed({"a"}, now=1.00)
    assert debounce.remaining(1.04) == pytest.approx(0.06) and debounce.remaining(1.5) == 0


def test_the_quiet_time_of_a_burst_is_counted_from_the_scan_that_saw_it(tmp_path, monkeypatch):
    files(tmp_path, "a.md")
    real, scans = watch_module.snapshot, []

    def slow_snapshot(*args):  # why: a large digest's scan takes a while
        scans.append(time.monotonic())
        time.sleep(0.5)
        return real(*args)

    watcher = Watcher([tmp_path], interval=30, quiet=0.3)
    monkeypatch.setattr(watch_module, "snapshot", slow_snapshot)
    watcher.start()
    try:
        assert watcher.has_events  # inotify on Linux
        time.sleep(1.0)  # why: the first scan, which finds nothing, is over
        (tmp_path / "a.md").write_text("edited")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
        handed = time.monotonic() - scans[-1]
        # the quiet time (0.3 s) after the scan began, not the scan's 0.5 s and then 0.3 s
        assert 0.3 <= handed < 0.65
    finally:
        watcher.stop()


def wait_until(test, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "condition not met before the deadline"
        time.sleep(0.01)


def test_watcher_hands_over_each_change_and_piles_up_changes_made_during_a_build(tmp_path):
    files(tmp_path, "a.md", "b.md", "c.md")
    watcher = Watcher([tmp_path], interval=0.02, quiet=0.04)
    watcher.start()
    try:
        (tmp_path / "a.md").write_text("edited")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
        # A "build" is running now: two more bursts arrive before it asks again.
        (tmp_path / "b.md").write_text("edited")
        wait_until(lambda: watcher._changed)
        (tmp_path / "c.md").write_text("edited")
        wait_until(lambda: len(watcher._changed) == 2)
        assert names(watcher.next_change(timeout=10), tmp_path) == ["b.md", "c.md"]
        assert watcher.next_change(timeout=0.2) == set()
    finally:
        watcher.stop()


def test_watcher_sees_an_edit_made_before_it_started(tmp_path):
    files(tmp_path, "a.md")
    watcher = Watcher([tmp_path], interval=0.02, quiet=0.04)
    (tmp_path / "a.md").write_text("edited while the first build ran")
    watcher.start()
    try:
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
    finally:
        watcher.stop()


def test_a_slow_scan_makes_the_watcher_wait_in_proportion(tmp_path, monkeypatch):
    scans = []

    def slow_snapshot(roots, skip=None):
        scans.append(time.monotonic())
        started = time.thread_time()
        while time.thread_time() - started < 0.05:  # why: the watcher counts its CPU, not waits
            pass
        return {}

    monkeypatch.setattr(watch_module, "snapshot", slow_snapshot)
    watcher = Watcher([tmp_path], interval=0.01, quiet=0.04, events=False)
    watcher.start()
    time.sleep(1.0)
    watcher.stop()
    # a scan of 0.05 s is followed by at least 0.45 s of waiting: at most ~10% of a core
    gaps = [b - a for a, b in zip(scans[1:], scans[2:])]
    assert gaps and min(gaps) >= 0.05 * (1 / watch_module.BUSY_SHARE) - 0.01


def test_with_events_the_watcher_polls_far_less_and_still_sees_an_edit_at_once(tmp_path,
                                                                               monkeypatch):
    files(tmp_path, "a.md", "site/index.html")
    scans = []
    real = watch_module.snapshot
    monkeypatch.setattr(watch_module, "snapshot", lambda *args: scans.append(1) or real(*args))
    watcher = Watcher([tmp_path], skip=tmp_path / "site", interval=30, quiet=0.04)
    watcher.start()
    try:
        assert watcher.has_events  # inotify on Linux
        time.sleep(0.2)
        (tmp_path / "site/index.html").write_text("the build writes here")
        (tmp_path / ".a.md.swp").write_text("an editor's swap file")
        assert watcher.next_change(timeout=1) == set()
        assert len(scans) == 1  # the first, before it started: it polls every 30 s, and
        # neither the skipped folder nor an editor's file woke it
        started = time.monotonic()
        (tmp_path / "a.md").write_text("edited")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
        assert time.monotonic() - started < 5
    finally:
        watcher.stop()


def test_with_events_a_change_no_event_reported_is_still_found_by_polling(tmp_path, monkeypatch):
    files(tmp_path, "a.md")
    monkeypatch.setattr(watch_module, "SAFETY_INTERVAL", 0.2)
    monkeypatch.setattr(fileevents.Wake, "on_any_event", lambda self, event: None)  # missed
    watcher = Watcher([tmp_path], interval=0.02, quiet=0.04)
    watcher.start()
    try:
        assert watcher.has_events
        (tmp_path / "a.md").write_text("edited on a network drive")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
    finally:
        watcher.stop()


def test_without_file_events_the_watcher_polls_as_before(tmp_path, monkeypatch):
    class NoEvents(fileevents.Observer):
        def start(self):
            raise OSError(28, "inotify watch limit reached")

    files(tmp_path, "a.md")
    monkeypatch.setattr(fileevents, "Observer", NoEvents)
    watcher = Watcher([tmp_path], interval=0.02, quiet=0.04)
    watcher.start()
    try:
        assert not watcher.has_events
        (tmp_path / "a.md").write_text("edited")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
    finally:
        watcher.stop()


def test_with_events_a_burst_is_handed_over_without_scanning_again(tmp_path, monkeypatch):
    files(tmp_path, "a.md")
    scanned = []
    real = watch_module.snapshot

    def timed_snapshot(*args):
        found = real(*args)
        scanned.append(time.monotonic())
        return found

    monkeypatch.setattr(watch_module, "snapshot", timed_snapshot)
    watcher = Watcher([tmp_path], interval=30, quiet=0.3)
    watcher.start()
    try:
        assert watcher.has_events  # inotify on Linux
        time.sleep(0.2)
        (tmp_path / "a.md").write_text("edited")
        assert names(watcher.next_change(timeout=10), tmp_path) == ["a.md"]
        # the last scan is the one the save's events woke: none once the burst went quiet
        assert time.monotonic() - scanned[-1] >= 0.25
    finally:
        watcher.stop()


def _events_seen(tmp_path, monkeypatch, act):
    """The event types the watcher's handler is given while `act()` runs on watched files."""
    seen = []
    monkeypatch.setattr(fileevents.Wake, "on_any_event",
                        lambda self, event: seen.append(event.event_type))
    observer = fileevents.start_observer([tmp_path], None, fileevents.threading.Event())
    assert observer is not None  # inotify on Linux
    try:
        time.sleep(0.1)
        act()
        time.sleep(0.3)  # why: events come on the observer's threads
    finally:
        observer.stop()
        observer.join()
    return seen


def test_reading_the_watched_files_sends_no_event(tmp_path, monkeypatch):
    """Every build opens and reads each paper: those events, asked for, cost a 10,000-paper
    rebuild ~1.5 s of this process's lock."""
    files(tmp_path, *(f"papers/{n}.md" for n in range(50)))
    papers = sorted((tmp_path / "papers").iterdir())
    assert _events_seen(tmp_path, monkeypatch, lambda: [p.read_bytes() for p in papers]) == []


def test_a_write_and_a_touch_still_send_events(tmp_path, monkeypatch):
    files(tmp_path, "a.md", "b.md")
    seen = _events_seen(tmp_path, monkeypatch, lambda: (
        (tmp_path / "a.md").write_text("edited"), os.utime(tmp_path / "b.md")))
    assert {"modified", "closed", "attrib"} <= set(seen)
