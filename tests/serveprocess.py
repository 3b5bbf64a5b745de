"""`build.py serve` in a subprocess, for the preview-server tests and bench/serve_bench.py.

Each server runs from its own copy of the project (build.py, generator/, templates/, static/), so
edits made to the repository while it runs neither trigger its rebuilds nor change its code.
Every wait has a deadline and polls; nothing sleeps a fixed time. The server is always stopped
(SIGINT, then SIGKILL) and its copy removed when the `with` block ends.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 30.0


class ServerProcess:
    """A running `build.py serve --port 0`, its URL and everything it printed."""

    def __init__(self, *args: str, cwd: Path, env: dict[str, str] | None = None,
                 first_build_timeout: float = TIMEOUT) -> None:
        self.project = copy_project(Path(tempfile.mkdtemp(prefix="serve-project-")))
        command = [sys.executable, str(self.project / "build.py"), "serve", "--port", "0", *args]
        self.process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **(env or {})},
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, encoding="utf-8")
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._lines = threading.Condition()
        self._streams_open = 2
        for stream, lines in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()
        try:
            self.url = self.wait_for_output(r"Serving \S+ at (http://\S+)",
                                            timeout=first_build_timeout).group(1)
        except BaseException:
            self.stop()
            raise
        parts = urlsplit(self.url)
        self.host, self.port, self.base_path = parts.hostname, parts.port, parts.path

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _read(self, stream, lines: list[str]) -> None:  # noqa: ANN001
        for line in stream:
            with self._lines:
                lines.append(line.rstrip("\n"))
                self._lines.notify_all()
        with self._lines:
            self._streams_open -= 1
            self._lines.notify_all()

    def wait_for_output(self, pattern: str, after: int = 0, stream: str = "stdout",
                        timeout: float = TIMEOUT) -> re.Match:
        """The first line of stdout (or stderr) from index `after` on that matches `pattern`."""
        lines = self.stdout if stream == "stdout" else self.stderr
        deadline = time.monotonic() + timeout
        with self._lines:
            while True:
                for line in lines[after:]:
                    if match := re.search(pattern, line):
                        return match
                left = deadline - time.monotonic()
                if left <= 0 or not self._streams_open:
                    raise AssertionError(f"no line matching {pattern!r} on {stream} "
                                         f"(exit {self.process.poll()}):\n" + self.output())
                self._lines.wait(min(left, 0.2))

    def output(self) -> str:
        """Everything printed so far, for assertion messages."""
        return "\n".join(["--- stdout", *self.stdout, "--- stderr", *self.stderr])

    def request(self, path: str, method: str = "GET") -> tuple[int, http.client.HTTPMessage, bytes]:
        """Status, headers (any case) and body of one request to the server."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def page(self, relative: str = "") -> str:
        """The text of a page under the base path, which must answer 200."""
        status, _, body = self.request(self.base_path + relative)
        assert status == 200, f"{relative}: HTTP {status}"
        return body.decode("utf-8")

    def events(self) -> EventStream:
        """A connection to the server's build event stream."""
        return EventStream(self.host, self.port)

    def stop(self, sig: int = signal.SIGINT, timeout: float = 10.0) -> int:
        """Stop the server and return its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.project, ignore_errors=True)
        return self.process.returncode


def copy_project(folder: Path) -> Path:
    """What `build.py serve` runs and watches, copied into `folder`; node_modules/ is linked."""
    shutil.copy(REPO / "build.py", folder)
    for name in ("generator", "templates", "static"):
        shutil.copytree(REPO / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    return folder


class EventStream:
    """Reads `event: build` messages from /__digest/events."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=TIMEOUT)
        self.sock.sendall(b"GET /__digest/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.file = self.sock.makefile("rb")
        head = []
        while line := self.file.readline().rstrip(b"\r\n"):
            head.append(line.decode("latin-1"))
        assert head[0].split()[1] == "200", head
        assert "content-type: text/event-stream" in (h.lower() for h in head), head

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()
        self.sock.close()

    def next(self, timeout: float = TIMEOUT) -> dict:
        """The next build event's data: {'version': ..., 'errors': [...]}."""
        self.sock.settimeout(timeout)
        name, data = None, None
        while True:
            raw = self.file.readline()
            assert raw, "the event stream was closed"
            line = raw.decode("utf-8").rstrip("\r\n")
            if not line and name == "build" and data is not None:
                return json.loads(data)
            if line.startswith("event:"):
                name = line.partition(":")[2].strip()
            elif line.startswith("data:"):
                data = line.partition(":")[2].strip()

    def wait_for(self, test, timeout: float = TIMEOUT) -> dict:  # noqa: ANN001
        """Read events until one passes `test`; fail after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.next(left)
            if test(event):
                return event
        raise AssertionError("no matching build event before the deadline")
