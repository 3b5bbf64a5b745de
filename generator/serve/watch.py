"""Noticing edits to the files a site is built from: scans woken by file system events, debounced.

What changed is always found by scanning (a stat of every watched file, compared with the last
scan), which behaves the same on every file system. The operating system's file events
(inotify, FSEvents, ReadDirectoryChangesW, through watchdog) only say when to scan: at once,
instead of at the next poll. Events can be missed (network drives, bind mounts, a watch limit
reached, a folder made after the watch began), so the watcher also polls: often when there
are no events, rarely when there are. A large digest takes longer to scan (~40 ms for 10,000
papers), so the watcher waits in proportion to its last scan and stays under a share of a core.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..content.theme import is_ignored

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver


Signature = tuple[int, int, int, int]
"""What says a file changed: modification time, change time, size and inode."""

BUSY_SHARE = 0.1
"""The most of one core polling may use without events: the watcher waits (1 / BUSY_SHARE - 1)
times as long as its last scan took of CPU (this thread's: not the time it waited for the GIL
during a build)."""
SAFETY_SHARE = 0.01
"""The same, with events: polling only catches what events missed."""
SAFETY_INTERVAL = 2.0
"""Seconds between polls, at least, with events."""


def snapshot(roots: Iterable[Path], skip: Path | None = None) -> dict[str, Signature]:
    """Every watched file under `roots` with its signature; `skip` (the output folder) left out."""
    # why: the skipped folder counts as seen, and a symlink back up the tree is not followed twice.
    seen = {os.path.realpath(skip)} if skip is not None else set()
    found: dict[str, Signature] = {}
    for root in roots:
        _scan(str(root), seen, found)
    return found


def _scan(folder: str, seen: set[str], found: dict[str, Signature]) -> None:
    real = os.path.realpath(folder)
    if real in seen:
        return
    seen.add(real)
    try:
        entries = list(os.scandir(folder))
    except OSError:  # why: a folder removed or renamed while we look is a change, seen next poll
        return
    for entry in entries:
        if is_ignored(entry.name):
            continue
        try:
            if entry.is_dir():
                _scan(entry.path, seen, found)
                continue
            info = entry.stat()
        except OSError:
            continue
        found[entry.path] = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)


def changed_paths(old: dict[str, Signature], new: dict[str, Signature]) -> set[str]:
    """Paths added, removed or modified between two snapshots."""
    return {path for path in old.keys() | new.keys() if old.get(path) != new.get(path)}


@dataclass
class Debounce:
    """Collects changed paths until `quiet` seconds pass without another change."""

    quiet: float
    pending: set[str] = field(default_factory=set)
    last_change: float = 0.0

    def feed(self, paths: set[str], now: float) -> set[str]:
        """The whole burst once it has gone quiet; an empty set until then."""
        if paths:
            self.pending |= paths
            self.last_change = now
            return set()
        if self.pending and now - self.last_change >= self.quiet:
            burst, self.pending = self.pending, set()
            return burst
        return set()

    def remaining(self, now: float) -> float:
        """Seconds until the pending burst has been quiet long enough, if nothing changes."""
        return max(0.0, self.quiet - (now - self.last_change))


class Watcher:
    """Scans `roots` in a daemon thread when file events say so, and polls; `next_change()`
    hands over everything changed since. `events=False` polls only."""

    def __init__(self, roots: list[Path], skip: Path | None = None,
                 interval: float = 0.1, quiet: float = 0.1, events: bool = True) -> None:
        self.roots, self.skip, self.interval = roots, skip, interval
        self._debounce = Debounce(quiet)
        self._changed: set[str] = set()
        self._ready = threading.Condition()
        self._stop = threading.Event()
        self._wake = threading.Event()
        # why: taken before the first build reads anything, so no edit falls between the two.
        self._files = snapshot(roots, skip)
        self._thread = threading.Thread(target=self._run, name="watcher", daemon=True)
        self._events = events
        self._observer: BaseObserver | None = None

    @property
    def has_events(self) -> bool:
        """Whether file events wake the scans (else polling alone finds changes)."""
        return self._observer is not None

    def start(self) -> None:
        """Start watching."""
        if self._events:
            # why: imported here, not with this module: the build reads is_ignored from it
            from .fileevents import start_observer
            self._observer = start_observer(self.roots, self.skip, self._wake)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching at the next tick."""
        self._stop.set()
        self._wake.set()
        if self._observer is not None:
            self._observer.stop()

    def next_change(self, timeout: float | None = None) -> set[str]:
        """Wait for a burst of changes; every path changed since the last call, or an empty set."""
        with self._ready:
            self._ready.wait_for(lambda: self._changed, timeout)
            changed, self._changed = self._changed, set()
            return changed

    def _run(self) -> None:
        wait, spent = self.interval, 0.0
        share, every = (SAFETY_SHARE, SAFETY_INTERVAL) if self.has_events else \
            (BUSY_SHARE, self.interval)
        while True:
            woken = self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            # why: while a burst settles, no event since the last scan means nothing new to
            # find: the burst is handed over without scanning again (~50 ms at 10,000
            # papers, on the way to every reload); polling still finds what events miss
            # why: a change is seen as the scan starts: the quiet time a burst waits for is
            # counted from then, not once the scan is done (~40 ms at 10,000 papers)
            seen = time.monotonic()
            if self.has_events and not woken and self._debounce.pending:
                files = self._files
            else:
                started = time.thread_time()
                files = snapshot(self.roots, self.skip)
                spent = time.thread_time() - started
            burst = self._debounce.feed(changed_paths(self._files, files), seen)
            # why: while a burst settles, look again once it may have gone quiet, so it is
            # handed over then
            wait = min(self.interval, self._debounce.remaining(time.monotonic())) \
                if self._debounce.pending else max(every, spent * (1 / share - 1))
            self._files = files
            if burst:
                with self._ready:
                    # why: bursts that arrive while a build runs pile up here, so the builder
                    # makes exactly one more build for all of them.
                    self._changed |= burst
                    self._ready.notify_all()
