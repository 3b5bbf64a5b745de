"""`build.py serve` end to end: a real server in a subprocess on a copy of the ICLR digest.

Every wait polls with a deadline (serveprocess); the server is always stopped in teardown.
"""

from __future__ import annotations

import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from factories import REPO, paper_source, write_content
import sitecheck
from generator.outputs.interface import OVERLAY_MESSAGES
from serveprocess import ServerProcess

PAPER = "content/papers/agentoccam.md"
TITLE = "AgentOccam: A Simple Yet Strong Baseline for LLM-Based Web Agents"


def copy_content(root: Path, copies: int = 1) -> Path:
    """A copy of the repository's content/ under `root`, each paper there `copies` times."""
    shutil.copytree(REPO / "content", root / "content")
    for paper in sorted((root / "content/papers").glob("*.md")):
        # why: a copy must not repeat the paper's arXiv/OpenReview ids, which the build rejects
        text = re.sub(r"(?m)^links:\n(?:  .*\n)+", "", paper.read_text(encoding="utf-8"))
        for n in range(2, copies + 1):
            paper.with_name(f"{paper.stem}-{n}.md").write_text(text, encoding="utf-8")
    return root / "content"


def edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(root: Path, path: str, start: str) -> int:
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


def start(root: Path, *args: str) -> ServerProcess:
    return ServerProcess("--content", "content", "--out", "_site", *args, cwd=root)


@pytest.fixture(scope="module")
def iclr(tmp_path_factory):
    root = tmp_path_factory.mktemp("served")
    copy_content(root)
    with start(root) as server:
        yield root, server


@pytest.fixture()
def fresh(tmp_path):
    copy_content(tmp_path)
    with start(tmp_path) as server:
        yield tmp_path, server


def test_serve_prints_a_free_port_and_mounts_the_site_at_its_base_path(iclr):
    root, server = iclr
    assert server.url.startswith("http://127.0.0.1:") and server.base_path == "/iclr-digest/"
    assert TITLE in server.page("")
    assert TITLE in server.page("papers/agentoccam/")
    for path, location in [("/iclr-digest", "/iclr-digest/"), ("/", "/iclr-digest/"),
                           ("/iclr-digest/papers/agentoccam", "/iclr-digest/papers/agentoccam/")]:
        status, headers, _ = server.request(path)
        assert (status, headers["Location"]) == (302 if path == "/" else 301, location)


@pytest.mark.parametrize("path, content_type", [
    ("", "text/html; charset=utf-8"), ("feed.xml", "application/xml"),
    ("search/index.json", "application/json"), ("sitemap.xml", "application/xml"),
    ("robots.txt", "text/plain; charset=utf-8"), ("404.html", "text/html; charset=utf-8"),
    ("assets/lunr.min.js", "text/javascript; charset=utf-8")])
def test_serve_answers_each_file_with_its_content_type(iclr, path, content_type):
    status, headers, _ = iclr[1].request(iclr[1].base_path + path)
    assert (status, headers["Content-Type"]) == (200, content_type)


def test_serve_injects_the_reload_script_into_served_pages_only(iclr):
    root, server = iclr
    assert '<script src="/__digest/livereload.js" data-version="' in server.page("")
    assert "__digest" not in (root / "_site/index.html").read_text(encoding="utf-8")
    assert server.request(server.base_path + "feed.xml")[2] == (root / "_site/feed.xml").read_bytes()


@pytest.mark.parametrize("path", ["no-such-page", "papers/no-such-paper/", "a/b/c/d/e.html"])
def test_serve_answers_404_with_the_sites_404_page_at_any_depth(iclr, path):
    root, server = iclr
    status, _, body = server.request(server.base_path + path)
    not_found = (root / "_site/404.html").read_bytes()
    assert status == 404 and body.startswith(not_found[: not_found.rindex(b"</body>")])


