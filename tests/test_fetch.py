"""`fetch`: downloading arXiv, OpenReview and DOI records, against a local server that serves
the saved responses in tests/import_fixtures/ (these tests never reach the internet)."""

from __future__ import annotations

import datetime as dt
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from generator.importers.fetch import USER_AGENT, FetchFailed, fetch, parse_specs
from factories import write_content
from generator.importers.formats import read_papers

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"


class Saved(BaseHTTPRequestHandler):
    """Answers like the three services, from saved files; records every request."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        self.server.seen.append((time.monotonic(), self.path, dict(self.headers)))
        if parts.path == "/api/query" and "id_list" in query:
            self.answer(200, (FIXTURES / "arxiv-query.xml").read_bytes())
        elif parts.path == "/busy/api/query":
            self.answer(200, b"Rate exceeded.")
        elif parts.path == "/notes" and query.get("id") == ["oRlANEuqG5"]:
            self.answer(200, (FIXTURES / "openreview-v2.json").read_bytes())
        elif parts.path == "/10.48550/arXiv.2409.05657":
            self.answer(200, (FIXTURES / "doi-csl.json").read_bytes())
        elif parts.path == "/moved/10.1000/abc":
            self.send_response(302)
            self.send_header("Location", "ftp://example.org/x")
            self.end_headers()
        else:
            self.answer(404, b'{"name": "NotFoundError"}')

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture()
def server(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)  # why: 127.0.0.1 must not go through a proxy
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Saved)
    httpd.seen = []
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def bases(httpd, arxiv: str = "/api/query") -> dict[str, str]:
    root = f"http://127.0.0.1:{httpd.server_address[1]}"
    return {"arxiv": root + arxiv, "openreview": root + "/notes", "doi": root + "/"}


def test_fetch_saves_each_service_answer_for_read_papers(server, tmp_path):
    files = fetch(["arxiv:2409.11136", "openreview:oRlANEuqG5", "doi:10.48550/arXiv.2409.05657",
                   "arxiv:2410.12730v3"], tmp_path, bases(server), pause=0)
    assert [f.name for f in files] == ["arxiv-1.xml", "openreview-oRlANEuqG5.json",
                                       "doi-10.48550-arXiv.2409.05657.json"]
    assert [path for _, path, _ in server.seen] == [
        "/api/query?id_list=2409.11136%2C2410.12730v3&max_results=2",
        "/notes?id=oRlANEuqG5", "/10.48550/arXiv.2409.05657"]
    headers = [h for _, _, h in server.seen]
    assert {h["User-Agent"] for h in headers} == {USER_AGENT}
    assert [h["Accept"] for h in headers] == [
        "application/atom+xml", "application/json", "application/vnd.citationstyles.csl+json"]
    assert read_papers(files[0])[1].links["arxiv"] == "2410.12730"
    assert read_papers(files[2])[0].date == dt.date(2024, 1, 1)


def test_fetch_batches_arxiv_ids(server, tmp_path, monkeypatch):
    monkeypatch.setattr("generator.importers.fetch.ARXIV_BATCH", 2)
    files = fetch(["arxiv:2409.11136", "arxiv:2410.12730", "arxiv:2409.05657"], tmp_path,
                  bases(server), pause=0)
    assert [f.name for f in files] == ["arxiv-1.xml", "arxiv-2.xml"]
    assert [path for _, path, _ in server.seen] == [
        "/api/query?id_list=2409.11136%2C2410.12730&max_results=2",
        "/api/query?id_list=2409.05657&max_results=1"]


def test_fetch_pauses_between_requests_to_one_host(server, tmp_path):
    with pytest.raises(FetchFailed):
        fetch(["openreview:oRlANEuqG5", "openreview:oXh0939Zzq"], tmp_path, bases(server),
              pause=0.3)
    first, second = [t for t, _, _ in server.seen]
    assert second - first >= 0.3


def test_fetch_http_error_names_host_status_and_spec(server, tmp_path):
    with pytest.raises(FetchFailed) as failed:
        fetch(["doi:10.1000/missing"], tmp_path, bases(server), pause=0)
    assert str(failed.value) == ("127.0.0.1 answered HTTP 404 Not Found for doi:10.1000/missing: "
                                 "no such record; check the id")


def test_fetch_arxiv_rate_limit_text_is_an_error(server, tmp_path):
    with pytest.raises(FetchFailed) as failed:
        fetch(["arxiv:2409.11136"], tmp_path, bases(server, "/busy/api/query"), pause=0)
    assert str(failed.value) == ("127.0.0.1 answered 'Rate exceeded.' instead of a feed (it does "
                                 "so when asked too often); wait a minute and retry")


def test_fetch_refuses_a_redirect_away_from_http(server, tmp_path):
    urls = {**bases(server), "doi": bases(server)["doi"] + "moved/"}
    with pytest.raises(FetchFailed) as failed:
        fetch(["doi:10.1000/abc"], tmp_path, urls, pause=0)
    assert str(failed.value).startswith("127.0.0.1 answered HTTP 302 redirect to "
                                        "'ftp://example.org/x' refused for doi:10.1000/abc")


def test_fetch_offline_says_what_to_do(tmp_path, monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(FetchFailed) as failed:
        fetch(["arxiv:2409.11136"], tmp_path, {"arxiv": f"http://127.0.0.1:{port}/api/query"},
              pause=0, timeout=5)
    message = str(failed.value)
    assert message.startswith("could not reach 127.0.0.1: ")
    assert message.endswith(" — check the connection, or download the file and run "
                            "`build.py import FILE`")


def test_specs_are_checked_before_any_request(server, tmp_path):
    with pytest.raises(FetchFailed) as failed:
        fetch(["arxiv:2409.11136", "arxiv:not-an-id", "pubmed:123", "doi:10.1/x y"], tmp_path,
              bases(server), pause=0)
    assert str(failed.value) == (
        "'arxiv:not-an-id' is not a valid arxiv id; 'pubmed:123' must start with arxiv:, "
        "openreview: or doi: (e.g. arxiv:2409.05657, openreview:oe51Q5Uo37, doi:10.1145/3650000); "
        "'doi:10.1/x y' is not a valid doi id")
    assert server.seen == []


def test_specs_are_case_insensitive_in_kind_and_deduplicated():
    assert parse_specs(["ArXiv:2409.11136", "arxiv:2409.11136", "DOI:10.1000/xyz123"]) == [
        ("arxiv", "2409.11136"), ("doi", "10.1000/xyz123")]


def test_a_base_url_must_be_http(tmp_path):
    with pytest.raises(FetchFailed) as failed:
        fetch(["arxiv:2409.11136"], tmp_path, {"arxiv": "file:///etc/passwd"}, pause=0)
    assert str(failed.value) == ("the arxiv address 'file:///etc/passwd?id_list=2409.11136&"
                                 "max_results=1' is not an http(s) URL")


# The fetch command: downloads as above, then imports as `import` does


def fetch_command(server, monkeypatch, tmp_path: Path, *args: str) -> int:
    """`build.py fetch ARGS` in-process against the local server, in a digest at tmp_path."""
    from generator.cli import main
    from generator.importers import fetch as fetching
    monkeypatch.setattr(fetching, "BASE_URLS", bases(server))
    monkeypatch.setattr(fetching, "PAUSE", 0.0)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return main(["fetch", *args, "--date", "2025-01-02"])


SPECS = ["arxiv:2409.11136", "openreview:oRlANEuqG5", "doi:10.48550/arXiv.2409.05657"]


def test_fetch_command_imports_what_it_downloads_and_keeps_no_file(server, tmp_path,
                                                                   monkeypatch, capsys):
    write_content(tmp_path, {})
    assert fetch_command(server, monkeypatch, tmp_path, *SPECS) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "fetched 3 files (--save DIR keeps them)"
    assert out[1:4] == ["created (7):",
                        "  content/papers/promptriever.md  <- arxiv-1.xml:10",
                        "  content/papers/counterfactual-generative-modeling-with-variational-"
                        "causal.md  <- arxiv-1.xml:50"]
    assert "  content/papers/adversarial-attacks-on-data-attribution.md  <- " \
           "doi-10.48550-arXiv.2409.05657.json:1" in out
    assert out[-1] == "Import: 7 created, 0 updated, 0 unchanged, 0 skipped, 2 drafts, 0 tag warnings."
    assert sorted(p.name for p in (tmp_path / "content/papers").iterdir()) == [
        "adversarial-attacks-on-data-attribution.md", "agentoccam.md",
        "counterfactual-generative-modeling-with-variational-causal.md",
        "dynamic-low-rank-sparse-adaptation-for-large-language-models.md", "promptriever.md",
        "support-is-all-you-need-for-certified-vae-training.md", "track-on.md"]
    assert list((tmp_path / "tmp").iterdir()) == [], "the temporary folder is gone"


def test_fetch_command_save_keeps_the_files_and_import_of_them_finds_the_same_papers(
        server, tmp_path, monkeypatch, capsys):
    write_content(tmp_path, {})
    assert fetch_command(server, monkeypatch, tmp_path, *SPECS, "--save", "saved",
                         "--tag", "Retrieval") == 0
    out = capsys.readouterr().out
    assert out.startswith("fetched saved/arxiv-1.xml, saved/openreview-oRlANEuqG5.json, "
                          "saved/doi-10.48550-arXiv.2409.05657.json\ncreated (7):\n"
                          "  content/papers/promptriever.md  <- saved/arxiv-1.xml:10\n")
    assert "- retrieval\n" in (tmp_path / "content/papers/promptriever.md").read_text()
    from generator.cli import main
    files = sorted(str(p) for p in (tmp_path / "saved").iterdir())
    assert main(["import", *files, "--update"]) == 0
    assert capsys.readouterr().out.endswith(
        "Import: 0 created, 0 updated, 7 unchanged, 0 skipped, 0 drafts, 0 tag warnings.\n")


def test_fetch_command_dry_run_writes_nothing(server, tmp_path, monkeypatch, capsys):
    write_content(tmp_path, {})
    assert fetch_command(server, monkeypatch, tmp_path, "arxiv:2409.11136", "--dry-run") == 0
    assert capsys.readouterr().out.endswith("; dry run, nothing was written.\n")
    assert list((tmp_path / "content/papers").iterdir()) == []


def test_fetch_command_offline_is_one_clear_error_and_exit_1(server, tmp_path, monkeypatch,
                                                             capsys):
    write_content(tmp_path, {})
    server.shutdown()
    server.server_close()  # why: nothing listens on its port now, as when offline
    assert fetch_command(server, monkeypatch, tmp_path, "arxiv:2409.11136") == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("error: could not reach 127.0.0.1: ")
    assert err[0].endswith(" — check the connection, or download the file and run "
                           "`build.py import FILE`")
    assert err[1:] == ["Fetch failed; nothing was imported."]
    assert list((tmp_path / "content/papers").iterdir()) == []


def test_a_failed_fetch_leaves_no_save_folder(server, tmp_path, monkeypatch, capsys):
    write_content(tmp_path, {})
    code = fetch_command(server, monkeypatch, tmp_path, "arxiv:2409.11136", "doi:10.1000/missing",
                         "--save", "downloads")
    assert code == 1 and "Fetch failed; nothing was imported." in capsys.readouterr().err
    assert not (tmp_path / "downloads").exists()


def test_fetch_command_bad_id_is_a_usage_error_before_any_request(server, tmp_path,
                                                                  monkeypatch, capsys):
    write_content(tmp_path, {})
    assert fetch_command(server, monkeypatch, tmp_path, "arxiv:2409.11136", "isbn:123") == 2
    assert capsys.readouterr().err == (
        "error: 'isbn:123' must start with arxiv:, openreview: or doi: (e.g. arxiv:2409.05657, "
        "openreview:oe51Q5Uo37, doi:10.1145/3650000)\n")
    assert server.seen == []
