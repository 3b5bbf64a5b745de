"""The operating system's file events (inotify, FSEvents, ReadDirectoryChangesW, through
watchdog), as a wake-up call for the preview server's watcher (see watch.py)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from watchdog.events import (EVENT_TYPE_MODIFIED, DirAttribEvent, DirCreatedEvent, DirDeletedEvent,
                             DirMovedEvent, FileAttribEvent, FileClosedEvent, FileCreatedEvent,
                             FileDeletedEvent, FileModifiedEvent, FileMovedEvent, FileSystemEvent,
                             FileSystemEventHandler)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from ..content.theme import is_ignored


ASKED = [FileCreatedEvent, DirCreatedEvent, FileDeletedEvent, DirDeletedEvent, FileModifiedEvent,
         FileAttribEvent, DirAttribEvent, FileMovedEvent, DirMovedEvent, FileClosedEvent]
"""The file events that may mean a change (a file closed after writing, or touched, too), the
only ones asked of the system: none for a file opened, or closed unwritten. Every build opens
and reads each watched file; with those asked too, inotify sent two events a file, and handling
them on this process's lock slowed each rebuild of a 10,000-paper digest by ~1.5 s."""
CHANGES = frozenset(kind.event_type for kind in ASKED)


class Wake(FileSystemEventHandler):
    """Wakes the scanner on any event outside the skipped folder and editor droppings."""

    def __init__(self, skip: Path | None, wake: threading.Event) -> None:
        self.skip = os.path.realpath(skip) if skip is not None else None
        self.wake = wake

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in CHANGES:
            return  # why: a backend may send what was not asked of it
        if event.is_directory and event.event_type == EVENT_TYPE_MODIFIED:
            return  # why: a folder's listing changed; the entry that changed has its own event
        for path in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(path)
            if path and not is_ignored(os.path.basename(path)) and not self._skipped(path):
                self.wake.set()
                return

    def _skipped(self, path: str) -> bool:
        # why: the build writes there; each write would wake a scan that finds nothing
        if self.skip is None:
            return False
        real = os.path.realpath(path)
        return real == self.skip or real.startswith(self.skip + os.sep)


def start_observer(roots: list[Path], skip: Path | None,
                   wake: threading.Event) -> BaseObserver | None:
    """File events for every root that exists, or None where the system gives none."""
    observer = Observer()
    observer.daemon = True
    handler = Wake(skip, wake)
    try:
        for root in roots:
            if root.is_dir():
                observer.schedule(handler, str(root), recursive=True, event_filter=ASKED)
        observer.start()
    except (OSError, RuntimeError):  # why: e.g. the inotify watch limit; polling still works
        return None
    return observer
