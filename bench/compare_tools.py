"""Hugo and Pelican beside our build: installed for the benchmark only, fed the same digest.

Used by bench/build_bench.py --compare. Hugo comes from Debian (`apt-get install -y hugo`,
0.111.x on bookworm), Pelican 4.12 and Markdown from PyPI into bench/.venv-pelican (gitignored);
neither is a project dependency. Each converter writes a site folder from a synthetic content
folder (bench/synthetic.py): the same papers, titles, authors, dates, tags, abstract and notes.

Hugo's site is made like ours where it matters for the work done: the home page and each tag
page list their papers 50 to a page (page/2/, page/3/, ... with newer/older links), each card
with an excerpt, and every RSS feed (the site's and each tag's) holds the newest 50 papers, as
ours (site.yaml's page_size and feed_items, both 50 by default).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

BENCH = Path(__file__).resolve().parent
PELICAN_VENV = BENCH / ".venv-pelican"
PELICAN_PINS = ["pelican==4.12.0", "markdown==3.11.3"]
BASE_URL = "https://bench.example.org/synthetic/"

PAGE_SIZE = 50
"""Papers per list page and per feed, as ours by default."""
HUGO_CONFIG = f"""baseURL = "{BASE_URL}"
title = "Synthetic Digest"
languageCode = "en"
disableKinds = ["section"]  # why: our digest has no papers/ list page, only home and tag lists
{{paging}}
[taxonomies]
tag = "tags"
"""
HUGO_PAGING = {
    # why: Hugo renamed both (paginate became [pagination] pagerSize in 0.128; 0.111 reads
    # [services.rss] limit, older ones rssLimit): hugo_config picks what the version reads
    "paginate": f"paginate = {PAGE_SIZE}",
    "pagerSize": f"[pagination]\npagerSize = {PAGE_SIZE}",
    "rssLimit": f"rssLimit = {PAGE_SIZE}",
    "services.rss": f"[services.rss]\nlimit = {PAGE_SIZE}",
}
HUGO_TAGS = ('<ul class="tags">{{ range .GetTerms "tags" }}<li><a href="{{ .RelPermalink }}">'
             '{{ .LinkTitle }}</a></li>{{ end }}</ul>\n')
HUGO_LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = .Site.RegularPages }}{{ end }}
{{ $pager := .Paginate $pages }}
<p class="meta">{{ len $pages }} papers</p>
{{ range $pager.Pages }}<article class="card"><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<p class="authors">{{ delimit .Params.authors ", " }}</p>
<p class="meta">{{ .Params.venue }} · <time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time></p>
<p class="excerpt">{{ delimit (first 40 (split .Plain " ")) " " }}</p>{{ partial "tags.html" . }}</article>
{{ end }}{{ partial "pagination.html" $pager }}{{ end }}
"""
HUGO_PAGINATION = """{{ if gt .TotalPages 1 }}<nav class="pagination" aria-label="Pages">
{{ with .Prev }}<a rel="prev" href="{{ .URL }}">← Newer papers</a>{{ end }}
<span>Page {{ .PageNumber }} of {{ .TotalPages }}</span>
{{ with .Next }}<a rel="next" href="{{ .URL }}">Older papers →</a>{{ end }}</nav>{{ end }}
"""
HUGO_LAYOUTS = {
    "_default/baseof.html": """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><header><a href="{{ .Site.Home.RelPermalink }}">{{ .Site.Title }}</a> · <a href="{{ "tags/" | relURL }}">Tags</a></header>
<main>{{ block "main" . }}{{ end }}</main></body></html>
""",
    "_default/single.html": """{{ define "main" }}<article class="paper"><h1>{{ .Title }}</h1>
<p class="authors">{{ delimit .Params.authors ", " }}</p>
<p class="meta">{{ .Params.venue }} · added <time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time></p>
{{ partial "tags.html" . }}<h2>Abstract</h2><div class="abstract">{{ .Content }}</div></article>{{ end }}
""",
    "_default/list.html": HUGO_LIST,
    "_default/term.html": HUGO_LIST,
    "_default/taxonomy.html": """{{ define "main" }}<h1>{{ .Title }}</h1><ul class="tag-index">
{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>
{{ end }}</ul>{{ end }}
""",
    "partials/tags.html": HUGO_TAGS,
    "partials/pagination.html": HUGO_PAGINATION,
}
PELICAN_CONF = f"""SITENAME = "Synthetic Digest"
SITEURL = "{BASE_URL.rstrip('/')}"
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
THEME = "simple"
DEFAULT_PAGINATION = False
SUMMARY_MAX_LENGTH = 40
# why: our digest has no author pages; one per co-author would triple Pelican's page count
AUTHOR_SAVE_AS = ""
AUTHORS_SAVE_AS = ""
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
"""


def read_paper(path: Path) -> tuple[dict, str]:
    """One synthetic paper file: its front matter and its notes (Markdown, maybe empty)."""
    _, front, notes = path.read_text(encoding="utf-8").split("---\n", 2)
    return yaml.safe_load(front), notes.strip()


