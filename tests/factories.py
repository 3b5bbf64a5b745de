"""Small factories for test inputs: a content folder with a config and a few papers."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import yaml

from generator.content.latex import read_title
from generator.model.records import Paper, Site, SiteConfig, Tag, Theme

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


def starting_content(root: Path) -> Path:
    """A content folder of three papers, newest first p1, p2, p3: two share the tag llm."""
    return write_content(root, {
        "p1": paper_source(title="Attention Is Enough", tags=["llm", "vision"]),
        "p2": paper_source(title="Sparse Things", tags=["llm"], date="2025-03-01",
                           body="Notes with $x^2$ and [a link](https://example.org/)."),
        "p3": paper_source(title="Graphs", tags=["graphs"], date="2025-02-01"),
    })


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
    title = str(overrides.get("title", values["title"]))
    reading = read_title(title)
    values.update(title_html=reading.html, title_text=reading.text)
    if "tags" in overrides:
        overrides["tags"] = tuple(Tag(t, t.lower().replace(" ", "-")) for t in overrides["tags"])
    values.update(overrides)
    return Paper(**values)


def make_site(papers: list[Paper], **config: object) -> Site:
    """A Site from papers, sorted and grouped as the build does: by every grouping a kind of
    page shows (generator/outputs/kinds.py)."""
    from generator.model.site import build_site
    from generator.outputs.kinds import groupings
    return build_site(papers, make_config(**config),
                      dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc), groupings())


@functools.lru_cache(maxsize=1)
def theme() -> Theme:
    """The project's own templates, static files and npm libraries."""
    from generator.content.theme import load_theme
    return load_theme(REPO)


def parts_of(site: Site, used: Theme | None = None) -> list:
    """paper_parts() of each paper of a site, in its order, made as the build makes them."""
    from generator.outputs.paperparts import paper_parts, parts_inputs
    return [paper_parts((used or theme()).templates, *inputs) for inputs in parts_inputs(site)]


def page_jobs_with_cards(site: Site, used: Theme | None = None) -> list:
    """page_jobs() of a site, the paper pages' too, its papers' parts (cards) made first as the
    build makes them."""
    from generator.outputs.kinds import page_jobs
    used = used or theme()
    jobs, paper_pages = page_jobs(site, used, parts_of(site, used), related_of(site.papers))
    return jobs + paper_pages()


def related_of(papers) -> dict[str, tuple[str, ...]]:
    """related_papers() of papers, over the search index of their terms as the build makes it."""
    from generator.search.index import build_index
    from generator.search.related import related_papers, tagged
    return related_papers(build_index(tuple(papers)), tagged(papers))


def pages_of(site: Site) -> dict[str, str]:
    """Every HTML page of a site, rendered with the real templates, by output path."""
    return {f.path: f.data.decode() for f in (job.made() for job in page_jobs_with_cards(site))}