TRAVERSALS = ["/iclr-digest/../secret.txt", "/iclr-digest/%2e%2e/secret.txt",
              "/iclr-digest/%2E%2E/%2E%2E/secret.txt", "/iclr-digest/..%2fsecret.txt",
              "/iclr-digest/..%5csecret.txt", "/iclr-digest/..\\secret.txt",
              "/iclr-digest/papers/..%2f..%2f..%2fsecret.txt", "/iclr-digest/link-out",
              "/iclr-digest/folder-out/secret.txt", "/iclr-digest//etc/passwd",
              "/iclr-digest/%2fetc%2fpasswd", "//etc/passwd", "/etc/passwd", "/../secret.txt",
              "/iclr-digest/%00../secret.txt", "http://127.0.0.1/iclr-digest/../secret.txt",
              "{root}/secret.txt", "/iclr-digest{root}/secret.txt"]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_serve_never_answers_with_a_file_outside_the_site(iclr, target):
    root, server = iclr
    (root / "secret.txt").write_text("TOP SECRET")
    for name, points_to in (("link-out", root / "secret.txt"), ("folder-out", root)):
        if not (root / "_site" / name).is_symlink():
            (root / "_site" / name).symlink_to(points_to)
    status, _, body = raw_request(server, target.format(root=root))
    assert b"TOP SECRET" not in body and b"root:" not in body
    assert status in (301, 302, 400, 404)


def raw_request(server: ServerProcess, target: str) -> tuple[int, bytes, bytes]:
    """Send the request line exactly as given (http.client would refuse some of these)."""
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(f"GET {target} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode("latin-1"))
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), head, body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_serve_allows_only_get_and_head(iclr, method):
    assert iclr[1].request(iclr[1].base_path, method)[0] == 501


def test_serve_answers_head_with_headers_only(iclr):
    server = iclr[1]
    status, headers, body = server.request(server.base_path, "HEAD")
    assert (status, body) == (200, b"") and int(headers["Content-Length"]) > 1000


def test_serve_keeps_answering_through_many_requests_and_clients_that_hang_up(iclr):
    server = iclr[1]
    paths = ["", "papers/agentoccam/", "search/index.json", "feed.xml", "nope/"] * 40
    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda p: server.request(server.base_path + p)[0], paths))
    assert statuses.count(200) == 160 and statuses.count(404) == 40
    for target in [server.base_path + "search/index.json", server.base_path, "/__digest/events"]:
        for _ in range(10):
            hang_up_mid_response(server, target)
    for _ in range(10):
        socket.create_connection((server.host, server.port), timeout=10).close()
    assert TITLE in server.page("papers/agentoccam/")
    assert server.process.poll() is None
    assert not [line for line in server.stderr if "Traceback" in line or "Error" in line]