def papers(content: Path):  # noqa: ANN201
    """(slug, front matter, body) for every paper, in file order; body = abstract + notes."""
    for path in sorted((content / "papers").glob("*.md")):
        meta, notes = read_paper(path)
        yield path.stem, meta, (meta["abstract"] + ("\n\n" + notes if notes else "")) + "\n"


def hugo_config(version: str) -> str:
    """hugo.toml for Hugo `version` ("0.111.3"): list pages of PAGE_SIZE papers, feeds of the
    newest PAGE_SIZE, with the settings' names that version reads."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", version)[:2]) or (0, 111)
    pages = "pagerSize" if numbers >= (0, 128) else "paginate"
    feeds = "services.rss" if numbers >= (0, 111) else "rssLimit"
    # why: a top-level key after a [table] would belong to the table
    paging = "\n".join(sorted((HUGO_PAGING[pages], HUGO_PAGING[feeds]), key=lambda t: "[" in t))
    return HUGO_CONFIG.format(paging=paging)


def hugo_site(content: Path, site: Path, version: str = "0.111.3") -> Path:
    """A Hugo site (config, theme-less layouts/, content/papers/*.md) holding the digest."""
    (site / "content" / "papers").mkdir(parents=True)
    (site / "hugo.toml").write_text(hugo_config(version), encoding="utf-8")
    for name, text in HUGO_LAYOUTS.items():
        (site / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "layouts" / name).write_text(text, encoding="utf-8")
    for slug, meta, body in papers(content):
        front = {"title": meta["title"], "date": str(meta["date"]), "tags": meta["tags"],
                 "authors": meta["authors"], "venue": meta["venue"]}
        lines = [f"{key}: {json.dumps(value)}" for key, value in front.items()]  # JSON is YAML
        (site / "content" / "papers" / f"{slug}.md").write_text(
            "---\n" + "\n".join(lines) + "\n---\n" + body, encoding="utf-8")
    return site


def pelican_site(content: Path, site: Path) -> Path:
    """A Pelican project (pelicanconf.py, content/*.md with metadata headers) holding the digest."""
    (site / "content").mkdir(parents=True)
    (site / "pelicanconf.py").write_text(PELICAN_CONF, encoding="utf-8")
    for slug, meta, body in papers(content):
        header = [f"Title: {meta['title']}", f"Date: {meta['date']}", f"Slug: {slug}",
                  f"Tags: {', '.join(meta['tags'])}", f"Authors: {', '.join(meta['authors'])}"]
        (site / "content" / f"{slug}.md").write_text("\n".join(header) + "\n\n" + body,
                                                      encoding="utf-8")
    return site


def hugo_command(hugo: str, site: Path, out: Path) -> list[str]:
    """Hugo's build of `site` into `out`; its cache folder (modules, images: unused here) in `site`."""
    return [hugo, "--source", str(site), "--destination", str(out), "--cacheDir",
            str(site / ".hugo-cache"), "--quiet"]


def pelican_command(pelican: Path, site: Path, out: Path) -> list[str]:
    """Pelican's build of `site` into `out` (no content cache: Pelican's default)."""
    return [str(pelican), str(site / "content"), "-o", str(out), "-s", str(site / "pelicanconf.py"),
            "-q"]


def ensure_hugo() -> tuple[str, str] | None:
    """Hugo's path and version, installing Debian's package if needed; None (said why) if not."""
    if not shutil.which("hugo"):
        print("installing Hugo for the comparison: apt-get install -y hugo", flush=True)
        sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
        for step in (["apt-get", "install", "-y", "-q", "hugo"], ["apt-get", "update", "-q"],
                     ["apt-get", "install", "-y", "-q", "hugo"]):
            done = subprocess.run(sudo + step, capture_output=True, text=True)
            if done.returncode == 0 and step[1] == "install":
                break
    hugo = shutil.which("hugo")
    if not hugo:
        print("Hugo skipped: Debian's hugo package could not be installed (needs apt-get as root).")
        return None
    found = re.search(r"v(\d+\.\d+\.\d+)", subprocess.run([hugo, "version"], capture_output=True,
                                                           text=True).stdout)
    return hugo, found.group(1) if found else "?"


def ensure_pelican() -> tuple[Path, str] | None:
    """Pelican's executable and version in bench/.venv-pelican, made if missing; None if not."""
    python, pelican = PELICAN_VENV / "bin" / "python", PELICAN_VENV / "bin" / "pelican"
    probe = [str(python), "-c", "from importlib.metadata import version; print(version('pelican'))"]
    if not (python.exists() and subprocess.run(probe, capture_output=True).returncode == 0):
        print(f"installing {' and '.join(PELICAN_PINS)} into {PELICAN_VENV}", flush=True)
        made = subprocess.run([sys.executable, "-m", "venv", "--clear", str(PELICAN_VENV)],
                              capture_output=True, text=True)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", *PELICAN_PINS],
                             capture_output=True, text=True) if made.returncode == 0 else made
        if pip.returncode != 0:
            print(f"Pelican skipped: could not install it ({pip.stderr.strip()[-300:]})")
            return None
    version = subprocess.run(probe, capture_output=True, text=True).stdout.strip()
    return pelican, version
