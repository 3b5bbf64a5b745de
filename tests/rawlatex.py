"""The NeurIPS 2018 corpus as a digest, and where a built site shows a reader raw LaTeX.

`neurips_content()` turns data/neurips2018-papers.jsonl.gz into a content folder;
`raw_latex()` lists, per output (page, feed item, search document), the raw LaTeX it shows.
Run as a script to count the pages of a built site that show it:

    python tests/rawlatex.py CONTENT_DIR OUT_DIR   # writes the content, builds, counts
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import feedparser
import yaml
from lxml import html as lxml_html

REPO = Path(__file__).resolve().parent.parent
NEURIPS = REPO / "data" / "neurips2018-papers.jsonl.gz"
RAW = re.compile(r"\\[A-Za-z]|\$")
SITE_YAML = """\
title: NeurIPS 2018
description: The papers of NeurIPS 2018.
base_url: https://example.org/neurips/
feed_items: 2000
search_budget_kb: 100000
"""
_HIDDEN = frozenset({"script", "style", "template"})


def neurips_records() -> list[dict]:
    """The corpus, one dict per paper (title, authors, abstract, pdf, code, project, ...)."""
    with gzip.open(NEURIPS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def neurips_content(root: Path) -> Path:
    """A content folder under `root` with one paper file per corpus record."""
    content = root / "content"
    (content / "papers").mkdir(parents=True, exist_ok=True)
    (content / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    for number, record in enumerate(neurips_records()):
        links = {kind: record[kind] for kind in ("pdf", "code", "project") if record.get(kind)}
        front = {"title": record["title"], "authors": record["authors"], "date": "2018-12-03",
                 "abstract": record["abstract"], "venue": "NeurIPS 2018", "links": links}
        text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True) + "---\n"
        (content / "papers" / f"paper-{number:04d}.md").write_text(text, encoding="utf-8")
    return content


def visible_text(page: Path) -> str:
    """A page's <title>, OpenGraph texts and the text of its body a reader sees, math too
    (not scripts, styles or the BibTeX block)."""
    tree = lxml_html.fromstring(page.read_bytes())
    parts = [tree.findtext(".//title") or ""]
    for meta in tree.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").startswith(("og:", "description")):
            parts.append(meta.get("content") or "")
    body = tree.find("body")
    if body is not None:
        parts.extend(_shown(body))
    return " ".join(parts)


def _shown(element) -> list[str]:
    """The text of an element and its children, skipping hidden elements' contents."""
    # why: the BibTeX block keeps the TeX as written, for copying into a paper
    if (not isinstance(element.tag, str) or element.tag.split("}")[-1] in _HIDDEN
            or "bibtex" in (element.get("class") or "").split()):
        return [element.tail or ""] if isinstance(element.tag, str) else []
    out = [element.text or ""]
    for child in element:
        out.extend(_shown(child))
    out.append(element.tail or "")
    return out


def raw_latex(out: Path) -> dict[str, list[str]]:
    """Per output (page path, feed item, search document): the raw LaTeX snippets it shows."""
    found: dict[str, list[str]] = {}

    def scan(where: str, text: str) -> None:
        hits = [text[max(m.start() - 20, 0):m.end() + 20] for m in RAW.finditer(text)]
        if hits:
            found[where] = hits

    for page in sorted(out.rglob("*.html")):
        scan(page.relative_to(out).as_posix(), visible_text(page))
    for entry in feedparser.parse((out / "feed.xml").read_bytes()).entries:
        shown = lxml_html.fromstring(f"<div>{entry.description}</div>").text_content()
        scan(f"feed: {entry.link}", f"{entry.title} {shown}")
    for chunk in sorted((out / "search" / "docs").glob("*.json")):
        for doc in json.loads(chunk.read_text(encoding="utf-8")):
            scan(f"search: {doc['url']}", " ".join(str(v) for v in doc.values()))
    return found


def paper_pages(found: dict[str, list[str]]) -> list[str]:
    """The paper pages among the outputs that show raw LaTeX."""
    return sorted(where for where in found if where.startswith("papers/"))


def main(content_root: str, out: str) -> None:
    content = neurips_content(Path(content_root))
    start = time.perf_counter()
    subprocess.run([sys.executable, "build.py", "--content", str(content), "--out", out,
                    "--no-cache"], cwd=REPO, check=True)
    print(f"built in {time.perf_counter() - start:.1f} s")
    found = raw_latex(Path(out))
    for where, hits in found.items():
        print(where, hits[:3])
    print(f"{len(paper_pages(found))} paper pages, {len(found)} outputs show raw LaTeX")


if __name__ == "__main__":
    main(*sys.argv[1:])