def hang_up_mid_response(server: ServerProcess, path: str) -> None:
    sock = socket.create_connection((server.host, server.port), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
    sock.recv(100)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()  # why: linger 0 sends a reset, as a closed tab or a killed curl does


def test_serve_rebuilds_after_an_edit_and_sends_a_reload_event(fresh):
    root, server = fresh
    with server.events() as events:
        first = events.next()
        assert first["errors"] == [] and first["version"] in server.page("")
        server.wait_for_output(r"^Ready to show saved papers at once \([\d.]+ s\)$")
        edit(root, PAPER, TITLE, "AgentOccam, Retitled")
        # first the paper's own page and the lists that show its row, made from the last
        # build, for the tabs that show them
        quick = events.wait_for(lambda e: e["version"] != first["version"])
        assert quick["previous"] == first["version"]
        assert quick["only"][0] == "/iclr-digest/papers/agentoccam/"
        assert {"/iclr-digest/", "/iclr-digest/tags/llm/"} <= set(quick["only"][1:])
        event = events.wait_for(lambda e: e["version"] != quick["version"])
    # then the full build, which names what it changed but the quick pages it made alike: a
    # tab that shows or has read none of those takes it without reloading
    assert event["errors"] == [] and event["previous"] == quick["version"]
    assert not set(quick["only"]) & set(event["only"])
    assert {"/iclr-digest/search/index.json", "/iclr-digest/list.json"} <= set(event["only"])
    page = server.page("papers/agentoccam/")
    assert "AgentOccam, Retitled" in page and event["version"] in page
    assert "__digest" not in (root / "_site/papers/agentoccam/index.html").read_text()
    assert server.wait_for_output(r"^Changed: content/papers/agentoccam\.md; rebuilding$")
    assert server.wait_for_output(r"^Showed /iclr-digest/papers/agentoccam/, /iclr-digest/, "
                                  r"\S+ and \d+ more in [\d.]+ s; building the rest$")


def test_serve_shows_errors_until_the_file_is_fixed(fresh):
    root, server = fresh
    line = line_of(root, PAPER, "date:")
    with server.events() as events:
        good = events.next()
        edit(root, PAPER, "date: 2026-11-29", "date: 29/11/2026")
        failed = events.wait_for(lambda e: e["errors"])
        expected = f"{PAPER}:{line}: 'date' must be YYYY-MM-DD, got '29/11/2026'"
        # the same version: the files it names (`only`) are still those of the last build
        assert {key: failed[key] for key in ("version", "errors", "messages")} == {
            "version": good["version"], "errors": [expected],
            "messages": {"hide": sitecheck.said("Hide"),
                         "buildFailed": sitecheck.said(OVERLAY_MESSAGES["buildFailed"])}}
        server.wait_for_output("^" + re.escape(expected), stream="stderr")
        assert TITLE in server.page("papers/agentoccam/")  # the last good site
        edit(root, PAPER, "date: 29/11/2026", "date: 2026-11-28")
        fixed = events.wait_for(lambda e: not e["errors"])
    assert fixed["version"] != good["version"] and fixed["version"] in server.page("")


def test_serve_makes_one_rebuild_for_a_burst_of_saves(fresh):
    root, server = fresh
    papers = sorted((root / "content/papers").glob("*.md"))[:5]
    for paper in papers:
        paper.write_text(paper.read_text() + "\nA note.\n")
    server.wait_for_output(r"^Changed: .* and 2 more; rebuilding$")
    edit(root, PAPER, TITLE, "Sentinel edit")
    server.wait_for_output(r"^Changed: content/papers/agentoccam\.md; rebuilding$")
    assert len([line for line in server.stdout if line.startswith("Changed:")]) == 2


def test_serve_follows_a_running_rebuild_with_exactly_one_more(tmp_path):
    copy_content(tmp_path, copies=16)  # why: ~300 papers, so a build lasts long enough to edit during it
    with start(tmp_path) as server:
        edit(tmp_path, PAPER, TITLE, "First edit")
        server.wait_for_output(r"^Changed: content/papers/agentoccam\.md; rebuilding$")
        edit(tmp_path, "content/papers/agentoccam-2.md", TITLE, "Second edit")
        edit(tmp_path, "content/papers/agentoccam-3.md", TITLE, "Third edit")
        assert not [line for line in server.stdout if line.startswith("Rebuilt")], \
            "the first rebuild ended before the next edits; the test proves nothing"
        second = server.wait_for_output(r"^Changed: (.*); rebuilding$", after=server.stdout.index(
            "Changed: content/papers/agentoccam.md; rebuilding") + 1)
        assert second.group(1) == ("content/papers/agentoccam-2.md, "
                                   "content/papers/agentoccam-3.md")
        edit(tmp_path, "content/papers/agentoccam-4.md", TITLE, "Sentinel edit")
        server.wait_for_output(r"^Changed: content/papers/agentoccam-4\.md; rebuilding$")
        assert len([line for line in server.stdout if line.startswith("Changed:")]) == 3
        assert "Third edit" in server.page("papers/agentoccam-3/")


def test_serve_stops_at_once_on_ctrl_c_mid_build_and_leaves_no_temp_folder(tmp_path):
    copy_content(tmp_path, copies=16)
    with start(tmp_path) as server:
        edit(tmp_path, PAPER, TITLE, "Edited")
        server.wait_for_output(r"^Changed: ")
        started = time.monotonic()
        assert server.stop() == 0
        assert not [line for line in server.stdout if line.startswith("Rebuilt")]
        assert time.monotonic() - started < 3
        assert server.stdout[-1] == "Stopped."
    assert sorted(p.name for p in tmp_path.iterdir()) == [".digest-cache", "_site", "content"]
    assert (tmp_path / "_site/index.html").is_file()


def test_serve_stops_on_sigterm_too(fresh):
    assert fresh[1].stop(signal.SIGTERM) == 0 and fresh[1].stdout[-1] == "Stopped."


def test_serve_starts_on_broken_content_and_shows_the_site_once_it_is_fixed(tmp_path):
    content = write_content(tmp_path, {"x": paper_source(title="Fixed", date="someday")})
    with start(tmp_path) as server:
        assert server.wait_for_output(r"papers/x\.md:5: 'date'", stream="stderr")
        status, _, body = server.request(server.base_path)
        assert status == 404 and b"/__digest/livereload.js" in body
        with server.events() as events:
            assert events.next()["errors"]
            (content / "papers/x.md").write_text(paper_source(title="Fixed"))
            events.wait_for(lambda e: not e["errors"])
        assert "Fixed" in server.page("papers/x/")


def test_serve_with_drafts_serves_draft_papers(tmp_path):
    write_content(tmp_path, {"x": paper_source(), "d": paper_source(draft=True)})
    with start(tmp_path, "--drafts") as server:
        assert server.request(server.base_path + "papers/d/")[0] == 200
    with start(tmp_path) as server:
        assert server.request(server.base_path + "papers/d/")[0] == 404


def test_serve_no_reload_serves_the_built_files_as_they_are(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    with start(tmp_path, "--no-reload") as server:
        assert server.request(server.base_path)[2] == (tmp_path / "_site/index.html").read_bytes()
        assert server.request("/__digest/events")[0] == 404


def test_serve_no_reload_refuses_to_start_on_broken_content(tmp_path):
    write_content(tmp_path, {"x": paper_source(date="someday")})
    result = run_serve(tmp_path, "--no-reload", "--port", "0")
    assert result.returncode == 1 and "papers/x.md:5: 'date'" in result.stderr


def test_serve_says_so_when_the_port_is_busy(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port))
    assert result.returncode == 1
    assert f"error: port {port} is busy" in result.stderr and "--port 0" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_open_opens_the_printed_url_in_a_browser(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    opener = tmp_path / "open.sh"
    opener.write_text(f'#!/bin/sh\necho "$1" > "{tmp_path}/opened.txt"\n')
    opener.chmod(0o755)
    with ServerProcess("--open", cwd=tmp_path, env={"BROWSER": f"{opener} %s"}) as server:
        deadline = time.monotonic() + 30
        while not (tmp_path / "opened.txt").is_file():
            assert time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.05)
        assert (tmp_path / "opened.txt").read_text().strip() == server.url


def run_serve(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO / "build.py"), "serve", *args], cwd=root,
                          capture_output=True, text=True, timeout=60)


