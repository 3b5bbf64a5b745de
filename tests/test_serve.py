import http.client
import socket
import threading

import pytest

from generator.serve.livereload import BuildStatus
from generator.serve.handlers import PreviewServer, SiteHandler, handler_for, open_server


def make_site(tmp_path):
    site = tmp_path / "site"
    (site / "papers/x").mkdir(parents=True)
    (site / "index.html").write_text("<body>home</body>")
    (site / "papers/x/index.html").write_text("paper")
    (site / "404.html").write_text("<body>not found page</body>")
    (site / "feed.xml").write_text("<rss/>")
    (tmp_path / "secret.txt").write_text("secret")
    (site / "link-out").symlink_to(tmp_path / "secret.txt")
    (site / "folder-out").mkdir()
    (site / "folder-out/index.html").symlink_to(tmp_path / "secret.txt")
    return site


def run(httpd):
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return httpd.server_address[1]


@pytest.fixture()
def server(tmp_path):
    site = make_site(tmp_path)
    httpd = PreviewServer(("127.0.0.1", 0), handler_for(site, "/repo/", None))
    yield run(httpd)
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def live(tmp_path):
    status = BuildStatus("/repo/")
    httpd = PreviewServer(("127.0.0.1", 0), handler_for(make_site(tmp_path), "/repo/", status))
    yield run(httpd), status
    status.close()
    httpd.shutdown()
    httpd.server_close()


