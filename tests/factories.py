"""Small factories for test inputs: a content folder with a config and a few papers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml

from generator.records import Paper, Site, SiteConfig, Tag

REPO = Path(__file__).resolve().parent.parent

SITE_YAML = """\
title: Test Digest
subtitle: A digest for tests
description: Papers for tests.
base_url: https://example.org/digest/
curator: Tester
"""


def paper_source(**fields: object) -> str:
    """A paper file: the given front matter (defaults filled in) and an optional body."""
    body = str(fields.pop("body", ""))
    front = {"title": "A Paper", "authors": ["Ada Lovelace"], "date": "2025-04-24",
             "abstract": "We study things."}
    front.update(fields)
    front = {k: v for k, v in front.items() if v is not None}
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True) + "---\n" + body


def write_content(root: Path, papers: dict[str, str], site_yaml: str = SITE_YAML) -> Path:
    """A content folder under `root` with site.yaml and papers/<slug>.md files."""
    content = root / "content"
    (content / "papers").mkdir(parents=True, exist_ok=True)
    (content / "site.yaml").write_text(site_yaml, encoding="utf-8")
    for slug, text in papers.items():
        (content / "papers" / f"{slug}.md").write_text(text, encoding="utf-8")
    return content


def make_config(**overrides: object) -> SiteConfig:
    """A SiteConfig for tests."""
    values: dict = {"title": "Test Digest", "base_url": "https://example.org/digest/",
                    "description": "Papers for tests."}
    values.update(overrides)
    return SiteConfig(**values)


def make_paper(slug: str = "a-paper", **overrides: object) -> Paper:
    """A Paper record without going through the files."""
    values: dict = {
        "slug": slug, "source": f"content/papers/{slug}.md", "title": "A Paper",
        "authors": ("Ada Lovelace",), "date": dt.date(2025, 4, 24), "abstract": "We study things.",
        "abstract_html": "<p>We study things.</p>", "abstract_text": "We study things.",
    }
    if "tags" in overrides:
        overrides["tags"] = tuple(Tag(t, t.lower().replace(" ", "-")) for t in overrides["tags"])
    values.update(overrides)
    return Paper(**values)


def make_site(papers: list[Paper], **config: object) -> Site:
    """A Site from papers, sorted and grouped as the build does."""
    from generator.site import build_site, reading_order
    return build_site(reading_order(papers), make_config(**config),
                      dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc))


ASSETS = {"site.css": "/digest/assets/site.css?v=1", "search.js": "/digest/assets/search.js?v=1",
          "lunr.min.js": "/digest/assets/lunr.min.js?v=1", "favicon.svg": "/digest/assets/favicon.svg?v=1",
          "search-ui.js": "/digest/assets/search-ui.js?v=1", "search-page.js": "/digest/assets/search-page.js?v=1",
          "search-worker.js": "/digest/assets/search-worker.js?v=1",
          "search-query.js": "/digest/assets/search-query.js?v=1",
          "search-index.js": "/digest/assets/search-index.js?v=1",
          "search-answer.js": "/digest/assets/search-answer.js?v=1",
          "search-read.js": "/digest/assets/search-read.js?v=1",
          "copy-text.js": "/digest/assets/copy-text.js?v=1"}


def pages_of(site: Site) -> dict[str, str]:
    """Every HTML page of a site, rendered with the real templates, by output path."""
    from generator.render import make_environment, render_pages
    env = make_environment(REPO / "templates")
    return {f.path: f.data.decode() for f in render_pages(site, env, ASSETS)}
