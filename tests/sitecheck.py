"""Helpers for the end-to-end tests: build a site, read its HTML with html.parser, serve it.

Fixtures live in the test files; this module only holds plain functions and classes.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote, urlsplit

import yaml

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
METADATA = REPO / "data" / "iclr2025-metadata.yaml"
BASE_URL = "https://example.org/iclr-digest/"
ROOT_URL = "https://example.org/"
BASE_PATH = "/iclr-digest/"
SOURCE_DATE_EPOCH = "1745452800"  # 2025-04-24 00:00:00 UTC
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VNU_JAR = REPO / "node_modules/vnu-jar/build/dist/vnu.jar"
BUILD_TIMEOUT = 300

# Attributes whose value is a URL the browser follows.
URL_ATTRS = frozenset({"href", "src", "action", "poster", "cite"})
SETTINGS = "assets/settings.js"
"""The script that gives the site's scripts the URLs they follow (generator/outputs/settings.py)."""
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
INVISIBLE = frozenset({"script", "style", "template"})


# --- building ----------------------------------------------------------------------------------

def build(out: Path, base_url: str, content: Path = CONTENT, **env: str) -> Path:
    """Run `build.py build` as a user would (from the repo root); return the output folder."""
    environ = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **env}
    cmd = [sys.executable, "build.py", "build", "--content", str(content), "--out", str(out),
           "--base-url", base_url]
    done = subprocess.run(cmd, cwd=REPO, env=environ, capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT)
    assert done.returncode == 0, (f"build failed ({done.returncode}): {' '.join(cmd)}\n"
                                  f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
    return out


def content_in(language: str, folder: Path, content: Path = CONTENT) -> Path:
    """A copy of `content` in `folder` whose site.yaml sets `language`: the shipped digest
    with another interface, its papers as they are."""
    shutil.copytree(content, folder)
    site_yaml = folder / "site.yaml"
    lines = [line for line in site_yaml.read_text(encoding="utf-8").splitlines()
             if not line.startswith("language:")]
    site_yaml.write_text("\n".join(lines + [f"language: {language}"]) + "\n", encoding="utf-8")
    return folder


@functools.lru_cache(maxsize=None)
def shipped_language() -> str:
    """The interface language of the shipped digest (content/site.yaml)."""
    return yaml.safe_load((CONTENT / "site.yaml").read_text(encoding="utf-8")).get("language", "en")


@functools.lru_cache(maxsize=None)
def shipped_author_page(author_slug: str) -> str:
    """Where the shipped digest lists an author, under its base path: 'authors/<page>/#author-x'."""
    from generator.content.documents import load_documents
    from generator.content.papers import validate
    from generator.model import urls
    from generator.model.slugs import author_slug as slug_of
    papers = [p for p in validate(load_documents(CONTENT)) if not p.draft]
    authors = {slug_of(name) for paper in papers for name in paper.authors} - {""}
    pages = urls.bucket_count(len(authors), urls.AUTHORS_PER_PAGE)
    return f"authors/{urls.bucket(author_slug, pages)}/#{urls.author_anchor(author_slug)}"


def site_model(content: Path = CONTENT, base_url: str = BASE_URL):
    """The shipped digest as the build models it (model.records.Site), for asking the
    registry of page kinds (generator/outputs/kinds.py) which pages it makes."""
    from generator.building.pipeline import read_content
    from generator.content.papers import validate
    from generator.model.site import build_site, updated_time
    from generator.outputs.kinds import groupings
    config, sources, _ = read_content(content, base_url)
    papers = [p for p in validate(sources) if not p.draft]
    updated = updated_time(papers, {"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    return build_site(papers, config, updated, groupings())


def said(message: str, language: str | None = None, **values: str) -> str:
    """`message` as the interface says it in `language` (default: the shipped digest's),
    filled with `values`."""
    text = _interface(language or shipped_language()).gettext(message)
    return text % values if values else text


def said_count(singular: str, plural: str, n: int, language: str | None = None) -> str:
    """A message with a plural as the interface says it for `n`."""
    return _interface(language or shipped_language()).ngettext(singular, plural, n)


def _interface(language: str):
    from generator.content.theme import load_templates
    from generator.outputs.interface import interface
    return interface(load_templates(REPO / "templates"), language)


def load_metadata() -> list[dict]:
    """The source metadata: title, authors, tags of the 19 papers, in order."""
    return yaml.safe_load(METADATA.read_text(encoding="utf-8"))


def site_files(out: Path) -> dict[str, Path]:
    """Every file of a built site by its POSIX path relative to `out`."""
    return {p.relative_to(out).as_posix(): p for p in sorted(out.rglob("*")) if p.is_file()}


def html_pages(out: Path) -> list[Path]:
    """Every .html file of a built site, sorted."""
    return sorted(out.rglob("*.html"))


def page_url_path(relative: str, base_path: str) -> str:
    """The root-relative URL of an output file: `x/index.html` -> `<base>x/`."""
    if relative == "index.html":
        return base_path
    if relative.endswith("/index.html"):
        relative = relative[: -len("index.html")]
    return base_path + relative


# --- reading HTML ------------------------------------------------------------------------------

@dataclass
class Element:
    """A node of a tiny DOM built by html.parser: enough for tests to select and read."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list["Element | str"] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator["Element"]:
        """This element and every element below it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list["Element"]:
        """Descendants (and self) with the tag, class and exact attribute values given."""
        return [e for e in self.iter()
                if (tag is None or e.tag == tag) and (cls is None or cls in e.classes)
                and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> "Element | None":
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def text(self) -> str:
        """Visible text below this element, whitespace collapsed (script/style left out)."""
        parts: list[str] = []

        def walk(node: Element) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in INVISIBLE:
                    walk(child)
        walk(self)
        return " ".join("".join(parts).split())


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, 0)
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: (v or "") for k, v in attrs}, self.getpos()[0])
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {k: (v or "") for k, v in attrs}, self.getpos()[0]))

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching open element; a stray end tag is ignored (vnu judges validity).
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(source: str | Path) -> Element:
    """A document tree of an HTML string or file."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def raw_text(element: Element) -> list[str]:
    """Every text node below `element` as the parser gave it, script text included."""
    return [c if isinstance(c, str) else "".join(raw_text(c)) for c in element.children]


@dataclass(frozen=True)
class UrlRef:
    """One URL found in a page: where, in which element and attribute."""

    page: str
    line: int
    tag: str
    attr: str
    url: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line} <{self.tag} {self.attr}={self.url!r}>"


class _UrlCollector(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.refs: list[UrlRef] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if value is None:
                continue
            if name in URL_ATTRS:
                self.refs.append(UrlRef(self.page, line, tag, name, value))
            elif name == "srcset":
                for candidate in value.split(","):
                    if candidate.strip():
                        self.refs.append(UrlRef(self.page, line, tag, name, candidate.split()[0]))

    handle_startendtag = handle_starttag


def settings(out: Path) -> dict:
    """What assets/settings.js gives the site's scripts (window.DigestSettings)."""
    text = (out / SETTINGS).read_text(encoding="utf-8")
    return json.loads(text[text.index("= ") + 2:text.rindex(";")])


