"""`build.py serve`: build, serve under the base path, and on every edit rebuild and reload tabs.

The main thread builds; the HTTP server, the watcher and each request run in daemon threads,
so Ctrl-C stops everything at once and interrupts a build inside its own cleanup (the build
writes to a temporary folder and removes it when interrupted).
"""

from __future__ import annotations

import gc
import signal
import sys
import threading
import time
import traceback
import webbrowser
from pathlib import Path
from typing import Callable

import jinja2

from ..building.cache import Cache
from ..building.pipeline import BuildOptions, Kept, Made, StageTimer, build, overlay_messages
from ..building.quickpages import page_urls, quick_pages
from ..building.workers import KeptAside
from ..building.writer import OutputRefused, WriteReport, clear_leftovers, temp_folders
from ..content.config import load_config
from ..model.errors import BuildFailed, display_path
from ..model.urls import Urls
from .handlers import PreviewServer, handler_for, open_server
from .livereload import BuildStatus, changed_urls
from .watch import Watcher


def serve(options: BuildOptions, host: str, port: int, live: bool = True,
          open_browser: bool = False) -> int:
    """Serve until Ctrl-C; live, also rebuild on every change and reload open tabs."""
    _stop_on_signals()
    _line_buffered_output()
    status = BuildStatus(base_path(options) or "/")
    server = open_server(host, port, handler_for(options.out, status.base_path,
                                                 status if live else None))
    if server is None:
        return 1
    before = temp_folders(options.out)
    watcher = Watcher(watched_folders(options), skip=options.out) if live else None
    # why: kept in memory too, each rebuild reads back only what it has not seen
    cache = Cache(options.cache, in_memory=True, warn=print)
    # why: forked now, while this process is small, not by each rebuild (workers.KeptAside)
    aside = KeptAside() if live and options.workers >= 2 else None
    running = None
    try:
        if watcher is not None:
            watcher.start()
        print(f"Building {options.content} -> {options.out}")
        if not _first_build(options, status, cache, live, aside):
            return 1
        running = _start(server, host, status.base_path, options, open_browser)
        if watcher is None:
            _wait_for_ctrl_c()
        else:
            _rebuild_on_change(options, status, cache, watcher,
                               lambda: _url(server, host, status.base_path), LastMade(), aside)
    except KeyboardInterrupt:
        print("\nStopped.")
    finally:
        _ignore_signals()
        _stop(server, running, watcher, status)
        try:
            cache.close()
        finally:
            if aside is not None:
                aside.close()
            _remove_new_temp_folders(options.out, before)
    return 0


def watched_folders(options: BuildOptions) -> list[Path]:
    """What a build reads: the content folder (site.yaml included), templates and static files."""
    return [options.content, options.project / "templates", options.project / "static"]


def base_path(options: BuildOptions) -> str | None:
    """The base path site.yaml (or --base-url) gives, or None while site.yaml has errors."""
    urls = site_urls(options)
    return None if urls is None else urls.base_path


def site_urls(options: BuildOptions) -> Urls | None:
    """The site's URLs as site.yaml (or --base-url) gives them, or None while it has errors."""
    try:
        return Urls(load_config(options.content, options.base_url).base_url)
    except BuildFailed:
        return None