def get(port, path, method="GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, response.getheader("Location"), response.getheader("Content-Type"), body


def test_serve_answers_pages_under_the_base_path(server):
    assert get(server, "/repo/")[::3] == (200, b"<body>home</body>")
    assert get(server, "/repo/papers/x/")[::3] == (200, b"paper")
    assert get(server, "/repo/feed.xml")[2] == "application/xml"


def test_serve_redirects_to_the_base_path_and_folder_slash(server):
    assert get(server, "/repo")[:2] == (301, "/repo/")
    assert get(server, "/")[:2] == (302, "/repo/")
    assert get(server, "/repo/papers/x")[:2] == (301, "/repo/papers/x/")
    assert get(server, "/repo/papers/x?q=a")[:2] == (301, "/repo/papers/x/?q=a")


def test_serve_answers_404_with_the_site_page_at_any_depth(server):
    status, _, content_type, body = get(server, "/repo/no/such/page/")
    assert (status, body) == (404, b"<body>not found page</body>")
    assert content_type == "text/html; charset=utf-8"


@pytest.mark.parametrize("path", ["/repo/../secret.txt", "/repo/%2e%2e/secret.txt",
                                  "/repo/..%2fsecret.txt", "/repo/..%5csecret.txt",
                                  "/repo/link-out", "/repo/folder-out/", "/repo//etc/passwd",
                                  "/etc/passwd"])
def test_serve_never_answers_with_a_file_outside_the_site(server, path):
    status, _, _, body = get(server, path)
    assert b"secret" not in body and b"root:" not in body
    assert status in (301, 404)


def test_serve_allows_only_get_and_head(server):
    assert get(server, "/repo/", "POST")[0] == 501
    assert get(server, "/repo/", "HEAD")[::3] == (200, b"")


def test_serve_says_when_the_port_is_busy(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert open_server("127.0.0.1", port, SiteHandler) is None
    assert f"port {port} is busy" in capsys.readouterr().err


def test_live_serve_injects_the_reload_script_into_html_only(live):
    port, status = live
    version = status.current.version
    script = f'<script src="/__digest/livereload.js" data-version="{version}"></script>'.encode()
    assert get(port, "/repo/")[3] == b"<body>home" + script + b"</body>"
    # a 404 page reloads at every new version: no build names it at the address it is shown at
    always = script.replace(b"></script>", b' data-always=""></script>')
    assert get(port, "/repo/no/such/")[::3] == (404, b"<body>not found page" + always + b"</body>")
    assert get(port, "/repo/feed.xml")[3] == b"<rss/>"


def test_live_serve_answers_with_no_store_so_no_tab_keeps_a_stale_page(live):
    conn = http.client.HTTPConnection("127.0.0.1", live[0], timeout=10)
    conn.request("GET", "/repo/feed.xml")
    assert conn.getresponse().getheader("Cache-Control") == "no-store"
    conn.close()


def test_live_serve_shows_a_page_with_the_script_when_there_is_no_site_yet(tmp_path):
    status = BuildStatus("/")
    httpd = PreviewServer(("127.0.0.1", 0), handler_for(tmp_path / "not-built", "/", status))
    port = run(httpd)
    try:
        code, _, content_type, body = get(port, "/")
        assert (code, content_type) == (404, "text/html; charset=utf-8")
        assert b"/__digest/livereload.js" in body
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_live_serve_answers_the_scripts_and_streams_build_events(live):
    port, status = live
    assert get(port, "/__digest/livereload.js")[::2] == (200, "text/javascript; charset=utf-8")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/__digest/events")
    events = conn.getresponse()
    assert events.getheader("Content-Type") == "text/event-stream"
    assert events.readline() == b"retry: 1000\n" and events.readline() == b"\n"
    assert events.readline() == b"event: build\n"
    assert status.current.version.encode() in events.readline()
    events.readline()
    status.publish(["content/papers/x.md:3: bad"], site_changed=False)
    assert events.readline() == b"event: build\n"
    assert b"content/papers/x.md:3: bad" in events.readline()
    conn.close()


def test_live_serve_moves_with_the_base_path(live):
    port, status = live
    status.publish([], site_changed=True, base_path="/moved/")
    assert get(port, "/moved/papers/x/")[0] == 200
    assert get(port, "/repo/papers/x/")[0] == 404
    assert get(port, "/")[:2] == (302, "/moved/")


@pytest.mark.parametrize("path", ["//evil.example/..%2fpapers", "///evil.example/../papers",
                                  "/%2fevil.example/..%2fpapers"])
def test_serve_never_redirects_to_another_host(tmp_path, path):
    httpd = PreviewServer(("127.0.0.1", 0), handler_for(make_site(tmp_path), "/", None))
    port = run(httpd)
    try:
        status, location, _, _ = get(port, path)
        assert status == 404 or not location.startswith("//")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_serve_refuses_a_foreign_host_name_on_loopback(server):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.request("GET", "/repo/", headers={"Host": "attacker.example:80"})
    response = conn.getresponse()
    assert response.status == 403 and b"home" not in response.read()
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.request("GET", "/repo/", headers={"Host": f"localhost:{server}"})
    assert conn.getresponse().status == 200
    conn.close()


@pytest.mark.parametrize("host", ["127.0.0.1.evil.com", "127.attacker.example", "[", "localhost.evil",
                                  "0.0.0.0", "[::1].evil"])
def test_serve_refuses_host_names_that_only_look_like_loopback(server, host):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.request("GET", "/repo/", headers={"Host": host})
    assert conn.getresponse().status == 403
    conn.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2:8000", "[::1]:8000", "LOCALHOST"])
def test_serve_answers_loopback_host_names(server, host):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.request("GET", "/repo/", headers={"Host": host})
    assert conn.getresponse().status == 200
    conn.close()


def test_live_serve_answers_a_quick_page_in_place_of_its_file_until_the_next_build(live):
    port, status = live
    status.publish_quick({"papers/x/index.html": b"<body>quick</body>"}, ["/repo/papers/x/"])
    for path in ("/repo/papers/x/", "/repo/papers/x/index.html"):
        assert get(port, path)[3].startswith(b"<body>quick<script ")
    assert get(port, "/repo/")[3].startswith(b"<body>home<script ")
    status.publish([], site_changed=True)
    assert get(port, "/repo/papers/x/")[3].startswith(b"paper<script ")