def settings_urls(out: Path) -> list[UrlRef]:
    """The URLs the scripts follow, from the settings script. The search's `docs` names a folder
    of chunks (checked by search_docs()), not a page."""
    given = settings(out)
    search, reading = given["search"], given["reading"]
    named = {"search page": search["page"], "worker": search["worker"], "index": search["index"],
             "meta": search["meta"], **search["scripts"],
             **{key: reading[key] for key in ("home", "saved", "list", "bib", "csl")}}
    return [UrlRef(SETTINGS, 1, "script", key, url) for key, url in named.items()]


def collect_urls(page: Path, out: Path) -> tuple[list[UrlRef], set[str]]:
    """Every href/src (and other URL attribute) of a page, and the ids it defines."""
    collector = _UrlCollector(page.relative_to(out).as_posix())
    collector.feed(page.read_text(encoding="utf-8"))
    collector.close()
    return collector.refs, collector.ids


def all_urls(out: Path) -> list[UrlRef]:
    """Every URL attribute of every HTML page of a built site, and every URL its scripts are
    given."""
    return ([ref for page in html_pages(out) for ref in collect_urls(page, out)[0]]
            + settings_urls(out))


def is_unsafe_scheme(url: str) -> bool:
    """javascript:, data: or vbscript: URLs, however they are spelled or padded."""
    squeezed = "".join(ch for ch in url if ch > " ").lower()
    return squeezed.startswith(("javascript:", "data:", "vbscript:"))


def internal_path(url: str, base_url: str) -> str | None:
    """The URL path of a link into the site, or None for an external one.

    Root-relative URLs and absolute URLs under `base_url` are internal; fragment-only and
    relative URLs are returned as they are for the caller to judge.
    """
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        base = urlsplit(base_url)
        if (parts.scheme, parts.netloc) == (base.scheme, base.netloc):
            return parts.path or "/"
        return None
    return parts.path


def resolve(url_path: str, base_path: str, out: Path) -> Path | None:
    """The file a root-relative URL path names in the built site, as a static host maps it.

    `/base/x/` -> x/index.html, `/base/` -> index.html, `/base/f.css` -> f.css; None if the
    path is outside the base path or names no file.
    """
    if not url_path.startswith(base_path):
        return None
    relative = unquote(url_path[len(base_path):])
    if relative == "" or relative.endswith("/"):
        relative += "index.html"
    target = (out / relative).resolve()
    root = out.resolve()
    if root not in target.parents or not target.is_file():
        return None
    return target


def page_ids(page: Path) -> set[str]:
    """The id attributes a page defines (fragment targets)."""
    return collect_urls(page, page.parent)[1]


# --- serving -----------------------------------------------------------------------------------

@contextlib.contextmanager
def serve(folder: Path, base_path: str) -> Iterator[str]:
    """Serve `folder` under `base_path` with the project's SiteHandler; yields the origin URL."""
    if str(REPO) not in sys.path:  # importable however pytest was started
        sys.path.insert(0, str(REPO))
    from generator.serve.handlers import PreviewServer, SiteHandler

    class QuietHandler(SiteHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    handler = functools.partial(type("H", (QuietHandler,), {"base_path": base_path}),
                                directory=str(folder))
    # why: the preview server's class, quiet about a browser that hangs up mid-file
    server = PreviewServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def search_docs(site: Path) -> list[dict]:
    """The search document store's documents in ref order, where the facet table says each is;
    every document of every chunk is one paper's."""
    meta = json.loads((site / "search/meta.json").read_text(encoding="utf-8"))
    chunks = {p.stem: json.loads(p.read_text(encoding="utf-8"))
              for p in (site / "search/docs").glob("*.json")}
    places = [(row[3], row[4]) for row in meta["papers"]]
    assert sorted(places) == sorted((name, n) for name, docs in chunks.items()
                                    for n in range(len(docs))), "a document no paper points to"
    return [chunks[name][n] for name, n in places]
