"""A local static server that mounts the site at its base path, as GitHub Pages would."""

from __future__ import annotations

import errno
import functools
import posixpath
import sys
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import urls as paths
from .pipeline import BuildOptions
from .urls import Urls


class SiteHandler(SimpleHTTPRequestHandler):
    """GET/HEAD of files under the base path; 404.html for anything missing."""

    base_path = "/"
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".xml": "application/xml", ".json": "application/json",
                      ".js": "text/javascript", "": "application/octet-stream"}

    def send_head(self):  # noqa: ANN201 - the stdlib's signature
        path = urlsplit(self.path).path
        if path + "/" == self.base_path or (path == "/" and self.base_path != "/"):
            self._redirect(self.base_path)
            return None
        local = self.local_file(path)
        if local is None:
            return self._not_found()
        if local.is_dir():
            if not path.endswith("/"):
                self._redirect(path + "/")
                return None
            local = local / "index.html"
            if not local.is_file():
                return self._not_found()
        self.path = "/" + local.relative_to(self.directory_path).as_posix()
        return super().send_head()

    @property
    def directory_path(self) -> Path:
        return Path(self.directory).resolve()

    def local_file(self, url_path: str) -> Path | None:
        """The file a URL path names inside the site, or None if outside it or missing."""
        if not url_path.startswith(self.base_path):
            return None
        relative = unquote(url_path[len(self.base_path):])
        if "\\" in relative or "\x00" in relative:
            return None
        normal = posixpath.normpath("/" + relative).lstrip("/")
        candidate = (self.directory_path / normal).resolve()
        root = self.directory_path
        if candidate != root and root not in candidate.parents:
            return None
        return candidate if candidate.exists() else None

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _not_found(self):  # noqa: ANN202
        page = self.directory_path / paths.NOT_FOUND
        body = page.read_bytes() if page.is_file() else b"Not found\n"
        self.send_response(HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib name
        sys.stderr.write("  %s\n" % (format % args))


def serve(options: BuildOptions, host: str, port: int) -> int:
    """Serve the built site until Ctrl-C."""
    from .config import load_config
    base_path = Urls(load_config(options.content, options.base_url).base_url).base_path
    handler = functools.partial(type("Handler", (SiteHandler,), {"base_path": base_path}),
                                directory=str(options.out.resolve()))
    try:
        server = ThreadingHTTPServer((host, port), handler)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            print(f"error: port {port} is busy; pass --port with another number, or --port 0",
                  file=sys.stderr)
            return 1
        raise
    url = f"http://{host}:{server.server_address[1]}{base_path}"
    print(f"Serving {options.out} at {url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.")
    finally:
        server.server_close()
    return 0
