import functools
import http.client
import threading
from http.server import ThreadingHTTPServer

import pytest

from generator.serve import SiteHandler


@pytest.fixture()
def server(tmp_path):
    site = tmp_path / "site"
    (site / "papers/x").mkdir(parents=True)
    (site / "index.html").write_text("home")
    (site / "papers/x/index.html").write_text("paper")
    (site / "404.html").write_text("not found page")
    (site / "feed.xml").write_text("<rss/>")
    (tmp_path / "secret.txt").write_text("secret")
    (site / "link-out").symlink_to(tmp_path / "secret.txt")
    handler = functools.partial(type("H", (SiteHandler,), {"base_path": "/repo/"}), directory=str(site))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd.server_address[1]
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
    assert get(server, "/repo/")[::3] == (200, b"home")
    assert get(server, "/repo/papers/x/")[::3] == (200, b"paper")
    assert get(server, "/repo/feed.xml")[2] == "application/xml"


def test_serve_redirects_to_the_base_path_and_folder_slash(server):
    assert get(server, "/repo")[:2] == (301, "/repo/")
    assert get(server, "/")[:2] == (301, "/repo/")
    assert get(server, "/repo/papers/x")[:2] == (301, "/repo/papers/x/")


def test_serve_answers_404_with_the_site_page_at_any_depth(server):
    status, _, content_type, body = get(server, "/repo/no/such/page/")
    assert (status, body) == (404, b"not found page")
    assert content_type == "text/html; charset=utf-8"


@pytest.mark.parametrize("path", ["/repo/../secret.txt", "/repo/%2e%2e/secret.txt",
                                  "/repo/..%2fsecret.txt", "/repo/..%5csecret.txt",
                                  "/repo/link-out", "/repo//etc/passwd", "/etc/passwd"])
def test_serve_never_answers_with_a_file_outside_the_site(server, path):
    status, _, _, body = get(server, path)
    assert b"secret" not in body and b"root:" not in body
    assert status in (301, 404)


def test_serve_allows_only_get_and_head(server):
    assert get(server, "/repo/", "POST")[0] == 501
    assert get(server, "/repo/", "HEAD")[::3] == (200, b"")
