"""The 1,008 real NeurIPS 2018 papers built as a digest: no page, feed item or search document
shows a reader raw LaTeX (a backslash macro or a `$`), and the curator is told what was guessed."""

from __future__ import annotations

import json

import feedparser
import pytest

import rawlatex
from factories import REPO
from generator.building.pipeline import BuildOptions, StageTimer, build

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("neurips")
    lines: list[str] = []
    out = root / "site"
    build(BuildOptions(content=rawlatex.neurips_content(root), out=out, project=REPO),
          StageTimer(report=lines.append))
    return out, lines


def test_no_output_shows_raw_latex(built):
    out, _ = built
    found = rawlatex.raw_latex(out)
    assert found == {}, f"{len(rawlatex.paper_pages(found))} paper pages show raw LaTeX: " + str(
        list(found.items())[:5])


def test_every_paper_has_its_page_feed_item_and_search_document(built):
    out, _ = built
    assert len(list((out / "papers").glob("*/index.html"))) == 1008
    assert len(feedparser.parse((out / "feed.xml").read_bytes()).entries) == 1008
    docs = [d for chunk in (out / "search/docs").glob("*.json") for d in json.loads(chunk.read_text())]
    assert len(docs) == 1008


def test_titles_are_plain_unicode_in_feed_and_search(built):
    out, _ = built
    titles = {e.title for e in feedparser.parse((out / "feed.xml").read_bytes()).entries}
    docs = {d["title"] for chunk in (out / "search/docs").glob("*.json")
            for d in json.loads(chunk.read_text())}
    for title in ("ℓ₁-regression with Heavy-tailed Distributions",
                  "Streaming Kernel PCA with Õ(√n) Random Features",
                  "Distributed k-Clustering for Data with Heavy Noise"):
        assert title in titles and title in docs


def test_the_title_heading_is_mathml_and_the_page_title_plain(built):
    out, _ = built
    page = (out / "papers/paper-0000/index.html").read_text()
    assert "<title>ℓ₁-regression with Heavy-tailed Distributions · NeurIPS 2018</title>" in page
    assert '<h1><math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in page
    assert r"title = {{$\ell_1$-regression with Heavy-tailed Distributions}}" in page


def test_the_build_warns_once_per_paper_about_guessed_macros(built):
    _, lines = built
    warnings = [line for line in lines if "unknown LaTeX macro" in line]
    assert any(line.endswith(r"paper-0469.md:9: unknown LaTeX macro \tlO shown as its name")
               for line in warnings), warnings
    files = [line.split()[1].split(":")[0] for line in warnings]
    assert len(files) == len(set(files)) == 26  # siunitx's \micro\metre is known
    assert sum("unbalanced $" in line for line in lines) == 2
