"""Live reload while serving: the build status that open tabs follow, and the script they run.

Tabs learn of builds over Server-Sent Events at EVENTS_PATH. Each event carries the site's
version and the last build's errors; a tab whose page has another version reloads, and a tab
shown errors draws them over the page. The paths live under `/__digest/`, which no site file can
take: slugs and tag URLs are lowercase letters, digits and hyphens, and assets sit in assets/.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

RESERVED = "/__digest/"
EVENTS_PATH = RESERVED + "events"
SCRIPT_PATH = RESERVED + "livereload.js"
WORKER_PATH = RESERVED + "livereload-worker.js"
SCRIPTS = {SCRIPT_PATH: "livereload.js", WORKER_PATH: "livereload-worker.js"}
_BODY_END = re.compile(rb"</body\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class Status:
    """What tabs are told: the version of the site being served and the last build's errors."""

    version: str
    """'<run>-<generation>': a new run of the server or a build that changed files."""
    errors: tuple[str, ...] = ()
    """`path:line: message` of each error of the last build; empty when it succeeded."""
    messages: tuple[tuple[str, str], ...] = ()
    """What the error overlay says, by key, in the site's language (see
    build.pipeline.overlay_messages)."""
    only: tuple[str, ...] | None = None
    """The URL paths of the only files that changed since the `previous` version (the quick
    pages, building/quickpages.py, or what a build wrote or removed: changed_urls); None: any
    may have. A tab at the previous version that shows none of them and has read none of them
    (a list's data, the search index) takes the new version without reloading."""
    previous: str = ""

    def event(self) -> bytes:
        """This status as one Server-Sent Event named 'build'."""
        fields = {"version": self.version, "errors": list(self.errors),
                  "messages": dict(self.messages)}
        if self.only is not None:
            fields.update(only=list(self.only), previous=self.previous)
        data = json.dumps(fields, sort_keys=True)
        return f"event: build\ndata: {data}\n\n".encode("utf-8")


class BuildStatus:
    """The latest Status and base path, shared by the builder and every request thread."""

    def __init__(self, base_path: str) -> None:
        self._run = secrets.token_hex(4)
        self._generation = 0
        self._status = Status(f"{self._run}-0")
        self._base_path = base_path
        self._closed = False
        self._changed = threading.Condition()
        self._quick: dict[str, bytes] = {}

    @property
    def current(self) -> Status:
        """The status to inject into a page now."""
        with self._changed:
            return self._status

    @property
    def base_path(self) -> str:
        """The path the site is mounted at, from the last good build's config."""
        with self._changed:
            return self._base_path

    @property
    def closed(self) -> bool:
        """True once the server is stopping; event streams end."""
        with self._changed:
            return self._closed

    def quick_page(self, output_path: str) -> bytes | None:
        """The quick page (building/quickpages.py) served in place of this output file, if any."""
        with self._changed:
            return self._quick.get(output_path)

    def publish_quick(self, pages: dict[str, bytes], urls: list[str]) -> Status:
        """Serve `pages` (by output path) until the next build's outcome is published, and
        reload the tabs showing them, at `urls`."""
        with self._changed:
            previous = self._status
            self._quick = dict(pages)
            self._generation += 1
            self._status = replace(previous, version=f"{self._run}-{self._generation}",
                                   only=tuple(urls), previous=previous.version)
            self._changed.notify_all()
            return self._status

    def quick_pages(self) -> dict[str, bytes]:
        """The quick pages served now, by output path."""
        with self._changed:
            return dict(self._quick)

    def publish(self, errors: list[str], site_changed: bool, base_path: str | None = None,
                messages: dict[str, str] | None = None,
                only: Sequence[str] | None = None) -> Status:
        """Record a build's outcome and wake every event stream; `messages` (the overlay's
        words) replace the last ones when given; `only`: the URL paths of the only files that
        differ from what tabs at the current version were shown (changed_urls), if known.
        Quick pages are no longer served."""
        with self._changed:
            previous, moved = self._status, base_path not in (None, self._base_path)
            if self._quick:  # why: the tabs that show a quick page see the built one
                self._quick, site_changed = {}, True
            if base_path is not None:
                self._base_path = base_path
            words = previous.messages if messages is None else tuple(sorted(messages.items()))
            if site_changed:
                self._generation += 1
                self._status = Status(f"{self._run}-{self._generation}", tuple(errors), words)
                if only is not None and not moved:
                    self._status = replace(self._status, only=tuple(only),
                                           previous=previous.version)
            else:  # why: the same version, so what it changed since the one before it too
                self._status = replace(previous, errors=tuple(errors), messages=words)
            self._changed.notify_all()
            return self._status

    def wait(self, seen: Status | None, timeout: float) -> Status:
        """The status once it differs from `seen`, or after `timeout` seconds as it is."""
        with self._changed:
            self._changed.wait_for(lambda: self._status != seen or self._closed, timeout)
            return self._status

    def close(self) -> None:
        """End every event stream."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()


MOST_NAMED = 1000
"""Changed files a status names at most (`only`); past that, every tab reloads: an event of
thousands of paths sent to each tab would take longer to read than a reload."""


def changed_urls(changed: Sequence[str], quick: dict[str, bytes],
                 built: Callable[[str], bytes | None], url: Callable[[str], str]
                 ) -> list[str] | None:
    """The URL paths of the files a build made differ from what tabs were shown: those it wrote
    or removed (`changed`, output paths), but a quick page whose bytes the build made too, and
    the quick pages it did not make so (`built` reads a file of the new site, None if it has
    none); None when they are more than MOST_NAMED. `url` gives an output path's URL path."""
    shown = {path for path, page in quick.items() if built(path) != page}
    found = shown | (set(changed) - quick.keys())
    return None if len(found) > MOST_NAMED else [url(path) for path in sorted(found)]


def inject(page: bytes, version: str, always: bool = False) -> bytes:
    """The page with the reload script before its last `</body>` (or at the end if none);
    `always`: its tab reloads at every new version, even one that names only other files (a
    404 page, shown at an address that is not its own)."""
    mark = ' data-always=""' if always else ""
    tag = f'<script src="{SCRIPT_PATH}" data-version="{version}"{mark}></script>'.encode("ascii")
    ends = list(_BODY_END.finditer(page))
    at = ends[-1].start() if ends else len(page)
    return page[:at] + tag + page[at:]


def script(path: str) -> bytes | None:
    """The source of a reload script by its URL path, or None."""
    name = SCRIPTS.get(path)
    return (Path(__file__).parent / name).read_bytes() if name else None