def rebuild(options: BuildOptions, status: BuildStatus, cache: Cache | None = None,
            timer: StageTimer | None = None, made: Callable[[Made], None] | None = None,
            aside: KeptAside | None = None) -> WriteReport | None:
    """One full build, the new version published to open pages as soon as it is in place; or
    the errors, while the last good site stays. `made` is told what a build that made the site
    made it of; `aside`: the process for work begun aside the server keeps."""
    words = overlay_messages(options)
    published: list[WriteReport] = []

    def publish(report: WriteReport) -> None:
        urls = site_urls(options)
        only = None if urls is None else changed_urls(
            report.changed, status.quick_pages(), lambda path: _read(options.out / path),
            urls.path)
        status.publish([], report.written + report.removed > 0,
                       None if urls is None else urls.base_path, words, only)
        published.append(report)

    try:
        report = build(options, timer, None if cache is None else Kept(cache, aside, publish),
                       made)
    except BuildFailed as failed:
        return _failed(status, [str(error) for error in failed.errors], words)
    except OutputRefused:
        raise
    except Exception as err:  # why: a broken template must not stop the server either
        if not isinstance(err, jinja2.TemplateError):
            traceback.print_exc()  # why: not the curator's mistake; whoever fixes it needs this
        return _failed(status, [exception_error(err)], words)
    if not published:  # why: nothing changed, so nothing was written
        publish(report)
    return report


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def exception_error(err: Exception) -> str:
    """`file:line: message` for an unexpected error, at the template line when a template raised."""
    if isinstance(err, jinja2.TemplateSyntaxError) and err.filename:
        return f"{display_path(Path(err.filename))}:{err.lineno}: {err.message}"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename.endswith(".html")]
    where = f"{display_path(Path(frames[-1].filename))}:{frames[-1].lineno}: " if frames else ""
    return f"{where}{type(err).__name__}: {err}"


def _failed(status: BuildStatus, errors: list[str], words: dict[str, str] | None = None) -> None:
    status.publish(errors, site_changed=False, messages=words)
    for error in errors:
        print(error, file=sys.stderr)
    count = len(errors)
    print(f"Build failed: {count} error{'s' if count != 1 else ''}; still serving the last "
          "good site, with the errors shown on every page.", file=sys.stderr)


def _first_build(options: BuildOptions, status: BuildStatus, cache: Cache, live: bool,
                 aside: KeptAside | None = None) -> bool:
    """The build before serving; False if serving makes no sense (after saying why). Told no
    `made`, so that it stops at once when nothing changed since the last run: what the site is
    made of is learnt once idle (_prepare_quick_pages)."""
    started = time.perf_counter()
    try:
        report = rebuild(options, status, cache, StageTimer(report=print), aside=aside)
    except OutputRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return False
    if report is not None:
        print(f"Built {report.written + report.unchanged} files in "
              f"{time.perf_counter() - started:.2f} s: {options.out.resolve()}")
    return report is not None or live


def _wait_for_ctrl_c() -> None:
    while True:
        time.sleep(3600)


class LastMade:
    """What the last build that made the site made it of, for the next save's quick pages."""

    def __init__(self) -> None:
        self.made: Made | None = None

    def keep(self, made: Made) -> None:
        self.made = made

    def take(self) -> Made | None:
        """The last build's, let go here: the next build's own need not be held beside it."""
        made, self.made = self.made, None
        return made


def show_quick_pages(status: BuildStatus, made: Made | None, changed: set[str]) -> None:
    """Serve the pages of the papers a save changed at once, made from the last build (see
    building/quickpages.py), and reload the tabs that show them; nothing when the last build
    failed or the save changed anything else."""
    if made is None or status.current.errors:
        return
    started = time.perf_counter()
    try:
        pages = quick_pages(made, changed)
    except Exception as err:  # why: a template's error, the full build says at its line
        print(f"Could not show the saved papers at once ({type(err).__name__}: {err}); "
              "building the site")
        return
    if pages:
        urls = page_urls(made, pages)
        status.publish_quick(pages, urls)
        more = f" and {len(urls) - 3} more" if len(urls) > 3 else ""
        print(f"Showed {', '.join(urls[:3])}{more} in {time.perf_counter() - started:.2f} s; "
              "building the rest")


