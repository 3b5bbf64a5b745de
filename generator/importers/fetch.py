"""`build.py fetch`: download arXiv, OpenReview and DOI records into files `read_papers` reads.

One request per OpenReview note and per DOI, one per hundred arXiv ids; a pause between
requests to the same host (arXiv asks for 3 seconds), a timeout on each, and an error
that says what to do when the network or the server fails.
"""

from __future__ import annotations

import re
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from ..content.links import is_http_url
from .cleaning import checked_id, terminal_safe

BASE_URLS = {
    "arxiv": "https://export.arxiv.org/api/query",
    "openreview": "https://api2.openreview.net/notes",
    "doi": "https://doi.org/",
}
"""Where each kind of record comes from; tests point these at a local server."""
ACCEPT = {"arxiv": "application/atom+xml", "openreview": "application/json",
          "doi": "application/vnd.citationstyles.csl+json"}
USER_AGENT = "paper-digest/1 (build.py fetch; a static site generator for paper digests)"
PAUSE = 3.0
"""Seconds between two requests to one host: arXiv's API manual asks for three."""
ARXIV_BATCH = 100
"""arXiv ids per request: its manual suggests at most a few hundred results per call."""
MAX_BYTES = 50 * 1024 * 1024
_SPEC = re.compile(r"^(arxiv|openreview|doi):(.+)$", re.I)


class FetchFailed(Exception):
    """A download that did not work, with what to do about it."""


def fetch(specs: list[str], folder: Path, base_urls: dict[str, str] | None = None,
          pause: float | None = None, timeout: float = 30.0) -> list[Path]:
    """Download every `arxiv:ID`, `openreview:ID` and `doi:DOI` into `folder`; the saved
    files, arXiv's first, then OpenReview's, then the DOIs', each in the order given.
    Every spec is checked before the first request, and `folder` is made and written only
    once every download has worked, so a failed fetch leaves no folder behind. BASE_URLS and
    PAUSE are read at each call, so a test can point them at a local server."""
    wanted = parse_specs(specs)
    bases = {**BASE_URLS, **(base_urls or {})}
    client = _Client(PAUSE if pause is None else pause, timeout)
    answers: list[tuple[str, bytes]] = []
    arxiv_ids = [value for kind, value in wanted if kind == "arxiv"]
    for number, start in enumerate(range(0, len(arxiv_ids), ARXIV_BATCH), start=1):
        batch = arxiv_ids[start:start + ARXIV_BATCH]
        query = urlencode({"id_list": ",".join(batch), "max_results": len(batch)})
        body = client.get(f"{bases['arxiv']}?{query}", "arxiv", f"arxiv:{batch[0]}")
        if not body.lstrip().startswith(b"<"):
            raise FetchFailed(f"{_host(bases['arxiv'])} answered '{_preview(body)}' instead of "
                              "a feed (it does so when asked too often); wait a minute and retry")
        answers.append((f"arxiv-{number}.xml", body))
    for kind, value in wanted:
        if kind == "openreview":
            url = f"{bases['openreview']}?{urlencode({'id': value})}"
        elif kind == "doi":
            url = bases["doi"] + quote(value, safe="/:;()._-")
        else:
            continue
        body = client.get(url, kind, f"{kind}:{value}")
        answers.append((f"{kind}-{re.sub(r'[^A-Za-z0-9._-]+', '-', value)}.json", body))
    folder.mkdir(parents=True, exist_ok=True)
    return [_save(folder / name, body) for name, body in answers]


def parse_specs(specs: list[str]) -> list[tuple[str, str]]:
    """(kind, id) for each spec; FetchFailed naming every one that is not a valid
    `arxiv:`, `openreview:` or `doi:` id, before anything is downloaded."""
    wanted, wrong = [], []
    for spec in specs:
        match = _SPEC.match(spec.strip())
        kind, value = (match.group(1).lower(), match.group(2).strip()) if match else ("", "")
        if kind and checked_id(kind, value):
            wanted.append((kind, value))
        elif kind:
            wrong.append(f"'{spec}' is not a valid {kind} id")
        else:
            wrong.append(f"'{spec}' must start with arxiv:, openreview: or doi: "
                         "(e.g. arxiv:2409.05657, openreview:oe51Q5Uo37, doi:10.1145/3650000)")
    if wrong:
        raise FetchFailed("; ".join(wrong))
    return list(dict.fromkeys(wanted))


def _host(url: str) -> str:
    return urlsplit(url).hostname or url


def _preview(body: bytes) -> str:
    return terminal_safe(body[:60].decode("utf-8", "replace"))


def _save(path: Path, body: bytes) -> Path:
    path.write_bytes(body)
    return path


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects (doi.org sends one to the publisher) only to http(s) URLs."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not is_http_url(newurl):
            raise urllib.error.HTTPError(newurl, code, f"redirect to '{newurl}' refused",
                                         headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _Client:
    """GET requests with our User-Agent, a timeout, and a pause between calls to one host."""

    def __init__(self, pause: float, timeout: float):
        self.pause = pause
        self.timeout = timeout
        self.last: dict[str, float] = {}
        self.opener = urllib.request.build_opener(_HttpOnlyRedirects)

    def get(self, url: str, kind: str, spec: str) -> bytes:
        """The body of a 200 answer; FetchFailed saying what went wrong and what to do."""
        host = _host(url)
        if not is_http_url(url):
            raise FetchFailed(f"the {kind} address '{url}' is not an http(s) URL")
        self._wait(host)
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT,
                                                       "Accept": ACCEPT[kind]})
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                body = response.read(MAX_BYTES + 1)
        except urllib.error.HTTPError as err:
            raise FetchFailed(_http_error(host, err.code, err.reason, spec)) from None
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError) as err:
            reason = getattr(err, "reason", err)
            raise FetchFailed(f"could not reach {host}: {reason} — check the connection, or "
                              "download the file and run `build.py import FILE`") from None
        finally:
            self.last[host] = time.monotonic()
        if len(body) > MAX_BYTES:
            raise FetchFailed(f"{host} sent more than {MAX_BYTES // 2**20} MB for {spec}")
        return body

    def _wait(self, host: str) -> None:
        if host in self.last:
            time.sleep(max(0.0, self.pause - (time.monotonic() - self.last[host])))


def _http_error(host: str, status: int, reason: object, spec: str) -> str:
    """'doi.org answered HTTP 404 Not Found for doi:10.1/x: no such record; check the id'."""
    hint = {404: "no such record; check the id",
            429: "too many requests; wait a minute and try again",
            503: "the service is busy or down; wait a minute and try again"}.get(
        status, "try again later, or download the file and run `build.py import FILE`")
    return terminal_safe(f"{host} answered HTTP {status} {reason} for {spec}: {hint}")