def test_a_second_ctrl_c_while_the_server_stops_is_ignored(tmp_path):
    copy_content(tmp_path, copies=16)
    with start(tmp_path) as server:
        edit(tmp_path, PAPER, TITLE, "Edited")
        server.wait_for_output(r"^Changed: ")
        for _ in range(3):  # one to stop it, then more while it stops
            server.process.send_signal(signal.SIGINT)
            time.sleep(0.02)
        assert server.stop() == 0
        assert server.stdout[-1] == "Stopped."
        assert not [line for line in server.stderr if "Traceback" in line]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".digest-cache", "_site", "content"]


def test_ctrl_c_pressed_again_and_again_until_the_server_has_ended_is_ignored(tmp_path):
    """Every Ctrl-C after the first, up to the end of the process, whenever it comes: one that
    came after the cleanup once ended the process by an uncaught KeyboardInterrupt (-2)."""
    copy_content(tmp_path)
    with start(tmp_path) as server:
        deadline = time.monotonic() + 20
        while server.process.poll() is None and time.monotonic() < deadline:
            try:
                server.process.send_signal(signal.SIGINT)
            except ProcessLookupError:
                break
            time.sleep(0.002)
        assert server.stop() == 0
        assert server.stdout[-1] == "Stopped."
        assert not [line for line in server.stderr if "Traceback" in line]