def _rebuild_on_change(options: BuildOptions, status: BuildStatus, cache: Cache,
                       watcher: Watcher, url: Callable[[], str], last: LastMade,
                       aside: KeptAside | None = None) -> None:
    """Forever: wait for a burst of edits, show the pages of the papers they changed at once
    (show_quick_pages), then rebuild once for all of them; once idle after a build, write what
    the cache keeps in memory alone (Cache.write_remembered) and settle the memory the build
    leaves (see settle_memory)."""
    settled = False  # why: the first build, before serving, left its memory too
    while True:
        changed = watcher.next_change(timeout=0.5)
        if not changed:
            if last.made is None and not status.current.errors:
                _prepare_quick_pages(options, status, cache, last, aside)
            if not settled:
                cache.write_remembered()  # why: for a build run later; not while a save waits
                settle_memory()
                settled = True
            continue
        settled = False
        shown = sorted(display_path(Path(p)) for p in changed)
        more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
        print(f"Changed: {', '.join(shown[:3])}{more}; rebuilding")
        mounted, started = status.base_path, time.perf_counter()
        show_quick_pages(status, last.take(), changed)
        try:
            report = rebuild(options, status, cache, made=last.keep, aside=aside)
        except OutputRefused as refused:
            report = _failed(status, [f"{display_path(options.out)}: {refused}"])
        if report is not None:
            print(f"Rebuilt in {time.perf_counter() - started:.2f} s: {report.written} written, "
                  f"{report.removed} removed")
        if status.base_path != mounted:
            print(f"The base path is now {status.base_path}: serving at {url()}")


def _prepare_quick_pages(options: BuildOptions, status: BuildStatus, cache: Cache,
                         last: LastMade, aside: KeptAside | None = None) -> None:
    """While idle after the first build, a full build to learn what the site is made of, for
    the next save's quick pages: the first build is not asked, so that it stops at once when
    nothing changed since the last run."""
    started = time.perf_counter()
    try:
        report = rebuild(options, status, cache, made=last.keep, aside=aside)
    except OutputRefused as refused:
        report = _failed(status, [f"{display_path(options.out)}: {refused}"])
    if report is not None:
        print(f"Ready to show saved papers at once ({time.perf_counter() - started:.2f} s)")


def settle_memory() -> None:
    """Collect what the builds so far left in reference cycles, then freeze what lives on (the
    papers and results the server's cache keeps), so that the next build's garbage collections
    do not walk it all again and again: at 10,000 papers a rebuild took ~2.35 s, and ~2.0 s
    once frozen. Run when idle (a full collection is ~0.3 s), never between a save and its
    reload; unfrozen first, so what the last build let go is collected too."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _start(server: PreviewServer, host: str, mounted: str, options: BuildOptions,
           open_browser: bool) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                              name="server", daemon=True)
    thread.start()
    url = _url(server, host, mounted)
    print(f"Serving {options.out} at {url} (Ctrl-C to stop)")
    if host in ("", "0.0.0.0", "::"):
        print("Listening on every address: other machines on your network can read this preview.")
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), name="browser", daemon=True).start()
    return thread


def _url(server: PreviewServer, host: str, mounted: str) -> str:
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{server.server_address[1]}{mounted}"


def _stop(server: PreviewServer, running: threading.Thread | None, watcher: Watcher | None,
          status: BuildStatus) -> None:
    if watcher is not None:
        watcher.stop()
    status.close()
    if running is not None:
        server.shutdown()
    server.server_close()


def _ignore_signals() -> None:
    """Ctrl-C and `kill` ignored from when the server stops until the process ends: a second
    one, pressed while the first was being acted on, stopped it with a traceback, its temporary
    folders left behind; and one that came just after the handlers were given back ended the
    process by an uncaught KeyboardInterrupt (exit status -2). Like _stop_on_signals, for the
    main thread of a process that serves and then ends."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)


def _stop_on_signals() -> None:
    """Ctrl-C and `kill` both end the server through KeyboardInterrupt, cleaning up on the way;
    the first one ignores every one after it, at once (_ignore_signals): a third Ctrl-C 40 ms
    after the first, while a rebuild it stopped was still unwinding, reached the server's own
    `except` and ended the process by an uncaught KeyboardInterrupt (-2) once, in CI."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)


def _interrupted(signum: int, frame: object) -> None:
    _ignore_signals()
    raise KeyboardInterrupt


def _line_buffered_output() -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # why: a pipe reader sees each line at once


def _remove_new_temp_folders(out: Path, before: set[Path]) -> None:
    """What a build stopped by Ctrl-C left beside the output: the site it was retiring is put
    back if it was stopped between the two renames of a swap (see writer.clear_leftovers)."""
    if temp_folders(out) - before:
        clear_leftovers(out)
