"""HTTP handlers that mount the built site at its base path, as GitHub Pages does.

SiteHandler serves the files as they are. LiveHandler, used by `build.py serve` unless given
`--no-reload`, adds the reload script to each HTML page it sends (the files stay clean), the
event stream the script listens to, and `no-store` so a browser never shows a stale page.
"""

from __future__ import annotations

import errno
import ipaddress
import io
import posixpath
import re
import socket
import sys
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import livereload
from ..model import urls as paths
from .livereload import BuildStatus

FALLBACK_404 = b"<!doctype html>\n<title>Not found</title>\n<body><h1>Not found</h1></body>\n"
HEARTBEAT = 15.0
"""Seconds between keep-alive comments on an idle event stream; a closed tab is noticed then."""


class SiteHandler(SimpleHTTPRequestHandler):
    """GET/HEAD of files under the base path; 404.html for anything missing."""

    base_path = "/"
    timeout = 10  # why: a client that connects and sends nothing must not hold a thread for ever
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                      ".js": "text/javascript; charset=utf-8", ".txt": "text/plain; charset=utf-8",
                      ".xml": "application/xml", ".json": "application/json",
                      ".svg": "image/svg+xml", "": "application/octet-stream"}

    def send_head(self):  # noqa: ANN201 - the stdlib's signature
        if not self.host_allowed():
            body = b"Host not allowed: open the preview at 127.0.0.1 or localhost.\n"
            return self.send_body(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", body)
        parts = urlsplit(self.path)
        base = self.base_path
        if parts.path == "/" and base != "/":
            return self._redirect(base, HTTPStatus.FOUND)  # why: a convenience, not remembered
        query = f"?{parts.query}" if parts.query else ""
        if parts.path + "/" == base:
            return self._redirect(base + query)
        local = self.local_file(parts.path, base)
        if local is None:
            return self.send_not_found()
        if local.is_dir():
            if not parts.path.endswith("/"):
                return self._redirect(parts.path + "/" + query)
            local = self.local_file(parts.path + "index.html", base)
            if local is None or not local.is_file():
                return self.send_not_found()
        return self.send_file(local)

    def host_allowed(self) -> bool:
        """On a loopback address, only loopback Host names: a web page elsewhere that points its
        own domain name at 127.0.0.1 (DNS rebinding) must not read the preview."""
        bound = str(self.server.server_address[0])
        if bound not in ("127.0.0.1", "::1") and not bound.startswith("127."):
            return True
        given = self.headers.get("Host")
        if not given:
            return True  # why: HTTP/1.0 clients send none, and a browser always does
        try:
            host = _host_name(given)
            return host.lower() == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:  # why: not a host name ('['), or not an address ('127.0.0.1.evil.com')
            return False

    @property
    def directory_path(self) -> Path:
        return Path(self.directory).resolve()

    def local_file(self, url_path: str, base_path: str | None = None) -> Path | None:
        """The file a URL path names inside the site, or None if outside it or missing."""
        base_path = self.base_path if base_path is None else base_path
        if not url_path.startswith(base_path):
            return None
        relative = unquote(url_path[len(base_path):])
        if "\\" in relative or "\x00" in relative:
            return None
        normal = posixpath.normpath("/" + relative).lstrip("/")
        root = self.directory_path
        candidate = (root / normal).resolve()
        if candidate != root and root not in candidate.parents:
            return None
        return candidate if candidate.exists() else None

    def send_file(self, local: Path):  # noqa: ANN201
        """Headers for one file of the site; the stdlib opens and streams it."""
        self.path = "/" + local.relative_to(self.directory_path).as_posix()
        return super().send_head()

    def send_not_found(self):  # noqa: ANN201
        """404 with the site's own 404.html, as GitHub Pages answers at any depth."""
        try:
            body = (self.directory_path / paths.NOT_FOUND).read_bytes()
        except OSError:
            body = FALLBACK_404
        return self.send_page(HTTPStatus.NOT_FOUND, body)

    def send_page(self, status: HTTPStatus, body: bytes):  # noqa: ANN201
        """Headers for an HTML page held in memory; do_GET sends the body, do_HEAD drops it."""
        return self.send_body(status, "text/html; charset=utf-8", body)

    def send_body(self, status: HTTPStatus, content_type: str, body: bytes):  # noqa: ANN201
        """Headers for a response held in memory."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def _redirect(self, location: str, status: HTTPStatus = HTTPStatus.MOVED_PERMANENTLY) -> None:
        self.send_response(status)
        # why: '//host/...' would send the browser to another site (an open redirect).
        self.send_header("Location", "/" + location.lstrip("/"))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Only failures: a 404 often means a link without the base path."""
        if isinstance(code, int) and code >= 400:
            super().log_request(code, size)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib name
        sys.stderr.write("  %s\n" % (format % args))


class LiveHandler(SiteHandler):
    """SiteHandler plus the reload script in HTML pages, the event stream, and no caching."""

    status: BuildStatus
    """Set on the subclass each server makes; holds the base path and the site's version."""
    version = ""

    @property  # type: ignore[override]
    def base_path(self) -> str:
        """Read per request: a rebuild may move the site when site.yaml's base_url changes."""
        return self.status.base_path

    def do_GET(self) -> None:
        if urlsplit(self.path).path == livereload.EVENTS_PATH:
            self.stream_events()
        else:
            super().do_GET()

    def send_head(self):  # noqa: ANN201
        # why: the version is read before any file, so a page from a build swapped in meanwhile
        # carries the older version and its tab reloads once more, never the other way round.
        self.version = self.status.current.version
        source = livereload.script(urlsplit(self.path).path)
        if source is not None:
            return self.send_body(HTTPStatus.OK, "text/javascript; charset=utf-8", source)
        return super().send_head()

    def send_file(self, local: Path):  # noqa: ANN201
        if local.suffix != ".html":
            return super().send_file(local)
        quick = self.status.quick_page(local.relative_to(self.directory_path).as_posix())
        if quick is not None:  # why: made anew (building/quickpages.py) while the full build runs
            return self.send_page(HTTPStatus.OK, quick)
        try:
            body = local.read_bytes()
        except OSError:  # why: a rebuild swapped the folder between finding and reading the file
            return self.send_not_found()
        return self.send_page(HTTPStatus.OK, body)

    def send_page(self, status: HTTPStatus, body: bytes):  # noqa: ANN201
        # why: a 404 page is named by no build as the address it is shown at
        return super().send_page(status, livereload.inject(body, self.version,
                                                           always=status != HTTPStatus.OK))

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def stream_events(self) -> None:
        """Server-Sent Events: the current status at once, then every new one until closed."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        seen = None
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while not self.status.closed:
                current = self.status.wait(seen, HEARTBEAT)
                self.wfile.write(current.event() if current != seen else b": ping\n\n")
                seen = current
        except (ConnectionError, TimeoutError):
            self.close_connection = True


class PreviewServer(ThreadingHTTPServer):
    """A thread per request, a deep accept queue, and quiet about clients that hang up."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class PreviewServer6(PreviewServer):
    """PreviewServer on an IPv6 address."""

    address_family = socket.AF_INET6


def _host_name(given: str) -> str:
    """The name in a Host header, without its port: 'a:80' -> 'a', '[::1]:80' -> '::1';
    ValueError for anything else."""
    if given.startswith("["):
        name, closed, rest = given[1:].partition("]")
    else:
        name, closed, rest = given.partition(":")
        rest = closed + rest
    if (given.startswith("[") and not closed) or (rest and not re.fullmatch(r":\d{1,5}", rest)):
        raise ValueError(given)
    return name


def handler_for(out: Path, base_path: str, status: BuildStatus | None):  # noqa: ANN201
    """What the server calls per request to serve `out`; live (reload script, events) with a status."""
    if status is None:
        handler = type("Handler", (SiteHandler,), {"base_path": base_path})
    else:
        handler = type("Handler", (LiveHandler,), {"status": status})
    directory = str(out.resolve())
    return lambda *args, **kwargs: handler(*args, directory=directory, **kwargs)


def open_server(host: str, port: int, handler) -> PreviewServer | None:  # noqa: ANN001
    """Listen on host:port; None, after saying what to do instead, if that is not possible."""
    server_class = PreviewServer6 if ":" in host else PreviewServer
    try:
        return server_class((host, port), handler)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            print(f"error: port {port} is busy (another server is using it); pass --port with "
                  "another number, or --port 0 to pick a free one", file=sys.stderr)
        else:
            print(f"error: cannot listen on {host}:{port}: {err.strerror or err}", file=sys.stderr)
        return None
